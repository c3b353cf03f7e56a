/**
 * The end of a game won by five at a big table, on a 320 px phone with the text at 200%: the
 * heading counts them ("5 players share the win!"), their names said under it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { addTestStyles, appSession, layoutProblems } from './harness.ts';
import { audit } from './axe-audit.ts';
import { restoreBackup } from './table-helpers.ts';
import type { BackupFile } from '../../src/lib/store/backup.ts';

const app = appSession();

/** Each walk ends on Home. */
afterEach(async () => {
  const { page } = app;
  while (!(await page.getByTestId('new-game').isVisible())) await page.getByRole('button', { name: 'Back', exact: true }).click();
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
  return {
    format: 'rollcall-backup',
    version: 2,
    exportedAt: new Date(end).toISOString(),
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
    ledger: [],
    taughtSets: [],
    taughtFaces: [],
    settings: { theme: 'system', speech: false, settleMs: 600, cameraId: null, persistAsked: true },
  };
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
});
