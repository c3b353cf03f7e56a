/**
 * `npm run eval -- --against BASE.json` (scripts/lib/compare-reports.ts): two reports of the same
 * photos compared photo by photo, the sign test over the photos fixed and broken, and clear
 * refusals of a base that is not a report or measured other photos.
 */
import { describe, expect, it } from 'vitest';
import { compareReports, formatComparison, parseEvalReport, signTestP, wilsonInterval, type ComparableReport } from '../../scripts/lib/compare-reports.ts';
import { UsageError } from '../../scripts/lib/cli.ts';

type Wrong = { file: string; truth: string[]; read: Array<string | null> };

function report(model: string, sets: Array<{ name: string; images: number; f1: number; wrong: Wrong[] }>, extra: Partial<ComparableReport> = {}): ComparableReport {
  const images = sets.reduce((n, s) => n + s.images, 0);
  const wrong = sets.reduce((n, s) => n + s.wrong.length, 0);
  return {
    model: { file: model },
    datasets: sets.map((s) => ({ name: s.name, images: s.images, perDie: { f1: s.f1 }, exactRollAccuracy: 1 - s.wrong.length / s.images, wrongRolls: s.wrong })),
    overall: { images, perDie: { f1: 0.9 }, exactRollAccuracy: 1 - wrong / images },
    ...extra,
  };
}

const w = (file: string, read: Array<string | null> = ['5']): Wrong => ({ file, truth: ['4'], read });

describe('signTestP', () => {
  it('is the two-sided exact binomial tail (p = ½) of the smaller count', () => {
    expect(signTestP(0, 0)).toBe(1);
    expect(signTestP(1, 0)).toBe(1);
    expect(signTestP(5, 0)).toBeCloseTo(2 / 32, 12); // 0.0625: five fixed, none broken, is not yet enough
    expect(signTestP(6, 0)).toBeCloseTo(2 / 64, 12); // 0.031
    expect(signTestP(0, 6)).toBeCloseTo(2 / 64, 12); // symmetric
    expect(signTestP(8, 1)).toBeCloseTo((2 * (1 + 9)) / 512, 12); // 0.039
    expect(signTestP(7, 1)).toBeCloseTo((2 * (1 + 8)) / 256, 12); // 0.070
    expect(signTestP(3, 3)).toBe(1);
    expect(signTestP(12, 6)).toBeCloseTo(0.238, 3);
  });

  it('holds for hundreds of photos (log space, no underflow) and refuses bad counts', () => {
    expect(signTestP(300, 300)).toBe(1);
    const p = signTestP(330, 270);
    expect(p).toBeGreaterThan(0.01);
    expect(p).toBeLessThan(0.02); // z ≈ 2.41
    expect(signTestP(600, 0) / (2 * 2 ** -600)).toBeCloseTo(1, 10);
    expect(() => signTestP(-1, 2)).toThrow(RangeError);
    expect(() => signTestP(1.5, 2)).toThrow(RangeError);
  });
});

describe('compareReports', () => {
  const base = report('models/dice-pips.onnx', [
    { name: 'byler-holdout', images: 23, f1: 0.995, wrong: [w('a.jpg'), w('b.jpg')] },
    { name: 'epanemu-holdout', images: 44, f1: 0.936, wrong: [w('c.jpg'), w('d.jpg', [])] },
  ]);

  it('names the photos fixed and broken, per dataset and overall, with the sign test', () => {
    const now = report('candidate.onnx', [
      { name: 'byler-holdout', images: 23, f1: 0.99, wrong: [w('b.jpg', ['6']), w('e.jpg', ['3', null])] },
      { name: 'epanemu-holdout', images: 44, f1: 0.95, wrong: [] },
    ]);
    const c = compareReports(base, now);
    expect(c.fixed).toEqual([
      { dataset: 'byler-holdout', file: 'a.jpg', truth: ['4'], wrongRead: ['5'] },
      { dataset: 'epanemu-holdout', file: 'c.jpg', truth: ['4'], wrongRead: ['5'] },
      { dataset: 'epanemu-holdout', file: 'd.jpg', truth: ['4'], wrongRead: [] },
    ]);
    // b.jpg is wrong in both (read otherwise now): neither fixed nor broken
    expect(c.broken).toEqual([{ dataset: 'byler-holdout', file: 'e.jpg', truth: ['4'], wrongRead: ['3', null] }]);
    expect(c.datasets.map((d) => [d.name, d.fixed, d.broken])).toEqual([
      ['byler-holdout', 1, 1],
      ['epanemu-holdout', 2, 0],
    ]);
    expect(c.datasets[1]!.f1).toEqual({ base: 0.936, now: 0.95 });
    expect(c.datasets[1]!.signTestP).toBeCloseTo(0.5, 12);
    expect([c.overall.fixed, c.overall.broken, c.overall.images]).toEqual([3, 1, 67]);
    expect(c.overall.signTestP).toBeCloseTo(2 * (5 / 16), 12);
    expect(c.readDifferently).toEqual(['detector: models/dice-pips.onnx in the base, candidate.onnx here']);
    const text = formatComparison(c, 'base.json');
    expect(text).toContain('against base.json, photo by photo');
    expect(text).toContain('  fixed  epanemu-holdout/d.jpg: truth 4, the base read (none)');
    expect(text).toContain('  broken byler-holdout/e.jpg: truth 4, read here 3 ?');
    expect(text).toMatch(/overall +67 +90\.0 → +90\.0 +94\.0 → +97\.0 +3 +1 +0\.625/);
  });

  it('a report against itself: nothing fixed or broken, p = 1, nothing read differently', () => {
    const c = compareReports(base, base);
    expect([c.fixed, c.broken, c.readDifferently]).toEqual([[], [], []]);
    expect(c.overall.signTestP).toBe(1);
  });

  it('says how the two were read differently, where both recorded it', () => {
    const counted = { ...base, countKnown: true, condition: { name: 'dim' }, tiles: true };
    const plain = { ...base, countKnown: false, tiles: true };
    expect(compareReports(plain, counted).readDifferently).toEqual(['count known: false in the base, true here', 'camera condition: none in the base, dim here']);
    // an older report without countKnown is not said to differ
    const { countKnown: _, ...older } = plain;
    expect(compareReports(older, counted).readDifferently).toEqual(['camera condition: none in the base, dim here']);
    // the reader's sidecar rules, rule by rule, where both runs recorded them
    const reader = (amongPipDice: boolean) => ({ ...base, dieFace: { file: 'models/die-face.onnx', rules: { unsure: { below: 0.5 }, brandedOne: { minShare: 0.8, amongPipDice } } } });
    expect(compareReports(reader(false), reader(true)).readDifferently).toEqual([
      'the reader\'s brandedOne rule: {"minShare":0.8,"amongPipDice":false} in the base, {"minShare":0.8,"amongPipDice":true} here',
    ]);
    expect(compareReports({ ...base, dieFace: { file: 'models/die-face.onnx' } }, reader(true)).readDifferently).toEqual([]);
  });

  it('refuses a base of other photos, saying which', () => {
    const other = report('x.onnx', [{ name: 'byler-val', images: 50, f1: 0.97, wrong: [] }]);
    expect(() => compareReports(base, other)).toThrow(UsageError);
    expect(() => compareReports(base, other)).toThrow(/the base measured other photos \(byler-holdout \(23\), epanemu-holdout \(44\)\) than this run \(byler-val \(50\)\)/);
    const fewer = report('x.onnx', [
      { name: 'byler-holdout', images: 22, f1: 0.995, wrong: [] },
      { name: 'epanemu-holdout', images: 44, f1: 0.936, wrong: [] },
    ]);
    expect(() => compareReports(base, fewer)).toThrow(/byler-holdout \(22\)/);
  });
});

describe('parseEvalReport', () => {
  it('takes an eval --json report, keeping what the comparison needs', () => {
    const text = JSON.stringify({ ...report('m.onnx', [{ name: 's', images: 2, f1: 0.5, wrong: [w('a.png')] }]), runtime: { name: 'onnxruntime-node' }, confusion: {} });
    const r = parseEvalReport(text, 'base.json');
    expect(r.datasets[0]!.wrongRolls).toEqual([w('a.png')]);
    expect(r.model).toEqual({ file: 'm.onnx' });
  });

  it('refuses anything else with a clear message', () => {
    expect(() => parseEvalReport('{"datasets": [', 'cut.json')).toThrow(/--against cut\.json: not JSON/);
    expect(() => parseEvalReport('{"name": "rollcall"}', 'package.json')).toThrow(/--against package\.json: not an npm run eval -- --json report \(datasets: /);
    const noWrong = { datasets: [{ name: 's', images: 2, perDie: { f1: 0.5 }, exactRollAccuracy: 0.5 }], overall: { images: 2, perDie: { f1: 0.5 }, exactRollAccuracy: 0.5 } };
    expect(() => parseEvalReport(JSON.stringify(noWrong), 'old.json')).toThrow(/datasets\.0\.wrongRolls/);
    const badShare = { ...noWrong, datasets: [{ ...noWrong.datasets[0], wrongRolls: [] }], overall: { ...noWrong.overall, exactRollAccuracy: 3 } };
    expect(() => parseEvalReport(JSON.stringify(badShare), 'b.json')).toThrow(/overall\.exactRollAccuracy/);
  });
});

describe('wilsonInterval', () => {
  it('gives the 95% Wilson score interval of a share', () => {
    const [lo, hi] = wilsonInterval(42, 50); // 84%
    expect(lo).toBeCloseTo(0.7149, 3);
    expect(hi).toBeCloseTo(0.9166, 3);
    const [lo2, hi2] = wilsonInterval(5, 10);
    expect(lo2).toBeCloseTo(0.2366, 3);
    expect(hi2).toBeCloseTo(0.7634, 3);
  });

  it('holds the bounds at 0 and 1 when every photo or none was read exactly', () => {
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
    expect(wilsonInterval(0, 20)[0]).toBe(0);
    const [lo, hi] = wilsonInterval(20, 20);
    expect(hi).toBe(1);
    expect(lo).toBeCloseTo(0.8389, 3);
  });

  it('refuses counts that are not a share', () => {
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(0.5, 2)).toThrow(RangeError);
  });
});
