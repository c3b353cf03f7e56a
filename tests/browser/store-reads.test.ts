/**
 * A store read that fails says so in the app's words and leaves the screen as it was: History's
 * list and "Show more", the game over's evening, Teach's set and its photos, the table looked at again when the
 * page comes back into view, and the first reads of Home, Players and New game (each still offers
 * what it can without them). The page's reads are made to fail as when another tab opens a newer
 * Rollcall (the connection closes: InvalidStateError) or the disk fails (any other error), at
 * `IDBDatabase.transaction` for read-only transactions over the stores named.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appSession } from './harness.ts';
import { backupFile, FIVE_ONES, restoreBackup } from './table-helpers.ts';
import type { BackupFile } from '../../src/lib/store/backup.ts';

const app = appSession();

const FINISHED = 52;

/** Tonight: Ann and Ben played 52 games of Big Roll 5000 (ante 2, Ben won each), and a 53rd is in play. */
function evening(): BackupFile {
  const start = Date.now() - 3 * 3600_000;
  const players = [
    { id: 'p-ann', name: 'Ann' },
    { id: 'p-ben', name: 'Ben' },
  ];
  const games: BackupFile['games'] = Array.from({ length: FINISHED + 1 }, (_, g) => {
    const at = start + g * 60_000;
    const finished = g < FINISHED;
    const end = at + FIVE_ONES.actions.length * 1000;
    return {
      id: `g${String(g).padStart(2, '0')}`,
      game: 'big-roll-5000',
      players,
      options: FIVE_ONES.options,
      ante: 2,
      dice: { kitId: 'standard', taughtSetId: null },
      sessionId: 's-tonight',
      createdAt: at,
      updatedAt: finished ? end : at,
      finishedAt: finished ? end : null,
      status: finished ? 'finished' : 'active',
      actionCount: finished ? FIVE_ONES.actions.length : 0,
      logRevision: finished ? FIVE_ONES.actions.length : 0,
      result: finished ? { winners: ['p-ben'], payouts: { 'p-ann': -2, 'p-ben': 2 } } : null,
      actions: finished ? FIVE_ONES.actions.map((action, k) => ({ action, at: at + k * 1000 })) : [],
    };
  });
  return backupFile({
    games,
    players: players.map((p) => ({ ...p, createdAt: start - 1000, lastPlayedAt: start })),
    sessions: [{ id: 's-tonight', name: 'Tonight', startedAt: start, endedAt: null }],
    ledger: games.filter((g) => g.result).map((g) => ({ id: `l-${g.id}`, sessionId: 's-tonight', gameId: g.id, at: g.updatedAt, deltas: { ...g.result!.payouts }, note: '' })),
  });
}

const CLOSED = 'could not be read: this page can no longer reach the saved games (a newer Rollcall opened in another tab, or the browser closed them). Reload the page; everything saved is safe.';

/** Read-only transactions over any of `stores` fail from now on: the connection closed, or the disk. */
async function failReads(page: Page, stores: string[], how: 'closed' | 'disk'): Promise<void> {
  await page.evaluate(
    ({ stores, how }) => {
      const proto = IDBDatabase.prototype as IDBDatabase & { __realTransaction?: IDBDatabase['transaction'] };
      proto.__realTransaction ??= proto.transaction;
      const real = proto.__realTransaction;
      proto.transaction = function (this: IDBDatabase, names: string | string[], mode?: IDBTransactionMode, options?: IDBTransactionOptions) {
        const wanted = typeof names === 'string' ? [names] : [...names];
        if (mode !== 'readwrite' && wanted.some((n) => stores.includes(n))) {
          throw how === 'closed' ? new DOMException('The database connection is closing.', 'InvalidStateError') : new DOMException('The disk could not be read.', 'UnknownError');
        }
        return real.call(this, names, mode, options);
      } as IDBDatabase['transaction'];
    },
    { stores, how },
  );
}

async function readsAgain(page: Page): Promise<void> {
  await page.evaluate(() => {
    const proto = IDBDatabase.prototype as IDBDatabase & { __realTransaction?: IDBDatabase['transaction'] };
    if (proto.__realTransaction) proto.transaction = proto.__realTransaction;
  });
}

/** Unhandled rejections and console errors from here on. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  return errors;
}

async function home(page: Page): Promise<void> {
  while (!(await page.getByTestId('new-game').isVisible())) await page.getByRole('button', { name: 'Back', exact: true }).click();
}

beforeAll(async () => {
  const { page } = app;
  await page.getByTestId('new-game').waitFor();
  expect(await restoreBackup(page, evening())).toBe(`Imported ${FINISHED + 1} games.`);
});

// each test on its own: reads work again, from Home
afterEach(async () => {
  await readsAgain(app.page);
  await home(app.page);
});

describe('a store read that fails', () => {
  it('History: "Show more" and a filter say the games could not be read, keep the list, and work again after', async () => {
    const { page } = app;
    const errors = watchErrors(page);
    await page.getByRole('button', { name: 'History' }).click();
    await page.getByTestId('history-count').waitFor();
    expect(await page.getByTestId('history-count').textContent()).toBe(`Showing 50 of ${FINISHED + 1} games.`);

    await failReads(page, ['games'], 'disk');
    await page.getByTestId('history-more').click();
    await page.getByTestId('history-problem').waitFor();
    expect(await page.getByTestId('history-problem').textContent()).toBe('The older games could not be read (The disk could not be read.). Try again, or reload the page; everything saved is safe.');
    expect(await page.getByTestId('history-count').textContent()).toBe(`Showing 50 of ${FINISHED + 1} games.`);
    expect(await page.getByTestId('history-more').isEnabled()).toBe(true);

    await failReads(page, ['games'], 'closed');
    await page.getByText('Finished', { exact: true }).click();
    await page.getByTestId('history-problem').filter({ hasText: CLOSED }).waitFor();
    expect(await page.getByTestId('history-problem').textContent()).toBe(`The games ${CLOSED}`);
    expect(await page.locator('[data-testid="game-list"] > li').count()).toBe(50);

    await readsAgain(page);
    await page.getByText('All', { exact: true }).click();
    await page.getByTestId('history-problem').waitFor({ state: 'detached' });
    await page.getByTestId('history-more').click();
    await page.getByTestId('history-count').filter({ hasText: `Showing ${FINISHED + 1} of` }).waitFor();
    expect(errors).toEqual([]);
    await home(page);
  });

  it('History: the evenings say they could not be read, and Try again reads them', async () => {
    const { page } = app;
    const errors = watchErrors(page);
    await page.getByRole('button', { name: 'History' }).click();
    await page.getByTestId('history-count').waitFor();
    await failReads(page, ['sessions'], 'disk');
    await page.getByRole('radio', { name: 'Evenings' }).check();
    await page.getByTestId('history-problem').waitFor();
    expect(await page.getByTestId('history-problem').textContent()).toBe('The evenings could not be read (The disk could not be read.). Try again, or reload the page; everything saved is safe.');
    expect(await page.getByTestId('evening').count()).toBe(0);
    await readsAgain(page);
    await page.getByTestId('evenings-again').click();
    await page.getByTestId('evening').first().waitFor();
    expect(await page.getByTestId('history-problem').count()).toBe(0);
    expect(await page.getByTestId('evening').locator('h2').allTextContents()).toEqual(['Tonight']);
    expect(await page.getByTestId('evening-balances').locator('tr').allTextContents()).toEqual([`Ben+${FINISHED * 2}`, `Ann-${FINISHED * 2}`]);
    // History opens on the games again for the tests after
    await page.getByRole('radio', { name: 'Games' }).check();
    expect(errors).toEqual([]);
  });

  it('the table looked at again as the page comes back into view says the game could not be read, and shows it as it was', async () => {
    const { page } = app;
    const errors = watchErrors(page);
    await page.getByRole('button', { name: /^Resume: / }).click();
    await page.getByTestId('headline').waitFor();
    const headline = await page.getByTestId('headline').textContent();
    await failReads(page, ['games'], 'closed');
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await page.getByTestId('rule-error').waitFor();
    expect(await page.getByTestId('rule-error').textContent()).toBe(`The game as saved now ${CLOSED}`);
    expect(await page.getByTestId('headline').textContent()).toBe(headline);
    await readsAgain(page);
    expect(errors).toEqual([]);
    await home(page);
  });

  it('the game over says the evening could not be read, and still offers to play again', async () => {
    const { page } = app;
    const errors = watchErrors(page);
    await failReads(page, ['players'], 'closed');
    await page.getByRole('button', { name: /^View: / }).first().click();
    await page.getByTestId('game-over').waitFor();
    await page.getByTestId('ledger-problem').waitFor();
    expect(await page.getByTestId('ledger-problem').textContent()).toBe(`This evening's balances ${CLOSED}`);
    expect(await page.getByTestId('session-ledger').count()).toBe(0);
    expect(await page.getByTestId('play-again').isVisible()).toBe(true);
    await readsAgain(page);
    expect(errors).toEqual([]);
    await home(page);
  });

  it('Teach says the dice set could not be read, not "Loading…" for ever', async () => {
    const { page } = app;
    const errors = watchErrors(page);
    await page.getByRole('button', { name: 'Dice kits' }).click();
    await page.getByTestId('own-kits').waitFor();
    await failReads(page, ['taughtSets'], 'closed');
    await page.locator('[data-kit-id="face-off"]').getByTestId('teach-kit').click();
    await page.getByTestId('teach-unreadable').waitFor();
    expect(await page.getByTestId('teach-unreadable').textContent()).toBe(`This dice set ${CLOSED}`);
    await readsAgain(page);
    expect(errors).toEqual([]);
  });

  it('Teach says the taught photos could not be read, not that the dice reader could not start', async () => {
    const { page } = app;
    const errors = watchErrors(page);
    await page.getByRole('button', { name: 'Dice kits' }).click();
    await page.getByTestId('own-kits').waitFor();
    await failReads(page, ['taughtFaces'], 'closed');
    await page.locator('[data-kit-id="face-off"]').getByTestId('teach-kit').click();
    await page.locator('[data-testid="teach"][data-phase="error"]').waitFor();
    expect(await page.getByTestId('teach-status').textContent()).toBe(`The photos taught for this set ${CLOSED}`);
    await readsAgain(page);
    expect(errors).toEqual([]);
  });

  it('Dice kits says its taught sets could not be read, not nothing at all, and Try again reads them', async () => {
    const { page } = app;
    const errors = watchErrors(page);
    await failReads(page, ['taughtSets'], 'disk');
    await page.getByRole('button', { name: 'Dice kits' }).click();
    await page.getByTestId('kits-problem').waitFor();
    expect(await page.getByTestId('kits-problem').textContent()).toBe('The dice sets could not be read (The disk could not be read.). Try again, or reload the page; everything saved is safe.');
    // nothing says there are none: they could not be read
    expect(await page.getByText('None yet.', { exact: true }).count()).toBe(0);
    await readsAgain(page);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('kits-problem').waitFor({ state: 'detached' });
    await page.getByTestId('own-kits').getByText('None yet.', { exact: true }).waitFor();
    expect(errors).toEqual([]);
  });

  it('Home says the games could not be read, not "No game in progress", and still offers a new game', async () => {
    const { page } = app;
    const errors = watchErrors(page);
    await page.getByRole('button', { name: 'History' }).click();
    await failReads(page, ['games'], 'closed');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByTestId('home-problem').waitFor();
    expect(await page.getByTestId('home-problem').textContent()).toBe(`The games and balances ${CLOSED}`);
    expect(await page.getByText('No game in progress.').count()).toBe(0);
    expect(await page.getByTestId('new-game').isEnabled()).toBe(true);
    await readsAgain(page);
    expect(errors).toEqual([]);
  });

  it('Players says the players could not be read, not "No players yet"', async () => {
    const { page } = app;
    const errors = watchErrors(page);
    await failReads(page, ['players'], 'disk');
    await page.getByRole('button', { name: 'Players' }).click();
    await page.getByTestId('players-problem').waitFor();
    expect(await page.getByTestId('players-problem').textContent()).toBe('The players could not be read (The disk could not be read.). Try again, or reload the page; everything saved is safe.');
    expect(await page.getByTestId('players-empty').count()).toBe(0);
    // its words say "Try again": offered, tapped once reads work again, it reads them
    await readsAgain(page);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('players-problem').waitFor({ state: 'detached' });
    await page.getByTestId('player-name').first().waitFor();
    expect(await page.getByTestId('players-problem-again').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('Home, its games unread from the disk, says "Try again" and offers it: tapped, it reads them again', async () => {
    const { page } = app;
    const errors = watchErrors(page);
    await page.getByRole('button', { name: 'History' }).click();
    await failReads(page, ['games'], 'disk');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByTestId('home-problem').waitFor();
    expect(await page.getByTestId('home-problem').textContent()).toBe('The games and balances could not be read (The disk could not be read.). Try again, or reload the page; everything saved is safe.');
    await readsAgain(page);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('home-problem').waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'In progress' }).waitFor();
    await page.getByRole('button', { name: /^Resume: 5000 \(Big Roll\) with Ann, Ben/ }).waitFor();
    expect(await page.getByTestId('home-problem-again').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('Home, its connection closed, offers no "Try again" (its words say reload)', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'History' }).click();
    await failReads(page, ['games'], 'closed');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByTestId('home-problem').waitFor();
    expect(await page.getByTestId('home-problem').textContent()).toBe(`The games and balances ${CLOSED}`);
    expect(await page.getByTestId('home-problem-again').count()).toBe(0);
  });

  it('New game, its players unread from the disk, says "Try again" and offers it: tapped, it reads them again', async () => {
    const { page } = app;
    const errors = watchErrors(page);
    await failReads(page, ['players'], 'disk');
    await page.getByTestId('new-game').click();
    await page.getByTestId('new-game-problem').waitFor();
    expect(await page.getByTestId('new-game-problem').textContent()).toBe('The players and dice sets could not be read (The disk could not be read.). Try again, or reload the page; everything saved is safe.');
    expect(await page.getByRole('button', { name: '+ Ann' }).count()).toBe(0);
    await readsAgain(page);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('new-game-problem').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: '+ Ann' }).waitFor();
    expect(await page.getByTestId('new-game-problem-again').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  // last: it starts a game (the evening's one game in play would have a second)
  it('New game says the players and dice sets could not be read, and still starts a game, a name typed found as its player', async () => {
    const { page } = app;
    const errors = watchErrors(page);
    await failReads(page, ['players'], 'closed');
    await page.getByTestId('new-game').click();
    await page.getByTestId('new-game-problem').waitFor();
    expect(await page.getByTestId('new-game-problem').textContent()).toBe(`The players and dice sets ${CLOSED}`);
    // its words say reload: reading again over a closed connection would only fail again
    expect(await page.getByTestId('new-game-problem-again').count()).toBe(0);
    for (const name of ['Ann', 'Ben']) {
      await page.getByTestId('player-name').fill(name);
      await page.getByTestId('add-player').click();
    }
    await readsAgain(page);
    await page.getByTestId('start-game').click();
    await page.getByTestId('headline').waitFor();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByRole('button', { name: 'Players' }).click();
    await page.getByTestId('player').first().waitFor();
    expect(await page.getByTestId('player-name').allTextContents()).toEqual(['Ann', 'Ben']);
    expect(errors).toEqual([]);
  });
});
