import { describe, expect, it } from 'vitest';
import {
  applyAction,
  createMatch,
  expectRoll,
  RuleError,
  SetupError,
  summarize,
  viewMatch,
  type Action,
  type MatchState,
} from '../../src/lib/rules/index.ts';
import { countedTotals, roundWinner, targetPoints, type HiLowState } from '../../src/lib/rules/games/hi-low.ts';
import { checkRandomPlay } from './random-play.ts';

const roll = (...dice: number[]): Action => ({ type: 'roll', dice });
const reroll = (...dice: number[]): Action => ({ type: 'reroll', dice });
const skip: Action = { type: 'skip' };
const bank: Action = { type: 'bank' };
const choose = (side: 'high' | 'low'): Action => ({ type: 'choose', side });
/** A turn that keeps its first throw. */
const turn = (...dice: number[]): Action[] => [roll(...dice), bank];
/** Five dice adding up to `total` (5..30). */
function diceFor(total: number): number[] {
  const dice = [1, 1, 1, 1, 1];
  let left = total - 5;
  for (let i = 0; i < 5 && left > 0; i++) {
    const add = Math.min(5, left);
    dice[i] = (dice[i] ?? 1) + add;
    left -= add;
  }
  return dice;
}
const totalTurn = (total: number): Action[] => turn(...diceFor(total));

const two = ['Ann', 'Bob'];
const four = ['Ann', 'Bob', 'Cy', 'Dee'];

function play(actions: Action[], options: Record<string, unknown> = {}, players = two): MatchState {
  let state = createMatch({ game: 'hi-low', players, options: { startingPlayer: 'first-listed', ...options } });
  for (const a of actions) state = applyAction(state, a);
  return state;
}
const g = (state: MatchState) => state.play as HiLowState;
const code = (state: MatchState, action: Action): string => {
  try {
    applyAction(state, action);
  } catch (error) {
    if (error instanceof RuleError) return error.code;
    throw error;
  }
  return 'applied';
};

describe('Hi-Low: who plays and which side', () => {
  it('is for 2 players or two teams of 2', () => {
    expect(() => play([], {}, ['A', 'B', 'C'])).toThrow(SetupError);
    expect(() => play([], {}, ['A', 'B', 'C'])).toThrow(/two teams of 2/);
    expect(() => play([], {}, four)).not.toThrow();
  });
  it('the starting player chooses high or low; the other player rolls the other', () => {
    let state = play([]);
    expect(viewMatch(state).legal.map((m) => m.label)).toEqual(['Ann rolls low', 'Ann rolls high']);
    expect(code(state, roll(1, 2, 3, 4, 5))).toBe('no-roll-expected');
    // The refusal says what the game awaits instead.
    expect(() => applyAction(state, roll(1, 2, 3, 4, 5))).toThrow(/^No roll is expected now\. .*high or low/i);
    expect(code(state, { type: 'choose', side: 'middle' })).toBe('bad-side');
    state = applyAction(state, choose('high'));
    expect(viewMatch(state).slate.rows.map((r) => r.cells.side)).toEqual(['high', 'low']);
    expect(code(state, choose('low'))).toBe('side-chosen');
  });
  it('the starter is decided by a two-dice roll-off by default', () => {
    let state = createMatch({ game: 'hi-low', players: two });
    expect(expectRoll(state)).toMatchObject({ count: 2, player: 0 });
    state = applyAction(applyAction(state, roll(2, 3)), roll(6, 1));
    expect(viewMatch(state).current).toBe(1);
    expect(viewMatch(state).legal.map((m) => m.label)).toEqual(['Bob rolls low', 'Bob rolls high']);
  });
  it('with teams, partners sit across: seats alternate Team 1, Team 2, and both partners roll the same side', () => {
    const state = play([choose('low')], {}, four);
    expect(viewMatch(state).slate.rows.map((r) => [r.cells.team, r.cells.side])).toEqual([
      ['Team 1', 'low'],
      ['Team 2', 'high'],
      ['Team 1', 'low'],
      ['Team 2', 'high'],
    ]);
  });
});

describe('Hi-Low: a turn (throw five, then re-roll four, three, two, one)', () => {
  it('throws five, then may re-roll exactly four, then three, then two, then one', () => {
    let state = play([choose('low'), roll(6, 5, 4, 3, 2)]);
    const pick = viewMatch(state).legal.find((m) => m.kind === 'choose-dice');
    expect(pick).toMatchObject({ kind: 'choose-dice', actionType: 'reroll', min: 4, max: 4 });
    expect(code(state, reroll(6, 5, 4))).toBe('wrong-reroll-count');
    expect(code(state, reroll(6, 6, 4, 3))).toBe('not-on-table');
    expect(code(state, roll(1, 1, 1, 1))).toBe('no-roll-expected');
    state = applyAction(state, reroll(6, 5, 4, 3));
    expect(expectRoll(state)).toMatchObject({ count: 4, kept: [2] });
    state = applyAction(state, roll(1, 1, 6, 1));
    expect(g(state).dice).toEqual([2, 1, 1, 6, 1]);
    expect(viewMatch(state).legal.find((m) => m.kind === 'choose-dice')).toMatchObject({ min: 3, max: 3 });
    state = applyAction(state, skip); // no three-dice re-roll
    expect(viewMatch(state).legal.find((m) => m.kind === 'choose-dice')).toMatchObject({ min: 2, max: 2 });
    state = applyAction(applyAction(state, reroll(6, 2)), roll(1, 2));
    expect(g(state).dice).toEqual([1, 1, 1, 1, 2]);
    state = applyAction(applyAction(state, reroll(2)), roll(1));
    // The one-die re-roll was the last: the total is written and Bob plays.
    expect(g(state).roundTotals).toEqual([5, null]);
    expect(viewMatch(state).current).toBe(1);
    expect(expectRoll(state)).toMatchObject({ player: 1, count: 5, kept: [] });
  });
  it('the last re-roll, which writes the total by itself, still says what it threw', () => {
    let state = play([choose('low'), roll(6, 5, 2, 1, 1), skip, skip, skip, reroll(2)]);
    state = applyAction(state, roll(3));
    expect(viewMatch(state).headline).toBe('Ann re-rolled 3: 6 5 1 1 3 (16). Ann writes 16. Bob (high): throw the five dice.');
    // variation 1: the die that uses up the ten ends the turn the same way
    state = play([choose('low'), roll(6, 6, 6, 6, 6), reroll(6, 6, 6, 6, 6), roll(1, 1, 1, 1, 1), reroll(1, 1, 1, 1, 1)], { rerolls: 'ten-dice' });
    state = applyAction(state, roll(2, 2, 2, 2, 2));
    expect(viewMatch(state).headline).toMatch(/^Ann re-rolled 2 2 2 2 2: 2 2 2 2 2 \(10\)\. Ann writes 10\. /);
  });
  it('says no next re-roll once the game is over', () => {
    const wins = Array.from({ length: 5 }, () => [...totalTurn(5), ...totalTurn(5)]).flat();
    const state = play([choose('low'), ...wins]);
    expect(state.phase).toBe('over');
    expect(viewMatch(state).details).toMatchObject({ nextReroll: null, rerollsLeft: null });
  });
  it('skipping every step writes the first throw', () => {
    const state = play([choose('low'), roll(1, 2, 3, 4, 5), skip, skip, skip, skip]);
    expect(g(state).roundTotals).toEqual([15, null]);
  });
  it('banking writes the total at once', () => {
    const state = play([choose('low'), roll(1, 2, 3, 4, 5), bank]);
    expect(g(state).roundTotals).toEqual([15, null]);
    expect(code(play([choose('low')]), bank)).toBe('throw-first');
  });
  it('refuses a re-roll before the picked-up dice are thrown', () => {
    const state = play([choose('low'), roll(1, 2, 3, 4, 5), reroll(2, 3, 4, 5)]);
    expect(code(state, reroll(1, 2, 3, 4))).toBe('throw-picked-up');
    expect(code(state, bank)).toBe('throw-picked-up');
    expect(code(state, skip)).toBe('nothing-to-skip');
  });
});

describe('Hi-Low: who wins the turn', () => {
  it('adds the low and high totals: under 35 low wins, over 35 high wins, 35 is a tie', () => {
    expect(roundWinner(10, 24)).toBe('low');
    expect(roundWinner(10, 26)).toBe('high');
    expect(roundWinner(10, 25)).toBeNull();
  });
  it('circles the winner\'s total on the slate and counts the win', () => {
    // Ann low 10, Bob high 24: 34 → Ann; then Ann 12, Bob 24: 36 → Bob; then 10 + 25: tie
    const state = play([choose('low'), ...totalTurn(10), ...totalTurn(24), ...totalTurn(12), ...totalTurn(24), ...totalTurn(10), ...totalTurn(25)]);
    expect(g(state).teamScores).toEqual([1, 1]);
    expect(viewMatch(state).slate.rows.map((r) => [r.score, r.cells.history])).toEqual([
      [1, '(10) 12 10'],
      [1, '24 (24) 25'],
    ]);
    expect(g(state).rounds.map((r) => r.winner)).toEqual([0, 1, null]);
  });
  it('the starting player plays first in every round', () => {
    const state = play([choose('high'), ...totalTurn(20), ...totalTurn(20)]);
    expect(viewMatch(state).current).toBe(0);
  });
  it('the first to win 5 turns wins (the WINNING section); 6 as the introduction says is an option', () => {
    const lowWins = [...totalTurn(10), ...totalTurn(20)];
    const actions = [choose('low'), ...Array.from({ length: 5 }, () => lowWins).flat()];
    const five = play(actions, { ante: 2 });
    expect(five.winners).toEqual([0]);
    expect(five.payouts).toEqual([4, 0]);
    const six = play(actions, { winsToWin: 6 });
    expect(six.phase).toBe('play');
    expect(applyAction(applyAction(applyAction(applyAction(six, roll(1, 1, 1, 1, 1)), bank), roll(6, 6, 6, 6, 5)), bank).winners).toEqual([0]);
  });
});

describe('Hi-Low with two teams', () => {
  it('turns go clockwise around the table from the starting player', () => {
    let state = play([choose('high')], {}, four);
    const order: number[] = [];
    for (let i = 0; i < 5; i++) {
      order.push(viewMatch(state).current ?? -1);
      state = applyAction(applyAction(state, roll(3, 3, 3, 3, 3)), bank);
    }
    expect(order).toEqual([0, 1, 2, 3, 0]);
  });
  it('by default adds the low team\'s lowest and the high team\'s highest total', () => {
    expect(countedTotals([8, 14, 22, 16], 1, 'side-best')).toMatchObject({ low: 14, high: 22 });
    expect(countedTotals([8, 14, 22, 16], 1, 'table-extremes')).toMatchObject({ low: 8, high: 22 });
    // Team 1 (Ann, Cy) high: 8 and 22; Team 2 (Bob, Dee) low: 14 and 16. 14 + 22 = 36: high wins.
    const state = play([choose('high'), ...totalTurn(8), ...totalTurn(14), ...totalTurn(22), ...totalTurn(16)], {}, four);
    expect(g(state).teamScores).toEqual([1, 0]);
    expect(g(state).rounds[0]).toMatchObject({ low: 14, high: 22, sum: 36, winner: 0, circled: 2 });
    expect(viewMatch(state).slate.rows.map((r) => r.score)).toEqual([1, 0, 1, 0]);
  });
  it('the other reading: the lowest and highest totals at the table', () => {
    // 8 + 22 = 30: low wins (Team 2); their best total, Bob's 14, is circled.
    const state = play([choose('high'), ...totalTurn(8), ...totalTurn(14), ...totalTurn(22), ...totalTurn(16)], { teamTotals: 'table-extremes' }, four);
    expect(g(state).teamScores).toEqual([0, 1]);
    expect(g(state).rounds[0]).toMatchObject({ low: 8, high: 22, sum: 30, winner: 1, circled: 1 });
  });
  it('the winning team\'s two players share the win and the pot', () => {
    const round = [...totalTurn(30), ...totalTurn(5), ...totalTurn(30), ...totalTurn(5)]; // high 30 + low 5 = 35? tie
    const highWins = [...totalTurn(30), ...totalTurn(10), ...totalTurn(30), ...totalTurn(10)]; // 10 + 30 = 40
    const tie = play([choose('high'), ...round], {}, four);
    expect(g(tie).teamScores).toEqual([0, 0]);
    const state = play([choose('high'), ...Array.from({ length: 5 }, () => highWins).flat()], { ante: 3 }, four);
    expect(state.winners).toEqual([0, 2]);
    expect(state.payouts).toEqual([6, 0, 6, 0]);
  });
});

describe('Hi-Low variation 1: re-roll 10 dice in all, any dice, any order', () => {
  const v1 = { rerolls: 'ten-dice' };
  it('any number of dice per re-roll until 10 are used; no steps to skip', () => {
    let state = play([choose('low'), roll(6, 6, 6, 6, 6)], v1);
    expect(viewMatch(state).legal.find((m) => m.kind === 'choose-dice')).toMatchObject({ min: 1, max: 5 });
    expect(code(state, skip)).toBe('no-steps');
    state = applyAction(applyAction(state, reroll(6, 6, 6)), roll(6, 6, 1)); // 3 used
    state = applyAction(applyAction(state, reroll(6, 6, 6, 6)), roll(6, 6, 6, 1)); // 7 used
    state = applyAction(applyAction(state, reroll(6, 6)), roll(2, 2)); // 9 used
    expect(viewMatch(state).legal.find((m) => m.kind === 'choose-dice')).toMatchObject({ min: 1, max: 1 });
    expect(code(state, reroll(6, 2))).toBe('wrong-reroll-count');
    state = applyAction(applyAction(state, reroll(6)), roll(1)); // 10 used: the turn ends
    expect(g(state).roundTotals).toEqual([7, null]);
  });
  it('refuses dice that are not on the table, naming them', () => {
    const state = play([choose('low'), roll(6, 6, 6, 6, 5)], v1);
    expect(() => applyAction(state, reroll(1))).toThrow('1 is not among the dice on the table (6 6 6 6 5).');
    expect(() => applyAction(state, reroll(5, 5))).toThrow('5 5 are not all among the dice on the table (6 6 6 6 5).');
  });
  it('the prompt for re-rolling all five dice names no kept dice', () => {
    const state = play([choose('low'), roll(6, 6, 6, 6, 5), reroll(6, 6, 6, 6, 5)], v1);
    expect(expectRoll(state)).toMatchObject({ count: 5, kept: [], prompt: 'Ann: re-roll all 5 dice.' });
  });
  it('a player may bank before using all 10', () => {
    const state = play([choose('low'), roll(1, 1, 1, 1, 2), bank], v1);
    expect(g(state).roundTotals).toEqual([6, null]);
  });
});

describe('Hi-Low variation 2: the 35-target game', () => {
  const v2 = { mode: 'target-35' };
  it('no side is chosen; the first player sets a total, the second aims to make 35 with it and scores the miss', () => {
    let state = play([], v2);
    expect(g(state).phase).toBe('turn');
    expect(code(state, choose('low'))).toBe('no-sides');
    state = play([...totalTurn(12)], v2);
    expect(viewMatch(state).current).toBe(1);
    expect(viewMatch(state).details.aimFor).toBe(23);
    state = play([...totalTurn(12), ...totalTurn(20)], v2); // 32: 3 points to Bob
    expect(g(state).teamScores).toEqual([0, 3]);
    // Then the second player takes a turn and the first aims at it.
    expect(viewMatch(state).current).toBe(1);
    expect(viewMatch(state).details.aimFor).toBeNull();
    state = play([...totalTurn(12), ...totalTurn(20), ...totalTurn(28), ...totalTurn(9)], v2); // 37: 2 to Ann
    expect(g(state).teamScores).toEqual([2, 3]);
    expect(viewMatch(state).current).toBe(0); // Ann sets again
    expect(targetPoints(28, 7)).toBe(0);
  });
  it('at 15 points the other side wins', () => {
    const state = play([...totalTurn(30), ...totalTurn(20)], { ...v2, ante: 1 }); // 50: 15 to Bob
    expect(g(state).teamScores).toEqual([0, 15]);
    expect(state.winners).toEqual([0]);
    expect(summarize(state).winner).toBe('Ann');
  });
  it('the chain reading: every turn aims at the turn before', () => {
    const state = play([...totalTurn(12), ...totalTurn(20), ...totalTurn(18)], { ...v2, targetTurns: 'chain' });
    // Bob: 12 + 20 = 32 → 3; Ann: 20 + 18 = 38 → 3
    expect(g(state).teamScores).toEqual([3, 3]);
    expect(viewMatch(state).current).toBe(1);
  });
  it('with teams, each player sets for the next player clockwise, an opponent', () => {
    const actions = [...totalTurn(12), ...totalTurn(20), ...totalTurn(25), ...totalTurn(15)];
    // Ann sets 12, Bob (Team 2) 20 → 3; Bob sets 25, Cy (Team 1) 15 → 5
    const state = play(actions, v2, four);
    expect(g(state).teamScores).toEqual([5, 3]);
    expect(g(state).turns.map((t) => t.player)).toEqual([0, 1, 1, 2]);
    expect(viewMatch(state).current).toBe(2); // Cy sets for Dee
  });
  it('combines with variation 1', () => {
    const state = play([roll(1, 1, 1, 1, 1), reroll(1, 1, 1, 1, 1), roll(6, 6, 6, 6, 6), bank], { ...v2, rerolls: 'ten-dice' });
    expect(g(state).turns[0]).toMatchObject({ player: 0, total: 30, points: null });
  });
});

describe('Hi-Low: random play over every variation never gets stuck and plays games to the end', () => {
  const tables: Array<[string[], Record<string, unknown>]> = [
    [two, {}],
    [four, { winsToWin: 2, teamTotals: 'table-extremes' }],
    [two, { rerolls: 'ten-dice', winsToWin: 2 }],
    [four, { mode: 'target-35', losingPoints: 10 }],
    [two, { mode: 'target-35', targetTurns: 'chain', rerolls: 'ten-dice' }],
  ];
  for (const [players, options] of tables) {
    it(`${players.length} players, ${JSON.stringify(options)}`, () => {
      const { finished } = checkRandomPlay({ game: 'hi-low', players, options }, { numRuns: 30, alwaysAMove: true });
      expect(finished).toBeGreaterThan(0);
    });
  }
});
