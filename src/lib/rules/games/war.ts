/**
 * 5-Dice War ("Five New 5-Dice Games", Paul Hoemke), for two players. Each starts with two
 * dice; the fifth waits in the centre (thrown until it is not a 1). Every turn both players
 * throw their dice; with one die you capture a die showing its number, with two or more a die
 * showing the sum of two of your dice, each of your dice in one capture. The centre die goes
 * only to a player who alone captures it. Capturing all the opponent's dice scores a point;
 * first to 5. Variation 1: the loser of a point starts the next game with three dice (by
 * default the fifth die, so no centre die);
 * variation 2: a lone die captures two matching dice.
 * Rules as implemented and the choices made (captures are worked out automatically, each
 * player's throw is its own roll): docs/rules/war.md.
 */
import { STANDARD_KIT } from '../../dice/index.ts';
import { formatDice, plural } from '../dice.ts';
import { RuleError } from '../errors.ts';
import { booleanOption, choiceOption, numberOption } from '../options.ts';
import type { Action, ExpectedRoll, GameDefinition, LegalMove, PlayerIndex, PlayView } from '../types.ts';

/** A capture: the capturing dice (one die, or a pair whose sum is the value) and what they take. */
export type WarCapture = { dice: number[]; target: 'opponent' | 'centre'; value: number };

export type WarTurn = {
  /** Each player's throw, by seat. */
  throws: number[][];
  /** Each player's captures, by seat. */
  captures: WarCapture[][];
  /** Who took the centre die, or null. */
  centreTakenBy: PlayerIndex | null;
  /** Both players could capture the centre die, so it stayed. */
  centreContested: boolean;
};

/**
 * Variation 1: where the loser's third die comes from. `centre-die`: the loser takes the fifth
 * die, the winner keeps two, and there is no centre die; `winners-die`: the winner takes one die
 * and the fifth die is thrown into the centre as usual.
 */
export type LoserThirdDie = 'centre-die' | 'winners-die';

export type WarState = {
  players: string[];
  target: number;
  loserStartsWithThree: boolean;
  loserThirdDie: LoserThirdDie;
  oneDieTakesTwo: boolean;
  /** `centre`: the fifth die is thrown (again while it shows 1); `throw`: players throw; `over`. */
  phase: 'centre' | 'throw' | 'over';
  /** Dice each player holds. */
  counts: number[];
  /** The centre die's face while it waits in the centre; null once captured (or before its throw). */
  centre: number | null;
  /** Who throws the centre die at the start of a game. */
  centreThrower: PlayerIndex;
  /** This turn's throws so far, in seat order (players throw one after the other). */
  throws: number[][];
  lastTurn: WarTurn | null;
  /** Game (point) being played, from 1; turn within it, from 1. */
  gameNumber: number;
  turnNumber: number;
  scores: number[];
  winner: PlayerIndex | null;
  lastEvent: string;
};

/** Dice each player takes at the start of a game (the fifth is the centre die). */
const STARTING_DICE = 2;

/** The table's words for each phase, beside whose turn it is (null: the headline says it all). */
const PHASES = {
  centre: 'throwing the centre die',
  throw: 'throwing for captures',
  over: null,
} as const satisfies Record<WarState['phase'], string | null>;

const nameOf = (g: WarState, p: PlayerIndex): string => g.players[p] ?? '?';
const other = (p: PlayerIndex): PlayerIndex => (p === 0 ? 1 : 0);

type Score = { opponent: number; centre: number };
const better = (a: Score, b: Score): boolean => a.opponent > b.opponent || (a.opponent === b.opponent && a.centre > b.centre);

/**
 * The captures a throw makes, worked out for the player: as many of the opponent's dice as
 * possible, then the centre die if it can still be taken. One die captures a die showing its
 * number (two such dice with `oneDieTakesTwo`); two or more dice capture with pairs whose sum
 * is the target's number, each die in one pair.
 */
export function bestCaptures(
  mine: readonly number[],
  theirs: readonly number[],
  centre: number | null,
  oneDieTakesTwo: boolean,
): WarCapture[] {
  const targets: Array<{ target: 'opponent' | 'centre'; value: number }> = [
    ...[...theirs].sort((a, b) => a - b).map((value) => ({ target: 'opponent' as const, value })),
    ...(centre === null ? [] : [{ target: 'centre' as const, value: centre }]),
  ];
  if (mine.length === 1) {
    const die = mine[0] ?? 0;
    const room = oneDieTakesTwo ? 2 : 1;
    return targets
      .filter((t) => t.value === die)
      .slice(0, room)
      .map((t) => ({ dice: [die], ...t }));
  }
  const dice = [...mine].sort((a, b) => a - b);
  let best: { score: Score; captures: WarCapture[] } = { score: { opponent: 0, centre: 0 }, captures: [] };
  const search = (index: number, used: readonly boolean[], captures: WarCapture[], score: Score): void => {
    if (better(score, best.score)) best = { score, captures };
    const t = targets[index];
    if (t === undefined) return;
    for (let i = 0; i < dice.length; i++) {
      for (let j = i + 1; j < dice.length; j++) {
        const a = dice[i] ?? 0;
        const b = dice[j] ?? 0;
        if (used[i] || used[j] || a + b !== t.value) continue;
        const nextUsed = used.map((u, k) => u || k === i || k === j);
        const nextScore = t.target === 'opponent' ? { ...score, opponent: score.opponent + 1 } : { ...score, centre: 1 };
        search(index + 1, nextUsed, [...captures, { dice: [a, b], ...t }], nextScore);
      }
    }
    search(index + 1, used, captures, score);
  };
  search(0, dice.map(() => false), [], best.score);
  return best.captures;
}

function describeCaptures(g: WarState, p: PlayerIndex, captures: readonly WarCapture[], centreKept: boolean): string {
  const what = (c: WarCapture): string => {
    const by = c.dice.length === 2 ? ` (${c.dice[0] ?? 0}+${c.dice[1] ?? 0})` : '';
    return c.target === 'centre' ? `the centre ${c.value}${by}` : `${nameOf(g, other(p))}'s ${c.value}${by}`;
  };
  const taken = captures.filter((c) => c.target === 'opponent' || !centreKept).map(what);
  const blocked = captures.filter((c) => c.target === 'centre' && centreKept).map(what);
  const parts = [
    ...(taken.length > 0 ? [`takes ${taken.join(' and ')}`] : []),
    ...(blocked.length > 0 ? [`could take ${blocked.join(' and ')}`] : []),
  ];
  return parts.length === 0 ? 'takes nothing' : parts.join(' and ');
}

function newGame(g: WarState, pointWinner: PlayerIndex, scores: number[], text: string): WarState {
  const loser = other(pointWinner);
  // Variation 1 reading `centre-die`: the loser's third die is the fifth die, so none waits in the centre.
  const noCentre = g.loserStartsWithThree && g.loserThirdDie === 'centre-die';
  const counts = g.players.map((_, i) =>
    !g.loserStartsWithThree ? STARTING_DICE : i === loser ? STARTING_DICE + 1 : noCentre ? STARTING_DICE : STARTING_DICE - 1,
  );
  const dealt = g.players.map((n, i) => `${n} ${plural(counts[i] ?? 0, 'die', 'dice')}`).join(', ');
  return {
    ...g,
    scores,
    phase: noCentre ? 'throw' : 'centre',
    counts,
    centre: null,
    centreThrower: pointWinner,
    throws: [],
    gameNumber: g.gameNumber + 1,
    turnNumber: 1,
    lastEvent: `${text} New game: ${dealt}; ${noCentre ? 'no centre die' : `${nameOf(g, pointWinner)} throws the centre die`}.`,
  };
}

/** Both players have thrown: captures are worked out and the dice change hands. */
function resolveTurn(g: WarState, throws: number[][]): WarState {
  const [a = [], b = []] = throws;
  const captures = [bestCaptures(a, b, g.centre, g.oneDieTakesTwo), bestCaptures(b, a, g.centre, g.oneDieTakesTwo)];
  const took = (p: PlayerIndex, target: WarCapture['target']) => (captures[p] ?? []).filter((c) => c.target === target).length;
  const wantsCentre = [took(0, 'centre') > 0, took(1, 'centre') > 0];
  const centreTakenBy = wantsCentre[0] && !wantsCentre[1] ? 0 : wantsCentre[1] && !wantsCentre[0] ? 1 : null;
  const centreContested = wantsCentre[0] === true && wantsCentre[1] === true;
  const counts = g.counts.map(
    (n, p) => n + took(p, 'opponent') - took(other(p), 'opponent') + (centreTakenBy === p ? 1 : 0),
  );
  const centre = centreTakenBy === null ? g.centre : null;
  const lastTurn: WarTurn = { throws: [a, b], captures, centreTakenBy, centreContested };
  const said = g.players
    .map((n, p) => `${n} (${formatDice(throws[p] ?? [])}) ${describeCaptures(g, p, captures[p] ?? [], centreContested)}`)
    .join('; ');
  const contested = centreContested ? ' Both could take the centre die: it stays.' : '';
  const text = `${said}.${contested} Dice: ${g.players.map((n, p) => `${n} ${counts[p] ?? 0}`).join(', ')}.`;
  const after = { ...g, counts, centre, throws: [], lastTurn, turnNumber: g.turnNumber + 1 };
  const beaten = counts.findIndex((n) => n === 0);
  if (beaten < 0) return { ...after, lastEvent: text };
  const pointWinner = other(beaten);
  const scores = g.scores.map((s, i) => (i === pointWinner ? s + 1 : s));
  const won = `${text} ${nameOf(g, pointWinner)} has captured all of ${nameOf(g, beaten)}'s dice: a point (${scores[pointWinner] ?? 0} of ${g.target}).`;
  if ((scores[pointWinner] ?? 0) >= g.target) {
    return { ...after, scores, phase: 'over', winner: pointWinner, lastEvent: `${won} ${nameOf(g, pointWinner)} wins!` };
  }
  return newGame(after, pointWinner, scores, won);
}

function applyThrow(g: WarState, dice: number[]): WarState {
  if (g.phase === 'centre') {
    const die = dice[0] ?? 0;
    const name = nameOf(g, g.centreThrower);
    if (die === 1) return { ...g, lastEvent: `${name} threw a 1 for the centre die: throw it again.` };
    return { ...g, phase: 'throw', centre: die, lastEvent: `The centre die shows ${die}.` };
  }
  const throws = [...g.throws, dice];
  if (throws.length < g.players.length) {
    return { ...g, throws, lastEvent: `${nameOf(g, g.throws.length)} threw ${formatDice(dice)}.` };
  }
  return resolveTurn(g, throws);
}

/** Who throws now. */
function thrower(g: WarState): PlayerIndex {
  return g.phase === 'centre' ? g.centreThrower : g.throws.length;
}

function expectRoll(g: WarState): ExpectedRoll | null {
  if (g.phase === 'over') return null;
  const p = thrower(g);
  const name = nameOf(g, p);
  if (g.phase === 'centre') {
    return { kit: STANDARD_KIT.id, player: p, count: 1, kept: [], prompt: `${name}: throw the centre die (again while it shows 1).` };
  }
  // The camera sees the whole table: the centre die and the dice already thrown this turn stay.
  const kept = [...(g.centre === null ? [] : [g.centre]), ...g.throws.flat()];
  const count = g.counts[p] ?? 0;
  return { kit: STANDARD_KIT.id, player: p, count, kept, prompt: `${name}: throw your ${plural(count, 'die', 'dice')}.` };
}

function capturesCell(g: WarState, p: PlayerIndex): string {
  const turn = g.lastTurn;
  // A turn is both players' throws (the sheet: "On each turn, both players roll their dice").
  // Once the first player has thrown, the Last throw column shows this turn's dice, so the last
  // turn's captures would sit beside dice that did not make them: the column waits for the
  // turn's captures instead.
  if (!turn || g.throws.length > 0) return '';
  const caps = turn.captures[p] ?? [];
  return caps
    .map((c) => {
      const by = c.dice.length === 2 ? `${c.dice[0] ?? 0}+${c.dice[1] ?? 0}` : String(c.dice[0] ?? 0);
      const what = c.target === 'centre' ? (turn.centreTakenBy === p ? `centre ${c.value}` : `centre ${c.value} (stays)`) : String(c.value);
      return `${what} with ${by}`;
    })
    .join(', ');
}

function view(g: WarState): PlayView {
  const over = g.phase === 'over';
  const expect = expectRoll(g);
  const legal: LegalMove[] = expect ? [{ kind: 'roll', expect, label: expect.prompt }] : [];
  const before = g.lastEvent ? `${g.lastEvent} ` : '';
  return {
    phase: g.phase,
    current: over ? null : thrower(g),
    headline: over ? g.lastEvent : `${before}${expect?.prompt ?? ''}`.trim(),
    slate: {
      scoreLabel: 'Points',
      columns: [
        { key: 'dice', label: 'Dice' },
        { key: 'thrown', label: 'Last throw' },
        { key: 'captured', label: 'Captured' },
      ],
      rows: g.players.map((name, p) => ({
        player: p,
        name,
        score: g.scores[p] ?? 0,
        cells: {
          dice: g.counts[p] ?? 0,
          thrown: formatDice((g.throws.length > 0 ? g.throws[p] : g.lastTurn?.throws[p]) ?? []),
          captured: capturesCell(g, p),
        },
        marked: false,
        note: g.winner === p ? 'winner' : null,
      })),
    },
    dice: [...(g.centre === null ? [] : [g.centre]), ...g.throws.flat()],
    details: {
      centre: g.centre,
      counts: g.counts,
      throws: g.throws,
      lastTurn: g.lastTurn,
      gameNumber: g.gameNumber,
      turnNumber: g.turnNumber,
      target: g.target,
      lastEvent: g.lastEvent,
    },
    legal,
  };
}

export const war: GameDefinition<WarState> = {
  id: 'war',
  name: '5-Dice War',
  summary:
    'Each player takes two dice; the fifth waits in the centre (thrown until it is not a 1). Every turn both players ' +
    'throw: one die captures a die showing its number, two or more capture a die showing the sum of two of them, each ' +
    'die in one capture. The centre die goes to a player who alone captures it. Capture all your opponent\'s dice to ' +
    'score a point; first to 5. Variations: the loser starts the next game with three dice; a lone die captures two.',
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
      key: 'loserStartsWithThree',
      kind: 'boolean',
      label: 'Variation 1: the loser starts with three dice',
      description: 'After the first point, the player who lost the last point starts each game with three dice.',
      default: false,
    },
    {
      key: 'loserThirdDie',
      kind: 'choice',
      label: "Variation 1: the loser's third die",
      description:
        'The sheet only says the loser starts with three dice. By default the loser takes the fifth die and the winner keeps two, so no die waits in the centre; or the winner takes one die and the fifth die goes to the centre as usual.',
      default: 'centre-die',
      choices: [
        { value: 'centre-die', label: 'The fifth die: 3 against 2, no centre die' },
        { value: 'winners-die', label: "One of the winner's: 3 against 1, the fifth die in the centre" },
      ],
    },
    {
      key: 'oneDieTakesTwo',
      kind: 'boolean',
      label: 'Variation 2: one die captures two',
      description: 'A player with one die can capture two dice that match it.',
      default: false,
    },
  ],
  // The sheet: "One player rolls the fifth die" — no roll-off; the first listed player throws it.
  start: { rollOffDice: 0, defaultRule: 'first-listed' },
  defaultAnte: 0,
  phases: PHASES,
  setup: ({ players, options, starter }) => ({
    players: [...players],
    target: numberOption(options, 'pointsToWin'),
    loserStartsWithThree: booleanOption(options, 'loserStartsWithThree'),
    loserThirdDie: choiceOption<LoserThirdDie>(options, 'loserThirdDie'),
    oneDieTakesTwo: booleanOption(options, 'oneDieTakesTwo'),
    phase: 'centre',
    counts: players.map(() => STARTING_DICE),
    centre: null,
    centreThrower: starter,
    throws: [],
    lastTurn: null,
    gameNumber: 1,
    turnNumber: 1,
    scores: players.map(() => 0),
    winner: null,
    lastEvent: '',
  }),
  apply(g, action: Action) {
    if (g.phase === 'over') throw new RuleError('game-over', 'The game is over.');
    if (action.type === 'roll') return applyThrow(g, action.dice as number[]);
    throw new RuleError('unknown-action', `5-Dice War has no "${action.type}" action; every move is a throw, and captures are worked out for you.`);
  },
  expectRoll,
  view,
  winners: (g) => (g.winner === null ? null : [g.winner]),
};
