import { describe, expect, it } from 'vitest';
import { EvalAccumulator, exactRoll, matchByCentre, matchByIoU, percentile, prf } from '../../src/lib/vision/metrics.ts';

const b = (x: number, y: number, w: number, h: number) => ({ x, y, w, h });
const die = (x: number, y: number, w: number, h: number, value: number | null) => ({ box: b(x, y, w, h), value });

describe('matchByCentre (the data README rule)', () => {
  it('needs the labelled centre inside the predicted box', () => {
    const truth = [die(0, 0, 10, 10, 1)]; // centre (5, 5)
    expect(matchByCentre(truth, [die(4, 4, 20, 20, 1)])).toEqual([{ truth: 0, prediction: 0 }]);
    expect(matchByCentre(truth, [die(6, 0, 20, 20, 1)])).toEqual([]); // centre 1 px left of it
  });

  it('matches a pip-pattern label inside a whole-die prediction', () => {
    // a "1" boxed as its single pip (centre (50, 50)) inside a die box 30..70
    expect(matchByCentre([die(47, 47, 6, 6, 1)], [die(30, 30, 40, 40, 1)])).toHaveLength(1);
  });

  it('pairs one-to-one, nearest centres first', () => {
    // Both labels' centres lie inside the big prediction P0; only label 1 lies in P1.
    // Distances: L0–P0 = 5, L1–P0 = 15, L1–P1 = 1. Greedy: L1–P1 (1), then L0–P0 (5).
    const truth = [die(10, 10, 10, 10, 2), die(30, 10, 10, 10, 3)]; // centres (15,15), (35,15)
    const preds = [die(0, 0, 40, 40, 2), die(24, 4, 20, 20, 3)]; // centres (20,20), (34,14)
    expect(matchByCentre(truth, preds)).toEqual([
      { truth: 1, prediction: 1 },
      { truth: 0, prediction: 0 },
    ]);
  });

  it('leaves the farther of two labels unmatched when one prediction covers both', () => {
    const truth = [die(0, 0, 10, 10, 1), die(12, 0, 10, 10, 1)]; // centres (5,5), (17,5)
    expect(matchByCentre(truth, [die(0, 0, 24, 10, 1)])).toEqual([{ truth: 1, prediction: 0 }]); // centre (12,5): 5 vs 7
  });
});

describe('matchByIoU', () => {
  it('is the centre rule restricted to pairs with IoU ≥ 0.5', () => {
    const truth = [die(0, 0, 10, 10, 1)]; // centre (5, 5)
    expect(matchByIoU(truth, [die(5, 0, 10, 10, 1)])).toEqual([]); // centre inside, IoU 1/3
    // IoU 0.667 (centre 2 px away) and 0.818 (1 px away): the nearer wins
    expect(matchByIoU(truth, [die(2, 0, 10, 10, 1), die(1, 0, 10, 10, 1)])).toEqual([{ truth: 0, prediction: 1 }]);
    // a big box around two labels: IoU decides which it may match at all
    const two = [die(0, 0, 10, 10, 1), die(11, 0, 4, 4, 2)]; // centres (5, 5), (13, 2)
    expect(matchByIoU(two, [die(0, 0, 14, 10, 1)])).toEqual([{ truth: 0, prediction: 0 }]); // IoU 100/140 vs 16/140
  });
});

describe('prf', () => {
  it('is precision = correct / predicted, recall = correct / truth, F1 their harmonic mean', () => {
    const s = prf({ truth: 10, predicted: 8, matched: 8, correct: 6 });
    expect(s.precision).toBeCloseTo(0.75, 12);
    expect(s.recall).toBeCloseTo(0.6, 12);
    expect(s.f1).toBeCloseTo((2 * 0.75 * 0.6) / 1.35, 12);
  });

  it('precision is undefined (null) without predictions, recall without dice; F1 is 0 when nothing is right', () => {
    // no die read of 3 shown: recall 0, and F1 0 (not "n/a": there was something to get right)
    expect(prf({ truth: 3, predicted: 0, matched: 0, correct: 0 })).toEqual({ precision: null, recall: 0, f1: 0 });
    expect(prf({ truth: 0, predicted: 2, matched: 0, correct: 0 })).toEqual({ precision: 0, recall: null, f1: 0 });
    expect(prf({ truth: 3, predicted: 2, matched: 0, correct: 0 }).f1).toBe(0);
    expect(prf({ truth: 0, predicted: 0, matched: 0, correct: 0 })).toEqual({ precision: null, recall: null, f1: null });
  });
});

describe('exactRoll', () => {
  it('compares multisets of values', () => {
    const truth = [die(0, 0, 1, 1, 4), die(0, 0, 1, 1, 1), die(0, 0, 1, 1, 4)];
    expect(exactRoll(truth as never, [die(9, 9, 1, 1, 1), die(9, 9, 1, 1, 4), die(9, 9, 1, 1, 4)])).toBe(true);
    expect(exactRoll(truth as never, [die(9, 9, 1, 1, 1), die(9, 9, 1, 1, 4)])).toBe(false);
    expect(exactRoll(truth as never, [die(9, 9, 1, 1, 1), die(9, 9, 1, 1, 4), die(9, 9, 1, 1, null)])).toBe(false);
    expect(exactRoll([], [])).toBe(true);
  });
});

describe('EvalAccumulator', () => {
  // Image A: truth 1, 2, 3; read 1 (right), 5 on the 2 (wrong value), nothing on the 3, plus a spurious 6.
  const truthA = [die(0, 0, 10, 10, 1), die(20, 0, 10, 10, 2), die(40, 0, 10, 10, 3)] as { box: ReturnType<typeof b>; value: number }[];
  const predsA = [die(1, 0, 10, 10, 1), die(21, 0, 10, 10, 5), die(80, 80, 10, 10, 6)];
  // Image B: truth 6, 6; read 6, 6 (exact) but the second box is loose (IoU < 0.5).
  const truthB = [die(0, 0, 10, 10, 6), die(20, 0, 10, 10, 6)] as typeof truthA;
  const predsB = [die(0, 0, 10, 10, 6), die(15, -5, 20, 20, 6)];

  it('counts per-die, detection, exact rolls, IoU and the confusion matrix', () => {
    const acc = new EvalAccumulator(true);
    acc.add(truthA, predsA, 10);
    acc.add(truthB, predsB, 30);
    const s = acc.summarise();
    expect([s.images, s.dice, s.predicted]).toEqual([2, 5, 5]);
    // correct: A's 1, B's two 6s = 3 of 5 predicted, 3 of 5 true
    expect(s.perDie.precision).toBeCloseTo(0.6, 12);
    expect(s.perDie.recall).toBeCloseTo(0.6, 12);
    expect(s.detectionRecall).toBeCloseTo(4 / 5, 12); // the 3 is missed
    expect(s.detectionPrecision).toBeCloseTo(4 / 5, 12); // the spurious 6
    expect(s.exactRollAccuracy).toBe(0.5);
    // IoU rule: A's 1 (IoU 0.82) right, A's 2 matched wrong value; B's first 6 right, second IoU 0.25: unmatched
    expect(s.perDieIoU50).toMatchObject({ images: 2, dice: 5 });
    expect(s.perDieIoU50!.precision).toBeCloseTo(2 / 5, 12);
    expect(s.perDieIoU50!.recall).toBeCloseTo(2 / 5, 12);
    const c = s.confusion.counts;
    expect(c[0]).toEqual([1, 0, 0, 0, 0, 0, 0, 0]); // true 1 read 1
    expect(c[1]).toEqual([0, 0, 0, 0, 1, 0, 0, 0]); // true 2 read 5
    expect(c[2]).toEqual([0, 0, 0, 0, 0, 0, 0, 1]); // true 3 missed
    expect(c[5]).toEqual([0, 0, 0, 0, 0, 2, 0, 0]); // true 6 read 6 twice
    expect(c[6]).toEqual([0, 0, 0, 0, 0, 1, 0, 0]); // spurious 6
    expect(s.latencyMs).toEqual({ median: 10, p95: 30 });
  });

  it('counts an `other` read as a wrong value, and merges totals', () => {
    const pips = new EvalAccumulator(false);
    pips.add([die(0, 0, 10, 10, 4)] as typeof truthA, [die(0, 0, 10, 10, null)]);
    const p = pips.summarise();
    expect(p.perDieIoU50).toBeNull();
    expect(p.perDie.precision).toBe(0);
    expect(p.detectionRecall).toBe(1);
    expect(p.confusion.counts[3]![6]).toBe(1);
    const all = new EvalAccumulator(true);
    const whole = new EvalAccumulator(true);
    whole.add(truthB, predsB);
    all.merge(pips);
    all.merge(whole);
    const s = all.summarise();
    expect([s.images, s.dice, s.exactRolls]).toEqual([2, 3, 1]);
    expect(s.perDieIoU50).toMatchObject({ images: 1, dice: 2 }); // only the whole-die set
  });

  it('counts the dice read unsurely apart, by what lay there, scoring them as read; merges them', () => {
    const unsure = <T extends object>(d: T) => ({ ...d, unsure: true as const });
    // image A again, its 1 (right), its 5 on the 2 (misread) and its spurious 6 read unsurely
    const acc = new EvalAccumulator(true);
    acc.add(truthA, predsA.map(unsure));
    acc.add(truthB, predsB);
    const s = acc.summarise();
    expect(s.unsure).toEqual({ dice: 3, right: 1, misread: 1, noDie: 1 });
    expect(s.perDie.precision).toBeCloseTo(0.6, 12); // as read: the same as without the mark
    const all = new EvalAccumulator(true);
    all.merge(acc);
    all.merge(acc);
    expect(all.summarise().unsure).toEqual({ dice: 6, right: 2, misread: 2, noDie: 2 });
    expect(new EvalAccumulator(false).summarise().unsure).toEqual({ dice: 0, right: 0, misread: 0, noDie: 0 });
  });

  it('rejects truth values outside 1–6', () => {
    expect(() => new EvalAccumulator(false).add([die(0, 0, 1, 1, 7)] as typeof truthA, [])).toThrow(RangeError);
  });
});

describe('percentile (nearest rank)', () => {
  it('picks ranks ⌈p·n⌉', () => {
    const v = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(v, 50)).toBe(5);
    expect(percentile(v, 95)).toBe(10);
    expect(percentile(v, 90)).toBe(9);
    expect(percentile([7], 95)).toBe(7);
    expect(() => percentile([], 50)).toThrow(RangeError);
  });
});
