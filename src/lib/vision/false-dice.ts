/**
 * The false-dice filter: after the die-face reader, a die is judged by the dice read around it.
 * A box put half a die off a die already read, or between two touching dice, reads as a die to
 * the reader (its 48 px crop shows pips) but sits where no die of its size can: over another
 * die, or at a neighbour's half-width. A logistic model over a few numbers that say so — the
 * die's own score and read, and where it lies against the other dice read in the frame — gives
 * each die a probability of being a die, and a die below the sidecar's `minProbability` is
 * dropped. Learnt on unseen renders and the train photos, never on val (models/record/standard-dice.md,
 * models/training/false_dice.py).
 */
import { insideShare, iou } from './decode.ts';
import type { Box } from './types.ts';

/** One die read, as the filter sees it. */
export interface ReadDie {
  box: Box;
  /** 1–6, or null for a die read `other`. */
  value: number | null;
  /** The detector's score (as the first pass scores). */
  score: number;
  /** The die-face reader's probability of its read. */
  probability: number;
}

export interface FalseDiceModel {
  /** Names the feature list below; a sidecar for another list is refused. */
  features: typeof FALSE_DICE_FEATURES;
  /** Per feature: subtracted, then divided by `scale`, before the weights. */
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
  /** A die whose probability of being a die is below this is dropped. */
  minProbability: number;
}

export const FALSE_DICE_FEATURES = 'context-v1';
export const FALSE_DICE_FEATURE_COUNT = 24;

const median = (values: readonly number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const centre = (b: Box): [number, number] => [b.x + b.w / 2, b.y + b.h / 2];
const side = (b: Box): number => Math.sqrt(b.w * b.h);
const logit = (p: number): number => Math.log(p / (1 - p + 1e-6) + 1e-6);

/**
 * The filter's numbers for each die of one frame's read, in order (`FALSE_DICE_FEATURES`; the
 * same list as false_dice.py `features`). `weakBelow`: the first pass's threshold, under which a
 * die was kept by the weak-dice rule.
 */
export function falseDiceFeatures(dice: readonly ReadDie[], weakBelow: number): number[][] {
  if (dice.length === 0) return [];
  const sides = dice.map((d) => side(d.box));
  const aspects = dice.map((d) => d.box.h / d.box.w);
  const medianSide = median(sides);
  const medianAspect = median(aspects);
  return dice.map((d, i) => {
    const f = [
      d.score,
      logit(d.score),
      d.probability,
      d.score < weakBelow ? 1 : 0,
      Math.log(sides[i]! / medianSide),
      Math.log(aspects[i]! / medianAspect),
      dice.length / 10,
      d.value === null ? 1 : 0,
    ];
    let best = -1;
    let bestKey = 0;
    let maxIou = 0;
    let maxInside = 0;
    let maxContains = 0;
    let covered = 0;
    let overlapping = 0;
    let nearest = 9;
    const [cx, cy] = centre(d.box);
    dice.forEach((o, j) => {
      if (j === i) return;
      const overlap = iou(d.box, o.box);
      const inside = insideShare(o.box, d.box);
      const contains = insideShare(d.box, o.box);
      maxIou = Math.max(maxIou, overlap);
      maxInside = Math.max(maxInside, inside);
      maxContains = Math.max(maxContains, contains);
      covered += inside;
      if (inside > 0) overlapping++;
      const [ox, oy] = centre(o.box);
      nearest = Math.min(nearest, Math.hypot(cx - ox, cy - oy) / sides[i]!);
      if (overlap + inside + contains > bestKey) {
        bestKey = overlap + inside + contains;
        best = j;
      }
    });
    f.push(maxIou, maxInside, maxContains, Math.min(covered, 2), overlapping / 4, Math.min(nearest, 9) / 3);
    const o = dice[best];
    if (o) {
      const [ox, oy] = centre(o.box);
      f.push(
        (cx - ox) / o.box.w,
        (cy - oy) / o.box.h,
        Math.abs(cx - ox) / o.box.w,
        Math.abs(cy - oy) / o.box.h,
        Math.log(sides[i]! / sides[best]!),
        d.value === o.value ? 1 : 0,
        o.score,
        o.probability,
        o.score > d.score ? 1 : 0,
        1,
      );
    } else {
      f.push(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }
    return f;
  });
}

/** Each die's probability of being a die (`model` over `falseDiceFeatures`). */
export function dieProbabilities(dice: readonly ReadDie[], weakBelow: number, model: FalseDiceModel): number[] {
  return falseDiceFeatures(dice, weakBelow).map((f) => {
    let z = model.bias;
    f.forEach((v, k) => (z += model.weights[k]! * ((v - model.mean[k]!) / model.scale[k]!)));
    return 1 / (1 + Math.exp(-z));
  });
}

/**
 * The indices of the dice the filter keeps, in order: those below `minProbability` are dropped,
 * least likely first, while more than `atLeast` remain.
 */
export function keptDice(dice: readonly ReadDie[], weakBelow: number, model: FalseDiceModel, atLeast = 0): number[] {
  const p = dieProbabilities(dice, weakBelow, model);
  const unlikely = p.flatMap((v, i) => (v < model.minProbability ? [i] : [])).sort((a, b) => p[a]! - p[b]!);
  const dropped = new Set(unlikely.slice(0, Math.max(0, dice.length - atLeast)));
  return p.flatMap((_, i) => (dropped.has(i) ? [] : [i]));
}
