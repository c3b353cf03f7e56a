import fc from 'fast-check';
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
  type MatchState,
} from '../../src/lib/rules/index.ts';
import {
  bestHeroCombo,
  heroCombosShown,
  villainClaimHolds,
  villainCombosShown,
  type FaceOffState,
  type VillainComboId,
} from '../../src/lib/rules/games/face-off.ts';

type Face = 'luke' | 'r2d2' | 'han' | 'chewbacca' | 'vader' | 'stormtrooper';
const roll = (...dice: Face[]): Action => ({ type: 'roll', dice });
const reroll = (...dice: Face[]): Action => ({ type: 'reroll', dice });
const goHero: Action = { type: 'go-hero' };
const goVillain: Action = { type: 'go-villain' };
const bank: Action = { type: 'bank' };
const declare = (combo: VillainComboId): Action => ({ type: 'declare', combo });
const challenge: Action = { type: 'challenge' };
const pass: Action = { type: 'pass' };

const PLAYERS = ['Ann', 'Bob', 'Cy'];

function play(actions: Action[], options: Record<string, unknown> = {}, players = PLAYERS): MatchState {
  let state = createMatch({ game: 'face-off', players, options });
  for (const a of actions) state = applyAction(state, a);
  return state;
}
const g = (state: MatchState) => state.play as FaceOffState;

function refusal(state: MatchState, action: Action): RuleError {
  try {
    applyAction(state, action);
  } catch (error) {
    if (error instanceof RuleError) return error;
    throw error;
  }
  throw new Error(`${JSON.stringify(action)} was accepted`);
}

/** One unchallenged villain claim of 100 by the current player of a 2-player game (no re-roll). */
const claim100 = [roll('vader', 'vader', 'vader', 'vader', 'vader'), goVillain, declare('five-of-a-villain'), pass];

describe('Face Off: Go Hero combos', () => {
  it('five of one hero is 50 (it also holds four of that hero, but the best is taken)', () => {
    expect(heroCombosShown(['han', 'han', 'han', 'han', 'han'])).toEqual(['five-of-a-hero', 'four-of-a-hero']);
    expect(bestHeroCombo(['han', 'han', 'han', 'han', 'han'])?.points).toBe(50);
  });
  it('House of Heroes is three of one hero and two of another hero: 25', () => {
    expect(bestHeroCombo(['luke', 'luke', 'luke', 'r2d2', 'r2d2'])?.id).toBe('house-of-heroes');
    expect(bestHeroCombo(['luke', 'luke', 'luke', 'r2d2', 'r2d2'])?.points).toBe(25);
    // two villains are not "another hero"
    expect(bestHeroCombo(['luke', 'luke', 'luke', 'vader', 'vader'])).toBeNull();
    expect(bestHeroCombo(['luke', 'luke', 'luke', 'r2d2', 'han'])).toBeNull();
  });
  it('four of one hero is 15, whatever the fifth die', () => {
    expect(bestHeroCombo(['chewbacca', 'chewbacca', 'chewbacca', 'chewbacca', 'vader'])?.points).toBe(15);
    expect(bestHeroCombo(['chewbacca', 'chewbacca', 'chewbacca', 'chewbacca', 'luke'])?.id).toBe('four-of-a-hero');
  });
  it('Team of Heroes is one of each of the four heroes: 10, whatever the fifth die', () => {
    expect(bestHeroCombo(['luke', 'r2d2', 'han', 'chewbacca', 'stormtrooper'])?.points).toBe(10);
    expect(bestHeroCombo(['luke', 'r2d2', 'han', 'chewbacca', 'luke'])?.id).toBe('team-of-heroes');
    expect(bestHeroCombo(['luke', 'r2d2', 'han', 'vader', 'stormtrooper'])).toBeNull();
  });
  it('no combo: pairs, three of a hero alone, villains', () => {
    expect(heroCombosShown(['luke', 'luke', 'han', 'han', 'vader'])).toEqual([]);
    expect(heroCombosShown(['vader', 'vader', 'vader', 'vader', 'vader'])).toEqual([]);
  });
});

describe('Face Off: Go Villain claims', () => {
  it('five of one villain backs every claim', () => {
    expect(villainCombosShown(['vader', 'vader', 'vader', 'vader', 'vader'])).toEqual([
      'five-of-a-villain',
      'four-of-a-villain',
      'five-villain-mix',
      'four-villain-mix',
      'three-of-a-villain',
    ]);
  });
  it('a mix is any villains, of either kind', () => {
    const mix = ['vader', 'vader', 'vader', 'stormtrooper', 'stormtrooper'];
    expect(villainCombosShown(mix)).toEqual(['five-villain-mix', 'four-villain-mix', 'three-of-a-villain']);
    const four = ['vader', 'vader', 'stormtrooper', 'stormtrooper', 'luke'];
    expect(villainCombosShown(four)).toEqual(['four-villain-mix']);
  });
  it('four of one villain with a hero', () => {
    const dice = ['stormtrooper', 'stormtrooper', 'stormtrooper', 'stormtrooper', 'han'];
    expect(villainClaimHolds(dice, 'four-of-a-villain')).toBe(true);
    expect(villainClaimHolds(dice, 'five-villain-mix')).toBe(false);
  });
  it('three of one villain, and nothing at all', () => {
    expect(villainCombosShown(['vader', 'vader', 'vader', 'luke', 'han'])).toEqual(['three-of-a-villain']);
    expect(villainCombosShown(['vader', 'vader', 'stormtrooper', 'luke', 'han'])).toEqual([]);
  });
});

describe('Face Off: the turn', () => {
  it('opens with a roll of all five dice, then Go Hero or Go Villain', () => {
    const state = play([]);
    expect(expectRoll(state)).toMatchObject({ kit: 'face-off', count: 5, kept: [], player: 0 });
    const rolled = play([roll('luke', 'luke', 'han', 'vader', 'r2d2')]);
    expect(viewMatch(rolled).legal.map((m) => (m.kind === 'action' ? m.action.type : m.kind))).toEqual([
      'go-hero',
      'go-villain',
    ]);
    expect(refusal(rolled, reroll('luke')).code).toBe('choose-side');
    expect(refusal(rolled, bank).code).toBe('not-now');
  });
  it('refuses a roll of the wrong size or kit', () => {
    const state = play([]);
    expect(() => applyAction(state, roll('luke', 'luke'))).toThrow('2 dice thrown, 5 expected.');
    expect(() => applyAction(state, { type: 'roll', dice: [1, 2, 3, 4, 5] })).toThrow(/not a face/);
  });
  it('refuses unknown actions', () => {
    expect(refusal(play([]), { type: 'call' }).code).toBe('unknown-action');
  });
  it('is for 2 to 4 players', () => {
    expect(() => play([], {}, ['A'])).toThrow(SetupError);
    expect(() => play([], {}, ['A', 'B', 'C', 'D', 'E'])).toThrow(/2 to 4 players/);
    expect(() => play([], {}, ['A', 'B', 'C', 'D'])).not.toThrow();
  });
});

describe('Face Off: Go Hero', () => {
  const opening = [roll('luke', 'luke', 'han', 'vader', 'r2d2'), goHero];

  it('re-rolls up to three dice, as often as wanted, keeping the others', () => {
    let state = play([...opening, reroll('vader', 'han', 'r2d2')]);
    expect(expectRoll(state)).toMatchObject({ count: 3, kept: ['luke', 'luke'] });
    state = applyAction(state, roll('luke', 'stormtrooper', 'han'));
    expect(g(state).dice).toEqual(['luke', 'luke', 'luke', 'stormtrooper', 'han']);
    state = applyAction(state, reroll('stormtrooper'));
    expect(expectRoll(state)).toMatchObject({ count: 1, kept: ['luke', 'luke', 'luke', 'han'] });
    state = applyAction(state, roll('han'));
    expect(viewMatch(state).legal[0]).toMatchObject({ kind: 'action', action: { type: 'bank' }, label: 'Stop and take House of Heroes (25)' });
    state = applyAction(state, bank);
    expect(g(state).scores).toEqual([25, 0, 0]);
    expect(g(state).current).toBe(1);
    expect(g(state).phase).toBe('opening-roll');
  });
  it('while dice are picked up, the table shows only the dice left on it, and no combo', () => {
    const house = play([roll('luke', 'luke', 'luke', 'han', 'han'), goHero]);
    expect(viewMatch(house).details.heroCombo).toMatchObject({ id: 'house-of-heroes', points: 25 });
    const state = applyAction(house, reroll('han', 'han'));
    const view = viewMatch(state);
    expect(view.dice).toEqual(['luke', 'luke', 'luke']);
    expect(view.dice).toEqual(view.expect?.kept);
    expect(view.details.pickedUp).toEqual(['han', 'han']);
    expect(view.details.heroCombo).toBeNull();
    const villain = play([roll('vader', 'vader', 'luke', 'han', 'r2d2'), goVillain, reroll('luke', 'han', 'r2d2')]);
    for (const viewer of [null, 0, 1]) expect(viewMatch(villain, viewer).dice).toEqual(['vader', 'vader']);
    expect(viewMatch(villain, 0).details.claimsThatHold).toBeUndefined();
  });
  it('refuses more than three dice, none, or dice not on the table', () => {
    const state = play(opening);
    expect(refusal(state, reroll('luke', 'luke', 'han', 'r2d2')).message).toBe('Only 3 dice may be re-rolled; 4 picked up.');
    expect(refusal(state, reroll()).code).toBe('no-dice');
    expect(refusal(state, reroll('chewbacca')).code).toBe('not-on-table');
    expect(refusal(state, reroll('han', 'han')).code).toBe('not-on-table');
    expect(refusal(state, { type: 'reroll', dice: [1] }).code).toBe('bad-dice');
  });
  it('may stop right after the opening roll when it shows a combo', () => {
    const state = play([roll('han', 'han', 'han', 'han', 'han'), goHero, bank]);
    expect(g(state).scores).toEqual([50, 0, 0]);
  });
  it('may not stop without a combo', () => {
    const state = play(opening);
    const error = refusal(state, bank);
    expect(error.code).toBe('no-combo');
    expect(viewMatch(state).legal.some((m) => m.kind === 'action' && m.action.type === 'bank')).toBe(false);
  });
  it('busts when the re-rolled dice all come up villains: no points, next player', () => {
    const state = play([...opening, reroll('vader', 'han', 'r2d2'), roll('vader', 'stormtrooper', 'vader')]);
    expect(g(state).scores).toEqual([0, 0, 0]);
    expect(g(state).current).toBe(1);
    expect(viewMatch(state).headline).toMatch(/all villains, bust!/);
  });
  it('a single re-rolled die coming up a villain is a bust too', () => {
    const state = play([...opening, reroll('vader'), roll('stormtrooper')]);
    expect(g(state).current).toBe(1);
    expect(g(state).lastDice).toEqual(['luke', 'luke', 'han', 'r2d2', 'stormtrooper']);
  });
  it('does not bust while one re-rolled die is a hero, nor on the opening roll', () => {
    const keep = play([...opening, reroll('vader', 'han', 'r2d2'), roll('vader', 'stormtrooper', 'chewbacca')]);
    expect(g(keep).phase).toBe('hero');
    const allVillains = play([roll('vader', 'vader', 'vader', 'stormtrooper', 'stormtrooper'), goHero]);
    expect(g(allVillains).phase).toBe('hero');
    expect(g(allVillains).current).toBe(0);
  });
  it('loses only this turn, not earlier points', () => {
    const state = play(
      [roll('luke', 'r2d2', 'han', 'chewbacca', 'vader'), goHero, bank, ...claim100.slice(0, 3), pass, pass,
        roll('luke', 'luke', 'han', 'vader', 'r2d2'), goHero, reroll('vader'), roll('vader')],
    );
    expect(g(state).scores).toEqual([10, 100, 0]);
  });
});

describe('Face Off: Go Villain', () => {
  // Kept dice are heroes; the secret re-roll is all villains: any "vader" in the table's view leaks it.
  const secretTurn = [
    roll('luke', 'r2d2', 'han', 'chewbacca', 'luke'),
    goVillain,
    reroll('r2d2', 'han', 'chewbacca'),
    roll('vader', 'vader', 'stormtrooper'),
  ];

  it('declares at once without re-rolling; each other player from the left is asked in turn', () => {
    let state = play([roll('vader', 'vader', 'vader', 'luke', 'han'), goVillain, declare('three-of-a-villain')], {}, [
      'Ann',
      'Bob',
      'Cy',
      'Dee',
    ]);
    expect(viewMatch(state).current).toBe(1);
    state = applyAction(state, pass);
    expect(viewMatch(state).current).toBe(2);
    state = applyAction(state, pass);
    expect(viewMatch(state).current).toBe(3);
    expect(viewMatch(state).legal.map((m) => m.label)).toEqual(['Dee challenges', 'Dee passes']);
    state = applyAction(state, pass);
    expect(g(state).scores).toEqual([20, 0, 0, 0]);
    expect(g(state).current).toBe(1);
  });
  it('asks from the villain\'s left, wrapping round the table', () => {
    const team = [roll('luke', 'r2d2', 'han', 'chewbacca', 'vader'), goHero, bank];
    let state = play([...team, ...team, roll('vader', 'vader', 'vader', 'luke', 'han'), goVillain, declare('three-of-a-villain')], {}, [
      'Ann',
      'Bob',
      'Cy',
      'Dee',
    ]);
    expect(g(state).current).toBe(2);
    expect(g(state).toAsk).toEqual([3, 0, 1]);
    expect(viewMatch(state).current).toBe(3);
    state = applyAction(state, pass);
    expect(viewMatch(state).current).toBe(0);
    state = applyAction(state, challenge);
    expect(g(state).scores).toEqual([10, 10, 40, 0]);
    expect(g(state).current).toBe(3);
  });
  it('an unchallenged claim scores as declared, even a bluff, and the dice are never shown', () => {
    const state = play([...secretTurn, declare('five-of-a-villain'), pass, pass]);
    expect(g(state).scores).toEqual([100, 0, 0]);
    const table = JSON.stringify(viewMatch(state, null));
    expect(table).not.toMatch(/vader|stormtrooper/i);
    expect(viewMatch(state).headline).toMatch(/No one challenges: Ann takes 100/);
  });
  it('a truthful challenged claim scores double', () => {
    const state = play([roll('vader', 'vader', 'vader', 'vader', 'han'), goVillain, declare('four-of-a-villain'), challenge]);
    expect(g(state).scores).toEqual([150, 0, 0]);
    expect(viewMatch(state).headline).toMatch(/told the truth and scores double, 150/);
  });
  it('claiming less than the dice show is still the truth', () => {
    const state = play([roll('vader', 'vader', 'vader', 'vader', 'vader'), goVillain, declare('three-of-a-villain'), challenge]);
    expect(g(state).scores).toEqual([40, 0, 0]);
  });
  it('a bluff caught gives the declared points to the challenger and none to the villain', () => {
    const state = play([roll('vader', 'vader', 'vader', 'stormtrooper', 'han'), goVillain, declare('five-villain-mix'), pass, challenge]);
    expect(g(state).scores).toEqual([0, 0, 50]);
    expect(viewMatch(state).headline).toMatch(/Ann was bluffing! Cy takes the 50/);
  });
  it('allows one re-roll only, of one to three dice', () => {
    const state = play([...secretTurn]);
    expect(refusal(state, reroll('luke')).code).toBe('one-villain-reroll');
    const before = play(secretTurn.slice(0, 2));
    expect(refusal(before, reroll('luke', 'r2d2', 'han', 'chewbacca')).code).toBe('too-many-dice');
  });
  it('refuses an unknown combo and out-of-turn challenges', () => {
    const state = play(secretTurn);
    expect(refusal(state, declare('six-of-a-villain' as VillainComboId)).code).toBe('unknown-combo');
    expect(refusal(state, challenge).code).toBe('not-now');
    expect(refusal(state, pass).code).toBe('not-now');
    expect(refusal(play(secretTurn.slice(0, 2)), bank).code).toBe('not-now');
  });
});

describe('Face Off: the secret re-roll is hidden from the table until a challenge reveals it', () => {
  const secretTurn = [
    roll('luke', 'r2d2', 'han', 'chewbacca', 'luke'),
    goVillain,
    reroll('r2d2', 'han', 'chewbacca'),
    roll('vader', 'vader', 'stormtrooper'),
  ];
  const phases: Array<[string, Action[]]> = [
    ['declare', secretTurn],
    ['challenge', [...secretTurn, declare('five-villain-mix')]],
    ['challenge (second player asked)', [...secretTurn, declare('five-villain-mix'), pass]],
    ['reveal', [...secretTurn, declare('five-villain-mix'), challenge]],
  ];
  for (const [phase, actions] of phases) {
    it(`${phase}: the table and the other players see only the kept dice; the villain sees all`, () => {
      const state = play(actions);
      for (const viewer of [null, 1, 2]) {
        const view = viewMatch(state, viewer);
        expect(JSON.stringify(view)).not.toMatch(/vader|stormtrooper/i);
        expect(view.dice).toEqual(['luke', 'luke']);
        expect(view.details.hiddenDice).toBe(3);
      }
      const mine = viewMatch(state, 0);
      expect(mine.dice).toEqual(['luke', 'luke', 'vader', 'vader', 'stormtrooper']);
      expect(mine.details.secretDice).toEqual(['vader', 'vader', 'stormtrooper']);
      expect(mine.details.claimsThatHold).toEqual([]);
    });
  }
  it('the game ending on an unchallenged secret claim keeps it hidden', () => {
    const state = play([...secretTurn, declare('five-of-a-villain'), pass, pass], { targetScore: 100 });
    expect(state.phase).toBe('over');
    expect(state.winners).toEqual([0]);
    expect(JSON.stringify(viewMatch(state))).not.toMatch(/vader|stormtrooper/i);
  });
  it('a challenge asks the villain to show the hidden dice, checked against the secret re-roll', () => {
    const state = play([...secretTurn, declare('five-villain-mix'), challenge]);
    expect(g(state).phase).toBe('reveal');
    const expected = expectRoll(state);
    expect(expected).toMatchObject({ player: 0, count: 3, kept: ['luke', 'luke'] });
    // The camera may see all five dice on the table: the kept ones are set apart.
    if (!expected) throw new Error('a roll is expected');
    expect(thrownDiceFromTable(expected, ['stormtrooper', 'luke', 'vader', 'luke', 'vader'])).toEqual([
      'stormtrooper',
      'vader',
      'vader',
    ]);
    const wrong = refusal(state, roll('vader', 'vader', 'vader'));
    expect(wrong.code).toBe('reveal-mismatch');
    expect(wrong.message).toMatch(/not the dice recorded for Ann's secret re-roll/);
    // naming what was shown, never what was recorded (the table has not seen it)
    expect(wrong.message).not.toMatch(/Stormtrooper/);
    // in any order
    const shown = applyAction(state, roll('stormtrooper', 'vader', 'vader'));
    expect(g(shown).scores).toEqual([0, 50, 0]); // two heroes kept: not five villains, Bob takes 50
    expect(viewMatch(shown).headline).toMatch(/Luke Skywalker, Luke Skywalker, Darth Vader, Darth Vader, Stormtrooper/);
    expect(viewMatch(shown).details.lastDice).toEqual(['luke', 'luke', 'vader', 'vader', 'stormtrooper']);
  });
  it('with the "record" option the recorded secret re-roll is disclosed at once', () => {
    const state = play([...secretTurn, declare('three-of-a-villain'), challenge], { reveal: 'record' });
    expect(g(state).scores).toEqual([0, 20, 0]);
    expect(g(state).phase).toBe('opening-roll');
  });
  it('a truthful secret claim, revealed, scores double', () => {
    const state = play([
      roll('vader', 'vader', 'luke', 'han', 'han'),
      goVillain,
      reroll('luke', 'han', 'han'),
      roll('vader', 'vader', 'r2d2'),
      declare('four-of-a-villain'),
      pass,
      challenge,
      roll('r2d2', 'vader', 'vader'),
    ]);
    expect(g(state).scores).toEqual([150, 0, 0]);
  });
  it('a villain who did not re-roll shows nothing secret: the challenge resolves at once', () => {
    const state = play([roll('vader', 'vader', 'vader', 'luke', 'han'), goVillain, declare('four-of-a-villain'), challenge]);
    expect(g(state).scores).toEqual([0, 75, 0]);
  });
});

describe('Face Off: winning', () => {
  const two = ['Ann', 'Bob'];
  it('the first to reach 250 wins at once', () => {
    // Ann 100, Bob 100, Ann 200, Bob 200, Ann takes 50 with five of a hero: 250.
    const state = play(
      [...claim100, ...claim100, ...claim100, ...claim100, roll('luke', 'luke', 'luke', 'luke', 'luke'), goHero, bank],
      { ante: 3 },
      two,
    );
    expect(g(state).scores).toEqual([250, 200]);
    expect(state.phase).toBe('over');
    expect(state.winners).toEqual([0]);
    expect(state.payouts).toEqual([6, 0]);
    expect(() => applyAction(state, roll('luke', 'luke', 'luke', 'luke', 'luke'))).toThrow(/game is over/);
  });
  it('249 is not enough', () => {
    const state = play([], { targetScore: 30 }, two);
    const after = [roll('luke', 'luke', 'luke', 'r2d2', 'r2d2'), goHero, bank].reduce(applyAction, state);
    expect(after.phase).toBe('play');
    expect(g(after).scores).toEqual([25, 0]);
  });
  it('a challenger can win on another player\'s turn by catching a bluff', () => {
    const state = play(
      [...claim100, ...claim100, ...claim100, ...claim100, roll('vader', 'luke', 'luke', 'han', 'han'), goVillain, declare('four-villain-mix'), challenge],
      {},
      two,
    );
    expect(g(state).scores).toEqual([200, 225]);
    expect(state.phase).toBe('play');
    const bluff = play(
      [...claim100, ...claim100, ...claim100, ...claim100, roll('vader', 'luke', 'luke', 'han', 'han'), goVillain, declare('five-of-a-villain'), challenge],
      {},
      two,
    );
    expect(g(bluff).scores).toEqual([200, 300]);
    expect(bluff.winners).toEqual([1]);
  });
  it('the target is an option', () => {
    const state = play([...claim100], { targetScore: 100 }, two);
    expect(state.winners).toEqual([0]);
  });
  it('starts with the first listed player by default, no ante', () => {
    const state = play([]);
    expect(state.phase).toBe('play');
    expect(state.pot).toBe(0);
    expect(viewMatch(state).current).toBe(0);
  });
});

describe('Face Off: the table\'s view never depends on the secret dice (property)', () => {
  const face = fc.constantFrom<Face>('luke', 'r2d2', 'han', 'chewbacca', 'vader', 'stormtrooper');
  const combos = fc.constantFrom<VillainComboId>(
    'five-of-a-villain',
    'four-of-a-villain',
    'five-villain-mix',
    'four-villain-mix',
    'three-of-a-villain',
  );
  it('two games differing only in the secret re-roll look the same to everyone but the villain until the reveal', () => {
    fc.assert(
      fc.property(
        fc.array(face, { minLength: 5, maxLength: 5 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(face, { minLength: 3, maxLength: 3 }),
        fc.array(face, { minLength: 3, maxLength: 3 }),
        combos,
        fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }),
        fc.constantFrom(2, 3, 4),
        (opening, n, secretA, secretB, combo, challenges, playerCount) => {
          const players = ['Ann', 'Bob', 'Cy', 'Dee'].slice(0, playerCount);
          const start: Action[] = [roll(...opening), goVillain, reroll(...opening.slice(0, n))];
          const after: Action[] = [declare(combo)];
          // Each other player passes or challenges; stop at the first challenge (then the reveal is due).
          for (let i = 0; i < playerCount - 1; i++) {
            const challenges_ = challenges[i % challenges.length] ?? false;
            after.push(challenges_ ? challenge : pass);
            if (challenges_) break;
          }
          // The next turn's opening roll, when the claim went unchallenged.
          if (after.at(-1) === pass) after.push(roll('luke', 'luke', 'luke', 'luke', 'han'));
          let a = play([...start, roll(...secretA.slice(0, n))], { targetScore: 2000 }, players);
          let b = play([...start, roll(...secretB.slice(0, n))], { targetScore: 2000 }, players);
          const same = (): void => {
            for (const viewer of [null, ...players.keys()].filter((v) => v !== 0)) {
              expect(viewMatch(a, viewer)).toEqual(viewMatch(b, viewer));
            }
          };
          same();
          for (const action of after) {
            a = applyAction(a, action);
            b = applyAction(b, action);
            same();
          }
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });
});
