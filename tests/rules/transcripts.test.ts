/**
 * Replays every transcript under tests/transcripts/<game>/ and checks its expectation:
 * `expect` (a subset of the replay summary, as `npm run replay` prints it) or `expectError`
 * (`{ index, code }` of the first illegal action).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTranscript, replay, ReplayError, summarize } from '../../src/lib/rules/index.ts';

const root = new URL('../transcripts/', import.meta.url).pathname;
const games = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory());

for (const dir of games) {
  describe(`transcripts/${dir.name}`, () => {
    const files = readdirSync(join(root, dir.name)).filter((f) => f.endsWith('.json'));
    for (const file of files) {
      const json = JSON.parse(readFileSync(join(root, dir.name, file), 'utf8')) as Record<string, unknown>;
      it(`${file}: ${String(json.description ?? '')}`, () => {
        expect(json.game).toBe(dir.name);
        const transcript = parseTranscript(json);
        if (json.expectError) {
          try {
            replay(transcript);
            expect.unreachable('the transcript should stop at an illegal action');
          } catch (error) {
            expect(error).toBeInstanceOf(ReplayError);
            const { index, code } = json.expectError as { index: number; code: string };
            expect((error as ReplayError).index).toBe(index);
            expect((error as ReplayError).ruleError.code).toBe(code);
          }
        } else {
          expect(json.expect, 'a transcript states its expected final state').toBeTypeOf('object');
          expect(summarize(replay(transcript))).toMatchObject(json.expect as object);
        }
      });
    }
  });
}
