/// <reference lib="webworker" />
/**
 * The dice reader's Web Worker: onnxruntime-web (wasm, SIMD; threads when the page is
 * cross-origin isolated) runs the shipped detector on frames sent by `createDiceReader`.
 * ONNX Runtime is imported lazily here, so none of it lands in the app's main bundle; its
 * wasm files and the model are Vite assets served by the app itself, never a CDN.
 */
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.mjs?url';
import shippedModelUrl from '../../../models/dice-pips.onnx?url';
import shippedConfig from '../../../models/dice-pips.json';
import { parseDetectorConfig } from './config.ts';
import { createDetector, type Detector, type OrtModule } from './detector.ts';
import type { FromWorker, ReaderInfo, ReaderInitOptions, ToWorker } from './dice-reader-protocol.ts';
import type { RgbaImage } from './types.ts';

declare const self: DedicatedWorkerGlobalScope;

const post = (message: FromWorker, transfer: Transferable[] = []): void => self.postMessage(message, transfer);
const absolute = (url: string): string => new URL(url, self.location.href).href;

let detector: Promise<Detector> | null = null;
/** Reads run one at a time, in order. */
let queue: Promise<unknown> = Promise.resolve();
let canvas: OffscreenCanvas | null = null;

async function start(options: ReaderInitOptions): Promise<Detector> {
  const t0 = performance.now();
  const ort = await import('onnxruntime-web/wasm');
  const isolated = self.crossOriginIsolated === true;
  const threads = isolated ? Math.max(1, Math.floor(options.threads ?? Math.min(4, Math.ceil((navigator.hardwareConcurrency || 2) / 2)))) : 1;
  ort.env.wasm.numThreads = threads;
  // Explicit asset URLs: ORT loads its glue module and binary from the app's own origin.
  ort.env.wasm.wasmPaths = { mjs: absolute(ortMjsUrl), wasm: absolute(ortWasmUrl) };
  const config = parseDetectorConfig(options.model?.config ?? shippedConfig);
  const t1 = performance.now();
  const modelUrl = absolute(options.model?.url ?? shippedModelUrl);
  const response = await fetch(modelUrl);
  if (!response.ok) throw new Error(`model download failed (${response.status} ${response.statusText}): ${modelUrl}`);
  // An app-shell fallback (SPA server, service worker) answers a missing file with index.html.
  if (response.headers.get('content-type')?.includes('text/html')) throw new Error(`no model at ${modelUrl} (the server answered with a web page)`);
  const model = new Uint8Array(await response.arrayBuffer());
  // The first session creation also instantiates the wasm runtime; it is timed with the model.
  const created = await createDetector(ort as unknown as OrtModule, model, config, { executionProviders: ['wasm'] });
  const t2 = performance.now();
  // One throw-away inference: the first run of a session is several times slower (kernel
  // set-up, buffer allocation), and it should not be the player's first roll.
  await created.detect({ width: 1, height: 1, data: new Uint8ClampedArray([114, 114, 114, 255]) });
  const t3 = performance.now();
  const info: ReaderInfo = {
    backend: 'wasm',
    threads,
    crossOriginIsolated: isolated,
    inputSize: config.inputSize,
    modelBytes: model.byteLength,
    runtimeLoadMs: t1 - t0,
    modelLoadMs: t2 - t1,
    warmupMs: t3 - t2,
  };
  post({ type: 'ready', info });
  return created;
}

function pixels(frame: ImageBitmap | ImageData): RgbaImage {
  if (!(typeof ImageBitmap !== 'undefined' && frame instanceof ImageBitmap)) return frame as ImageData;
  const { width, height } = frame;
  if (!canvas || canvas.width !== width || canvas.height !== height) canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('dice reader: no 2D canvas in this worker');
  context.drawImage(frame, 0, 0);
  frame.close();
  return context.getImageData(0, 0, width, height);
}

async function read(id: number, frame: ImageBitmap | ImageData): Promise<void> {
  if (!detector) throw new Error('dice reader: read before init');
  const ready = await detector;
  const t0 = performance.now();
  const image = pixels(frame);
  const decodeMs = performance.now() - t0;
  const { dice, timing } = await ready.detect(image);
  post({ type: 'result', id, dice, width: image.width, height: image.height, timing: { decodeMs, ...timing } });
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const msg = event.data;
  if (msg.type === 'init') {
    if (detector) return;
    detector = start(msg.options);
    detector.catch((e: unknown) => post({ type: 'error', id: null, message: `dice reader failed to start: ${message(e)}` }));
  } else if (msg.type === 'read') {
    queue = queue.then(() => read(msg.id, msg.frame)).catch((e: unknown) => post({ type: 'error', id: msg.id, message: message(e) }));
  }
};
