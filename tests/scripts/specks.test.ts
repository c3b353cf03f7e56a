/**
 * The salt-and-pepper specks of a dataset's export (scripts/lib/specks.ts): single pixels that stand
 * alone are cleaned from a photo that carries enough of them, and nothing else is touched.
 */
import { describe, expect, it } from 'vitest';
import { SPECKLED_SHARE, speckPixels, withoutSpecks } from '../../scripts/lib/specks.ts';
import type { RgbaImage } from '../../src/lib/vision/types.ts';

const W = 40;
const H = 30;

/** A soft grey gradient (a table) with a dark 2×2 pip at (10, 10). */
function table(): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 4;
      const v = 120 + x + (y >> 1);
      data.set([v, v - 10, v - 20, 255], i);
    }
  }
  for (const [x, y] of [[10, 10], [11, 10], [10, 11], [11, 11]] as const) data.set([20, 20, 20, 255], (y * W + x) * 4);
  return { width: W, height: H, data };
}

const at = (im: RgbaImage, x: number, y: number): number[] => Array.from(im.data.slice((y * W + x) * 4, (y * W + x) * 4 + 4));

describe('specks', () => {
  it('a photo without specks comes back as it is, its small pip kept', () => {
    const im = table();
    expect(speckPixels(im)).toEqual([]);
    expect(withoutSpecks(im)).toBe(im);
  });

  it('single white and black pixels are specks; a 2×2 pip and the border are not', () => {
    const im = table();
    for (const [x, y, v] of [[5, 5, 255], [20, 15, 0], [0, 3, 255], [30, 25, 250]] as const) im.data.set([v, v, v, 255], (y * W + x) * 4);
    expect(speckPixels(im).sort((a, b) => a - b)).toEqual([5 * W + 5, 15 * W + 20, 25 * W + 30]);
  });

  it('a speckled photo gets each speck set to its 3×3 median, every other pixel untouched, the input kept', () => {
    const im = table();
    const specks = [[5, 5, 255], [20, 15, 0], [30, 25, 255], [33, 8, 0]] as const;
    for (const [x, y, v] of specks) im.data.set([v, v, v, 255], (y * W + x) * 4);
    expect(specks.length).toBeGreaterThanOrEqual(SPECKLED_SHARE * W * H);
    const before = new Uint8Array(im.data);
    const out = withoutSpecks(im);
    expect(im.data).toEqual(before);
    for (const [x, y] of specks) {
      for (let c = 0; c < 3; c++) {
        const around = [-1, 0, 1].flatMap((dy) => [-1, 0, 1].map((dx) => im.data[((y + dy) * W + x + dx) * 4 + c]!)).sort((a, b) => a - b);
        expect(at(out, x, y)[c]).toBe(around[4]);
      }
    }
    expect(speckPixels(out)).toEqual([]);
    const changed = Array.from(out.data).filter((v, i) => v !== im.data[i]).length;
    expect(changed).toBe(specks.length * 3);
    expect(at(out, 10, 10)).toEqual([20, 20, 20, 255]);
  });

  it('too few specks for an export that added them: the photo is left as it is', () => {
    const im = table();
    const big = { width: W * 10, height: H * 10, data: new Uint8Array(W * 10 * H * 10 * 4).fill(128) };
    big.data.set([255, 255, 255, 255], (50 * W * 10 + 50) * 4);
    expect(speckPixels(big)).toHaveLength(1);
    expect(withoutSpecks(big)).toBe(big);
    expect(withoutSpecks(im)).toBe(im);
  });
});
