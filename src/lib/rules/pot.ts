/**
 * Ante, pot and ledger. Amounts are whole units (chips, coins, cents): every player pays the
 * ante into the pot when play starts; when the game ends the pot goes to the winner. On a tie
 * it is split equally; the indivisible remainder goes one unit at a time to the tied winners in
 * seating order, starting with the first listed (so the pot always empties, and the pot always
 * equals the antes paid in minus the payouts).
 */
import type { PlayerIndex } from './types.ts';

/** Pot after every player paid the ante. */
export function potAfterAntes(playerCount: number, ante: number): number {
  return playerCount * ante;
}

/** What each player receives from the pot (an entry per seat). */
export function splitPot(pot: number, playerCount: number, winners: readonly PlayerIndex[]): number[] {
  const payouts = new Array<number>(playerCount).fill(0);
  if (winners.length === 0 || pot === 0) return payouts;
  const seats = [...new Set(winners)].sort((a, b) => a - b);
  const share = Math.floor(pot / seats.length);
  let remainder = pot - share * seats.length;
  for (const seat of seats) {
    payouts[seat] = share + (remainder > 0 ? 1 : 0);
    if (remainder > 0) remainder -= 1;
  }
  return payouts;
}

/** One finished (or abandoned) game's money, by player name. */
export interface GameMoney {
  players: readonly string[];
  ante: number;
  /** Payout per seat; null while the game is not over (antes stay in the pot). */
  payouts: readonly number[] | null;
}

/** A player's balance in a session: antes paid, winnings, and the net. */
export interface PlayerBalance {
  player: string;
  paid: number;
  won: number;
  net: number;
  games: number;
}

/**
 * The session ledger: each player's balance across the games of a session, by name (the same
 * person may sit in different seats in different games). Players in first-seen order.
 */
export function sessionLedger(games: readonly GameMoney[]): PlayerBalance[] {
  const entries = new Map<string, PlayerBalance>();
  for (const game of games) {
    game.players.forEach((player, seat) => {
      const entry = entries.get(player) ?? { player, paid: 0, won: 0, net: 0, games: 0 };
      entry.paid += game.ante;
      entry.won += game.payouts?.[seat] ?? 0;
      entry.net = entry.won - entry.paid;
      entry.games += 1;
      entries.set(player, entry);
    });
  }
  return [...entries.values()];
}
