/**
 * How blurred the dice in a frame look, so the table can tell the player to hold still or let the
 * camera focus before a blurred read goes wrong. Pure: pixels in, a number out.
 *
 * A die's blur is measured as the width of its edges (pips, outline, numerals) against its size:
 * the contrast of its box (the 98th less the 2nd percentile of luma) over its sharpest gradients
 * (the 95th percentile of the Sobel gradient, per pixel), divided by the die's long side. A sharp
 * edge is about 2 pixels wide whatever the die's size, a Gaussian blur of sd σ widens it to about
 * 2.5σ, and the die-face reader sees every die at one size, so blur in die sizes is what costs it
 * reads (models/record/at-the-table.md, "Blurred dice, told to the player").
 */
import { median } from './settle.ts';
import type { Box, RgbaImage } from './types.ts';

/** Boxes are measured on at most this many pixels across (sampled with a step above it), so a die filling the frame costs no more than a small one. */
const MEASURE_SIDE = 128;
/** Below this luma contrast (of 255) a box is flat: no edge to measure. */
const MIN_CONTRAST = 16;

/** Gradient histogram bins per luma step: percentiles to a quarter of a step, no sort. */
const GRADIENT_BINS_PER_STEP = 4;
const GRADIENT_BINS = 256 * GRADIENT_BINS_PER_STEP;

/** The value below which fraction `p` of a histogram's `n` counts lie, in bin units (the bin's middle). */
function histogramPercentile(histogram: Uint32Array, n: number, p: number): number {
  const rank = Math.min(n - 1, Math.floor(p * n));
  let seen = 0;
  for (let b = 0; b < histogram.length; b++) {
    seen += histogram[b]!;
    if (seen > rank) return b + 0.5;
  }
  return histogram.length - 0.5;
}

/**
 * The width of the die's edges in `box`, in die sizes (its long side): about 0.03–0.07 for a
 * sharp die in a phone's 1280 px frame, 0.1 and more once blur costs reads. Null when the box is
 * too small (under 8 px across), lies outside the image, or is flat (nothing to measure).
 */
export function edgeWidth(image: RgbaImage, box: Box): number | null {
  const { width: W, height: H, data } = image;
  const size = Math.max(box.w, box.h);
  const step = Math.max(1, Math.ceil(size / MEASURE_SIDE));
  // the box within the image, a step in from the edges so every Sobel neighbour exists
  const x0 = Math.max(step, Math.floor(box.x));
  const y0 = Math.max(step, Math.floor(box.y));
  const x1 = Math.min(W - 1 - step, Math.ceil(box.x + box.w));
  const y1 = Math.min(H - 1 - step, Math.ceil(box.y + box.h));
  if (size < 8 || x1 - x0 < 4 * step || y1 - y0 < 4 * step) return null;
  // luma on the sampling grid, one sample of border all round for the Sobel neighbours
  const nx = Math.floor((x1 - x0) / step) + 1;
  const ny = Math.floor((y1 - y0) / step) + 1;
  const gw = nx + 2;
  const luma = new Float32Array(gw * (ny + 2));
  for (let j = 0; j < ny + 2; j++) {
    const row = (y0 + (j - 1) * step) * W;
    for (let i = 0; i < gw; i++) {
      const o = (row + x0 + (i - 1) * step) * 4;
      luma[j * gw + i] = 0.299 * data[o]! + 0.587 * data[o + 1]! + 0.114 * data[o + 2]!;
    }
  }
  const lumas = new Uint32Array(256);
  const gradients = new Uint32Array(GRADIENT_BINS);
  for (let j = 1; j <= ny; j++) {
    for (let i = 1; i <= nx; i++) {
      const c = j * gw + i;
      const nw = luma[c - gw - 1]!;
      const n = luma[c - gw]!;
      const ne = luma[c - gw + 1]!;
      const sw = luma[c + gw - 1]!;
      const s = luma[c + gw]!;
      const se = luma[c + gw + 1]!;
      // Sobel over 2 steps, weights summing to 4: divided by 8 it is the luma's change per step
      const gx = (ne + 2 * luma[c + 1]! + se - nw - 2 * luma[c - 1]! - sw) / 8;
      const gy = (sw + 2 * s + se - nw - 2 * n - ne) / 8;
      lumas[Math.min(255, luma[c]! | 0)]!++;
      gradients[Math.min(GRADIENT_BINS - 1, (Math.sqrt(gx * gx + gy * gy) * GRADIENT_BINS_PER_STEP) | 0)]!++;
    }
  }
  const count = nx * ny;
  const contrast = histogramPercentile(lumas, count, 0.98) - histogramPercentile(lumas, count, 0.02);
  const sharpest = histogramPercentile(gradients, count, 0.95) / GRADIENT_BINS_PER_STEP;
  if (contrast < MIN_CONTRAST) return null;
  return (contrast / sharpest) * step / size;
}

/** The dice's edge width in a frame: the median of `edgeWidth` over the boxes it can measure; null when it measures none. */
export function diceEdgeWidth(image: RgbaImage, boxes: readonly Box[]): number | null {
  const widths = boxes.map((b) => edgeWidth(image, b)).filter((w): w is number => w !== null);
  return widths.length ? median(widths) : null;
}
