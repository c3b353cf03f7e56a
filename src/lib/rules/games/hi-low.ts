/**
 * 5-Dice Hi-Low ("Five New 5-Dice Games", Paul Hoemke), for two players or two teams of two
 * seated alternately. The starting player picks high or low; each turn throws five dice, then
 * may re-roll four, then three, then two, then one (each step optional). When everyone has
 * played, the low side's and the high side's totals are added: under 35 the low side wins the
 * turn, over 35 the high side, 35 is a tie. First to 5 wins (an option: the introduction says
 * 6). Variation 1: re-roll any 10 dice in all. Variation 2: the 35-target game, points for
 * missing 35, and 15 of them lose. Rules as implemented and the choices: docs/rules/hi-low.md.
 */
import { STANDARD_KIT } from '../../dice/index.ts';
import { containsAll, formatDice, plural, removeAll } from '../dice.ts';
import { RuleError } from '../errors.ts';
import { choiceOption, numberOption } from '../options.ts';
import type { Action, ExpectedRoll, GameDefinition, Json, LegalMove, PlayerIndex, PlayView } from '../types.ts';

/** The sum the low and high totals are measured against. */
const TARGET_SUM = 35;
/** Sheet rules: the re-rolls of a turn, in order, each optional. */
const REROLL_STEPS = [4, 3, 2, 1] as const;

export type Side = 'high' | 'low';
/** Sheet game, or variation 2 (aim for 35 with the previous total). */
export type HiLowMode = 'high-low' | 'target-35';
/** Sheet re-rolls (4, 3, 2, 1), or variation 1 (10 dice in all, any dice, any order). */
export type RerollRule = 'steps' | 'ten-dice';
/** With teams: which totals are added (see docs/rules/hi-low.md). */
export type TeamTotals = 'side-best' | 'table-extremes';
/** Variation 2: who aims at whose total. */
export type TargetTurns = 'set-then-match' | 'chain';

/** Team of a seat: seats alternate Team 1, Team 2 (with two players each is their own team). */
const teamOf = (p: PlayerIndex): 0 | 1 => (p % 2 === 0 ? 0 : 1);

export type HiLowRound = {
  /** Each seat's total this round. */
  totals: number[];
  /** The low side's and the high side's totals that were added. */
  low: number;
  high: number;
  sum: number;
  /** Winning team, or null on 35. */
  winner: 0 | 1 | null;
  /** The seat whose total is circled, or null on a tie. */
  circled: PlayerIndex | null;
};

export type HiLowTurnRecord = {
  player: PlayerIndex;
  total: number;
  /** Variation 2: the total aimed at, and the points scored for missing 35 (null: a setting turn). */
  against: number | null;
  points: number | null;
};

export type HiLowState = {
  players: string[];
  mode: HiLowMode;
  rerollRule: RerollRule;
  teamTotals: TeamTotals;
  targetTurns: TargetTurns;
  /** Wins needed (high-low) or points that lose (target-35). */
  target: number;
  starter: PlayerIndex;
  /** Which team rolls low (high-low game), once the starting player has chosen. */
  lowTeam: 0 | 1 | null;
  phase: 'choose-side' | 'turn' | 'over';
  current: PlayerIndex;
  /** Turns finished in the whole game. */
  turnsPlayed: number;
  /** The five dice of this turn ([] before the first throw). */
  dice: number[];
  /** Dice picked up for the re-roll awaited now, or null. */
  pickedUp: number[] | null;
  /** Steps: index into REROLL_STEPS of the next re-roll offered. */
  step: number;
  /** Variation 1: dice that may still be re-rolled this turn. */
  rerollsLeft: number;
  /** High-low: this round's totals by seat (null: not played yet), and the finished rounds. */
  roundTotals: (number | null)[];
  rounds: HiLowRound[];
  /** Target-35: every finished turn. */
  turns: HiLowTurnRecord[];
  /** Turns won (high-low) or points against (target-35), per team. */
  teamScores: [number, number];
  winners: PlayerIndex[] | null;
  lastEvent: string;
};

/** The table's words for each phase, beside whose turn it is (null: the headline says it all). */
const PHASES = {
  'choose-side': 'choosing high or low',
  turn: null,
  over: null,
} as const satisfies Record<HiLowState['phase'], string | null>;

const nameOf = (g: HiLowState, p: PlayerIndex): string => g.players[p] ?? '?';
const hasTeams = (g: HiLowState): boolean => g.players.length === 4;
const sum = (dice: readonly number[]): number => dice.reduce((a, b) => a + b, 0);
const membersOf = (g: HiLowState, team: 0 | 1): PlayerIndex[] => g.players.flatMap((_, i) => (teamOf(i) === team ? [i] : []));

function sideName(g: HiLowState, team: 0 | 1): string {
  if (!hasTeams(g)) return nameOf(g, team);
  return `Team ${team + 1} (${membersOf(g, team).map((p) => nameOf(g, p)).join(' & ')})`;
}

function sideOf(g: HiLowState, p: PlayerIndex): Side | null {
  if (g.lowTeam === null) return null;
  return teamOf(p) === g.lowTeam ? 'low' : 'high';
}

// ---------------------------------------------------------------------------------------------
// Who plays when

/** Variation 2, set-then-match: turn t is pair ⌊t/2⌋'s setter (even t) or matcher (odd t). */
function playerForTurn(g: HiLowState, turn: number): PlayerIndex {
  const n = g.players.length;
  if (g.mode === 'target-35' && g.targetTurns === 'set-then-match') {
    return (g.starter + Math.floor(turn / 2) + (turn % 2)) % n;
  }
  return (g.starter + turn) % n;
}

/** Variation 2: the total a turn aims at (with its own total, 35), or null for a setting turn. */
function aimedAt(g: HiLowState, turn: number): number | null {
  if (g.mode !== 'target-35' || turn === 0) return null;
  if (g.targetTurns === 'set-then-match' && turn % 2 === 0) return null;
  return g.turns[turn - 1]?.total ?? null;
}

// ---------------------------------------------------------------------------------------------
// Scoring

/**
 * The two totals added at the end of a round (high-low game). `side-best`: the low team's
 * lowest total and the high team's highest; `table-extremes`: the lowest and highest totals at
 * the table. With two players both readings are the same.
 */
export function countedTotals(
  totals: readonly number[],
  lowTeam: 0 | 1,
  rule: TeamTotals,
): { low: number; high: number; lowSeat: PlayerIndex; highSeat: PlayerIndex } {
  const seats = totals.map((_, i) => i);
  const pick = (candidates: PlayerIndex[], better: (a: number, b: number) => boolean): PlayerIndex =>
    candidates.reduce((best, s) => (better(totals[s] ?? 0, totals[best] ?? 0) ? s : best), candidates[0] ?? 0);
  const lowSeats = rule === 'side-best' ? seats.filter((s) => teamOf(s) === lowTeam) : seats;
  const highSeats = rule === 'side-best' ? seats.filter((s) => teamOf(s) !== lowTeam) : seats;
  const lowSeat = pick(lowSeats, (a, b) => a < b);
  const highSeat = pick(highSeats, (a, b) => a > b);
  return { low: totals[lowSeat] ?? 0, high: totals[highSeat] ?? 0, lowSeat, highSeat };
}

/** Who wins a round: the low side under 35, the high side over 35, nobody at exactly 35. */
export function roundWinner(low: number, high: number): Side | null {
  const total = low + high;
  if (total < TARGET_SUM) return 'low';
  if (total > TARGET_SUM) return 'high';
  return null;
}

/** Variation 2: points for a pair of totals, the distance of their sum from 35. */
export const targetPoints = (a: number, b: number): number => Math.abs(a + b - TARGET_SUM);

function finishRound(g: HiLowState, totals: number[]): HiLowState {
  const lowTeam = g.lowTeam ?? 0;
  const { low, high } = countedTotals(totals, lowTeam, g.teamTotals);
  const side = roundWinner(low, high);
  const total = low + high;
  const base = { ...g, roundTotals: g.players.map(() => null), dice: [], pickedUp: null };
  if (side === null) {
    const round: HiLowRound = { totals, low, high, sum: total, winner: null, circled: null };
    return { ...base, rounds: [...g.rounds, round], lastEvent: `${low} + ${high} = 35: a tie, nobody wins the turn.` };
  }
  const winner: 0 | 1 = side === 'low' ? lowTeam : lowTeam === 0 ? 1 : 0;
  // The circled score: the winning side's best total this round.
  const winnerSeats = membersOf(g, winner);
  const best = countedTotals(totals, lowTeam, 'side-best');
  const circled = side === 'low' ? best.lowSeat : best.highSeat;
  const teamScores: [number, number] = winner === 0 ? [g.teamScores[0] + 1, g.teamScores[1]] : [g.teamScores[0], g.teamScores[1] + 1];
  const round: HiLowRound = { totals, low, high, sum: total, winner, circled };
  const text = `${low} + ${high} = ${total}: ${side} wins, ${sideName(g, winner)} (${teamScores[winner]} of ${g.target}).`;
  if (teamScores[winner] >= g.target) {
    return { ...base, rounds: [...g.rounds, round], teamScores, phase: 'over', winners: winnerSeats, lastEvent: `${text} ${sideName(g, winner)} ${hasTeams(g) ? 'win' : 'wins'} the game!` };
  }
  return { ...base, rounds: [...g.rounds, round], teamScores, lastEvent: text };
}

function endTurn(g: HiLowState): HiLowState {
  const p = g.current;
  const total = sum(g.dice);
  const name = nameOf(g, p);
  const turnsPlayed = g.turnsPlayed + 1;
  const next = playerForTurn(g, turnsPlayed);
  const fresh = {
    ...g,
    turnsPlayed,
    current: next,
    dice: [],
    pickedUp: null,
    step: 0,
    rerollsLeft: 10,
  };
  if (g.mode === 'high-low') {
    const roundTotals = g.roundTotals.map((t, i) => (i === p ? total : t));
    const done = roundTotals.every((t) => t !== null);
    const written = { ...fresh, roundTotals, lastEvent: `${name} writes ${total}.` };
    if (!done) return written;
    const finished = finishRound(written, roundTotals.map((t) => t ?? 0));
    return { ...finished, lastEvent: `${name} writes ${total}. ${finished.lastEvent}` };
  }
  const against = aimedAt(g, g.turnsPlayed);
  const points = against === null ? null : targetPoints(against, total);
  const turns = [...g.turns, { player: p, total, against, points }];
  if (against === null || points === null) {
    return { ...fresh, turns, lastEvent: `${name} writes ${total}; ${nameOf(fresh, next)} aims for ${TARGET_SUM - total}.` };
  }
  const team = teamOf(p);
  const teamScores: [number, number] = team === 0 ? [g.teamScores[0] + points, g.teamScores[1]] : [g.teamScores[0], g.teamScores[1] + points];
  const text = `${name} writes ${total}: ${against} + ${total} = ${against + total}, ${plural(points, 'point')} (${sideName(g, team)}: ${teamScores[team]}).`;
  if (teamScores[team] >= g.target) {
    const winner: 0 | 1 = team === 0 ? 1 : 0;
    return {
      ...fresh,
      turns,
      teamScores,
      phase: 'over',
      winners: membersOf(g, winner),
      lastEvent: `${text} That reaches ${g.target}: ${sideName(g, winner)} ${hasTeams(g) ? 'win' : 'wins'} the game!`,
    };
  }
  const aim = aimedAt({ ...fresh, turns }, turnsPlayed);
  return { ...fresh, turns, teamScores, lastEvent: `${text}${aim === null ? '' : ` ${nameOf(g, next)} aims for ${TARGET_SUM - aim}.`}` };
}

// ---------------------------------------------------------------------------------------------
// A turn: throw five, then the re-rolls

/** How many dice the next re-roll may (steps: must) pick up: [min, max], or null when none. */
function rerollRange(g: HiLowState): [number, number] | null {
  if (g.dice.length === 0 || g.pickedUp !== null) return null;
  if (g.rerollRule === 'ten-dice') return g.rerollsLeft > 0 ? [1, Math.min(g.dice.length, g.rerollsLeft)] : null;
  const size = REROLL_STEPS[g.step];
  return size === undefined ? null : [size, size];
}

function afterThrow(g: HiLowState): HiLowState {
  const more = g.rerollRule === 'ten-dice' ? g.rerollsLeft > 0 : g.step < REROLL_STEPS.length;
  if (more) return g;
  // The last re-roll ends the turn by itself: the table still hears what it threw, then the total.
  const ended = endTurn(g);
  return { ...ended, lastEvent: `${g.lastEvent} ${ended.lastEvent}` };
}

function applyThrow(g: HiLowState, thrown: number[]): HiLowState {
  const name = nameOf(g, g.current);
  if (g.pickedUp === null) {
    return afterThrow({ ...g, dice: thrown, lastEvent: `${name} threw ${formatDice(thrown)} (${sum(thrown)}).` });
  }
  const dice = [...removeAll(g.dice, g.pickedUp).map(Number), ...thrown];
  const rerolled = {
    ...g,
    dice,
    pickedUp: null,
    step: g.rerollRule === 'steps' ? g.step + 1 : g.step,
    rerollsLeft: g.rerollRule === 'ten-dice' ? g.rerollsLeft - thrown.length : g.rerollsLeft,
    lastEvent: `${name} re-rolled ${formatDice(thrown)}: ${formatDice(dice)} (${sum(dice)}).`,
  };
  return afterThrow(rerolled);
}

function applyReroll(g: HiLowState, action: Action): HiLowState {
  const range = rerollRange(g);
  if (g.dice.length === 0) throw new RuleError('throw-first', 'Throw the five dice first.');
  if (g.pickedUp !== null) throw new RuleError('throw-picked-up', `Throw the ${formatDice(g.pickedUp)} you picked up first.`);
  if (range === null) throw new RuleError('no-rerolls-left', 'No re-rolls are left this turn.');
  const picked = action.dice;
  if (!Array.isArray(picked) || !picked.every((d) => typeof d === 'number')) {
    throw new RuleError('bad-dice', 'Say which dice you pick up, e.g. { "type": "reroll", "dice": [1, 2] }.');
  }
  const [min, max] = range;
  if (picked.length < min || picked.length > max) {
    const allowed = min === max ? `exactly ${plural(min, 'die', 'dice')}` : `${min} to ${max} dice`;
    throw new RuleError('wrong-reroll-count', `Re-roll ${allowed} now; ${picked.length} picked up.`);
  }
  if (!containsAll(g.dice, picked)) {
    const which = picked.length === 1 ? `${formatDice(picked)} is not` : `${formatDice(picked)} are not all`;
    throw new RuleError('not-on-table', `${which} among the dice on the table (${formatDice(g.dice)}).`);
  }
  return { ...g, pickedUp: picked, lastEvent: `${nameOf(g, g.current)} picks up ${formatDice(picked)}.` };
}

function applySkip(g: HiLowState): HiLowState {
  if (g.rerollRule !== 'steps') throw new RuleError('no-steps', 'With 10 re-roll dice there are no steps to skip; re-roll or write your total.');
  const range = rerollRange(g);
  if (range === null) throw new RuleError('nothing-to-skip', g.dice.length === 0 ? 'Throw the five dice first.' : 'Throw the dice you picked up first.');
  const skipped = { ...g, step: g.step + 1, lastEvent: `${nameOf(g, g.current)} does not re-roll ${plural(range[0], 'die', 'dice')}.` };
  return afterThrow(skipped);
}

function applyBank(g: HiLowState): HiLowState {
  if (g.dice.length === 0) throw new RuleError('throw-first', 'Throw the five dice first.');
  if (g.pickedUp !== null) throw new RuleError('throw-picked-up', `Throw the ${formatDice(g.pickedUp)} you picked up first.`);
  return endTurn(g);
}

function applyChoose(g: HiLowState, action: Action): HiLowState {
  if (g.mode === 'target-35') throw new RuleError('no-sides', 'In the 35-target game nobody rolls high or low.');
  if (g.phase !== 'choose-side') throw new RuleError('side-chosen', 'High and low are already chosen.');
  const side = action.side;
  if (side !== 'high' && side !== 'low') throw new RuleError('bad-side', 'Choose "high" or "low".');
  const starterTeam = teamOf(g.starter);
  const lowTeam: 0 | 1 = side === 'low' ? starterTeam : starterTeam === 0 ? 1 : 0;
  return { ...g, lowTeam, phase: 'turn', lastEvent: `${sideName(g, starterTeam)} ${hasTeams(g) ? 'roll' : 'rolls'} ${side}.` };
}

// ---------------------------------------------------------------------------------------------
// The table

function expectRoll(g: HiLowState): ExpectedRoll | null {
  if (g.phase !== 'turn') return null;
  const name = nameOf(g, g.current);
  if (g.dice.length === 0) {
    return { kit: STANDARD_KIT.id, player: g.current, count: 5, kept: [], prompt: `${name}: throw the five dice.` };
  }
  if (g.pickedUp === null) return null;
  const kept = removeAll(g.dice, g.pickedUp).map(Number);
  return {
    kit: STANDARD_KIT.id,
    player: g.current,
    count: g.pickedUp.length,
    kept,
    prompt:
      kept.length === 0
        ? `${name}: re-roll all ${plural(g.pickedUp.length, 'die', 'dice')}.`
        : `${name}: re-roll ${plural(g.pickedUp.length, 'die', 'dice')} (${formatDice(kept)} stay).`,
  };
}

function turnHeadline(g: HiLowState): string {
  const name = nameOf(g, g.current);
  const expect = expectRoll(g);
  const aim = g.mode === 'target-35' ? aimedAt(g, g.turnsPlayed) : null;
  const goal =
    g.mode === 'high-low'
      ? ` (${sideOf(g, g.current) ?? ''})`
      : aim === null
        ? ' (sets a total)'
        : ` (aims for ${TARGET_SUM - aim})`;
  if (expect) return `${name}${goal}: ${expect.prompt.slice(name.length + 2)}`;
  const range = rerollRange(g);
  const total = sum(g.dice);
  if (range && g.rerollRule === 'steps') return `${name}${goal}: ${total}. Re-roll ${plural(range[0], 'die', 'dice')} or not?`;
  return `${name}${goal}: ${total}. Re-roll up to ${plural(g.rerollsLeft, 'more die', 'more dice')} or write your total.`;
}

function legalMoves(g: HiLowState): LegalMove[] {
  if (g.phase === 'over') return [];
  const name = nameOf(g, g.current);
  if (g.phase === 'choose-side') {
    return (['low', 'high'] as const).map((side) => ({
      kind: 'action' as const,
      action: { type: 'choose', side },
      label: `${name} rolls ${side}`,
    }));
  }
  const expect = expectRoll(g);
  if (expect) return [{ kind: 'roll', expect, label: expect.prompt }];
  const moves: LegalMove[] = [];
  const range = rerollRange(g);
  if (range) {
    const [min, max] = range;
    moves.push({
      kind: 'choose-dice',
      actionType: 'reroll',
      from: [...g.dice],
      min,
      max,
      label: min === max ? `Pick up ${plural(min, 'die', 'dice')} to re-roll` : `Pick up 1 to ${max} dice to re-roll`,
    });
    if (g.rerollRule === 'steps') {
      moves.push({ kind: 'action', action: { type: 'skip' }, label: `Don't re-roll ${plural(min, 'die', 'dice')}` });
    }
  }
  moves.push({ kind: 'action', action: { type: 'bank' }, label: `Write ${sum(g.dice)}` });
  return moves;
}

function historyCell(g: HiLowState, p: PlayerIndex): string {
  if (g.mode === 'high-low') {
    return g.rounds
      .map((r) => (r.circled === p ? `(${r.totals[p] ?? 0})` : String(r.totals[p] ?? 0)))
      .join(' ');
  }
  return g.turns
    .filter((t) => t.player === p)
    .map((t) => (t.points === null ? String(t.total) : `${t.total}→${t.points}`))
    .join(' ');
}

function view(g: HiLowState): PlayView {
  const over = g.phase === 'over';
  const highLow = g.mode === 'high-low';
  const aim = highLow || over ? null : aimedAt(g, g.turnsPlayed);
  const headline = over
    ? g.lastEvent
    : g.phase === 'choose-side'
      ? `${g.lastEvent ? `${g.lastEvent} ` : ''}${nameOf(g, g.starter)} starts: choose high or low.`
      : `${g.lastEvent ? `${g.lastEvent} ` : ''}${turnHeadline(g)}`;
  const columns = [
    ...(hasTeams(g) ? [{ key: 'team', label: 'Team' }] : []),
    ...(highLow ? [{ key: 'side', label: 'Rolls' }] : []),
    { key: 'thisTurn', label: highLow ? 'This turn' : 'Last total' },
    { key: 'history', label: highLow ? 'Totals (circled in brackets)' : 'Totals (→ points)' },
  ];
  const rows = g.players.map((name, p) => {
    const team = teamOf(p);
    const cells: Record<string, string | number> = {};
    if (hasTeams(g)) cells.team = `Team ${team + 1}`;
    if (highLow) cells.side = sideOf(g, p) ?? '';
    const last = g.turns.filter((t) => t.player === p).at(-1);
    cells.thisTurn = highLow ? (g.roundTotals[p] ?? '') : (last?.total ?? '');
    cells.history = historyCell(g, p);
    return {
      player: p,
      name,
      score: g.teamScores[team],
      cells,
      marked: false,
      note: g.winners?.includes(p) === true ? 'winner' : !over && g.phase === 'turn' && g.current === p ? 'to play' : null,
    };
  });
  const details: Record<string, Json> = {
    mode: g.mode,
    rerollRule: g.rerollRule,
    target: g.target,
    lowTeam: g.lowTeam,
    teamScores: g.teamScores,
    total: g.dice.length > 0 ? sum(g.dice) : null,
    pickedUp: g.pickedUp,
    // only while a turn is on: after the game, nothing is re-rolled next
    nextReroll: g.rerollRule === 'steps' && g.phase !== 'over' ? (REROLL_STEPS[g.step] ?? null) : null,
    rerollsLeft: g.rerollRule === 'ten-dice' && g.phase !== 'over' ? g.rerollsLeft : null,
    aimFor: aim === null ? null : TARGET_SUM - aim,
    rounds: g.rounds,
    turns: g.turns,
    lastEvent: g.lastEvent,
  };
  return {
    phase: g.phase,
    current: over ? null : g.current,
    headline,
    slate: { scoreLabel: highLow ? 'Turns won' : 'Points against', columns, rows },
    dice: g.dice,
    details,
    legal: legalMoves(g),
  };
}

export const hiLow: GameDefinition<HiLowState> = {
  id: 'hi-low',
  name: '5-Dice Hi-Low',
  summary:
    'Two players or two teams of two. The starting player chooses to roll high or low. Each turn: throw five dice, ' +
    'then you may re-roll four, then three, then two, then one. When everyone has played, add the lowest and highest ' +
    'totals: under 35 low wins the turn, over 35 high wins, 35 is a tie. First to 5 turns won wins. ' +
    'Variations: re-roll 10 dice in all; or the 35-target game, where missing 35 costs points and 15 lose.',
  kit: STANDARD_KIT.id,
  diceCount: 5,
  players: { min: 2, max: 4 },
  options: [
    {
      key: 'winsToWin',
      kind: 'number',
      label: 'Turns won to win',
      description:
        'The first player or team to win this many turns wins. The sheet\'s WINNING section says 5 (used by default); its introduction says 6.',
      default: 5,
      min: 1,
      max: 50,
      integer: true,
    },
    {
      key: 'rerolls',
      kind: 'choice',
      label: 'Re-rolls',
      description: 'The sheet: re-roll four, then three, then two, then one die, each optional. Variation 1: re-roll 10 dice in all, any dice in any order.',
      default: 'steps',
      choices: [
        { value: 'steps', label: 'Re-roll 4, then 3, then 2, then 1 (each optional)' },
        { value: 'ten-dice', label: 'Variation 1: re-roll 10 dice in all, any dice, any order' },
      ],
    },
    {
      key: 'mode',
      kind: 'choice',
      label: 'Game',
      description:
        'The sheet\'s high/low game, or variation 2: aim to make 35 with the other side\'s total; you score the distance from 35, and at 15 points the other side wins.',
      default: 'high-low',
      choices: [
        { value: 'high-low', label: 'High or low (sheet rules)' },
        { value: 'target-35', label: 'Variation 2: total 35 with the other side' },
      ],
    },
    {
      key: 'losingPoints',
      kind: 'number',
      label: 'Points that lose (variation 2)',
      description: 'Variation 2: when a player or team has this many points, the other side wins (the sheet: 15).',
      default: 15,
      min: 1,
      max: 200,
      integer: true,
    },
    {
      key: 'teamTotals',
      kind: 'choice',
      label: 'Teams: totals added',
      description:
        'With two teams the sheet says "add the lowest and highest scores". By default that is the low team\'s lowest total and the high team\'s highest; or the lowest and highest totals at the table, whoever rolled them. With two players both are the same.',
      default: 'side-best',
      choices: [
        { value: 'side-best', label: "The low team's lowest and the high team's highest" },
        { value: 'table-extremes', label: 'The lowest and highest totals at the table' },
      ],
    },
    {
      key: 'targetTurns',
      kind: 'choice',
      label: 'Variation 2: turns',
      description:
        'The sheet: one player takes a turn and the next tries to make 35 with it, then the second takes a new turn for the first to match. Or a chain: every turn aims at the turn before.',
      default: 'set-then-match',
      choices: [
        { value: 'set-then-match', label: 'Set a total, then the other side matches it (sheet)' },
        { value: 'chain', label: 'Chain: every turn aims at the turn before' },
      ],
    },
  ],
  start: { rollOffDice: 2, defaultRule: 'roll-off' },
  defaultAnte: 0,
  phases: PHASES,
  checkSetup(players) {
    if (players.length !== 2 && players.length !== 4) {
      return `5-Dice Hi-Low is for 2 players or two teams of 2 (4 players, seated Team 1, Team 2, Team 1, Team 2); ${players.length} given.`;
    }
    return null;
  },
  setup: ({ players, options, starter }) => {
    const mode = choiceOption<HiLowMode>(options, 'mode');
    return {
      players: [...players],
      mode,
      rerollRule: choiceOption<RerollRule>(options, 'rerolls'),
      teamTotals: choiceOption<TeamTotals>(options, 'teamTotals'),
      targetTurns: choiceOption<TargetTurns>(options, 'targetTurns'),
      target: numberOption(options, mode === 'high-low' ? 'winsToWin' : 'losingPoints'),
      starter,
      lowTeam: null,
      phase: mode === 'high-low' ? 'choose-side' : 'turn',
      current: starter,
      turnsPlayed: 0,
      dice: [],
      pickedUp: null,
      step: 0,
      rerollsLeft: 10,
      roundTotals: players.map(() => null),
      rounds: [],
      turns: [],
      teamScores: [0, 0],
      winners: null,
      lastEvent: '',
    };
  },
  apply(g, action: Action) {
    if (g.phase === 'over') throw new RuleError('game-over', 'The game is over.');
    if (action.type === 'choose') return applyChoose(g, action);
    if (g.phase === 'choose-side') {
      throw new RuleError('choose-side-first', `${nameOf(g, g.starter)} first chooses to roll high or low.`);
    }
    switch (action.type) {
      case 'roll':
        if (g.dice.length > 0 && g.pickedUp === null) {
          throw new RuleError('pick-up-first', 'Say which dice you pick up before re-rolling them.');
        }
        return applyThrow(g, action.dice as number[]);
      case 'reroll':
        return applyReroll(g, action);
      case 'skip':
        return applySkip(g);
      case 'bank':
        return applyBank(g);
      default:
        throw new RuleError('unknown-action', `5-Dice Hi-Low has no "${action.type}" action; throw, re-roll, skip, or bank (write your total).`);
    }
  },
  expectRoll,
  view,
  winners: (g) => g.winners,
};
