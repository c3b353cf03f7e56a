/**
 * Labelled dataset folders (the labels.json format of ../shared/data/README.md), validated
 * with errors that name the folder and the field, so a bad set fails before any measuring.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { DiceKit } from '../../src/lib/dice/kit.ts';
import type { PredictedDie, TruthDie } from '../../src/lib/vision/metrics.ts';
import type { Box, RgbaImage } from '../../src/lib/vision/types.ts';
import { readImageFile, REPO_ROOT, UsageError } from './node-vision.ts';
import { withoutSpecks } from './specks.ts';

export type BoxStyle = 'whole-die' | 'pips';

export interface LabelledImage {
  file: string;
  width: number;
  height: number;
  dice: TruthDie[];
  /** Regions neither a die to read nor background (label-fixes.json): a read there is not scored. */
  ignore: Box[];
}

export interface Dataset {
  name: string;
  dir: string;
  boxStyle: BoxStyle;
  source: string | null;
  license: string | null;
  images: LabelledImage[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * With a `kit`, each die is labelled by `"face": "<faceId>"` (and `"value"`, when given, must be
 * that face's value), and its truth is the face id; a standard-kit set may give `value` alone.
 */
export function parseLabels(json: unknown, where: string, kit?: DiceKit): Omit<Dataset, 'name' | 'dir'> {
  const bad = (what: string): never => {
    throw new UsageError(`${where}: ${what}`);
  };
  if (!isObject(json)) return bad('expected a JSON object');
  const boxStyle = json.box_style;
  if (boxStyle !== 'whole-die' && boxStyle !== 'pips') return bad(`"box_style" must be "whole-die" or "pips", got ${JSON.stringify(boxStyle)}`);
  if (!Array.isArray(json.images)) return bad('"images" must be an array');
  const images = json.images.map((im: unknown, i): LabelledImage => {
    const at = `images[${i}]`;
    if (!isObject(im)) return bad(`${at} must be an object`);
    if (typeof im.file !== 'string' || im.file === '' || im.file.includes('..')) return bad(`${at}.file must be a file name inside the folder`);
    if (!isNumber(im.width) || !isNumber(im.height) || im.width <= 0 || im.height <= 0) return bad(`${at} (${im.file}): width and height must be positive numbers`);
    if (!Array.isArray(im.dice)) return bad(`${at} (${im.file}): "dice" must be an array`);
    const dice = im.dice.map((d: unknown, j): TruthDie => {
      const dat = `${at}.dice[${j}] (${im.file})`;
      if (!isObject(d)) return bad(`${dat} must be an object`);
      if (![d.x, d.y, d.w, d.h].every(isNumber) || (d.w as number) <= 0 || (d.h as number) <= 0) return bad(`${dat}: x, y, w, h must be numbers with w, h > 0`);
      const box = { x: d.x as number, y: d.y as number, w: d.w as number, h: d.h as number };
      if (kit) return { box, value: kitTruth(kit, d, dat, bad) };
      if (!Number.isInteger(d.value) || (d.value as number) < 1 || (d.value as number) > 6) {
        return bad(`${dat}: "value" must be 1–6${'face' in d ? ' (a symbol-dice set? this reads pip dice)' : ''}`);
      }
      return { box: { x: d.x as number, y: d.y as number, w: d.w as number, h: d.h as number }, value: d.value as number };
    });
    return { file: im.file, width: im.width, height: im.height, dice, ignore: [] };
  });
  return {
    boxStyle,
    source: typeof json.source === 'string' ? json.source : null,
    license: typeof json.license === 'string' ? json.license : null,
    images,
  };
}

function kitTruth(kit: DiceKit, d: Record<string, unknown>, dat: string, bad: (what: string) => never): string {
  const faces = kit.faces.map((f) => f.id).join(', ');
  let face = d.face;
  if (face === undefined && kit.id === 'standard' && Number.isInteger(d.value)) face = String(d.value);
  if (typeof face !== 'string') return bad(`${dat}: "face" must be a face id of kit "${kit.id}" (${faces})`);
  const known = kit.faces.find((f) => f.id === face);
  if (!known) return bad(`${dat}: no face "${face}" in kit "${kit.id}" (faces: ${faces})`);
  if (d.value !== undefined && d.value !== known.value) return bad(`${dat}: "value" ${JSON.stringify(d.value)} is not face "${face}"'s value (${known.value})`);
  return known.id;
}

/**
 * Reads and validates DIR/labels.json and checks every image it names is there. A `*-train`
 * split comes with its label fixes applied (`options.fixes`, default label-fixes.json's).
 */
export async function loadDataset(dir: string, kit?: DiceKit, options: { fixes?: readonly LabelFix[] } = {}): Promise<Dataset> {
  const info = await stat(dir).catch(() => null);
  if (!info) throw new UsageError(`${dir}: no such dataset folder`);
  if (!info.isDirectory()) throw new UsageError(`${dir}: not a folder (a dataset is a folder with a labels.json)`);
  const labelsPath = path.join(dir, 'labels.json');
  let text: string;
  try {
    text = await readFile(labelsPath, 'utf8');
  } catch {
    throw new UsageError(`${dir}: no labels.json (see ../shared/data/README.md for the format)`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${labelsPath}: not valid JSON (${(e as Error).message})`);
  }
  const parsed = parseLabels(json, labelsPath, kit);
  const missing: string[] = [];
  for (const im of parsed.images) {
    if (!(await stat(path.join(dir, im.file)).catch(() => null))) missing.push(im.file);
  }
  if (missing.length) throw new UsageError(`${labelsPath}: ${missing.length} listed image(s) missing, e.g. ${missing.slice(0, 3).join(', ')}`);
  const name = path.basename(path.resolve(dir));
  return { name, dir, ...parsed, images: kit ? parsed.images : applyLabelFixes(name, parsed.images, options.fixes ?? (await readLabelFixes())) };
}

/** models/training/label-fixes.json: reviewed corrections of the `*-train` splits' labels. */
export const LABEL_FIXES_PATH = path.join(REPO_ROOT, 'models/training/label-fixes.json');

/**
 * One correction: `die` (the index of a labelled die, with its labelled `box` and old value `was`
 * as a check) takes `value`; `add` is a die the labels leave out (`value` null: a die that is not
 * a pip die, so a region not scored); `ignore` is a region neither a die nor background.
 */
export interface LabelFix {
  split: string;
  file: string;
  die?: number;
  box?: Box;
  was?: number;
  add?: Box;
  ignore?: Box;
  value?: number | null;
  why: string;
}

export async function readLabelFixes(file = LABEL_FIXES_PATH): Promise<LabelFix[]> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`${file}: not readable JSON (${(e as Error).message})`);
  }
  if (!isObject(json) || !Array.isArray(json.fixes)) throw new UsageError(`${file}: expected { "fixes": [...] }`);
  const isBox = (b: unknown): boolean => isObject(b) && [b.x, b.y, b.w, b.h].every(isNumber);
  json.fixes.forEach((f: unknown, i) => {
    const ok = isObject(f) && typeof f.split === 'string' && typeof f.file === 'string' && typeof f.why === 'string' &&
      [f.box, f.add, f.ignore].every((b) => b === undefined || isBox(b));
    if (!ok) throw new UsageError(`${file}: fixes[${i}] needs split, file and why, and boxes of numbers x, y, w, h`);
  });
  return json.fixes as LabelFix[];
}

/**
 * A split's images with its label fixes applied (the same as models/training/datasets.py
 * `apply_label_fixes`). Only `*-train` splits are ever fixed; a fix that no longer fits its
 * labels (a photo not there, a die moved or revalued) is an error, not skipped.
 */
export function applyLabelFixes(split: string, images: readonly LabelledImage[], fixes: readonly LabelFix[]): LabelledImage[] {
  const own = fixes.filter((f) => f.split === split);
  if (own.length === 0) return [...images];
  if (!split.endsWith('-train')) throw new UsageError(`label fixes are for the train splits only, not ${split}`);
  const byFile = new Map(images.map((im) => [im.file, im]));
  const stray = own.filter((f) => !byFile.has(f.file));
  if (stray.length) throw new UsageError(`${LABEL_FIXES_PATH}: ${split} has no photo ${stray[0]!.file}`);
  return images.map((im) => {
    const mine = own.filter((f) => f.file === im.file);
    if (mine.length === 0) return im;
    const dice = im.dice.map((d) => ({ ...d }));
    const ignore = [...im.ignore];
    for (const fix of mine) {
      const where = `${LABEL_FIXES_PATH}: ${split}/${im.file}`;
      if (fix.die !== undefined) {
        const d = dice[fix.die];
        const fits = d && fix.box && d.value === fix.was && (['x', 'y', 'w', 'h'] as const).every((k) => Math.abs(d.box[k] - fix.box![k]) <= 0.1);
        if (!fits || typeof fix.value !== 'number') throw new UsageError(`${where}: die ${fix.die} is not the labelled die ${JSON.stringify(fix.box)} valued ${fix.was}`);
        d.value = fix.value;
      } else if (fix.add) {
        if (fix.value === null || fix.value === undefined) ignore.push(fix.add);
        else dice.push({ box: fix.add, value: fix.value });
      } else if (fix.ignore) {
        ignore.push(fix.ignore);
      } else {
        throw new UsageError(`${where}: a fix is one of die, add or ignore`);
      }
    }
    return { ...im, dice, ignore };
  });
}

/** The predictions that are scored: those not centred in one of the image's ignored regions. */
export function scoredPredictions<T extends PredictedDie>(image: Pick<LabelledImage, 'ignore'>, predictions: readonly T[]): T[] {
  if (image.ignore.length === 0) return [...predictions];
  return predictions.filter((p) => {
    const cx = p.box.x + p.box.w / 2;
    const cy = p.box.y + p.box.h / 2;
    return !image.ignore.some((r) => cx >= r.x && cx <= r.x + r.w && cy >= r.y && cy <= r.y + r.h);
  });
}

/**
 * The fixed slice of each train split kept out of training for choosing models and rules: the
 * photos whose sha1 of "SPLIT/FILE" (first 8 hex digits) is < 150 mod 1000, 15% — the same hash
 * as models/training/datasets.py `is_holdout`, so both sides hold out the same photos.
 */
export function isHoldout(split: string, file: string): boolean {
  return parseInt(createHash('sha1').update(`${split}/${file}`).digest('hex').slice(0, 8), 16) % 1000 < 150;
}

/**
 * A dataset's photo as every measuring tool reads it: decoded as `readImageFile` does, in its
 * pixels as stored (the labels' pixels), without the salt-and-pepper specks of an export that
 * added them (specks.ts; `despeckled` says so), errors naming the file.
 */
export async function readDatasetPhoto(file: string): Promise<{ image: RgbaImage; despeckled: boolean }> {
  // as stored, EXIF orientation not applied: the labels' boxes are in the stored pixels
  const decoded = await readImageFile(file, { upright: false }).catch((e: unknown) => {
    throw new UsageError(`${file}: ${(e as Error).message}`);
  });
  const image = withoutSpecks(decoded);
  return { image, despeckled: image !== decoded };
}

/** The long side of the frames the app's camera gives (a 1280×720 stream): what the table-side measures read. */
export const CAMERA_FRAME_SIDE = 1280;

/**
 * A dataset's photo as the app's camera would give it: decoded as `readDatasetPhoto` does, then
 * scaled (up or down) to `CAMERA_FRAME_SIDE` on its long side.
 */
export async function readAsCameraFrame(file: string): Promise<RgbaImage> {
  const { image } = await readDatasetPhoto(file);
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .resize({ width: CAMERA_FRAME_SIDE, height: CAMERA_FRAME_SIDE, fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/**
 * The held-out slices of every `*-train` split under DATA/dice-photos, sorted, each named
 * `<source>-holdout`; [] when there are none. Never the val splits.
 */
export async function holdoutSlices(data: string): Promise<Dataset[]> {
  const root = path.join(data, 'dice-photos');
  const names = (await readdir(root).catch(() => [] as string[])).filter((n) => n.endsWith('-train')).sort();
  const slices: Dataset[] = [];
  for (const split of names) {
    const dataset = await loadDataset(path.join(root, split));
    slices.push({ ...dataset, name: split.replace(/-train$/, '-holdout'), images: dataset.images.filter((im) => isHoldout(split, im.file)) });
  }
  return slices;
}
