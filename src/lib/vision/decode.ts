/**
 * Post-processing: detector rows → dice. Each row is `cx, cy, w, h` (input pixels),
 * objectness, then one probability per class (docs/architecture.md). A die's score is
 * objectness × its best class probability; NMS is class-agnostic (one die, one box).
 */
import { classValue, type DetectorConfig } from './config.ts';
import { inputBoxToSource, type LetterboxGeometry } from './letterbox.ts';
import type { Box, Die } from './types.ts';

/** Intersection over union of two boxes (0 when either is empty). */
export function iou(a: Box, b: Box): number {
  const ix = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const iy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  if (ix <= 0 || iy <= 0) return 0;
  const inter = ix * iy;
  const union = a.w * a.h + b.w * b.h - inter;
  return union > 0 ? inter / union : 0;
}

/**
 * Greedy non-maximum suppression over all classes: best score first, dropping any box whose
 * IoU with a kept one exceeds `iouThreshold`. Returns at most `maxKept` items, best first.
 * Ties in score keep input order, so results are deterministic.
 */
export function nms<T extends { box: Box; score: number }>(items: readonly T[], iouThreshold: number, maxKept = Infinity): T[] {
  const order = items.map((_, i) => i).sort((a, b) => items[b]!.score - items[a]!.score || a - b);
  const kept: T[] = [];
  for (const i of order) {
    if (kept.length >= maxKept) break;
    const candidate = items[i]!;
    if (kept.every((k) => iou(k.box, candidate.box) <= iouThreshold)) kept.push(candidate);
  }
  return kept;
}

/** Share of `inner`'s area that lies inside `outer` (0 when `inner` is empty). */
export function insideShare(outer: Box, inner: Box): number {
  const ix = Math.min(outer.x + outer.w, inner.x + inner.w) - Math.max(outer.x, inner.x);
  const iy = Math.min(outer.y + outer.h, inner.y + inner.h) - Math.max(outer.y, inner.y);
  const area = inner.w * inner.h;
  return ix <= 0 || iy <= 0 || area <= 0 ? 0 : (ix * iy) / area;
}

/**
 * Drops every box that lies more than `maxShare` inside a better box kept before it (`items`
 * best first, as `nms` returns them): the side face or the symbol of a die already found.
 */
export function dropContained<T extends { box: Box }>(items: readonly T[], maxShare: number): T[] {
  const kept: T[] = [];
  for (const item of items) if (kept.every((k) => insideShare(k.box, item.box) <= maxShare)) kept.push(item);
  return kept;
}

/**
 * Pools several reads of one frame (the same frame at several input sizes) into one set of
 * dice. Boxes are taken best first; each joins the die, not yet found by its read, whose best
 * box it overlaps most with IoU above `sameDieIoU`, else starts a die of its own. A die is kept
 * when at least `votes` reads found it: its box is the score-weighted mean of their boxes, its
 * score the sum of their scores over the number of reads (a read that missed it counts 0), and
 * its other fields those of its best box. Returned best first.
 *
 * Why: a die is found whole at one size and as its top face at another, or weakly at the size
 * that suits it; the sizes agree on real dice and disagree on shadows and side faces.
 */
export function fuseReads<T extends { box: Box; score: number }>(reads: readonly (readonly T[])[], rule: { sameDieIoU: number; votes: number }): T[] {
  const pool = reads.flatMap((dice, read) => dice.map((item) => ({ item, read })));
  pool.sort((a, b) => b.item.score - a.item.score || a.read - b.read);
  const groups: Array<{ members: T[]; reads: Set<number> }> = [];
  for (const { item, read } of pool) {
    let home: (typeof groups)[number] | null = null;
    let overlap = rule.sameDieIoU;
    for (const g of groups) {
      const o = iou(g.members[0]!.box, item.box);
      if (!g.reads.has(read) && o > overlap) [home, overlap] = [g, o];
    }
    if (home) {
      home.members.push(item);
      home.reads.add(read);
    } else groups.push({ members: [item], reads: new Set([read]) });
  }
  const fused = groups
    .filter((g) => g.reads.size >= rule.votes)
    .map((g) => {
      const weight = g.members.reduce((a, m) => a + m.score, 0);
      const mean = (key: keyof Box): number => g.members.reduce((a, m) => a + m.box[key] * m.score, 0) / weight;
      return { ...g.members[0]!, box: { x: mean('x'), y: mean('y'), w: mean('w'), h: mean('h') }, score: weight / reads.length };
    });
  return fused.sort((a, b) => b.score - a.score);
}

export interface DecodeOptions {
  /** Overrides the sidecar's score threshold. */
  scoreThreshold?: number;
  /**
   * `class` (default): objectness × best class probability. `objectness`: the class is
   * ignored (symbol dice, read by the face embedder).
   */
  score?: 'class' | 'objectness';
  /** Drop boxes lying more than this share inside a better one (`dropContained`); default: keep all. */
  containment?: number;
}

/** `box` scaled about its centre by `factor`. */
function scaledBox(box: Box, factor: number): Box {
  const w = box.w * factor;
  const h = box.h * factor;
  return { x: box.x + (box.w - w) / 2, y: box.y + (box.h - h) / 2, w, h };
}

/** `box` cut to the source frame (it keeps at least its centre, which lies inside). */
function clippedBox(box: Box, frame: { width: number; height: number }): Box {
  const x = Math.max(0, box.x);
  const y = Math.max(0, box.y);
  return { x, y, w: Math.min(frame.width, box.x + box.w) - x, h: Math.min(frame.height, box.y + box.h) - y };
}

/**
 * Decodes the raw output `[1, N, 5 + C]` into dice in source pixels: score filter, box mapping
 * through the letterbox, class-agnostic NMS (and containment when asked), then each box grown
 * back to the whole die when the net was taught smaller ones (`config.boxScale`). `dims` are the
 * output tensor's dims.
 */
export function decodeDetections(
  output: Float32Array,
  dims: readonly number[],
  config: DetectorConfig,
  geometry: LetterboxGeometry,
  options: DecodeOptions | number = {},
): Die[] {
  const { scoreThreshold = config.scoreThreshold, score: scoring = 'class', containment } = typeof options === 'number' ? { scoreThreshold: options } : options;
  const classCount = config.classes.length;
  const stride = 5 + classCount;
  if (dims.length !== 3 || dims[0] !== 1 || dims[2] !== stride) {
    throw new Error(`detector output: expected dims [1, N, ${stride}] for ${classCount} classes, got [${dims.join(', ')}]`);
  }
  const rows = dims[1]!;
  if (output.length !== rows * stride) {
    throw new Error(`detector output: ${output.length} values do not fill [1, ${rows}, ${stride}]`);
  }
  const candidates: Die[] = [];
  for (let r = 0; r < rows; r++) {
    const o = r * stride;
    const objectness = output[o + 4]!;
    if (objectness < scoreThreshold) continue; // score ≤ objectness: cheap early reject
    let best = 0;
    let bestP = output[o + 5]!;
    for (let c = 1; c < classCount; c++) {
      const p = output[o + 5 + c]!;
      if (p > bestP) {
        bestP = p;
        best = c;
      }
    }
    const score = scoring === 'objectness' ? objectness : objectness * bestP;
    if (score < scoreThreshold) continue;
    const box = inputBoxToSource(output[o]!, output[o + 1]!, output[o + 2]!, output[o + 3]!, geometry);
    if (!box) continue;
    candidates.push({ value: classValue(config.classes[best]!), box, score, classIndex: best });
  }
  const nmsKept = nms(candidates, config.iouThreshold, config.maxDetections);
  const kept = containment === undefined ? nmsKept : dropContained(nmsKept, containment);
  return config.boxScale === 1 ? kept : kept.map((die) => ({ ...die, box: clippedBox(scaledBox(die.box, 1 / config.boxScale), geometry) }));
}
