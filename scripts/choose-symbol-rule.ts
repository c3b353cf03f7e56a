/**
 * npm run choose-symbol-rule -- [--scenes cache/dicegen-symbols] [--model models/dice-symbols.onnx] [--kit-scenes DIR]... [--write]
 *
 * Chooses how the app finds symbol dice with a detector (its sidecar's `symbolDice` rule, see
 * src/lib/vision/config.ts; by default the detector the app finds them with,
 * `symbolDetectorModel`): the score (objectness alone, as symbol faces spread their class
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
 * Then how a frame is read at several sizes (`inputSizes`) and the reads pooled (`fusion`,
 * decode.ts `fuseReads`: each read's threshold, the IoU that makes two boxes one die, the reads
 * that must agree). Measured, boxes only, on the same symbol scenes and on dicegen scenes of dice
 * printed with a shipped kit's art (`--kit-scenes`, default every cache/dicegen-kit-* folder;
 * models/training/README.md), each as rendered and shrunk to half in its frame (the same dice
 * twice as far away): kept is the rule with most scenes counted right, averaged over those
 * folders and distances, then the best mean F1; one read at the detector's size is among the
 * candidates.
 *
 * Then, for the chosen read rule, the `recount` (face-reader.ts `findMissedSymbolDice`): how far
 * below the read threshold to look, and how many boxes, for dice missed when the count of dice
 * in view is known (at the table the game knows how many were thrown; here the labels tell,
 * dice cut by the frame included). Measured on the same scenes with the count known: kept is the
 * rule with most scenes counted right, then the best mean F1, then the fewest boxes looked at.
 *
 * Its last line, `summary: {"read": {"countRight", "f1"}, "counted": {...}}`, gives the chosen
 * read's means without and with the count known, for scripts (`pipeline.py` weighs detector
 * checkpoints by it).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { decodeDetections, dropContained, fuseReads, type DecodeOptions } from '../src/lib/vision/decode.ts';
import { letterbox } from '../src/lib/vision/letterbox.ts';
import { matchByCentre } from '../src/lib/vision/metrics.ts';
import type { Box, Die } from '../src/lib/vision/types.ts';
import { INPUT_NAME, OUTPUT_NAME } from '../src/lib/vision/detector.ts';
import type { DetectorConfig, ReadFusion, SymbolDiceRule, SymbolRecount } from '../src/lib/vision/config.ts';
import { findMissedSymbolDice } from '../src/lib/vision/face-reader.ts';
import { shrinkInFrame } from '../src/lib/vision/letterbox.ts';
import { createNodeDetector, loadModelFiles, readImageFile, REPO_ROOT, sidecarPath, symbolDetectorModel } from './lib/node-vision.ts';
import { HelpRequest, runCli, UsageError } from './lib/cli.ts';

const USAGE = 'usage: npm run choose-symbol-rule -- [--scenes cache/dicegen-symbols] [--model models/dice-symbols.onnx] [--kit-scenes DIR]... [--write]';

/** Read sizes tried, as fractions of the detector's input size (rounded to its stride). */
const SIZE_SETS = [[1, 0.75], [1, 0.625], [1, 0.4375], [1, 0.75, 0.5], [1, 0.625, 0.4375], [1, 0.75, 0.5625, 0.4375]];
/** Fusion parameters tried (config.ts `ReadFusion`). */
const READ_THRESHOLDS = [0.3, 0.35, 0.4, 0.45, 0.5];
const SAME_DIE_IOUS = [0.2, 0.3, 0.4, 0.5];
/** The scenes as rendered, and shrunk in their frame: dice twice as far away. */
const DISTANCES = [1, 0.5];
/** Recount rules tried (config.ts `SymbolRecount`): thresholds below the read threshold, and how many boxes. */
const RECOUNT_THRESHOLDS = [0.1, 0.15, 0.2, 0.25, 0.3];
const RECOUNT_CANDIDATES = [2, 4, 8];

/** Folders of kit scenes: those given, else every cache/dicegen-kit-* with a labels.json. */
async function kitSceneDirs(given: readonly string[]): Promise<string[]> {
  if (given.length) return given.map((d) => path.resolve(d));
  const cache = path.join(REPO_ROOT, 'cache');
  const names = existsSync(cache) ? await readdir(cache) : [];
  return names.filter((n) => n.startsWith('dicegen-kit-') && existsSync(path.join(cache, n, 'labels.json'))).sort().map((n) => path.join(cache, n));
}

/** A folder of labelled scenes: the symbol scenes' index.jsonl, or a kit folder's labels.json. */
interface SceneSet {
  name: string;
  dir: string;
  scenes: Scene[];
}

/** One way of finding the symbol dice of a frame. */
interface ReadRule {
  sizes: number[];
  fusion: ReadFusion | null;
}

/** A scene read at every size (boxes down to the lowest threshold tried), for scoring rules afterwards. */
interface SceneReads {
  cell: number;
  scene: Scene;
  reads: Map<number, Die[]>;
}

interface ReadRuleRow {
  rule: ReadRule;
  /** Per scene set and distance. */
  cells: Array<{ set: string; distance: number; countRight: number; f1: number }>;
  countRight: number;
  f1: number;
}

/**
 * Reads every scene of every set, as rendered and from twice as far, at each size once (boxes
 * at the lowest threshold tried; a higher one keeps a subset), then scores each read rule.
 */
async function chooseReadRule(
  modelPath: string,
  config: DetectorConfig,
  one: Pick<SymbolDiceRule, 'scoreThreshold' | 'containment'>,
  sets: readonly SceneSet[],
): Promise<{ rows: ReadRuleRow[]; cells: Array<{ set: string; distance: number }>; scenesRead: SceneReads[] }> {
  const detector = await createNodeDetector({ modelPath, dieFace: 'off', threads: 1 });
  const step = config.inputStride || 32;
  const toSize = (f: number): number => Math.max(step, Math.round((f * config.inputSize) / step) * step);
  const rules: ReadRule[] = [{ sizes: [config.inputSize], fusion: null }];
  for (const fractions of SIZE_SETS) {
    const sizes = [...new Set(fractions.map(toSize))];
    for (const readThreshold of READ_THRESHOLDS) {
      for (const sameDieIoU of SAME_DIE_IOUS) {
        for (let votes = 2; votes <= sizes.length; votes++) rules.push({ sizes, fusion: { readThreshold, sameDieIoU, votes } });
      }
    }
  }
  const allSizes = [...new Set(rules.flatMap((r) => r.sizes))];
  const lowest = Math.min(one.scoreThreshold, ...READ_THRESHOLDS, ...RECOUNT_THRESHOLDS);
  const cells: Array<{ set: string; distance: number; tallies: SceneTally[] }> = [];
  const scenesRead: SceneReads[] = [];
  for (const set of sets) {
    for (const distance of DISTANCES) {
      const tallies = rules.map(() => new SceneTally());
      for (const scene of set.scenes) {
        const image = await readImageFile(path.join(set.dir, scene.file), { upright: false }); // as its labels are
        const view = distance === 1 ? { frame: image, toImage: (b: Box) => b } : shrinkInFrame(image, distance, config.padValue);
        const reads = new Map<number, Die[]>();
        for (const inputSize of allSizes) {
          const { dice } = await detector.detect(view.frame, { score: 'objectness', scoreThreshold: lowest, containment: one.containment, inputSize });
          reads.set(inputSize, dice.map((d) => ({ ...d, box: view.toImage(d.box) })));
        }
        rules.forEach((rule, i) => {
          const dice = rule.fusion
            ? dropContained(fuseReads(rule.sizes.map((s) => reads.get(s)!.filter((d) => d.score >= rule.fusion!.readThreshold)), rule.fusion), one.containment)
            : reads.get(rule.sizes[0]!)!.filter((d) => d.score >= one.scoreThreshold);
          tallies[i]!.add(scene, dice);
        });
        scenesRead.push({ cell: cells.length, scene, reads });
      }
      cells.push({ set: set.name, distance, tallies });
    }
  }
  await detector.release();
  const rows = rules.map((rule, i) => {
    const per = cells.map((c) => ({ set: c.set, distance: c.distance, countRight: c.tallies[i]!.countRightShare(), f1: c.tallies[i]!.f1() }));
    const mean = (key: 'countRight' | 'f1'): number => per.reduce((a, c) => a + c[key], 0) / per.length;
    return { rule, cells: per, countRight: mean('countRight'), f1: mean('f1') };
  });
  return { rows, cells: cells.map((c) => ({ set: c.set, distance: c.distance })), scenesRead };
}

/**
 * The read rule's figures with the count known, for each recount rule (null: none): the dice
 * found by `rule`, then those `findMissedSymbolDice` adds up to the scene's count.
 */
function chooseRecount(
  rule: ReadRule,
  containment: number,
  cells: ReadonlyArray<{ set: string; distance: number }>,
  scenesRead: readonly SceneReads[],
): Array<{ recount: SymbolRecount | null; cells: ReadRuleRow['cells']; countRight: number; f1: number }> {
  const fusion = rule.fusion;
  const recounts: Array<SymbolRecount | null> = [null];
  for (const scoreThreshold of [...RECOUNT_THRESHOLDS, fusion?.readThreshold ?? 1]) {
    if (scoreThreshold > (fusion?.readThreshold ?? 1)) continue;
    for (const maxCandidates of RECOUNT_CANDIDATES) recounts.push({ scoreThreshold, maxCandidates });
  }
  return recounts.map((recount) => {
    const tallies = cells.map(() => new SceneTally());
    for (const { cell, scene, reads } of scenesRead) {
      const all = rule.sizes.map((s) => reads.get(s)!);
      const found = fusion ? dropContained(fuseReads(all.map((r) => r.filter((d) => d.score >= fusion.readThreshold)), fusion), containment) : all[0]!;
      const expected = scene.boxes.length + scene.ignore.length; // every die thrown, those cut by the frame too
      const missed = recount && found.length < expected ? findMissedSymbolDice(all, found, { containment, fusion }, recount, expected) : [];
      tallies[cell]!.add(scene, [...found, ...missed]);
    }
    const per = cells.map((c, i) => ({ set: c.set, distance: c.distance, countRight: tallies[i]!.countRightShare(), f1: tallies[i]!.f1() }));
    const mean = (key: 'countRight' | 'f1'): number => per.reduce((a, c) => a + c[key], 0) / per.length;
    return { recount, cells: per, countRight: mean('countRight'), f1: mean('f1') };
  });
}

/** Boxes-only figures over scenes (centre matching; a die cut by the frame or hidden is ignored). */
class SceneTally {
  scenes = 0;
  countRight = 0;
  truth = 0;
  found = 0;
  extra = 0;
  add(scene: Scene, dice: readonly { box: Box }[]): void {
    const truth = scene.boxes.map(toBox);
    const matched = matchByCentre(truth, dice);
    const used = new Set(matched.map((m) => m.prediction));
    const ignored = matchByCentre(scene.ignore.map(toBox), dice.filter((_, j) => !used.has(j))).length;
    const extra = dice.length - matched.length - ignored;
    this.scenes++;
    this.truth += truth.length;
    this.found += matched.length;
    this.extra += extra;
    if (matched.length === truth.length && extra === 0) this.countRight++;
  }
  countRightShare(): number {
    return this.countRight / Math.max(1, this.scenes);
  }
  f1(): number {
    const recall = this.found / Math.max(1, this.truth);
    const precision = this.found + this.extra > 0 ? this.found / (this.found + this.extra) : 0;
    return recall + precision > 0 ? (2 * recall * precision) / (recall + precision) : 0;
  }
}

/** A kit folder's labelled scenes (labels.json, `whole-die` boxes) as scenes. */
async function kitScenes(dir: string): Promise<SceneSet> {
  const labels = JSON.parse(await readFile(path.join(dir, 'labels.json'), 'utf8')) as { images?: Array<{ file: string; dice: Box[] }> };
  if (!Array.isArray(labels.images)) throw new UsageError(`${dir}/labels.json: expected "images"`);
  const scenes = labels.images.map((im) => ({ file: im.file, boxes: im.dice.map((d) => [d.x, d.y, d.x + d.w, d.y + d.h]), ignore: [] }));
  return { name: path.basename(dir).replace(/^dicegen-/, ''), dir, scenes };
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
      model: { type: 'string', default: symbolDetectorModel() },
      write: { type: 'boolean', default: false },
      'kit-scenes': { type: 'string', multiple: true, default: [] },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) throw new HelpRequest(USAGE);
  const dir = path.resolve(values.scenes!);
  const indexFile = path.join(dir, 'index.jsonl');
  if (!existsSync(indexFile)) {
    throw new UsageError(`no scenes at ${dir}: render them first with /usr/bin/python3 models/training/render_symbol_scenes.py --out ${path.relative(process.cwd(), dir)}`);
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
    const image = await readImageFile(path.join(dir, scene.file), { upright: false }); // as its labels are
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
  if (kitDirs.length === 0) {
    console.log('\nno kit scenes (cache/dicegen-kit-*): the read rule is chosen on the symbol scenes alone. Render them with');
    console.log('  npx tsx scripts/kit-art-png.ts src/lib/dice/kits/<kit> cache/kit-art/<kit>');
    console.log('  /usr/bin/python3 models/training/render_symbol_scenes.py --kit-art cache/kit-art/<kit> --out cache/dicegen-kit-<kit> --count 200');
  }
  const sets: SceneSet[] = [{ name: path.basename(dir).replace(/^dicegen-/, ''), dir, scenes }, ...(await Promise.all(kitDirs.map(kitScenes)))];
  const { rows: readRows, cells, scenesRead } = await chooseReadRule(files.modelPath, files.config, chosen, sets);
  const describe = (r: ReadRule): string =>
    r.fusion ? `${r.sizes.join('/')}, objectness ≥ ${r.fusion.readThreshold}, IoU > ${r.fusion.sameDieIoU}, ${r.fusion.votes} votes` : `${r.sizes.join('/')} alone`;
  const ranked = [...readRows].sort((a, b) => b.countRight - a.countRight || b.f1 - a.f1);
  const top = ranked[0]!;
  const single = readRows[0]!;
  console.log(`\nread rules (count right / F1 per scene set and distance), on ${sets.map((s) => s.name).join(', ')}; the best 10 and one read:`);
  console.log('rule'.padEnd(52) + top.cells.map((c) => `${c.set}${c.distance === 1 ? '' : ` ×${c.distance}`}`.padStart(26)).join('') + '      mean');
  for (const r of [...ranked.slice(0, 10), single]) {
    console.log(describe(r.rule).padEnd(52) + r.cells.map((c) => `${(100 * c.countRight).toFixed(1)}% / ${(100 * c.f1).toFixed(1)}%`.padStart(26)).join('') + `${(100 * r.countRight).toFixed(1)}% / ${(100 * r.f1).toFixed(1)}%`.padStart(18));
  }
  console.log(`chosen: ${describe(top.rule)}`);
  const recountRows = chooseRecount(top.rule, chosen.containment, cells, scenesRead);
  const pct = (c: { countRight: number; f1: number }): string => `${(100 * c.countRight).toFixed(1)}% / ${(100 * c.f1).toFixed(1)}%`;
  console.log('\nwith the count of dice known: recount rules (count right / F1, as above)');
  for (const r of recountRows) {
    const name = r.recount ? `objectness ≥ ${r.recount.scoreThreshold}, ${r.recount.maxCandidates} boxes` : 'none';
    console.log(name.padEnd(52) + r.cells.map((c) => pct(c).padStart(26)).join('') + pct(r).padStart(18));
  }
  const recount = [...recountRows].sort((a, b) => b.countRight - a.countRight || b.f1 - a.f1 || (a.recount?.maxCandidates ?? 0) - (b.recount?.maxCandidates ?? 0))[0]!;
  console.log(`chosen: ${recount.recount ? JSON.stringify(recount.recount) : 'none'} (count right ${pct(recountRows[0]!)} → ${pct(recount)})`);
  // One line for scripts (models/training/pipeline.py chooses a detector checkpoint by it): the
  // chosen read's means over the scene sets and distances, without and with the count known.
  const summary = { read: { countRight: round(top.countRight), f1: round(top.f1) }, counted: { countRight: round(recount.countRight), f1: round(recount.f1) } };
  console.log(`summary: ${JSON.stringify(summary)}`);
  if (values.write) {
    const sidecar = sidecarPath(files.modelPath);
    const json = JSON.parse(await readFile(sidecar, 'utf8')) as Record<string, unknown>;
    const sha = createHash('sha256').update(files.model).digest('hex');
    json.symbolDice = {
      ...chosen,
      inputSizes: top.rule.sizes,
      fusion: top.rule.fusion,
      recount: recount.recount,
      recountChosenOn: 'the same scenes with the count of dice known (most scenes counted right, then F1, then the fewest boxes)',
      recountFigures: recount.cells.map((c) => ({ scenes: c.set, distance: c.distance, countRight: round(c.countRight), f1: round(c.f1) })),
      withoutRecountFigures: recountRows[0]!.cells.map((c) => ({ scenes: c.set, distance: c.distance, countRight: round(c.countRight), f1: round(c.f1) })),
      chosenOn: `${scenes.length} symbol-only dicegen scenes (models/training/render_symbol_scenes.py), npm run choose-symbol-rule`,
      readRuleChosenOn: `${sets.map((s) => s.name).join(', ')}, each as rendered and shrunk to half in the frame (boxes only: most scenes counted right, then F1)`,
      readRuleFigures: top.cells.map((c) => ({ scenes: c.set, distance: c.distance, countRight: round(c.countRight), f1: round(c.f1) })),
      oneReadFigures: single.cells.map((c) => ({ scenes: c.set, distance: c.distance, countRight: round(c.countRight), f1: round(c.f1) })),
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

runCli('choose-symbol-rule', import.meta.url, main);
