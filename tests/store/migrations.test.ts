/**
 * Schema migrations, proven from the first version on: each test opens a database exactly as an
 * older app version left it (built by that version's migrations, filled with records of that
 * version's shape), then opens it with the current store and checks every record came through.
 */
import { describe, expect, it } from 'vitest';
import { openDB, type IDBPDatabase } from 'idb';
import { DB_VERSION, openStore, StoreError, unreachableMessage } from '../../src/lib/store/index.ts';
import { migrate, MIGRATIONS, type Migration, type UpgradeDb, type UpgradeTx } from '../../src/lib/store/schema.ts';
import { freshName, seatingKnownPlayers } from './helpers.ts';

/** Opens `name` at `version`, built by the real migrations up to that version. */
async function openAtVersion(name: string, version: number): Promise<IDBPDatabase<unknown>> {
  return openDB(name, version, {
    upgrade(db, oldVersion, _newVersion, tx) {
      void migrate(db as UpgradeDb, tx as unknown as UpgradeTx, oldVersion, version);
    },
  });
}

/** Store names with their key paths and indexes, to compare two databases' shapes. */
function shape(db: IDBPDatabase<unknown>): Record<string, unknown> {
  const tx = db.transaction([...db.objectStoreNames], 'readonly');
  const out: Record<string, unknown> = {};
  for (const name of db.objectStoreNames) {
    const store = tx.objectStore(name);
    out[name] = {
      keyPath: store.keyPath,
      indexes: [...store.indexNames].map((i) => {
        const index = store.index(i);
        return { name: i, keyPath: index.keyPath, unique: index.unique };
      }),
    };
  }
  return out;
}

const v1Games = [
  {
    id: 'g-active', game: 'five-thousand', players: [{ id: 'p1', name: 'Ann' }, { id: 'p2', name: 'Ben' }],
    options: {}, ante: 1, dice: { kitId: 'standard', taughtSetId: null }, sessionId: 's1',
    createdAt: 1000, updatedAt: 2000, finishedAt: null, actionCount: 2, result: null,
  },
  {
    id: 'g-finished', game: 'war', players: [{ id: 'p1', name: 'Ann' }, { id: 'p2', name: 'Ben' }],
    options: { rounds: 3 }, ante: 0, dice: { kitId: 'standard', taughtSetId: null }, sessionId: 's1',
    createdAt: 500, updatedAt: 900, finishedAt: 900, actionCount: 1, result: { winners: ['p2'], payouts: {} },
  },
];

async function writeV1Fixture(name: string): Promise<void> {
  const db = await openAtVersion(name, 1);
  const tx = db.transaction(['games', 'actions', 'players', 'sessions', 'ledger', 'taughtSets', 'taughtFaces', 'settings'], 'readwrite');
  for (const g of v1Games) await tx.objectStore('games').put(g);
  await tx.objectStore('actions').put({ gameId: 'g-active', seq: 0, action: { type: 'roll', dice: [1, 2, 3, 4, 6] }, at: 1500 });
  await tx.objectStore('actions').put({ gameId: 'g-active', seq: 1, action: { type: 'bank' }, at: 2000 });
  await tx.objectStore('actions').put({ gameId: 'g-finished', seq: 0, action: { type: 'roll', dice: [6] }, at: 900 });
  await tx.objectStore('players').put({ id: 'p1', name: 'Ann', nameKey: 'ann', createdAt: 1, lastPlayedAt: 1000 });
  await tx.objectStore('players').put({ id: 'p2', name: 'Ben', nameKey: 'ben', createdAt: 2, lastPlayedAt: null });
  await tx.objectStore('sessions').put({ id: 's1', name: 'Friday', startedAt: 400, endedAt: null });
  await tx.objectStore('ledger').put({ id: 'l1', sessionId: 's1', gameId: 'g-finished', at: 900, deltas: { p1: -2, p2: 2 }, note: '' });
  await tx.objectStore('taughtSets').put({ id: 't1', kitId: 'face-off', name: 'Mine', createdAt: 1, updatedAt: 1 });
  await tx.objectStore('taughtFaces').put({
    id: 'f1', setId: 't1', faceId: 'vader', image: new Blob([new Uint8Array([1, 2, 3])], { type: 'image/jpeg' }),
    embedding: null, embeddingModel: null, createdAt: 1,
  });
  await tx.objectStore('settings').put({ theme: 'dark', speech: true, settleMs: 800, cameraId: 'cam-1', persistAsked: true }, 'settings');
  await tx.done;
  db.close();
}

describe('schema migrations', () => {
  it('has one migration per version, from 1 to the current version', () => {
    expect(Object.keys(MIGRATIONS).map(Number)).toEqual(Array.from({ length: DB_VERSION }, (_, i) => i + 1));
  });

  it('a fresh database and an upgraded v1 database have the same shape', async () => {
    const fresh = freshName();
    (await openStore({ name: fresh })).close();
    const upgraded = freshName();
    await writeV1Fixture(upgraded);
    (await openStore({ name: upgraded })).close();
    const a = await openDB(fresh);
    const b = await openDB(upgraded);
    expect(a.version).toBe(DB_VERSION);
    expect(b.version).toBe(DB_VERSION);
    expect(shape(b)).toEqual(shape(a));
    a.close();
    b.close();
  });

  it('upgrades v1 → current keeping every record and backfilling game status', async () => {
    const name = freshName();
    await writeV1Fixture(name);
    const store = await openStore({ name });
    expect((await store.listGames('active')).map((g) => g.id)).toEqual(['g-active']);
    expect((await store.listGames('finished')).map((g) => g.id)).toEqual(['g-finished']);
    const { game, actions } = await store.loadGame('g-active');
    expect(game).toEqual({ ...v1Games[0], status: 'active' });
    expect(actions).toEqual([{ type: 'roll', dice: [1, 2, 3, 4, 6] }, { type: 'bank' }]);
    // The upgraded log keeps working: append and undo continue from the v1 sequence numbers.
    expect((await store.appendAction('g-active', { type: 'roll', dice: [5] })).seq).toBe(2);
    expect((await store.undoLastAction('g-active')).action).toEqual({ type: 'roll', dice: [5] });
    expect(await store.sessionBalances('s1')).toEqual({ p1: -2, p2: 2 });
    expect((await store.listPlayers()).map((p) => p.name)).toEqual(['Ann', 'Ben']);
    const faces = await store.listTaughtFaces('t1');
    expect(faces).toHaveLength(1);
    expect(faces[0]!.image.type).toBe('image/jpeg');
    expect(await store.getSettings()).toEqual({ theme: 'dark', speech: true, settleMs: 800, cameraId: 'cam-1', persistAsked: true });
    // the v2 index on players exists and is filled
    const byLastPlayed = await store.db.getAllFromIndex('players', 'by-last-played');
    expect(byLastPlayed.map((p) => p.id)).toEqual(['p1']);
    // the v5 index of games by status and time is filled from the games already there
    expect((await store.gamesPage({ status: 'finished', limit: 5 })).games.map((g) => g.id)).toEqual(['g-finished']);
    expect((await store.gamesPage({ limit: 5 })).games.map((g) => g.id)).toEqual(['g-active', 'g-finished']);
    store.close();
  });

  it('v3 → v4 recomputes name keys; two players whose names now match both stay, the later one keyed apart', async () => {
    const name = freshName();
    const db = await openAtVersion(name, 3);
    const tx = db.transaction('players', 'readwrite');
    // v3 keys: trimmed, spaces collapsed, lower-cased; "José" typed two ways made two keys
    const jose = { id: 'p-jose', name: 'Jos\u00e9', nameKey: 'jos\u00e9', createdAt: 10, lastPlayedAt: 100 };
    const joseAgain = { id: 'p-jose-2', name: 'Jose\u0301', nameKey: 'jose\u0301', createdAt: 20, lastPlayedAt: 200 };
    // an old key that becomes another's new key: the swap must not trip the unique index
    const annZw = { id: 'a-ann-zw', name: 'Ann\u200b', nameKey: 'ann\u200b', createdAt: 1, lastPlayedAt: null };
    const ann = { id: 'z-ann', name: 'Ann', nameKey: 'ann', createdAt: 2, lastPlayedAt: null };
    const wide = { id: 'p-wide', name: '\uff22\uff45\uff4e', nameKey: '\uff42\uff45\uff4e', createdAt: 3, lastPlayedAt: null };
    for (const p of [joseAgain, jose, ann, annZw, wide]) await tx.store.put(p);
    await tx.done;
    db.close();

    const store = await openStore({ name });
    const byId = new Map((await store.listPlayers()).map((p) => [p.id, p]));
    expect(byId.size).toBe(5);
    // the first made keeps the key; the later one is kept, unchanged but for a key of its own
    expect(byId.get('p-jose')).toEqual({ ...jose, nameKey: 'jos\u00e9' });
    expect(byId.get('p-jose-2')).toEqual({ ...joseAgain, nameKey: 'jos\u00e9#p-jose-2' });
    expect(byId.get('a-ann-zw')).toEqual({ ...annZw, nameKey: 'ann' });
    expect(byId.get('z-ann')).toEqual({ ...ann, nameKey: 'ann#z-ann' });
    expect(byId.get('p-wide')?.nameKey).toBe('ben');
    // by name, José is the first José, however typed; a new "José" is refused
    expect(await store.db.getKeyFromIndex('players', 'by-name', 'jos\u00e9')).toBe('p-jose');
    await expect(store.addPlayer('Jose\u0301')).rejects.toMatchObject({ code: 'name-taken' });
    await expect(store.addPlayer('BEN')).rejects.toMatchObject({ code: 'name-taken' });
    // the later one can still be renamed apart
    expect((await store.renamePlayer('p-jose-2', 'José B')).nameKey).toBe('jos\u00e9 b');
    store.close();
  });

  it("v5 → v6 recomputes name keys: İlker (once keyed 'i\u0307lker') is found by 'ilker', Işıl by 'ışıl'", async () => {
    const name = freshName();
    const db = await openAtVersion(name, 5);
    const tx = db.transaction('players', 'readwrite');
    // v5 keys: String.prototype.toLowerCase, which makes İ "i" + a combining dot and leaves ı as it is
    await tx.store.put({ id: 'p-ilker', name: 'İlker', nameKey: 'i\u0307lker', createdAt: 1, lastPlayedAt: null });
    await tx.store.put({ id: 'p-isil', name: 'Işıl', nameKey: 'işıl', createdAt: 2, lastPlayedAt: null });
    await tx.store.put({ id: 'p-isil-2', name: 'ışıl', nameKey: 'ışıl', createdAt: 3, lastPlayedAt: null });
    await tx.done;
    db.close();

    const store = await openStore({ name });
    expect(await store.db.getKeyFromIndex('players', 'by-name', 'ilker')).toBe('p-ilker');
    expect(await store.db.getKeyFromIndex('players', 'by-name', 'işil')).toBe('p-isil');
    // the two records of Işıl both stay (the later keyed apart), for Same person as… to join
    expect((await store.listPlayers()).map((p) => p.id).sort()).toEqual(['p-ilker', 'p-isil', 'p-isil-2']);
    await expect(store.addPlayer('ilker')).rejects.toMatchObject({ code: 'name-taken' });
    store.close();
  });

  it('a migration that fails leaves the database exactly as it was', async () => {
    const name = freshName();
    await writeV1Fixture(name);
    const migrations = MIGRATIONS as Record<number, Migration>;
    const real = migrations[2]!;
    migrations[2] = async (db, tx) => {
      await real(db, tx); // does all its work…
      throw new Error('disk full'); // …then fails
    };
    try {
      const err = await openStore({ name }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(StoreError);
      expect((err as StoreError).message).toMatch(/disk full/);
    } finally {
      migrations[2] = real;
    }
    const raw = await openDB(name);
    expect(raw.version).toBe(1);
    expect([...raw.transaction('games').store.indexNames]).not.toContain('by-status');
    expect(await raw.get('games', 'g-active')).toEqual(v1Games[0]);
    raw.close();
    const store = await openStore({ name });
    expect((await store.getGame('g-active'))?.status).toBe('active');
    store.close();
  });

  it('opening an already current database changes nothing', async () => {
    const name = freshName();
    const first = seatingKnownPlayers(await openStore({ name }));
    const g = await first.createGame({ game: 'tug', players: [{ id: 'a', name: 'A' }], dice: { kitId: 'standard', taughtSetId: null } });
    first.close();
    const second = await openStore({ name });
    expect(await second.getGame(g.id)).toEqual(g);
    second.close();
  });

  it('refuses a database from a newer app version with a clear error', async () => {
    const name = freshName();
    const newer = await openDB(name, DB_VERSION + 1, { upgrade: (db) => void db.createObjectStore('future') });
    newer.close();
    const err = await openStore({ name }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('unavailable');
  });

  it('tells an old tab to step aside when a newer version opens', async () => {
    const name = freshName();
    let told = 0;
    const old = await openStore({ name, onVersionChange: () => told++ });
    const newer = await openDB(name, DB_VERSION + 1);
    expect(told).toBe(1);
    newer.close();
    old.close();
  });

  it('refuses a write after stepping aside in words a player can act on, not the browser\'s, and writes nothing', async () => {
    const name = freshName();
    const old = seatingKnownPlayers(await openStore({ name, onVersionChange: () => undefined }));
    const game = await old.createGame({ game: 'five-thousand', players: [{ id: 'p-ann', name: 'Ann' }], ante: 0, dice: { kitId: 'standard', taughtSetId: null } });
    const newer = await openDB(name, DB_VERSION + 1);
    const err = await old.createGame({ game: 'five-thousand', players: [{ id: 'p-bob', name: 'Bob' }], ante: 0, dice: { kitId: 'standard', taughtSetId: null } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('unavailable');
    // it was "InvalidStateError: Failed to execute 'transaction' on 'IDBDatabase': The database connection is closing."
    expect((err as StoreError).message).toBe(
      'Not saved: this page can no longer reach the saved games (a newer Rollcall opened in another tab, or the browser closed them). Reload the page to play on; everything saved before is safe.',
    );
    expect((await newer.getAll('games')).map((g: { id: string }) => g.id)).toEqual([game.id]);
    newer.close();
    old.close();
  });

  it('says a delete refused after stepping aside deleted nothing (not "Not saved"), and deletes nothing', async () => {
    const name = freshName();
    const old = await openStore({ name, onVersionChange: () => undefined });
    const set = await old.createTaughtSet('face-off', 'Our dice');
    const newer = await openDB(name, DB_VERSION + 1);
    const err = await old.deleteTaughtSet(set.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('unavailable');
    expect((err as StoreError).message).toBe(
      'Nothing was deleted: this page can no longer reach the saved games (a newer Rollcall opened in another tab, or the browser closed them). Reload the page and try again; everything saved is safe.',
    );
    expect((err as StoreError).message).toBe(unreachableMessage('delete'));
    expect((await newer.getAll('taughtSets')).map((s: { id: string }) => s.id)).toEqual([set.id]);
    newer.close();
    old.close();
  });
});
