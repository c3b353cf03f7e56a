/** The app's view of the rules engine's game registry. */
import { GAMES } from '../lib/rules/index.ts';

/** A game's name for lists and headings; the id itself for a game this version does not know. */
export function gameName(id: string): string {
  return GAMES.find((g) => g.id === id)?.name ?? id;
}
