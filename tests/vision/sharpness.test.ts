import { describe, expect, it } from 'vitest';
import { diceEdgeWidth, edgeWidth } from '../../src/lib/vision/sharpness.ts';
import type { Box, RgbaImage } from '../../src/lib/vision/types.ts';

/** A grey table with a white die of `side` px at (x, y) showing five black pips. */
function dieImage(width: number, height: number, x: number, y: number, side: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  const pipR = side * 0.1;
  const pips = [
    [0.25, 0.25],
    [0.75, 0.25],
    [0.5, 0.5],
    [0.25, 0.75],
    [0.75, 0.75],
  ].map(([u, v]) => [x + u! * side, y + v! * side] as const);
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      const inDie = px >= x && px < x + side && py >= y && py < y + side;
      const onPip = inDie && pips.some(([cx, cy]) => Math.hypot(px + 0.5 - cx, py + 0.5 - cy) < pipR);
      const v = onPip ? 20 : inDie ? 235 : 120;
      data.set([v, v, v, 255], (py * width + px) * 4);
    }
  }
  return { width, height, data };
}

/** `image` under a Gaussian blur of sd `sigma` px (separable, edges clamped). */
function blurred(image: RgbaImage, sigma: number): RgbaImage {
  const r = Math.ceil(3 * sigma);
  const kernel = Array.from({ length: 2 * r + 1 }, (_, i) => Math.exp(-((i - r) ** 2) / (2 * sigma * sigma)));
  const sum = kernel.reduce((a, b) => a + b, 0);
  const { width: W, height: H } = image;
  const pass = (src: RgbaImage['data'], dx: number, dy: number): Uint8Array => {
    const out = new Uint8Array(src.length);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        for (let c = 0; c < 3; c++) {
          let acc = 0;
          for (let k = -r; k <= r; k++) {
            const sx = Math.min(W - 1, Math.max(0, x + k * dx));
            const sy = Math.min(H - 1, Math.max(0, y + k * dy));
            acc += kernel[k + r]! * src[(sy * W + sx) * 4 + c]!;
          }
          out[(y * W + x) * 4 + c] = Math.round(acc / sum);
        }
        out[(y * W + x) * 4 + 3] = 255;
      }
    }
    return out;
  };
  return { width: W, height: H, data: pass(pass(image.data, 1, 0), 0, 1) };
}

const dieBox = (x: number, y: number, side: number): Box => ({ x, y, w: side, h: side });

describe('edgeWidth: how blurred a die looks, in die sizes', () => {
  const sharp = dieImage(160, 120, 40, 30, 64);
  const box = dieBox(40, 30, 64);

  it('a sharp die is about two pixels of edge; blur widens it in proportion to its sd', () => {
    const w0 = edgeWidth(sharp, box)!;
    expect(w0 * 64).toBeGreaterThan(1);
    expect(w0 * 64).toBeLessThan(3);
    const widths = [1, 2, 3, 4].map((sigma) => edgeWidth(blurred(sharp, sigma), box)!);
    for (let i = 1; i < widths.length; i++) expect(widths[i]!).toBeGreaterThan(widths[i - 1]!);
    // a Gaussian edge of sd σ is about 2.5σ wide (√(2π)σ between the 10% and 90% of its rise)
    expect(widths[3]! * 64).toBeGreaterThan(2.5 * 4 * 0.8);
    expect(widths[3]! * 64).toBeLessThan(2.5 * 4 * 1.25);
  });

  it('is measured against the die\'s size: a die twice as large under twice the blur reads alike', () => {
    const small = edgeWidth(blurred(dieImage(120, 100, 20, 20, 48), 2), dieBox(20, 20, 48))!;
    const large = edgeWidth(blurred(dieImage(240, 200, 40, 40, 96), 4), dieBox(40, 40, 96))!;
    expect(large).toBeGreaterThan(small * 0.85);
    expect(large).toBeLessThan(small * 1.15);
  });

  it('a die larger than the measure\'s side is sampled, and reads as sharp as a small one', () => {
    const big = edgeWidth(dieImage(400, 400, 40, 40, 320), dieBox(40, 40, 320))!;
    expect(big).toBeLessThan(0.06);
  });

  it('is null where nothing can be measured: a flat box, a box of a few pixels, a box off the image', () => {
    const flat = dieImage(100, 100, 200, 200, 10); // the die lies off the picture: a grey table
    expect(edgeWidth(flat, dieBox(20, 20, 40))).toBeNull();
    expect(edgeWidth(sharp, dieBox(50, 50, 6))).toBeNull();
    expect(edgeWidth(sharp, dieBox(500, 500, 40))).toBeNull();
  });

  it('leaves the image as it was', () => {
    const copy = sharp.data.slice();
    edgeWidth(sharp, box);
    expect(sharp.data).toEqual(copy);
  });
});

describe('diceEdgeWidth: the dice of a frame', () => {
  it('is the median over the dice it can measure, null with none', () => {
    const image = dieImage(160, 120, 40, 30, 64);
    const one = edgeWidth(image, dieBox(40, 30, 64))!;
    expect(diceEdgeWidth(image, [dieBox(40, 30, 64), dieBox(500, 500, 40)])).toBe(one);
    expect(diceEdgeWidth(image, [])).toBeNull();
    expect(diceEdgeWidth(image, [dieBox(500, 500, 40)])).toBeNull();
  });
});
