/**
 * 5-Dice Tug ("Five New 5-Dice Games", Paul Hoemke), for two players tugging one string of
 * five dice: one wants five different numbers, the other exactly three of one number (never
 * with both a 1 and a 6). The starting player chooses, then throws the string; players take
 * turns re-rolling one or two dice (two together). Forming your combination scores a point and
 * your opponent throws a new string and plays next. First to 5. Variation 1: 1, 2, 3, 4 …
 * dice per turn in any combination; variation 2: exactly two dice every turn.
 * Rules as implemented and the choices made: docs/rules/tug.md.
 */
import { STANDARD_KIT } from '../../dice/index.ts';
import { containsAll, countTokens, formatDice, plural, removeAll } from '../dice.ts';
import { RuleError } from '../errors.ts';
import { booleanOption, choiceOption, numberOption } from '../options.ts';
import type { Action, ExpectedRoll, GameDefinition, LegalMove, PlayerIndex, PlayView } from '../types.ts';

export type Combination = 'all-different' | 'three-of-a-kind';
/** Sheet: one or two dice; variation 1: 1, 2, 3 … dice per turn; variation 2: exactly two. */
export type TugRerolls = 'one-or-two' | 'increasing' | 'exactly-two';
/** When a re-roll forms the opponent's combination (the sheet is silent). */
export type OpponentCombination = 'opponent-scores' | 'no-score';

const COMBINATION_LABELS: Readonly<Record<Combination, string>> = {
  'all-different': 'five different numbers',
  'three-of-a-kind': 'three of a kind',
};

/** Five dice, no two numbers the same. */
export function isAllDifferent(dice: readonly number[]): boolean {
  return dice.length === 5 && new Set(dice).size === 5;
}

/**
 * The same number on exactly three dice, and not both a 1 and a 6 among the five. The other
 * two dice must differ (a full house 3+2 does not count) unless `fullHouseCounts`.
 */
export function isThreeOfAKind(dice: readonly number[], fullHouseCounts: boolean): boolean {
  return hasThreeOfAKindShape(dice, fullHouseCounts) && !hasOneAndSix(dice);
}

/** The same number on exactly three dice (the other two differing unless `fullHouseCounts`). */
function hasThreeOfAKindShape(dice: readonly number[], fullHouseCounts: boolean): boolean {
  if (dice.length !== 5) return false;
  const counts = [...countTokens(dice).values()];
  if (!counts.includes(3)) return false;
  return fullHouseCounts || !counts.includes(2);
}

const hasOneAndSix = (dice: readonly number[]): boolean => dice.includes(1) && dice.includes(6);

/**
 * The headline's clause for dice that show three or more of a number yet are not three of a kind:
 * a table sees three 6s and asks why they do not score. The sheet's three reasons, in the order a
 * player checks them: four or five of a kind are not "exactly three", a full house does not count
 * (unless `fullHouseCounts`), and a 1 and a 6 may not both be there. Empty otherwise.
 */
function notThreeOfAKindClause(dice: readonly number[], fullHouseCounts: boolean): string {
  if (dice.length !== 5 || isThreeOfAKind(dice, fullHouseCounts)) return '';
  const counts = countTokens(dice);
  const most = Math.max(...counts.values());
  if (most < 3) return '';
  if (most > 3) {
    const face = [...counts].find(([, n]) => n === most)?.[0];
    return ` (not three of a kind: ${most === 4 ? 'four' : 'five'} ${face}s)`;
  }
  if (!fullHouseCounts && [...counts.values()].includes(2)) return ' (not three of a kind: a full house)';
  return ' (not three of a kind: both a 1 and a 6)';
}

function showsCombination(dice: readonly number[], combination: Combination, fullHouseCounts: boolean): boolean {
  return combination === 'all-different' ? isAllDifferent(dice) : isThreeOfAKind(dice, fullHouseCounts);
}

export type TugState = {
  players: string[];
  target: number;
  rerolls: TugRerolls;
  opponentCombination: OpponentCombination;
  fullHouseCounts: boolean;
  /** Variation 1: the count of dice per turn starts again at one with every new string. */
  countRestarts: boolean;
  /** Each player's combination, once the starting player has chosen. */
  combinations: Combination[] | null;
  /**
   * `choose`: the starting player picks a combination; `set-string`: the current player throws
   * all five to set the string; `turn`: the current player re-rolls; `over`.
   */
  phase: 'choose' | 'set-string' | 'turn' | 'over';
  current: PlayerIndex;
  /** The string (five dice once set). */
  dice: number[];
  /** Dice picked up for the re-roll awaited now, or null. */
  pickedUp: number[] | null;
  /** Variation 1: turns played in the count (the turn's allowance is this + 1). */
  turnCount: number;
  /** Variation 1: dice re-rolled so far this turn. */
  usedThisTurn: number;
  scores: number[];
  winner: PlayerIndex | null;
  lastEvent: string;
};

/** The table's words for each phase, beside whose turn it is (null: the headline says it all). */
const PHASES = {
  choose: 'choosing a combination',
  'set-string': 'setting the string',
  turn: null,
  over: null,
} as const satisfies Record<TugState['phase'], string | null>;

const nameOf = (g: TugState, p: PlayerIndex): string => g.players[p] ?? '?';
const other = (p: PlayerIndex): PlayerIndex => (p === 0 ? 1 : 0);

function combinationOf(g: TugState, p: PlayerIndex): Combination {
  return g.combinations?.[p] ?? 'all-different';
}

/** Who the dice show a combination for, if anyone (both can never show at once). */
function owner(g: TugState, dice: readonly number[]): PlayerIndex | null {
  for (const p of [0, 1]) {
    if (showsCombination(dice, combinationOf(g, p), g.fullHouseCounts)) return p;
  }
  return null;
}

/** Dice the current turn allows: [min, max] for the next pick-up. */
function rerollRange(g: TugState): [number, number] {
  switch (g.rerolls) {
    case 'one-or-two':
      return [1, 2];
    case 'exactly-two':
      return [2, 2];
    case 'increasing':
      return [1, Math.min(5, allowance(g) - g.usedThisTurn)];
  }
}

const allowance = (g: TugState): number => g.turnCount + 1;

/**
 * `scorer` scores. Whoever scores, the scorer's opponent throws the new string and plays next
 * (the sheet's rule after a turn, and after a string that shows a combination).
 */
function score(g: TugState, scorer: PlayerIndex, why: string): TugState {
  const scores = g.scores.map((s, i) => (i === scorer ? s + 1 : s));
  const total = scores[scorer] ?? 0;
  const text = `${why} ${nameOf(g, scorer)} scores (${total} of ${g.target}).`;
  if (total >= g.target) {
    return { ...g, scores, pickedUp: null, phase: 'over', winner: scorer, lastEvent: `${text} ${nameOf(g, scorer)} wins!` };
  }
  const setter = other(scorer);
  return {
    ...g,
    scores,
    phase: 'set-string',
    current: setter,
    pickedUp: null,
    usedThisTurn: 0,
    lastEvent: `${text} ${nameOf(g, setter)} throws a new string.`,
  };
}

function applySetString(g: TugState, dice: number[]): TugState {
  const name = nameOf(g, g.current);
  const turnCount = g.countRestarts ? 0 : g.turnCount;
  const set = { ...g, dice, turnCount, usedThisTurn: 0 };
  const shows = owner(g, dice);
  if (shows !== null) {
    return score(set, shows, `${name}'s string ${formatDice(dice)} shows ${COMBINATION_LABELS[combinationOf(g, shows)]}:`);
  }
  const why = notThreeOfAKindClause(dice, g.fullHouseCounts);
  return { ...set, phase: 'turn', lastEvent: `${name} sets the string ${formatDice(dice)}${why}.` };
}

function applyReroll(g: TugState, action: Action): TugState {
  if (g.pickedUp !== null) throw new RuleError('throw-picked-up', `Throw the ${formatDice(g.pickedUp)} you picked up first.`);
  const picked = action.dice;
  if (!Array.isArray(picked) || !picked.every((d) => typeof d === 'number')) {
    throw new RuleError('bad-dice', 'Say which dice you pick up, e.g. { "type": "reroll", "dice": [3, 3] }.');
  }
  const [min, max] = rerollRange(g);
  if (picked.length < min || picked.length > max) {
    const allowed =
      g.rerolls === 'one-or-two'
        ? 'one or two dice'
        : g.rerolls === 'exactly-two'
          ? 'exactly two dice'
          : max === 1
            ? 'one more die this turn'
            : `1 to ${max} more dice this turn`;
    throw new RuleError('wrong-reroll-count', `Re-roll ${allowed}; ${picked.length} picked up.`);
  }
  if (!containsAll(g.dice, picked)) {
    const which = picked.length === 1 ? `${formatDice(picked)} is not` : `${formatDice(picked)} are not all`;
    throw new RuleError('not-on-table', `${which} in the string (${formatDice(g.dice)}).`);
  }
  return { ...g, pickedUp: picked, lastEvent: `${nameOf(g, g.current)} picks up ${formatDice(picked)}.` };
}

function applyRerollThrow(g: TugState, thrown: number[]): TugState {
  const p = g.current;
  const name = nameOf(g, p);
  const dice = [...removeAll(g.dice, g.pickedUp ?? []).map(Number), ...thrown];
  const after = { ...g, dice, pickedUp: null, usedThisTurn: g.usedThisTurn + thrown.length };
  const why = notThreeOfAKindClause(dice, g.fullHouseCounts);
  const text = `${name} re-rolled ${formatDice(thrown)}: ${formatDice(dice)}${why}.`;
  const shows = owner(g, dice);
  // A point ends the turn; it still counts in variation 1's growing count of dice.
  const turnDone = { ...after, turnCount: g.turnCount + 1 };
  if (shows === p) return score(turnDone, p, `${text} That is ${COMBINATION_LABELS[combinationOf(g, p)]}:`);
  if (shows !== null && g.opponentCombination === 'opponent-scores') {
    return score(turnDone, shows, `${text} That is ${nameOf(g, shows)}'s ${COMBINATION_LABELS[combinationOf(g, shows)]}:`);
  }
  if (g.rerolls === 'increasing' && after.usedThisTurn < allowance(g)) {
    const left = allowance(g) - after.usedThisTurn;
    return { ...after, lastEvent: `${text} ${plural(left, 'die', 'dice')} left to re-roll.` };
  }
  const next = other(p);
  return { ...after, current: next, turnCount: g.turnCount + 1, usedThisTurn: 0, lastEvent: `${text} ${nameOf(g, next)}'s turn.` };
}

function applyChoose(g: TugState, action: Action): TugState {
  if (g.phase !== 'choose') throw new RuleError('combination-chosen', 'The combinations are already chosen.');
  const choice = action.combination;
  if (choice !== 'all-different' && choice !== 'three-of-a-kind') {
    throw new RuleError('bad-combination', 'Choose "all-different" or "three-of-a-kind".');
  }
  const rest: Combination = choice === 'all-different' ? 'three-of-a-kind' : 'all-different';
  const combinations = g.players.map((_, i) => (i === g.current ? choice : rest));
  return {
    ...g,
    combinations,
    phase: 'set-string',
    lastEvent: `${nameOf(g, g.current)} plays for ${COMBINATION_LABELS[choice]}, ${nameOf(g, other(g.current))} for ${COMBINATION_LABELS[rest]}.`,
  };
}

function expectRoll(g: TugState): ExpectedRoll | null {
  const name = nameOf(g, g.current);
  if (g.phase === 'set-string') {
    return { kit: STANDARD_KIT.id, player: g.current, count: 5, kept: [], prompt: `${name}: throw all five dice to set the string.` };
  }
  if (g.phase !== 'turn' || g.pickedUp === null) return null;
  const kept = removeAll(g.dice, g.pickedUp).map(Number);
  return {
    kit: STANDARD_KIT.id,
    player: g.current,
    count: g.pickedUp.length,
    kept,
    prompt:
      kept.length === 0
        ? `${name}: re-roll all ${plural(g.pickedUp.length, 'die', 'dice')} together.`
        : `${name}: re-roll ${g.pickedUp.length === 1 ? 'the die' : `${plural(g.pickedUp.length, 'die', 'dice')} together`} (${formatDice(kept)} stay).`,
  };
}

function pickLabel(g: TugState): string {
  const [min, max] = rerollRange(g);
  if (g.rerolls === 'one-or-two') return 'Pick up one or two dice to re-roll';
  if (min === max) return `Pick up ${plural(min, 'die', 'dice')} to re-roll`;
  return `Pick up 1 to ${max} dice to re-roll (${allowance(g) - g.usedThisTurn} of ${allowance(g)} left this turn)`;
}

function view(g: TugState): PlayView {
  const over = g.phase === 'over';
  const name = nameOf(g, g.current);
  const legal: LegalMove[] = [];
  const expect = expectRoll(g);
  if (expect) legal.push({ kind: 'roll', expect, label: expect.prompt });
  if (g.phase === 'choose') {
    for (const c of ['all-different', 'three-of-a-kind'] as const) {
      legal.push({ kind: 'action', action: { type: 'choose', combination: c }, label: `${name} plays for ${COMBINATION_LABELS[c]}` });
    }
  }
  if (g.phase === 'turn' && g.pickedUp === null) {
    const [min, max] = rerollRange(g);
    legal.push({ kind: 'choose-dice', actionType: 'reroll', from: [...g.dice], min, max, label: pickLabel(g) });
  }
  const before = g.lastEvent ? `${g.lastEvent} ` : '';
  const headline = over
    ? g.lastEvent
    : g.phase === 'choose'
      ? `${name} starts: choose five different numbers or three of a kind.`
      : g.phase === 'turn' && g.pickedUp === null
        ? `${before}${name} (${COMBINATION_LABELS[combinationOf(g, g.current)]}): ${pickLabel(g).toLowerCase()}.`
        : `${before}${expect?.prompt ?? ''}`.trim();
  return {
    phase: g.phase,
    current: over ? null : g.current,
    headline,
    slate: {
      scoreLabel: 'Points',
      columns: [{ key: 'combination', label: 'Plays for' }],
      rows: g.players.map((player, i) => ({
        player: i,
        name: player,
        score: g.scores[i] ?? 0,
        cells: { combination: g.combinations ? COMBINATION_LABELS[combinationOf(g, i)] : '' },
        marked: false,
        note: g.winner === i ? 'winner' : null,
      })),
    },
    dice: g.dice,
    details: {
      combinations: g.combinations,
      pickedUp: g.pickedUp,
      rerolls: g.rerolls,
      // only during a turn: while a string is thrown the count still belongs to the turn before it
      allowance: g.rerolls === 'increasing' && g.phase === 'turn' ? allowance(g) : null,
      rerolledThisTurn: g.rerolls === 'increasing' ? g.usedThisTurn : null,
      target: g.target,
      lastEvent: g.lastEvent,
    },
    legal,
  };
}

export const tug: GameDefinition<TugState> = {
  id: 'tug',
  name: '5-Dice Tug',
  summary:
    'Two players tug one string of five dice: one wants five different numbers, the other exactly three of a kind ' +
    '(never with both a 1 and a 6). The starting player chooses and throws the string; then re-roll one or two dice ' +
    'a turn. Form your combination to score; your opponent throws a new string and plays next. First to 5 points. ' +
    'Variations: 1, 2, 3, 4 … dice per turn; or exactly two dice every turn.',
  kit: STANDARD_KIT.id,
  diceCount: 5,
  players: { min: 2, max: 2 },
  options: [
    {
      key: 'pointsToWin',
      kind: 'number',
      label: 'Points to win',
      description: 'The first player to score this many points wins (the sheet: 5).',
      default: 5,
      min: 1,
      max: 50,
      integer: true,
    },
    {
      key: 'rerolls',
      kind: 'choice',
      label: 'Re-rolls',
      description:
        'The sheet: re-roll one or two dice (two together). Variation 1: 1 die on the first turn, 2 on the next, 3, 4 … in any combination until formed or used. Variation 2: exactly two dice every turn.',
      default: 'one-or-two',
      choices: [
        { value: 'one-or-two', label: 'One or two dice a turn (sheet)' },
        { value: 'increasing', label: 'Variation 1: 1, 2, 3, 4 … dice a turn, in any combination' },
        { value: 'exactly-two', label: 'Variation 2: exactly two dice every turn' },
      ],
    },
    {
      key: 'countRestarts',
      kind: 'boolean',
      label: 'Variation 1: count restarts with each string',
      description: 'Variation 1: after a point, the new string starts the count again at one die (the sheet is silent). Off: the count keeps growing all game.',
      default: true,
    },
    {
      key: 'opponentCombination',
      kind: 'choice',
      label: "Forming the opponent's combination",
      description:
        "The sheet is silent. By default it scores for the opponent, as a new string showing a player's combination does; or it scores nothing and play goes on.",
      default: 'opponent-scores',
      choices: [
        { value: 'opponent-scores', label: 'Scores for the opponent' },
        { value: 'no-score', label: 'Scores nothing' },
      ],
    },
    {
      key: 'fullHouseCounts',
      kind: 'boolean',
      label: 'A full house (3 + 2) counts as three of a kind',
      description:
        'The sheet: "the same number on exactly three dice". By default the other two dice must differ, as with the 1-and-6 rule it keeps the odds of the two combinations near each other.',
      default: false,
    },
  ],
  start: { rollOffDice: 2, defaultRule: 'roll-off' },
  defaultAnte: 0,
  phases: PHASES,
  setup: ({ players, options, starter }) => ({
    players: [...players],
    target: numberOption(options, 'pointsToWin'),
    rerolls: choiceOption<TugRerolls>(options, 'rerolls'),
    opponentCombination: choiceOption<OpponentCombination>(options, 'opponentCombination'),
    fullHouseCounts: booleanOption(options, 'fullHouseCounts'),
    countRestarts: booleanOption(options, 'countRestarts'),
    combinations: null,
    phase: 'choose',
    current: starter,
    dice: [],
    pickedUp: null,
    turnCount: 0,
    usedThisTurn: 0,
    scores: players.map(() => 0),
    winner: null,
    lastEvent: '',
  }),
  apply(g, action: Action) {
    if (g.phase === 'over') throw new RuleError('game-over', 'The game is over.');
    if (action.type === 'choose') return applyChoose(g, action);
    if (g.phase === 'choose') {
      throw new RuleError('choose-first', `${nameOf(g, g.current)} first chooses a combination.`);
    }
    switch (action.type) {
      case 'roll':
        if (g.phase === 'set-string') return applySetString(g, action.dice as number[]);
        if (g.pickedUp === null) throw new RuleError('pick-up-first', 'Say which dice you pick up before re-rolling them.');
        return applyRerollThrow(g, action.dice as number[]);
      case 'reroll':
        if (g.phase !== 'turn') throw new RuleError('set-string-first', 'First throw all five dice to set the string.');
        return applyReroll(g, action);
      default:
        throw new RuleError('unknown-action', `5-Dice Tug has no "${action.type}" action; pick up dice and re-roll them.`);
    }
  },
  expectRoll,
  view,
  winners: (g) => (g.winner === null ? null : [g.winner]),
};
