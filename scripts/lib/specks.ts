/**
 * The salt-and-pepper specks of a dataset's export. Most epanemu-train photos carry single pixels
 * set near white or near black (256 of its 302 photos, 0.05–1.8% of their pixels: an augmentation
 * of the dataset's export), which no val photo (at most 0.017%) and no camera frame carries. Photos
 * that carry them are read without them wherever a dataset is read (`readDatasetPhoto`), so the
 * held-out slice, which every rule is chosen on, looks like val and the camera; the trainer cleans
 * the photos it learns from the same way (models/training/datasets.py `remove_specks`).
 */
import type { RgbaImage } from '../../src/lib/vision/types.ts';

/** A speck stands this far in luma (0–255) above all 8 of its neighbours, or below them all. */
export const SPECK_STEP = 40;
/** A photo carries specks when this share of its pixels are specks. */
export const SPECKLED_SHARE = 0.0005;

/** Luma as OpenCV's RGB→grey computes it (fixed point), so both cleaners flag the same pixels. */
function luma(data: RgbaImage['data'], i: number): number {
  return (data[i]! * 4899 + data[i + 1]! * 9617 + data[i + 2]! * 1868 + 8192) >> 14;
}

/** The specks of an image: indices (y·width + x) of pixels off the border that stand alone. */
export function speckPixels(image: RgbaImage): number[] {
  const { width: w, height: h, data } = image;
  const g = new Uint8Array(w * h);
  for (let p = 0; p < w * h; p++) g[p] = luma(data, p * 4);
  const specks: number[] = [];
  const around = [-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1];
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const p = y * w + x;
      let max = 0;
      let min = 255;
      for (const d of around) {
        max = Math.max(max, g[p + d]!);
        min = Math.min(min, g[p + d]!);
      }
      if (g[p]! > max + SPECK_STEP || g[p]! < min - SPECK_STEP) specks.push(p);
    }
  }
  return specks;
}

/**
 * The image without its specks when it carries them (each speck's channels set to the median of
 * its 3×3 neighbourhood); the image itself, unchanged, when it does not.
 */
export function withoutSpecks(image: RgbaImage): RgbaImage {
  const specks = speckPixels(image);
  if (specks.length < SPECKLED_SHARE * image.width * image.height) return image;
  const { width: w, data } = image;
  const out = new Uint8Array(data);
  const around = new Array<number>(9);
  for (const p of specks) {
    for (let c = 0; c < 3; c++) {
      let k = 0;
      for (const dy of [-w, 0, w]) for (const dx of [-1, 0, 1]) around[k++] = data[(p + dy + dx) * 4 + c]!;
      around.sort((a, b) => a - b);
      out[p * 4 + c] = around[4]!;
    }
  }
  return { width: image.width, height: image.height, data: out };
}
