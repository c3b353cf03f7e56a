/// <reference lib="webworker" />
/**
 * The dice reader's Web Worker: onnxruntime-web (wasm, SIMD; threads when the page is
 * cross-origin isolated) runs the shipped detector on frames sent by `createDiceReader`, and
 * the die-face reader's second pass over its dice when the build ships models/die-face.onnx.
 * ONNX Runtime is imported lazily here, so none of it lands in the app's main bundle; its
 * wasm files and the models are Vite assets served by the app itself, never a CDN.
 */
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.mjs?url';
import shippedModelUrl from '../../../models/dice-pips.onnx?url';
import shippedConfig from '../../../models/dice-pips.json';
import { parseDetectorConfig } from './config.ts';
import { createDetector, type Detector, type OrtModule } from './detector.ts';
import { createDieFaceReader, parseDieFaceConfig, withDieFaceReader, type DieFaceReader } from './die-face-reader.ts';
import type { FromWorker, ReaderInfo, ReaderInitOptions, ToWorker } from './dice-reader-protocol.ts';
import type { RgbaImage } from './types.ts';

declare const self: DedicatedWorkerGlobalScope;

// The die-face reader ships when its files are in models/ at build time (globs match nothing otherwise).
const dieFaceUrls = import.meta.glob<string>('../../../models/die-face.onnx', { eager: true, query: '?url', import: 'default' });
const dieFaceConfigs = import.meta.glob<unknown>('../../../models/die-face.json', { eager: true, import: 'default' });
const shippedDieFaceUrl = Object.values(dieFaceUrls)[0];
const shippedDieFaceConfig = Object.values(dieFaceConfigs)[0];
const shippedDieFace = shippedDieFaceUrl && shippedDieFaceConfig !== undefined ? { url: shippedDieFaceUrl, config: shippedDieFaceConfig } : null;

const post = (message: FromWorker, transfer: Transferable[] = []): void => self.postMessage(message, transfer);
const absolute = (url: string): string => new URL(url, self.location.href).href;

let detector: Promise<Detector> | null = null;
/** Reads run one at a time, in order. */
let queue: Promise<unknown> = Promise.resolve();
let canvas: OffscreenCanvas | null = null;

/** Fetches a model file of the app, with clear errors for a failed or missing download. */
async function fetchModel(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`model download failed (${response.status} ${response.statusText}): ${url}`);
  // An app-shell fallback (SPA server, service worker) answers a missing file with index.html.
  if (response.headers.get('content-type')?.includes('text/html')) throw new Error(`no model at ${url} (the server answered with a web page)`);
  return new Uint8Array(await response.arrayBuffer());
}

async function start(options: ReaderInitOptions): Promise<Detector> {
  const t0 = performance.now();
  const ort = await import('onnxruntime-web/wasm');
  const isolated = self.crossOriginIsolated === true;
  const threads = isolated ? Math.max(1, Math.floor(options.threads ?? Math.min(4, Math.ceil((navigator.hardwareConcurrency || 2) / 2)))) : 1;
  ort.env.wasm.numThreads = threads;
  // Explicit asset URLs: ORT loads its glue module and binary from the app's own origin.
  ort.env.wasm.wasmPaths = { mjs: absolute(ortMjsUrl), wasm: absolute(ortWasmUrl) };
  const config = parseDetectorConfig(options.model?.config ?? shippedConfig);
  const dieFaceFiles = options.dieFace === false ? null : (options.dieFace ?? shippedDieFace);
  const dieFaceConfig = dieFaceFiles ? parseDieFaceConfig(dieFaceFiles.config) : null;
  let dieFaceBytes = 0;
  const t1 = performance.now();
  const model = await fetchModel(absolute(options.model?.url ?? shippedModelUrl));
  // The first session creation also instantiates the wasm runtime; it is timed with the model.
  const first = await createDetector(ort as unknown as OrtModule, model, config, { executionProviders: ['wasm'] });
  let reader: DieFaceReader | null = null;
  if (dieFaceFiles && dieFaceConfig) {
    const faceModel = await fetchModel(absolute(dieFaceFiles.url));
    reader = await createDieFaceReader(ort as unknown as OrtModule, faceModel, dieFaceConfig, { executionProviders: ['wasm'] });
    dieFaceBytes = faceModel.byteLength;
  }
  const t2 = performance.now();
  // One throw-away inference per session: the first run of a session is several times slower
  // (kernel set-up, buffer allocation), and it should not be the player's first roll.
  const blank = { width: 1, height: 1, data: new Uint8ClampedArray([114, 114, 114, 255]) };
  await first.detect(blank);
  await reader?.readBoxes(blank, [{ box: { x: 0, y: 0, w: 1, h: 1 } }]);
  const t3 = performance.now();
  const info: ReaderInfo = {
    backend: 'wasm',
    threads,
    crossOriginIsolated: isolated,
    inputSize: config.inputSize,
    modelBytes: model.byteLength,
    dieFace: reader ? { inputSize: reader.config.inputSize, modelBytes: dieFaceBytes } : null,
    runtimeLoadMs: t1 - t0,
    modelLoadMs: t2 - t1,
    warmupMs: t3 - t2,
  };
  post({ type: 'ready', info });
  return reader ? withDieFaceReader(first, reader) : first;
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
