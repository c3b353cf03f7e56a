/**
 * The IndexedDB schema and its migrations. Migrations are append-only: `MIGRATIONS[v]` takes a
 * database at version v - 1 to version v, and is never edited once shipped, so that any older
 * database a phone still holds upgrades step by step to the current one.
 */
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import { nameKey } from '../dice/names.ts';
import type {
  ActionRecord,
  GameRecord,
  LedgerEntry,
  PlayerRecord,
  SessionRecord,
  Settings,
  TaughtFaceRecord,
  TaughtSetRecord,
} from './types.ts';

export const DB_NAME = 'rollcall';
export const DB_VERSION = 6;

export interface RollcallSchema extends DBSchema {
  games: {
    key: string;
    value: GameRecord;
    indexes: { 'by-updated': number; 'by-status': string; 'by-session': string; 'by-status-updated': [string, number] };
  };
  actions: {
    key: [string, number];
    value: ActionRecord;
  };
  players: {
    key: string;
    value: PlayerRecord;
    indexes: { 'by-name': string; 'by-last-played': number };
  };
  sessions: {
    key: string;
    value: SessionRecord;
    indexes: { 'by-started': number };
  };
  ledger: {
    key: string;
    value: LedgerEntry;
    indexes: { 'by-session': string; 'by-game': string };
  };
  taughtSets: {
    key: string;
    value: TaughtSetRecord;
    indexes: { 'by-kit': string };
  };
  taughtFaces: {
    key: string;
    value: TaughtFaceRecord;
    indexes: { 'by-set': string };
  };
  settings: {
    key: string;
    value: Settings;
  };
}

export type StoreName = StoreNames<RollcallSchema>;
export const ALL_STORES: readonly StoreName[] = [
  'games',
  'actions',
  'players',
  'sessions',
  'ledger',
  'taughtSets',
  'taughtFaces',
  'settings',
];

/**
 * Migrations work on the untyped database: a migration describes the schema of its own time,
 * which is not the current `RollcallSchema`.
 */
export type UpgradeDb = IDBPDatabase<unknown>;
export type UpgradeTx = IDBPTransaction<unknown, string[], 'versionchange'>;
export type Migration = (db: UpgradeDb, tx: UpgradeTx) => Promise<void>;

/** v1 game records had no `status`: a game was finished when `finishedAt` was set. */
interface GameRecordV1 extends Omit<GameRecord, 'status'> {
  status?: undefined;
}

export const MIGRATIONS: Readonly<Record<number, Migration>> = {
  /** v1: the first schema. */
  1: async (db) => {
    const games = db.createObjectStore('games', { keyPath: 'id' });
    games.createIndex('by-updated', 'updatedAt');
    games.createIndex('by-session', 'sessionId');
    db.createObjectStore('actions', { keyPath: ['gameId', 'seq'] });
    const players = db.createObjectStore('players', { keyPath: 'id' });
    players.createIndex('by-name', 'nameKey', { unique: true });
    const sessions = db.createObjectStore('sessions', { keyPath: 'id' });
    sessions.createIndex('by-started', 'startedAt');
    const ledger = db.createObjectStore('ledger', { keyPath: 'id' });
    ledger.createIndex('by-session', 'sessionId');
    ledger.createIndex('by-game', 'gameId');
    const sets = db.createObjectStore('taughtSets', { keyPath: 'id' });
    sets.createIndex('by-kit', 'kitId');
    const faces = db.createObjectStore('taughtFaces', { keyPath: 'id' });
    faces.createIndex('by-set', 'setId');
    db.createObjectStore('settings');
  },

  /**
   * v2: games get an explicit `status` ('active' | 'finished' | 'abandoned'), so a game can be
   * abandoned without being finished, and Home lists games by status through an index; players
   * get an index on when they last played, for the new-game screen's quick picks.
   */
  2: async (_db, tx) => {
    const games = tx.objectStore('games');
    games.createIndex('by-status', 'status');
    let cursor = await games.openCursor();
    while (cursor) {
      const old = cursor.value as GameRecordV1;
      const status = old.finishedAt === null ? 'active' : 'finished';
      await cursor.update({ ...old, status } satisfies GameRecord);
      cursor = await cursor.continue();
    }
    tx.objectStore('players').createIndex('by-last-played', 'lastPlayedAt');
  },

  /**
   * v3: taught sets may carry a kit of the player's own (`kit`, `art`; null and {} for a built-in
   * kit's dice), and taught faces where the die lies in their picture (`box`; null for pictures
   * kept before, which are found again by the detector).
   */
  3: async (_db, tx) => {
    let sets = await tx.objectStore('taughtSets').openCursor();
    while (sets) {
      await sets.update({ ...(sets.value as object), kit: null, art: {} });
      sets = await sets.continue();
    }
    let faces = await tx.objectStore('taughtFaces').openCursor();
    while (faces) {
      await faces.update({ ...(faces.value as object), box: null });
      faces = await faces.continue();
    }
  },

  /**
   * v4: players' `nameKey` recomputed by the key that sees names as a player does (Unicode
   * forms, invisible characters; the current `nameKey`, which the app looks players up by).
   * Two whose names now share a key both stay (`rekeyPlayers`).
   */
  4: (_db, tx) => rekeyPlayers(tx),

  /**
   * v5: games indexed by status and then when last played, so that a page of one status's games,
   * the latest first (History's filters, Home's recently finished), is read as a range of the
   * index, not found by reading every game: a player of two years has a thousand.
   */
  5: async (_db, tx) => {
    tx.objectStore('games').createIndex('by-status-updated', ['status', 'updatedAt']);
  },

  /**
   * v6: players' `nameKey` recomputed again, as v4 did, now that the key joins Turkish İ, I, ı and
   * i: "İlker" was kept under "i" + a combining dot, which "ilker" typed never found.
   */
  6: (_db, tx) => rekeyPlayers(tx),
};

/**
 * Every player's `nameKey` set to the current `nameKey` of their name. Two players whose names
 * now share a key both stay, with their games: merging them would silently give one person's
 * games to another. The first made keeps the key (New game and backups find them by name); the
 * later one gets `key#id`, unique while the index is, until they are renamed or deleted.
 */
async function rekeyPlayers(tx: UpgradeTx): Promise<void> {
  const players = tx.objectStore('players');
  // Keys are swapped among records (an old key may be a new one's): no uniqueness until all are written.
  players.deleteIndex('by-name');
  const all = (await players.getAll()) as PlayerRecord[];
  all.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const used = new Set<string>();
  for (const player of all) {
    const key = nameKey(player.name);
    const unique = used.has(key) ? `${key}#${player.id}` : key;
    used.add(unique);
    await players.put({ ...player, nameKey: unique } satisfies PlayerRecord);
  }
  players.createIndex('by-name', 'nameKey', { unique: true });
}

/** Runs the migrations from `oldVersion` (exclusive) to `newVersion` (inclusive), in order. */
export async function migrate(db: UpgradeDb, tx: UpgradeTx, oldVersion: number, newVersion: number): Promise<void> {
  for (let v = oldVersion + 1; v <= newVersion; v++) {
    const step = MIGRATIONS[v];
    if (!step) throw new Error(`Rollcall store: no migration to schema version ${v}`);
    await step(db, tx);
  }
}
