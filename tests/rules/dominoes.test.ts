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
import { DOMINO_MATCHES, diceMatch, placements, stringCanGrow, type DominoesState } from '../../src/lib/rules/games/dominoes.ts';
import { checkRandomPlay } from './random-play.ts';

const roll = (...dice: number[]): Action => ({ type: 'roll', dice });
const add = (die: number, end: 'left' | 'right'): Action => ({ type: 'add', die, end });
const substitute = (die: number, end: 'left' | 'right'): Action => ({ type: 'substitute', die, end });

function play(actions: Action[], options: Record<string, unknown> = {}, players = ['Ann', 'Bob']): MatchState {
  let state = createMatch({ game: 'dominoes', players, options: { startingPlayer: 'first-listed', ...options } });
  for (const a of actions) state = applyAction(state, a);
  return state;
}
const g = (state: MatchState) => state.play as DominoesState;
const code = (state: MatchState, action: Action): string => {
  try {
    applyAction(state, action);
  } catch (error) {
    if (error instanceof RuleError) return error.code;
    throw error;
  }
  return 'applied';
};

describe('Dominoes: which dice match (the sheet\'s table)', () => {
  it('lists exactly the sheet\'s matches', () => {
    expect(DOMINO_MATCHES).toEqual({ 1: [3, 5], 2: [3, 4, 5, 6], 3: [1, 2, 5], 4: [2, 5, 6], 5: [1, 2, 3, 4], 6: [2, 4] });
  });
  it('is symmetric, and no die matches itself', () => {
    for (let a = 1; a <= 6; a++) {
      expect(diceMatch(a, a)).toBe(false);
      for (let b = 1; b <= 6; b++) expect(diceMatch(a, b)).toBe(diceMatch(b, a));
    }
  });
  it('a 3 matches a 5 (the sheet\'s example), a 1 does not match a 2', () => {
    expect(diceMatch(3, 5)).toBe(true);
    expect(diceMatch(1, 2)).toBe(false);
    expect(diceMatch(6, 3)).toBe(false);
  });
});

describe('Dominoes: adding to the string', () => {
  it('adds only next to a die it matches, at either end, never a number already there', () => {
    expect(placements([3, 5], [1], false)).toEqual([
      { kind: 'add', die: 1, end: 'right' },
      { kind: 'add', die: 1, end: 'left' },
    ]);
    expect(placements([3, 5], [4], false)).toEqual([{ kind: 'add', die: 4, end: 'right' }]);
    expect(placements([3, 5], [5], false)).toEqual([]); // 5 is on the string (and 5 matches 3)
    expect(placements([3, 5], [6], false)).toEqual([]);
    expect(placements([2, 3, 1], [5], false)).toEqual([
      { kind: 'add', die: 5, end: 'right' },
      { kind: 'add', die: 5, end: 'left' },
    ]);
  });
  it('a one-die string offers one way per die (left and right give the same string)', () => {
    expect(placements([3], [5], false)).toEqual([{ kind: 'add', die: 5, end: 'right' }]);
  });
  it('matches only against the end dice, not inner ones', () => {
    // 4 matches the inner 5 but neither end die (1 and 3)
    expect(placements([1, 5, 3], [4], false)).toEqual([]);
  });
});

describe('Dominoes head to head (the sheet game)', () => {
  it('the starting player throws one die to begin; the opponent plays first', () => {
    let state = play([]);
    expect(expectRoll(state)).toMatchObject({ player: 0, count: 1, kept: [] });
    state = applyAction(state, roll(4));
    expect(g(state).string).toEqual([4]);
    expect(expectRoll(state)).toMatchObject({ player: 1, count: 1, kept: [4] });
  });
  it('the slate marks the starting player: "begins this string" until their die is thrown, then "began"', () => {
    const notes = (state: MatchState) => viewMatch(state).slate.rows.map((r) => r.note);
    let state = play([]);
    expect(notes(state)).toEqual(['begins this string', null]);
    state = applyAction(state, roll(4));
    expect(notes(state)).toEqual(['began this string', null]);
    // Bob fails three times: Ann wins the round, and Bob is the new starting player.
    state = applyAction(applyAction(applyAction(state, roll(1)), roll(3)), roll(1));
    expect(g(state).phase).toBe('establish');
    expect(notes(state)).toEqual([null, 'begins this string']);
    state = applyAction(state, roll(6));
    expect(notes(state)).toEqual([null, 'began this string']);
  });
  it('a die that fits is placed at once and the turn passes', () => {
    const state = play([roll(4), roll(6)]);
    expect(g(state).string).toEqual([4, 6]);
    expect(viewMatch(state).current).toBe(0);
    expect(expectRoll(state)?.kept).toEqual([4, 6]);
  });
  it('one die is thrown up to three times a turn', () => {
    let state = play([roll(4), roll(1), roll(3)]);
    expect(g(state).throwsThisTurn).toBe(2);
    expect(viewMatch(state).current).toBe(1);
    state = applyAction(state, roll(2));
    expect(g(state).string).toEqual([4, 2]);
  });
  it('failing three times ends the round: the last to add (here the one who began) scores', () => {
    const state = play([roll(4), roll(1), roll(3), roll(1)]);
    expect(g(state).scores).toEqual([1, 0]);
    // The other player becomes the new starting player and begins the next string.
    expect(g(state).phase).toBe('establish');
    expect(viewMatch(state).current).toBe(1);
    expect(g(state).string).toEqual([]);
  });
  it('the last player to add scores when the other fails', () => {
    const state = play([roll(4), roll(6), roll(1), roll(1), roll(1)]);
    expect(g(state).scores).toEqual([0, 1]);
    expect(g(state).roundStarter).toBe(0); // Ann did not score: she begins the next string
    expect(viewMatch(state).current).toBe(0);
  });
  it('adding the fifth die ends the round and scores', () => {
    // 1-3-2-6-4: a string of five
    const state = play([roll(1), roll(3), roll(2), roll(6), roll(4)]);
    expect(g(state).scores).toEqual([1, 0]);
    expect(g(state).string).toEqual([]);
    expect(viewMatch(state).current).toBe(1);
  });
  it('a string no number can extend ends the round at once: the player who made it scores', () => {
    // 1 5 2 3: the 1 matches only 3 and 5, the 3 only 1, 2 and 5 — all on the string.
    expect(stringCanGrow([1, 5, 2, 3], false)).toBe(false);
    expect(stringCanGrow([5, 2, 3], false)).toBe(true);
    // Ann begins 2; Bob adds 3; Ann's 5 fits both ends (left); Bob's 1 fits both ends (left).
    let state = play([roll(2), roll(3), roll(5), add(5, 'left'), roll(1)]);
    expect(g(state).phase).toBe('place');
    state = applyAction(state, add(1, 'left'));
    // Ann would surely fail: Bob scores without her throwing, and she begins the next string.
    expect(g(state).scores).toEqual([0, 1]);
    expect(g(state).phase).toBe('establish');
    expect(expectRoll(state)).toMatchObject({ player: 0, count: 1, kept: [] });
    expect(viewMatch(state).headline).toBe(
      'Bob adds 1 on the left, next to 5. No die can be added to 1 5 2 3. Bob wins the round (1 of 5). Ann begins the next string. Ann: throw one die to begin the string.',
    );
  });
  it('a die already on the string is named as such', () => {
    const state = play([roll(4), roll(4)]);
    expect(viewMatch(state).headline).toMatch(/^Bob threw 4: already on the string, 2 throws left\./);
  });
  it('when a die fits both ends, the player chooses', () => {
    let state = play([roll(3), roll(5), roll(1)]);
    expect(g(state).phase).toBe('place');
    expect(expectRoll(state)).toBeNull();
    const labels = viewMatch(state).legal.map((m) => m.label);
    expect(labels).toEqual(['Add 1 on the right, next to 5', 'Add 1 on the left, next to 3']);
    expect(code(state, roll(2))).toBe('no-roll-expected');
    expect(code(state, add(2, 'left'))).toBe('not-thrown');
    expect(code(state, { type: 'add', die: 1, end: 'middle' })).toBe('bad-end');
    expect(code(state, substitute(1, 'left'))).toBe('no-substitute');
    state = applyAction(state, add(1, 'left'));
    expect(g(state).string).toEqual([1, 3, 5]);
    expect(viewMatch(state).current).toBe(1);
  });
  it('refuses a placement when no choice is pending', () => {
    expect(code(play([roll(3)]), add(5, 'right'))).toBe('nothing-to-place');
  });
  it('the first player to win 5 rounds wins; the option changes it', () => {
    // Each round: the starter begins with 6, the other fails three times: the starter scores.
    const round = [roll(6), roll(1), roll(1), roll(1)];
    let state = play([]);
    for (let r = 0; r < 9; r++) state = applyAction(applyAction(applyAction(applyAction(state, round[0]!), round[1]!), round[2]!), round[3]!);
    // Starters alternate (the loser starts), so the rounds alternate: Ann 5, Bob 4.
    expect(g(state).scores).toEqual([5, 4]);
    expect(state.winners).toEqual([0]);
    const short = play([...round, ...round], { roundsToWin: 2 });
    expect(g(short).scores).toEqual([1, 1]);
    expect(short.phase).toBe('play');
  });
  it('is for two players', () => {
    expect(() => createMatch({ game: 'dominoes', players: ['A', 'B', 'C'] })).toThrow(SetupError);
    expect(() => createMatch({ game: 'dominoes', players: ['A', 'B', 'C'] })).toThrow(/variation 2/);
  });
});

describe('Dominoes variation 1: substitute an end die', () => {
  const v1 = { variation: 'substitute' };
  it('a die may replace an end die when it matches the die next to it and is new to the string', () => {
    expect(placements([3, 5], [1], true)).toEqual([
      { kind: 'add', die: 1, end: 'right' },
      { kind: 'add', die: 1, end: 'left' },
      { kind: 'substitute', die: 1, end: 'right' }, // 1 3 — 1 matches 3
      { kind: 'substitute', die: 1, end: 'left' }, // 1 5 — 1 matches 5
    ]);
    expect(placements([3, 5], [4], true)).toEqual([
      { kind: 'add', die: 4, end: 'right' },
      { kind: 'substitute', die: 4, end: 'left' }, // 4 in place of 3, next to 5
    ]);
    expect(placements([3, 5], [3], true)).toEqual([]); // 3 is already on the string
  });
  it('a one-die string cannot be substituted (there is no die next to it)', () => {
    expect(placements([6], [2], true)).toEqual([{ kind: 'add', die: 2, end: 'right' }]);
    expect(placements([6], [3], true)).toEqual([]);
  });
  it('substituting is the turn\'s play: it counts as adding for who scores', () => {
    // Ann begins 3, Bob adds 5, Ann throws 6: no add (6 matches 2, 4), no substitute (6 ∤ 3, 5): again
    // Ann throws 4: add on the right (4 5) or replace 3 by 4 (4 5): she chooses to replace.
    let state = play([roll(3), roll(5), roll(6), roll(4)], v1);
    expect(g(state).phase).toBe('place');
    state = applyAction(state, substitute(4, 'left'));
    expect(g(state).string).toEqual([4, 5]);
    // Bob throws 4, 5, 4 (numbers already on the string): Ann, who substituted last, scores.
    state = applyAction(applyAction(applyAction(state, roll(4)), roll(5)), roll(4));
    expect(g(state).string).toEqual([]);
    expect(g(state).scores).toEqual([1, 0]);
  });
  it('substituting is optional: a die that can only replace an end die may be declined and the die thrown again', () => {
    // 1 5 2 3 cannot grow, but a 4 may replace the 1 (next to 5) and a 6 the 3 (next to 2).
    expect(stringCanGrow([1, 5, 2, 3], true)).toBe(true);
    let state = play([roll(2), roll(3), roll(5), add(5, 'left'), roll(1), add(1, 'left')], v1);
    expect(g(state).string).toEqual([1, 5, 2, 3]); // the round goes on: substitutions are possible
    expect(expectRoll(state)).toMatchObject({ player: 0, count: 1, kept: [1, 5, 2, 3] });
    state = applyAction(state, roll(4));
    expect(g(state).phase).toBe('place'); // one way only, yet the player is asked
    expect(expectRoll(state)).toBeNull();
    expect(viewMatch(state).headline).toBe('Ann threw 4: substitute it, or not.');
    expect(viewMatch(state).legal).toEqual([
      { kind: 'action', action: { type: 'substitute', die: 4, end: 'right' }, label: 'Put 4 in place of the 3 on the right' },
      { kind: 'action', action: { type: 'substitute', die: 4, end: 'left' }, label: 'Put 4 in place of the 1 on the left' },
      { kind: 'action', action: { type: 'skip' }, label: "Don't substitute: throw again (2 throws left)" },
    ]);
    state = applyAction(state, { type: 'skip' });
    expect(g(state).phase).toBe('roll');
    expect(g(state).string).toEqual([1, 5, 2, 3]);
    expect(expectRoll(state)).toMatchObject({ player: 0, count: 1, kept: [1, 5, 2, 3] });
    state = applyAction(applyAction(state, roll(6)), { type: 'skip' }); // 6 could replace the 3
    state = applyAction(state, roll(4));
    expect(viewMatch(state).legal.at(-1)).toEqual({
      kind: 'action',
      action: { type: 'skip' },
      label: "Don't substitute: no die added, Bob wins the round",
    });
    state = applyAction(state, { type: 'skip' }); // three throws, no die added: Bob scores
    expect(g(state).scores).toEqual([0, 1]);
    expect(g(state).phase).toBe('establish');
  });
  it('a die that can be added must be placed: declining is refused', () => {
    const state = play([roll(3), roll(5), roll(6), roll(4)], v1); // 4: add next to 5, or replace the 3
    expect(g(state).phase).toBe('place');
    expect(viewMatch(state).legal.some((m) => m.kind === 'action' && m.action.type === 'skip')).toBe(false);
    expect(code(state, { type: 'skip' })).toBe('must-place');
    expect(code(play([roll(3)], v1), { type: 'skip' })).toBe('must-place');
    expect(code(play([roll(3)]), { type: 'skip' })).toBe('must-place');
  });
  it('refuses a substitution that does not fit', () => {
    const state = play([roll(3), roll(5), roll(4)], v1);
    expect(code(state, substitute(4, 'right'))).toBe('does-not-fit'); // 4 next to 3: no match
  });
});

describe('Dominoes variation 2: the series', () => {
  const v2 = { variation: 'series' };
  const three = ['Ann', 'Bob', 'Cy'];
  it('is for 2 to 4 players', () => {
    expect(() => play([], v2, ['A', 'B', 'C', 'D'])).not.toThrow();
    expect(() => play([], v2, ['A', 'B'])).not.toThrow();
    expect(() => createMatch({ game: 'dominoes', players: ['A', 'B', 'C', 'D', 'E'], options: v2 })).toThrow(SetupError);
  });
  it('the details have no round count (the series has none), only the points that end it; head to head counts rounds', () => {
    const done = play([roll(3), roll(6, 6, 6, 6)], v2, three); // Ann's turn ends: 1 point
    expect(viewMatch(done).details).toMatchObject({ round: null, target: 15 });
    expect(viewMatch(play([roll(3), roll(6), roll(6), roll(6)])).details).toMatchObject({ round: 2, target: 5 });
  });
  it('one die starts the string, then 4, 3, 2, 1 dice, one die added per throw', () => {
    let state = play([], v2, three);
    expect(expectRoll(state)).toMatchObject({ player: 0, count: 1 });
    state = applyAction(state, roll(3));
    expect(expectRoll(state)).toMatchObject({ player: 0, count: 4, kept: [3] });
    state = applyAction(state, roll(1, 6, 6, 4)); // only the 1 fits
    expect(g(state).string).toEqual([3, 1]);
    expect(expectRoll(state)).toMatchObject({ count: 3, kept: [3, 1] });
    state = applyAction(state, roll(2, 4, 6)); // only the 2, on the left
    expect(g(state).string).toEqual([2, 3, 1]);
    expect(expectRoll(state)).toMatchObject({ count: 2 });
    state = applyAction(state, roll(6, 5)); // 6 next to 2, or 5 next to 2 or to 1: choose
    expect(g(state).phase).toBe('place');
    expect(viewMatch(state).legal.map((m) => (m.kind === 'action' ? m.action : null))).toEqual([
      { type: 'add', die: 6, end: 'left' },
      { type: 'add', die: 5, end: 'right' },
      { type: 'add', die: 5, end: 'left' },
    ]);
    state = applyAction(state, add(6, 'left'));
    expect(expectRoll(state)).toMatchObject({ count: 1, kept: [6, 2, 3, 1] });
    state = applyAction(state, roll(4)); // 4 next to 6: the fifth die
    expect(g(state).scores).toEqual([5, 0, 0]);
    expect(viewMatch(state).current).toBe(1);
  });
  it('when nothing fits, the player scores the dice on the string', () => {
    const state = play([roll(6), roll(1, 1, 3, 5)], v2, three);
    expect(g(state).scores).toEqual([1, 0, 0]);
    expect(viewMatch(state).slate.rows[0]?.cells).toEqual({ turns: 1, lastTurn: 1 });
  });
  it('a string no number can extend ends the turn without another throw', () => {
    // Ann starts 2, adds 3, then 5 (left), then 1 (left): 1 5 2 3, which nothing can extend.
    let state = play([roll(2), roll(3, 1, 1, 1), roll(5, 1, 1), add(5, 'left'), roll(1, 1)], v2, three);
    expect(g(state).phase).toBe('place');
    state = applyAction(state, add(1, 'left'));
    expect(g(state).scores).toEqual([4, 0, 0]);
    expect(expectRoll(state)).toMatchObject({ player: 1, count: 1, kept: [] });
  });
  it('at 15 points play goes on until everyone has had as many turns; the highest wins', () => {
    const five = [roll(1), roll(3, 6, 6, 6), roll(2, 6, 6), roll(6, 6), roll(4)]; // 1 3 2 6 4: 5 points
    const one = [roll(6), roll(1, 1, 3, 5)]; // 1 point
    let state = play([], { ...v2, seriesPoints: 6 }, three);
    for (const a of [...five, ...one, ...five, ...one]) state = applyAction(state, a);
    expect(g(state).scores).toEqual([6, 1, 5]);
    expect(state.phase).toBe('play'); // Ann reached 6 first; Bob and Cy still play this round
    for (const a of five) state = applyAction(state, a);
    expect(state.phase).toBe('play');
    for (const a of five) state = applyAction(state, a);
    expect(g(state).scores).toEqual([6, 6, 10]);
    expect(state.winners).toEqual([2]); // Cy overtakes in the last turn of the round
  });
  it('says "play on" once, at the turn that reaches the target, not again at each later turn', () => {
    const five = [roll(1), roll(3, 6, 6, 6), roll(2, 6, 6), roll(6, 6), roll(4)]; // 5 points
    const one = [roll(6), roll(1, 1, 3, 5)]; // 1 point
    let state = play([...five, ...one, ...one], { ...v2, seriesPoints: 6, seriesTie: 'play-off' }, ['Ann', 'Bob', 'Cy', 'Dee']);
    expect(viewMatch(state).headline).not.toContain('Play on');
    for (const a of one) state = applyAction(state, a); // Dee: 1 point, Ann's turn next
    for (const a of one) state = applyAction(state, a); // Ann reaches 6
    expect(g(state).scores).toEqual([6, 1, 1, 1]);
    expect(viewMatch(state).headline).toBe(
      'Ann threw 1 1 3 5: nothing fits. Ann scores 1 point (total 6). Play on until everyone has had as many turns. Bob: throw one die to begin the string.',
    );
    for (const a of five) state = applyAction(state, a); // Bob reaches 6 too: nothing new to announce
    expect(g(state).scores).toEqual([6, 6, 1, 1]);
    expect(viewMatch(state).headline).toBe('Bob adds 4 on the right, next to 6. The string is complete. Bob scores 5 points (total 6). Cy: throw one die to begin the string.');
    for (const a of one) state = applyAction(state, a);
    expect(viewMatch(state).headline).not.toContain('Play on');
    // Dee's turn evens the turns: Ann and Bob tie and play off; no "play on" there either.
    for (const a of one) state = applyAction(state, a);
    expect(g(state).playOff).toEqual([0, 1]);
    for (const a of one) state = applyAction(state, a);
    expect(g(state).phase).not.toBe('over');
    expect(viewMatch(state).headline).not.toContain('Play on');
  });
  it('a tie for the highest score shares the win (and the pot)', () => {
    const five = [roll(1), roll(3, 6, 6, 6), roll(2, 6, 6), roll(6, 6), roll(4)];
    const state = play([...five, ...five], { ...v2, seriesPoints: 5, ante: 3 }, ['Ann', 'Bob']);
    expect(g(state).scores).toEqual([5, 5]);
    expect(state.winners).toEqual([0, 1]);
    expect(state.payouts).toEqual([3, 3]);
  });
  it('house rule: a tie for the highest score is played off by the tied players, one turn each', () => {
    const five = [roll(1), roll(3, 6, 6, 6), roll(2, 6, 6), roll(6, 6), roll(4)]; // 5 points
    const one = [roll(6), roll(1, 1, 3, 5)]; // 1 point
    const two = [roll(6), roll(2, 1, 1, 1), roll(1, 1, 1)]; // 6 2, then nothing: 2 points
    let state = play([...five, ...one, ...five], { ...v2, seriesPoints: 5, seriesTie: 'play-off' }, three);
    expect(g(state).scores).toEqual([5, 1, 5]);
    expect(g(state).playOff).toEqual([0, 2]);
    expect(state.phase).toBe('play');
    expect(viewMatch(state).headline).toMatch(/Ann and Cy tie with 5: one more turn each\. Ann: throw one die/);
    expect(viewMatch(state).slate.rows.map((r) => [r.marked, r.note])).toEqual([
      [false, 'in the play-off'],
      [true, 'out of the play-off'],
      [false, 'in the play-off'],
    ]);
    // Ann 1 point, Cy 1 point: tied again (6 each); Bob does not play.
    for (const a of [...one, ...one]) state = applyAction(state, a);
    expect(g(state).scores).toEqual([6, 1, 6]);
    expect(expectRoll(state)).toMatchObject({ player: 0 });
    // Ann 1, Cy 2: Cy wins 8 to 7.
    for (const a of [...one, ...two]) state = applyAction(state, a);
    expect(g(state).scores).toEqual([7, 1, 8]);
    expect(state.winners).toEqual([2]);
    // Over: Bob's row stays marked and still says why.
    expect(viewMatch(state).slate.rows.map((r) => [r.marked, r.note])).toEqual([
      [false, null],
      [true, 'out of the play-off'],
      [false, 'winner'],
    ]);
  });
});

describe('Dominoes: random play over every variation never gets stuck and plays games to the end', () => {
  const tables: Array<[string[], Record<string, unknown>]> = [
    [['A', 'B'], {}],
    [['A', 'B'], { variation: 'substitute', roundsToWin: 2 }],
    [['A', 'B', 'C'], { variation: 'series', seriesPoints: 6 }],
    [['A', 'B', 'C', 'D'], { variation: 'series', seriesPoints: 4 }],
    [['A', 'B', 'C'], { variation: 'series', seriesPoints: 3, seriesTie: 'play-off' }],
  ];
  for (const [players, options] of tables) {
    it(`${players.length} players, ${JSON.stringify(options)}`, () => {
      const { finished } = checkRandomPlay({ game: 'dominoes', players, options }, { numRuns: 30, alwaysAMove: true });
      expect(finished).toBeGreaterThan(0);
    });
  }
});
