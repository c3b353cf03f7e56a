/**
 * Star Wars Face Off (Wonder Forge, 2014), five dice of four heroes and two villains, 2–4
 * players, 250 points win. After the opening roll a player goes Hero (re-roll up to three dice
 * as often as wanted, bust when the re-rolled dice all come up villains, stop to take a hero
 * combo) or Villain (one secret re-roll of up to three dice, declare a villain combo — bluffing
 * allowed — and each other player in turn may challenge).
 *
 * Hidden information: a villain's secret re-roll is in the state (the log holds every die), but
 * `view(g, viewer)` shows it only to the villain until a challenge reveals it; the table's view
 * (`viewer` null) never contains it — not in dice, details, headline, slate or legal moves.
 * Rules as implemented and the choices made: docs/rules/face-off.md.
 */
import { describeDice as describeKitDice, FACE_OFF_KIT } from '../../dice/index.ts';
import { containsAll, countTokens, plural, removeAll, sameDice } from '../dice.ts';
import { RuleError } from '../errors.ts';
import { choiceOption, numberOption } from '../options.ts';
import type {
  Action,
  DieToken,
  ExpectedRoll,
  GameDefinition,
  Json,
  LegalMove,
  PlayerIndex,
  PlayView,
} from '../types.ts';

// ---------------------------------------------------------------------------------------------
// Faces and combos

/** Hero and villain face ids, from the kit's groups. */
const HEROES: readonly string[] = FACE_OFF_KIT.faces.filter((f) => f.group === 'hero').map((f) => f.id);
const VILLAINS: readonly string[] = FACE_OFF_KIT.faces.filter((f) => f.group === 'villain').map((f) => f.id);

/** Dice thrown at the start of a turn, and the most a player may re-roll at once. */
const DICE = 5;
const MAX_REROLL = 3;

export type HeroComboId = 'five-of-a-hero' | 'house-of-heroes' | 'four-of-a-hero' | 'team-of-heroes';
export type VillainComboId =
  | 'five-of-a-villain'
  | 'four-of-a-villain'
  | 'five-villain-mix'
  | 'four-villain-mix'
  | 'three-of-a-villain';

export interface Combo<Id extends string> {
  id: Id;
  name: string;
  points: number;
  /** The sheet's wording. */
  rule: string;
}

/** The Go Hero scoring combos, best first (the sheet's back page). */
const HERO_COMBOS: ReadonlyArray<Combo<HeroComboId>> = [
  { id: 'five-of-a-hero', name: '5 of Any Hero', points: 50, rule: 'five of the same hero' },
  { id: 'house-of-heroes', name: 'House of Heroes', points: 25, rule: 'three of one hero + two of another hero' },
  { id: 'four-of-a-hero', name: '4 of Any Hero', points: 15, rule: 'four of the same hero' },
  { id: 'team-of-heroes', name: 'Team of Heroes', points: 10, rule: 'one of each of the four heroes' },
];

/** The Go Villain scoring combos, best first (the sheet's back page). */
const VILLAIN_COMBOS: ReadonlyArray<Combo<VillainComboId>> = [
  { id: 'five-of-a-villain', name: '5 of Any Villain', points: 100, rule: 'five of the same villain' },
  { id: 'four-of-a-villain', name: '4 of Any Villain', points: 75, rule: 'four of the same villain' },
  { id: 'five-villain-mix', name: '5 Villain Mix', points: 50, rule: 'any five villains' },
  { id: 'four-villain-mix', name: '4 Villain Mix', points: 25, rule: 'any four villains' },
  { id: 'three-of-a-villain', name: '3 of Any Villain', points: 20, rule: 'three of the same villain' },
];

function heroComboById(id: HeroComboId): Combo<HeroComboId> {
  const combo = HERO_COMBOS.find((c) => c.id === id);
  if (!combo) throw new Error(`No hero combo ${id}`);
  return combo;
}

function villainComboById(id: string): Combo<VillainComboId> | undefined {
  return VILLAIN_COMBOS.find((c) => c.id === id);
}

function isVillain(die: DieToken): boolean {
  return VILLAINS.includes(String(die));
}

/** "Luke Skywalker, Darth Vader, …" for messages, as the table and the log name them. */
function describeDice(dice: readonly DieToken[]): string {
  return describeKitDice(FACE_OFF_KIT, dice);
}

/**
 * Every Go Hero combo the five dice show. At most one of them is ever shown, except that five
 * of one hero also holds four of that hero; so "the best combo shown" is never a real choice.
 */
export function heroCombosShown(dice: readonly DieToken[]): HeroComboId[] {
  const counts = countTokens(dice);
  const heroCounts = HEROES.map((h) => counts.get(h) ?? 0);
  const shown: HeroComboId[] = [];
  if (heroCounts.some((n) => n >= 5)) shown.push('five-of-a-hero');
  if (heroCounts.includes(3) && heroCounts.includes(2)) shown.push('house-of-heroes');
  if (heroCounts.some((n) => n >= 4)) shown.push('four-of-a-hero');
  if (heroCounts.every((n) => n >= 1)) shown.push('team-of-heroes');
  return shown;
}

/** The best Go Hero combo the dice show, or null. */
export function bestHeroCombo(dice: readonly DieToken[]): Combo<HeroComboId> | null {
  const best = heroCombosShown(dice)[0];
  return best === undefined ? null : heroComboById(best);
}

/**
 * Is a villain's claim true of these dice? A claim is true when the dice show that combo, even
 * if they show a better one too (five Vaders also hold four of one villain and five villains).
 */
export function villainClaimHolds(dice: readonly DieToken[], combo: VillainComboId): boolean {
  const counts = countTokens(dice);
  const same = Math.max(...VILLAINS.map((v) => counts.get(v) ?? 0));
  const any = VILLAINS.reduce((sum, v) => sum + (counts.get(v) ?? 0), 0);
  switch (combo) {
    case 'five-of-a-villain':
      return same >= 5;
    case 'four-of-a-villain':
      return same >= 4;
    case 'five-villain-mix':
      return any >= 5;
    case 'four-villain-mix':
      return any >= 4;
    case 'three-of-a-villain':
      return same >= 3;
  }
}

/** The villain combos these dice would back up if challenged, best first. */
export function villainCombosShown(dice: readonly DieToken[]): VillainComboId[] {
  return VILLAIN_COMBOS.filter((c) => villainClaimHolds(dice, c.id)).map((c) => c.id);
}

// ---------------------------------------------------------------------------------------------
// State

export type FaceOffPhase =
  /** The turn's player throws all five dice. */
  | 'opening-roll'
  /** Go Hero or Go Villain. */
  | 'choose-side'
  /** Go Hero: pick up 1–3 dice to re-roll, or stop and take a combo. */
  | 'hero'
  /** Go Hero: the picked-up dice are awaited. */
  | 'hero-reroll'
  /** Go Villain: one secret re-roll of 1–3 dice, or declare at once. */
  | 'villain'
  /** Go Villain: the secret re-roll is awaited (read privately by the villain). */
  | 'villain-reroll'
  /** Go Villain after the secret re-roll: declare a combo. */
  | 'declare'
  /** The other players are asked in turn whether they challenge. */
  | 'challenge'
  /** Challenged after a secret re-roll: the villain shows the hidden dice. */
  | 'reveal'
  | 'over';

/** The table's words for each phase, beside whose turn it is (null: the headline says it all). */
const PHASES = {
  'opening-roll': 'first roll',
  'choose-side': 'choosing Hero or Villain',
  hero: 'Go Hero',
  'hero-reroll': 'Go Hero: re-rolling',
  villain: 'Go Villain',
  'villain-reroll': 'Go Villain: secret re-roll',
  declare: 'Go Villain: declaring',
  challenge: 'chance to challenge',
  reveal: 'challenged: show the dice',
  over: null,
} as const satisfies Record<FaceOffPhase, string | null>;

/** How a challenged villain's secret dice are shown. */
export type FaceOffReveal = 'show' | 'record';

export type FaceOffState = {
  players: string[];
  target: number;
  reveal: FaceOffReveal;
  /** Whose turn it is (the hero or villain). */
  current: PlayerIndex;
  scores: number[];
  phase: FaceOffPhase;
  side: 'hero' | 'villain' | null;
  /** The five dice as they truly lie this turn ([] before the opening roll). */
  dice: DieToken[];
  /** Dice picked up for the re-roll now awaited (hero or villain), else []. */
  pickedUp: DieToken[];
  /** Go Villain: the dice of the secret re-roll, hidden from the table; null when none or revealed. */
  secret: DieToken[] | null;
  /** Go Villain: the combo declared. */
  claim: VillainComboId | null;
  /** Players still to be asked whether they challenge, in order; the first is asked now. */
  toAsk: PlayerIndex[];
  /** Who challenged this claim. */
  challenger: PlayerIndex | null;
  /** The dice of the last finished turn as the table saw them (none when they stayed hidden). */
  lastDice: DieToken[];
  /** What happened last, for the table (never names hidden dice). */
  lastEvent: string;
  winner: PlayerIndex | null;
};

// ---------------------------------------------------------------------------------------------
// Helpers

function nameOf(g: FaceOffState, player: PlayerIndex): string {
  return g.players[player] ?? '?';
}

function others(g: FaceOffState): PlayerIndex[] {
  const n = g.players.length;
  return Array.from({ length: n - 1 }, (_, i) => (g.current + 1 + i) % n);
}

/**
 * The dice the table sees now: all of them, less a secret re-roll still under the cup (the
 * dice are kept in the order kept-then-re-rolled, so the secret ones are the last).
 */
function tableDice(g: FaceOffState): DieToken[] {
  return g.secret === null ? g.dice : g.dice.slice(0, g.dice.length - g.secret.length);
}

/** Adds points; the first to reach the target wins at once. */
function score(g: FaceOffState, player: PlayerIndex, points: number): FaceOffState {
  const scores = g.scores.map((s, i) => (i === player ? s + points : s));
  const winner = (scores[player] ?? 0) >= g.target ? player : g.winner;
  return { ...g, scores, winner };
}

/** Ends the turn: the dice pass left, or the game is over when someone has reached the target. */
function endTurn(g: FaceOffState, lastEvent: string, lastDice: DieToken[]): FaceOffState {
  const base = { ...g, lastEvent, lastDice, pickedUp: [], toAsk: [], challenger: null };
  if (g.winner !== null) {
    return { ...base, phase: 'over', lastEvent: `${lastEvent} ${nameOf(g, g.winner)} reaches ${g.scores[g.winner] ?? 0} and wins!` };
  }
  return {
    ...base,
    current: (g.current + 1) % g.players.length,
    phase: 'opening-roll',
    side: null,
    dice: [],
    secret: null,
    claim: null,
  };
}

/** What the game awaits now, as a sentence (for refusals of out-of-place actions). */
function awaited(g: FaceOffState): string {
  const name = nameOf(g, g.current);
  switch (g.phase) {
    case 'opening-roll':
      return `${name} must roll all five dice.`;
    case 'choose-side':
      return `${name} must say Go Hero or Go Villain.`;
    case 'hero':
      return `${name} (Go Hero) may pick up 1 to 3 dice to re-roll, or stop and take a combo.`;
    case 'hero-reroll':
    case 'villain-reroll':
      return `${name} must re-roll the ${plural(g.pickedUp.length, 'die', 'dice')} picked up.`;
    case 'villain':
      return `${name} (Go Villain) may re-roll 1 to 3 dice in secret, or declare a villain combo.`;
    case 'declare':
      return `${name} must declare a villain combo.`;
    case 'challenge':
      return `${nameOf(g, g.toAsk[0] ?? 0)} must challenge or pass.`;
    case 'reveal':
      return `${name} must show the hidden dice.`;
    case 'over':
      return 'The game is over.';
  }
}

function notNow(g: FaceOffState, what: string): never {
  throw new RuleError('not-now', `${what} is not possible now: ${awaited(g)}`);
}

/** Checks the dice a player picks up to re-roll: 1 to 3 of the dice on the table. */
function checkPickUp(g: FaceOffState, dice: unknown): DieToken[] {
  if (!Array.isArray(dice) || dice.some((d) => typeof d !== 'string')) {
    throw new RuleError('bad-dice', 'Say which dice are picked up, by face (e.g. ["vader", "luke"]).');
  }
  const picked = dice as string[];
  if (picked.length === 0) throw new RuleError('no-dice', 'Pick up at least one die to re-roll.');
  if (picked.length > MAX_REROLL) {
    throw new RuleError('too-many-dice', `Only ${MAX_REROLL} dice may be re-rolled; ${picked.length} picked up.`);
  }
  if (!containsAll(g.dice, picked)) {
    throw new RuleError(
      'not-on-table',
      `Only dice on the table can be picked up: ${describeDice(picked)} are not all among ${describeDice(g.dice)}.`,
    );
  }
  return picked;
}

// ---------------------------------------------------------------------------------------------
// Moves

function applyRoll(g: FaceOffState, rolled: DieToken[]): FaceOffState {
  const name = nameOf(g, g.current);
  switch (g.phase) {
    case 'opening-roll':
      return { ...g, phase: 'choose-side', dice: rolled, lastEvent: `${name} rolled ${describeDice(rolled)}.` };
    case 'hero-reroll': {
      const dice = [...removeAll(g.dice, g.pickedUp), ...rolled];
      if (rolled.every(isVillain)) {
        return endTurn(
          g,
          `${name} re-rolled ${describeDice(rolled)}: all villains, bust! No points this turn.`,
          dice,
        );
      }
      const combo = bestHeroCombo(dice);
      return {
        ...g,
        phase: 'hero',
        dice,
        pickedUp: [],
        lastEvent: `${name} re-rolled ${describeDice(rolled)}${combo ? `: ${combo.name} (${combo.points}) showing` : ''}.`,
      };
    }
    case 'villain-reroll':
      return {
        ...g,
        phase: 'declare',
        dice: [...removeAll(g.dice, g.pickedUp), ...rolled],
        secret: rolled,
        pickedUp: [],
        lastEvent: `${name} re-rolled ${plural(rolled.length, 'die', 'dice')} in secret and peeked.`,
      };
    case 'reveal': {
      const secret = g.secret ?? [];
      if (!sameDice(rolled, secret)) {
        throw new RuleError(
          'reveal-mismatch',
          // never naming the dice recorded: the table has not seen them, and would learn them from a wrong reveal
          `The dice shown (${describeDice(rolled)}) are not the dice recorded for ${name}'s secret re-roll. ` +
            'Show the dice again, or, if the secret re-roll was entered wrongly, undo back to it.',
        );
      }
      return resolveChallenge({ ...g, secret: null });
    }
    default:
      return notNow(g, 'A roll');
  }
}

function applyReroll(g: FaceOffState, dice: unknown): FaceOffState {
  if (g.phase !== 'hero' && g.phase !== 'villain') {
    if (g.phase === 'choose-side') {
      throw new RuleError('choose-side', `Say Go Hero or Go Villain before re-rolling.`);
    }
    if (g.phase === 'declare') {
      throw new RuleError('one-villain-reroll', 'Go Villain allows only one re-roll: declare a villain combo.');
    }
    return notNow(g, 'Picking up dice');
  }
  const picked = checkPickUp(g, dice);
  const name = nameOf(g, g.current);
  return {
    ...g,
    phase: g.phase === 'hero' ? 'hero-reroll' : 'villain-reroll',
    pickedUp: picked,
    lastEvent:
      g.phase === 'hero'
        ? `${name} picks up ${describeDice(picked)} to re-roll.`
        : `${name} puts ${describeDice(picked)} in the cup to re-roll in secret.`,
  };
}

function applyBank(g: FaceOffState): FaceOffState {
  if (g.phase !== 'hero') return notNow(g, 'Stopping to take a hero combo');
  const combo = bestHeroCombo(g.dice);
  if (!combo) {
    throw new RuleError('no-combo', 'No Go Hero combo on the dice: pick up 1 to 3 dice and re-roll.');
  }
  const name = nameOf(g, g.current);
  const scored = score(g, g.current, combo.points);
  return endTurn(scored, `${name} takes ${combo.points} for ${combo.name}.`, g.dice);
}

function applyDeclare(g: FaceOffState, comboId: unknown): FaceOffState {
  if (g.phase !== 'villain' && g.phase !== 'declare') return notNow(g, 'Declaring a villain combo');
  const combo = typeof comboId === 'string' ? villainComboById(comboId) : undefined;
  if (!combo) {
    throw new RuleError(
      'unknown-combo',
      `Declare one of the villain combos: ${VILLAIN_COMBOS.map((c) => `${c.id} (${c.points})`).join(', ')}.`,
    );
  }
  const toAsk = others(g);
  return {
    ...g,
    phase: 'challenge',
    claim: combo.id,
    toAsk,
    lastEvent: `${nameOf(g, g.current)} declares ${combo.name} (${combo.points}).`,
  };
}

function applyPass(g: FaceOffState): FaceOffState {
  if (g.phase !== 'challenge') return notNow(g, 'Passing on a challenge');
  const [asked, ...rest] = g.toAsk;
  const passer = nameOf(g, asked ?? 0);
  if (rest.length > 0) return { ...g, toAsk: rest, lastEvent: `${passer} does not challenge.` };
  const combo = villainComboById(g.claim ?? '');
  if (!combo) throw new Error('A claim is under challenge without a combo.');
  const name = nameOf(g, g.current);
  const scored = score({ ...g, toAsk: [] }, g.current, combo.points);
  // Unchallenged: the dice are not shown, so a secret re-roll stays hidden.
  return endTurn(scored, `No one challenges: ${name} takes ${combo.points} for ${combo.name}.`, tableDice(g));
}

function applyChallenge(g: FaceOffState): FaceOffState {
  if (g.phase !== 'challenge') return notNow(g, 'A challenge');
  const challenger = g.toAsk[0] ?? null;
  const challenged = { ...g, challenger, toAsk: [] };
  if (g.secret !== null && g.reveal === 'show') {
    return {
      ...challenged,
      phase: 'reveal',
      lastEvent: `${nameOf(g, challenger ?? 0)} challenges! ${nameOf(g, g.current)}: show your dice.`,
    };
  }
  return resolveChallenge({ ...challenged, secret: null });
}

/** A challenged claim, the dice now shown: double for the truth, the points to the challenger for a bluff. */
function resolveChallenge(g: FaceOffState): FaceOffState {
  const combo = villainComboById(g.claim ?? '');
  const challenger = g.challenger;
  if (!combo || challenger === null) throw new Error('resolveChallenge without a claim and a challenger.');
  const villain = nameOf(g, g.current);
  const shown = `${nameOf(g, challenger)} challenges; the dice show ${describeDice(g.dice)}:`;
  if (villainClaimHolds(g.dice, combo.id)) {
    const points = combo.points * 2;
    return endTurn(score(g, g.current, points), `${shown} ${villain} told the truth and scores double, ${points}.`, g.dice);
  }
  return endTurn(
    score(g, challenger, combo.points),
    `${shown} ${villain} was bluffing! ${nameOf(g, challenger)} takes the ${combo.points} for ${combo.name}.`,
    g.dice,
  );
}

function apply(g: FaceOffState, action: Action): FaceOffState {
  if (g.phase === 'over') throw new RuleError('game-over', 'The game is over.');
  switch (action.type) {
    case 'roll':
      return applyRoll(g, action.dice as DieToken[]);
    case 'go-hero':
    case 'go-villain': {
      if (g.phase !== 'choose-side') return notNow(g, action.type === 'go-hero' ? 'Go Hero' : 'Go Villain');
      const side = action.type === 'go-hero' ? 'hero' : 'villain';
      const name = nameOf(g, g.current);
      return { ...g, side, phase: side, lastEvent: `${name} goes ${side === 'hero' ? 'Hero' : 'Villain'}.` };
    }
    case 'reroll':
      return applyReroll(g, action.dice);
    case 'bank':
      return applyBank(g);
    case 'declare':
      return applyDeclare(g, action.combo);
    case 'challenge':
      return applyChallenge(g);
    case 'pass':
      return applyPass(g);
    default:
      throw new RuleError(
        'unknown-action',
        `Face Off has no "${action.type}" action (roll, go-hero, go-villain, reroll, bank, declare, challenge, pass).`,
      );
  }
}

// ---------------------------------------------------------------------------------------------
// What the table is asked for, and what it sees

function expectRoll(g: FaceOffState): ExpectedRoll | null {
  const name = nameOf(g, g.current);
  const base = { kit: FACE_OFF_KIT.id, player: g.current };
  switch (g.phase) {
    case 'opening-roll':
      return { ...base, count: DICE, kept: [], prompt: `${name}: roll all five dice.` };
    case 'hero-reroll': {
      const kept = removeAll(g.dice, g.pickedUp);
      return { ...base, count: g.pickedUp.length, kept, prompt: `${name}: re-roll ${plural(g.pickedUp.length, 'die', 'dice')}.` };
    }
    case 'villain-reroll': {
      const kept = removeAll(g.dice, g.pickedUp);
      return {
        ...base,
        count: g.pickedUp.length,
        kept,
        prompt: `${name}: re-roll ${plural(g.pickedUp.length, 'die', 'dice')} in the cup and read them in secret.`,
      };
    }
    case 'reveal': {
      const secret = g.secret ?? [];
      return {
        ...base,
        count: secret.length,
        kept: tableDice(g),
        prompt: `${name}: lift the cup and show the ${plural(secret.length, 'hidden die', 'hidden dice')}.`,
      };
    }
    default:
      return null;
  }
}

function comboLabel(c: Combo<string>): string {
  return `${c.name} (${c.points})`;
}

function headline(g: FaceOffState): string {
  const name = nameOf(g, g.current);
  const event = g.lastEvent ? `${g.lastEvent} ` : '';
  const claim = villainComboById(g.claim ?? '');
  switch (g.phase) {
    case 'over':
      return g.lastEvent;
    case 'opening-roll':
      return `${event}${name}'s turn: roll all five dice.`;
    case 'choose-side':
      return `${event}Go Hero or Go Villain?`;
    case 'hero': {
      const combo = bestHeroCombo(g.dice);
      return `${event}${name} (Go Hero): ${combo ? `stop for ${comboLabel(combo)} or ` : ''}re-roll up to three dice.`;
    }
    case 'hero-reroll':
    case 'villain-reroll':
      return `${event}${expectRoll(g)?.prompt ?? ''}`;
    case 'villain':
      return `${event}${name} (Go Villain): re-roll up to three dice in secret, or declare a combo.`;
    case 'declare':
      return `${event}${name}: declare a villain combo.`;
    case 'challenge':
      return `${name} declares ${claim ? comboLabel(claim) : '?'}. ${nameOf(g, g.toAsk[0] ?? 0)}: challenge or pass?`;
    case 'reveal':
      return g.lastEvent;
  }
}

function legalMoves(g: FaceOffState): LegalMove[] {
  const moves: LegalMove[] = [];
  const expect = expectRoll(g);
  if (expect) {
    const label =
      g.phase === 'opening-roll' ? 'Roll all five dice' : g.phase === 'reveal' ? 'Show the hidden dice' : expect.prompt;
    moves.push({ kind: 'roll', expect, label });
  }
  const declare = (): void => {
    for (const c of VILLAIN_COMBOS) {
      moves.push({ kind: 'action', action: { type: 'declare', combo: c.id }, label: `Declare ${comboLabel(c)}` });
    }
  };
  switch (g.phase) {
    case 'choose-side':
      moves.push({ kind: 'action', action: { type: 'go-hero' }, label: 'Go Hero' });
      moves.push({ kind: 'action', action: { type: 'go-villain' }, label: 'Go Villain' });
      break;
    case 'hero': {
      const combo = bestHeroCombo(g.dice);
      if (combo) moves.push({ kind: 'action', action: { type: 'bank' }, label: `Stop and take ${comboLabel(combo)}` });
      moves.push({
        kind: 'choose-dice',
        actionType: 'reroll',
        from: g.dice,
        min: 1,
        max: MAX_REROLL,
        label: 'Pick up 1 to 3 dice to re-roll',
      });
      break;
    }
    case 'villain':
      moves.push({
        kind: 'choose-dice',
        actionType: 'reroll',
        from: g.dice,
        min: 1,
        max: MAX_REROLL,
        label: 'Put 1 to 3 dice in the cup for a secret re-roll',
      });
      declare();
      break;
    case 'declare':
      declare();
      break;
    case 'challenge': {
      const asked = nameOf(g, g.toAsk[0] ?? 0);
      moves.push({ kind: 'action', action: { type: 'challenge' }, label: `${asked} challenges` });
      moves.push({ kind: 'action', action: { type: 'pass' }, label: `${asked} passes` });
      break;
    }
    default:
      break;
  }
  return moves;
}

function view(g: FaceOffState, viewer: PlayerIndex | null): PlayView {
  // The secret re-roll is seen by the villain alone, until a challenge reveals it.
  const hidden = g.secret !== null && viewer !== g.current;
  // While picked-up dice are in the hand or the cup, only the dice left on the table show.
  const rerolling = g.phase === 'hero-reroll' || g.phase === 'villain-reroll';
  const dice = rerolling ? removeAll(g.dice, g.pickedUp) : hidden ? tableDice(g) : g.dice;
  const claim = villainComboById(g.claim ?? '');
  const acting = g.phase === 'over' ? null : g.phase === 'challenge' ? (g.toAsk[0] ?? null) : g.current;
  const heroCombo = g.phase === 'hero' ? bestHeroCombo(g.dice) : null;
  const details: Record<string, Json> = {
    target: g.target,
    turnPlayer: g.phase === 'over' ? null : g.current,
    side: g.side,
    lastEvent: g.lastEvent,
    lastDice: g.lastDice,
    heroCombo: heroCombo ? { id: heroCombo.id, name: heroCombo.name, points: heroCombo.points } : null,
    claim: claim ? { id: claim.id, name: claim.name, points: claim.points } : null,
    toAsk: g.toAsk,
    challenger: g.challenger,
    pickedUp: g.pickedUp,
    hiddenDice: g.secret === null ? 0 : g.secret.length,
  };
  if (g.secret !== null && !hidden) details.secretDice = g.secret;
  // What a challenge would find: only for eyes that see all five dice.
  if (g.side === 'villain' && !hidden && !rerolling) details.claimsThatHold = villainCombosShown(g.dice);
  return {
    phase: g.phase,
    current: acting,
    headline: headline(g),
    slate: {
      scoreLabel: 'Points',
      columns: [],
      rows: g.players.map((player, i) => ({
        player: i,
        name: player,
        score: g.scores[i] ?? 0,
        cells: {},
        marked: false,
        note:
          g.winner === i
            ? 'winner'
            : i === g.current && g.phase !== 'over' && g.side
              ? g.side === 'hero'
                ? 'Go Hero'
                : claim
                  ? `Go Villain: claims ${comboLabel(claim)}`
                  : 'Go Villain'
              : i === g.challenger
                ? 'challenges'
                : null,
      })),
    },
    dice,
    details,
    legal: g.phase === 'over' ? [] : legalMoves(g),
  };
}

export const faceOff: GameDefinition<FaceOffState> = {
  id: 'face-off',
  name: 'Star Wars Face Off',
  summary:
    'Roll five Face Off dice, then Go Hero or Go Villain. Go Hero: re-roll up to three dice as often as you like ' +
    'and stop to take a hero combo (5 of a hero 50, House of Heroes 25, 4 of a hero 15, Team of Heroes 10); if the ' +
    're-rolled dice all come up villains you bust. Go Villain: one secret re-roll of up to three dice, then declare a ' +
    'villain combo (100, 75, 50, 25, 20) — bluffing allowed. Each other player in turn may challenge: a truthful claim ' +
    'scores double, a bluff gives the points to the challenger; unchallenged, it scores as declared. 250 points win.',
  kit: FACE_OFF_KIT.id,
  diceCount: DICE,
  players: { min: 2, max: 4 },
  options: [
    {
      key: 'targetScore',
      kind: 'number',
      label: 'Points to win',
      description: 'The first player to reach this total wins (the sheet: 250).',
      default: 250,
      min: 20,
      max: 2000,
      integer: true,
    },
    {
      key: 'reveal',
      kind: 'choice',
      label: 'Showing a challenged secret re-roll',
      description:
        'When a villain who re-rolled in secret is challenged, the sheet says "show your dice". By default the ' +
        'villain shows them to the camera (or the dice pad) and they must match the secret re-roll recorded; or ' +
        'the recorded dice are simply disclosed.',
      default: 'show',
      choices: [
        { value: 'show', label: 'Show the dice: read again and checked against the secret re-roll' },
        { value: 'record', label: 'Disclose the secret re-roll as recorded' },
      ],
    },
  ],
  start: { rollOffDice: 0, defaultRule: 'first-listed' },
  defaultAnte: 0,
  phases: PHASES,
  setup: ({ players, options, starter }) => ({
    players: [...players],
    target: numberOption(options, 'targetScore'),
    reveal: choiceOption<FaceOffReveal>(options, 'reveal'),
    current: starter,
    scores: players.map(() => 0),
    phase: 'opening-roll',
    side: null,
    dice: [],
    pickedUp: [],
    secret: null,
    claim: null,
    toAsk: [],
    challenger: null,
    lastDice: [],
    lastEvent: '',
    winner: null,
  }),
  apply,
  expectRoll,
  view,
  winners: (g) => (g.phase === 'over' && g.winner !== null ? [g.winner] : null),
};
