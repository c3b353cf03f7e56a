/**
 * An evening nobody ended (End the evening on Home), whose table broke up owing money: the next
 * game, a week later, ends it by the break (SAME_EVENING_MS, src/lib/store/store.ts). Its debts
 * used to go from Home without a word; now Home says them ("Not settled up · Last Friday") until
 * the players say they settled up or carry them on into tonight's balances, and each of its
 * games' game over says what became of them. Last Friday is restored from a backup, as a phone
 * restored would be, a week before the game the test starts.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appSession } from './harness.ts';
import { audit } from './axe-audit.ts';
import { backupFile, FIVE_ONES, restoreBackup, startGame } from './table-helpers.ts';
import type { BackupFile } from '../../src/lib/store/backup.ts';

const app = appSession();


const HOUR = 3600_000;
const PLAYERS = [
  { id: 'p-ann', name: 'Ann' },
  { id: 'p-bob', name: 'Bob' },
  { id: 'p-cy', name: 'Cy' },
];

/** Last Friday, a week ago, never ended on Home: Bob won one game (+4; Ann and Cy −2), then everyone went home. */
function lastFriday(): BackupFile {
  const start = Date.now() - 7 * 24 * HOUR;
  const at = (k: number) => start + k * 20_000;
  const end = at(FIVE_ONES.actions.length);
  return backupFile({
    games: [
      {
        id: 'g-friday',
        game: 'big-roll-5000',
        players: PLAYERS,
        options: FIVE_ONES.options,
        ante: 2,
        dice: { kitId: 'standard', taughtSetId: null },
        sessionId: 's-friday',
        createdAt: start,
        updatedAt: end,
        finishedAt: end,
        status: 'finished',
        actionCount: FIVE_ONES.actions.length,
        logRevision: FIVE_ONES.actions.length,
        result: { winners: ['p-bob'], payouts: { 'p-ann': -2, 'p-bob': 4, 'p-cy': -2 } },
        actions: FIVE_ONES.actions.map((action, k) => ({ action, at: at(k) })),
      },
    ],
    players: PLAYERS.map((p) => ({ ...p, createdAt: start - 1000, lastPlayedAt: end })),
    sessions: [{ id: 's-friday', name: 'Last Friday', startedAt: start, endedAt: null }],
    ledger: [{ id: 'l-friday', sessionId: 's-friday', gameId: 'g-friday', at: end, deltas: { 'p-ann': -2, 'p-bob': 4, 'p-cy': -2 }, note: '' }],
  });
}

/** A table's rows, row by row: "Bob +4". */
const rows = (page: Page, testId: string) => page.getByTestId(testId).locator('tr').evaluateAll((trs) => trs.map((r) => [...(r as HTMLTableRowElement).cells].map((c) => (c.textContent ?? '').trim()).join(' ')));

/** A phone of its own (a browser context: its own store) on Home, for `walk`; closed after it. */
async function onNewPhone(walk: (page: Page) => Promise<void>): Promise<void> {
  const context = await app.session.browser.newContext({ viewport: { width: 412, height: 860 } });
  try {
    const page = await context.newPage();
    await page.goto(app.server.url);
    await page.getByTestId('new-game').waitFor();
    await walk(page);
  } finally {
    await context.close();
  }
}

async function home(page: Page): Promise<void> {
  while (!(await page.getByTestId('new-game').isVisible())) await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page.getByRole('heading', { name: 'In progress' }).waitFor();
}

/** Last Friday restored, then tonight's first game started a week later (which ends Friday by the break), back on Home. */
async function aWeekLater(page: Page): Promise<void> {
  await page.getByTestId('new-game').waitFor();
  expect(await restoreBackup(page, lastFriday())).toBe('Imported 1 game.');
  // nothing played since: Home still shows last Friday's balances as the evening's
  expect(await page.getByRole('heading', { name: /^Balances/ }).textContent()).toBe('Balances · Last Friday');
  expect(await rows(page, 'ledger')).toEqual(['Bob +4', 'Ann -2', 'Cy -2']);
  await startGame(page, 'five-thousand', ['Ann', 'Bob']);
  await home(page);
}

/** What deleting Last Friday's game would take with it, as its log's question says (asked, then kept). */
async function fridaysDeleteQuestion(page: Page): Promise<string | null> {
  await page.getByRole('button', { name: 'History' }).click();
  await page.getByRole('button', { name: /^Log: 5000 \(Big Roll\) with Ann, Bob, Cy/ }).click();
  await page.getByRole('button', { name: 'Delete game…' }).click();
  const question = await page.getByRole('alert').filter({ hasText: 'Delete this game?' }).textContent();
  await page.getByRole('button', { name: 'Keep it' }).click();
  await home(page);
  return question;
}

/** What Last Friday's game over says of its evening. */
async function fridaysEnding(page: Page): Promise<string | null> {
  await page.getByRole('button', { name: /^View:/ }).click();
  await page.getByTestId('game-over').waitFor();
  expect(await page.getByTestId('session-ledger').locator('caption').textContent()).toBe('Last Friday: 1 game');
  const said = await page.getByTestId('evening-ending').textContent();
  await home(page);
  return said;
}

describe('an evening nobody ended, owing money, a week before the next game', () => {
  it('Home still says its debts, and carries them on into tonight’s balances when asked', async () => {
    const { page } = app;
    await aWeekLater(page);
    // last Friday's debts are not gone without a word
    const card = page.getByTestId('unsettled-evening');
    expect(await card.getByRole('heading').textContent()).toBe('Not settled up · Last Friday');
    expect(await card.locator('p').first().textContent()).toBe('Nobody ended this evening, so it was never settled up. Still owed:');
    expect(await rows(page, 'unsettled-ledger')).toEqual(['Bob +4', 'Ann -2', 'Cy -2']);
    // tonight has no balances yet
    expect(await page.getByTestId('ledger').count()).toBe(0);
    expect(await fridaysEnding(page)).toBe('Last Friday ended without settling up: Home shows what is still owed.');
    // its log's delete question says the same, not "its settled evening's totals"
    expect(await fridaysDeleteQuestion(page)).toBe(
      'Delete this game? Its log and its result go for good, from its evening’s balances too, never settled up (Home says what is still owed).',
    );

    // axe on the card, at a phone's size, and on its question (a screen accessibility.test does not reach)
    await page.setViewportSize({ width: 360, height: 740 });
    await audit(page, 'home (an evening not settled up)');
    // neither can be taken back: a tap asks first, "Not now" leaves the card as it was
    await page.getByTestId('carry-evening').click();
    await audit(page, 'home (an evening not settled up, carrying it on asked)');
    expect(await page.getByTestId('unsettled-question').textContent()).toBe("Carry Last Friday's balances (Bob +4, Ann -2, Cy -2) on into tonight's? They are added to tonight's, for good.");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Carry them on');
    await page.getByRole('button', { name: 'Not now' }).click();
    expect(await page.getByTestId('unsettled-question').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('carry-evening');
    expect(await rows(page, 'unsettled-ledger')).toEqual(['Bob +4', 'Ann -2', 'Cy -2']);
    await page.getByTestId('carry-evening').click();
    await page.getByTestId('unsettled-confirm').click();
    await card.waitFor({ state: 'detached' });
    const tonight = await page.evaluate(() => new Date().toLocaleDateString(undefined, { dateStyle: 'medium' }));
    expect(await page.getByRole('heading', { name: /^Balances/ }).textContent()).toBe(`Balances · ${tonight}`);
    expect(await rows(page, 'ledger')).toEqual(['Bob +4', 'Ann -2', 'Cy -2']);
    // the evening they went into, by its name
    expect(await fridaysEnding(page)).toBe(`Last Friday ended without settling up; its balances were carried on into ${tonight}'s.`);
    // deleting its game would change tonight's balances too: its question says so
    expect(await fridaysDeleteQuestion(page)).toBe(
      'Delete this game? Its log and its result go for good, from its evening’s totals too, and its money comes off the balances carried on into tonight’s.',
    );
    // kept: the app opened again says the same
    await page.reload();
    await home(page);
    expect(await page.getByTestId('unsettled-evening').count()).toBe(0);
    expect(await rows(page, 'ledger')).toEqual(['Bob +4', 'Ann -2', 'Cy -2']);
    // deleted after all: its money comes off tonight's balances (they were all it was), and that is said
    await page.getByRole('button', { name: 'History' }).click();
    await page.getByRole('button', { name: /^Log: 5000 \(Big Roll\) with Ann, Bob, Cy/ }).click();
    await page.getByRole('button', { name: 'Delete game…' }).click();
    await page.getByRole('button', { name: 'Delete for good' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="announcer"]')?.textContent?.startsWith('Game deleted.'));
    expect(await page.getByTestId('announcer').textContent()).toBe('Game deleted. Its money came off the balances carried on into tonight’s.');
    // Home's balances are drawn with its games in play (tonight's, which paid nothing yet): none left to show
    await home(page);
    expect(await page.getByTestId('ledger').count()).toBe(0);
    await page.reload();
    await home(page);
    expect(await page.getByTestId('ledger').count()).toBe(0);
  });

  it('marked settled up, Home says no more of it and tonight starts clean', async () => {
    await onNewPhone(async (page) => {
      await aWeekLater(page);
      expect(await rows(page, 'unsettled-ledger')).toEqual(['Bob +4', 'Ann -2', 'Cy -2']);
      await page.getByTestId('settle-evening').click();
      expect(await page.getByTestId('unsettled-question').textContent()).toBe('Settled up for Last Friday? Its balances (Bob +4, Ann -2, Cy -2) leave Home for good.');
      await page.getByTestId('unsettled-confirm').click();
      await page.getByTestId('unsettled-evening').waitFor({ state: 'detached' });
      expect(await page.getByTestId('ledger').count()).toBe(0);
      expect(await fridaysEnding(page)).toBe('Last Friday ended: settled up.');
      await page.reload();
      await home(page);
      expect(await page.getByTestId('unsettled-evening').count()).toBe(0);
    });
  });

  it('carried on before Rollcall kept into which evening (an older backup): said as a later evening’s', async () => {
    await onNewPhone(async (page) => {
      const file = lastFriday();
      const end = file.games[0]!.finishedAt!;
      expect(await restoreBackup(page, { ...file, sessions: file.sessions.map((s) => ({ ...s, endedAt: end, endedBy: 'carried' as const })) })).toBe('Imported 1 game.');
      expect(await fridaysEnding(page)).toBe("Last Friday ended without settling up; its balances were carried on into a later evening's.");
      await page.getByRole('button', { name: 'History' }).click();
      await page.getByRole('radio', { name: 'Evenings' }).check();
      // the evenings are read from the store once chosen: polled (read at once, there were none yet)
      await expect.poll(() => page.getByTestId('evening-ending').allTextContents()).toEqual(['Never settled up; its balances were carried on into a later evening’s.']);
    });
  });

  it('carried into an evening with nothing in it, which History does not list: named all the same', async () => {
    await onNewPhone(async (page) => {
      const file = lastFriday();
      const end = file.games[0]!.finishedAt!;
      // nothing was owed when it was carried: the evening it went into got no line, and has no game
      const sessions = [
        { ...file.sessions[0]!, endedAt: end, endedBy: 'carried' as const, carriedInto: 's-empty' },
        { id: 's-empty', name: 'Quiet Tuesday', startedAt: end + HOUR, endedAt: end + 2 * HOUR, endedBy: 'settled' as const },
      ];
      expect(await restoreBackup(page, { ...file, version: 3, sessions })).toBe('Imported 1 game.');
      expect(await fridaysEnding(page)).toBe("Last Friday ended without settling up; its balances were carried on into Quiet Tuesday's.");
      // settled up there: that money changed hands, and a delete leaves Quiet Tuesday's balances as they were paid
      expect(await fridaysDeleteQuestion(page)).toBe(
        'Delete this game? Its log and its result go for good, from its evening’s totals too; what was carried on into Quiet Tuesday’s stays as it was: that evening was settled up.',
      );
      await page.getByRole('button', { name: 'History' }).click();
      await page.getByRole('radio', { name: 'Evenings' }).check();
      await page.getByText('Never settled up; its balances were carried on into Quiet Tuesday’s.').waitFor();
      expect(await page.getByTestId('evening').locator('h2').allTextContents()).toEqual(['Last Friday']);
    });
  });
});
