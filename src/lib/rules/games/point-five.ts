/**
 * Point Five (Games of the Galaxy), played with Corellian Spike dice: one die per throw; a
 * symbol already on this turn's board busts the turn; calling scores the last symbol by its
 * position on the board; the sixth different symbol wins the pot at once; 100 points win.
 * Rules as implemented and the choices made: docs/rules/point-five.md.
 */
import { CORELLIAN_SPIKE_KIT, faceLabel } from '../../dice/index.ts';
import { RuleError } from '../errors.ts';
import { numberOption } from '../options.ts';
import type { Action, ExpectedRoll, GameDefinition, LegalMove, PlayerIndex, PlayView } from '../types.ts';

export type PointFiveState = {
  players: string[];
  target: number;
  current: PlayerIndex;
  scores: number[];
  /** Values thrown this turn, in order; all different (a repeat busts the turn). */
  board: number[];
  /** What happened last, for the table. */
  lastEvent: string;
  winner: PlayerIndex | null;
  winBy: 'six-symbols' | 'points' | null;
};

export type PointFivePhase = 'turn' | 'over';

/**
 * The table's words for each phase, beside whose turn it is: none, as the headline already says
 * whether to throw or call.
 */
const PHASES = { turn: null, over: null } as const satisfies Record<PointFivePhase, string | null>;

/** Points for calling with `value` as the throw at board position `position` (0-based). */
export function pointFivePoints(position: number, value: number): number {
  if (position === 0) return Math.ceil(value / 2);
  if (position >= 1 && position <= 4) return value * position;
  throw new RangeError(`No call scores at board position ${position}.`);
}

/** What a call at each board position scores, as the board shows it (`pointFivePoints`; the sixth wins). */
const BOARD_RULES = ['½ value', '× 1', '× 2', '× 3', '× 4', 'wins'] as const;

/** "Star (5)": the symbol as the table and the log name it. */
function symbolName(value: number): string {
  return faceLabel(CORELLIAN_SPIKE_KIT, value);
}

function nextPlayer(g: PointFiveState): PlayerIndex {
  return (g.current + 1) % g.players.length;
}

function applyThrow(g: PointFiveState, value: number): PointFiveState {
  const name = g.players[g.current] ?? '?';
  if (g.board.includes(value)) {
    return {
      ...g,
      board: [],
      current: nextPlayer(g),
      lastEvent: `${name} threw ${symbolName(value)}, already on the board: bust, no points.`,
    };
  }
  const board = [...g.board, value];
  if (board.length === 6) {
    return {
      ...g,
      board,
      winner: g.current,
      winBy: 'six-symbols',
      lastEvent: `${name} threw all six symbols and wins the pot!`,
    };
  }
  return { ...g, board, lastEvent: `${name} threw ${symbolName(value)}.` };
}

function applyCall(g: PointFiveState): PointFiveState {
  const last = g.board.at(-1);
  if (last === undefined) throw new RuleError('nothing-to-call', 'Throw the die before calling.');
  const name = g.players[g.current] ?? '?';
  const points = pointFivePoints(g.board.length - 1, last);
  const scores = g.scores.map((s, i) => (i === g.current ? s + points : s));
  const total = scores[g.current] ?? 0;
  if (total >= g.target) {
    return {
      ...g,
      scores,
      winner: g.current,
      winBy: 'points',
      lastEvent: `${name} calls for ${points} and reaches ${total}: wins the pot!`,
    };
  }
  return {
    ...g,
    scores,
    board: [],
    current: nextPlayer(g),
    lastEvent: `${name} calls for ${points} (total ${total}).`,
  };
}

/** One die per throw; the dice already placed on the board this turn stay there, untouched. */
function expectRoll(g: PointFiveState): ExpectedRoll | null {
  if (g.winner !== null) return null;
  const onBoard = g.board.length > 0 ? ` (${g.board.length} on the board)` : '';
  return {
    kit: CORELLIAN_SPIKE_KIT.id,
    player: g.current,
    count: 1,
    kept: [...g.board],
    prompt: `${g.players[g.current] ?? '?'}: throw one die${onBoard}.`,
  };
}

function view(g: PointFiveState): PlayView {
  const name = g.players[g.current] ?? '?';
  const legal: LegalMove[] = [];
  const expect = expectRoll(g);
  const last = g.board.at(-1);
  const callPoints =
    last === undefined || g.winner !== null ? null : pointFivePoints(g.board.length - 1, last);
  if (expect) legal.push({ kind: 'roll', expect, label: g.board.length === 0 ? 'Throw' : 'Throw again' });
  if (callPoints !== null) {
    legal.push({ kind: 'action', action: { type: 'call' }, label: `Call for ${callPoints}` });
  }
  const headline =
    g.winner !== null
      ? g.lastEvent
      : g.board.length === 0
        ? `${g.lastEvent ? `${g.lastEvent} ` : ''}${name}'s turn: throw one die.`.trim()
        : // the throw named: "call for 3" alone read the same after Star (5) then Square (3), as if the second throw had not counted
          `${name} threw ${symbolName(last ?? 0)}: call for ${callPoints ?? 0} or throw again.`;
  return {
    phase: (g.winner !== null ? 'over' : 'turn') satisfies PointFivePhase,
    current: g.winner !== null ? null : g.current,
    headline,
    slate: {
      scoreLabel: 'Points',
      columns: [],
      rows: g.players.map((player, i) => ({
        player: i,
        name: player,
        score: g.scores[i] ?? 0,
        cells: {},
        marked: false,
        note: g.winner === i ? (g.winBy === 'six-symbols' ? 'all six symbols' : 'winner') : null,
      })),
    },
    dice: g.board,
    details: {
      // the sixth symbol scores nothing: it wins the pot at once
      board: g.board.map((value, position) => ({ value, points: position < 5 ? pointFivePoints(position, value) : null })),
      boardRules: [...BOARD_RULES],
      goal: `First to ${g.target}; the sixth symbol in one turn wins at once.`,
      callPoints,
      target: g.target,
      lastEvent: g.lastEvent,
    },
    legal,
  };
}

export const pointFive: GameDefinition<PointFiveState> = {
  id: 'point-five',
  name: 'Point Five',
  summary:
    'Throw one Corellian Spike die at a time onto the board. A symbol already on the board busts your turn. ' +
    'Call to score the last symbol: half its value (rounded up) on the first throw, then its value ×1, ×2, ×3, ×4. ' +
    'Six different symbols in one turn win the pot at once; otherwise the first to 100 points wins.',
  kit: CORELLIAN_SPIKE_KIT.id,
  diceCount: 6,
  players: { min: 2, max: 20 },
  options: [
    {
      key: 'targetScore',
      kind: 'number',
      label: 'Points to win',
      description: 'The first player to reach this total wins (the sheet: 100).',
      default: 100,
      min: 10,
      max: 1000,
      integer: true,
    },
  ],
  start: { rollOffDice: 1, defaultRule: 'first-listed' },
  defaultAnte: 1,
  phases: PHASES,
  setup: ({ players, options, starter }) => ({
    players: [...players],
    target: numberOption(options, 'targetScore'),
    current: starter,
    scores: players.map(() => 0),
    board: [],
    lastEvent: '',
    winner: null,
    winBy: null,
  }),
  apply(g, action: Action) {
    if (g.winner !== null) throw new RuleError('game-over', 'The game is over.');
    switch (action.type) {
      case 'roll': {
        const value = (action.dice as number[])[0];
        if (value === undefined) throw new RuleError('bad-dice', 'Throw one die.');
        return applyThrow(g, value);
      }
      case 'call':
        return applyCall(g);
      default:
        throw new RuleError('unknown-action', `Point Five has no "${action.type}" action; throw the die or call.`);
    }
  },
  expectRoll,
  view,
  winners: (g) => (g.winner === null ? null : [g.winner]),
};
