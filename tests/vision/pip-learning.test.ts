import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate, filledValue } from '../../scripts/lib/evaluate.ts';
import { createNodeFaceEmbedder } from '../../scripts/lib/node-faces.ts';
import { createNodeDetector, REPO_ROOT } from '../../scripts/lib/node-vision.ts';
import { logoOnesAlone } from '../../scripts/lib/fixture-mosaic.ts';
import type { FaceEmbedder, FaceEmbedderConfig } from '../../src/lib/vision/face-embedder.ts';
import { learnConfirmed, type FacePrototype } from '../../src/lib/vision/face-reader.ts';
import { pipFaceId, readOtherPips } from '../../src/lib/vision/pip-learning.ts';
import type { Box, Die, RgbaImage } from '../../src/lib/vision/types.ts';

/** A unit vector in 2-D at `deg` degrees. */
const v = (deg: number): Float32Array => Float32Array.from([Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180)]);

/** A stand-in embedder: each box's vector is set by its x (its angle in degrees); records what it embedded. */
function fakeEmbedder(): FaceEmbedder & { embedded: Box[][] } {
  const embedded: Box[][] = [];
  return {
    embedded,
    config: { threshold: 0.9, ambiguityMargin: 0.02 } as FaceEmbedderConfig,
    async embed(_image: RgbaImage, boxes: readonly Box[]) {
      embedded.push([...boxes]);
      return boxes.map((b) => v(b.x));
    },
    embedCrops: async () => [],
    release: async () => undefined,
  };
}
const image: RgbaImage = { width: 1, height: 1, data: new Uint8ClampedArray(4) };
const die = (value: number | null, deg: number): Die => ({ value, box: { x: deg, y: 0, w: 10, h: 10 }, score: 0.9, classIndex: value === null ? 6 : value - 1 });
const learnt = (faceId: string, deg: number): FacePrototype => ({ faceId, source: 'confirmed', embedding: v(deg) });

describe('pip dice read `other`, learnt at the table', () => {
  it('embeds nothing when every die was read as a pip face', async () => {
    const embedder = fakeEmbedder();
    const dice = [die(3, 0), die(5, 40)];
    const read = await readOtherPips(embedder, image, dice, [learnt('1', 0)]);
    expect(read.reads).toBeNull();
    expect(read.dice).toEqual(dice);
    expect(embedder.embedded).toEqual([]);
  });

  it('with nothing learnt, a die read `other` stays unread but carries the vector to learn it by', async () => {
    const embedder = fakeEmbedder();
    const read = await readOtherPips(embedder, image, [die(4, 0), die(null, 90)], []);
    expect(read.dice.map((d) => d.value)).toEqual([4, null]);
    expect(read.reads![0]).toBeNull();
    expect(read.reads![1]).toMatchObject({ faceId: null, nearestFaceId: null });
    expect(Array.from(read.reads![1]!.embedding)).toEqual(Array.from(v(90)));
    // only the `other` die is embedded
    expect(embedder.embedded).toEqual([[{ x: 90, y: 0, w: 10, h: 10 }]]);
  });

  it('a value read unsurely is a pip face, not a face to learn: never embedded nor read by what was learnt', async () => {
    const embedder = fakeEmbedder();
    const unsure: Die = { ...die(3, 90), valueProbability: 0.3, unsure: true };
    const read = await readOtherPips(embedder, image, [die(4, 0), unsure], [learnt('1', 90)]);
    expect(read.reads).toBeNull();
    expect(read.dice).toEqual([die(4, 0), unsure]);
    expect(embedder.embedded).toEqual([]);
  });

  it('a die read `other` that looks like a face the player filled in reads as that face', async () => {
    const embedder = fakeEmbedder();
    const prototypes = learnConfirmed([], [{ faceId: pipFaceId(1), embedding: v(90) }]);
    const read = await readOtherPips(embedder, image, [die(2, 0), die(null, 95)], prototypes);
    expect(read.dice.map((d) => d.value)).toEqual([2, 1]);
    expect(read.reads![1]).toMatchObject({ faceId: '1', nearestFaceId: '1' });
    // the box and score are the reader's
    expect(read.dice[1]!.box).toEqual(die(null, 95).box);
  });

  it("a die unlike every face learnt stays unread (the embedder's unknown rule)", async () => {
    const read = await readOtherPips(fakeEmbedder(), image, [die(null, 180)], [learnt('1', 90)]);
    expect(read.dice[0]!.value).toBeNull();
    expect(read.reads![0]).toMatchObject({ faceId: null, nearestFaceId: '1' });
  });

  it('two learnt faces too close to call leave the die unread', async () => {
    const read = await readOtherPips(fakeEmbedder(), image, [die(null, 90)], [learnt('1', 85), learnt('6', 95)]);
    expect(read.dice[0]!.value).toBeNull();
  });

  it('a prototype that is no pip face is never read as a value', async () => {
    const read = await readOtherPips(fakeEmbedder(), image, [die(null, 90)], [learnt('star', 90)]);
    expect(read.dice[0]!.value).toBeNull();
    expect(read.reads![0]!.faceId).toBeNull();
  });

  it('does not change the dice it was given', async () => {
    const dice = [die(null, 90)];
    await readOtherPips(fakeEmbedder(), image, dice, [learnt('1', 90)]);
    expect(dice[0]!.value).toBeNull();
  });
});

describe('a table of logo ones, as `npm run eval -- --learn` reads it', () => {
  const LOGO_ONES = path.join(REPO_ROOT, 'tests/fixtures/dice-photos/logo-ones');

  it('the value a player fills every ? with, when that is all the read needs', () => {
    const truth = [1, 1, 5].map((value, i) => ({ value, box: { x: i * 100, y: 0, w: 50, h: 50 } }));
    const at = (i: number, value: number | null) => ({ value, box: { x: i * 100 - 5, y: -5, w: 60, h: 60 } });
    expect(filledValue(truth, [at(0, null), at(1, null), at(2, 5)])).toBe(1);
    expect(filledValue(truth, [at(0, null), at(1, 1), at(2, 5)])).toBe(1);
    expect(filledValue(truth, [at(0, null), at(1, 1), at(2, null)])).toBeNull(); // a 1 and a 5
    expect(filledValue(truth, [at(0, null), at(1, 1), at(2, 5), at(5, null)])).toBeNull(); // a ? where no die lies
    expect(filledValue(truth, [at(0, null), at(1, 1), at(2, 6)])).toBeNull(); // a die to correct too
    expect(filledValue(truth, [at(0, null), at(1, 1)])).toBeNull(); // a die to add too
    expect(filledValue(truth, [at(0, 1), at(1, 1), at(2, 5)])).toBeNull(); // nothing to fill
  });

  it('reads branded ones among pip dice at once, and learns a throw of branded ones alone', { timeout: 120_000 }, async () => {
    // a table of two throws of five logo ones and nothing else (logoOnesAlone), as labelled photos
    const table = mkdtempSync(path.join(tmpdir(), 'logo-table-'));
    const images = [];
    for (const t of [0, 1] as const) {
      const { jpeg, dice } = await logoOnesAlone(t);
      writeFileSync(path.join(table, `throw-${t}.jpg`), jpeg);
      images.push({ file: `throw-${t}.jpg`, width: 640, height: 480, dice });
    }
    writeFileSync(path.join(table, 'labels.json'), JSON.stringify({ source: 'test', license: 'test', box_style: 'whole-die', images }));
    const detector = await createNodeDetector({ threads: 1 });
    const embedder = await createNodeFaceEmbedder({ threads: 1 });
    try {
      const ones = (s: { confusion: { rows: string[]; counts: number[][] } }) => s.confusion.counts[s.confusion.rows.indexOf('1')]!;
      // among pip dice the reader reads the logo ones `other`, and the rule reads them 1s: every roll exactly, nothing to learn
      const mixed = (await evaluate(detector, [LOGO_ONES])).datasets[0]!;
      expect(mixed.exactRollAccuracy).toBe(1);
      expect(ones(mixed)[0]).toBe(8);
      const mixedLearning = (await evaluate(detector, [LOGO_ONES], { pipLearning: { embedder } })).datasets[0]!;
      expect(mixedLearning.confusion.counts).toEqual(mixed.confusion.counts);
      // alone they stay `other`: no throw exactly
      const before = (await evaluate(detector, [table])).datasets[0]!;
      const other = before.confusion.columns.indexOf('other');
      expect(ones(before)[other]).toBe(10);
      expect(before.exactRollAccuracy).toBe(0);
      // the first throw's five are filled in; the second throw's five read as 1s
      const learnt = (await evaluate(detector, [table], { pipLearning: { embedder } })).datasets[0]!;
      expect(ones(learnt)[other]).toBe(5);
      expect(ones(learnt)[0]).toBe(5);
      expect(learnt.exactRollAccuracy).toBe(0.5);
    } finally {
      await embedder.release();
      await detector.release();
      rmSync(table, { recursive: true, force: true });
    }
  });
});
