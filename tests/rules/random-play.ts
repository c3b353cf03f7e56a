/**
 * Random play (fast-check) over one match header: any sequence of actions either applies or
 * raises a RuleError — never crashes —; state is plain JSON; replay is deterministic; undo
 * (replaying the log without its last action) restores the previous state; the pot always
 * equals the antes paid in minus the payouts; a row the slate marks says why. Used by properties.test.ts for every game and by
 * game tests for their variations.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { BUILT_IN_KITS, tokenForFace } from '../../src/lib/dice/index.ts';
import {
  applyAction,
  createMatch,
  replay,
  RuleError,
  viewMatch,
  type Action,
  type DieToken,
  type MatchState,
  type MatchView,
} from '../../src/lib/rules/index.ts';

/** A step of random play: which move to pick, and random numbers to fill it in. */
const stepArb = fc.record({
  junk: fc.nat(19),
  pick: fc.nat(),
  faces: fc.array(fc.nat(5), { minLength: 6, maxLength: 6 }),
  subset: fc.nat(),
});
type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

const junkActions: Action[] = [
  { type: 'roll', dice: [] },
  { type: 'roll', dice: [0, 9, 'x'] },
  { type: 'nonsense' },
  { type: 'bank' },
  { type: 'call' },
  { type: 'roll', dice: 'six' as unknown as number[] },
];

function actionFor(state: MatchState, step: Step): Action {
  if (step.junk === 0) return junkActions[step.pick % junkActions.length] ?? { type: 'nonsense' };
  const view = viewMatch(state);
  const moves = view.legal;
  const move = moves[step.pick % Math.max(1, moves.length)];
  if (!move) return { type: 'nonsense' };
  switch (move.kind) {
    case 'action':
      return move.action;
    case 'roll': {
      const kit = BUILT_IN_KITS[move.expect.kit];
      if (!kit) throw new Error(`no kit ${move.expect.kit}`);
      const dice: DieToken[] = [];
      for (let i = 0; i < move.expect.count; i++) {
        const face = kit.faces[(step.faces[i % 6] ?? 0) % kit.faces.length];
        if (face) dice.push(tokenForFace(kit, face));
      }
      return { type: 'roll', dice };
    }
    case 'choose-dice': {
      const span = move.max - move.min + 1;
      const size = move.min + (step.subset % span);
      const chosen = [...move.from].slice(0, size);
      return { type: move.actionType, dice: chosen };
    }
  }
}

function potInvariant(state: MatchState): void {
  const paidOut = (state.payouts ?? []).reduce((a, b) => a + b, 0);
  expect(state.pot + paidOut).toBe(state.ante * state.players.length);
}

/** A row the slate marks says why in words: the mark's colour alone is no cue (WCAG 1.4.1). */
function markedRowsSayWhy(view: MatchView): void {
  for (const row of view.slate.rows) {
    if (row.marked) expect(row.note, `${row.name}'s marked row in phase ${view.phase}`).not.toBeNull();
  }
}

export interface RandomPlayHeader {
  game: string;
  players: string[];
  /** The game's own options; `startingPlayer` and `ante` are drawn at random. */
  options?: Record<string, unknown>;
}

/**
 * `alwaysAMove`: also check that a game not over always offers its acting player a move (it
 * never gets stuck). Returns how many runs reached the end of the game.
 */
export function checkRandomPlay(
  header: RandomPlayHeader,
  { numRuns = 60, seed = 20261122, maxSteps = 120, alwaysAMove = false } = {},
): { finished: number } {
  let finished = 0;
  fc.assert(
    fc.property(
      fc.array(stepArb, { minLength: 1, maxLength: maxSteps, size: 'max' }),
      fc.constantFrom('roll-off', 'first-listed'),
      fc.nat(10),
      (steps, startingPlayer, ante) => {
        const options = { ...header.options, startingPlayer, ante };
        let state = createMatch({ ...header, options });
        const log: Action[] = [];
        const states: MatchState[] = [state];
        for (const step of steps) {
          const action = actionFor(state, step);
          let next: MatchState | null = null;
          try {
            next = applyAction(state, action);
          } catch (error) {
            if (!(error instanceof RuleError)) throw error;
          }
          if (next) {
            state = next;
            log.push(action);
            states.push(state);
          }
          expect(JSON.parse(JSON.stringify(state))).toEqual(state);
          potInvariant(state);
          const view = viewMatch(state);
          viewMatch(state, 0);
          markedRowsSayWhy(view);
          if (alwaysAMove && state.phase !== 'over') expect(view.legal.length).toBeGreaterThan(0);
        }
        if (state.phase === 'over') finished += 1;
        const replayed = replay({ ...header, options, actions: log });
        expect(replayed).toEqual(state);
        if (log.length > 0) {
          expect(replay({ ...header, options, actions: log.slice(0, -1) })).toEqual(states.at(-2));
        }
      },
    ),
    { numRuns, seed },
  );
  return { finished };
}
