/**
 * 5-Dice Detective (Paul Hoemke, "Five New 5-Dice Games", CC BY 3.0), 2–6 players, five
 * standard dice. Evidence against a suspect (a die number) is a string of dice showing it: the
 * means is two, the motive three, the opportunity four (a longer string may be recorded as a
 * shorter piece). One piece per turn; after the initial roll a player records, re-rolls all five,
 * or picks up one to four dice and re-rolls them (the string must then mix dice of both rolls,
 * unless variation 1). The first to hold means, motive and opportunity for one suspect solves the
 * murder; the others get one last turn. Variation 2: the evidence is shared and the player who
 * completes a suspect circles it; most circles win once all six suspects are uncovered.
 * Rules as implemented and the choices made: docs/rules/detective.md.
 */
import { STANDARD_KIT } from '../../dice/index.ts';
import { andList, containsAll, countTokens, formatDice, plural, removeAll } from '../dice.ts';
import { RuleError } from '../errors.ts';
import { booleanOption, choiceOption } from '../options.ts';
import type { Action, ExpectedRoll, GameDefinition, Json, LegalMove, PlayerIndex, PlayView } from '../types.ts';

const DICE = 5;
export const SUSPECTS: readonly number[] = [1, 2, 3, 4, 5, 6];

export type Evidence = 'means' | 'motive' | 'opportunity';
/** The sheet's order: the means section at the top, then the motive, then the opportunity. */
export const EVIDENCE: readonly Evidence[] = ['means', 'motive', 'opportunity'];
/** How many dice of one number each piece of evidence takes. */
const EVIDENCE_DICE: Readonly<Record<Evidence, number>> = { means: 2, motive: 3, opportunity: 4 };
const COUNT_WORD = ['no', 'one', 'two', 'three', 'four', 'five'];

export type DetectiveEnding = 'last-round' | 'first-solver';

export type DetectivePhase =
  /** The turn's player throws all five dice. */
  | 'initial-roll'
  /** After the initial roll: record evidence, or pick up dice (1–4, or all five) to re-roll. */
  | 'investigate'
  /** The picked-up dice are awaited. */
  | 'reroll'
  /** After the re-roll: record evidence or end the turn. */
  | 'record'
  | 'over';

/** The table's words for each phase, beside whose turn it is (null: the headline says it all). */
const PHASES = {
  'initial-roll': 'first roll',
  investigate: 'after the first roll',
  reroll: 're-roll',
  record: 'after the re-roll',
  over: null,
} as const satisfies Record<DetectivePhase, string | null>;

/** One player's column of the score sheet: the suspect numbers written in each section, in order. */
export type EvidenceSheet = Record<Evidence, number[]>;

export type DetectiveState = {
  players: string[];
  /** Variation 1: after a partial re-roll, a string may use any dice of either roll. */
  anyDiceString: boolean;
  /** Variation 2: the evidence is shared; the finder of a suspect's third piece circles it. */
  sharedEvidence: boolean;
  ending: DetectiveEnding;
  current: PlayerIndex;
  phase: DetectivePhase;
  /** This turn's initial roll. */
  initial: number[];
  /** Dice of the initial roll left on the table for the re-roll (all of them before a re-roll). */
  kept: number[];
  /** The new roll's dice, after a re-roll. */
  rolled: number[];
  /** Dice picked up for the re-roll awaited. */
  pickedUp: number[];
  evidence: EvidenceSheet[];
  /** Variation 2: the circled pieces (each the third piece found against a suspect), in order. */
  circles: Array<{ player: PlayerIndex; suspect: number; evidence: Evidence }>;
  /** Players who solved the murder (base game), in the order they did, with their suspect. */
  solved: Array<{ player: PlayerIndex; suspect: number }>;
  /** The last round: players still to take their last turn, in order; null before anyone solves. */
  lastTurns: PlayerIndex[] | null;
  lastEvent: string;
  /** The dice of the last finished turn. */
  lastDice: number[];
  winners: PlayerIndex[] | null;
};

// ---------------------------------------------------------------------------------------------
// Evidence on the dice

function countOf(dice: readonly number[], suspect: number): number {
  return countTokens(dice).get(suspect) ?? 0;
}

/** Which part of the turn the dice come from, for the string rule. */
type Rolls = { initial: number[]; kept: number[]; rolled: number[]; phase: DetectivePhase; anyDiceString: boolean };

/**
 * Can the dice of this turn show a string of `size` dice of `suspect`? After the initial roll:
 * from the initial roll. After re-rolling all five: from the new roll. After picking up one to
 * four dice: a string that holds dice of both rolls (the sheet), or any dice (variation 1).
 * Returns null when it can, else why not.
 */
export function stringProblem(r: Rolls, suspect: number, size: number): string | null {
  const want = `${COUNT_WORD[size] ?? size} ${suspect}s`;
  if (r.phase === 'investigate') {
    return countOf(r.initial, suspect) >= size ? null : `The roll shows no ${want}.`;
  }
  const fromKept = countOf(r.kept, suspect);
  const fromNew = countOf(r.rolled, suspect);
  if (r.kept.length === 0) {
    return fromNew >= size ? null : `The new roll shows no ${want}.`;
  }
  if (fromKept + fromNew < size) return `The dice show no ${want}.`;
  if (r.anyDiceString) return null;
  if (fromKept === 0 || fromNew === 0) {
    return (
      `The string must use dice from both the initial roll and the new roll: ` +
      `${fromKept === 0 ? `no ${suspect} stayed on the table` : `no ${suspect} came up on the dice re-rolled`}.`
    );
  }
  return null;
}

/** Every piece of evidence the player could record now, suspect by suspect. */
function recordable(g: DetectiveState): Array<{ suspect: number; evidence: Evidence }> {
  if (g.phase !== 'investigate' && g.phase !== 'record') return [];
  const out: Array<{ suspect: number; evidence: Evidence }> = [];
  for (const suspect of SUSPECTS) {
    for (const evidence of EVIDENCE) {
      if (recordProblem(g, suspect, evidence) === null) out.push({ suspect, evidence });
    }
  }
  return out;
}

/** Null when the current player may record this piece now, else the reason (and its code). */
function recordProblem(g: DetectiveState, suspect: number, evidence: Evidence): { code: string; message: string } | null {
  const mine = g.evidence[g.current];
  if (mine?.[evidence].includes(suspect)) {
    return { code: 'already-recorded', message: `You already have the ${evidence} for suspect ${suspect}.` };
  }
  if (g.sharedEvidence) {
    const finder = finderOf(g, suspect, evidence);
    if (finder !== null) {
      return {
        code: 'already-found',
        message: `${g.players[finder] ?? '?'} already found the ${evidence} for suspect ${suspect}.`,
      };
    }
  }
  const problem = stringProblem(g, suspect, EVIDENCE_DICE[evidence]);
  return problem === null ? null : { code: 'no-string', message: problem };
}

/** Variation 2: who found this piece of evidence, if anyone. */
function finderOf(g: DetectiveState, suspect: number, evidence: Evidence): PlayerIndex | null {
  const i = g.evidence.findIndex((sheet) => sheet[evidence].includes(suspect));
  return i < 0 ? null : i;
}

function hasAllThree(sheet: EvidenceSheet, suspect: number): boolean {
  return EVIDENCE.every((e) => sheet[e].includes(suspect));
}

/** Variation 2: every piece of evidence against the suspect has been found (by anyone). */
function uncovered(g: DetectiveState, suspect: number): boolean {
  return EVIDENCE.every((e) => finderOf(g, suspect, e) !== null);
}

// ---------------------------------------------------------------------------------------------
// Turns

function nameOf(g: DetectiveState, player: PlayerIndex): string {
  return g.players[player] ?? '?';
}

/** The dice on the table now. */
function tableDice(g: DetectiveState): number[] {
  switch (g.phase) {
    case 'investigate':
      return g.initial;
    case 'reroll':
      return g.kept;
    case 'record':
      return [...g.kept, ...g.rolled];
    default:
      return [];
  }
}

/** Variation 2: how many circles each player has. */
function circleCounts(g: DetectiveState): number[] {
  return g.players.map((_, i) => g.circles.filter((c) => c.player === i).length);
}

/** Most circles win (variation 2); several on a tie. */
function mostCircles(g: DetectiveState): PlayerIndex[] {
  const counts = circleCounts(g);
  const most = Math.max(...counts);
  return counts.flatMap((n, i) => (n === most ? [i] : []));
}

/** Ends the turn: the next player, the last round, or the end of the game. */
function endTurn(g: DetectiveState, lastEvent: string): DetectiveState {
  const base: DetectiveState = {
    ...g,
    initial: [],
    kept: [],
    rolled: [],
    pickedUp: [],
    lastDice: tableDice(g),
    lastEvent,
  };
  if (g.sharedEvidence) {
    if (SUSPECTS.every((s) => uncovered(g, s))) {
      const winners = mostCircles(g);
      const names = andList(winners.map((w) => nameOf(g, w)));
      return { ...base, phase: 'over', winners, lastEvent: `${lastEvent} All six suspects are uncovered: ${names} win${winners.length === 1 ? 's' : ''} with the most circles.` };
    }
    return { ...base, phase: 'initial-roll', current: (g.current + 1) % g.players.length };
  }
  let lastTurns = g.lastTurns;
  if (lastTurns === null) {
    if (g.solved.length === 0) {
      return { ...base, phase: 'initial-roll', current: (g.current + 1) % g.players.length };
    }
    // The first solve: the others each take one last turn, in order (or none, by option).
    const n = g.players.length;
    lastTurns = g.ending === 'last-round' ? Array.from({ length: n - 1 }, (_, i) => (g.current + 1 + i) % n) : [];
  } else {
    lastTurns = lastTurns.slice(1);
  }
  const next = lastTurns[0];
  if (next === undefined) {
    const winners = g.solved.map((s) => s.player);
    const names = andList(g.solved.map((s) => `${nameOf(g, s.player)} (suspect ${s.suspect})`));
    return { ...base, phase: 'over', lastTurns, winners, lastEvent: `${lastEvent} Solved by ${names}: game over.` };
  }
  return { ...base, phase: 'initial-roll', current: next, lastTurns };
}

function applyRecord(g: DetectiveState, action: Action): DetectiveState {
  if (g.phase !== 'investigate' && g.phase !== 'record') {
    throw new RuleError(
      'not-now',
      g.phase === 'reroll' ? 'Re-roll the dice picked up first.' : 'Roll the five dice before recording evidence.',
    );
  }
  const suspect = action.suspect;
  const evidence = action.evidence;
  if (typeof suspect !== 'number' || !SUSPECTS.includes(suspect)) {
    throw new RuleError('bad-suspect', 'The suspect is a number from 1 to 6.');
  }
  if (typeof evidence !== 'string' || !(EVIDENCE as readonly string[]).includes(evidence)) {
    throw new RuleError('bad-evidence', 'Evidence is "means" (2 dice), "motive" (3 dice) or "opportunity" (4 dice).');
  }
  const piece = evidence as Evidence;
  const problem = recordProblem(g, suspect, piece);
  if (problem) throw new RuleError(problem.code, problem.message);

  const name = nameOf(g, g.current);
  const evidenceSheets = g.evidence.map((sheet, i) =>
    i === g.current ? { ...sheet, [piece]: [...sheet[piece], suspect] } : sheet,
  );
  let next: DetectiveState = { ...g, evidence: evidenceSheets };
  let event = `${name} records the ${piece} for suspect ${suspect}.`;
  if (g.sharedEvidence) {
    if (uncovered(next, suspect)) {
      next = { ...next, circles: [...next.circles, { player: g.current, suspect, evidence: piece }] };
      event += ` That is the third piece: ${name} circles suspect ${suspect}.`;
    }
  } else {
    const sheet = evidenceSheets[g.current];
    if (sheet && hasAllThree(sheet, suspect)) {
      next = { ...next, solved: [...next.solved, { player: g.current, suspect }] };
      event += ` Means, motive and opportunity: ${name} solves the murder!`;
    }
  }
  return endTurn(next, event);
}

function applyReroll(g: DetectiveState, dice: unknown): DetectiveState {
  if (g.phase === 'record') {
    throw new RuleError('one-reroll', 'Only one re-roll per turn: record evidence or end the turn.');
  }
  if (g.phase === 'reroll') throw new RuleError('not-now', 'Re-roll the dice picked up first.');
  if (g.phase !== 'investigate') throw new RuleError('not-now', 'Roll the five dice first.');
  if (!Array.isArray(dice) || dice.some((d) => typeof d !== 'number')) {
    throw new RuleError('bad-dice', 'Say which dice are picked up, by number (e.g. [2, 5]).');
  }
  const picked = dice as number[];
  if (picked.length === 0) throw new RuleError('no-dice', 'Pick up at least one die to re-roll.');
  if (!containsAll(g.initial, picked)) {
    throw new RuleError(
      'not-on-table',
      `Only dice on the table can be picked up: ${formatDice(picked)} are not all among ${formatDice(g.initial)}.`,
    );
  }
  const kept = removeAll(g.initial, picked) as number[];
  const name = nameOf(g, g.current);
  return {
    ...g,
    phase: 'reroll',
    kept,
    pickedUp: picked,
    lastEvent:
      kept.length === 0
        ? `${name} re-rolls all five dice.`
        : `${name} picks up ${formatDice(picked)} to re-roll, keeping ${formatDice(kept)}.`,
  };
}

function applyRoll(g: DetectiveState, dice: number[]): DetectiveState {
  const name = nameOf(g, g.current);
  if (g.phase === 'initial-roll') {
    return { ...g, phase: 'investigate', initial: dice, kept: dice, rolled: [], lastEvent: `${name} rolled ${formatDice(dice)}.` };
  }
  if (g.phase === 'reroll') {
    const next: DetectiveState = { ...g, phase: 'record', rolled: dice, pickedUp: [] };
    const event = `${name} re-rolled ${formatDice(dice)}.`;
    if (recordable(next).length === 0) return endTurn(next, `${event} No new evidence.`);
    return { ...next, lastEvent: event };
  }
  throw new RuleError('not-now', g.phase === 'over' ? 'The game is over.' : 'No roll now: record evidence or end the turn.');
}

function apply(g: DetectiveState, action: Action): DetectiveState {
  if (g.phase === 'over') throw new RuleError('game-over', 'The game is over.');
  switch (action.type) {
    case 'roll':
      return applyRoll(g, action.dice as number[]);
    case 'reroll':
      return applyReroll(g, action.dice);
    case 'record':
      return applyRecord(g, action);
    case 'end-turn':
      if (g.phase !== 'record') {
        throw new RuleError(
          'not-now',
          g.phase === 'investigate'
            ? 'After the initial roll, record evidence or re-roll; the turn ends after the re-roll.'
            : g.phase === 'reroll'
              ? 'Re-roll the dice picked up first.'
              : 'Roll the dice first.',
        );
      }
      return endTurn(g, `${nameOf(g, g.current)} records nothing.`);
    default:
      throw new RuleError(
        'unknown-action',
        `5-Dice Detective has no "${action.type}" action (roll, reroll, record, end-turn).`,
      );
  }
}

// ---------------------------------------------------------------------------------------------
// What the table is asked for, and what it sees

function expectRoll(g: DetectiveState): ExpectedRoll | null {
  const name = nameOf(g, g.current);
  if (g.phase === 'initial-roll') {
    const last = g.lastTurns !== null ? ' (last turn)' : '';
    return { kit: STANDARD_KIT.id, player: g.current, count: DICE, kept: [], prompt: `${name}: roll the five dice${last}.` };
  }
  if (g.phase === 'reroll') {
    const count = g.pickedUp.length;
    const keptText = g.kept.length > 0 ? ` (${formatDice(g.kept)} kept)` : '';
    return { kit: STANDARD_KIT.id, player: g.current, count, kept: g.kept, prompt: `${name}: re-roll ${plural(count, 'die', 'dice')}${keptText}.` };
  }
  return null;
}

function pieceLabel(suspect: number, evidence: Evidence): string {
  return `Record the ${evidence} for suspect ${suspect} (${COUNT_WORD[EVIDENCE_DICE[evidence]]} ${suspect}s)`;
}

function legalMoves(g: DetectiveState): LegalMove[] {
  const moves: LegalMove[] = [];
  const expect = expectRoll(g);
  if (expect) moves.push({ kind: 'roll', expect, label: expect.prompt });
  for (const { suspect, evidence } of recordable(g)) {
    moves.push({ kind: 'action', action: { type: 'record', suspect, evidence }, label: pieceLabel(suspect, evidence) });
  }
  if (g.phase === 'investigate') {
    moves.push({ kind: 'action', action: { type: 'reroll', dice: g.initial }, label: 'Re-roll all five dice' });
    moves.push({
      kind: 'choose-dice',
      actionType: 'reroll',
      from: g.initial,
      min: 1,
      max: DICE - 1,
      label: g.anyDiceString
        ? 'Pick up 1 to 4 dice to re-roll'
        : 'Pick up 1 to 4 dice to re-roll (the string must then use dice of both rolls)',
    });
  }
  if (g.phase === 'record') {
    moves.push({ kind: 'action', action: { type: 'end-turn' }, label: 'Record nothing and end the turn' });
  }
  return moves;
}

/** A suspect number as written on the sheet; circled (variation 2) as ①…⑥. */
function written(suspect: number, circled: boolean): string {
  return circled ? String.fromCodePoint(0x2460 + suspect - 1) : String(suspect);
}

function headline(g: DetectiveState): string {
  const name = nameOf(g, g.current);
  const event = g.lastEvent ? `${g.lastEvent} ` : '';
  switch (g.phase) {
    case 'over':
      return g.lastEvent;
    case 'initial-roll':
      return `${event}${expectRoll(g)?.prompt ?? ''}`;
    case 'investigate': {
      const n = recordable(g).length;
      return `${event}${name}: ${n > 0 ? 'record evidence or ' : ''}pick up dice to re-roll.`;
    }
    case 'reroll':
      return `${event}${expectRoll(g)?.prompt ?? ''}`;
    case 'record':
      return `${event}${name}: record evidence or end the turn.`;
  }
}

function view(g: DetectiveState): PlayView {
  const circles = circleCounts(g);
  const circledBy = (player: PlayerIndex, suspect: number, evidence: Evidence): boolean =>
    g.circles.some((c) => c.player === player && c.suspect === suspect && c.evidence === evidence);
  const rows = g.players.map((name, player) => {
    const sheet = g.evidence[player] ?? { means: [], motive: [], opportunity: [] };
    const cells: Record<string, string | number> = {};
    for (const e of EVIDENCE) cells[e] = sheet[e].map((s) => written(s, circledBy(player, s, e))).join(' ');
    const solved = g.solved.find((s) => s.player === player);
    const pieces = EVIDENCE.reduce((sum, e) => sum + sheet[e].length, 0);
    const lastTurn = g.lastTurns?.includes(player) ?? false;
    return {
      player,
      name,
      score: g.sharedEvidence ? (circles[player] ?? 0) : pieces,
      cells,
      marked: solved !== undefined,
      note: solved
        ? `solved: suspect ${solved.suspect}`
        : lastTurn && g.phase !== 'over'
          ? 'last turn'
          : null,
    };
  });
  const details: Record<string, Json> = {
    initial: g.initial,
    kept: g.phase === 'investigate' ? [] : g.kept,
    rolled: g.rolled,
    pickedUp: g.pickedUp,
    lastDice: g.lastDice,
    lastEvent: g.lastEvent,
    evidence: g.evidence.map((sheet) => ({ means: sheet.means, motive: sheet.motive, opportunity: sheet.opportunity })),
    solved: g.solved.map((s) => ({ player: s.player, suspect: s.suspect })),
    lastRound: g.lastTurns,
    mustMixRolls: !g.anyDiceString,
  };
  if (g.sharedEvidence) {
    details.circles = g.circles.map((c) => ({ player: c.player, suspect: c.suspect, evidence: c.evidence }));
    details.suspects = SUSPECTS.map((suspect) => ({
      suspect,
      means: finderOf(g, suspect, 'means'),
      motive: finderOf(g, suspect, 'motive'),
      opportunity: finderOf(g, suspect, 'opportunity'),
      circledBy: g.circles.find((c) => c.suspect === suspect)?.player ?? null,
    }));
  }
  return {
    phase: g.phase,
    current: g.phase === 'over' ? null : g.current,
    headline: headline(g),
    slate: {
      scoreLabel: g.sharedEvidence ? 'Circles' : 'Evidence',
      columns: [
        { key: 'means', label: 'Means (2 alike)' },
        { key: 'motive', label: 'Motive (3 alike)' },
        { key: 'opportunity', label: 'Opportunity (4 alike)' },
      ],
      rows,
    },
    dice: tableDice(g),
    details,
    legal: g.phase === 'over' ? [] : legalMoves(g),
  };
}

export const detective: GameDefinition<DetectiveState> = {
  id: 'detective',
  name: '5-Dice Detective',
  summary:
    'Find the means (two dice alike), the motive (three alike) and the opportunity (four alike) against one suspect ' +
    '(the number on the dice). After your roll, record one piece of evidence, re-roll all five, or pick up one to four ' +
    'dice and re-roll them — the string must then mix dice of both rolls. One piece per turn. The first to solve the ' +
    'murder wins; the others get one last turn to solve it too.',
  kit: STANDARD_KIT.id,
  diceCount: DICE,
  players: { min: 2, max: 6 },
  options: [
    {
      key: 'anyDiceString',
      kind: 'boolean',
      label: 'Variation 1: strings from either roll',
      description:
        'After picking up one to four dice and re-rolling them, a string may use any dice of the initial roll, the new ' +
        'roll, or both (the sheet: it must include dice from both rolls).',
      default: false,
    },
    {
      key: 'sharedEvidence',
      kind: 'boolean',
      label: 'Variation 2: shared evidence and circles',
      description:
        "Everyone's evidence counts together: each piece against each suspect is found once, by anyone. Whoever finds " +
        'the third piece against a suspect circles it; when all six suspects are uncovered, the most circles win.',
      default: false,
    },
    {
      key: 'ending',
      kind: 'choice',
      label: 'After the murder is solved',
      description:
        'The sheet: the other players each take one last turn to identify a murderer too, and everyone who does shares ' +
        'the win. Or the first to solve it wins at once. (Not used with shared evidence.)',
      default: 'last-round',
      choices: [
        { value: 'last-round', label: 'The others take one last turn; every solver shares the win' },
        { value: 'first-solver', label: 'The first to solve the murder wins at once' },
      ],
    },
  ],
  start: { rollOffDice: 2, defaultRule: 'roll-off' },
  defaultAnte: 0,
  phases: PHASES,
  setup: ({ players, options, starter }) => ({
    players: [...players],
    anyDiceString: booleanOption(options, 'anyDiceString'),
    sharedEvidence: booleanOption(options, 'sharedEvidence'),
    ending: choiceOption<DetectiveEnding>(options, 'ending'),
    current: starter,
    phase: 'initial-roll',
    initial: [],
    kept: [],
    rolled: [],
    pickedUp: [],
    evidence: players.map(() => ({ means: [], motive: [], opportunity: [] })),
    circles: [],
    solved: [],
    lastTurns: null,
    lastEvent: '',
    lastDice: [],
    winners: null,
  }),
  apply,
  expectRoll,
  view,
  winners: (g) => (g.phase === 'over' ? g.winners : null),
};
