/**
 * npm run eval -- [--json] [--model FILE.onnx] [--die-face auto|off|FILE.onnx] [--boxes detector|truth]
 *                 [--count-known] [--learn] [--threads N] [--kit DIR] [--holdout] [--wrong] [--crowd N]
 *                 [--condition NAME] [--tiles on|off] [--against BASE.json] [DATASET_DIR...]
 *
 * Measures the detector on labelled dataset folders (labels.json format: ../shared/data/README.md):
 * per-die precision / recall / F1 (centre rule, right value), the same at IoU ≥ 0.5 for
 * `whole-die` sets, detection recall whatever the value, exact-roll accuracy (with its 95% Wilson
 * interval over the photos), the confusion matrix, and median / p95 latency per image — per dataset
 * and overall.
 * With no folder given it measures every `*-val` split under $ROLLCALL_DATA or ../shared/data;
 * with `--holdout`, instead, the held-out 15% of every `*-train` split (datasets.ts `holdoutSlices`,
 * the photos training never sees), the slice models and rules are chosen on, so a candidate is
 * measured without reading val. `--wrong` lists the photos whose roll was not read exactly, what
 * they show and what was read (always in `--json`, as each dataset's `wrongRolls`).
 * Each dataset and the whole are also measured over their crowds alone, the photos of `--crowd N`
 * (default 8) labelled dice or more (`crowds` in `--json`, null where there are none), and over
 * the rolls a game throws, the photos of at most as many dice as any game's rules roll at once
 * (`gameRolls`, `gameRollDice` in `--json`).
 * `--condition NAME` reads every photo as a camera would have taken it in a condition the val
 * splits hardly show (dim, tungsten, shade, shake, swing, defocus, jpeg, glare, lowres, flicker,
 * mono: a dim room at high ISO, a lamp not white-balanced, a shaking hand…;
 * scripts/lib/camera-conditions.ts), the
 * same way on every run, so the readers are measured against the tables and light of real play.
 * `--against BASE.json` (an earlier run's `--json` output, on the same photos) compares the two
 * photo by photo: the rolls read exactly here and not there (fixed), the reverse (broken), and the
 * two-sided exact sign test over them (scripts/lib/compare-reports.ts), since a slice with a dozen
 * wrong photos left cannot tell a better model from a photo's luck by F1 alone.
 * Runs on onnxruntime-node (native CPU) with the app's pre/post-processing; `npm run bench`
 * measures the shipped wasm runtime. Exit code 2 on a missing folder or bad labels.json.
 *
 * With `--kit DIR` (a kit folder, docs/kits.md) the dice are read as that kit's faces (a symbol
 * kit's with the symbol-dice detector, models/dice-symbols.onnx unless `--model`, then the face
 * embedder against the kit's prototypes) and labels give `"face": "<faceId>"`; the figures
 * are the same, by face instead of value, with `unknown` for dice found but not read.
 *
 * Photos are read as `npm run read-dice` and the table's "Photo of the dice" read them: a photo
 * larger than the detector's input whose pip dice look small in it is read in overlapping tiles as
 * well (src/lib/vision/tiles.ts; no val photo is large enough), and a close-up whose die fills much
 * of it, or with no die found surely, shrunk into a padded frame as well; `--tiles off` reads every
 * photo whole, as the live camera reads its frames.
 *
 * Standard dice are read as the app reads them: the detector, then the die-face reader's second
 * pass when models/die-face.onnx ships (`--die-face auto`, the default); `--die-face off` measures
 * the detector alone, `--die-face FILE.onnx` another reader. `--boxes truth` gives the reader the
 * labelled boxes as perfect detections (pip-pattern boxes grown to die size, without looking at
 * the values: scripts/lib/evaluate.ts `perfectDetections`), so reading errors show apart from
 * detection errors; latency is then the reader's alone. `--count-known` reads each photo knowing
 * how many dice it shows, as the table knows how many were thrown: pip dice missed below that
 * count are looked for again (die-face-reader.ts `detectCounted`; the figures are not the
 * issue's, which know nothing of the count). `--learn` reads each folder as one table, in order,
 * learning the dice the reader could not read as a player fills them in (pip-learning.ts;
 * scripts/lib/evaluate.ts `PipLearningEvaluation`).
 */
import { parseArgs } from 'node:util';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import type { EvalSummary } from '../src/lib/vision/metrics.ts';
import type { DieFaceConfig, TwoPassDetector } from '../src/lib/vision/die-face-reader.ts';
import { CROWD_DICE, evaluate, evaluateDatasets, valSplits, type DatasetReport, type EvalReport, type KitEvaluation } from './lib/evaluate.ts';
import { holdoutSlices, type Dataset } from './lib/datasets.ts';
import { createNodeFaceEmbedder, createNodeKitReader, kitDetectorModel, type NodeKitReader } from './lib/node-faces.ts';
import type { FaceEmbedder } from '../src/lib/vision/face-embedder.ts';
import { createNodeDetector, dataRoot } from './lib/node-vision.ts';
import { HelpRequest, runCli, UsageError } from './lib/cli.ts';
import { CAMERA_CONDITIONS, CONDITION_NOTES, isCameraCondition } from './lib/camera-conditions.ts';
import { withTiles } from '../src/lib/vision/tiles.ts';
import { compareReports, formatComparison, parseEvalReport, wilsonInterval, type ReportComparison } from './lib/compare-reports.ts';

const USAGE = 'usage: npm run eval -- [--json] [--model FILE.onnx] [--die-face auto|off|FILE.onnx] [--boxes detector|truth] [--count-known] [--learn] [--threads N] [--kit DIR] [--holdout] [--wrong] [--crowd N] [--condition NAME] [--tiles on|off] [--against BASE.json] [DATASET_DIR...]';

const pct = (v: number | null): string => (v === null ? '  n/a' : (v * 100).toFixed(1).padStart(5));
const ms = (v: number | undefined): string => (v === undefined ? 'n/a' : v.toFixed(1));

function row(name: string, s: EvalSummary, width: number): string {
  const i = s.perDieIoU50;
  return [
    name.padEnd(width),
    String(s.images).padStart(6),
    String(s.dice).padStart(5),
    pct(s.perDie.precision),
    pct(s.perDie.recall),
    pct(s.perDie.f1),
    i ? pct(i.precision) : '    -',
    i ? pct(i.recall) : '    -',
    i ? pct(i.f1) : '    -',
    pct(s.detectionRecall),
    pct(s.exactRollAccuracy),
    pct(s.detectionRecall ? (s.perDie.recall ?? 0) / s.detectionRecall : null),
    ms(s.latencyMs?.median).padStart(7),
    ms(s.latencyMs?.p95).padStart(7),
  ].join('  ');
}

function confusionTable(title: string, s: EvalSummary): string {
  const c = s.confusion;
  const head = ['truth\\read'.padEnd(10), ...c.columns.map((h) => h.padStart(7))].join('');
  const lines = c.counts.map((r, i) => [c.rows[i]!.padEnd(10), ...r.map((v) => String(v).padStart(7))].join(''));
  return [`confusion, ${title} (centre rule; rows = truth, columns = read):`, head, ...lines].join('\n');
}

export function formatReport(report: EvalReport, header: string, listWrongRolls = false): string {
  const out = [header, ''];
  const label = (d: DatasetReport): string => `${d.name} (${d.boxStyle === 'pips' ? 'pips' : 'die'})`;
  const width = Math.max(22, ...report.datasets.map((d) => label(d).length));
  out.push(
    [
      'dataset'.padEnd(width),
      'images'.padStart(6),
      ' dice',
      '    P',
      '    R',
      '   F1',
      'P@IoU',
      'R@IoU',
      'F@IoU',
      ' detR',
      'exact',
      ' read',
      ' med ms',
      ' p95 ms',
    ].join('  '),
  );
  const gameRollLabel = `  ≤ ${report.gameRollDice} dice`;
  const crowdLabel = `  ≥ ${report.crowdDice} dice`;
  const subsetRows = (d: Pick<EvalReport, 'gameRolls' | 'crowds'>): string[] => [
    ...(d.gameRolls ? [row(gameRollLabel, d.gameRolls, width)] : []),
    ...(d.crowds ? [row(crowdLabel, d.crowds, width)] : []),
  ];
  for (const d of report.datasets) {
    out.push(row(label(d), d, width));
    if (report.datasets.length > 1) out.push(...subsetRows(d));
  }
  out.push(row('overall', report.overall, width));
  out.push(...subsetRows(report));
  out.push(
    '',
    'All rates in %. P/R/F1: per die, a prediction matching a labelled die (its centre inside the predicted box, nearest first) with the right value.',
    '@IoU: the same with IoU ≥ 0.5 matching, whole-die sets only (overall: over those sets).',
    'detR: labelled dice found whatever the value.  exact: images whose multiset of values read equals the truth.',
    'read: of the labelled dice found, the share read right (R / detR).',
    ...(report.gameRolls ? [`≤ ${report.gameRollDice} dice: the same over the photos of that many labelled dice or fewer, the rolls a game of Rollcall throws (its rules' most dice).`] : []),
    ...(report.crowds ? [`≥ ${report.crowdDice} dice: the same over the photos of that many labelled dice or more (crowds of small touching dice, where most dice are missed).`] : []),
    'ms: reader time per image (letterbox + inference + decode/NMS, + the die-face pass when used), nearest-rank median and p95.',
  );
  // A split of a few dozen photos pins its exact-roll share only to within several points.
  const interval = (s: EvalSummary): string => {
    const [lo, hi] = wilsonInterval(s.exactRolls, s.images);
    return `${pct(s.exactRollAccuracy).trim()} (${pct(lo).trim()}–${pct(hi).trim()})`;
  };
  const splits = [
    ...report.datasets,
    ...(report.datasets.length > 1 ? [{ name: 'overall', ...report.overall }] : []),
    ...(report.gameRolls ? [{ name: `≤ ${report.gameRollDice} dice`, ...report.gameRolls }] : []),
  ];
  out.push(`exact, with its 95% interval over the photos (Wilson score): ${splits.map((d) => `${d.name} ${interval(d)}`).join(', ')}.`);
  const asked = [...report.datasets.map((d) => ({ name: d.name, u: d.unsure })), { name: 'overall', u: report.overall.unsure }].filter((x) => x.u.dice > 0);
  if (asked.length) {
    out.push('unsure: dice read below the reader\'s unsure rule, scored above as read; the table asks for them (?) instead:');
    for (const { name, u } of asked) out.push(`  ${name}: ${u.dice} (read right ${u.right}, misread ${u.misread}, no die there ${u.noDie})`);
  }
  const photos = [...report.datasets.map((d) => ({ name: d.name, t: d.photo })), { name: 'overall', t: report.overall.photo }];
  if (photos.some((p) => p.t)) {
    out.push('as a photo of the roll (the table\'s "Photo of the dice"; the count known, doubted dice and dice under half in view asked for), % of photos:');
    out.push(`  ${'dataset'.padEnd(width)}  exact  asked ?  wrong, confirmable  refused (count)`);
    const share = (n: number, t: { photos: number }): string => pct(n / Math.max(1, t.photos));
    for (const { name, t } of photos) {
      if (t) out.push(`  ${name.padEnd(width)}  ${share(t.exact, t)}    ${share(t.asked, t)}               ${share(t.wrongConfirmable, t)}            ${share(t.refused, t)}`);
    }
  }
  for (const d of report.datasets) {
    if (d.despeckled) out.push(`${d.name}: ${d.despeckled} of ${d.images} photos read without the salt-and-pepper specks of their export (scripts/lib/specks.ts).`);
  }
  for (const d of report.datasets) out.push('', confusionTable(d.name, d));
  out.push('', confusionTable('overall', report.overall));
  if (listWrongRolls) {
    const roll = (dice: ReadonlyArray<string | null>): string => (dice.length ? dice.map((v) => v ?? '?').join(' ') : '(none)');
    for (const d of report.datasets) {
      out.push('', `rolls not read exactly, ${d.name} (${d.wrongRolls.length} of ${d.images}; ? = a die found but not read):`);
      for (const w of d.wrongRolls) out.push(`  ${w.file}: truth ${roll(w.truth)}, read ${roll(w.read)}`);
    }
  }
  return out.join('\n');
}

/** The die-face reader's sidecar rules a read depends on, as `--json` records them (`--against` says when two runs differ in them). */
function readingRules(c: DieFaceConfig) {
  return { firstPass: c.firstPass, weakDice: c.weakDice, recount: c.recount, secondLook: c.secondLook, brandedOne: c.brandedOne, falseDice: c.falseDice !== null, touchingDice: c.touchingDice, unsure: c.unsure };
}

/** The text of `--against`'s file, or a clear `UsageError`. */
function readBase(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`--against ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, not a report' : `cannot read (${code ?? (e as Error).message})`}`);
  }
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      model: { type: 'string' },
      threads: { type: 'string', default: '1' },
      kit: { type: 'string' },
      'die-face': { type: 'string', default: 'auto' },
      boxes: { type: 'string', default: 'detector' },
      'count-known': { type: 'boolean', default: false },
      learn: { type: 'boolean', default: false },
      holdout: { type: 'boolean', default: false },
      wrong: { type: 'boolean', default: false },
      crowd: { type: 'string', default: String(CROWD_DICE) },
      condition: { type: 'string' },
      tiles: { type: 'string', default: 'on' },
      against: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) throw new HelpRequest(USAGE);
  if (values.boxes !== 'detector' && values.boxes !== 'truth') throw new UsageError(`--boxes must be detector or truth\n${USAGE}`);
  const truthBoxes = values.boxes === 'truth';
  if (truthBoxes && values.kit) throw new UsageError(`--boxes truth measures the die-face reader of standard dice; eval:symbols -- --boxes truth does it for kits\n${USAGE}`);
  if (values.learn && (values.kit || truthBoxes)) throw new UsageError(`--learn reads standard dice as the app reads them (eval:symbols -- --learn does it for kits)\n${USAGE}`);
  const crowdDice = Number(values.crowd);
  if (!Number.isInteger(crowdDice) || crowdDice < 1) throw new UsageError(`--crowd must be a positive integer (the dice a photo must show to count as a crowd)\n${USAGE}`);
  const condition = values.condition;
  if (condition !== undefined && !isCameraCondition(condition)) throw new UsageError(`--condition must be one of ${CAMERA_CONDITIONS.join(', ')}\n${USAGE}`);
  if (values.tiles !== 'on' && values.tiles !== 'off') throw new UsageError(`--tiles must be on or off\n${USAGE}`);
  const threads = Number(values.threads);
  if (!Number.isInteger(threads) || threads < 1) throw new UsageError(`--threads must be a positive integer\n${USAGE}`);
  // the base is read first, so a wrong file is said before minutes of reading
  const against = values.against === undefined ? null : { file: values.against, report: parseEvalReport(readBase(values.against), values.against) };
  let dirs = positionals;
  let holdout: Dataset[] | null = null;
  if (values.holdout) {
    if (dirs.length) throw new UsageError(`--holdout measures the held-out slices of the train splits under ${dataRoot()}/dice-photos; give no folders with it\n${USAGE}`);
    if (values.kit) throw new UsageError(`--holdout measures standard dice (the train splits' held-out photos); kits are measured on their own sets\n${USAGE}`);
    holdout = await holdoutSlices(dataRoot());
    if (holdout.length === 0) throw new UsageError(`--holdout: no *-train folders under ${dataRoot()}/dice-photos (set ROLLCALL_DATA)\n${USAGE}`);
  } else if (dirs.length === 0) {
    dirs = await valSplits(dataRoot());
    if (dirs.length === 0) throw new UsageError(`no dataset given and no *-val folders under ${dataRoot()}/dice-photos (set ROLLCALL_DATA)\n${USAGE}`);
  }
  // a symbol kit's dice are found with the symbol-dice detector, as in the app
  const detector = await createNodeDetector({ threads, dieFace: values['die-face'], modelPath: await kitDetectorModel(values.kit, values.model) });
  const dieFaceReader = 'dieFaceReader' in detector ? (detector as unknown as TwoPassDetector).dieFaceReader : null;
  if (truthBoxes && !dieFaceReader) {
    await detector.release();
    throw new UsageError(`--boxes truth measures the die-face reader, and there is none (${values['die-face'] === 'off' ? '--die-face off' : 'no models/die-face.onnx'})\n${USAGE}`);
  }
  let kitReader: NodeKitReader | null = null;
  let embedder: FaceEmbedder | null = null;
  try {
    let kitEval: KitEvaluation | undefined;
    if (values.kit) {
      try {
        kitReader = await createNodeKitReader(values.kit, detector, { threads });
      } catch (e) {
        if (e instanceof Error && e.name === 'KitError') throw new UsageError(e.message);
        throw e;
      }
      for (const s of kitReader.skipped) console.error(`${s.file}: example not used: ${s.reason}`);
      const reader = kitReader;
      kitEval = {
        kit: reader.folder.kit,
        async read(image, expected) {
          const { dice, ms } = await reader.read(image, expected);
          return { ms, dice: dice.map((d) => ({ box: d.box, value: d.face?.id ?? null })) };
        },
      };
    }
    const truthEval = truthBoxes && dieFaceReader ? { reader: dieFaceReader } : undefined;
    if (values.learn) embedder = await createNodeFaceEmbedder({ threads });
    const pipLearning = embedder ? { embedder } : undefined;
    const options = { kitEval, truthEval, countKnown: values['count-known'], pipLearning, crowdDice, condition };
    // pip dice small in a large photo are looked for in tiles too (not symbol kits, whose dice the face embedder reads)
    const reading = values.tiles === 'on' && !kitReader ? withTiles(detector) : detector;
    const report = holdout ? await evaluateDatasets(reading, holdout, options) : await evaluate(reading, dirs, options);
    const c = detector.config;
    const model = {
      file: path.relative(process.cwd(), detector.modelPath) || detector.modelPath,
      bytes: statSync(detector.modelPath).size,
      inputSize: c.inputSize,
      scoreThreshold: c.scoreThreshold,
      iouThreshold: c.iouThreshold,
    };
    const dieFace =
      dieFaceReader && detector.dieFacePath
        ? { file: path.relative(process.cwd(), detector.dieFacePath) || detector.dieFacePath, bytes: statSync(detector.dieFacePath).size, inputSize: dieFaceReader.config.inputSize, cropMargin: dieFaceReader.config.cropMargin, firstPass: dieFaceReader.config.firstPass, recount: dieFaceReader.config.recount, rules: readingRules(dieFaceReader.config) }
        : null;
    const boxes = truthBoxes ? 'truth' : 'detector';
    const countKnown = values['count-known'];
    const runtime = { name: 'onnxruntime-node', provider: 'cpu', intraOpThreads: threads, cpu: os.cpus()[0]?.model ?? 'unknown' };
    const kit = kitReader
      ? {
          dir: kitReader.folder.dir,
          id: kitReader.folder.kit.id,
          artPrototypes: kitReader.prototypes.filter((p) => p.source === 'art').length,
          examplePrototypes: kitReader.prototypes.filter((p) => p.source === 'example').length,
          ...(kitReader.embedder ? { threshold: kitReader.embedder.config.threshold, ambiguityMargin: kitReader.embedder.config.ambiguityMargin } : {}),
        }
      : null;
    const learn = embedder ? { learn: { threshold: embedder.config.threshold, ambiguityMargin: embedder.config.ambiguityMargin } } : {};
    const cond = condition ? { condition: { name: condition, note: CONDITION_NOTES[condition] } } : {};
    const output = { model, dieFace, boxes, tiles: reading !== detector, countKnown, runtime, ...(kit ? { kit } : {}), ...learn, ...cond, ...report };
    // a base of other photos is said after this run's report, which is not lost with it
    let comparison: ReportComparison | null = null;
    let mismatch: UsageError | null = null;
    try {
      comparison = against ? compareReports(against.report, output) : null;
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      mismatch = e;
    }
    if (values.json) {
      console.log(JSON.stringify({ ...output, ...(against && comparison ? { against: { file: against.file, ...comparison } } : {}) }, null, 2));
    } else {
      let header =
        `model ${model.file} (${(model.bytes / 1e6).toFixed(2)} MB, input ${c.inputSize}, score ≥ ${c.scoreThreshold}, NMS IoU ${c.iouThreshold})\n` +
        `runtime ${runtime.name} (native CPU, ${threads} intra-op thread${threads > 1 ? 's' : ''}, ${runtime.cpu}); latencies are this machine's, not a phone's\n` +
        (dieFace
          ? `die-face reader ${dieFace.file} (${(dieFace.bytes / 1e6).toFixed(2)} MB, crop ${dieFace.inputSize}, margin ${dieFace.cropMargin}): second pass over the dice${kit && kitReader?.embedder ? ' (not used for symbol kits)' : ''}` +
            (dieFace.firstPass && !truthBoxes && !(kit && kitReader?.embedder)
              ? `
  the detector finds dice for it by its first-pass rule: ${dieFace.firstPass.score} score ≥ ${dieFace.firstPass.scoreThreshold}, boxes > ${dieFace.firstPass.containment} inside a better one dropped`
              : '')
          : 'die-face reader: none (the detector\'s own values)') +
        (condition ? `\ncamera condition (--condition ${condition}): ${CONDITION_NOTES[condition]}` : '') +
        (reading !== detector ? '\ntiles: a photo larger than a tile whose dice look small is read in tiles too, and one whose die fills it (or with no die found surely) shrunk too (--tiles off: whole)' : '\ntiles: off (every photo read whole)') +
        (truthBoxes ? '\nboxes: the LABELLED boxes as perfect detections (reading only; detR < 100% only where the reader said `none`)' : '') +
        (values['count-known'] && dieFace?.recount && !truthBoxes
          ? `\ncount known (--count-known): each photo read knowing how many dice it shows; below that count, candidates down to score ${dieFace.recount.scoreThreshold}, the ${dieFace.recount.maxCandidates} best, read again (ms include it)`
          : '');
      if (embedder) {
        header += `\nlearning at the table (--learn): each folder one table, read in order; dice read \`other\` filled in with their labelled value (all one value) are learnt, and later \`other\` dice near one (face embedder, similarity ≥ ${embedder.config.threshold}) read as it; ms include the embedder`;
      }
      if (kit) {
        header +=
          `\nkit ${kit.id} (${kit.dir}): ${kit.artPrototypes} art and ${kit.examplePrototypes} example prototypes` +
          (kitReader?.embedder ? `; face embedder, unknown below similarity ${kit.threshold} or lead ${kit.ambiguityMargin}; ms include the embedder` : '; pips read by the detector');
      }
      console.log(formatReport(report, header, values.wrong));
      if (against && comparison) console.log(`\n${formatComparison(comparison, against.file)}`);
    }
    if (mismatch) throw mismatch;
    return 0;
  } finally {
    await kitReader?.release();
    await embedder?.release();
    await detector.release();
  }
}

runCli('eval', import.meta.url, main);
