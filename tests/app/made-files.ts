/**
 * Valid files made by the app's own code, for the damaged-file property tests to start from: a
 * store whose games were played by the rules (seeded random legal moves, written as the table
 * writes them: each action with its result when it ends the game), its players, a session, a
 * ledger line, taught sets; the backup, transcripts and kit files the app exports from it.
 */
import { BUILT_IN_KITS, tokenForFace, type DiceKit } from '../../src/lib/dice/index.ts';
import { random as seeded } from '../../scripts/lib/random.ts';
import { makeKitBundle } from '../../src/lib/dice/bundle.ts';
import { createMatch, gameById, matchResult, tryAction, viewMatch, type Action, type DieToken, type MatchState } from '../../src/lib/rules/index.ts';
import { resultOfGame, type GameRecord, type RollcallStore } from '../../src/lib/store/index.ts';
import { exportBackupJson } from '../../src/lib/store/backup.ts';
import { transcriptOf, type GameHeader } from '../../src/app/play.ts';
import { freshStore } from '../store/helpers.ts';

/** The rules' header of a stored game (as the table's `headerOf`). */
export function headerOfRecord(record: GameRecord): GameHeader {
  return { game: record.game, players: record.players.map((p) => p.name), options: record.options };
}

/** A legal move of the state, picked at random; null when none is offered. */
function randomMove(state: MatchState, random: () => number): Action | null {
  const moves = viewMatch(state).legal;
  const move = moves[Math.floor(random() * moves.length)];
  if (!move) return null;
  switch (move.kind) {
    case 'action':
      return move.action;
    case 'roll': {
      const kit = BUILT_IN_KITS[move.expect.kit]!;
      const dice: DieToken[] = Array.from({ length: move.expect.count }, () => tokenForFace(kit, kit.faces[Math.floor(random() * kit.faces.length)]!));
      return { type: 'roll', dice };
    }
    case 'choose-dice': {
      const size = move.min + Math.floor(random() * (move.max - move.min + 1));
      const shuffled = [...move.from].sort(() => random() - 0.5).slice(0, size);
      const action = { type: move.actionType, dice: shuffled };
      // a chosen handful the rules refuse (not every subset scores): the first ones, as offered
      return tryAction(state, action).ok ? action : { type: move.actionType, dice: [...move.from].slice(0, size) };
    }
  }
}

/** Plays a stored game by random legal moves, written as the table writes them; stops at `steps` or the end. */
async function playRandomly(store: RollcallStore, record: GameRecord, random: () => number, steps: number): Promise<void> {
  let state = createMatch(headerOfRecord(record), { namesAsPlayed: true });
  for (let i = 0; i < steps && state.phase !== 'over'; i++) {
    const action = randomMove(state, random);
    if (!action) return;
    const next = tryAction(state, action);
    if (!next.ok) continue;
    const result = matchResult(next.state);
    await store.appendAction(record.id, action, undefined, result ? resultOfGame(record.players, record.ante, result) : undefined);
    state = next.state;
  }
}

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70]);
export const PNG_URL = `data:image/png;base64,${Buffer.from(PNG).toString('base64')}`;
export const JPEG_URL = `data:image/jpeg;base64,${Buffer.from(JPEG).toString('base64')}`;
const SVG_URL = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}`;

/** A kit of the player's own, as a kit file would bring it. */
export const OWN_KIT: DiceKit = {
  id: 'moon-dice',
  name: 'Moon dice',
  faces: [
    { id: 'new', label: 'New moon', value: 0, group: null },
    { id: 'half', label: 'Half moon', value: 1, group: 'lit' },
    { id: 'full', label: 'Full moon', value: 2, group: 'lit' },
  ],
};

/** Games in the made store: which, with whom, for what ante, played how far. */
const TABLES: ReadonlyArray<{ game: string; players: string[]; ante: number; steps: number; abandon?: boolean }> = [
  { game: 'war', players: ['Ann', 'Bob'], ante: 2, steps: 400 },
  { game: 'point-five', players: ['Ann', 'Bob', 'Cy'], ante: 0, steps: 400 },
  { game: 'face-off', players: ['Bob', 'Cy'], ante: 1, steps: 12 },
  { game: 'hi-low', players: ['Ann', 'Cy'], ante: 3, steps: 400 },
  { game: 'tug', players: ['Dee', 'Ann'], ante: 0, steps: 10, abandon: true },
  { game: 'dominoes', players: ['Ann', 'Bob'], ante: 1, steps: 8 },
];

/**
 * A store as a player's phone holds it after some evenings: four players (one never seated), a
 * session, games of several kinds finished, in play and abandoned, a ledger line of its own, a
 * taught set of standard dice with a picture and one of an own kit with art, and settings.
 */
export async function madeStore(seed = 1): Promise<RollcallStore> {
  const store = await freshStore();
  const random = seeded(seed); // the same files on every run
  const players = new Map<string, { id: string; name: string }>();
  for (const name of ['Ann', 'Bob', 'Cy', 'Dee', 'Eve']) {
    const p = await store.addPlayer(name);
    players.set(name, { id: p.id, name: p.name });
  }
  const session = await store.startSession('Friday');
  for (const [i, table] of TABLES.entries()) {
    // every option resolved, as New game records them (`resolvedHeader`)
    const { options } = createMatch({ game: table.game, players: table.players, options: { ante: table.ante, startingPlayer: i % 2 === 0 ? 'first-listed' : 'roll-off' } });
    const record = await store.createGame({
      game: table.game,
      players: table.players.map((n) => players.get(n)!),
      options: { ...options },
      ante: table.ante,
      dice: { kitId: gameById(table.game).kit, taughtSetId: null },
      sessionId: i < 4 ? session.id : null,
    });
    await playRandomly(store, record, random, table.steps);
    if (table.abandon) await store.abandonGame(record.id);
  }
  await store.addLedgerEntry({ sessionId: session.id, deltas: { [players.get('Ann')!.id]: -5, [players.get('Eve')!.id]: 5 }, note: 'pizza' });
  const set = await store.createTaughtSet('standard', 'Our dice');
  await store.addTaughtFace(set.id, '6', new Blob([PNG], { type: 'image/png' }), { vector: [0.6, 0.8], model: 'face-embed@1' }, { x: 1, y: 2, w: 30, h: 30 });
  const own = await store.createTaughtSet(OWN_KIT.id, 'Moons', { kit: OWN_KIT, art: { full: SVG_URL } });
  await store.addTaughtFace(own.id, 'half', new Blob([JPEG], { type: 'image/jpeg' }), null);
  await store.updateSettings({ theme: 'dark', speech: true, settleMs: 700 });
  return store;
}

/** The made store's backup, as Settings exports it. */
export async function madeBackup(seed = 1): Promise<string> {
  const store = await madeStore(seed);
  const text = await exportBackupJson(store, new Date(1_700_000_500_000));
  store.close();
  return text;
}

/** The made store's games as transcripts, as the game log exports them (finished, in play, abandoned). */
export async function madeTranscripts(seed = 1): Promise<string[]> {
  const store = await madeStore(seed);
  const texts: string[] = [];
  for (const game of await store.listGames()) {
    const { records } = await store.loadGameRecords(game.id);
    texts.push(`${JSON.stringify(transcriptOf(headerOfRecord(game), records.map((r) => r.action as Action), records.map((r) => r.at)), null, 2)}\n`);
  }
  store.close();
  return texts;
}

/** A kit file as Kits exports it: the own kit with art and taught photos. */
export function madeKitFile(): string {
  return JSON.stringify(makeKitBundle(OWN_KIT, { full: SVG_URL }, { new: [JPEG_URL, PNG_URL], half: [JPEG_URL] }));
}
