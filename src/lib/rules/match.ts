/**
 * A match: one game played by named players with options, ante and pot. Its state is derived
 * only by folding its action log from `createMatch`; undo is replaying the log without its last
 * action. The core handles what every game shares — the roll-off that picks the starter, the
 * checks every roll goes through, the ante, the pot and its payout — and hands play to the game.
 */
import { faceForToken } from '../dice/index.ts';
import { checkRoll, kitById } from './dice.ts';
import { RuleError, SetupError } from './errors.ts';
import { nameKey } from '../dice/names.ts';
import { choiceOption, numberOption, resolveOptions } from './options.ts';
import { potAfterAntes, splitPot } from './pot.ts';
import {
  describeRollOff,
  describeRollOffThrow,
  nextRoller,
  recordRollOffThrow,
  ROLL_OFF_PHASE_TEXT,
  rollOffPrompt,
  startRollOff,
  type RollOffState,
} from './roll-off.ts';
import { gameById } from './registry.ts';
import type {
  Action,
  DieToken,
  ExpectedRoll,
  GameDefinition,
  GameId,
  Json,
  LegalMove,
  Options,
  PlayerIndex,
  PlayView,
  Slate,
} from './types.ts';

/** What a match is: the header of a transcript. */
export interface MatchHeader {
  game: string;
  players: readonly string[];
  options?: Record<string, unknown>;
}

export interface MatchState {
  game: GameId;
  players: string[];
  /** Every option resolved (defaults filled in), `ante` and `startingPlayer` included. */
  options: Options;
  ante: number;
  /** Units in the pot now: antes paid in minus payouts. */
  pot: number;
  phase: 'roll-off' | 'play' | 'over';
  rollOff: RollOffState | null;
  /** Who started play (set when play begins). */
  starter: PlayerIndex | null;
  /** `actionCount` when play began: the roll-off's throws, 0 without one. */
  playBeganAt: number;
  /** The game's own state once play has begun. */
  play: unknown;
  winners: PlayerIndex[] | null;
  /** What each seat received from the pot, once the game is over. */
  payouts: number[] | null;
  /** Number of actions applied. */
  actionCount: number;
}

/** What the table shows: the game's view plus what the core keeps. */
export interface MatchView extends PlayView {
  game: GameId;
  players: string[];
  pot: number;
  ante: number;
  winners: PlayerIndex[] | null;
  payouts: number[] | null;
  expect: ExpectedRoll | null;
  /**
   * The phase in a player's words, for beside whose turn it is ("Go Hero", "deciding who
   * starts"), or null when the headline says it all: the game's `phases` text, the roll-off's.
   */
  phaseText: string | null;
}

function definitionOf(state: MatchState): GameDefinition {
  return gameById(state.game);
}

function beginPlay(state: MatchState, starter: PlayerIndex): MatchState {
  const game = definitionOf(state);
  const play = game.setup({ players: state.players, options: state.options, starter });
  return settle({ ...state, phase: 'play', starter, playBeganAt: state.actionCount, play });
}

/**
 * How a match that is over settled, as a game's record keeps it: the winners' seats and each
 * seat's gain or loss (its share of the pot less its ante); null while it is not over.
 */
export function matchResult(state: MatchState): { winners: PlayerIndex[]; payouts: number[] } | null {
  if (state.phase !== 'over' || !state.winners) return null;
  return { winners: [...state.winners], payouts: state.players.map((_, seat) => (state.payouts?.[seat] ?? 0) - state.ante) };
}

/** Ends the match when the game has winners: the pot is paid out. */
function settle(state: MatchState): MatchState {
  if (state.phase !== 'play') return state;
  const winners = definitionOf(state).winners(state.play);
  if (winners === null) return state;
  const payouts = splitPot(state.pot, state.players.length, winners);
  const paid = payouts.reduce((a, b) => a + b, 0);
  return { ...state, phase: 'over', winners: [...winners], payouts, pot: state.pot - paid };
}

/**
 * Starts a match. Refuses (SetupError) an unknown game, bad options or player list.
 * `namesAsPlayed`: the header of a game stored or played already, whose names were checked when
 * it began; the name rules of today (`nameKey`: names that now read as one, or as blank) must not
 * stop it from being replayed, opened or restored.
 */
export function createMatch(header: MatchHeader, { namesAsPlayed = false }: { namesAsPlayed?: boolean } = {}): MatchState {
  const game = gameById(header.game);
  const players = header.players;
  if (!Array.isArray(players) || players.some((p) => typeof p !== 'string' || (!namesAsPlayed && nameKey(p) === ''))) {
    throw new SetupError('Players must be a list of names.');
  }
  if (!namesAsPlayed && new Set(players.map(nameKey)).size !== players.length) {
    throw new SetupError('Two players have the same name; give each player a different name.');
  }
  if (players.length < game.players.min || players.length > game.players.max) {
    const range =
      game.players.min === game.players.max
        ? `${game.players.min}`
        : game.players.max >= 99
          ? `${game.players.min} or more`
          : `${game.players.min} to ${game.players.max}`;
    throw new SetupError(`${game.name} is for ${range} players; ${players.length} given.`);
  }
  const options = resolveOptions(game, header.options ?? {});
  const refusal = game.checkSetup?.(players, options) ?? null;
  if (refusal !== null) throw new SetupError(refusal);
  const ante = numberOption(options, 'ante');
  const base: MatchState = {
    game: game.id,
    players: [...players],
    options,
    ante,
    pot: potAfterAntes(players.length, ante),
    phase: 'play',
    rollOff: null,
    starter: null,
    playBeganAt: 0,
    play: null,
    winners: null,
    payouts: null,
    actionCount: 0,
  };
  if (choiceOption(options, 'startingPlayer') === 'roll-off') {
    const kit = kitById(game.kit);
    const rollOffKit = kit.faces.every((f) => f.value !== null) ? kit.id : 'standard';
    return { ...base, phase: 'roll-off', rollOff: startRollOff(players.length, Math.max(1, game.start.rollOffDice), rollOffKit) };
  }
  return beginPlay(base, 0);
}

/** The physical roll awaited now, or null when none is. */
export function expectRoll(state: MatchState): ExpectedRoll | null {
  if (state.phase === 'over') return null;
  if (state.phase === 'roll-off' && state.rollOff) {
    const roller = nextRoller(state.rollOff);
    if (roller === null) return null;
    return {
      kit: state.rollOff.kit,
      player: roller,
      count: state.rollOff.diceEach,
      kept: [],
      prompt: rollOffPrompt(state.rollOff, state.players),
    };
  }
  return definitionOf(state).expectRoll(state.play);
}

/**
 * Applies one action and returns the next state, or throws a RuleError (the state given is
 * never changed). Every `roll` is checked here against what the game expects — kit, faces and
 * number of dice — before the game sees it.
 */
export function applyAction(state: MatchState, action: Action): MatchState {
  if (typeof action !== 'object' || action === null || Array.isArray(action) || typeof action.type !== 'string') {
    throw new RuleError('bad-action', 'An action must be an object with a "type".');
  }
  if (state.phase === 'over') {
    throw new RuleError('game-over', 'The game is over; start a new game or undo the last action.');
  }
  if (action.type === 'roll') {
    const expected = expectRoll(state);
    if (!expected) {
      // Say what the game awaits instead ("Ann: choose the dice to pick up"), from its own view.
      const awaited = state.phase === 'play' ? definitionOf(state).view(state.play, null).headline : '';
      throw new RuleError('no-roll-expected', awaited ? `No roll is expected now. ${awaited}` : 'No roll is expected now.');
    }
    checkRoll(expected, action.dice);
  }
  const counted = { ...state, actionCount: state.actionCount + 1 };
  if (state.phase === 'roll-off' && state.rollOff) {
    if (action.type !== 'roll') {
      throw new RuleError('roll-off', 'First decide who starts: each player throws for the start.');
    }
    const kit = kitById(state.rollOff.kit);
    const dice = action.dice as DieToken[];
    const values = dice.map((d) => faceForToken(kit, d)?.value ?? 0);
    const rollOff = recordRollOffThrow(state.rollOff, dice, values);
    const next = { ...counted, rollOff };
    return rollOff.winner === null ? next : beginPlay(next, rollOff.winner);
  }
  const play = definitionOf(state).apply(state.play, action);
  return settle({ ...counted, play });
}

/** Like applyAction, but returns the rule error instead of throwing it. */
export function tryAction(
  state: MatchState,
  action: Action,
): { ok: true; state: MatchState } | { ok: false; error: RuleError } {
  try {
    return { ok: true, state: applyAction(state, action) };
  } catch (error) {
    if (error instanceof RuleError) return { ok: false, error };
    throw error;
  }
}

function rollOffView(state: MatchState, rollOff: RollOffState): PlayView {
  const roller = nextRoller(rollOff);
  const lastTotals = new Map<PlayerIndex, string>();
  const kit = kitById(rollOff.kit);
  for (const t of rollOff.throws) lastTotals.set(t.player, describeRollOffThrow(kit, t.dice, t.total));
  const slate: Slate = {
    scoreLabel: 'Points',
    columns: [{ key: 'rollOff', label: 'Throw for start' }],
    rows: state.players.map((name, player) => ({
      player,
      name,
      score: 0,
      cells: { rollOff: lastTotals.get(player) ?? '' },
      marked: !rollOff.contenders.includes(player),
      note: rollOff.contenders.includes(player) ? null : 'out of the roll-off',
    })),
  };
  const expect = expectRoll(state);
  const legal: LegalMove[] = expect ? [{ kind: 'roll', expect, label: expect.prompt }] : [];
  return {
    phase: 'roll-off',
    current: roller,
    headline: rollOffPrompt(rollOff, state.players),
    slate,
    dice: rollOff.throws.at(-1)?.dice ?? [],
    details: { rollOff: describeRollOff(rollOff, state.players) as Json },
    legal,
  };
}

/**
 * Who won the roll-off, said until play's first action: the throw that settles it moves straight
 * to the game's own headline ("Bob: roll the five dice."), which never said why Bob, and the
 * slate's "Throw for start" column goes with the roll-off. Null once play has moved on, or when
 * no roll-off was thrown.
 */
function rollOffOutcome(state: MatchState): string | null {
  const rollOff = state.rollOff;
  if (state.phase !== 'play' || !rollOff || rollOff.winner === null || state.actionCount !== state.playBeganAt) return null;
  const winning = rollOff.throws.find((t) => t.player === rollOff.winner);
  if (!winning) return null;
  const name = state.players[rollOff.winner] ?? '?';
  return `${name} throws highest, ${describeRollOffThrow(kitById(rollOff.kit), winning.dice, winning.total)}, and starts.`;
}

function phaseText(state: MatchState, phase: string): string | null {
  if (state.phase === 'roll-off') return ROLL_OFF_PHASE_TEXT;
  const phases = definitionOf(state).phases;
  return Object.hasOwn(phases, phase) ? (phases[phase] ?? null) : null;
}

/**
 * The table's view of a match. `viewer` null: what everyone at the table may see; a seat: that
 * player's private view (a villain sees the secret re-roll).
 */
export function viewMatch(state: MatchState, viewer: PlayerIndex | null = null): MatchView {
  const play =
    state.phase === 'roll-off' && state.rollOff
      ? rollOffView(state, state.rollOff)
      : definitionOf(state).view(state.play, viewer);
  const outcome = rollOffOutcome(state);
  return {
    ...play,
    headline: outcome ? `${outcome} ${play.headline}` : play.headline,
    legal: state.phase === 'over' ? [] : play.legal,
    current: state.phase === 'over' ? null : play.current,
    game: state.game,
    players: state.players,
    pot: state.pot,
    ante: state.ante,
    winners: state.winners,
    payouts: state.payouts,
    expect: expectRoll(state),
    phaseText: phaseText(state, play.phase),
  };
}
