/**
 * The face embedder's time per die for `npm run bench`: models/face-embed.onnx on
 * onnxruntime-web's wasm backend (the very .wasm the app ships; SIMD, ONE thread) in Node's V8,
 * one die per call as the reader embeds a roll's dice, crop included. The browser worker runs
 * the same engine; absolute figures are this machine's CPU, not a phone's.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { createDetector, type OrtModule } from '../../src/lib/vision/detector.ts';
import { createFaceEmbedder } from '../../src/lib/vision/face-embedder.ts';
import { detectSymbolDice, embedAtMargins, embedQuarterTurns } from '../../src/lib/vision/face-reader.ts';
import { percentile } from '../../src/lib/vision/metrics.ts';
import type { RgbaImage } from '../../src/lib/vision/types.ts';
import { loadFaceModelFiles } from './node-faces.ts';
import { loadModelFiles, REPO_ROOT, symbolDetectorModel } from './node-vision.ts';

export interface FaceBenchFigure {
  label: string;
  value: number;
  unit: 'ms' | 'bytes' | 'count';
  note?: string;
}

/** A frame with a die, and the die's box: from the symbol-dice test fixture. */
async function fixtureFrame(): Promise<{ image: RgbaImage; box: { x: number; y: number; w: number; h: number } }> {
  const sheet = path.join(REPO_ROOT, 'tests/fixtures/symbol-dice/sheet.jpg');
  const { data, info } = await sharp(readFileSync(sheet)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { image: { width: info.width, height: info.height, data: new Uint8Array(data) }, box: { x: 4, y: 4, w: 56, h: 56 } };
}

/**
 * Share of dice that take the third look (`embedAtMargins`): still too close to call after the
 * second look. Measured on the embedder's held-out sets with the shipped model (0.9% of the mixed
 * sets' dice, 2.1% of the font sets'; models/record/symbol-dice.md, "How a die is read"); the larger is used.
 */
const THIRD_LOOK_SHARE = 0.021;

export async function benchFaceEmbedder(frames: number, warmup: number): Promise<FaceBenchFigure[]> {
  const files = await loadFaceModelFiles();
  const ort = (await import('onnxruntime-web')) as unknown as OrtModule & { env: { wasm: { numThreads: number; wasmPaths?: string } } };
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = pathToFileURL(path.join(REPO_ROOT, 'node_modules/onnxruntime-web/dist/')).href;
  const t0 = performance.now();
  const embedder = await createFaceEmbedder(ort, files.model, files.config, { executionProviders: ['wasm'] });
  const loadMs = performance.now() - t0;
  try {
    const { image, box } = await fixtureFrame();
    const k = files.config.inputSize;
    const crop = new Float32Array(3 * k * k);
    const whole: number[] = [];
    const inference: number[] = [];
    const secondLook: number[] = [];
    const thirdLook: number[] = [];
    for (let i = 0; i < warmup + frames; i++) {
      const a = performance.now();
      await embedder.embed(image, [box]);
      const b = performance.now();
      await embedder.embedCrops(crop, 1);
      const c = performance.now();
      await embedQuarterTurns(embedder, image, [box]);
      const d = performance.now();
      await embedAtMargins(embedder, image, [box]);
      const e = performance.now();
      if (i >= warmup) {
        whole.push(b - a);
        inference.push(c - b);
        secondLook.push(d - c);
        thirdLook.push(e - d);
      }
    }
    const n = `n=${frames}, crop ${k}×${k}, ${files.config.dim}-d`;
    // how many dice take the second look: the share measured on the embedder's held-out sets
    const sidecar = JSON.parse(readFileSync(files.modelPath.replace(/\.onnx$/, '.json'), 'utf8')) as { heldOut?: { secondLook?: { lookedTwice?: number } } };
    const share = files.config.secondLookGap > 0 ? (sidecar.heldOut?.secondLook?.lookedTwice ?? 0) : 0;
    return [
      { label: 'model size', value: readFileSync(files.modelPath).length, unit: 'bytes' },
      { label: 'model load (session + wasm start)', value: loadMs, unit: 'ms' },
      { label: 'embedding per die, 1 thread, median', value: percentile(whole, 50), unit: 'ms', note: `${n}; crop + inference` },
      { label: 'embedding per die, 1 thread, p95', value: percentile(whole, 95), unit: 'ms' },
      { label: 'inference only per die, 1 thread, median', value: percentile(inference, 50), unit: 'ms' },
      {
        label: 'second look (4 quarter turns), median',
        value: percentile(secondLook, 50),
        unit: 'ms',
        note: files.config.secondLookGap > 0 ? `dice whose two nearest faces are within ${files.config.secondLookGap}` : 'off in this sidecar',
      },
      {
        label: 'third look (4 turns at 3 crop margins), median',
        value: percentile(thirdLook, 50),
        unit: 'ms',
        note: 'dice still too close to call after the second look',
      },
      {
        label: 'expected per die, second and third looks included',
        value: percentile(whole, 50) + share * percentile(secondLook, 50) + THIRD_LOOK_SHARE * percentile(thirdLook, 50),
        unit: 'ms',
        note: `the medians above, ${(100 * share).toFixed(0)}% of dice looked at twice (held-out sets, models/face-embed.json), ${(100 * THIRD_LOOK_SHARE).toFixed(1)}% three times`,
      },
      ...(await benchSymbolDetection(ort, frames, warmup)),
    ];
  } finally {
    await embedder.release();
  }
}

/**
 * Finding the symbol dice of a 1280×720 frame (the sheet fixture stretched to it): the
 * symbol-dice detector (`symbolDetectorModel`) at each of its symbol rule's input sizes, the reads
 * pooled (`detectSymbolDice`).
 */
async function benchSymbolDetection(ort: OrtModule, frames: number, warmup: number): Promise<FaceBenchFigure[]> {
  const files = await loadModelFiles(symbolDetectorModel());
  const detector = await createDetector(ort, files.model, files.config, { executionProviders: ['wasm'] });
  try {
    const sheet = path.join(REPO_ROOT, 'tests/fixtures/symbol-dice/sheet.jpg');
    const { data, info } = await sharp(readFileSync(sheet)).resize(1280, 720, { fit: 'fill' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const frame: RgbaImage = { width: info.width, height: info.height, data: new Uint8Array(data) };
    const times: number[] = [];
    for (let i = 0; i < warmup + frames; i++) {
      const a = performance.now();
      await detectSymbolDice(detector, frame);
      if (i >= warmup) times.push(performance.now() - a);
    }
    const sizes = files.config.symbolDice?.inputSizes ?? [files.config.inputSize];
    return [
      { label: 'symbol dice found per frame, 1 thread, median', value: percentile(times, 50), unit: 'ms', note: `n=${frames}, ${path.relative(REPO_ROOT, files.modelPath)} (${files.model.byteLength} bytes), 1280×720 frame read at ${sizes.join(', ')} (long side), the reads pooled; before the embeddings` },
      { label: 'symbol dice found per frame, 1 thread, p95', value: percentile(times, 95), unit: 'ms' },
    ];
  } finally {
    await detector.release();
  }
}
