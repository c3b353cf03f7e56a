/**
 * Letterbox pre-processing (Ultralytics style): scale the frame by S / max(width, height),
 * centre it in a frame filled with the pad value, and lay it out as a float32 CHW tensor, RGB
 * in [0, 1]. The frame is S × S, or, with a `stride` (a model whose input height and width are
 * dynamic), only padded up to the next multiple of the stride on each side (Ultralytics'
 * minimal-padding "rect" letterbox): a 1280×720 camera frame becomes 512×288, not 512×512, and
 * costs the network about 56% as much. The same code runs in the browser worker and in Node.
 *
 * Resampling matches the training code's letterbox (models/training/evaluate.py, OpenCV):
 * area averaging when shrinking (cv2.INTER_AREA: a 4000-pixel phone photo loses no pips to
 * aliasing), bilinear when enlarging (cv2.INTER_LINEAR). Separable, in float, no rounding.
 */
import type { Box, RgbaImage } from './types.ts';

export interface LetterboxGeometry {
  /** The longer side of the resized frame (the model's input size S). */
  size: number;
  /** The model input's width and height: S × S, or the resized frame padded up to the stride. */
  inputWidth: number;
  inputHeight: number;
  /** Size of the resized frame inside the input. */
  newWidth: number;
  newHeight: number;
  /** Left and top padding, in input pixels. */
  padX: number;
  padY: number;
  /** Exact per-axis scale source → input (newWidth / width, newHeight / height). */
  scaleX: number;
  scaleY: number;
  /** Source frame size. */
  width: number;
  height: number;
}

/**
 * Where a `width` × `height` frame lands in the model input: `stride` 0 for a square S × S
 * input, or the stride the input's sides must be multiples of (`DetectorConfig.inputStride`).
 */
export function letterboxGeometry(width: number, height: number, size: number, stride = 0): LetterboxGeometry {
  if (!(width > 0 && height > 0 && Number.isInteger(width) && Number.isInteger(height))) {
    throw new RangeError(`letterbox: image size must be positive integers, got ${width}×${height}`);
  }
  if (!(Number.isInteger(stride) && stride >= 0 && (stride === 0 || size % stride === 0))) {
    throw new RangeError(`letterbox: stride must be 0 or an integer dividing the size ${size}, got ${stride}`);
  }
  const scale = size / Math.max(width, height);
  const newWidth = Math.min(size, Math.max(1, Math.round(width * scale)));
  const newHeight = Math.min(size, Math.max(1, Math.round(height * scale)));
  const inputWidth = stride ? Math.ceil(newWidth / stride) * stride : size;
  const inputHeight = stride ? Math.ceil(newHeight / stride) * stride : size;
  return {
    size,
    inputWidth,
    inputHeight,
    newWidth,
    newHeight,
    padX: Math.floor((inputWidth - newWidth) / 2),
    padY: Math.floor((inputHeight - newHeight) / 2),
    scaleX: newWidth / width,
    scaleY: newHeight / height,
    width,
    height,
  };
}

/** Filter taps of a 1-D resize: for output i, `weights[i * taps + k]` applies to source `start[i] + k`. */
interface Taps {
  start: Int32Array;
  count: Int32Array;
  taps: number;
  weights: Float32Array;
}

function resampleTaps(sourceLength: number, outLength: number): Taps {
  const scale = outLength / sourceLength;
  const taps = scale < 1 ? Math.ceil(1 / scale) + 2 : 2;
  const start = new Int32Array(outLength);
  const count = new Int32Array(outLength);
  const weights = new Float32Array(outLength * taps);
  for (let i = 0; i < outLength; i++) {
    const o = i * taps;
    if (scale < 1) {
      // Area: output pixel i covers source [i / scale, (i + 1) / scale); each source pixel
      // weighs by the length of its overlap (cv2.INTER_AREA).
      const lo = i / scale;
      const hi = Math.min(sourceLength, (i + 1) / scale);
      const first = Math.floor(lo);
      let n = 0;
      for (let j = first; j < hi && n < taps; j++, n++) {
        weights[o + n] = (Math.min(j + 1, hi) - Math.max(j, lo)) / (hi - lo);
      }
      start[i] = first;
      count[i] = n;
    } else {
      // Bilinear with pixel centres aligned, edges clamped (cv2.INTER_LINEAR).
      const centre = (i + 0.5) / scale - 0.5;
      const j = Math.floor(centre);
      const f = centre - j;
      if (centre <= 0 || j >= sourceLength - 1) {
        start[i] = centre <= 0 ? 0 : sourceLength - 1;
        count[i] = 1;
        weights[o] = 1;
      } else {
        start[i] = j;
        count[i] = 2;
        weights[o] = 1 - f;
        weights[o + 1] = f;
      }
    }
  }
  return { start, count, taps, weights };
}

// Camera frames come one after another at the same size: keep the last taps per axis and one
// scratch buffer instead of reallocating them (megabytes) for every frame. Safe to share:
// letterbox() is synchronous.
const tapsCache: Array<{ key: string; taps: Taps } | null> = [null, null];
function cachedTaps(sourceLength: number, outLength: number, axis: 0 | 1): Taps {
  const key = `${sourceLength}>${outLength}`;
  const hit = tapsCache[axis];
  if (hit?.key === key) return hit.taps;
  const taps = resampleTaps(sourceLength, outLength);
  tapsCache[axis] = { key, taps };
  return taps;
}

let scratchBuffer = new Float32Array(0);
function scratch(length: number): Float32Array {
  if (scratchBuffer.length < length) scratchBuffer = new Float32Array(length);
  return scratchBuffer;
}

/**
 * Writes the letterboxed frame into `out` (length 3 × inputHeight × inputWidth, CHW, RGB in
 * [0, 1]; see `letterboxGeometry` for `stride`); allocates it when not given. Alpha is ignored.
 */
export function letterbox(
  image: RgbaImage,
  size: number,
  padValue: number,
  out?: Float32Array,
  stride = 0,
): { tensor: Float32Array; geometry: LetterboxGeometry } {
  const { width, height, data } = image;
  if (data.length !== width * height * 4) {
    throw new RangeError(`letterbox: expected ${width * height * 4} RGBA bytes for ${width}×${height}, got ${data.length}`);
  }
  const g = letterboxGeometry(width, height, size, stride);
  const rowLength = g.inputWidth;
  const plane = g.inputWidth * g.inputHeight;
  const tensor = out ?? new Float32Array(3 * plane);
  if (tensor.length !== 3 * plane) throw new RangeError(`letterbox: output must hold ${3 * plane} floats`);
  tensor.fill(padValue / 255);

  const hx = cachedTaps(width, g.newWidth, 0);
  const vy = cachedTaps(height, g.newHeight, 1);

  // Horizontal pass: every source row → newWidth RGB floats (still 0–255).
  const rows = scratch(height * g.newWidth * 3);
  for (let y = 0; y < height; y++) {
    const src = y * width * 4;
    const dst = y * g.newWidth * 3;
    for (let i = 0; i < g.newWidth; i++) {
      let r = 0;
      let gr = 0;
      let b = 0;
      const s0 = hx.start[i]!;
      const n = hx.count[i]!;
      const w0 = i * hx.taps;
      for (let k = 0; k < n; k++) {
        const w = hx.weights[w0 + k]!;
        const p = src + (s0 + k) * 4;
        r += data[p]! * w;
        gr += data[p + 1]! * w;
        b += data[p + 2]! * w;
      }
      const d = dst + i * 3;
      rows[d] = r;
      rows[d + 1] = gr;
      rows[d + 2] = b;
    }
  }

  // Vertical pass straight into the padded CHW tensor, scaled to [0, 1].
  const rowStride = g.newWidth * 3;
  for (let j = 0; j < g.newHeight; j++) {
    const s0 = vy.start[j]!;
    const n = vy.count[j]!;
    const w0 = j * vy.taps;
    const outRow = (g.padY + j) * rowLength + g.padX;
    for (let i = 0; i < g.newWidth; i++) {
      let r = 0;
      let gr = 0;
      let b = 0;
      for (let k = 0; k < n; k++) {
        const w = vy.weights[w0 + k]!;
        const p = (s0 + k) * rowStride + i * 3;
        r += rows[p]! * w;
        gr += rows[p + 1]! * w;
        b += rows[p + 2]! * w;
      }
      const o = outRow + i;
      tensor[o] = r / 255;
      tensor[plane + o] = gr / 255;
      tensor[2 * plane + o] = b / 255;
    }
  }
  return { tensor, geometry: g };
}

/**
 * Maps a box given by centre and size in input pixels back to source pixels, clipped to the
 * frame. Returns null when nothing of it lies inside the frame.
 */
export function inputBoxToSource(cx: number, cy: number, w: number, h: number, g: LetterboxGeometry): Box | null {
  const x1 = Math.max(0, Math.min(g.width, (cx - w / 2 - g.padX) / g.scaleX));
  const y1 = Math.max(0, Math.min(g.height, (cy - h / 2 - g.padY) / g.scaleY));
  const x2 = Math.max(0, Math.min(g.width, (cx + w / 2 - g.padX) / g.scaleX));
  const y2 = Math.max(0, Math.min(g.height, (cy + h / 2 - g.padY) / g.scaleY));
  if (x2 <= x1 || y2 <= y1) return null;
  return { x: x1, y: y1, w: x2 - x1, h: y2 - y1 };
}

/**
 * `image` shrunk by `scale` (area average) and centred in a frame of its own size filled with
 * `pad`: the die looks as far away as at play distance. Returns the frame and the way back to
 * the image's coordinates.
 */
export function shrinkInFrame(image: RgbaImage, scale: number, pad: number): { frame: RgbaImage; toImage: (box: Box) => Box } {
  const { width: W, height: H, data } = image;
  const w = Math.max(1, Math.round(W * scale));
  const h = Math.max(1, Math.round(H * scale));
  const ox = Math.floor((W - w) / 2);
  const oy = Math.floor((H - h) / 2);
  const out = new Uint8ClampedArray(W * H * 4).fill(pad);
  for (let i = 3; i < out.length; i += 4) out[i] = 255;
  const x0s = new Int32Array(w + 1);
  for (let x = 0; x <= w; x++) x0s[x] = Math.min(W, Math.floor((x * W) / w));
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor((y * H) / h);
    const y1 = Math.max(y0 + 1, Math.min(H, Math.floor(((y + 1) * H) / h)));
    for (let x = 0; x < w; x++) {
      const x0 = x0s[x]!;
      const x1 = Math.max(x0 + 1, x0s[x + 1]!);
      let r = 0;
      let g = 0;
      let b = 0;
      for (let yy = y0; yy < y1; yy++) {
        for (let xx = x0; xx < x1; xx++) {
          const p = (yy * W + xx) * 4;
          r += data[p]!;
          g += data[p + 1]!;
          b += data[p + 2]!;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const o = ((y + oy) * W + x + ox) * 4;
      out[o] = r / n;
      out[o + 1] = g / n;
      out[o + 2] = b / n;
    }
  }
  const sx = w / W;
  const sy = h / H;
  return { frame: { width: W, height: H, data: out }, toImage: (b) => ({ x: (b.x - ox) / sx, y: (b.y - oy) / sy, w: b.w / sx, h: b.h / sy }) };
}
