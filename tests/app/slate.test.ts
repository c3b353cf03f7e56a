import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { viewMatch, type Action } from '../../src/lib/rules/index.ts';
import { replayLog } from '../../src/app/play.ts';
import { rowMarks } from '../../src/app/slate.ts';

const TRANSCRIPTS = resolve(import.meta.dirname, '..', 'transcripts');

/** Every stored transcript, as a header and its actions. */
function transcripts(): { file: string; header: { game: string; players: string[]; options: Record<string, unknown> }; actions: Action[] }[] {
  return readdirSync(TRANSCRIPTS).flatMap((game) =>
    readdirSync(join(TRANSCRIPTS, game))
      .filter((f) => f.endsWith('.json'))
      .map((f) => {
        const t = JSON.parse(readFileSync(join(TRANSCRIPTS, game, f), 'utf8'));
        return { file: `${game}/${f}`, header: { game: t.game, players: t.players, options: t.options ?? {} }, actions: t.actions };
      }),
  );
}

describe('the slate row beside a name', () => {
  it('badges whose turn it is and who won', () => {
    expect(rowMarks({ current: 1, winners: null }, { player: 1, note: null })).toEqual({ badges: ['to play'], note: null });
    // the badge says "winner"; the note, how
    expect(rowMarks({ current: null, winners: [0] }, { player: 0, note: 'winner: five 1s' })).toEqual({ badges: ['winner'], note: 'five 1s' });
    expect(rowMarks({ current: null, winners: [0] }, { player: 0, note: 'Winner' })).toEqual({ badges: ['winner'], note: null });
    expect(rowMarks({ current: 0, winners: null }, { player: 2, note: 'bumped: needs 500 to get back on' })).toEqual({ badges: [], note: 'bumped: needs 500 to get back on' });
  });

  it('never says the same word twice: a game note that a badge already shows is left out', () => {
    let repeatedByRules = 0;
    for (const { file, header, actions } of transcripts()) {
      // every position of every transcript, up to where its log stops (some end in a refusal)
      for (let n = 0; n <= actions.length; n++) {
        const { state, stoppedAt } = replayLog(header, actions.slice(0, n));
        if (stoppedAt) break;
        const view = viewMatch(state, null);
        for (const row of view.slate.rows) {
          const { badges, note } = rowMarks(view, row);
          if (row.note !== null && badges.includes(row.note)) repeatedByRules++;
          expect(note === null || !badges.includes(note), `${file} after ${n} actions, ${row.name}`).toBe(true);
        }
      }
    }
    // the games do note "winner" and "to play" themselves: the case is real
    expect(repeatedByRules).toBeGreaterThan(0);
  });
});
