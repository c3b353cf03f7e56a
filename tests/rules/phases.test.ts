/**
 * The table shows each phase in a player's words (`GameDefinition.phases`, the roll-off's own),
 * never the engine's phase id. Walks every stored transcript action by action: every phase a
 * game reaches has an entry — text, or null on purpose (nothing shown) — and every entry is a
 * phase the game reaches, so none is misspelt or left over.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMatch, GAMES, parseTranscript, tryAction, viewMatch, type MatchState } from '../../src/lib/rules/index.ts';
import { ROLL_OFF_PHASE_TEXT } from '../../src/lib/rules/roll-off.ts';

const root = new URL('../transcripts/', import.meta.url).pathname;

/** Every state of every transcript of a game, up to the first action the rules refuse. */
function statesOf(gameId: string): MatchState[] {
  const states: MatchState[] = [];
  for (const file of readdirSync(join(root, gameId)).filter((f) => f.endsWith('.json'))) {
    const transcript = parseTranscript(JSON.parse(readFileSync(join(root, gameId, file), 'utf8')));
    let state = createMatch(transcript);
    states.push(state);
    for (const action of transcript.actions) {
      const next = tryAction(state, action);
      if (!next.ok) break;
      state = next.state;
      states.push(state);
    }
  }
  return states;
}

for (const game of GAMES) {
  describe(`${game.id}: the phase in a player's words`, () => {
    const states = statesOf(game.id);

    it('has text, or none on purpose, for every phase its transcripts reach, and nothing else', () => {
      const reached = new Set<string>();
      for (const state of states) {
        const view = viewMatch(state);
        if (state.phase === 'roll-off') {
          expect(view.phaseText).toBe(ROLL_OFF_PHASE_TEXT);
          continue;
        }
        reached.add(view.phase);
        expect(Object.hasOwn(game.phases, view.phase), `${game.id}: no entry for phase "${view.phase}"`).toBe(true);
        expect(view.phaseText).toBe(game.phases[view.phase]);
      }
      expect([...reached].sort()).toEqual(Object.keys(game.phases).sort());
    });

    it('shows nothing once the game is over (the headline and the result say it)', () => {
      expect(game.phases.over).toBeNull();
    });

    it("words each phase for players: not the engine's id", () => {
      for (const [phase, text] of Object.entries(game.phases)) {
        if (text === null) continue;
        expect(text.trim()).not.toBe('');
        expect(text.toLowerCase()).not.toBe(phase.replaceAll('-', ' '));
      }
    });
  });
}
