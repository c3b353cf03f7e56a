/** Players as the screens say them: a seat's name now, a game named in a merge's refusal, a merge's question. */
import type { GamePlayer, GameRecord } from '../lib/store/index.ts';
import { nameKey } from '../lib/rules/index.ts';
import { formatDayMonth } from './format.ts';
import { gameName } from './games.ts';

/**
 * A seat of a game as a list of games shows it: the player's name now (set right or merged since:
 * "Bob"), with the name played under when it reads otherwise ("Bob (as Bbo)"), so a card agrees
 * with Home's balances and still with the game's log, which reads as played. A player no longer
 * on the device keeps the name played under.
 */
export function seatName(seat: GamePlayer, namesNow: ReadonlyMap<string, string>): string {
  const now = namesNow.get(seat.id);
  if (now === undefined || nameKey(now) === nameKey(seat.name)) return seat.name;
  return `${now} (as ${seat.name})`;
}

/**
 * A game as a merge's refusal names it: "5000 (Big Roll), started 3 Dec" (`dateLocale`; a comma,
 * not brackets: some games' names end in brackets of their own).
 */
export function gameStartedOn(game: Pick<GameRecord, 'game' | 'createdAt'>): string {
  return `${gameName(game.game)}, started ${formatDayMonth(game.createdAt)}`;
}

/** "4 games", "1 game", "no games". */
export function gamesText(count: number): string {
  return count === 0 ? 'no games' : count === 1 ? '1 game' : `${count} games`;
}

/**
 * The question before `from` is merged into `into`: what becomes whose, and that `from` goes
 * ("Bbo's 4 games and balances become Bob's. Bbo goes from the list.").
 */
export function mergeQuestion(from: string, into: string, games: number): string {
  const what = games === 0 ? `${from} has played no games here; any balance of ${from}'s becomes ${into}'s.` : `${from}'s ${gamesText(games)} and balances become ${into}'s.`;
  return `${what} ${from} goes from the list; games keep the name they were played under, and ${from} typed again is ${into}.`;
}
