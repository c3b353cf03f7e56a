/**
 * The mechanics the two 5000 games share (`five-thousand`, `big-roll-5000`): a turn of five
 * standard dice where every scoring die is set aside, the rest may be rolled again, a roll that
 * scores nothing loses the turn, all five dice scored lets the player roll all five again, a
 * turn may not stop on a total ending in 50, a player gets on the slate only with a minimum in
 * one turn, and the final round. Each game's scoring table and its own rules (bumps and the
 * overflow gift; the forfeit, five 1s and the Big Roll) live in the game's module.
 */
import { STANDARD_KIT } from '../../dice/index.ts';
import { andList, checkDiceTokens, containsAll, formatDice, NAMED_AT_MOST, namesOrCount, plural, removeAll } from '../dice.ts';
import { RuleError } from '../errors.ts';
import type { Action, ExpectedRoll, Json, LegalMove, PlayerIndex, SlateRow } from '../types.ts';

/** Dice in the set. */
export const DICE = 5;

// ---------------------------------------------------------------------------------------------
// Scoring helpers (the tables themselves are in each game's module)

/** One scoring group of a roll: "three 4s" 400, "a 1" 100, "straight 1–5" 1500. */
export type ScorePart = { dice: number[]; points: number; label: string };

/** What one roll is worth: its points, the dice that score, and the groups that make it. */
export type RollScore = { points: number; scoring: number[]; parts: ScorePart[] };

/** A game's scoring table: the worth of one roll, combinations counted only within it. */
export type ScoreRoll = (dice: readonly number[]) => RollScore;

export function sortNumbers(dice: readonly number[]): number[] {
  return [...dice].sort((a, b) => a - b);
}

/** How many of each face (index 1–6; index 0 unused). */
export function faceCounts(dice: readonly number[]): number[] {
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const d of dice) counts[d] = (counts[d] ?? 0) + 1;
  return counts;
}

/** True when the roll is exactly these five faces (in any order). */
export function isRun(dice: readonly number[], run: readonly number[]): boolean {
  const sorted = sortNumbers(dice);
  return sorted.length === run.length && sorted.every((d, i) => d === run[i]);
}

const COUNT_WORDS = ['', 'a', 'two', 'three', 'four', 'five'];

/** "three 4s", "a 1", "two 5s". */
export function groupLabel(count: number, face: number): string {
  return count === 1 ? `a ${face}` : `${COUNT_WORDS[count] ?? count} ${face}s`;
}

/** Total of the parts, and the dice they use, as a RollScore. */
export function rollScoreOf(parts: ScorePart[]): RollScore {
  return {
    points: parts.reduce((sum, p) => sum + p.points, 0),
    scoring: sortNumbers(parts.flatMap((p) => p.dice)),
    parts,
  };
}

/** "1 1 4 5 6": dice as the table reads them, lowest first. */
function diceText(dice: readonly number[]): string {
  return formatDice(sortNumbers(dice));
}

// ---------------------------------------------------------------------------------------------
// State shared by both games

/** The last roll of the turn and what was set aside from it. */
export type LastRoll = {
  /** The dice thrown, lowest first. */
  dice: number[];
  /** What the roll is worth with every scoring die counted. */
  points: number;
  /** The dice of the roll that score. */
  scoring: number[];
  parts: ScorePart[];
  /** The scoring dice set aside from this roll: all of them unless the player kept fewer. */
  kept: number[];
  /** What the kept dice score. */
  keptPoints: number;
};

export type TurnState = {
  /** Points this turn so far: what the dice set aside score. */
  total: number;
  /** Dice set aside this turn, lowest first; five means every die has scored. */
  setAside: number[];
  /** The last roll of this turn (null before the first). */
  lastRoll: LastRoll | null;
  /** Option `setAside: "choose"`: the player may still keep fewer of the last roll's scoring dice. */
  keepOpen: boolean;
  /** Rolls made this turn. */
  rolls: number;
};

/** Everyone else gets one more turn once a player reaches the target. */
export type FinalRound = {
  /** Who reached the target first (and does not roll again). */
  reachedBy: PlayerIndex;
  /** Players still to take their last turn. */
  toPlay: PlayerIndex[];
};

/** The fields both games' states have. */
export type FamilyState = {
  players: string[];
  scores: number[];
  /** The last change to each player's score, as the slate shows it ("+600", "bust"). */
  last: string[];
  current: PlayerIndex;
  turn: TurnState;
  finalRound: FinalRound | null;
  winners: PlayerIndex[] | null;
  /** What happened last, for the headline. */
  event: string;
};

/** How the scoring dice of a roll are set aside: the sheets' way, or the house rule. */
export type SetAsideRule = 'all-scoring' | 'choose';

export function newTurn(): TurnState {
  return { total: 0, setAside: [], lastRoll: null, keepOpen: false, rolls: 0 };
}

/** A player is on the slate once a turn met the entry minimum (scores only grow, or drop to 0). */
export function isOnSlate(g: FamilyState, player: PlayerIndex): boolean {
  return (g.scores[player] ?? 0) > 0;
}

/** True when every one of the five dice has scored this turn (the player may roll all five again). */
export function allDiceScored(turn: TurnState): boolean {
  return turn.lastRoll !== null && turn.setAside.length >= DICE;
}

/** How many dice the next roll throws: the ones not set aside, or all five once all have scored. */
function diceToRoll(turn: TurnState): number {
  return allDiceScored(turn) ? DICE : DICE - turn.setAside.length;
}

/** The dice that stay on the table during the next roll. */
function diceKept(turn: TurnState): number[] {
  return allDiceScored(turn) ? [] : turn.setAside;
}

/** The turn after a roll that scores: its scoring dice are set aside, its points added. */
export function turnAfterScoringRoll(turn: TurnState, dice: readonly number[], score: RollScore, rule: SetAsideRule): TurnState {
  return {
    total: turn.total + score.points,
    setAside: sortNumbers([...diceKept(turn), ...score.scoring]),
    lastRoll: {
      dice: sortNumbers(dice),
      points: score.points,
      scoring: score.scoring,
      parts: score.parts,
      kept: score.scoring,
      keptPoints: score.points,
    },
    keepOpen: rule === 'choose',
    rolls: turn.rolls + 1,
  };
}

/**
 * Option `setAside: "choose"` (a house rule; both sheets set every scoring die aside): right
 * after a roll the player may set aside only some of its scoring dice, and roll the others
 * again. Every die kept must score among the dice kept ("three 2s", "a 1"…).
 */
export function turnAfterKeep(turn: TurnState, action: Action, scoreRoll: ScoreRoll, rule: SetAsideRule): TurnState {
  if (rule !== 'choose') {
    throw new RuleError(
      'keep-not-allowed',
      'Every scoring die is set aside by itself in this game (the house rule "choose which scoring dice to keep" is off).',
    );
  }
  const roll = turn.lastRoll;
  if (roll === null || !turn.keepOpen) {
    throw new RuleError('keep-too-late', 'Choose the dice to keep right after a roll, before rolling again or banking.');
  }
  const chosen = checkDiceTokens(STANDARD_KIT.id, action.dice) as number[];
  if (chosen.length === 0) throw new RuleError('keep-none', 'Keep at least one scoring die.');
  if (!containsAll(roll.dice, chosen)) {
    throw new RuleError('keep-not-rolled', `Keep only dice of the last roll (${diceText(roll.dice)}); ${diceText(chosen)} is not among them.`);
  }
  const score = scoreRoll(chosen);
  if (score.points === 0 || score.scoring.length !== chosen.length) {
    const dead = removeAll(chosen, score.scoring) as number[];
    throw new RuleError('keep-scoring-only', `Keep only dice that score: ${diceText(dead)} ${dead.length === 1 ? 'scores' : 'score'} nothing among the dice kept.`);
  }
  const before = removeAll(turn.setAside, roll.kept) as number[];
  return {
    ...turn,
    total: turn.total - roll.keptPoints + score.points,
    setAside: sortNumbers([...before, ...chosen]),
    lastRoll: { ...roll, kept: sortNumbers(chosen), keptPoints: score.points },
    keepOpen: false,
  };
}

/** Why the player may not end the turn keeping its points now, or null when they may. */
export type BankBlock = { code: string; message: string; reason: string };

/**
 * The two sheets' limits on stopping: not before a roll has scored, not below the entry
 * minimum while off the slate, and never on a total ending in 50 (every score is a multiple of
 * 50, so "ends in 50" is "not a multiple of 100"; once on the slate the smallest total that
 * may be kept is therefore 100, the five-thousand sheet's "at least 100").
 */
export function bankBlock(turn: TurnState, onSlate: boolean, entryScore: number): BankBlock | null {
  if (turn.lastRoll === null) {
    return { code: 'nothing-to-bank', message: 'Roll first: there is nothing to bank yet.', reason: 'nothing rolled yet' };
  }
  if (!onSlate && turn.total < entryScore) {
    return {
      code: 'not-on-slate',
      message: `You need ${entryScore} in one turn to get on the slate (${turn.total} so far): roll again.`,
      reason: `must reach ${entryScore} to enter`,
    };
  }
  if (turn.total % 100 !== 0) {
    return { code: 'ends-in-50', message: 'Your turn total ends in 50: roll again.', reason: 'ends in 50' };
  }
  return null;
}

export function requireNoBankBlock(block: BankBlock | null): void {
  if (block) throw new RuleError(block.code, block.message);
}

// ---------------------------------------------------------------------------------------------
// Turn order and the final round

/** Starts the final round: every other player, in seating order, gets one more turn. */
export function startFinalRound(playerCount: number, reachedBy: PlayerIndex): FinalRound {
  return { reachedBy, toPlay: Array.from({ length: playerCount }, (_, i) => i).filter((p) => p !== reachedBy) };
}

export type Advance = {
  /** Who plays next (meaningless when `over`). */
  current: PlayerIndex;
  skipNext: boolean[];
  finalRound: FinalRound | null;
  /** Players whose forfeited turn was skipped on the way, in order. */
  skipped: PlayerIndex[];
  /** The final round is complete: the game ends. */
  over: boolean;
};

/**
 * The next player after `from`, in seating order: a player whose next turn is forfeit is
 * skipped (and the forfeit is spent); during the final round only players in `toPlay` play,
 * and a skipped forfeit counts as that player's last turn. `finalRound.toPlay` must no longer
 * hold the player whose turn just ended.
 */
export function advanceTurn(from: PlayerIndex, skipNext: readonly boolean[], finalRound: FinalRound | null): Advance {
  const n = skipNext.length;
  const skip = [...skipNext];
  const skipped: PlayerIndex[] = [];
  let toPlay = finalRound ? [...finalRound.toPlay] : null;
  let p = from;
  // Each step either finds the player or spends a forfeit / passes a player done with the final round.
  for (let step = 0; step <= 2 * n + 1; step++) {
    if (toPlay && toPlay.length === 0) {
      return { current: from, skipNext: skip, finalRound: finalRound && { ...finalRound, toPlay }, skipped, over: true };
    }
    p = (p + 1) % n;
    if (toPlay && !toPlay.includes(p)) continue;
    if (skip[p]) {
      skip[p] = false;
      skipped.push(p);
      if (toPlay) toPlay = toPlay.filter((q) => q !== p);
      continue;
    }
    return { current: p, skipNext: skip, finalRound: finalRound && toPlay ? { ...finalRound, toPlay } : null, skipped, over: false };
  }
  throw new Error('advanceTurn: no player can play');
}

/** The final round after the turn of `current` ended: that player has had their last turn. */
export function finalRoundAfterTurn(finalRound: FinalRound | null, current: PlayerIndex): FinalRound | null {
  return finalRound && { ...finalRound, toPlay: finalRound.toPlay.filter((p) => p !== current) };
}

/** Highest score(s): the winners when the game ends on the final round. */
function highestScorers(scores: readonly number[]): PlayerIndex[] {
  const high = Math.max(...scores);
  return scores.flatMap((s, i) => (s === high ? [i] : []));
}

// ---------------------------------------------------------------------------------------------
// What the table shows

export function nameOf(g: FamilyState, player: PlayerIndex): string {
  return g.players[player] ?? '?';
}

/** "Ann and Bob", "Ann, Bob and Cy". */
export function namesText(g: FamilyState, players: readonly PlayerIndex[]): string {
  return andList(players.map((p) => nameOf(g, p)));
}

/** "Bob and Cy", or "5 players" at a big table (`namesOrCount`): players a headline is about. */
export function playersText(g: FamilyState, players: readonly PlayerIndex[]): string {
  return namesOrCount(players.map((p) => nameOf(g, p)));
}

/**
 * "final round, Bob and Cy each get one more turn." At a big table the others are counted, not
 * listed ("the other 19 players"): everyone else is who it is.
 */
export function finalRoundText(g: FamilyState, others: readonly PlayerIndex[]): string {
  const who = others.length > NAMED_AT_MOST ? `the other ${others.length} players` : namesText(g, others);
  return `final round, ${who} ${others.length === 1 ? 'gets' : 'each get'} one more turn.`;
}

/** "Ann rolled 1 1 4 5 6 = 250 (1 1 5 set aside)." */
export function scoringRollEvent(name: string, roll: LastRoll): string {
  const only = roll.parts.length === 1 ? roll.parts[0] : undefined;
  const named = only && only.dice.length === DICE ? `, ${only.label}` : '';
  const aside = roll.kept.length === roll.dice.length ? 'all set aside' : `${diceText(roll.kept)} set aside`;
  const kept = roll.keptPoints === roll.points ? '' : `; kept ${roll.keptPoints}`;
  return `${name} rolled ${diceText(roll.dice)} = ${roll.points}${named} (${aside}${kept}).`;
}

/** "Ann rolled 2 3 4 6 6: nothing scores — bust, 350 lost." */
export function bustEvent(name: string, dice: readonly number[], lost: number): string {
  return `${name} rolled ${diceText(dice)}: nothing scores — bust${lost > 0 ? `, ${lost} lost` : ''}.`;
}

/** "roll 2 dice", "roll all 5 again" (capitalized where it starts a sentence). */
function rollText(turn: TurnState): string {
  const n = diceToRoll(turn);
  return allDiceScored(turn) ? `roll all ${DICE} again` : `roll ${plural(n, 'die', 'dice')}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The prompt of the awaited roll: "Ann: roll 2 dice (1 1 5 set aside)." */
function rollPrompt(name: string, turn: TurnState): string {
  const kept = diceKept(turn);
  return `${name}: ${rollText(turn)}${kept.length > 0 ? ` (${diceText(kept)} set aside)` : ''}.`;
}

export function expectedRoll(g: FamilyState): ExpectedRoll | null {
  if (g.winners !== null) return null;
  return {
    kit: STANDARD_KIT.id,
    player: g.current,
    count: diceToRoll(g.turn),
    kept: diceKept(g.turn),
    prompt: rollPrompt(nameOf(g, g.current), g.turn),
  };
}

/**
 * What the player does next, after a scoring roll: "Roll 2 dice — turn total 250, must reach
 * 500 to enter", "Roll 2 dice or bank — turn total 600", "All five dice scored: roll all 5
 * again or pass (skip your next turn) — turn total 1100".
 */
export function nextStepText(turn: TurnState, block: BankBlock | null, bankText: string, bankNote: string): string {
  const hot = allDiceScored(turn) ? 'All five dice scored: ' : '';
  const roll = hot ? rollText(turn) : capitalize(rollText(turn));
  if (block) {
    const sep = block.code === 'ends-in-50' ? ' ' : ', ';
    return `${hot}${roll} — turn total ${turn.total}${sep}${block.reason}`;
  }
  return `${hot}${roll} or ${bankText} — turn total ${turn.total}${bankNote}`;
}

/** The legal moves mid-turn or at its start: roll, keep fewer (house rule), bank. */
export function familyLegal(g: FamilyState, block: BankBlock | null, bankLabel: string): LegalMove[] {
  const expect = expectedRoll(g);
  if (!expect) return [];
  const turn = g.turn;
  const legal: LegalMove[] = [{ kind: 'roll', expect, label: capitalize(rollText(turn)) }];
  const roll = turn.lastRoll;
  if (roll && turn.keepOpen && roll.scoring.length > 1) {
    legal.push({
      kind: 'choose-dice',
      actionType: 'keep',
      from: roll.scoring,
      min: 1,
      max: roll.scoring.length,
      label: 'Keep fewer scoring dice (roll the others again)',
    });
  }
  if (!block) legal.push({ kind: 'action', action: { type: 'bank' }, label: bankLabel });
  return legal;
}

/** The slate's "status" cell. */
export function statusText(g: FamilyState, player: PlayerIndex, entryScore: number): string {
  return isOnSlate(g, player) ? 'on the slate' : `needs ${entryScore}`;
}

/** Slate rows with the columns both games show; `note`/`marked` come from the game. */
export function familySlateRow(
  g: FamilyState,
  player: PlayerIndex,
  entryScore: number,
  note: string | null,
  marked: boolean,
): SlateRow {
  return {
    player,
    name: nameOf(g, player),
    score: g.scores[player] ?? 0,
    cells: {
      status: statusText(g, player, entryScore),
      turn: g.winners === null && player === g.current ? g.turn.total : 0,
      last: g.last[player] ?? '',
    },
    marked,
    note,
  };
}

export const FAMILY_COLUMNS = [
  { key: 'status', label: 'On the slate' },
  { key: 'turn', label: 'This turn' },
  { key: 'last', label: 'Last' },
];

/** The turn's details for the table, as plain JSON. */
export function turnDetails(g: FamilyState, block: BankBlock | null): Record<string, Json> {
  const roll = g.turn.lastRoll;
  return {
    turnTotal: g.turn.total,
    setAside: g.turn.setAside,
    toRoll: g.winners === null ? diceToRoll(g.turn) : 0,
    allDiceScored: allDiceScored(g.turn),
    lastRoll: roll && {
      dice: roll.dice,
      points: roll.points,
      scoring: roll.scoring,
      kept: roll.kept,
      keptPoints: roll.keptPoints,
      parts: roll.parts.map((p) => ({ dice: p.dice, points: p.points, label: p.label })),
    },
    canBank: g.winners === null && block === null,
    mustRoll: block && block.code !== 'nothing-to-bank' ? block.reason : null,
    finalRound: g.finalRound && { reachedBy: g.finalRound.reachedBy, toPlay: g.finalRound.toPlay },
    event: g.event,
  };
}

/** Reads a `roll` action's dice (already checked by the core against the standard kit and count). */
export function rolledDice(action: Action): number[] {
  return checkDiceTokens(STANDARD_KIT.id, action.dice) as number[];
}

/** "Bob's turn: roll 5 dice (needs 500 in one turn to get on the slate)." / "Bob's last turn: …". */
function turnStartText(g: FamilyState, entryScore: number): string {
  const name = nameOf(g, g.current);
  const notes: string[] = [];
  if (g.finalRound) {
    const leaders = highestScorers(g.scores);
    const high = g.scores[leaders[0] ?? 0] ?? 0;
    notes.push(`${playersText(g, leaders)} ${leaders.length === 1 ? 'leads' : 'lead'} with ${high}`);
  }
  if (!isOnSlate(g, g.current)) notes.push(`needs ${entryScore} in one turn to get on the slate`);
  const whose = g.finalRound ? `${name}'s last turn` : `${name}'s turn`;
  return `${whose}: roll ${DICE} dice${notes.length > 0 ? ` (${notes.join('; ')})` : ''}.`;
}

/**
 * "Game over: Ann wins with 5000." / "Game over: Ann and Bob tie for the win with 5200." /
 * "Game over: 5 players tie for the win with 5200." (the slate marks each winner).
 */
function gameOverText(g: FamilyState, winners: readonly PlayerIndex[]): string {
  const high = g.scores[winners[0] ?? 0] ?? 0;
  return winners.length === 1
    ? `Game over: ${namesText(g, winners)} wins with ${high}.`
    : `Game over: ${playersText(g, winners)} tie for the win with ${high}.`;
}

/** The headline during play: what just happened, then what is awaited. */
export function playHeadline(g: FamilyState, entryScore: number, next: string): string {
  if (g.winners !== null) return g.event;
  if (g.turn.lastRoll === null) return `${g.event ? `${g.event} ` : ''}${turnStartText(g, entryScore)}`;
  return `${g.event} ${next}`;
}

/** The game's phase for the view: `turn` (nothing rolled yet), `rolling`, `over`. */
export type FamilyPhase = 'turn' | 'rolling' | 'over';

/** The table's words for each phase, beside whose turn it is (null: the headline says it all). */
export const FAMILY_PHASES = {
  turn: 'first roll',
  rolling: 'rolling on',
  over: null,
} as const satisfies Record<FamilyPhase, string | null>;

export function familyPhase(g: FamilyState): FamilyPhase {
  if (g.winners !== null) return 'over';
  return g.turn.lastRoll === null ? 'turn' : 'rolling';
}

/**
 * Who skips a forfeited turn as the dice pass on from `g.current`: "Bob skips this turn", "Bob,
 * Cy and Dee skip this turn" — named up to `NAMED_AT_MOST`, like every list of players. More are
 * not listed: "Everyone else skips this turn" when every other player skips (the dice come back
 * to the player who passed, or the final round ends), "Everyone skips a turn" when the passer's
 * own forfeit is spent too, else counted ("4 players skip this turn"). The headline goes on
 * with whose turn it now is, so the next player is always named.
 */
function skippedText(g: FamilyState, skipped: readonly PlayerIndex[]): string {
  if (skipped.length <= NAMED_AT_MOST) return `${namesText(g, skipped)} ${skipped.length === 1 ? 'skips' : 'skip'} this turn`;
  const n = g.players.length;
  if (skipped.length === n) return 'Everyone skips a turn';
  if (skipped.length === n - 1 && !skipped.includes(g.current)) return 'Everyone else skips this turn';
  return `${skipped.length} players skip this turn`;
}

/**
 * Ends the turn of `g.current` (whose `finalRound` already counts this turn) and hands the dice
 * on, skipping forfeited turns; ends the game, highest score winning, once the final round is done.
 * `skipped`: the players whose forfeited turn was skipped on the way (see `advanceTurn`).
 */
export function passTurn<S extends FamilyState>(
  g: S,
  event: string,
  skipNext: readonly boolean[] = g.players.map(() => false),
  skipReason = '',
): { state: S; skipNext: boolean[]; skipped: PlayerIndex[] } {
  const adv = advanceTurn(g.current, skipNext, g.finalRound);
  const skipped = adv.skipped.length > 0 ? ` ${skippedText(g, adv.skipped)} (${skipReason}).` : '';
  if (adv.over) {
    const winners = highestScorers(g.scores);
    const state = { ...g, finalRound: adv.finalRound, turn: newTurn(), winners, event: `${event}${skipped} ${gameOverText(g, winners)}` };
    return { state, skipNext: adv.skipNext, skipped: adv.skipped };
  }
  const state = { ...g, current: adv.current, finalRound: adv.finalRound, turn: newTurn(), event: `${event}${skipped}` };
  return { state, skipNext: adv.skipNext, skipped: adv.skipped };
}
