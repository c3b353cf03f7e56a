/**
 * Random damage to a transcript the app exported itself (damage.ts): reading it either refuses it
 * with a `TranscriptImportError` a player can read, or gives a transcript whose every action the
 * rules allow; importing it into History (a new phone, a phone that knows the players, the phone
 * it came from) either refuses it with that error or the store's `StoreError` and leaves the
 * store exactly as it was, or adds one game whose log replays to its status and result, in a
 * store that stays sound.
 *
 * CI runs a fixed seed; `FUZZ_RUNS=3000 FUZZ_SEED=… npx vitest run --project unit <this file>` hunts longer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import 'fake-indexeddb/auto';
import { readTranscript, TranscriptImportError } from '../../src/app/play.ts';
import { importTranscriptText } from '../../src/app/transcript-file.ts';
import { StoreError, type RollcallStore } from '../../src/lib/store/index.ts';
import { importBackupText } from '../../src/lib/store/backup.ts';
import { matchResult, replay } from '../../src/lib/rules/index.ts';
import { freshStore } from '../store/helpers.ts';
import { damaged, damageArb, expectReadableRefusal, FUZZ_TIMEOUT_MS, fuzzParameters } from './damage.ts';
import { madeBackup, madeTranscripts } from './made-files.ts';
import { expectSound, snapshot } from './sound-store.ts';

let transcripts: string[] = [];
let otherPhone = '';
let samePhone = '';
beforeAll(async () => {
  transcripts = await madeTranscripts(1);
  samePhone = await madeBackup(1);
  otherPhone = await madeBackup(2);
});

type Target = 'new phone' | 'other phone' | 'same phone';
async function target(kind: Target): Promise<RollcallStore> {
  const store = await freshStore();
  if (kind === 'other phone') await importBackupText(store, otherPhone, 'replace');
  if (kind === 'same phone') await importBackupText(store, samePhone, 'replace');
  return store;
}

describe('a damaged transcript', () => {
  it('the undamaged transcripts read and import (the properties start from good files)', async () => {
    expect(transcripts.length).toBeGreaterThanOrEqual(6);
    const store = await freshStore();
    for (const text of transcripts) await importTranscriptText(store, text);
    await expectSound(store);
    store.close();
  });

  it('is refused with a clear TranscriptImportError, or read as one the rules replay', () => {
    fc.assert(
      fc.property(fc.nat(), damageArb, (which, damage) => {
        const text = damaged(transcripts[which % transcripts.length]!, damage);
        let read: ReturnType<typeof readTranscript>;
        try {
          read = readTranscript(text);
        } catch (err) {
          expectReadableRefusal(err, text, TranscriptImportError);
          expect((err as Error).message).toMatch(/Nothing was imported\.$/);
          return;
        }
        expect(replay(read.transcript)).toEqual(read.state);
        expect(JSON.parse(JSON.stringify(read.transcript))).toEqual(read.transcript);
      }),
      fuzzParameters(300),
    );
  }, FUZZ_TIMEOUT_MS);

  it('imported into History: refused with nothing changed, or one sound game added', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), damageArb, fc.constantFrom<Target>('new phone', 'other phone', 'same phone'), async (which, damage, kind) => {
        const text = damaged(transcripts[which % transcripts.length]!, damage);
        const store = await target(kind);
        try {
          const before = await snapshot(store);
          let imported: Awaited<ReturnType<typeof importTranscriptText>>;
          try {
            imported = await importTranscriptText(store, text);
          } catch (err) {
            expectReadableRefusal(err, text, TranscriptImportError, StoreError);
            expect(await snapshot(store)).toEqual(before);
            return;
          }
          const after = await snapshot(store);
          expect(after.games.length).toBe(before.games.length + 1);
          const game = after.games.find((g) => g.id === imported.game.id)!;
          const state = replay({ game: game.game, players: game.players.map((p) => p.name), options: game.options, actions: game.actions.map((a) => a.action) as never }, { namesAsPlayed: true });
          expect(game.status).toBe(matchResult(state) ? 'finished' : 'active');
          expect(game.actions.map((a) => a.action)).toEqual(imported.transcript.actions);
          await expectSound(store);
        } finally {
          store.close();
        }
      }),
      fuzzParameters(60),
    );
  }, FUZZ_TIMEOUT_MS);
});
