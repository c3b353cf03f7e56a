/**
 * Reading symbol dice by their faces: each die the detector finds is embedded, and takes the
 * face of the nearest prototype (cosine similarity), or unknown (null) when no face is near
 * enough or two faces are too close to call. Prototypes come from the kit's art rendered on
 * dice and from photos a player taught ("teach mode"); `kitSeparation` tells the teach screen
 * how well the faces taught so far stand apart.
 */
import type { DiceKit, DieFace } from '../dice/kit.ts';
import type { Detector } from './detector.ts';
import { renderArtOnDice, type ArtView, DEFAULT_ART_VIEWS } from './face-art.ts';
import type { FaceEmbedder, FaceEmbedderConfig } from './face-embedder.ts';
import type { Box, Die, RgbaImage } from './types.ts';

export type PrototypeSource = 'art' | 'example';

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

export class TeachError extends Error {
  override name = 'TeachError';
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/**
 * The prototypes a kit reads with. Taught photos show the player's own dice, so once every
 * face has at least one, the art (which may look nothing like those dice) is left out; until
 * then art and photos are used together.
 */
export function selectPrototypes(kit: DiceKit, prototypes: readonly FacePrototype[]): FacePrototype[] {
  const known = new Set(kit.faces.map((f) => f.id));
  const usable = prototypes.filter((p) => known.has(p.faceId));
  const taughtEveryFace = kit.faces.every((f) => usable.some((p) => p.faceId === f.id && p.source === 'example'));
  return taughtEveryFace ? usable.filter((p) => p.source === 'example') : usable;
}

/** Each face's best similarity to `embedding` (faces without prototypes are absent). */
export function faceSimilarities(prototypes: readonly FacePrototype[], embedding: Float32Array, skip?: FacePrototype): Map<string, number> {
  const best = new Map<string, number>();
  for (const p of prototypes) {
    if (p === skip) continue;
    const s = cosine(p.embedding, embedding);
    if (s > (best.get(p.faceId) ?? -Infinity)) best.set(p.faceId, s);
  }
  return best;
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
  if (dice.length === 0) throw new TeachError('no die found in this photo: put one die in the middle of the view, face up, and try again');
  if (dice.length === 1) return dice[0]!;
  const area = (b: Box): number => b.w * b.h;
  const sorted = [...dice].sort((a, b) => b.score * area(b.box) - a.score * area(a.box));
  const [top, next] = sorted;
  // Another die of similar size and confidence: we cannot know which one the player meant.
  if (next!.score * area(next!.box) > 0.5 * top!.score * area(top!.box)) {
    throw new TeachError(`${dice.length} dice found in this photo: show one die at a time`);
  }
  return top!;
}

/** Embeds one teach photo of `faceId`: finds its die and returns the prototype and where the die was. */
export async function teachExample(detector: Detector, embedder: FaceEmbedder, image: RgbaImage, faceId: string): Promise<{ prototype: FacePrototype; box: Box }> {
  const { dice } = await detector.detect(image);
  const die = teachDie(dice);
  const [embedding] = await embedder.embed(image, [die.box]);
  return { prototype: { faceId, source: 'example', embedding: embedding! }, box: die.box };
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
  box: Box;
  /** The detector's score for the die (objectness × best class probability). */
  score: number;
  face: DieFace | null;
  match: FaceMatch;
}

/** Finds the dice (any kind: the detector's class is ignored) and reads each face by its prototypes. */
export async function readFaces(
  detector: Detector,
  embedder: FaceEmbedder,
  kit: DiceKit,
  prototypes: readonly FacePrototype[],
  image: RgbaImage,
  rule: MatchRule = embedder.config,
): Promise<{ dice: FaceDie[]; detectMs: number; embedMs: number }> {
  const t0 = performance.now();
  const { dice } = await detector.detect(image);
  const t1 = performance.now();
  const embeddings = await embedder.embed(image, dice.map((d) => d.box));
  const t2 = performance.now();
  const used = selectPrototypes(kit, prototypes);
  const out = dice.map((d, i): FaceDie => {
    const match = matchFace(used, embeddings[i]!, rule);
    return { box: d.box, score: d.score, face: kit.faces.find((f) => f.id === match.faceId) ?? null, match };
  });
  return { dice: out, detectMs: t1 - t0, embedMs: t2 - t1 };
}
