/** The table's game (src/app/table.svelte.ts) against a store changed from another tab. */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { data } from '../../src/app/db.svelte.ts';
import { TableGame, deletedCarried, deletedFrom, settledUp } from '../../src/app/table.svelte.ts';
import type { GameRecord, SessionRecord } from '../../src/lib/store/index.ts';
import { seatingKnownPlayers } from '../store/helpers.ts';

/** A game of 5000 in the app's store, the first player listed starting (no roll-off). */
async function fiveThousandFor(...names: string[]): Promise<GameRecord> {
  const store = seatingKnownPlayers(await data.store());
  return store.createGame({
    game: 'five-thousand',
    players: names.map((name) => ({ id: `p-${name.toLowerCase()}`, name })),
    options: { startingPlayer: 'first-listed' },
    dice: { kitId: 'standard', taughtSetId: null },
  });
}

describe('TableGame', () => {
  it('says Undo took nothing back when another tab changed the log first', async () => {
    const store = await data.store();
    const game = await fiveThousandFor('Ann', 'Ben');
    await store.appendAction(game.id, { type: 'roll', dice: [1, 1, 1, 5, 5] });
    const table = new TableGame(game.id);
    await table.load();
    // the other tab undoes the roll and enters it as thrown
    await store.undoLastAction(game.id);
    await store.appendAction(game.id, { type: 'roll', dice: [2, 3, 4, 6, 6] });
    expect(await table.undo()).toBe(false);
    expect(table.problem).toBe('This game changed in another tab; the table now shows the latest state. Nothing was undone here.');
    expect((await store.loadGame(game.id)).actions).toEqual([{ type: 'roll', dice: [2, 3, 4, 6, 6] }]);
  });

  it('says nothing was added when an action meets a log another tab changed', async () => {
    const store = await data.store();
    const game = await fiveThousandFor('Cy', 'Di');
    const table = new TableGame(game.id);
    await table.load();
    await store.appendAction(game.id, { type: 'roll', dice: [2, 3, 4, 6, 6] });
    expect(await table.act({ type: 'roll', dice: [1, 1, 1, 5, 5] })).toBe(false);
    expect(table.problem).toBe('This game changed in another tab; the table now shows the latest state. Nothing was added here.');
  });

  it('a table open in another tab across a merge of its players reloads, then plays on and ends under the kept player', async () => {
    const store = seatingKnownPlayers(await data.store());
    const session = await store.startSession('Friday');
    const bbo = await store.addPlayer('Bbo');
    const bob = await store.addPlayer('Bob');
    // Big Roll 5000 with an ante of 2: Ann banks 2000, Bbo throws 1 1 1 5 5 and must throw all five again
    const game = await store.createGame({
      game: 'big-roll-5000',
      players: [{ id: 'p-ann', name: 'Ann' }, { id: bbo.id, name: 'Bbo' }],
      options: { startingPlayer: 'first-listed', ante: 2 },
      ante: 2,
      dice: { kitId: 'standard', taughtSetId: null },
      sessionId: session.id,
    });
    for (const action of [{ type: 'roll', dice: [1, 1, 1, 1, 3] }, { type: 'bank' }, { type: 'roll', dice: [1, 1, 1, 5, 5] }]) await store.appendAction(game.id, action);
    const table = new TableGame(game.id);
    await table.load();
    await store.mergePlayers(bbo.id, bob.id);
    // the table still holds Bbo's id: its write is refused, and it shows the game as stored now
    expect(await table.act({ type: 'roll', dice: [1, 1, 1, 1, 1] })).toBe(false);
    expect(table.problem).toBe('This game changed in another tab; the table now shows the latest state. Nothing was added here.');
    expect(table.record?.players).toEqual([{ id: 'p-ann', name: 'Ann' }, { id: bob.id, name: 'Bbo' }]);
    // five ones: the game, its pot and the evening's balance are the kept player's
    expect(await table.act({ type: 'roll', dice: [1, 1, 1, 1, 1] })).toBe(true);
    expect(table.record).toMatchObject({ status: 'finished', result: { winners: [bob.id] } });
    expect(await store.sessionBalances(session.id)).toEqual({ 'p-ann': -2, [bob.id]: 2 });
  });
});

describe('settledUp', () => {
  it('is true of a finished game only once its evening is settled up', async () => {
    const store = seatingKnownPlayers(await data.store());
    const evening = await store.startSession('Settled evening');
    const game = await store.createGame({
      game: 'five-thousand',
      players: [{ id: 'p-sue', name: 'Sue' }, { id: 'p-tom', name: 'Tom' }],
      options: { startingPlayer: 'first-listed' },
      dice: { kitId: 'standard', taughtSetId: null },
      sessionId: evening.id,
    });
    expect(await settledUp(game)).toBe(false); // in play
    const finished = await store.finishGame(game.id, { winners: ['p-sue'], payouts: {} });
    expect(await settledUp(finished)).toBe(false); // the evening goes on
    await store.endSession(evening.id);
    expect(await settledUp(finished)).toBe(true);
    expect(await settledUp({ ...finished, sessionId: null })).toBe(false); // played in no evening
  });
});

describe('deletedFrom', () => {
  const evening = (more: Partial<SessionRecord>): SessionRecord => ({ id: 's', name: 'Dec 12, 2026', startedAt: 0, endedAt: null, ...more });

  it('says where the money of a game of an evening carried on comes off, or that it stays where it was settled up', () => {
    const tonight = { evening: evening({}), changes: true };
    const unsettled = { evening: evening({ endedAt: 1, endedBy: 'break' }), changes: true };
    const settled = { evening: evening({ endedAt: 1, endedBy: 'settled' }), changes: false };
    expect(deletedFrom('carried', tonight)).toBe('from its evening’s totals too, and its money comes off the balances carried on into tonight’s');
    expect(deletedFrom('carried', unsettled)).toBe(
      'from its evening’s totals too, and its money comes off the balances carried on into Dec 12, 2026’s, never settled up (Home says what is still owed)',
    );
    expect(deletedFrom('carried', settled)).toBe('from its evening’s totals too; what was carried on into Dec 12, 2026’s stays as it was: that evening was settled up');
    // carried before Rollcall kept where: nothing more can be said
    expect(deletedFrom('carried', null)).toBe('from its evening’s totals too; what was carried on into a later evening stays as it was');
    expect(deletedCarried(tonight)).toBe('Its money came off the balances carried on into tonight’s.');
    expect(deletedCarried(settled)).toBeNull();
    expect(deletedCarried(null)).toBeNull();
  });
});
