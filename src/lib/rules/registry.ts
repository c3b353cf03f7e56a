/** Every game Rollcall knows, by id. */
import { SetupError } from './errors.ts';
import type { GameDefinition, GameId } from './types.ts';
import { pointFive } from './games/point-five.ts';
import { fiveThousand } from './games/five-thousand.ts';
import { bigRoll5000 } from './games/big-roll-5000.ts';
import { faceOff } from './games/face-off.ts';
import { detective } from './games/detective.ts';
import { dominoes } from './games/dominoes.ts';
import { hiLow } from './games/hi-low.ts';
import { tug } from './games/tug.ts';
import { war } from './games/war.ts';

/** In the order the new-game screen lists them (DESIGN.md's table). */
export const GAMES: readonly GameDefinition[] = [
  pointFive,
  fiveThousand,
  bigRoll5000,
  faceOff,
  detective,
  dominoes,
  hiLow,
  tug,
  war,
];

export function gameById(id: string): GameDefinition {
  const game = GAMES.find((g) => g.id === id);
  if (!game) {
    throw new SetupError(`Unknown game "${id}". Games: ${GAMES.map((g) => g.id).join(', ')}.`);
  }
  return game;
}

export function isGameId(id: string): id is GameId {
  return GAMES.some((g) => g.id === id);
}
