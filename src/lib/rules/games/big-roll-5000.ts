/**
 * 5000 with the 500-point Big Roll, five 1s winning and a final round (`big-roll-5000`), from
 * the sheet in ../shared/rules/big-roll-5000.md. Five standard dice; every scoring die is set
 * aside and the rest may be rolled again; a roll that scores nothing loses the turn's points;
 * a turn may not end on a total ending in 50; 500 in one turn to begin scoring; when every die
 * has scored the player rolls all five again or passes, and passing then forfeits their next
 * turn; five 1s in one roll win the game; once a player reaches 5000 every other player gets
 * one more turn and the highest total wins.
 * Rules as implemented and every choice made where the sheet is silent: docs/rules/big-roll-5000.md.
 * The turn mechanics shared with five-thousand are in ./five-thousand-family.ts.
 */
import { STANDARD_KIT } from '../../dice/index.ts';
import { RuleError } from '../errors.ts';
import { choiceOption, numberOption } from '../options.ts';
import type { Action, GameDefinition, PlayerIndex, PlayView } from '../types.ts';
import {
  allDiceScored,
  bankBlock,
  bustEvent,
  DICE,
  expectedRoll,
  FAMILY_COLUMNS,
  familyLegal,
  FAMILY_PHASES,
  familyPhase,
  familySlateRow,
  faceCounts,
  finalRoundAfterTurn,
  finalRoundText,
  groupLabel,
  isOnSlate,
  isRun,
  nameOf,
  newTurn,
  nextStepText,
  passTurn,
  playHeadline,
  requireNoBankBlock,
  rolledDice,
  rollScoreOf,
  scoringRollEvent,
  sortNumbers,
  startFinalRound,
  turnAfterKeep,
  turnAfterScoringRoll,
  turnDetails,
  type FamilyState,
  type RollScore,
  type ScorePart,
  type SetAsideRule,
} from './five-thousand-family.ts';

/** Reaching this total starts the final round. */
const BIG_ROLL_TARGET = 5000;

export type BigRollRules = {
  /** Points needed in one turn to begin scoring (the sheet: 500). */
  entryScore: number;
  /** Five 1s in one roll: `win` the game at once (the sheet), or score `points` (5000) in the turn. */
  fiveOnes: 'win' | 'points';
  /** Passing after every die scored: `forfeit` the next turn (the sheet), or `free`. */
  hotDicePass: 'forfeit' | 'free';
  /** `final-round`: everyone else gets one more turn (the sheet); `first-to-5000`: reaching 5000 wins at once. */
  winRule: 'final-round' | 'first-to-5000';
  setAside: SetAsideRule;
};

export type BigRollState = FamilyState & {
  rules: BigRollRules;
  /** Passed after every die had scored: their next turn is forfeit. */
  skipNext: boolean[];
  /** Their last turn, in the final round, was a forfeited one, skipped: they did not play it. */
  lastTurnForfeited: boolean[];
  /** How the game was won. */
  winBy: 'five-ones' | 'points' | null;
};

// ---------------------------------------------------------------------------------------------
// Scoring table

/** True when the roll is five 1s (which wins the game, option `fiveOnes`). */
function isFiveOnes(dice: readonly number[]): boolean {
  return dice.length === DICE && dice.every((d) => d === 1);
}

/**
 * What one roll is worth. 1 = 100, 5 = 50; three 1s 1000, three of another face 100 × the
 * face; four of a kind doubles the three, five of a kind doubles the four — except five 1s,
 * which win the game (counted 5000 when option `fiveOnes` is `points`); the Big Roll,
 * 1-2-3-4-5 with all five dice in one roll, 500. Combinations count only within one roll.
 */
export function scoreBigRollRoll(dice: readonly number[]): RollScore {
  if (isRun(dice, [1, 2, 3, 4, 5])) {
    return rollScoreOf([{ dice: sortNumbers(dice), points: 500, label: 'Big Roll' }]);
  }
  if (isFiveOnes(dice)) {
    return rollScoreOf([{ dice: [...dice], points: BIG_ROLL_TARGET, label: 'five 1s' }]);
  }
  const counts = faceCounts(dice);
  const parts: ScorePart[] = [];
  for (let face = 1; face <= 6; face++) {
    const n = counts[face] ?? 0;
    const group = Array.from({ length: n }, () => face);
    if (n >= 3) {
      const three = face === 1 ? 1000 : face * 100;
      const times = n === 3 ? 1 : n === 4 ? 2 : 4;
      parts.push({ dice: group, points: three * times, label: groupLabel(n, face) });
    } else if (n > 0 && face === 1) {
      parts.push({ dice: group, points: 100 * n, label: groupLabel(n, face) });
    } else if (n > 0 && face === 5) {
      parts.push({ dice: group, points: 50 * n, label: groupLabel(n, face) });
    }
  }
  return rollScoreOf(parts);
}

// ---------------------------------------------------------------------------------------------
// Play

const FORFEIT_REASON = 'passed after all five dice had scored';

/**
 * Passing now forfeits a next turn: every die has scored, the sheet's forfeit is on, and the
 * player has a next turn to lose. In the final round this turn is their last, and a pass that
 * reaches 5000 either wins or starts the final round, which the player who reached 5000 does not
 * play; there the forfeit costs nothing, so the table neither warns of it nor marks the player.
 */
function skipsNextTurn(g: BigRollState): boolean {
  if (!allDiceScored(g.turn) || g.rules.hotDicePass !== 'forfeit') return false;
  return g.finalRound === null && (g.scores[g.current] ?? 0) + g.turn.total < BIG_ROLL_TARGET;
}

function endTurn(g: BigRollState, event: string): BigRollState {
  const { state, skipNext, skipped } = passTurn(g, event, g.skipNext, FORFEIT_REASON);
  // In the final round a skipped forfeit is the player's last turn (advanceTurn): the slate says
  // it was forfeited, not played. `g.finalRound` is set when this turn began or started it.
  const lastTurnForfeited = g.finalRound === null ? g.lastTurnForfeited : g.lastTurnForfeited.map((f, p) => f || skipped.includes(p));
  return { ...state, skipNext, lastTurnForfeited };
}

function applyRoll(g: BigRollState, dice: number[]): BigRollState {
  const player = g.current;
  const name = nameOf(g, player);
  if (isFiveOnes(dice) && g.rules.fiveOnes === 'win') {
    const scores = g.scores.map((s, p) => (p === player ? Math.max(s, BIG_ROLL_TARGET) : s));
    const last = g.last.map((l, p) => (p === player ? 'five 1s' : l));
    return {
      ...g,
      scores,
      last,
      turn: newTurn(),
      winners: [player],
      winBy: 'five-ones',
      event: `${name} rolled 1 1 1 1 1: five 1s win the game!`,
    };
  }
  const score = scoreBigRollRoll(dice);
  if (score.points === 0) {
    const last = g.last.map((l, p) => (p === player ? 'bust' : l));
    return endTurn({ ...g, last, finalRound: finalRoundAfterTurn(g.finalRound, player) }, bustEvent(name, dice, g.turn.total));
  }
  const turn = turnAfterScoringRoll(g.turn, dice, score, g.rules.setAside);
  return { ...g, turn, event: turn.lastRoll ? scoringRollEvent(name, turn.lastRoll) : g.event };
}

/** Passing keeps the turn's points (the sheet's "pass the dice"); after all five scored it costs the next turn. */
function applyBank(g: BigRollState): BigRollState {
  const player = g.current;
  requireNoBankBlock(bankBlock(g.turn, isOnSlate(g, player), g.rules.entryScore));
  const name = nameOf(g, player);
  const points = g.turn.total;
  const before = g.scores[player] ?? 0;
  const after = before + points;
  const forfeit = skipsNextTurn(g);
  const settled: BigRollState = {
    ...g,
    scores: g.scores.map((s, p) => (p === player ? after : s)),
    last: g.last.map((l, p) => (p === player ? `+${points}` : l)),
    skipNext: g.skipNext.map((s, p) => (p === player ? forfeit : s)),
    finalRound: finalRoundAfterTurn(g.finalRound, player),
  };
  let event = `${name} passes with ${points}: ${before} → ${after}${before === 0 ? ', on the slate' : ''}.`;
  if (forfeit) event += ` All five dice had scored, so ${name} skips their next turn.`;
  if (after >= BIG_ROLL_TARGET && g.rules.winRule === 'first-to-5000') {
    return { ...settled, turn: newTurn(), winners: [player], winBy: 'points', event: `${event} ${name} reaches ${BIG_ROLL_TARGET} and wins!` };
  }
  if (after >= BIG_ROLL_TARGET && settled.finalRound === null) {
    settled.finalRound = startFinalRound(g.players.length, player);
    const others = settled.finalRound.toPlay;
    event += ` ${name} reaches ${BIG_ROLL_TARGET}: ${finalRoundText(g, others)}`;
  }
  const ended = endTurn(settled, event);
  return ended.winners === null ? ended : { ...ended, winBy: 'points' };
}

// ---------------------------------------------------------------------------------------------
// The table's view

/**
 * What passing now would do, for the pass button: reach 5000 (which starts the final round or,
 * by option, wins), or in the final round, where reaching 5000 decides nothing, take or tie the lead.
 */
function passOutcome(g: BigRollState, player: PlayerIndex, after: number): string {
  if (g.finalRound === null) return after >= BIG_ROLL_TARGET ? `: reaches ${BIG_ROLL_TARGET}` : '';
  const best = Math.max(...g.scores.filter((_, p) => p !== player));
  return after > best ? ': takes the lead' : after === best ? ': ties the lead' : '';
}

function view(g: BigRollState): PlayView {
  const player = g.current;
  const before = g.scores[player] ?? 0;
  const block = g.winners === null ? bankBlock(g.turn, isOnSlate(g, player), g.rules.entryScore) : null;
  const forfeit = skipsNextTurn(g);
  const after = before + g.turn.total;
  const reaches = passOutcome(g, player, after);
  const preview = `${before} → ${after}${reaches}${forfeit ? ', skip your next turn' : ''}`;
  const next = nextStepText(g.turn, block, forfeit ? 'pass (skip your next turn)' : 'pass', ` (${before} → ${after}${reaches})`);
  return {
    phase: familyPhase(g),
    current: g.winners === null ? player : null,
    headline: playHeadline(g, g.rules.entryScore, next),
    slate: {
      scoreLabel: 'Points',
      columns: FAMILY_COLUMNS,
      rows: g.players.map((_, p) => {
        const fr = g.finalRound;
        const note = g.winners?.includes(p)
          ? g.winBy === 'five-ones'
            ? 'winner: five 1s'
            : 'winner'
          : fr && fr.reachedBy === p
            ? `reached ${BIG_ROLL_TARGET}`
            : fr && g.winners === null && !fr.toPlay.includes(p)
              ? g.lastTurnForfeited[p]
                ? 'last turn forfeited'
                : 'last turn played'
              : g.skipNext[p] && g.winners === null
                ? 'skips next turn'
                : null;
        return familySlateRow(g, p, g.rules.entryScore, note, g.skipNext[p] === true);
      }),
    },
    dice: g.turn.lastRoll?.dice ?? [],
    details: {
      ...turnDetails(g, block),
      target: BIG_ROLL_TARGET,
      entryScore: g.rules.entryScore,
      passForfeitsNextTurn: g.winners === null && forfeit,
      skipNext: g.skipNext,
    },
    legal: g.winners === null ? familyLegal(g, block, `Pass with ${g.turn.total} (${preview})`) : [],
  };
}

// ---------------------------------------------------------------------------------------------
// The definition

export const bigRoll5000: GameDefinition<BigRollState> = {
  id: 'big-roll-5000',
  name: '5000 (Big Roll)',
  summary:
    'Roll five dice: 1 = 100, 5 = 50, three 1s 1000, three of a kind 100 × the face, four of a kind doubles the three and five ' +
    'doubles the four; 1-2-3-4-5 with all five dice is the Big Roll, 500; five 1s win the game. Scoring dice are set aside; roll ' +
    'the rest or pass to keep the points, but a roll that scores nothing loses the turn and a turn may not end on 50. Begin ' +
    'scoring with 500 in one turn. When all five dice have scored, roll all five again or pass and skip your next turn. ' +
    'Once someone reaches 5000, everyone else gets one more turn; the highest total wins.',
  kit: STANDARD_KIT.id,
  diceCount: DICE,
  players: { min: 2, max: 20 },
  options: [
    {
      key: 'entryScore',
      kind: 'number',
      label: 'Points to begin scoring',
      description: 'Points a player must make in one turn before any score counts (the sheet: 500).',
      default: 500,
      min: 100,
      max: 2000,
      integer: true,
    },
    {
      key: 'fiveOnes',
      kind: 'choice',
      label: 'Five 1s',
      description: 'The sheet: five ones in one roll win the game. Or: they score 5000 points in the turn and play goes on.',
      default: 'win',
      choices: [
        { value: 'win', label: 'Win the game at once (the sheet)' },
        { value: 'points', label: 'Score 5000 in the turn' },
      ],
    },
    {
      key: 'hotDicePass',
      kind: 'choice',
      label: 'Passing after all five dice scored',
      description:
        'The sheet: when every die has scored, roll all five again or pass — and passing forfeits your next turn. ' +
        'House rule: passing then costs nothing.',
      default: 'forfeit',
      choices: [
        { value: 'forfeit', label: 'Forfeits your next turn (the sheet)' },
        { value: 'free', label: 'Costs nothing' },
      ],
    },
    {
      key: 'winRule',
      kind: 'choice',
      label: 'Winning',
      description:
        'The sheet: when a player reaches 5000, each other player gets one more turn; the most points win. ' +
        'Or: the first to reach 5000 wins at once.',
      default: 'final-round',
      choices: [
        { value: 'final-round', label: 'Final round, highest total wins (the sheet)' },
        { value: 'first-to-5000', label: 'First to reach 5000 wins at once' },
      ],
    },
    {
      key: 'setAside',
      kind: 'choice',
      label: 'Scoring dice',
      description:
        'The sheet: every scoring die is included and the remaining dice may be rolled again. ' +
        'House rule: after a roll, keep at least one scoring die and roll the others again.',
      default: 'all-scoring',
      choices: [
        { value: 'all-scoring', label: 'Every scoring die is set aside (the sheet)' },
        { value: 'choose', label: 'Choose which scoring dice to keep (house rule)' },
      ],
    },
  ],
  start: { rollOffDice: 1, defaultRule: 'roll-off' },
  defaultAnte: 0,
  phases: FAMILY_PHASES,
  setup: ({ players, options, starter }) => ({
    players: [...players],
    rules: {
      entryScore: numberOption(options, 'entryScore'),
      fiveOnes: choiceOption<'win' | 'points'>(options, 'fiveOnes'),
      hotDicePass: choiceOption<'forfeit' | 'free'>(options, 'hotDicePass'),
      winRule: choiceOption<'final-round' | 'first-to-5000'>(options, 'winRule'),
      setAside: choiceOption<SetAsideRule>(options, 'setAside'),
    },
    scores: players.map(() => 0),
    skipNext: players.map(() => false),
    lastTurnForfeited: players.map(() => false),
    last: players.map(() => ''),
    current: starter,
    turn: newTurn(),
    finalRound: null,
    winners: null,
    winBy: null,
    event: '',
  }),
  apply(g, action: Action) {
    if (g.winners !== null) throw new RuleError('game-over', 'The game is over.');
    switch (action.type) {
      case 'roll':
        return applyRoll(g, rolledDice(action));
      case 'keep': {
        const turn = turnAfterKeep(g.turn, action, scoreBigRollRoll, g.rules.setAside);
        return { ...g, turn, event: turn.lastRoll ? scoringRollEvent(nameOf(g, g.current), turn.lastRoll) : g.event };
      }
      case 'bank':
        return applyBank(g);
      default:
        throw new RuleError('unknown-action', `${bigRoll5000.name} has no "${action.type}" action: roll the dice or pass ("bank").`);
    }
  },
  expectRoll: expectedRoll,
  view: (g) => view(g),
  winners: (g) => g.winners,
};
