/**
 * The 5000 family's shared mechanics (turn order with forfeits and the final round), and
 * whole games of both 5000 rule sets played out at random to their end, checking what a player
 * would check on the slate after every action.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyAction, createMatch, expectRoll, tryAction, viewMatch, type Action, type MatchState } from '../../src/lib/rules/index.ts';
import { advanceTurn, startFinalRound, type FamilyState } from '../../src/lib/rules/games/five-thousand-family.ts';
import type { FiveThousandState } from '../../src/lib/rules/games/five-thousand.ts';
import type { BigRollState } from '../../src/lib/rules/games/big-roll-5000.ts';

describe('turn order', () => {
  it('passes to the left', () => {
    expect(advanceTurn(0, [false, false, false], null)).toMatchObject({ current: 1, skipped: [], over: false });
    expect(advanceTurn(2, [false, false, false], null)).toMatchObject({ current: 0 });
  });
  it('skips a forfeited turn once, and spends the forfeit', () => {
    expect(advanceTurn(0, [false, true, false], null)).toEqual({
      current: 2,
      skipNext: [false, false, false],
      finalRound: null,
      skipped: [1],
      over: false,
    });
  });
  it('with every other player forfeiting, the same player plays again', () => {
    expect(advanceTurn(0, [false, true, true], null)).toMatchObject({ current: 0, skipped: [1, 2] });
    // Two players, both forfeiting: each loses one turn, then play goes on.
    expect(advanceTurn(0, [true, true], null)).toMatchObject({ current: 1, skipped: [1, 0], skipNext: [false, false] });
  });
  it('in the final round only players still to play get a turn; a forfeit uses up the last turn', () => {
    const fr = startFinalRound(4, 1);
    expect(fr).toEqual({ reachedBy: 1, toPlay: [0, 2, 3] });
    expect(advanceTurn(1, [false, false, false, false], fr)).toMatchObject({ current: 2, over: false });
    expect(advanceTurn(1, [false, false, true, false], fr)).toMatchObject({
      current: 3,
      skipped: [2],
      finalRound: { reachedBy: 1, toPlay: [0, 3] },
    });
    expect(advanceTurn(3, [false, false, false, false], { reachedBy: 1, toPlay: [] })).toMatchObject({ over: true });
    expect(advanceTurn(3, [true, false, false, false], { reachedBy: 1, toPlay: [0] })).toMatchObject({ over: true, skipped: [0] });
  });
});

/** Random but purposeful play: roll what is asked, bank often enough that games end. */
const stepArb = fc.record({
  faces: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 5, maxLength: 5 }),
  bank: fc.nat(9),
  keep: fc.nat(31),
});
type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

function chooseAction(state: MatchState, step: Step): Action {
  const legal = viewMatch(state).legal;
  const bankMove = legal.find((m) => m.kind === 'action');
  if (bankMove && bankMove.kind === 'action' && step.bank < 6) return bankMove.action;
  const keepMove = legal.find((m) => m.kind === 'choose-dice');
  if (keepMove && keepMove.kind === 'choose-dice' && step.keep < 8) {
    // Keep a random subset when it is a legal keep (every die kept scores), else just roll on.
    const chosen = keepMove.from.filter((_, i) => (step.keep >> i) & 1);
    const action = { type: 'keep', dice: chosen };
    if (tryAction(state, action).ok) return action;
  }
  const expected = expectRoll(state);
  if (!expected) throw new Error('no roll expected in a game not over');
  return { type: 'roll', dice: step.faces.slice(0, expected.count) };
}

function checkTurn(g: FamilyState, state: MatchState): void {
  const expected = expectRoll(state);
  expect(g.turn.total % 50).toBe(0);
  expect(g.turn.setAside.length).toBeLessThanOrEqual(5);
  if (expected) {
    expect(expected.count + expected.kept.length).toBe(5);
  }
  for (const s of g.scores) expect(s % 100).toBe(0);
}

describe('whole games played at random', () => {
  const variations = [
    {},
    { threeOnes: '1000', giftBumps: false },
    { winRule: 'final-round', overflow: 'lost', setAside: 'choose' },
    { entryScore: 300, setAside: 'choose' },
  ];
  for (const options of variations) {
    it(`five-thousand ${JSON.stringify(options)}: scores stay within 5000, round, and never tied unless gifts may tie`, () => {
      fc.assert(
        fc.property(fc.array(stepArb, { minLength: 400, maxLength: 400 }), fc.integer({ min: 2, max: 5 }), (steps, players) => {
          let state = createMatch({
            game: 'five-thousand',
            players: Array.from({ length: players }, (_, i) => `P${i + 1}`),
            options,
          });
          for (const step of steps) {
            if (state.phase === 'over') break;
            state = applyAction(state, chooseAction(state, step));
            const g = state.play as FiveThousandState;
            checkTurn(g, state);
            for (const s of g.scores) {
              expect(s).toBeLessThanOrEqual(5000);
              expect(s === 0 || s >= g.rules.entryScore).toBe(true);
            }
            const positive = g.scores.filter((s) => s > 0);
            if (g.rules.giftBumps) expect(new Set(positive).size).toBe(positive.length);
          }
          if (state.phase === 'over') {
            const g = state.play as FiveThousandState;
            const high = Math.max(...g.scores);
            for (const w of state.winners ?? []) expect(g.scores[w]).toBe(high);
            if (g.rules.winRule === 'first-to-5000') expect(high).toBe(5000);
          }
        }),
        { numRuns: 12, seed: 5000 },
      );
    });
  }

  const bigRollVariations = [{}, { hotDicePass: 'free', winRule: 'first-to-5000' }, { fiveOnes: 'points', setAside: 'choose' }];
  for (const options of bigRollVariations) {
    it(`big-roll-5000 ${JSON.stringify(options)}: round scores; the final round ends with the highest total winning`, () => {
      fc.assert(
        fc.property(fc.array(stepArb, { minLength: 400, maxLength: 400 }), fc.integer({ min: 2, max: 5 }), (steps, players) => {
          let state = createMatch({
            game: 'big-roll-5000',
            players: Array.from({ length: players }, (_, i) => `P${i + 1}`),
            options: { startingPlayer: 'first-listed', ...options },
          });
          for (const step of steps) {
            if (state.phase === 'over') break;
            const before = state.play as BigRollState;
            state = applyAction(state, chooseAction(state, step));
            const g = state.play as BigRollState;
            checkTurn(g, state);
            for (const [p, s] of g.scores.entries()) expect(s).toBeGreaterThanOrEqual(before.scores[p] ?? 0);
          }
          const g = state.play as BigRollState;
          if (state.phase === 'over' && g.winBy === 'points') {
            const high = Math.max(...g.scores);
            expect(high).toBeGreaterThanOrEqual(5000);
            for (const w of state.winners ?? []) expect(g.scores[w]).toBe(high);
          }
        }),
        { numRuns: 12, seed: 5001 },
      );
    });
  }
});
