import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import {
  applyDieFaceReads,
  bestClasses,
  brandedOnes,
  brandedOnesAmongPips,
  completeRead,
  createDieFaceReader,
  DieFaceConfigError,
  detectCounted,
  findMissedDice,
  firstPass,
  averagedLooks,
  parseDieFaceConfig,
  shiftedBoxes,
  markUnsure,
  partTouchingDice,
  proposedValue,
  withDieFaceReader,
  type DieFaceConfig,
  type DieFaceReader,
} from '../../src/lib/vision/die-face-reader.ts';
import type { OrtModule } from '../../src/lib/vision/detector.ts';
import { mirrorCrop } from '../../src/lib/vision/face-embedder.ts';
import type { Die, RgbaImage } from '../../src/lib/vision/types.ts';
import { createNodeDetector, dieFaceModelPath, SHIPPED_DIE_FACE_MODEL } from '../../scripts/lib/node-vision.ts';
import { patternFloor, perfectDetections } from '../../scripts/lib/evaluate.ts';
import { REPO, TEST_MODEL } from './cli-helpers.ts';
import { COLOUR, scenePng } from './synthetic-scenes.ts';

// The hand-wired reader (tests/fixtures/die-face-model): mean colour of the crop, nearest of
// cyan 1, grey 2, yellow 3, blue 4, green 5, red 6, white other, magenta none.
const TEST_READER = path.join(REPO, 'tests/fixtures/die-face-model/die-face-test.onnx');
const testConfig = parseDieFaceConfig(JSON.parse(readFileSync(TEST_READER.replace(/\.onnx$/, '.json'), 'utf8')));

const die = (value: number | null, x: number, classIndex = 0): Die => ({ value, box: { x, y: 10, w: 20, h: 20 }, score: 0.9, classIndex });

/** A first pass that finds these candidates (best first), above the threshold it is asked for. */
const firstPassOf = (candidates: Die[]) => {
  const asked: number[] = [];
  const detector = {
    config: {} as never,
    detect: async (_image: RgbaImage, options?: { scoreThreshold?: number }) => {
      asked.push(options?.scoreThreshold ?? -1);
      return { dice: candidates.filter((c) => c.score >= (options?.scoreThreshold ?? 0)), timing: { preprocessMs: 0, inferenceMs: 0, postprocessMs: 0 } };
    },
    release: async () => {},
  };
  return { detector, asked };
};
/** A box the detector found weakly, its class the detector's `other`. */
const weak = (x: number, score: number): Die => ({ value: null, box: { x, y: 10, w: 20, h: 20 }, score, classIndex: 6 });

async function rgba(png: Buffer): Promise<RgbaImage> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}

describe('die-face sidecar', () => {
  const good = { inputSize: 48, cropMargin: 1.2, classes: ['1', '2', '3', '4', '5', '6', 'other', 'none'], training: { anything: true } };

  it('keeps what the reader needs and ignores the rest', () => {
    expect(parseDieFaceConfig(good)).toEqual({ inputSize: 48, cropMargin: 1.2, classes: good.classes, firstPass: null, weakDice: null, recount: null, secondLook: null, brandedOne: null, falseDice: null, touchingDice: null, unsure: null });
    expect(parseDieFaceConfig({ ...good, secondLook: { below: 0.8 } }).secondLook).toEqual({ below: 0.8, margins: [] });
    expect(parseDieFaceConfig({ ...good, secondLook: { below: 0.8, margins: [1, 1.1] } }).secondLook).toEqual({ below: 0.8, margins: [1, 1.1] });
    for (const secondLook of [{ below: 2 }, { below: -0.1 }, { below: '0.8' }, 0.8, {}, { below: 0.8, margins: 1.1 }, { below: 0.8, margins: [0.5] }, { below: 0.8, margins: ['1.1'] }, { below: 0.8, margins: [1, 1, 1, 1, 1] }]) {
      expect(() => parseDieFaceConfig({ ...good, secondLook })).toThrow(/"secondLook" must be/);
    }
    const weakDice = { scoreThreshold: 0.02, maxCandidates: 8, minProbability: 0.8 };
    expect(parseDieFaceConfig({ ...good, weakDice }).weakDice).toEqual(weakDice);
    expect(parseDieFaceConfig({ ...good, weakDice: { ...weakDice, shift: 0.25 } }).weakDice).toEqual({ ...weakDice, shift: 0.25 });
    for (const bad of [{ ...weakDice, minProbability: 1.5 }, { ...weakDice, maxCandidates: 0 }, { scoreThreshold: 0.02, maxCandidates: 8 }, 'sure', { ...weakDice, shift: 1.5 }, { ...weakDice, shift: '0.25' }]) {
      expect(() => parseDieFaceConfig({ ...good, weakDice: bad })).toThrow(/"weakDice" must be/);
    }
    expect(parseDieFaceConfig({ ...good, recount: { scoreThreshold: 0.02, maxCandidates: 8, shift: 0.4 } }).recount).toEqual({ scoreThreshold: 0.02, maxCandidates: 8, shift: 0.4 });
    expect(() => parseDieFaceConfig({ ...good, recount: { scoreThreshold: 0.02, maxCandidates: 8, shift: -0.1 } })).toThrow(/"recount" must be/);
    expect(parseDieFaceConfig({ ...good, recount: { scoreThreshold: 0.02, maxCandidates: 8 } }).recount).toEqual({ scoreThreshold: 0.02, maxCandidates: 8 });
    for (const recount of [{ scoreThreshold: 2, maxCandidates: 8 }, { scoreThreshold: 0.02, maxCandidates: 0 }, { scoreThreshold: 0.02, maxCandidates: 2.5 }, [0.02, 8]]) {
      expect(() => parseDieFaceConfig({ ...good, recount })).toThrow(/"recount" must be/);
    }
    expect(parseDieFaceConfig({ ...good, unsure: { below: 0.4 } }).unsure).toEqual({ below: 0.4 });
    for (const unsure of [{ below: 1.5 }, { below: -0.1 }, { below: '0.4' }, {}, 0.4]) {
      expect(() => parseDieFaceConfig({ ...good, unsure })).toThrow(/"unsure" must be/);
    }
    expect(parseDieFaceConfig({ ...good, brandedOne: { minShare: 0.8 } }).brandedOne).toEqual({ minShare: 0.8, amongPipDice: false });
    expect(parseDieFaceConfig({ ...good, brandedOne: { minShare: 0.8, amongPipDice: true } }).brandedOne).toEqual({ minShare: 0.8, amongPipDice: true });
    for (const brandedOne of [{ minShare: 0.5 }, { minShare: 1.2 }, { minShare: '0.8' }, {}, 0.8, { minShare: 0.8, amongPipDice: 'yes' }]) {
      expect(() => parseDieFaceConfig({ ...good, brandedOne })).toThrow(/"brandedOne" must be/);
    }
    const firstPass = { score: 'class', scoreThreshold: 0.2, containment: 0.5 };
    expect(parseDieFaceConfig({ ...good, firstPass }).firstPass).toEqual(firstPass);
    expect(() => parseDieFaceConfig({ ...good, firstPass: { ...firstPass, score: 'best' } })).toThrow(/"firstPass" must be/);
    expect(() => parseDieFaceConfig({ ...good, firstPass: { score: 'class', scoreThreshold: 2, containment: 0.5 } })).toThrow(/"firstPass" must be/);
    expect(() => parseDieFaceConfig({ ...good, firstPass: 0.2 })).toThrow(/"firstPass" must be/);
    expect(parseDieFaceConfig({ ...good, classes: ['other', '6', '5', '4', '3', '2', '1'] }).classes).toHaveLength(7); // `none` is optional
  });

  it.each([
    [null, /expected a JSON object/],
    [{ ...good, inputSize: 4 }, /"inputSize" must be an integer in \[8, 512\], got 4/],
    [{ ...good, inputSize: 48.5 }, /"inputSize"/],
    [{ ...good, cropMargin: 0.5 }, /"cropMargin" must be a number in \[1, 4\]/],
    [{ ...good, classes: 'all' }, /"classes" must be an array/],
    [{ ...good, classes: [...good.classes, 'seven'] }, /unknown class "seven"/],
    [{ ...good, classes: [...good.classes, '1'] }, /has a name twice/],
    [{ ...good, classes: ['1', '2', '4', '5', '6', 'other'] }, /lacks "3"/],
  ])('refuses %j with a clear error', (json, message) => {
    expect(() => parseDieFaceConfig(json)).toThrow(DieFaceConfigError);
    expect(() => parseDieFaceConfig(json)).toThrow(message);
  });
});

describe('reading the classes', () => {
  it('takes the most probable class of each row', () => {
    const probs = Float32Array.from([0.1, 0.7, 0.2, /**/ 0.5, 0.2, 0.3, /**/ 0.2, 0.2, 0.6]);
    expect(bestClasses(probs, 3, 3).map((r) => r.classIndex)).toEqual([1, 0, 2]);
    expect(bestClasses(probs, 3, 3)[0]!.probability).toBeCloseTo(0.7, 6);
  });

  it('sets values, reads `other` as no value, drops `none`, keeps boxes and scores', () => {
    const config: DieFaceConfig = { inputSize: 8, cropMargin: 1, classes: ['1', '2', '3', '4', '5', '6', 'other', 'none'], firstPass: null, weakDice: null, recount: null, secondLook: null, brandedOne: null, falseDice: null, touchingDice: null, unsure: null };
    const dice = [die(1, 0), die(5, 30), die(null, 60, 6), die(2, 90)];
    const reads = [5, 7, 3, 6].map((classIndex) => ({ classIndex, probability: 0.9 }));
    const out = applyDieFaceReads(dice, reads, config);
    expect(out.map((d) => d.value)).toEqual([6, 4, null]);
    expect(out.map((d) => d.box.x)).toEqual([0, 60, 90]);
    expect(out.map((d) => d.classIndex)).toEqual([5, 3, 6]);
    expect(out[0]!.score).toBe(0.9);
    expect(dice[0]!.value).toBe(1); // the input is not changed
    expect(() => applyDieFaceReads(dice, reads.slice(1), config)).toThrow(/4 dice but 3 reads/);
    expect(() => applyDieFaceReads([die(1, 0)], [{ classIndex: 8, probability: 1 }], config)).toThrow(/not one of the 8 classes/);
  });
});

describe('the unsure rule: a value read unsurely is asked for at the table', () => {
  const read = (value: number | null, valueProbability?: number): Die => ({ ...die(value, 0), ...(valueProbability === undefined ? {} : { valueProbability }) });

  it('marks a value read below the rule unsure, and only that; the table proposes it as `?`', () => {
    const dice = [read(5, 0.95), read(3, 0.39), read(null, 0.2), read(4)];
    const out = markUnsure(dice, { below: 0.4 });
    expect(out.map((d) => [d.value, d.unsure])).toEqual([[5, undefined], [3, true], [null, undefined], [4, undefined]]);
    expect(out.map(proposedValue)).toEqual([5, null, null, 4]);
    expect(out[1]!.valueProbability).toBe(0.39);
    expect(dice[1]!.unsure).toBeUndefined(); // the input is not changed
    expect(markUnsure(dice, { below: 0.39 })[1]!.unsure).toBeUndefined(); // at the rule's probability the value is proposed
    // marked again under another rule (or none), a mark that no longer holds goes
    expect(markUnsure(out, { below: 0.3 })[1]).toEqual(dice[1]);
    expect(markUnsure(out, null)).toEqual(dice);
  });
});

describe('the second look: a die read unsurely is read again mirrored', () => {
  it('mirrors a crop left to right, channel by channel', () => {
    const k = 2;
    const src = Float32Array.from([1, 2, 3, 4, /* G */ 5, 6, 7, 8, /* B */ 9, 10, 11, 12]);
    const out = new Float32Array(3 * k * k + 1);
    mirrorCrop(src, 0, out, 1, k);
    expect([...out]).toEqual([0, 2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11]);
  });

  it('averages the looked-at rows with their other reads and leaves the rest', () => {
    const probs = Float32Array.from([0.6, 0.4, /**/ 0.9, 0.1, /**/ 0.5, 0.5]);
    const mirrored = Float32Array.from([0.2, 0.8, /**/ 0.1, 0.9]);
    const out = averagedLooks(probs, 2, [0, 2], [mirrored]);
    expect([...out].map((v) => Math.round(v * 100) / 100)).toEqual([0.4, 0.6, 0.9, 0.1, 0.3, 0.7]);
    expect(probs[0]).toBeCloseTo(0.6, 6); // the input is not changed
    const three = averagedLooks(probs, 2, [0, 2], [mirrored, Float32Array.from([0.7, 0.3, /**/ 0.3, 0.7])]);
    expect([...three].map((v) => Math.round(v * 100) / 100)).toEqual([0.5, 0.5, 0.9, 0.1, 0.3, 0.7]);
  });

  // A stand-in model that reads '1' from a crop brighter on its left and '2' from one brighter on
  // its right, surely or not as the sides differ: what the reader asks of it, and how it answers.
  const sidedModel = (): { ort: OrtModule; batches: number[]; means: number[] } => {
    const batches: number[] = [];
    const means: number[] = []; // each crop's mean red, 0-1
    const session = {
      inputNames: ['crops'],
      outputNames: ['probs'],
      run: async (feeds: Record<string, { data: Float32Array; dims: readonly number[] }>) => {
        const { data, dims } = feeds.crops!;
        const [n, , k] = dims as [number, number, number, number];
        batches.push(n);
        const out = new Float32Array(n * 8);
        for (let i = 0; i < n; i++) {
          let left = 0;
          let right = 0;
          for (let y = 0; y < k; y++) for (let x = 0; x < k; x++) (x < k / 2 ? (v: number) => (left += v) : (v: number) => (right += v))(data[i * 3 * k * k + y * k + x]!);
          means.push((left + right) / (k * k));
          const one = Math.min(0.95, Math.max(0.05, 0.5 + (left - right) / (k * k)));
          out[i * 8] = one;
          out[i * 8 + 1] = 1 - one;
        }
        return { probs: { type: 'float32', data: out, dims: [n, 8], dispose: () => {} } };
      },
      release: async () => {},
    };
    const ort = { InferenceSession: { create: async () => session }, Tensor: class { constructor(readonly type: string, readonly data: Float32Array, readonly dims: number[]) {} } };
    return { ort: ort as unknown as OrtModule, batches, means };
  };
  /** A die 20 px wide at x = 10 whose left half is `left` grey and right half `right`. */
  const sidedDie = (left: number, right: number): RgbaImage => {
    const width = 40;
    const data = new Uint8Array(width * 40 * 4).fill(0);
    for (let y = 10; y < 30; y++) for (let x = 10; x < 30; x++) data.set([x < 20 ? left : right, 0, 0, 255], (y * width + x) * 4);
    return { width, height: 40, data };
  };
  const config = (secondLook: DieFaceConfig['secondLook']): DieFaceConfig => ({ inputSize: 8, cropMargin: 1, classes: ['1', '2', '3', '4', '5', '6', 'other', 'none'], firstPass: null, weakDice: null, recount: null, secondLook, brandedOne: null, falseDice: null, touchingDice: null, unsure: null });

  it('reads an unsure die again mirrored and takes the average; a sure one is read once', async () => {
    const unsure = sidedDie(160, 120); // '1', but not surely
    const sure = sidedDie(255, 0);
    const box = [{ box: { x: 10, y: 10, w: 20, h: 20 } }];
    for (const [secondLook, image, looks, classIndex] of [
      [null, unsure, [1], 0],
      [{ below: 0.5, margins: [] }, unsure, [1], 0],   // sure enough for this bound: one look
      [{ below: 0.8, margins: [] }, unsure, [1, 1], 0], // looked at twice: '1' and its mirror '2' average to even (0.5 each)
      [{ below: 0.8, margins: [] }, sure, [1], 0],
      [{ below: 1.01, margins: [] }, sure, [1, 1], 0],  // every die
    ] as const) {
      const { ort, batches } = sidedModel();
      const reader = await createDieFaceReader(ort, new Uint8Array(0), config(secondLook));
      const [read] = await reader.readBoxes(image, box);
      expect(batches).toEqual(looks);
      expect(read!.classIndex).toBe(classIndex);
      if (looks.length === 2) expect(read!.probability).toBeCloseTo(0.5, 1);
    }
  });

  it('reads an unsure die at the second look\'s margins too, as cut and mirrored, in the same one more batch', async () => {
    const { ort, batches, means } = sidedModel();
    const reader = await createDieFaceReader(ort, new Uint8Array(0), config({ below: 0.8, margins: [2] }));
    const [read] = await reader.readBoxes(sidedDie(160, 120), [{ box: { x: 10, y: 10, w: 20, h: 20 } }]);
    expect(batches).toEqual([1, 3]);
    // the first crop is the die (cropMargin 1); at margin 2 the crop is the whole 40 px frame, a quarter of it die
    expect(means[1]).toBeCloseTo(means[0]!, 5); // mirrored
    expect(means[2]! / means[0]!).toBeCloseTo(0.25, 1);
    expect(means[3]).toBeCloseTo(means[2]!, 5);
    // '1' and its mirror '2' at each margin: the four reads average to even
    expect(read!.probability).toBeCloseTo(0.5, 5);
  });

  it('looks again at the unsure dice of a batch only, in one more batch', async () => {
    const { ort, batches } = sidedModel();
    const reader = await createDieFaceReader(ort, new Uint8Array(0), config({ below: 0.8, margins: [] }));
    const width = 100;
    const data = new Uint8Array(width * 40 * 4);
    const paint = (x0: number, left: number, right: number) => {
      for (let y = 10; y < 30; y++) for (let x = x0; x < x0 + 20; x++) data.set([x < x0 + 10 ? left : right, 0, 0, 255], (y * width + x) * 4);
    };
    paint(0, 255, 0); // sure '1'
    paint(40, 150, 130); // unsure
    paint(80, 0, 255); // sure '2'
    const reads = await reader.readBoxes({ width, height: 40, data }, [0, 40, 80].map((x) => ({ box: { x, y: 10, w: 20, h: 20 } })));
    expect(batches).toEqual([3, 1]);
    expect(reads.map((r) => r.classIndex)).toEqual([0, 0, 1]);
    expect(reads[0]!.probability).toBeCloseTo(0.95, 5);
  });
});

describe('die-face reader on onnxruntime-node (hand-wired test model)', () => {
  let reader: DieFaceReader;
  let ort: OrtModule;
  beforeAll(async () => {
    ort = (await import('onnxruntime-node')) as unknown as OrtModule;
    reader = await createDieFaceReader(ort, new Uint8Array(readFileSync(TEST_READER)), testConfig);
  });
  afterAll(() => reader?.release());

  it('reads each die from its crop of the frame, in order, one batch for many dice', async () => {
    const image = await rgba(await scenePng(200, 60, [
      { x: 10, y: 10, side: 20, rgb: COLOUR[1] },     // red: the reader's 6
      { x: 50, y: 10, side: 20, rgb: COLOUR[6] },     // cyan: 1
      { x: 90, y: 10, side: 20, rgb: COLOUR.other },  // white: other
      { x: 130, y: 10, side: 20, rgb: COLOUR[5] },    // magenta: none
    ]));
    const dice = [die(1, 10), die(6, 50), die(null, 90), die(5, 130), die(3, 170)]; // the last: grey table
    const out = await reader.read(image, dice);
    expect(out.map((d) => [d.box.x, d.value])).toEqual([[10, 6], [50, 1], [90, null], [170, 2]]);
    const many = await reader.readBoxes(image, Array.from({ length: 70 }, (_, i) => ({ box: { x: 10 + (i % 2) * 40, y: 10, w: 20, h: 20 } })));
    expect(many.map((r) => r.classIndex)).toEqual(Array.from({ length: 70 }, (_, i) => (i % 2 ? 0 : 5)));
    expect(await reader.read(image, [])).toEqual([]);
  });

  it('refuses a model without the contract\'s tensor names', async () => {
    const wrong = new Uint8Array(readFileSync(path.join(REPO, 'tests/fixtures/test-model/test-model-wrong-names.onnx')));
    await expect(createDieFaceReader(ort, wrong, testConfig)).rejects.toThrow(/expected input "crops" and output "probs"/);
  });

  it('refuses a sidecar whose classes do not fit the model output', async () => {
    const seven = await createDieFaceReader(ort, new Uint8Array(readFileSync(TEST_READER)), { ...testConfig, classes: testConfig.classes.slice(0, 7) });
    const image = await rgba(await scenePng(40, 40, []));
    await expect(seven.readBoxes(image, [{ box: { x: 0, y: 0, w: 10, h: 10 } }])).rejects.toThrow(/must be float32 \[B, 7\]/);
    await seven.release();
  });

  it('is the second pass of the detector: values replaced, `none` dropped, time reported', async () => {
    const node = await createNodeDetector({ modelPath: TEST_MODEL, dieFace: TEST_READER, threads: 1 });
    try {
      // 200×100 frames; the test detector finds stride-32 cells (x 20c, y 20r − 50, side 20).
      const image = await rgba(await scenePng(200, 100, [
        { x: 40, y: 10, side: 20, rgb: COLOUR[1] },      // detector 1, reader 6
        { x: 140, y: 50, side: 20, rgb: COLOUR[5] },     // detector 5, reader none
        { x: 0, y: 70, side: 20, rgb: COLOUR.other },    // detector other, reader other
      ]));
      const two = await node.detect(image);
      const one = await firstPass(node).detect(image);
      const byX = (d: Die[]): Array<[number, number | null]> => d.map((x): [number, number | null] => [x.box.x, x.value]).sort((a, b) => a[0] - b[0]);
      expect(byX(one.dice)).toEqual([[0, null], [40, 1], [140, 5]]);
      expect(byX(two.dice)).toEqual([[0, null], [40, 6]]);
      expect(two.timing.faceReadMs).toBeGreaterThanOrEqual(0);
      expect(one.timing.faceReadMs).toBeUndefined();
      expect(node.dieFacePath).toBe(TEST_READER);
    } finally {
      await node.release();
    }
    const alone = await createNodeDetector({ modelPath: TEST_MODEL, dieFace: 'off' });
    expect(alone.dieFacePath).toBeNull();
    expect(firstPass(alone)).toBe(alone);
    await alone.release();
  });

  it('wraps any detector (withDieFaceReader) and releases both sessions', async () => {
    let released = 0;
    const stub = { config: {} as never, detect: async () => ({ dice: [die(3, 10)], timing: { preprocessMs: 0, inferenceMs: 0, postprocessMs: 0 } }), release: async () => void released++ };
    const other = await createDieFaceReader(ort, new Uint8Array(readFileSync(TEST_READER)), testConfig);
    const two = withDieFaceReader(stub, other);
    const image = await rgba(await scenePng(60, 60, [{ x: 10, y: 10, side: 20, rgb: COLOUR[2] }])); // green: 5
    expect((await two.detect(image)).dice.map((d) => d.value)).toEqual([5]);
    await two.release();
    expect(released).toBe(1);
  });
});

describe('findMissedDice (the count of dice in view known)', () => {
  let reader: DieFaceReader;
  beforeAll(async () => {
    const ort = (await import('onnxruntime-node')) as unknown as OrtModule;
    const config = { ...testConfig, firstPass: { score: 'objectness' as const, scoreThreshold: 0.6, containment: 0.4 }, recount: { scoreThreshold: 0.02, maxCandidates: 8 } };
    reader = await createDieFaceReader(ort, new Uint8Array(readFileSync(TEST_READER)), config);
  });
  afterAll(() => reader?.release());


  it('reads weak candidates clear of the dice found, and adds those read as values until the count is met', async () => {
    const image = await rgba(await scenePng(260, 40, [
      { x: 10, y: 10, side: 20, rgb: COLOUR[1] },      // found already (reader 6)
      { x: 50, y: 10, side: 20, rgb: COLOUR[5] },      // magenta: none, no die there
      { x: 90, y: 10, side: 20, rgb: COLOUR.other },   // white: a die, but no pip value
      { x: 130, y: 10, side: 20, rgb: COLOUR[6] },     // cyan: 1
      { x: 170, y: 10, side: 20, rgb: COLOUR[3] },     // the reader's 4
    ]));
    const found = [{ ...die(6, 10), score: 0.9 }];
    // the detector's boxes below the first pass, best first
    const below = [weak(12, 0.55) /* the found die again */, weak(50, 0.5), weak(90, 0.4), weak(130, 0.3), weak(170, 0.2), weak(230, 0.01) /* under the recount's 0.02 */];
    const added = await findMissedDice(reader, image, found, below, 3);
    expect(added.map((d) => [d.box.x, d.value])).toEqual([[130, 1], [170, 4]]);
    expect(await findMissedDice(reader, image, found, below, 2)).toHaveLength(1);
    expect(await findMissedDice(reader, image, found, below, 1)).toEqual([]);
  });

  it('detectCounted: one detector run down to the recount threshold, split at the first pass; the read as is without a count', async () => {
    const image = await rgba(await scenePng(260, 40, [
      { x: 10, y: 10, side: 20, rgb: COLOUR[1] },      // reader 6
      { x: 90, y: 10, side: 20, rgb: COLOUR[5] },      // magenta: none
      { x: 130, y: 10, side: 20, rgb: COLOUR[6] },     // reader 1
    ]));
    const { detector, asked } = firstPassOf([weak(10, 0.9), weak(90, 0.7) /* kept, read `none` */, weak(130, 0.3)]);
    const two = withDieFaceReader(detector, reader);
    const plain = await detectCounted(two, image);
    expect(plain.dice.map((d) => d.value)).toEqual([6]);
    expect(asked).toEqual([0.6]); // the first pass's own rule
    const met = await detectCounted(two, image, 1);
    expect(met.dice).toEqual(plain.dice);
    expect(met.timing.missedDiceMs).toBeUndefined();
    expect(asked).toEqual([0.6, 0.02]); // one run, down to the recount's threshold
    const counted = await detectCounted(two, image, 2);
    expect(counted.dice.map((d) => [d.box.x, d.value])).toEqual([[10, 6], [130, 1]]);
    expect(counted.timing.missedDiceMs).toBeGreaterThanOrEqual(0);
    expect(counted.timing.faceReadMs).toBeGreaterThanOrEqual(0);
    expect(asked).toHaveLength(3);
    const alone = await detectCounted(detector, image, 3); // no die-face reader: nothing to look again with
    expect(alone.dice).toEqual((await detector.detect(image)).dice);
    expect(alone.timing.missedDiceMs).toBeUndefined();
  });

  it('unsure: a two-pass read marks the values read below the rule, with or without a count', async () => {
    // the hand-wired reader reads a die it sees whole surely, and a box half on the grey table as 2 at 0.84
    const image = await rgba(await scenePng(260, 40, [{ x: 10, y: 10, side: 20, rgb: COLOUR[1] }, { x: 50, y: 10, side: 20, rgb: COLOUR[6] }]));
    const half: Die = { value: null, box: { x: 40, y: 10, w: 30, h: 20 }, score: 0.9, classIndex: 6 };
    const ort = (await import('onnxruntime-node')) as unknown as OrtModule;
    const unsure = await createDieFaceReader(ort, new Uint8Array(readFileSync(TEST_READER)), { ...reader.config, unsure: { below: 0.9 } });
    try {
      const { detector } = firstPassOf([weak(10, 0.9), half]);
      for (const expected of [undefined, 2]) {
        const given = await detectCounted(withDieFaceReader(detector, reader), image, expected);
        expect(given.dice.map((d) => [d.value, d.unsure])).toEqual([[6, undefined], [2, undefined]]);
        expect(given.dice[1]!.valueProbability).toBeCloseTo(0.84, 2);
        const asked = await detectCounted(withDieFaceReader(detector, unsure), image, expected);
        expect(asked.dice.map((d) => [d.value, d.unsure])).toEqual([[6, undefined], [2, true]]);
        expect(asked.dice.map(proposedValue)).toEqual([6, null]);
      }
    } finally {
      await unsure.release();
    }
  });

  it('falseDice: drops a die over a better one as read, and with a count never below it', async () => {
    const image = await rgba(await scenePng(260, 40, [
      { x: 10, y: 10, side: 20, rgb: COLOUR[1] },      // reader 6, and the box half off it reads 6 too
      { x: 30, y: 10, side: 20, rgb: COLOUR[1] },
      { x: 130, y: 10, side: 20, rgb: COLOUR[6] },     // reader 1
    ]));
    // a model of one feature: the die it overlaps most scores higher (a second box on a die)
    const weights = Array.from({ length: 24 }, (_, k) => (k === 22 ? -10 : 0));
    const falseDice = { features: 'context-v1' as const, mean: weights.map(() => 0), scale: weights.map(() => 1), weights, bias: 2, minProbability: 0.5 };
    const ort = (await import('onnxruntime-node')) as unknown as OrtModule;
    const filtered = await createDieFaceReader(ort, new Uint8Array(readFileSync(TEST_READER)), { ...reader.config, falseDice });
    const { detector } = firstPassOf([weak(10, 0.9), weak(20, 0.8) /* half off the first */, weak(130, 0.7)]);
    const xs = async (expected?: number) => (await detectCounted(withDieFaceReader(detector, filtered), image, expected)).dice.map((d) => [d.box.x, d.value]);
    expect(await xs()).toEqual([[10, 6], [130, 1]]);
    expect(await xs(2)).toEqual([[10, 6], [130, 1]]);
    expect(await xs(3)).toEqual([[10, 6], [20, 6], [130, 1]]); // three dice thrown: the count keeps them
    expect((await detectCounted(withDieFaceReader(detector, reader), image)).dice).toHaveLength(3); // no filter: all read
    // the filter judges each die by the probability it was read with; a die without one is read again for it
    const read = await filtered.read(image, [weak(10, 0.9), weak(20, 0.8), weak(130, 0.7)]);
    expect(read.every((d) => d.valueProbability !== undefined)).toBe(true);
    const kept = async (dice: Die[]) => (await completeRead(filtered, image, dice, [], 0.5)).dice.map((d) => d.box.x);
    expect(await kept(read)).toEqual([10, 130]);
    expect(await kept(read.map(({ valueProbability: _, ...d }) => d))).toEqual([10, 130]);
    await filtered.release();
  });

  it('reads at most maxCandidates, and nothing without a recount rule', async () => {
    const none = { side: 20, y: 10, rgb: COLOUR[5] }; // magenta: no die there
    const image = await rgba(await scenePng(260, 40, [{ ...none, x: 10 }, { ...none, x: 50 }, { ...none, x: 90 }, { x: 130, y: 10, side: 20, rgb: COLOUR[6] }]));
    const below = [weak(10, 0.5), weak(50, 0.4), weak(90, 0.35), weak(130, 0.3)];
    const ort = (await import('onnxruntime-node')) as unknown as OrtModule;
    const capped = await createDieFaceReader(ort, new Uint8Array(readFileSync(TEST_READER)), { ...reader.config, recount: { scoreThreshold: 0.02, maxCandidates: 3 } });
    expect(await findMissedDice(capped, image, [], below, 2)).toEqual([]);
    expect((await findMissedDice(reader, image, [], below, 2)).map((d) => d.box.x)).toEqual([130]);
    const off = await createDieFaceReader(ort, new Uint8Array(readFileSync(TEST_READER)), { ...reader.config, recount: null });
    expect(await findMissedDice(off, image, [], below, 2)).toEqual([]);
    const { detector } = firstPassOf(below);
    expect((await detectCounted(withDieFaceReader(detector, off), image, 2)).timing.missedDiceMs).toBeUndefined();
    await capped.release();
    await off.release();
  });
});

describe('partTouchingDice (two touching dice boxed as one)', () => {
  let ort: OrtModule;
  const readers: DieFaceReader[] = [];
  const readerWith = async (touchingDice: DieFaceConfig['touchingDice']): Promise<DieFaceReader> => {
    const reader = await createDieFaceReader(ort, new Uint8Array(readFileSync(TEST_READER)), { ...testConfig, touchingDice });
    readers.push(reader);
    return reader;
  };
  beforeAll(async () => {
    ort = (await import('onnxruntime-node')) as unknown as OrtModule;
  });
  afterAll(() => Promise.all(readers.map((r) => r.release())));
  const rule = { aspect: 1.5, longVsMedian: 1.5, shortVsMedian: 1.3, minDice: 3, minProbability: 0.8 };
  // three dice alone, and two pairs stacked end to end, each pair boxed as one die 20 × 40
  const scene = () =>
    scenePng(300, 60, [
      { x: 10, y: 10, side: 20, rgb: COLOUR[1] },      // the reader's 6
      { x: 50, y: 10, side: 20, rgb: COLOUR[3] },      // the reader's 4
      { x: 90, y: 10, side: 20, rgb: COLOUR[2] },      // the reader's 5
      { x: 170, y: 10, side: 20, rgb: COLOUR[6] },     // a pair: cyan (1) on top,
      { x: 170, y: 30, side: 20, rgb: COLOUR[2] },     // green (5) below
      { x: 230, y: 10, side: 20, rgb: COLOUR[6] },     // a pair whose lower half reads none:
      { x: 230, y: 30, side: 20, rgb: COLOUR[5] },     // magenta
    ]);
  const tall = (x: number): Die => ({ value: 1, box: { x, y: 10, w: 20, h: 40 }, score: 0.9, classIndex: 0, valueProbability: 0.6 });
  const read = [die(6, 10), die(4, 50), die(5, 90), tall(170), tall(230)];

  it('reads a box two dice long as two dice when both halves read surely, in its place', async () => {
    const image = await rgba(await scene());
    const parted = await partTouchingDice(await readerWith(rule), image, read);
    expect(parted.map((d) => [d.box.x, d.box.y, d.box.h, d.value])).toEqual([
      [10, 10, 20, 6], [50, 10, 20, 4], [90, 10, 20, 5],
      [170, 10, 20, 1], [170, 30, 20, 5],
      [230, 10, 40, 1], // half of it is no die: left as read
    ]);
    expect(parted[3]!.valueProbability).toBeGreaterThanOrEqual(0.8);
    // side by side, the box is cut down its width
    const wide = await rgba(await scenePng(300, 60, [
      { x: 10, y: 10, side: 20, rgb: COLOUR[1] }, { x: 50, y: 10, side: 20, rgb: COLOUR[3] }, { x: 90, y: 10, side: 20, rgb: COLOUR[2] },
      { x: 170, y: 10, side: 20, rgb: COLOUR[3] }, { x: 190, y: 10, side: 20, rgb: COLOUR[6] },
    ]));
    const pair: Die = { value: 4, box: { x: 170, y: 10, w: 40, h: 20 }, score: 0.9, classIndex: 3 };
    expect((await partTouchingDice(await readerWith(rule), wide, [...read.slice(0, 3), pair])).slice(3).map((d) => [d.box.x, d.box.w, d.value])).toEqual([[170, 20, 4], [190, 20, 1]]);
  });

  it('parts nothing without the rule, below its dice, when the box is no longer than the frame’s dice, or unsure halves', async () => {
    const image = await rgba(await scene());
    expect(await partTouchingDice(await readerWith(null), image, read)).toEqual(read);
    // two dice and the pair: the median die is the pair's own length
    expect(await partTouchingDice(await readerWith({ ...rule, minDice: 6 }), image, read)).toEqual(read);
    expect(await partTouchingDice(await readerWith({ ...rule, longVsMedian: 2.5 }), image, read)).toEqual(read);
    expect(await partTouchingDice(await readerWith({ ...rule, aspect: 2.5 }), image, read)).toEqual(read);
    expect(await partTouchingDice(await readerWith({ ...rule, minProbability: 1 }), image, read)).toEqual(read);
    // the frame's dice are as long as the pair (an oblique photo): nothing is parted
    const longDice = read.map((d) => ({ ...d, box: { ...d.box, h: 40 } }));
    expect(await partTouchingDice(await readerWith(rule), image, longDice)).toEqual(longDice);
  });

  it('is read through completeRead, so the count of dice comes out right', async () => {
    const image = await rgba(await scene());
    const { dice } = await completeRead(await readerWith(rule), image, read.slice(0, 4), [], 0.85);
    expect(dice.map((d) => d.value)).toEqual([6, 4, 5, 1, 5]);
  });

  it('is validated in the sidecar', () => {
    expect(parseDieFaceConfig({ ...JSON.parse(readFileSync(TEST_READER.replace(/\.onnx$/, '.json'), 'utf8')), touchingDice: rule }).touchingDice).toEqual(rule);
    for (const bad of [{ ...rule, aspect: 0.5 }, { ...rule, minDice: 0 }, { ...rule, minProbability: 2 }, { aspect: 1.5 }, 'yes']) {
      expect(() => parseDieFaceConfig({ ...JSON.parse(readFileSync(TEST_READER.replace(/\.onnx$/, '.json'), 'utf8')), touchingDice: bad })).toThrow(/"touchingDice" must be/);
    }
  });
});

describe('findMissedDice without a count (dice found weakly, read surely)', () => {
  let ort: OrtModule;
  const readers: DieFaceReader[] = [];
  const readerWith = async (weakDice: DieFaceConfig['weakDice'], recount: DieFaceConfig['recount'] = null): Promise<DieFaceReader> => {
    const config = { ...testConfig, firstPass: { score: 'objectness' as const, scoreThreshold: 0.6, containment: 0.4 }, weakDice, recount };
    const reader = await createDieFaceReader(ort, new Uint8Array(readFileSync(TEST_READER)), config);
    readers.push(reader);
    return reader;
  };
  beforeAll(async () => {
    ort = (await import('onnxruntime-node')) as unknown as OrtModule;
  });
  afterAll(() => Promise.all(readers.map((r) => r.release())));
  const scene = () =>
    scenePng(300, 40, [
      { x: 10, y: 10, side: 20, rgb: COLOUR[1] },      // found already (reader 6)
      { x: 50, y: 10, side: 20, rgb: COLOUR[5] },      // magenta: none, no die there
      { x: 90, y: 10, side: 20, rgb: COLOUR.other },   // white: a die, but no pip value
      { x: 130, y: 10, side: 20, rgb: COLOUR[6] },     // cyan: 1
      { x: 170, y: 10, side: 20, rgb: COLOUR[3] },     // the reader's 4
      { x: 250, y: 10, side: 20, rgb: COLOUR[2] },     // the reader's 5, below the rule's threshold
    ]);
  const found = [{ ...die(6, 10), score: 0.9 }];
  const below = [weak(12, 0.55) /* the found die again */, weak(50, 0.5), weak(90, 0.4), weak(130, 0.3), weak(133, 0.25) /* the 1 again */, weak(170, 0.2), weak(250, 0.01)];

  it('keeps the candidates read surely as pip values, once each, best first; reads none without the rule', async () => {
    const image = await rgba(await scene());
    const reader = await readerWith({ scoreThreshold: 0.02, maxCandidates: 8, minProbability: 0 });
    expect((await findMissedDice(reader, image, found, below)).map((d) => [d.box.x, d.value])).toEqual([[130, 1], [170, 4]]);
    // how sure the reader is of the 4 decides whether it is kept
    const [four] = await reader.readBoxes(image, [weak(170, 0.2)]);
    const justSure = await readerWith({ scoreThreshold: 0.02, maxCandidates: 8, minProbability: four!.probability });
    expect((await findMissedDice(justSure, image, [], [weak(170, 0.2)])).map((d) => d.value)).toEqual([4]);
    const unsure = await readerWith({ scoreThreshold: 0.02, maxCandidates: 8, minProbability: Math.min(1, four!.probability + 1e-6) });
    expect(await findMissedDice(unsure, image, [], [weak(170, 0.2)])).toEqual([]);
    // at most maxCandidates read (the 1 is the fourth candidate clear of the die found), and nothing without the rule
    expect(await findMissedDice(await readerWith({ scoreThreshold: 0.02, maxCandidates: 2, minProbability: 0 }), image, found, below)).toEqual([]);
    expect(await findMissedDice(await readerWith(null), image, found, below)).toEqual([]);
  });

  it('with a shift, reads each candidate moved around its box too and keeps the surest pip read with its box', async () => {
    // a die (the reader's 1) on a table the reader calls `none`, and a weak box half off it
    const image = await rgba(
      await scenePng(300, 80, [
        { x: 100, y: 0, side: 80, rgb: COLOUR[5] },
        { x: 180, y: 0, side: 80, rgb: COLOUR[5] },
        { x: 130, y: 30, side: 20, rgb: COLOUR[6] },
      ]),
    );
    const at = (x: number, y: number, score = 0.3): Die => ({ value: null, box: { x, y, w: 20, h: 20 }, score, classIndex: 6 });
    const off = at(140, 30);
    const plain = await readerWith({ scoreThreshold: 0.1, maxCandidates: 4, minProbability: 0 });
    const moved = shiftedBoxes(off.box, 0.5);
    expect(moved[0]).toEqual(off.box);
    expect(moved.slice(1).map((b) => [b.x, b.y])).toEqual([[130, 20], [140, 20], [150, 20], [130, 30], [150, 30], [130, 40], [140, 40], [150, 40]]);
    const reads = await plain.readBoxes(image, moved.map((box) => ({ box })));
    const on = reads[4]!; // the box on the die
    expect(testConfig.classes[on.classIndex]).toBe('1');
    // the premise: the box half off the die is read less surely than the box on it, and no moved box more surely
    expect(reads[0]!.probability).toBeLessThan(on.probability);
    for (const r of reads) expect(r.probability).toBeLessThanOrEqual(on.probability);
    const sure = { scoreThreshold: 0.1, maxCandidates: 4, minProbability: on.probability };
    expect(await findMissedDice(await readerWith(sure), image, [], [off])).toEqual([]);
    const found = await findMissedDice(await readerWith({ ...sure, shift: 0.5 }), image, [], [off]);
    expect(found.map((d) => [d.box.x, d.box.y, d.value, d.score])).toEqual([[130, 30, 1, 0.3]]);
    // a moved box that lands on a die already found is that die again
    expect(await findMissedDice(await readerWith({ ...sure, shift: 0.5 }), image, [{ ...at(130, 30, 0.9), value: 1, classIndex: 0 }], [at(145, 45)])).toEqual([]);
    // the recount moves its candidates the same way
    const counted = await findMissedDice(await readerWith(null, { scoreThreshold: 0.1, maxCandidates: 4, shift: 0.5 }), image, [], [off], 1);
    expect(counted.map((d) => [d.box.x, d.box.y, d.value])).toEqual([[130, 30, 1]]);
  });

  it('a two-pass read keeps them (one detector run, down to the rule); with a count the recount decides instead', async () => {
    const image = await rgba(await scene());
    const { detector, asked } = firstPassOf([weak(10, 0.9), ...below.slice(1)]);
    const two = withDieFaceReader(detector, await readerWith({ scoreThreshold: 0.1, maxCandidates: 8, minProbability: 0 }, { scoreThreshold: 0.005, maxCandidates: 8 }));
    const plain = await two.detect(image);
    expect(plain.dice.map((d) => [d.box.x, d.value])).toEqual([[10, 6], [130, 1], [170, 4]]);
    expect(plain.timing.missedDiceMs).toBeGreaterThanOrEqual(0);
    expect(asked).toEqual([0.1]);
    expect((await detectCounted(two, image)).dice).toEqual(plain.dice);
    // a count of 2: the recount fills it with the best value read, and no more
    const counted = await detectCounted(two, image, 2);
    expect(counted.dice.map((d) => [d.box.x, d.value])).toEqual([[10, 6], [130, 1]]);
    // a count of 5: down to the recount's threshold, every value read, the 5 at 0.01 too
    expect((await detectCounted(two, image, 5)).dice.map((d) => d.box.x)).toEqual([10, 130, 170, 250]);
    expect(asked.slice(-2)).toEqual([0.005, 0.005]);
    // a count met: nothing looked at
    const met = await detectCounted(two, image, 1);
    expect(met.dice.map((d) => d.box.x)).toEqual([10]);
    expect(met.timing.missedDiceMs).toBeUndefined();
  });
});

describe('which die-face model is used', () => {
  it('follows models/die-face.onnx unless told', () => {
    expect(dieFaceModelPath('off')).toBeNull();
    expect(dieFaceModelPath('x.onnx')).toBe('x.onnx');
    expect([null, SHIPPED_DIE_FACE_MODEL]).toContain(dieFaceModelPath());
  });

  it('refuses a die-face model that is not there, or has no sidecar', async () => {
    await expect(createNodeDetector({ modelPath: TEST_MODEL, dieFace: path.join(REPO, 'nope.onnx') })).rejects.toThrow(/no die-face model at .*nope\.onnx/);
    await expect(createNodeDetector({ modelPath: TEST_MODEL, dieFace: TEST_MODEL })).rejects.toThrow(/test-model\.json: die-face sidecar: "cropMargin"/);
  });
});

describe('perfect detections for --boxes truth', () => {
  const d = (x: number, y: number, w: number, h: number, value: number) => ({ box: { x, y, w, h }, value });

  it('are the labels of whole-die sets', () => {
    expect(perfectDetections([d(1, 2, 30, 40, 5)], 'whole-die', 99)).toEqual([{ x: 1, y: 2, w: 30, h: 40 }]);
  });

  it('grow pip-pattern boxes to die size from the image\'s largest pattern, whatever the values', () => {
    // a 4 (pattern 40 px) and a lone 1 pip (12 px): both dice are 1.65 × 40 = 66 px, centred on their patterns
    const boxes = perfectDetections([d(100, 100, 40, 38, 4), d(300, 50, 12, 12, 1)], 'pips', 20);
    expect(boxes[0]).toEqual({ x: 120 - 33, y: 119 - 33, w: 66, h: 66 });
    expect(boxes[1]!.w).toBeCloseTo(66, 9);
    expect(boxes[1]!.x + boxes[1]!.w / 2).toBeCloseTo(306, 9);
    // an image of lone 1 pips: the dataset's floor sets the size
    expect(perfectDetections([d(0, 0, 12, 12, 1)], 'pips', 40)[0]!.w).toBeCloseTo(66, 9);
    expect(patternFloor({ images: [{ file: 'a', width: 1, height: 1, dice: [d(0, 0, 10, 10, 1), d(0, 0, 40, 40, 4), d(0, 0, 50, 30, 5)], ignore: [] }] })).toBeCloseTo(32, 9);
  });
});

describe('branded ones', () => {
  const classes = ['1', '2', '3', '4', '5', '6', 'other', 'none'];
  const config = (brandedOne: DieFaceConfig['brandedOne']): DieFaceConfig => ({ inputSize: 8, cropMargin: 1, classes, firstPass: null, weakDice: null, recount: null, secondLook: null, brandedOne, falseDice: null, touchingDice: null, unsure: null });
  // rows: a logo 1 (the values point at the 1), a board piece (the values spread), a plain 5, a die read `none`
  const probs = Float32Array.from([
    0.2, 0.01, 0.01, 0.01, 0.01, 0.01, 0.75, 0,
    0.1, 0.05, 0.05, 0.05, 0.05, 0.05, 0.65, 0,
    0, 0, 0, 0, 0.9, 0.1, 0, 0,
    0.05, 0, 0, 0, 0, 0, 0.05, 0.9,
  ]);
  const reads = bestClasses(probs, 4, classes.length);

  it('reads `other` as a 1 when the value classes point at the 1, with P(1) + P(other)', () => {
    const out = brandedOnes(reads, probs, config({ minShare: 0.8, amongPipDice: false }));
    expect(out[0]!.classIndex).toBe(0);
    expect(out[0]!.probability).toBeCloseTo(0.95, 5);
    // spread values stay `other`, with how surely they would be a 1 if branded (P(1) + P(other)); values and `none` untouched
    expect(out[1]!.classIndex).toBe(6);
    expect(out[1]!.brandedOneProbability).toBeCloseTo(0.75, 5);
    expect(out.slice(2)).toEqual(reads.slice(2));
    expect(reads[0]!.classIndex).toBe(6); // the reads given are left as they are
  });

  it('changes nothing without the rule, and the share decides', () => {
    expect(brandedOnes(reads, probs, config(null))).toEqual(reads);
    expect(brandedOnes(reads, probs, config({ minShare: 0.95, amongPipDice: false }))[0]!.classIndex).toBe(6); // 0.2 / 0.25 = 0.8 < 0.95
    expect(brandedOnes(reads, probs, config({ minShare: 0.8, amongPipDice: false }))[1]!.classIndex).toBe(6); // 0.1 / 0.35 < 0.8
  });

  it('refuses probabilities that do not match the reads', () => {
    expect(() => brandedOnes(reads, probs.subarray(0, 8), config({ minShare: 0.8, amongPipDice: false }))).toThrow(RangeError);
  });

  it('among dice read as pips, a sure die read `other` is a branded 1 (amongPipDice); alone, or among `other` dice only, it stays unread', () => {
    const at = (x: number) => ({ x, y: 0, w: 10, h: 10 });
    const logo: Die = { value: null, box: at(0), score: 0.9, classIndex: 6, valueProbability: 0.7 };
    const weak: Die = { value: null, box: at(20), score: 0.3, classIndex: 6, valueProbability: 0.9 };
    const five: Die = { value: 5, box: at(40), score: 0.95, classIndex: 4, valueProbability: 0.99 };
    const among = config({ minShare: 0.8, amongPipDice: true });
    const out = brandedOnesAmongPips([logo, weak, five], 0.85, among);
    // read as sure as its P(1) + P(other) where the reader gave it, else its P(other); the weak die (found below the first pass) stays unread
    expect(out).toEqual([{ ...logo, value: 1, classIndex: 0 }, weak, five]);
    expect(brandedOnesAmongPips([{ ...logo, brandedOneProbability: 0.85 }, five], 0.85, among)[0]).toMatchObject({ value: 1, valueProbability: 0.85 });
    expect(logo.value).toBeNull(); // the dice given are left as they are
    expect(brandedOnesAmongPips([logo], 0.85, among)).toEqual([logo]);
    expect(brandedOnesAmongPips([logo, { ...logo, box: at(40) }], 0.85, among)).toEqual([logo, { ...logo, box: at(40) }]);
    expect(brandedOnesAmongPips([logo, five], 0.85, config({ minShare: 0.8, amongPipDice: false }))).toEqual([logo, five]);
    expect(brandedOnesAmongPips([logo, five], 0.85, config(null))).toEqual([logo, five]);
    expect(markUnsure(brandedOnesAmongPips([{ ...logo, valueProbability: 0.4 }, five], 0.85, among), { below: 0.5 })[0]).toMatchObject({ value: 1, unsure: true });
  });

  it('a die left `other` carries P(1) + P(other) onto the die, for the rule among pip dice', () => {
    const dice = reads.slice(0, 2).map((_, i) => ({ value: null, box: { x: 20 * i, y: 0, w: 10, h: 10 }, score: 0.9, classIndex: 6 }));
    const read = applyDieFaceReads(dice, brandedOnes(reads.slice(0, 2), probs.subarray(0, 16), config({ minShare: 0.95, amongPipDice: true })), config({ minShare: 0.95, amongPipDice: true }));
    expect(read.map((d) => [d.value, d.brandedOneProbability])).toEqual([
      [null, expect.closeTo(0.95, 5)],
      [null, expect.closeTo(0.75, 5)],
    ]);
  });

  it('a logo 1 then counts as a die of value 1', () => {
    const dice = [{ value: null, box: { x: 0, y: 0, w: 10, h: 10 }, score: 0.9, classIndex: 6 }];
    expect(applyDieFaceReads(dice, brandedOnes(reads.slice(0, 1), probs.subarray(0, 8), config({ minShare: 0.8, amongPipDice: false })), config({ minShare: 0.8, amongPipDice: false }))[0]!.value).toBe(1);
  });
});
