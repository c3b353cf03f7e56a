/**
 * Evenings as a group lives them over time (SAME_EVENING_MS, src/lib/store/store.ts): a game
 * left in play last Friday and finished a week later pays into tonight's evening, not last
 * Friday's, and the games after it do not pile onto last week's debts; Players then says they
 * last played tonight, and last Friday's game over says its evening ended (nobody settled it up)
 * (restored from a backup through Settings, as a phone restored would be).
 * A game played across Europe's daylight-saving night, in Berlin, says its times with their
 * zones on its log: 02:50 CEST, then 02:10 CET, not a game that ends before it began.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { appSession } from './harness.ts';
import { backupFile, FIVE_ONES, padRoll, restoreBackup } from './table-helpers.ts';
import type { BackupFile } from '../../src/lib/store/backup.ts';

const app = appSession();


const HOUR = 3600_000;
const PLAYERS = [
  { id: 'p-ann', name: 'Ann' },
  { id: 'p-bob', name: 'Bob' },
  { id: 'p-cy', name: 'Cy' },
];

/**
 * Last Friday, never ended on Home: Bob won one game (+4), and a second was left in play at the
 * table one roll from his win (his five ones).
 */
function lastFriday(): BackupFile {
  return backup(Date.now() - 7 * 24 * HOUR, 's-friday', 'Last Friday', null);
}

/** A backup of one evening from `start`: Bob's win, and a game one roll from his win left in play, or (`times`) won at those times. */
function backup(start: number, sessionId: string, sessionName: string, times: number[] | null): BackupFile {
  const game = (id: string, at: number, moves: number, when = (k: number) => at + k * 20_000): BackupFile['games'][number] => {
    const end = when(moves - 1) + 20_000;
    const over = moves === FIVE_ONES.actions.length;
    return {
      id,
      game: 'big-roll-5000',
      players: PLAYERS,
      options: FIVE_ONES.options,
      ante: 2,
      dice: { kitId: 'standard', taughtSetId: null },
      sessionId,
      createdAt: at,
      updatedAt: end,
      finishedAt: over ? end : null,
      status: over ? 'finished' : 'active',
      actionCount: moves,
      logRevision: moves,
      result: over ? { winners: ['p-bob'], payouts: { 'p-ann': -2, 'p-bob': 4, 'p-cy': -2 } } : null,
      actions: FIVE_ONES.actions.slice(0, moves).map((action, k) => ({ action, at: when(k) })),
    };
  };
  const games = [game('g-won', start, FIVE_ONES.actions.length), times ? game('g-late', times[0]! - 5 * 60_000, times.length, (k) => times[k]!) : game('g-left', start + HOUR, FIVE_ONES.actions.length - 1)];
  return backupFile({
    games,
    players: PLAYERS.map((p) => ({ ...p, createdAt: start - 1000, lastPlayedAt: start + HOUR })),
    sessions: [{ id: sessionId, name: sessionName, startedAt: start, endedAt: null }],
    ledger: games.filter((g) => g.result).map((g) => ({ id: `l-${g.id}`, sessionId, gameId: g.id, at: g.updatedAt, deltas: { ...g.result!.payouts }, note: '' })),
  });
}

/** Home's balances, row by row: "Bob +8". */
const balances = () => app.page.getByTestId('ledger').locator('tr').evaluateAll((rows) => rows.map((r) => [...(r as HTMLTableRowElement).cells].map((c) => (c.textContent ?? '').trim()).join(' ')));

async function home(): Promise<void> {
  const { page } = app;
  while (!(await page.getByTestId('new-game').isVisible())) await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page.getByRole('heading', { name: 'In progress' }).waitFor();
}

beforeAll(async () => {
  const { page } = app;
  await page.getByTestId('new-game').waitFor();
  expect(await restoreBackup(page, lastFriday())).toBe('Imported 2 games.');
});

describe('a game left in play for a week', () => {
  it('finished tonight, pays into tonight’s evening; last Friday’s balances stay with last Friday', async () => {
    const { page } = app;
    await home();
    // nothing played since: Home still shows last Friday's evening, by its name
    expect(await page.getByRole('heading', { name: /^Balances/ }).textContent()).toBe('Balances · Last Friday');
    expect(await balances()).toEqual(['Bob +4', 'Ann -2', 'Cy -2']);
    await page.getByRole('button', { name: /^Resume:/ }).click();
    await page.getByTestId('headline').waitFor();
    await padRoll(page, ['1', '1', '1', '1', '1']);
    // the game over's ledger is tonight's: this one game
    // tonight's name as the phone says it (eveningName, in format.ts's dateLocale: on this en-US
    // phone what its own toLocaleDateString says; locale-walk.test has the other regions)
    const tonight = await page.evaluate(() => new Date().toLocaleDateString(undefined, { dateStyle: 'medium' }));
    expect(await page.getByTestId('session-ledger').locator('caption').textContent()).toBe(`${tonight}: 1 game`);
    await home();
    expect(await page.getByRole('heading', { name: /^Balances/ }).textContent()).toBe(`Balances · ${tonight}`);
    expect(await balances()).toEqual(['Bob +4', 'Ann -2', 'Cy -2']);
    // last Friday, ended by the break and never settled up, is still said, not dropped
    const friday = page.getByTestId('unsettled-evening');
    expect(await friday.getByRole('heading').textContent()).toBe('Not settled up · Last Friday');
    expect(await friday.locator('tr').allInnerTexts()).toEqual(['Bob\t+4', 'Ann\t-2', 'Cy\t-2']);
    // carried on: tonight's balances are both evenings', and tonight's game over says why its table differs
    await friday.getByTestId('carry-evening').click();
    await friday.getByTestId('unsettled-confirm').click();
    await friday.waitFor({ state: 'detached' });
    expect(await balances()).toEqual(['Bob +8', 'Ann -4', 'Cy -4']);
    await page.getByRole('button', { name: /^View:/ }).first().click();
    expect(await page.getByTestId('session-ledger').locator('caption').textContent()).toBe(`${tonight}: 1 game`);
    expect(await page.getByTestId('evening-carried').textContent()).toBe('Carried on from Last Friday: Bob +4, Ann -2, Cy -2.');
    await home();
  });

  it('Players says they last played tonight, when the game ended, not last Friday when it began', async () => {
    const { page } = app;
    await home();
    await page.getByRole('button', { name: 'Players' }).click();
    await page.getByRole('heading', { name: 'Players' }).waitFor();
    const today = await page.evaluate(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(Date.now()));
    for (const name of ['Ann', 'Bob', 'Cy']) {
      const row = page.getByTestId('player').filter({ has: page.getByTestId('player-name').getByText(name, { exact: true }) });
      expect(await row.textContent()).toContain(`last played ${today}, `);
    }
  });

  it('last Friday’s game over, its evening ended by the break and never settled up, says only that its evening ended', async () => {
    const { page } = app;
    await home();
    await page.getByRole('button', { name: 'History' }).click();
    // History's last: the game won last Friday (the one finished tonight comes first)
    await page.getByTestId('game-list').locator('li').last().getByRole('button', { name: /^Log:/ }).click();
    await page.getByTestId('game-log').waitFor();
    expect(await page.getByTestId('settled').textContent()).toBe("This game's evening has ended, so its result stands: it can no longer be undone or fixed.");
    expect(await page.getByTestId('fix-roll').count()).toBe(0);
  });
});

describe('the night the clocks go back', () => {
  it('a game played across it says its times with their zones; one before it, without', async () => {
    // Berlin, Sunday 25 October 2026: at 03:00 CEST the clocks go back to 02:00 CET
    const berlin = await app.session.browser.newContext({ viewport: { width: 412, height: 860 }, timezoneId: 'Europe/Berlin', locale: 'en-GB' });
    try {
      const page = await berlin.newPage();
      await page.goto(app.server.url);
      await page.getByTestId('new-game').waitFor();
      // the last game: rolls at 02:40 and 02:50 CEST, then 02:10 and 02:20 CET
      const utc = (h: number, m: number) => Date.UTC(2026, 9, 25, h, m);
      const night = backup(Date.UTC(2026, 9, 24, 19), 's-night', 'Saturday', [utc(0, 40), utc(0, 50), utc(1, 10), utc(1, 20)]);
      expect(await restoreBackup(page, night)).toBe('Imported 2 games.');
      await page.getByRole('button', { name: 'History' }).click();
      const logOf = async (when: string): Promise<{ header: string; times: string[] }> => {
        await page.getByTestId('game-list').locator('li').filter({ hasText: when }).getByRole('button', { name: /^Log:/ }).click();
        await page.getByTestId('game-log').waitFor();
        const header = (await page.locator('dl').innerText()).replace(/\s+/g, ' ');
        const times = await page.getByTestId('log-step').locator('.time').allTextContents();
        await page.getByRole('button', { name: 'Back', exact: true }).click();
        await page.getByTestId('game-list').waitFor();
        return { header, times };
      };
      const late = await logOf('02:20');
      expect(late.header).toContain('Started 25 Oct 2026, 02:35 CEST Ended 25 Oct 2026, 02:20 CET');
      expect(late.times).toEqual(['02:40:00 CEST', '02:50:00 CEST', '02:10:00 CET', '02:20:00 CET']);
      // the evening's first game, at 21:00 the evening before: no zones
      const early = await logOf('24 Oct 2026');
      expect(early.header).toContain('Started 24 Oct 2026, 21:00 Ended 24 Oct 2026, 21:01');
      expect(early.times).toEqual(['21:00:00', '21:00:20', '21:00:40', '21:01:00']);
    } finally {
      await berlin.close();
    }
  });
});
