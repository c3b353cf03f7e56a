import { describe, expect, it } from 'vitest';
import { applyCameraCondition, CAMERA_CONDITIONS, isCameraCondition } from '../../scripts/lib/camera-conditions.ts';
import type { RgbaImage } from '../../src/lib/vision/types.ts';

const W = 600;
const H = 40;

/** A grey frame, or one half dark and half light (a sharp vertical edge at x = 300), or that edge between a red and a blue half. */
function frame(kind: 'flat' | 'edge' | 'colour-edge', grey = 128): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const v = kind === 'flat' ? grey : x < W / 2 ? 40 : 220;
      data.set(kind === 'colour-edge' ? (x < W / 2 ? [200, 60, 40, 255] : [40, 90, 220, 255]) : [v, v, v, 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

function channelMean(image: RgbaImage, c: number): number {
  let sum = 0;
  for (let i = c; i < image.data.length; i += 4) sum += image.data[i]!;
  return sum / (image.width * image.height);
}

function channelSd(image: RgbaImage, c: number): number {
  const mean = channelMean(image, c);
  let sum = 0;
  for (let i = c; i < image.data.length; i += 4) sum += (image.data[i]! - mean) ** 2;
  return Math.sqrt(sum / (image.width * image.height));
}

/** The step across the edge in the middle row: 180 when sharp, less when blurred. */
const edgeStep = (image: RgbaImage): number => {
  const row = (H / 2) * W * 4;
  return image.data[row + (W / 2 + 1) * 4]! - image.data[row + (W / 2 - 2) * 4]!;
};

describe('camera conditions (npm run eval -- --condition)', () => {
  it.each(CAMERA_CONDITIONS)('%s keeps the frame size, leaves the input alone and lands the same way on every run', async (condition) => {
    const input = frame('colour-edge');
    const before = input.data.slice();
    const a = await applyCameraCondition(input, condition, 'photo-1.jpg');
    const b = await applyCameraCondition(input, condition, 'photo-1.jpg');
    expect([a.width, a.height, a.data.length]).toEqual([W, H, W * H * 4]);
    expect(a.data).toEqual(b.data);
    expect(input.data).toEqual(before);
    expect(a.data).not.toEqual(input.data);
  });

  it('takes the colour away and keeps the light: mono gives each pixel its luminance', async () => {
    const mono = await applyCameraCondition(frame('colour-edge'), 'mono', 'x');
    for (let i = 0; i < mono.data.length; i += 4) expect(new Set([mono.data[i], mono.data[i + 1], mono.data[i + 2]]).size).toBe(1);
    // red (200, 60, 40) is darker than its red channel, blue (40, 90, 220) darker than its blue
    expect(mono.data[0]).toBeLessThan(200);
    expect(mono.data[0]).toBeGreaterThan(60);
    expect(mono.data[(W - 1) * 4]).toBeLessThan(220);
    expect((await applyCameraCondition(frame('flat'), 'mono', 'x')).data).toEqual(frame('flat').data);
  });

  it('names only the conditions it knows', () => {
    expect(isCameraCondition('dim')).toBe(true);
    expect(isCameraCondition('fog')).toBe(false);
  });

  it('casts a lamp the phone did not white-balance: tungsten warm, shade cold', async () => {
    const tungsten = await applyCameraCondition(frame('flat'), 'tungsten', 'x');
    expect(channelMean(tungsten, 0)).toBe(128);
    expect(channelMean(tungsten, 1)).toBeLessThan(120);
    expect(channelMean(tungsten, 2)).toBeLessThan(100);
    const shade = await applyCameraCondition(frame('flat'), 'shade', 'x');
    expect(channelMean(shade, 0)).toBeLessThan(channelMean(shade, 1));
    expect(channelMean(shade, 1)).toBeLessThan(channelMean(shade, 2));
  });

  it('dims a room with sensor noise that differs from photo to photo, and blows out glare', async () => {
    const dim = await applyCameraCondition(frame('flat'), 'dim', 'a.jpg');
    expect(channelMean(dim, 1)).toBeLessThan(115);
    expect(channelSd(dim, 1)).toBeGreaterThan(2);
    expect((await applyCameraCondition(frame('flat'), 'dim', 'b.jpg')).data).not.toEqual(dim.data);
    const glare = await applyCameraCondition(frame('flat'), 'glare', 'x');
    expect(channelMean(glare, 0)).toBeGreaterThan(165);
    expect(channelMean(await applyCameraCondition(frame('flat', 200), 'glare', 'x'), 0)).toBe(255);
  });

  it('bands a flickering light across the rows, never along them, and darkens only', async () => {
    const input = frame('flat', 200);
    const flicker = await applyCameraCondition(input, 'flicker', 'x');
    const row = (y: number) => Array.from({ length: W }, (_, x) => flicker.data[(y * W + x) * 4]!);
    const rowMeans = Array.from({ length: H }, (_, y) => row(y)[0]!);
    for (let y = 0; y < H; y++) expect(new Set(row(y)).size).toBe(1);
    expect(Math.max(...rowMeans)).toBeLessThanOrEqual(200);
    // 3–6 bands over 40 rows: a row near a band's light and another near its dark
    expect(Math.max(...rowMeans) - Math.min(...rowMeans)).toBeGreaterThan(30);
    expect((await applyCameraCondition(input, 'flicker', 'y')).data).not.toEqual(flicker.data);
  });

  it.each(['shake', 'swing', 'defocus', 'lowres'] as const)('%s softens a sharp edge but keeps a flat frame flat', async (condition) => {
    expect(edgeStep(frame('edge'))).toBe(180);
    expect(edgeStep(await applyCameraCondition(frame('edge'), condition, 'x'))).toBeLessThan(170);
    const flat = await applyCameraCondition(frame('flat'), condition, 'x');
    expect(Math.abs(channelMean(flat, 0) - 128)).toBeLessThan(1.5);
  });
});
