import { describe, expect, it } from 'vitest';
import {
  applyAction,
  createMatch,
  expectRoll,
  RuleError,
  thrownDiceFromTable,
  viewMatch,
  type Action,
  type MatchState,
} from '../../src/lib/rules/index.ts';
import {
  giftRecipient,
  lowestOnSlate,
  scoreFiveThousandRoll,
  type FiveThousandState,
} from '../../src/lib/rules/games/five-thousand.ts';

const r = (...dice: number[]): Action => ({ type: 'roll', dice });
const bank: Action = { type: 'bank' };
const keep = (...dice: number[]): Action => ({ type: 'keep', dice });
/** A first roll that scores nothing: the turn is lost. */
const BUST = r(2, 2, 3, 4, 6);

function play(actions: Action[], options: Record<string, unknown> = {}, players = ['Ann', 'Bob', 'Cy']): MatchState {
  let state = createMatch({ game: 'five-thousand', players, options });
  for (const a of actions) state = applyAction(state, a);
  return state;
}
const g = (state: MatchState) => state.play as FiveThousandState;
const points = (dice: number[], threeOnes?: number) => scoreFiveThousandRoll(dice, threeOnes).points;

function refused(state: MatchState, action: Action): RuleError {
  try {
    applyAction(state, action);
  } catch (error) {
    if (error instanceof RuleError) return error;
    throw error;
  }
  throw new Error(`${JSON.stringify(action)} was not refused`);
}

/** Turns that bank exactly these points (each a whole turn, every roll listed). */
const TURN = {
  500: [r(5, 5, 5, 2, 3), bank],
  600: [r(6, 6, 6, 2, 3), bank],
  700: [r(5, 5, 5, 1, 1), bank], // 500 + 200, all five scored: banking is allowed
  1100: [r(1, 1, 1, 2, 3), bank],
  4400: [r(1, 1, 1, 1, 1), bank],
  4800: [r(1, 1, 1, 1, 1), r(2, 2, 2, 2, 3), bank], // 4400, all five scored, roll five again: four 2s 400
} as const;

describe('5000 scoring table (one roll)', () => {
  it('a 1 is 100 and a 5 is 50; 2, 3, 4, 6 alone or by two score nothing', () => {
    expect(points([1])).toBe(100);
    expect(points([5])).toBe(50);
    expect(points([1, 5])).toBe(150);
    expect(points([1, 1])).toBe(200);
    expect(points([5, 5])).toBe(100);
    expect(points([2, 3, 4, 6, 6])).toBe(0);
    expect(points([2, 2, 3, 3, 6])).toBe(0);
    expect(points([4])).toBe(0);
  });
  it('three of a kind is 100 × the face; three 1s are 1100', () => {
    expect(points([2, 2, 2])).toBe(200);
    expect(points([3, 3, 3])).toBe(300);
    expect(points([4, 4, 4])).toBe(400);
    expect(points([5, 5, 5])).toBe(500);
    expect(points([6, 6, 6])).toBe(600);
    expect(points([1, 1, 1])).toBe(1100);
  });
  it('option threeOnes 1000', () => {
    expect(points([1, 1, 1], 1000)).toBe(1000);
    expect(points([1, 1, 1, 1], 1000)).toBe(2000);
  });
  it('four of a kind is twice the three, five of a kind four times the three', () => {
    expect(points([2, 2, 2, 2])).toBe(400);
    expect(points([6, 6, 6, 6])).toBe(1200);
    expect(points([1, 1, 1, 1])).toBe(2200);
    expect(points([5, 5, 5, 5])).toBe(1000);
    expect(points([2, 2, 2, 2, 2])).toBe(800);
    expect(points([6, 6, 6, 6, 6])).toBe(2400);
    expect(points([5, 5, 5, 5, 5])).toBe(2000);
    expect(points([1, 1, 1, 1, 1])).toBe(4400);
  });
  it('1-2-3-4-5 and 2-3-4-5-6 with the five dice are 1500, in any order', () => {
    expect(points([1, 2, 3, 4, 5])).toBe(1500);
    expect(points([6, 4, 2, 5, 3])).toBe(1500);
    expect(scoreFiveThousandRoll([3, 1, 5, 2, 4]).parts).toEqual([{ dice: [1, 2, 3, 4, 5], points: 1500, label: 'straight 1–5' }]);
    // Four dice in a row are not a straight: only the 5 scores.
    expect(points([2, 3, 4, 5])).toBe(50);
    expect(points([1, 3, 4, 5, 6])).toBe(150);
  });
  it('adds the groups of one roll, and says which dice score', () => {
    expect(points([2, 2, 2, 1, 5])).toBe(350);
    expect(points([1, 1, 1, 5, 5])).toBe(1200);
    expect(points([5, 5, 5, 1, 1])).toBe(700);
    expect(points([1, 1, 1, 1, 5])).toBe(2250);
    expect(points([3, 3, 3, 3, 1])).toBe(700);
    const score = scoreFiveThousandRoll([4, 1, 6, 1, 5]);
    expect(score.scoring).toEqual([1, 1, 5]);
    expect(score.parts.map((p) => p.label)).toEqual(['two 1s', 'a 5']);
  });
});

describe('a 5000 turn', () => {
  it('the sheet’s example: 1 1 5 6 4 is 250, the 1 1 5 are set aside and 6 4 are rolled again', () => {
    const state = play([r(1, 1, 5, 6, 4)]);
    expect(g(state).turn.total).toBe(250);
    expect(expectRoll(state)).toMatchObject({ count: 2, kept: [1, 1, 5], player: 0 });
    expect(viewMatch(state).headline).toBe(
      'Ann rolled 1 1 4 5 6 = 250 (1 1 5 set aside). Roll 2 dice — turn total 250, must reach 500 to enter',
    );
    expect(viewMatch(state).legal.map((m) => m.label)).toEqual(['Roll 2 dice']);
  });
  it('the sheet’s example, [5,5]: 350 and every die has scored — all five may be rolled again', () => {
    const state = play([r(1, 1, 5, 6, 4), r(5, 5)]);
    expect(g(state).turn.total).toBe(350);
    expect(expectRoll(state)).toMatchObject({ count: 5, kept: [] });
    expect(viewMatch(state).headline).toContain('All five dice scored: roll all 5 again — turn total 350');
  });
  it('the sheet’s example, [1,x]: a third ace in a later roll is 100, not 1100', () => {
    const state = play([r(1, 1, 5, 6, 4), r(1, 3)]);
    expect(g(state).turn.total).toBe(350);
    expect(expectRoll(state)).toMatchObject({ count: 1, kept: [1, 1, 1, 5] });
  });
  it('the sheet’s example, [1,1]: 450 is still short of 500, so all five dice must be rolled again', () => {
    const state = play([r(1, 1, 5, 6, 4), r(1, 1)]);
    expect(g(state).turn.total).toBe(450);
    expect(refused(state, bank).code).toBe('not-on-slate');
    expect(expectRoll(state)).toMatchObject({ count: 5, kept: [] });
  });
  it('a straight scores 1500 and sets all five dice aside', () => {
    const state = play([...TURN[500], BUST, BUST, r(1, 5, 2, 3, 4)]);
    expect(viewMatch(state).headline).toBe(
      'Ann rolled 1 2 3 4 5 = 1500, straight 1–5 (all set aside). All five dice scored: roll all 5 again or bank — turn total 1500 (500 → 2000)',
    );
  });
  it('the 50 rule: a total ending in 50 must roll on, and may stop once it is round', () => {
    const state = play([...TURN[500], BUST, BUST, r(1, 5, 2, 3, 6)]); // Ann on the slate; 150 this turn
    expect(g(state).turn.total).toBe(150);
    const error = refused(state, bank);
    expect(error.code).toBe('ends-in-50');
    expect(error.message).toBe('Your turn total ends in 50: roll again.');
    expect(viewMatch(state).headline).toBe('Ann rolled 1 2 3 5 6 = 150 (1 5 set aside). Roll 3 dice — turn total 150 ends in 50');
    const rounded = applyAction(state, r(5, 2, 3));
    expect(g(rounded).turn.total).toBe(200);
    const banked = applyAction(rounded, bank);
    expect(g(banked).scores[0]).toBe(700);
  });
  it('500 in one turn to get on the slate', () => {
    const short = play([r(1, 1, 2, 3, 4), r(1, 6, 6)]); // 300
    const error = refused(short, bank);
    expect(error.code).toBe('not-on-slate');
    expect(error.message).toBe('You need 500 in one turn to get on the slate (300 so far): roll again.');
    const enough = play([r(5, 5, 5, 2, 3), bank]);
    expect(g(enough).scores).toEqual([500, 0, 0]);
    expect(viewMatch(enough).slate.rows[0]?.cells.status).toBe('on the slate');
    expect(viewMatch(enough).slate.rows[1]?.cells.status).toBe('needs 500');
  });
  it('points of several turns do not add up towards the 500', () => {
    const first = play([r(1, 1, 2, 3, 4), r(1, 6, 6), r(2, 3)]); // 300, then a bust
    expect(g(first).scores[0]).toBe(0);
    expect(g(first).current).toBe(1);
    const again = play([r(1, 1, 2, 3, 4), r(1, 6, 6), r(2, 3), BUST, BUST, r(1, 1, 2, 3, 4), r(1, 6, 6)]);
    expect(g(again).turn.total).toBe(300);
    expect(refused(again, bank).code).toBe('not-on-slate');
  });
  it('once on the slate, 100 may be banked (the sheet’s "at least 100")', () => {
    const state = play([...TURN[500], BUST, BUST, r(1, 2, 3, 4, 6)]);
    expect(g(state).turn.total).toBe(100);
    expect(g(applyAction(state, bank)).scores[0]).toBe(600);
  });
  it('a roll that scores nothing loses the turn’s points, never the score already banked', () => {
    const state = play([...TURN[600], BUST, BUST, r(1, 1, 5, 5, 3), r(2)]);
    expect(g(state).scores).toEqual([600, 0, 0]);
    expect(g(state).current).toBe(1);
    expect(viewMatch(state).headline).toBe(
      "Ann rolled 2: nothing scores — bust, 300 lost. Bob's turn: roll 5 dice (needs 500 in one turn to get on the slate).",
    );
    expect(viewMatch(state).slate.rows[0]?.cells.last).toBe('bust');
  });
  it('after all five dice scored the player may bank or roll all five again; a bust then loses it all', () => {
    const hot = play([r(1, 1, 1, 5, 5)]);
    expect(g(hot).turn.total).toBe(1200);
    expect(viewMatch(hot).legal.map((m) => m.label)).toEqual(['Roll all 5 again', 'Bank 1200 (0 → 1200)']);
    expect(g(applyAction(hot, bank)).scores[0]).toBe(1200);
    const rolled = applyAction(hot, r(1, 2, 3, 3, 6));
    expect(g(rolled).turn.total).toBe(1300);
    expect(g(rolled).turn.setAside).toEqual([1]);
    const bust = applyAction(hot, r(2, 3, 3, 4, 6));
    expect(g(bust).scores[0]).toBe(0);
    expect(g(bust).current).toBe(1);
  });
  it('all five scored over several rolls counts too (the sheet’s [5,5] example)', () => {
    const state = play([r(1, 2, 3, 4, 6), r(1, 5, 2, 3), r(5, 6), r(5)]);
    expect(g(state).turn.setAside).toEqual([1, 1, 5, 5, 5]);
    expect(g(state).turn.total).toBe(350);
    expect(expectRoll(state)).toMatchObject({ count: 5, kept: [] });
  });
  it('a straight needs all five dice in one roll', () => {
    // 1 5 set aside, then 2 3 4 rolled: the table shows 1-2-3-4-5 but the roll 2 3 4 scores nothing.
    const state = play([r(1, 5, 2, 2, 6), r(2, 3, 4)]);
    expect(g(state).scores[0]).toBe(0);
    expect(g(state).current).toBe(1);
  });
  it('the camera may see the set-aside dice too: they must be unchanged', () => {
    const state = play([r(1, 1, 5, 6, 4)]);
    const expected = expectRoll(state);
    if (!expected) throw new Error('a roll is expected');
    expect(thrownDiceFromTable(expected, [1, 3, 1, 5, 2])).toEqual([3, 2]);
    expect(() => thrownDiceFromTable(expected, [1, 3, 6, 5, 2])).toThrow('The kept dice (1 1 5) are not all on the table as they were');
    expect(() => thrownDiceFromTable(expected, [1, 1, 5, 2])).toThrow('4 dice seen, 2 were re-rolled and 3 kept.');
  });
  it('refuses a roll of the wrong number of dice, naming the difference', () => {
    const state = play([r(1, 1, 5, 6, 4)]);
    expect(refused(state, r(6, 4, 2)).message).toBe('3 dice thrown, 2 expected.');
    expect(refused(play([]), r(1, 2, 3, 4)).code).toBe('wrong-dice-count');
  });
  it('refuses banking before rolling and unknown actions', () => {
    expect(refused(play([]), bank)).toMatchObject({ code: 'nothing-to-bank', message: 'Roll first: there is nothing to bank yet.' });
    expect(refused(play([]), { type: 'pass' }).code).toBe('unknown-action');
    expect(refused(play([r(1, 2, 2, 3, 4)]), keep(1)).code).toBe('keep-not-allowed');
  });
});

describe('5000 bumps', () => {
  it('landing on another player’s exact total bumps them to zero; they must enter with 500 again', () => {
    // Ann 600; Bob 500; Cy busts; Ann busts; Bob banks 100 → 600 = Ann's: Ann is bumped.
    const state = play([...TURN[600], ...TURN[500], BUST, BUST, r(1, 2, 3, 4, 6), bank]);
    expect(g(state).scores).toEqual([0, 600, 0]);
    expect(g(state).bumped).toEqual([true, false, false]);
    const view = viewMatch(state);
    expect(view.slate.rows[0]).toMatchObject({ score: 0, marked: true, note: 'bumped: needs 500 to get back on' });
    expect(view.slate.rows[0]?.cells).toMatchObject({ status: 'needs 500', last: 'bumped to 0' });
    expect(view.headline).toContain("Bob lands on Ann's 600: Ann is bumped to 0 and must score 500 in one turn to get back on the slate.");
    // Ann, bumped, may not bank 300: she must make 500 in one turn again.
    const ann = applyAction(applyAction(state, BUST), r(1, 1, 1, 2, 3));
    expect(g(ann).current).toBe(0);
    expect(g(applyAction(ann, bank)).scores[0]).toBe(1100);
    const annShort = applyAction(applyAction(state, BUST), r(1, 1, 5, 5, 3));
    expect(refused(annShort, bank).code).toBe('not-on-slate');
  });
  it('bumps every player on that total', () => {
    // Option giftBumps off lets Bob and Cy share 1100; Dee then enters on 1100 and bumps both.
    const state = play(
      [...TURN[4800], ...TURN[600], ...TURN[1100], BUST, r(5, 5, 5, 2, 3), bank, BUST, BUST],
      { giftBumps: false },
      ['Ann', 'Bob', 'Cy', 'Dee'],
    );
    expect(g(state).scores).toEqual([4800, 1100, 1100, 0]);
    const after = applyAction(applyAction(state, r(1, 1, 1, 2, 3)), bank);
    expect(g(after).scores).toEqual([4800, 0, 0, 1100]);
    expect(g(after).bumped).toEqual([false, true, true, false]);
    expect(viewMatch(after).headline).toContain("Dee lands on Bob and Cy's 1100: Bob and Cy are bumped to 0");
  });
  it('at a big table the players bumped are counted past three, as the headline counts other players', () => {
    // giftBumps off: Ann's overflow gifts lift Bob, Cy and Dee onto Eve's 1100 one by one; Fay then enters on 1100
    const six = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay'];
    const others = [BUST, BUST, BUST, BUST, BUST];
    const state = play(
      [
        ...TURN[4800], ...TURN[500], ...TURN[600], ...TURN[700], ...TURN[1100], BUST,
        ...TURN[600], ...others, // 4800 + 600 > 5000: Bob 500 → 1100
        ...TURN[500], ...others, // Cy 600 → 1100
        r(2, 2, 2, 2, 3), bank, BUST, BUST, BUST, BUST, // four 2s, 400: Dee 700 → 1100
      ],
      { giftBumps: false },
      six,
    );
    expect(g(state).scores).toEqual([4800, 1100, 1100, 1100, 1100, 0]);
    expect(g(state).current).toBe(5);
    const rolled = applyAction(state, r(1, 1, 1, 2, 3));
    expect(viewMatch(rolled).headline).toContain('(0 → 1100, bumps 4 players to 0)');
    const after = applyAction(rolled, bank);
    expect(g(after).scores).toEqual([4800, 0, 0, 0, 0, 1100]);
    expect(viewMatch(after).headline).toContain('Fay lands on 1100, the score of 4 players: all 4 are bumped to 0 and must score 500 in one turn to get back on the slate.');
    // the slate's rows say who
    expect(viewMatch(after).slate.rows.filter((row) => row.note === 'bumped: needs 500 to get back on')).toHaveLength(4);
  });
  it('the bank button and headline say who banking would bump', () => {
    const s2 = play([...TURN[600], ...TURN[500], BUST, BUST, r(1, 2, 3, 4, 6)]);
    expect(viewMatch(s2).headline).toBe('Bob rolled 1 2 3 4 6 = 100 (1 set aside). Roll 4 dice or bank — turn total 100 (500 → 600, bumps Ann to 0)');
  });
  it('a new player entering on someone’s exact score bumps them', () => {
    const state = play([...TURN[600], ...TURN[600]]);
    expect(g(state).scores).toEqual([0, 600, 0]);
  });
});

describe('5000 overflow gift', () => {
  // Ann 4800; Bob 600; Cy 1100.
  const setup = [...TURN[4800], ...TURN[600], ...TURN[1100]];

  it('points that would pass 5000 go to the lowest player who has at least 500', () => {
    const state = play([...setup, r(5, 5, 5, 2, 3), bank]); // Ann: 4800 + 500 > 5000
    expect(g(state).scores).toEqual([4800, 1100, 0]);
    expect(g(state).scores).not.toContain(5300);
    // Bob 600 + 500 = 1100 = Cy's: Cy is bumped (option giftBumps, on by default).
    expect(g(state).bumped).toEqual([false, false, true]);
    expect(viewMatch(state).headline).toContain(
      "Ann's 500 would pass 5000 (4800 + 500): they go to Bob, the lowest on the slate, 600 → 1100. Bob lands on Cy's 1100: Cy is bumped to 0",
    );
    expect(viewMatch(state).slate.rows.map((row) => row.cells.last)).toEqual(['over 5000: gave 500', 'gift +500', 'bumped to 0']);
  });
  it('the bank button warns before the gift', () => {
    const state = play([...setup, r(5, 5, 5, 2, 3)]);
    expect(viewMatch(state).legal.map((m) => m.label)).toEqual(['Roll 2 dice', 'Bank 500 (over 5000: goes to Bob, bumps Cy to 0)']);
  });
  it('option giftBumps off: the gift never bumps', () => {
    const state = play([...setup, r(5, 5, 5, 2, 3), bank], { giftBumps: false });
    expect(g(state).scores).toEqual([4800, 1100, 1100]);
  });
  it('players below 500 never receive a gift; the lowest of those on the slate does', () => {
    const state = play([...TURN[4800], BUST, ...TURN[1100], r(5, 5, 5, 2, 3), bank]);
    expect(g(state).scores).toEqual([4800, 0, 1600]);
  });
  it('when no other player has 500, the points are lost', () => {
    const state = play([...TURN[4800], BUST, BUST, r(5, 5, 5, 2, 3), bank]);
    expect(g(state).scores).toEqual([4800, 0, 0]);
    expect(viewMatch(state).headline).toContain('no other player is on the slate to receive them: the points are lost.');
  });
  it('a tie for lowest: the first of them to the giver’s left receives', () => {
    // giftBumps off: Bob receives 500 and ties Cy at 1100; Ann's next overflow goes to Bob.
    const state = play([...setup, r(5, 5, 5, 2, 3), bank, BUST, BUST, r(6, 6, 6, 2, 3), bank], { giftBumps: false });
    expect(g(state).scores).toEqual([4800, 1700, 1100]);
    // The headline says why Bob and not Cy, who has the same score.
    expect(viewMatch(state).headline).toContain(
      "Ann's 600 would pass 5000 (4800 + 600): they go to Bob, 1100 → 1700 (Bob and Cy share the lowest score on the slate; Bob sits first to Ann's left).",
    );
    const gs = g(state);
    const tie: FiveThousandState = { ...gs, scores: [4800, 600, 600] };
    expect(giftRecipient(tie, 0)).toBe(1);
    expect(giftRecipient(tie, 1)).toBe(2);
    expect(giftRecipient({ ...tie, scores: [4800, 600, 600, 600], players: ['A', 'B', 'C', 'D'] }, 2)).toBe(3);
  });
  it('at a big table the players sharing the lowest score are counted, not listed', () => {
    // giftBumps off: Ann's gifts bring Bob, Cy and Dee up to Eve's 1100, one by one
    const five = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve'];
    const others = [BUST, BUST, BUST, BUST];
    const actions = [
      ...[...TURN[4800], ...TURN[500], ...TURN[600], ...TURN[700], ...TURN[1100]],
      ...[r(6, 6, 6, 2, 3), bank, ...others],
      ...[r(5, 5, 5, 2, 3), bank, ...others],
      ...[r(2, 2, 2, 2, 3), bank, ...others],
      ...[r(5, 5, 5, 2, 3), bank],
    ];
    const state = play(actions, { giftBumps: false }, five);
    expect(g(state).scores).toEqual([4800, 1600, 1100, 1100, 1100]);
    expect(viewMatch(state).headline).toContain(
      "Ann's 500 would pass 5000 (4800 + 500): they go to Bob, 1100 → 1600 (4 players share the lowest score on the slate; Bob sits first to Ann's left).",
    );
  });
  it('the gift and its headline share one walk of the seats: the lowest on the slate, from the giver’s left', () => {
    const gs = g(play([...setup], { giftBumps: false }));
    const four = { ...gs, players: ['A', 'B', 'C', 'D'] };
    expect(lowestOnSlate({ ...four, scores: [4800, 600, 600, 600] }, 2)).toEqual([3, 1]); // seating order, not seat number
    expect(lowestOnSlate({ ...four, scores: [600, 4800, 900, 600] }, 1)).toEqual([3, 0]);
    expect(lowestOnSlate({ ...four, scores: [600, 4800, 0, 900] }, 0)).toEqual([3]); // the giver and players off the slate never count
    expect(lowestOnSlate({ ...four, scores: [4800, 0, 0, 0] }, 0)).toEqual([]);
    expect(giftRecipient({ ...four, scores: [4800, 0, 0, 0] }, 0)).toBeNull();
  });
  it('a gift that would take its receiver past 5000 too is lost', () => {
    // Ann 4800, Bob 4400; Ann's 700 would pass 5000, and Bob's 4400 + 700 too.
    const state = play([...TURN[4800], ...TURN[4400], BUST, ...TURN[700]]);
    expect(g(state).scores).toEqual([4800, 4400, 0]);
    expect(viewMatch(state).headline).toContain("Ann's 700 would pass 5000 (4800 + 700); they would take Bob (4400) past 5000 too: the points are lost.");
  });
  it('a gift that lands on exactly 5000 makes its receiver reach 5000 and win', () => {
    // Ann 4800; Bob 4400; Ann's 600 would pass 5000 and go to Bob: 5000.
    const before = play([...TURN[4800], ...TURN[4400], BUST, r(6, 6, 6, 2, 3)], { ante: 5 });
    expect(viewMatch(before).legal.at(-1)?.label).toBe('Bank 600 (over 5000: goes to Bob, who reaches 5000)');
    const state = applyAction(before, bank);
    expect(g(state).scores).toEqual([4800, 5000, 0]);
    expect(state.winners).toEqual([1]);
    expect(state.payouts).toEqual([0, 15, 0]);
  });
  it('a gift can bump the giver', () => {
    // Ann 4800; Bob 4400 … Bob receives Ann's 400: 4800 = Ann's. Ann is bumped to 0.
    const before = play([...TURN[4800], ...TURN[4400], BUST, r(1, 1, 5, 5, 2), r(1)]);
    expect(viewMatch(before).legal.at(-1)?.label).toBe('Bank 400 (over 5000: goes to Bob, bumps Ann to 0)');
    const state = applyAction(before, bank);
    expect(g(state).scores).toEqual([0, 4800, 0]);
    expect(g(state).bumped).toEqual([true, false, false]);
  });
  it('option overflow "lost": the points are simply lost', () => {
    const state = play([...setup, r(5, 5, 5, 2, 3), bank], { overflow: 'lost' });
    expect(g(state).scores).toEqual([4800, 600, 1100]);
    expect(viewMatch(state).headline).toContain("Ann's 500 would pass 5000 (4800 + 500): the points are lost.");
  });
});

describe('5000 winning', () => {
  it('reaching exactly 5000 wins at once and takes the pot', () => {
    const state = play([...TURN[4800], BUST, BUST, r(1, 1, 2, 3, 4), bank], { ante: 2 });
    expect(state.phase).toBe('over');
    expect(state.winners).toEqual([0]);
    expect(state.payouts).toEqual([6, 0, 0]);
    expect(viewMatch(state).headline).toBe('Ann banks 200: 4800 → 5000. Ann reaches 5000 and wins!');
    expect(viewMatch(state).legal).toEqual([]);
  });
  it('the bank button says when banking reaches 5000', () => {
    const state = play([...TURN[4800], BUST, BUST, r(1, 1, 2, 3, 4)]);
    expect(viewMatch(state).legal.at(-1)?.label).toBe('Bank 200 (4800 → 5000: reaches 5000)');
  });
  it('option winRule final-round at a big table: the others counted, not listed, in the headline', () => {
    const five = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve'];
    const reached = play([...TURN[4800], BUST, BUST, BUST, BUST, r(1, 1, 2, 3, 4), bank], { winRule: 'final-round' }, five);
    expect(viewMatch(reached).headline).toBe(
      "Ann banks 200: 4800 → 5000. Ann reaches 5000: final round, the other 4 players each get one more turn. Bob's last turn: roll 5 dice (Ann leads with 5000; needs 500 in one turn to get on the slate).",
    );
  });
  it('option winRule final-round: reaching 5000 gives everyone else one more turn, then the highest wins', () => {
    const options = { winRule: 'final-round', ante: 1 };
    const reached = play([...TURN[4800], ...TURN[600], ...TURN[1100], r(1, 1, 2, 3, 4), bank], options);
    expect(reached.phase).toBe('play');
    expect(g(reached).finalRound).toEqual({ reachedBy: 0, toPlay: [1, 2] });
    expect(viewMatch(reached).headline).toBe(
      "Ann banks 200: 4800 → 5000. Ann reaches 5000: final round, Bob and Cy each get one more turn. Bob's last turn: roll 5 dice (Ann leads with 5000).",
    );
    const bob = applyAction(reached, BUST);
    expect(viewMatch(bob).slate.rows.map((row) => row.note)).toEqual(['reached 5000', 'last turn played', null]);
    const over = applyAction(applyAction(bob, r(6, 6, 6, 2, 3)), bank);
    expect(over.winners).toEqual([0]);
    expect(g(over).scores).toEqual([5000, 600, 1700]);
    expect(viewMatch(over).headline).toBe('Cy banks 600: 1100 → 1700. Game over: Ann wins with 5000.');
  });
  it('final round: a gift that makes its receiver reach 5000 gives the giver one more turn too', () => {
    // Ann 4800, Bob 4400; Ann's 600 would pass 5000 and goes to Bob: 5000 on Ann's turn.
    const options = { winRule: 'final-round' };
    const reached = play([...TURN[4800], ...TURN[4400], BUST, r(6, 6, 6, 2, 3), bank], options);
    expect(g(reached).scores).toEqual([4800, 5000, 0]);
    expect(g(reached).finalRound).toEqual({ reachedBy: 1, toPlay: [0, 2] });
    expect(viewMatch(reached).current).toBe(2);
    const ann = applyAction(reached, BUST);
    expect(viewMatch(ann).current).toBe(0);
    expect(viewMatch(ann).headline).toMatch(/Ann's last turn: roll 5 dice \(Bob leads with 5000\)/);
    const over = applyAction(applyAction(ann, r(1, 1, 2, 3, 4)), bank);
    expect(g(over).scores).toEqual([5000, 0, 0]); // 4800 + 200 lands on Bob's 5000: Bob is bumped to 0
    expect(over.winners).toEqual([0]);
  });
  it('final round: a player who lands on 5000 bumps the leader to zero and wins', () => {
    const options = { winRule: 'final-round' };
    const state = play([...TURN[4800], ...TURN[600], ...TURN[1100], r(1, 1, 2, 3, 4), bank, ...TURN[4400], BUST], options);
    expect(g(state).scores).toEqual([0, 5000, 1100]);
    expect(state.winners).toEqual([1]);
  });
});

describe('5000 house rule: choose which scoring dice to keep', () => {
  const options = { setAside: 'choose' };
  it('offers keeping fewer scoring dice right after a roll', () => {
    const state = play([r(1, 1, 5, 6, 4)], options);
    const moves = viewMatch(state).legal;
    expect(moves).toContainEqual({
      kind: 'choose-dice',
      actionType: 'keep',
      from: [1, 1, 5],
      min: 1,
      max: 3,
      label: 'Keep fewer scoring dice (roll the others again)',
    });
  });
  it('keeping fewer changes the turn total and the dice to roll', () => {
    const state = play([r(1, 1, 5, 6, 4), keep(1, 1)], options);
    expect(g(state).turn.total).toBe(200);
    expect(expectRoll(state)).toMatchObject({ count: 3, kept: [1, 1] });
    expect(viewMatch(state).headline).toBe(
      'Ann rolled 1 1 4 5 6 = 250 (1 1 set aside; kept 200). Roll 3 dice — turn total 200, must reach 500 to enter',
    );
  });
  it('rolling without choosing keeps every scoring die', () => {
    const state = play([r(1, 1, 5, 6, 4), r(2, 3)], options);
    expect(g(state).current).toBe(1);
  });
  it('a player on the slate may drop a 5 to stop on a round total', () => {
    const state = play([...TURN[500], BUST, BUST, r(1, 5, 2, 3, 6), keep(1), bank], options);
    expect(g(state).scores[0]).toBe(600);
  });
  it('refuses dice that do not score among those kept, dice not rolled, none, and a second choice', () => {
    const state = play([r(2, 2, 2, 1, 6)], options);
    expect(refused(state, keep(2, 2))).toMatchObject({ code: 'keep-scoring-only', message: 'Keep only dice that score: 2 2 score nothing among the dice kept.' });
    expect(refused(state, keep(6)).code).toBe('keep-scoring-only');
    expect(refused(state, keep(5)).code).toBe('keep-not-rolled');
    expect(refused(state, keep()).code).toBe('keep-none');
    const kept = applyAction(state, keep(2, 2, 2));
    expect(g(kept).turn.total).toBe(200);
    expect(refused(kept, keep(1)).code).toBe('keep-too-late');
    expect(refused(play([], options), keep(1)).code).toBe('keep-too-late');
  });
  it('keeping only some dice of an all-scoring roll means rolling the others, not all five', () => {
    const state = play([r(1, 1, 1, 5, 5), keep(1, 1, 1)], options);
    expect(g(state).turn.total).toBe(1100);
    expect(expectRoll(state)).toMatchObject({ count: 2, kept: [1, 1, 1] });
  });
});
