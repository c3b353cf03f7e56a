/**
 * Measuring the reader against labelled photographs (../shared/data/README.md):
 * the matching rule, per-die precision / recall / F1, detection recall, exact-roll accuracy,
 * the confusion matrix and latency percentiles. Pure functions, shared by `npm run eval`
 * and the tests that pin them.
 */
import { iou } from './decode.ts';
import type { Box } from './types.ts';

/**
 * What a die reads as: its value 1–6 for standard dice, its face id for a kit's dice
 * (`npm run eval -- --kit`). Keys compare by their string form.
 */
export type DieKey = number | string;

export interface TruthDie {
  box: Box;
  value: DieKey;
}

export interface PredictedDie {
  box: Box;
  /** null: not read (the `other` class, or an unknown symbol face). */
  value: DieKey | null;
  /** Read unsurely: the table asks for this die rather than propose `value` (die-face-reader.ts `markUnsure`). */
  unsure?: true;
}

/** The dice read unsurely (asked for at the table), by what lay there: the value read right, misread, or no die (centre rule). */
export interface UnsureCounts {
  dice: number;
  right: number;
  misread: number;
  noDie: number;
}

/** A matched pair: indices into the truth and prediction lists. */
export interface Match {
  truth: number;
  prediction: number;
}

const centre = (b: Box): [number, number] => [b.x + b.w / 2, b.y + b.h / 2];

function containsPoint(b: Box, x: number, y: number): boolean {
  return x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h;
}

/** True when `inner`'s centre lies inside `outer`. */
export function centreInside(outer: Box, inner: Box): boolean {
  return containsPoint(outer, ...centre(inner));
}

/** One-to-one greedy matching over candidate pairs, best `rank` first (ties: truth, then prediction order). */
function greedy(pairs: Array<Match & { rank: number }>): Match[] {
  pairs.sort((a, b) => a.rank - b.rank || a.truth - b.truth || a.prediction - b.prediction);
  const usedT = new Set<number>();
  const usedP = new Set<number>();
  const matches: Match[] = [];
  for (const p of pairs) {
    if (usedT.has(p.truth) || usedP.has(p.prediction)) continue;
    usedT.add(p.truth);
    usedP.add(p.prediction);
    matches.push({ truth: p.truth, prediction: p.prediction });
  }
  return matches;
}

/**
 * The data README's rule: a prediction matches a labelled die when the labelled box's centre
 * lies inside the predicted box; pairs are taken one-to-one, nearest centres first.
 * Works for both box styles (a pip-pattern box's centre is the face's centre too).
 */
export function matchByCentre(truth: readonly { box: Box }[], predictions: readonly { box: Box }[]): Match[] {
  const pairs: Array<Match & { rank: number }> = [];
  truth.forEach((t, ti) => {
    const [tx, ty] = centre(t.box);
    predictions.forEach((p, pi) => {
      if (!containsPoint(p.box, tx, ty)) return;
      const [px, py] = centre(p.box);
      pairs.push({ truth: ti, prediction: pi, rank: Math.hypot(px - tx, py - ty) });
    });
  });
  return greedy(pairs);
}

/**
 * Stricter rule for `whole-die` sets: the same rule (centre inside, nearest first, one-to-one)
 * over the pairs whose boxes also overlap with IoU ≥ threshold — as models/training/evaluate.py
 * measures it, so the Python and TypeScript figures compare.
 */
export function matchByIoU(truth: readonly { box: Box }[], predictions: readonly { box: Box }[], threshold = 0.5): Match[] {
  const pairs: Array<Match & { rank: number }> = [];
  truth.forEach((t, ti) => {
    const [tx, ty] = centre(t.box);
    predictions.forEach((p, pi) => {
      if (!containsPoint(p.box, tx, ty) || iou(t.box, p.box) < threshold) return;
      const [px, py] = centre(p.box);
      pairs.push({ truth: ti, prediction: pi, rank: Math.hypot(px - tx, py - ty) });
    });
  });
  return greedy(pairs);
}

/** Counts for precision / recall / F1 under one matching rule. */
export interface DieCounts {
  truth: number;
  predicted: number;
  /** Matched pairs (any value): detection. */
  matched: number;
  /** Matched pairs with the right value: a die read right. */
  correct: number;
}

export interface PrfScores {
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

/**
 * Per-die precision (correct / predicted), recall (correct / truth) and F1, null where undefined.
 * F1 is 2·correct / (predicted + truth), their harmonic mean where both are defined, and 0 where
 * one is not but there was something to get right: no die read of the dice shown is an F1 of 0,
 * not "n/a".
 */
export function prf(c: DieCounts): PrfScores {
  return { precision: ratio(c.correct, c.predicted), recall: ratio(c.correct, c.truth), f1: ratio(2 * c.correct, c.predicted + c.truth) };
}

/** The standard dice's classes: top-face values 1–6. */
const STANDARD_CLASSES = ['1', '2', '3', '4', '5', '6'] as const;

/** The multiset of values (or faces) read equals the truth's (an unread die never equals one). */
export function exactRoll(truth: readonly TruthDie[], predictions: readonly PredictedDie[]): boolean {
  if (truth.length !== predictions.length) return false;
  const a = truth.map((t) => String(t.value)).sort();
  const b = predictions.map((p) => (p.value === null ? null : String(p.value))).sort();
  return a.every((v, i) => v === b[i]);
}

/** Running totals over many images; `add` one image at a time, then `summarise`. */
export class EvalAccumulator {
  images = 0;
  exactRolls = 0;
  /** Images measured with the IoU rule (whole-die sets). */
  iouImages = 0;
  centre: DieCounts = { truth: 0, predicted: 0, matched: 0, correct: 0 };
  iou: DieCounts = { truth: 0, predicted: 0, matched: 0, correct: 0 };
  /** confusion[row][column]: rows are the classes then `spurious`, columns the classes, the unread column and `missed` (centre rule). */
  confusion: number[][];
  latenciesMs: number[] = [];
  unsure: UnsureCounts = { dice: 0, right: 0, misread: 0, noDie: 0 };
  readonly rows: string[];
  readonly columns: string[];

  /**
   * `withIoU`: also measure with the IoU ≥ 0.5 rule (for `whole-die` box sets).
   * `classes`: what a die can read as (values 1–6, or a kit's face ids); `unreadColumn` names
   * the column of dice found but not read (`other` for pips, `unknown` for symbol faces).
   */
  constructor(
    readonly withIoU: boolean,
    readonly classes: readonly string[] = STANDARD_CLASSES,
    readonly unreadColumn = 'other',
  ) {
    this.rows = [...classes, 'spurious'];
    this.columns = [...classes, unreadColumn, 'missed'];
    this.confusion = this.rows.map(() => this.columns.map(() => 0));
  }

  private column(value: DieKey | null): number {
    if (value === null) return this.classes.length;
    const i = this.classes.indexOf(String(value));
    if (i < 0) throw new RangeError(`read ${JSON.stringify(value)}, which is not one of ${this.classes.join(', ')}`);
    return i;
  }

  add(truth: readonly TruthDie[], predictions: readonly PredictedDie[], latencyMs?: number): void {
    for (const t of truth) {
      if (!this.classes.includes(String(t.value))) {
        throw new RangeError(this.classes === STANDARD_CLASSES ? `truth value must be 1–6, got ${t.value}` : `truth ${JSON.stringify(t.value)} is not one of ${this.classes.join(', ')}`);
      }
    }
    this.images++;
    if (exactRoll(truth, predictions)) this.exactRolls++;
    if (latencyMs !== undefined) this.latenciesMs.push(latencyMs);

    const byCentre = matchByCentre(truth, predictions);
    count(this.centre, truth, predictions, byCentre);
    const matchedPredictions = new Set(byCentre.map((m) => m.prediction));
    const predictionOf = new Map(byCentre.map((m) => [m.truth, m.prediction]));
    const missed = this.classes.length + 1;
    const spurious = this.classes.length;
    truth.forEach((t, ti) => {
      const pi = predictionOf.get(ti);
      this.confusion[this.classes.indexOf(String(t.value))]![pi === undefined ? missed : this.column(predictions[pi]!.value)]!++;
    });
    predictions.forEach((p, pi) => {
      if (!matchedPredictions.has(pi)) this.confusion[spurious]![this.column(p.value)]!++;
    });
    const truthOf = new Map(byCentre.map((m) => [m.prediction, m.truth]));
    predictions.forEach((p, pi) => {
      if (!p.unsure) return;
      const ti = truthOf.get(pi);
      this.unsure.dice++;
      if (ti === undefined) this.unsure.noDie++;
      else if (String(truth[ti]!.value) === String(p.value)) this.unsure.right++;
      else this.unsure.misread++;
    });

    if (this.withIoU) {
      this.iouImages++;
      count(this.iou, truth, predictions, matchByIoU(truth, predictions, 0.5));
    }
  }

  /** Pools another accumulator's totals into this one (per-dataset → overall). */
  merge(other: EvalAccumulator): void {
    if (other.classes.join('\n') !== this.classes.join('\n')) throw new RangeError('cannot pool results read with different classes');
    this.images += other.images;
    this.exactRolls += other.exactRolls;
    this.iouImages += other.iouImages;
    for (const k of ['truth', 'predicted', 'matched', 'correct'] as const) {
      this.centre[k] += other.centre[k];
      this.iou[k] += other.iou[k];
    }
    other.confusion.forEach((row, r) => row.forEach((v, c) => (this.confusion[r]![c]! += v)));
    this.latenciesMs.push(...other.latenciesMs);
    for (const k of ['dice', 'right', 'misread', 'noDie'] as const) this.unsure[k] += other.unsure[k];
  }

  summarise(): EvalSummary {
    return {
      images: this.images,
      dice: this.centre.truth,
      predicted: this.centre.predicted,
      perDie: prf(this.centre),
      perDieIoU50: this.iouImages > 0 ? { ...prf(this.iou), images: this.iouImages, dice: this.iou.truth } : null,
      detectionRecall: ratio(this.centre.matched, this.centre.truth),
      detectionPrecision: ratio(this.centre.matched, this.centre.predicted),
      exactRollAccuracy: ratio(this.exactRolls, this.images),
      exactRolls: this.exactRolls,
      confusion: { rows: [...this.rows], columns: [...this.columns], counts: this.confusion.map((r) => [...r]) },
      latencyMs: this.latenciesMs.length ? { median: percentile(this.latenciesMs, 50), p95: percentile(this.latenciesMs, 95) } : null,
      unsure: { ...this.unsure },
    };
  }
}

function count(c: DieCounts, truth: readonly TruthDie[], predictions: readonly PredictedDie[], matches: Match[]): void {
  c.truth += truth.length;
  c.predicted += predictions.length;
  c.matched += matches.length;
  c.correct += matches.filter((m) => {
    const read = predictions[m.prediction]!.value;
    return read !== null && String(truth[m.truth]!.value) === String(read);
  }).length;
}

export interface EvalSummary {
  images: number;
  dice: number;
  predicted: number;
  /** Centre rule, right value. */
  perDie: PrfScores;
  /** IoU ≥ 0.5, right value (whole-die sets only); `images` and `dice` say what it covers. */
  perDieIoU50: (PrfScores & { images: number; dice: number }) | null;
  /** Share of labelled dice matched by some prediction, whatever its value (centre rule). */
  detectionRecall: number | null;
  /** Share of predictions that matched a labelled die, whatever the value (centre rule). */
  detectionPrecision: number | null;
  exactRollAccuracy: number | null;
  exactRolls: number;
  confusion: { rows: string[]; columns: string[]; counts: number[][] };
  latencyMs: { median: number; p95: number } | null;
  /** The dice read unsurely, which the table asks for (scored above as read). */
  unsure: UnsureCounts;
}

/** Nearest-rank percentile (the median of an even count is the lower middle value) (p in (0, 100]) of a non-empty list; does not modify it. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError('percentile of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}
