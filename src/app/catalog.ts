/**
 * The games Rollcall plays, as the new-game screen lists them: id, name, dice kit and how many
 * players (from ../shared/DESIGN.md). The ids are the rules engine's game ids.
 */
import type { BuiltInKitId } from '../lib/dice/index.ts';

export interface GameListing {
  id: string;
  name: string;
  kitId: BuiltInKitId;
  minPlayers: number;
  maxPlayers: number;
}

export const GAMES: readonly GameListing[] = [
  { id: 'five-thousand', name: '5000 (straights, bumping)', kitId: 'standard', minPlayers: 2, maxPlayers: 10 },
  { id: 'big-roll-5000', name: '5000 (Big Roll, final round)', kitId: 'standard', minPlayers: 2, maxPlayers: 10 },
  { id: 'point-five', name: 'Point Five', kitId: 'corellian-spike', minPlayers: 2, maxPlayers: 10 },
  { id: 'face-off', name: 'Star Wars Face Off', kitId: 'face-off', minPlayers: 2, maxPlayers: 4 },
  { id: 'detective', name: '5-Dice Detective', kitId: 'standard', minPlayers: 2, maxPlayers: 6 },
  { id: 'dominoes', name: '5-Dice Dominoes', kitId: 'standard', minPlayers: 2, maxPlayers: 4 },
  { id: 'hi-low', name: '5-Dice Hi-Low', kitId: 'standard', minPlayers: 2, maxPlayers: 4 },
  { id: 'tug', name: '5-Dice Tug', kitId: 'standard', minPlayers: 2, maxPlayers: 2 },
  { id: 'war', name: '5-Dice War', kitId: 'standard', minPlayers: 2, maxPlayers: 2 },
];

export function gameName(id: string): string {
  return GAMES.find((g) => g.id === id)?.name ?? id;
}
