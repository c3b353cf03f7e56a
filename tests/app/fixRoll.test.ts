/**
 * Fixing an earlier roll (`fixRoll`), over every game: each committed transcript's rolls entered
 * again with random dice. A fix either is refused, changing nothing, or makes a log that replays
 * to the state it says, keeps the moves before the roll, and keeps after it only moves the same
 * player makes in the same phase, in order, up to the first that no longer fits.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BUILT_IN_KITS, tokenForFace, type DieToken } from '../../src/lib/dice/index.ts';
import { RuleError, viewMatch, type Action } from '../../src/lib/rules/index.ts';
import { fixRoll, fixSummary, logSteps, replayLog, type GameHeader } from '../../src/app/play.ts';

const DIR = resolve(import.meta.dirname, '..', 'transcripts');

/** Every transcript that replays to its end, with the rolls the table saw. */
const games = readdirSync(DIR).flatMap((game) =>
  readdirSync(resolve(DIR, game))
    .filter((f) => f.endsWith('.json'))
    .map((f) => {
      const t = JSON.parse(readFileSync(resolve(DIR, game, f), 'utf8')) as GameHeader & { actions: Action[] };
      const header: GameHeader = { game: t.game, players: t.players, options: t.options ?? {} };
      const { steps, stoppedAt } = logSteps(header, t.actions);
      const rolls = steps.filter((s) => s.action.type === 'roll' && !s.secret && s.diceCount > 0);
      return { name: `${game}/${f}`, header, actions: t.actions, steps, rolls, whole: stoppedAt === null };
    })
    .filter((g) => g.whole && g.rolls.length > 0),
);

/** Who made each move of a log (the seat whose move it was), and in which phase (a throw for who starts, or play), replayed. */
function actors(header: GameHeader, actions: readonly Action[]): string[] {
  return actions.map((_, i) => {
    const { state } = replayLog(header, actions.slice(0, i));
    return `${viewMatch(state, null).current} ${state.phase}`;
  });
}

/** How the fixes went, over every game: the property must not hold only because every fix was refused. */
const seen = { refused: 0, allStand: 0, someTakenBack: 0 };

describe('fixRoll over every game', () => {
  it('has transcripts of every game to fix', () => {
    expect(new Set(games.map((g) => g.header.game)).size).toBe(9);
  });

  for (const game of games) {
    it(`${game.name}: a fix is refused, or its log replays and keeps only the same players' moves`, () => {
      const before = actors(game.header, game.actions);
      fc.assert(
        fc.property(fc.nat(game.rolls.length - 1), fc.array(fc.nat(11), { minLength: 12, maxLength: 12 }), (which, picks) => {
          const step = game.rolls[which]!;
          const kit = BUILT_IN_KITS[step.kitId]!;
          const dice: DieToken[] = Array.from({ length: step.diceCount }, (_, i) => tokenForFace(kit, kit.faces[picks[i]! % kit.faces.length]!));
          let fix: ReturnType<typeof fixRoll>;
          try {
            fix = fixRoll(game.header, game.actions, step.index, dice);
          } catch (err) {
            expect(err).toBeInstanceOf(RuleError);
            seen.refused++;
            return;
          }
          if (fix.dropped === 0) seen.allStand++;
          else seen.someTakenBack++;
          expect(fix.actions.slice(0, step.index)).toEqual(game.actions.slice(0, step.index));
          expect(fix.actions[step.index]).toEqual({ ...step.action, dice });
          expect(fix.actions.slice(step.index + 1)).toEqual(game.actions.slice(step.index + 1, step.index + 1 + fix.kept));
          expect(fix.kept + fix.dropped).toBe(game.actions.length - step.index - 1);
          expect(fix.droppedBecause === null).toBe(fix.dropped === 0);
          // what becomes of the later moves is said in whole sentences, a rule's words quoted whole
          expect(fixSummary(fix).moves).toMatch(/^[A-Z].*[.!?]”?$/);
          expect(fixSummary(fix).moves).not.toMatch(/[.!?][.!?]/);
          const replayed = replayLog(game.header, fix.actions);
          expect(replayed.stoppedAt).toBeNull();
          expect(replayed.state).toEqual(fix.state);
          const after = actors(game.header, fix.actions);
          expect(after.slice(step.index + 1)).toEqual(before.slice(step.index + 1, step.index + 1 + fix.kept));
        }),
        { numRuns: 25, seed: 7 },
      );
    });
  }

  it('fixed rolls of every kind: refused, every later move standing, and some taken back', () => {
    expect(seen.refused).toBeGreaterThan(0);
    expect(seen.allStand).toBeGreaterThan(100);
    expect(seen.someTakenBack).toBeGreaterThan(100);
  });
});
