/**
 * The rules engine's shared types. A game is a plain definition object of pure functions
 * (boardgame.io style); a match's state is plain JSON derived only by folding its action log.
 */
import type { DieToken } from '../dice/kit.ts';

export type { DieToken } from '../dice/kit.ts';

/** Seat index into the match's `players` array, in seating (clockwise) order. */
export type PlayerIndex = number;

export type GameId =
  | 'point-five'
  | 'five-thousand'
  | 'big-roll-5000'
  | 'face-off'
  | 'detective'
  | 'dominoes'
  | 'hi-low'
  | 'tug'
  | 'war';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every action is a plain JSON object with a `type`. */
export interface Action {
  type: string;
  [field: string]: Json | undefined;
}

// ---------------------------------------------------------------------------------------------
// Options

export type OptionValue = boolean | number | string;
export type Options = Record<string, OptionValue>;

interface OptionSpecBase {
  key: string;
  label: string;
  /** One or two sentences a player understands; say where the sheet puts it. */
  description: string;
}
export interface BooleanOptionSpec extends OptionSpecBase {
  kind: 'boolean';
  default: boolean;
}
export interface NumberOptionSpec extends OptionSpecBase {
  kind: 'number';
  default: number;
  min: number;
  max: number;
  /** Whole numbers only. */
  integer: boolean;
}
export interface ChoiceOptionSpec extends OptionSpecBase {
  kind: 'choice';
  default: string;
  choices: ReadonlyArray<{ value: string; label: string }>;
}
export type OptionSpec = BooleanOptionSpec | NumberOptionSpec | ChoiceOptionSpec;

// ---------------------------------------------------------------------------------------------
// What the table is asked for

/** The physical roll the game awaits now. */
export interface ExpectedRoll {
  /** Kit id of the dice (`standard`, `corellian-spike`, `face-off`). */
  kit: string;
  /** Who throws. */
  player: PlayerIndex;
  /** How many dice are thrown now. */
  count: number;
  /** Dice that stay on the table untouched (set aside, kept, not picked up). */
  kept: DieToken[];
  /** Short text for the table: "Ann: roll 3 dice (1 1 kept)". */
  prompt: string;
}

/** Something the acting player may do now, for the app to offer. */
export type LegalMove =
  /** A concrete action: one tap appends it. */
  | { kind: 'action'; action: Action; label: string }
  /** The game awaits a throw of dice: a `roll` action read by the camera or the dice pad. */
  | { kind: 'roll'; expect: ExpectedRoll; label: string }
  /**
   * The player chooses some of `from` (a multiset of dice tokens), between `min` and `max`
   * of them; the app then appends `{ type: actionType, dice: chosen }`.
   */
  | { kind: 'choose-dice'; actionType: string; from: DieToken[]; min: number; max: number; label: string };

// ---------------------------------------------------------------------------------------------
// Views

export interface SlateColumn {
  key: string;
  label: string;
}

export interface SlateRow {
  player: PlayerIndex;
  name: string;
  /** The player's main figure (points, rounds won, circles…). */
  score: number;
  /** Further columns of the paper sheet, keyed by `SlateColumn.key`. */
  cells: Record<string, string | number>;
  /** True when this player is out, forfeits, or is otherwise marked on the sheet. */
  marked: boolean;
  /** Short note to show next to the row ("bumped", "must enter with 500", "skips next turn"). */
  note: string | null;
}

export interface Slate {
  /** What `score` counts, e.g. "Points", "Rounds". */
  scoreLabel: string;
  columns: SlateColumn[];
  rows: SlateRow[];
}

/** Everything the table screen shows about play, derived from the game's state. */
export interface PlayView {
  /**
   * Game-specific phase id, e.g. `turn`, `declare`, `challenge`, `over`: for code and tests, not
   * for players (the table shows the game's `phases` text for it).
   */
  phase: string;
  /** Who must act now (null when the game is over). */
  current: PlayerIndex | null;
  /** One line for the table: "Ann's turn: 350 this turn, roll 2 dice or bank". */
  headline: string;
  slate: Slate;
  /** The dice on the table that matter now, as tokens (current roll, kept dice, board…). */
  dice: DieToken[];
  /** Game-specific extras for the table, plain JSON (turn total, board, string of dice…). */
  details: Record<string, Json>;
  legal: LegalMove[];
}

// ---------------------------------------------------------------------------------------------
// Game definitions

/** What a game module receives when play begins. */
export interface SetupContext {
  players: readonly string[];
  options: Readonly<Options>;
  /** Who starts: the roll-off's winner, or the first listed player when there is none. */
  starter: PlayerIndex;
}

/**
 * A game. `G` is the game's own state: plain JSON (no classes, Maps, undefined or functions),
 * so that it serialises, compares and replays exactly.
 */
export interface GameDefinition<G = unknown> {
  id: GameId;
  name: string;
  /** A few sentences summarising the rules for the new-game screen. */
  summary: string;
  /** Kit id of the dice used. */
  kit: string;
  /** Dice in the set. */
  diceCount: number;
  players: { min: number; max: number };
  /**
   * Every variation on the sheet and common house rules, with the sheet's defaults. The core
   * adds `ante` (per player) and `startingPlayer` ('roll-off' | 'first-listed') to every game.
   */
  options: readonly OptionSpec[];
  /**
   * The sheet's way to pick the first player, the default of the `startingPlayer` option.
   * `rollOffDice`: dice each player throws in a roll-off (the sheets use 1 or 2); 0 where the
   * sheet has none, and a roll-off the table chooses anyway throws one die.
   */
  start: { rollOffDice: number; defaultRule: 'roll-off' | 'first-listed' };
  /** Default ante per player (0 unless the sheet plays for a pot). */
  defaultAnte: number;
  /**
   * What the table says of each phase `view` can report, beside whose turn it is ("Go Hero",
   * "choosing high or low"), in a player's words; null where it would add nothing to the
   * headline (nothing is shown). Every phase has an entry, `over` included.
   */
  phases: Readonly<Record<string, string | null>>;
  /**
   * Optional: why this table cannot play the game with these options (a player count the
   * chosen variation does not allow, beyond `players.min`/`max`), or null when it can.
   * `createMatch` refuses the match with this message as a SetupError.
   */
  checkSetup?(players: readonly string[], options: Readonly<Options>): string | null;
  setup(ctx: SetupContext): G;
  /** Returns the next state or throws a `RuleError`. Must not mutate `g`. */
  apply(g: G, action: Action): G;
  expectRoll(g: G): ExpectedRoll | null;
  /**
   * The table's view. `viewer` is whose eyes look at the screen: null for everyone at the table,
   * so hidden information (a villain's secret re-roll) must not appear; a player index for that
   * player's private view.
   */
  view(g: G, viewer: PlayerIndex | null): PlayView;
  /** Winners once the game is over (several on a tie), else null. */
  winners(g: G): PlayerIndex[] | null;
}
