/**
 * The dice detector: pre-process (letterbox) → ONNX session → post-process (decode + NMS).
 * The ONNX Runtime module is injected, so the browser worker (onnxruntime-web, wasm) and the
 * Node tools (onnxruntime-node) run this very code; only the runtime differs.
 */
import type * as OrtTypes from 'onnxruntime-web';
import type { DetectorConfig } from './config.ts';
import { decodeDetections, type DecodeOptions } from './decode.ts';
import { letterbox, letterboxGeometry } from './letterbox.ts';
import type { Detection, RgbaImage } from './types.ts';

/** What the detector needs of an ONNX Runtime module (onnxruntime-web and onnxruntime-node both fit). */
export type OrtModule = Pick<typeof OrtTypes, 'InferenceSession' | 'Tensor'>;
export type SessionOptions = OrtTypes.InferenceSession.SessionOptions;

export const INPUT_NAME = 'images';
export const OUTPUT_NAME = 'detections';

/** Crops per model call for the readers of dice crops: a table of dice in one batch, bounded so memory stays small. */
export const MAX_CROP_BATCH = 32;

/**
 * The one way a model's session starts: created from its bytes, and checked to have the
 * contract's input and output (else released, and a clear error naming what it has).
 */
export async function createCheckedSession(
  ort: OrtModule,
  model: Uint8Array,
  what: string,
  io: { input: string; output: string },
  sessionOptions: SessionOptions = {},
): Promise<OrtTypes.InferenceSession> {
  const session = await ort.InferenceSession.create(model, { graphOptimizationLevel: 'all', ...sessionOptions });
  if (!session.inputNames.includes(io.input) || !session.outputNames.includes(io.output)) {
    await session.release();
    throw new Error(
      `${what} model: expected input "${io.input}" and output "${io.output}", ` +
        `found inputs [${session.inputNames.join(', ')}] and outputs [${session.outputNames.join(', ')}]`,
    );
  }
  return session;
}

/**
 * Per call: decoding (a score threshold for evaluation sweeps, or the symbol-dice rule,
 * `symbolDetectOptions`) and the input size (long side) to read the frame at, a multiple of
 * the sidecar's stride no larger than its `inputSize` (the default).
 */
export type DetectOptions = DecodeOptions & { inputSize?: number };

/**
 * How to detect dice of a symbol kit with this model: its sidecar's `symbolDice` rule
 * (objectness alone, boxes inside better ones dropped), or the pip rule when it has none.
 */
export function symbolDetectOptions(config: DetectorConfig): DetectOptions {
  return config.symbolDice
    ? { score: 'objectness', scoreThreshold: config.symbolDice.scoreThreshold, containment: config.symbolDice.containment }
    : {};
}

export interface Detector {
  readonly config: DetectorConfig;
  detect(image: RgbaImage, options?: DetectOptions): Promise<Detection>;
  release(): Promise<void>;
}

const now = (): number => performance.now();

/**
 * Creates a session from the model bytes and checks it has the contract's input and output.
 * Calls to `detect` are serialised by the caller (the worker handles one frame at a time);
 * concurrent calls are safe but share the input buffer only when sequential.
 */
export async function createDetector(
  ort: OrtModule,
  model: Uint8Array,
  config: DetectorConfig,
  sessionOptions: SessionOptions = {},
): Promise<Detector> {
  const session = await createCheckedSession(ort, model, 'detector', { input: INPUT_NAME, output: OUTPUT_NAME }, sessionOptions);
  // One input buffer per input shape, reused while frames keep their size (a camera's do).
  const spares = new Map<number, Float32Array>();

  return {
    config,
    async detect(image: RgbaImage, options: DetectOptions = {}): Promise<Detection> {
      const t0 = now();
      const size = options.inputSize ?? config.inputSize;
      if (!(Number.isInteger(size) && size >= 32 && size <= config.inputSize && size % (config.inputStride || 32) === 0)) {
        throw new RangeError(`detector: input size must be a multiple of ${config.inputStride || 32} up to ${config.inputSize}, got ${size}`);
      }
      // Reuse the input buffer for sequential calls; a concurrent call or a new frame size gets its own.
      const { inputWidth, inputHeight } = letterboxGeometry(image.width, image.height, size, config.inputStride);
      const length = 3 * inputWidth * inputHeight;
      const buffer = spares.get(length) ?? new Float32Array(length);
      spares.delete(length);
      try {
        const { tensor, geometry } = letterbox(image, size, config.padValue, buffer, config.inputStride);
        const input = new ort.Tensor('float32', tensor, [1, 3, inputHeight, inputWidth]);
        const t1 = now();
        const outputs = await session.run({ [INPUT_NAME]: input });
        const t2 = now();
        const out = outputs[OUTPUT_NAME];
        if (!out || out.type !== 'float32') throw new Error(`detector model: output "${OUTPUT_NAME}" missing or not float32`);
        const dice = decodeDetections(out.data as Float32Array, out.dims, config, geometry, options);
        for (const value of Object.values(outputs)) value.dispose();
        const t3 = now();
        return { dice, timing: { preprocessMs: t1 - t0, inferenceMs: t2 - t1, postprocessMs: t3 - t2 } };
      } finally {
        spares.set(length, buffer);
      }
    },
    release: () => session.release(),
  };
}
