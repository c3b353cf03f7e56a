/// <reference lib="webworker" />
/**
 * The dice reader's Web Worker: onnxruntime-web (wasm, SIMD; threads when the page is
 * cross-origin isolated) runs the shipped detector on frames sent by `createDiceReader`, the
 * die-face reader's second pass over its dice when the build ships models/die-face.onnx, and,
 * once a symbol kit is in use, the symbol-dice detector and the face embedder on every die found
 * (docs/symbol-dice.md). ONNX Runtime and the embedder are imported lazily here, so none of it
 * lands in the app's main bundle and a game of pip dice never loads the symbol detector (the
 * face embedder only once a die is read `other`, for the pip faces learnt at the table,
 * pip-learning.ts); the wasm files and the models are Vite
 * assets served by the app itself, never a CDN.
 */
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.mjs?url';
import shippedConfig from '../../../models/dice-pips.json';
import faceConfigJson from '../../../models/face-embed.json';
import { parseDetectorConfig } from './config.ts';
import { createDetector, symbolDetectOptions, type Detector } from './detector.ts';
import { createDieFaceReader, detectCounted, parseDieFaceConfig, withDieFaceReader, type DieFaceReader } from './die-face-reader.ts';
import { withTiles } from './tiles.ts';
import { createFaceEmbedder, parseFaceEmbedderConfig, type FaceEmbedder } from './face-embedder.ts';
import { artPrototypes, embedTaughtFace, findTeachDie, readFaces, taughtEmbeddingRecipe, TeachError, type FacePrototype } from './face-reader.ts';
import { readOtherPips } from './pip-learning.ts';
import { diceEdgeWidth } from './sharpness.ts';
import { fetchShipped as fetchShippedFile } from './precache-fill.ts';
import { canInflate, gzippedWasmUrl, INFLATED_WASM_CACHE, keepInflatedWasm, keptWasmLooksWhole, wasmFromGzipResponse } from './ort-wasm.ts';
import { DamagedFileError, refetchDamaged } from './precache-heal.ts';
import { wasmSupportProblem } from './wasm-support.ts';
import type { FaceModelInfo, FaceRead, FromWorker, KitInfo, KitSpec, ReaderInfo, ReaderInitOptions, TeachOutcome, TeachRequest, ToWorker } from './dice-reader-protocol.ts';
import type { Box, Die, RgbaImage } from './types.ts';
import type { DiceKit } from '../dice/kit.ts';

declare const self: DedicatedWorkerGlobalScope;

/**
 * A shipped model's URL: the build serves models/ at `<base>models/<file>` (scripts/vite/
 * shipped-models.ts) and the service worker precaches it there, by its version
 * (`?v=<hash of its bytes>`): one URL for both, so a first visit downloads each model once. Not a
 * `?url` import, which would ship every model a second time as a hashed asset (docs/architecture.md,
 * "Models at run time").
 */
const shippedModel = (file: string): string => {
  const version = __SHIPPED_MODEL_VERSIONS__[file];
  return new URL(`${import.meta.env.BASE_URL}models/${file}${version ? `?v=${version}` : ''}`, self.location.href).href;
};
const shippedModelUrl = shippedModel('dice-pips.onnx');
const faceModelUrl = shippedModel('face-embed.onnx');

// The die-face reader ships when its files are in models/ at build time (the glob matches nothing otherwise).
const dieFaceConfigs = import.meta.glob<unknown>('../../../models/die-face.json', { eager: true, import: 'default' });
const shippedDieFaceConfig = Object.values(dieFaceConfigs)[0];
const shippedDieFace = shippedDieFaceConfig !== undefined ? { url: shippedModel('die-face.onnx'), config: shippedDieFaceConfig } : null;
// Likewise the detector for symbol dice (without it, the pip detector finds them too).
const symbolConfigs = import.meta.glob<unknown>('../../../models/dice-symbols.json', { eager: true, import: 'default' });
const shippedSymbolConfig = Object.values(symbolConfigs)[0];
const shippedSymbolModel = shippedSymbolConfig !== undefined ? { url: shippedModel('dice-symbols.onnx'), config: shippedSymbolConfig } : null;

const post = (message: FromWorker, transfer: Transferable[] = []): void => self.postMessage(message, transfer);
const absolute = (url: string): string => new URL(url, self.location.href).href;

type Ort = typeof import('onnxruntime-web/wasm');

let ortModule: Promise<Ort> | null = null;
let detector: Promise<Detector> | null = null;
let initOptions: ReaderInitOptions = {};
let symbolDetector: Promise<Detector> | null = null;
let embedder: Promise<{ embedder: FaceEmbedder; model: string; loadMs: number }> | null = null;
/** The symbol kit in use, or null to read pips. */
let kitState: { kit: DiceKit; prototypes: FacePrototype[] } | null = null;
/** Pip faces the player filled in at this table (`learn-pips`, pip-learning.ts). */
let pipsLearnt: FacePrototype[] = [];
/** The face embedder could not be loaded for pip dice: they are read as before, without it. */
let pipEmbedderFailed = false;
/** Messages are handled one at a time, in order. */
let queue: Promise<unknown> = Promise.resolve();
let canvas: OffscreenCanvas | null = null;

/**
 * A kept teach picture is the whole frame at most KEEP_SIDE pixels on its long side (the
 * detector sees 512): the die is found again in it when a kit file is imported, which a crop
 * around the die would not allow (the detector misses dice that fill the picture).
 */
const KEEP_SIDE = 640;

/**
 * The first service worker's install, while it fills the precache (set by `init` on a first
 * visit, dice-reader.ts `watchFirstInstall`); null once the page says it has ended, or when none ran.
 */
let precacheFill: { ended: Promise<void>; end: () => void } | null = null;

/**
 * A file the service worker precaches (the wasm, a shipped model): while its first install runs,
 * the precache's copy is awaited rather than downloaded a second time beside it, for two minutes
 * at most before it is downloaded as well (precache-fill.ts); else fetched.
 */
function fetchShipped(url: string): Promise<Response> {
  return fetchShippedFile(url, precacheFill, {
    // `caches` may be missing in a worker, or throw where storage is off (private modes)
    match: (u) => (typeof caches === 'undefined' ? Promise.resolve(undefined) : caches.match(u)),
    fetch: (u, init) => fetch(u, init),
    lookMs: 250,
    patienceMs: 120_000,
  });
}

/**
 * A damaged copy of `url` in the service worker's precache replaced by the network's, once,
 * checked by `verify` (precache-heal.ts); `damage` rethrown where the precache holds no copy.
 */
function refetch<T>(url: string, damage: unknown, verify: (response: Response) => Promise<T>): Promise<T> {
  return refetchDamaged(url, damage, verify, {
    cacheNames: () => (typeof caches === 'undefined' ? Promise.resolve([]) : caches.keys()),
    open: (name) => caches.open(name),
    fetch: (u, init) => fetch(u, init),
  });
}

/** A model file's bytes, with clear errors for a failed or missing download. */
async function modelBytes(response: Response, url: string): Promise<Uint8Array> {
  if (!response.ok) throw new Error(`model download failed (${response.status} ${response.statusText}): ${url}`);
  // An app-shell fallback (SPA server, service worker) answers a missing file with index.html.
  if (response.headers.get('content-type')?.includes('text/html')) throw new DamagedFileError(`no model at ${url} (the server answered with a web page)`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Fetches a model file; `shipped`, one of the app's own (precached, `fetchShipped`), else
 * another's (tests, benchmarks).
 */
async function fetchModel(url: string, shipped: boolean): Promise<Uint8Array> {
  return modelBytes(shipped ? await fetchShipped(url) : await fetch(url), url);
}

/**
 * Whether `bytes` are not the app's model at `url`: their SHA-256 is not the version the build
 * put in the URL (`shippedModel`). Only asked once a model failed to load, so a start that goes
 * well hashes nothing. Without a version, or `crypto.subtle` (plain http, where no service worker
 * precaches anything either), it cannot be told, and the model is not called damaged: the
 * failure is said as it is.
 */
async function notTheBuildsModel(bytes: Uint8Array, url: string): Promise<boolean> {
  const version = new URL(url).searchParams.get('v');
  if (!version || typeof crypto === 'undefined' || !crypto.subtle) return false;
  return (await sha256Prefix(bytes)) !== version;
}

/**
 * `create` made of the model at `url` (`bytes`, its download). One of the app's own models that
 * cannot be made (`create` fails, or a web page came back) and is not the build's bytes is a
 * damaged copy in the precache, where the service worker would serve it again at every start:
 * it is replaced from the network once (`refetch`) and `create` tried again with that copy. A
 * model that is the build's is not downloaded again: what failed was not the file.
 */
async function fromModel<T>(url: string, shipped: boolean, bytes: Promise<Uint8Array>, create: (bytes: Uint8Array) => Promise<T>): Promise<{ made: T; bytes: Uint8Array }> {
  let damage: unknown;
  let got: Uint8Array | null = null;
  try {
    got = await bytes;
  } catch (error) {
    if (!shipped || !(error instanceof DamagedFileError)) throw error;
    damage = error;
  }
  if (got) {
    try {
      return { made: await create(got), bytes: got };
    } catch (error) {
      if (!shipped || !(await notTheBuildsModel(got, url))) throw error;
      damage = new DamagedFileError(`the model at ${url} is damaged (${message(error)})`);
    }
  }
  const fresh = await refetch(url, damage, async (response) => {
    const checked = await modelBytes(response, url);
    if (await notTheBuildsModel(checked, url)) throw new DamagedFileError(`the model at ${url} is damaged (not the app's model)`);
    return checked;
  });
  return { made: await create(fresh), bytes: fresh };
}

/**
 * onnxruntime's wasm, for `env.wasm.wasmPaths.wasm`: the gzipped file the app ships, inflated
 * (ort-wasm.ts), taken from the precache while the first install fills it (`fetchShipped`); the
 * plain file where this browser cannot inflate gzip. Once inflated it is kept in Cache Storage
 * under the plain file's URL (`INFLATED_WASM_CACHE`), and where a service worker controls the
 * reader (`served`) onnxruntime is given that URL, which the service worker serves from there as
 * it is, so Chromium caches the compiled code and later starts skip both inflating and compiling
 * (src/sw.ts). Elsewhere a `blob:` URL of the inflated wasm, which `release` revokes once the
 * runtime has compiled it. `keptBefore`: the cache where the wasm was given as an earlier start
 * kept it, unchecked but for `keptWasmLooksWhole`, to drop it from should the runtime fail.
 */
async function ortWasm(url: string, served: boolean): Promise<{ url: string; release: () => void; keptBefore: Cache | null }> {
  const none = (): void => undefined;
  if (!canInflate()) return { url, release: none, keptBefore: null };
  const cache = await (typeof caches === 'undefined' ? Promise.resolve(null) : caches.open(INFLATED_WASM_CACHE)).catch(() => null);
  if (served && cache) {
    const kept = await cache.match(url).catch(() => undefined);
    if (kept && (await keptWasmLooksWhole(kept))) return { url, release: none, keptBefore: cache };
    // not wasm, or not all of it: dropped, and inflated anew below
    if (kept) await cache.delete(url).catch(() => false);
  }
  const gzUrl = gzippedWasmUrl(url);
  const fromGz = (response: Response): Promise<Blob> => wasmFromGzipResponse(response, gzUrl);
  // a damaged `.gz` in the precache is replaced from the network, once (`refetch`)
  const wasm = await fromGz(await fetchShipped(gzUrl)).catch((damage: unknown) => {
    if (!(damage instanceof DamagedFileError)) throw damage;
    return refetch(gzUrl, damage, fromGz);
  });
  const kept = cache ? keepInflatedWasm(cache, url, wasm) : Promise.resolve(false);
  // not served from the cache: the blob: URL now, the cache for a later start
  if (served && (await kept)) return { url, release: none, keptBefore: null };
  const blobUrl = URL.createObjectURL(wasm);
  return { url: blobUrl, release: () => URL.revokeObjectURL(blobUrl), keptBefore: null };
}

async function start(options: ReaderInitOptions, served: boolean): Promise<Detector> {
  const t0 = performance.now();
  // before ORT or a model is fetched: a browser ORT cannot run on is told so in words, not in ORT's
  const unsupported = wasmSupportProblem();
  if (unsupported) throw new Error(unsupported);
  const isolated = self.crossOriginIsolated === true;
  const threads = isolated ? Math.max(1, Math.floor(options.threads ?? Math.min(4, Math.ceil((navigator.hardwareConcurrency || 2) / 2)))) : 1;
  const dieFaceFiles = options.dieFace === false ? null : (options.dieFace ?? shippedDieFace);
  const dieFaceConfig = dieFaceFiles ? parseDieFaceConfig(dieFaceFiles.config) : null;
  // Both models download while the runtime loads, not one after the other behind it: a first
  // visit on a slow line waits for fewer round trips. (Awaited below; the catch only keeps a
  // runtime that fails first from leaving their failure unhandled.)
  const modelUrl = absolute(options.model?.url ?? shippedModelUrl);
  const modelDownload = fetchModel(modelUrl, !options.model);
  const dieFaceUrl = dieFaceFiles && dieFaceConfig ? absolute(dieFaceFiles.url) : null;
  const dieFaceDownload = dieFaceUrl ? fetchModel(dieFaceUrl, dieFaceFiles === shippedDieFace) : null;
  modelDownload.catch(() => undefined);
  dieFaceDownload?.catch(() => undefined);
  const wasm = ortWasm(absolute(ortWasmUrl), served);
  wasm.catch(() => undefined); // awaited below, after the import
  ortModule = import('onnxruntime-web/wasm').then(async (ort) => {
    ort.env.wasm.numThreads = threads;
    // Explicit asset URLs: ORT loads its glue module and binary from the app's own origin.
    ort.env.wasm.wasmPaths = { mjs: absolute(ortMjsUrl), wasm: (await wasm).url };
    return ort;
  });
  const config = parseDetectorConfig(options.model?.config ?? shippedConfig);
  let dieFaceBytes = 0;
  const { ort, t1, model, first } = await (async () => {
    const ort = await ortModule;
    const t1 = performance.now();
    // The first session creation also instantiates the wasm runtime; it is timed with the model.
    const { made: first, bytes: model } = await fromModel(modelUrl, !options.model, modelDownload, (bytes) => createDetector(ort, bytes, config, { executionProviders: ['wasm'] }));
    return { ort, t1, model, first };
  })()
    .catch(async (error: unknown) => {
      // The inflated wasm an earlier start kept may be what failed (damaged past what
      // `keptWasmLooksWhole` sees), and a runtime that failed to start cannot be started again in
      // this worker: dropped, so the next start inflates it anew (half a second, once, where the
      // failure was something else).
      const kept = await wasm.then(({ keptBefore }) => keptBefore, () => null);
      if (kept && !(error instanceof DamagedFileError)) await kept.delete(absolute(ortWasmUrl)).catch(() => false);
      throw error;
    })
    .finally(() => {
      // the runtime has compiled the wasm, or never will: its blob: URL is not needed again
      void wasm.then(({ release }) => release(), () => undefined);
    });
  let reader: DieFaceReader | null = null;
  if (dieFaceUrl && dieFaceDownload && dieFaceConfig) {
    const made = await fromModel(dieFaceUrl, dieFaceFiles === shippedDieFace, dieFaceDownload, (bytes) => createDieFaceReader(ort, bytes, dieFaceConfig, { executionProviders: ['wasm'] }));
    reader = made.made;
    dieFaceBytes = made.bytes.byteLength;
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
    inputStride: config.inputStride,
    modelBytes: model.byteLength,
    dieFace: reader ? { inputSize: reader.config.inputSize, modelBytes: dieFaceBytes } : null,
    runtimeLoadMs: t1 - t0,
    modelLoadMs: t2 - t1,
    warmupMs: t3 - t2,
  };
  post({ type: 'ready', info });
  return reader ? withDieFaceReader(first, reader) : first;
}

/**
 * The detector symbol dice are found with, loaded on first use of a symbol kit, as the embedder
 * is: the shipped symbol detector (or `initOptions.symbolModel`), else the pip detector.
 */
function loadSymbolDetector(): Promise<Detector> {
  symbolDetector ??= (async () => {
    if (!ortModule || !detector) throw new Error('dice reader: kit before init');
    const files = initOptions.symbolModel ?? shippedSymbolModel;
    if (!files) return detector;
    const ort = await ortModule;
    const config = parseDetectorConfig(files.config);
    const url = absolute(files.url);
    const shipped = files === shippedSymbolModel;
    const { made: created } = await fromModel(url, shipped, fetchModel(url, shipped), (bytes) => createDetector(ort, bytes, config, { executionProviders: ['wasm'] }));
    // warm-up at each size the symbol rule reads, as for the pip detector
    const blank = { width: 1, height: 1, data: new Uint8ClampedArray([114, 114, 114, 255]) };
    for (const inputSize of config.symbolDice?.inputSizes ?? [config.inputSize]) await created.detect(blank, { inputSize });
    return created;
  })();
  symbolDetector.catch(() => (symbolDetector = null)); // a failed load may be retried by the next kit
  return symbolDetector;
}

/** The face embedder, loaded on first use of a symbol kit; `model` names the file by its content. */
function loadEmbedder(): Promise<{ embedder: FaceEmbedder; model: string; loadMs: number }> {
  embedder ??= (async () => {
    if (!ortModule) throw new Error('dice reader: kit before init');
    const t0 = performance.now();
    const ort = await ortModule;
    const config = parseFaceEmbedderConfig(faceConfigJson);
    const url = absolute(faceModelUrl);
    const { made: created, bytes } = await fromModel(url, true, fetchModel(url, true), (got) => createFaceEmbedder(ort, got, config, { executionProviders: ['wasm'] }));
    // The build's version of the model is the same hash (the first 8 bytes of its SHA-256, in
    // hex): taken from there, the face reader needs no `crypto.subtle`, which a page over plain
    // http has not (symbol dice could not be read there at all).
    const hex = __SHIPPED_MODEL_VERSIONS__['face-embed.onnx'] ?? (await sha256Prefix(bytes));
    const model = `face-embed.onnx@sha256:${hex}/${taughtEmbeddingRecipe(config)}`;
    // warm-up, as for the detector
    await created.embedCrops(new Float32Array(3 * config.inputSize * config.inputSize), 1);
    return { embedder: created, model, loadMs: performance.now() - t0 };
  })();
  embedder.catch(() => (embedder = null)); // a failed load may be retried by the next kit
  return embedder;
}

/** The first 8 bytes of the SHA-256 of `bytes`, in hex (`shippedModelVersions`' hash). */
async function sha256Prefix(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function pixels(frame: ImageBitmap | ImageData): ImageData {
  if (!(typeof ImageBitmap !== 'undefined' && frame instanceof ImageBitmap)) return frame as ImageData;
  const { width, height } = frame;
  if (!canvas || canvas.width !== width || canvas.height !== height) canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('dice reader: no 2D canvas in this worker');
  context.drawImage(frame, 0, 0);
  frame.close();
  return context.getImageData(0, 0, width, height);
}

async function read(id: number, frame: ImageBitmap | ImageData, expected: number | undefined, tiles: boolean): Promise<void> {
  if (!detector) throw new Error('dice reader: read before init');
  const ready = await detector;
  const t0 = performance.now();
  const image = pixels(frame);
  const decodeMs = performance.now() - t0;
  if (!kitState) {
    const { dice, timing } = await detectCounted(tiles ? withTiles(ready) : ready, image, expected);
    const t1 = performance.now();
    const others = await readOtherPipsWithEmbedder(image, dice);
    const embedMs = others.reads ? performance.now() - t1 : 0;
    post({ type: 'result', id, dice: others.dice, faces: others.reads, width: image.width, height: image.height, edgeWidth: diceEdgeWidth(image, dice.map((d) => d.box)), timing: { decodeMs, embedMs, ...timing } });
    return;
  }
  const { embedder: faces } = await loadEmbedder();
  const read = await readFaces(await loadSymbolDetector(), faces, kitState.kit, kitState.prototypes, image, faces.config, expected);
  post({
    type: 'result',
    id,
    // a symbol die has no pip value, whatever pip class the detector thought most likely
    dice: read.dice.map((d) => ({ ...d.die, value: null })),
    faces: read.dice.map((d): FaceRead => ({ faceId: d.match.faceId, similarity: d.match.similarity, nearestFaceId: d.match.nearestFaceId, embedding: d.embedding! })),
    width: image.width,
    height: image.height,
    edgeWidth: diceEdgeWidth(image, read.dice.map((d) => d.die.box)),
    timing: { decodeMs, embedMs: read.embedMs, ...read.detection },
  });
}

/**
 * Pip dice read `other`, embedded and read by the faces learnt (`readOtherPips`). The first such
 * die loads the face embedder (that frame waits for it, once), so that the dice the player fills
 * in carry what they are learnt by from the first proposal on. A failed load leaves pips read as
 * before.
 */
async function readOtherPipsWithEmbedder(image: RgbaImage, dice: Die[]): ReturnType<typeof readOtherPips> {
  if (pipEmbedderFailed || !dice.some((d) => d.value === null)) return { dice, reads: null };
  let faces: FaceEmbedder;
  try {
    faces = (await loadEmbedder()).embedder;
  } catch {
    pipEmbedderFailed = true;
    return { dice, reads: null };
  }
  return readOtherPips(faces, image, dice, pipsLearnt);
}

async function faceModel(): Promise<FaceModelInfo> {
  const loaded = embedder !== null;
  const { embedder: faces, model, loadMs } = await loadEmbedder();
  return { embeddingModel: model, threshold: faces.config.threshold, ambiguityMargin: faces.config.ambiguityMargin, loadMs: loaded ? 0 : loadMs };
}

async function useKit(id: number, spec: KitSpec | null): Promise<void> {
  if (!spec) {
    kitState = null;
    post({ type: 'kit', id, info: null });
    return;
  }
  const model = await faceModel();
  const { embedder: faces } = await loadEmbedder();
  await loadSymbolDetector(); // now, not at the kit's first roll
  const t0 = performance.now();
  const art: FacePrototype[] = spec.artPrototypes
    ? spec.artPrototypes.map((p) => ({ faceId: p.faceId, source: 'art', embedding: p.embedding }))
    : await artPrototypes(faces, new Map(spec.art.map((a) => [a.faceId, a.image] as [string, RgbaImage])));
  const artMs = spec.artPrototypes ? 0 : performance.now() - t0;
  const examples: FacePrototype[] = spec.examples.map((e) => ({ faceId: e.faceId, source: 'example', embedding: e.embedding }));
  const confirmed: FacePrototype[] = (spec.confirmed ?? []).map((e) => ({ faceId: e.faceId, source: 'confirmed', embedding: e.embedding }));
  kitState = { kit: spec.kit, prototypes: [...art, ...examples, ...confirmed] };
  const info: KitInfo = { ...model, kitId: spec.kit.id, artPrototypes: art.map((p) => ({ faceId: p.faceId, embedding: p.embedding })), artMs };
  post({ type: 'kit', id, info });
}

/** The picture kept for a taught example: the frame, scaled down to KEEP_SIDE, as JPEG; and the die's box in it. */
async function keepPicture(image: ImageData, box: Box): Promise<{ image: Blob; box: Box }> {
  const scale = Math.min(1, KEEP_SIDE / Math.max(image.width, image.height));
  const full = new OffscreenCanvas(image.width, image.height);
  full.getContext('2d')!.putImageData(image, 0, 0);
  const out = new OffscreenCanvas(Math.max(1, Math.round(image.width * scale)), Math.max(1, Math.round(image.height * scale)));
  const context = out.getContext('2d')!;
  context.imageSmoothingQuality = 'high';
  context.drawImage(full, 0, 0, out.width, out.height);
  const blob = await out.convertToBlob({ type: 'image/jpeg', quality: 0.85 });
  const sx = out.width / image.width;
  const sy = out.height / image.height;
  return { image: blob, box: { x: box.x * sx, y: box.y * sy, w: box.w * sx, h: box.h * sy } };
}

async function teach(id: number, frame: ImageBitmap | ImageData, request: TeachRequest): Promise<void> {
  if (!detector) throw new Error('dice reader: teach before init');
  const { embedder: faces, model } = await loadEmbedder();
  const t0 = performance.now();
  const image = pixels(frame);
  let box = request.box;
  if (!box) {
    try {
      box = (await findTeachDie(await loadSymbolDetector(), image)).box;
    } catch (e) {
      if (!(e instanceof TeachError)) throw e;
      post({ type: 'taught', id, outcome: { ok: false, problem: e.problem, message: e.message, found: e.found } });
      return;
    }
  }
  const embedding = await embedTaughtFace(faces, image, box);
  const kept = request.keep ? await keepPicture(image, box) : null;
  const outcome: TeachOutcome = { ok: true, box, embedding, embeddingModel: model, kept, ms: performance.now() - t0 };
  post({ type: 'taught', id, outcome });
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const msg = event.data;
  if (msg.type === 'precache-settled') {
    precacheFill?.end();
    precacheFill = null;
    return;
  }
  if (msg.type === 'init') {
    if (detector) return;
    if (msg.precacheFilling) {
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      precacheFill = { ended, end };
    }
    initOptions = msg.options;
    detector = start(msg.options, msg.served === true);
    detector.catch((e: unknown) => post({ type: 'error', id: null, message: `dice reader failed to start: ${message(e)}` }));
    return;
  }
  const run =
    msg.type === 'read'
      ? () => read(msg.id, msg.frame, msg.expected, msg.tiles === true)
      : msg.type === 'learn-pips'
        ? async () => {
            pipsLearnt = msg.prototypes.map((p) => ({ faceId: p.faceId, source: 'confirmed', embedding: p.embedding }));
            post({ type: 'pips-learnt', id: msg.id, count: pipsLearnt.length });
          }
        : msg.type === 'kit'
        ? () => useKit(msg.id, msg.spec)
        : msg.type === 'face-model'
          ? async () => post({ type: 'face-model', id: msg.id, info: await faceModel() })
          : () => teach(msg.id, msg.frame, msg.request);
  const prefix = msg.type === 'kit' || msg.type === 'face-model' ? 'the face reader could not start: ' : '';
  queue = queue.then(run).catch((e: unknown) => post({ type: 'error', id: msg.id, message: prefix + message(e) }));
};
