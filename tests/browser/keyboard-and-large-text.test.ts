/**
 * A player who plays by keyboard or with a screen reader, or with the phone's text at 200%: focus
 * never falls to the page's top after a tap, every question asked is read out, and no screen
 * runs off the side.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { addTestStyles, appSession, layoutProblems } from './harness.ts';
import { addDieAndConfirm, padEnter, padRoll, startGame } from './table-helpers.ts';

const app = appSession();

const focused = (page: Page) =>
  page.evaluate(() => {
    const at = document.activeElement;
    return at?.getAttribute('data-testid') ?? at?.getAttribute('aria-label') ?? at?.textContent?.trim() ?? at?.tagName;
  });

/** What a keyboard player does to a control: focus it, press Enter. */
async function byKeyboard(control: Locator): Promise<void> {
  await control.focus();
  await control.page().keyboard.press('Enter');
}

async function home(page: Page): Promise<void> {
  while (!(await page.getByTestId('new-game').isVisible())) await page.getByRole('button', { name: 'Back', exact: true }).click();
}

async function freshPage(): Promise<Page> {
  const page = await app.session.context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(app.server.url);
  await page.getByTestId('new-game').waitFor();
  return page;
}

describe('by keyboard and screen reader', () => {
  it('New game: a player moved or taken off keeps the focus with the players', async () => {
    const page = await freshPage();
    await page.getByTestId('new-game').click();
    for (const name of ['Ann', 'Bob', 'Cy']) {
      await page.getByTestId('player-name').fill(name);
      await page.getByTestId('add-player').click();
    }
    await byKeyboard(page.getByRole('button', { name: 'Move Ann later' }));
    expect(await page.getByRole('textbox', { name: 'Player 2 name' }).inputValue()).toBe('Ann');
    expect(await focused(page)).toBe('Move Ann later');
    await page.keyboard.press('Enter');
    // Ann is last now, her ↓ disabled: focus goes to her ↑
    expect(await page.getByRole('textbox', { name: 'Player 3 name' }).inputValue()).toBe('Ann');
    expect(await focused(page)).toBe('Move Ann earlier');
    await byKeyboard(page.getByRole('button', { name: 'Remove Bob' }));
    expect(await page.getByTestId('seat').count()).toBe(2);
    expect(await focused(page)).toBe('Player 1 name');
    await page.close();
  });

  it("the log's Delete and Settings' Replace say what they will do, and focus goes to the answer and back", async () => {
    const page = await freshPage();
    await startGame(page, 'war', ['Ann', 'Bob']);
    await page.getByTestId('open-log').click();
    await byKeyboard(page.getByRole('button', { name: 'Delete game…' }));
    expect(await page.getByRole('alert').textContent()).toMatch(/^Delete this game\? Its log and its result go for good/);
    expect(await focused(page)).toBe('Delete for good');
    await byKeyboard(page.getByRole('button', { name: 'Keep it' }));
    expect(await focused(page)).toBe('Delete game…');
    await byKeyboard(page.getByTestId('abandon'));
    expect(await focused(page)).toBe('abandon-confirm');

    await home(page);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('radio', { name: 'Replace everything on this device' }).check();
    await byKeyboard(page.getByRole('button', { name: 'Import a backup…' }));
    expect(await page.getByRole('alert').textContent()).toBe('Replacing deletes every game on this device that is not in the backup.');
    expect(await focused(page)).toBe('Choose the backup and replace');
    await byKeyboard(page.getByRole('button', { name: 'Cancel' }));
    expect(await focused(page)).toBe('Import a backup…');
    // a button disabled while it works gets focus back when it is done, not another control
    await byKeyboard(page.getByTestId('backup-export'));
    await page.getByTestId('backup-message').waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'backup-export');
    await page.close();
  });

  it('focus never falls to the page: a chooser opened and cancelled, a screen loaded on demand', async () => {
    const page = await freshPage();
    await startGame(page, 'face-off', ['Ann', 'Bob']);
    await page.getByTestId('dice-pad').locator('button[data-face="vader"]').focus();
    await page.keyboard.type('vvlhh');
    await page.keyboard.press('Enter');
    await byKeyboard(page.getByTestId('confirm-roll'));
    await byKeyboard(page.getByRole('button', { name: 'Go Villain' }));
    await page.getByTestId('choose-dice-open').waitFor();
    await byKeyboard(page.getByTestId('choose-dice-open'));
    // the chooser took the button's place: focus goes on to what is there now, not to the page
    await page.waitForFunction(() => document.activeElement !== document.body);
    await byKeyboard(page.getByRole('button', { name: 'Cancel' }));
    await page.waitForFunction(() => document.activeElement !== document.body);

    // a screen loaded on demand gets its heading focused once it shows
    await home(page);
    await page.getByRole('button', { name: 'Dice kits' }).click();
    await byKeyboard(page.getByTestId('new-kit'));
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    await page.close();
  });

  it("a refusal is said once: by the announcer, not by a second alert on the screen", async () => {
    const page = await freshPage();
    await startGame(page, 'five-thousand', ['Ann', 'Bob']);
    await padRoll(page, ['1', '1', '4', '5', '6']);
    // the 2 dice asked for, and a third added by hand
    await padEnter(page, ['2', '2']);
    await addDieAndConfirm(page, '3');
    const refusal = await page.getByTestId('rule-error').textContent();
    expect(refusal).toMatch(/^3 dice seen/);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.locator('[aria-live="assertive"]').textContent()).toBe(refusal);
    await page.close();
  });
});

describe('with the text at 200%', () => {
  it('New game, Settings, Kits and the table stay on the screen, and the title is words, not letters', async () => {
    const page = await freshPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await addTestStyles(page, 'html { font-size: 200% !important; }');
    const wide = async () => page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth);
    await page.getByTestId('new-game').click();
    await page.getByTestId('game-select').waitFor();
    expect(await wide()).toBeLessThanOrEqual(390);
    for (const name of ['Ann', 'Bob', 'Cy']) {
      await page.getByTestId('player-name').fill(name);
      await page.getByTestId('add-player').click();
    }
    expect(await wide()).toBeLessThanOrEqual(390);
    await page.getByTestId('start-game').click();
    await page.getByTestId('headline').waitFor();
    const title = await page.locator('h1').boundingBox();
    // "5000 (bumps and gifts)" on a line or three, not thirteen
    expect(title!.width).toBeGreaterThan(200);
    expect((await layoutProblems(page)).filter((p) => p.startsWith('page'))).toEqual([]);
    for (const screen of ['Settings', 'Dice kits']) {
      await home(page);
      await page.getByRole('button', { name: screen, exact: true }).click();
      await page.locator('h1', { hasText: screen === 'Settings' ? 'Settings' : /kit/i }).waitFor();
      expect(await wide(), screen).toBeLessThanOrEqual(390);
    }
    await page.close();
  });

  it('the table\'s moves and Teach\'s list of faces stay on the screen', async () => {
    const page = await freshPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await addTestStyles(page, 'html { font-size: 200% !important; }');
    const wide = async () => page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth);
    await startGame(page, 'five-thousand', ['Ann', 'Bob'], 0);
    await padRoll(page, ['1', '1', '1', '2', '3']);
    // a move's button, a column of 12rem (384 px here) before
    await page.getByRole('button', { name: 'Bank 1100 (0 → 1100)' }).waitFor();
    expect(await wide(), 'table').toBeLessThanOrEqual(390);
    await home(page);
    await page.getByRole('button', { name: 'Dice kits', exact: true }).click();
    await page.getByRole('button', { name: 'Teach Rollcall your Star Wars Face Off dice' }).click();
    await page.locator('[data-testid="separation"] li[data-face]').first().waitFor({ timeout: 60_000 });
    expect(await wide(), 'teach').toBeLessThanOrEqual(390);
    await page.close();
  });

  it("the dice set aside, in the table's details, stay on the screen of a 360 px phone, upright and sideways", async () => {
    const page = await freshPage();
    await page.setViewportSize({ width: 360, height: 740 });
    await addTestStyles(page, 'html { font-size: 200% !important; }');
    const wide = async () => page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth);
    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
    await padRoll(page, ['1', '1', '4', '5', '6']);
    // "Last roll scored" and the rest beside three dice, the text twice as big
    expect(await page.getByText('Set aside', { exact: true }).count()).toBe(1);
    expect(await wide(), 'upright').toBeLessThanOrEqual(360);
    // sideways, the details share the screen with the dice pad: half as wide again
    await page.setViewportSize({ width: 740, height: 360 });
    expect(await wide(), 'sideways').toBeLessThanOrEqual(740);
    await page.close();
  });

  it('the log\'s Players, Status and Dice break between words, never inside one', async () => {
    const page = await freshPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await addTestStyles(page, 'html { font-size: 200% !important; }');
    await startGame(page, 'five-thousand', ['Ann', 'Bob'], 0);
    await padRoll(page, ['1', '1', '4', '5', '6']);
    await home(page);
    await page.getByRole('button', { name: 'History', exact: true }).click();
    await page.getByRole('button', { name: /^Log: 5000/ }).first().click();
    await page.getByTestId('game-log').waitFor();
    // each word of the card's values on one line ("Aband|oned", "Stand|ard" before)
    const broken = await page.evaluate(() => {
      const out: string[] = [];
      for (const dd of document.querySelectorAll('section.header dd')) {
        const text = dd.firstChild;
        if (!(text instanceof Text)) continue;
        for (const m of text.data.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(text, m.index);
          range.setEnd(text, m.index + m[0].length);
          if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) out.push(m[0]);
        }
      }
      return out;
    });
    expect(broken).toEqual([]);
    await page.close();
  });
});
