/**
 * 5000 with 1500-point straights, bumping and the 5000 overflow gift (`five-thousand`), from
 * the sheet in ../shared/rules/five-thousand.md. Five standard dice; every scoring die is set
 * aside and only the dice that score nothing are rolled again; a roll that scores nothing loses
 * the turn's points; a turn may not stop on a total ending in 50; 500 in one turn to get on the
 * slate; landing on another player's exact score bumps them to zero; points that would take a
 * player past 5000 go to the lowest player on the slate; the first to reach 5000 wins.
 * Rules as implemented and every choice made where the sheet is silent: docs/rules/five-thousand.md.
 * The turn mechanics shared with big-roll-5000 are in ./five-thousand-family.ts.
 */
import { STANDARD_KIT } from '../../dice/index.ts';
import { RuleError } from '../errors.ts';
import { booleanOption, choiceOption, numberOption } from '../options.ts';
import type { Action, GameDefinition, PlayerIndex, PlayView } from '../types.ts';
import { NAMED_AT_MOST } from '../dice.ts';
import {
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
  namesText,
  newTurn,
  nextStepText,
  passTurn,
  playersText,
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

/** The score to reach; points that would pass it are given away (or lost). */
const FIVE_THOUSAND_TARGET = 5000;

export type FiveThousandRules = {
  /** Three 1s: 1100 on the sheet; 1000 as most 5000 tables play it. */
  threeOnes: number;
  /** Points needed in one turn to get on the slate (the sheet: 500). */
  entryScore: number;
  /** Points that would pass 5000: `gift` to the lowest player on the slate (the sheet), or `lost`. */
  overflow: 'gift' | 'lost';
  /** A gift that lands its receiver on another player's exact score bumps that player. */
  giftBumps: boolean;
  /** `first-to-5000`: reaching 5000 wins at once; `final-round`: everyone else gets one more turn. */
  winRule: 'first-to-5000' | 'final-round';
  setAside: SetAsideRule;
};

export type FiveThousandState = FamilyState & {
  rules: FiveThousandRules;
  /** Bumped to zero and not yet back on the slate. */
  bumped: boolean[];
};

// ---------------------------------------------------------------------------------------------
// Scoring table

/**
 * What one roll is worth. 1 = 100, 5 = 50 (2, 3, 4, 6 alone or by two: 0); three of a kind
 * 100 × the face, three 1s 1100 (`threeOnes`); four of a kind twice the three, five of a kind
 * four times the three; 1-2-3-4-5 and 2-3-4-5-6 with all five dice: 1500. Combinations count
 * only within one roll.
 */
export function scoreFiveThousandRoll(dice: readonly number[], threeOnes = 1100): RollScore {
  if (dice.length === DICE && (isRun(dice, [1, 2, 3, 4, 5]) || isRun(dice, [2, 3, 4, 5, 6]))) {
    const run = sortNumbers(dice);
    return rollScoreOf([{ dice: run, points: 1500, label: `straight ${run[0]}–${run[4]}` }]);
  }
  const counts = faceCounts(dice);
  const parts: ScorePart[] = [];
  for (let face = 1; face <= 6; face++) {
    const n = counts[face] ?? 0;
    const group = Array.from({ length: n }, () => face);
    if (n >= 3) {
      const three = face === 1 ? threeOnes : face * 100;
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

function scoreRoll(g: FiveThousandState): (dice: readonly number[]) => RollScore {
  return (dice) => scoreFiveThousandRoll(dice, g.rules.threeOnes);
}

// ---------------------------------------------------------------------------------------------
// Banking: bumps, the overflow gift, reaching 5000

/**
 * The players other than `giver` on the slate with its lowest score, in seating order from the
 * giver's left (empty when no one else is on the slate). The one seat walk for the gift: its
 * receiver is the first of them, and the headline names them all when they are several.
 */
export function lowestOnSlate(g: FiveThousandState, giver: PlayerIndex): PlayerIndex[] {
  const n = g.players.length;
  const others = Array.from({ length: n - 1 }, (_, i) => (giver + 1 + i) % n).filter((p) => isOnSlate(g, p));
  const lowest = Math.min(...others.map((p) => g.scores[p] ?? 0));
  return others.filter((p) => (g.scores[p] ?? 0) === lowest);
}

/** Who receives points that would take `giver` past 5000: the lowest player on the slate. */
export function giftRecipient(g: FiveThousandState, giver: PlayerIndex): PlayerIndex | null {
  return lowestOnSlate(g, giver)[0] ?? null;
}

/** What banking the turn total does now: the new scores and the story for the table. */
type BankResult = {
  scores: number[];
  bumped: boolean[];
  last: string[];
  event: string;
  /** Who now has exactly 5000 (the banker or a gift's receiver), if anyone. */
  reached: PlayerIndex | null;
  /** What banking does, for the bank button: "1100 → 1700", "over 5000: goes to Cy". */
  preview: string;
};

function settleBank(g: FiveThousandState): BankResult {
  const banker = g.current;
  const name = nameOf(g, banker);
  const points = g.turn.total;
  const before = g.scores[banker] ?? 0;
  const scores = [...g.scores];
  const bumped = [...g.bumped];
  const last = [...g.last];
  const target = FIVE_THOUSAND_TARGET;

  /** Landing on another player's exact score bumps them to zero: the story, and who. */
  const bumpOthersAt = (landed: PlayerIndex): { story: string; who: string } => {
    const value = scores[landed] ?? 0;
    const victims = scores.flatMap((s, p) => (p !== landed && s === value && value > 0 ? [p] : []));
    for (const p of victims) {
      scores[p] = 0;
      bumped[p] = true;
      last[p] = 'bumped to 0';
    }
    if (victims.length === 0) return { story: '', who: '' };
    const rule = `bumped to 0 and must score ${g.rules.entryScore} in one turn to get back on the slate.`;
    // past three they are counted, as the headline's other lists of players are (`playersText`):
    // the slate's rows say who each is ("bumped: needs 500 to get back on")
    if (victims.length > NAMED_AT_MOST) {
      const who = playersText(g, victims);
      return { story: ` ${nameOf(g, landed)} lands on ${value}, the score of ${who}: all ${victims.length} are ${rule}`, who };
    }
    const who = namesText(g, victims);
    return { story: ` ${nameOf(g, landed)} lands on ${who}'s ${value}: ${who} ${victims.length === 1 ? 'is' : 'are'} ${rule}`, who };
  };

  if (before + points <= target) {
    const after = before + points;
    scores[banker] = after;
    bumped[banker] = false;
    last[banker] = `+${points}`;
    const bump = bumpOthersAt(banker);
    const entered = before === 0 ? ', on the slate' : '';
    const outcome = after === target ? `: reaches ${target}` : bump.who ? `, bumps ${bump.who} to 0` : '';
    return {
      scores,
      bumped,
      last,
      event: `${name} banks ${points}: ${before} → ${after}${entered}.${bump.story}`,
      reached: after === target ? banker : null,
      preview: `${before} → ${after}${outcome}`,
    };
  }

  const over = `${name}'s ${points} would pass ${target} (${before} + ${points})`;
  last[banker] = `over ${target}: ${points} lost`;
  const lost = (why: string): BankResult => ({
    scores,
    bumped,
    last,
    event: `${over}${why}: the points are lost.`,
    reached: null,
    preview: `over ${target}: lost`,
  });
  if (g.rules.overflow === 'lost') return lost('');
  // giftRecipient's walk, kept whole: the headline names the tied players when there are several.
  const lowest = lowestOnSlate(g, banker);
  const [receiver] = lowest;
  if (receiver === undefined) return lost(', and no other player is on the slate to receive them');
  const receiverName = nameOf(g, receiver);
  const had = scores[receiver] ?? 0;
  if (had + points > target) return lost(`; they would take ${receiverName} (${had}) past ${target} too`);
  scores[receiver] = had + points;
  last[receiver] = `gift +${points}`;
  last[banker] = `over ${target}: gave ${points}`;
  // Several players can share the lowest score (with giftBumps off): say why this one receives.
  const why =
    lowest.length > 1
      ? `, ${had} → ${had + points} (${playersText(g, lowest)} share the lowest score on the slate; ${receiverName} sits first to ${name}'s left)`
      : `, the lowest on the slate, ${had} → ${had + points}`;
  const bump = g.rules.giftBumps ? bumpOthersAt(receiver) : { story: '', who: '' };
  return {
    scores,
    bumped,
    last,
    event: `${over}: they go to ${receiverName}${why}.${bump.story}`,
    reached: had + points === target ? receiver : null,
    preview: `over ${target}: goes to ${receiverName}${had + points === target ? `, who reaches ${target}` : ''}${bump.who ? `, bumps ${bump.who} to 0` : ''}`,
  };
}

function applyBank(g: FiveThousandState): FiveThousandState {
  requireNoBankBlock(bankBlock(g.turn, isOnSlate(g, g.current), g.rules.entryScore));
  const result = settleBank(g);
  const settled: FiveThousandState = {
    ...g,
    scores: result.scores,
    bumped: result.bumped,
    last: result.last,
    finalRound: finalRoundAfterTurn(g.finalRound, g.current),
  };
  const reached = result.reached;
  if (reached !== null && g.rules.winRule === 'first-to-5000') {
    return {
      ...settled,
      turn: newTurn(),
      winners: [reached],
      event: `${result.event} ${nameOf(g, reached)} reaches ${FIVE_THOUSAND_TARGET} and wins!`,
    };
  }
  let event = result.event;
  if (reached !== null && settled.finalRound === null) {
    settled.finalRound = startFinalRound(g.players.length, reached);
    const others = settled.finalRound.toPlay;
    event += ` ${nameOf(g, reached)} reaches ${FIVE_THOUSAND_TARGET}: ${finalRoundText(g, others)}`;
  }
  return passTurn(settled, event).state;
}

function applyRoll(g: FiveThousandState, dice: number[]): FiveThousandState {
  const name = nameOf(g, g.current);
  const score = scoreFiveThousandRoll(dice, g.rules.threeOnes);
  if (score.points === 0) {
    const last = g.last.map((l, p) => (p === g.current ? 'bust' : l));
    const ended = { ...g, last, finalRound: finalRoundAfterTurn(g.finalRound, g.current) };
    return passTurn(ended, bustEvent(name, dice, g.turn.total)).state;
  }
  const turn = turnAfterScoringRoll(g.turn, dice, score, g.rules.setAside);
  return { ...g, turn, event: turn.lastRoll ? scoringRollEvent(name, turn.lastRoll) : g.event };
}

// ---------------------------------------------------------------------------------------------
// The table's view

function view(g: FiveThousandState): PlayView {
  const onSlate = isOnSlate(g, g.current);
  const block = g.winners === null ? bankBlock(g.turn, onSlate, g.rules.entryScore) : null;
  const preview = g.winners === null && block === null ? settleBank(g).preview : '';
  const next = nextStepText(g.turn, block, 'bank', preview ? ` (${preview})` : '');
  return {
    phase: familyPhase(g),
    current: g.winners === null ? g.current : null,
    headline: playHeadline(g, g.rules.entryScore, next),
    slate: {
      scoreLabel: 'Points',
      columns: FAMILY_COLUMNS,
      rows: g.players.map((_, p) => {
        const fr = g.finalRound;
        const note =
          g.winners?.includes(p)
            ? 'winner'
            : g.bumped[p]
              ? `bumped: needs ${g.rules.entryScore} to get back on`
              : fr && fr.reachedBy === p
                ? `reached ${FIVE_THOUSAND_TARGET}`
                : fr && g.winners === null && !fr.toPlay.includes(p)
                  ? 'last turn played'
                  : null;
        return familySlateRow(g, p, g.rules.entryScore, note, g.bumped[p] === true);
      }),
    },
    dice: g.turn.lastRoll?.dice ?? [],
    details: {
      ...turnDetails(g, block),
      target: FIVE_THOUSAND_TARGET,
      entryScore: g.rules.entryScore,
      bankPreview: preview || null,
    },
    legal: g.winners === null ? familyLegal(g, block, `Bank ${g.turn.total}${preview ? ` (${preview})` : ''}`) : [],
  };
}

// ---------------------------------------------------------------------------------------------
// The definition

export const fiveThousand: GameDefinition<FiveThousandState> = {
  id: 'five-thousand',
  name: '5000 (bumps and gifts)',
  summary:
    'Roll five dice: 1 = 100, 5 = 50, three of a kind 100 × the face (three 1s 1100), four and five of a kind ×2 and ×4, ' +
    'a five-dice straight 1500. Scoring dice are set aside; roll the rest or bank, but a roll that scores nothing loses the turn, ' +
    'and a turn may not stop on 50. Get on the slate with 500 in one turn. Landing on another player’s score bumps them to zero; ' +
    'points that would pass 5000 go to the lowest player on the slate. The first to reach 5000 wins.',
  kit: STANDARD_KIT.id,
  diceCount: DICE,
  players: { min: 2, max: 20 },
  options: [
    {
      key: 'threeOnes',
      kind: 'choice',
      label: 'Three 1s',
      description: 'The sheet: three aces are worth 1100. Many tables play 1000.',
      default: '1100',
      choices: [
        { value: '1100', label: '1100 (the sheet)' },
        { value: '1000', label: '1000' },
      ],
    },
    {
      key: 'entryScore',
      kind: 'number',
      label: 'Points to get on the slate',
      description: 'Points a player must make in one turn before any score counts (the sheet: 500); also after a bump.',
      default: 500,
      min: 100,
      max: 2000,
      integer: true,
    },
    {
      key: 'overflow',
      kind: 'choice',
      label: 'Points that would pass 5000',
      description:
        'The sheet: a player whose total would go over 5000 gives the turn’s points to the lowest player who is on the slate. ' +
        'Or: the points are simply lost.',
      default: 'gift',
      choices: [
        { value: 'gift', label: 'Given to the lowest player on the slate (the sheet)' },
        { value: 'lost', label: 'Lost' },
      ],
    },
    {
      key: 'giftBumps',
      kind: 'boolean',
      label: 'A gift can bump',
      description:
        'When the given points land their receiver on another player’s exact score, that player is bumped to zero, ' +
        'as for any new score (the sheet does not say; on by default).',
      default: true,
    },
    {
      key: 'winRule',
      kind: 'choice',
      label: 'Winning',
      description:
        'The sheet never says how the game ends. Default: the first player to reach exactly 5000 wins at once ' +
        '(no one can pass 5000). Or: everyone else gets one more turn, and the highest score wins.',
      default: 'first-to-5000',
      choices: [
        { value: 'first-to-5000', label: 'First to reach 5000 wins at once' },
        { value: 'final-round', label: 'Reaching 5000 starts a final round; highest wins' },
      ],
    },
    {
      key: 'setAside',
      kind: 'choice',
      label: 'Scoring dice',
      description:
        'The sheet: every scoring die is set aside and only the dice that score nothing are rolled again. ' +
        'House rule: after a roll, keep at least one scoring die and roll the others again.',
      default: 'all-scoring',
      choices: [
        { value: 'all-scoring', label: 'Every scoring die is set aside (the sheet)' },
        { value: 'choose', label: 'Choose which scoring dice to keep (house rule)' },
      ],
    },
  ],
  start: { rollOffDice: 1, defaultRule: 'first-listed' },
  defaultAnte: 0,
  phases: FAMILY_PHASES,
  setup: ({ players, options, starter }) => ({
    players: [...players],
    rules: {
      threeOnes: Number(choiceOption(options, 'threeOnes')),
      entryScore: numberOption(options, 'entryScore'),
      overflow: choiceOption<'gift' | 'lost'>(options, 'overflow'),
      giftBumps: booleanOption(options, 'giftBumps'),
      winRule: choiceOption<'first-to-5000' | 'final-round'>(options, 'winRule'),
      setAside: choiceOption<SetAsideRule>(options, 'setAside'),
    },
    scores: players.map(() => 0),
    bumped: players.map(() => false),
    last: players.map(() => ''),
    current: starter,
    turn: newTurn(),
    finalRound: null,
    winners: null,
    event: '',
  }),
  apply(g, action: Action) {
    if (g.winners !== null) throw new RuleError('game-over', 'The game is over.');
    switch (action.type) {
      case 'roll':
        return applyRoll(g, rolledDice(action));
      case 'keep': {
        const turn = turnAfterKeep(g.turn, action, scoreRoll(g), g.rules.setAside);
        return { ...g, turn, event: turn.lastRoll ? scoringRollEvent(nameOf(g, g.current), turn.lastRoll) : g.event };
      }
      case 'bank':
        return applyBank(g);
      default:
        throw new RuleError('unknown-action', `${fiveThousand.name} has no "${action.type}" action: roll the dice or bank.`);
    }
  },
  expectRoll: expectedRoll,
  view: (g) => view(g),
  winners: (g) => g.winners,
};
