import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { fileURLToPath } from 'node:url';
import { inputBoxToSource, letterbox, letterboxGeometry } from '../../src/lib/vision/letterbox.ts';
import type { RgbaImage } from '../../src/lib/vision/types.ts';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/letterbox/${name}`, import.meta.url));

async function png(file: string): Promise<RgbaImage> {
  const { data, info } = await sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}

function solid(width: number, height: number, rgb: [number, number, number]): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([...rgb, 255], i * 4);
  return { width, height, data };
}

describe('letterboxGeometry', () => {
  it('fits a landscape frame to the width and centres it vertically', () => {
    // 640×480 into 512: scale 0.8 → 512×384, (512 − 384) / 2 = 64 above and below
    expect(letterboxGeometry(640, 480, 512)).toEqual({
      size: 512, inputWidth: 512, inputHeight: 512, newWidth: 512, newHeight: 384, padX: 0, padY: 64, scaleX: 0.8, scaleY: 0.8, width: 640, height: 480,
    });
  });

  it('with a stride, pads only up to the next multiple of it (a model with dynamic input sides)', () => {
    // 1280×720 into 512: 512×288, already a multiple of 32: no padding at all
    expect(letterboxGeometry(1280, 720, 512, 32)).toMatchObject({ inputWidth: 512, inputHeight: 288, newWidth: 512, newHeight: 288, padX: 0, padY: 0 });
    // 640×480 → 512×384; a portrait 720×1280 → 288×512
    expect(letterboxGeometry(640, 480, 512, 32)).toMatchObject({ inputWidth: 512, inputHeight: 384, padY: 0 });
    expect(letterboxGeometry(720, 1280, 512, 32)).toMatchObject({ inputWidth: 288, inputHeight: 512, padX: 0 });
    // 1000×333 → 512×170, padded to 192: 11 above, 11 below
    expect(letterboxGeometry(1000, 333, 512, 32)).toMatchObject({ inputWidth: 512, inputHeight: 192, newHeight: 170, padY: 11 });
    // a square frame is the square input
    expect(letterboxGeometry(640, 640, 512, 32)).toMatchObject({ inputWidth: 512, inputHeight: 512, padX: 0, padY: 0 });
  });

  it('rejects a stride that does not divide the size', () => {
    expect(() => letterboxGeometry(640, 480, 512, 48)).toThrow(/stride/);
    expect(() => letterboxGeometry(640, 480, 512, -32)).toThrow(/stride/);
  });

  it('fits a portrait frame to the height and centres it horizontally', () => {
    // 100×200 into 320: scale 1.6 → 160×320, pad (320 − 160) / 2 = 80 left
    const g = letterboxGeometry(100, 200, 320);
    expect([g.newWidth, g.newHeight, g.padX, g.padY]).toEqual([160, 320, 80, 0]);
  });

  it('rounds the resized side and floors an odd pad (the extra pixel goes right/bottom)', () => {
    // 1000×333 into 512: 333 × 0.512 = 170.496 → 170; pad (512 − 170) / 2 = 171
    const g = letterboxGeometry(1000, 333, 512);
    expect([g.newWidth, g.newHeight, g.padX, g.padY]).toEqual([512, 170, 0, 171]);
    expect(g.scaleY).toBeCloseTo(170 / 333, 12);
    // 300×101 into 64: 101 × 64 / 300 = 21.55 → 22; pad (64 − 22) / 2 = 21
    expect(letterboxGeometry(300, 101, 64).padY).toBe(21);
    const odd = letterboxGeometry(300, 97, 64); // 20.69 → 21; pad 43 / 2 → 21 (22 below)
    expect([odd.newHeight, odd.padY]).toEqual([21, 21]);
  });

  it('rejects empty or fractional sizes', () => {
    expect(() => letterboxGeometry(0, 10, 64)).toThrow(RangeError);
    expect(() => letterboxGeometry(10.5, 10, 64)).toThrow(RangeError);
  });
});

describe('letterbox tensor', () => {
  it('is CHW, RGB in [0, 1], pad 114/255 outside the frame', () => {
    const { tensor, geometry } = letterbox(solid(200, 100, [255, 0, 51]), 64, 114);
    expect(tensor.length).toBe(3 * 64 * 64);
    expect([geometry.padY, geometry.newHeight]).toEqual([16, 32]);
    const at = (c: number, x: number, y: number): number => tensor[c * 64 * 64 + y * 64 + x]!;
    expect(at(0, 10, 0)).toBeCloseTo(114 / 255, 6); // pad row above
    expect(at(2, 63, 63)).toBeCloseTo(114 / 255, 6); // pad row below
    expect(at(0, 30, 30)).toBeCloseTo(1, 6);
    expect(at(1, 30, 30)).toBeCloseTo(0, 6);
    expect(at(2, 30, 30)).toBeCloseTo(0.2, 6);
    expect(at(2, 0, 16)).toBeCloseTo(0.2, 6); // first frame row
    expect(at(2, 0, 47)).toBeCloseTo(0.2, 6); // last frame row
    expect(at(2, 0, 48)).toBeCloseTo(114 / 255, 6);
  });

  it('averages areas when shrinking: a 2×2 checker of 0/255 becomes 127.5 grey', () => {
    const data = new Uint8Array(4 * 4 * 4);
    for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) data.set((x + y) % 2 ? [255, 255, 255, 255] : [0, 0, 0, 255], (y * 4 + x) * 4);
    const { tensor } = letterbox({ width: 4, height: 4, data }, 2, 114);
    for (const v of tensor) expect(v).toBeCloseTo(0.5, 6);
  });

  it('interpolates linearly when enlarging, pixel centres aligned, edges clamped', () => {
    // one row 0, 255 → 4 wide: centres at −0.25, 0.25, 0.75, 1.25 → 0, 63.75, 191.25, 255
    const data = new Uint8Array([0, 0, 0, 255, 255, 255, 255, 255]);
    const { tensor } = letterbox({ width: 2, height: 1, data }, 4, 0);
    const row = Array.from(tensor.subarray(4 * 1 + 0, 4 * 1 + 4)).map((v) => v * 255); // red, first frame row (padY 1)
    expect(row[0]).toBeCloseTo(0, 4);
    expect(row[1]).toBeCloseTo(63.75, 4);
    expect(row[2]).toBeCloseTo(191.25, 4);
    expect(row[3]).toBeCloseTo(255, 4);
  });

  it.each(['shrink-wide', 'shrink-tall', 'enlarge'])('matches OpenCV (the training letterbox) on %s', async (name) => {
    const input = await png(fixture(`${name}-input.png`));
    const expected = await png(fixture(`${name}-expected.png`));
    const size = expected.width;
    const { tensor } = letterbox(input, size, 114);
    let worst = 0;
    for (let c = 0; c < 3; c++) {
      for (let i = 0; i < size * size; i++) {
        worst = Math.max(worst, Math.abs(tensor[c * size * size + i]! * 255 - expected.data[i * 4 + c]!));
      }
    }
    // OpenCV rounds to 8 bits (and uses fixed point for bilinear); we keep floats
    expect(worst).toBeLessThanOrEqual(1.01);
  });

  it('with a stride, lays the tensor out at the input\'s own width and height', () => {
    // 200×100 into 64 with stride 32: 64×32, no padding
    const { tensor, geometry } = letterbox(solid(200, 100, [255, 0, 51]), 64, 114, undefined, 32);
    expect([geometry.inputWidth, geometry.inputHeight]).toEqual([64, 32]);
    expect(tensor.length).toBe(3 * 64 * 32);
    for (let i = 0; i < 64 * 32; i++) {
      expect(tensor[i]).toBeCloseTo(1, 6);
      expect(tensor[2 * 64 * 32 + i]).toBeCloseTo(0.2, 6);
    }
    // 200×90 → 64×29 (28.8 rounds up), padded to 32: 1 row above, 2 below
    const padded = letterbox(solid(200, 90, [0, 0, 0]), 64, 114, undefined, 32);
    expect([padded.geometry.newHeight, padded.geometry.padY]).toEqual([29, 1]);
    expect(padded.tensor[0]).toBeCloseTo(114 / 255, 6);
    expect(padded.tensor[64]).toBeCloseTo(0, 6);
    expect(padded.tensor[29 * 64]).toBeCloseTo(0, 6);
    expect(padded.tensor[30 * 64]).toBeCloseTo(114 / 255, 6);
  });

  it('reuses a given output buffer and checks its size', () => {
    const out = new Float32Array(3 * 32 * 32);
    expect(letterbox(solid(8, 8, [0, 0, 0]), 32, 114, out).tensor).toBe(out);
    expect(() => letterbox(solid(8, 8, [0, 0, 0]), 32, 114, new Float32Array(5))).toThrow(RangeError);
  });

  it('rejects pixel data of the wrong length', () => {
    expect(() => letterbox({ width: 4, height: 4, data: new Uint8Array(10) }, 32, 114)).toThrow(/RGBA bytes/);
  });
});

describe('inputBoxToSource', () => {
  const g = letterboxGeometry(640, 480, 512); // scale 0.8, padY 64

  it('undoes scale and padding', () => {
    // source box x 100..150, y 200..260 → input x 80..120, y 224..272 → centre (100, 248), 40×48
    const b = inputBoxToSource(100, 248, 40, 48, g)!;
    expect(b.x).toBeCloseTo(100, 9);
    expect(b.y).toBeCloseTo(200, 9);
    expect(b.w).toBeCloseTo(50, 9);
    expect(b.h).toBeCloseTo(60, 9);
  });

  it('clips to the frame and drops boxes wholly in the padding', () => {
    const b = inputBoxToSource(10, 64, 40, 40, g)!; // input x −10..30, y 44..84 → source y 0..25
    expect(b.x).toBe(0);
    expect(b.y).toBe(0);
    expect(b.w).toBeCloseTo(37.5, 9);
    expect(b.h).toBeCloseTo(25, 9);
    expect(inputBoxToSource(100, 20, 30, 30, g)).toBeNull();
  });
});
