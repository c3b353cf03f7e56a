/**
 * npm run choose-face-crop -- [--sets DIR]... [--face-model FILE] [--crop CENTRE,LIFT,SIDE] [--write]
 *
 * Chooses where the face embedder's crop lies in a die's box when a die is read or taught (the
 * sidecar's `readingCrop`, src/lib/vision/face-embedder.ts `ReadingCrop`): how far down the box
 * its centre lies, how much it is raised when the box is taller than wide, and how large it is
 * against the crop the embedder was trained on.
 *
 * Why: a camera over a table sees a die's top face above its side faces. From low, the side face
 * nearest the camera can fill more of the die's box than the top face, and the embedder, trained
 * on crops centred on the whole die with sides showing in any direction, may read that side.
 *
 * Measured on the embedder's held-out sets (never trained on) painted by its own renderer with
 * the camera upright (`/usr/bin/python3 models/training/render_face_scenes.py`, default folder
 * cache/face-crop), never on the symbol evaluation set. A set is a folder with `scenes/` (rolls:
 * a labels.json of whole dice with their faces), `teach/` (one die per picture, the same labels)
 * and `art/` (one PNG per face). Each set is read two ways: from its art alone, and from 5 taught
 * photos per face (the first of each face in `teach/`), with the unknown rule of the sidecar.
 * The labelled boxes are moved and resized as the detector's are (`BOX_ERROR`, the same draws for
 * every rule), since in the app the detector finds every die, taught ones included, and a crop
 * far from the box's centre suffers more from a loose box. Kept is the rule with the best mean
 * per-die accuracy over sets and ways (a die refused as unknown counts as wrong), then the most
 * rolls read exactly. `--write` stores it in models/face-embed.json (or `--face-model`'s sidecar).
 *
 * `--face-model FILE` measures another export of the embedder (its sidecar beside it); `--crop`
 * measures that one rule only (`--crop sidecar`: the model's own `readingCrop`), to compare models
 * on the same selection sets.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadDataset, type Dataset } from './lib/datasets.ts';
import { loadFaceModelFiles, readArt } from './lib/node-faces.ts';
import { readImageFile, REPO_ROOT, sidecarPath } from './lib/node-vision.ts';
import { HelpRequest, runCli, UsageError } from './lib/cli.ts';
import { createFaceEmbedder, parseFaceEmbedderConfig, type FaceEmbedder, type ReadingCrop } from '../src/lib/vision/face-embedder.ts';
import { artPrototypes, embedForReading, embedTaughtFace, matchFace, selectPrototypes, type FacePrototype } from '../src/lib/vision/face-reader.ts';
import type { OrtModule } from '../src/lib/vision/detector.ts';
import type { DiceKit } from '../src/lib/dice/kit.ts';
import type { Box, RgbaImage } from '../src/lib/vision/types.ts';
import { gauss, random } from './lib/random.ts';

const USAGE = 'usage: npm run choose-face-crop -- [--sets DIR]... [--face-model FILE] [--crop CENTRE,LIFT,SIDE | --crop sidecar] [--write]   (sets: default every folder under cache/face-crop)';

const CENTRES = [0.5, 0.4, 0.3, 0.2];
const LIFTS = [0, 0.5, 1];
const SIDES = [1, 0.925, 0.85];
const TAUGHT_PER_FACE = 5;
/**
 * The detector's box errors on symbol dice (`npm run choose-symbol-rule` prints them for the
 * pooled reads: the centre's error 0.070 box sides, the log of the size ratio 0.154), drawn per
 * die as models/training/die_crops.py `jitter_box` draws them.
 */
const BOX_ERROR = { shift: 0.07, scale: 0.15 };

/** A labelled box as the detector might have found it; the same draw for the same seed. */
function detectorLikeBox(box: Box, seed: number): Box {
  const r = random(seed);
  const cx = box.x + box.w / 2 + gauss(r) * BOX_ERROR.shift * box.w;
  const cy = box.y + box.h / 2 + gauss(r) * BOX_ERROR.shift * box.h;
  const w = box.w * Math.exp(gauss(r) * BOX_ERROR.scale);
  const h = box.h * Math.exp(gauss(r) * BOX_ERROR.scale);
  return { x: cx - w / 2, y: cy - h / 2, w, h };
}
const DEFAULT_ROOT = path.join(REPO_ROOT, 'cache/face-crop');

interface SelectionSet {
  name: string;
  kit: DiceKit;
  art: Map<string, RgbaImage>;
  teach: Dataset;
  scenes: Dataset;
}

interface Score {
  dice: number;
  right: number;
  rolls: number;
  exact: number;
}

async function loadSet(dir: string): Promise<SelectionSet> {
  const artDir = path.join(dir, 'art');
  const faceFiles = (await readdir(artDir)).filter((f) => f.endsWith('.png')).sort();
  if (faceFiles.length < 2) throw new UsageError(`${artDir}: expected one PNG per face`);
  const ids = faceFiles.map((f) => path.basename(f, '.png'));
  const kit: DiceKit = { id: path.basename(dir), name: path.basename(dir), faces: ids.map((id) => ({ id, label: id, value: null, group: null })) };
  const art = new Map<string, RgbaImage>();
  for (const [i, f] of faceFiles.entries()) art.set(ids[i]!, await readArt(path.join(artDir, f)));
  return { name: path.basename(dir), kit, art, teach: await loadDataset(path.join(dir, 'teach'), kit), scenes: await loadDataset(path.join(dir, 'scenes'), kit) };
}

const images = new Map<string, RgbaImage>();
async function image(file: string): Promise<RgbaImage> {
  let im = images.get(file);
  // labelled photos: in their pixels as stored, the labels' (readImageFile's upright: false)
  if (!im) images.set(file, (im = await readImageFile(file, { upright: false })));
  return im;
}

async function taughtPrototypes(embedder: FaceEmbedder, set: SelectionSet): Promise<FacePrototype[]> {
  const out: FacePrototype[] = [];
  const perFace = new Map<string, number>();
  for (const [n, im] of set.teach.images.entries()) {
    const die = im.dice[0];
    if (!die || im.dice.length !== 1) continue;
    const faceId = String(die.value);
    if ((perFace.get(faceId) ?? 0) >= TAUGHT_PER_FACE) continue;
    perFace.set(faceId, (perFace.get(faceId) ?? 0) + 1);
    const box = detectorLikeBox(die.box, 1_000_000 + n);
    out.push({ faceId, source: 'example', embedding: await embedTaughtFace(embedder, await image(path.join(set.teach.dir, im.file)), box) });
  }
  const missing = set.kit.faces.filter((f) => !perFace.get(f.id)).map((f) => f.id);
  if (missing.length) throw new UsageError(`${set.teach.dir}: no teach scene of face ${missing.join(', ')}`);
  return out;
}

async function score(embedder: FaceEmbedder, set: SelectionSet, prototypes: FacePrototype[]): Promise<Score> {
  const s: Score = { dice: 0, right: 0, rolls: 0, exact: 0 };
  for (const [n, im] of set.scenes.images.entries()) {
    const boxes = im.dice.map((d, i) => detectorLikeBox(d.box, 100 * n + i));
    const embeddings = await embedForReading(embedder, prototypes, await image(path.join(set.scenes.dir, im.file)), boxes);
    let all = true;
    im.dice.forEach((d, i) => {
      s.dice++;
      if (matchFace(prototypes, embeddings[i]!, embedder.config).faceId === String(d.value)) s.right++;
      else all = false;
    });
    s.rolls++;
    if (all) s.exact++;
  }
  return s;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      sets: { type: 'string', multiple: true },
      'face-model': { type: 'string' },
      crop: { type: 'string' },
      write: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) throw new HelpRequest(USAGE);
  let dirs = values.sets ?? [];
  if (!dirs.length) {
    if (!existsSync(DEFAULT_ROOT)) throw new UsageError(`${DEFAULT_ROOT}: no selection sets (models/training/README.md says how to render them)`);
    dirs = (await readdir(DEFAULT_ROOT)).sort().map((n) => path.join(DEFAULT_ROOT, n));
  }
  const sets: SelectionSet[] = [];
  for (const d of dirs) sets.push(await loadSet(d));
  const files = await loadFaceModelFiles(values['face-model'] ? path.resolve(values['face-model']) : undefined);
  const rules = values.crop ? [parseCropArg(values.crop, files.config.readingCrop)] : CENTRES.flatMap((centre) => LIFTS.flatMap((lift) => SIDES.map((side) => ({ centre, lift, side }))));
  const ort = (await import('onnxruntime-node')) as unknown as OrtModule;
  console.log(`choosing the face crop on ${sets.length} sets (${sets.map((s) => `${s.name}: ${s.scenes.images.length} rolls`).join(', ')}); labelled boxes moved as the detector's (centre ${BOX_ERROR.shift}, log size ${BOX_ERROR.scale}), ${TAUGHT_PER_FACE} taught photos per face or the art alone`);
  console.log(['centre', 'lift', 'side', ' per die', ' art', ' taught', ' exact'].join('  '));
  const results: Array<{ crop: ReadingCrop; perDie: number; exact: number; art: number; taught: number }> = [];
  for (const crop of rules) {
    const embedder = await createFaceEmbedder(ort, files.model, { ...files.config, readingCrop: crop }, { executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1 });
    const accuracy: Record<'art' | 'taught', number[]> = { art: [], taught: [] };
    const exact: number[] = [];
    for (const set of sets) {
      const art = await artPrototypes(embedder, set.art);
      const taught = selectPrototypes(set.kit, [...art, ...(await taughtPrototypes(embedder, set))]);
      for (const [way, prototypes] of [['art', art], ['taught', taught]] as const) {
        const s = await score(embedder, set, prototypes);
        accuracy[way].push(s.right / s.dice);
        exact.push(s.exact / s.rolls);
      }
    }
    await embedder.release();
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    const r = { crop, perDie: mean([...accuracy.art, ...accuracy.taught]), exact: mean(exact), art: mean(accuracy.art), taught: mean(accuracy.taught) };
    results.push(r);
    const pct = (x: number): string => (100 * x).toFixed(2).padStart(7);
    console.log([String(crop.centre).padEnd(6), String(crop.lift).padEnd(4), String(crop.side).padEnd(5), pct(r.perDie), pct(r.art), pct(r.taught), pct(r.exact)].join('  '));
  }
  const best = [...results].sort((a, b) => b.perDie - a.perDie || b.exact - a.exact)[0]!;
  const trained = results.find((r) => r.crop.centre === 0.5 && r.crop.lift === 0 && r.crop.side === 1);
  const f = (r: typeof best): string => `per die ${(100 * r.perDie).toFixed(2)}% (art ${(100 * r.art).toFixed(2)}, taught ${(100 * r.taught).toFixed(2)}), exact rolls ${(100 * r.exact).toFixed(2)}%`;
  if (trained) console.log(`\ncrop as trained (centre 0.5, lift 0, side 1): ${f(trained)}`);
  console.log(`chosen: centre ${best.crop.centre}, lift ${best.crop.lift}, side ${best.crop.side}: ${f(best)}`);
  if (values.write) {
    const configPath = sidecarPath(files.modelPath);
    // the sidecar's other fields as Python wrote them (its key order and number forms): only the rule is replaced or added
    const text = (await readFile(configPath, 'utf8')).replace(/\n  "readingCrop": \{[^}]*\},?/, '');
    const rule = `\n  "readingCrop": ${JSON.stringify(best.crop)},`;
    const written = text.replace(/^\{/, `{${rule}`);
    parseFaceEmbedderConfig(JSON.parse(written));
    await writeFile(configPath, written);
    console.log(`written to ${path.relative(process.cwd(), configPath)}`);
  }
}

/** `--crop`: `sidecar` (the model's own rule) or `centre,lift,side`. */
function parseCropArg(text: string, sidecar: ReadingCrop): ReadingCrop {
  if (text === 'sidecar') return sidecar;
  const parts = text.split(',').map(Number);
  if (parts.length !== 3 || parts.some((x) => !Number.isFinite(x))) throw new UsageError(`--crop: expected "sidecar" or three numbers centre,lift,side, got ${JSON.stringify(text)}`);
  const [centre, lift, side] = parts as [number, number, number];
  return { centre, lift, side };
}

runCli('choose-face-crop', import.meta.url, main);
