import { describe, expect, it } from 'vitest';
import {
  applyAction,
  createMatch,
  expectRoll,
  RuleError,
  viewMatch,
  type Action,
  type MatchState,
} from '../../src/lib/rules/index.ts';
import { scoreBigRollRoll, type BigRollState } from '../../src/lib/rules/games/big-roll-5000.ts';

const r = (...dice: number[]): Action => ({ type: 'roll', dice });
const bank: Action = { type: 'bank' };
const keep = (...dice: number[]): Action => ({ type: 'keep', dice });
const BUST = r(2, 2, 3, 4, 6);

function play(actions: Action[], options: Record<string, unknown> = {}, players = ['Ann', 'Bob', 'Cy']): MatchState {
  let state = createMatch({ game: 'big-roll-5000', players, options: { startingPlayer: 'first-listed', ...options } });
  for (const a of actions) state = applyAction(state, a);
  return state;
}
const g = (state: MatchState) => state.play as BigRollState;
const points = (dice: number[]) => scoreBigRollRoll(dice).points;

function refused(state: MatchState, action: Action): RuleError {
  try {
    applyAction(state, action);
  } catch (error) {
    if (error instanceof RuleError) return error;
    throw error;
  }
  throw new Error(`${JSON.stringify(action)} was not refused`);
}

/** Whole turns that pass with exactly these points and no forfeit (a die is left to roll). */
const TURN = {
  500: [r(5, 5, 5, 2, 3), bank],
  1000: [r(5, 5, 5, 5, 3), bank],
  1200: [r(6, 6, 6, 6, 2), bank],
  2000: [r(1, 1, 1, 1, 3), bank],
} as const;

describe('Big Roll 5000 scoring table (one roll)', () => {
  it('a 1 is 100, a 5 is 50; other faces alone or by two score nothing', () => {
    expect(points([1])).toBe(100);
    expect(points([5])).toBe(50);
    expect(points([1, 1, 5, 6, 4])).toBe(250);
    expect(points([2, 2, 3, 3, 6])).toBe(0);
  });
  it('three 1s are 1000; three of another face 100 × the face', () => {
    expect(points([1, 1, 1])).toBe(1000);
    expect(points([2, 2, 2])).toBe(200);
    expect(points([3, 3, 3])).toBe(300);
    expect(points([4, 4, 4])).toBe(400);
    expect(points([5, 5, 5])).toBe(500);
    expect(points([6, 6, 6])).toBe(600);
  });
  it('four of a kind doubles the three: four 1s 2000, four 2s 400', () => {
    expect(points([1, 1, 1, 1])).toBe(2000);
    expect(points([2, 2, 2, 2])).toBe(400);
    expect(points([5, 5, 5, 5])).toBe(1000);
  });
  it('five of a kind doubles the four, except five 1s', () => {
    expect(points([2, 2, 2, 2, 2])).toBe(800);
    expect(points([6, 6, 6, 6, 6])).toBe(2400);
    expect(points([5, 5, 5, 5, 5])).toBe(2000);
    expect(scoreBigRollRoll([1, 1, 1, 1, 1]).parts[0]?.label).toBe('five 1s');
  });
  it('the Big Roll, 1-2-3-4-5 in one roll of all five dice, is 500; 2-3-4-5-6 is only its 5', () => {
    expect(points([1, 2, 3, 4, 5])).toBe(500);
    expect(points([5, 3, 1, 4, 2])).toBe(500);
    expect(scoreBigRollRoll([5, 3, 1, 4, 2]).parts).toEqual([{ dice: [1, 2, 3, 4, 5], points: 500, label: 'Big Roll' }]);
    expect(points([2, 3, 4, 5, 6])).toBe(50);
  });
  it('adds the groups of one roll', () => {
    expect(points([2, 2, 2, 5, 1])).toBe(350); // the sheet's example
    expect(points([4, 4, 4, 2, 6])).toBe(400); // the sheet's example: 2 and 6 are rolled again
    expect(points([1, 1, 1, 5, 5])).toBe(1100);
    expect(points([1, 1, 1, 1, 5])).toBe(2050);
  });
});

describe('a Big Roll 5000 turn', () => {
  it('the sheet’s example: three 2s, a 5 and a 1 are 350 and the player must roll again', () => {
    const state = play([r(2, 2, 2, 5, 1)]);
    expect(g(state).turn.total).toBe(350);
    expect(expectRoll(state)).toMatchObject({ count: 5, kept: [] });
    expect(viewMatch(state).headline).toBe(
      'Ann rolled 1 2 2 2 5 = 350 (all set aside). All five dice scored: roll all 5 again — turn total 350, must reach 500 to enter',
    );
    expect(refused(state, bank).code).toBe('not-on-slate');
  });
  it('the sheet’s example: three 4s, a 2 and a 6 — the 2 and 6 are rolled again', () => {
    const state = play([r(4, 4, 4, 2, 6)]);
    expect(expectRoll(state)).toMatchObject({ count: 2, kept: [4, 4, 4], prompt: 'Ann: roll 2 dice (4 4 4 set aside).' });
  });
  it('500 in one turn to begin scoring; never stop on a 50', () => {
    const short = play([r(1, 1, 1, 2, 3), r(6, 6)]);
    expect(g(short).current).toBe(1); // 1000, then 6 6 scores nothing: bust
    const entered = play([r(1, 1, 1, 2, 3), bank]);
    expect(g(entered).scores).toEqual([1000, 0, 0]);
    const fifty = play([r(1, 1, 1, 2, 3), bank, BUST, BUST, r(5, 2, 3, 4, 6)]);
    expect(refused(fifty, bank)).toMatchObject({ code: 'ends-in-50', message: 'Your turn total ends in 50: roll again.' });
    const low = play([r(5, 5, 2, 3, 4)]);
    expect(refused(low, bank).message).toBe('You need 500 in one turn to get on the slate (100 so far): roll again.');
  });
  it('a roll with no points loses the turn’s points', () => {
    const state = play([...TURN[500], BUST, BUST, r(1, 1, 5, 3, 4), r(2, 6)]);
    expect(g(state).scores).toEqual([500, 0, 0]);
    expect(viewMatch(state).headline).toBe(
      "Ann rolled 2 6: nothing scores — bust, 250 lost. Bob's turn: roll 5 dice (needs 500 in one turn to get on the slate).",
    );
  });
  it('the Big Roll only with all five dice in one roll', () => {
    // 1 and 5 set aside, then 2 3 4: the table shows 1-2-3-4-5, but that roll scores nothing.
    const state = play([r(1, 5, 2, 2, 6), r(2, 3, 4)]);
    expect(g(state).current).toBe(1);
    expect(g(state).scores[0]).toBe(0);
  });
  it('a Big Roll on a roll of all five again counts', () => {
    const state = play([r(1, 1, 1, 5, 5), r(3, 1, 4, 2, 5)]);
    expect(g(state).turn.total).toBe(1600);
  });
  it('combinations count only within one roll', () => {
    const state = play([r(1, 1, 2, 3, 4), r(1, 6, 6)]);
    expect(g(state).turn.total).toBe(300);
  });
});

describe('Big Roll 5000: all five dice scored', () => {
  it('roll all five again or pass — and passing forfeits the next turn', () => {
    const hot = play([r(1, 1, 1, 5, 5)]);
    expect(viewMatch(hot).legal.map((m) => m.label)).toEqual([
      'Roll all 5 again',
      'Pass with 1100 (0 → 1100, skip your next turn)',
    ]);
    expect(viewMatch(hot).headline).toBe(
      'Ann rolled 1 1 1 5 5 = 1100 (all set aside). All five dice scored: roll all 5 again or pass (skip your next turn) — turn total 1100 (0 → 1100)',
    );
    const passed = applyAction(hot, bank);
    expect(g(passed).scores).toEqual([1100, 0, 0]);
    expect(g(passed).skipNext).toEqual([true, false, false]);
    expect(viewMatch(passed).slate.rows[0]).toMatchObject({ note: 'skips next turn', marked: true });
    // Bob and Cy bust; Ann's turn is skipped: Bob plays again.
    const skipped = applyAction(applyAction(passed, BUST), BUST);
    expect(g(skipped).current).toBe(1);
    expect(g(skipped).skipNext).toEqual([false, false, false]);
    expect(viewMatch(skipped).headline).toBe(
      "Cy rolled 2 2 3 4 6: nothing scores — bust. Ann skips this turn (passed after all five dice had scored). Bob's turn: roll 5 dice (needs 500 in one turn to get on the slate).",
    );
  });
  it('with two players the other one plays twice in a row', () => {
    const state = play([r(1, 1, 1, 5, 5), bank, BUST], {}, ['Ann', 'Bob']);
    expect(g(state).current).toBe(1);
  });
  it('at a big table the forfeited turns skipped on the way are named up to three, then not listed', () => {
    const six = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay'];
    const HOT = [r(1, 1, 1, 5, 5), bank]; // all five scored: passing forfeits the next turn
    const reason = '(passed after all five dice had scored)';
    // Bob to Fay each forfeit their next turn; Ann passes: every other player skips, Ann plays again.
    const everyoneElse = play([...TURN[500], ...HOT, ...HOT, ...HOT, ...HOT, ...HOT, ...TURN[500]], {}, six);
    expect(g(everyoneElse).current).toBe(0);
    expect(viewMatch(everyoneElse).headline).toBe(`Ann passes with 500: 500 → 1000. Everyone else skips this turn ${reason}. Ann's turn: roll 5 dice.`);
    // Fay does not forfeit: Bob to Eve skip, counted, and Fay plays next.
    const four = play([...TURN[500], ...HOT, ...HOT, ...HOT, ...HOT, ...TURN[500], ...TURN[500]], {}, six);
    expect(g(four).current).toBe(5);
    expect(viewMatch(four).headline).toBe(`Ann passes with 500: 500 → 1000. 4 players skip this turn ${reason}. Fay's turn: roll 5 dice.`);
    // Three are still named.
    const three = play([...TURN[500], ...HOT, ...HOT, ...HOT, ...TURN[500], ...TURN[500], ...TURN[500]], {}, six);
    expect(viewMatch(three).headline).toBe(`Ann passes with 500: 500 → 1000. Bob, Cy and Dee skip this turn ${reason}. Eve's turn: roll 5 dice.`);
    // Ann forfeits too: every turn is skipped once, and Bob, first after Ann, plays.
    const everyone = play([...TURN[500], ...HOT, ...HOT, ...HOT, ...HOT, ...HOT, ...HOT], {}, six);
    expect(g(everyone).current).toBe(1);
    expect(g(everyone).skipNext).toEqual([false, false, false, false, false, false]);
    expect(viewMatch(everyone).headline).toBe(
      `Ann passes with 1100: 500 → 1600. All five dice had scored, so Ann skips their next turn. Everyone skips a turn ${reason}. Bob's turn: roll 5 dice.`,
    );
  });
  it('passing with a die still to roll costs nothing', () => {
    const state = play([...TURN[1000]]);
    expect(g(state).skipNext).toEqual([false, false, false]);
  });
  it('rolling all five again and failing loses every point of the turn', () => {
    const state = play([r(1, 1, 1, 5, 5), BUST]);
    expect(g(state).scores).toEqual([0, 0, 0]);
    expect(g(state).current).toBe(1);
  });
  it('all five scored over several rolls counts too', () => {
    const state = play([r(1, 1, 1, 2, 3), r(5, 5)]);
    expect(viewMatch(state).legal.map((m) => m.label)).toContain('Pass with 1100 (0 → 1100, skip your next turn)');
  });
  it('all five scored on a total ending in 50: must roll all five again', () => {
    const state = play([r(1, 1, 1, 5, 2), r(5)]);
    expect(g(state).turn.total).toBe(1100);
    const odd = play([r(1, 1, 1, 5, 2), r(1)]);
    expect(g(odd).turn.total).toBe(1150);
    expect(viewMatch(odd).legal.map((m) => m.label)).toEqual(['Roll all 5 again']);
  });
  it('option hotDicePass free: passing then costs nothing', () => {
    const state = play([r(1, 1, 1, 5, 5), bank], { hotDicePass: 'free' });
    expect(g(state).skipNext).toEqual([false, false, false]);
    expect(g(applyAction(applyAction(state, BUST), BUST)).current).toBe(0);
  });
});

describe('Big Roll 5000: five 1s', () => {
  it('five 1s in one roll win the game at once, even before getting on the slate', () => {
    const state = play([...TURN[2000], r(1, 1, 1, 1, 1)], { ante: 4 });
    expect(state.phase).toBe('over');
    expect(state.winners).toEqual([1]);
    expect(state.payouts).toEqual([0, 12, 0]);
    expect(g(state).scores).toEqual([2000, 5000, 0]);
    expect(viewMatch(state).headline).toBe('Bob rolled 1 1 1 1 1: five 1s win the game!');
    expect(viewMatch(state).slate.rows[1]?.note).toBe('winner: five 1s');
  });
  it('five 1s over two rolls are not five of a kind', () => {
    const state = play([r(1, 1, 2, 3, 4), r(1, 1, 1)]);
    expect(state.phase).toBe('play');
    expect(g(state).turn.total).toBe(1200);
  });
  it('five 1s on a roll of all five again win too', () => {
    const state = play([r(1, 1, 1, 5, 5), r(1, 1, 1, 1, 1)]);
    expect(state.winners).toEqual([0]);
  });
  it('option fiveOnes points: five 1s score 5000 in the turn and play goes on', () => {
    const state = play([r(1, 1, 1, 1, 1)], { fiveOnes: 'points' });
    expect(state.phase).toBe('play');
    expect(g(state).turn.total).toBe(5000);
    const passed = applyAction(state, bank);
    expect(g(passed).scores[0]).toBe(5000);
    expect(g(passed).finalRound).toEqual({ reachedBy: 0, toPlay: [1, 2] });
  });
});

describe('Big Roll 5000: the final round', () => {
  // Ann 2000, Bob 2000, Cy busts, twice: Ann and Bob 4000.
  const to4000 = [...TURN[2000], ...TURN[2000], BUST, ...TURN[2000], ...TURN[2000], BUST];

  it('once a player reaches 5000 every other player gets one more turn; the most points win', () => {
    const reached = play([...to4000, ...TURN[1000]], { ante: 1 });
    expect(g(reached).finalRound).toEqual({ reachedBy: 0, toPlay: [1, 2] });
    expect(viewMatch(reached).headline).toBe(
      "Ann passes with 1000: 4000 → 5000. Ann reaches 5000: final round, Bob and Cy each get one more turn. Bob's last turn: roll 5 dice (Ann leads with 5000).",
    );
    const bobRolled = applyAction(reached, r(6, 6, 6, 6, 2));
    // in the final round reaching 5000 decides nothing: the pass says whether it takes the lead
    expect(viewMatch(bobRolled).legal.at(-1)?.label).toBe('Pass with 1200 (4000 → 5200: takes the lead)');
    const bobPasses = applyAction(bobRolled, bank);
    expect(g(bobPasses).scores).toEqual([5000, 5200, 0]);
    expect(bobPasses.phase).toBe('play'); // the final round is not restarted: Cy still plays, Ann does not
    expect(g(bobPasses).current).toBe(2);
    const over = applyAction(bobPasses, BUST);
    expect(over.winners).toEqual([1]);
    expect(over.payouts).toEqual([0, 3, 0]);
    expect(viewMatch(over).headline).toBe(
      'Cy rolled 2 2 3 4 6: nothing scores — bust. Game over: Bob wins with 5200.',
    );
  });
  it('at a big table the final round counts the others instead of listing them', () => {
    const six = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay'];
    const round = [...TURN[2000], BUST, BUST, BUST, BUST, BUST];
    const reached = play([...round, ...round, ...TURN[1000]], {}, six);
    expect(g(reached).finalRound).toEqual({ reachedBy: 0, toPlay: [1, 2, 3, 4, 5] });
    expect(viewMatch(reached).headline).toBe(
      "Ann passes with 1000: 4000 → 5000. Ann reaches 5000: final round, the other 5 players each get one more turn. Bob's last turn: roll 5 dice (Ann leads with 5000; needs 500 in one turn to get on the slate).",
    );
  });
  it('a tie for the most points shares the win (and the pot)', () => {
    const bobTies = play([...to4000, ...TURN[1000], ...TURN[1000].slice(0, -1)]);
    expect(viewMatch(bobTies).legal.at(-1)?.label).toMatch(/\(4000 → 5000: ties the lead\)$/);
    const state = play([...to4000, ...TURN[1000], ...TURN[1000], BUST], { ante: 3 });
    expect(state.winners).toEqual([0, 1]);
    expect(state.payouts).toEqual([5, 4, 0]);
    expect(viewMatch(state).headline).toContain('Game over: Ann and Bob tie for the win with 5000.');
  });
  it('at a big table the leaders and the tied winners are counted, not listed', () => {
    const five = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve'];
    const round = [...TURN[2000], ...TURN[2000], ...TURN[2000], ...TURN[2000], BUST];
    // Ann reaches 5000; Bob, Cy and Dee tie her in the final round; Eve plays last
    const tied = play([...round, ...round, ...TURN[1000], ...TURN[1000], ...TURN[1000], ...TURN[1000]], {}, five);
    expect(viewMatch(tied).headline).toContain("Eve's last turn: roll 5 dice (4 players lead with 5000; needs 500 in one turn to get on the slate).");
    const over = applyAction(tied, BUST);
    expect(over.winners).toEqual([0, 1, 2, 3]);
    expect(viewMatch(over).headline).toContain('Game over: 4 players tie for the win with 5000.');
  });
  it('a forfeited turn in the final round is that player’s last turn', () => {
    const actions = [...TURN[2000], BUST, BUST, ...TURN[2000], BUST, r(5, 5, 5, 5, 5), bank, ...TURN[1000], BUST];
    const state = play(actions);
    expect(state.winners).toEqual([0]);
    expect(g(state).scores).toEqual([5000, 0, 2000]);
    expect(viewMatch(state).headline).toBe(
      'Bob rolled 2 2 3 4 6: nothing scores — bust. Cy skips this turn (passed after all five dice had scored). Game over: Ann wins with 5000.',
    );
  });
  it('the slate says a final-round turn lost to a forfeit was forfeited, not played', () => {
    // Bob passes after all five scored (forfeits his next turn); Cy busts; Ann reaches 5000.
    const actions = [...TURN[2000], BUST, BUST, ...TURN[2000], r(1, 1, 1, 5, 5), bank, BUST, ...TURN[1000]];
    const state = play(actions);
    expect(g(state).finalRound).toEqual({ reachedBy: 0, toPlay: [2] });
    expect(viewMatch(state).headline).toContain('Bob skips this turn (passed after all five dice had scored).');
    expect(viewMatch(state).slate.rows.map((row) => row.note)).toEqual(['reached 5000', 'last turn forfeited', null]);
    // Without the forfeit Bob plays his last turn (a bust), and the slate says so.
    const played = play([...TURN[2000], BUST, BUST, ...TURN[2000], BUST, BUST, ...TURN[1000], BUST]);
    expect(viewMatch(played).slate.rows.map((row) => row.note)).toEqual(['reached 5000', 'last turn played', null]);
  });
  it('a pass with no next turn to lose warns of no forfeit and marks no one: in the final round, or reaching 5000', () => {
    // Ann reaches 5000: Bob's last turn. All five of his dice score; passing costs him nothing.
    const last = play([...to4000, ...TURN[1000], r(1, 1, 1, 5, 5)]);
    expect(viewMatch(last).legal.map((m) => m.label)).toEqual(['Roll all 5 again', 'Pass with 1100 (4000 → 5100: takes the lead)']);
    expect(viewMatch(last).headline).toBe(
      'Bob rolled 1 1 1 5 5 = 1100 (all set aside). All five dice scored: roll all 5 again or pass — turn total 1100 (4000 → 5100: takes the lead)',
    );
    expect(viewMatch(last).details.passForfeitsNextTurn).toBe(false);
    const passed = applyAction(last, bank);
    expect(viewMatch(passed).headline).toBe("Bob passes with 1100: 4000 → 5100. Cy's last turn: roll 5 dice (Bob leads with 5100; needs 500 in one turn to get on the slate).");
    expect(g(passed).skipNext).toEqual([false, false, false]);
    expect(viewMatch(passed).slate.rows[1]).toMatchObject({ note: 'last turn played', marked: false });
    // A pass that reaches 5000 starts the final round, which Ann does not play.
    const reach = play([...to4000, r(1, 1, 1, 5, 5)]);
    expect(viewMatch(reach).legal.map((m) => m.label)).toContain('Pass with 1100 (4000 → 5100: reaches 5000)');
    const reached = applyAction(reach, bank);
    expect(viewMatch(reached).headline).not.toContain('skips');
    expect(viewMatch(reached).slate.rows[0]).toMatchObject({ note: 'reached 5000', marked: false });
    // First to 5000: the pass wins.
    const won = play([...to4000, r(1, 1, 1, 5, 5), bank], { winRule: 'first-to-5000' });
    expect(viewMatch(won).headline).toBe('Ann passes with 1100: 4000 → 5100. Ann reaches 5000 and wins!');
    expect(viewMatch(won).slate.rows[0]).toMatchObject({ note: 'winner', marked: false });
  });
  it('five 1s in the final round win outright', () => {
    const state = play([...to4000, ...TURN[1000], BUST, r(1, 1, 1, 1, 1)]);
    expect(state.winners).toEqual([2]);
  });
  it('option winRule first-to-5000: reaching 5000 wins at once', () => {
    const state = play([...to4000, ...TURN[1000]], { winRule: 'first-to-5000' });
    expect(state.winners).toEqual([0]);
    expect(viewMatch(state).headline).toBe('Ann passes with 1000: 4000 → 5000. Ann reaches 5000 and wins!');
  });
});

describe('Big Roll 5000: start, options and errors', () => {
  it('starts with a one-die roll-off, highest starts (the sheet)', () => {
    let state = createMatch({ game: 'big-roll-5000', players: ['Ann', 'Bob', 'Cy'] });
    expect(state.phase).toBe('roll-off');
    for (const d of [3, 6, 2]) state = applyAction(state, r(d));
    expect(g(state).current).toBe(1);
    expect(expectRoll(state)).toMatchObject({ player: 1, count: 5 });
  });
  it('option entryScore', () => {
    const state = play([r(1, 1, 1, 2, 3)], { entryScore: 1500 });
    expect(refused(state, bank).message).toBe('You need 1500 in one turn to get on the slate (1000 so far): roll again.');
  });
  it('option setAside choose: keep fewer scoring dice', () => {
    const state = play([r(1, 1, 1, 5, 5), keep(1, 1, 1)], { setAside: 'choose' });
    expect(g(state).turn.total).toBe(1000);
    expect(expectRoll(state)).toMatchObject({ count: 2, kept: [1, 1, 1] });
    expect(viewMatch(state).legal.map((m) => m.label)).toEqual(['Roll 2 dice', 'Pass with 1000 (0 → 1000)']);
    expect(refused(play([r(1, 2, 3, 4, 5)], { setAside: 'choose' }), keep(2, 3)).code).toBe('keep-scoring-only');
  });
  it('refuses unknown actions, and passing before rolling', () => {
    expect(refused(play([]), { type: 'pass' }).code).toBe('unknown-action');
    expect(refused(play([]), bank).code).toBe('nothing-to-bank');
    expect(refused(play([r(1, 2, 2, 3, 4)]), keep(1)).code).toBe('keep-not-allowed');
  });
});
