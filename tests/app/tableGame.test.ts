/** The table's game (src/app/table.svelte.ts) against a store changed from another tab. */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { data } from '../../src/app/db.svelte.ts';
import { TableGame } from '../../src/app/table.svelte.ts';
import type { GameRecord } from '../../src/lib/store/index.ts';

/** A game of 5000 in the app's store, the first player listed starting (no roll-off). */
async function fiveThousandFor(...names: string[]): Promise<GameRecord> {
  const store = await data.store();
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
    const game = await fiveThousandFor('Ann', 'Bob');
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
});
