/**
 * The roll-off that decides who starts: each contender in seating order throws the roll-off
 * dice; the highest total starts; when several share the highest total, only they throw
 * again, as often as needed (the sheets' "those players reroll").
 */
import { describeDice, kitLabelsAreValues, type DiceKit, type DieToken } from '../dice/index.ts';
import { kitById, namesOrCount, plural } from './dice.ts';
import type { PlayerIndex } from './types.ts';

export interface RollOffThrow {
  player: PlayerIndex;
  dice: DieToken[];
  total: number;
}

export interface RollOffState {
  /** Dice each contender throws. */
  diceEach: number;
  /** Kit id of the dice thrown (a kit whose faces have values). */
  kit: string;
  /** Round 1 is everyone; later rounds are the tied players only. */
  round: number;
  /** Who throws in this round, in seating order. */
  contenders: PlayerIndex[];
  /** Throws of this round so far, in order. */
  throws: RollOffThrow[];
  /** The last earlier rounds' throws (`ROLL_OFF_ROUNDS_KEPT` at most), for the record. */
  earlierRounds: RollOffThrow[][];
  /** The starting player once decided. */
  winner: PlayerIndex | null;
}

/**
 * Earlier rounds kept for the record. A roll-off that ties round after round (a hostile
 * transcript of thousands of ties) would otherwise copy and describe its whole history at every
 * throw, and take a phone's tab minutes to replay; a table never looks back further.
 */
export const ROLL_OFF_ROUNDS_KEPT = 5;

/** The table's words for the roll-off, beside whose throw it is (a game's own phases: `GameDefinition.phases`). */
export const ROLL_OFF_PHASE_TEXT = 'deciding who starts';

export function startRollOff(playerCount: number, diceEach: number, kit: string): RollOffState {
  return {
    diceEach,
    kit,
    round: 1,
    contenders: Array.from({ length: playerCount }, (_, i) => i),
    throws: [],
    earlierRounds: [],
    winner: null,
  };
}

/** Who throws next, or null once decided. */
export function nextRoller(state: RollOffState): PlayerIndex | null {
  if (state.winner !== null) return null;
  return state.contenders[state.throws.length] ?? null;
}

/** Records a throw (dice already checked against the kit and count) and settles the round. */
export function recordRollOffThrow(state: RollOffState, dice: DieToken[], values: number[]): RollOffState {
  const player = nextRoller(state);
  if (player === null) throw new Error('recordRollOffThrow: the roll-off is already decided');
  const total = values.reduce((a, b) => a + b, 0);
  const throws = [...state.throws, { player, dice, total }];
  if (throws.length < state.contenders.length) return { ...state, throws };
  const high = Math.max(...throws.map((t) => t.total));
  const top = throws.filter((t) => t.total === high).map((t) => t.player);
  if (top.length === 1) return { ...state, throws, winner: top[0] ?? null };
  return {
    ...state,
    round: state.round + 1,
    contenders: top,
    throws: [],
    earlierRounds: [...state.earlierRounds, throws].slice(-ROLL_OFF_ROUNDS_KEPT),
  };
}

/**
 * A roll-off throw as players name it (describeDice) with its total: pips "5 4 (9)", "Star (5),
 * Circle (1): 6". One die's total is its own value, which its name says already ("5",
 * "Star (5)"): the die alone; a symbol named without its value keeps it, "Skull: 3".
 */
export function describeRollOffThrow(kit: DiceKit, dice: readonly DieToken[], total: number): string {
  const named = describeDice(kit, dice);
  if (dice.length === 1 && (named === String(total) || named.endsWith(`(${total})`))) return named;
  return kitLabelsAreValues(kit) ? `${named} (${total})` : `${named}: ${total}`;
}

/** "Round 1: Ann threw 5 4 (9)" lines, for the history and the table. */
export function describeRollOff(state: RollOffState, players: readonly string[]): string[] {
  const kit = kitById(state.kit);
  const lines: string[] = [];
  // the rounds kept end with this one: the first of them is round `round - kept`
  const first = state.round - state.earlierRounds.length;
  [...state.earlierRounds, state.throws].forEach((round, i) => {
    for (const t of round) {
      lines.push(`Round ${first + i}: ${players[t.player] ?? '?'} threw ${describeRollOffThrow(kit, t.dice, t.total)}`);
    }
  });
  return lines;
}

/**
 * "Who starts? Ann throws 1 die.", and after a tie who tied on what: "Who starts? Ann and Cy tie
 * on 5: Cy throws 1 die again." (at a big table "6 players tie on 6": the slate marks the rest
 * out of the roll-off).
 */
export function rollOffPrompt(state: RollOffState, players: readonly string[]): string {
  const roller = nextRoller(state);
  if (roller === null) return `${players[state.winner ?? 0] ?? '?'} starts.`;
  const throws = `${players[roller] ?? '?'} throws ${plural(state.diceEach, 'die', 'dice')}`;
  // the round that tied is the last one kept: its highest total is the one the contenders share
  const tied = state.earlierRounds.at(-1);
  if (state.round === 1 || !tied) return `Who starts? ${throws}.`;
  const high = Math.max(...tied.map((t) => t.total));
  return `Who starts? ${namesOrCount(state.contenders.map((p) => players[p] ?? '?'))} tie on ${high}: ${throws} again.`;
}
