/**
 * The blur measure's time per frame for `npm run bench`: `diceEdgeWidth` (src/lib/vision/sharpness.ts),
 * which the app's worker runs on every read, over the labelled dice of the byler fixture photos
 * scaled to the app's 1280 px camera frame, in Node's V8 (the worker's engine). Pure JavaScript:
 * no model, no wasm.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { diceEdgeWidth } from '../../src/lib/vision/sharpness.ts';
import { percentile } from '../../src/lib/vision/metrics.ts';
import type { Box, RgbaImage } from '../../src/lib/vision/types.ts';
import { CAMERA_FRAME_SIDE, readAsCameraFrame } from './datasets.ts';
import { REPO_ROOT } from './node-vision.ts';
import type { FaceBenchFigure } from './bench-face.ts';

const FIXTURE = path.join(REPO_ROOT, 'tests/fixtures/dice-photos/byler-val-sample');

export async function benchSharpness(frames: number, warmup: number): Promise<FaceBenchFigure[]> {
  const labels = JSON.parse(readFileSync(path.join(FIXTURE, 'labels.json'), 'utf8')) as { images: Array<{ file: string; width: number; dice: Box[] }> };
  const photos: Array<{ frame: RgbaImage; boxes: Box[] }> = [];
  for (const im of labels.images) {
    const frame = await readAsCameraFrame(path.join(FIXTURE, im.file));
    const k = frame.width / im.width;
    photos.push({ frame, boxes: im.dice.map((b) => ({ x: b.x * k, y: b.y * k, w: b.w * k, h: b.h * k })) });
  }
  const perFrame: number[] = [];
  const perDie: number[] = [];
  for (let i = 0; i < warmup + frames; i++) {
    const { frame, boxes } = photos[i % photos.length]!;
    const t = performance.now();
    diceEdgeWidth(frame, boxes);
    const ms = performance.now() - t;
    if (i >= warmup) {
      perFrame.push(ms);
      perDie.push(ms / Math.max(1, boxes.length));
    }
  }
  const dice = photos.map((p) => p.boxes.length);
  const side = percentile(photos.flatMap((p) => p.boxes.map((b) => Math.max(b.w, b.h))), 50);
  const n = `n=${frames} over ${photos.length} photos of ${Math.min(...dice)}–${Math.max(...dice)} dice (median side ${side.toFixed(0)} px) at ${CAMERA_FRAME_SIDE} px`;
  return [
    { label: 'per frame, median', value: percentile(perFrame, 50), unit: 'ms', note: n },
    { label: 'per frame, p95', value: percentile(perFrame, 95), unit: 'ms' },
    { label: 'per die, median', value: percentile(perDie, 50), unit: 'ms' },
  ];
}
