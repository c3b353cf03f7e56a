import { describe, expect, it } from 'vitest';
import {
  andList,
  applyAction,
  createMatch,
  expectRoll,
  replay,
  ReplayError,
  RuleError,
  SetupError,
  sessionLedger,
  splitPot,
  thrownDiceFromTable,
  viewMatch,
  type ExpectedRoll,
  type Transcript,
} from '../../src/lib/rules/index.ts';
import { describeRollOffThrow, ROLL_OFF_ROUNDS_KEPT } from '../../src/lib/rules/roll-off.ts';
import { BUILT_IN_KITS } from '../../src/lib/dice/index.ts';

const roll = (...dice: number[]) => ({ type: 'roll', dice });

describe('match setup', () => {
  it('refuses an unknown game, bad options and wrong player counts with SetupError', () => {
    expect(() => createMatch({ game: 'chess', players: ['A', 'B'] })).toThrow(SetupError);
    expect(() => createMatch({ game: 'point-five', players: ['A'] })).toThrow(/2 to 20 players/);
    expect(() => createMatch({ game: 'point-five', players: ['A', 'a'] })).toThrow(/same name/);
    // spaces a page shows as one are one
    expect(() => createMatch({ game: 'point-five', players: ['Ann  Lee', 'ann lee '] })).toThrow(/same name/);
    expect(() => createMatch({ game: 'point-five', players: ['A', 'B'], options: { colour: 'red' } })).toThrow(
      /Unknown option "colour"/,
    );
    expect(() => createMatch({ game: 'point-five', players: ['A', 'B'], options: { ante: -1 } })).toThrow(
      /between 0 and/,
    );
    expect(() => createMatch({ game: 'point-five', players: ['A', 'B'], options: { ante: 1.5 } })).toThrow(
      /whole number/,
    );
  });

  it('collects the ante from every player into the pot', () => {
    const state = createMatch({ game: 'point-five', players: ['A', 'B', 'C'], options: { ante: 5 } });
    expect(state.pot).toBe(15);
    expect(viewMatch(state).pot).toBe(15);
  });
});

describe('roll-off for the first player', () => {
  const header = { game: 'point-five', players: ['Ann', 'Bob', 'Cy'], options: { startingPlayer: 'roll-off' } };

  it('asks each player in turn and the highest starts', () => {
    let state = createMatch(header);
    expect(state.phase).toBe('roll-off');
    expect(expectRoll(state)?.player).toBe(0);
    state = applyAction(state, roll(3));
    expect(expectRoll(state)?.player).toBe(1);
    state = applyAction(state, roll(6));
    state = applyAction(state, roll(2));
    expect(state.phase).toBe('play');
    expect(state.starter).toBe(1);
    expect(viewMatch(state).current).toBe(1);
  });

  it('makes only the tied players throw again, as often as needed', () => {
    let state = createMatch(header);
    for (const v of [5, 2, 5]) state = applyAction(state, roll(v));
    expect(state.phase).toBe('roll-off');
    expect(state.rollOff?.contenders).toEqual([0, 2]);
    // The slate marks the player out of it, and says so in words, not by the mark's colour alone.
    expect(viewMatch(state).slate.rows.map((r) => [r.marked, r.note])).toEqual([
      [false, null],
      [true, 'out of the roll-off'],
      [false, null],
    ]);
    expect(expectRoll(state)?.player).toBe(0);
    // the headline says who tied, on what, and whose throw it is
    expect(viewMatch(state).headline).toBe('Who starts? Ann and Cy tie on 5: Ann throws 1 die again.');
    state = applyAction(state, roll(4));
    expect(viewMatch(state).headline).toBe('Who starts? Ann and Cy tie on 5: Cy throws 1 die again.');
    state = applyAction(state, roll(4));
    expect(state.rollOff?.contenders).toEqual([0, 2]);
    expect(viewMatch(state).headline).toBe('Who starts? Ann and Cy tie on 4: Ann throws 1 die again.');
    state = applyAction(state, roll(1));
    state = applyAction(state, roll(3));
    expect(state.starter).toBe(2);
  });

  it('a tie at a big table is counted in the headline, not listed: the slate marks who is out', () => {
    const six = { ...header, players: ['Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay'] };
    let state = createMatch(six);
    for (const v of [6, 6, 2, 6, 6, 6]) state = applyAction(state, roll(v));
    expect(state.rollOff?.contenders).toEqual([0, 1, 3, 4, 5]);
    expect(viewMatch(state).headline).toBe('Who starts? 5 players tie on 6: Ann throws 1 die again.');
    expect(viewMatch(state).slate.rows.map((r) => r.note)).toEqual([null, null, 'out of the roll-off', null, null, null]);
  });

  it('says who won the throw for the start until play moves on: the slate\'s throws go with the roll-off', () => {
    const detective = { game: 'detective', players: ['Ann', 'Bob', 'Cy'], options: { startingPlayer: 'roll-off' } };
    let state = createMatch(detective);
    for (const dice of [[3, 4], [6, 5], [2, 2]]) state = applyAction(state, roll(...dice));
    expect(state.phase).toBe('play');
    expect(viewMatch(state).headline).toBe('Bob throws highest, 6 5 (11), and starts. Bob: roll the five dice.');
    // the game's first action: its own headline alone again
    state = applyAction(state, roll(4, 4, 4, 2, 1));
    expect(viewMatch(state).headline).not.toMatch(/throws highest/);
    // after a tie, the throw of the round that settled it
    let tied = createMatch(header);
    for (const v of [5, 2, 5, 4, 6]) tied = applyAction(tied, roll(v));
    expect(tied.starter).toBe(2);
    expect(viewMatch(tied).headline).toBe("Cy throws highest, Burst (6), and starts. Cy's turn: throw one die.");
    // no roll-off, nothing to say
    expect(viewMatch(createMatch({ game: 'detective', players: ['Ann', 'Bob'], options: { startingPlayer: 'first-listed' } })).headline).not.toMatch(/throws highest/);
  });

  it('keeps the last rounds of a roll-off that ties on and on, numbered as they were thrown', () => {
    const two = { game: 'war', players: ['Ann', 'Bob'], options: { startingPlayer: 'roll-off' } };
    let state = createMatch(two);
    for (let i = 0; i < 20; i++) state = applyAction(state, roll(3));
    // ten rounds tied; round 11 awaits its first throw
    expect(state.rollOff?.round).toBe(11);
    const lines = viewMatch(state).details.rollOff as string[];
    expect(lines[0]).toBe(`Round ${11 - ROLL_OFF_ROUNDS_KEPT}: Ann threw 3`);
    expect(lines).toHaveLength(2 * ROLL_OFF_ROUNDS_KEPT);
    // what a throw copies and describes stays this size however long the ties go on: a hostile
    // transcript of thousands of ties replays in a time that grows with its length, not its square
    expect(state.rollOff?.earlierRounds).toHaveLength(ROLL_OFF_ROUNDS_KEPT);
  });

  it('refuses other actions until the starter is known', () => {
    const state = createMatch(header);
    expect(() => applyAction(state, { type: 'call' })).toThrow(RuleError);
  });

  it('names the dice thrown as the table does: Point Five symbols by name, pips as numbers with their total', () => {
    // Point Five's roll-off is thrown with its Corellian Spike dice: "Star (5)", not "5 (5)"
    let state = applyAction(createMatch(header), roll(5));
    let view = viewMatch(state);
    expect(view.slate.columns).toEqual([{ key: 'rollOff', label: 'Throw for start' }]);
    expect(view.slate.rows.map((r) => r.cells.rollOff)).toEqual(['Star (5)', '', '']);
    expect(view.details.rollOff).toEqual(['Round 1: Ann threw Star (5)']);
    state = applyAction(applyAction(state, roll(2)), roll(5));
    expect(viewMatch(state).details.rollOff).toEqual([
      'Round 1: Ann threw Star (5)',
      'Round 1: Bob threw Triangle (2)',
      'Round 1: Cy threw Star (5)',
    ]);
    // pips: the numbers and their total, as before
    state = applyAction(createMatch({ game: 'detective', players: ['Ann', 'Bob'], options: { startingPlayer: 'roll-off' } }), roll(5, 4));
    view = viewMatch(state);
    expect(view.slate.rows.map((r) => r.cells.rollOff)).toEqual(['5 4 (9)', '']);
    expect(view.details.rollOff).toEqual(['Round 1: Ann threw 5 4 (9)']);
    // several symbols (no shipped game throws them): the names, then the total
    const spike = BUILT_IN_KITS['corellian-spike']!;
    expect(describeRollOffThrow(spike, [5, 1], 6)).toBe('Star (5), Circle (1): 6');
  });

  it('says one die alone: its total is its own value, "6", not "6 (6)"', () => {
    // Big Roll's roll-off: one pip die each
    let state = applyAction(createMatch({ game: 'big-roll-5000', players: ['Ann', 'Bob'], options: { startingPlayer: 'roll-off' } }), roll(6));
    const view = viewMatch(state);
    expect(view.slate.rows.map((r) => r.cells.rollOff)).toEqual(['6', '']);
    expect(view.details.rollOff).toEqual(['Round 1: Ann threw 6']);
    state = applyAction(state, roll(2));
    expect(viewMatch(state).headline).toMatch(/^Ann throws highest, 6, and starts\. /);
    expect(describeRollOffThrow(BUILT_IN_KITS.standard!, [5], 5)).toBe('5');
    // a symbol named without its value (a taught set's "Skull") still says what it counts
    const skulls = { id: 'skulls', name: 'Skulls', faces: [{ id: 'skull', label: 'Skull', value: 3, group: null }, { id: 'crown', label: 'Crown', value: 6, group: null }] };
    expect(describeRollOffThrow(skulls, [3], 3)).toBe('Skull: 3');
  });
});

describe('every roll is checked against what the game expects', () => {
  const state = createMatch({ game: 'point-five', players: ['A', 'B'] });
  it('refuses the wrong number of dice', () => {
    expect(() => applyAction(state, roll(3, 4))).toThrow(/2 dice thrown, 1 expected/);
  });
  it('refuses faces that are not in the kit', () => {
    expect(() => applyAction(state, roll(7))).toThrow(/7 is not a face/);
    expect(() => applyAction(state, { type: 'roll', dice: ['vader'] })).toThrow(/not a face/);
    expect(() => applyAction(state, { type: 'roll' })).toThrow(/must list its dice/);
  });
  it('never changes the state it was given', () => {
    const before = JSON.stringify(state);
    try {
      applyAction(state, roll(9));
    } catch {
      // refused
    }
    expect(JSON.stringify(state)).toBe(before);
  });
});

describe('reading the table', () => {
  const expected: ExpectedRoll = { kit: 'standard', player: 0, count: 3, kept: [1, 5], prompt: '' };
  it('accepts only the thrown dice', () => {
    expect(thrownDiceFromTable(expected, [2, 3, 4])).toEqual([2, 3, 4]);
  });
  it('accepts every die on the table when the kept ones are unchanged', () => {
    expect(thrownDiceFromTable(expected, [5, 2, 1, 3, 4]).sort()).toEqual([2, 3, 4]);
  });
  it('names the difference when the count is wrong', () => {
    expect(() => thrownDiceFromTable(expected, [5, 2, 1, 3])).toThrow('4 dice seen, 3 were re-rolled and 2 kept.');
  });
  it('refuses kept dice that changed', () => {
    expect(() => thrownDiceFromTable(expected, [6, 2, 1, 3, 4])).toThrow(/kept dice \(1 5\)/);
  });
  it('names symbol dice in that refusal as the table does', () => {
    const board: ExpectedRoll = { kit: 'corellian-spike', player: 0, count: 1, kept: [5], prompt: '' };
    expect(() => thrownDiceFromTable(board, [6, 3])).toThrow(
      'The kept dice (Star (5)) are not all on the table as they were: seen Burst (6), Square (3).',
    );
  });
});

describe('names in a sentence', () => {
  it('lists one, two and three names as a sentence does', () => {
    expect(andList([])).toBe('');
    expect(andList(['Ann'])).toBe('Ann');
    expect(andList(['Ann', 'Bob'])).toBe('Ann and Bob');
    expect(andList(['Ann', 'Bob', 'Dee'])).toBe('Ann, Bob and Dee');
  });
});

describe('pot and ledger', () => {
  it('splits a tie equally, the remainder one unit each to the first seats', () => {
    expect(splitPot(10, 4, [3, 1, 2])).toEqual([0, 4, 3, 3]);
    expect(splitPot(9, 3, [0, 1, 2])).toEqual([3, 3, 3]);
    expect(splitPot(0, 2, [1])).toEqual([0, 0]);
  });
  it('sums balances by player name across games', () => {
    const ledger = sessionLedger([
      { players: ['Ann', 'Bob'], ante: 2, payouts: [4, 0] },
      { players: ['Bob', 'Ann', 'Cy'], ante: 1, payouts: [0, 0, 3] },
      { players: ['Ann', 'Cy'], ante: 5, payouts: null },
    ]);
    expect(ledger).toEqual([
      { player: 'Ann', paid: 8, won: 4, net: -4, games: 3 },
      { player: 'Bob', paid: 3, won: 0, net: -3, games: 2 },
      { player: 'Cy', paid: 6, won: 3, net: -3, games: 2 },
    ]);
  });
});

describe('replay and undo', () => {
  const transcript: Transcript = {
    game: 'point-five',
    players: ['Ann', 'Bob'],
    options: { ante: 2 },
    actions: [roll(4), { type: 'call' }, roll(6), roll(6)],
  };
  it('folds the log', () => {
    const state = replay(transcript);
    expect(state.play).toMatchObject({ scores: [2, 0], current: 0 });
  });
  it('undo is the log without its last action', () => {
    const state = replay({ ...transcript, actions: transcript.actions.slice(0, -1) });
    expect(state.play).toMatchObject({ current: 1, board: [6] });
  });
  it('names the index and the rule of an illegal action', () => {
    const bad = { ...transcript, actions: [...transcript.actions, { type: 'call' }] };
    try {
      replay(bad);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ReplayError);
      expect((error as ReplayError).index).toBe(4);
      expect((error as ReplayError).message).toMatch(/Throw the die before calling/);
    }
  });
});
