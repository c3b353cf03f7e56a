/**
 * The pipeline end to end through a real ONNX session, on both runtimes the app uses:
 * onnxruntime-node (CLIs, eval) and onnxruntime-web's wasm backend (what ships; it runs in
 * Node too). The model is tests/fixtures/test-model (hand-wired, predictable: see its
 * generator), so the expected boxes are exact.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseDetectorConfig } from '../../src/lib/vision/config.ts';
import { createDetector, type OrtModule } from '../../src/lib/vision/detector.ts';
import type { RgbaImage } from '../../src/lib/vision/types.ts';

const modelPath = fileURLToPath(new URL('../fixtures/test-model/test-model.onnx', import.meta.url));
const model = new Uint8Array(readFileSync(modelPath));
const config = parseDetectorConfig(JSON.parse(readFileSync(modelPath.replace(/\.onnx$/, '.json'), 'utf8')));

/** Grey frame with solid squares: [x, y, side, rgb]. */
function scene(width: number, height: number, squares: Array<[number, number, number, [number, number, number]]>): RgbaImage {
  const data = new Uint8Array(width * height * 4).fill(128);
  for (const [x0, y0, side, rgb] of squares) {
    for (let y = y0; y < y0 + side; y++) for (let x = x0; x < x0 + side; x++) data.set([...rgb, 255], (y * width + x) * 4);
  }
  return { width, height, data };
}

// 200×100 → 320: scale 1.6, padY 80. A stride-32 cell (col c, row r) is input x 32c..32c+32,
// y 32r..32r+32, i.e. source x 20c..20c+20, y 20r − 50 .. 20r − 30. Squares fill cells exactly.
const frame = scene(200, 100, [
  [40, 10, 20, [255, 0, 0]], // cell (2, 3): red → 1
  [140, 50, 20, [0, 255, 255]], // cell (7, 5): cyan → 6
  [100, 70, 20, [255, 255, 255]], // cell (5, 6): white → other
]);

const runtimes: Array<[string, () => Promise<OrtModule>]> = [
  ['onnxruntime-node', async () => (await import('onnxruntime-node')) as unknown as OrtModule],
  [
    'onnxruntime-web (wasm)',
    async () => {
      const ort = await import('onnxruntime-web');
      ort.env.wasm.numThreads = 1;
      return ort as unknown as OrtModule;
    },
  ],
];

describe.each(runtimes)('detector on %s', (_name, load) => {
  it('finds each die with its value and its box in source pixels', async () => {
    const detector = await createDetector(await load(), model, config);
    try {
      const { dice, timing } = await detector.detect(frame);
      const sorted = [...dice].sort((a, b) => a.box.x - b.box.x);
      expect(sorted.map((d) => d.value)).toEqual([1, null, 6]);
      const boxes = sorted.map((d) => [d.box.x, d.box.y, d.box.w, d.box.h].map((v) => Number(v.toFixed(3))));
      expect(boxes).toEqual([
        [40, 10, 20, 20],
        [100, 70, 20, 20],
        [140, 50, 20, 20],
      ]);
      for (const d of dice) expect(d.score).toBeGreaterThan(0.9);
      expect(timing.inferenceMs).toBeGreaterThan(0);
      // a second frame through the same (reused) input buffer
      const again = await detector.detect(scene(200, 100, [[0, 50, 20, [0, 0, 255]]]));
      expect(again.dice.map((d) => d.value)).toEqual([3]);
    } finally {
      await detector.release();
    }
  });

  it('refuses an input size the model cannot take', async () => {
    const detector = await createDetector(await load(), model, config);
    try {
      await expect(detector.detect(frame, { inputSize: 100 })).rejects.toThrow(/input size must be a multiple of 32 up to 320, got 100/);
      await expect(detector.detect(frame, { inputSize: 640 })).rejects.toThrow(/input size/);
    } finally {
      await detector.release();
    }
  });

  it('reads a frame at a smaller input size with the shipped model (dynamic input sides)', async () => {
    const shippedPath = fileURLToPath(new URL('../../models/dice-pips.onnx', import.meta.url));
    const shipped = parseDetectorConfig(JSON.parse(readFileSync(shippedPath.replace(/\.onnx$/, '.json'), 'utf8')));
    const detector = await createDetector(await load(), new Uint8Array(readFileSync(shippedPath)), shipped);
    try {
      const big = scene(640, 360, [[200, 120, 120, [250, 250, 250]]]);
      for (const inputSize of [shipped.inputSize, 224, shipped.inputSize]) {
        // sizes taking turns keep their own input buffers; boxes come back in source pixels
        const { dice } = await detector.detect(big, { inputSize, score: 'objectness', scoreThreshold: 0 });
        for (const d of dice) {
          expect(d.box.x).toBeGreaterThanOrEqual(-1);
          expect(d.box.x + d.box.w).toBeLessThanOrEqual(641);
        }
      }
    } finally {
      await detector.release();
    }
  });
});

describe('createDetector', () => {
  it('refuses a model without the contract input and output names', async () => {
    const ort = (await import('onnxruntime-node')) as unknown as OrtModule;
    const wrong = new Uint8Array(readFileSync(modelPath.replace(/\.onnx$/, '-wrong-names.onnx')));
    await expect(createDetector(ort, wrong, config)).rejects.toThrow(
      'detector model: expected input "images" and output "detections", found inputs [input] and outputs [output]',
    );
  });
});
