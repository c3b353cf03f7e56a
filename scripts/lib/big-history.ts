/**
 * A player's two years of game nights as a Rollcall backup file: finished games of all nine
 * games, each played out through the rules by seeded random play (so every log replays, every
 * result and ledger line is the one its log makes, and the app's own import accepts it), the
 * evenings they were played in, a settle-up at the end of each, and the players. Used by
 * `npm run bench -- --only big-history` (imported through Settings, as a player restoring a
 * phone would) and by the browser tests that need a long history.
 */
import { BUILT_IN_KITS, tokenForFace } from '../../src/lib/dice/index.ts';
import { applyAction, createMatch, gameById, matchResult, RuleError, viewMatch, type Action, type DieToken, type MatchState } from '../../src/lib/rules/index.ts';
import { resolvedHeader } from '../../src/app/play.ts';
import { resultOfGame } from '../../src/lib/store/store.ts';
import type { BackupFile } from '../../src/lib/store/backup.ts';
import { random } from './random.ts';

export interface BigHistorySpec {
  /** Finished games (default 1,000). */
  games?: number;
  /** Players who take turns at the table (default 8, at most 12). */
  players?: number;
  /** Evenings the games are spread over (default 300), the last one still open. */
  sessions?: number;
  seed?: number;
  /** The last evening's start (ms); the others go back from it, two or three a week. */
  lastEvening?: number;
}

/** What was made, for a report. */
export interface BigHistoryStats {
  games: number;
  actions: number;
  /** Actions per game: the shortest, the median, the longest. */
  actionsPerGame: { min: number; median: number; max: number };
  byGame: Record<string, number>;
}

const NAMES = ['Ann', 'Bob', 'Cara', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jo', 'Kai', 'Lena'];

/**
 * How often each game comes out on a game night: the 5000s and Point Five most, the short
 * two-player games now and then. Random play makes logs of 100–400 actions for the long
 * games and 20–100 for Dominoes, Hi-Low and Tug, as real play does.
 */
const GAME_MIX: readonly (readonly [string, number])[] = [
  ['five-thousand', 6],
  ['big-roll-5000', 3],
  ['point-five', 4],
  ['face-off', 2],
  ['detective', 2],
  ['war', 1],
  ['dominoes', 1],
  ['hi-low', 1],
  ['tug', 1],
];

/** A log longer than this is played again (Detective can run past a thousand rolls by random play). */
const LONGEST_LOG = 450;
const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** One game played to its end by picking among the legal moves at random; null if it ran past `LONGEST_LOG`. */
function playOut(game: string, players: string[], ante: number, r: () => number): { options: Record<string, unknown>; actions: Action[]; state: MatchState } | null {
  const header = resolvedHeader({ game, players, options: { ante, startingPlayer: r() < 0.5 ? 'roll-off' : 'first-listed' } });
  let state = createMatch({ game, players, options: header.options }, { namesAsPlayed: true });
  const actions: Action[] = [];
  while (state.phase !== 'over') {
    if (actions.length >= LONGEST_LOG) return null;
    const moves = viewMatch(state).legal;
    if (moves.length === 0) return null;
    const move = moves[Math.floor(r() * moves.length)]!;
    let action: Action;
    if (move.kind === 'action') action = move.action;
    else if (move.kind === 'roll') {
      const kit = BUILT_IN_KITS[move.expect.kit]!;
      const dice: DieToken[] = [];
      for (let d = 0; d < move.expect.count; d++) dice.push(tokenForFace(kit, kit.faces[Math.floor(r() * kit.faces.length)]!));
      action = { type: 'roll', dice };
    } else {
      const from = [...move.from];
      const size = move.min + Math.floor(r() * (move.max - move.min + 1));
      const chosen: DieToken[] = [];
      for (let k = 0; k < size && from.length > 0; k++) chosen.push(from.splice(Math.floor(r() * from.length), 1)[0]!);
      action = { type: move.actionType, dice: chosen };
    }
    try {
      state = applyAction(state, action);
      actions.push(action);
    } catch (err) {
      // a random choice of dice the rules refuse: another pick
      if (!(err instanceof RuleError)) throw err;
    }
  }
  return { options: header.options, actions, state };
}

/** Whether `game` (its default variation) seats `n` players. */
function seats(game: string, n: number): boolean {
  try {
    resolvedHeader({ game, players: NAMES.slice(0, n), options: {} });
    return true;
  } catch {
    return false;
  }
}

/** How many sit down to `game` when `want` are at the table: the most it seats up to `want` (Dominoes and Hi-Low take two, or four). */
function seatsFor(game: string, want: number): number {
  for (let n = want; n > 2; n--) if (seats(game, n)) return n;
  return 2;
}

/** The backup file, and figures about it. Deterministic for a spec. */
export function bigHistory(spec: BigHistorySpec = {}): { backup: BackupFile; stats: BigHistoryStats } {
  const gameCount = spec.games ?? 1000;
  const playerCount = Math.min(NAMES.length, spec.players ?? 8);
  const sessionCount = Math.max(1, spec.sessions ?? 300);
  const r = random(spec.seed ?? 20261206);
  const lastEvening = spec.lastEvening ?? Date.UTC(2026, 10, 30, 19);
  // two years of evenings, about every 2.4 days, the latest last
  const gap = (2 * 365 * DAY) / sessionCount;
  const sessions: BackupFile['sessions'] = Array.from({ length: sessionCount }, (_, i) => {
    const startedAt = lastEvening - Math.round((sessionCount - 1 - i) * gap);
    return { id: `s${i}`, name: new Date(startedAt).toISOString().slice(0, 10), startedAt, endedAt: i === sessionCount - 1 ? null : startedAt + 5 * HOUR };
  });
  const players = NAMES.slice(0, playerCount).map((name, i) => ({ id: `p${i}`, name, createdAt: sessions[0]!.startedAt - DAY + i, lastPlayedAt: null as number | null }));
  const mix = GAME_MIX.flatMap(([game, weight]) => Array.from({ length: weight }, () => game));
  const games: BackupFile['games'] = [];
  const ledger: BackupFile['ledger'] = [];
  const byGame: Record<string, number> = {};
  for (let g = 0; g < gameCount; g++) {
    const session = sessions[Math.floor((g * sessionCount) / gameCount)]!;
    const inSession = games.filter((x) => x.sessionId === session.id).length;
    const game = mix[Math.floor(r() * mix.length)]!;
    const seats = [...players].sort(() => r() - 0.5).slice(0, seatsFor(game, 2 + Math.floor(r() * 4)));
    const ante = r() < 0.7 ? 5 : 0;
    let played = playOut(game, seats.map((p) => p.name), ante, r);
    while (!played) played = playOut(game, seats.map((p) => p.name), ante, r);
    const { options, actions, state } = played;
    // a roll every 20 s or so: a game of 300 actions takes an hour and a half (the odd seconds: no two games end at one time)
    const start = session.startedAt + inSession * (50 * 60_000 + 7_000);
    const at = actions.map((_, k) => start + k * 20_000);
    const end = (at.at(-1) ?? start) + 1000;
    const seated = seats.map((p) => ({ id: p.id, name: p.name }));
    const byLog = matchResult(state);
    if (!byLog) throw new Error(`big-history: ${game} ended without a result`);
    const result = resultOfGame(seated, ante, byLog);
    const id = `g${g}`;
    games.push({
      id,
      game,
      players: seated,
      options: options as BackupFile['games'][number]['options'],
      ante,
      dice: { kitId: gameById(game).kit, taughtSetId: null },
      sessionId: session.id,
      createdAt: start,
      updatedAt: end,
      finishedAt: end,
      status: 'finished',
      actionCount: actions.length,
      logRevision: actions.length,
      result,
      actions: actions.map((action, k) => ({ action: action as BackupFile['games'][number]['actions'][number]['action'], at: at[k]! })),
    });
    if (ante > 0) ledger.push({ id: `l${g}`, sessionId: session.id, gameId: id, at: end, deltas: { ...result.payouts }, note: '' });
    for (const p of seats) p.lastPlayedAt = Math.max(p.lastPlayedAt ?? 0, end);
    byGame[game] = (byGame[game] ?? 0) + 1;
  }
  // the evening's debts settled at its end, between its biggest winner and loser (not the open one's)
  for (const s of sessions.slice(0, -1)) {
    const balance = new Map<string, number>();
    for (const line of ledger) if (line.sessionId === s.id) for (const [p, amount] of Object.entries(line.deltas)) balance.set(p, (balance.get(p) ?? 0) + amount);
    const sorted = [...balance].sort((a, b) => a[1] - b[1]);
    const [loser, winner] = [sorted[0], sorted.at(-1)];
    if (!loser || !winner || loser[0] === winner[0]) continue;
    const amount = Math.min(-loser[1], winner[1]);
    if (amount > 0) ledger.push({ id: `settle-${s.id}`, sessionId: s.id, gameId: null, at: s.endedAt! - 1, deltas: { [loser[0]]: amount, [winner[0]]: -amount }, note: 'Settled up' });
  }
  const lengths = games.map((x) => x.actions.length).sort((a, b) => a - b);
  return {
    backup: {
      format: 'rollcall-backup',
      version: 2,
      exportedAt: new Date(lastEvening + DAY).toISOString(),
      games,
      players,
      sessions,
      ledger,
      taughtSets: [],
      taughtFaces: [],
      settings: { theme: 'system', speech: false, settleMs: 600, cameraId: null, persistAsked: true },
    },
    stats: {
      games: games.length,
      actions: lengths.reduce((a, b) => a + b, 0),
      actionsPerGame: { min: lengths[0] ?? 0, median: lengths[Math.floor(lengths.length / 2)] ?? 0, max: lengths.at(-1) ?? 0 },
      byGame,
    },
  };
}
