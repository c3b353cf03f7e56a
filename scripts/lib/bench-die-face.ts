/**
 * The die-face reader's time per die for `npm run bench`: models/die-face.onnx on
 * onnxruntime-web's wasm backend (the very .wasm the app ships; SIMD, ONE thread) in Node's V8,
 * crop from the frame included, for one die per call and for a roll of five dice per call (the
 * reader batches a frame's dice). The browser worker runs the same engine; absolute figures are
 * this machine's CPU, not a phone's.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OrtModule } from '../../src/lib/vision/detector.ts';
import { createDieFaceReader } from '../../src/lib/vision/die-face-reader.ts';
import { percentile } from '../../src/lib/vision/metrics.ts';
import type { Box } from '../../src/lib/vision/types.ts';
import { loadDieFaceFiles, readImageFile, REPO_ROOT, UsageError } from './node-vision.ts';
import type { FaceBenchFigure } from './bench-face.ts';

const FIXTURE = path.join(REPO_ROOT, 'tests/fixtures/dice-photos/byler-val-sample');

export async function benchDieFaceReader(frames: number, warmup: number): Promise<FaceBenchFigure[]> {
  const files = await loadDieFaceFiles().catch((e: unknown) => {
    throw new UsageError(`die-face reader: ${(e as Error).message} (models/training/train_die_face.py makes it)`);
  });
  const ort = (await import('onnxruntime-web')) as unknown as OrtModule & { env: { wasm: { numThreads: number; wasmPaths?: string } } };
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = pathToFileURL(path.join(REPO_ROOT, 'node_modules/onnxruntime-web/dist/')).href;
  const t0 = performance.now();
  const reader = await createDieFaceReader(ort, files.model, files.config, { executionProviders: ['wasm'] });
  const loadMs = performance.now() - t0;
  try {
    const labels = JSON.parse(readFileSync(path.join(FIXTURE, 'labels.json'), 'utf8')) as { images: Array<{ file: string; dice: Box[] }> };
    const im = labels.images.find((i) => i.dice.length >= 5)!;
    const image = await readImageFile(path.join(FIXTURE, im.file), { upright: false }); // as its labels are
    const roll = im.dice.slice(0, 5).map((box) => ({ box }));
    const one: number[] = [];
    const five: number[] = [];
    for (let i = 0; i < warmup + frames; i++) {
      const a = performance.now();
      await reader.readBoxes(image, roll.slice(0, 1));
      const b = performance.now();
      await reader.readBoxes(image, roll);
      const c = performance.now();
      if (i >= warmup) {
        one.push(b - a);
        five.push((c - b) / roll.length);
      }
    }
    const k = files.config.inputSize;
    const n = `n=${frames}, crop ${k}×${k} from a 640×640 photo, ${files.config.classes.length} classes`;
    return [
      { label: 'model size', value: readFileSync(files.modelPath).length, unit: 'bytes' },
      { label: 'model load (session + wasm start)', value: loadMs, unit: 'ms' },
      { label: 'one die per call, 1 thread, median', value: percentile(one, 50), unit: 'ms', note: `${n}; crop + inference` },
      { label: 'one die per call, 1 thread, p95', value: percentile(one, 95), unit: 'ms' },
      { label: 'per die in a roll of 5, 1 thread, median', value: percentile(five, 50), unit: 'ms', note: 'five crops in one batch, time / 5' },
      { label: 'per die in a roll of 5, 1 thread, p95', value: percentile(five, 95), unit: 'ms' },
    ];
  } finally {
    await reader.release();
  }
}
