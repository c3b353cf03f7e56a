import { describe, expect, it } from 'vitest';
import { parseDetectorConfig } from '../../src/lib/vision/config.ts';
import { decodeDetections, dropContained, fuseReads, insideShare, iou, nms } from '../../src/lib/vision/decode.ts';
import { letterboxGeometry } from '../../src/lib/vision/letterbox.ts';

const box = (x: number, y: number, w: number, h: number) => ({ x, y, w, h });

describe('iou', () => {
  it('is 1 for the same box, 0 for disjoint or touching boxes', () => {
    expect(iou(box(0, 0, 10, 10), box(0, 0, 10, 10))).toBe(1);
    expect(iou(box(0, 0, 10, 10), box(20, 0, 10, 10))).toBe(0);
    expect(iou(box(0, 0, 10, 10), box(10, 0, 10, 10))).toBe(0);
  });

  it('is intersection over union', () => {
    // 10×10 boxes shifted by 5: overlap 5×10 = 50, union 150
    expect(iou(box(0, 0, 10, 10), box(5, 0, 10, 10))).toBeCloseTo(1 / 3, 12);
    // a 4×4 box inside a 10×10: 16 / 100
    expect(iou(box(0, 0, 10, 10), box(3, 3, 4, 4))).toBeCloseTo(0.16, 12);
  });
});

describe('nms (class-agnostic)', () => {
  const items = [
    { id: 'a', box: box(0, 0, 10, 10), score: 0.6 },
    { id: 'b', box: box(1, 0, 10, 10), score: 0.9 }, // IoU with a = 90/110 = 0.818
    { id: 'c', box: box(5, 0, 10, 10), score: 0.7 }, // IoU with b = 60/140 = 0.43
    { id: 'd', box: box(50, 50, 10, 10), score: 0.1 },
  ];

  it('keeps the best of overlapping boxes, best first', () => {
    expect(nms(items, 0.5).map((i) => i.id)).toEqual(['b', 'c', 'd']);
    expect(nms(items, 0.4).map((i) => i.id)).toEqual(['b', 'd']);
  });

  it('caps the number kept', () => {
    expect(nms(items, 0.5, 2).map((i) => i.id)).toEqual(['b', 'c']);
  });

  it('breaks score ties by input order', () => {
    const tied = [
      { id: 'x', box: box(0, 0, 10, 10), score: 0.5 },
      { id: 'y', box: box(0, 0, 10, 10), score: 0.5 },
    ];
    expect(nms(tied, 0.5).map((i) => i.id)).toEqual(['x']);
  });
});

describe('insideShare and dropContained', () => {
  it('measures how much of a box lies inside another, and keeps the better of nested boxes', () => {
    expect(insideShare(box(0, 0, 10, 10), box(5, 0, 10, 10))).toBeCloseTo(0.5);
    expect(insideShare(box(0, 0, 10, 10), box(2, 2, 2, 2))).toBe(1);
    expect(insideShare(box(0, 0, 10, 10), box(20, 0, 5, 5))).toBe(0);
    const items = [{ box: box(0, 0, 10, 10) }, { box: box(2, 2, 4, 4) }, { box: box(8, 0, 10, 10) }];
    expect(dropContained(items, 0.3)).toEqual([items[0], items[2]]);
  });
});

describe('fuseReads (one frame read at several input sizes)', () => {
  const die = (id: string, x: number, w: number, score: number) => ({ id, box: box(x, 0, w, w), score });
  const rule = { sameDieIoU: 0.4, votes: 2 };

  it('keeps a die found by enough reads: box the score-weighted mean, score the sum over all reads', () => {
    const reads = [[die('a512', 0, 10, 0.9)], [die('a320', 1, 12, 0.6)], []];
    const [a] = fuseReads(reads, rule);
    expect(a!.id).toBe('a512');
    expect(a!.score).toBeCloseTo(1.5 / 3, 12);
    expect(a!.box.x).toBeCloseTo((0 * 0.9 + 1 * 0.6) / 1.5, 12);
    expect(a!.box.w).toBeCloseTo((10 * 0.9 + 12 * 0.6) / 1.5, 12);
  });

  it('drops what only one read saw (a shadow, a side face), and one read never votes twice', () => {
    const reads = [[die('a', 0, 10, 0.9), die('a-again', 1, 10, 0.8), die('shadow', 50, 10, 0.95)], [die('a', 0, 10, 0.7)]];
    expect(fuseReads(reads, rule).map((d) => d.id)).toEqual(['a']);
    expect(fuseReads(reads, { ...rule, votes: 1 }).map((d) => d.id)).toEqual(['a', 'shadow', 'a-again']);
  });

  it('joins a box to the die it overlaps most, best dice first', () => {
    const reads = [[die('left', 0, 10, 0.9), die('right', 6, 10, 0.8)], [die('r', 7, 10, 0.9)], [die('l', 0, 10, 0.5)]];
    const fused = fuseReads(reads, rule);
    expect(fused.map((d) => d.id)).toEqual(['r', 'left']);
    expect(fused[0]!.score).toBeCloseTo(1.7 / 3, 12);
  });

  it('is the read itself for one read and one vote', () => {
    const read = [die('a', 0, 10, 0.9), die('b', 20, 10, 0.6)];
    expect(fuseReads([read], { sameDieIoU: 0.4, votes: 1 })).toEqual(read);
  });
});

describe('decodeDetections', () => {
  const config = parseDetectorConfig({
    inputSize: 64,
    classes: ['1', '2', '3', '4', '5', '6', 'other'],
    padValue: 114,
    scoreThreshold: 0.3,
    iouThreshold: 0.5,
  });
  const g = letterboxGeometry(128, 64, 64); // scale 0.5, padY 16
  const row = (cx: number, cy: number, w: number, h: number, obj: number, best: number, p: number): number[] => {
    const probs = Array<number>(7).fill((1 - p) / 6);
    probs[best] = p;
    return [cx, cy, w, h, obj, ...probs];
  };

  it('scores by objectness × best class, maps boxes to source pixels, reads values', () => {
    const out = new Float32Array([
      ...row(20, 30, 10, 8, 0.9, 4, 0.8), // value 5, score 0.72; input y 26..34 → source x 30..50, y 20..36
      ...row(50, 40, 8, 8, 0.8, 6, 0.9), // `other` → value null, score 0.72 (later row)
      ...row(30, 30, 10, 10, 0.5, 0, 0.5), // score 0.25 < 0.3: dropped
      ...row(21, 30, 10, 8, 0.85, 2, 0.7), // overlaps the first (IoU 0.82): suppressed
    ]);
    const dice = decodeDetections(out, [1, 4, 12], config, g);
    expect(dice).toHaveLength(2);
    expect(dice[0]!.value).toBe(5);
    expect(dice[0]!.classIndex).toBe(4);
    expect(dice[0]!.score).toBeCloseTo(0.72, 6);
    expect(dice[0]!.box.x).toBeCloseTo(30, 5);
    expect(dice[0]!.box.y).toBeCloseTo(20, 5);
    expect(dice[0]!.box.w).toBeCloseTo(20, 5);
    expect(dice[0]!.box.h).toBeCloseTo(16, 5);
    expect(dice[1]!.value).toBeNull();
    expect(dice[1]!.classIndex).toBe(6);
  });

  it('takes a per-call score threshold', () => {
    const out = new Float32Array(row(30, 30, 10, 10, 0.5, 0, 0.5));
    expect(decodeDetections(out, [1, 1, 12], config, g)).toHaveLength(0);
    expect(decodeDetections(out, [1, 1, 12], config, g, 0.2)).toHaveLength(1);
  });

  it('symbol dice: scores by objectness alone, and drops boxes lying mostly inside a better one', () => {
    const out = new Float32Array([
      ...row(20, 30, 10, 10, 0.9, 6, 0.4), // a symbol die: class score 0.36, objectness 0.9
      ...row(22, 34, 8, 4, 0.8, 0, 0.5), // its side face: 66% inside the die's box, IoU 0.19 (NMS keeps it)
      ...row(50, 40, 8, 8, 0.7, 6, 0.4), // another die, objectness 0.7
    ]);
    const byClass = decodeDetections(out, [1, 3, 12], config, g, { scoreThreshold: 0.6 });
    expect(byClass).toHaveLength(0);
    const byObjectness = decodeDetections(out, [1, 3, 12], config, g, { score: 'objectness', scoreThreshold: 0.6 });
    expect(byObjectness.map((d) => d.score)).toEqual([0.8999999761581421, 0.800000011920929, 0.699999988079071]);
    const symbols = decodeDetections(out, [1, 3, 12], config, g, { score: 'objectness', scoreThreshold: 0.6, containment: 0.4 });
    expect(symbols.map((d) => d.score.toFixed(1))).toEqual(['0.9', '0.7']);
    // a box at most `containment` inside is kept
    expect(decodeDetections(out, [1, 3, 12], config, g, { score: 'objectness', scoreThreshold: 0.6, containment: 0.7 })).toHaveLength(3);
  });

  it('grows boxes back after NMS and containment when the net was taught smaller ones (boxScale)', () => {
    const shrunk = parseDetectorConfig({ ...config, boxScale: 0.5 });
    const out = new Float32Array([
      ...row(20, 30, 10, 8, 0.9, 4, 0.8), // taught at half its sides: the die is x 20..60, y 12..44 in the source
      ...row(29, 30, 10, 8, 0.7, 2, 0.9), // a touching die (value 3): its taught box overlaps the first's by IoU 0.05 (kept)
      ...row(2, 18, 4, 4, 0.8, 1, 0.9), // at the frame's corner (value 2): its grown box is cut to the frame
    ]);
    const dice = decodeDetections(out, [1, 3, 12], shrunk, g, { containment: 0.4 });
    const byValue = new Map(dice.map((d) => [d.value, d.box]));
    expect([...byValue.keys()]).toEqual([5, 2, 3]);
    expect(byValue.get(5)).toEqual({ x: 20, y: 12, w: 40, h: 32 });
    expect(byValue.get(3)!.x).toBeCloseTo(38, 5); // grown, the two boxes overlap as touching dice do
    expect(byValue.get(2)).toEqual({ x: 0, y: 0, w: 12, h: 12 });
    expect(() => parseDetectorConfig({ ...config, boxScale: 0 })).toThrow(/"boxScale" must be a number in \[0.01, 1\]/);
    expect(() => parseDetectorConfig({ ...config, boxScale: 1.5 })).toThrow(/"boxScale"/);
  });

  it('drops boxes that lie wholly in the padding', () => {
    const out = new Float32Array(row(30, 5, 8, 8, 0.99, 0, 0.99)); // y 1..9 < padY 16
    expect(decodeDetections(out, [1, 1, 12], config, g)).toHaveLength(0);
  });

  it('rejects output of the wrong shape', () => {
    expect(() => decodeDetections(new Float32Array(11), [1, 1, 11], config, g)).toThrow(/expected dims \[1, N, 12\]/);
    expect(() => decodeDetections(new Float32Array(13), [1, 1, 12], config, g)).toThrow(/do not fill/);
  });
});
