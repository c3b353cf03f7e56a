import { describe, expect, it } from 'vitest';
import {
  applyAction,
  createMatch,
  expectRoll,
  RuleError,
  SetupError,
  thrownDiceFromTable,
  viewMatch,
  type Action,
  type ExpectedRoll,
  type MatchState,
} from '../../src/lib/rules/index.ts';
import { bestCaptures, type WarState } from '../../src/lib/rules/games/war.ts';
import { checkRandomPlay } from './random-play.ts';

const roll = (...dice: number[]): Action => ({ type: 'roll', dice });

function play(actions: Action[], options: Record<string, unknown> = {}): MatchState {
  let state = createMatch({ game: 'war', players: ['Ann', 'Bob'], options });
  for (const a of actions) state = applyAction(state, a);
  return state;
}
const g = (state: MatchState) => state.play as WarState;
const code = (state: MatchState, action: Action): string => {
  try {
    applyAction(state, action);
  } catch (error) {
    if (error instanceof RuleError) return error.code;
    throw error;
  }
  return 'applied';
};
const targets = (caps: ReturnType<typeof bestCaptures>) => caps.map((c) => `${c.target}:${c.value}`);

describe('War: captures', () => {
  it('one die captures a die showing its number', () => {
    expect(targets(bestCaptures([4], [4, 2], null, false))).toEqual(['opponent:4']);
    expect(targets(bestCaptures([4], [3, 2], 4, false))).toEqual(['centre:4']);
    expect(bestCaptures([4], [3, 5], 2, false)).toEqual([]);
  });
  it('one die captures only one die, even when two match (variation 2: two)', () => {
    expect(targets(bestCaptures([4], [4, 4], null, false))).toEqual(['opponent:4']);
    expect(targets(bestCaptures([4], [4, 4, 4], null, true))).toEqual(['opponent:4', 'opponent:4']);
    expect(targets(bestCaptures([4], [4, 1], 4, true))).toEqual(['opponent:4', 'centre:4']);
  });
  it('two or more dice capture a die showing the sum of two of them, not one of them', () => {
    expect(bestCaptures([1, 3], [4, 6], null, false)).toEqual([{ dice: [1, 3], target: 'opponent', value: 4 }]);
    expect(bestCaptures([1, 3], [1, 3], null, false)).toEqual([]);
    expect(bestCaptures([5, 6], [5, 6], 6, false)).toEqual([]); // 11 matches nothing
  });
  it('each die is used in just one capture', () => {
    // 1 1 2: only one pair can be made (1+1 = 2 or 1+2 = 3)
    expect(bestCaptures([1, 1, 2], [2, 3], null, false)).toHaveLength(1);
    // 1 1 2 2: two pairs: 1+1 for the 2 and 2+... (1+2, 1+2) for two 3s
    expect(targets(bestCaptures([1, 1, 2, 2], [3, 3], null, false))).toEqual(['opponent:3', 'opponent:3']);
    expect(targets(bestCaptures([1, 1, 2, 2], [2, 4], null, false))).toEqual(['opponent:2', 'opponent:4']);
  });
  it('finds the most captures (the pairing matters)', () => {
    // 1 2 3 4 against 5 and 5: 1+4 and 2+3, not 2+3 alone after a greedy 1+4… both found
    expect(targets(bestCaptures([1, 2, 3, 4], [5, 5], null, false))).toEqual(['opponent:5', 'opponent:5']);
    // 1 3 2 4 against 4 and 6: 1+3 and 2+4
    expect(targets(bestCaptures([1, 3, 2, 4], [4, 6], null, false))).toEqual(['opponent:4', 'opponent:6']);
  });
  it('takes the opponent\'s dice before the centre die, and the centre die when it still can', () => {
    expect(targets(bestCaptures([2, 3, 1], [5], 5, false))).toEqual(['opponent:5']);
    expect(targets(bestCaptures([2, 3, 1, 4], [5], 5, false))).toEqual(['opponent:5', 'centre:5']);
    expect(targets(bestCaptures([2, 3], [6], 5, false))).toEqual(['centre:5']);
  });
});

describe('War: a game', () => {
  it('is for two players; the first listed throws the centre die (no roll-off on the sheet)', () => {
    expect(() => createMatch({ game: 'war', players: ['A', 'B', 'C'] })).toThrow(SetupError);
    const state = play([]);
    expect(expectRoll(state)).toMatchObject({ player: 0, count: 1, kept: [] });
    expect(viewMatch(state).slate.rows.map((r) => r.cells.dice)).toEqual([2, 2]);
  });
  it('the centre die is thrown again while it shows 1', () => {
    let state = play([roll(1)]);
    expect(g(state).phase).toBe('centre');
    expect(expectRoll(state)).toMatchObject({ player: 0, count: 1 });
    state = applyAction(state, roll(1));
    state = applyAction(state, roll(5));
    expect(g(state).centre).toBe(5);
    expect(g(state).phase).toBe('throw');
  });
  it('each player throws their own dice: the camera sees the centre die and the dice already thrown', () => {
    let state = play([roll(5)]);
    const first = expectRoll(state) as ExpectedRoll;
    expect(first).toMatchObject({ player: 0, count: 2, kept: [5] });
    expect(thrownDiceFromTable(first, [5, 2, 6])).toEqual([2, 6]);
    state = applyAction(state, roll(2, 6));
    const second = expectRoll(state) as ExpectedRoll;
    expect(second).toMatchObject({ player: 1, count: 2, kept: [5, 2, 6] });
    expect(thrownDiceFromTable(second, [5, 2, 6, 3, 3]).sort()).toEqual([3, 3]);
    expect(() => thrownDiceFromTable(second, [5, 2, 6, 3])).toThrow('4 dice seen, 2 were re-rolled and 3 kept.');
    expect(code(state, roll(3, 3, 3))).toBe('wrong-dice-count');
  });
  it('captured dice change hands at once; the centre die goes to a player who alone captures it', () => {
    // centre 5. Ann 2 3 (sum 5) takes the centre; Bob 1 4 (sum 5) could too: it stays.
    let state = play([roll(5), roll(2, 3), roll(1, 4)]);
    expect(g(state).centre).toBe(5);
    expect(g(state).counts).toEqual([2, 2]);
    expect(g(state).lastTurn?.centreContested).toBe(true);
    // Ann 1 4 takes the centre alone; Bob 6 6 takes nothing.
    state = applyAction(applyAction(state, roll(1, 4)), roll(6, 6));
    expect(g(state).centre).toBeNull();
    expect(g(state).counts).toEqual([3, 2]);
    expect(expectRoll(state)).toMatchObject({ player: 0, count: 3, kept: [] });
    // Ann 1 2 6 takes Bob's 3 (1+2); Bob 3 3 takes Ann's 6 (3+3).
    state = applyAction(applyAction(state, roll(1, 2, 6)), roll(3, 3));
    expect(g(state).counts).toEqual([3, 2]);
    expect(viewMatch(state).slate.rows.map((r) => r.cells.captured)).toEqual(['3 with 1+2', '6 with 3+3']);
  });
  it('the slate never shows last turn\'s captures beside this turn\'s throw', () => {
    // centre 6. Ann 1 2 takes Bob's 3 (1+2); Bob 3 4 takes nothing (sum 7).
    let state = play([roll(6), roll(1, 2), roll(3, 4)]);
    const cells = () => viewMatch(state).slate.rows.map((r) => [r.cells.thrown, r.cells.captured]);
    expect(cells()).toEqual([['1 2', '3 with 1+2'], ['3 4', '']]);
    // Ann throws for the next turn: her new dice did not make the capture, so it goes.
    state = applyAction(state, roll(2, 2, 3));
    expect(cells()).toEqual([['2 2 3', ''], ['', '']]);
    // Bob throws: the turn is complete and its captures show beside its throws.
    state = applyAction(state, roll(5));
    expect(cells()).toEqual([['2 2 3', '5 with 2+3'], ['5', '']]);
  });
  it('capturing all the opponent\'s dice scores a point; both take two dice and the winner throws the centre die', () => {
    // centre 6. Ann 1 3 takes Bob's 4 (1+3); Bob 4 5 takes nothing (sum 9).
    let state = play([roll(6), roll(1, 3), roll(4, 5)]);
    expect(g(state).counts).toEqual([3, 1]);
    // Bob's lone 2: Ann 1 1 4 takes it (1+1); a lone die takes a die showing its number, and Ann
    // shows no 2.
    state = applyAction(applyAction(state, roll(1, 1, 4)), roll(2));
    expect(g(state).scores).toEqual([1, 0]);
    expect(g(state).counts).toEqual([2, 2]);
    expect(g(state).phase).toBe('centre');
    expect(expectRoll(state)).toMatchObject({ player: 0, count: 1 });
    expect(g(state).gameNumber).toBe(2);
  });
  it('a lone die captured while it captures is replaced by the die it took: no point', () => {
    // centre 6. Ann 1 3 takes Bob's 4; Bob 4 5 takes nothing: Ann 3 dice, Bob 1.
    let state = play([roll(6), roll(1, 3), roll(4, 5)]);
    // Ann 1 4 5 takes Bob's 5 (1+4) while Bob's 5 takes Ann's 5: Bob still has one die.
    state = applyAction(applyAction(state, roll(1, 4, 5)), roll(5));
    expect(g(state).counts).toEqual([3, 1]);
    expect(g(state).scores).toEqual([0, 0]);
    // Again: 2+2 takes Bob's 4, and Bob's 4 takes Ann's 4.
    state = applyAction(applyAction(state, roll(2, 2, 4)), roll(4));
    expect(g(state).scores).toEqual([0, 0]);
    // A lone die that captures nothing is simply lost: Ann scores.
    state = applyAction(applyAction(state, roll(2, 2, 5)), roll(4));
    expect(g(state).scores).toEqual([1, 0]);
  });
  it('the first to 5 points wins', () => {
    // Each game: centre 6; Ann 1 3 takes Bob's 4, Bob 4 5 nothing; then Ann 1 1 4 takes Bob's 2.
    const game = [roll(6), roll(1, 3), roll(4, 5), roll(1, 1, 4), roll(2)];
    let state = play([], { ante: 5 });
    for (let i = 0; i < 5; i++) for (const a of game) state = applyAction(state, a);
    expect(g(state).scores).toEqual([5, 0]);
    expect(state.winners).toEqual([0]);
    expect(state.payouts).toEqual([10, 0]);
    expect(play(game, { pointsToWin: 1 }).winners).toEqual([0]);
    expect(code(state, roll(3))).toBe('game-over');
  });
  it('every move is a throw', () => {
    expect(code(play([roll(5)]), { type: 'capture' })).toBe('unknown-action');
  });
});

describe('War variation 1: the loser starts the next game with three dice', () => {
  it('after a point the loser takes the fifth die as a third: 3 against 2, no centre die', () => {
    // centre 6; Ann 1 3 takes Bob's 4; Ann 1 1 4 takes Bob's 2 (1+1): Ann's point.
    const game = [roll(6), roll(1, 3), roll(4, 5), roll(1, 1, 4), roll(2)];
    let state = play(game, { loserStartsWithThree: true });
    expect(g(state).counts).toEqual([2, 3]);
    expect(g(state).centre).toBeNull();
    expect(g(state).phase).toBe('throw'); // nothing to throw into the centre
    expect(viewMatch(state).headline).toMatch(/New game: Ann 2 dice, Bob 3 dice; no centre die\. Ann: throw your 2 dice\.$/);
    expect(expectRoll(state)).toMatchObject({ player: 0, count: 2, kept: [] });
    state = applyAction(state, roll(2, 3));
    expect(expectRoll(state)).toMatchObject({ player: 1, count: 3, kept: [2, 3] });
    // Ann 2+3 takes Bob's 5; Bob 1+1 takes Ann's 2 and nothing is in the centre: 2 and 3 again.
    state = applyAction(state, roll(1, 1, 5));
    expect(g(state).counts).toEqual([2, 3]);
    expect(g(state).lastTurn?.captures).toEqual([
      [{ dice: [2, 3], target: 'opponent', value: 5 }],
      [{ dice: [1, 1], target: 'opponent', value: 2 }],
    ]);
  });
  it('the other reading: the loser takes three dice and the winner one, the fifth die in the centre', () => {
    const game = [roll(6), roll(1, 3), roll(4, 5), roll(1, 1, 4), roll(2)];
    let state = play(game, { loserStartsWithThree: true, loserThirdDie: 'winners-die' });
    expect(g(state).counts).toEqual([1, 3]);
    state = applyAction(state, roll(4)); // Ann, the winner, throws the centre die
    expect(expectRoll(state)).toMatchObject({ player: 0, count: 1, kept: [4] });
    state = applyAction(state, roll(5));
    expect(expectRoll(state)).toMatchObject({ player: 1, count: 3, kept: [4, 5] });
  });
  it('not before the first point', () => {
    expect(g(play([], { loserStartsWithThree: true })).counts).toEqual([2, 2]);
  });
});

describe('War variation 2: a lone die captures two matching dice', () => {
  it('takes both of the opponent\'s dice and scores at once', () => {
    // centre 6. Ann 1 3 takes Bob's 4; Bob 4 5 nothing: Ann 3, Bob 1. Then Bob's lone 3 vs Ann 3 3 2.
    const start = [roll(6), roll(1, 3), roll(4, 5)];
    const sheet = play([...start, roll(3, 3, 2), roll(3)]);
    // Sheet rules: Bob's 3 takes one of Ann's 3s; Ann's 3+3 takes the centre 6.
    expect(g(sheet).counts).toEqual([3, 2]);
    const v2 = play([...start, roll(3, 3, 2), roll(3)], { oneDieTakesTwo: true });
    // Bob's 3 takes both of Ann's 3s; Ann's 3+3 takes the centre 6.
    expect(g(v2).counts).toEqual([2, 3]);
  });
});

describe('War: random play over every variation never gets stuck and plays games to the end', () => {
  const variations: Array<Record<string, unknown>> = [
    { pointsToWin: 2 },
    { loserStartsWithThree: true, pointsToWin: 2 },
    { loserStartsWithThree: true, loserThirdDie: 'winners-die', pointsToWin: 2 },
    { oneDieTakesTwo: true, pointsToWin: 2 },
  ];
  for (const options of variations) {
    it(JSON.stringify(options), () => {
      const { finished } = checkRandomPlay({ game: 'war', players: ['A', 'B'], options }, { numRuns: 30, maxSteps: 200, alwaysAMove: true });
      expect(finished).toBeGreaterThan(0);
    });
  }
});
