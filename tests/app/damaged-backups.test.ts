/**
 * Random damage to a backup the app made itself (damage.ts): importing it, merged or replacing,
 * into a new phone, another phone or the phone it came from, either refuses it with a
 * `BackupError` a player can read and leaves the store exactly as it was, or imports it and the
 * store is sound: every log replays to its game's status and result, nobody sits twice at one
 * game, every reference resolves, what was here before a merge is still here unchanged, and the
 * store's own backup imports into a new phone as the same data.
 *
 * CI runs a fixed seed; `FUZZ_RUNS=3000 FUZZ_SEED=… npx vitest run --project unit <this file>` hunts longer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import 'fake-indexeddb/auto';
import { BackupError, type RollcallStore } from '../../src/lib/store/index.ts';
import { importBackupText, type ImportMode } from '../../src/lib/store/backup.ts';
import { freshStore } from '../store/helpers.ts';
import { damaged, damageArb, expectReadableRefusal, FUZZ_TIMEOUT_MS, fuzzParameters } from './damage.ts';
import { madeBackup } from './made-files.ts';
import { expectSound, snapshot, type Snapshot } from './sound-store.ts';

/** A merge adds; it never changes or drops a record the phone had. */
function expectKeptAfterMerge(before: Snapshot, after: Snapshot): void {
  for (const key of ['games', 'players', 'sessions', 'ledger', 'taughtSets', 'taughtFaces'] as const) {
    const now = new Map((after[key] as Array<{ id: string }>).map((r) => [r.id, r]));
    for (const record of before[key] as Array<{ id: string }>) expect(now.get(record.id), `${key} ${record.id} after a merge`).toEqual(record);
  }
}

let base = '';
let otherPhone = '';
beforeAll(async () => {
  base = await madeBackup(1);
  otherPhone = await madeBackup(2);
});

/** The phone the damaged file is imported into. */
type Target = 'new phone' | 'other phone' | 'same phone';
async function target(kind: Target): Promise<RollcallStore> {
  const store = await freshStore();
  if (kind === 'other phone') await importBackupText(store, otherPhone, 'replace');
  if (kind === 'same phone') await importBackupText(store, base, 'replace');
  return store;
}

describe('a damaged backup', () => {
  it('the undamaged backup imports soundly everywhere (the property starts from a good file)', async () => {
    for (const kind of ['new phone', 'other phone', 'same phone'] as const) {
      for (const mode of ['merge', 'replace'] as const) {
        const store = await target(kind);
        await importBackupText(store, base, mode);
        await expectSound(store);
        store.close();
      }
    }
  });

  it('is refused with a clear BackupError and nothing changed, or imported into a sound store', async () => {
    await fc.assert(
      fc.asyncProperty(damageArb, fc.constantFrom<Target>('new phone', 'other phone', 'same phone'), fc.constantFrom<ImportMode>('merge', 'replace'), async (damage, kind, mode) => {
        const text = damaged(base, damage);
        const store = await target(kind);
        try {
          const before = await snapshot(store);
          const outcome = await importBackupText(store, text, mode).then(
            () => null,
            (err: unknown) => err,
          );
          if (outcome !== null) {
            expectReadableRefusal(outcome, text, BackupError);
            expect((outcome as BackupError).message).toMatch(/Nothing was changed\.$/);
            expect(await snapshot(store)).toEqual(before);
            return;
          }
          await expectSound(store);
          if (mode === 'merge') expectKeptAfterMerge(before, await snapshot(store));
        } finally {
          store.close();
        }
      }),
      fuzzParameters(60),
    );
  }, FUZZ_TIMEOUT_MS);
});
