/**
 * Rollcall's storage: IndexedDB through `idb`. Every method that writes does so in ONE
 * transaction and resolves only after that transaction has committed, so a caller that awaits it
 * may show the result knowing it survives a closed tab or a dead battery (not where the browser
 * refused storage: then the store runs in memory, and `unsaved` says so). A refused operation
 * throws a `StoreError` and writes nothing.
 */
import { openDB, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { StoreError, storageFullMessage, unreachableMessage, type StoreWrite } from './errors.ts';
import { jsonProblem } from './json.ts';
import { DB_NAME, DB_VERSION, migrate, type RollcallSchema, type StoreName, type UpgradeDb, type UpgradeTx } from './schema.ts';
import {
  DEFAULT_SETTINGS,
  type ActionLike,
  type ActionRecord,
  type Evening,
  type GameDice,
  type GamePlayer,
  type GameRecord,
  type GameResult,
  type GameStatus,
  type GameWithLog,
  type JsonObject,
  type LedgerEntry,
  type PlayerRecord,
  type SessionEnding,
  type SessionRecord,
  type Settings,
  type ImageBox,
  type TaughtFaceRecord,
  type TaughtSetRecord,
} from './types.ts';
import type { DiceKit } from '../dice/kit.ts';
import { MAX_NAME_LENGTH, clipName, nameKey, nameLengthProblem } from '../dice/names.ts';
import { BUILT_IN_KITS } from '../dice/index.ts';
import { KitError, parseKit } from '../dice/validate.ts';
import { imageDataUrl } from '../dice/data-url.ts';
import { aliasesOf, playerNamed, withAliases, type NamedPlayer } from './players.ts';

export type RollcallDb = IDBPDatabase<RollcallSchema>;
type Tx<S extends StoreName[], M extends IDBTransactionMode> = IDBPTransaction<RollcallSchema, S, M>;

export interface OpenStoreOptions {
  /** Database name; tests use their own. */
  name?: string;
  /** Clock (ms since epoch); tests pin it. */
  now?: () => number;
  /** Id maker; defaults to `newRecordId` (crypto.randomUUID where the browser has it). */
  newId?: () => string;
  /**
   * Called when a newer version of the app opens the database in another tab. This connection
   * has then been closed, and the page should reload to run the new version.
   */
  onVersionChange?: () => void;
}

export interface NewGame {
  game: string;
  players: GamePlayer[];
  options?: JsonObject;
  ante?: number;
  dice: GameDice;
  sessionId?: string | null;
}

/**
 * A whole game brought in from a transcript: players by name (known players are reused, others
 * added), the log, and its result when the log ends the game.
 */
export interface ImportedGame {
  game: string;
  /** Names in seating order. */
  playerNames: string[];
  options?: JsonObject;
  ante?: number;
  dice: GameDice;
  sessionId?: string | null;
  /**
   * A game still in play joins the evening open on this device (else a new one of this name), as
   * a new game does (`sessionForNewGame`): it is to be played on here, and its end pays into
   * tonight's balances. Ignored for a finished game, which keeps `sessionId`.
   */
  joinEvening?: string;
  actions: ActionLike[];
  /** When each action was written (ms since epoch, one per action), as the game's own device kept them; else now. */
  times?: number[];
  /** Winners' seats and each seat's gain or loss, when the log ends the game; null otherwise. */
  result: { winners: number[]; payouts: number[] } | null;
}

/** A known player and how many games they sat in (`playerSummaries`). */
export interface PlayerSummary {
  player: PlayerRecord;
  games: number;
}

/** What a merge did (`mergePlayers`): the player kept, as now stored, and how many games and ledger lines became theirs. */
export interface PlayerMerge {
  player: PlayerRecord;
  games: number;
  ledgerLines: number;
}

/**
 * Optimistic check: the log as the caller shows it, by its length and revision. Stops a double
 * tap or a second tab from writing twice, or onto a log that changed under it.
 */
export interface LogExpectation {
  expectedCount?: number;
  expectedRevision?: number;
}

/**
 * A game's header once its log gained (+1) or lost (-1) its last action: the count follows and
 * the revision moves on. The store writes it so, and a screen that made the change knows it so.
 */
export function withLogChange(game: GameRecord, change: 1 | -1): GameRecord {
  return { ...game, actionCount: game.actionCount + change, logRevision: (game.logRevision ?? 0) + 1 };
}

/**
 * A match's result by seat (the rules' `matchResult`) as a game record keeps it: winners and each
 * player's gain or loss by player id; a game without an ante keeps no payouts. The one way a
 * result is written (the table, an imported transcript) and checked (a backup).
 */
export function resultOfGame(players: readonly GamePlayer[], ante: number, result: { winners: readonly number[]; payouts: readonly number[] }): GameResult {
  return {
    winners: result.winners.map((seat) => players[seat]!.id),
    payouts: ante > 0 ? Object.fromEntries(result.payouts.map((amount, seat) => [players[seat]!.id, amount])) : {},
  };
}

/** Each player's balance over these ledger lines (a session's). */
function balancesOf(lines: readonly Pick<LedgerEntry, 'deltas'>[]): Record<string, number> {
  // a Map, not `obj[id] = …`: an id is data, and must never reach an object's prototype
  const balances = new Map<string, number>();
  for (const line of lines) {
    for (const [player, amount] of Object.entries(line.deltas)) balances.set(player, (balances.get(player) ?? 0) + amount);
  }
  return Object.fromEntries(balances);
}

/** Balances with every amount of 0 left out: what is still owed, as a carried line writes it (`carryEvening`). */
function owedOf(balances: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(balances).filter(([, amount]) => amount !== 0));
}

/** Whether two sets of balances owe the same (amounts of 0 count as none). */
function sameOwed(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): boolean {
  const x = owedOf(a);
  const y = owedOf(b);
  return Object.keys(x).length === Object.keys(y).length && Object.entries(x).every(([player, amount]) => y[player] === amount);
}

/** The note of the line an evening named `name` was carried on with (`carryEvening`). */
export function carriedNote(name: string): string {
  return `Carried on from ${name}`;
}

/**
 * Whether an ended evening's balances changed hands at the table: ended on Home (End the evening)
 * or said Settled up later (`settled`), or ended before `endedBy` was kept (nothing is said of it:
 * taken as paid, the safe side, where a change would rewrite what may have been paid). Not an
 * evening ended by the break (still owed) nor one carried on (owed where it went).
 */
function settledUp(session: SessionRecord): boolean {
  return session.endedAt !== null && session.endedBy !== 'break' && session.endedBy !== 'carried';
}

/** Where a delete's money comes off: `evening`, the last a game's evening was carried on into, and whether its balances change. */
export interface CarriedChange {
  evening: SessionRecord;
  changes: boolean;
}

/** One carried line a delete changes: `before` put as `after` (dropped when null), or added where none was (`before` null). */
interface CarriedLineChange {
  before: LedgerEntry | null;
  after: LedgerEntry | null;
}

/**
 * What deleting the game `gameId` takes off the evenings its evening `from` was carried on into
 * (`carryEvening`), read through `sessionOf` and `linesOf` (an evening's ledger) in the caller's
 * transaction, its lines still there, written by none: null where its evening was not carried on,
 * or the game paid nothing. The line carried on from its evening ("Carried on from …", no game) is
 * to owe that evening's balances after the delete, as `carryEvening` would have written them, and
 * so on along the chain, evening by evening: the later evening's balances change with that line,
 * and so must the line carried on from it. Each is worked out from the lines themselves, in the
 * order `carryEvening` added them up (not by adding the game's amounts back: with an ante of 0.1
 * the two could differ in the last digit, and the line then not be found again).
 *
 * Where the chain ends in an evening settled up, no line of it changes: that evening's balances,
 * carried ones and all, were paid at the table, and its History says what was paid then. A line
 * rewritten would make a settled evening say the players owed what nobody paid, behind their
 * backs (as a finished game of a settled evening can no longer be undone, `SETTLED_GAME_CLOSED`).
 * Where the chain ends in an evening still open (tonight's) or ended by the break (still owed,
 * Home says so), every line of it changes: that money has not changed hands yet.
 *
 * A carried line is told by its note and by owing what was carried (the earlier evening's
 * balances before the delete): two evenings of one name carried into the same one are told apart
 * by their amounts, and where both carried the same, either line is the one to change. An evening
 * that owed nothing when carried got no line: one is added if the delete leaves money owed. A
 * line not found (changed since by hand) ends the chain there: a line that may be another's is
 * never rewritten.
 */
async function carriedChanges(
  from: SessionRecord,
  gameId: string,
  sessionOf: (id: string) => Promise<SessionRecord | undefined>,
  linesOf: (sessionId: string) => Promise<LedgerEntry[]>,
  newId: () => string,
): Promise<{ changed: CarriedChange; lines: CarriedLineChange[] } | null> {
  if (from.endedBy !== 'carried' || from.carriedInto === undefined) return null;
  // the chain, to the evening where the money rests (an evening seen twice ends it: never in Rollcall's own records)
  const chain: SessionRecord[] = [from];
  const seen = new Set([from.id]);
  for (let at = from; at.endedBy === 'carried' && at.carriedInto !== undefined && !seen.has(at.carriedInto); ) {
    const next = await sessionOf(at.carriedInto);
    if (!next) break;
    chain.push(next);
    seen.add(next.id);
    at = next;
  }
  if (chain.length === 1) return null;
  const lines: CarriedLineChange[] = [];
  // each evening's lines before the delete, and after it: the game's gone from the first, the line changed in each later one
  let linesBefore = await linesOf(from.id);
  let linesAfter = linesBefore.filter((l) => l.gameId !== gameId);
  let into: SessionRecord | null = null;
  for (const later of chain.slice(1)) {
    const earlier = chain[lines.length]!;
    const before = owedOf(balancesOf(linesBefore));
    const after = owedOf(balancesOf(linesAfter));
    // the game paid nothing (or nothing more is owed differently): nothing carried changes
    if (sameOwed(before, after)) break;
    if (settledUp(chain[chain.length - 1]!)) return { changed: { evening: chain[chain.length - 1]!, changes: false }, lines: [] };
    const laterBefore = await linesOf(later.id);
    const line = laterBefore.find((l) => l.gameId === null && l.note === carriedNote(earlier.name) && sameOwed(l.deltas, before));
    if (!line && Object.keys(before).length > 0) break;
    const empty = Object.keys(after).length === 0;
    // dated when the later evening began, not now: a delete is no play at tonight's table (`sessionLastActivity`)
    const changed = line
      ? { before: line, after: empty ? null : { ...line, deltas: after } }
      : { before: null, after: { id: newId(), sessionId: later.id, gameId: null, at: later.startedAt, deltas: after, note: carriedNote(earlier.name) } };
    lines.push(changed);
    linesBefore = laterBefore;
    // in the order the evening's lines are read (`by-session`: by id), which the next line was added up in
    linesAfter = [...laterBefore.flatMap((l) => (l === changed.before ? (changed.after ? [changed.after] : []) : [l])), ...(changed.before ? [] : [changed.after!])].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    into = later;
  }
  return into === null ? null : { changed: { evening: into, changes: true }, lines };
}

/** When a session's table was last at it: its latest game or ledger line, else its start. */
export function sessionLastActivity(session: SessionRecord, games: readonly { updatedAt: number }[], lines: readonly { at: number }[]): number {
  return [...games.map((g) => g.updatedAt), ...lines.map((l) => l.at)].reduce((a, b) => Math.max(a, b), session.startedAt);
}

/** A game by what was played, whatever its id: the game, players' names in seat order, options and log. */
export interface GameContent {
  game: string;
  playerNames: readonly string[];
  options: JsonObject;
  actions: readonly ActionLike[];
}

/**
 * The game among `candidates` that is `content` (the same game, players by `nameKey` in seat
 * order, options and every action), if any: the one test of "already here" for a transcript
 * and a backup, so one game brought in twice, by either, is not listed and paid twice.
 */
export async function findSameGame(
  candidates: readonly GameRecord[],
  actions: { getAll(range: IDBKeyRange): Promise<ActionRecord[]> },
  content: GameContent,
): Promise<GameRecord | undefined> {
  const players = content.playerNames.map(nameKey).join('\n');
  const options = JSON.stringify(content.options);
  const log = JSON.stringify(content.actions);
  for (const here of candidates) {
    // the header first: a log is read only for a game that could be this one
    if (here.game !== content.game || here.actionCount !== content.actions.length) continue;
    if (here.players.map((p) => nameKey(p.name)).join('\n') !== players || JSON.stringify(here.options) !== options) continue;
    const records = await actions.getAll(actionRange(here.id));
    if (JSON.stringify(records.map((r) => r.action)) === log) return here;
  }
  return undefined;
}

const SETTINGS_KEY = 'settings';
/** A table idle this long has broken up: the next game starts a new session (`sessionForNewGame`). */
export const SAME_EVENING_MS = 8 * 60 * 60 * 1000;

/**
 * Whether a table last at it at `lastActivity` is still at it `now` (within `SAME_EVENING_MS`).
 * A last activity more than an evening AHEAD of now is a break too: the phone's clock was set
 * wrong (a day or a year ahead) and then put right, and an evening whose moves were stamped in
 * that future would otherwise stay open until the wrong date came round, every game meanwhile
 * piling onto its balances. Time zones do not move `Date.now()`; only a clock set anew does.
 */
export function tableStillAt(lastActivity: number, now: number): boolean {
  return Math.abs(now - lastActivity) <= SAME_EVENING_MS;
}
const SEQ_MAX = Number.MAX_SAFE_INTEGER;

/**
 * Opens the store on the browser's IndexedDB. Where the browser refuses it (site data blocked,
 * an older Firefox private window, a webview without IndexedDB), the store opens on one kept in
 * memory instead, so a game can still be played while the page is open; `unsaved` then says
 * why. A database that is there but cannot be opened (a migration failed, a newer Rollcall's, or
 * one the browser lists whose open failed twice) still throws: falling back would hide the
 * player's games behind an empty app.
 */
export async function openStore(options: OpenStoreOptions = {}): Promise<RollcallStore> {
  let refused = 'This browser has no IndexedDB, where web pages save data.';
  if (typeof indexedDB !== 'undefined') {
    let opened = await openDatabase(options);
    // A database the browser lists is one it keeps, and it may hold games: its open failed this
    // once (Chromium's UnknownError of a busy or damaged backing store), not a refusal. Tried
    // again once; an empty store in memory would hide those games behind an empty app.
    if (!('db' in opened) && (await browserHolds(options.name ?? DB_NAME))) {
      opened = await openDatabase(options);
      if (!('db' in opened)) {
        throw new StoreError('unavailable', `Rollcall could not open its saved games (${opened.refused}). They are still on this device.`);
      }
    }
    if ('db' in opened) return new RollcallStore(opened.db, options.now ?? Date.now, options.newId ?? newRecordId, null);
    refused = opened.refused;
  }
  try {
    const { useMemoryIndexedDB } = await import('./memory.ts');
    useMemoryIndexedDB();
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new StoreError('unavailable', `This browser will not let Rollcall save (${refused}), and Rollcall could not keep the slate in memory either (${detail}).`);
  }
  const opened = await openDatabase(options);
  if (!('db' in opened)) throw new StoreError('unavailable', `Rollcall could not keep the slate in memory (${opened.refused}).`);
  return new RollcallStore(opened.db, options.now ?? Date.now, options.newId ?? newRecordId, refused);
}

type Opened = { db: RollcallDb } | { refused: string };

/**
 * Whether the browser's IndexedDB lists a database called `name`. False where it cannot say
 * (no `databases()`, Firefox before 126; refused; no answer within a second).
 */
async function browserHolds(name: string): Promise<boolean> {
  try {
    const listed = indexedDB.databases?.();
    if (!listed) return false;
    listed.catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const gaveUp = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 1000)));
    const databases = await Promise.race([listed, gaveUp]).finally(() => clearTimeout(timer));
    return databases?.some((database) => database.name === name) ?? false;
  } catch {
    return false;
  }
}

/**
 * `openDB` on whichever IndexedDB the page has now. The browser's refusal (a throw or an error
 * from `open` itself) comes back as `refused`, in the browser's words; a failed migration or a
 * newer version's database is thrown as a StoreError.
 */
async function openDatabase(options: OpenStoreOptions): Promise<Opened> {
  let db: RollcallDb | undefined;
  let migrationError: unknown;
  let upgraded = false;
  try {
    db = await openDB<RollcallSchema>(options.name ?? DB_NAME, DB_VERSION, {
      upgrade(database, oldVersion, newVersion, tx) {
        upgraded = true;
        // An aborted upgrade surfaces as openDB's rejection below; this promise would only repeat it.
        tx.done.catch(() => undefined);
        // The migrations run inside the versionchange transaction; a throw aborts the upgrade,
        // which leaves the database as it was.
        migrate(database as unknown as UpgradeDb, tx as unknown as UpgradeTx, oldVersion, newVersion ?? DB_VERSION).catch((err: unknown) => {
          migrationError = err;
          try {
            tx.abort();
          } catch {
            // The transaction already failed on its own.
          }
        });
      },
      blocking() {
        // the store's own close() after this is harmless: closing twice does nothing
        db?.close();
        options.onVersionChange?.();
      },
    });
    return { db };
  } catch (err) {
    const cause = migrationError ?? err;
    const detail = cause instanceof Error ? cause.message : String(cause);
    // a newer Rollcall's database (VersionError) or one our migration could not upgrade: the games are there.
    // Nor where the upgrade ran and the open failed after it (its commit): the browser lets the
    // page store data, and idb has met its IndexedDB's classes, which it keeps for good (its
    // `instanceof` checks and cursor methods), so it could not drive one kept in memory.
    if (migrationError !== undefined || upgraded || (err instanceof Error && err.name === 'VersionError')) {
      throw new StoreError('unavailable', `Rollcall could not open its saved games (${detail}).`);
    }
    return { refused: detail };
  }
}

/**
 * A random (version 4) UUID for a new record. `crypto.randomUUID` exists only in secure contexts
 * (a page over plain http on the local network, as `npm start` serves it to a phone, has none)
 * and since Safari 15.4; `getRandomValues` everywhere: without it no game could be started.
 */
export function newRecordId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Runs `body` in one transaction; resolves after the commit, or aborts everything on a throw.
 * Writes are `strict`: the commit is flushed to disk before it is reported, so an action the
 * screen shows survives a dead battery, not only a closed tab. `write` says what a refusal says
 * was not done: a delete's deleted nothing (`StoreWrite`), anything else's was not saved.
 */
export async function inTx<S extends StoreName[], M extends IDBTransactionMode, T>(
  db: RollcallDb,
  stores: S,
  mode: M,
  body: (tx: Tx<S, M>) => Promise<T>,
  write: StoreWrite = 'save',
): Promise<T> {
  let tx: Tx<S, M>;
  try {
    tx = db.transaction(stores, mode, { durability: mode === 'readwrite' ? 'strict' : 'default' }) as Tx<S, M>;
  } catch (err) {
    throw closedConnectionError(err, write) ?? storeErrorFrom(err, write);
  }
  const done = tx.done;
  try {
    const result = await body(tx);
    await done;
    return result;
  } catch (err) {
    try {
      tx.abort();
    } catch {
      // Already aborted by a failed request, or already committed.
    }
    await done.catch(() => undefined);
    throw storeErrorFrom(err, write);
  }
}

/**
 * Writes every record of `records` through `write`, the requests issued together and awaited
 * once. A transaction runs its requests in order and the first that fails aborts it, so awaiting
 * each in turn bought nothing but a round trip per record: restoring a two-year backup (150,000
 * actions) took half a minute in Chromium. The first failure is the one thrown, as before.
 */
export async function writeAll<T>(records: Iterable<T>, write: (record: T) => Promise<unknown>): Promise<void> {
  const requests: Promise<unknown>[] = [];
  for (const record of records) {
    const request = write(record);
    // reported through Promise.all below; those aborted after it are never unhandled meanwhile
    request.catch(() => undefined);
    requests.push(request);
  }
  await Promise.all(requests);
}

/**
 * A transaction refused because the connection closed under the page (InvalidStateError): a newer
 * Rollcall opened in another tab asked for it (the shell's banner says so), or the browser closed
 * it. Said as a player can act on it, not in the browser's words; null for any other error.
 */
function closedConnectionError(err: unknown, write: StoreWrite): StoreError | null {
  const name = typeof err === 'object' && err !== null ? (err as { name?: unknown }).name : undefined;
  if (name !== 'InvalidStateError') return null;
  return new StoreError('unavailable', unreachableMessage(write));
}

/** Our own refusals pass through; a full disk becomes a message a player can act on, true of the write refused. */
function storeErrorFrom(err: unknown, write: StoreWrite): unknown {
  const name = typeof err === 'object' && err !== null ? (err as { name?: unknown }).name : undefined;
  if (name === 'QuotaExceededError') return new StoreError('storage-full', storageFullMessage(write));
  return err;
}

/** A seat whose player is no longer on this device (merged into another, or changed, in another tab): `createGame`'s refusal. */
export function playerGoneMessage(name: string): string {
  return `${name.trim()} is no longer on this device (merged into another player, or changed in another tab), so the game was not started.`;
}

/** The player who was known by `name` before (not one whose name it is now), read in the caller's transaction. */
async function knownAs(players: { getAll(): Promise<PlayerRecord[]> }, name: string): Promise<(NamedPlayer & { alias: string }) | undefined> {
  const found = playerNamed(await players.getAll(), name);
  return found && found.alias !== null ? { player: found.player, alias: found.alias } : undefined;
}

/** The player found by one of their other names, without it. */
function withoutAlias(found: NamedPlayer): PlayerRecord {
  return withAliases(found.player, aliasesOf(found.player).filter((a) => nameKey(a) !== nameKey(found.alias ?? '')));
}

/** A name as kept: trimmed, and composed (NFC) so that one name is one string of characters. */
function checkName(name: string, what: string): string {
  const trimmed = name.trim().normalize('NFC');
  if (nameKey(trimmed) === '') throw new StoreError('invalid-input', `${what} needs a name.`);
  const tooLong = nameLengthProblem(trimmed);
  if (tooLong) throw new StoreError('invalid-input', tooLong);
  return trimmed;
}

/**
 * `name`, or the first of "name 2", "name 3"… that no name in `taken` is (compared by
 * `nameKey`), within `MAX_NAME_LENGTH`: a new dice set's name where another set has it.
 */
export function unusedName(name: string, taken: readonly string[]): string {
  const used = new Set(taken.map(nameKey));
  if (!used.has(nameKey(name))) return name;
  // room for " 999"
  const base = clipName(name, MAX_NAME_LENGTH - 4).trimEnd();
  let n = 2;
  while (used.has(nameKey(`${base} ${n}`))) n++;
  return `${base} ${n}`;
}

/** Two dice sets may not share a name: New game would offer two choices that read the same. */
async function checkSetNameFree(sets: { getAll(): Promise<TaughtSetRecord[]> }, name: string, exceptId: string | null): Promise<void> {
  const other = (await sets.getAll()).find((s) => s.id !== exceptId && nameKey(s.name) === nameKey(name));
  if (other) throw new StoreError('name-taken', `There is already a dice set called ${other.name}.`);
}

/** The kit part of a new taught set: a built-in kit's id, or an own kit (validated). */
function checkSetKit(kitId: string, own?: { kit: DiceKit; art?: Record<string, string> }): Pick<TaughtSetRecord, 'kitId' | 'kit' | 'art'> {
  if (!own) {
    if (!BUILT_IN_KITS[kitId]) throw new StoreError('invalid-input', `There is no built-in dice kit "${kitId}".`);
    return { kitId, kit: null, art: {} };
  }
  let kit: DiceKit;
  try {
    kit = parseKit(own.kit, 'kit');
  } catch (err) {
    throw new StoreError('invalid-input', err instanceof KitError ? err.message : String(err));
  }
  if (kit.id !== kitId) throw new StoreError('invalid-input', `The kit's id "${kit.id}" does not match "${kitId}".`);
  if (BUILT_IN_KITS[kit.id]) throw new StoreError('invalid-input', `"${kit.id}" is a built-in kit's id: give your kit another one.`);
  const art: Record<string, string> = {};
  for (const [faceId, url] of Object.entries(own.art ?? {})) {
    if (!kit.faces.some((f) => f.id === faceId)) throw new StoreError('invalid-input', `There is art for a face "${faceId}" the kit does not have.`);
    // kept in the one form a backup accepts (lower-case type, no parameters)
    const picture = imageDataUrl(url);
    if (picture === null) throw new StoreError('invalid-input', `The art of "${faceId}" is not an image as a base64 data URL.`);
    art[faceId] = picture;
  }
  return { kitId, kit, art };
}

/** The faces of a set's kit: its own, or the built-in kit's. */
/** A taught set's kit: its own, or the built-in kit its dice copy (undefined for a built-in id this app does not know). */
export function kitOfTaughtSet(set: Pick<TaughtSetRecord, 'kitId' | 'kit'>): DiceKit | undefined {
  return set.kit ?? BUILT_IN_KITS[set.kitId];
}

function setFaces(set: TaughtSetRecord): readonly { id: string }[] {
  return kitOfTaughtSet(set)?.faces ?? [];
}

function checkFaceOfSet(set: TaughtSetRecord, faceId: string): void {
  if (!setFaces(set).some((f) => f.id === faceId)) throw new StoreError('invalid-input', `These dice have no face "${faceId}".`);
}

function checkEmbedding(embedding: { vector: ArrayLike<number>; model: string }): { embedding: number[]; embeddingModel: string } {
  const vector = Array.from(embedding.vector);
  if (vector.length === 0 || !vector.every(Number.isFinite)) throw new StoreError('invalid-input', 'The face embedding is not a list of numbers.');
  if (typeof embedding.model !== 'string' || embedding.model.length === 0) throw new StoreError('invalid-input', 'The face embedding does not say which model made it.');
  return { embedding: vector, embeddingModel: embedding.model };
}

function checkBox(box: ImageBox): ImageBox {
  const { x, y, w, h } = box;
  if (![x, y, w, h].every(Number.isFinite) || w <= 0 || h <= 0) throw new StoreError('invalid-input', 'Where the die lies in the picture is not a box.');
  return { x, y, w, h };
}

function checkTaughtFace(
  faceId: string,
  image: Blob,
  embedding: { vector: ArrayLike<number>; model: string } | null,
  box: ImageBox | null,
): Pick<TaughtFaceRecord, 'faceId' | 'image' | 'box' | 'embedding' | 'embeddingModel'> {
  if (!(image instanceof Blob) || image.size === 0) throw new StoreError('invalid-input', 'A taught face needs its picture.');
  return {
    faceId,
    image,
    box: box ? checkBox(box) : null,
    ...(embedding ? checkEmbedding(embedding) : { embedding: null, embeddingModel: null }),
  };
}

/** A new game's ante (0 when not given) and options (none when not given), checked. */
function checkAnteAndOptions(input: Pick<NewGame, 'ante' | 'options'>): { ante: number; options: JsonObject } {
  const ante = input.ante ?? 0;
  if (!Number.isFinite(ante) || ante < 0) throw new StoreError('invalid-input', 'The ante must be zero or more.');
  const options = input.options ?? {};
  const problem = jsonProblem(options, 'options');
  if (problem) throw new StoreError('invalid-input', `Game options must be plain JSON: ${problem}.`);
  return { ante, options };
}

function checkAction(action: unknown): void {
  if (typeof action !== 'object' || action === null || Array.isArray(action)) {
    throw new StoreError('invalid-input', 'An action must be a JSON object.');
  }
  const type: unknown = (action as { type?: unknown }).type;
  if (typeof type !== 'string' || type.length === 0) {
    throw new StoreError('invalid-input', 'An action needs a non-empty `type` string.');
  }
  const problem = jsonProblem(action, 'action');
  if (problem) throw new StoreError('invalid-input', `An action must be plain JSON: ${problem}.`);
}

function checkExpectation(game: GameRecord, expect: LogExpectation | undefined): void {
  if (expect?.expectedCount !== undefined && expect.expectedCount !== game.actionCount) {
    throw new StoreError(
      'stale-log',
      `This game changed elsewhere (it has ${game.actionCount} actions, this screen expected ${expect.expectedCount}). Reload it.`,
    );
  }
  if (expect?.expectedRevision !== undefined && expect.expectedRevision !== (game.logRevision ?? 0)) {
    throw new StoreError('stale-log', 'This game changed elsewhere (an action was undone and another written). Reload it.');
  }
}

/**
 * Why a finished game of an evening settled up can be neither undone nor fixed. Said of an
 * evening ended on Home (End the evening) and of one ended by a break past `SAME_EVENING_MS` (a
 * new game or a game played on the next day) alike: "settled up" would be untrue of the second.
 */
export const SETTLED_GAME_CLOSED = "This game's evening has ended, so its result stands: it can no longer be undone or fixed.";

type LogChangeTx = Tx<['games', 'actions', 'ledger', 'sessions', 'players'], 'readwrite'>;

/**
 * A game whose log may change (Undo, a fix): on this device, not abandoned, the log the screen
 * expects, and not a finished game of an evening settled up (`SETTLED_GAME_CLOSED`): there a
 * change would alter totals the players already paid, behind their backs, or reopen a game
 * whose next end pays into an evening nobody looks at any more.
 */
async function changeableGame(tx: LogChangeTx, gameId: string, expect: LogExpectation | undefined): Promise<GameRecord> {
  const game = await tx.objectStore('games').get(gameId);
  if (!game) throw new StoreError('not-found', 'That game is not on this device.');
  if (game.status === 'abandoned') throw new StoreError('game-closed', 'This game was abandoned; its log can no longer change.');
  checkExpectation(game, expect);
  if (game.status === 'finished' && game.sessionId !== null && (await tx.objectStore('sessions').get(game.sessionId))?.endedAt != null) {
    throw new StoreError('game-closed', SETTLED_GAME_CLOSED);
  }
  return game;
}

/** A game whose log changed is in play again: a finished one's ledger line goes with its end. */
async function reopenedInTx(tx: LogChangeTx, game: GameRecord): Promise<Pick<GameRecord, 'status' | 'finishedAt' | 'result'>> {
  if (game.status === 'finished') {
    const ledger = tx.objectStore('ledger');
    for (const id of await ledger.index('by-game').getAllKeys(game.id)) await ledger.delete(id);
  }
  return { status: 'active', finishedAt: null, result: null };
}

/** A game by its rules' id and the day it started, in UTC: what the store alone can say of one ("five-thousand, started 2026-12-03"). */
function gameOnDay(game: GameRecord): string {
  return `${game.game}, started ${new Date(game.createdAt).toISOString().slice(0, 10)}`;
}

/** `game` with player `fromId`'s seat, win and payout given to `intoId` (who is not in it), its log revision moved on. */
function gameMerged(game: GameRecord, fromId: string, intoId: string): GameRecord {
  const id = (playerId: string): string => (playerId === fromId ? intoId : playerId);
  const result = game.result && {
    winners: game.result.winners.map(id),
    payouts: Object.fromEntries(Object.entries(game.result.payouts).map(([playerId, amount]) => [id(playerId), amount])),
  };
  return {
    ...game,
    players: game.players.map((p) => ({ id: id(p.id), name: p.name })),
    result,
    logRevision: (game.logRevision ?? 0) + 1,
  };
}

/**
 * A ledger line's amounts with `fromId`'s added to `intoId`'s. A game's line never names both
 * (they never sat together), but a settle-up between the two may: it then nets out to one amount.
 */
function deltasMerged(deltas: Readonly<Record<string, number>>, fromId: string, intoId: string): Record<string, number> {
  // a Map, not `obj[id] = …`: an id is data, and must never reach an object's prototype
  const merged = new Map<string, number>();
  for (const [playerId, amount] of Object.entries(deltas)) {
    const id = playerId === fromId ? intoId : playerId;
    merged.set(id, (merged.get(id) ?? 0) + amount);
  }
  return Object.fromEntries(merged);
}

/** A game's actions, in the order played (the store is keyed `[gameId, seq]`). */
export function actionRange(gameId: string): IDBKeyRange {
  return IDBKeyRange.bound([gameId, 0], [gameId, SEQ_MAX]);
}

export class RollcallStore {
  private closed = false;

  constructor(
    readonly db: RollcallDb,
    private readonly now: () => number,
    private readonly newId: () => string,
    /**
     * Why nothing written here outlives the page (the browser refused its storage, in its
     * words), where the store runs on an IndexedDB kept in memory; null where the browser keeps it.
     */
    readonly unsaved: string | null,
  ) {}

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  // ── games ──────────────────────────────────────────────────────────────────────────────

  async createGame(input: NewGame): Promise<GameRecord> {
    if (typeof input.game !== 'string' || input.game.length === 0) throw new StoreError('invalid-input', 'Pick a game.');
    if (input.players.length === 0) throw new StoreError('invalid-input', 'A game needs players.');
    const ids = new Set(input.players.map((p) => p.id));
    if (ids.size !== input.players.length) throw new StoreError('invalid-input', 'A player is listed twice.');
    const names = new Set(input.players.map((p) => nameKey(p.name)));
    if (names.size !== input.players.length) throw new StoreError('invalid-input', 'Two players have the same name.');
    const players = input.players.map((p) => ({ id: p.id, name: checkName(p.name, 'Every player') }));
    const { ante, options } = checkAnteAndOptions(input);
    const t = this.now();
    const game: GameRecord = {
      id: this.newId(),
      game: input.game,
      players,
      options,
      ante,
      dice: { kitId: input.dice.kitId, taughtSetId: input.dice.taughtSetId },
      sessionId: input.sessionId ?? null,
      createdAt: t,
      updatedAt: t,
      finishedAt: null,
      status: 'active',
      actionCount: 0,
      logRevision: 0,
      result: null,
    };
    await inTx(this.db, ['games', 'players', 'sessions'], 'readwrite', async (tx) => {
      if (game.sessionId !== null && !(await tx.objectStore('sessions').get(game.sessionId))) {
        throw new StoreError('not-found', 'That session no longer exists.');
      }
      // Every seat is a player on this device: a screen left open (New game in a second tab) may
      // still hold one merged away or gone since, and a game seating that id would be a ghost.
      const playerStore = tx.objectStore('players');
      const known = await Promise.all(players.map((p) => playerStore.get(p.id)));
      const gone = players.find((_, i) => !known[i]);
      if (gone) throw new StoreError('not-found', playerGoneMessage(gone.name));
      await tx.objectStore('games').add(game);
      for (const player of known) if (player) await playerStore.put({ ...player, lastPlayedAt: t });
    });
    return game;
  }

  /**
   * Writes a whole game — header, every action, its players, and when it ended its result and
   * ledger line — in ONE transaction: a failure leaves nothing behind. The caller checks the
   * log against the rules first; the store only checks that it is plain JSON.
   */
  async importGame(input: ImportedGame): Promise<GameRecord> {
    if (typeof input.game !== 'string' || input.game.length === 0) throw new StoreError('invalid-input', 'Pick a game.');
    if (input.playerNames.length === 0) throw new StoreError('invalid-input', 'A game needs players.');
    const names = input.playerNames.map((n) => checkName(n, 'Every player'));
    if (new Set(names.map(nameKey)).size !== names.length) throw new StoreError('invalid-input', 'Two players have the same name.');
    const { ante, options } = checkAnteAndOptions(input);
    input.actions.forEach(checkAction);
    const times = input.times;
    if (times && (times.length !== input.actions.length || !times.every(Number.isFinite))) {
      throw new StoreError('invalid-input', `The log's times must be one per action (${input.actions.length}).`);
    }
    const result = input.result;
    if (result) {
      if (result.payouts.length !== names.length || !result.payouts.every(Number.isFinite)) {
        throw new StoreError('invalid-input', 'The result needs one amount per player.');
      }
      if (!result.winners.every((w) => Number.isInteger(w) && w >= 0 && w < names.length)) {
        throw new StoreError('invalid-input', 'A winner is not a player of this game.');
      }
    }
    const t = this.now();
    return inTx(this.db, ['games', 'actions', 'players', 'sessions', 'ledger'], 'readwrite', async (tx) => {
      // The same file imported twice (or a game exported from this device) would show every game twice.
      const content = { game: input.game, playerNames: names, options, actions: input.actions };
      if (await findSameGame(await tx.objectStore('games').getAll(), tx.objectStore('actions'), content)) {
        throw new StoreError('already-here', 'This game is already on this device: the same players, options and every action. Nothing was imported.');
      }
      const sessionId = input.joinEvening !== undefined && !result ? (await this.sessionForNewGameInTx(tx, input.joinEvening)).id : (input.sessionId ?? null);
      if (sessionId !== null && !(await tx.objectStore('sessions').get(sessionId))) {
        throw new StoreError('not-found', 'That session no longer exists.');
      }
      const playerStore = tx.objectStore('players');
      const players: GamePlayer[] = [];
      // they last played when the log's last move was made (a game of last year, imported today, is not tonight's)
      const played = times?.at(-1) ?? t;
      // Found by their name or a name they were known by ("Bbo", merged into Bob, is Bob's seat).
      // A game that seats Bob and Bbo side by side says they are two people: Bbo is someone else
      // here, the name no longer Bob's, as a merge of two who played together is refused.
      const here = await playerStore.getAll();
      const found = names.map((name) => playerNamed(here, name));
      const seated = new Set(found.flatMap((f) => (f && f.alias === null ? [f.player.id] : [])));
      for (const [i, name] of names.entries()) {
        let known = found[i];
        if (known && known.alias !== null) {
          if (seated.has(known.player.id)) {
            const fresh = (await playerStore.get(known.player.id))!;
            await playerStore.put(withoutAlias({ player: fresh, alias: known.alias }));
            known = undefined;
          } else seated.add(known.player.id);
        }
        if (known) {
          const player = (await playerStore.get(known.player.id))!;
          await playerStore.put({ ...player, lastPlayedAt: Math.max(player.lastPlayedAt ?? 0, played) });
          players.push({ id: player.id, name });
        } else {
          const record: PlayerRecord = { id: this.newId(), name, nameKey: nameKey(name), createdAt: t, lastPlayedAt: played };
          await playerStore.add(record);
          players.push({ id: record.id, name });
        }
      }
      const gameResult = result ? resultOfGame(players, ante, result) : null;
      const game: GameRecord = {
        id: this.newId(),
        game: input.game,
        players,
        options,
        ante,
        dice: { kitId: input.dice.kitId, taughtSetId: input.dice.taughtSetId },
        sessionId,
        // played when its log says; arrived now (History lists it first, as the latest change here)
        createdAt: times?.[0] ?? t,
        updatedAt: t,
        finishedAt: gameResult ? (times?.at(-1) ?? t) : null,
        status: gameResult ? 'finished' : 'active',
        actionCount: input.actions.length,
        logRevision: 0,
        result: gameResult,
      };
      await tx.objectStore('games').add(game);
      const actions = tx.objectStore('actions');
      await writeAll(input.actions.entries(), ([seq, action]) => actions.add({ gameId: game.id, seq, action, at: times?.[seq] ?? t }));
      if (gameResult && ante > 0) {
        await tx.objectStore('ledger').add({ id: this.newId(), sessionId, gameId: game.id, at: t, deltas: { ...gameResult.payouts }, note: '' });
      }
      return game;
    });
  }

  async getGame(id: string): Promise<GameRecord | undefined> {
    return this.db.get('games', id);
  }

  /** The game and its whole log, read in one transaction (so they agree). */
  async loadGame<A extends ActionLike = ActionLike>(id: string): Promise<GameWithLog<A>> {
    const { game, records } = await this.loadGameRecords(id);
    return { game, actions: records.map((r) => r.action as A) };
  }

  /** The game and its log with each action's sequence number and time, read in one transaction (the log screen). */
  async loadGameRecords(id: string): Promise<{ game: GameRecord; records: ActionRecord[] }> {
    return inTx(this.db, ['games', 'actions'], 'readonly', async (tx) => {
      const game = await tx.objectStore('games').get(id);
      if (!game) throw new StoreError('not-found', 'That game is not on this device.');
      return { game, records: await tx.objectStore('actions').getAll(actionRange(id)) };
    });
  }

  /** The log with each action's sequence number and time. */
  async actionRecords(gameId: string): Promise<ActionRecord[]> {
    return this.db.getAll('actions', actionRange(gameId));
  }

  /** Games, most recently played first; only those of one status when given. */
  async listGames(status?: GameStatus): Promise<GameRecord[]> {
    const games = status ? await this.db.getAllFromIndex('games', 'by-status', status) : await this.db.getAll('games');
    return games.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /**
   * Up to `limit` games, most recently played first (only those of `status` when given), that
   * come after `after` in that order (a game of the page before; from the newest without it),
   * and whether more follow. Read with a cursor over the `by-updated` index (`by-status-updated`
   * for one status), so a screen that shows a page reads that page, not two years of games
   * (History, Home's recently finished).
   */
  async gamesPage(options: { limit: number; status?: GameStatus; after?: Pick<GameRecord, 'id' | 'updatedAt'> }): Promise<{ games: GameRecord[]; more: boolean }> {
    const { limit, status, after } = options;
    return inTx(this.db, ['games'], 'readonly', async (tx) => {
      const games: GameRecord[] = [];
      const store = tx.objectStore('games');
      const until = after?.updatedAt ?? Infinity;
      let cursor =
        status === undefined
          ? await store.index('by-updated').openCursor(IDBKeyRange.upperBound(until), 'prev')
          : await store.index('by-status-updated').openCursor(IDBKeyRange.bound([status, -Infinity], [status, until]), 'prev');
      // Games played at the same millisecond come by id, descending: those up to `after` were on the page before.
      while (cursor && after && cursor.value.updatedAt === after.updatedAt && cursor.primaryKey >= after.id) cursor = await cursor.continue();
      while (cursor && games.length < limit) {
        games.push(cursor.value);
        cursor = await cursor.continue();
      }
      return { games, more: cursor !== null };
    });
  }

  /** A session's games (of `status` when given), the first played first: read by the session's index, not among every game. */
  async sessionGames(sessionId: string, status?: GameStatus): Promise<GameRecord[]> {
    const games = await this.db.getAllFromIndex('games', 'by-session', sessionId);
    return games.filter((g) => status === undefined || g.status === status).sort((a, b) => a.updatedAt - b.updatedAt);
  }

  /** How many games there are (of `status` when given), without reading them. */
  async countGames(status?: GameStatus): Promise<number> {
    return status ? this.db.countFromIndex('games', 'by-status', status) : this.db.count('games');
  }

  /**
   * Appends one action to a game's log and resolves once it is committed. Throws (and writes
   * nothing) when the game is unknown or over, the action is not plain JSON, or the log is not
   * the length the caller expected. `finish`: the action ends the game with this result, written
   * in the same transaction (the game finished and its ledger line), so that a game is never left
   * with a winning log but no payout.
   */
  async appendAction<A extends ActionLike>(gameId: string, action: A, expect?: LogExpectation, finish?: GameResult): Promise<ActionRecord<A>> {
    checkAction(action);
    return inTx(this.db, ['games', 'actions', 'ledger', 'players'], 'readwrite', async (tx) => {
      const games = tx.objectStore('games');
      const game = await games.get(gameId);
      if (!game) throw new StoreError('not-found', 'That game is not on this device.');
      if (game.status !== 'active') throw new StoreError('game-closed', 'This game is over; its log can no longer change.');
      checkExpectation(game, expect);
      const t = this.now();
      const record: ActionRecord<A> = { gameId, seq: game.actionCount, action, at: t };
      await tx.objectStore('actions').add(record);
      const appended: GameRecord = { ...withLogChange(game, 1), updatedAt: t };
      if (finish) await this.finishInTx(tx, appended, finish, t);
      else await games.put(appended);
      return record;
    });
  }

  /**
   * Drops the last action of a game's log and returns it. Undoing the action that ended a
   * game reopens it and removes its line from the ledger, in the same transaction; refused for
   * a finished game whose evening was settled up (`SETTLED_GAME_CLOSED`).
   */
  async undoLastAction(gameId: string, expect?: LogExpectation): Promise<ActionRecord> {
    return inTx(this.db, ['games', 'actions', 'ledger', 'sessions', 'players'], 'readwrite', async (tx) => {
      const game = await changeableGame(tx, gameId, expect);
      if (game.actionCount === 0) throw new StoreError('nothing-to-undo', 'Nothing to undo yet.');
      const actions = tx.objectStore('actions');
      const key: [string, number] = [gameId, game.actionCount - 1];
      const last = await actions.get(key);
      if (!last) throw new StoreError('not-found', 'The last action of this game is missing.');
      await actions.delete(key);
      await tx.objectStore('games').put({ ...withLogChange(game, -1), updatedAt: this.now(), ...(await reopenedInTx(tx, game)) });
      return last;
    });
  }

  /**
   * Writes the log from action `from` on again as `tail` (a roll fixed, and the moves after it
   * that still stand: `fixRoll`), in one transaction. Each action keeps the time of the one it
   * replaces; the actions past the tail are dropped, as as many Undos would. `finish`: the new log
   * ends the game, written with it. A finished game's result and ledger line go first, as Undo
   * of its end does; written again with `finish` (at the time it ended), else it is reopened.
   * Throws, and writes nothing, on the checks of `appendAction`, for an abandoned game, and for
   * a finished one whose evening was settled up (`SETTLED_GAME_CLOSED`).
   */
  async rewriteLog<A extends ActionLike>(gameId: string, from: number, tail: readonly A[], expect?: LogExpectation, finish?: GameResult): Promise<GameRecord> {
    for (const action of tail) checkAction(action);
    return inTx(this.db, ['games', 'actions', 'ledger', 'sessions', 'players'], 'readwrite', async (tx) => {
      const game = await changeableGame(tx, gameId, expect);
      if (!Number.isInteger(from) || from < 0 || from + tail.length > game.actionCount || tail.length === 0) {
        throw new StoreError('invalid-input', `The log has ${game.actionCount} actions: it cannot be written again from action ${from + 1} with ${tail.length}.`);
      }
      const actions = tx.objectStore('actions');
      const replaced = await actions.getAll(IDBKeyRange.bound([gameId, from], [gameId, SEQ_MAX]));
      await actions.delete(IDBKeyRange.bound([gameId, from], [gameId, SEQ_MAX]));
      const t = this.now();
      await writeAll(tail.entries(), ([i, action]) => actions.add({ gameId, seq: from + i, action, at: replaced[i]?.at ?? t }));
      const rewritten: GameRecord = { ...game, actionCount: from + tail.length, logRevision: (game.logRevision ?? 0) + 1, updatedAt: t, ...(await reopenedInTx(tx, game)) };
      // a game that ended still ends when it did: fixed later, it does not become the latest played
      if (finish) return this.finishInTx(tx, rewritten, finish, game.finishedAt ?? t);
      await tx.objectStore('games').put(rewritten);
      return rewritten;
    });
  }

  /**
   * Marks a game finished with its result and writes its ledger line, in one transaction; its
   * players last played when it ended (not when it began: a game from 21:00 to 01:30 is last
   * played on the day after, and one left overnight and finished in the morning, that morning).
   */
  async finishGame(gameId: string, result: GameResult): Promise<GameRecord> {
    return inTx(this.db, ['games', 'ledger', 'players'], 'readwrite', async (tx) => {
      const game = await tx.objectStore('games').get(gameId);
      if (!game) throw new StoreError('not-found', 'That game is not on this device.');
      if (game.status !== 'active') throw new StoreError('game-closed', 'This game is already over.');
      return this.finishInTx(tx, game, result, this.now());
    });
  }

  /** Writes `game` finished with `result`, and its ledger line, inside the caller's transaction. */
  private async finishInTx(tx: Tx<['games', 'ledger', 'players'] | ['games', 'actions', 'ledger', 'players'] | ['games', 'actions', 'ledger', 'sessions', 'players'], 'readwrite'>, game: GameRecord, result: GameResult, t: number): Promise<GameRecord> {
    const playerIds = new Set(game.players.map((p) => p.id));
    for (const w of result.winners) {
      if (!playerIds.has(w)) throw new StoreError('invalid-input', 'A winner is not a player of this game.');
    }
    for (const [id, amount] of Object.entries(result.payouts)) {
      if (!playerIds.has(id)) throw new StoreError('invalid-input', 'A payout names someone who is not in this game.');
      if (!Number.isFinite(amount)) throw new StoreError('invalid-input', 'A payout is not a number.');
    }
    const finished: GameRecord = {
      ...game,
      status: 'finished',
      finishedAt: t,
      updatedAt: t,
      result: { winners: [...result.winners], payouts: { ...result.payouts } },
    };
    await tx.objectStore('games').put(finished);
    const players = tx.objectStore('players');
    for (const seat of game.players) {
      const player = await players.get(seat.id);
      if (player && (player.lastPlayedAt ?? -Infinity) < t) await players.put({ ...player, lastPlayedAt: t });
    }
    if (Object.keys(result.payouts).length > 0) {
      await tx.objectStore('ledger').add({
        id: this.newId(),
        sessionId: game.sessionId,
        gameId: game.id,
        at: t,
        deltas: { ...result.payouts },
        note: '',
      });
    }
    return finished;
  }

  /** Ends a game without a result (nobody wins, the ledger is untouched). */
  async abandonGame(gameId: string): Promise<GameRecord> {
    return inTx(this.db, ['games'], 'readwrite', async (tx) => {
      const games = tx.objectStore('games');
      const game = await games.get(gameId);
      if (!game) throw new StoreError('not-found', 'That game is not on this device.');
      if (game.status !== 'active') throw new StoreError('game-closed', 'This game is already over.');
      const t = this.now();
      const abandoned: GameRecord = { ...game, status: 'abandoned', finishedAt: t, updatedAt: t };
      await games.put(abandoned);
      return abandoned;
    });
  }

  /**
   * Deletes a game, its log and its ledger lines. Where its evening was carried on into a later one
   * (`carryEvening`), the line carried on from it comes to its balances after the delete, along the
   * chain of carries, in the same transaction (`carriedChanges`; not where the chain ends in an
   * evening settled up). Returns what changed there, for the player to be told; null where nothing did.
   */
  async deleteGame(gameId: string): Promise<CarriedChange | null> {
    return inTx(this.db, ['games', 'actions', 'ledger', 'sessions'], 'readwrite', async (tx) => {
      const game = await tx.objectStore('games').get(gameId);
      if (!game) throw new StoreError('not-found', 'That game is not on this device.');
      const ledger = tx.objectStore('ledger');
      const carried = await this.carriedChangesInTx(tx, game);
      await tx.objectStore('games').delete(gameId);
      await tx.objectStore('actions').delete(actionRange(gameId));
      for (const id of await ledger.index('by-game').getAllKeys(gameId)) await ledger.delete(id);
      for (const { before, after } of carried?.lines ?? []) {
        if (after) await ledger.put(after);
        else if (before) await ledger.delete(before.id);
      }
      return carried?.changed ?? null;
    }, 'delete');
  }

  /**
   * What deleting the game `gameId` would take off the balances its evening was carried on into
   * (`deleteGame`), for its question to say: the evening where that money now rests and whether its
   * balances change (not where it was settled up); null where its evening was not carried on, or
   * the game paid nothing (and for a game not on this device).
   */
  async whereCarried(gameId: string): Promise<CarriedChange | null> {
    return inTx(this.db, ['games', 'actions', 'ledger', 'sessions'], 'readonly', async (tx) => {
      const game = await tx.objectStore('games').get(gameId);
      return game ? ((await this.carriedChangesInTx(tx, game))?.changed ?? null) : null;
    });
  }

  /** `carriedChanges` of deleting `game`, read in the caller's transaction (its ledger lines still there). */
  private async carriedChangesInTx<M extends IDBTransactionMode>(
    tx: Tx<['games', 'actions', 'ledger', 'sessions'], M>,
    game: GameRecord,
  ): Promise<{ changed: CarriedChange; lines: CarriedLineChange[] } | null> {
    if (game.sessionId === null) return null;
    const from = await tx.objectStore('sessions').get(game.sessionId);
    if (!from) return null;
    const ledger = tx.objectStore('ledger');
    return carriedChanges(
      from,
      game.id,
      (id) => tx.objectStore('sessions').get(id),
      (sessionId) => ledger.index('by-session').getAll(sessionId),
      () => this.newId(),
    );
  }

  // ── players ────────────────────────────────────────────────────────────────────────────

  /** Known players: the most recently played first, then those who never played, by name. */
  async listPlayers(): Promise<PlayerRecord[]> {
    const players = await this.db.getAll('players');
    return players.sort(
      (a, b) => (b.lastPlayedAt ?? -1) - (a.lastPlayedAt ?? -1) || a.name.localeCompare(b.name),
    );
  }

  /**
   * A new player. Refused for a name another player has, and for a name another player was known
   * by (`aliases`: New game seats that player for it), unless `apart`: someone else who really is
   * called so (a new friend named Bbo, after Bbo was merged into Bob); the name then stops
   * finding the other player, in the same transaction.
   */
  async addPlayer(name: string, options: { apart?: boolean } = {}): Promise<PlayerRecord> {
    const trimmed = checkName(name, 'A player');
    const record: PlayerRecord = {
      id: this.newId(),
      name: trimmed,
      nameKey: nameKey(trimmed),
      createdAt: this.now(),
      lastPlayedAt: null,
    };
    return inTx(this.db, ['players'], 'readwrite', async (tx) => {
      const store = tx.objectStore('players');
      if (await store.index('by-name').getKey(record.nameKey)) {
        throw new StoreError('name-taken', `There is already a player called ${trimmed}.`);
      }
      const known = await knownAs(store, trimmed);
      if (known) {
        if (!options.apart) throw new StoreError('name-taken', `${known.alias} is a name ${known.player.name} was known by: ${known.player.name} plays when it is typed.`);
        await store.put(withoutAlias(known));
      }
      await store.add(record);
      return record;
    });
  }

  /**
   * Each known player with how many games they sat in (any status), in `listPlayers`' order: the
   * Players screen's rows. Every game header is read once (no index by player): 1,000 games are a
   * few tens of milliseconds, on a screen opened now and then.
   */
  async playerSummaries(): Promise<PlayerSummary[]> {
    const [players, games] = await Promise.all([this.listPlayers(), this.db.getAll('games')]);
    const counts = new Map<string, number>();
    for (const game of games) for (const p of game.players) counts.set(p.id, (counts.get(p.id) ?? 0) + 1);
    return players.map((player) => ({ player, games: counts.get(player.id) ?? 0 }));
  }

  /**
   * Renames a player: the name lists and balances show from now on, and the next game is played
   * under. Games already played keep the name they were played under (`GamePlayer.name`).
   */
  async renamePlayer(id: string, name: string): Promise<PlayerRecord> {
    const trimmed = checkName(name, 'A player');
    return inTx(this.db, ['players'], 'readwrite', async (tx) => {
      const store = tx.objectStore('players');
      const player = await store.get(id);
      if (!player) throw new StoreError('not-found', 'That player is not on this device.');
      const otherId = await store.index('by-name').getKey(nameKey(trimmed));
      const other = otherId === undefined || otherId === id ? undefined : await store.get(otherId);
      if (other) {
        // two records of one person are joined by a merge, never by sharing a name
        throw new StoreError('name-taken', `There is already a player called ${other.name}. If ${player.name} is ${other.name}, merge them instead: "Same person as…".`);
      }
      const known = await knownAs(store, trimmed);
      if (known && known.player.id !== id) {
        throw new StoreError(
          'name-taken',
          `${known.alias} is a name ${known.player.name} was known by. If ${player.name} is ${known.player.name}, merge them instead: "Same person as…"; if not, forget ${known.alias} on ${known.player.name} first.`,
        );
      }
      // the old name keeps finding them (a backup from a phone that still has it, a name typed from habit)
      const renamed = withAliases({ ...player, name: trimmed, nameKey: nameKey(trimmed) }, [...aliasesOf(player), player.name]);
      await store.put(renamed);
      return renamed;
    });
  }

  /**
   * Merges player `fromId` into `intoId` (two records of one person: "Bbo" typed one night, "Bob"
   * the next), in ONE transaction: every game that seats `from` seats `into` in that seat, its
   * result's winners and payouts follow, every ledger line's amount of `from` is added to
   * `into`'s, and `from`'s record goes. Sessions, actions, taught sets and settings hold no
   * player ids. Refused, writing nothing, when either player is unknown, they are one player, or
   * they sat in the same game (two people at one table; `describeGame` names that game).
   *
   * Each game keeps the name its seat was played under (`GamePlayer.name`): the log replays, reads
   * and exports as it was played, and a transcript exported before still matches it
   * (`findSameGame`); the screens that list players across games (Home's balances, History's
   * games, the game over's evening) show each id's name now. Each game's log revision moves on,
   * so a table or a log open in another tab, holding `from`'s id, has its next write refused as
   * stale and reloads (`refreshIfChanged` sees it too) rather than write a result for an id that
   * is gone. `updatedAt` is left alone: a merge is not a game played.
   */
  async mergePlayers(fromId: string, intoId: string, describeGame: (game: GameRecord) => string = gameOnDay): Promise<PlayerMerge> {
    return inTx(this.db, ['players', 'games', 'ledger'], 'readwrite', async (tx) => {
      const players = tx.objectStore('players');
      const [from, into] = await Promise.all([players.get(fromId), players.get(intoId)]);
      if (!from || !into) throw new StoreError('not-found', 'That player is not on this device.');
      if (from.id === into.id) throw new StoreError('invalid-input', `${from.name} is already that player: choose someone else to merge with.`);
      const gameStore = tx.objectStore('games');
      const seats = (game: GameRecord, id: string): boolean => game.players.some((p) => p.id === id);
      const fromGames = (await gameStore.getAll()).filter((g) => seats(g, from.id)).sort((a, b) => a.createdAt - b.createdAt);
      const together = fromGames.find((g) => seats(g, into.id));
      if (together) {
        throw new StoreError(
          'played-together',
          `${into.name} and ${from.name} played in the same game of ${describeGame(together)}: they are two people, so they cannot be merged.`,
        );
      }
      const ledger = tx.objectStore('ledger');
      const lines = (await ledger.getAll()).filter((line) => Object.hasOwn(line.deltas, from.id));
      await writeAll(fromGames, (game) => gameStore.put(gameMerged(game, from.id, into.id)));
      await writeAll(lines, (line) => ledger.put({ ...line, deltas: deltasMerged(line.deltas, from.id, into.id) }));
      // Bbo typed again, or brought by a backup from a phone that still has Bbo, finds Bob
      const kept = withAliases(
        {
          ...into,
          createdAt: Math.min(from.createdAt, into.createdAt),
          lastPlayedAt: from.lastPlayedAt === null ? into.lastPlayedAt : Math.max(from.lastPlayedAt, into.lastPlayedAt ?? 0),
        },
        [...aliasesOf(into), from.name, ...aliasesOf(from)],
      );
      await players.put(kept);
      await players.delete(from.id);
      return { player: kept, games: fromGames.length, ledgerLines: lines.length };
    });
  }

  /**
   * A name the player was known by, forgotten (it was someone else's all along): it no longer
   * finds them, and is free for a new player. Their games keep the names they were played under.
   */
  async forgetName(id: string, name: string): Promise<PlayerRecord> {
    return inTx(this.db, ['players'], 'readwrite', async (tx) => {
      const store = tx.objectStore('players');
      const player = await store.get(id);
      if (!player) throw new StoreError('not-found', 'That player is not on this device.');
      const alias = aliasesOf(player).find((a) => nameKey(a) === nameKey(name));
      if (alias === undefined) throw new StoreError('not-found', `${player.name} is not known by the name ${name.trim()}.`);
      const kept = withoutAlias({ player, alias });
      await store.put(kept);
      return kept;
    });
  }

  async deletePlayer(id: string): Promise<void> {
    await inTx(this.db, ['players'], 'readwrite', async (tx) => tx.objectStore('players').delete(id), 'delete');
  }

  // ── sessions and the ledger ────────────────────────────────────────────────────────────

  async startSession(name: string): Promise<SessionRecord> {
    const session: SessionRecord = { id: this.newId(), name: checkName(name, 'A session'), startedAt: this.now(), endedAt: null };
    await inTx(this.db, ['sessions'], 'readwrite', async (tx) => tx.objectStore('sessions').add(session));
    return session;
  }

  /**
   * Ends a session (the players settled up). A game still in play at its table has paid nothing
   * yet (its ledger line is written when it ends), so it is not part of what was settled: it goes
   * on in a new session named `nextName` (by default the ended one's name), whose balances its
   * result then opens.
   */
  async endSession(id: string, nextName?: string): Promise<SessionRecord> {
    return inTx(this.db, ['sessions', 'games'], 'readwrite', async (tx) => {
      const session = await tx.objectStore('sessions').get(id);
      if (!session) throw new StoreError('not-found', 'That session is not on this device.');
      if (session.endedAt !== null) return session;
      return (await this.closeSessionInTx(tx, session, this.now(), nextName ?? session.name, 'settled')).ended;
    });
  }

  /**
   * Ends `session` at `endedAt` (`endedBy`: settled up, or by the break), inside the caller's
   * transaction; its games still in play move to a new open session named `nextName` (returned as
   * `next`), created only when there are any.
   */
  private async closeSessionInTx(
    tx: Tx<['sessions', 'games'] | ['sessions', 'games', 'ledger'] | ['games', 'actions', 'players', 'sessions', 'ledger'], 'readwrite'>,
    session: SessionRecord,
    endedAt: number,
    nextName: string,
    endedBy: SessionEnding,
  ): Promise<{ ended: SessionRecord; next: SessionRecord | null }> {
    const sessions = tx.objectStore('sessions');
    const ended: SessionRecord = { ...session, endedAt, endedBy };
    await sessions.put(ended);
    const games = tx.objectStore('games');
    const inPlay = (await games.index('by-session').getAll(session.id)).filter((g) => g.status === 'active');
    if (inPlay.length === 0) return { ended, next: null };
    const now = this.now();
    const next: SessionRecord = { id: this.newId(), name: checkName(nextName, 'A session'), startedAt: now, endedAt: null };
    await sessions.add(next);
    // a game stamped ahead of now (a clock set wrong, then put right: `tableStillAt`) comes in as
    // of now, or the new evening would seem to be in that future too and end at its next game
    for (const game of inPlay) await games.put({ ...game, sessionId: next.id, updatedAt: Math.min(game.updatedAt, now) });
    return { ended, next };
  }

  /**
   * The session a new game joins: the open one while its table is still at it (a game or a ledger
   * line in it within `SAME_EVENING_MS`), else a new one named `name` (the old one ended), in one
   * transaction. Why: balances add up over an evening; a game a week later starts afresh, or
   * last week's debts would pile onto tonight's.
   */
  async sessionForNewGame(name: string): Promise<SessionRecord> {
    return inTx(this.db, ['sessions', 'games', 'ledger'], 'readwrite', async (tx) => this.sessionForNewGameInTx(tx, name));
  }

  /** `sessionForNewGame` inside the caller's transaction (an import of a game in play joins the evening too). */
  private async sessionForNewGameInTx(tx: Tx<['sessions', 'games', 'ledger'] | ['games', 'actions', 'players', 'sessions', 'ledger'], 'readwrite'>, name: string): Promise<SessionRecord> {
    const t = this.now();
    const sessions = tx.objectStore('sessions');
    const open = (await sessions.index('by-started').getAll()).reverse().find((s) => s.endedAt === null);
    if (open) {
      const games = await tx.objectStore('games').index('by-session').getAll(open.id);
      const lines = await tx.objectStore('ledger').index('by-session').getAll(open.id);
      const lastActivity = sessionLastActivity(open, games, lines);
      if (tableStillAt(lastActivity, t)) return open;
      // a game left in play goes on in the new evening, which the new game joins
      // nobody ended it: its balances were never settled up (`unsettledEvenings`)
      const { next } = await this.closeSessionInTx(tx, open, lastActivity, name, 'break');
      if (next) return next;
    }
    const session: SessionRecord = { id: this.newId(), name: checkName(name, 'A session'), startedAt: t, endedAt: null };
    await sessions.add(session);
    return session;
  }

  /**
   * A game played on after a break: its evening still open while its table is still at it (a game
   * or a ledger line of it within `SAME_EVENING_MS`), else that evening ends at its last activity,
   * as `sessionForNewGame` ends it, and its games still in play go on in a new one named `name`
   * (returned; null where nothing moved). Why: a move is activity too, and without this a game left
   * in play overnight, or forgotten for a week, would keep its old evening open when played on, and
   * every game started after it would pile onto that evening's debts. Not for a game over: a roll
   * of last night's game fixed this morning still counts in last night's evening.
   */
  async eveningForPlay(gameId: string, name: string): Promise<SessionRecord | null> {
    return inTx(this.db, ['sessions', 'games', 'ledger'], 'readwrite', async (tx) => {
      const game = await tx.objectStore('games').get(gameId);
      if (!game || game.status !== 'active' || game.sessionId === null) return null;
      const session = await tx.objectStore('sessions').get(game.sessionId);
      if (!session || session.endedAt !== null) return null;
      const games = await tx.objectStore('games').index('by-session').getAll(session.id);
      const lines = await tx.objectStore('ledger').index('by-session').getAll(session.id);
      const lastActivity = sessionLastActivity(session, games, lines);
      if (tableStillAt(lastActivity, this.now())) return null;
      return (await this.closeSessionInTx(tx, session, lastActivity, name, 'break')).next;
    });
  }

  /** Sessions, the latest first. */
  async listSessions(): Promise<SessionRecord[]> {
    return (await this.db.getAllFromIndex('sessions', 'by-started')).reverse();
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    return this.db.get('sessions', id);
  }

  /** The latest session still open, if any. */
  async currentSession(): Promise<SessionRecord | undefined> {
    return (await this.listSessions()).find((s) => s.endedAt === null);
  }

  /**
   * Up to `limit` evenings, the latest begun first, that come after `after` in that order (an
   * evening of the page before; from the latest without it), each with its games (the first
   * played first) and its balances, and whether more follow. An evening with neither a game nor a
   * ledger line (its only game deleted) is left out: there is nothing to say of it. Read with a
   * cursor over `by-started`, each evening's games and lines by their `by-session` indexes, so
   * History's evenings read a page, not two years (as `gamesPage` does for its games).
   */
  async eveningsPage(options: { limit: number; after?: Pick<SessionRecord, 'id' | 'startedAt'> }): Promise<{ evenings: Evening[]; more: boolean }> {
    const { limit, after } = options;
    return inTx(this.db, ['sessions', 'games', 'ledger'], 'readonly', async (tx) => {
      const evenings: Evening[] = [];
      const games = tx.objectStore('games').index('by-session');
      const ledger = tx.objectStore('ledger').index('by-session');
      let cursor = await tx.objectStore('sessions').index('by-started').openCursor(IDBKeyRange.upperBound(after?.startedAt ?? Infinity), 'prev');
      // Evenings begun at the same millisecond come by id, descending: those up to `after` were on the page before.
      while (cursor && after && cursor.value.startedAt === after.startedAt && cursor.primaryKey >= after.id) cursor = await cursor.continue();
      // one evening past the page is read too, so that `more` never offers a page of none
      let more = false;
      while (cursor) {
        const session = cursor.value;
        const [played, lines] = await Promise.all([games.getAll(session.id), ledger.getAll(session.id)]);
        if (played.length > 0 || lines.length > 0) {
          if (evenings.length === limit) {
            more = true;
            break;
          }
          evenings.push({ session, games: played.sort((a, b) => a.updatedAt - b.updatedAt), balances: balancesOf(lines) });
        }
        cursor = await cursor.continue();
      }
      return { evenings, more };
    });
  }

  /**
   * Every evening History lists (`eveningsPage`: one with a game or a ledger line), all of them,
   * not a page: how many, and what each player won or lost in their games over them all, by
   * player id. Only the games' lines count: an evening's balances carried on into a later one
   * (`carryEvening`) are one more line there, the same money, and would count twice. Read in one
   * transaction, the games' sessions by their index's keys alone (each once), so a page of
   * History's evenings can say the total of them all without reading every evening's games.
   */
  async eveningsTotal(): Promise<{ evenings: number; won: Record<string, number> }> {
    return inTx(this.db, ['sessions', 'games', 'ledger'], 'readonly', async (tx) => {
      const [sessionIds, lines] = await Promise.all([tx.objectStore('sessions').getAllKeys(), tx.objectStore('ledger').getAll()]);
      const ids = new Set<string>(sessionIds);
      const counted = new Set<string>();
      let cursor = await tx.objectStore('games').index('by-session').openKeyCursor(null, 'nextunique');
      while (cursor) {
        if (ids.has(cursor.key)) counted.add(cursor.key);
        cursor = await cursor.continue();
      }
      const inEvenings = lines.filter((line) => line.sessionId !== null && ids.has(line.sessionId));
      for (const line of inEvenings) counted.add(line.sessionId!);
      return { evenings: counted.size, won: balancesOf(inEvenings.filter((line) => line.gameId !== null)) };
    });
  }

  /**
   * Evenings nobody ended whose balances were never settled (ended by the break, `endedBy`
   * 'break', with someone still owed), the latest first, each with its balances. Why: an evening
   * ended by the next game, a week later, took its debts off Home without a word; Home says them
   * until the players say they settled up (`settleEvening`) or carry them on (`carryEvening`).
   */
  async unsettledEvenings(): Promise<{ session: SessionRecord; balances: Record<string, number> }[]> {
    const out = [];
    for (const session of await this.listSessions()) {
      if (session.endedAt === null || session.endedBy !== 'break') continue;
      const balances = await this.sessionBalances(session.id);
      if (Object.values(balances).some((a) => a !== 0)) out.push({ session, balances });
    }
    return out;
  }

  /**
   * An ended evening's balances settled up after all (the players paid up since, or say they did):
   * Home stops saying them. Its result stands as it did; an open evening is ended with `endSession`.
   */
  async settleEvening(id: string): Promise<SessionRecord> {
    return inTx(this.db, ['sessions'], 'readwrite', async (tx) => {
      const session = await tx.objectStore('sessions').get(id);
      if (!session) throw new StoreError('not-found', 'That evening is not on this device.');
      if (session.endedAt === null) throw new StoreError('invalid-input', 'That evening has not ended: End the evening settles it up.');
      if (session.endedBy === 'settled' || session.endedBy === 'carried') return session;
      const settled: SessionRecord = { ...session, endedBy: 'settled' };
      await tx.objectStore('sessions').put(settled);
      return settled;
    });
  }

  /**
   * An ended evening's balances, never settled, carried on into tonight's (the evening a new game
   * would join now, `sessionForNewGame`, named `name` when it is new), in one transaction: tonight
   * gets one ledger line of them ("Carried on from …"), and the old evening is marked carried into
   * it (`carriedInto`), its games and balances kept as they were played. Returns tonight's evening. Carried once: a second
   * call (a double tap, another tab) carries nothing more, and returns the open evening unchanged. A game of
   * it deleted later changes that line to its balances after the delete (`deleteGame`, `carriedChanges`).
   */
  async carryEvening(id: string, name: string): Promise<SessionRecord> {
    return inTx(this.db, ['sessions', 'games', 'ledger'], 'readwrite', async (tx) => {
      const session = await tx.objectStore('sessions').get(id);
      if (!session) throw new StoreError('not-found', 'That evening is not on this device.');
      if (session.endedAt === null) throw new StoreError('invalid-input', 'That evening has not ended: its balances are still tonight’s.');
      const tonight = await this.sessionForNewGameInTx(tx, name);
      if (session.endedBy === 'settled' || session.endedBy === 'carried') return tonight;
      const owed = owedOf(balancesOf(await tx.objectStore('ledger').index('by-session').getAll(session.id)));
      if (Object.keys(owed).length > 0) {
        await tx.objectStore('ledger').add({ id: this.newId(), sessionId: tonight.id, gameId: null, at: this.now(), deltas: owed, note: carriedNote(session.name) });
      }
      await tx.objectStore('sessions').put({ ...session, endedBy: 'carried', carriedInto: tonight.id });
      return tonight;
    });
  }

  /** A settle-up or correction between players, outside any game. */
  async addLedgerEntry(entry: { sessionId: string | null; deltas: Record<string, number>; note: string }): Promise<LedgerEntry> {
    for (const amount of Object.values(entry.deltas)) {
      if (!Number.isFinite(amount)) throw new StoreError('invalid-input', 'A ledger amount is not a number.');
    }
    const line: LedgerEntry = { id: this.newId(), sessionId: entry.sessionId, gameId: null, at: this.now(), deltas: { ...entry.deltas }, note: entry.note };
    await inTx(this.db, ['ledger'], 'readwrite', async (tx) => tx.objectStore('ledger').add(line));
    return line;
  }

  async ledgerForSession(sessionId: string): Promise<LedgerEntry[]> {
    return (await this.db.getAllFromIndex('ledger', 'by-session', sessionId)).sort((a, b) => a.at - b.at);
  }

  /** Each player's running balance over a session's games and settle-ups. */
  async sessionBalances(sessionId: string): Promise<Record<string, number>> {
    return balancesOf(await this.ledgerForSession(sessionId));
  }

  // ── taught sets and faces ──────────────────────────────────────────────────────────────

  /**
   * A new taught set: the player's dice of the built-in kit `kitId`, or, with `own`, of a kit of
   * their own (checked with `parseKit`; its id may not be a built-in kit's).
   */
  async createTaughtSet(kitId: string, name: string, own?: { kit: DiceKit; art?: Record<string, string> }): Promise<TaughtSetRecord> {
    const t = this.now();
    const set: TaughtSetRecord = { id: this.newId(), ...checkSetKit(kitId, own), name: checkName(name, 'A dice set'), createdAt: t, updatedAt: t };
    await inTx(this.db, ['taughtSets'], 'readwrite', async (tx) => {
      await checkSetNameFree(tx.objectStore('taughtSets'), set.name, null);
      await tx.objectStore('taughtSets').add(set);
    });
    return set;
  }

  async getTaughtSet(id: string): Promise<TaughtSetRecord | undefined> {
    return this.db.get('taughtSets', id);
  }

  /** Taught sets, most recently changed first; with `kitId`, only the sets of that kit. */
  async listTaughtSets(kitId?: string): Promise<TaughtSetRecord[]> {
    const sets = kitId ? await this.db.getAllFromIndex('taughtSets', 'by-kit', kitId) : await this.db.getAll('taughtSets');
    return sets.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async renameTaughtSet(id: string, name: string): Promise<TaughtSetRecord> {
    const trimmed = checkName(name, 'A dice set');
    return inTx(this.db, ['taughtSets'], 'readwrite', async (tx) => {
      const set = await tx.objectStore('taughtSets').get(id);
      if (!set) throw new StoreError('not-found', 'That dice set is not on this device.');
      await checkSetNameFree(tx.objectStore('taughtSets'), trimmed, id);
      const renamed = { ...set, name: trimmed, updatedAt: this.now() };
      await tx.objectStore('taughtSets').put(renamed);
      return renamed;
    });
  }

  /** Deletes a taught set with all its taught faces. */
  async deleteTaughtSet(id: string): Promise<void> {
    await inTx(this.db, ['taughtSets', 'taughtFaces'], 'readwrite', async (tx) => {
      await tx.objectStore('taughtSets').delete(id);
      const faces = tx.objectStore('taughtFaces');
      for (const key of await faces.index('by-set').getAllKeys(id)) await faces.delete(key);
    }, 'delete');
  }

  /**
   * Adds one taught example: the picture, optionally its embedding (and the model that made it)
   * and where the die lies in the picture. The face must be one of the set's kit.
   */
  async addTaughtFace(
    setId: string,
    faceId: string,
    image: Blob,
    embedding: { vector: ArrayLike<number>; model: string } | null = null,
    box: ImageBox | null = null,
  ): Promise<TaughtFaceRecord> {
    const face: TaughtFaceRecord = { id: this.newId(), setId, ...checkTaughtFace(faceId, image, embedding, box), createdAt: this.now() };
    await inTx(this.db, ['taughtSets', 'taughtFaces'], 'readwrite', async (tx) => {
      const set = await tx.objectStore('taughtSets').get(setId);
      if (!set) throw new StoreError('not-found', 'That dice set is not on this device.');
      checkFaceOfSet(set, faceId);
      await tx.objectStore('taughtFaces').add(face);
      await tx.objectStore('taughtSets').put({ ...set, updatedAt: face.createdAt });
    });
    return face;
  }

  /**
   * A whole taught set at once (an imported kit file): the set and every example in ONE
   * transaction, so a failure leaves nothing behind.
   */
  async importTaughtSet(
    input: { kitId: string; name: string; own?: { kit: DiceKit; art?: Record<string, string> } },
    faces: ReadonlyArray<{ faceId: string; image: Blob; embedding: { vector: ArrayLike<number>; model: string } | null; box: ImageBox | null }>,
  ): Promise<TaughtSetRecord> {
    const t = this.now();
    const set: TaughtSetRecord = { id: this.newId(), ...checkSetKit(input.kitId, input.own), name: checkName(input.name, 'A dice set'), createdAt: t, updatedAt: t };
    const records = faces.map((f): TaughtFaceRecord => {
      checkFaceOfSet(set, f.faceId);
      return { id: this.newId(), setId: set.id, ...checkTaughtFace(f.faceId, f.image, f.embedding, f.box), createdAt: t };
    });
    await inTx(this.db, ['taughtSets', 'taughtFaces'], 'readwrite', async (tx) => {
      // a file imported where a set has its name (the same file twice, two players' "Our dice"): numbered
      set.name = unusedName(set.name, (await tx.objectStore('taughtSets').getAll()).map((s) => s.name));
      await tx.objectStore('taughtSets').add(set);
      const faces = tx.objectStore('taughtFaces');
      await writeAll(records, (record) => faces.add(record));
    });
    return set;
  }

  async listTaughtFaces(setId: string): Promise<TaughtFaceRecord[]> {
    return (await this.db.getAllFromIndex('taughtFaces', 'by-set', setId)).sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Stores a face's embedding (computed later, or recomputed for a new model), and where its die lies when found again. */
  async setFaceEmbedding(id: string, vector: ArrayLike<number>, model: string, box?: ImageBox): Promise<void> {
    const embedding = checkEmbedding({ vector, model });
    const where = box === undefined ? undefined : checkBox(box);
    await inTx(this.db, ['taughtFaces'], 'readwrite', async (tx) => {
      const face = await tx.objectStore('taughtFaces').get(id);
      if (!face) throw new StoreError('not-found', 'That taught face is not on this device.');
      await tx.objectStore('taughtFaces').put({ ...face, ...embedding, ...(where ? { box: where } : {}) });
    });
  }

  async deleteTaughtFace(id: string): Promise<void> {
    await inTx(this.db, ['taughtFaces'], 'readwrite', async (tx) => tx.objectStore('taughtFaces').delete(id), 'delete');
  }

  // ── settings ───────────────────────────────────────────────────────────────────────────

  async getSettings(): Promise<Settings> {
    const stored = await this.db.get('settings', SETTINGS_KEY);
    return { ...DEFAULT_SETTINGS, ...stored };
  }

  async updateSettings(patch: Partial<Settings>): Promise<Settings> {
    if (patch.settleMs !== undefined && !(Number.isFinite(patch.settleMs) && patch.settleMs >= 100 && patch.settleMs <= 5000)) {
      throw new StoreError('invalid-input', 'Settle time must be between 0.1 and 5 seconds.');
    }
    return inTx(this.db, ['settings'], 'readwrite', async (tx) => {
      const store = tx.objectStore('settings');
      const next: Settings = { ...DEFAULT_SETTINGS, ...(await store.get(SETTINGS_KEY)), ...patch };
      await store.put(next, SETTINGS_KEY);
      return next;
    });
  }
}
