import { describe, expect, it } from 'vitest';
import { sweepWidths, type BlurReading } from '../../scripts/choose-blur-hint.ts';
import { runCli } from '../vision/cli-helpers.ts';

const reading = (condition: string, edgeWidth: number | null, exact: boolean): BlurReading => ({ slice: 's', file: `${condition}-${edgeWidth}`, condition, edgeWidth, exact });

describe('choose-blur-hint: the width kept', () => {
  it('keeps the least width that calls at most 2% of the sharp photos blurred', () => {
    // 100 sharp photos: 97 at 0.05, three at 0.095 (false alarms below 0.10); blurred photos at 0.15, mostly misread
    const readings = [
      ...Array.from({ length: 97 }, () => reading('none', 0.05, true)),
      ...Array.from({ length: 3 }, () => reading('dim', 0.095, true)),
      ...Array.from({ length: 10 }, (_, i) => reading('defocus', 0.15, i < 3)),
      reading('swing', null, false),
    ];
    const { rows, kept } = sweepWidths(readings);
    expect(kept).toBe(0.1);
    const at = (w: number) => rows.find((r) => r.width === w)!;
    expect(at(0.09).sharpCalled).toBeCloseTo(0.03);
    expect(at(0.1).sharpCalled).toBe(0);
    // a photo with no die to measure is never called blurred
    expect(at(0.1).blurringCalled).toBeCloseTo(10 / 11);
    expect(at(0.1).exactCalled).toBeCloseTo(0.3);
    expect(at(0.1).exactOthers).toBeCloseTo(100 / 101);
  });

  it('keeps none when every width calls too many sharp photos blurred', () => {
    expect(sweepWidths([reading('none', 0.5, true)]).kept).toBeNull();
  });

  it('refuses an unknown condition: exit 2, nothing read', () => {
    const r = runCli('scripts/choose-blur-hint.ts', ['--conditions', 'shake,fog']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--conditions: fog unknown/);
  });
});
