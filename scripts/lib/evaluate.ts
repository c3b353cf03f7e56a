/**
 * Runs a detector over labelled datasets and summarises per dataset and overall
 * (src/lib/vision/metrics.ts has the rules). Used by `npm run eval` and the floor tests.
 */
import path from 'node:path';
import { readdir } from 'node:fs/promises';
import type { DiceKit } from '../../src/lib/dice/kit.ts';
import type { Detector } from '../../src/lib/vision/detector.ts';
import { detectCounted, type DieFaceReader } from '../../src/lib/vision/die-face-reader.ts';
import { EvalAccumulator, exactRoll, matchByCentre, type DieKey, type EvalSummary, type PredictedDie, type TruthDie } from '../../src/lib/vision/metrics.ts';
import type { FaceEmbedder } from '../../src/lib/vision/face-embedder.ts';
import { learnConfirmed, type FacePrototype } from '../../src/lib/vision/face-reader.ts';
import { pipFaceId, readOtherPips } from '../../src/lib/vision/pip-learning.ts';
import type { Box, Die, RgbaImage } from '../../src/lib/vision/types.ts';
import { photoProposal, valuesProposed } from '../../src/app/cameraRead.ts';
import { loadDataset, readDatasetPhoto, scoredPredictions, type BoxStyle, type Dataset, type LabelledImage } from './datasets.ts';
import { UsageError } from './node-vision.ts';
import { applyCameraCondition, type CameraCondition } from './camera-conditions.ts';
import { GAMES } from '../../src/lib/rules/registry.ts';

export interface DatasetReport extends EvalSummary {
  name: string;
  dir: string;
  boxStyle: BoxStyle;
  /** The photos whose roll was not read exactly, in dataset order: what they show and what was read (sorted; null: a die not read). */
  wrongRolls: WrongRoll[];
  /** The same measures over the photos of `crowdDice` dice or more alone; null when there are none. */
  crowds: EvalSummary | null;
  /** The same over the photos of at most `GAME_ROLL_DICE` dice, the rolls a game throws; null when there are none. */
  gameRolls: EvalSummary | null;
  /** The photos read without the salt-and-pepper specks of their export (`readDatasetPhoto`). */
  despeckled: number;
  /** How the table would propose each photo as a photo of the roll (`photoOutcome`); null unless pips are read with the count known. */
  photo: PhotoTally | null;
}

/**
 * The photos read, as the table's "Photo of the dice" would propose them (src/app/photoRead.ts:
 * the count known, `valuesProposed`, `photoProposal`): exactly right; asking for a face (a `?`);
 * wrong though a player could confirm it as it stands (every die given a value, the count right);
 * refused by the rules (a wrong count). Counts of photos.
 */
export interface PhotoTally {
  photos: number;
  exact: number;
  asked: number;
  wrongConfirmable: number;
  refused: number;
}

/** Which of `PhotoTally`'s outcomes a photo's read (`dice`, in a `frame` of that size) comes to, its `truth` known. */
export function photoOutcome(truth: readonly TruthDie[], dice: readonly Die[], frame: { width: number; height: number }): Exclude<keyof PhotoTally, 'photos'> {
  const values = valuesProposed(dice, frame);
  const { seen, unread } = photoProposal(dice.map((d, i) => ({ box: d.box, token: values[i] ?? null, score: d.score })), [truth.length]);
  if (unread > 0) return 'asked';
  if (seen.length !== truth.length) return 'refused';
  const read = seen.map(String).sort();
  return truth.map((t) => String(t.value)).sort().every((v, i) => v === read[i]) ? 'exact' : 'wrongConfirmable';
}

function addPhotoTally(a: PhotoTally, b: PhotoTally): PhotoTally {
  return { photos: a.photos + b.photos, exact: a.exact + b.exact, asked: a.asked + b.asked, wrongConfirmable: a.wrongConfirmable + b.wrongConfirmable, refused: a.refused + b.refused };
}

export interface WrongRoll {
  file: string;
  truth: string[];
  read: Array<string | null>;
}

/** A roll's dice as sorted strings (values or face ids; null, an unread die, last). */
function rollOf(dice: ReadonlyArray<{ value: DieKey | null }>): Array<string | null> {
  return dice.map((d) => (d.value === null ? null : String(d.value))).sort((a, b) => (a === null ? 1 : b === null ? -1 : a < b ? -1 : a > b ? 1 : 0));
}

export interface EvalReport {
  datasets: DatasetReport[];
  overall: EvalSummary & { photo: PhotoTally | null };
  /** The photos of `crowdDice` dice or more, over every dataset; null when there are none. */
  crowds: EvalSummary | null;
  crowdDice: number;
  /** The photos of at most `gameRollDice` dice, over every dataset; null when there are none. */
  gameRolls: EvalSummary | null;
  gameRollDice: number;
}

/**
 * A photo of this many labelled dice or more is a crowd: small touching dice, where the detector
 * misses most (models/record/standard-dice.md, "The held-out slice has few crowds"), so every report
 * measures them apart as well.
 */
export const CROWD_DICE = 8;

/**
 * The most dice any game of Rollcall throws at once (the rules' `diceCount`): a photo of this many
 * labelled dice or fewer is a roll a player makes, and every report measures those apart too, since
 * the val splits' crowds are rolls no game throws.
 */
export const GAME_ROLL_DICE = Math.max(...GAMES.map((g) => g.diceCount));

/** The photos each report measures apart as well as in whole: crowds, and a game's rolls. */
type Subset = 'crowds' | 'gameRolls';
const SUBSETS: readonly Subset[] = ['crowds', 'gameRolls'];

/** A tally of reads: of a kit's face ids when reading with a kit, else of pip values. */
function newAccumulator(kitEval: KitEvaluation | undefined, wholeDie: boolean): EvalAccumulator {
  return kitEval ? new EvalAccumulator(wholeDie, kitEval.kit.faces.map((f) => f.id), 'unknown') : new EvalAccumulator(wholeDie);
}

/**
 * Reading with a kit (`eval --kit`): the dice read as face ids (null: unknown), and the
 * reader's own time per image (detector + face embedder).
 */
export interface KitEvaluation {
  kit: DiceKit;
  /** `expected`: the dice the image shows, when the evaluation reads with the count known. */
  read(image: RgbaImage, expected?: number): Promise<{ dice: PredictedDie[]; ms: number }>;
  /** Called after each image with its labels and what `read` gave (learning from play: `eval:symbols --learn`). */
  afterRead?(truth: readonly TruthDie[], read: readonly PredictedDie[]): void;
}

/**
 * Reading the labelled boxes as if a perfect detector had found them (`eval --boxes truth`):
 * the die-face reader alone, so reading errors show apart from detection errors.
 */
export interface TruthBoxEvaluation {
  reader: DieFaceReader;
}

/**
 * Pip faces learnt at the table (`eval --learn`, pip-learning.ts): each folder is one table, its
 * photos read in order. After each photo, the dice still read `other` (the `?` a player fills)
 * are learnt as the value the labels give them when filling them is all the read needs
 * (`filledValue`), as the app's table learns (cameraRead.ts `filledAllAs`).
 */
export interface PipLearningEvaluation {
  embedder: FaceEmbedder;
}

/**
 * The value a player fills every `?` of a read with, when that is all the read needs (the app
 * learns only then: cameraRead.ts `filledAllAs`): each die read unknown (value null) is matched to
 * a labelled die by the centre rule, all show one value, and with them filled so the read is the
 * labelled roll exactly. Null otherwise (no `?`, a `?` where no die lies, `?`s of different
 * values, or another die to correct).
 */
export function filledValue(truth: readonly TruthDie[], read: readonly PredictedDie[]): DieKey | null {
  const byPrediction = new Map(matchByCentre(truth, read).map((m) => [m.prediction, truth[m.truth]!.value]));
  const values = read.flatMap((d, i) => (d.value === null ? [byPrediction.get(i) ?? null] : []));
  if (values.length === 0 || values.some((v) => v === null)) return null;
  const value = values[0]!;
  if (!values.every((v) => v === value)) return null;
  return exactRoll(truth, read.map((d) => (d.value === null ? { ...d, value } : d))) ? value : null;
}

/**
 * A table's pip faces after a read (`eval --learn`, `eval:live --learn`): when filling its `?`
 * is all the read needs (`filledValue`), each `?` die's vector (`vectorOf`, by its index in
 * `read`) is learnt as the labelled value (`learnConfirmed`); otherwise `learnt` as it was.
 */
export function learnFilledPips(
  learnt: FacePrototype[],
  truth: readonly TruthDie[],
  read: readonly PredictedDie[],
  vectorOf: (index: number) => Float32Array | undefined,
): FacePrototype[] {
  const value = filledValue(truth, read);
  if (value === null) return learnt;
  const vectors = read.flatMap((d, i) => (d.value === null ? [vectorOf(i)] : []));
  if (!vectors.every((v) => v !== undefined)) return learnt;
  return learnConfirmed(learnt, vectors.map((embedding) => ({ faceId: pipFaceId(Number(value)), embedding: embedding! })));
}

/**
 * A matteop65 pip-pattern die is 1.65× its 4, 5 or 6 pattern's box as seen (the detector's
 * training makes the same estimate, models/training/datasets.py).
 */
export const PIP_PATTERN_TO_DIE = 1.65;

/**
 * The whole-die boxes a perfect detector would give for a labelled image. `whole-die` sets: the
 * labels. `pips` sets (the box holds only the pip pattern): a square centred on each pattern,
 * PIP_PATTERN_TO_DIE × the image's largest pattern box — a 2–6 pattern spans about the same
 * width, a lone 1 pip much less — or × `patternFloor` when that is larger (images of 1s only).
 * Values are not used, so the truth does not leak into the crops.
 */
export function perfectDetections(dice: readonly TruthDie[], boxStyle: BoxStyle, patternFloor: number): Box[] {
  if (boxStyle === 'whole-die') return dice.map((d) => ({ ...d.box }));
  const pattern = Math.max(patternFloor, ...dice.map((d) => Math.max(d.box.w, d.box.h)));
  const side = PIP_PATTERN_TO_DIE * pattern;
  return dice.map(({ box }) => ({ x: box.x + box.w / 2 - side / 2, y: box.y + box.h / 2 - side / 2, w: side, h: side }));
}

/**
 * 0.8 × the median labelled box side of a dataset (mostly 2–6 patterns): the least a pip
 * pattern's size is taken to be by perfectDetections, so an image of lone 1 pips still gets
 * die-sized boxes.
 */
export function patternFloor(dataset: Pick<Dataset, 'images'>): number {
  const sides = dataset.images.flatMap((im) => im.dice.map((d) => Math.max(d.box.w, d.box.h))).sort((a, b) => a - b);
  return sides.length ? 0.8 * sides[Math.floor(sides.length / 2)]! : 0;
}

/** How a dataset is read; every field optional (the app's reading path, counts unknown, photos as taken). */
export interface EvalOptions {
  kitEval?: KitEvaluation;
  truthEval?: TruthBoxEvaluation;
  /** Each photo read knowing how many dice it shows (see `evaluateDataset`). */
  countKnown?: boolean;
  pipLearning?: PipLearningEvaluation;
  /** A photo of this many labelled dice or more is measured as a crowd too (default `CROWD_DICE`). */
  crowdDice?: number;
  /** A camera condition put on each photo before it is read (camera-conditions.ts). */
  condition?: CameraCondition;
}

/**
 * Measures one dataset. Latency is the reader's own time per image (pre + infer + post), not file
 * decoding. `countKnown`: each photo is read knowing how many dice it shows, as the table knows
 * the dice thrown (`detectCounted`, `findMissedSymbolDice`: dice missed below the count are looked for again).
 */
export async function evaluateDataset(
  detector: Detector,
  dataset: Dataset,
  options: EvalOptions = {},
): Promise<{ report: DatasetReport; accumulator: EvalAccumulator; subsetAccumulators: Record<Subset, EvalAccumulator | null> }> {
  const { kitEval, truthEval, countKnown = false, pipLearning, crowdDice = CROWD_DICE, condition } = options;
  const acc = newAccumulator(kitEval, dataset.boxStyle === 'whole-die');
  const inSubset: Record<Subset, (dice: number) => boolean> = { crowds: (n) => n >= crowdDice, gameRolls: (n) => n <= GAME_ROLL_DICE };
  const subsets = { crowds: newAccumulator(kitEval, dataset.boxStyle === 'whole-die'), gameRolls: newAccumulator(kitEval, dataset.boxStyle === 'whole-die') };
  const floor = patternFloor(dataset);
  const wrongRolls: WrongRoll[] = [];
  let despeckled = 0;
  /** This table's pip faces learnt so far (`pipLearning`). */
  let learnt: FacePrototype[] = [];
  // a photo of the roll is read knowing the count, as the table knows it
  const photo: PhotoTally | null = countKnown && !kitEval && !truthEval ? { photos: 0, exact: 0, asked: 0, wrongConfirmable: 0, refused: 0 } : null;
  const tallyPhoto = (im: LabelledImage, read: readonly Die[], frame: RgbaImage): void => {
    if (!photo) return;
    photo.photos++;
    photo[photoOutcome(im.dice, read, frame)]++;
  };
  const tally = (im: LabelledImage, read: readonly PredictedDie[], ms: number): void => {
    const dice = scoredPredictions(im, read);
    acc.add(im.dice, dice, ms);
    for (const s of SUBSETS) if (inSubset[s](im.dice.length)) subsets[s].add(im.dice, dice, ms);
    if (!exactRoll(im.dice, dice)) wrongRolls.push({ file: im.file, truth: rollOf(im.dice) as string[], read: rollOf(dice) });
  };
  for (const im of dataset.images) {
    const file = path.join(dataset.dir, im.file);
    const { image: photo, despeckled: cleaned } = await readDatasetPhoto(file);
    if (cleaned) despeckled++;
    if (photo.width !== im.width || photo.height !== im.height) {
      throw new UsageError(`${file}: labels say ${im.width}×${im.height} but the image is stored at ${photo.width}×${photo.height}`);
    }
    const image = condition ? await applyCameraCondition(photo, condition, im.file) : photo;
    if (kitEval) {
      const { dice, ms } = await kitEval.read(image, countKnown ? im.dice.length : undefined);
      tally(im, dice, ms);
      kitEval.afterRead?.(im.dice, dice);
      continue;
    }
    if (truthEval) {
      const boxes = perfectDetections(im.dice, dataset.boxStyle, floor);
      const t0 = performance.now();
      const dice = await truthEval.reader.read(image, boxes.map((box) => ({ box, value: null, score: 1, classIndex: -1 })));
      tally(im, dice, performance.now() - t0);
      continue;
    }
    const { dice, timing } = countKnown ? await detectCounted(detector, image, im.dice.length) : await detector.detect(image);
    const ms = timing.preprocessMs + timing.inferenceMs + timing.postprocessMs + (timing.faceReadMs ?? 0) + (timing.missedDiceMs ?? 0);
    if (!pipLearning) {
      tally(im, dice, ms);
      tallyPhoto(im, dice, image);
      continue;
    }
    const t0 = performance.now();
    const read = await readOtherPips(pipLearning.embedder, image, dice, learnt);
    tally(im, read.dice, ms + performance.now() - t0);
    tallyPhoto(im, read.dice, image);
    const scored = scoredPredictions(im, read.dice);
    const vectors = new Map(read.dice.map((d, i) => [d, read.reads?.[i]?.embedding]));
    learnt = learnFilledPips(learnt, im.dice, scored, (i) => vectors.get(scored[i]!));
  }
  // a subset no photo falls in is null, not a summary of nothing
  const held = (s: Subset): EvalAccumulator | null => (subsets[s].images > 0 ? subsets[s] : null);
  const subsetAccumulators = { crowds: held('crowds'), gameRolls: held('gameRolls') };
  const summary = (s: Subset): EvalSummary | null => subsetAccumulators[s]?.summarise() ?? null;
  return {
    report: { name: dataset.name, dir: dataset.dir, boxStyle: dataset.boxStyle, ...acc.summarise(), wrongRolls, crowds: summary('crowds'), gameRolls: summary('gameRolls'), despeckled, photo },
    accumulator: acc,
    subsetAccumulators,
  };
}

export async function evaluate(detector: Detector, dirs: readonly string[], options: EvalOptions = {}): Promise<EvalReport> {
  const datasets: Dataset[] = [];
  for (const dir of dirs) datasets.push(await loadDataset(dir, options.kitEval?.kit)); // validate all before measuring any
  return evaluateDatasets(detector, datasets, options);
}

/** `evaluate` over datasets already loaded (the held-out slices: datasets.ts `holdoutSlices`). */
export async function evaluateDatasets(detector: Detector, datasets: readonly Dataset[], options: EvalOptions = {}): Promise<EvalReport> {
  const overall = newAccumulator(options.kitEval, true);
  const subsets = { crowds: newAccumulator(options.kitEval, true), gameRolls: newAccumulator(options.kitEval, true) };
  const reports: DatasetReport[] = [];
  let photo: PhotoTally | null = null;
  for (const dataset of datasets) {
    const { report, accumulator, subsetAccumulators } = await evaluateDataset(detector, dataset, options);
    reports.push(report);
    if (report.photo) photo = photo ? addPhotoTally(photo, report.photo) : report.photo;
    overall.merge(accumulator);
    for (const s of SUBSETS) {
      const a = subsetAccumulators[s];
      if (a) subsets[s].merge(a);
    }
  }
  const summary = (s: Subset): EvalSummary | null => (subsets[s].images > 0 ? subsets[s].summarise() : null);
  return {
    datasets: reports,
    overall: { ...overall.summarise(), photo },
    crowds: summary('crowds'),
    crowdDice: options.crowdDice ?? CROWD_DICE,
    gameRolls: summary('gameRolls'),
    gameRollDice: GAME_ROLL_DICE,
  };
}

/** The `*-val` folders under DATA/dice-photos, sorted; [] when there are none. */
export async function valSplits(data: string): Promise<string[]> {
  const root = path.join(data, 'dice-photos');
  const names = await readdir(root).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('-val')).sort().map((n) => path.join(root, n));
}
