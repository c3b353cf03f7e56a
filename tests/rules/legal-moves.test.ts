/**
 * `view().legal` offers exactly the moves the rules accept, for Dominoes, Hi-Low, Tug and War in
 * every variation: along random games, every listed action and every dice choice inside a
 * `choose-dice` range applies, every other candidate action (placements at either end, skip,
 * bank, choices, every pick-up of the dice on the table) is refused — or gives the same result as
 * a listed one (a one-die string read from the other side) —, and a roll is accepted exactly
 * when one is listed, with the listed number of dice.
 */
import { describe, expect, it } from 'vitest';
import { applyAction, createMatch, tryAction, viewMatch, type Action, type MatchState } from '../../src/lib/rules/index.ts';

/** Deterministic pseudo-random numbers (tests must not depend on Math.random). */
function generator(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
}
const subsets = (dice: readonly number[]): number[][] => {
  const all = dice.reduce<number[][]>((acc, d) => acc.concat(acc.map((s) => [...s, d])), [[]]);
  const seen = new Set<string>();
  return all.filter((s) => {
    const k = [...s].sort().join();
    return seen.has(k) ? false : (seen.add(k), true);
  });
};
const keyOf = (a: Action): string => JSON.stringify(a, Object.keys(a).sort());
/** A game state with the string read in either direction, and no event text. */
const essence = (play: unknown): string => {
  const p = play as Record<string, unknown>;
  const string = Array.isArray(p.string) ? (p.string as number[]) : [];
  const a = JSON.stringify(string);
  const b = JSON.stringify([...string].reverse());
  return JSON.stringify({ ...p, string: a < b ? a : b, lastEvent: '' });
};

function candidates(state: MatchState): Action[] {
  const out: Action[] = [];
  for (const type of ['add', 'substitute']) {
    for (let die = 1; die <= 6; die++) for (const end of ['left', 'right']) out.push({ type, die, end });
  }
  for (const type of ['skip', 'bank', 'pass', 'end-turn']) out.push({ type });
  for (const side of ['high', 'low']) out.push({ type: 'choose', side });
  for (const combination of ['all-different', 'three-of-a-kind']) out.push({ type: 'choose', combination });
  for (const dice of subsets(viewMatch(state).dice as number[])) out.push({ type: 'reroll', dice });
  return out;
}

const tables: Array<[string, string[], Record<string, unknown>]> = [
  ['dominoes', ['A', 'B'], {}],
  ['dominoes', ['A', 'B'], { variation: 'substitute' }],
  ['dominoes', ['A', 'B', 'C'], { variation: 'series', seriesTie: 'play-off', seriesPoints: 6 }],
  ['hi-low', ['A', 'B'], {}],
  ['hi-low', ['A', 'B', 'C', 'D'], { rerolls: 'ten-dice' }],
  ['hi-low', ['A', 'B'], { mode: 'target-35' }],
  ['tug', ['A', 'B'], {}],
  ['tug', ['A', 'B'], { rerolls: 'increasing' }],
  ['tug', ['A', 'B'], { rerolls: 'exactly-two' }],
  ['war', ['A', 'B'], { loserStartsWithThree: true, pointsToWin: 2 }],
  ['war', ['A', 'B'], { loserStartsWithThree: true, loserThirdDie: 'winners-die', oneDieTakesTwo: true, pointsToWin: 2 }],
];

const RUNS = 4;

describe('view().legal lists exactly the moves the rules accept', () => {
  for (const [game, players, options] of tables) {
    it(`${game} ${JSON.stringify(options)}`, () => {
      const random = generator(7);
      for (let run = 0; run < RUNS; run++) {
        let state = createMatch({ game, players, options: { ...options, startingPlayer: 'first-listed' } });
        for (let step = 0; step < 80 && state.phase !== 'over'; step++) {
          const view = viewMatch(state);
          const listed = new Set<string>();
          const listedResults = new Set<string>();
          for (const move of view.legal) {
            if (move.kind === 'action') {
              listed.add(keyOf(move.action));
              listedResults.add(essence(applyAction(state, move.action).play));
            } else if (move.kind === 'choose-dice') {
              for (const dice of subsets(move.from as number[])) {
                const action = { type: move.actionType, dice };
                const inRange = dice.length >= move.min && dice.length <= move.max;
                if (inRange) listed.add(keyOf(action));
                expect(tryAction(state, action).ok, `${view.headline} ${JSON.stringify(action)}`).toBe(inRange);
              }
            }
          }
          for (const action of candidates(state)) {
            if (listed.has(keyOf(action))) continue;
            const result = tryAction(state, action);
            if (result.ok) expect(listedResults.has(essence(result.state.play)), `${view.headline} ${JSON.stringify(action)}`).toBe(true);
          }
          const rollMove = view.legal.find((m) => m.kind === 'roll');
          for (let count = 0; count <= 6; count++) {
            const dice = Array.from({ length: count }, () => 1 + random(6));
            const accepted = tryAction(state, { type: 'roll', dice }).ok;
            expect(accepted, `${view.headline} roll ${count}`).toBe(rollMove?.kind === 'roll' && rollMove.expect.count === count);
          }
          const move = view.legal[random(view.legal.length)];
          if (!move) break;
          let next: Action;
          if (move.kind === 'action') next = move.action;
          else if (move.kind === 'roll') next = { type: 'roll', dice: Array.from({ length: move.expect.count }, () => 1 + random(6)) };
          else {
            const from = [...(move.from as number[])];
            const size = move.min + random(move.max - move.min + 1);
            next = { type: move.actionType, dice: Array.from({ length: size }, () => from.splice(random(from.length), 1)[0] ?? 0) };
          }
          state = applyAction(state, next);
        }
      }
    });
  }
});
