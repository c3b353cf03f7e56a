import 'fake-indexeddb/auto';
import { openStore, type OpenStoreOptions, type RollcallStore } from '../../src/lib/store/index.ts';

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
  return openStore({
    name,
    now: () => ++t,
    newId: () => `${name.slice(-3)}-${++id}`,
    ...options,
  });
}

export const ALICE = { id: 'p-alice', name: 'Alice' };
export const BOB = { id: 'p-bob', name: 'Bob' };
export const CARA = { id: 'p-cara', name: 'Cara' };
