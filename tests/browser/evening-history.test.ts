/**
 * Evenings looked back on, and evenings left unsettled week after week. Three Fridays are
 * restored from a backup: three weeks ago (settled up on Home), two weeks ago and last week (both
 * ended by the break, never settled up: Ann −2 and Cy −2 to Bob, then Ann −2 and Bob −2 to Cy).
 * Home shows the two unsettled evenings as one card, each behind its own disclosure with its own
 * buttons; History's Evenings list says of every evening how it ended, its final balances and
 * its games.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addTestStyles, appSession } from './harness.ts';
import { audit } from './axe-audit.ts';
import { backupFile, FIVE_ONES, restoreBackup, startGame } from './table-helpers.ts';
import type { BackupFile } from '../../src/lib/store/backup.ts';

const app = appSession();

const DAY = 24 * 3600_000;
const PLAYERS = [
  { id: 'p-ann', name: 'Ann' },
  { id: 'p-bob', name: 'Bob' },
  { id: 'p-cy', name: 'Cy' },
];

/** The log's winner is its second seat: the seats turned so that it is `winner`. */
const seatsFor = (winner: string) => {
  const k = PLAYERS.findIndex((p) => p.id === winner);
  return [0, 1, 2].map((i) => PLAYERS[(k - 1 + i + 3) % 3]!);
};

interface Friday {
  id: string;
  name: string;
  weeks: number;
  winner: string;
  endedBy: 'settled' | 'break';
}

const THREE_FRIDAYS: Friday[] = [
  { id: 'three', name: 'Three Fridays ago', weeks: 3, winner: 'p-ann', endedBy: 'settled' },
  { id: 'two', name: 'Two Fridays ago', weeks: 2, winner: 'p-bob', endedBy: 'break' },
  { id: 'last', name: 'Last Friday', weeks: 1, winner: 'p-cy', endedBy: 'break' },
];

/** Fridays (three, unless said), one game each, won by `winner` (+4, the other two −2). */
function threeFridays(fridays: Friday[] = THREE_FRIDAYS): BackupFile {
  const payouts = (winner: string) => Object.fromEntries(PLAYERS.map((p) => [p.id, p.id === winner ? 4 : -2]));
  const startOf = (weeks: number) => Date.now() - weeks * 7 * DAY;
  const endOf = (weeks: number) => startOf(weeks) + FIVE_ONES.actions.length * 20_000;
  return backupFile({
    games: fridays.map(({ id, weeks, winner }) => ({
      id: `g-${id}`,
      game: 'big-roll-5000',
      players: seatsFor(winner),
      options: FIVE_ONES.options,
      ante: 2,
      dice: { kitId: 'standard', taughtSetId: null },
      sessionId: `s-${id}`,
      createdAt: startOf(weeks),
      updatedAt: endOf(weeks),
      finishedAt: endOf(weeks),
      status: 'finished' as const,
      actionCount: FIVE_ONES.actions.length,
      logRevision: FIVE_ONES.actions.length,
      result: { winners: [winner], payouts: payouts(winner) },
      actions: FIVE_ONES.actions.map((action, k) => ({ action, at: startOf(weeks) + k * 20_000 })),
    })),
    players: PLAYERS.map((p) => ({ ...p, createdAt: startOf(Math.max(...fridays.map((f) => f.weeks)) + 1), lastPlayedAt: endOf(1) })),
    sessions: fridays.map(({ id, name, weeks, endedBy }) => ({ id: `s-${id}`, name, startedAt: startOf(weeks), endedAt: endOf(weeks), endedBy })),
    ledger: fridays.map(({ id, weeks, winner }) => ({ id: `l-${id}`, sessionId: `s-${id}`, gameId: `g-${id}`, at: endOf(weeks), deltas: payouts(winner), note: '' })),
  });
}

/** A table's rows, row by row: "Bob +4". */
const rows = (table: ReturnType<Page['getByTestId']>) => table.locator('tr').evaluateAll((trs) => trs.map((r) => [...(r as HTMLTableRowElement).cells].map((c) => (c.textContent ?? '').trim()).join(' ')));
const focused = (page: Page) => page.evaluate(() => ({ text: document.activeElement?.textContent?.trim(), evening: document.activeElement?.closest('[data-evening]')?.getAttribute('data-evening') }));

async function home(page: Page): Promise<void> {
  while (!(await page.getByTestId('new-game').isVisible())) await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page.getByRole('heading', { name: 'In progress' }).waitFor();
}

async function evenings(page: Page): Promise<void> {
  await home(page);
  await page.getByRole('button', { name: 'History' }).click();
  await page.getByRole('radio', { name: 'Evenings' }).check();
  await page.getByTestId('evening').first().waitFor();
}

describe('evenings, week after week', () => {
  it('Home shows two evenings never settled up as one card, each with its own balances and buttons', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 360, height: 740 });
    await page.getByTestId('new-game').waitFor();
    expect(await restoreBackup(page, threeFridays())).toBe('Imported 3 games.');
    const card = page.getByTestId('unsettled-evenings');
    expect(await card.getByRole('heading').textContent()).toBe('Not settled up: 2 evenings');
    expect(await page.getByTestId('unsettled-evening').count()).toBe(0);
    // the latest first, their balances closed: the card stays short
    const items = page.getByTestId('unsettled-evening-item');
    expect(await items.locator('summary').allTextContents()).toEqual(['Last Friday', 'Two Fridays ago']);
    expect(await page.getByTestId('unsettled-ledger').first().isVisible()).toBe(false);
    // opened by keyboard: its balances and its own buttons
    await items.nth(1).locator('summary').focus();
    await page.keyboard.press('Enter');
    const two = items.nth(1);
    expect(await rows(two.getByTestId('unsettled-ledger'))).toEqual(['Bob +4', 'Ann -2', 'Cy -2']);
    expect(await two.locator('caption').textContent()).toBe('Still owed');
    await audit(page, 'home (two evenings not settled up, one open)');
    // at 200% text the card stays on the 360 px screen
    const removeStyles = await addTestStyles(page, 'html { font-size: 200% !important; }');
    expect(await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth)).toBeLessThanOrEqual(360);
    await removeStyles();
    await two.getByTestId('settle-evening').click();
    expect(await two.getByTestId('unsettled-question').textContent()).toBe('Settled up for Two Fridays ago? Its balances (Bob +4, Ann -2, Cy -2) leave Home for good.');
    await audit(page, 'home (two evenings not settled up, settling one asked)');
    // Not now: focus back on that evening's button, not the first evening's
    await two.getByRole('button', { name: 'Not now' }).click();
    expect(await focused(page)).toEqual({ text: 'We settled up…', evening: 's-two' });
    await two.getByTestId('settle-evening').click();
    await two.getByTestId('unsettled-confirm').click();
    // one left: the card of one evening, as before, focus on its heading
    const single = page.getByTestId('unsettled-evening');
    await single.waitFor();
    expect(await single.getByRole('heading').textContent()).toBe('Not settled up · Last Friday');
    expect(await rows(single.getByTestId('unsettled-ledger'))).toEqual(['Cy +4', 'Ann -2', 'Bob -2']);
    expect(await focused(page)).toEqual({ text: 'Not settled up · Last Friday', evening: 's-last' });
    expect(await card.count()).toBe(0);
  });

  it('History’s evenings say how each ended, its final balances and its games, at 360 px and 200% text', async () => {
    const { page } = app;
    await startGame(page, 'five-thousand', ['Ann', 'Bob']);
    await evenings(page);
    const list = page.getByTestId('evening');
    const tonight = await page.evaluate(() => new Date().toLocaleDateString(undefined, { dateStyle: 'medium' }));
    expect(await list.locator('h2').allTextContents()).toEqual([tonight, 'Last Friday', 'Two Fridays ago', 'Three Fridays ago']);
    expect(await list.getByTestId('evening-ending').allTextContents()).toEqual([
      'Still open: its balances are on Home.',
      'Never settled up: Home says what is still owed.',
      'Settled up.',
      'Settled up.',
    ]);
    expect(await list.nth(0).getByTestId('evening-nothing-owed').textContent()).toBe('Nobody has won or lost anything yet.');
    const last = list.nth(1);
    expect(await last.locator('caption').textContent()).toBe('Final balances');
    expect(await rows(last.getByTestId('evening-balances'))).toEqual(['Cy +4', 'Ann -2', 'Bob -2']);
    expect(await rows(list.nth(3).getByTestId('evening-balances'))).toEqual(['Ann +4', 'Bob -2', 'Cy -2']);
    expect(await page.getByTestId('evenings-count').textContent()).toBe('Showing 4 of 4 evenings, the latest first.');
    expect(await page.getByTestId('evenings-more').count()).toBe(0);
    // over the four evenings each won one Friday and lost two: all even
    const total = page.getByTestId('evenings-total');
    expect(await total.getByRole('heading').textContent()).toBe('Over 4 evenings');
    expect(await total.getByTestId('evenings-total-even').textContent()).toBe('Everyone is even: what each won, they lost again.');
    expect(await total.getByTestId('evenings-total-covers').textContent()).toBe('What each player won or lost in the games of these 4 evenings.');
    await audit(page, 'history (evenings)');

    // an evening's game opens its log; Back comes back to the evenings
    await last.getByRole('button', { name: /^Log: 5000 \(Big Roll\) with Bob, Cy, Ann/ }).click();
    await page.getByRole('button', { name: 'Delete game…' }).waitFor();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await list.first().waitFor();
    expect(await page.getByRole('radio', { name: 'Evenings' }).isChecked()).toBe(true);
    // the games' list is still there, as it was
    await page.getByRole('radio', { name: 'Games' }).check();
    expect(await page.getByTestId('history-count').textContent()).toBe('Showing 4 of 4 games.');

    // Last Friday carried on from Home: History says so, and tonight's balances hold it
    await home(page);
    await page.getByTestId('carry-evening').click();
    await page.getByTestId('unsettled-confirm').click();
    await page.getByTestId('unsettled-evening').waitFor({ state: 'detached' });
    await evenings(page);
    expect(await list.nth(1).getByTestId('evening-ending').textContent()).toBe(`Never settled up; its balances were carried on into ${tonight}’s.`);
    expect(await rows(list.nth(1).getByTestId('evening-balances'))).toEqual(['Cy +4', 'Ann -2', 'Bob -2']);
    expect(await list.nth(0).locator('caption').textContent()).toBe('Balances so far');
    expect(await rows(list.nth(0).getByTestId('evening-balances'))).toEqual(['Cy +4', 'Ann -2', 'Bob -2']);
    // the carried balances are Last Friday's game, counted once: still all even (the evenings' balances added up would say Cy +8)
    expect(await total.getByTestId('evenings-total-even').textContent()).toBe('Everyone is even: what each won, they lost again.');

    // at 200% text nothing leaves the 360 px screen
    const removeStyles = await addTestStyles(page, 'html { font-size: 200% !important; }');
    expect(await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth)).toBeLessThanOrEqual(360);
    await removeStyles();
  });

  it('a year of Fridays comes 20 evenings at a time; Show older evenings adds the rest, focus on the first of them', async () => {
    const context = await app.session.browser.newContext({ viewport: { width: 412, height: 860 } });
    try {
      const page = await context.newPage();
      await page.goto(app.server.url);
      await page.getByTestId('new-game').waitFor();
      // 25 Fridays, all settled up
      const year = Array.from({ length: 25 }, (_, k): Friday => ({ id: `w${k + 1}`, name: `Friday ${25 - k}`, weeks: k + 1, winner: PLAYERS[k % 3]!.id, endedBy: 'settled' }));
      expect(await restoreBackup(page, threeFridays(year))).toBe('Imported 25 games.');
      await evenings(page);
      const list = page.getByTestId('evening');
      expect(await list.count()).toBe(20);
      expect(await list.first().locator('h2').textContent()).toBe('Friday 25');
      expect(await page.getByTestId('evenings-count').textContent()).toBe('Showing 20 of 25 evenings, the latest first.');
      // the total is all 25 Fridays' (Ann won 9, Bob and Cy 8 each), not the 20 shown (Ann +2, Bob +2, Cy -4)
      const total = page.getByTestId('evenings-total');
      expect(await total.getByRole('heading').textContent()).toBe('Over 25 evenings');
      expect(await rows(total.getByTestId('evenings-total-balances'))).toEqual(['Ann +4', 'Bob -2', 'Cy -2']);
      expect(await total.getByTestId('evenings-total-covers').textContent()).toBe('What each player won or lost in the games of all 25 evenings, the older ones not shown yet too.');
      await page.getByTestId('evenings-more').click();
      await list.nth(24).waitFor();
      expect(await list.locator('h2').allTextContents()).toEqual(Array.from({ length: 25 }, (_, k) => `Friday ${25 - k}`));
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Friday 5');
      expect(await page.getByTestId('evenings-more').count()).toBe(0);
      expect(await page.getByTestId('evenings-count').textContent()).toBe('Showing 25 of 25 evenings, the latest first.');
      expect(await rows(total.getByTestId('evenings-total-balances'))).toEqual(['Ann +4', 'Bob -2', 'Cy -2']);
      expect(await total.getByTestId('evenings-total-covers').textContent()).toBe('What each player won or lost in the games of these 25 evenings.');
    } finally {
      await context.close();
    }
  });
});
