/**
 * A long history (scripts/lib/big-history.ts: 120 finished games by random play through the rules,
 * restored from a backup through Settings): History shows the latest games first a page at a time,
 * "Show more" brings the older ones below with focus on the first of them, the filters page the
 * same way and still reach the oldest game, whose log opens whole; Home lists the latest finished.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appSession } from './harness.ts';
import { bigHistory } from '../../scripts/lib/big-history.ts';
import { startGame } from './table-helpers.ts';

const app = appSession();
const { backup } = bigHistory({ games: 120, sessions: 40, seed: 7 });
/** The backup's games as History lists them: the latest played first (no two share a time here). */
const latestFirst = [...backup.games].sort((a, b) => b.updatedAt - a.updatedAt);
let dir: string;

const listed = () =>
  app.page.evaluate(() => [...document.querySelectorAll('[data-testid="game-list"] > li')].map((li) => li.getAttribute('data-game-id') ?? ''));

async function openHistory(): Promise<void> {
  const { page } = app;
  while (!(await page.getByTestId('new-game').isVisible())) await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page.getByRole('button', { name: 'History' }).click();
  await page.getByTestId('history-count').waitFor();
}

beforeAll(async () => {
  const { page } = app;
  dir = await mkdtemp(join(tmpdir(), 'rollcall-history-'));
  const file = join(dir, 'backup.json');
  await writeFile(file, JSON.stringify(backup));
  page.setDefaultTimeout(60_000);
  await page.getByTestId('new-game').waitFor();
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByTestId('backup-file').setInputFiles(file);
  await page.getByTestId('backup-message').waitFor();
  expect(await page.getByTestId('backup-message').textContent()).toBe('Imported 120 games.');
  page.setDefaultTimeout(10_000);
  await page.getByRole('button', { name: 'Back', exact: true }).click();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('History of two years', () => {
  it('Home lists the five latest finished games', async () => {
    const { page } = app;
    expect(new Set(backup.games.map((g) => g.updatedAt)).size).toBe(backup.games.length);
    await page.getByRole('heading', { name: 'Recently finished' }).waitFor();
    expect(await listed()).toEqual(latestFirst.slice(0, 5).map((g) => g.id));
  });

  it('shows the latest 50 first; "Show more" adds the older ones below, focus on the first of them, until none is left', async () => {
    const { page } = app;
    await openHistory();
    expect(await listed()).toEqual(latestFirst.slice(0, 50).map((g) => g.id));
    expect(await page.getByTestId('history-count').textContent()).toBe('Showing 50 of 120 games.');
    const more = page.getByTestId('history-more');
    expect(await more.textContent()).toBe('Show 50 more games');
    await more.click();
    await expect.poll(listed).toEqual(latestFirst.slice(0, 100).map((g) => g.id));
    // a screen reader goes on from the first game just shown, not from the top
    expect(await page.evaluate(() => document.activeElement?.closest('li')?.getAttribute('data-game-id'))).toBe(latestFirst[50]!.id);
    expect(await more.textContent()).toBe('Show 20 more games');
    // and by the keyboard
    await more.focus();
    await page.keyboard.press('Enter');
    await expect.poll(listed).toEqual(latestFirst.map((g) => g.id));
    expect(await page.getByTestId('history-count').textContent()).toBe('Showing 120 of 120 games.');
    expect(await more.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.closest('li')?.getAttribute('data-game-id'))).toBe(latestFirst[100]!.id);
  });

  it('a filter starts again from its latest page, and pages to its oldest game, whose log opens whole', async () => {
    const { page } = app;
    // a game in progress, the latest of all
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await startGame(page, 'five-thousand', ['Ann', 'Bob'], 5);
    await openHistory();
    const ids = await listed();
    expect(ids).toHaveLength(50);
    expect(ids.slice(1)).toEqual(latestFirst.slice(0, 49).map((g) => g.id));
    await page.getByLabel('In progress').check();
    await expect.poll(listed).toHaveLength(1);
    expect(await page.getByTestId('history-count').textContent()).toBe('Showing 1 of 1 game.');
    expect(await page.getByTestId('history-more').count()).toBe(0);
    await page.getByLabel('Abandoned').check();
    await page.getByTestId('history-empty').waitFor();
    await page.getByLabel('Finished').check();
    await expect.poll(listed).toEqual(latestFirst.slice(0, 50).map((g) => g.id));
    for (const shown of [100, 120]) {
      await page.getByTestId('history-more').click();
      await expect.poll(listed).toHaveLength(shown);
    }
    expect(await listed()).toEqual(latestFirst.map((g) => g.id));
    const oldest = latestFirst.at(-1)!;
    await page.locator(`[data-game-id="${oldest.id}"] button`).click();
    await page.getByTestId('game-log').waitFor();
    expect(await page.getByTestId('log-step').count()).toBe(oldest.actions.length);
    // each step at the time it was written, as the phone says a time
    const first = await page.getByTestId('log-step').first().locator('.time').textContent();
    expect(first).toBe(await page.evaluate((at) => new Date(at).toLocaleTimeString(), oldest.actions[0]!.at));
  });
});
