/**
 * Sets tests/vision/eval-floors.json from the shipped model's own figures, a margin below them:
 *   npx tsx tests/vision/update-eval-floors.ts
 * Run it when models/dice-pips.onnx or models/die-face.onnx changes (after checking with
 * `npm run eval` that the new model is better), and commit the JSON with the model. The floors
 * measure what ships, as `npm run eval` reads: the detector, then the die-face reader's second
 * pass when it ships, large photos in tiles and close-ups shrunk as well (`withTiles`); the
 * `dieFaceTruthBoxes` floors measure the die-face reader alone on the labelled boxes. Margins absorb float differences between
 * CPUs (a borderline die may flip), not a worse model:
 * - val splits and overall: F1 and detection recall − 0.03; exact rolls − max(0.03, one image);
 * - fixture folders (a handful of images): F1 and detection recall − 0.05; exact rolls − one image.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EvalSummary } from '../../src/lib/vision/metrics.ts';
import { withTiles } from '../../src/lib/vision/tiles.ts';
import type { TwoPassDetector } from '../../src/lib/vision/die-face-reader.ts';
import { evaluate, valSplits, type EvalReport } from '../../scripts/lib/evaluate.ts';
import { createNodeDetector, dataRoot, REPO_ROOT, SHIPPED_MODEL } from '../../scripts/lib/node-vision.ts';

const FIXTURES = ['byler-val-sample', 'close-ups', 'logo-ones', 'matteop65-val-sample', 'synthetic'];
const down = (v: number): number => Math.max(0, Math.floor(v * 1000) / 1000);

function floor(s: EvalSummary, margin: number, exactMargin: number) {
  return {
    f1: down((s.perDie.f1 ?? 0) - margin),
    exactRoll: down((s.exactRollAccuracy ?? 0) - exactMargin),
    detectionRecall: down((s.detectionRecall ?? 0) - margin),
  };
}

const detector = await createNodeDetector({ threads: 1 });
const val = await valSplits(dataRoot());
if (val.length === 0) throw new Error(`no val splits under ${dataRoot()}: the floors need them`);
const fixtureDirs = FIXTURES.map((f) => path.join(REPO_ROOT, 'tests/fixtures/dice-photos', f));
// as npm run eval reads them: large photos in tiles too, close-ups shrunk too
const valReport = await evaluate(withTiles(detector), val);
const fixReport = await evaluate(withTiles(detector), fixtureDirs);
const reader = 'dieFaceReader' in detector ? (detector as unknown as TwoPassDetector).dieFaceReader : null;
let truth: { val: EvalReport; fixtures: EvalReport } | null = null;
if (reader) truth = { val: await evaluate(detector, val, { truthEval: { reader } }), fixtures: await evaluate(detector, fixtureDirs, { truthEval: { reader } }) };
await detector.release();

const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
const sha256 = sha(SHIPPED_MODEL);
const sidecar = JSON.parse(readFileSync(SHIPPED_MODEL.replace(/\.onnx$/, '.json'), 'utf8')) as { trainingStep?: number };
const floors = {
  model: { sha256, note: `models/dice-pips.onnx${sidecar.trainingStep ? ` (training step ${sidecar.trainingStep})` : ''}, floors set ${new Date().toISOString().slice(0, 10)}` },
  dieFace: detector.dieFacePath ? { sha256: sha(detector.dieFacePath), note: 'models/die-face.onnx: the second pass the val and fixture floors include' } : null,
  val: Object.fromEntries([
    ...valReport.datasets.map((d) => [d.name, floor(d, 0.03, Math.max(0.03, 1 / d.images))]),
    ['overall', floor(valReport.overall, 0.03, Math.max(0.03, 1 / valReport.overall.images))],
  ]),
  fixtures: Object.fromEntries(fixReport.datasets.map((d) => [d.name, floor(d, 0.05, 1 / d.images)])),
  dieFaceTruthBoxes: truth && {
    val: Object.fromEntries([
      ...truth.val.datasets.map((d) => [d.name, floor(d, 0.03, Math.max(0.03, 1 / d.images))]),
      ['overall', floor(truth.val.overall, 0.03, Math.max(0.03, 1 / truth.val.overall.images))],
    ]),
    fixtures: Object.fromEntries(truth.fixtures.datasets.map((d) => [d.name, floor(d, 0.05, 1 / d.images)])),
  },
  reached: Object.fromEntries(
    [...valReport.datasets, ...fixReport.datasets.map((d) => ({ ...d, name: `fixtures/${d.name}` })), { ...valReport.overall, name: 'overall' }].map((d) => [
      d.name,
      { f1: d.perDie.f1, exactRoll: d.exactRollAccuracy, detectionRecall: d.detectionRecall },
    ]),
  ),
  reachedTruthBoxes:
    truth &&
    Object.fromEntries(
      [...truth.val.datasets, ...truth.fixtures.datasets.map((d) => ({ ...d, name: `fixtures/${d.name}` })), { ...truth.val.overall, name: 'overall' }].map((d) => [
        d.name,
        { f1: d.perDie.f1, exactRoll: d.exactRollAccuracy, detectionRecall: d.detectionRecall },
      ]),
    ),
};
writeFileSync(new URL('./eval-floors.json', import.meta.url), JSON.stringify(floors, null, 2) + '\n');
console.log(JSON.stringify(floors, null, 2));
