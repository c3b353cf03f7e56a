/**
 * 5-Dice Dominoes ("Five New 5-Dice Games", Paul Hoemke): build a string of dice in which no
 * number repeats and side-by-side dice "match" (the smaller pip pattern lies inside the larger).
 * Head to head (2 players): one die is thrown up to three times a turn and placed at an end it
 * matches; the round ends when a player fails to add or adds the fifth die, and the last
 * player to add scores. Variation 1 also lets a die replace an end die; variation 2 (2–4
 * players) is a solo series per turn: 1 die, then 4, 3, 2, 1 dice, scoring the string's length.
 * Rules as implemented and the choices made: docs/rules/dominoes.md.
 */
import { STANDARD_KIT } from '../../dice/index.ts';
import { andList, formatDice, plural } from '../dice.ts';
import { RuleError } from '../errors.ts';
import { choiceOption, numberOption } from '../options.ts';
import type { Action, ExpectedRoll, GameDefinition, LegalMove, PlayerIndex, PlayView, SlateColumn } from '../types.ts';

/**
 * Which dice match, as the sheet lists them: two dice match when the pips of the smaller lie
 * within the pattern of the larger.
 */
export const DOMINO_MATCHES: Readonly<Record<number, readonly number[]>> = {
  1: [3, 5],
  2: [3, 4, 5, 6],
  3: [1, 2, 5],
  4: [2, 5, 6],
  5: [1, 2, 3, 4],
  6: [2, 4],
};

export function diceMatch(a: number, b: number): boolean {
  return DOMINO_MATCHES[a]?.includes(b) ?? false;
}

/** The sheet's game, variation 1 (substitute an end die), variation 2 (individual series). */
export type DominoesVariation = 'standard' | 'substitute' | 'series';
export type StringEnd = 'left' | 'right';
/** Variation 2: a tie for the highest score shares the win, or the tied players play off. */
export type SeriesTie = 'share' | 'play-off';

/** One way to put a thrown die on the string. */
export type Placement = { kind: 'add' | 'substitute'; die: number; end: StringEnd };

/** A string ends when it reaches this many dice (the set has five). */
const FULL_STRING = 5;
/** Head to head: throws of one die allowed per turn. */
const THROWS_PER_TURN = 3;

export type DominoesState = {
  players: string[];
  variation: DominoesVariation;
  /** Rounds to win (head to head) or points that end the game (series). */
  target: number;
  /** Rounds won (head to head) or points (series). */
  scores: number[];
  /**
   * `establish`: the current player throws one die to begin the string; `roll`: the current
   * player throws to add to it; `place`: the thrown dice fit in more than one way and the
   * player chooses; `over`.
   */
  phase: 'establish' | 'roll' | 'place' | 'over';
  current: PlayerIndex;
  /** The string, left to right. */
  string: number[];
  /** Dice of the last throw (what the `place` phase chooses from). */
  lastThrow: number[];
  /** Head to head: throws made in this turn (at most three). */
  throwsThisTurn: number;
  /** Head to head: who began this round's string. */
  roundStarter: PlayerIndex;
  /** Head to head: who last put a die on the string this round (beginning it counts). */
  lastPlacer: PlayerIndex | null;
  round: number;
  /** Series: turns each player has finished, and the points of their last turn. */
  turnsTaken: number[];
  lastTurnPoints: (number | null)[];
  /** Series: what a tie for the highest score does, and the players in a play-off (null: none). */
  seriesTie: SeriesTie;
  playOff: PlayerIndex[] | null;
  winners: PlayerIndex[] | null;
  /** What happened last, for the table. */
  lastEvent: string;
};

/** The table's words for each phase, beside whose turn it is (null: the headline says it all). */
const PHASES = {
  establish: 'starting a new string',
  roll: 'adding to the string',
  place: 'placing a die',
  over: null,
} as const satisfies Record<DominoesState['phase'], string | null>;

// ---------------------------------------------------------------------------------------------
// The string

function canAddAt(string: readonly number[], die: number, end: StringEnd): boolean {
  if (string.length === 0 || string.includes(die)) return false;
  const neighbour = end === 'left' ? string[0] : string.at(-1);
  return neighbour !== undefined && diceMatch(die, neighbour);
}

/**
 * Variation 1: the die replaces the end die. It must differ from every number on the string
 * and match the die next to the end one, so the string needs at least two dice.
 */
function canSubstituteAt(string: readonly number[], die: number, end: StringEnd): boolean {
  if (string.length < 2 || string.includes(die)) return false;
  const inner = end === 'left' ? string[1] : string.at(-2);
  return inner !== undefined && diceMatch(die, inner);
}

function placeOnString(string: readonly number[], p: Placement): number[] {
  if (p.kind === 'add') return p.end === 'left' ? [p.die, ...string] : [...string, p.die];
  return p.end === 'left' ? [p.die, ...string.slice(1)] : [...string.slice(0, -1), p.die];
}

/**
 * Every different way to put one of `dice` on the string. Placements giving the same string
 * (or its mirror image: a string reads the same from either side) count once, so a one-die
 * string offers one way to add each die, not a left and a right.
 */
export function placements(string: readonly number[], dice: readonly number[], allowSubstitute: boolean): Placement[] {
  const found: Placement[] = [];
  const seen = new Set<string>();
  for (const die of dice) {
    for (const kind of allowSubstitute ? (['add', 'substitute'] as const) : (['add'] as const)) {
      for (const end of ['right', 'left'] as const) {
        const fits = kind === 'add' ? canAddAt(string, die, end) : canSubstituteAt(string, die, end);
        if (!fits) continue;
        const result = placeOnString(string, { kind, die, end });
        const key = [result.join(','), [...result].reverse().join(',')].sort()[0] ?? '';
        if (seen.has(key)) continue;
        seen.add(key);
        found.push({ kind, die, end });
      }
    }
  }
  return found;
}

/**
 * True when some number could still go on the string (added, or substituted in variation 1).
 * When none can — 1 5 2 3: the 1 matches only 3 and 5, the 3 only 1, 2 and 5 — the next player
 * is sure to fail, so the engine ends the round (or the series turn) without asking for throws.
 */
export function stringCanGrow(string: readonly number[], allowSubstitute: boolean): boolean {
  return placements(string, [1, 2, 3, 4, 5, 6], allowSubstitute).length > 0;
}

/** Variation 1: a throw that fits only by substitution may be declined (substituting is optional). */
function onlySubstitutions(ways: readonly Placement[]): boolean {
  return ways.length > 0 && ways.every((w) => w.kind === 'substitute');
}

// ---------------------------------------------------------------------------------------------
// Play

const nameOf = (g: DominoesState, p: PlayerIndex): string => g.players[p] ?? '?';
const isSeries = (g: DominoesState): boolean => g.variation === 'series';
const other = (p: PlayerIndex): PlayerIndex => (p === 0 ? 1 : 0);

/**
 * A placement in words: `move` for a button ("add 4 on the right, next to 5"), `done` for what
 * a player did ("adds 4 …"), so the headline does not read as an order to the player just named.
 */
function describePlacement(g: DominoesState, p: Placement, said: 'move' | 'done' = 'move'): string {
  const { string } = g;
  const [add, put] = said === 'done' ? ['adds', 'puts'] : ['add', 'put'];
  if (string.length === 1) return `${add} ${p.die} next to ${string[0] ?? '?'}`;
  const endDie = p.end === 'left' ? string[0] : string.at(-1);
  if (p.kind === 'add') return `${add} ${p.die} on the ${p.end}, next to ${endDie ?? '?'}`;
  return `${put} ${p.die} in place of the ${endDie ?? '?'} on the ${p.end}`;
}

/** Head to head: the round ends and `scorer` (the last to place a die) scores. */
function endRound(g: DominoesState, scorer: PlayerIndex, why: string): DominoesState {
  const scores = g.scores.map((s, i) => (i === scorer ? s + 1 : s));
  const won = scores[scorer] ?? 0;
  const text = `${why} ${nameOf(g, scorer)} wins the round (${won} of ${g.target}).`;
  if (won >= g.target) {
    return { ...g, scores, phase: 'over', winners: [scorer], lastEvent: `${text} ${nameOf(g, scorer)} wins the game!` };
  }
  // The other player becomes the new starting player and begins the next string.
  const starter = other(scorer);
  return {
    ...g,
    scores,
    phase: 'establish',
    current: starter,
    roundStarter: starter,
    round: g.round + 1,
    string: [],
    lastThrow: [],
    throwsThisTurn: 0,
    lastPlacer: null,
    lastEvent: `${text} ${nameOf(g, starter)} begins the next string.`,
  };
}

/** Series: the player's turn ends; they score the dice on their string. */
function endSeriesTurn(g: DominoesState, why: string): DominoesState {
  const points = g.string.length;
  const p = g.current;
  const scores = g.scores.map((s, i) => (i === p ? s + points : s));
  const turnsTaken = g.turnsTaken.map((t, i) => (i === p ? t + 1 : t));
  const lastTurnPoints = g.lastTurnPoints.map((t, i) => (i === p ? points : t));
  const text = `${why} ${nameOf(g, p)} scores ${plural(points, 'point')} (total ${scores[p] ?? 0}).`;
  // Who is still playing: everyone, or in a play-off only the players tied for the lead.
  const active = g.playOff ?? g.players.map((_, i) => i);
  const reached = scores.some((s) => s >= g.target);
  const evenTurns = active.every((i) => turnsTaken[i] === turnsTaken[active[0] ?? 0]);
  const scored = { ...g, scores, turnsTaken, lastTurnPoints };
  if (reached && evenTurns) {
    const best = Math.max(...active.map((i) => scores[i] ?? 0));
    const winners = active.filter((i) => scores[i] === best);
    const names = andList(winners.map((w) => nameOf(g, w)));
    if (winners.length === 1 || g.seriesTie === 'share') {
      return {
        ...scored,
        phase: 'over',
        winners,
        lastEvent: `${text} ${names} ${winners.length > 1 ? 'share the win' : 'wins'} with ${best}.`,
      };
    }
    // House rule: the tied players play one more turn each, in seating order, until one leads.
    const first = winners.find((i) => i > p) ?? winners[0] ?? p;
    return {
      ...scored,
      playOff: winners,
      phase: 'establish',
      current: first,
      string: [],
      lastThrow: [],
      lastEvent: `${text} ${names} tie with ${best}: one more turn each.`,
    };
  }
  const next = active.find((i) => i > p) ?? active[0] ?? p;
  // Said once, by the turn that first reaches the target: later turns of that round set off
  // nothing new (the table's details keep saying how the game ends).
  const firstReached = reached && !g.scores.some((s) => s >= g.target);
  return {
    ...scored,
    phase: 'establish',
    current: next,
    string: [],
    lastThrow: [],
    lastEvent: `${text}${firstReached ? ' Play on until everyone has had as many turns.' : ''}`,
  };
}

function applyPlacement(g: DominoesState, p: Placement): DominoesState {
  const string = placeOnString(g.string, p);
  const name = nameOf(g, g.current);
  const text = `${name} ${describePlacement(g, p, 'done')}.`;
  const placed = { ...g, string, lastThrow: [] };
  const dead = string.length < FULL_STRING && !stringCanGrow(string, g.variation === 'substitute');
  const deadText = `${text} No die can be added to ${formatDice(string)}.`;
  if (isSeries(g)) {
    if (string.length >= FULL_STRING) return endSeriesTurn(placed, `${text} The string is complete.`);
    if (dead) return endSeriesTurn(placed, deadText);
    return { ...placed, phase: 'roll', lastEvent: text };
  }
  if (string.length >= FULL_STRING) return endRound(placed, g.current, `${text} That is the fifth die.`);
  // The opponent is sure to fail: they "fail to add a die" without throwing for nothing.
  if (dead) return endRound(placed, g.current, deadText);
  const next = other(g.current);
  return {
    ...placed,
    phase: 'roll',
    current: next,
    lastPlacer: g.current,
    throwsThisTurn: 0,
    lastEvent: `${text} ${nameOf(g, next)}'s turn.`,
  };
}

function applyThrow(g: DominoesState, dice: number[]): DominoesState {
  const name = nameOf(g, g.current);
  if (g.phase === 'establish') {
    const die = dice[0] ?? 0;
    const begun = { ...g, string: [die], lastThrow: [], lastEvent: `${name} begins the string with ${die}.` };
    if (isSeries(g)) return { ...begun, phase: 'roll' };
    const next = other(g.current);
    return { ...begun, phase: 'roll', current: next, lastPlacer: g.current, throwsThisTurn: 0 };
  }
  const ways = placements(g.string, dice, g.variation === 'substitute');
  const thrown = { ...g, lastThrow: dice, throwsThisTurn: g.throwsThisTurn + 1 };
  const only = ways[0];
  // Variation 1's substitution is optional ("you can … substitute"): the player may decline it.
  if (onlySubstitutions(ways)) {
    return { ...thrown, phase: 'place', lastEvent: `${name} threw ${formatDice(dice)}: substitute it, or not.` };
  }
  if (ways.length === 1 && only) return applyPlacement(thrown, only);
  if (ways.length > 1) {
    return { ...thrown, phase: 'place', lastEvent: `${name} threw ${formatDice(dice)}: choose where it goes.` };
  }
  const why = isSeries(g) ? 'nothing fits' : dice.length === 1 && g.string.includes(dice[0] ?? 0) ? 'already on the string' : 'no match';
  return noDieAdded(thrown, `${name} threw ${formatDice(dice)}`, why);
}

/**
 * The throw just made puts no die on the string: `why` it did not fit, or null when the player
 * declined a substitution. Head to head the player throws again, up to three throws.
 */
function noDieAdded(thrown: DominoesState, what: string, why: string | null): DominoesState {
  const base = { ...thrown, phase: 'roll' as const };
  if (isSeries(thrown)) return endSeriesTurn(base, `${what}: ${why ?? 'no die added'}.`);
  if (thrown.throwsThisTurn < THROWS_PER_TURN) {
    const left = THROWS_PER_TURN - thrown.throwsThisTurn;
    return { ...base, lastEvent: `${what}${why ? `: ${why}` : ''}, ${plural(left, 'throw')} left.` };
  }
  // The last player to put a die on the string (its beginning counts) wins the round.
  const failed = why === 'no match' ? `${what}: no match in three throws.` : `${what}${why ? ` (${why})` : ''}: no die added in three throws.`;
  return endRound(base, thrown.lastPlacer ?? other(thrown.current), failed);
}

/** Variation 1: the player declines to substitute the die just thrown. */
function applySkip(g: DominoesState): DominoesState {
  const ways = placements(g.string, g.lastThrow, g.variation === 'substitute');
  if (g.phase !== 'place' || !onlySubstitutions(ways)) {
    throw new RuleError(
      'must-place',
      g.phase === 'place' ? `${formatDice(g.lastThrow)} can be added to the string, so it must be placed.` : 'There is no substitution to decline now.',
    );
  }
  return noDieAdded(g, `${nameOf(g, g.current)} does not substitute the ${formatDice(g.lastThrow)}`, null);
}

function readPlacement(g: DominoesState, action: Action): Placement {
  const kind = action.type === 'substitute' ? 'substitute' : 'add';
  const { end } = action;
  if (end !== 'left' && end !== 'right') {
    throw new RuleError('bad-end', 'Say which end of the string: "left" or "right".');
  }
  let die = action.die;
  if (die === undefined && g.lastThrow.length === 1) die = g.lastThrow[0];
  if (typeof die !== 'number' || !g.lastThrow.includes(die)) {
    throw new RuleError('not-thrown', `Place one of the dice just thrown (${formatDice(g.lastThrow)}).`);
  }
  if (kind === 'substitute' && g.variation !== 'substitute') {
    throw new RuleError('no-substitute', 'Replacing an end die is only allowed in variation 1.');
  }
  const fits = kind === 'add' ? canAddAt(g.string, die, end) : canSubstituteAt(g.string, die, end);
  if (!fits) {
    const why = g.string.includes(die) ? `${die} is already on the string` : `${die} does not match there`;
    throw new RuleError('does-not-fit', `${why}; choose one of the ways offered.`);
  }
  return { kind, die, end };
}

function expectRoll(g: DominoesState): ExpectedRoll | null {
  const name = nameOf(g, g.current);
  switch (g.phase) {
    case 'establish':
      return { kit: STANDARD_KIT.id, player: g.current, count: 1, kept: [], prompt: `${name}: throw one die to begin the string.` };
    case 'roll': {
      const count = isSeries(g) ? FULL_STRING - g.string.length : 1;
      const prompt = isSeries(g)
        ? `${name}: throw ${plural(count, 'die', 'dice')} to add to ${formatDice(g.string)}.`
        : `${name}: throw one die (${plural(THROWS_PER_TURN - g.throwsThisTurn, 'throw')} left) to add to ${formatDice(g.string)}.`;
      return { kit: STANDARD_KIT.id, player: g.current, count, kept: [...g.string], prompt };
    }
    default:
      return null;
  }
}

function headline(g: DominoesState): string {
  if (g.phase === 'over') return g.lastEvent;
  const name = nameOf(g, g.current);
  const before = g.lastEvent ? `${g.lastEvent} ` : '';
  switch (g.phase) {
    case 'establish':
      return `${before}${name}: throw one die to begin the string.`.trim();
    case 'place':
      return onlySubstitutions(placements(g.string, g.lastThrow, g.variation === 'substitute'))
        ? `${name} threw ${formatDice(g.lastThrow)}: substitute it, or not.`
        : `${name} threw ${formatDice(g.lastThrow)}: choose where it goes.`;
    default:
      return `${before}${expectRoll(g)?.prompt ?? ''}`.trim();
  }
}

function seriesCells(g: DominoesState, p: PlayerIndex): Record<string, string | number> {
  if (!isSeries(g)) return {};
  return { turns: g.turnsTaken[p] ?? 0, lastTurn: g.lastTurnPoints[p] ?? '' };
}

function view(g: DominoesState): PlayView {
  const legal: LegalMove[] = [];
  const expect = expectRoll(g);
  if (expect) legal.push({ kind: 'roll', expect, label: expect.prompt });
  if (g.phase === 'place') {
    for (const p of placements(g.string, g.lastThrow, g.variation === 'substitute')) {
      const text = describePlacement(g, p);
      legal.push({
        kind: 'action',
        action: { type: p.kind, die: p.die, end: p.end },
        label: text.charAt(0).toUpperCase() + text.slice(1),
      });
    }
    if (onlySubstitutions(placements(g.string, g.lastThrow, g.variation === 'substitute'))) {
      const left = THROWS_PER_TURN - g.throwsThisTurn;
      const opponent = nameOf(g, g.lastPlacer ?? other(g.current));
      legal.push({
        kind: 'action',
        action: { type: 'skip' },
        label: left > 0 ? `Don't substitute: throw again (${plural(left, 'throw')} left)` : `Don't substitute: no die added, ${opponent} wins the round`,
      });
    }
  }
  // The starting player's first die is the string's beginning: until it is thrown they have
  // begun nothing yet, so the mark says what they are about to do.
  const starterNote = g.phase === 'establish' ? 'begins this string' : 'began this string';
  const columns: SlateColumn[] = isSeries(g)
    ? [
        { key: 'turns', label: 'Turns' },
        { key: 'lastTurn', label: 'Last turn' },
      ]
    : [];
  return {
    phase: g.phase,
    current: g.phase === 'over' ? null : g.current,
    headline: headline(g),
    slate: {
      scoreLabel: isSeries(g) ? 'Points' : 'Rounds won',
      columns,
      rows: g.players.map((name, i) => ({
        player: i,
        name,
        score: g.scores[i] ?? 0,
        cells: seriesCells(g, i),
        marked: g.playOff !== null && !g.playOff.includes(i),
        note:
          g.winners?.includes(i) === true
            ? g.winners.length > 1
              ? 'shares the win'
              : 'winner'
            : !isSeries(g) && g.phase !== 'over' && g.roundStarter === i
              ? starterNote
              : g.playOff === null
                ? null
                : !g.playOff.includes(i)
                  ? 'out of the play-off' // kept once over: it says why the row stays marked
                  : g.phase !== 'over'
                    ? 'in the play-off'
                    : null,
      })),
    },
    dice: [...g.string, ...g.lastThrow],
    details: {
      variation: g.variation,
      string: g.string,
      lastThrow: g.lastThrow,
      throwsLeft: isSeries(g) ? null : THROWS_PER_TURN - g.throwsThisTurn,
      // The series has no rounds (its count never moves): null, so the table shows its end instead.
      round: isSeries(g) ? null : g.round,
      target: g.target,
      playOff: g.playOff,
      lastEvent: g.lastEvent,
    },
    legal,
  };
}

export const dominoes: GameDefinition<DominoesState> = {
  id: 'dominoes',
  name: '5-Dice Dominoes',
  summary:
    'Build a string of dice with no number twice, each die next to one it matches (1–3,5; 2–3,4,5,6; 3–1,2,5; ' +
    '4–2,5,6; 5–1,2,3,4; 6–2,4). Throw one die up to three times a turn and add it at an end it matches. ' +
    'A round ends when a player cannot add or adds the fifth die; the last player to add wins the round. ' +
    'First to 5 rounds wins. Variations: replace an end die; or a solo series for 2–4 players.',
  kit: STANDARD_KIT.id,
  diceCount: 5,
  players: { min: 2, max: 4 },
  options: [
    {
      key: 'variation',
      kind: 'choice',
      label: 'Rules',
      description:
        'The sheet\'s game for two players; variation 1 (add a die or replace an end die); variation 2 (each player builds their own string per turn: 1 die, then 4, 3, 2, 1 dice; 2 to 4 players).',
      default: 'standard',
      choices: [
        { value: 'standard', label: 'Sheet rules: add a die at either end (2 players)' },
        { value: 'substitute', label: 'Variation 1: add a die or replace an end die (2 players)' },
        { value: 'series', label: 'Variation 2: each player builds a series alone (2–4 players)' },
      ],
    },
    {
      key: 'roundsToWin',
      kind: 'number',
      label: 'Rounds to win',
      description: 'Head to head (sheet game and variation 1): the first player to win this many rounds wins (the sheet: 5).',
      default: 5,
      min: 1,
      max: 50,
      integer: true,
    },
    {
      key: 'seriesPoints',
      kind: 'number',
      label: 'Points that end a series game',
      description:
        'Variation 2: once a player has this many points, play on until everyone has had as many turns; the highest score wins (the sheet: 15).',
      default: 15,
      min: 1,
      max: 200,
      integer: true,
    },
    {
      key: 'seriesTie',
      kind: 'choice',
      label: 'Variation 2: a tie for the highest score',
      description:
        'The sheet does not say. By default the tied players share the win (and the pot); or they play one more turn each, again and again, until one of them leads.',
      default: 'share',
      choices: [
        { value: 'share', label: 'The tied players share the win' },
        { value: 'play-off', label: 'The tied players play on, one turn each, until one leads' },
      ],
    },
  ],
  start: { rollOffDice: 2, defaultRule: 'roll-off' },
  defaultAnte: 0,
  phases: PHASES,
  checkSetup(players, options) {
    const variation = choiceOption<DominoesVariation>(options, 'variation');
    if (variation !== 'series' && players.length !== 2) {
      return `5-Dice Dominoes is for 2 players (variation 2, the series, is for 2 to 4); ${players.length} given.`;
    }
    return null;
  },
  setup: ({ players, options, starter }) => {
    const variation = choiceOption<DominoesVariation>(options, 'variation');
    return {
      players: [...players],
      variation,
      target: numberOption(options, variation === 'series' ? 'seriesPoints' : 'roundsToWin'),
      scores: players.map(() => 0),
      phase: 'establish',
      current: starter,
      string: [],
      lastThrow: [],
      throwsThisTurn: 0,
      roundStarter: starter,
      lastPlacer: null,
      round: 1,
      turnsTaken: players.map(() => 0),
      lastTurnPoints: players.map(() => null),
      seriesTie: choiceOption<SeriesTie>(options, 'seriesTie'),
      playOff: null,
      winners: null,
      lastEvent: '',
    };
  },
  apply(g, action: Action) {
    if (g.phase === 'over') throw new RuleError('game-over', 'The game is over.');
    switch (action.type) {
      case 'roll':
        if (g.phase === 'place') {
          throw new RuleError('place-first', `First choose where the ${formatDice(g.lastThrow)} goes.`);
        }
        return applyThrow(g, action.dice as number[]);
      case 'add':
      case 'substitute':
        if (g.phase !== 'place') {
          throw new RuleError('nothing-to-place', 'Dice are placed as they are thrown; there is no choice to make now.');
        }
        return applyPlacement(g, readPlacement(g, action));
      case 'skip':
        return applySkip(g);
      default:
        throw new RuleError('unknown-action', `5-Dice Dominoes has no "${action.type}" action; throw the die or place it.`);
    }
  },
  expectRoll,
  view,
  winners: (g) => g.winners,
};
