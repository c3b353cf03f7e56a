/**
 * Runs a detector over labelled datasets and summarises per dataset and overall
 * (src/lib/vision/metrics.ts has the rules). Used by `npm run eval` and the floor tests.
 */
import path from 'node:path';
import { readdir } from 'node:fs/promises';
import type { DiceKit } from '../../src/lib/dice/kit.ts';
import type { Detector } from '../../src/lib/vision/detector.ts';
import { EvalAccumulator, type EvalSummary, type PredictedDie } from '../../src/lib/vision/metrics.ts';
import type { RgbaImage } from '../../src/lib/vision/types.ts';
import { loadDataset, type BoxStyle, type Dataset } from './datasets.ts';
import { readImageFile, UsageError } from './node-vision.ts';

export interface DatasetReport extends EvalSummary {
  name: string;
  dir: string;
  boxStyle: BoxStyle;
}

export interface EvalReport {
  datasets: DatasetReport[];
  overall: EvalSummary;
}

/**
 * Reading with a kit (`eval --kit`): the dice read as face ids (null: unknown), and the
 * reader's own time per image (detector + face embedder).
 */
export interface KitEvaluation {
  kit: DiceKit;
  read(image: RgbaImage): Promise<{ dice: PredictedDie[]; ms: number }>;
}

/** Measures one dataset. Latency is the reader's own time per image (pre + infer + post), not file decoding. */
export async function evaluateDataset(
  detector: Detector,
  dataset: Dataset,
  kitEval?: KitEvaluation,
): Promise<{ report: DatasetReport; accumulator: EvalAccumulator }> {
  const acc = kitEval
    ? new EvalAccumulator(dataset.boxStyle === 'whole-die', kitEval.kit.faces.map((f) => f.id), 'unknown')
    : new EvalAccumulator(dataset.boxStyle === 'whole-die');
  for (const im of dataset.images) {
    const file = path.join(dataset.dir, im.file);
    const image = await readImageFile(file).catch((e: unknown) => {
      throw new UsageError(`${file}: ${(e as Error).message}`);
    });
    if (image.width !== im.width || image.height !== im.height) {
      throw new UsageError(`${file}: labels say ${im.width}×${im.height} but the image decodes (EXIF applied) to ${image.width}×${image.height}`);
    }
    if (kitEval) {
      const { dice, ms } = await kitEval.read(image);
      acc.add(im.dice, dice, ms);
      continue;
    }
    const { dice, timing } = await detector.detect(image);
    acc.add(im.dice, dice, timing.preprocessMs + timing.inferenceMs + timing.postprocessMs);
  }
  return { report: { name: dataset.name, dir: dataset.dir, boxStyle: dataset.boxStyle, ...acc.summarise() }, accumulator: acc };
}

export async function evaluate(detector: Detector, dirs: readonly string[], kitEval?: KitEvaluation): Promise<EvalReport> {
  const datasets: Dataset[] = [];
  for (const dir of dirs) datasets.push(await loadDataset(dir, kitEval?.kit)); // validate all before measuring any
  const overall = kitEval ? new EvalAccumulator(true, kitEval.kit.faces.map((f) => f.id), 'unknown') : new EvalAccumulator(true);
  const reports: DatasetReport[] = [];
  for (const dataset of datasets) {
    const { report, accumulator } = await evaluateDataset(detector, dataset, kitEval);
    reports.push(report);
    overall.merge(accumulator);
  }
  return { datasets: reports, overall: overall.summarise() };
}

/** The `*-val` folders under DATA/dice-photos, sorted; [] when there are none. */
export async function valSplits(data: string): Promise<string[]> {
  const root = path.join(data, 'dice-photos');
  const names = await readdir(root).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('-val')).sort().map((n) => path.join(root, n));
}
