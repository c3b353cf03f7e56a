/** Messages between the dice reader client (main thread) and its Web Worker. */
import type { Die, ReadTiming } from './types.ts';

export interface ReaderInitOptions {
  /**
   * wasm threads for ONNX Runtime. Threads need a cross-origin isolated page
   * (`crossOriginIsolated`); without it the reader uses one thread whatever is asked.
   * Default: min(4, ⌈hardwareConcurrency / 2⌉) when isolated, else 1.
   */
  threads?: number;
  /** Another model than the shipped one (tests, benchmarks): its URL and parsed sidecar. */
  model?: { url: string; config: unknown };
}

export interface ReaderInfo {
  backend: 'wasm';
  threads: number;
  crossOriginIsolated: boolean;
  inputSize: number;
  modelBytes: number;
  /** Time to import and start the wasm runtime, and to fetch the model and create the session. */
  runtimeLoadMs: number;
  modelLoadMs: number;
  /** A first, throw-away inference run before `ready`, so the first real read is not the slow one. */
  warmupMs: number;
}

export interface WorkerReadTiming extends ReadTiming {
  /** Frame → RGBA pixels (drawing an ImageBitmap to a canvas and reading it back). */
  decodeMs: number;
}

export interface DiceRead {
  dice: Die[];
  /** Frame size, the coordinate space of the boxes. */
  width: number;
  height: number;
  timing: WorkerReadTiming & {
    /** From `read()` to its result on the main thread: transfer, queueing and all. */
    roundTripMs: number;
  };
}

export type ToWorker =
  | { type: 'init'; options: ReaderInitOptions }
  | { type: 'read'; id: number; frame: ImageBitmap | ImageData };

export type FromWorker =
  | { type: 'ready'; info: ReaderInfo }
  | { type: 'result'; id: number; dice: Die[]; width: number; height: number; timing: WorkerReadTiming }
  | { type: 'error'; id: number | null; message: string };
