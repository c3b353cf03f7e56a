/** The app's view of the rules engine's game registry. */
import { GAMES, type GameDefinition, type Options } from '../lib/rules/index.ts';

/** A game's name for lists and headings; the id itself for a game this version does not know. */
export function gameName(id: string): string {
  return GAMES.find((g) => g.id === id)?.name ?? id;
}

/**
 * How many can play `game` with `options`, as New game says it: "2", "2–4", "2 or 4", "2 or
 * more". The counts between `players.min` and `max` are those the game's own `checkSetup` lets
 * through (Hi-Low is for 2 or two teams of 2; Dominoes is for 2 unless played as a series), so
 * what New game says is what Start allows.
 */
export function playerCountText(game: GameDefinition, options: Readonly<Options>): string {
  const { min, max } = game.players;
  if (max >= 99) return `${min} or more`;
  const counts: number[] = [];
  for (let n = min; n <= max; n++) {
    const seats = Array.from({ length: n }, (_, i) => `Player ${i + 1}`);
    if ((game.checkSetup?.(seats, options) ?? null) === null) counts.push(n);
  }
  const first = counts[0];
  const last = counts[counts.length - 1];
  if (first === undefined || last === undefined) return `${min}–${max}`;
  if (first === last) return `${first}`;
  if (last - first === counts.length - 1) return `${first}–${last}`;
  return `${counts.slice(0, -1).join(', ')} or ${last}`;
}
