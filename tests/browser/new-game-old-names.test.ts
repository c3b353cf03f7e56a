/**
 * New game with players who kept old names (src/screens/NewGame.svelte): Bob was Bbo before Bbo
 * was merged into him. A seat's name box changed to "bbo" finds Bob and says so, as a name typed
 * for a new seat does; "Someone else called Bbo" taken by keyboard leaves focus on that seat; on a
 * 360 px phone at 200% text a long name on its own row has the card's width, not less.
 * In two tabs, a Start refused for a name the other tab took reads the players again.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addTestStyles, appSession, layoutProblems } from './harness.ts';
import { backupFile, restoreBackup } from './table-helpers.ts';
import type { BackupFile } from '../../src/lib/store/backup.ts';

const app = appSession();

const GROUP = ['Ann', 'Bob', 'Cy', 'Alexandra Papadopoulou', 'Alexandra Papadopoulos'];

/** A backup of the group alone: Bob known as Bbo before, no games yet. */
function group(): BackupFile {
  const now = Date.now();
  return backupFile({
    players: GROUP.map((name, i) => ({ id: `p-${i}`, name, ...(name === 'Bob' ? { aliases: ['Bbo'] } : {}), createdAt: now - 86_400_000, lastPlayedAt: now - (i + 1) * 60_000 })),
  });
}

const seated = () => app.page.getByTestId('seat').locator('input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
const focused = () => app.page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

beforeAll(async () => {
  await app.page.getByTestId('new-game').waitFor();
  await restoreBackup(app.page, group());
});

/** Each walk ends on Home, passed or not. */
afterEach(async () => {
  if (!(await app.page.getByTestId('new-game').isVisible())) await app.page.getByRole('button', { name: 'Back' }).click();
  await app.page.getByTestId('new-game').waitFor();
});

describe('New game with a player known by an old name', () => {
  it("a seat's name changed to an old name finds that player and says so, as a name typed for a new seat does", async () => {
    const { page } = app;
    await page.setViewportSize({ width: 320, height: 568 });
    await page.getByTestId('new-game').click();
    await page.getByRole('button', { name: '+ Ann' }).click();
    await page.getByRole('button', { name: '+ Cy' }).click();
    // Ann's seat was meant for Bob: the group calls him Bbo, as he was known before
    const box = page.getByRole('textbox', { name: 'Player 1 name' });
    await box.fill('bbo');
    await box.press('Tab');
    expect(await seated()).toEqual(['Bob', 'Cy']);
    expect(await page.getByTestId('seat-alias').textContent()).toContain('bbo is Bob (a name Bob was known by).');
    expect(await page.getByTestId('seat-apart').textContent()).toBe('Someone else called bbo');
    // Bob is not offered again, Ann is
    expect(await page.getByRole('button', { name: '+ Bob' }).count()).toBe(0);
    await page.getByRole('button', { name: '+ Ann' }).waitFor();
    expect(await layoutProblems(page)).toEqual([]);
  });

  it('a seat changed to the old name of a player already seated is said at once, not refused by the store at Start', async () => {
    const { page } = app;
    await page.getByTestId('new-game').click();
    await page.getByRole('button', { name: '+ Bob' }).click();
    await page.getByRole('button', { name: '+ Ann' }).click();
    const box = page.getByRole('textbox', { name: 'Player 2 name' });
    await box.fill('Bbo');
    await box.press('Tab');
    await page.getByTestId('start-game').click();
    expect(await page.getByTestId('seat-problem').textContent()).toMatch(/^Bbo is Bob \(a name Bob was known by\), who is already playing\./);
    expect(await page.getByTestId('start-problem').count()).toBe(0);
  });

  it('"Someone else called Bbo", taken by keyboard, leaves focus on that seat\'s name', async () => {
    const { page } = app;
    await page.getByTestId('new-game').click();
    // the known players read first (offered as "+ Ann"): typed before, "Bbo" finds no one
    await page.getByRole('button', { name: '+ Ann' }).waitFor();
    await page.getByTestId('player-name').fill('Bbo');
    await page.getByTestId('player-name').press('Enter');
    expect(await seated()).toEqual(['Bob']);
    await page.getByTestId('seat-apart').focus();
    await page.keyboard.press('Enter');
    expect(await seated()).toEqual(['Bbo']);
    expect(await focused()).toBe('Player 1 name');
  });

  it('at 200% text on a 360 px phone, a long name on its own row has the whole row', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 360, height: 640 });
    const undo = await addTestStyles(page, 'html { font-size: 200% !important; }');
    try {
      await page.getByTestId('new-game').click();
      await page.getByTestId('player-name').fill('Alexandra');
      await page.getByRole('button', { name: '+ Alexandra Papadopoulou' }).click();
      await page.getByTestId('player-name').fill('Alexandra');
      await page.getByRole('button', { name: '+ Alexandra Papadopoulos' }).click();
      await page.getByRole('button', { name: '+ Ann' }).click();
      expect(await seated()).toEqual(['Alexandra Papadopoulou', 'Alexandra Papadopoulos', 'Ann']);
      // each long name on its own row has the row, and the row is the card's width: at least
      // "Alexandra Pa" shows (the list's indent and the card's 32 px sides left "Alexand")
      const shown = await page.getByTestId('seat').locator('input').evaluateAll((inputs) =>
        inputs.map((input) => {
          const style = getComputedStyle(input);
          const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          const ctx = document.createElement('canvas').getContext('2d')!;
          ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const value = (input as HTMLInputElement).value;
          let letters = 0;
          while (letters < value.length && ctx.measureText(value.slice(0, letters + 1)).width <= room) letters++;
          return value.slice(0, letters);
        }),
      );
      expect(shown[0]).toMatch(/^Alexandra Pa/);
      expect(shown[1]).toMatch(/^Alexandra Pa/);
      expect(shown[2]).toBe('Ann');
      expect(await layoutProblems(page)).toEqual([]);
      await page.setViewportSize({ width: 320, height: 568 });
      expect(await layoutProblems(page)).toEqual([]);
      } finally {
      await undo();
    }
  });
});

describe('New game in two tabs', () => {
  it('a Start refused because another tab took the name meanwhile reads the players again: Start again seats the player that tab made', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 360, height: 640 });
    await page.getByTestId('new-game').click();
    await page.getByRole('button', { name: '+ Ann' }).click();
    await page.getByTestId('player-name').fill('Dana');
    await page.getByTestId('add-player').click();
    expect(await seated()).toEqual(['Ann', 'Dana']);

    // meanwhile another tab starts a game with a Dana: she is a known player now
    const other = await app.session.context.newPage();
    try {
      await other.goto(app.server.url);
      await other.getByTestId('new-game').click();
      await other.getByRole('button', { name: '+ Cy' }).click();
      await other.getByTestId('player-name').fill('Dana');
      await other.getByTestId('add-player').click();
      await other.getByTestId('start-game').click();
      await other.getByTestId('headline').waitFor();
    } finally {
      await other.close();
    }

    await page.getByTestId('start-game').click();
    expect(await page.getByTestId('start-problem').textContent()).toBe('There is already a player called Dana.');
    await page.getByTestId('start-game').click();
    await page.getByTestId('headline').waitFor();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByRole('button', { name: 'Players' }).click();
    await page.getByTestId('player-name').getByText('Dana', { exact: true }).waitFor();
    // one Dana, the one the other tab made
    expect((await page.getByTestId('player-name').allTextContents()).filter((n) => n === 'Dana')).toHaveLength(1);
    await page.getByRole('button', { name: 'Back', exact: true }).click();
  });
});
