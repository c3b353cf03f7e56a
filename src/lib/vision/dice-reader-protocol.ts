/** Messages between the dice reader client (main thread) and its Web Worker. */
import type { DiceKit } from '../dice/kit.ts';
import type { Box, Die, ReadTiming, RgbaImage } from './types.ts';

export interface ReaderInitOptions {
  /**
   * wasm threads for ONNX Runtime. Threads need a cross-origin isolated page
   * (`crossOriginIsolated`); without it the reader uses one thread whatever is asked.
   * Default: min(4, ⌈hardwareConcurrency / 2⌉) when isolated, else 1.
   */
  threads?: number;
  /** Another model than the shipped one (tests, benchmarks): its URL and parsed sidecar. */
  model?: { url: string; config: unknown };
  /**
   * The die-face reader's second pass (die-face-reader.ts): by default the shipped one when the
   * build has models/die-face.onnx; `false` reads with the detector alone; or another model's
   * URL and parsed sidecar.
   */
  dieFace?: false | { url: string; config: unknown };
  /**
   * The detector symbol dice are found with (models/record/symbol-dice.md, "A detector for symbol dice"):
   * by default the shipped one when the build has models/dice-symbols.onnx, else the pip detector
   * above with its `symbolDice` rule; or another model's URL and parsed sidecar.
   */
  symbolModel?: { url: string; config: unknown };
}

export interface ReaderInfo {
  backend: 'wasm';
  threads: number;
  crossOriginIsolated: boolean;
  inputSize: number;
  /** The detector's input stride (`DetectorConfig.inputStride`): 0 for a square input. */
  inputStride: number;
  modelBytes: number;
  /** The die-face reader's crop size and model size, or null when dice are read by the detector alone. */
  dieFace: { inputSize: number; modelBytes: number } | null;
  /** Time to import and start the wasm runtime, and to fetch the model(s) and create the session(s). */
  runtimeLoadMs: number;
  modelLoadMs: number;
  /** A first, throw-away inference run before `ready`, so the first real read is not the slow one. */
  warmupMs: number;
}

export interface WorkerReadTiming extends ReadTiming {
  /** Frame → RGBA pixels (drawing an ImageBitmap to a canvas and reading it back). */
  decodeMs: number;
  /** Face embedder, crops included, for all dice of the frame (0 without a symbol kit). */
  embedMs: number;
}

/** A symbol die's face, as the kit's prototypes read it. */
export interface FaceRead {
  /** The face read, or null for unknown (nothing near enough, or two faces too close to call). */
  faceId: string | null;
  /** Cosine similarity to the nearest face's best prototype (−1…1). */
  similarity: number;
  /** The nearest face even when it was not near enough to be read. */
  nearestFaceId: string | null;
  /** The vector the die was read by: a prototype of its face once the roll is confirmed as read (`KitSpec.confirmed`). */
  embedding: Float32Array;
}

export interface DiceRead {
  /** Every die found. With a symbol kit, found as symbol dice (the detector's class ignored). */
  dice: Die[];
  /**
   * In the order of `dice`. With a symbol kit (`useKit`): each die's face. With pips: the dice
   * the die-face reader read `other`, embedded and read by the pip faces the player filled in
   * (`learnPips`, pip-learning.ts), null for the others; null when no die was read `other` (or
   * the face embedder could not be loaded).
   */
  faces: (FaceRead | null)[] | null;
  /** Frame size, the coordinate space of the boxes. */
  width: number;
  height: number;
  /** How blurred the dice found look: their median edge width in die sizes (sharpness.ts `diceEdgeWidth`); null with none to measure. */
  edgeWidth: number | null;
  timing: WorkerReadTiming & {
    /** From `read()` to its result on the main thread: transfer, queueing and all. */
    roundTripMs: number;
  };
}

/** One prototype as it crosses to or from the worker. */
export interface PrototypeData {
  faceId: string;
  embedding: Float32Array;
}

/**
 * A symbol kit to read with: its faces, each face's art drawn as RGBA (on the main thread, where
 * SVG can be decoded) and the embeddings of the examples a player taught, made by the face
 * model named `embeddingModel` (those of another model are left out by the caller).
 */
export interface KitSpec {
  kit: DiceKit;
  art: Array<{ faceId: string; image: RgbaImage }>;
  examples: PrototypeData[];
  /**
   * Dice read at the table in rolls the player confirmed as read (`learnConfirmed`,
   * face-reader.ts): prototypes too, kept beside the art and the taught photos.
   */
  confirmed?: PrototypeData[];
  /** The art's prototypes from an earlier `useKit` of the same kit (`KitInfo.artPrototypes`): `art` is then not embedded again. */
  artPrototypes?: PrototypeData[];
}

/** The face embedder the worker runs: what taught embeddings are keyed by, and its unknown rule. */
export interface FaceModelInfo {
  /** The face model's identity and how taught photos are embedded, `face-embed.onnx@sha256:<first 16 hex>/<taughtEmbeddingRecipe>`: a stored embedding made otherwise is made again. */
  embeddingModel: string;
  threshold: number;
  ambiguityMargin: number;
  /** Loading the face model (0 when it was loaded already). */
  loadMs: number;
}

/** What the worker says once a symbol kit is in use. */
export interface KitInfo extends FaceModelInfo {
  kitId: string;
  /** The art prototypes (each face's art painted on dice at 12 views), for `kitSeparation`. */
  artPrototypes: PrototypeData[];
  /** Embedding the art (0 when `artPrototypes` were given). */
  artMs: number;
}

/** One teach photo, embedded: where its die is, the vector, and a picture of the die to keep. */
export interface TaughtExample {
  ok: true;
  box: Box;
  embedding: Float32Array;
  embeddingModel: string;
  /**
   * With `keep`: the photo scaled to at most 640 pixels on its long side (JPEG), and where the
   * die lies in it. What the store keeps and a kit exports.
   */
  kept: { image: Blob; box: Box } | null;
  ms: number;
}

export interface TeachRefusal {
  ok: false;
  problem: 'no-die' | 'several-dice';
  message: string;
  /** How many dice were found. */
  found: number;
}

export type TeachOutcome = TaughtExample | TeachRefusal;

export interface TeachRequest {
  /** The die's box when known (a stored example): skips the detector. Otherwise the one die is found. */
  box?: Box;
  /** Also return the picture to keep (`TaughtExample.kept`). */
  keep?: boolean;
}

export type ToWorker =
  /**
   * `precacheFilling`: the page has no service worker yet and its first one is installing, filling
   * its precache with the wasm and the models (a first visit); `precache-settled` follows when
   * that install ends, however it ends (dice-reader.ts `watchFirstInstall`). `served`: a service
   * worker controls the page, and so the reader's worker: it serves onnxruntime's plain wasm from
   * the inflated copy the reader keeps (ort-wasm.ts `INFLATED_WASM_CACHE`, src/sw.ts).
   */
  | { type: 'init'; options: ReaderInitOptions; precacheFilling: boolean; served?: boolean }
  | { type: 'precache-settled' }
  | { type: 'read'; id: number; frame: ImageBitmap | ImageData; expected?: number; tiles?: boolean }
  | { type: 'learn-pips'; id: number; prototypes: PrototypeData[] }
  | { type: 'kit'; id: number; spec: KitSpec | null }
  | { type: 'face-model'; id: number }
  | { type: 'teach'; id: number; frame: ImageBitmap | ImageData; request: TeachRequest };

export type FromWorker =
  | { type: 'ready'; info: ReaderInfo }
  | { type: 'result'; id: number; dice: Die[]; faces: (FaceRead | null)[] | null; width: number; height: number; edgeWidth: number | null; timing: WorkerReadTiming }
  | { type: 'pips-learnt'; id: number; count: number }
  | { type: 'kit'; id: number; info: KitInfo | null }
  | { type: 'face-model'; id: number; info: FaceModelInfo }
  | { type: 'taught'; id: number; outcome: TeachOutcome }
  | { type: 'error'; id: number | null; message: string };
