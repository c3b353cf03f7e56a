/**
 * The die-face reader (`models/die-face.onnx` + `models/die-face.json`): a second pass over the
 * detector's standard dice that reads each die's top face from a crop of the ORIGINAL frame
 * (the detector reads it at its letterboxed input size, where a die is a few pixels across).
 *
 *   frame ─► detector ─► boxes ─► crop per die (the face embedder's crop) ─► classifier
 *         ─► value 1–6 | other (a die, not a pip face: value null) | none (no die: dropped)
 *
 * `withDieFaceReader(detector, reader)` is a Detector whose dice carry the reader's values, so
 * the CLIs, the evaluation and the app's worker use it alike; it is switched on by the model's
 * presence (docs/vision.md). Symbol dice are read by the face embedder from the first pass
 * (`firstPass`), never through this one.
 */
import { insideShare, iou } from './decode.ts';
import { createCheckedSession, MAX_CROP_BATCH, type DetectOptions, type Detector, type OrtModule, type SessionOptions } from './detector.ts';
import { cropForEmbedder, mirrorCrop } from './face-embedder.ts';
import { FALSE_DICE_FEATURE_COUNT, FALSE_DICE_FEATURES, keptDice, type FalseDiceModel } from './false-dice.ts';
import type { Box, Detection, Die, RgbaImage } from './types.ts';

const DIE_FACE_INPUT_NAME = 'crops';
const DIE_FACE_OUTPUT_NAME = 'probs';

/** What a class of the reader means for a die. */
export type DieFaceClass = { kind: 'value'; value: number } | { kind: 'other' } | { kind: 'none' };

export interface DieFaceConfig {
  /** K: the crop side the model takes. */
  inputSize: number;
  /** The die's box, squared on its longer side, is enlarged by this factor before resampling. */
  cropMargin: number;
  /** The model's output classes in order: '1'…'6', 'other', optionally 'none'. */
  classes: string[];
  /**
   * How the detector finds dice for this reader, or null for the detector's own rule. With the
   * reader behind it, the detector only has to find dice (the reader reads them and drops what
   * it calls `none`), so it keeps dice at a lower score than alone, and a box mostly inside a
   * better one (a face, a pip group) is dropped. Chosen on the held-out slice of the train
   * splits, never on val (models/record/standard-dice.md).
   */
  firstPass: DieFaceFirstPass | null;
  /**
   * Which dice the first pass found too weakly to keep are kept all the same because the reader
   * is sure of their value (`findMissedDice`), or null for none. Chosen on the held-out slice,
   * never on val.
   */
  weakDice: DieFaceWeakDice | null;
  /**
   * How to look again for dice the first pass missed, when the caller knows how many dice lie in
   * view (`findMissedDice`), or null not to. Chosen on the held-out slice, never on val.
   */
  recount: DieFaceRecount | null;
  /**
   * A die read less surely than this is read again from its crop mirrored left to right, and
   * from crops cut at other margins (as cut and mirrored), and all reads' probabilities averaged
   * (`averagedLooks`), or null never to. A pip face reads the same mirrored, and the top face
   * stays above its sides as the camera saw them (quarter turns, which move the sides, read
   * oblique dice worse); a detector's box that takes in the die's sides or shadow reads better
   * cut tighter. Chosen on the held-out slice, never on val.
   */
  secondLook: DieFaceSecondLook | null;
  /**
   * A die read `other` whose pip-value probabilities point at the 1 is read as a 1 (`brandedOnes`),
   * and with `amongPipDice` so is a sure die read `other` beside dice read as pips
   * (`brandedOnesAmongPips`); null never to. Makers replace only the 1 of a standard die by their
   * logo, and a logo reads `other` (a die, not a pip face) as a symbol die's face does.
   */
  brandedOne: DieFaceBrandedOne | null;
  /**
   * Dice read where the dice around them say no die lies (half a die off another, between two)
   * are dropped (false-dice.ts), or null to keep every die read. Learnt on unseen renders and
   * the train photos, its threshold chosen on the held-out slice, never on val.
   */
  falseDice: FalseDiceModel | null;
  /**
   * Two touching dice the detector boxed as one (a box about two dice long and one wide) are
   * read as two when the reader reads each half of the box as a pip value surely
   * (`partTouchingDice`), or null never to. Chosen on the train photos, the held-out slice and
   * the other renderer's sets, never on val (models/record/standard-dice.md, "Touching dice boxed as one").
   */
  touchingDice: DieFaceTouchingDice | null;
  /**
   * A die read as a pip value less surely than this, after every other rule, is marked unsure
   * (`markUnsure`): the table proposes it as `?` for the player to fill rather than propose a
   * value it may have wrong (`proposedValue`). Null never to. Chosen at the table on the held-out
   * slice (`npm run choose-unsure-read`), never on val (models/record/at-the-table.md, "Unsure dice asked for").
   */
  unsure: DieFaceUnsure | null;
}

export interface DieFaceTouchingDice {
  /** A box at least this many times as long as it is wide may hold two dice end to end. */
  aspect: number;
  /** Its long side at least this many times the long side of the frame's median die, */
  longVsMedian: number;
  /** and its short side at most this many times the median die's short side. */
  shortVsMedian: number;
  /** The fewest dice read in the frame for its median die to go by. */
  minDice: number;
  /** Each half must be read as a pip value at least this surely. */
  minProbability: number;
}

export interface DieFaceUnsure {
  /** A value read with a probability below this is asked for at the table. */
  below: number;
}

export interface DieFaceSecondLook {
  /** A die whose best class has a probability below this gets the second look. */
  below: number;
  /** Crop margins (as `cropMargin`) it is also read at, each as cut and mirrored; [] for the mirrored crop alone. */
  margins: readonly number[];
}

export interface DieFaceBrandedOne {
  /** The 1's share of the six value classes' probability at which an `other` read becomes a 1. */
  minShare: number;
  /** Whether a sure die read `other` among dice read as pips is read as a 1 (`brandedOnesAmongPips`). */
  amongPipDice: boolean;
}

export interface DieFaceWeakDice {
  /** Candidates down to this score (scored as the first pass scores) are looked at. */
  scoreThreshold: number;
  /** At most this many of them, best first, are read. */
  maxCandidates: number;
  /** One is kept when the reader reads it as a pip value with at least this probability. */
  minProbability: number;
  /** Each candidate is also read moved by this share of its box in the eight directions, the surest pip read kept with its box (absent: not moved; see `shiftedBoxes`). */
  shift?: number;
}

export interface DieFaceRecount {
  /** Candidates down to this score (scored as the first pass scores) are looked at. */
  scoreThreshold: number;
  /** At most this many of them, best first, are read. */
  maxCandidates: number;
  /** As `DieFaceWeakDice.shift`. */
  shift?: number;
}

export interface DieFaceFirstPass {
  /** How a candidate is scored (`DecodeOptions.score`): objectness × best class, or objectness alone. */
  score: 'class' | 'objectness';
  /** A candidate die is kept when its score reaches this. */
  scoreThreshold: number;
  /** A box is dropped when more than this share of its area lies inside a better kept box. */
  containment: number;
}

export class DieFaceConfigError extends Error {
  override name = 'DieFaceConfigError';
}

/** The meaning of a class name; throws for a name the reader does not know. */
function dieFaceClass(name: string): DieFaceClass {
  if (/^[1-6]$/.test(name)) return { kind: 'value', value: Number(name) };
  if (name === 'other' || name === 'none') return { kind: name };
  throw new DieFaceConfigError(`die-face sidecar: unknown class ${JSON.stringify(name)} (expected "1"…"6", "other", "none")`);
}

/** Validates a parsed `die-face.json`; throws DieFaceConfigError naming the bad field. */
export function parseDieFaceConfig(json: unknown): DieFaceConfig {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new DieFaceConfigError('die-face sidecar: expected a JSON object');
  const obj = json as Record<string, unknown>;
  const { inputSize, cropMargin, classes } = obj;
  if (typeof inputSize !== 'number' || !Number.isInteger(inputSize) || inputSize < 8 || inputSize > 512) {
    throw new DieFaceConfigError(`die-face sidecar: "inputSize" must be an integer in [8, 512], got ${JSON.stringify(inputSize)}`);
  }
  if (typeof cropMargin !== 'number' || !Number.isFinite(cropMargin) || cropMargin < 1 || cropMargin > 4) {
    throw new DieFaceConfigError(`die-face sidecar: "cropMargin" must be a number in [1, 4], got ${JSON.stringify(cropMargin)}`);
  }
  if (!Array.isArray(classes) || !classes.every((c): c is string => typeof c === 'string')) {
    throw new DieFaceConfigError('die-face sidecar: "classes" must be an array of class names');
  }
  classes.forEach(dieFaceClass);
  if (new Set(classes).size !== classes.length) throw new DieFaceConfigError('die-face sidecar: "classes" has a name twice');
  for (const v of ['1', '2', '3', '4', '5', '6', 'other']) {
    if (!classes.includes(v)) throw new DieFaceConfigError(`die-face sidecar: "classes" lacks "${v}"`);
  }
  const rule = obj.firstPass;
  let firstPass: DieFaceFirstPass | null = null;
  if (rule !== undefined && rule !== null) {
    const r = rule as Record<string, unknown>;
    const ok = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;
    if (typeof rule !== 'object' || Array.isArray(rule) || !ok(r.scoreThreshold) || !ok(r.containment) || (r.score !== 'class' && r.score !== 'objectness')) {
      throw new DieFaceConfigError('die-face sidecar: "firstPass" must be { score: "class" | "objectness", scoreThreshold, containment } with numbers in [0, 1], or absent');
    }
    firstPass = { score: r.score, scoreThreshold: r.scoreThreshold, containment: r.containment };
  }
  const unit = (v: unknown): v is number => typeof v === 'number' && v >= 0 && v <= 1;
  const count = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1;
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const shiftOk = (v: unknown): boolean => v === undefined || unit(v);
  let weakDice: DieFaceWeakDice | null = null;
  if (obj.weakDice !== undefined && obj.weakDice !== null) {
    const r = obj.weakDice;
    if (!isObject(r) || !unit(r.scoreThreshold) || !count(r.maxCandidates) || !unit(r.minProbability) || !shiftOk(r.shift)) {
      throw new DieFaceConfigError('die-face sidecar: "weakDice" must be { scoreThreshold in [0, 1], maxCandidates a positive integer, minProbability in [0, 1], shift in [0, 1] (optional) }, or absent');
    }
    weakDice = { scoreThreshold: r.scoreThreshold, maxCandidates: r.maxCandidates, minProbability: r.minProbability, ...(r.shift ? { shift: r.shift as number } : {}) };
  }
  let recount: DieFaceRecount | null = null;
  if (obj.recount !== undefined && obj.recount !== null) {
    const r = obj.recount;
    if (!isObject(r) || !unit(r.scoreThreshold) || !count(r.maxCandidates) || !shiftOk(r.shift)) {
      throw new DieFaceConfigError('die-face sidecar: "recount" must be { scoreThreshold in [0, 1], maxCandidates a positive integer, shift in [0, 1] (optional) }, or absent');
    }
    recount = { scoreThreshold: r.scoreThreshold, maxCandidates: r.maxCandidates, ...(r.shift ? { shift: r.shift as number } : {}) };
  }
  let secondLook: DieFaceSecondLook | null = null;
  if (obj.secondLook !== undefined && obj.secondLook !== null) {
    const r = obj.secondLook;
    const margins = isObject(r) ? (r.margins ?? []) : undefined;
    if (
      !isObject(r) ||
      typeof r.below !== 'number' ||
      !(r.below >= 0 && r.below <= 1.01) ||
      !Array.isArray(margins) ||
      margins.length > 4 ||
      !margins.every((m) => typeof m === 'number' && m >= 0.8 && m <= 2)
    ) {
      throw new DieFaceConfigError(
        'die-face sidecar: "secondLook" must be { below: a probability in [0, 1.01] (above 1: every die), margins: up to 4 crop margins in [0.8, 2] (optional) }, or absent',
      );
    }
    secondLook = { below: r.below, margins: [...(margins as number[])] };
  }
  let brandedOne: DieFaceBrandedOne | null = null;
  if (obj.brandedOne !== undefined && obj.brandedOne !== null) {
    const r = obj.brandedOne;
    if (
      !isObject(r) ||
      typeof r.minShare !== 'number' ||
      !(r.minShare > 0.5 && r.minShare <= 1) ||
      (r.amongPipDice !== undefined && typeof r.amongPipDice !== 'boolean')
    ) {
      throw new DieFaceConfigError('die-face sidecar: "brandedOne" must be { minShare: a share in (0.5, 1], amongPipDice: true or false (optional) }, or absent');
    }
    brandedOne = { minShare: r.minShare, amongPipDice: r.amongPipDice === true };
  }
  let falseDice: FalseDiceModel | null = null;
  if (obj.falseDice !== undefined && obj.falseDice !== null) {
    const r = obj.falseDice;
    const numbers = (v: unknown): v is number[] => Array.isArray(v) && v.length === FALSE_DICE_FEATURE_COUNT && v.every((x) => typeof x === 'number' && Number.isFinite(x));
    if (
      !isObject(r) ||
      r.features !== FALSE_DICE_FEATURES ||
      !numbers(r.mean) ||
      !numbers(r.scale) ||
      !r.scale.every((x) => x > 0) ||
      !numbers(r.weights) ||
      typeof r.bias !== 'number' ||
      !Number.isFinite(r.bias) ||
      !unit(r.minProbability)
    ) {
      throw new DieFaceConfigError(
        `die-face sidecar: "falseDice" must be { features: "${FALSE_DICE_FEATURES}", mean, scale (positive), weights: ${FALSE_DICE_FEATURE_COUNT} numbers each, bias: a number, minProbability in [0, 1] }, or absent`,
      );
    }
    falseDice = { features: FALSE_DICE_FEATURES, mean: [...r.mean], scale: [...r.scale], weights: [...r.weights], bias: r.bias, minProbability: r.minProbability };
  }
  let touchingDice: DieFaceTouchingDice | null = null;
  if (obj.touchingDice !== undefined && obj.touchingDice !== null) {
    const r = obj.touchingDice;
    const ratio = (v: unknown): v is number => typeof v === 'number' && v >= 1 && v <= 4;
    if (!isObject(r) || !ratio(r.aspect) || !ratio(r.longVsMedian) || !ratio(r.shortVsMedian) || !count(r.minDice) || !unit(r.minProbability)) {
      throw new DieFaceConfigError(
        'die-face sidecar: "touchingDice" must be { aspect, longVsMedian, shortVsMedian: ratios in [1, 4], minDice a positive integer, minProbability in [0, 1] }, or absent',
      );
    }
    touchingDice = { aspect: r.aspect, longVsMedian: r.longVsMedian, shortVsMedian: r.shortVsMedian, minDice: r.minDice, minProbability: r.minProbability };
  }
  let unsure: DieFaceUnsure | null = null;
  if (obj.unsure !== undefined && obj.unsure !== null) {
    const r = obj.unsure;
    if (!isObject(r) || !unit(r.below)) throw new DieFaceConfigError('die-face sidecar: "unsure" must be { below: a probability in [0, 1] }, or absent');
    unsure = { below: r.below };
  }
  return { inputSize, cropMargin, classes: [...classes], firstPass, weakDice, recount, secondLook, brandedOne, falseDice, touchingDice, unsure };
}

/**
 * The `unsure` rule (`DieFaceConfig.unsure`) over a read's dice: each die read as a value less
 * surely than `rule.below` is marked `unsure` (and any mark is taken off one read surely). Dice
 * the reader did not read (no `valueProbability`) or read `other` are never marked. Returns new
 * dice; without the rule, the dice unmarked.
 *
 * Why: a wrong value in a roll with the right count is the one misread a player may confirm
 * without noticing; a `?` is never confirmed unseen. The reader's probability is low on most of
 * its wrong values and few of its right ones (models/record/at-the-table.md, "Unsure dice asked for").
 */
export function markUnsure<D extends { value: unknown; valueProbability?: number; unsure?: true }>(dice: readonly D[], rule: DieFaceUnsure | null): D[] {
  return dice.map(({ unsure: _, ...d }) => {
    const doubted = rule !== null && d.value !== null && d.valueProbability !== undefined && d.valueProbability < rule.below;
    return (doubted ? { ...d, unsure: true } : d) as D;
  });
}

/**
 * The value the table proposes for a die: its value, or null (a `?` the player fills) when the
 * reader read it unsurely (`markUnsure`) or read it `other`. The app's table and
 * `npm run eval:live` both propose dice this way; `npm run eval` scores the values read.
 */
export function proposedValue<V>(die: { value: V | null; unsure?: true }): V | null {
  return die.unsure ? null : die.value;
}

/**
 * The second look (`DieFaceConfig.secondLook`): the rows `looked` of `probs` (`classes`
 * probabilities per die) averaged with those dice's other reads (`looks`: each one row per
 * looked-at die, in the order of `looked` — the mirrored crop, then each margin's crop as cut
 * and mirrored). Returns new probabilities; `probs` is left as it is.
 */
export function averagedLooks(probs: Float32Array, classes: number, looked: readonly number[], looks: readonly Float32Array[]): Float32Array {
  const out = Float32Array.from(probs);
  looked.forEach((row, j) => {
    for (let c = 0; c < classes; c++) {
      let sum = probs[row * classes + c]!;
      for (const look of looks) sum += look[j * classes + c]!;
      out[row * classes + c] = sum / (1 + looks.length);
    }
  });
  return out;
}

/** The detector's options for a read with the reader behind it (`DieFaceConfig.firstPass`). */
function firstPassOptions(config: DieFaceConfig): DetectOptions {
  return config.firstPass ? { ...config.firstPass } : {};
}

/** One die's read: the best class and its probability. */
export interface DieFaceRead {
  classIndex: number;
  probability: number;
  /** A read of `other` under the `brandedOne` rule: P(1) + P(other), how surely the die is a 1 if it is a branded one. */
  brandedOneProbability?: number;
}

/** The best class of each row of `probs` (`count` rows of `classes` probabilities). */
export function bestClasses(probs: Float32Array, count: number, classes: number): DieFaceRead[] {
  const out: DieFaceRead[] = [];
  for (let i = 0; i < count; i++) {
    let best = 0;
    for (let c = 1; c < classes; c++) if (probs[i * classes + c]! > probs[i * classes + best]!) best = c;
    out.push({ classIndex: best, probability: probs[i * classes + best]! });
  }
  return out;
}

/**
 * The `brandedOne` rule over `reads` (the best classes of `probs`, `classes` per row, in the
 * sidecar's order): a read of `other` whose six value classes give the 1 at least `minShare` of
 * their probability becomes a 1, with probability P(1) + P(other) (the die is a 1 or a logo).
 * Without the rule `reads` are returned as they are. Returns new reads.
 *
 * Why: the 1 is the face makers brand, and the reader calls a logo `other` as it calls a symbol
 * die's face; its value classes still tell the 1 apart (models/record/standard-dice.md, "Pip dice from
 * another renderer").
 */
export function brandedOnes(reads: readonly DieFaceRead[], probs: Float32Array, config: DieFaceConfig): DieFaceRead[] {
  const rule = config.brandedOne;
  const n = config.classes.length;
  const other = config.classes.indexOf('other');
  const one = config.classes.indexOf('1');
  if (!rule) return [...reads];
  if (probs.length !== reads.length * n) throw new RangeError(`${reads.length} reads but ${probs.length / n} rows of probabilities`);
  const valueClasses = config.classes.flatMap((name, j) => (dieFaceClass(name).kind === 'value' ? [j] : []));
  return reads.map((read, i) => {
    if (read.classIndex !== other) return read;
    const values = valueClasses.reduce((sum, c) => sum + probs[i * n + c]!, 0);
    const p1 = probs[i * n + one]!;
    const brandedOneProbability = p1 + probs[i * n + other]!;
    return values > 0 && p1 / values >= rule.minShare ? { classIndex: one, probability: brandedOneProbability } : { ...read, brandedOneProbability };
  });
}

/**
 * The `brandedOne` rule over a whole read, with `amongPipDice`: a die still read `other` (value
 * null) that the detector found surely (score at least `sure`, the first pass's threshold) is read
 * as a 1 when another die of the read has a pip value. Without the rule, `dice` as they are.
 *
 * Why: players roll matching dice, and makers brand only the 1, so among pip dice a die whose face
 * the reader does not know is a branded 1, a logo the reader never met (on the other renderer's
 * 600 pip rolls, 28 rolls mended and none spoilt; no real photo has such a die:
 * models/record/standard-dice.md, "Branded ones among pip dice"). It is read as surely as `brandedOnes` reads
 * a logo 1, P(1) + P(other) (`brandedOneProbability`), so one the reader doubts is still asked for
 * (`markUnsure`). Alone, or among dice read `other` only, it stays unread for the player to fill,
 * and the table learns it (pip-learning.ts): a logo alone cannot tell a branded 1 from a symbol die.
 */
export function brandedOnesAmongPips(dice: readonly Die[], sure: number, config: DieFaceConfig): Die[] {
  const one = config.classes.indexOf('1');
  if (!config.brandedOne?.amongPipDice || one < 0 || !dice.some((d) => d.value !== null)) return [...dice];
  return dice.map((d) =>
    d.value === null && d.score >= sure ? { ...d, value: 1, classIndex: one, valueProbability: d.brandedOneProbability ?? d.valueProbability } : d,
  );
}

/**
 * The detector's dice with the reader's values: a value class sets the value, `other` sets it
 * to null (a die, but not a pip face), `none` drops the die (no die there). Box and score stay
 * the detector's; `classIndex` becomes the reader's class index, `valueProbability` its probability.
 */
export function applyDieFaceReads(dice: readonly Die[], reads: readonly DieFaceRead[], config: DieFaceConfig): Die[] {
  if (reads.length !== dice.length) throw new RangeError(`${dice.length} dice but ${reads.length} reads`);
  const meanings = config.classes.map(dieFaceClass);
  const out: Die[] = [];
  dice.forEach((die, i) => {
    const read = reads[i]!;
    const meaning = meanings[read.classIndex];
    if (!meaning) throw new RangeError(`read class ${read.classIndex} is not one of the ${meanings.length} classes`);
    if (meaning.kind === 'none') return;
    out.push({
      ...die,
      value: meaning.kind === 'value' ? meaning.value : null,
      classIndex: read.classIndex,
      valueProbability: read.probability,
      ...(read.brandedOneProbability === undefined ? {} : { brandedOneProbability: read.brandedOneProbability }),
    });
  });
  return out;
}

export interface DieFaceReader {
  readonly config: DieFaceConfig;
  /** The best class of each die's crop, in order. */
  readBoxes(image: RgbaImage, dice: readonly Pick<Die, 'box'>[]): Promise<DieFaceRead[]>;
  /** The dice with the reader's values (`applyDieFaceReads`). */
  read(image: RgbaImage, dice: readonly Die[]): Promise<Die[]>;
  release(): Promise<void>;
}


/** Creates the reader's session (ORT module injected, as for the detector) and checks its I/O. */
export async function createDieFaceReader(
  ort: OrtModule,
  model: Uint8Array,
  config: DieFaceConfig,
  sessionOptions: SessionOptions = {},
): Promise<DieFaceReader> {
  const session = await createCheckedSession(ort, model, 'die-face', { input: DIE_FACE_INPUT_NAME, output: DIE_FACE_OUTPUT_NAME }, sessionOptions);
  const k = config.inputSize;
  const per = 3 * k * k;
  const nClasses = config.classes.length;
  let buffer = new Float32Array(per * 8);
  // The second look's crops (mirrored, other margins), reused between reads.
  let looks = new Float32Array(0);

  /** The model's probabilities for the first `n` crops of `crops` (copied: the output is disposed). */
  async function classify(crops: Float32Array, n: number): Promise<Float32Array> {
    const input = new ort.Tensor('float32', crops.subarray(0, n * per), [n, 3, k, k]);
    const outputs = await session.run({ [DIE_FACE_INPUT_NAME]: input });
    const out = outputs[DIE_FACE_OUTPUT_NAME];
    if (!out || out.type !== 'float32' || out.dims.length !== 2 || out.dims[0] !== n || out.dims[1] !== nClasses) {
      throw new Error(`die-face model: output "${DIE_FACE_OUTPUT_NAME}" must be float32 [B, ${nClasses}] (the sidecar's classes)`);
    }
    const probs = Float32Array.from(out.data as Float32Array);
    for (const v of Object.values(outputs)) v.dispose();
    return probs;
  }

  async function readBoxes(image: RgbaImage, dice: readonly Pick<Die, 'box'>[]): Promise<DieFaceRead[]> {
    const reads: DieFaceRead[] = [];
    for (let start = 0; start < dice.length; start += MAX_CROP_BATCH) {
      const n = Math.min(MAX_CROP_BATCH, dice.length - start);
      if (buffer.length < n * per) buffer = new Float32Array(n * per);
      for (let i = 0; i < n; i++) cropForEmbedder(image, dice[start + i]!.box, k, config.cropMargin, buffer, i * per);
      let probs = await classify(buffer, n);
      const second = config.secondLook;
      const looked = second === null ? [] : bestClasses(probs, n, nClasses).flatMap((r, i) => (r.probability < second.below ? [i] : []));
      if (second && looked.length > 0) {
        // One batch: the mirrored crops, then per margin the crops as cut and mirrored.
        const blocks = 1 + 2 * second.margins.length;
        const size = looked.length * per;
        if (looks.length < blocks * size) looks = new Float32Array(blocks * size);
        looked.forEach((row, j) => mirrorCrop(buffer, row * per, looks, j * per, k));
        second.margins.forEach((margin, m) => {
          const cut = (1 + 2 * m) * size;
          looked.forEach((row, j) => {
            cropForEmbedder(image, dice[start + row]!.box, k, margin, looks, cut + j * per);
            mirrorCrop(looks, cut + j * per, looks, cut + size + j * per, k);
          });
        });
        const read = await classify(looks, blocks * looked.length);
        const rows = looked.length * nClasses;
        probs = averagedLooks(probs, nClasses, looked, Array.from({ length: blocks }, (_, b) => read.subarray(b * rows, (b + 1) * rows)));
      }
      reads.push(...brandedOnes(bestClasses(probs, n, nClasses), probs, config));
    }
    return reads;
  }

  return {
    config,
    readBoxes,
    async read(image, dice) {
      if (dice.length === 0) return [];
      return applyDieFaceReads(dice, await readBoxes(image, dice), config);
    },
    release: () => session.release(),
  };
}

/** A detector with the die-face reader behind it; `firstPass` is the detector alone. */
export interface TwoPassDetector extends Detector {
  readonly firstPass: Detector;
  readonly dieFaceReader: DieFaceReader;
}

/**
 * The one way a standard-dice read is made when a die-face model ships: the detector finds the
 * dice, the reader reads each one from the frame, and with a `weakDice` rule the dice found too
 * weakly are looked at too (`readStandardDice`). `timing.faceReadMs` is the second pass (crops
 * and inference), `timing.missedDiceMs` the look below it; `release()` releases both sessions.
 */
export function withDieFaceReader(detector: Detector, reader: DieFaceReader): TwoPassDetector {
  return {
    config: detector.config,
    firstPass: detector,
    dieFaceReader: reader,
    async detect(image, options): Promise<Detection> {
      if (!options) return readStandardDice(detector, reader, image);
      // a caller's own options (an evaluation sweep) win over the reader's rules
      const first = await detector.detect(image, options);
      const t0 = performance.now();
      const dice = await reader.read(image, first.dice);
      return { dice, timing: { ...first.timing, faceReadMs: performance.now() - t0 } };
    },
    async release() {
      await Promise.all([detector.release(), reader.release()]);
    },
  };
}

/** A candidate this close to a die found is that die again (a face, a pip group, a shifted box). */
const SAME_DIE_IOU = 0.3;

/**
 * The `touchingDice` rule (`DieFaceConfig.touchingDice`) over the dice read: a die whose box is
 * at least `aspect` times as long as wide, its long side at least `longVsMedian` times the
 * frame's median die's and its short side at most `shortVsMedian` times the median's (with at
 * least `minDice` dice read), is read again as the two halves of its box, cut across its long
 * side; when the reader reads both as pip values at least `minProbability` surely, the two
 * halves replace it, in its place. Returns new dice; without the rule, or with nothing to part,
 * the dice as they are.
 *
 * Why: two small dice touching end to end are often boxed together as one, and the reader then
 * reads one of them, or neither surely; the count falls one short (byler's tray photos,
 * models/record/standard-dice.md, "Touching dice boxed as one"). A die seen obliquely is long
 * too, but no longer than its neighbours, and its halves do not read as two sure faces.
 */
export async function partTouchingDice(reader: DieFaceReader, image: RgbaImage, dice: readonly Die[]): Promise<Die[]> {
  const rule = reader.config.touchingDice;
  if (!rule || dice.length < rule.minDice) return [...dice];
  const long = (b: Box): number => Math.max(b.w, b.h);
  const short = (b: Box): number => Math.min(b.w, b.h);
  const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
  const medianLong = median(dice.map((d) => long(d.box)));
  const medianShort = median(dice.map((d) => short(d.box)));
  const parted = dice.filter(
    ({ box }) => long(box) >= rule.aspect * short(box) && long(box) >= rule.longVsMedian * medianLong && short(box) <= rule.shortVsMedian * medianShort,
  );
  if (parted.length === 0) return [...dice];
  const halves = parted.map(({ box }): [Box, Box] =>
    box.h >= box.w
      ? [{ ...box, h: box.h / 2 }, { ...box, y: box.y + box.h / 2, h: box.h / 2 }]
      : [{ ...box, w: box.w / 2 }, { ...box, x: box.x + box.w / 2, w: box.w / 2 }],
  );
  const reads = await reader.readBoxes(image, halves.flat().map((box) => ({ box })));
  const meanings = reader.config.classes.map(dieFaceClass);
  return dice.flatMap((d) => {
    const k = parted.indexOf(d);
    if (k < 0) return [d];
    const two = [reads[2 * k]!, reads[2 * k + 1]!];
    // each half's pip value, or null where it reads no pip value surely
    const pips = two.map((r) => {
      const meaning = meanings[r.classIndex];
      return meaning?.kind === 'value' && r.probability >= rule.minProbability ? meaning.value : null;
    });
    if (pips.includes(null)) return [d];
    return two.map((r, j): Die => ({ ...d, box: halves[k]![j]!, value: pips[j]!, classIndex: r.classIndex, valueProbability: r.probability }));
  });
}

/**
 * Dice the first pass missed, among the detector's `candidates` that it did not keep (best
 * first). Those overlapping no die `found` are read by the die-face reader, by one of two rules:
 * - when the caller knows that at least `expected` dice lie in view (the roll the game awaits),
 *   the `recount` rule: if fewer are found, the best `recount.maxCandidates` down to
 *   `recount.scoreThreshold` that the reader reads as any pip value fill the count, best first;
 * - otherwise the `weakDice` rule: the best `weakDice.maxCandidates` down to
 *   `weakDice.scoreThreshold` are kept when the reader reads a pip value with at least
 *   `weakDice.minProbability` (a die found weakly, read surely).
 * With the rule's `shift`, each candidate is also read moved around its box (`shiftedBoxes`), and
 * its surest pip read is the one judged, with the box it was read from.
 * With a count the count decides: keeping the sure dice first and then filling the count read
 * the held-out slice worse than the count alone (models/record/standard-dice.md). A candidate overlapping
 * a die already added is that die again. The reader's `none` (no die there) is what makes a low
 * score safe to look at. Returns the dice to add, best first (none without the rule).
 *
 * Why: a detector misses small dice on a busy table, or finds them too weakly to keep; the
 * reader reads them from the full frame, and a game knows how many dice were thrown.
 */
export async function findMissedDice(reader: DieFaceReader, image: RgbaImage, found: readonly Die[], candidates: readonly Die[], expected?: number): Promise<Die[]> {
  const { firstPass: first } = reader.config;
  const rule = missedDiceRule(reader.config, expected);
  if (!rule || (expected !== undefined && found.length >= expected)) return [];
  const containment = first?.containment ?? 1;
  const clearOf = (c: Die, dice: readonly Die[]): boolean =>
    dice.every((f) => iou(f.box, c.box) <= SAME_DIE_IOU && insideShare(f.box, c.box) <= containment && insideShare(c.box, f.box) <= containment);
  const looked = candidates.filter((c) => c.score >= rule.scoreThreshold && clearOf(c, found)).slice(0, rule.maxCandidates);
  if (looked.length === 0) return [];
  const tries = looked.map((c) => (rule.shift ? shiftedBoxes(c.box, rule.shift) : [c.box]));
  const reads = await reader.readBoxes(image, tries.flat().map((box) => ({ box })));
  const meanings = reader.config.classes.map(dieFaceClass);
  const added: Die[] = [];
  let at = 0;
  looked.forEach((c, i) => {
    const boxes = tries[i]!;
    // the surest pip read among the candidate's boxes (its own first, so a tie keeps it)
    let best = -1;
    for (let j = 0; j < boxes.length; j++) {
      const r = reads[at + j]!;
      if (meanings[r.classIndex]?.kind === 'value' && (best < 0 || r.probability > reads[at + best]!.probability)) best = j;
    }
    at += boxes.length;
    if (best < 0) return;
    const { classIndex, probability } = reads[at - boxes.length + best]!;
    const meaning = meanings[classIndex];
    if (meaning?.kind !== 'value' || probability < rule.minProbability) return;
    if (expected !== undefined && found.length + added.length >= expected) return;
    const die = { ...c, box: boxes[best]!, value: meaning.value, classIndex, valueProbability: probability };
    if (clearOf(die, found) && clearOf(die, added)) added.push(die);
  });
  return added;
}

/**
 * A box and the eight boxes moved from it by `shift` of its width and height (across, down and
 * diagonally), for a candidate the detector boxed half off a small die: on a game board the
 * detector finds such dice weakly and places their box loosely, and the reader calls a box half
 * off a die `none` though it reads the die right from a box on it (models/record/standard-dice.md).
 */
export function shiftedBoxes(box: Box, shift: number): Box[] {
  const out: Box[] = [box];
  for (const dy of [-1, 0, 1]) {
    for (const dx of [-1, 0, 1]) {
      if (dx !== 0 || dy !== 0) out.push({ x: box.x + dx * shift * box.w, y: box.y + dy * shift * box.h, w: box.w, h: box.h });
    }
  }
  return out;
}

/** The rule `findMissedDice` looks by: with a count the recount (any value read fills it), else the weak dice. */
function missedDiceRule(config: DieFaceConfig, expected: number | undefined): { scoreThreshold: number; maxCandidates: number; minProbability: number; shift?: number } | null {
  if (expected !== undefined) return config.recount ? { ...config.recount, minProbability: 0 } : null;
  return config.weakDice;
}

/**
 * A standard-dice read through the die-face reader (`withDieFaceReader`, `detectCounted`). The
 * detector runs once, down to the threshold of the rule that looks below the first pass
 * (`findMissedDice`: the recount with a count, the weak dice without); its boxes at or above
 * the first pass's threshold are the first pass's own (NMS and containment keep or drop a box by
 * better boxes alone), the reader reads them, and the boxes below are looked at for dice it
 * missed (timed as `missedDiceMs`). With a `falseDice` model, dice read where the dice around them
 * say no die lies are dropped (`dropFalseDice`; with a count, before the recount). Last, the
 * values read too unsurely for the table to propose are marked (`markUnsure`).
 */
export async function readStandardDice(detector: Detector, reader: DieFaceReader, image: RgbaImage, expected?: number): Promise<Detection> {
  const rule = missedDiceRule(reader.config, expected);
  const kept = reader.config.firstPass?.scoreThreshold ?? detector.config.scoreThreshold;
  const low = await detector.detect(image, rule ? { ...firstPassOptions(reader.config), scoreThreshold: Math.min(kept, rule.scoreThreshold) } : firstPassOptions(reader.config));
  const t0 = performance.now();
  const read = await reader.read(image, rule ? low.dice.filter((d) => d.score >= kept) : low.dice);
  const t1 = performance.now();
  const below = rule ? low.dice.filter((d) => d.score < kept) : [];
  const { dice: completed, lookedBelow } = await completeRead(reader, image, read, below, kept, expected);
  const dice = markUnsure(completed, reader.config.unsure);
  const end = performance.now();
  return { dice, timing: lookedBelow ? { ...low.timing, faceReadMs: t1 - t0, missedDiceMs: end - t1 } : { ...low.timing, faceReadMs: end - t0 } };
}

/**
 * What `readStandardDice` does after the reader has read the first pass's dice (`read`): two
 * touching dice boxed as one parted (`partTouchingDice`); the candidates `below` the first pass's threshold `kept` looked at for dice it missed
 * (`findMissedDice`), and the false dice dropped (`dropFalseDice`) — with a count, before the
 * recount fills it and never below it; without, after the weak dice; last, sure dice read `other`
 * among pip dice read as branded 1s (`brandedOnesAmongPips`). `lookedBelow`: whether the
 * candidates were looked at. `choose-die-face-rule` reads its candidate rules through this too.
 */
export async function completeRead(
  reader: DieFaceReader,
  image: RgbaImage,
  read: Die[],
  below: readonly Die[],
  kept: number,
  expected?: number,
): Promise<{ dice: Die[]; lookedBelow: boolean }> {
  const parted = await partTouchingDice(reader, image, read);
  const found = expected === undefined ? parted : await dropFalseDice(reader, image, parted, kept, expected);
  const lookedBelow = missedDiceRule(reader.config, expected) !== null && below.length > 0 && (expected === undefined || found.length < expected);
  const added = lookedBelow ? await findMissedDice(reader, image, found, below, expected) : [];
  const judged = expected === undefined ? await dropFalseDice(reader, image, [...found, ...added], kept) : [...found, ...added];
  return { dice: brandedOnesAmongPips(judged, kept, reader.config), lookedBelow };
}

/**
 * The dice the `falseDice` rule keeps (all without it), judged with the probability the reader
 * read each with (`valueProbability`; a die without one is read again for it); dropped least
 * likely first, never below `atLeast` (a count the game knows: the dice thrown lie in view, so a
 * count's worth of dice read are kept whatever lies around them).
 */
async function dropFalseDice(reader: DieFaceReader, image: RgbaImage, dice: Die[], weakBelow: number, atLeast = 0): Promise<Die[]> {
  const model = reader.config.falseDice;
  if (!model || dice.length < 2 || dice.length <= atLeast) return dice;
  const unread = dice.filter((d) => d.valueProbability === undefined);
  const reads = unread.length ? await reader.readBoxes(image, unread) : [];
  const probabilityOf = new Map(unread.map((d, k) => [d, reads[k]!.probability]));
  const read = dice.map((d) => ({ box: d.box, value: d.value, score: d.score, probability: d.valueProbability ?? probabilityOf.get(d)! }));
  return keptDice(read, weakBelow, model, atLeast).map((i) => dice[i]!);
}

/**
 * A standard-dice read when the caller may know how many dice lie in view (at least `expected`,
 * the roll the game awaits): with the die-face reader, `readStandardDice` with that count;
 * without it, `detector.detect` as is.
 */
export async function detectCounted(detector: Detector, image: RgbaImage, expected?: number): Promise<Detection> {
  if (!('dieFaceReader' in detector)) return detector.detect(image);
  const { firstPass: first, dieFaceReader: reader } = detector as TwoPassDetector;
  return readStandardDice(first, reader, image, expected);
}

/** The detector without any second pass (symbol dice are read by the face embedder instead). */
export function firstPass(detector: Detector): Detector {
  return 'firstPass' in detector ? (detector as TwoPassDetector).firstPass : detector;
}
