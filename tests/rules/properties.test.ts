/**
 * Properties every game must keep, checked on random play (fast-check): any sequence of
 * actions either applies or raises a RuleError — never crashes —; state is plain JSON;
 * replay is deterministic; undo (replaying the log without its last action) restores the
 * previous state; the pot always equals the antes paid in minus the payouts.
 */
import { describe, it } from 'vitest';
import { createMatch, GAMES, SetupError, type GameDefinition } from '../../src/lib/rules/index.ts';
import { checkRandomPlay } from './random-play.ts';

/** Three players where the game's default rules allow them, else its smallest table. */
function playerCount(game: GameDefinition): number {
  const names = (n: number) => Array.from({ length: n }, (_, i) => `P${i + 1}`);
  const three = Math.min(game.players.max, Math.max(game.players.min, 3));
  try {
    createMatch({ game: game.id, players: names(three) });
    return three;
  } catch (error) {
    if (!(error instanceof SetupError)) throw error;
    return game.players.min;
  }
}

for (const game of GAMES) {
  const header = {
    game: game.id,
    players: Array.from({ length: playerCount(game) }, (_, i) => `P${i + 1}`),
  };
  describe(`${game.id}: properties of random play`, () => {
    it('applies or refuses with a RuleError, keeps JSON state, replays, undoes, balances the pot', () => {
      checkRandomPlay(header);
    });
  });
}
