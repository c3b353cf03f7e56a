import { describe, expect, it } from 'vitest';
import {
  applyAction,
  createMatch,
  expectRoll,
  RuleError,
  SetupError,
  viewMatch,
  type Action,
  type MatchState,
} from '../../src/lib/rules/index.ts';
import { isAllDifferent, isThreeOfAKind, type TugState } from '../../src/lib/rules/games/tug.ts';
import { checkRandomPlay } from './random-play.ts';

const roll = (...dice: number[]): Action => ({ type: 'roll', dice });
const reroll = (...dice: number[]): Action => ({ type: 'reroll', dice });
const choose = (combination: 'all-different' | 'three-of-a-kind'): Action => ({ type: 'choose', combination });

/** Ann starts (first listed) and plays for five different numbers unless told otherwise. */
function play(actions: Action[], options: Record<string, unknown> = {}): MatchState {
  let state = createMatch({ game: 'tug', players: ['Ann', 'Bob'], options: { startingPlayer: 'first-listed', ...options } });
  for (const a of actions) state = applyAction(state, a);
  return state;
}
const g = (state: MatchState) => state.play as TugState;
const code = (state: MatchState, action: Action): string => {
  try {
    applyAction(state, action);
  } catch (error) {
    if (error instanceof RuleError) return error.code;
    throw error;
  }
  return 'applied';
};

describe('Tug: the combinations', () => {
  it('five different numbers', () => {
    expect(isAllDifferent([1, 2, 3, 4, 5])).toBe(true);
    expect(isAllDifferent([6, 2, 3, 4, 1])).toBe(true);
    expect(isAllDifferent([1, 2, 3, 4, 4])).toBe(false);
  });
  it('the same number on exactly three dice', () => {
    expect(isThreeOfAKind([4, 4, 4, 2, 5], false)).toBe(true);
    expect(isThreeOfAKind([4, 4, 2, 2, 5], false)).toBe(false);
    expect(isThreeOfAKind([4, 4, 4, 4, 5], false)).toBe(false); // four of a kind is not exactly three
    expect(isThreeOfAKind([4, 4, 4, 4, 4], false)).toBe(false);
  });
  it('never with both a 1 and a 6', () => {
    expect(isThreeOfAKind([3, 3, 3, 1, 6], false)).toBe(false);
    expect(isThreeOfAKind([1, 1, 1, 6, 2], false)).toBe(false);
    expect(isThreeOfAKind([6, 6, 6, 1, 5], false)).toBe(false);
    expect(isThreeOfAKind([6, 6, 6, 2, 5], false)).toBe(true);
    expect(isThreeOfAKind([1, 1, 1, 2, 5], false)).toBe(true);
    // The restriction is only on three of a kind.
    expect(isAllDifferent([1, 2, 3, 4, 6])).toBe(true);
  });
  it('a full house (3 + 2) does not count unless the option says so', () => {
    expect(isThreeOfAKind([5, 5, 5, 2, 2], false)).toBe(false);
    expect(isThreeOfAKind([5, 5, 5, 2, 2], true)).toBe(true);
    expect(isThreeOfAKind([6, 6, 6, 1, 1], true)).toBe(false);
  });
});

describe('Tug: setting up', () => {
  it('is for two players; the starter comes from a two-dice roll-off by default', () => {
    expect(() => createMatch({ game: 'tug', players: ['A', 'B', 'C'] })).toThrow(SetupError);
    const state = createMatch({ game: 'tug', players: ['Ann', 'Bob'] });
    expect(expectRoll(state)).toMatchObject({ count: 2 });
  });
  it('the starting player chooses a combination; the opponent plays for the other', () => {
    let state = play([]);
    expect(code(state, roll(1, 2, 3, 4, 5))).toBe('no-roll-expected');
    expect(code(state, { type: 'choose', combination: 'pair' })).toBe('bad-combination');
    state = applyAction(state, choose('three-of-a-kind'));
    expect(g(state).combinations).toEqual(['three-of-a-kind', 'all-different']);
    expect(viewMatch(state).slate.rows.map((r) => r.cells.combination)).toEqual(['three of a kind', 'five different numbers']);
    expect(code(state, choose('all-different'))).toBe('combination-chosen');
  });
  it('then throws all five dice to set the string, and takes the first turn', () => {
    let state = play([choose('all-different')]);
    expect(expectRoll(state)).toMatchObject({ player: 0, count: 5, kept: [] });
    state = applyAction(state, roll(2, 2, 3, 4, 5));
    expect(g(state).dice).toEqual([2, 2, 3, 4, 5]);
    expect(viewMatch(state).current).toBe(0);
    expect(g(state).phase).toBe('turn');
  });
  it('a string showing a combination scores for its owner; the owner\'s opponent throws a new string', () => {
    // Ann (all different) sets 1 2 3 4 5: she scores; Bob throws the new string.
    let state = play([choose('all-different'), roll(1, 2, 3, 4, 5)]);
    expect(g(state).scores).toEqual([1, 0]);
    expect(expectRoll(state)).toMatchObject({ player: 1, count: 5 });
    // Bob's string shows Bob's three of a kind: Bob scores; Ann throws.
    state = applyAction(state, roll(3, 3, 3, 4, 5));
    expect(g(state).scores).toEqual([1, 1]);
    expect(expectRoll(state)).toMatchObject({ player: 0, count: 5 });
    // Ann's string shows Bob's combination: Bob scores, and Ann throws again.
    state = applyAction(state, roll(2, 2, 2, 4, 5));
    expect(g(state).scores).toEqual([1, 2]);
    expect(expectRoll(state)).toMatchObject({ player: 0, count: 5 });
  });
});

describe('Tug: turns (re-roll one or two dice)', () => {
  const start = [choose('all-different'), roll(2, 2, 3, 3, 5)];
  it('re-roll one or two dice, two together; the rest stay', () => {
    const state = play(start);
    const pick = viewMatch(state).legal.find((m) => m.kind === 'choose-dice');
    expect(pick).toMatchObject({ actionType: 'reroll', min: 1, max: 2, from: [2, 2, 3, 3, 5] });
    expect(code(state, reroll(2, 3, 5))).toBe('wrong-reroll-count');
    expect(code(state, reroll())).toBe('wrong-reroll-count');
    expect(code(state, reroll(6))).toBe('not-on-table');
    expect(() => applyAction(state, reroll(6))).toThrow('6 is not in the string (2 2 3 3 5).');
    expect(code(state, roll(1))).toBe('no-roll-expected');
    const picked = applyAction(state, reroll(2, 3));
    expect(expectRoll(picked)).toMatchObject({ player: 0, count: 2, kept: [2, 3, 5], prompt: 'Ann: re-roll 2 dice together (2 3 5 stay).' });
    expect(expectRoll(applyAction(state, reroll(5)))?.prompt).toBe('Ann: re-roll the die (2 2 3 3 stay).');
    expect(code(picked, roll(1))).toBe('wrong-dice-count');
  });
  it('no combination: the turn passes', () => {
    const state = play([...start, reroll(2), roll(2)]);
    expect(g(state).dice).toEqual([2, 3, 3, 5, 2]);
    expect(viewMatch(state).current).toBe(1);
  });
  it('forming your combination scores; the opponent throws the new string and takes the next turn', () => {
    let state = play([...start, reroll(2, 3), roll(1, 4)]); // 2 3 5 1 4
    expect(g(state).scores).toEqual([1, 0]);
    expect(expectRoll(state)).toMatchObject({ player: 1, count: 5 });
    state = applyAction(state, roll(1, 1, 2, 2, 6));
    expect(viewMatch(state).current).toBe(1);
    expect(g(state).phase).toBe('turn');
  });
  it('forming the opponent\'s combination scores for the opponent; the mover throws the new string', () => {
    // Ann (all different) re-rolls a 2 into a 3: 2 3 3 5 3 is Bob's three of a kind.
    const state = play([...start, reroll(2), roll(3)]);
    expect(g(state).scores).toEqual([0, 1]);
    expect(expectRoll(state)).toMatchObject({ player: 0, count: 5 });
  });
  it('or, as an option, scores nothing and the turn passes', () => {
    const state = play([...start, reroll(2), roll(3)], { opponentCombination: 'no-score' });
    expect(g(state).scores).toEqual([0, 0]);
    expect(viewMatch(state).current).toBe(1);
    expect(g(state).dice).toEqual([2, 3, 3, 5, 3]);
  });
  it('a three of a kind with a 1 and a 6 scores nothing', () => {
    const state = play([choose('three-of-a-kind'), roll(4, 4, 1, 6, 2), reroll(2), roll(4)]);
    expect(g(state).dice).toEqual([4, 4, 1, 6, 4]);
    expect(g(state).scores).toEqual([0, 0]);
    expect(viewMatch(state).headline).toBe(
      "Ann re-rolled 4: 4 4 1 6 4 (not three of a kind: both a 1 and a 6). Bob's turn. Bob (five different numbers): pick up one or two dice to re-roll.",
    );
  });
  it('the headline says why three or more of a number are not three of a kind, and only then', () => {
    const set = (...dice: number[]) => viewMatch(play([choose('three-of-a-kind'), roll(...dice)])).headline;
    const setFullHouse = (...dice: number[]) =>
      viewMatch(play([choose('three-of-a-kind'), roll(...dice)], { fullHouseCounts: true })).headline;
    expect(set(3, 3, 3, 1, 6)).toBe(
      'Ann sets the string 3 3 3 1 6 (not three of a kind: both a 1 and a 6). Ann (three of a kind): pick up one or two dice to re-roll.',
    );
    expect(set(6, 6, 6, 1, 2)).toContain('(not three of a kind: both a 1 and a 6)');
    // Not three of a kind for other reasons: a 1 and a 6 are beside the point.
    expect(set(1, 1, 2, 2, 6)).toBe('Ann sets the string 1 1 2 2 6. Ann (three of a kind): pick up one or two dice to re-roll.');
    expect(set(6, 6, 6, 6, 1)).toContain('(not three of a kind: four 6s)');
    expect(set(2, 2, 2, 2, 2)).toContain('(not three of a kind: five 2s)');
    expect(set(6, 6, 6, 1, 1)).toContain('(not three of a kind: a full house)');
    expect(set(3, 3, 3, 1, 5)).not.toContain('not three of a kind'); // it is three of a kind
    expect(setFullHouse(6, 6, 6, 1, 1)).toContain('(not three of a kind: both a 1 and a 6)');
  });
  it('the first to 5 points wins', () => {
    const point = [roll(1, 2, 3, 4, 5)]; // each string shows five different numbers: the owner scores
    // Ann plays for all different: every string 1 2 3 4 5 scores for Ann, and Bob throws the next.
    let state = play([choose('all-different')], { ante: 1 });
    for (let i = 0; i < 5; i++) state = applyAction(state, point[0]!);
    expect(g(state).scores).toEqual([5, 0]);
    expect(state.winners).toEqual([0]);
    expect(state.payouts).toEqual([2, 0]);
    expect(play([choose('all-different'), ...point, ...point], { pointsToWin: 2 }).winners).toEqual([0]);
  });
});

describe('Tug variation 1: 1, 2, 3, 4 … dice a turn', () => {
  const v1 = { rerolls: 'increasing' };
  const start = [choose('all-different'), roll(2, 2, 3, 3, 6)];
  it('the first turn re-rolls one die, the next two, then three, in any combination', () => {
    let state = play(start, v1);
    expect(viewMatch(state).legal.find((m) => m.kind === 'choose-dice')).toMatchObject({ min: 1, max: 1 });
    state = applyAction(applyAction(state, reroll(6)), roll(6)); // Ann's 1 die used
    expect(viewMatch(state).current).toBe(1);
    expect(viewMatch(state).legal.find((m) => m.kind === 'choose-dice')).toMatchObject({ min: 1, max: 2 });
    state = applyAction(applyAction(state, reroll(6)), roll(5)); // Bob: 1 of 2
    expect(viewMatch(state).current).toBe(1);
    expect(viewMatch(state).legal.find((m) => m.kind === 'choose-dice')).toMatchObject({ min: 1, max: 1 });
    state = applyAction(applyAction(state, reroll(5)), roll(6)); // Bob: 2 of 2
    expect(viewMatch(state).current).toBe(0);
    expect(viewMatch(state).legal.find((m) => m.kind === 'choose-dice')).toMatchObject({ min: 1, max: 3 });
    expect(code(state, reroll(2, 2, 3, 3))).toBe('wrong-reroll-count');
  });
  it('the turn stops as soon as the combination forms', () => {
    let state = play([...start, reroll(6), roll(6), reroll(6, 2)], v1);
    state = applyAction(state, roll(2, 2)); // Bob: 2 2 2 3 3 — a full house, not his three of a kind
    expect(g(state).scores).toEqual([0, 0]);
    expect(viewMatch(state).current).toBe(0);
    state = applyAction(applyAction(state, reroll(2)), roll(4)); // Ann: 2 2 3 3 4, one of her three
    state = applyAction(applyAction(state, reroll(2, 3)), roll(1, 5)); // 2 3 4 1 5: Ann scores
    expect(g(state).scores).toEqual([1, 0]);
    expect(expectRoll(state)).toMatchObject({ player: 1, count: 5 });
  });
  it('the count starts again at one with each new string (or keeps growing, as an option)', () => {
    const actions = [...start, reroll(6), roll(6), reroll(6, 2), roll(2, 2), reroll(2), roll(4), reroll(2, 3), roll(1, 5), roll(2, 2, 3, 3, 6)];
    const restart = play(actions, v1);
    expect(viewMatch(restart).current).toBe(1);
    expect(viewMatch(restart).legal.find((m) => m.kind === 'choose-dice')).toMatchObject({ min: 1, max: 1 });
    // While the new string is being thrown, the table is not told the last turn's count
    const throwing = play(actions.slice(0, -1), v1);
    expect(g(throwing).phase).toBe('set-string');
    expect(viewMatch(throwing).details.allowance).toBeNull();
    expect(viewMatch(restart).details.allowance).toBe(1);
    const grow = play(actions, { ...v1, countRestarts: false });
    expect(viewMatch(grow).legal.find((m) => m.kind === 'choose-dice')).toMatchObject({ min: 1, max: 4 });
  });
});

describe('Tug variation 2: exactly two dice every turn', () => {
  it('refuses one die', () => {
    const state = play([choose('all-different'), roll(2, 2, 3, 3, 6)], { rerolls: 'exactly-two' });
    expect(viewMatch(state).legal.find((m) => m.kind === 'choose-dice')).toMatchObject({ min: 2, max: 2 });
    expect(code(state, reroll(2))).toBe('wrong-reroll-count');
    const next = applyAction(applyAction(state, reroll(2, 3)), roll(2, 3));
    expect(viewMatch(next).current).toBe(1);
  });
});

describe('Tug: random play over every variation never gets stuck and plays games to the end', () => {
  const variations: Array<Record<string, unknown>> = [
    {},
    { rerolls: 'increasing', pointsToWin: 2 },
    { rerolls: 'increasing', countRestarts: false, pointsToWin: 2 },
    { rerolls: 'exactly-two', opponentCombination: 'no-score', pointsToWin: 2 },
    { fullHouseCounts: true, pointsToWin: 2 },
  ];
  for (const options of variations) {
    it(JSON.stringify(options), () => {
      const { finished } = checkRandomPlay({ game: 'tug', players: ['A', 'B'], options }, { numRuns: 30, alwaysAMove: true });
      expect(finished).toBeGreaterThan(0);
    });
  }
});
