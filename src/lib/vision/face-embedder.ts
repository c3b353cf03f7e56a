/**
 * The face embedder (`models/face-embed.onnx` + `models/face-embed.json`): each die's box,
 * squared and enlarged by the sidecar's margin, resampled to K × K, becomes an L2-normalised
 * vector (docs/architecture.md). The crop here is the one the training renderer cuts
 * (models/training/die_crops.py `embedder_crop`): integer-rounded square, edges clamped,
 * area-averaged when shrinking and bilinear when enlarging, as OpenCV's INTER_AREA does.
 */
import { createCheckedSession, MAX_CROP_BATCH, type OrtModule, type SessionOptions } from './detector.ts';
import type { Box, RgbaImage } from './types.ts';

const FACE_INPUT_NAME = 'crops';
const FACE_OUTPUT_NAME = 'embeddings';

export interface FaceEmbedderConfig {
  /** K: the crop side the model takes. */
  inputSize: number;
  /** D: the embedding length. */
  dim: number;
  /** The die's box, squared on its longer side, is enlarged by this factor before resampling. */
  cropMargin: number;
  /** A die whose best face similarity is below this reads as unknown. */
  threshold: number;
  /** …and so does one whose best face leads the runner-up face by less than this. */
  ambiguityMargin: number;
  /**
   * A die whose two nearest faces are within this (cosine) is looked at again, at its four
   * quarter turns (face-reader.ts `embedForReading`); 0: never. Optional in the sidecar.
   */
  secondLookGap: number;
  /** Where a die's crop is cut from its box when it is read or taught (`ReadingCrop`). Optional in the sidecar. */
  readingCrop: ReadingCrop;
}

/**
 * Where the crop of a die lies in its box: its centre `centre` of the way down the box (0.5: the
 * middle), raised by `lift` times the box's height beyond its width, and its side `side` times the
 * trained crop's (the box's longer side × `cropMargin`). A camera over a table sees a die's top
 * face above its sides, and seen from low a side face can fill more of the box than the top: a
 * crop above the middle shows the top face whole and less of the side below. A box taller than
 * wide is a die seen from low, so `lift` raises the crop only there (chosen by
 * `npm run choose-face-crop`).
 */
export interface ReadingCrop {
  centre: number;
  lift: number;
  side: number;
}

/** The crop the embedder was trained on: centred on the box. */
export const TRAINED_CROP: ReadingCrop = { centre: 0.5, lift: 0, side: 1 };

export class FaceEmbedderConfigError extends Error {
  override name = 'FaceEmbedderConfigError';
}

function num(obj: Record<string, unknown>, key: string, min: number, max: number): number {
  const v = obj[key];
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
    throw new FaceEmbedderConfigError(`face embedder sidecar: "${key}" must be a number in [${min}, ${max}], got ${JSON.stringify(v)}`);
  }
  return v;
}

/** Validates a parsed `face-embed.json`; throws FaceEmbedderConfigError naming the bad field. */
export function parseFaceEmbedderConfig(json: unknown): FaceEmbedderConfig {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new FaceEmbedderConfigError('face embedder sidecar: expected a JSON object');
  const obj = json as Record<string, unknown>;
  const inputSize = num(obj, 'inputSize', 8, 1024);
  const dim = num(obj, 'dim', 2, 4096);
  if (!Number.isInteger(inputSize) || !Number.isInteger(dim)) throw new FaceEmbedderConfigError('face embedder sidecar: "inputSize" and "dim" must be integers');
  return {
    inputSize,
    dim,
    cropMargin: num(obj, 'cropMargin', 1, 4),
    threshold: num(obj, 'threshold', -1, 1),
    ambiguityMargin: num(obj, 'ambiguityMargin', 0, 2),
    secondLookGap: obj.secondLookGap === undefined ? 0 : num(obj, 'secondLookGap', 0, 2),
    readingCrop: obj.readingCrop === undefined ? TRAINED_CROP : parseReadingCrop(obj.readingCrop),
  };
}

function parseReadingCrop(json: unknown): ReadingCrop {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new FaceEmbedderConfigError('face embedder sidecar: "readingCrop" must be an object { centre, lift, side }');
  const obj = json as Record<string, unknown>;
  const field = (key: string, min: number, max: number): number => {
    const v = obj[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
      throw new FaceEmbedderConfigError(`face embedder sidecar: "readingCrop.${key}" must be a number in [${min}, ${max}], got ${JSON.stringify(v)}`);
    }
    return v;
  };
  return { centre: field('centre', 0, 1), lift: field('lift', 0, 4), side: field('side', 0.25, 2) };
}

/** The square the embedder sees around a die's box, in integer source pixels (left, top, side). */
export function embedderCropSquare(box: Box, margin: number, crop: ReadingCrop = TRAINED_CROP): { x: number; y: number; side: number } {
  const side = Math.max(box.w, box.h) * margin * crop.side;
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h * crop.centre - crop.lift * Math.max(0, box.h - box.w);
  return { x: Math.round(cx - side / 2), y: Math.round(cy - side / 2), side: Math.max(1, Math.round(side)) };
}

/** Per output index, the source indices (clamped to [0, limit)) and weights that make it. */
function axisTaps(start: number, side: number, k: number, limit: number): { index: Int32Array; weight: Float32Array; offsets: Int32Array } {
  const index: number[] = [];
  const weight: number[] = [];
  const offsets = new Int32Array(k + 1);
  const clamp = (i: number): number => Math.min(limit - 1, Math.max(0, start + i));
  const scale = side / k;
  for (let o = 0; o < k; o++) {
    offsets[o] = index.length;
    if (side > k) {
      // area: every source pixel weighted by how much of it the output pixel covers
      const a = o * scale;
      const b = a + scale;
      for (let i = Math.floor(a); i < Math.ceil(b); i++) {
        const w = Math.min(b, i + 1) - Math.max(a, i);
        if (w > 1e-6) {
          index.push(clamp(i));
          weight.push(w / scale);
        }
      }
    } else {
      // bilinear, pixel centres aligned
      const s = Math.max(0, (o + 0.5) * scale - 0.5);
      const i0 = Math.floor(s);
      const f = s - i0;
      const i1 = Math.min(side - 1, i0 + 1);
      index.push(clamp(i0), clamp(i1));
      weight.push(1 - f, f);
    }
  }
  offsets[k] = index.length;
  return { index: Int32Array.from(index), weight: Float32Array.from(weight), offsets };
}

/**
 * Writes the embedder's input for one die into `out` at `offset`: planar RGB in [0, 1],
 * 3 × K × K floats. Pixels outside the image repeat the nearest edge pixel.
 */
export function cropForEmbedder(image: RgbaImage, box: Box, k: number, margin: number, out: Float32Array, offset = 0, crop: ReadingCrop = TRAINED_CROP): void {
  if (out.length < offset + 3 * k * k) throw new RangeError(`crop buffer too small: need ${offset + 3 * k * k} floats, have ${out.length}`);
  const sq = embedderCropSquare(box, margin, crop);
  const xs = axisTaps(sq.x, sq.side, k, image.width);
  const ys = axisTaps(sq.y, sq.side, k, image.height);
  const { data, width } = image;
  const plane = k * k;
  for (let oy = 0; oy < k; oy++) {
    for (let ox = 0; ox < k; ox++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let j = ys.offsets[oy]!; j < ys.offsets[oy + 1]!; j++) {
        const wy = ys.weight[j]!;
        const row = ys.index[j]! * width;
        for (let i = xs.offsets[ox]!; i < xs.offsets[ox + 1]!; i++) {
          const w = wy * xs.weight[i]!;
          const p = (row + xs.index[i]!) * 4;
          r += w * data[p]!;
          g += w * data[p + 1]!;
          b += w * data[p + 2]!;
        }
      }
      const o = offset + oy * k + ox;
      out[o] = r / 255;
      out[o + plane] = g / 255;
      out[o + 2 * plane] = b / 255;
    }
  }
}

/**
 * A crop (3 × k × k floats of `crops` at `from`, as `cropForEmbedder` writes it) turned a
 * quarter counter-clockwise, written at `to` (numpy's rot90 of the picture).
 */
export function quarterTurnCrop(crops: Float32Array, from: number, to: number, k: number): void {
  const plane = k * k;
  for (let c = 0; c < 3; c++) {
    const src = from + c * plane;
    const dst = to + c * plane;
    for (let y = 0; y < k; y++) {
      for (let x = 0; x < k; x++) crops[dst + y * k + x] = crops[src + x * k + (k - 1 - y)]!;
    }
  }
}

/** Mirrors one CHW crop of side `k` left to right, from `src` at `from` into `out` at `to` (the die-face reader's second look). */
export function mirrorCrop(src: Float32Array, from: number, out: Float32Array, to: number, k: number): void {
  for (let c = 0; c < 3; c++) {
    for (let y = 0; y < k; y++) {
      const row = c * k * k + y * k;
      for (let x = 0; x < k; x++) out[to + row + x] = src[from + row + k - 1 - x]!;
    }
  }
}

export interface FaceEmbedder {
  readonly config: FaceEmbedderConfig;
  /** One embedding per box (same order), from crops of `image`. */
  embed(image: RgbaImage, boxes: readonly Box[]): Promise<Float32Array[]>;
  /** Embeddings of ready-made crops: `crops` holds `count` × 3 × K × K floats. */
  embedCrops(crops: Float32Array, count: number): Promise<Float32Array[]>;
  release(): Promise<void>;
}


/** Creates the embedder session (ORT module injected, as for the detector) and checks its I/O. */
export async function createFaceEmbedder(
  ort: OrtModule,
  model: Uint8Array,
  config: FaceEmbedderConfig,
  sessionOptions: SessionOptions = {},
): Promise<FaceEmbedder> {
  const session = await createCheckedSession(ort, model, 'face embedder', { input: FACE_INPUT_NAME, output: FACE_OUTPUT_NAME }, sessionOptions);
  const k = config.inputSize;
  const per = 3 * k * k;

  async function embedCrops(crops: Float32Array, count: number): Promise<Float32Array[]> {
    if (crops.length < count * per) throw new RangeError(`embedCrops: ${count} crops need ${count * per} floats, got ${crops.length}`);
    const result: Float32Array[] = [];
    for (let start = 0; start < count; start += MAX_CROP_BATCH) {
      const n = Math.min(MAX_CROP_BATCH, count - start);
      const input = new ort.Tensor('float32', crops.subarray(start * per, (start + n) * per), [n, 3, k, k]);
      const outputs = await session.run({ [FACE_INPUT_NAME]: input });
      const out = outputs[FACE_OUTPUT_NAME];
      if (!out || out.type !== 'float32' || out.dims.length !== 2 || out.dims[1] !== config.dim) {
        throw new Error(`face embedder model: output "${FACE_OUTPUT_NAME}" must be float32 [B, ${config.dim}]`);
      }
      const data = out.data as Float32Array;
      for (let i = 0; i < n; i++) result.push(data.slice(i * config.dim, (i + 1) * config.dim));
      for (const v of Object.values(outputs)) v.dispose();
    }
    return result;
  }

  return {
    config,
    embedCrops,
    async embed(image, boxes) {
      if (boxes.length === 0) return [];
      const crops = new Float32Array(boxes.length * per);
      boxes.forEach((box, i) => cropForEmbedder(image, box, k, config.cropMargin, crops, i * per, config.readingCrop));
      return embedCrops(crops, boxes.length);
    },
    release: () => session.release(),
  };
}
