/**
 * Turns a picture into a .y4m video for Chromium's fake camera
 * (`--use-file-for-fake-video-capture=FILE.y4m`): the picture, scaled to cover W×H, as one
 * YUV 4:2:0 frame, which Chromium loops (`framesToY4m`: several pictures, one frame each).
 *
 *   npx tsx scripts/y4m.ts photo.jpg out.y4m [640x480]
 *
 * Written with sharp rather than ffmpeg so the browser tests need nothing beyond npm packages.
 */
import sharp from 'sharp';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { HelpRequest, runCli, UsageError } from './lib/cli.ts';

const USAGE = 'usage: npm run y4m -- PICTURE OUT.y4m [WIDTHxHEIGHT]   (default 640x480)';

export interface Y4mOptions {
  width?: number;
  height?: number;
  fps?: number;
}

/** Encodes an image (file path or buffer) as a one-frame Y4M (BT.601, full range, C420jpeg). */
export async function imageToY4m(input: string | Buffer, options: Y4mOptions = {}): Promise<Buffer> {
  return framesToY4m([input], options);
}

/**
 * Encodes pictures as the frames of one Y4M, in order (Chromium loops the whole file at the
 * header's frame rate): a scene that changes, such as dice thrown that come to rest.
 */
export async function framesToY4m(inputs: readonly (string | Buffer)[], options: Y4mOptions = {}): Promise<Buffer> {
  const width = options.width ?? 640;
  const height = options.height ?? 480;
  if (width % 2 !== 0 || height % 2 !== 0) throw new Error('y4m: width and height must be even (4:2:0 chroma)');
  if (inputs.length === 0) throw new Error('y4m: no frames');
  const header = `YUV4MPEG2 W${width} H${height} F${options.fps ?? 30}:1 Ip A1:1 C420jpeg\n`;
  const parts: Buffer[] = [Buffer.from(header, 'ascii')];
  for (const input of inputs) {
    const { data } = await sharp(input).rotate().resize(width, height, { fit: 'cover' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    parts.push(Buffer.from('FRAME\n', 'ascii'), rgbToI420(data, width, height));
  }
  return Buffer.concat(parts);
}

/** One frame of packed RGB as planar YUV 4:2:0 (BT.601 full range; chroma averaged over 2×2). */
function rgbToI420(data: Buffer, width: number, height: number): Buffer {
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc((width / 2) * (height / 2));
  const clamp = (x: number) => Math.max(0, Math.min(255, Math.round(x)));
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const i = (row * width + col) * 3;
      y[row * width + col] = clamp(0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!);
    }
  }
  for (let row = 0; row < height; row += 2) {
    for (let col = 0; col < width; col += 2) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dr, dc] of [[0, 0], [0, 1], [1, 0], [1, 1]] as const) {
        const i = ((row + dr) * width + col + dc) * 3;
        r += data[i]!;
        g += data[i + 1]!;
        b += data[i + 2]!;
      }
      r /= 4;
      g /= 4;
      b /= 4;
      const k = (row / 2) * (width / 2) + col / 2;
      u[k] = clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
      v[k] = clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
    }
  }
  return Buffer.concat([y, u, v]);
}

/**
 * The first frame of a Y4M written by `imageToY4m`, back to RGBA (the inverse BT.601 full-range
 * conversion, chroma repeated over each 2×2 block): the picture the fake camera shows, for
 * computing in Node what the app should read from it.
 */
export function y4mToRgba(y4m: Buffer): { width: number; height: number; data: Uint8Array } {
  const headerEnd = y4m.indexOf(0x0a);
  const header = y4m.subarray(0, headerEnd).toString('ascii');
  const width = Number(/ W(\d+)/.exec(header)?.[1]);
  const height = Number(/ H(\d+)/.exec(header)?.[1]);
  if (!header.startsWith('YUV4MPEG2') || !(width > 0 && height > 0)) throw new Error('y4m: not a YUV4MPEG2 stream');
  const frameStart = y4m.indexOf(0x0a, headerEnd + 1) + 1; // after "FRAME\n"
  const y = y4m.subarray(frameStart, frameStart + width * height);
  const u = y4m.subarray(frameStart + width * height, frameStart + width * height + (width / 2) * (height / 2));
  const v = y4m.subarray(frameStart + width * height + (width / 2) * (height / 2));
  const data = new Uint8Array(width * height * 4);
  const clamp = (x: number) => Math.max(0, Math.min(255, Math.round(x)));
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const k = (row >> 1) * (width / 2) + (col >> 1);
      const luma = y[row * width + col]!;
      const cb = u[k]! - 128;
      const cr = v[k]! - 128;
      const i = (row * width + col) * 4;
      data[i] = clamp(luma + 1.402 * cr);
      data[i + 1] = clamp(luma - 0.344136 * cb - 0.714136 * cr);
      data[i + 2] = clamp(luma + 1.772 * cb);
      data[i + 3] = 255;
    }
  }
  return { width, height, data };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ args: process.argv.slice(2), allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
  if (values.help) throw new HelpRequest(USAGE);
  const [input, output, size = '640x480', ...rest] = positionals;
  if (!input || !output || rest.length) throw new UsageError(USAGE);
  const match = /^(\d+)x(\d+)$/.exec(size);
  const [width, height] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(width > 0 && height > 0 && width % 2 === 0 && height % 2 === 0)) throw new UsageError(`${size}: the size must be WIDTHxHEIGHT, both even (4:2:0 chroma), e.g. 640x480\n${USAGE}`);
  await writeFile(output, await imageToY4m(input, { width, height }));
  console.log(`${output}: ${width}×${height}`);
}

runCli('y4m', import.meta.url, main);
