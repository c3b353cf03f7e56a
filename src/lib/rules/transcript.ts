/**
 * Transcripts: a whole game as JSON — `{ "game", "players", "options", "actions": [...] }` —
 * to export, import, replay and test (see docs/transcripts.md).
 */
import { quoted, RuleError, SetupError } from './errors.ts';
import { applyAction, createMatch, viewMatch, type MatchState } from './match.ts';
import { sessionLedger } from './pot.ts';
import type { Action } from './types.ts';

export interface Transcript {
  game: string;
  players: string[];
  options: Record<string, unknown>;
  actions: Action[];
  /**
   * When each action was written (ISO 8601, one per action), as the app exports them: an import
   * keeps the log's times. Optional; the rules never read them.
   */
  times?: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The most actions a game's log may hold when it comes from a file (a transcript, a backup): a
 * whole evening's game is a few hundred. More is not a game played at a table, and replaying it
 * could hold a phone's tab for minutes.
 */
export const MAX_LOG_ACTIONS = 20_000;

/** Checks the shape of a parsed transcript; SetupError says what is wrong. */
export function parseTranscript(value: unknown): Transcript {
  if (!isRecord(value)) throw new SetupError('A transcript must be a JSON object.');
  const { game, players, options = {}, actions = [], times } = value;
  if (typeof game !== 'string') throw new SetupError('Transcript: "game" must be a game id.');
  if (!Array.isArray(players) || !players.every((p) => typeof p === 'string')) {
    throw new SetupError('Transcript: "players" must be a list of names.');
  }
  if (!isRecord(options)) throw new SetupError('Transcript: "options" must be an object.');
  if (!Array.isArray(actions)) throw new SetupError('Transcript: "actions" must be a list.');
  if (actions.length > MAX_LOG_ACTIONS) {
    throw new SetupError(`Transcript: ${actions.length} actions; a game's log holds at most ${MAX_LOG_ACTIONS}.`);
  }
  actions.forEach((action, index) => {
    if (!isRecord(action) || typeof action.type !== 'string') {
      throw new SetupError(`Transcript: action ${index} must be an object with a "type".`);
    }
  });
  if (times === undefined) return { game, players: players as string[], options, actions: actions as Action[] };
  if (!Array.isArray(times) || times.length !== actions.length || !times.every(isIsoTime)) {
    throw new SetupError(`Transcript: "times" must give one time per action (${actions.length}), each an ISO 8601 date and time such as "2026-12-07T20:15:00.000Z".`);
  }
  return { game, players: players as string[], options, actions: actions as Action[], times: times as string[] };
}

/** A date and time as `Date.prototype.toISOString` writes it (a zone may be given instead of Z). */
function isIsoTime(value: unknown): boolean {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value) && Number.isFinite(Date.parse(value));
}

/** Replay stopped at an illegal action. */
export class ReplayError extends Error {
  readonly index: number;
  readonly action: Action;
  readonly ruleError: RuleError;
  /** The state just before the refused action. */
  readonly stateBefore: MatchState;

  constructor(index: number, action: Action, ruleError: RuleError, stateBefore: MatchState) {
    super(`Action ${index} (${quoted(action, 200)}) is not allowed: ${ruleError.message}`);
    this.name = 'ReplayError';
    this.index = index;
    this.action = action;
    this.ruleError = ruleError;
    this.stateBefore = stateBefore;
  }
}

/** Folds the whole log. Throws SetupError for a bad header, ReplayError for an illegal action. */
export function replay(transcript: Transcript, options: { namesAsPlayed?: boolean } = {}): MatchState {
  let state = createMatch(transcript, options);
  transcript.actions.forEach((action, index) => {
    try {
      state = applyAction(state, action);
    } catch (error) {
      if (error instanceof RuleError) throw new ReplayError(index, action, error, state);
      throw error;
    }
  });
  return state;
}

/** The final state in brief: what the replay CLI prints and transcript tests check. */
export interface MatchSummary {
  game: string;
  players: string[];
  phase: string;
  /** Main slate figure per player, by name. */
  scores: Record<string, number>;
  pot: number;
  /** Per player: ante paid, payout won, net. */
  ledger: Array<{ player: string; paid: number; won: number; net: number }>;
  /** Whose turn (name), or null when the game is over. */
  current: string | null;
  /** The winner's name, or null (also null on a shared win: see `winners`). */
  winner: string | null;
  winners: string[];
  headline: string;
  /** The slate as shown, every column. */
  slate: Array<{ player: string; score: number; cells: Record<string, string | number>; note: string | null }>;
  actions: number;
}

export function summarize(state: MatchState): MatchSummary {
  const view = viewMatch(state);
  const winners = (state.winners ?? []).map((i) => state.players[i] ?? '?');
  return {
    game: state.game,
    players: state.players,
    phase: state.phase === 'play' ? view.phase : state.phase,
    scores: Object.fromEntries(view.slate.rows.map((r) => [r.name, r.score])),
    pot: state.pot,
    ledger: sessionLedger([{ players: state.players, ante: state.ante, payouts: state.payouts }]).map(
      ({ player, paid, won, net }) => ({ player, paid, won, net }),
    ),
    current: view.current === null ? null : (state.players[view.current] ?? null),
    winner: winners.length === 1 ? (winners[0] ?? null) : null,
    winners,
    headline: view.headline,
    slate: view.slate.rows.map((r) => ({ player: r.name, score: r.score, cells: r.cells, note: r.note })),
    actions: state.actionCount,
  };
}
