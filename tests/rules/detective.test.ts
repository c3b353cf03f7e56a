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
import { stringProblem, type DetectiveState, type Evidence } from '../../src/lib/rules/games/detective.ts';

const roll = (...dice: number[]): Action => ({ type: 'roll', dice });
const reroll = (...dice: number[]): Action => ({ type: 'reroll', dice });
const record = (suspect: number, evidence: Evidence): Action => ({ type: 'record', suspect, evidence });
const endTurn: Action = { type: 'end-turn' };
/** A turn that finds nothing: no pair in the roll, all five re-rolled, no pair again. */
const blank: Action[] = [roll(1, 2, 3, 4, 6), reroll(1, 2, 3, 4, 6), roll(1, 2, 3, 5, 6)];
/** A turn that records a piece straight from a five-of-a-kind initial roll. */
const find = (suspect: number, evidence: Evidence): Action[] => [roll(suspect, suspect, suspect, suspect, suspect), record(suspect, evidence)];
const PLAYERS = ['Ann', 'Bob', 'Cy'];

function play(actions: Action[], options: Record<string, unknown> = {}, players = PLAYERS): MatchState {
  let state = createMatch({ game: 'detective', players, options: { startingPlayer: 'first-listed', ...options } });
  for (const a of actions) state = applyAction(state, a);
  return state;
}
const g = (state: MatchState) => state.play as DetectiveState;

function refusal(state: MatchState, action: Action): RuleError {
  try {
    applyAction(state, action);
  } catch (error) {
    if (error instanceof RuleError) return error;
    throw error;
  }
  throw new Error(`${JSON.stringify(action)} was accepted`);
}

function recordable(state: MatchState): string[] {
  return viewMatch(state).legal.flatMap((m) =>
    m.kind === 'action' && m.action.type === 'record' ? [`${String(m.action.evidence)} ${String(m.action.suspect)}`] : [],
  );
}

describe('Detective: who starts', () => {
  it('by default each player rolls two dice, the highest starts, and tied players roll again', () => {
    let state = createMatch({ game: 'detective', players: PLAYERS });
    expect(state.phase).toBe('roll-off');
    expect(expectRoll(state)).toMatchObject({ kit: 'standard', count: 2, player: 0 });
    for (const dice of [[6, 5], [2, 1], [5, 6]]) state = applyAction(state, roll(...dice));
    expect(state.rollOff?.contenders).toEqual([0, 2]);
    state = applyAction(state, roll(3, 3));
    state = applyAction(state, roll(4, 3));
    expect(state.phase).toBe('play');
    expect(viewMatch(state).current).toBe(2);
    expect(expectRoll(state)).toMatchObject({ count: 5, kept: [], player: 2 });
  });
  it('is for 2 to 6 players', () => {
    expect(() => play([], {}, ['A'])).toThrow(SetupError);
    expect(() => play([], {}, ['A', 'B', 'C', 'D', 'E', 'F', 'G'])).toThrow(/2 to 6 players/);
  });
});

describe('Detective: evidence', () => {
  it('two alike is the means, three the motive, four the opportunity', () => {
    expect(recordable(play([roll(2, 2, 1, 3, 5)]))).toEqual(['means 2']);
    expect(recordable(play([roll(3, 3, 3, 1, 5)]))).toEqual(['means 3', 'motive 3']);
    expect(recordable(play([roll(6, 6, 6, 6, 5)]))).toEqual(['means 6', 'motive 6', 'opportunity 6']);
    expect(recordable(play([roll(6, 6, 6, 6, 6)]))).toEqual(['means 6', 'motive 6', 'opportunity 6']);
    expect(recordable(play([roll(1, 1, 4, 4, 5)]))).toEqual(['means 1', 'means 4']);
    expect(recordable(play([roll(1, 2, 3, 4, 5)]))).toEqual([]);
  });
  it('a longer string may be recorded as a shorter piece', () => {
    const state = play([roll(5, 5, 5, 5, 1), record(5, 'means')]);
    expect(g(state).evidence[0]).toEqual({ means: [5], motive: [], opportunity: [] });
  });
  it('records under the player\'s name in the right section, one piece per turn', () => {
    const state = play([roll(4, 4, 4, 2, 2), record(4, 'motive')]);
    expect(g(state).current).toBe(1);
    expect(viewMatch(state).slate.rows[0]?.cells).toEqual({ means: '', motive: '4', opportunity: '' });
    expect(viewMatch(state).slate.rows[0]?.score).toBe(1);
    expect(g(state).phase).toBe('initial-roll');
  });
  it('refuses evidence the dice do not show, or already recorded', () => {
    const state = play([roll(4, 4, 4, 2, 2)]);
    expect(refusal(state, record(4, 'opportunity')).message).toBe('The roll shows no four 4s.');
    expect(refusal(state, record(3, 'means')).code).toBe('no-string');
    const again = play([...find(4, 'motive'), ...blank, ...blank, roll(4, 4, 4, 2, 2)]);
    const error = refusal(again, record(4, 'motive'));
    expect(error.code).toBe('already-recorded');
    expect(error.message).toBe('You already have the motive for suspect 4.');
    expect(recordable(again)).toEqual(['means 2', 'means 4']);
  });
  it('refuses a malformed record', () => {
    const state = play([roll(4, 4, 4, 2, 2)]);
    expect(refusal(state, record(7, 'means')).code).toBe('bad-suspect');
    expect(refusal(state, { type: 'record', suspect: 4, evidence: 'alibi' }).code).toBe('bad-evidence');
    expect(refusal(play([]), record(4, 'means')).code).toBe('not-now');
  });
});

describe('Detective: the three things to do after the initial roll', () => {
  it('1. record from the initial roll (shown above); 2. re-roll all five: any string of the new roll', () => {
    let state = play([roll(4, 4, 4, 1, 2), reroll(4, 4, 4, 1, 2)]);
    expect(expectRoll(state)).toMatchObject({ count: 5, kept: [] });
    state = applyAction(state, roll(4, 3, 3, 5, 6));
    // the initial 4s were picked up: they are gone
    expect(recordable(state)).toEqual(['means 3']);
    expect(refusal(state, record(4, 'means')).message).toBe('The new roll shows no two 4s.');
  });
  it('3. pick up one to four dice: the string must include dice of both rolls', () => {
    let state = play([roll(4, 4, 4, 1, 2), reroll(1, 2)]);
    expect(expectRoll(state)).toMatchObject({ count: 2, kept: [4, 4, 4] });
    state = applyAction(state, roll(4, 6));
    expect(recordable(state)).toEqual(['means 4', 'motive 4', 'opportunity 4']);
    state = applyAction(state, record(4, 'opportunity'));
    expect(g(state).evidence[0]?.opportunity).toEqual([4]);
  });
  it('while the dice picked up are awaited, every other move says so: re-roll them first', () => {
    const state = play([roll(4, 4, 4, 1, 2), reroll(1, 2)]);
    for (const action of [reroll(4), endTurn, record(4, 'means')]) {
      expect(refusal(state, action)).toMatchObject({ code: 'not-now', message: 'Re-roll the dice picked up first.' });
    }
  });
  it('3. a string only of kept dice does not count: it needs a die of the new roll', () => {
    const state = play([roll(4, 4, 4, 1, 2), reroll(1, 2), roll(3, 5)]);
    // nothing recordable: the turn ended by itself
    expect(g(state).current).toBe(1);
    expect(viewMatch(state).headline).toMatch(/No new evidence/);
    const pair = play([roll(4, 4, 4, 1, 2), reroll(1, 2), roll(3, 3)]);
    expect(recordable(pair)).toEqual([]);
    expect(g(pair).current).toBe(1);
  });
  it('3. a string only of new dice does not count: it needs a die of the initial roll', () => {
    const after = play([roll(1, 2, 3, 4, 5), reroll(1, 2, 3, 4), roll(6, 6, 6, 6)]);
    expect(recordable(after)).toEqual([]);
    expect(g(after).current).toBe(1);
    const mixed = play([roll(1, 2, 3, 6, 5), reroll(1, 2, 3, 5), roll(6, 6, 6, 1)]);
    expect(recordable(mixed)).toEqual(['means 6', 'motive 6', 'opportunity 6']);
    expect(refusal(mixed, record(1, 'means')).message).toBe('The dice show no two 1s.');
  });
  it('names the rule when the dice are there but not from both rolls', () => {
    const rolls = { phase: 'record' as const, initial: [5, 5, 1, 2, 3], kept: [5, 5, 1], rolled: [2, 3], anyDiceString: false };
    expect(stringProblem(rolls, 5, 2)).toMatch(/must use dice from both the initial roll and the new roll: no 5 came up/);
    expect(stringProblem({ ...rolls, kept: [1, 2, 3], rolled: [5, 5] }, 5, 2)).toMatch(/no 5 stayed on the table/);
    expect(stringProblem({ ...rolls, anyDiceString: true }, 5, 2)).toBeNull();
  });
  it('variation 1: any dice of the initial roll, the new roll or both', () => {
    const kept = play([roll(4, 4, 4, 1, 2), reroll(1, 2), roll(3, 5)], { anyDiceString: true });
    expect(recordable(kept)).toEqual(['means 4', 'motive 4']);
    const fresh = play([roll(1, 2, 3, 4, 5), reroll(1, 2, 3, 4), roll(6, 6, 6, 6)], { anyDiceString: true });
    expect(recordable(fresh)).toEqual(['means 6', 'motive 6', 'opportunity 6']);
  });
  it('only one re-roll per turn; the player may then record nothing', () => {
    const state = play([roll(4, 4, 4, 1, 2), reroll(1, 2), roll(4, 6)]);
    expect(refusal(state, reroll(6)).code).toBe('one-reroll');
    const ended = applyAction(state, endTurn);
    expect(g(ended).current).toBe(1);
    expect(g(ended).evidence[0]).toEqual({ means: [], motive: [], opportunity: [] });
  });
  it('offers the three things as moves: record, re-roll all five, pick up one to four', () => {
    const legal = viewMatch(play([roll(4, 4, 4, 1, 2)])).legal;
    expect(legal.map((m) => m.label)).toEqual([
      'Record the means for suspect 4 (two 4s)',
      'Record the motive for suspect 4 (three 4s)',
      'Re-roll all five dice',
      'Pick up 1 to 4 dice to re-roll (the string must then use dice of both rolls)',
    ]);
    expect(legal[2]).toMatchObject({ kind: 'action', action: { type: 'reroll', dice: [4, 4, 4, 1, 2] } });
    expect(legal[3]).toMatchObject({ kind: 'choose-dice', actionType: 'reroll', from: [4, 4, 4, 1, 2], min: 1, max: 4 });
  });
  it('the turn does not end before the re-roll without recording', () => {
    const state = play([roll(4, 4, 4, 1, 2)]);
    expect(refusal(state, endTurn).code).toBe('not-now');
  });
  it('refuses picking up dice that are not on the table, or none', () => {
    const state = play([roll(4, 4, 4, 1, 2)]);
    expect(refusal(state, reroll(5)).code).toBe('not-on-table');
    expect(refusal(state, reroll(1, 1)).code).toBe('not-on-table');
    expect(refusal(state, reroll()).code).toBe('no-dice');
    expect(refusal(play([]), reroll(1)).code).toBe('not-now');
  });
  it('checks the re-roll: as many dice as were picked up', () => {
    const state = play([roll(4, 4, 4, 1, 2), reroll(1, 2)]);
    expect(() => applyAction(state, roll(1, 2, 3))).toThrow('3 dice thrown, 2 expected.');
  });
});

describe('Detective: solving the murder', () => {
  /** Ann finds means, motive and opportunity for suspect 3; Bob and Cy find nothing. */
  const annSolves = [...find(3, 'means'), ...blank, ...blank, ...find(3, 'motive'), ...blank, ...blank, ...find(3, 'opportunity')];

  it('the first to hold all three against one suspect solves it; the others each take one last turn', () => {
    let state = play(annSolves, { ante: 2 });
    expect(g(state).solved).toEqual([{ player: 0, suspect: 3 }]);
    expect(state.phase).toBe('play');
    expect(g(state).current).toBe(1);
    expect(g(state).lastTurns).toEqual([1, 2]);
    expect(viewMatch(state).slate.rows.map((r) => r.note)).toEqual(['solved: suspect 3', 'last turn', 'last turn']);
    state = [...blank, ...blank].reduce(applyAction, state);
    expect(state.phase).toBe('over');
    expect(state.winners).toEqual([0]);
    expect(state.payouts).toEqual([6, 0, 0]);
  });
  it('evidence spread over suspects does not solve', () => {
    const state = play([...find(3, 'means'), ...blank, ...blank, ...find(4, 'motive'), ...blank, ...blank, ...find(5, 'opportunity')]);
    expect(g(state).solved).toEqual([]);
    expect(g(state).lastTurns).toBeNull();
  });
  it('another player who solves on the last turn shares the win (the pot is split)', () => {
    // Cy has means and motive for 6 already; Ann solves; Bob finds nothing; Cy solves on the last turn.
    const actions = [
      ...find(3, 'means'), ...blank, ...find(6, 'means'),
      ...find(3, 'motive'), ...blank, ...find(6, 'motive'),
      ...find(3, 'opportunity'), ...blank, ...find(6, 'opportunity'),
    ];
    const state = play(actions, { ante: 5 });
    expect(state.phase).toBe('over');
    expect(state.winners).toEqual([0, 2]);
    expect(state.payouts).toEqual([8, 0, 7]);
    expect(viewMatch(state).headline).toMatch(/Solved by Ann \(suspect 3\) and Cy \(suspect 6\)/);
  });
  it('the last round wraps round the table after the last seat', () => {
    // Cy (seat 2) solves: Ann then Bob take their last turns.
    const actions = [
      ...blank, ...blank, ...find(2, 'means'),
      ...blank, ...blank, ...find(2, 'motive'),
      ...blank, ...blank, ...find(2, 'opportunity'),
    ];
    let state = play(actions);
    expect(g(state).lastTurns).toEqual([0, 1]);
    expect(g(state).current).toBe(0);
    state = [...blank].reduce(applyAction, state);
    expect(g(state).current).toBe(1);
    state = [...blank].reduce(applyAction, state);
    expect(state.winners).toEqual([2]);
  });
  it('option: the first to solve wins at once', () => {
    const state = play(annSolves, { ending: 'first-solver' });
    expect(state.phase).toBe('over');
    expect(state.winners).toEqual([0]);
  });
});

describe('Detective variation 2: shared evidence and circles', () => {
  const shared = { sharedEvidence: true };
  it('each piece against each suspect is found once, by anyone', () => {
    const state = play([...find(1, 'means'), roll(1, 1, 1, 2, 3)], shared);
    expect(recordable(state)).toEqual(['motive 1']);
    const error = refusal(state, record(1, 'means'));
    expect(error.code).toBe('already-found');
    expect(error.message).toBe('Ann already found the means for suspect 1.');
  });
  it('whoever finds the third piece against a suspect circles it', () => {
    const state = play([...find(1, 'means'), ...find(1, 'motive'), ...find(1, 'opportunity')], shared);
    expect(g(state).circles).toEqual([{ player: 2, suspect: 1, evidence: 'opportunity' }]);
    const rows = viewMatch(state).slate.rows;
    expect(rows.map((r) => r.score)).toEqual([0, 0, 1]);
    expect(rows.map((r) => r.cells)).toEqual([
      { means: '1', motive: '', opportunity: '' },
      { means: '', motive: '1', opportunity: '' },
      { means: '', motive: '', opportunity: '①' },
    ]);
    expect(viewMatch(state).slate.scoreLabel).toBe('Circles');
    expect(viewMatch(state).details.suspects).toContainEqual({ suspect: 1, means: 0, motive: 1, opportunity: 2, circledBy: 2 });
  });
  it('holding all three pieces alone is not a win; the game ends when all six suspects are uncovered', () => {
    let state = play([...find(1, 'means'), ...blank, ...blank, ...find(1, 'motive'), ...blank, ...blank, ...find(1, 'opportunity')], shared);
    expect(state.phase).toBe('play');
    expect(g(state).circles).toEqual([{ player: 0, suspect: 1, evidence: 'opportunity' }]);
    // Suspects 2–6: Bob, Cy, Ann take turns finding a piece each (15 pieces).
    const pieces: Action[] = [];
    for (const suspect of [2, 3, 4, 5, 6]) for (const e of ['means', 'motive', 'opportunity'] as const) pieces.push(...find(suspect, e));
    state = pieces.slice(0, -2).reduce(applyAction, state);
    expect(state.phase).toBe('play');
    state = pieces.slice(-2).reduce(applyAction, state);
    expect(state.phase).toBe('over');
    // Three players taking turns, one piece each: every third piece of suspects 2–6 falls to Ann.
    expect(viewMatch(state).slate.rows.map((r) => r.score)).toEqual([6, 0, 0]);
    expect(state.winners).toEqual([0]);
    expect(viewMatch(state).headline).toMatch(/All six suspects are uncovered: Ann wins with the most circles/);
  });
  it('a tie on circles shares the win', () => {
    const players = ['Ann', 'Bob'];
    const pieces: Action[] = [];
    // 18 pieces, one a turn, Ann first: the third piece of each suspect falls to Ann, Bob, Ann, Bob, Ann, Bob.
    for (const suspect of [1, 2, 3, 4, 5, 6]) for (const e of ['means', 'motive', 'opportunity'] as const) pieces.push(...find(suspect, e));
    const state = play(pieces, { ...shared, ante: 1 }, players);
    expect(state.phase).toBe('over');
    expect(g(state).circles.map((c) => c.player)).toEqual([0, 1, 0, 1, 0, 1]);
    expect(state.winners).toEqual([0, 1]);
    expect(state.payouts).toEqual([1, 1]);
  });
});
