/**
 * Camera conditions the val splits hardly show, put on a labelled photo before it is read
 * (`npm run eval -- --condition NAME`), so the readers are measured against the tables, lights and
 * phones of real play: a dim room at high ISO, a tungsten lamp or blue shade the phone did not
 * white-balance, a shaking hand or a phone still moving, a missed focus, hard JPEG, a blown-out
 * lamp, a poor camera, a flickering LED's bands, a camera that sees no colour.
 * Each condition keeps the photo's size, so its labels still hold, and draws its random numbers
 * from the photo's name, so every run puts the same condition on the same photo.
 */
import sharp, { type Sharp } from 'sharp';
import type { RgbaImage } from '../../src/lib/vision/types.ts';
import { gauss, random } from './random.ts';

export const CAMERA_CONDITIONS = ['dim', 'tungsten', 'shade', 'shake', 'swing', 'defocus', 'jpeg', 'glare', 'lowres', 'flicker', 'mono'] as const;
export type CameraCondition = (typeof CAMERA_CONDITIONS)[number];

/** What each condition simulates, for the reports. */
export const CONDITION_NOTES: Record<CameraCondition, string> = {
  dim: 'a dim room: a third of the light, the sensor gain doubled (shot and read noise, chroma noise), the frame left darker',
  tungsten: 'a 2700 K lamp the phone did not white-balance: linear green x0.78, blue x0.5',
  shade: 'blue shade or a cold LED not white-balanced: linear red x0.7, green x0.88',
  shake: 'a hand moving a little at a slow shutter: motion blur 0.75% of the long side, any direction',
  swing: 'the phone still swinging when the frame is taken: motion blur 1.5% of the long side, any direction',
  defocus: 'focus missed a little: Gaussian blur of sd 0.25% of the long side (at 0.5% the pips of a die a sixteenth of the frame wide run together)',
  jpeg: 'hard compression (a messaging app, a weak browser encoder): JPEG quality 15',
  glare: 'over-exposed under a bright lamp: linear light x2, clipped',
  lowres: 'a poor camera or digital zoom: shrunk to a third of each side, then resized back (bilinear)',
  flicker: 'a mains-powered LED or tube flickering at 100–120 Hz under a rolling shutter: dark bands across the frame, 3–6 to its height, linear light down by up to 40%',
  mono: 'no colour: a night or infrared camera, a black-and-white filter or scan; each pixel its luminance (Rec. 709, linear light)',
};

export function isCameraCondition(name: string): name is CameraCondition {
  return (CAMERA_CONDITIONS as readonly string[]).includes(name);
}

/** A seed from a photo's name (FNV-1a), so a condition lands the same way on each run. */
function seedOf(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const SRGB_TO_LINEAR = Float32Array.from({ length: 256 }, (_, i) => {
  const v = i / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
});

/** Linear light back to sRGB bytes through a table of 2^16 steps (fine enough for the darks: a byte there spans 20 steps). */
const LINEAR_STEPS = 65535;
const LINEAR_TO_SRGB = Uint8Array.from({ length: LINEAR_STEPS + 1 }, (_, i) => {
  const v = i / LINEAR_STEPS;
  return Math.round(255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055));
});

function toSrgb(linear: number): number {
  return LINEAR_TO_SRGB[Math.round(Math.min(1, Math.max(0, linear)) * LINEAR_STEPS)]!;
}

/** Each pixel's light, per channel, mapped in linear light (as a sensor sees it); alpha kept. */
function mapLinear(image: RgbaImage, f: (rgb: [number, number, number]) => void): RgbaImage {
  const out = new Uint8Array(image.data.length);
  const rgb: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < out.length; i += 4) {
    rgb[0] = SRGB_TO_LINEAR[image.data[i]!]!;
    rgb[1] = SRGB_TO_LINEAR[image.data[i + 1]!]!;
    rgb[2] = SRGB_TO_LINEAR[image.data[i + 2]!]!;
    f(rgb);
    out[i] = toSrgb(rgb[0]);
    out[i + 1] = toSrgb(rgb[1]);
    out[i + 2] = toSrgb(rgb[2]);
    out[i + 3] = image.data[i + 3]!;
  }
  return { width: image.width, height: image.height, data: out };
}

function raw(image: RgbaImage): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } });
}

async function fromSharp(pipeline: Sharp): Promise<RgbaImage> {
  const { data, info } = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/** A line of `length` pixels at `angle`, anti-aliased, as a normalised convolution kernel. */
function motionKernel(length: number, angle: number): { width: number; height: number; kernel: number[] } {
  const size = 2 * Math.ceil(length / 2) + 1;
  const c = (size - 1) / 2;
  const kernel = new Array<number>(size * size).fill(0);
  const steps = 8 * size;
  for (let s = 0; s <= steps; s++) {
    const t = (s / steps - 0.5) * length;
    const x = c + t * Math.cos(angle);
    const y = c + t * Math.sin(angle);
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) {
      const xi = x0 + dx;
      const yi = y0 + dy;
      if (xi < 0 || yi < 0 || xi >= size || yi >= size) continue;
      kernel[yi * size + xi]! += (1 - Math.abs(x - xi)) * (1 - Math.abs(y - yi));
    }
  }
  const sum = kernel.reduce((a, b) => a + b, 0);
  return { width: size, height: size, kernel: kernel.map((k) => k / sum) };
}

/** `image` as the camera would have taken it under `condition`; the same size, a new buffer. */
export async function applyCameraCondition(image: RgbaImage, condition: CameraCondition, name: string): Promise<RgbaImage> {
  const r = random(seedOf(`${condition}:${name}`));
  const long = Math.max(image.width, image.height);
  switch (condition) {
    case 'dim': {
      // the light a third, the gain doubled: shot noise grows with the signal, read noise does not
      return mapLinear(image, (rgb) => {
        const shared = gauss(r);
        for (let c = 0; c < 3; c++) {
          const signal = rgb[c as 0 | 1 | 2] / 3;
          const sd = Math.sqrt(0.0004 * signal + 0.00002);
          rgb[c as 0 | 1 | 2] = 2 * (signal + sd * (0.6 * shared + 0.8 * gauss(r)));
        }
      });
    }
    case 'tungsten':
      return mapLinear(image, (rgb) => {
        rgb[1] = rgb[1] * 0.78;
        rgb[2] = rgb[2] * 0.5;
      });
    case 'shade':
      return mapLinear(image, (rgb) => {
        rgb[0] = rgb[0] * 0.7;
        rgb[1] = rgb[1] * 0.88;
      });
    case 'glare':
      return mapLinear(image, (rgb) => {
        rgb[0] = rgb[0] * 2;
        rgb[1] = rgb[1] * 2;
        rgb[2] = rgb[2] * 2;
      });
    case 'shake':
    case 'swing':
      return fromSharp(raw(image).convolve(motionKernel(Math.max(2, (condition === 'shake' ? 0.0075 : 0.015) * long), r() * Math.PI)));
    case 'defocus':
      return fromSharp(raw(image).blur({ sigma: Math.max(0.3, 0.0025 * long), precision: 'float' }));
    case 'jpeg': {
      const jpeg = await raw(image).removeAlpha().jpeg({ quality: 15 }).toBuffer();
      return fromSharp(sharp(jpeg));
    }
    case 'flicker': {
      // each row is exposed at its own moment of the light's cycle: a sine of the row, its phase and count of bands drawn per photo
      const bands = 3 + 3 * r();
      const phase = 2 * Math.PI * r();
      const depth = 0.4;
      const gain = Float32Array.from({ length: image.height }, (_, y) => 1 - depth * (0.5 + 0.5 * Math.sin(phase + (2 * Math.PI * bands * y) / image.height)));
      let pixel = 0;
      return mapLinear(image, (rgb) => {
        const g = gain[Math.floor(pixel++ / image.width)]!;
        rgb[0] *= g;
        rgb[1] *= g;
        rgb[2] *= g;
      });
    }
    case 'mono':
      return mapLinear(image, (rgb) => {
        const y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
        rgb[0] = y;
        rgb[1] = y;
        rgb[2] = y;
      });
    case 'lowres': {
      const small = await raw(image)
        .resize({ width: Math.max(1, Math.round(image.width / 3)), height: Math.max(1, Math.round(image.height / 3)), kernel: 'linear', fastShrinkOnLoad: false })
        .raw()
        .toBuffer({ resolveWithObject: true });
      return fromSharp(sharp(small.data, { raw: { width: small.info.width, height: small.info.height, channels: 4 } }).resize({ width: image.width, height: image.height, kernel: 'linear' }));
    }
  }
}
