/**
 * A browser that refuses IndexedDB: the store opens on one kept in memory, says why in
 * `unsaved`, and keeps a game for as long as the page lives. The page's IndexedDB (here
 * fake-indexeddb/auto's, from helpers.ts) is taken away or made to refuse, and put back after.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type RollcallStore } from '../../src/lib/store/index.ts';
import { ALICE, BOB, CARA, freshName, freshStore, seatingKnownPlayers } from './helpers.ts';

const GLOBALS = ['indexedDB', 'IDBCursor', 'IDBCursorWithValue', 'IDBDatabase', 'IDBFactory', 'IDBIndex', 'IDBKeyRange', 'IDBObjectStore', 'IDBOpenDBRequest', 'IDBRequest', 'IDBTransaction', 'IDBVersionChangeEvent'] as const;
let saved: Map<string, PropertyDescriptor | undefined>;
let opened: RollcallStore[] = [];

beforeEach(() => {
  saved = new Map(GLOBALS.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]));
});

afterEach(() => {
  for (const store of opened) store.close();
  opened = [];
  for (const [name, descriptor] of saved) {
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    else Reflect.deleteProperty(globalThis, name);
  }
});

/** The page's `indexedDB` replaced by `value`, as a browser that refuses it has it. */
function pageIndexedDB(value: unknown): void {
  Object.defineProperty(globalThis, 'indexedDB', { value, writable: true, configurable: true });
}

async function opens(name = freshName()): Promise<RollcallStore> {
  let id = 0;
  const store = seatingKnownPlayers(await openStore({ name, newId: () => `m-${++id}` }));
  opened.push(store);
  return store;
}

/** A game of 5000 for three with an ante, one action appended: the slate and pot work. */
async function playsAGame(store: RollcallStore): Promise<void> {
  const game = await store.createGame({ game: 'five-thousand', players: [ALICE, BOB, CARA], ante: 2, dice: { kitId: 'standard', taughtSetId: null } });
  await store.appendAction(game.id, { type: 'roll', dice: [1, 1, 4, 5, 6] }, { expectedCount: 0 });
  const { game: after, actions } = await store.loadGame(game.id);
  expect(after).toMatchObject({ ante: 2, actionCount: 1 });
  expect(actions).toEqual([{ type: 'roll', dice: [1, 1, 4, 5, 6] }]);
}

describe('a browser that refuses IndexedDB', () => {
  it('without IndexedDB at all (a webview): the store runs in memory and says why', async () => {
    pageIndexedDB(undefined);
    const store = await opens();
    expect(store.unsaved).toBe('This browser has no IndexedDB, where web pages save data.');
    await playsAGame(store);
  });

  it('whose open throws (site data blocked: SecurityError): the browser says why', async () => {
    pageIndexedDB({
      open: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
    const store = await opens();
    expect(store.unsaved).toBe('The operation is insecure.');
    await playsAGame(store);
  });

  it("whose open fails with an error event (Chromium's blocked site data, an old Firefox private window)", async () => {
    const real = indexedDB;
    // a real request that fails: its upgrade aborted before the store's runs, its error the browser's
    pageIndexedDB({
      open(name: string, version?: number) {
        const request = real.open(name, version);
        Object.defineProperty(request, 'error', {
          get: () => new DOMException('The user denied permission to access the database.', 'UnknownError'),
          set: () => undefined,
        });
        request.addEventListener('upgradeneeded', (event) => {
          event.stopImmediatePropagation();
          request.transaction?.abort();
        });
        return request;
      },
    });
    const store = await opens();
    expect(store.unsaved).toBe('The user denied permission to access the database.');
    await playsAGame(store);
  });

  it('keeps nothing of it: the memory is its own, empty at first, and the page keeps the real one', async () => {
    const name = freshName();
    const onDevice = await opens(name);
    expect(onDevice.unsaved).toBeNull();
    const kept = await onDevice.createGame({ game: 'tug', players: [ALICE], dice: { kitId: 'standard', taughtSetId: null } });
    pageIndexedDB(undefined);
    const inMemory = await opens(name);
    expect(await inMemory.listGames('active')).toEqual([]);
    await playsAGame(inMemory);
    expect(await onDevice.listGames('active')).toEqual([kept]);
  });

  it("whose open fails once on a database it lists (Chromium's transient UnknownError): tried again, the games are there", async () => {
    const name = freshName();
    const onDevice = await opens(name);
    const kept = await onDevice.createGame({ game: 'tug', players: [ALICE], dice: { kitId: 'standard', taughtSetId: null } });
    onDevice.close();
    const real = indexedDB;
    let failures = 1;
    pageIndexedDB({
      databases: () => real.databases(),
      open(dbName: string, version?: number) {
        if (failures-- > 0) throw new DOMException('Internal error opening backing store for indexedDB.open.', 'UnknownError');
        return real.open(dbName, version);
      },
    });
    const store = await opens(name);
    expect(store.unsaved).toBeNull();
    expect(await store.listGames('active')).toEqual([kept]);
  });

  it('whose open keeps failing on a database it lists: says so, and opens no empty memory store over the games', async () => {
    const name = freshName();
    (await opens(name)).close();
    const real = indexedDB;
    pageIndexedDB({
      databases: () => real.databases(),
      open: () => {
        throw new DOMException('Internal error opening backing store for indexedDB.open.', 'UnknownError');
      },
    });
    await expect(opens(name)).rejects.toThrow('Rollcall could not open its saved games (Internal error opening backing store for indexedDB.open.). They are still on this device.');
    // the in-memory IndexedDB was not put in the page's place
    expect(Object.getOwnPropertyDescriptor(globalThis, 'IDBKeyRange')).toEqual(saved.get('IDBKeyRange'));
  });

  it('a browser that stores data opens no memory store', async () => {
    const store = await freshStore();
    opened.push(store);
    expect(store.unsaved).toBeNull();
    expect(Object.getOwnPropertyDescriptor(globalThis, 'indexedDB')).toEqual(saved.get('indexedDB'));
  });
});
