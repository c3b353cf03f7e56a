/**
 * What the store keeps. Records are plain, structured-clonable objects; everything except the
 * taught faces' images is plain JSON, so a backup is the records as they are.
 *
 * The store knows nothing of the rules: an action is an opaque JSON object with a `type`.
 */

import type { DiceKit } from '../dice/kit.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** An action as the store sees it: any JSON object with a `type` string. */
export interface ActionLike {
  readonly type: string;
}

/**
 * A player as a game records them: the name is the one they played under, kept through a rename
 * or a merge (the id then becomes the kept player's); lists across games show the name now.
 */
export interface GamePlayer {
  id: string;
  name: string;
}

/** Which dice a game is read with: a kit (`src/lib/dice`) and, optionally, a taught set of it. */
export interface GameDice {
  kitId: string;
  taughtSetId: string | null;
}

export type GameStatus = 'active' | 'finished' | 'abandoned';

/** How a finished game settled: winners and each player's net gain or loss (ante/pot units). */
export interface GameResult {
  winners: string[];
  payouts: Record<string, number>;
}

/** A game's header: its transcript header plus bookkeeping. The actions live in their own store. */
export interface GameRecord {
  id: string;
  /** Game id from the rules, e.g. "five-thousand". */
  game: string;
  players: GamePlayer[];
  options: JsonObject;
  /** Stake each player puts in the pot at the start; 0 when the game is played without one. */
  ante: number;
  dice: GameDice;
  sessionId: string | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  status: GameStatus;
  /** Number of actions in the log; the next action's `seq`. */
  actionCount: number;
  /**
   * Moves on with every change to the log (an action appended or undone; `withLogChange`), so a
   * screen can tell the log it shows from one changed since, even at the same length (an undo
   * and a new action in another tab), and with a merge of its players (`mergePlayers`: the ids its
   * result is written with changed). Absent on games stored before it was kept: read as 0.
   */
  logRevision?: number;
  result: GameResult | null;
}

/** One entry of a game's log. `seq` counts from 0 without gaps. */
export interface ActionRecord<A extends ActionLike = ActionLike> {
  gameId: string;
  seq: number;
  action: A;
  /** When it was written (ms since epoch). */
  at: number;
}

export interface PlayerRecord {
  id: string;
  name: string;
  /** Lower-cased, trimmed name: two players may not share it. */
  nameKey: string;
  /**
   * The names this player was known by before, as written then: merged into them ("Bbo", merged
   * into Bob) or renamed from. New game, transcripts and backups that bring one find this player
   * (`playerNamed`). None is another player's name or other name. Absent when there are none, and
   * on every record kept before players had them (no migration: read as none).
   */
  aliases?: string[];
  createdAt: number;
  lastPlayedAt: number | null;
}

/** A sitting: the games one group plays in an evening, whose balances add up in the ledger. */
export interface SessionRecord {
  id: string;
  name: string;
  startedAt: number;
  endedAt: number | null;
  /**
   * How an ended evening ended, as far as its balances go: `settled` when the players settled up
   * (End the evening on Home, or Settled up said of it later); `break` when nobody ended it and the
   * next game came more than `SAME_EVENING_MS` after its last (its balances were never settled:
   * Home keeps saying so, `unsettledEvenings`, until the players say Settled up or carry them on);
   * `carried` when its balances went on into a later evening (`carryEvening`). Absent on an open
   * evening, and on an evening ended before this was kept (no migration: nothing is said of it).
   */
  endedBy?: SessionEnding;
  /**
   * The evening an evening `carried` was carried into (its id), so History and the game over can
   * name it. Absent on every other evening, and on one carried before this was kept (no migration:
   * said as "a later evening's").
   */
  carriedInto?: string;
}

/** An evening as History shows it (`eveningsPage`): the session, its games (the first played first) and its balances, by player. */
export interface Evening {
  session: SessionRecord;
  games: GameRecord[];
  balances: Record<string, number>;
}

/** How an evening's balances ended (`SessionRecord.endedBy`). */
export type SessionEnding = 'settled' | 'break' | 'carried';

/**
 * One line of the session ledger: who won or lost how much. A finished game writes one
 * (`gameId` set); a settle-up between players is a line without a game.
 */
export interface LedgerEntry {
  id: string;
  sessionId: string | null;
  gameId: string | null;
  at: number;
  /** Player id → amount won (positive) or lost (negative). */
  deltas: Record<string, number>;
  note: string;
}

/**
 * A taught set: a player's own dice, read through faces they taught. Either a copy of a built-in
 * kit (`kit` null: the built-in kit `kitId` gives faces, labels, values and art) or a kit of
 * their own (`kit` set, `kitId` = `kit.id`, art from an imported kit file).
 */
export interface TaughtSetRecord {
  id: string;
  /** The built-in kit these dice are a copy of, or the own kit's id. */
  kitId: string;
  name: string;
  createdAt: number;
  updatedAt: number;
  /** The set's own kit (validated with `parseKit`), or null for a built-in kit's dice. */
  kit: DiceKit | null;
  /** An own kit's reference art by face id, as image data URLs; empty for a built-in kit's dice. */
  art: Record<string, string>;
}

/** Where a die lies in a picture, in its pixels. */
export interface ImageBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One taught example of a face: the picture of the die the player showed, and its embedding when known. */
export interface TaughtFaceRecord {
  id: string;
  setId: string;
  faceId: string;
  image: Blob;
  /** Where the die is in `image` (re-embedding for a new face model needs no detector); null when not known. */
  box: ImageBox | null;
  /** The face embedder's vector for this die, and which model made it; null until computed. */
  embedding: number[] | null;
  embeddingModel: string | null;
  createdAt: number;
}

export type Theme = 'system' | 'light' | 'dark';

export interface Settings {
  theme: Theme;
  /** Speak reads and score changes aloud (speechSynthesis) besides announcing them. */
  speech: boolean;
  /** How long dice must lie still, showing the same faces, before a read is proposed (ms). */
  settleMs: number;
  /** The chosen camera's deviceId; null picks the rear camera. */
  cameraId: string | null;
  /** Whether the app has asked the browser to keep its storage (asked once, at the first game). */
  persistAsked: boolean;
}

export const DEFAULT_SETTINGS: Readonly<Settings> = {
  theme: 'system',
  speech: false,
  settleMs: 600,
  cameraId: null,
  persistAsked: false,
};

/** A game with its whole log, as the table screen replays it. */
export interface GameWithLog<A extends ActionLike = ActionLike> {
  game: GameRecord;
  actions: A[];
}
