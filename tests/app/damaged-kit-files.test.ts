/**
 * Random damage to kit files (damage.ts): a kit's `kit.json` as shipped, and a kit file as Kits
 * exports it (the kit, its art and taught photos). Reading either refuses it with a `KitError` a
 * player can read, or gives a kit that reads the same again; importing a kit file into Kits
 * (into a new phone or one that has the kit; the dice reader stubbed: every picture holds one die) either refuses it with that error or the
 * store's `StoreError` and leaves the store exactly as it was, or adds one dice set whose own
 * export reads back as the same kit, in a store that stays sound.
 *
 * CI runs a fixed seed; `FUZZ_RUNS=3000 FUZZ_SEED=… npx vitest run --project unit <this file>` hunts longer.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import 'fake-indexeddb/auto';
import { FACE_ID_PATTERN, KIT_ID_PATTERN, KitError, MAX_FACES, MIN_FACES, parseKit, parseKitText } from '../../src/lib/dice/validate.ts';
import { nameKey } from '../../src/lib/dice/names.ts';
import type { DiceKit } from '../../src/lib/dice/kit.ts';
import { makeKitBundle, parseKitBundleText } from '../../src/lib/dice/bundle.ts';
import { looksLikePicture } from '../../src/lib/dice/data-url.ts';
import { exportKitFile, importKitFile } from '../../src/app/kit-files.ts';
import { StoreError, type RollcallStore } from '../../src/lib/store/index.ts';
import type { DiceReader } from '../../src/lib/vision/dice-reader.ts';
import { freshStore } from '../store/helpers.ts';
import { damaged, damageArb, expectReadableRefusal, FUZZ_TIMEOUT_MS, fuzzParameters } from './damage.ts';
import { madeKitFile, OWN_KIT } from './made-files.ts';
import { expectSound, snapshot } from './sound-store.ts';

const kitJsons = ['standard', 'face-off', 'corellian-spike'].map((id) => readFileSync(new URL(`../../src/lib/dice/kits/${id}/kit.json`, import.meta.url), 'utf8'));
const kitFile = madeKitFile();

beforeAll(() => {
  // decodes what a browser would: bytes that begin as a picture
  vi.stubGlobal('createImageBitmap', async (blob: Blob) => {
    if (!looksLikePicture(new Uint8Array(await blob.arrayBuffer()))) throw new DOMException('The source image could not be decoded.', 'InvalidStateError');
    return { width: 64, height: 48, close() {} };
  });
});
afterAll(() => {
  vi.unstubAllGlobals();
});

/** The dice reader, as far as an import asks it: every picture holds one die, kept as a JPEG. */
const reader = {
  async teach() {
    return {
      ok: true as const,
      box: { x: 2, y: 2, w: 20, h: 20 },
      embedding: new Float32Array([0.6, 0.8]),
      embeddingModel: 'face-embed@1',
      kept: { image: new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], { type: 'image/jpeg' }), box: { x: 2, y: 2, w: 20, h: 20 } },
      ms: 1,
    };
  },
} as unknown as DiceReader;

/** A kit the app can use: ids it can name folders and records by, each face a label and a number (or none), read the same again. */
function expectSoundKit(kit: DiceKit): void {
  expect(kit.id).toMatch(KIT_ID_PATTERN);
  expect(nameKey(kit.name)).not.toBe('');
  expect(kit.faces.length).toBeGreaterThanOrEqual(MIN_FACES);
  expect(kit.faces.length).toBeLessThanOrEqual(MAX_FACES);
  for (const face of kit.faces) {
    expect(face.id).toMatch(FACE_ID_PATTERN);
    expect(typeof face.label === 'string' && nameKey(face.label) !== '').toBe(true);
    expect(face.value === null || Number.isFinite(face.value)).toBe(true);
    expect(face.group === null || (typeof face.group === 'string' && face.group.trim() !== '')).toBe(true);
  }
  expect(new Set(kit.faces.map((f) => f.id.toLowerCase())).size).toBe(kit.faces.length);
  expect(parseKit(JSON.parse(JSON.stringify(kit)))).toEqual(kit);
}

describe('a damaged kit file', () => {
  it('the undamaged files read (the properties start from good files)', () => {
    for (const text of kitJsons) expect(() => parseKitText(text)).not.toThrow();
    expect(() => parseKitBundleText(kitFile)).not.toThrow();
  });

  it("a kit's kit.json is refused with a clear KitError, or read as a kit that reads the same again", () => {
    fc.assert(
      fc.property(fc.nat(), damageArb, (which, damage) => {
        const text = damaged(kitJsons[which % kitJsons.length]!, damage);
        let kit: ReturnType<typeof parseKitText>;
        try {
          kit = parseKitText(text);
        } catch (err) {
          expectReadableRefusal(err, text, KitError);
          return;
        }
        expectSoundKit(kit);
      }),
      fuzzParameters(400),
    );
  }, FUZZ_TIMEOUT_MS);

  it('a kit file is refused with a clear KitError, or read as one that reads the same again', () => {
    fc.assert(
      fc.property(damageArb, (damage) => {
        const text = damaged(kitFile, damage);
        let bundle: ReturnType<typeof parseKitBundleText>;
        try {
          bundle = parseKitBundleText(text);
        } catch (err) {
          expectReadableRefusal(err, text, KitError);
          return;
        }
        expectSoundKit(bundle.kit);
        for (const url of [...Object.values(bundle.art), ...Object.values(bundle.examples).flat()]) expect(url).toMatch(/^data:image\/(png|jpeg|webp|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/);
        expect(makeKitBundle(bundle.kit, bundle.art, bundle.examples)).toEqual(bundle);
        expect(parseKitBundleText(JSON.stringify(bundle))).toEqual(bundle);
      }),
      fuzzParameters(400),
    );
  }, FUZZ_TIMEOUT_MS);

  it('imported into Kits: refused with nothing changed, or one sound dice set added', async () => {
    await fc.assert(
      fc.asyncProperty(damageArb, fc.boolean(), async (damage, importedBefore) => {
        const text = damaged(kitFile, damage);
        const store: RollcallStore = await freshStore();
        // the same kit imported before: a set of that name is here already
        if (importedBefore) await store.createTaughtSet(OWN_KIT.id, OWN_KIT.name, { kit: OWN_KIT });
        try {
          const before = await snapshot(store);
          let imported: Awaited<ReturnType<typeof importKitFile>>;
          try {
            imported = await importKitFile(store, reader, text, 'moon-dice.rollcall-kit.json');
          } catch (err) {
            expectReadableRefusal(err, text, KitError, StoreError);
            expect(await snapshot(store)).toEqual(before);
            return;
          }
          const after = await snapshot(store);
          expect(after.taughtSets.length).toBe(before.taughtSets.length + 1);
          if (imported.set.kit) expectSoundKit(imported.set.kit);
          const again = parseKitBundleText((await exportKitFile(store, imported.set.id)).text);
          expect(again.kit.faces).toEqual(parseKitBundleText(text).kit.faces);
          await expectSound(store);
        } finally {
          store.close();
        }
      }),
      fuzzParameters(150),
    );
  }, FUZZ_TIMEOUT_MS);
});
