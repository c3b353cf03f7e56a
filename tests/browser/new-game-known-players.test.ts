/**
 * New game for a regular group (src/screens/NewGame.svelte): twelve players known from earlier
 * games, more than the eight offered at first, are all seated without a name retyped, on a
 * 320 px phone: by "Show 4 more players", by typing part of a name, and by keyboard.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { appSession, layoutProblems } from './harness.ts';
import { backupFile, restoreBackup } from './table-helpers.ts';
import type { BackupFile } from '../../src/lib/store/backup.ts';

const app = appSession();

/** Ann played most lately, Lou least: the order New game offers them in. */
const GROUP = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal', 'Ida', 'Jonathan', 'Zoë', 'Lou'];

/** A backup of the group alone: twelve players, no games yet. */
function group(): BackupFile {
  const now = Date.now();
  return backupFile({
    players: GROUP.map((name, i) => ({ id: `p-${i}`, name, createdAt: now - 86_400_000, lastPlayedAt: now - (i + 1) * 60_000 })),
  });
}

const offered = () => app.page.getByRole('group', { name: 'Players from earlier games' }).getByRole('button').allTextContents();
const seated = () => app.page.getByTestId('seat').locator('input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
/** The focused element: its test id, else its words. */
const focused = () => app.page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.textContent);

beforeAll(async () => {
  await app.page.getByTestId('new-game').waitFor();
  await restoreBackup(app.page, group());
});

describe('New game for a group of twelve', () => {
  it('offers the eight who played last, the other four one tap away; typing part of a name finds anyone; the keyboard follows each tap', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 320, height: 568 });
    await page.getByTestId('new-game').click();
    await page.getByRole('button', { name: '+ Ann' }).waitFor();
    expect(await offered()).toEqual(['+ Ann', '+ Bob', '+ Cy', '+ Dee', '+ Eve', '+ Fay', '+ Gus', '+ Hal', 'Show 4 more players']);
    expect(await layoutProblems(page)).toEqual([]);

    // typed without its accent, a name is found as a phone's contacts find it: "zoe" finds Zoë
    await page.getByTestId('player-name').fill('zoe');
    expect(await offered()).toEqual(['+ Zoë']);
    // typing part of a name offers whoever has it, beyond the first eight too: "jo" finds Jonathan
    await page.getByTestId('player-name').fill('jo');
    expect(await offered()).toEqual(['+ Jonathan']);
    await page.getByRole('button', { name: '+ Jonathan' }).click();
    // seated as the known player, the field emptied for the next name and focused
    expect(await seated()).toEqual(['Jonathan']);
    expect(await page.getByTestId('player-name').inputValue()).toBe('');
    expect(await focused()).toBe('player-name');

    // by keyboard: "Show 3 more players", focus on the first of them, Enter seats Ida and focus takes the next
    await page.getByTestId('more-known').focus();
    await page.keyboard.press('Enter');
    expect(await offered()).toEqual(['+ Ann', '+ Bob', '+ Cy', '+ Dee', '+ Eve', '+ Fay', '+ Gus', '+ Hal', '+ Ida', '+ Zoë', '+ Lou']);
    expect(await focused()).toBe('+ Ida');
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('+ Zoë');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    expect(await seated()).toEqual(['Jonathan', 'Ida', 'Zoë', 'Lou']);
    expect(await layoutProblems(page)).toEqual([]);

    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('new-game').waitFor();
  });

  it('a name typed without its accent seats the player it is spelled like, and says so: "Zoe is Zoë."', async () => {
    const { page } = app;
    await page.getByTestId('new-game').click();
    await page.getByRole('button', { name: '+ Ann' }).waitFor();
    // a keyboard without "ë", and Enter rather than the "+ Zoë" offered: Zoë sits, not a new Zoe
    await page.getByTestId('player-name').fill('Zoe');
    await page.getByTestId('player-name').press('Enter');
    expect(await seated()).toEqual(['Zoë']);
    expect(await page.getByTestId('seat-alias').textContent()).toMatch(/^\s*Zoe is Zoë\.\s*Someone else called Zoe\s*$/);
    // someone else really is called Zoe: a new player of that name
    await page.getByTestId('seat-apart').click();
    expect(await seated()).toEqual(['Zoe']);
    expect(await page.getByTestId('seat-alias').count()).toBe(0);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('new-game').waitFor();
  });
});
