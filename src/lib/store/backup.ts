/**
 * Full backups: every game with its log, players, sessions, the ledger, taught dice sets with
 * their pictures (as data URLs) and settings, in one JSON file.
 *
 * Import validates the whole file (shape, references between records, every picture) before it
 * writes anything, then writes it all in ONE transaction: a corrupt or foreign file is refused
 * with a clear `BackupError` and the device keeps exactly what it had.
 */
import * as v from 'valibot';
import { BackupError, StoreError } from './errors.ts';
import { jsonProblem } from './json.ts';
import { aliasesOf, playerNamed, withAliases } from './players.ts';
import { actionRange, findSameGame, inTx, kitOfTaughtSet, resultOfGame, sessionLastActivity, unusedName, writeAll, type RollcallStore } from './store.ts';
import { ALL_STORES } from './schema.ts';
import { BUILT_IN_KITS } from '../dice/index.ts';
import { isObjectsOwnName, KitError, parseKit } from '../dice/validate.ts';
import { DEFAULT_SETTINGS, type GameRecord, type JsonObject, type Settings, type TaughtFaceRecord } from './types.ts';
import { blobToDataUrl, dataUrlBytes, imageDataUrl, looksLikePicture } from '../dice/data-url.ts';
import { MAX_NAME_LENGTH, nameKey, nameLength } from '../dice/names.ts';
import { gameById, MAX_LOG_ACTIONS, matchResult, replay, ReplayError, SetupError, type Action, type MatchState } from '../rules/index.ts';

export const BACKUP_FORMAT = 'rollcall-backup';
/**
 * 2: taught sets carry an own kit and its art, taught faces where the die lies (both optional, so
 * version 1 files still import). 3: players carry the names they were known by (`aliases`,
 * optional: older files import as players known by no other name); a Rollcall of version 2 would
 * drop them unsaid, so it is told the file is newer. Sessions' `endedBy` and `carriedInto` came
 * without a new version (optional; a version 3 Rollcall drops them and says less of the evening).
 */
const BACKUP_VERSION = 3;

// ── the file's schema ────────────────────────────────────────────────────────────────────

// an id is a key of records (balances, payouts): never one a plain object treats specially
const id = v.pipe(
  v.string(),
  v.minLength(1, 'must not be empty'),
  v.check((x) => !isObjectsOwnName(x), 'must not be a name JavaScript objects keep for themselves'),
);
// Every check says its own words: valibot's would reach the player as "Invalid value: Expected >=0 but received -1".
const FINITE = 'must be a number';
const NOT_NEGATIVE = 'must be 0 or more';
const time = v.pipe(v.number(), v.finite(FINITE), v.minValue(0, NOT_NEGATIVE));
const amount = v.pipe(v.number(), v.finite(FINITE));
const count = v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0, NOT_NEGATIVE));
const name = v.pipe(
  v.string(),
  v.trim(),
  v.check((s) => nameKey(s) !== '', 'must not be empty'),
  v.check((s) => nameLength(s) <= MAX_NAME_LENGTH, `is longer than ${MAX_NAME_LENGTH} characters`),
);
// The whole file was found plain JSON first (`jsonProblem`, in parseBackup), so these check shape only.
const jsonObject = v.custom<JsonObject>(
  (x) => typeof x === 'object' && x !== null && !Array.isArray(x),
  'must be a plain JSON object',
);
const action = v.custom<{ type: string }>(
  (x) =>
    typeof x === 'object' && x !== null && !Array.isArray(x) && typeof (x as { type?: unknown }).type === 'string' &&
    (x as { type: string }).type.length > 0,
  'must be a JSON object with a `type`',
);
/** An own kit, checked by the kits' own validator (its messages name the field). */
const ownKit = v.pipe(
  v.unknown(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    try {
      return parseKit(dataset.value, 'kit');
    } catch (err) {
      // after the field's path: "taughtSets.0.kit is not a kit Rollcall reads: "id" must be …"
      addIssue({ message: err instanceof KitError ? err.message.replace(/^kit: /, 'is not a kit Rollcall reads: ') : String(err) });
      return NEVER;
    }
  }),
);
/** Checked and normalised as the store keeps pictures (`imageDataUrl`), so what it holds a backup takes. */
const pictureUrl = v.pipe(
  v.string(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const url = imageDataUrl(dataset.value);
    if (url === null) {
      addIssue({ message: 'must be an image as a base64 data URL' });
      return NEVER;
    }
    return url;
  }),
);

const gameSchema = v.object({
  id,
  game: id,
  players: v.pipe(v.array(v.object({ id, name })), v.minLength(1, 'must list at least one player')),
  options: jsonObject,
  ante: v.pipe(v.number(), v.finite(FINITE), v.minValue(0, NOT_NEGATIVE)),
  dice: v.object({ kitId: id, taughtSetId: v.nullable(id) }),
  sessionId: v.nullable(id),
  createdAt: time,
  updatedAt: time,
  finishedAt: v.nullable(time),
  status: v.picklist(['active', 'finished', 'abandoned']),
  actionCount: count,
  logRevision: v.optional(count),
  result: v.nullable(v.object({ winners: v.array(id), payouts: v.record(v.string(), amount) })),
  actions: v.pipe(v.array(v.object({ action, at: time })), v.maxLength(MAX_LOG_ACTIONS, `holds more actions than a game's log may (${MAX_LOG_ACTIONS})`)),
});

const backupSchema = v.object({
  format: v.literal(BACKUP_FORMAT),
  version: v.picklist([1, 2, BACKUP_VERSION]),
  exportedAt: v.string(),
  games: v.array(gameSchema),
  players: v.array(v.object({ id, name, aliases: v.optional(v.array(name)), createdAt: time, lastPlayedAt: v.nullable(time) })),
  sessions: v.array(
    v.object({ id, name, startedAt: time, endedAt: v.nullable(time), endedBy: v.optional(v.picklist(['settled', 'break', 'carried'])), carriedInto: v.optional(id) }),
  ),
  ledger: v.array(
    v.object({ id, sessionId: v.nullable(id), gameId: v.nullable(id), at: time, deltas: v.record(v.string(), amount), note: v.string() }),
  ),
  taughtSets: v.array(
    v.object({
      id,
      kitId: id,
      name,
      createdAt: time,
      updatedAt: time,
      kit: v.optional(v.nullable(ownKit), null),
      art: v.optional(v.record(v.string(), pictureUrl), {}),
    }),
  ),
  taughtFaces: v.array(
    v.object({
      id,
      setId: id,
      faceId: id,
      image: pictureUrl,
      box: v.optional(v.nullable(v.object({ x: amount, y: amount, w: v.pipe(amount, v.minValue(0, NOT_NEGATIVE)), h: v.pipe(amount, v.minValue(0, NOT_NEGATIVE)) })), null),
      embedding: v.nullable(v.array(amount)),
      embeddingModel: v.nullable(v.string()),
      createdAt: time,
    }),
  ),
  settings: v.object({
    theme: v.picklist(['system', 'light', 'dark']),
    speech: v.boolean(),
    settleMs: v.pipe(v.number(), v.minValue(100, 'must be 100 to 5000'), v.maxValue(5000, 'must be 100 to 5000')),
    cameraId: v.nullable(v.string()),
    persistAsked: v.boolean(),
  }),
});

export type BackupFile = v.InferOutput<typeof backupSchema>;

/** A validated backup, pictures decoded, ready to write. */
export interface ParsedBackup {
  file: BackupFile;
  images: Map<string, Blob>;
}

export type ImportMode = 'merge' | 'replace';

/**
 * How many of the backup's games an import has checked (each log replayed under the rules), then
 * written, so far, for a screen to show: a two-year history (1,000 games, 220,000 actions) takes
 * seconds to check and more to write, most of it the games' logs.
 */
export interface ImportProgress {
  stage: 'checking' | 'writing';
  games: number;
  of: number;
}

export interface ImportSummary {
  mode: ImportMode;
  games: { added: number; skipped: number };
  players: { added: number; skipped: number };
  taughtSets: { added: number; skipped: number };
}

// ── export ───────────────────────────────────────────────────────────────────────────────

/**
 * Everything on the device, read in one transaction so the backup is a consistent snapshot. Each
 * game's log is its own request: read at once, a big history's 200,000 actions came back in one
 * task that held the page for seconds on a slow phone (`npm run bench -- --only big-history`).
 */
export async function exportBackup(store: RollcallStore, now: Date = new Date()): Promise<BackupFile> {
  const tx = store.db.transaction([...ALL_STORES], 'readonly');
  const [games, players, sessions, ledger, taughtSets, taughtFaces, settings] = await Promise.all([
    tx.objectStore('games').getAll(),
    tx.objectStore('players').getAll(),
    tx.objectStore('sessions').getAll(),
    tx.objectStore('ledger').getAll(),
    tx.objectStore('taughtSets').getAll(),
    tx.objectStore('taughtFaces').getAll(),
    tx.objectStore('settings').get('settings'),
  ]);
  const logs = await Promise.all(games.map((g) => tx.objectStore('actions').getAll(actionRange(g.id))));
  await tx.done;
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    exportedAt: now.toISOString(),
    games: games.map((g, i) => ({ ...g, actions: logs[i]!.map((r) => ({ action: r.action, at: r.at })) })),
    players: players.map(({ id: playerId, name: playerName, aliases, createdAt, lastPlayedAt }) => ({
      id: playerId,
      name: playerName,
      ...(aliases && aliases.length > 0 ? { aliases: [...aliases] } : {}),
      createdAt,
      lastPlayedAt,
    })),
    sessions,
    ledger,
    taughtSets,
    taughtFaces: await Promise.all(taughtFaces.map(async (f) => ({ ...f, image: await blobToDataUrl(f.image, 'image/png') }))),
    settings: { ...DEFAULT_SETTINGS, ...settings },
  };
}

/** How long a backup's save or check holds the page at most before it lets the page draw and answer taps (ms). */
const SLICE_MS = 50;

/** Work done in slices of SLICE_MS: `spent()` once a slice is used up, `pause()` gives the page its turn and starts the next. */
function pageSlices(): { spent(): boolean; pause(): Promise<void> } {
  let start = performance.now();
  return {
    spent: () => performance.now() - start >= SLICE_MS,
    async pause() {
      await new Promise((resolve) => setTimeout(resolve, 0));
      start = performance.now();
    },
  };
}

/**
 * The backup file, as `JSON.stringify` writes it, a game at a time: a big history is 13 MB of
 * text, which in one piece held the page for a second on a slow phone and was then copied into
 * the Blob whole. The Blob is made of the games' parts.
 */
export async function exportBackupBlob(store: RollcallStore, now: Date = new Date()): Promise<Blob> {
  const file = await exportBackup(store, now);
  // the file without its games, split where they go: `games` is the fourth key, after the format,
  // version and date, none of which can hold this text
  const bare = JSON.stringify({ ...file, games: [] });
  const at = bare.indexOf('"games":[]') + '"games":['.length;
  const parts: string[] = [bare.slice(0, at)];
  const slices = pageSlices();
  for (const [i, game] of file.games.entries()) {
    parts.push(i === 0 ? JSON.stringify(game) : `,${JSON.stringify(game)}`);
    if (slices.spent()) await slices.pause();
  }
  parts.push(bare.slice(at));
  return new Blob(parts, { type: 'application/json' });
}

export async function exportBackupJson(store: RollcallStore, now: Date = new Date()): Promise<string> {
  return (await exportBackupBlob(store, now)).text();
}


// ── parse and validate ───────────────────────────────────────────────────────────────────

function corrupt(detail: string): BackupError {
  return new BackupError('corrupt', `This backup is damaged and was not imported: ${detail}. Nothing was changed.`);
}

/** What a field is, in words, for a refusal: valibot's own name it as "Object", "(1 | 2)". */
const KINDS: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'a list',
};

/**
 * A schema's complaint in the plain words of the app's other refusals. Valibot's own read
 * "Invalid key: Expected "name" but received undefined": a missing field, a field of the wrong
 * type, a value not among those allowed. The checks of this file's schema carry their own words.
 */
function plainIssue(issue: v.BaseIssue<unknown>): string {
  if (issue.kind !== 'schema' || issue.type === 'custom') return issue.message;
  if (issue.input === undefined) return 'is missing';
  if (issue.type === 'picklist' || issue.type === 'literal') {
    // `expected` lists the values allowed as `("a" | "b")` or `"a"`
    const allowed = (issue.expected ?? '').replace(/^\(|\)$/g, '').split(' | ');
    return allowed.length === 1 ? `must be ${allowed[0]}` : `must be ${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}`;
  }
  return `must be ${KINDS[issue.type] ?? 'of another kind'}`;
}

function duplicates(ids: string[]): string | undefined {
  const seen = new Set<string>();
  for (const x of ids) {
    if (seen.has(x)) return x;
    seen.add(x);
  }
  return undefined;
}

/**
 * Reads a backup file's text and checks all of it: JSON, format, version, every field, the
 * references between records, and every picture. Throws a `BackupError` on the first problem.
 */
export function parseBackup(text: string): ParsedBackup {
  const steps = checkBackup(text);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `parseBackup` a slice at a time, so that a big history does not hold the page: on a slow phone
 * its check takes many seconds (it replays every game's log), during which the screen would not
 * draw its progress nor answer a tap. Says after each slice how many games are checked.
 */
export async function parseBackupInSteps(text: string, onProgress: (progress: ImportProgress) => void = () => undefined): Promise<ParsedBackup> {
  const steps = checkBackup(text);
  const slices = pageSlices();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (slices.spent()) {
      onProgress(step.value);
      await slices.pause();
    }
  }
}

/** parseBackup's check, a step at a time: yields after each stage of the whole file and after each game's log is replayed. */
function* checkBackup(text: string): Generator<ImportProgress, ParsedBackup, void> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new BackupError('not-json', 'This file is not a Rollcall backup (it is not JSON). Nothing was changed.');
  }
  if (typeof data !== 'object' || data === null || (data as { format?: unknown }).format !== BACKUP_FORMAT) {
    throw new BackupError('foreign', 'This file is not a Rollcall backup. Nothing was changed.');
  }
  const version = (data as { version?: unknown }).version;
  if (typeof version === 'number' && version > BACKUP_VERSION) {
    throw new BackupError('too-new', 'This backup was made by a newer version of Rollcall. Update the app, then import it. Nothing was changed.');
  }
  const games = Array.isArray((data as { games?: unknown }).games) ? (data as { games: unknown[] }).games.length : 0;
  yield { stage: 'checking', games: 0, of: games };
  // Plain JSON throughout, nested as Rollcall nests it, and none of the keys a plain object treats
  // specially (valibot's records would drop "__proto__", "constructor" and "prototype" unsaid).
  const notJson = jsonProblem(data);
  if (notJson) throw corrupt(notJson);
  yield { stage: 'checking', games: 0, of: games };
  // The first problem is enough to refuse the file: a large damaged one would otherwise list
  // every bad field of every game, which can take a phone's tab down.
  const parsed = v.safeParse(backupSchema, data, { abortEarly: true });
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = v.getDotPath(issue) ?? 'the file';
    throw corrupt(`${where} ${plainIssue(issue)}`);
  }
  const file = parsed.output;
  yield { stage: 'checking', games: 0, of: file.games.length };

  for (const [what, ids] of [
    ['game', file.games.map((g) => g.id)],
    ['player', file.players.map((p) => p.id)],
    ['session', file.sessions.map((s) => s.id)],
    ['ledger line', file.ledger.map((l) => l.id)],
    ['dice set', file.taughtSets.map((s) => s.id)],
    ['taught face', file.taughtFaces.map((f) => f.id)],
  ] as const) {
    const twice = duplicates([...ids]);
    if (twice !== undefined) throw corrupt(`the ${what} "${twice}" appears twice`);
  }
  const gameIds = new Set(file.games.map((g) => g.id));
  const sessionIds = new Set(file.sessions.map((s) => s.id));
  const setIds = new Set(file.taughtSets.map((s) => s.id));
  const setsById = new Map(file.taughtSets.map((s) => [s.id, s]));
  for (const [i, g] of file.games.entries()) {
    if (i > 0) yield { stage: 'checking', games: i, of: file.games.length };
    if (g.actions.length !== g.actionCount) {
      throw corrupt(`game "${g.id}" should have ${g.actionCount} actions but has ${g.actions.length}`);
    }
    if (g.sessionId !== null && !sessionIds.has(g.sessionId)) throw corrupt(`game "${g.id}" belongs to a missing session`);
    if ((g.status === 'active') !== (g.finishedAt === null)) throw corrupt(`game "${g.id}" has a finish time that does not match its status`);
    const playerIds = new Set(g.players.map((p) => p.id));
    if (playerIds.size !== g.players.length) throw corrupt(`game "${g.id}" lists a player twice`);
    const state = checkLogReplays(g);
    checkGameDice(g, setsById);
    if (g.result) {
      for (const w of [...g.result.winners, ...Object.keys(g.result.payouts)]) {
        if (!playerIds.has(w)) throw corrupt(`game "${g.id}" has a result for someone not in it`);
      }
    }
    checkResultMatchesLog(g, state);
  }
  for (const s of file.sessions) {
    if (s.carriedInto === undefined) continue;
    // a backup holds every evening and none is ever deleted: the evening it went into is in the file
    if (s.endedBy !== 'carried') throw corrupt(`session "${s.id}" names an evening it was carried into but was not carried on`);
    if (s.carriedInto === s.id || !sessionIds.has(s.carriedInto)) throw corrupt(`session "${s.id}" was carried into a missing session`);
  }
  for (const l of file.ledger) {
    if (l.gameId !== null && !gameIds.has(l.gameId)) throw corrupt(`ledger line "${l.id}" belongs to a missing game`);
    if (l.sessionId !== null && !sessionIds.has(l.sessionId)) throw corrupt(`ledger line "${l.id}" belongs to a missing session`);
  }
  checkGameLedgerLines(file);
  for (const s of file.taughtSets) {
    if (s.kit === null && !BUILT_IN_KITS[s.kitId]) throw corrupt(`dice set "${s.id}" is of an unknown kit "${s.kitId}"`);
    if (s.kit !== null && (s.kit.id !== s.kitId || BUILT_IN_KITS[s.kitId])) throw corrupt(`dice set "${s.id}" has a kit that does not match its kit id`);
    const faces = kitOfTaughtSet(s)!.faces;
    for (const faceId of Object.keys(s.art)) {
      if (!faces.some((f) => f.id === faceId)) throw corrupt(`dice set "${s.id}" has art for a face its kit does not have`);
    }
  }
  const images = new Map<string, Blob>();
  for (const f of file.taughtFaces) {
    if (!setIds.has(f.setId)) throw corrupt(`taught face "${f.id}" belongs to a missing dice set`);
    const set = setsById.get(f.setId)!;
    if (!kitOfTaughtSet(set)!.faces.some((face) => face.id === f.faceId)) throw corrupt(`taught face "${f.id}" is of a face its dice set does not have`);
    const picture = dataUrlBytes(f.image);
    if (!picture || !looksLikePicture(picture.bytes)) throw corrupt(`the picture of taught face "${f.id}" cannot be read`);
    images.set(f.id, new Blob([picture.bytes], { type: picture.type }));
  }
  return { file, images };
}

/**
 * A game's log must replay under the rules from its first action to its last: the slate is
 * that replay (DESIGN.md), so a log that stops making sense would import a game the table can
 * show only up to the break and refuse to play on. Refused here, naming the game and the action.
 */
function checkLogReplays(g: BackupFile['games'][number]): MatchState {
  const plain = (message: string): string => message.replace(/[.!]+$/, '');
  try {
    // a game played already: the names it was played under stand (createMatch's namesAsPlayed)
    return replay({ game: g.game, players: g.players.map((p) => p.name), options: g.options, actions: g.actions.map((entry) => entry.action as Action) }, { namesAsPlayed: true });
  } catch (err) {
    if (err instanceof SetupError) throw corrupt(`game "${g.id}" cannot be set up (${plain(err.message)})`);
    if (err instanceof ReplayError) throw corrupt(`the log of game "${g.id}" stops making sense at action ${err.index + 1} of ${g.actions.length} (${plain(err.ruleError.message)})`);
    throw err;
  }
}

/**
 * A game is read with the dice its rules are played with, or a taught set of them (a set since
 * deleted is no longer in the file, and the game's own dice are read instead): a war game read
 * as Face Off's symbols would offer dice the rules refuse at every roll.
 */
function checkGameDice(g: BackupFile['games'][number], setsById: ReadonlyMap<string, BackupFile['taughtSets'][number]>): void {
  const kitId = gameById(g.game).kit;
  if (g.dice.kitId !== kitId) throw corrupt(`game "${g.id}" is read with the dice kit "${g.dice.kitId}", but its game is played with "${kitId}"`);
  const set = g.dice.taughtSetId === null ? undefined : setsById.get(g.dice.taughtSetId);
  if (set && set.kitId !== kitId) throw corrupt(`game "${g.id}" is read with the dice set "${set.id}", which is of another kit`);
}

/** A seat's gain or loss as a record keeps it: a game without an ante keeps none (read as 0). */
const payoutOf = (payouts: Record<string, number>, playerId: string): number => payouts[playerId] ?? 0;

/**
 * A game's status and result must be what its log says (the result is written from the replay
 * when the log ends the game): a file whose game is "finished" with winners its log does not
 * make, or with a result while still open, would show one winner on Home and another at the
 * table, and pay the wrong player. A game still "active" whose log has ended is what a closed tab
 * leaves behind; opening it writes its result, as on the device it came from.
 */
function checkResultMatchesLog(g: BackupFile['games'][number], state: MatchState): void {
  if (g.status !== 'finished') {
    if (g.result !== null) throw corrupt(`game "${g.id}" has a result but is not finished`);
    return;
  }
  const byLog = matchResult(state);
  if (!byLog || !g.result) throw corrupt(`game "${g.id}" is marked finished, but its log does not end it`);
  const logs = resultOfGame(g.players, g.ante, byLog);
  const namesOf = (ids: readonly string[]): string => ids.map((id) => g.players.find((p) => p.id === id)?.name ?? id).join(', ');
  if ([...logs.winners].sort().join() !== [...g.result.winners].sort().join()) {
    throw corrupt(`game "${g.id}" names ${namesOf(g.result.winners) || 'nobody'} as its winner, but its log makes it ${namesOf(logs.winners)}`);
  }
  for (const p of g.players) {
    if (payoutOf(g.result.payouts, p.id) !== payoutOf(logs.payouts, p.id)) {
      throw corrupt(`game "${g.id}" pays ${p.name} ${payoutOf(g.result.payouts, p.id)}, but its log pays ${payoutOf(logs.payouts, p.id)}`);
    }
  }
}

/**
 * A finished game with an ante has one ledger line, its payouts, in the game's session, and no
 * other game has any (the store writes the line with the result and removes it when the end is
 * undone): a file that breaks this would show balances that disagree with its games.
 */
function checkGameLedgerLines(file: BackupFile): void {
  // (not Map.groupBy: Safari 17.4, and the app runs from 16.4)
  const linesOf = new Map<string, BackupFile['ledger']>();
  for (const l of file.ledger) {
    if (l.gameId === null) continue;
    const lines = linesOf.get(l.gameId);
    if (lines) lines.push(l);
    else linesOf.set(l.gameId, [l]);
  }
  for (const g of file.games) {
    const lines = linesOf.get(g.id) ?? [];
    const owed = g.status === 'finished' && g.ante > 0 && g.result !== null;
    if (!owed) {
      if (lines.length > 0) throw corrupt(`ledger line "${lines[0]!.id}" belongs to game "${g.id}", which has no payout`);
      continue;
    }
    if (lines.length !== 1) throw corrupt(`game "${g.id}" should have one ledger line for its payout but has ${lines.length}`);
    const [line] = lines;
    // the payout counts in the evening the game was played: another's balances would hold it
    if (line!.sessionId !== g.sessionId) throw corrupt(`ledger line "${line!.id}" is of another session than its game "${g.id}"`);
    const mismatch = g.players.find((p) => payoutOf(line!.deltas, p.id) !== payoutOf(g.result!.payouts, p.id));
    if (mismatch || Object.keys(line!.deltas).some((id) => !g.players.some((p) => p.id === id))) {
      throw corrupt(`ledger line "${line!.id}" does not match the payout of game "${g.id}"`);
    }
  }
}

// ── import ───────────────────────────────────────────────────────────────────────────────

/**
 * Writes a validated backup in one transaction. `merge` adds what the device does not have yet
 * (records whose id is already here are kept as they are here; a game added whose payout line
 * has the id of a line here is refused, all of it); `replace` makes the device hold exactly the
 * backup.
 */
export async function importBackup(
  store: RollcallStore,
  backup: ParsedBackup,
  mode: ImportMode = 'merge',
  onProgress: (progress: ImportProgress) => void = () => undefined,
): Promise<ImportSummary> {
  const { file, images } = backup;
  const summary: ImportSummary = {
    mode,
    games: { added: 0, skipped: 0 },
    players: { added: 0, skipped: 0 },
    taughtSets: { added: 0, skipped: 0 },
  };
  try {
    return await inTx(store.db, [...ALL_STORES], 'readwrite', async (tx) => {
      const settingsStore = tx.objectStore('settings');
      const settingsHere = await settingsStore.get('settings');
      if (mode === 'replace') {
        await Promise.all(ALL_STORES.map((s) => tx.objectStore(s).clear()));
      }
      const players = tx.objectStore('players');
      // Merged into a device that knows a player by name under another id (the same friends, met
      // on two phones): the backup's games and ledger lines are written with the id used here.
      // By the roster's names, then by the names seats were played under (a player since deleted
      // from that roster), the latest game first. Never onto an id the backup itself uses, nor two
      // of its ids onto one: a player renamed there and a new friend given the old name would
      // otherwise sit on both sides of one game here.
      const idHere = new Map<string, string>();
      if (mode === 'merge') {
        const fileIds = new Set([...file.players.map((p) => p.id), ...file.games.flatMap((g) => g.players.map((p) => p.id)), ...file.ledger.flatMap((l) => Object.keys(l.deltas))]);
        const taken = new Set<string>();
        const decided = new Set<string>();
        const seats = [...file.games].sort((a, b) => b.updatedAt - a.updatedAt).flatMap((g) => g.players);
        // by a name here or a name a player here was known by ("Bbo", merged into Bob here, is Bob)
        const rosterHere = await players.getAll();
        for (const p of [...file.players, ...seats]) {
          if (decided.has(p.id)) continue;
          decided.add(p.id);
          if ((await players.getKey(p.id)) !== undefined) continue;
          const here = playerNamed(rosterHere, p.name)?.player.id;
          if (here === undefined || fileIds.has(here) || taken.has(here)) continue;
          idHere.set(p.id, here);
          taken.add(here);
        }
      }
      const playerId = (id: string): string => idHere.get(id) ?? id;
      const byPlayerHere = (amounts: Record<string, number>): Record<string, number> =>
        Object.fromEntries(Object.entries(amounts).map(([id, amount]) => [playerId(id), amount]));
      const sessions = tx.objectStore('sessions');
      // This evening's session here stays the one Home shows and new games join: another phone's
      // open one comes in ended at its last game or ledger line (below). Its games still in play
      // have paid nothing yet, so they go on in this evening here, as `endSession` moves them:
      // left in the ended one, a game finished here would pay into an evening nobody looks at,
      // and be refused an Undo of its end as settled up. A new phone takes it as it is.
      const openHere = mode === 'merge' ? (await sessions.index('by-started').getAll()).reverse().find((s) => s.endedAt === null) : undefined;
      const endedOnArrival = new Set<string>();
      for (const s of file.sessions) {
        if (openHere && s.endedAt === null && (await sessions.getKey(s.id)) === undefined) endedOnArrival.add(s.id);
      }
      const games = tx.objectStore('games');
      const actions = tx.objectStore('actions');
      const skippedGames = new Set<string>();
      // Games here that may be one of the backup's under another id (brought over as a transcript).
      // One the backup holds by its id is the backup's own: another of its games that reads the
      // same is a game played alike, not a copy. Each matches once.
      const fileGameIds = new Set(file.games.map((g) => g.id));
      const gamesHere = mode === 'merge' ? (await games.getAll()).filter((g) => !fileGameIds.has(g.id)) : [];
      for (const [i, g] of file.games.entries()) {
        onProgress({ stage: 'writing', games: i, of: file.games.length });
        if (mode === 'merge') {
          const known = (await games.getKey(g.id)) !== undefined;
          const content = { game: g.game, playerNames: g.players.map((p) => p.name), options: g.options, actions: g.actions.map((entry) => entry.action) };
          const same = known ? undefined : await findSameGame(gamesHere, actions, content);
          if (same) gamesHere.splice(gamesHere.indexOf(same), 1);
          if (known || same) {
            skippedGames.add(g.id);
            summary.games.skipped++;
            continue;
          }
        }
        const { actions: log, ...header } = g;
        const record: GameRecord = {
          ...header,
          sessionId: openHere && header.status === 'active' && header.sessionId !== null && endedOnArrival.has(header.sessionId) ? openHere.id : header.sessionId,
          players: header.players.map((p) => ({ ...p, id: playerId(p.id) })),
          result: header.result && { winners: header.result.winners.map(playerId), payouts: byPlayerHere(header.result.payouts) },
        };
        // The mapping above is one to one; this keeps a slip in it from ever seating a player twice.
        if (new Set(record.players.map((p) => p.id)).size !== record.players.length) {
          throw new BackupError('corrupt', `This backup could not be merged: game "${g.id}" would list one player twice here. Nothing was changed.`);
        }
        await games.put(record);
        await writeAll(log.entries(), ([seq, entry]) => actions.put({ gameId: g.id, seq, action: entry.action, at: entry.at }));
        summary.games.added++;
      }
      onProgress({ stage: 'writing', games: file.games.length, of: file.games.length });
      // a name a player here was known by is not free either: it would find them, not the newcomer
      const namesHere = (await players.getAll()).flatMap((p) => [p.name, ...aliasesOf(p)]);
      /** The backup's players and the id each is here, for their other names (below). */
      const arrived: { id: string; names: string[] }[] = [];
      for (const [i, p] of file.players.entries()) {
        if (mode === 'merge' && (idHere.has(p.id) || (await players.getKey(p.id)) !== undefined)) {
          // known here already, maybe by another name: what the backup knew them by finds them here too
          arrived.push({ id: playerId(p.id), names: [p.name, ...(p.aliases ?? [])] });
          summary.players.skipped++;
          continue;
        }
        // Its name is another player's here who could not be taken for them: kept apart, numbered
        // ("Al 2"), clear of the names the backup's players still to come bring. Two of the
        // backup's own whose names now read as one (a device whose "José" was typed two ways,
        // kept apart since names compare by nameKey): the first keeps it, the next is numbered.
        const toCome = file.players.slice(i + 1).filter((q) => nameKey(q.name) !== nameKey(p.name));
        const name = unusedName(p.name, [...namesHere, ...toCome.map((q) => q.name)]);
        namesHere.push(name);
        const { aliases, ...record } = p;
        await players.put({ ...record, name, nameKey: nameKey(name) });
        arrived.push({ id: p.id, names: [...(name === p.name ? [] : [p.name]), ...(aliases ?? [])] });
        summary.players.added++;
      }
      // Then the names each was known by, once every name is placed: one that is a player's name
      // here, or another's other name, stays theirs (a name finds one player).
      const owner = new Map<string, string>();
      for (const p of await players.getAll()) for (const n of [p.name, ...aliasesOf(p)]) if (!owner.has(nameKey(n))) owner.set(nameKey(n), p.id);
      for (const { id: playerHere, names } of arrived) {
        const free = names.filter((n) => (owner.get(nameKey(n)) ?? playerHere) === playerHere);
        if (free.length === 0) continue;
        const record = (await players.get(playerHere))!;
        const kept = withAliases(record, [...aliasesOf(record), ...free]);
        if (aliasesOf(kept).length === aliasesOf(record).length) continue;
        for (const n of aliasesOf(kept)) owner.set(nameKey(n), playerHere);
        await players.put(kept);
      }
      for (const s of file.sessions) {
        if (mode === 'merge' && (await sessions.getKey(s.id)) !== undefined) continue;
        const ended =
          endedOnArrival.has(s.id)
            ? sessionLastActivity(s, file.games.filter((g) => g.sessionId === s.id), file.ledger.filter((l) => l.sessionId === s.id))
            : s.endedAt;
        // ended on arrival, nobody settled it up: Home says what is still owed (`unsettledEvenings`), as of an evening ended by the break
        await sessions.put(endedOnArrival.has(s.id) ? { ...s, endedAt: ended, endedBy: 'break' } : { ...s, endedAt: ended });
      }
      const ledger = tx.objectStore('ledger');
      for (const l of file.ledger) {
        if (l.gameId !== null && skippedGames.has(l.gameId)) continue;
        if (mode === 'merge' && (await ledger.getKey(l.id)) !== undefined) {
          // Kept as it is here, unless it is the payout of a game just added: that game would
          // come in finished without its line, and the balances would leave its payout out.
          if (l.gameId !== null) {
            throw new BackupError('corrupt', `This backup could not be merged: the payout of game "${l.gameId}" has the id of another ledger line here ("${l.id}"). Nothing was changed.`);
          }
          continue;
        }
        await ledger.put({ ...l, deltas: byPlayerHere(l.deltas) });
      }
      const sets = tx.objectStore('taughtSets');
      const faces = tx.objectStore('taughtFaces');
      const skippedSets = new Set<string>();
      const setNames = (await sets.getAll()).map((s) => s.name);
      for (const s of file.taughtSets) {
        if (mode === 'merge' && (await sets.getKey(s.id)) !== undefined) {
          skippedSets.add(s.id);
          summary.taughtSets.skipped++;
          continue;
        }
        // Two sets may not share a name (New game would offer two that read the same): numbered, as a kit file is
        const name = unusedName(s.name, setNames);
        setNames.push(name);
        await sets.put({ ...s, name });
        summary.taughtSets.added++;
      }
      for (const f of file.taughtFaces) {
        if (skippedSets.has(f.setId)) continue;
        // A picture whose id is here already is kept as it is here: written over, it would leave
        // the set here that it belongs to (the backup's set may be new only by its id).
        if (mode === 'merge' && (await faces.getKey(f.id)) !== undefined) continue;
        const image = images.get(f.id);
        if (!image) throw corrupt(`the picture of taught face "${f.id}" is missing`);
        const record: TaughtFaceRecord = { ...f, image };
        await faces.put(record);
      }
      // Merged, the settings made here stay; a device that has none yet (a new phone) takes the backup's.
      if (mode === 'replace' || settingsHere === undefined) {
        // Except what belongs to the device, not the player: whether this browser was asked to
        // keep its storage (else a restored phone is never asked), and its camera's id.
        const device = { ...DEFAULT_SETTINGS, ...settingsHere };
        const settings: Settings = { ...file.settings, persistAsked: device.persistAsked, cameraId: device.cameraId };
        await settingsStore.put(settings, 'settings');
      }
      return summary;
    });
  } catch (err) {
    // inTx aborted everything and made a full disk a `storage-full` StoreError; any other failure is the file's
    if (err instanceof BackupError || err instanceof StoreError) throw err;
    const detail = err instanceof Error ? err.message : String(err);
    throw new BackupError('corrupt', `This backup could not be written (${detail}). Nothing was changed.`);
  }
}

/** Reads, validates and imports a backup file's text; see `parseBackup` and `importBackup`. */
export async function importBackupText(
  store: RollcallStore,
  text: string,
  mode: ImportMode = 'merge',
  onProgress: (progress: ImportProgress) => void = () => undefined,
): Promise<ImportSummary> {
  return importBackup(store, await parseBackupInSteps(text, onProgress), mode, onProgress);
}
