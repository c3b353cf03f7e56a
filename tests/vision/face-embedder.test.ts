import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import {
  cropForEmbedder,
  embedderCropSquare,
  FaceEmbedderConfigError,
  parseFaceEmbedderConfig,
  quarterTurnCrop,
  TRAINED_CROP,
} from '../../src/lib/vision/face-embedder.ts';
import { taughtEmbeddingRecipe } from '../../src/lib/vision/face-reader.ts';
import type { Box, RgbaImage } from '../../src/lib/vision/types.ts';

const fixture = (name: string): URL => new URL(`../fixtures/face-crops/${name}`, import.meta.url);

async function rgba(url: URL): Promise<RgbaImage> {
  const { data, info } = await sharp(readFileSync(url)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}

const good = { inputSize: 64, dim: 64, cropMargin: 1.15, threshold: 0.5, ambiguityMargin: 0.05, secondLookGap: 0.1 };

describe('face embedder sidecar', () => {
  it('accepts the contract and ignores extra fields (training notes)', () => {
    expect(parseFaceEmbedderConfig({ ...good, training: { steps: 3 } })).toEqual({ ...good, readingCrop: TRAINED_CROP });
  });
  it('reads the reading crop, and a sidecar without one as the crop it was trained on', () => {
    expect(parseFaceEmbedderConfig({ ...good, readingCrop: { centre: 0.3, lift: 0.5, side: 0.925 } }).readingCrop).toEqual({ centre: 0.3, lift: 0.5, side: 0.925 });
    expect(parseFaceEmbedderConfig(good).readingCrop).toEqual({ centre: 0.5, lift: 0, side: 1 });
  });
  it('reads a sidecar without a second look as never looking twice', () => {
    const { secondLookGap: _, ...older } = good;
    expect(parseFaceEmbedderConfig(older).secondLookGap).toBe(0);
  });
  it.each([
    [{ ...good, inputSize: 0 }, '"inputSize"'],
    [{ ...good, dim: 'x' }, '"dim"'],
    [{ ...good, cropMargin: 0.5 }, '"cropMargin"'],
    [{ ...good, threshold: 2 }, '"threshold"'],
    [{ ...good, ambiguityMargin: -1 }, '"ambiguityMargin"'],
    [{ ...good, secondLookGap: -0.1 }, '"secondLookGap"'],
    [{ ...good, inputSize: 64.5 }, 'integers'],
    [{ ...good, readingCrop: [0.3, 1] }, '"readingCrop"'],
    [{ ...good, readingCrop: { centre: 1.5, lift: 0, side: 1 } }, '"readingCrop.centre"'],
    [{ ...good, readingCrop: { centre: 0.3, side: 1 } }, '"readingCrop.lift"'],
    [{ ...good, readingCrop: { centre: 0.3, lift: 0 } }, '"readingCrop.side"'],
    [[], 'JSON object'],
  ])('rejects %j naming the field', (json, what) => {
    expect(() => parseFaceEmbedderConfig(json)).toThrow(FaceEmbedderConfigError);
    expect(() => parseFaceEmbedderConfig(json)).toThrow(what);
  });
});

describe('embedder crop', () => {
  it('squares the box on its longer side and enlarges it by the margin, about its centre', () => {
    expect(embedderCropSquare({ x: 10, y: 20, w: 40, h: 20 }, 1.5)).toEqual({ x: 0, y: 0, side: 60 });
  });

  it('with a reading crop, lies that far down the box, raised by the height beyond the width, and is that much of the trained side', () => {
    // side 60 × 1.15 × 0.925 = 63.8; centre (30, 20 + 0.3 × 60 = 38)
    expect(embedderCropSquare({ x: 10, y: 20, w: 40, h: 60 }, 1.15, { centre: 0.3, lift: 0, side: 0.925 })).toEqual({ x: -2, y: 6, side: 64 });
    // lifted by 0.5 × (60 - 40) = 10: centre (30, 28)
    expect(embedderCropSquare({ x: 10, y: 20, w: 40, h: 60 }, 1.15, { centre: 0.3, lift: 0.5, side: 0.925 })).toEqual({ x: -2, y: -4, side: 64 });
    // a box as wide as tall, or wider, is not lifted
    expect(embedderCropSquare({ x: 10, y: 20, w: 60, h: 40 }, 1, { centre: 0.5, lift: 1, side: 1 })).toEqual(embedderCropSquare({ x: 10, y: 20, w: 60, h: 40 }, 1));
    expect(embedderCropSquare({ x: 10, y: 20, w: 40, h: 60 }, 1.15, TRAINED_CROP)).toEqual(embedderCropSquare({ x: 10, y: 20, w: 40, h: 60 }, 1.15));
  });

  it('names the reading crop in the taught embeddings\' recipe, so that photos taught with another crop are embedded again', () => {
    const config = parseFaceEmbedderConfig(good);
    expect(taughtEmbeddingRecipe(config)).toBe('quarter-turns');
    expect(taughtEmbeddingRecipe({ ...config, readingCrop: { centre: 0.3, lift: 0.5, side: 0.925 } })).toBe('quarter-turns/crop:0.3,0.5,0.925');
  });

  it('is the crop the training renderer cuts (models/training/die_crops.py), edges and enlargement included', async () => {
    const image = await rgba(fixture('input.png'));
    const expected = JSON.parse(readFileSync(fixture('expected.json'), 'utf8')) as { k: number; margin: number; cases: Array<{ box: Box; crop: number[] }> };
    for (const c of expected.cases) {
      const out = new Float32Array(3 * expected.k * expected.k);
      cropForEmbedder(image, c.box, expected.k, expected.margin, out);
      let worst = 0;
      out.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - c.crop[i]!))));
      // OpenCV rounds to 8 bits and uses fixed-point weights: within 2/255 everywhere
      expect(worst).toBeLessThan(2.5 / 255);
    }
  });

  it('writes planar RGB at the offset and refuses a short buffer', () => {
    const image: RgbaImage = { width: 2, height: 1, data: new Uint8Array([255, 0, 0, 255, 255, 0, 0, 255]) };
    const out = new Float32Array(1 + 3 * 4);
    cropForEmbedder(image, { x: 0, y: 0, w: 2, h: 1 }, 2, 1, out, 1);
    expect(Array.from(out.subarray(1, 5))).toEqual([1, 1, 1, 1]);
    expect(Array.from(out.subarray(5))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(() => cropForEmbedder(image, { x: 0, y: 0, w: 2, h: 1 }, 2, 1, new Float32Array(11))).toThrow(RangeError);
  });
});

describe('quarterTurnCrop', () => {
  it('turns a crop a quarter counter-clockwise, every channel, and four turns give it back', () => {
    // k = 2, one channel pattern per plane: [a b / c d] turned a quarter counter-clockwise is [b d / a c]
    const k = 2;
    const crop = Float32Array.from([1, 2, 3, 4, 10, 20, 30, 40, 100, 200, 300, 400]);
    const buf = new Float32Array(5 * 12);
    buf.set(crop, 0);
    for (let t = 1; t <= 4; t++) quarterTurnCrop(buf, (t - 1) * 12, t * 12, k);
    expect(Array.from(buf.subarray(12, 24))).toEqual([2, 4, 1, 3, 20, 40, 10, 30, 200, 400, 100, 300]);
    expect(Array.from(buf.subarray(48, 60))).toEqual(Array.from(crop));
  });
});
