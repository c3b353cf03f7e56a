/**
 * Accuracy floors for the shipped dice reader, so that a worse model cannot land unnoticed.
 * Runs the same evaluation as `npm run eval` (the detector, then the die-face reader's second
 * pass when models/die-face.onnx ships; large photos read in tiles and close-ups shrunk as well,
 * `withTiles`) on the val splits of ../shared/data (skipped, saying
 * so, when the data is not there) and on the licensed fixture photos committed under
 * tests/fixtures/dice-photos (always); and the die-face reader alone on the labelled boxes
 * (`npm run eval -- --boxes truth`). Floors sit a little below what the shipped models reach;
 * when a model changes, re-run `npm run eval` and move them (tests/vision/update-eval-floors.ts;
 * eval-floors.json names the models they were set against).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Detector } from '../../src/lib/vision/detector.ts';
import type { TwoPassDetector } from '../../src/lib/vision/die-face-reader.ts';
import type { EvalSummary } from '../../src/lib/vision/metrics.ts';
import { withTiles } from '../../src/lib/vision/tiles.ts';
import { evaluate } from '../../scripts/lib/evaluate.ts';
import { createNodeDetector, dataRoot, REPO_ROOT, SHIPPED_MODEL } from '../../scripts/lib/node-vision.ts';

interface Floor {
  /** Per-die F1, centre rule, right value. */
  f1: number;
  /** Share of images read exactly right. */
  exactRoll: number;
  /** Share of labelled dice found, whatever the value. */
  detectionRecall: number;
}

interface FloorsFile {
  model: { sha256: string; note: string };
  /** The die-face reader the floors include (null: the detector's own values). */
  dieFace: { sha256: string; note: string } | null;
  val: Record<string, Floor>;
  fixtures: Record<string, Floor>;
  /** The die-face reader alone, on the labelled boxes. */
  dieFaceTruthBoxes: { val: Record<string, Floor>; fixtures: Record<string, Floor> } | null;
}

const floors = JSON.parse(readFileSync(new URL('./eval-floors.json', import.meta.url), 'utf8')) as FloorsFile;
const modelSha = createHash('sha256').update(readFileSync(SHIPPED_MODEL)).digest('hex');
const valRoot = path.join(dataRoot(), 'dice-photos');
const haveVal = existsSync(valRoot);
if (!haveVal) console.warn(`eval floors: ${valRoot} not found — val-split floors skipped (set ROLLCALL_DATA to run them); fixture floors still run`);
if (modelSha !== floors.model.sha256) {
  console.warn(`eval floors: models/dice-pips.onnx (sha256 ${modelSha.slice(0, 12)}) is not the model the floors were set for (${floors.model.sha256.slice(0, 12)}); re-run npm run eval and update tests/vision/eval-floors.json`);
}

function checkFloors(name: string, s: EvalSummary, floor: Floor | undefined): void {
  expect(floor, `no floor for ${name} in eval-floors.json`).toBeDefined();
  const got = { f1: s.perDie.f1 ?? 0, exactRoll: s.exactRollAccuracy ?? 0, detectionRecall: s.detectionRecall ?? 0 };
  for (const k of ['f1', 'exactRoll', 'detectionRecall'] as const) {
    expect(got[k], `${name} ${k} ${(got[k] * 100).toFixed(1)}% is under its floor ${(floor![k] * 100).toFixed(1)}%`).toBeGreaterThanOrEqual(floor![k]);
  }
}

let detector: Detector & { dieFacePath: string | null };
beforeAll(async () => {
  detector = await createNodeDetector({ threads: 1 });
  const dieFaceSha = detector.dieFacePath ? createHash('sha256').update(readFileSync(detector.dieFacePath)).digest('hex') : null;
  if (dieFaceSha !== (floors.dieFace?.sha256 ?? null)) {
    console.warn(`eval floors: the die-face reader (${dieFaceSha ? `models/die-face.onnx, sha256 ${dieFaceSha.slice(0, 12)}` : 'none'}) is not the one the floors were set for; run tests/vision/update-eval-floors.ts`);
  }
});
afterAll(async () => {
  await detector?.release();
});

describe('shipped detector accuracy floors', () => {
  it('holds on the committed fixture photos (byler, matteop65 val samples; synthetic renders)', async () => {
    const dirs = Object.keys(floors.fixtures).map((name) => path.join(REPO_ROOT, 'tests/fixtures/dice-photos', name));
    const report = await evaluate(withTiles(detector), dirs);
    for (const d of report.datasets) checkFloors(`fixtures/${d.name}`, d, floors.fixtures[d.name]);
  }, 120_000);

  it.skipIf(!haveVal)('holds on the val splits of ../shared/data', async () => {
    const names = Object.keys(floors.val).filter((n) => n !== 'overall');
    const report = await evaluate(withTiles(detector), names.map((n) => path.join(valRoot, n)));
    for (const d of report.datasets) checkFloors(d.name, d, floors.val[d.name]);
    checkFloors('overall', report.overall, floors.val.overall);
  }, 300_000);
});

describe('shipped die-face reader alone on the labelled boxes (--boxes truth)', () => {
  const reader = (): TwoPassDetector['dieFaceReader'] => {
    expect('dieFaceReader' in detector, 'eval-floors.json has die-face floors but models/die-face.onnx is missing').toBe(true);
    return (detector as unknown as TwoPassDetector).dieFaceReader;
  };
  const truth = floors.dieFaceTruthBoxes;

  it.skipIf(!truth)('holds on the committed fixture photos', async () => {
    const dirs = Object.keys(truth!.fixtures).map((name) => path.join(REPO_ROOT, 'tests/fixtures/dice-photos', name));
    const report = await evaluate(detector, dirs, { truthEval: { reader: reader() } });
    for (const d of report.datasets) checkFloors(`truth boxes, fixtures/${d.name}`, d, truth!.fixtures[d.name]);
  }, 120_000);

  it.skipIf(!truth || !haveVal)('holds on the val splits of ../shared/data', async () => {
    const names = Object.keys(truth!.val).filter((n) => n !== 'overall');
    const report = await evaluate(detector, names.map((n) => path.join(valRoot, n)), { truthEval: { reader: reader() } });
    for (const d of report.datasets) checkFloors(`truth boxes, ${d.name}`, d, truth!.val[d.name]);
    checkFloors('truth boxes, overall', report.overall, truth!.val.overall);
  }, 300_000);
});
