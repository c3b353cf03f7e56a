import { describe, expect, it } from 'vitest';
import {
  applyAction,
  createMatch,
  expectRoll,
  thrownDiceFromTable,
  viewMatch,
  type Action,
  type MatchState,
} from '../../src/lib/rules/index.ts';
import { pointFivePoints, type PointFiveState } from '../../src/lib/rules/games/point-five.ts';

const roll = (v: number): Action => ({ type: 'roll', dice: [v] });
const call: Action = { type: 'call' };

function play(actions: Action[], options: Record<string, unknown> = {}): MatchState {
  let state = createMatch({ game: 'point-five', players: ['Ann', 'Bob'], options });
  for (const a of actions) state = applyAction(state, a);
  return state;
}
const g = (state: MatchState) => state.play as PointFiveState;

describe('Point Five scoring by board position', () => {
  it('first throw: half the value rounded up', () => {
    expect([1, 2, 3, 4, 5, 6].map((v) => pointFivePoints(0, v))).toEqual([1, 1, 2, 2, 3, 3]);
  });
  it('second to fifth throws: value ×1, ×2, ×3, ×4', () => {
    expect(pointFivePoints(1, 5)).toBe(5);
    expect(pointFivePoints(2, 5)).toBe(10);
    expect(pointFivePoints(3, 5)).toBe(15);
    expect(pointFivePoints(4, 6)).toBe(24);
  });
  it('calling scores the last symbol at its position and passes the dice', () => {
    const state = play([roll(2), roll(6), roll(4), call]);
    expect(g(state).scores).toEqual([8, 0]);
    expect(g(state).current).toBe(1);
    expect(g(state).board).toEqual([]);
  });
});

describe('Point Five: the headline after a throw', () => {
  it('names the symbol thrown, so a second throw worth the same as the first still reads as new', () => {
    // Star (5) first: half, rounded up, 3; Square (3) second: ×1, 3 again
    const first = viewMatch(play([roll(5)])).headline;
    const second = viewMatch(play([roll(5), roll(3)])).headline;
    expect(first).toBe('Ann threw Star (5): call for 3 or throw again.');
    expect(second).toBe('Ann threw Square (3): call for 3 or throw again.');
    expect(second).not.toBe(first);
  });
});

describe('Point Five busts and wins', () => {
  it('a symbol already on the board busts: no points, next player', () => {
    const state = play([roll(2), roll(6), roll(2)]);
    expect(g(state).scores).toEqual([0, 0]);
    expect(g(state).current).toBe(1);
    expect(viewMatch(state).headline).toMatch(/bust/);
  });
  it('busting loses only this turn, not earlier points', () => {
    const state = play([roll(6), call, roll(1), call, roll(4), roll(4)]);
    expect(g(state).scores).toEqual([3, 1]);
  });
  it('the sixth different symbol wins the pot at once, whatever the scores', () => {
    const state = play([roll(1), roll(2), roll(3), roll(4), roll(5), roll(6)], { ante: 3 });
    expect(state.phase).toBe('over');
    expect(state.winners).toEqual([0]);
    expect(state.payouts).toEqual([6, 0]);
    expect(state.pot).toBe(0);
    // the board shows each symbol's points; the sixth scores none, it wins
    expect(viewMatch(state).details.board).toEqual([
      { value: 1, points: 1 },
      { value: 2, points: 2 },
      { value: 3, points: 6 },
      { value: 4, points: 12 },
      { value: 5, points: 20 },
      { value: 6, points: null },
    ]);
    // what each place of the board scores, said by the rules (the table only shows it)
    expect(viewMatch(state).details.boardRules).toEqual(['½ value', '× 1', '× 2', '× 3', '× 4', 'wins']);
    expect(viewMatch(play([], { targetScore: 150 })).details.goal).toBe('First to 150; the sixth symbol in one turn wins at once.');
  });
  it('reaching 100 points wins', () => {
    // 6 then 5 ×1 … ; a quick path: five different symbols then call at position 4: value×4
    const turn = (last: number) => [roll(1), roll(2), roll(3), roll(4), roll(last)];
    // Ann: 5×4 = 20 per turn with ...,5 — Bob busts every turn.
    const bobBusts = [roll(1), roll(1)];
    const actions: Action[] = [];
    for (let i = 0; i < 5; i++) actions.push(...turn(5), call, ...bobBusts);
    const state = play(actions.slice(0, -2));
    expect(g(state).scores[0]).toBe(100);
    expect(state.winners).toEqual([0]);
  });
  it('refuses a call before throwing, and any action after the end', () => {
    const fresh = play([]);
    expect(() => applyAction(fresh, call)).toThrow('Throw the die before calling.');
    const over = play([roll(1), roll(2), roll(3), roll(4), roll(5), roll(6)]);
    expect(() => applyAction(over, roll(1))).toThrow(/game is over/);
  });
  it('the target score is an option', () => {
    const state = play([roll(6), roll(5), roll(3), roll(4), call], { targetScore: 10 }); // 4 × 3 = 12
    expect(state.winners).toEqual([0]);
  });
  it('plays for a pot by default (ante 1)', () => {
    expect(play([]).pot).toBe(2);
  });
});

describe('Point Five: the dice on the board stay on the table', () => {
  it('each throw is one die; the dice already on the board are kept, untouched', () => {
    expect(expectRoll(play([]))).toMatchObject({ count: 1, kept: [] });
    const state = play([roll(3), roll(5)]);
    expect(expectRoll(state)).toMatchObject({ kit: 'corellian-spike', player: 0, count: 1, kept: [3, 5] });
    expect(viewMatch(state).legal[0]).toMatchObject({ kind: 'roll', expect: { count: 1, kept: [3, 5] } });
  });
  it('the camera may see the board with the new die: the board must be unchanged', () => {
    const expected = expectRoll(play([roll(3), roll(5)]));
    if (!expected) throw new Error('a throw is awaited');
    expect(thrownDiceFromTable(expected, [5, 6, 3])).toEqual([6]);
    expect(thrownDiceFromTable(expected, [3, 5, 3])).toEqual([3]);
    expect(thrownDiceFromTable(expected, [6])).toEqual([6]);
    expect(() => thrownDiceFromTable(expected, [4, 6, 3])).toThrow(/kept dice \(Square \(3\), Star \(5\)\)/);
  });
  it('after a call or a bust the board is cleared for the next player', () => {
    expect(expectRoll(play([roll(3), roll(5), call]))).toMatchObject({ player: 1, kept: [] });
    expect(expectRoll(play([roll(3), roll(3)]))).toMatchObject({ player: 1, kept: [] });
  });
});
