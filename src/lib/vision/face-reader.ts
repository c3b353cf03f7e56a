/**
 * Reading symbol dice by their faces: each die the detector finds is embedded, and takes the
 * face of the nearest prototype (cosine similarity), or unknown (null) when no face is near
 * enough or two faces are too close to call. Prototypes come from the kit's art rendered on
 * dice and from photos a player taught ("teach mode"); `kitSeparation` tells the teach screen
 * how well the faces taught so far stand apart.
 */
import type { DiceKit, DieFace } from '../dice/kit.ts';
import type { SymbolDiceRule, SymbolRecount } from './config.ts';
import { dropContained, fuseReads, insideShare, iou } from './decode.ts';
import { symbolDetectOptions, type Detector } from './detector.ts';
import { firstPass } from './die-face-reader.ts';
import { renderArtOnDice, type ArtView, DEFAULT_ART_VIEWS } from './face-art.ts';
import { cropForEmbedder, quarterTurnCrop, TRAINED_CROP, type FaceEmbedder, type FaceEmbedderConfig } from './face-embedder.ts';
import { shrinkInFrame } from './letterbox.ts';
import type { Box, Detection, Die, ReadTiming, RgbaImage } from './types.ts';

/**
 * Where a prototype comes from: the kit's art on dice, a photo a player taught, or a die read at
 * the table in a roll the player confirmed as read (`learnConfirmed`).
 */
export type PrototypeSource = 'art' | 'example' | 'confirmed';

export interface FacePrototype {
  faceId: string;
  source: PrototypeSource;
  embedding: Float32Array;
}

/** The unknown rule's two numbers (the embedder sidecar's, unless a caller overrides them). */
export type MatchRule = Pick<FaceEmbedderConfig, 'threshold' | 'ambiguityMargin'>;

export interface FaceMatch {
  /** The face read, or null for unknown. */
  faceId: string | null;
  /** The nearest face, even when it was not near enough to be read. */
  nearestFaceId: string | null;
  similarity: number;
  runnerUpFaceId: string | null;
  runnerUpSimilarity: number;
}

export type TeachProblem = 'no-die' | 'several-dice';

export class TeachError extends Error {
  override name = 'TeachError';
  constructor(
    message: string,
    /** What was wrong with the photo, for callers that react differently to each. */
    readonly problem: TeachProblem,
    /** How many dice were found. */
    readonly found = 0,
  ) {
    super(message);
  }
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/**
 * The prototypes a kit reads with. Taught photos show the player's own dice, so once every
 * face has at least one, the art (which may look nothing like those dice) is left out; until
 * then art and photos are used together. Dice confirmed at the table are always used.
 */
export function selectPrototypes(kit: DiceKit, prototypes: readonly FacePrototype[]): FacePrototype[] {
  const known = new Set(kit.faces.map((f) => f.id));
  const usable = prototypes.filter((p) => known.has(p.faceId));
  const taughtEveryFace = kit.faces.every((f) => usable.some((p) => p.faceId === f.id && p.source === 'example'));
  return taughtEveryFace ? usable.filter((p) => p.source !== 'art') : usable;
}

/**
 * The most dice confirmed at the table kept per face. On the embedder's held-out sets, read in
 * rolls of five with each roll read right added, every cap from 3 to 20 read alike (+0.2 points
 * per die over none); 10 bounds the work per die and lets a die confirmed wrongly age out.
 */
export const CONFIRMED_PER_FACE = 10;

/**
 * Learning from play: the dice of a roll the player confirmed exactly as read become prototypes
 * of the faces they were read as (each die's reading embedding), after those already learnt;
 * past `perFace` for a face, its oldest go. Taught photos and art are never replaced.
 */
export function learnConfirmed(
  confirmed: readonly FacePrototype[],
  roll: readonly { faceId: string; embedding: Float32Array }[],
  perFace = CONFIRMED_PER_FACE,
): FacePrototype[] {
  const all = [...confirmed, ...roll.map((d): FacePrototype => ({ faceId: d.faceId, source: 'confirmed', embedding: d.embedding }))];
  const left = new Map<string, number>();
  for (const p of all) left.set(p.faceId, (left.get(p.faceId) ?? 0) + 1);
  return all.filter((p) => {
    const n = left.get(p.faceId)!;
    left.set(p.faceId, n - 1);
    return n <= perFace;
  });
}

/**
 * Each face's similarity to `embedding`: the cosine to the centroid (normalised mean) of the
 * face's prototypes, `skip` left out; faces without prototypes are absent. On the embedder's
 * held-out synthetic sets with 5 taught photos per face the centroid reads 94.9% of dice right
 * against 94.0% for the single nearest prototype (models/record/symbol-dice.md, "Face embedder").
 */
function faceSimilarities(prototypes: readonly FacePrototype[], embedding: Float32Array, skip?: FacePrototype): Map<string, number> {
  const sums = new Map<string, Float32Array>();
  for (const p of prototypes) {
    if (p === skip) continue;
    let sum = sums.get(p.faceId);
    if (!sum) sums.set(p.faceId, (sum = new Float32Array(p.embedding.length)));
    for (let i = 0; i < sum.length; i++) sum[i]! += p.embedding[i]!;
  }
  const out = new Map<string, number>();
  for (const [faceId, sum] of sums) {
    const norm = Math.hypot(...sum);
    out.set(faceId, norm > 0 ? cosine(sum, embedding) / norm : -1);
  }
  return out;
}

/** Nearest face by cosine similarity, with the unknown rule applied. */
export function matchFace(prototypes: readonly FacePrototype[], embedding: Float32Array, rule: MatchRule, skip?: FacePrototype): FaceMatch {
  const ranked = [...faceSimilarities(prototypes, embedding, skip)].sort((a, b) => b[1] - a[1]);
  const [first, second] = ranked;
  if (!first) return { faceId: null, nearestFaceId: null, similarity: -1, runnerUpFaceId: null, runnerUpSimilarity: -1 };
  const runnerUp = second?.[1] ?? -1;
  const ok = first[1] >= rule.threshold && first[1] - runnerUp >= rule.ambiguityMargin;
  return { faceId: ok ? first[0] : null, nearestFaceId: first[0], similarity: first[1], runnerUpFaceId: second?.[0] ?? null, runnerUpSimilarity: runnerUp };
}

/** Art prototypes: each face's art (square RGBA image) rendered on dice and embedded. */
export async function artPrototypes(
  embedder: FaceEmbedder,
  art: ReadonlyMap<string, RgbaImage>,
  views: readonly ArtView[] = DEFAULT_ART_VIEWS,
): Promise<FacePrototype[]> {
  const out: FacePrototype[] = [];
  const { inputSize, cropMargin } = embedder.config;
  for (const [faceId, image] of art) {
    const crops = renderArtOnDice(image, inputSize, cropMargin, views);
    for (const embedding of await embedder.embedCrops(crops, views.length)) out.push({ faceId, source: 'art', embedding });
  }
  return out;
}

/** The die a teach photo shows: the single die found, or the one clearly best and biggest. */
export function teachDie(dice: readonly Die[]): Die {
  if (dice.length === 0) throw new TeachError('no die found in this photo: put one die in the middle of the view, face up, and try again', 'no-die');
  if (dice.length === 1) return dice[0]!;
  const area = (b: Box): number => b.w * b.h;
  const sorted = [...dice].sort((a, b) => b.score * area(b.box) - a.score * area(a.box));
  const [top, next] = sorted;
  // Another die of similar size and confidence: we cannot know which one the player meant.
  if (next!.score * area(next!.box) > 0.5 * top!.score * area(top!.box)) {
    throw new TeachError(`${dice.length} dice found in this photo: show one die at a time`, 'several-dice', dice.length);
  }
  return top!;
}

/**
 * Scales at which a teach photo is searched for its die. A player shows a face close to the
 * camera, and the detector, trained on dice at play distance, then finds a part of the die (its
 * symbol, a side face) rather than the die; shrunk to half or a third, the whole die is found.
 * Chosen on single-die dicegen scenes (models/training/render_symbol_scenes.py --teach): the
 * largest die found at any of these scales is the whole die in 87% of them, against 28% at full
 * size (docs/symbol-dice.md).
 */
const TEACH_SCALES: readonly number[] = [1, 0.5, 0.3];

/**
 * The one die of a teach photo: searched at each of TEACH_SCALES, the largest die found alone
 * (`teachDie`) wins. Throws a TeachError when no scale shows exactly one die: `several-dice`
 * when some scale saw several, else `no-die`.
 */
export async function findTeachDie(detector: Detector, image: RgbaImage, scales: readonly number[] = TEACH_SCALES): Promise<Die> {
  const options = symbolDetectOptions(detector.config);
  // the detector's boxes only (see readFaces)
  const first = firstPass(detector);
  let best: Die | null = null;
  let refusal: TeachError | null = null;
  for (const scale of scales) {
    const view = scale === 1 ? { frame: image, toImage: (b: Box) => b } : shrinkInFrame(image, scale, detector.config.padValue);
    const { dice } = await first.detect(view.frame, options);
    try {
      const die = teachDie(dice);
      const box = view.toImage(die.box);
      if (!best || box.w * box.h > best.box.w * best.box.h) best = { ...die, box };
    } catch (e) {
      if (!(e instanceof TeachError)) throw e;
      if (!refusal || e.found > refusal.found) refusal = e;
    }
  }
  if (best) return best;
  throw refusal ?? new TeachError('no die found in this photo', 'no-die');
}

/**
 * How taught photos become prototypes (their four quarter turns, and where the crop lies in the
 * die's box); part of a stored embedding's model identity, so that embeddings made another way
 * are made again.
 */
export function taughtEmbeddingRecipe(config: FaceEmbedderConfig): string {
  const { centre, lift, side } = config.readingCrop;
  const trained = centre === TRAINED_CROP.centre && lift === TRAINED_CROP.lift && side === TRAINED_CROP.side;
  return trained ? 'quarter-turns' : `quarter-turns/crop:${centre},${lift},${side}`;
}

/**
 * Dice embedded at their four quarter turns, averaged and normalised: one batch for all of them.
 * A die lands any way round, so the mean stands for its face at every turn.
 */
export async function embedQuarterTurns(embedder: FaceEmbedder, image: RgbaImage, boxes: readonly Box[], cropMargin = embedder.config.cropMargin): Promise<Float32Array[]> {
  if (boxes.length === 0) return [];
  const k = embedder.config.inputSize;
  const per = 3 * k * k;
  const crops = new Float32Array(4 * boxes.length * per);
  boxes.forEach((box, i) => {
    const base = 4 * i * per;
    cropForEmbedder(image, box, k, cropMargin, crops, base, embedder.config.readingCrop);
    for (let t = 1; t < 4; t++) quarterTurnCrop(crops, base + (t - 1) * per, base + t * per, k);
  });
  const turns = await embedder.embedCrops(crops, 4 * boxes.length);
  return boxes.map((_, i) => {
    const mean = new Float32Array(turns[0]!.length);
    for (let t = 0; t < 4; t++) {
      const e = turns[4 * i + t]!;
      for (let j = 0; j < mean.length; j++) mean[j]! += e[j]!;
    }
    const norm = Math.hypot(...mean);
    for (let j = 0; j < mean.length; j++) mean[j]! /= norm || 1;
    return mean;
  });
}

/**
 * A taught photo's prototype: the die's crop at its four quarter turns (`embedQuarterTurns`), so
 * one photo stands for its face at every turn; on the embedder's held-out sets this reads 95.2%
 * of dice right against 94.9% for the photo as taken (centroid scoring both; models/record/symbol-dice.md).
 */
export async function embedTaughtFace(embedder: FaceEmbedder, image: RgbaImage, box: Box): Promise<Float32Array> {
  return (await embedQuarterTurns(embedder, image, [box]))[0]!;
}

/**
 * A third look's crops, about the sidecar's `cropMargin`: tighter, as trained, looser. On the
 * embedder's held-out sets a die still too close to call after the second look reads right 0.2
 * (mixed sets) and 0.4 (font sets) points more often for it (models/record/symbol-dice.md); a shifted box
 * (±5%, five crops) did as well on the mixed sets and a little worse on the font sets.
 */
export const THIRD_LOOK_MARGIN_STEPS: readonly number[] = [-0.15, 0, 0.15];

/** Dice embedded at their four quarter turns at each of THIRD_LOOK_MARGIN_STEPS, all averaged and normalised. */
export async function embedAtMargins(embedder: FaceEmbedder, image: RgbaImage, boxes: readonly Box[]): Promise<Float32Array[]> {
  if (boxes.length === 0) return [];
  const looks: Float32Array[][] = [];
  // one after another: an inference session runs one batch at a time
  for (const step of THIRD_LOOK_MARGIN_STEPS) looks.push(await embedQuarterTurns(embedder, image, boxes, embedder.config.cropMargin + step));
  return boxes.map((_, i) => {
    const mean = new Float32Array(looks[0]![i]!.length);
    for (const look of looks) look[i]!.forEach((v, j) => (mean[j]! += v));
    const norm = Math.hypot(...mean);
    return mean.map((v) => v / (norm || 1));
  });
}

/**
 * The embeddings dice are read by: each die as taken, and a second look, at its four quarter
 * turns, for a die whose two nearest faces are within `gap` (the sidecar's `secondLookGap`,
 * chosen on the embedder's held-out sets: the fewest second looks that read as well as looking
 * twice at every die). Dice clearly one face cost one embedding; close calls four more. A die
 * still too close to call by `rule` (near enough, but its lead under the ambiguity margin) gets
 * a third look (`embedAtMargins`, twelve more); `rule` null: no third look.
 */
export async function embedForReading(
  embedder: FaceEmbedder,
  prototypes: readonly FacePrototype[],
  image: RgbaImage,
  boxes: readonly Box[],
  gap: number = embedder.config.secondLookGap,
  rule: MatchRule | null = embedder.config,
): Promise<Float32Array[]> {
  const embeddings = await embedder.embed(image, boxes);
  if (gap > 0) {
    const closeCalls = embeddings.flatMap((e, i) => {
      const m = matchFace(prototypes, e, { threshold: -1, ambiguityMargin: 0 });
      return m.nearestFaceId !== null && m.similarity - m.runnerUpSimilarity < gap ? [i] : [];
    });
    const again = await embedQuarterTurns(embedder, image, closeCalls.map((i) => boxes[i]!));
    closeCalls.forEach((i, j) => (embeddings[i] = again[j]!));
  }
  if (!rule) return embeddings;
  const tooClose = embeddings.flatMap((e, i) => {
    const m = matchFace(prototypes, e, rule);
    return m.nearestFaceId !== null && m.similarity >= rule.threshold && m.similarity - m.runnerUpSimilarity < rule.ambiguityMargin ? [i] : [];
  });
  const third = await embedAtMargins(embedder, image, tooClose.map((i) => boxes[i]!));
  tooClose.forEach((i, j) => (embeddings[i] = third[j]!));
  return embeddings;
}

/** Embeds one teach photo of `faceId`: finds its die (`findTeachDie`) and returns the prototype and where the die was. */
export async function teachExample(detector: Detector, embedder: FaceEmbedder, image: RgbaImage, faceId: string): Promise<{ prototype: FacePrototype; box: Box }> {
  const die = await findTeachDie(detector, image);
  const embedding = await embedTaughtFace(embedder, image, die.box);
  return { prototype: { faceId, source: 'example', embedding }, box: die.box };
}

/** What the teach screen shows for one face. */
export interface FaceSeparation {
  faceId: string;
  examples: number;
  /** Taught photos of this face read right from the others (leave one out), 0–1; null with fewer than 2 photos. */
  separated: number | null;
  /** The other face its photos come closest to, and how close (cosine similarity). */
  closestFaceId: string | null;
  closestSimilarity: number | null;
  status: 'missing' | 'needs-more' | 'confusable' | 'good';
}

export interface KitSeparation {
  faces: FaceSeparation[];
  /** Share of all taught photos that read right from the rest (leave one out), 0–1; null before any. */
  score: number | null;
  /** Every face has enough photos and none is confused with another. */
  ready: boolean;
  /** The two faces most alike, for "these two look alike: show them again in better light". */
  closestPair: { faceIds: [string, string]; similarity: number } | null;
}

export const MIN_TEACH_EXAMPLES = 3;

/**
 * How well the kit separates its faces now: every taught photo is read against all the other
 * prototypes (itself left out) with the reader's own rule. A face is `good` once it has
 * MIN_TEACH_EXAMPLES photos that all read right.
 */
export function kitSeparation(kit: DiceKit, prototypes: readonly FacePrototype[], rule: MatchRule, minExamples = MIN_TEACH_EXAMPLES): KitSeparation {
  const used = selectPrototypes(kit, prototypes);
  const examples = prototypes.filter((p) => p.source === 'example');
  let right = 0;
  let closestPair: KitSeparation['closestPair'] = null;
  const faces = kit.faces.map((face: DieFace): FaceSeparation => {
    const own = examples.filter((p) => p.faceId === face.id);
    let ok = 0;
    let closestFaceId: string | null = null;
    let closestSimilarity: number | null = null;
    for (const p of own) {
      const m = matchFace(used, p.embedding, rule, p);
      if (m.faceId === face.id) ok++;
      for (const [other, s] of faceSimilarities(used.filter((q) => q.faceId !== face.id), p.embedding)) {
        if (closestSimilarity === null || s > closestSimilarity) {
          closestSimilarity = s;
          closestFaceId = other;
        }
      }
    }
    right += ok;
    if (closestFaceId !== null && closestSimilarity !== null && (closestPair === null || closestSimilarity > closestPair.similarity)) {
      closestPair = { faceIds: [face.id, closestFaceId], similarity: closestSimilarity };
    }
    const separated = own.length >= 2 ? ok / own.length : null;
    const status: FaceSeparation['status'] =
      own.length === 0 ? 'missing' : separated !== null && separated < 1 ? 'confusable' : own.length < minExamples ? 'needs-more' : 'good';
    return { faceId: face.id, examples: own.length, separated, closestFaceId, closestSimilarity, status };
  });
  return {
    faces,
    score: examples.length ? right / examples.length : null,
    ready: faces.every((f) => f.status === 'good'),
    closestPair,
  };
}

/** One die read with a kit. */
export interface FaceDie {
  /** Where the face was read: the detector's box, or grown to the frame's dice (`growSmallBoxes`). */
  box: Box;
  /** The detector's score for the die (objectness × best class probability). */
  score: number;
  face: DieFace | null;
  match: FaceMatch;
  /** The vector the die was read by (`embedForReading`): what the kit learns if the roll is confirmed as read; null for pips. */
  embedding: Float32Array | null;
  /** The detector's die, as found. */
  die: Die;
}

/**
 * The symbol dice of a frame: read at each of the symbol rule's `inputSizes`; with several
 * sizes the reads are pooled (decode.ts `fuseReads`, the rule's `fusion`) and boxes lying inside
 * better ones dropped. When the caller knows that at least `expected` dice lie in view and the
 * rule has a `recount`, each read goes down to the recount's threshold (its boxes above the read
 * threshold are the same: NMS and containment judge a box by better boxes only) and dice missed
 * are looked for among the rest (`findMissedSymbolDice`). Times add up over the reads.
 */
export async function detectSymbolDice(detector: Detector, image: RgbaImage, expected?: number): Promise<Detection> {
  // The detector's boxes only: the pip reader's second pass would call a symbol die `other`
  // at best and drop it as `none` at worst, and the face embedder reads it anyway.
  const first = firstPass(detector);
  const options = symbolDetectOptions(detector.config);
  const rule = detector.config.symbolDice;
  const sizes = rule?.inputSizes ?? [detector.config.inputSize];
  const keep = rule?.fusion?.readThreshold ?? rule?.scoreThreshold ?? detector.config.scoreThreshold;
  const recount = expected !== undefined ? (rule?.recount ?? null) : null;
  const reads: Detection[] = [];
  for (const inputSize of sizes) {
    reads.push(await first.detect(image, { ...options, inputSize, scoreThreshold: Math.min(keep, recount?.scoreThreshold ?? 1) }));
  }
  const kept = reads.map((r) => r.dice.filter((d) => d.score >= keep));
  const found = rule?.fusion ? dropContained(fuseReads(kept, rule.fusion), rule.containment) : kept[0]!;
  const missed = rule && recount && expected !== undefined && found.length < expected ? findMissedSymbolDice(reads.map((r) => r.dice), found, rule, recount, expected) : [];
  const sum = (key: keyof ReadTiming): number => reads.reduce((a, r) => a + (r.timing[key] ?? 0), 0);
  return { dice: [...found, ...missed], timing: { preprocessMs: sum('preprocessMs'), inferenceMs: sum('inferenceMs'), postprocessMs: sum('postprocessMs') } };
}

/** A candidate this close to a die found is that die again (its top face, a side face, a shifted box). */
const SAME_SYMBOL_DIE_IOU = 0.3;

/**
 * Symbol dice missed, when at least `expected` lie in view and fewer were `found`: the `reads`'
 * boxes down to `recount.scoreThreshold`, pooled as `fuseReads` pools them but with one read
 * enough, those overlapping no die found (IoU ≤ 0.3, and neither inside the other more than the
 * rule's containment), the `recount.maxCandidates` best; they fill the count best first, a box
 * overlapping one already added being that die again. The face embedder then reads them as it
 * reads every die (an unknown face stays unknown).
 *
 * Why: a game knows how many dice were thrown; a die found by one read alone, or weakly, is most
 * often a real die when the count says one is missing (models/record/symbol-dice.md).
 */
export function findMissedSymbolDice(
  reads: readonly (readonly Die[])[],
  found: readonly Die[],
  rule: Pick<SymbolDiceRule, 'containment' | 'fusion'>,
  recount: SymbolRecount,
  expected: number,
): Die[] {
  const clearOf = (c: Die, dice: readonly Die[]): boolean =>
    dice.every((f) => iou(f.box, c.box) <= SAME_SYMBOL_DIE_IOU && insideShare(f.box, c.box) <= rule.containment && insideShare(c.box, f.box) <= rule.containment);
  const weak = reads.map((r) => r.filter((d) => d.score >= recount.scoreThreshold));
  const pooled = rule.fusion ? fuseReads(weak, { ...rule.fusion, votes: 1 }) : [...weak[0]!].sort((a, b) => b.score - a.score);
  const candidates = pooled.filter((c) => clearOf(c, found)).slice(0, recount.maxCandidates);
  const added: Die[] = [];
  for (const c of candidates) {
    if (found.length + added.length >= expected) break;
    if (clearOf(c, added)) added.push(c);
  }
  return added;
}

/**
 * A box this much smaller (side, √area) than the median die of its frame is a die's picture or
 * top face found alone: chosen on the dicegen kit-art scenes (models/record/symbol-dice.md), among 0.6,
 * 0.7 and 0.8.
 */
const SMALL_BOX_RATIO = 0.7;

/**
 * The boxes to read the faces from: with three dice or more in the frame, a box whose side is
 * under `ratio` × the median side is read as a square of the median side, centred where it was;
 * the others as they are.
 *
 * Why: the detector sometimes boxes a symbol die's picture or top face alone, and the face
 * embedder, taught crops of whole dice, refuses or misreads that crop. The dice of one roll are
 * one kit, about one size in the frame.
 */
export function growSmallBoxes(boxes: readonly Box[], ratio = SMALL_BOX_RATIO): Box[] {
  if (boxes.length < 3) return [...boxes];
  const side = (b: Box): number => Math.sqrt(b.w * b.h);
  // The upper middle side, one die's own (not settle.ts `median`, which averages the middle two
  // of an even count): with a fragment among the boxes it leans to the whole dice. The mean read
  // the kits at the table worse (models/record/symbol-dice.md).
  const sides = boxes.map(side).sort((a, b) => a - b);
  const median = sides[sides.length >> 1]!;
  return boxes.map((b) =>
    side(b) >= ratio * median ? b : { x: b.x + b.w / 2 - median / 2, y: b.y + b.h / 2 - median / 2, w: median, h: median },
  );
}

/**
 * Finds the dice (any kind: the detector's class is ignored, `detectSymbolDice`; `expected`: how
 * many lie in view, when the caller knows) and reads each face by its prototypes; a box much
 * smaller than the frame's other dice is read at their size (`growSmallBoxes`).
 */
export async function readFaces(
  detector: Detector,
  embedder: FaceEmbedder,
  kit: DiceKit,
  prototypes: readonly FacePrototype[],
  image: RgbaImage,
  rule: MatchRule = embedder.config,
  expected?: number,
): Promise<{ dice: FaceDie[]; detectMs: number; embedMs: number; detection: ReadTiming }> {
  const t0 = performance.now();
  const { dice, timing } = await detectSymbolDice(detector, image, expected);
  const t1 = performance.now();
  const used = selectPrototypes(kit, prototypes);
  const boxes = growSmallBoxes(dice.map((d) => d.box));
  const embeddings = await embedForReading(embedder, used, image, boxes, embedder.config.secondLookGap, rule);
  const t2 = performance.now();
  const out = dice.map((d, i): FaceDie => {
    const match = matchFace(used, embeddings[i]!, rule);
    return { box: boxes[i]!, score: d.score, face: kit.faces.find((f) => f.id === match.faceId) ?? null, match, embedding: embeddings[i]!, die: d };
  });
  return { dice: out, detectMs: t1 - t0, embedMs: t2 - t1, detection: timing };
}
