/**
 * npm run eval:symbols -- [--boxes detector|truth] [--model FILE.onnx] [--face-model FILE.onnx] [--learn] [--count-known] [--json] [EVAL_DIR]
 *
 * The symbol-dice benchmark over the evaluation set that `npm run make-symbol-eval` writes
 * (default cache/symbol-eval):
 *   taught — every set read with its own kit taught from 5 photos per face (examples only);
 *            the `emblems-*` and `glyphs-*` sets are symbol sets the embedder never saw;
 *   art    — the Corellian Spike and Face Off rolls read with the shipped kit folders
 *            (src/lib/dice/kits/<id>: art only, no photo).
 * `--boxes detector` (default) reads as the app does (the symbol-dice detector finds the dice,
 * `--model` another detector; `npm run eval -- --kit SET/kit SET/rolls` per set gives the same figures); `--boxes truth` embeds the labelled boxes, which
 * measures the face reader alone. Per-die accuracy = dice read right / labelled dice;
 * extra = dice reported where no labelled die lies, per labelled die (detector boxes only);
 * exact = rolls read exactly: their five faces all read right and no extra die.
 * `--learn`: learning from play, as the app's table does — the rolls of a set are read in order
 * as one game, and each roll read exactly (the player confirms it as read) adds its dice to the
 * kit's prototypes (`learnConfirmed`, CONFIRMED_PER_FACE per face); so does a roll whose only
 * fault is dice read unknown, all of one face, as the player fills them in (their dice learnt as
 * that face: scripts/lib/evaluate.ts `filledValue`, src/app/cameraRead.ts `filledAllAs`).
 * `--count-known`: each roll is read knowing how many dice it shows, as the table knows the dice
 * thrown (detector boxes only: dice missed below the count are looked for again,
 * face-reader.ts `findMissedSymbolDice`).
 */
import { readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { evaluate, filledValue, type KitEvaluation } from './lib/evaluate.ts';
import { loadDataset } from './lib/datasets.ts';
import { createNodeFaceEmbedder, createNodeKitReader, loadKitFolder, readArt, type KitFolder } from './lib/node-faces.ts';
import { createNodeDetector, readImageFile, REPO_ROOT, symbolDetectorModel } from './lib/node-vision.ts';
import { HelpRequest, runCli, UsageError } from './lib/cli.ts';
import { artPrototypes, embedForReading, embedTaughtFace, learnConfirmed, matchFace, selectPrototypes, type FaceDie, type FacePrototype } from '../src/lib/vision/face-reader.ts';
import { exactRoll } from '../src/lib/vision/metrics.ts';
import type { FaceEmbedder } from '../src/lib/vision/face-embedder.ts';
import type { Box } from '../src/lib/vision/types.ts';

const USAGE = 'usage: npm run eval:symbols -- [--boxes detector|truth] [--model FILE.onnx] [--face-model FILE.onnx] [--learn] [--count-known] [--json] [EVAL_DIR]';

interface Row {
  set: string;
  mode: 'taught' | 'art';
  unseen: boolean;
  dice: number;
  correct: number;
  unknown: number;
  rolls: number;
  exact: number;
  detected: number;
  /** Dice reported where no labelled die lies (a side face or a shadow found as a die). */
  extra: number;
  /** Teach photos whose die was found and used (detector boxes); all of them with truth boxes. */
  teachUsed?: number;
}

async function truthPrototypes(folder: KitFolder, setDir: string, embedder: FaceEmbedder): Promise<FacePrototype[]> {
  const boxes = JSON.parse(await readFile(path.join(setDir, 'teach-boxes.json'), 'utf8')) as Record<string, Box>;
  const out: FacePrototype[] = [];
  for (const [faceId, files] of folder.exampleFiles) {
    for (const file of files) {
      const key = `${faceId}/${path.basename(file)}`;
      const box = boxes[key];
      if (!box) throw new UsageError(`${setDir}/teach-boxes.json: no box for ${key}`);
      out.push({ faceId, source: 'example', embedding: await embedTaughtFace(embedder, await readImageFile(file, { upright: false }), box) });
    }
  }
  return out;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      boxes: { type: 'string', default: 'detector' },
      json: { type: 'boolean', default: false },
      model: { type: 'string' },
      'face-model': { type: 'string' },
      learn: { type: 'boolean', default: false },
      'count-known': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) throw new HelpRequest(USAGE);
  if (positionals.length > 1) throw new UsageError(`one evaluation folder at most\n${USAGE}`);
  const root = path.resolve(positionals[0] ?? path.join(REPO_ROOT, 'cache/symbol-eval'));
  if (!existsSync(root)) throw new UsageError(`${root}: no evaluation set (npm run make-symbol-eval writes it)`);
  const truthBoxes = values.boxes === 'truth';
  if (!truthBoxes && values.boxes !== 'detector') throw new UsageError('--boxes must be detector or truth');
  const sets = (await readdir(root)).filter((n) => existsSync(path.join(root, n, 'rolls', 'labels.json'))).sort();
  const rows: Row[] = [];
  const faceModel = values['face-model'];
  const embedder = await createNodeFaceEmbedder(faceModel ? { modelPath: faceModel } : {});
  // every set is a symbol kit: its dice are found as the app finds them
  const detector = truthBoxes ? null : await createNodeDetector({ threads: 1, modelPath: symbolDetectorModel(values.model) });
  try {
    for (const set of sets) {
      const setDir = path.join(root, set);
      const unseen = /^(emblems|glyphs)-/.test(set);
      const shipped = path.join(REPO_ROOT, 'src/lib/dice/kits', set);
      const modes: Array<['taught' | 'art', string]> = [['taught', path.join(setDir, 'kit')]];
      if (!unseen && existsSync(shipped)) modes.push(['art', shipped]);
      for (const [mode, kitDir] of modes) {
        const folder = await loadKitFolder(kitDir);
        const dataset = await loadDataset(path.join(setDir, 'rolls'), folder.kit);
        const row: Row = { set, mode, unseen, dice: 0, correct: 0, unknown: 0, rolls: 0, exact: 0, detected: 0, extra: 0 };
        if (truthBoxes) {
          const art = new Map();
          for (const [faceId, file] of folder.artFiles) art.set(faceId, await readArt(file));
          const base = [...(await artPrototypes(embedder, art)), ...(await truthPrototypes(folder, setDir, embedder))];
          let confirmed: FacePrototype[] = [];
          for (const im of dataset.images) {
            const protos = selectPrototypes(folder.kit, [...base, ...confirmed]);
            const image = await readImageFile(path.join(dataset.dir, im.file), { upright: false }); // as its labels are
            const embs = await embedForReading(embedder, protos, image, im.dice.map((d) => d.box));
            let allRight = true;
            const read = im.dice.map((d, i) => {
              const m = matchFace(protos, embs[i]!, embedder.config);
              row.dice++;
              row.detected++;
              if (m.faceId === null) row.unknown++;
              if (m.faceId === d.value) row.correct++;
              else allRight = false;
              return { box: d.box, value: m.faceId };
            });
            row.rolls++;
            if (allRight) row.exact++;
            if (allRight && values.learn) confirmed = learnConfirmed(confirmed, im.dice.map((d, i) => ({ faceId: String(d.value), embedding: embs[i]! })));
            const filled = values.learn && !allRight ? filledValue(im.dice, read) : null;
            if (filled !== null) confirmed = learnConfirmed(confirmed, read.flatMap((r, i) => (r.value === null ? [{ faceId: String(filled), embedding: embs[i]! }] : [])));
          }
        } else {
          const reader = await createNodeKitReader(kitDir, detector!, faceModel ? { faceModel } : {});
          if (reader.skipped.length) {
            const why = [...new Set(reader.skipped.map((s) => s.reason.split(':')[0]))].join('; ');
            console.error(`${set} (${mode}): ${reader.skipped.length} of ${[...folder.exampleFiles.values()].flat().length} teach photos not used (${why})`);
          }
          row.teachUsed = reader.prototypes.filter((p) => p.source === 'example').length;
          let last: FaceDie[] = [];
          const kitEval: KitEvaluation = {
            kit: folder.kit,
            async read(image, expected) {
              const { dice, ms } = await reader.read(image, expected);
              last = dice;
              return { ms, dice: dice.map((d) => ({ box: d.box, value: d.face?.id ?? null })) };
            },
            afterRead(truth, read) {
              if (!values.learn) return;
              if (exactRoll(truth, read)) return reader.learn(last);
              // every unknown die filled in with one face, nothing else to fix: they are learnt as it
              const filled = filledValue(truth, read);
              const face = folder.kit.faces.find((f) => f.id === filled);
              if (face) reader.learn(last.filter((d) => d.face === null).map((d) => ({ ...d, face })));
            },
          };
          const report = await evaluate(detector!, [dataset.dir], { kitEval, countKnown: values['count-known'] });
          const s = report.overall;
          const unknownCol = s.confusion.columns.indexOf('unknown');
          row.dice = s.dice;
          row.correct = Math.round((s.perDie.recall ?? 0) * s.dice);
          row.unknown = s.confusion.counts.slice(0, -1).reduce((a, r) => a + r[unknownCol]!, 0);
          row.rolls = s.images;
          row.exact = s.exactRolls;
          row.detected = Math.round((s.detectionRecall ?? 0) * s.dice);
          row.extra = s.predicted - Math.round((s.detectionPrecision ?? 0) * s.predicted);
          await reader.release();
        }
        rows.push(row);
      }
    }
  } finally {
    await embedder.release();
    await detector?.release();
  }

  const pct = (a: number, b: number): string => (b ? ((100 * a) / b).toFixed(1).padStart(6) : '   n/a');
  const total = (filter: (r: Row) => boolean, name: string, mode: Row['mode']): Row => {
    const t: Row = { set: name, mode, unseen: true, dice: 0, correct: 0, unknown: 0, rolls: 0, exact: 0, detected: 0, extra: 0 };
    for (const r of rows.filter(filter)) for (const k of ['dice', 'correct', 'unknown', 'rolls', 'exact', 'detected', 'extra'] as const) t[k] += r[k];
    return t;
  };
  const summaries = [
    total((r) => r.unseen && r.mode === 'taught', 'unseen sets, 5 taught/face', 'taught'),
    total((r) => !r.unseen && r.mode === 'taught', 'kit sets, 5 taught/face', 'taught'),
    total((r) => r.mode === 'art', 'kit sets, shipped art only', 'art'),
  ];
  if (values.json) {
    console.log(JSON.stringify({ boxes: values.boxes, rows, summaries }, null, 2));
    return;
  }
  console.log(`symbol-dice benchmark, ${root}; boxes from the ${truthBoxes ? 'labels (face reader alone)' : 'detector (as the app reads)'}${values.learn ? '; learning from each roll read exactly (--learn)' : ''}`);
  console.log(['set'.padEnd(30), 'mode'.padEnd(7), ' dice', ' found%', ' right%', 'unknown%', ' extra%', ' rolls', ' exact%'].join(' '));
  const line = (r: Row): string =>
    [r.set.padEnd(30), r.mode.padEnd(7), String(r.dice).padStart(5), pct(r.detected, r.dice).padStart(7), pct(r.correct, r.dice).padStart(7), pct(r.unknown, r.dice).padStart(8), pct(r.extra, r.dice).padStart(7), String(r.rolls).padStart(6), pct(r.exact, r.rolls).padStart(7)].join(' ');
  for (const r of rows) console.log(line(r));
  console.log('');
  for (const s of summaries) console.log(line(s));
  console.log('\nright%: dice found and read as the right face, of all labelled dice; extra%: dice reported where no die lies (a side face, a shadow), per labelled die;');
  console.log('exact%: rolls read exactly (every die found and read right, nothing else).');
}

runCli('eval-symbol-sets', import.meta.url, main);
