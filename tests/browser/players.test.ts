/**
 * Players set right (src/screens/Players.svelte): an evening where "Bbo" won one game and "Bob"
 * the next (restored from a backup through Settings, as a phone restored would be) shows two rows
 * on Home's balances; a rename to "Bob" is refused with a merge suggested, Bbo merged into Bob
 * after the question, and Home's balances show one row with both wins, History the game as Bob's
 * under the name played; two who sat at one table are refused, the game named, nothing changed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { appSession } from './harness.ts';
import { backupFile, FIVE_ONES, restoreBackup } from './table-helpers.ts';
import type { BackupFile } from '../../src/lib/store/backup.ts';

const app = appSession();


/** Tonight's evening, still open: Ann, Bbo and Cy played, then Ann, Bob and Cy. */
function evening(): BackupFile {
  const start = Date.now() - 2 * 3600_000;
  const players = [
    { id: 'p-ann', name: 'Ann' },
    { id: 'p-bbo', name: 'Bbo' },
    { id: 'p-bob', name: 'Bob' },
    { id: 'p-cy', name: 'Cy' },
  ];
  const seated = (second: string) => [players[0]!, players.find((p) => p.id === second)!, players[3]!];
  const games: BackupFile['games'] = ['p-bbo', 'p-bob'].map((second, g) => {
    const at = start + g * 3600_000;
    const end = at + FIVE_ONES.actions.length * 20_000;
    const seats = seated(second);
    return {
      id: `g${g}`,
      game: 'big-roll-5000',
      players: seats,
      options: FIVE_ONES.options,
      ante: 2,
      dice: { kitId: 'standard', taughtSetId: null },
      sessionId: 's-tonight',
      createdAt: at,
      updatedAt: end,
      finishedAt: end,
      status: 'finished',
      actionCount: FIVE_ONES.actions.length,
      logRevision: FIVE_ONES.actions.length,
      result: { winners: [second], payouts: { 'p-ann': -2, [second]: 4, 'p-cy': -2 } },
      actions: FIVE_ONES.actions.map((action, k) => ({ action, at: at + k * 20_000 })),
    };
  });
  return backupFile({
    games,
    players: players.map((p) => ({ ...p, createdAt: start - 1000, lastPlayedAt: games.find((g) => g.players.some((s) => s.id === p.id))!.updatedAt })),
    sessions: [{ id: 's-tonight', name: 'Tonight', startedAt: start, endedAt: null }],
    ledger: games.map((g) => ({ id: `l-${g.id}`, sessionId: 's-tonight', gameId: g.id, at: g.updatedAt, deltas: { ...g.result!.payouts }, note: '' })),
  });
}

async function home(): Promise<void> {
  const { page } = app;
  while (!(await page.getByTestId('new-game').isVisible())) await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page.getByRole('heading', { name: 'In progress' }).waitFor();
}

/** Home's balances, row by row: "Bob +8". */
const balances = () => app.page.getByTestId('ledger').locator('tr').evaluateAll((rows) => rows.map((r) => [...(r as HTMLTableRowElement).cells].map((c) => (c.textContent ?? '').trim()).join(' ')));

/** A second phone (its own browser context, its own store) at 390 × 844, its first page on Home; closed after `run`. */
async function onAnotherPhone(run: (phone: BrowserContext, page: Page) => Promise<void>): Promise<void> {
  const phone = await app.session.browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const page = await phone.newPage();
    await page.goto(app.server.url);
    await run(phone, page);
  } finally {
    await phone.close();
  }
}

/** From Home: Players, Bbo merged into Bob after the question. */
async function mergeBboIntoBob(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Players' }).click();
  await page.getByTestId('player').filter({ hasText: 'Bbo' }).getByTestId('merge-player').click();
  await page.getByTestId('merge-into').selectOption({ label: 'Bob' });
  await page.getByTestId('merge-ask').click();
  await page.getByTestId('merge-confirm').click();
  await page.getByTestId('player-message').waitFor();
}

const row = (name: string) => app.page.getByTestId('player').filter({ has: app.page.getByTestId('player-name').getByText(name, { exact: true }) });

/** "Play again" tapped on `page`'s game over: the new game's seats, by name, once its slate shows. */
async function playedAgain(page: Page): Promise<(string | null)[]> {
  await page.getByTestId('play-again').click();
  await page.getByTestId('game-over').waitFor({ state: 'detached' });
  await page.getByTestId('slate-row').first().waitFor();
  return page.getByTestId('slate-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-player')));
}

/** From the table, Back and Players: every player's name, sorted, once `expected` is listed (the list is read after the screen shows). */
async function playersListed(page: Page, expected: string): Promise<string[]> {
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page.getByRole('button', { name: 'Players' }).click();
  await page.getByTestId('player-name').getByText(expected, { exact: true }).waitFor();
  return (await page.getByTestId('player-name').allTextContents()).sort();
}

beforeAll(async () => {
  const { page } = app;
  await page.getByTestId('new-game').waitFor();
  expect(await restoreBackup(page, evening())).toBe('Imported 2 games.');
});

describe('Players: one person under two names', () => {
  it('Home shows Bbo and Bob apart; a rename to Bob is refused and suggests a merge', async () => {
    const { page } = app;
    expect(await balances()).toEqual(['Bbo +4', 'Bob +4', 'Ann -4', 'Cy -4']);
    await page.getByRole('button', { name: 'Players' }).click();
    await page.getByRole('heading', { name: 'Players' }).waitFor();
    expect(await row('Bbo').textContent()).toContain('1 game');
    await row('Bbo').getByTestId('rename-player').click();
    // focus in the field, the name ready to be typed over
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('rename-field');
    await page.getByTestId('rename-field').fill('bob');
    await page.keyboard.press('Enter');
    expect(await row('Bbo').getByTestId('player-message').textContent()).toBe(
      'There is already a player called Bob. If Bbo is Bob, merge them instead: "Same person as…". Nothing was changed.',
    );
    await row('Bbo').getByRole('button', { name: 'Cancel' }).click();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Rename… Bbo');
  });

  it('Escape backs out of a rename or a merge as Cancel does: nothing changed, focus back on the button that opened it', async () => {
    const { page } = app;
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    await row('Bbo').getByTestId('rename-player').click();
    await page.getByTestId('rename-field').fill('Bbo2');
    await page.keyboard.press('Escape');
    expect(await focused()).toBe('Rename… Bbo');
    expect(await page.getByTestId('rename-field').count()).toBe(0);
    // the merge panel: from its choice, and from the question before the merge
    await row('Bbo').getByTestId('merge-player').click();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('merge-into');
    await page.keyboard.press('Escape');
    expect(await focused()).toBe('Same person as… Bbo');
    expect(await page.getByTestId('merge-into').count()).toBe(0);
    await row('Bbo').getByTestId('merge-player').click();
    await page.getByTestId('merge-into').selectOption({ label: 'Bob' });
    await page.getByTestId('merge-ask').click();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('merge-confirm');
    await page.keyboard.press('Escape');
    expect(await focused()).toBe('Same person as… Bbo');
    expect(await page.getByTestId('merge-question').count()).toBe(0);
    expect(await page.getByTestId('player-name').allTextContents()).toContain('Bbo');
  });

  it('merges Bbo into Bob after saying what happens; Home shows one row with both wins, History the game as Bob’s', async () => {
    const { page } = app;
    await row('Bbo').getByTestId('merge-player').click();
    await page.getByTestId('merge-into').selectOption({ label: 'Bob' });
    await page.getByTestId('merge-ask').click();
    expect(await page.getByTestId('merge-question').textContent()).toBe("Bbo's 1 game and balances become Bob's. Bbo goes from the list; games keep the name they were played under, and Bbo typed again is Bob.");
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('merge-confirm');
    await page.getByTestId('merge-confirm').click();
    expect(await row('Bob').getByTestId('player-message').textContent()).toBe("Bbo is Bob now: 1 game became Bob's.");
    expect(await page.getByTestId('player-name').allTextContents()).not.toContain('Bbo');
    expect(await row('Bob').textContent()).toContain('2 games');

    await home();
    expect(await balances()).toEqual(['Bob +8', 'Ann -4', 'Cy -4']);
    await page.getByRole('button', { name: 'History' }).click();
    await page.getByTestId('history-count').waitFor();
    expect(await page.getByTestId('game-players').allTextContents()).toEqual(['Ann, Bob, Cy', 'Ann, Bob (as Bbo), Cy']);
  });

  it('the end of the game Bbo won names the winner as the ledger under it does: "Bob (as Bbo) wins!" above Bob\'s row', async () => {
    const { page } = app;
    await home();
    await page.getByRole('button', { name: /^View: 5000 \(Big Roll\) with Ann, Bob \(as Bbo\), Cy,/ }).click();
    await page.getByTestId('session-ledger').waitFor();
    // the heading said "Bbo wins!" over a ledger that has no Bbo; the log keeps the name played under
    expect(await page.locator('#over-heading').textContent()).toBe('Bob (as Bbo) wins!');
    expect(await page.getByTestId('payout').textContent()).toBe('Bob (as Bbo) takes 6 from the pot of 6.');
    expect(await page.getByTestId('session-ledger').locator('tbody th').allTextContents()).toEqual(['Ann', 'Bob', 'Cy']);
    await home();
  });

  it('Bbo, merged into Bob, typed in New game seats Bob and says so; the game shows under Bob on Home; Players shows the name and forgets it', async () => {
    const { page } = app;
    await home();
    await page.getByRole('button', { name: 'Players' }).click();
    expect(await row('Bob').getByTestId('player-aliases').textContent()).toContain('also Bbo');
    await home();
    await page.getByTestId('new-game').click();
    await page.getByTestId('game-select').selectOption('five-thousand');
    await page.getByRole('button', { name: '+ Ann', exact: true }).click();
    const seatNames = () => page.getByTestId('seat').locator('input').evaluateAll((fields) => fields.map((f) => (f as HTMLInputElement).value));
    const typeSeat = async (name: string) => {
      await page.getByTestId('player-name').fill(name);
      await page.getByTestId('add-player').click();
    };
    await typeSeat('bbo');
    expect(await seatNames()).toEqual(['Ann', 'Bob']);
    expect(await page.getByTestId('seat-alias').textContent()).toContain('bbo is Bob (a name Bob was known by).');
    // on a 320 px phone the note and its button wrap under the seat, never past the screen's edge
    await page.setViewportSize({ width: 320, height: 740 });
    expect(await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth)).toBeLessThanOrEqual(320);
    expect(await page.getByTestId('seat-apart').evaluate((b) => b.getBoundingClientRect().right)).toBeLessThanOrEqual(320);
    await page.setViewportSize({ width: 412, height: 860 });
    // someone else really called so: a new player of that name, said no more
    await page.getByTestId('seat-apart').click();
    expect(await seatNames()).toEqual(['Ann', 'bbo']);
    expect(await page.getByTestId('seat-alias').count()).toBe(0);
    // not so after all: taken off, typed again, it is Bob again
    await page.getByRole('button', { name: 'Remove bbo' }).click();
    await typeSeat('Bbo');
    expect(await seatNames()).toEqual(['Ann', 'Bob']);
    await page.getByTestId('start-game').click();
    await page.getByTestId('slate-row').first().waitFor();
    expect(await page.getByTestId('slate-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-player')))).toEqual(['Ann', 'Bob']);

    await home();
    expect(await page.getByTestId('game-players').first().textContent()).toBe('Ann, Bob');
    await page.getByRole('button', { name: 'Players' }).click();
    await row('Bob').waitFor();
    expect(await page.getByTestId('player-name').allTextContents()).not.toContain('Bbo');
    expect(await row('Bob').textContent()).toContain('3 games');
    // the name was someone else's all along: forgotten, it makes a new player when typed
    await row('Bob').getByRole('button', { name: 'Forget Bbo as a name of Bob' }).click();
    expect(await row('Bob').getByTestId('player-message').textContent()).toBe('Bbo no longer finds Bob: typed in New game, it is a new player.');
    expect(await row('Bob').getByTestId('player-aliases').count()).toBe(0);
    await home();
    await page.getByTestId('new-game').click();
    // the known players read first (offered as "+ Ann"): typed before, "Bbo" is a new player whatever Players did
    await page.getByRole('button', { name: '+ Ann', exact: true }).waitFor();
    await typeSeat('Bbo');
    expect(await seatNames()).toEqual(['Bbo']);
    expect(await page.getByTestId('seat-alias').count()).toBe(0);
    await page.getByRole('button', { name: 'Back', exact: true }).click();
  });

  it('"Play again" on the end of a game of Bbo’s, open in another tab as Bbo is merged into Bob, seats Bob', async () => {
    await onAnotherPhone(async (phone, page) => {
      await restoreBackup(page, evening());
      // the other tab: the end of the game Bbo won
      const tab = await phone.newPage();
      await tab.goto(app.server.url);
      await tab.getByRole('button', { name: /^View: 5000 \(Big Roll\) with Ann, Bbo, Cy,/ }).click();
      await tab.getByTestId('play-again').waitFor();
      await mergeBboIntoBob(page);

      // Bob's id and name, not Bbo's, gone from this device: a player no list shows, whose wins Home would give to "Someone"
      expect(await playedAgain(tab)).toEqual(['Ann', 'Bob', 'Cy']);
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await page.getByRole('button', { name: 'History' }).click();
      await page.getByTestId('history-count').waitFor();
      expect(await page.getByTestId('game-players').first().textContent()).toBe('Ann, Bob, Cy');
    });
  });

  it('Players left open in another tab across the merge: a tap on Bbo says Bbo went and shows the players as they are', async () => {
    await onAnotherPhone(async (phone, page) => {
      await restoreBackup(page, evening());
      const stale = await phone.newPage();
      await stale.goto(app.server.url);
      await stale.getByRole('button', { name: 'Players' }).click();
      const staleRow = (name: string) => stale.getByTestId('player').filter({ has: stale.getByTestId('player-name').getByText(name, { exact: true }) });
      await staleRow('Bbo').waitFor();
      await mergeBboIntoBob(page);

      // a rename of the row it still shows
      await staleRow('Bbo').getByTestId('rename-player').click();
      await stale.getByTestId('rename-field').fill('Bobby');
      await stale.getByTestId('rename-save').click();
      await stale.getByTestId('players-gone').waitFor();
      expect(await stale.getByTestId('players-gone').textContent()).toBe('Bbo is no longer on this device (merged or changed in another tab); the list now shows the players as they are.');
      expect(await stale.getByTestId('player-name').allTextContents()).toEqual(expect.arrayContaining(['Ann', 'Bob', 'Cy']));
      expect(await stale.getByTestId('player-name').allTextContents()).not.toContain('Bbo');
      expect(await staleRow('Bob').textContent()).toContain('2 games');
      // Bbo's games are Bob's, and no "Bobby" was made
      expect(await stale.getByTestId('player-name').allTextContents()).not.toContain('Bobby');
    });
  });

  it('a New game left open with Bbo seated as Bbo is merged into Bob: Start writes no game for Bbo’s old id, says so, and starts with Bob in that seat when tapped again', async () => {
    await onAnotherPhone(async (phone, page) => {
      await restoreBackup(page, evening());
      // tab A: New game, Cy then Bbo seated from the known players
      const tab = await phone.newPage();
      await tab.goto(app.server.url);
      await tab.getByTestId('new-game').click();
      await tab.getByTestId('game-select').selectOption('five-thousand');
      await tab.getByRole('button', { name: '+ Cy', exact: true }).click();
      await tab.getByRole('button', { name: '+ Bbo', exact: true }).click();
      // tab B: Home → Players, Bbo merged into Bob
      await mergeBboIntoBob(page);

      await tab.getByTestId('start-game').click();
      await tab.getByTestId('start-problem').waitFor();
      expect(await tab.getByTestId('start-problem').textContent()).toBe(
        'Bbo is Bob now (merged in another tab), so the game was not started: Bob takes the seat. Tap Start again to play.',
      );
      expect(await tab.locator('main').getAttribute('data-screen')).toBe('new-game');
      const stored = () =>
        tab.evaluate(
          () =>
            new Promise<{ games: { players: { id: string; name: string }[] }[]; players: { id: string; name: string }[] }>((resolve, reject) => {
              const open = indexedDB.open('rollcall');
              open.onerror = () => reject(open.error);
              open.onsuccess = () => {
                const tx = open.result.transaction(['games', 'players']);
                const games = tx.objectStore('games').getAll();
                const players = tx.objectStore('players').getAll();
                tx.oncomplete = () => {
                  open.result.close();
                  resolve({ games: games.result, players: players.result });
                };
              };
            }),
        );
      const before = await stored();
      expect(before.games).toHaveLength(2); // the evening's two, no third
      expect(before.games.flatMap((g) => g.players.map((p) => p.id))).not.toContain('p-bbo');
      // the seats in their order, Bob where Bbo sat (Bbo is a name Bob was known by now); Start again plays
      expect(await tab.getByTestId('seat-alias').textContent()).toContain('Bbo is Bob (a name Bob was known by).');
      await tab.getByTestId('start-game').click();
      await tab.getByTestId('slate-row').first().waitFor();
      expect(await tab.getByTestId('slate-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-player')))).toEqual(['Cy', 'Bob']);
      const after = await stored();
      const ids = new Set(after.players.map((p) => p.id));
      expect(after.games).toHaveLength(3);
      for (const game of after.games) for (const seat of game.players) expect(ids.has(seat.id)).toBe(true);
      // no second Bob: one row on Home's balances
      expect(after.players.map((p) => p.name).sort()).toEqual(['Ann', 'Bob', 'Cy']);
    });
  });

  it('"Play again" on a game whose player the roster no longer lists (a backup\'s player deleted there) seats them again as a player', async () => {
    await onAnotherPhone(async (_phone, page) => {
      const backup = evening();
      backup.players = backup.players.filter((p) => p.id !== 'p-cy');
      await restoreBackup(page, backup);
      await page.getByRole('button', { name: /^View: 5000 \(Big Roll\) with Ann, Bob, Cy,/ }).click();
      expect(await playedAgain(page)).toEqual(['Ann', 'Bob', 'Cy']);
      expect(await playersListed(page, 'Cy')).toEqual(expect.arrayContaining(['Ann', 'Bob', 'Cy']));
    });
  });

  it('"Play again" on a game of a Bbo the roster no longer lists, Bbo a name Bob was known by, seats Bob', async () => {
    await onAnotherPhone(async (_phone, page) => {
      // a phone where Bbo was merged into Bob before its games of Bbo's came back (as a transcript, say)
      const backup = evening();
      backup.version = 3;
      backup.players = backup.players.filter((p) => p.id !== 'p-bbo').map((p) => (p.id === 'p-bob' ? { ...p, aliases: ['Bbo'] } : p));
      await restoreBackup(page, backup);
      await page.getByRole('button', { name: /^View: 5000 \(Big Roll\) with Ann, Bbo, Cy,/ }).click();
      expect(await playedAgain(page)).toEqual(['Ann', 'Bob', 'Cy']);
      expect(await playersListed(page, 'Bob')).toEqual(['Ann', 'Bob', 'Cy']);
    });
  });

  it('"Play again" on a game where Bob sat beside a Bbo the roster no longer lists, Bbo a name Bob was known by, seats Bbo and Bob as the two they were', async () => {
    await onAnotherPhone(async (_phone, page) => {
      // the first game's Cy was Bob: Bbo and Bob sat at one table, so they are two people
      const backup = evening();
      backup.version = 3;
      const first = backup.games[0]!;
      first.players = [first.players[0]!, first.players[1]!, { id: 'p-bob', name: 'Bob' }];
      first.result = { winners: ['p-bbo'], payouts: { 'p-ann': -2, 'p-bbo': 4, 'p-bob': -2 } };
      backup.ledger[0]!.deltas = { ...first.result.payouts };
      backup.players = backup.players.filter((p) => p.id !== 'p-bbo').map((p) => (p.id === 'p-bob' ? { ...p, aliases: ['Bbo'] } : p));
      await restoreBackup(page, backup);
      await page.getByRole('button', { name: /^View: 5000 \(Big Roll\) with Ann, Bbo, Bob,/ }).click();
      expect(await playedAgain(page)).toEqual(['Ann', 'Bbo', 'Bob']);
      expect(await playersListed(page, 'Bbo')).toEqual(['Ann', 'Bbo', 'Bob', 'Cy']);
    });
  });

  it('refuses to merge two who sat at one table, saying which game, and changes nothing', async () => {
    const { page } = app;
    await home();
    await page.getByRole('button', { name: 'Players' }).click();
    await row('Ann').getByTestId('merge-player').click();
    await page.getByTestId('merge-into').selectOption({ label: 'Bob' });
    await page.getByTestId('merge-ask').click();
    await page.getByTestId('merge-confirm').click();
    expect(await row('Ann').getByTestId('player-message').textContent()).toMatch(
      /^Bob and Ann played in the same game of 5000 \(Big Roll\), started .+: they are two people, so they cannot be merged\. Nothing was changed\.$/,
    );
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Same person as… Ann');
    expect(await page.getByTestId('player-name').allTextContents()).toEqual(expect.arrayContaining(['Ann', 'Bob', 'Cy']));
    await home();
    expect(await balances()).toEqual(['Bob +8', 'Ann -4', 'Cy -4']);
  });
});
