/**
 * npm run choose-symbol-rule -- [--scenes cache/dicegen-symbols] [--model models/dice-pips.onnx] [--write]
 *
 * Chooses how the app finds symbol dice with a detector (its sidecar's `symbolDice` rule, see
 * src/lib/vision/config.ts): the score (objectness alone, as symbol faces spread their class
 * probabilities) and its threshold, and how much of a box may lie inside a better one before it
 * is dropped (a die's side face, or its symbol, found as a die of its own).
 *
 * Measured on symbol-only scenes of the detector's own synthetic generator
 * (`/usr/bin/python3 models/training/render_symbol_scenes.py`), never on the symbol evaluation
 * set. The rule kept is the one under which most scenes have every die found and nothing else
 * ("count right"), then the best per-die F1 (centre matching, docs: ../shared/data/README.md).
 * `--write` stores it in the model's sidecar. Run it again after a new detector is exported.
 *
 * It also prints how far the chosen rule's boxes lie from the labelled ones, in the terms of
 * the face embedder's training crops (`models/training/die_crops.py` `jitter_box`: the centre's
 * error in box sides, the log of the size ratio), so that the embedder can be taught crops as
 * loose as the detector's (`train_face_embed.py --box-shift --box-scale`).
 *
 * Then the rule's `inputSizes`: the sizes a frame is read at, the surest read kept
 * (face-reader.ts `surestRead`). Measured on dicegen scenes of dice printed with a shipped kit's
 * art (`--kit-scenes`, default every cache/dicegen-kit-* folder; models/training/README.md),
 * each read with its kit's art as the app reads, once as rendered and once shrunk to half in
 * its frame (the same dice twice as far away): the sizes kept are those with the best mean
 * per-die F1 plus exact-roll accuracy, the fewest sizes on a tie. Without kit scenes the frame
 * is read at the detector's own size only.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { decodeDetections, type DecodeOptions } from '../src/lib/vision/decode.ts';
import { letterbox } from '../src/lib/vision/letterbox.ts';
import { matchByCentre } from '../src/lib/vision/metrics.ts';
import type { Box } from '../src/lib/vision/types.ts';
import { INPUT_NAME, OUTPUT_NAME } from '../src/lib/vision/detector.ts';
import type { Detector } from '../src/lib/vision/detector.ts';
import type { DetectorConfig, SymbolDiceRule } from '../src/lib/vision/config.ts';
import { shrinkInFrame } from '../src/lib/vision/face-reader.ts';
import { EvalAccumulator } from '../src/lib/vision/metrics.ts';
import { loadDataset } from './lib/datasets.ts';
import { createNodeKitReader } from './lib/node-faces.ts';
import { createNodeDetector, loadModelFiles, readImageFile, REPO_ROOT, sidecarPath, SHIPPED_MODEL } from './lib/node-vision.ts';

/** Read sizes tried, as fractions of the detector's input size (rounded to its stride). */
const SIZE_SETS = [[1], [1, 0.75], [1, 0.625], [1, 0.4375], [1, 0.75, 0.5], [1, 0.625, 0.4375], [1, 0.75, 0.5625, 0.4375]];
/** The scenes as rendered, and shrunk in their frame: dice twice as far away. */
const DISTANCES = [1, 0.5];

/** Folders of kit scenes: those given, else every cache/dicegen-kit-* with a labels.json. */
async function kitSceneDirs(given: readonly string[]): Promise<string[]> {
  if (given.length) return given.map((d) => path.resolve(d));
  const cache = path.join(REPO_ROOT, 'cache');
  const names = existsSync(cache) ? await readdir(cache) : [];
  return names.filter((n) => n.startsWith('dicegen-kit-') && existsSync(path.join(cache, n, 'labels.json'))).sort().map((n) => path.join(cache, n));
}

interface SizeRow {
  sizes: number[];
  /** Per kit scene folder and distance. */
  cells: Array<{ kit: string; distance: number; f1: number; exact: number }>;
  score: number;
}

/** Reads every kit scene, as rendered and from twice as far, with each set of read sizes. */
async function chooseReadSizes(modelPath: string, config: DetectorConfig, rule: Pick<SymbolDiceRule, 'scoreThreshold' | 'containment'>, dirs: readonly string[]): Promise<SizeRow[]> {
  const base = await createNodeDetector({ modelPath, dieFace: 'off', threads: 1 });
  const step = config.inputStride || 32;
  const rows: SizeRow[] = [];
  for (const fractions of SIZE_SETS) {
    const sizes = [...new Set(fractions.map((f) => Math.max(step, Math.round((f * config.inputSize) / step) * step)))];
    const detector: Detector = {
      config: { ...config, symbolDice: { ...rule, inputSizes: sizes } },
      detect: (image, options) => base.detect(image, options),
      release: async () => {},
    };
    const cells: SizeRow['cells'] = [];
    for (const dir of dirs) {
      const labels = JSON.parse(await readFile(path.join(dir, 'labels.json'), 'utf8')) as { kit?: unknown };
      const kitDir = path.join(REPO_ROOT, 'src/lib/dice/kits', String(labels.kit));
      if (typeof labels.kit !== 'string' || !existsSync(path.join(kitDir, 'kit.json'))) {
        throw new Error(`${dir}/labels.json: "kit" must name a shipped kit (src/lib/dice/kits/<id>), got ${JSON.stringify(labels.kit)}`);
      }
      const reader = await createNodeKitReader(kitDir, detector, { threads: 1 });
      const dataset = await loadDataset(dir, reader.folder.kit);
      for (const distance of DISTANCES) {
        const tally = new EvalAccumulator(true, reader.folder.kit.faces.map((f) => f.id), 'unknown');
        for (const im of dataset.images) {
          const image = await readImageFile(path.join(dir, im.file));
          const view = distance === 1 ? { frame: image, toImage: (b: Box) => b } : shrinkInFrame(image, distance, config.padValue);
          const { dice } = await reader.read(view.frame);
          tally.add(im.dice, dice.map((d) => ({ box: view.toImage(d.box), value: d.face?.id ?? null })));
        }
        const t = tally.summarise();
        cells.push({ kit: labels.kit, distance, f1: t.perDie.f1 ?? 0, exact: t.exactRollAccuracy ?? 0 });
      }
      await reader.release();
    }
    rows.push({ sizes, cells, score: cells.reduce((a, c) => a + c.f1 + c.exact, 0) / Math.max(1, cells.length) });
  }
  await base.release();
  return rows;
}

interface Scene {
  file: string;
  boxes: number[][];
  ignore: number[][];
}

const toBox = (b: number[]): { box: Box } => ({ box: { x: b[0]!, y: b[1]!, w: b[2]! - b[0]!, h: b[3]! - b[1]! } });

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      scenes: { type: 'string', default: path.join(REPO_ROOT, 'cache/dicegen-symbols') },
      model: { type: 'string', default: SHIPPED_MODEL },
      write: { type: 'boolean', default: false },
      'kit-scenes': { type: 'string', multiple: true, default: [] },
    },
  });
  const dir = path.resolve(values.scenes!);
  const indexFile = path.join(dir, 'index.jsonl');
  if (!existsSync(indexFile)) {
    throw new Error(`no scenes at ${dir}: render them first with /usr/bin/python3 models/training/render_symbol_scenes.py --out ${path.relative(process.cwd(), dir)}`);
  }
  const scenes = (await readFile(indexFile, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Scene);
  const files = await loadModelFiles(path.resolve(values.model!));
  const ort = await import('onnxruntime-node');
  const session = await ort.InferenceSession.create(files.model, { intraOpNumThreads: 1, interOpNumThreads: 1 });
  const size = files.config.inputSize;

  const rules: Array<{ name: string; options: DecodeOptions }> = [{ name: `class score ≥ ${files.config.scoreThreshold} (pip rule)`, options: {} }];
  for (const t of [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9]) {
    for (const c of [0.2, 0.3, 0.4, 0.5, 0.6, 1]) {
      rules.push({ name: `objectness ≥ ${t}, inside ≤ ${c}`, options: { score: 'objectness', scoreThreshold: t, containment: c } });
    }
  }
  const tally = rules.map(() => ({ found: 0, extra: 0, truth: 0, countRight: 0, shift: [] as number[], scale: [] as number[] }));
  for (const scene of scenes) {
    const image = await readImageFile(path.join(dir, scene.file));
    const { tensor, geometry } = letterbox(image, size, files.config.padValue, undefined, files.config.inputStride);
    const outputs = await session.run({ [INPUT_NAME]: new ort.Tensor('float32', tensor, [1, 3, geometry.inputHeight, geometry.inputWidth]) });
    const out = outputs[OUTPUT_NAME]!;
    const truth = scene.boxes.map(toBox);
    const ignore = scene.ignore.map(toBox);
    rules.forEach((rule, i) => {
      const dice = decodeDetections(out.data as Float32Array, out.dims, files.config, geometry, rule.options);
      const matched = matchByCentre(truth, dice);
      const used = new Set(matched.map((m) => m.prediction));
      // a die on a dice cut by the frame or mostly hidden is neither right nor wrong
      const ignored = matchByCentre(ignore, dice.filter((_, j) => !used.has(j))).length;
      const extra = dice.length - matched.length - ignored;
      const t = tally[i]!;
      t.found += matched.length;
      t.extra += extra;
      t.truth += truth.length;
      if (matched.length === truth.length && extra === 0) t.countRight++;
      for (const m of matched) {
        const a = truth[m.truth]!.box;
        const b = dice[m.prediction]!.box;
        t.shift.push((b.x + b.w / 2 - (a.x + a.w / 2)) / a.w, (b.y + b.h / 2 - (a.y + a.h / 2)) / a.h);
        t.scale.push(Math.log(b.w / a.w), Math.log(b.h / a.h));
      }
    });
  }
  const rows = rules.map((rule, i) => {
    const t = tally[i]!;
    const recall = t.found / t.truth;
    const precision = t.found + t.extra > 0 ? t.found / (t.found + t.extra) : 0;
    const f1 = recall + precision > 0 ? (2 * recall * precision) / (recall + precision) : 0;
    return { rule, recall, precision, f1, countRight: t.countRight / scenes.length, shiftSd: rms(t.shift), scaleSd: rms(t.scale) };
  });
  console.log(`${scenes.length} symbol-dice scenes (${path.relative(process.cwd(), dir) || dir}), model ${path.basename(files.modelPath)}\n`);
  console.log('rule                                  count right  recall  precision  F1');
  for (const r of rows) {
    console.log(`${r.rule.name.padEnd(38)}${(100 * r.countRight).toFixed(1).padStart(10)}%${(100 * r.recall).toFixed(1).padStart(7)}%${(100 * r.precision).toFixed(1).padStart(10)}%${(100 * r.f1).toFixed(1).padStart(6)}%`);
  }
  const best = rows.slice(1).sort((a, b) => b.countRight - a.countRight || b.f1 - a.f1)[0]!;
  console.log(`\nchosen: ${best.rule.name} (count right ${(100 * best.countRight).toFixed(1)}%, F1 ${(100 * best.f1).toFixed(1)}%)`);
  console.log(`its boxes against the labels: centre error ${best.shiftSd.toFixed(3)} box sides, log size error ${best.scaleSd.toFixed(3)} (root mean square; train_face_embed.py --box-shift, --box-scale)`);
  const chosen = { scoreThreshold: best.rule.options.scoreThreshold!, containment: best.rule.options.containment! };
  const kitDirs = await kitSceneDirs(values['kit-scenes'] ?? []);
  let sizes: { inputSizes: number[]; row: SizeRow | null; scenes: string | null } = { inputSizes: [files.config.inputSize], row: null, scenes: null };
  if (kitDirs.length === 0) {
    console.log(`\nno kit scenes (cache/dicegen-kit-*): frames are read at ${files.config.inputSize} only. Render them with`);
    console.log('  npx tsx scripts/kit-art-png.ts src/lib/dice/kits/<kit> cache/kit-art/<kit>');
    console.log('  /usr/bin/python3 models/training/render_symbol_scenes.py --kit-art cache/kit-art/<kit> --out cache/dicegen-kit-<kit> --count 200');
  } else {
    const rows = await chooseReadSizes(files.modelPath, files.config, chosen, kitDirs);
    console.log(`\nread sizes (the surest read kept), on ${kitDirs.map((d) => path.relative(process.cwd(), d) || d).join(', ')}, each read with its kit's art; per-die F1 / exact rolls:`);
    const heads = rows[0]!.cells.map((c) => `${c.kit}${c.distance === 1 ? '' : ` ×${c.distance}`}`.padStart(26));
    console.log('sizes'.padEnd(20) + heads.join(''));
    for (const r of rows) {
      console.log(r.sizes.join(', ').padEnd(20) + r.cells.map((c) => `${(100 * c.f1).toFixed(1)}% / ${(100 * c.exact).toFixed(1)}%`.padStart(26)).join(''));
    }
    const top = [...rows].sort((a, b) => b.score - a.score || a.sizes.length - b.sizes.length)[0]!;
    sizes = { inputSizes: top.sizes, row: top, scenes: `${kitDirs.map((d) => path.basename(d)).join(', ')} (dicegen scenes of kit-art dice, render_symbol_scenes.py --kit-art), as rendered and shrunk to half in the frame` };
    console.log(`chosen: read at ${top.sizes.join(', ')}, the surest read kept`);
  }
  if (values.write) {
    const sidecar = sidecarPath(files.modelPath);
    const json = JSON.parse(await readFile(sidecar, 'utf8')) as Record<string, unknown>;
    const sha = createHash('sha256').update(files.model).digest('hex');
    json.symbolDice = {
      ...chosen,
      inputSizes: sizes.inputSizes,
      chosenOn: `${scenes.length} symbol-only dicegen scenes (models/training/render_symbol_scenes.py), npm run choose-symbol-rule`,
      inputSizesChosenOn: sizes.scenes,
      inputSizesFigures: sizes.row?.cells.map((c) => ({ kit: c.kit, distance: c.distance, f1: round(c.f1), exact: round(c.exact) })) ?? null,
      detectorSha256: sha,
      figures: { countRight: round(best.countRight), recall: round(best.recall), precision: round(best.precision), f1: round(best.f1) },
      pipRuleFigures: { countRight: round(rows[0]!.countRight), recall: round(rows[0]!.recall), precision: round(rows[0]!.precision), f1: round(rows[0]!.f1) },
    };
    await writeFile(sidecar, JSON.stringify(json, null, 2) + '\n');
    console.log(`written to ${path.relative(process.cwd(), sidecar)}`);
  }
}

const round = (v: number): number => Math.round(v * 10000) / 10000;
/** Root mean square: the standard deviation about zero, the spread `jitter_box` draws with. */
const rms = (v: readonly number[]): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0) / Math.max(1, v.length));

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
