/**
 * The shipped die-face reader is int8 (models/training/quantize_die_face.py); its float graph is
 * kept as models/training/die-face-float.onnx. The two must read the committed fixture dice alike:
 * a quantization gone wrong (bad calibration, a saturated layer, a fused op misread) moves the
 * probabilities far more than the int8 rounding does. Every labelled die of the fixture photos is
 * cut as the app cuts it, from its box and from boxes moved as a detector's are, and read by both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import type { Box } from '../../src/lib/vision/types.ts';
import { cropForEmbedder } from '../../src/lib/vision/face-embedder.ts';
import { bestClasses, parseDieFaceConfig } from '../../src/lib/vision/die-face-reader.ts';
import { loadDataset } from '../../scripts/lib/datasets.ts';
import { readImageFile, REPO_ROOT } from '../../scripts/lib/node-vision.ts';

const INT8 = path.join(REPO_ROOT, 'models/die-face.onnx');
const FLOAT = path.join(REPO_ROOT, 'models/training/die-face-float.onnx');
const FIXTURES = path.join(REPO_ROOT, 'tests/fixtures/dice-photos');
const config = parseDieFaceConfig(JSON.parse(readFileSync(path.join(REPO_ROOT, 'models/die-face.json'), 'utf8')));

/** The labelled box, and the box moved by a tenth of its side each way and grown and shrunk by a tenth. */
function boxesAround(b: Box): Box[] {
  const d = 0.1 * Math.max(b.w, b.h);
  return [
    b,
    { ...b, x: b.x + d },
    { ...b, x: b.x - d },
    { ...b, y: b.y + d },
    { ...b, y: b.y - d },
    { x: b.x - d / 2, y: b.y - d / 2, w: b.w + d, h: b.h + d },
    { x: b.x + d / 2, y: b.y + d / 2, w: b.w - d, h: b.h - d },
  ];
}

async function probabilities(session: ort.InferenceSession, crops: Float32Array, n: number): Promise<Float32Array> {
  const k = config.inputSize;
  const out = await session.run({ crops: new ort.Tensor('float32', crops, [n, 3, k, k]) });
  return out.probs!.data as Float32Array;
}

// a build without the reader has nothing to hold; with it, the float graph must be there too
describe.skipIf(!existsSync(INT8))('the int8 die-face reader against its float graph', () => {
  let int8: ort.InferenceSession;
  let float: ort.InferenceSession;
  let crops: Float32Array;
  let n = 0;

  beforeAll(async () => {
    const opts = { intraOpNumThreads: 1, graphOptimizationLevel: 'all' as const };
    [int8, float] = await Promise.all([ort.InferenceSession.create(INT8, opts), ort.InferenceSession.create(FLOAT, opts)]);
    const k = config.inputSize;
    const per = 3 * k * k;
    const cut: Float32Array[] = [];
    for (const set of ['byler-val-sample', 'matteop65-val-sample', 'synthetic']) {
      const dataset = await loadDataset(path.join(FIXTURES, set));
      for (const im of dataset.images) {
        const image = await readImageFile(path.join(dataset.dir, im.file));
        for (const die of im.dice) {
          for (const box of boxesAround(die.box)) {
            const crop = new Float32Array(per);
            cropForEmbedder(image, box, k, config.cropMargin, crop);
            cut.push(crop);
          }
        }
      }
    }
    n = cut.length;
    crops = new Float32Array(n * per);
    cut.forEach((c, i) => crops.set(c, i * per));
  });

  afterAll(async () => {
    await int8?.release();
    await float?.release();
  });

  it('is an int8 graph, a quarter the size of the float one', () => {
    const bytes = readFileSync(INT8);
    expect(bytes.byteLength).toBeLessThan(readFileSync(FLOAT).byteLength / 3);
    expect(bytes.includes(Buffer.from('QuantizeLinear'))).toBe(true);
  });

  it('reads every fixture die as the float graph does, each probability within 0.1', async () => {
    expect(n).toBeGreaterThan(200);
    const c = config.classes.length;
    const [q, f] = await Promise.all([probabilities(int8, crops, n), probabilities(float, crops, n)]);
    const [qBest, fBest] = [bestClasses(q, n, c), bestClasses(f, n, c)];
    let largest = 0;
    const disagree: number[] = [];
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < c; j++) largest = Math.max(largest, Math.abs(q[i * c + j]! - f[i * c + j]!));
      // a near-tie of the float graph may fall either way; a clear read must not move
      const sorted = Array.from(f.subarray(i * c, (i + 1) * c)).sort((a, b) => b - a);
      if (sorted[0]! - sorted[1]! > 0.1 && qBest[i]!.classIndex !== fBest[i]!.classIndex) disagree.push(i);
    }
    expect(disagree, `crops read differently: ${disagree.join(', ')}`).toEqual([]);
    expect(largest).toBeLessThan(0.1);
  });
});
