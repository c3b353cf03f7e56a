/** The table's game (src/app/table.svelte.ts) against a store changed from another tab. */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { data } from '../../src/app/db.svelte.ts';
import { TableGame } from '../../src/app/table.svelte.ts';

describe('TableGame', () => {
  it('says Undo took nothing back when another tab changed the log first', async () => {
    const store = await data.store();
    const game = await store.createGame({
      game: 'five-thousand',
      players: [{ id: 'p-ann', name: 'Ann' }, { id: 'p-bob', name: 'Bob' }],
      options: { startingPlayer: 'first-listed' },
      dice: { kitId: 'standard', taughtSetId: null },
    });
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
    const game = await store.createGame({
      game: 'five-thousand',
      players: [{ id: 'p-cy', name: 'Cy' }, { id: 'p-di', name: 'Di' }],
      options: { startingPlayer: 'first-listed' },
      dice: { kitId: 'standard', taughtSetId: null },
    });
    const table = new TableGame(game.id);
    await table.load();
    await store.appendAction(game.id, { type: 'roll', dice: [2, 3, 4, 6, 6] });
    expect(await table.act({ type: 'roll', dice: [1, 1, 1, 5, 5] })).toBe(false);
    expect(table.problem).toBe('This game changed in another tab; the table now shows the latest state. Nothing was added here.');
  });
});
