/**
 * New game and the end of a game at a big table, on a 320 or 360 px phone with the text at 100% and
 * 200%: every game's name whole in the game picker (a select draws one line: "5000 (bu…" was both
 * 5000s), every seat's name whole (a text field cannot wrap: "Alexandra Papadopoulou" and
 * "Alexandra Papadopoulos" both showed "Alexandra"), the new player's field inside its card, and a
 * win shared by five counted in the heading ("5 players share the win!"), their names under it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addTestStyles, appSession, layoutProblems } from './harness.ts';
import { audit } from './axe-audit.ts';
import { selectShows } from './select-shows.ts';
import { backupFile, padRoll, restoreBackup, setUpGame, startGame } from './table-helpers.ts';
import { GAMES, optionSpecs } from '../../src/lib/rules/index.ts';
import type { BackupFile } from '../../src/lib/store/backup.ts';

const app = appSession();

const SIZES = [
  { width: 320, height: 568 },
  { width: 360, height: 640 },
];
const TEXT = ['100%', '200%'];

/** Each walk ends on Home. */
afterEach(async () => {
  const { page } = app;
  while (!(await page.getByTestId('new-game').isVisible())) await page.getByRole('button', { name: 'Back', exact: true }).click();
});

/**
 * Each seat's name as a player can read it: the field's whole value when it fits, else what the
 * field shows, unless the whole name is written out under the field.
 */
function seatsShow(page: Page): Promise<string[]> {
  return page.getByTestId('seat').evaluateAll((seats) =>
    seats.map((seat) => {
      const input = seat.querySelector('input')!;
      const whole = seat.querySelector<HTMLElement>('[data-testid="seat-whole"]');
      if (whole && whole.checkVisibility() && whole.scrollWidth <= whole.clientWidth) return whole.textContent ?? '';
      const style = getComputedStyle(input);
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      let letters = 0;
      while (letters < input.value.length && ctx.measureText(input.value.slice(0, letters + 1)).width <= room) letters++;
      return input.value.slice(0, letters);
    }),
  );
}

/** Controls of New game reaching past their card's edge (the card's padding is its own). */
function pastTheCard(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.card input, .card select, .card button')].flatMap((el) => {
      const card = el.closest('.card')!.getBoundingClientRect();
      const rect = el.getBoundingClientRect();
      if (rect.width === 0) return [];
      return rect.right > card.right + 0.5 || rect.left < card.left - 0.5 ? [`${el.tagName} ${el.getAttribute('aria-label') ?? el.id ?? ''} ${Math.round(rect.right - card.right)} px past`] : [];
    }),
  );
}

describe('New game with big text on a small phone', () => {
  it('the game picker shows every game whole, at 320 and 360 px, 100% and 200% text', async () => {
    const { page } = app;
    await page.getByTestId('new-game').click();
    for (const text of TEXT) {
      const undo = await addTestStyles(page, `html { font-size: ${text} !important; }`);
      for (const size of SIZES) {
        await page.setViewportSize(size);
        for (const game of GAMES) {
          await page.getByTestId('game-select').selectOption(game.id);
          expect(await selectShows(page, '#game'), `${game.name} at ${size.width} px, ${text} text`).toBe(game.name);
        }
        expect(await layoutProblems(page)).toEqual([]);
      }
      await undo();
    }
    await audit(page, 'New game, its game picker drawn by a face');
  });

  it("every rule's choice shows whole, at 320 px with 200% text and 360 px with 100%", async () => {
    const { page } = app;
    await page.getByTestId('new-game').click();
    for (const [size, text] of [[SIZES[0]!, '200%'], [SIZES[1]!, '100%']] as const) {
      await page.setViewportSize(size);
      const undo = await addTestStyles(page, `html { font-size: ${text} !important; }`);
      for (const game of GAMES) {
        await page.getByTestId('game-select').selectOption(game.id);
        const rules = page.locator('details.options');
        if (!(await rules.evaluate((d: HTMLDetailsElement) => d.open))) await rules.locator('summary').click();
        for (const spec of optionSpecs(game)) {
          if (spec.kind !== 'choice') continue;
          for (const choice of spec.choices) {
            await page.locator(`#option-${spec.key}`).selectOption(choice.value);
            // "Given to the lowest player on the slate (the sheet)" read "Given to the lowest pl"
            expect(await selectShows(page, `#option-${spec.key}`), `${game.name}: ${spec.label} at ${size.width} px, ${text} text`).toBe(choice.label);
          }
        }
      }
      expect(await layoutProblems(page)).toEqual([]);
      await audit(page, `New game's rules and variations at ${size.width} px, ${text} text`);
      await undo();
    }
  });

  it('at 200% text every seat\'s name can be read whole, on 320 and 360 px; the new player\'s field stays in its card', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 360, height: 640 });
    const undoStyles = await addTestStyles(page, 'html { font-size: 200% !important; }');
    let undone = false;
    const undo = async () => {
      if (!undone) await undoStyles();
      undone = true;
    };
    try {
      const names = ['Maximilian', 'Anne-Sophie', 'Guðrún', 'Нина', 'José María', 'Bartholomew', 'Alexandra Papadopoulou', 'Alexandra Papadopoulos'];
      await setUpGame(page, 'five-thousand', names);
      for (const size of SIZES) {
        await page.setViewportSize(size);
        // "Alexandra" and "Alexandra": which to move, or take off, was a guess. Polled: the field
        // learns it is cut from a ResizeObserver, which runs at the next frame, after the resize
        // returns (CI once read "Anne-Sop", whole at 360 px, before it ran at 320)
        await expect.poll(() => seatsShow(page), { message: `at ${size.width} px` }).toEqual(names);
        expect(await pastTheCard(page), `at ${size.width} px`).toEqual([]);
        expect(await layoutProblems(page)).toEqual([]);
      }
      await audit(page, 'New game at 320 px, 200% text, long names written out under their fields');
      // a name changed in its seat is written out whole too, and a short one needs nothing under it
      await page.getByLabel('Player 7 name').fill('Alexandra Papadopoulou-Smith');
      await page.getByLabel('Player 7 name').press('Tab');
      await page.getByLabel('Player 1 name').fill('Max');
      await page.getByLabel('Player 1 name').press('Tab');
      await expect.poll(async () => (await seatsShow(page))[6]).toBe('Alexandra Papadopoulou-Smith');
      await expect.poll(() => page.getByTestId('seat').first().getByTestId('seat-whole').count()).toBe(0);
      // at 100% text the whole name is in the field: nothing is written twice
      await undo();
      await page.setViewportSize({ width: 360, height: 640 });
      await expect.poll(() => page.getByTestId('seat-whole').count()).toBe(0);
      await expect.poll(() => seatsShow(page)).toEqual(['Max', ...names.slice(1, 6), 'Alexandra Papadopoulou-Smith', names[7]]);
    } finally {
      await undo();
    }
  });
});

const SIX = ['Maximilian', 'Anne-Sophie', 'Guðrún', 'Нина', 'José María', 'Bartholomew'].map((name, i) => ({ id: `p-${i}`, name }));

/**
 * Big Roll 5000 for six, no ante, first seat starting: two rounds of 2000 for the first five
 * (the sixth busts), then Maximilian reaches 5000 with 1000 and the next four tie him in the final
 * round; Bartholomew busts. Five winners.
 */
function fiveWinners(): BackupFile {
  const roll = (...dice: number[]) => ({ type: 'roll', dice });
  const bank = { type: 'bank' };
  const bust = roll(2, 2, 3, 4, 6);
  const turn = (dice: number[]) => [roll(...dice), bank];
  const round = (dice: number[]) => [...[0, 1, 2, 3, 4].flatMap(() => turn(dice)), bust];
  const actions = [...round([1, 1, 1, 1, 3]), ...round([1, 1, 1, 1, 3]), ...round([5, 5, 5, 5, 3])];
  const start = Date.now() - 3600_000;
  const at = (k: number) => start + k * 10_000;
  const end = at(actions.length);
  return backupFile({
    games: [
      {
        id: 'g-five',
        game: 'big-roll-5000',
        players: SIX,
        options: { startingPlayer: 'first-listed', ante: 0 },
        ante: 0,
        dice: { kitId: 'standard', taughtSetId: null },
        sessionId: 's-tonight',
        createdAt: start,
        updatedAt: end,
        finishedAt: end,
        status: 'finished',
        actionCount: actions.length,
        logRevision: actions.length,
        result: { winners: SIX.slice(0, 5).map((p) => p.id), payouts: Object.fromEntries(SIX.map((p) => [p.id, 0])) },
        actions: actions.map((action, k) => ({ action, at: at(k) })) as BackupFile['games'][number]['actions'],
      },
    ],
    players: SIX.map((p) => ({ ...p, createdAt: start - 1000, lastPlayedAt: end })),
    sessions: [{ id: 's-tonight', name: 'Tonight', startedAt: start, endedAt: null }],
  });
}

describe('the end of a game won by five', () => {
  it('the heading counts the five, the names are said under it; nothing cut at 320 px, 200% text', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 320, height: 568 });
    expect(await restoreBackup(page, fiveWinners())).toBe('Imported 1 game.');
    await page.getByRole('button', { name: /^View: 5000 \(Big Roll\)/ }).click();
    await page.getByTestId('game-over').waitFor();
    expect(await page.locator('#over-heading').textContent()).toBe('5 players share the win!');
    expect(await page.getByTestId('winners').textContent()).toBe('The winners: Maximilian, Anne-Sophie, Guðrún, Нина and José María.');
    await audit(page, 'a game won by five');
    const undo = await addTestStyles(page, 'html { font-size: 200% !important; }');
    try {
      expect(await layoutProblems(page)).toEqual([]);
      const cut = await page.getByTestId('game-over').locator('h2, p, button').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
      expect(cut).toEqual([]);
    } finally {
      await undo();
    }
  });

  it("a big table's ledger at 320 px, 200% text: its caption whole in the box it scrolls in", async () => {
    const { page } = app;
    await page.setViewportSize({ width: 320, height: 568 });
    const names = ['Maximilian', 'Anne-Sophie', 'Guðrún', 'Нина', 'José María', 'Bartholomew', 'Alexandra Papadopoulou', 'Alexandra Papadopoulos'];
    await startGame(page, 'big-roll-5000', names, 2);
    // the roll-off, one die each: Maximilian's 6 starts, and throws five 1s
    for (const face of ['6', '5', '4', '3', '2', '2', '2', '2']) await padRoll(page, [face]);
    await padRoll(page, ['1', '1', '1', '1', '1']);
    await page.getByTestId('session-ledger').waitFor();
    const undo = await addTestStyles(page, 'html { font-size: 200% !important; }');
    try {
      await page.getByRole('region', { name: 'Ledger, scrolls sideways' }).waitFor();
      // "Dec 7, 2026: 1 game" read "Dec 7, 202", the rest past the box's edge
      const past = () =>
        page.getByTestId('session-ledger').locator('caption').evaluate((caption) => {
          const box = caption.closest('.ledger-wrap')!.getBoundingClientRect();
          const range = document.createRange();
          range.selectNodeContents(caption);
          const text = range.getBoundingClientRect();
          return Math.max(0, Math.round(text.right - box.right));
        });
      expect(await past()).toBe(0);
      // and it stays in view as the table scrolls under it
      await page.locator('.ledger-wrap').evaluate((wrap) => wrap.scrollTo({ left: wrap.scrollWidth }));
      expect(await past()).toBe(0);
      expect(await layoutProblems(page)).toEqual([]);
    } finally {
      await undo();
    }
  });
});
