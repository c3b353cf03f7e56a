import 'fake-indexeddb/auto';
import { afterEach, expect } from 'vitest';
import { openStore, StoreError, type NewGame, type OpenStoreOptions, type RollcallStore } from '../../src/lib/store/index.ts';
import { nameKey } from '../../src/lib/rules/index.ts';

let dbCounter = 0;

/** A fresh database name per call, so tests never see each other's data. */
export function freshName(): string {
  dbCounter += 1;
  return `rollcall-test-${process.pid}-${String(dbCounter).padStart(3, "0")}`;
}

/** A store on a fresh database with a clock that ticks 1 ms per read and predictable ids (unique across stores). */
export async function freshStore(options: OpenStoreOptions = {}): Promise<RollcallStore> {
  let t = 1_700_000_000_000;
  let id = 0;
  const name = freshName();
  return seatingKnownPlayers(
    await openStore({
      name,
      now: () => ++t,
      newId: () => `${name.slice(-3)}-${++id}`,
      ...options,
    }),
  );
}

/**
 * `createGame` refuses a seat whose player is not on the device. Tests seat fixed ids
 * (ALICE, BOB, CARA, `{ id: 'p-x', name: 'Xi' }`) they never added: here each such player is
 * written first, under its own id, the way New game adds a new name before it starts a game.
 * A seated id that is known is left as it is, and one whose name another player has keeps the
 * refusal (the store's check stays as strict; this only stands in for New game's adding).
 */
export function seatingKnownPlayers(store: RollcallStore): RollcallStore {
  if (seating.has(store)) return store;
  seating.add(store);
  const createGame = store.createGame.bind(store);
  store.createGame = async (input: NewGame) => {
    try {
      const tx = store.db.transaction('players', 'readwrite');
      for (const p of input.players) {
        if (typeof p.id !== 'string' || (await tx.store.get(p.id))) continue;
        const key = nameKey(p.name);
        if (key === '' || (await tx.store.index('by-name').getKey(key))) continue;
        await tx.store.add({ id: p.id, name: p.name.trim(), nameKey: key, createdAt: 0, lastPlayedAt: null });
      }
      await tx.done;
    } catch {
      // a connection closed under the store (a newer version opened): createGame says so in its own words
    }
    return createGame(input);
  };
  return store;
}

const seating = new WeakSet<RollcallStore>();

export const ALICE = { id: 'p-alice', name: 'Alice' };
export const BOB = { id: 'p-bob', name: 'Bob' };
export const CARA = { id: 'p-cara', name: 'Cara' };

/**
 * A test file's store maker: each call opens a fresh store (`freshStore`), and every store opened
 * in a test is closed after it. Called once, at the file's top level (it registers `afterEach`).
 */
export function storesClosedAfterEach(): (options?: OpenStoreOptions) => Promise<RollcallStore> {
  let open: RollcallStore[] = [];
  afterEach(() => {
    for (const s of open) s.close();
    open = [];
  });
  return async (options = {}) => {
    const s = await freshStore(options);
    open.push(s);
    return s;
  };
}

/** The StoreError `p` is refused with, checked to be one (and of `code`, when given). */
export async function expectStoreError(p: Promise<unknown>, code?: StoreError['code']): Promise<StoreError> {
  const err = await p.then(
    () => {
      throw new Error(`expected a StoreError${code ? ` ${code}` : ''}`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StoreError);
  if (code) expect((err as StoreError).code).toBe(code);
  return err as StoreError;
}
