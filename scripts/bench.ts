/**
 * npm run bench -- [--json] [--frames N] [--warmup N] [--settles N] [--soak-minutes N] [--camera WIDTHxHEIGHT] [--only SECTION,...]
 *
 * Performance figures of what ships, printed clearly (tests check correctness, not timings).
 * Each section measures one thing and says how. The reader's sections share one production
 * build with the harness page beside it; the app's sections (`initial-js`, `settle-to-read`)
 * share a build of the app alone, as `npm run build` makes it. Both are served by `vite
 * preview` with cross-origin isolation and driven in headless Chromium — the closest stand-in
 * for a phone browser here: the same V8 wasm engine, the app's real Web Worker, SIMD, and wasm
 * threads (which need isolation). Absolute figures are this machine's CPU, not a phone's.
 *
 * Adding a figure: append a `BenchSection` to SECTIONS; `ctx.build()` gives the harness
 * build's folder, `ctx.browser()` the served build and a Chromium page on the harness,
 * `ctx.app()` the app alone served, `ctx.launch()` a Chromium of the section's own.
 */
import { parseArgs } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { nineFixturePhotos } from './lib/fixture-mosaic.ts';
import type { Page, Browser } from 'playwright-core';
import { percentile } from '../src/lib/vision/metrics.ts';
import { letterboxGeometry } from '../src/lib/vision/letterbox.ts';
import type { ReaderInfo } from '../src/lib/vision/dice-reader-protocol.ts';
import type { VisionHarness } from './browser/vision.ts';
import { benchFaceEmbedder } from './lib/bench-face.ts';
import { benchDieFaceReader } from './lib/bench-die-face.ts';
import { benchSharpness } from './lib/bench-sharpness.ts';
import { buildApp, buildWithHarness, HARNESS_PAGE, launchChromium, launchChromiumProfile, servePreview } from './lib/browser-harness.ts';
import { measureAppStarts, measureFirstLoad, measureFirstVisit, measureReaderStarts, measureReadsAtRest, measureSettleToShown, PHONE_CAMERA, PHONE_VIEWPORT, SETTLE_CAMERA, settlingDiceY4m, SLOW_LINE, stillDiceY4m, type CameraSize } from './lib/bench-app.ts';
import { IDLE_READ_FPS, READ_FPS } from '../src/app/readPace.ts';
import { REPO_ROOT, SHIPPED_MODEL } from './lib/node-vision.ts';
import { HelpRequest, runCli, UsageError } from './lib/cli.ts';
import { measureTableTaps, type TapWindow } from './lib/bench-taps.ts';
import { bigHistory } from './lib/big-history.ts';
import { measureBigHistory } from './lib/bench-history.ts';
import { slope, soakEvening, trend, type SoakSample } from './lib/bench-soak.ts';

export interface Figure {
  label: string;
  value: number;
  unit: 'ms' | 'bytes' | 'count' | 'fps' | 'MB';
  note?: string;
}

export interface BenchSection {
  id: string;
  title: string;
  /** One line saying what is measured and how, printed with the figures. */
  method: string;
  run(ctx: BenchContext): Promise<Figure[]>;
}

export interface BenchOptions {
  frames: number;
  warmup: number;
  /** Throws the camera section times (after one discarded). */
  settles: number;
  /** How long the soak section's evening lasts (minutes). */
  soakMinutes: number;
  /** The fake camera's picture size in the sections that play the table with one. */
  camera: CameraSize;
}

/** Shared, lazily created resources: one build, one preview server, one browser. */
export class BenchContext {
  readonly outDir = mkdtempSync(path.join(tmpdir(), 'rollcall-bench-'));
  private built: Promise<string> | null = null;
  private served: Promise<{ url: string; page: Page; browser: Browser; close: () => Promise<void> }> | null = null;
  /** The app alone, built as `npm run build` does (no harness page, so its chunks and precache are the shipped ones). */
  readonly appDir = mkdtempSync(path.join(tmpdir(), 'rollcall-bench-app-'));
  private appServed: Promise<{ url: string; close: () => Promise<void> }> | null = null;
  /** Chromium's version, once a section has launched it. */
  chromiumVersion: string | null = null;
  constructor(readonly options: BenchOptions) {}

  /** The production build of the app alone, served by `vite preview` (cross-origin isolated). */
  app(): Promise<{ url: string; dir: string }> {
    this.appServed ??= buildApp(this.appDir).then(() => servePreview(this.appDir));
    return this.appServed.then(({ url }) => ({ url, dir: this.appDir }));
  }

  /** Headless Chromium with the team's flags and `extraArgs`; the section closes it. */
  async launch(extraArgs: readonly string[] = []): Promise<Browser> {
    const browser = await launchChromium(extraArgs);
    this.chromiumVersion = browser.version();
    return browser;
  }

  /** The production build (app + harness page); resolves to its folder. */
  build(): Promise<string> {
    this.built ??= buildWithHarness(this.outDir).then(() => this.outDir);
    return this.built;
  }

  /** The build served by `vite preview` and a Chromium page on the harness. */
  browser(): Promise<{ url: string; page: Page; browser: Browser }> {
    this.served ??= (async () => {
      await this.build();
      const server = await servePreview(this.outDir);
      const browser = await this.launch();
      const page = await browser.newPage();
      await page.goto(new URL(HARNESS_PAGE, server.url).href);
      await page.waitForSelector('body[data-ready="true"]');
      return { url: server.url, page, browser, close: async () => { await browser.close(); await server.close(); } };
    })();
    return this.served;
  }

  async close(): Promise<void> {
    if (this.served) await (await this.served).close();
    if (this.appServed) await (await this.appServed.catch(() => null))?.close();
    rmSync(this.outDir, { recursive: true, force: true });
    rmSync(this.appDir, { recursive: true, force: true });
  }
}

const median = (v: number[]): number => percentile(v, 50);
const p95 = (v: number[]): number => percentile(v, 95);

/** A frame cut from a fixture photo: 1280×720 is what the app asks the camera for. */
async function fixtureFrame(width: number, height: number): Promise<Buffer> {
  const photo = path.join(REPO_ROOT, 'tests/fixtures/dice-photos/byler-val-sample/IMG_20191208_111328.jpg');
  return sharp(photo).resize(width, height, { fit: 'cover' }).jpeg({ quality: 90 }).toBuffer();
}

/** The detector's input for a frame, as the reader letterboxes it. */
function inputShape(info: ReaderInfo, width: number, height: number): string {
  const g = letterboxGeometry(width, height, info.inputSize, info.inputStride);
  return `${g.inputWidth}×${g.inputHeight}`;
}

const detectorSection: BenchSection = {
  id: 'detector',
  title: 'dice reader — models/dice-pips.onnx (+ models/die-face.onnx when it ships) on onnxruntime-web (wasm, SIMD) in the app\'s Web Worker, headless Chromium',
  method:
    'reads of a 1280×720 camera frame through createDiceReader(), the two thread counts taking turns frame by frame; inference = session.run only; first reads discarded. ' +
    'Then the same for a square 960×960 photo, the largest input the detector takes (a model with an input stride pads a frame only up to a multiple of it)',
  async run(ctx) {
    const { page } = await ctx.browser();
    const isolated = await page.evaluate(() => (globalThis as unknown as { visionHarness: VisionHarness }).visionHarness.crossOriginIsolated());
    if (!isolated) throw new Error('the preview page is not cross-origin isolated: wasm threads would silently fall back to one');
    const frame = (await fixtureFrame(1280, 720)).toString('base64');
    const figures: Figure[] = [{ label: 'model size', value: statSync(SHIPPED_MODEL).size, unit: 'bytes' }];
    const configs = [1, 2];
    const results = await page.evaluate(
      ([b64, times, threads]) =>
        (globalThis as unknown as { visionHarness: VisionHarness }).visionHarness.readInterleaved(b64, times, threads.map((t) => ({ threads: t }))),
      [frame, ctx.options.warmup + ctx.options.frames, configs] as const,
    );
    results.forEach(({ info, reads }, k) => {
      const threads = configs[k]!;
      if (info.threads !== threads) throw new Error(`asked for ${threads} wasm threads, the reader runs ${info.threads}`);
      const steady = reads.slice(ctx.options.warmup);
      const inference = steady.map((r) => r.timing.inferenceMs);
      const pre = steady.map((r) => r.timing.decodeMs + r.timing.preprocessMs);
      const post = steady.map((r) => r.timing.postprocessMs);
      const whole = steady.map((r) => r.timing.roundTripMs);
      const t = `${threads} thread${threads > 1 ? 's' : ''}`;
      const n = `n=${steady.length}, 1280×720 frame, input ${inputShape(info, 1280, 720)}`;
      figures.push(
        { label: `model load, ${t}`, value: info.modelLoadMs, unit: 'ms', note: `fetch + session + wasm start; ORT import ${info.runtimeLoadMs.toFixed(0)} ms before, warm-up run ${info.warmupMs.toFixed(0)} ms after` },
        { label: `first read, ${t}`, value: reads[0]!.timing.roundTripMs, unit: 'ms', note: 'after the warm-up run' },
        { label: `inference per frame, ${t}, median`, value: median(inference), unit: 'ms', note: n },
        { label: `inference per frame, ${t}, p95`, value: p95(inference), unit: 'ms', note: n },
        { label: `pre-processing per frame, ${t}, median`, value: median(pre), unit: 'ms', note: 'ImageBitmap → pixels → letterbox' },
        { label: `post-processing per frame, ${t}, median`, value: median(post), unit: 'ms', note: 'decode + NMS' },
        ...(info.dieFace
          ? [{ label: `die-face pass per frame, ${t}, median`, value: median(steady.map((r) => r.timing.faceReadMs ?? 0)), unit: 'ms' as const, note: `crops + inference, ${median(steady.map((r) => r.dice.length))} dice read (the frame's)` }]
          : []),
        { label: `whole read per frame, ${t}, median`, value: median(whole), unit: 'ms', note: 'read() to result on the main thread' },
        { label: `whole read per frame, ${t}, p95`, value: p95(whole), unit: 'ms' },
      );
    });
    const square = (await fixtureFrame(960, 960)).toString('base64');
    const squareResults = await page.evaluate(
      ([b64, times, threads]) =>
        (globalThis as unknown as { visionHarness: VisionHarness }).visionHarness.readInterleaved(b64, times, threads.map((t) => ({ threads: t }))),
      [square, ctx.options.warmup + ctx.options.frames, configs] as const,
    );
    squareResults.forEach(({ info, reads }, k) => {
      const threads = configs[k]!;
      const inference = reads.slice(ctx.options.warmup).map((r) => r.timing.inferenceMs);
      const t = `${threads} thread${threads > 1 ? 's' : ''}`;
      const n = `n=${inference.length}, 960×960 photo, input ${inputShape(info, 960, 960)}`;
      figures.push(
        { label: `inference per square photo, ${t}, median`, value: median(inference), unit: 'ms', note: n },
        { label: `inference per square photo, ${t}, p95`, value: p95(inference), unit: 'ms', note: n },
      );
    });
    return figures;
  },
};

const photoTilesSection: BenchSection = {
  id: 'photo-tiles',
  title: 'a large photo of small dice read in tiles (src/lib/vision/tiles.ts), as the table reads a photo of the roll, in the app\'s Web Worker, headless Chromium, one wasm thread',
  method:
    'nine fixture photos laid 3 × 3 as one 1920×1920 picture (scripts/lib/fixture-mosaic.ts, 46 dice of 2–4% of the frame) read through createDiceReader() ' +
    'with { tiles: true } and whole, each --frames/4 times after --warmup/4 reads; the whole read from read() to the result on the main thread',
  async run(ctx) {
    const { page } = await ctx.browser();
    const { jpeg, values } = await nineFixturePhotos();
    const times = Math.max(1, Math.round(ctx.options.frames / 4));
    const warmup = Math.max(1, Math.round(ctx.options.warmup / 4));
    const figures: Figure[] = [];
    for (const tiles of [true, false]) {
      const { reads } = await page.evaluate(
        ([b64, n, count, tiled]) => (globalThis as unknown as { visionHarness: VisionHarness }).visionHarness.readImage(b64, n, { threads: 1 }, count, { tiles: tiled }),
        [jpeg.toString('base64'), warmup + times, values.length, tiles] as const,
      );
      const steady = reads.slice(warmup);
      const how = tiles ? 'in tiles' : 'whole';
      const whole = steady.map((r) => r.timing.roundTripMs);
      figures.push(
        { label: `read ${how}, median`, value: median(whole), unit: 'ms', note: `n=${steady.length}` },
        { label: `read ${how}, p95`, value: p95(whole), unit: 'ms' },
        { label: `dice found ${how}`, value: steady[0]!.dice.length, unit: 'count', note: `dice, of ${values.length}` },
      );
    }
    return figures;
  },
};

/** The benchmark sections, in print order. */
const faceEmbedderSection: BenchSection = {
  id: 'face-embedder',
  title: 'face embedder (symbol dice) — models/face-embed.onnx on onnxruntime-web (wasm, SIMD, ONE thread) in Node\'s V8',
  method: 'one die per call, as a roll is read: crop from a frame + session.run; first calls discarded as warm-up (scripts/lib/bench-face.ts)',
  run: (ctx) => benchFaceEmbedder(ctx.options.frames, ctx.options.warmup),
};

const dieFaceSection: BenchSection = {
  id: 'die-face',
  title: 'die-face reader (standard dice, second pass) — models/die-face.onnx on onnxruntime-web (wasm, SIMD, ONE thread) in Node\'s V8',
  method: 'crops of a fixture photo\'s dice + session.run, one die per call and five per call; first calls discarded as warm-up (scripts/lib/bench-die-face.ts)',
  run: (ctx) => benchDieFaceReader(ctx.options.frames, ctx.options.warmup),
};

const blurMeasureSection: BenchSection = {
  id: 'blur-measure',
  title: 'blur measure (the table\'s "They look blurred") — sharpness.ts diceEdgeWidth in Node\'s V8, run by the worker on every read',
  method: 'the labelled dice of the byler fixture photos at the app\'s 1280 px frame; first calls discarded as warm-up (scripts/lib/bench-sharpness.ts)',
  run: (ctx) => benchSharpness(ctx.options.frames, ctx.options.warmup),
};

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

const firstLoadSection: BenchSection = {
  id: 'initial-js',
  title: 'first load — the JavaScript the first screen needs, and the precache (production build, vite preview, headless Chromium, fresh profile)',
  method: 'every script response the page gets before Home\'s "New game" button is in the document, each gzipped here (level 9); then the service worker\'s precache as the Cache API holds it',
  async run(ctx) {
    const { url, dir } = await ctx.app();
    const browser = await ctx.launch();
    try {
      const load = await measureFirstLoad(browser, url, dir);
      const sum = (list: { bytes: number; gzip: number }[], key: 'bytes' | 'gzip') => list.reduce((n, s) => n + s[key], 0);
      const names = (list: { path: string; gzip: number }[]) => list.map((s) => `${s.path.replace(/^\/assets\//, '')} ${kib(s.gzip)}`).join(', ');
      const { precache } = load;
      return [
        { label: 'initial JS, gzipped', value: sum(load.initial, 'gzip'), unit: 'bytes', note: `${load.initial.length} script${load.initial.length > 1 ? 's' : ''}: ${names(load.initial)}; budget 150 KB` },
        { label: 'initial JS, uncompressed', value: sum(load.initial, 'bytes'), unit: 'bytes' },
        { label: 'first screen interactive', value: load.interactiveMs, unit: 'ms', note: 'navigation start → "New game" in the document; local server, no network throttling' },
        { label: 'JS loaded after it, gzipped', value: sum(load.later, 'gzip'), unit: 'bytes', note: load.later.length ? `until the network is quiet: ${names(load.later)}` : 'none' },
        { label: 'service worker script, gzipped', value: load.serviceWorker.gzip, unit: 'bytes', note: `sw.js, ${kib(load.serviceWorker.bytes)} uncompressed` },
        { label: 'precache, total', value: precache.bytes, unit: 'bytes', note: `${precache.entries} files, what a first visit downloads to work offline` },
        { label: 'precache, gzipped', value: precache.gzip, unit: 'bytes', note: 'the same files, each gzipped (level 9)' },
        ...precache.largest.map((f) => ({ label: `  of which ${f.path.replace(/^\/(assets|models)\//, '').replace(/-[\w-]{8}\./, '.')}`, value: f.bytes, unit: 'bytes' as const, note: f.path })),
      ];
    } finally {
      await browser.close();
    }
  },
};

const settleSection: BenchSection = {
  id: 'settle-to-read',
  title: 'read shown after the dice settle — the built app at a 5000 table, a fake camera of dice thrown that come to rest, headless Chromium',
  method: `from the frame the settle tracker settles on (the app's rollcall:dice-settled mark carries its capture time) to the proposed roll on screen (in the document, then the next animation frame); the --camera size, default ${PHONE_CAMERA.width}×${PHONE_CAMERA.height}, at ${SETTLE_CAMERA.fps} fps, a matteop65 photo and its mirror image in turn; the first throw discarded; target ≤ 300 ms on a mid-range phone`,
  async run(ctx) {
    return withFakeCamera(ctx, 'camera', await settlingDiceY4m(path.join(REPO_ROOT, SETTLE_CAMERA.photo), ctx.options.camera), async (browser, url) => {
      const { timings, settleMs } = await measureSettleToShown(browser, url, ctx.options.settles, 1);
      const n = `n=${timings.length} throws, dice still for ${settleMs} ms first`;
      const reads = [...new Set(timings.map((t) => t.read))].join(' | ');
      const of = (key: 'frameToShown' | 'settledToShown' | 'frameToSettled') => timings.map((t) => t[key]);
      return [
        { label: 'settling frame → read on screen, median', value: median(of('frameToShown')), unit: 'ms', note: n },
        { label: 'settling frame → read on screen, p95', value: p95(of('frameToShown')), unit: 'ms', note: `max ${Math.max(...of('frameToShown')).toFixed(0)} ms` },
        { label: '  of which that frame\'s read, median', value: median(of('frameToSettled')), unit: 'ms', note: 'frame capture → the tracker\'s decision: grab, worker round trip, tracker' },
        { label: '  of which decision → on screen, median', value: median(of('settledToShown')), unit: 'ms', note: 'rules preview, render, paint' },
        { label: '  decision → on screen, p95', value: p95(of('settledToShown')), unit: 'ms', note: `reads: ${reads}` },
      ];
    });
  },
};

const restSection: BenchSection = {
  id: 'reads-at-rest',
  title: 'frames read while the dice lie still — the built app at a 5000 table, a fake camera of still dice, headless Chromium',
  method: `the frames the table sends its dice reader (the worker's messages counted), while the dice settle into the first proposal and then for 10 s while it waits, the dice still; the --camera size, default ${PHONE_CAMERA.width}×${PHONE_CAMERA.height}, at ${SETTLE_CAMERA.fps} fps, a matteop65 photo; the table reads at up to ${READ_FPS} fps while anything changes, ${IDLE_READ_FPS} while it is settled and quiet (src/app/readPace.ts)`,
  async run(ctx) {
    return withFakeCamera(ctx, 'still', await stillDiceY4m(path.join(REPO_ROOT, SETTLE_CAMERA.photo), ctx.options.camera), async (browser, url) => {
      const rest = await measureReadsAtRest(browser, url, 10);
      return [
        { label: 'frames read a second, dice settling', value: rest.settlingPerSecond, unit: 'fps', note: `first frame read → the first proposal; the camera gives ${SETTLE_CAMERA.fps} fps here, a slow device reads fewer` },
        { label: 'frames read a second, dice at rest', value: rest.perSecond, unit: 'fps', note: '10 s while the proposal waits, the dice still' },
      ];
    });
  },
};

const firstVisitSection: BenchSection = {
  id: 'first-visit',
  title: 'first visit on a slow line — the built app behind a 3G-like line, a fresh profile, the table opened at once, headless Chromium',
  method: `vite preview behind a proxy whose responses share ${SLOW_LINE.bytesPerSecond / 1024} KB/s and wait ${SLOW_LINE.roundTripMs} ms each (scripts/lib/slow-line.ts); Home, then New game → 5000 → Start at once, while the first service worker installs; until the camera's first read (a fake camera of still dice, a matteop65 photo)`,
  async run(ctx) {
    return withFakeCamera(ctx, 'first-visit', await stillDiceY4m(path.join(REPO_ROOT, SETTLE_CAMERA.photo), ctx.options.camera), async (browser, url) => {
      const visit = await measureFirstVisit(browser, url);
      const { wasm, pipModel, dieFaceModel } = visit.downloads;
      return [
        { label: 'navigation → Home', value: visit.homeMs, unit: 'ms' },
        { label: 'table open → first dice read', value: visit.startToReadMs, unit: 'ms', note: visit.wasm ? `onnxruntime's wasm: ${(visit.wasm.bytes / 1e6).toFixed(1)} MB down the line (${visit.wasm.path.endsWith('.gz') ? 'gzipped by the build' : 'the plain file'}${visit.wasm.encoding ? `, sent with Content-Encoding: ${visit.wasm.encoding}` : ''})` : "onnxruntime's wasm not seen on the line" },
        { label: 'downloads of the wasm', value: wasm, unit: 'count', note: `the pip model ${pipModel}, the die-face model ${dieFaceModel}; 1 each when the reader takes them from the installing service worker` },
      ];
    });
  },
};

const READER_STARTS = { later: 5, optimiseMs: 60_000 } as const;

const readerStartsSection: BenchSection = {
  id: 'reader-starts',
  title: 'the dice reader started again — the built app at a 5000 table, its service worker in control, headless Chromium',
  method: `one profile: the table opened once and held ${READER_STARTS.optimiseMs / 1000} s (V8 optimises onnxruntime's wasm and caches its code meanwhile), then the browser started again on that profile and the game resumed ${READER_STARTS.later} times, as a player coming back does; each start timed from the reader's worker created to its "ready" (wasm compiled, models loaded, one warm-up run each)`,
  async run(ctx) {
    const { url } = await ctx.app();
    const video = path.join(ctx.appDir, '..', `${path.basename(ctx.appDir)}-reader-starts.y4m`);
    writeFileSync(video, await stillDiceY4m(path.join(REPO_ROOT, SETTLE_CAMERA.photo), ctx.options.camera));
    const profile = mkdtempSync(path.join(tmpdir(), 'rollcall-bench-profile-'));
    const camera = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${video}`];
    try {
      const open = () => launchChromiumProfile(profile, camera, PHONE_VIEWPORT);
      const starts = await measureReaderStarts(open, url, READER_STARTS.later, READER_STARTS.optimiseMs);
      const { hits, misses, noHandler } = starts.codeCache;
      return [
        { label: 'first start', value: starts.firstMs, unit: 'ms', note: 'the wasm inflated from the precached .gz and compiled' },
        { label: 'later start, median', value: median(starts.laterMs), unit: 'ms', note: `n=${starts.laterMs.length}: ${starts.laterMs.map((ms) => ms.toFixed(0)).join(', ')} ms` },
        { label: 'code cache hits on later starts', value: hits, unit: 'count', note: `misses ${misses}, compiled with no code cache to ask ${noHandler} (Chromium's V8.WasmCodeCaching)` },
      ];
    } finally {
      rmSync(video, { force: true });
      rmSync(profile, { recursive: true, force: true });
    }
  },
};

const APP_STARTS = { later: 5 } as const;

const appStartsSection: BenchSection = {
  id: 'app-starts',
  title: 'the app started again — the built app, its service worker in control, a game under way, headless Chromium',
  method: `one profile: the app opened once (the service worker installs, a 5000 table opened), then the browser started again on that profile ${APP_STARTS.later} times, as a player coming back does: navigation → Home interactive ("New game" on the page), then Resume, the table on screen → the reader's worker ready; each later start traced for V8's compiles of the app's scripts (a consumedCacheSize: taken from V8's code cache), which adds a little to the times`,
  async run(ctx) {
    const { url } = await ctx.app();
    const profile = mkdtempSync(path.join(tmpdir(), 'rollcall-bench-profile-'));
    try {
      const open = () => launchChromiumProfile(profile, ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'], PHONE_VIEWPORT);
      const starts = await measureAppStarts(open, url, APP_STARTS.later);
      const { page, workers } = starts.codeCache;
      const list = (ms: number[]): string => `n=${ms.length}: ${ms.map((m) => m.toFixed(0)).join(', ')} ms`;
      const anew = (paths: string[]): string => [...new Set(paths)].map((p) => p.replace(/^\/assets\//, '')).join(', ') || 'none';
      return [
        { label: 'navigation → Home, median', value: median(starts.homeMs), unit: 'ms', note: list(starts.homeMs) },
        { label: 'table on screen → dice reader ready, median', value: median(starts.tableMs), unit: 'ms', note: list(starts.tableMs) },
        { label: "page's scripts from V8's code cache", value: page.fromCache, unit: 'count', note: `of ${page.compiled} compiled on the later starts; anew: ${anew(page.missed)}` },
        { label: "workers' scripts from V8's code cache", value: workers.fromCache, unit: 'count', note: `of ${workers.compiled}; anew: ${anew(workers.missed)}` },
      ];
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  },
};

/** The table-taps section's slow phone and its window of taps. */
const TABLE_TAPS = { players: ['Ann', 'Bob', 'Cy'], throttle: 4, taps: 30, spacingMs: 500, settleMs: 3000, traceMs: 8000 } as const;

const tableTapsSection: BenchSection = {
  id: 'table-taps',
  title: `taps on the dice pad while the camera reads — the built app at a 5000 table of three, CPU throttled ${TABLE_TAPS.throttle}× (a mid-range phone), headless Chromium`,
  method:
    `a fake camera of dice thrown that settle (the --camera size, default ${PHONE_CAMERA.width}×${PHONE_CAMERA.height}, at ${SETTLE_CAMERA.fps} fps, as settle-to-read); the dice pad opened beside the reading camera, one die tapped in, ` +
    `then ${TABLE_TAPS.taps} taps ${TABLE_TAPS.spacingMs} ms apart (a die in, out again) through CDP input; each tap timed from its click's event timestamp to the next frame produced after it ` +
    `(requestAnimationFrame, then a task); main-thread long tasks (PerformanceObserver 'longtask') over the same window; then ${TABLE_TAPS.traceMs / 1000} s traced without taps, the main thread's tasks summed; ` +
    `then all of it with the camera off (the pad alone); the main thread's time per frame read is the busy time beyond the camera-off table's, over the frames read. ` +
    `CDP throttles the page's main thread only: the reader's worker runs at this machine's speed`,
  async run(ctx) {
    return withFakeCamera(ctx, 'taps', await settlingDiceY4m(path.join(REPO_ROOT, SETTLE_CAMERA.photo), ctx.options.camera), async (browser, url) => {
      const figures: Figure[] = [];
      const busy: TapWindow['busy'][] = [];
      for (const camera of [true, false]) {
        const w: TapWindow = await measureTableTaps(browser, url, { camera, ...TABLE_TAPS });
        busy.push(w.busy);
        const how = camera ? 'camera reading' : 'camera off';
        const long = w.longTasksMs;
        const seconds = w.windowMs / 1000;
        figures.push(
          { label: `tap → next paint, ${how}, median`, value: median(w.tapToPaintMs), unit: 'ms', note: `n=${w.tapToPaintMs.length} taps over ${seconds.toFixed(1)} s${camera ? `, ${(w.framesRead / seconds).toFixed(1)} frames read a second meanwhile` : ''}` },
          { label: `tap → next paint, ${how}, p95`, value: p95(w.tapToPaintMs), unit: 'ms', note: `max ${Math.max(...w.tapToPaintMs).toFixed(0)} ms; Event Timing: ${w.slowInteractionsMs.length} of the taps at 16 ms or more${w.slowInteractionsMs.length ? `, longest ${Math.max(...w.slowInteractionsMs)} ms` : ''}` },
          { label: `long tasks, ${how}`, value: long.length, unit: 'count', note: long.length ? `${long.reduce((a, b) => a + b, 0).toFixed(0)} ms in all (${((long.reduce((a, b) => a + b, 0) / w.windowMs) * 100).toFixed(1)}% of the window), longest ${Math.max(...long).toFixed(0)} ms` : 'none over 50 ms' },
          { label: `main thread busy, ${how}`, value: (w.busy.busyMs / w.busy.ms) * 1000, unit: 'ms', note: `a second, traced ${w.busy.ms / 1000} s without taps${camera ? `, ${(w.busy.framesRead / (w.busy.ms / 1000)).toFixed(1)} frames read a second` : ''}` },
        );
      }
      const [on, off] = busy as [TapWindow['busy'], TapWindow['busy']];
      if (on.framesRead > 0) {
        figures.push({ label: 'main thread per frame read', value: (on.busyMs - (off.busyMs * on.ms) / off.ms) / on.framesRead, unit: 'ms', note: `the busy time beyond the camera-off table's over the ${on.framesRead} frames read: taking each frame, sending it, its answer and what it redraws, and the video's own frames drawn` });
      }
      return figures;
    });
  },
};

/** The big-history section's player: two years of game nights, and the slow phone the screens are timed on. */
const BIG_HISTORY = { games: 1000, players: 8, sessions: 300, rounds: 3, throttle: 4, scrollSteps: 25, logIndex: 40 } as const;

const bigHistorySection: BenchSection = {
  id: 'big-history',
  title: `two years of game nights — ${BIG_HISTORY.games} finished games of the nine, ${BIG_HISTORY.players} players, ${BIG_HISTORY.sessions} evenings, in the built app, CPU throttled ${BIG_HISTORY.throttle}× (a mid-range phone), headless Chromium`,
  method:
    'a backup made by seeded random play through the rules (scripts/lib/big-history.ts: every log replays, results and ledger lines are its own) imported through Settings into a fresh profile, unthrottled (Home reloaded first on the empty store, throttled); ' +
    `then ${BIG_HISTORY.rounds} rounds, throttled: a reload onto Home (navigation start → its lists painted), History (tap → its list painted), ${BIG_HISTORY.scrollSteps} wheel turns of 800 px 100 ms apart (frame intervals, long tasks), ` +
    `the log of History's game ${BIG_HISTORY.logIndex + 1} (tap → log painted), New game (tap → the known players painted), 5000 for three known players with an ante of 5 (Start → dice pad painted), ` +
    'five dice on the pad (Done → proposal painted, Confirm → the next headline painted), a backup saved (tap → download); taps are CDP input, timed from the click\'s event time stamp; JS heap after a forced GC (CDP)',
  async run(ctx) {
    const made = performance.now();
    const { backup, stats } = bigHistory(BIG_HISTORY);
    const madeMs = performance.now() - made;
    const file = path.join(ctx.appDir, '..', `${path.basename(ctx.appDir)}-big-history.json`);
    writeFileSync(file, JSON.stringify(backup));
    const { url } = await ctx.app();
    const browser = await ctx.launch();
    try {
      const r = await measureBigHistory(browser, url, file, BIG_HISTORY);
      const n = (v: number[]): string => `n=${v.length}: ${v.map((x) => x.toFixed(0)).join(', ')}`;
      const mib = (v: number[]): string => v.map((x) => (x / 1024 / 1024).toFixed(1)).join(', ');
      const frames = r.scrollFramesMs;
      const long = r.scrollLongTasksMs;
      return [
        { label: 'the history made', value: stats.actions, unit: 'count', note: `actions in ${stats.games} games (${stats.actionsPerGame.min}–${stats.actionsPerGame.max} a game, median ${stats.actionsPerGame.median}), ${backup.ledger.length} ledger lines; made in ${(madeMs / 1000).toFixed(1)} s in Node` },
        { label: 'backup import (Settings), unthrottled', value: r.importMs, unit: 'ms', note: `file chosen → "Imported …" on screen; ${(r.importBytes / 1024 / 1024).toFixed(1)} MiB` },
        { label: 'backup import: the page held, longest', value: Math.max(0, ...r.importLongTasksMs), unit: 'ms', note: `${r.importLongTasksMs.length} long tasks, ${r.importLongTasksMs.reduce((a, b) => a + b, 0).toFixed(0)} ms in all: no frame drawn nor tap answered meanwhile` },
        { label: 'navigation → Home painted, empty store, median', value: median(r.homeEmptyMs), unit: 'ms', note: `${n(r.homeEmptyMs)}; before the import` },
        { label: 'navigation → Home painted, median', value: median(r.homeMs), unit: 'ms', note: n(r.homeMs) },
        { label: 'Home → History painted, median', value: median(r.historyMs), unit: 'ms', note: `${n(r.historyMs)}; ${r.historyItems} games listed` },
        { label: 'History scrolled: frame interval, median', value: median(frames), unit: 'ms', note: `${frames.length} frames over the rounds` },
        { label: 'History scrolled: frame interval, p95', value: p95(frames), unit: 'ms', note: `max ${Math.max(...frames).toFixed(0)} ms` },
        { label: 'History scrolled: long tasks', value: long.length, unit: 'count', note: long.length ? `${long.reduce((a, b) => a + b, 0).toFixed(0)} ms in all, longest ${Math.max(...long).toFixed(0)} ms` : 'none over 50 ms' },
        ...(r.showMoreMs.length ? [{ label: 'History: Show more → next page painted, median', value: median(r.showMoreMs), unit: 'ms' as const, note: n(r.showMoreMs) }] : []),
        { label: 'History → an old game\'s log painted, median', value: median(r.logMs), unit: 'ms', note: `${n(r.logMs)}; ${r.logSteps} actions` },
        { label: 'Home → New game painted, median', value: median(r.newGameFormMs), unit: 'ms', note: n(r.newGameFormMs) },
        { label: 'Start → table painted, median', value: median(r.tableMs), unit: 'ms', note: n(r.tableMs) },
        { label: 'dice pad Done → proposal painted, median', value: median(r.proposalMs), unit: 'ms', note: n(r.proposalMs) },
        { label: 'Confirm roll → next headline painted, median', value: median(r.confirmMs), unit: 'ms', note: n(r.confirmMs) },
        { label: 'backup saved (tap → download), median', value: median(r.exportMs), unit: 'ms', note: `${n(r.exportMs)}; ${(r.exportBytes / 1024 / 1024).toFixed(1)} MiB` },
        { label: 'backup saved: the page held, longest', value: Math.max(0, ...r.exportLongTasksMs), unit: 'ms', note: `${r.exportLongTasksMs.length} long tasks over the rounds, ${r.exportLongTasksMs.reduce((a, b) => a + b, 0).toFixed(0)} ms in all` },
        { label: 'JS heap on Home, median', value: median(r.heap.home), unit: 'bytes', note: `after a forced GC; MiB: ${mib(r.heap.home)}` },
        { label: 'JS heap on History, median', value: median(r.heap.history), unit: 'bytes', note: `MiB: ${mib(r.heap.history)}` },
        { label: 'JS heap on a log, median', value: median(r.heap.log), unit: 'bytes', note: `MiB: ${mib(r.heap.log)}` },
      ];
    } finally {
      await browser.close();
      rmSync(file, { force: true });
    }
  },
};

const SOAK = { players: ['Ann', 'Bob', 'Cy'], ante: 2, sampleSeconds: 20, longGameActions: 500, throttle: 4, tapsPerSample: 10, seed: 7 } as const;

const soakSection: BenchSection = {
  id: 'soak',
  title: 'a game night compressed — the built app at a 5000 table of three with an ante, the camera reading all along, for --soak-minutes (default 6), headless Chromium',
  method:
    `scripts/lib/bench-soak.ts: a fake camera of dice thrown that settle (the --camera size, default ${PHONE_CAMERA.width}×${PHONE_CAMERA.height}, at ${SETTLE_CAMERA.fps} fps); rolls taken from the camera's proposals the rules accept, the rest tapped on the dice pad; banks, undo (5% of moves, and the end of a game now and then); ` +
    `the first game drawn out to ${SOAK.longGameActions} actions (busts, small banks) then finished, then games played to the end and new ones started; every 45 moves the camera off and on, every 70 the table left for the log and back, every 55 the page hidden 1.5 s and shown. ` +
    `Every ${SOAK.sampleSeconds} s, after GC in the page and its workers: page JS heap, DOM nodes and listeners (CDP Performance.getMetrics), workers alive and their heaps (Runtime.getHeapUsage), renderers' RSS (/proc), ImageBitmaps open, ` +
    `${SOAK.tapsPerSample} taps on the pad → next paint at CPU ${SOAK.throttle}×; frames read a second and each read's round trip between samples; each action's tap → headline painted against the log's length. ` +
    'Trend: median of the first fifth of the samples → the last fifth, and the least-squares slope an hour',
  async run(ctx) {
    return withFakeCamera(ctx, 'soak', await settlingDiceY4m(path.join(REPO_ROOT, SETTLE_CAMERA.photo), ctx.options.camera), async (browser, url) => {
      const result = await soakEvening(browser, url, { minutes: ctx.options.soakMinutes, ...SOAK });
      const { samples, acts, counts } = result;
      console.error('  t (s)  heap MB  nodes  listeners  workers  worker MB  RSS MB  bitmaps  tap ms  reads/s  read ms  log');
      for (const s of samples) {
        const f = (v: number | null, d = 1): string => (v === null ? '-' : v.toFixed(d));
        console.error(`  ${f(s.t, 0).padStart(5)}  ${f(s.pageHeapMb).padStart(7)}  ${f(s.nodes, 0).padStart(5)}  ${f(s.listeners, 0).padStart(9)}  ${f(s.workers, 0).padStart(7)}  ${f(s.workerHeapMb).padStart(9)}  ${f(s.rendererRssMb, 0).padStart(6)}  ${f(s.openBitmaps, 0).padStart(7)}  ${f(s.tapMs).padStart(6)}  ${f(s.framesPerSecond).padStart(7)}  ${f(s.readMs).padStart(7)}  ${f(s.logLength, 0).padStart(4)}`);
      }
      const figures: Figure[] = [];
      const series: Array<[string, Figure['unit'], (s: SoakSample) => number | null]> = [
        ['page JS heap after GC', 'MB', (s) => s.pageHeapMb],
        ['DOM nodes', 'count', (s) => s.nodes],
        ['JS event listeners', 'count', (s) => s.listeners],
        ['workers alive', 'count', (s) => s.workers],
        ["workers' JS heap after GC", 'MB', (s) => s.workerHeapMb],
        ["renderers' resident memory", 'MB', (s) => s.rendererRssMb],
        ['ImageBitmaps open in the page', 'count', (s) => s.openBitmaps],
        [`tap on the pad → next paint, CPU ${SOAK.throttle}×, median`, 'ms', (s) => s.tapMs],
        ['frames read a second', 'fps', (s) => s.framesPerSecond],
        ["a frame read's round trip, median", 'ms', (s) => s.readMs],
      ];
      for (const [label, unit, pick] of series) {
        const t = trend(samples, pick);
        if (!t) continue;
        figures.push({ label: `${label}, last`, value: t.last, unit, note: `first ${t.first.toFixed(unit === 'count' ? 0 : 1)} → last ${t.last.toFixed(unit === 'count' ? 0 : 1)}; slope ${t.perHour >= 0 ? '+' : ''}${t.perHour.toFixed(1)} an hour, ${t.perHourLate >= 0 ? '+' : ''}${t.perHourLate.toFixed(1)} over the second half` });
      }
      // one game's log growing: does each action cost more as it does?
      const early = acts.filter((a) => a.logLength < 50).map((a) => a.ms);
      const late = acts.filter((a) => a.logLength >= 400).map((a) => a.ms);
      const longest = Math.max(0, ...acts.map((a) => a.logLength));
      if (early.length) figures.push({ label: 'action tap → headline painted, log under 50, median', value: median(early), unit: 'ms', note: `n=${early.length}` });
      if (late.length) figures.push({ label: 'action tap → headline painted, log 400 and more, median', value: median(late), unit: 'ms', note: `n=${late.length}, longest log ${longest}` });
      if (acts.length > 1) {
        const perHundred = slope(acts.map((a) => a.logLength), acts.map((a) => a.ms)) * 100;
        figures.push({ label: 'action tap → headline painted, slope', value: perHundred, unit: 'ms', note: `a 100 actions more in the log (n=${acts.length})` });
      }
      figures.push({
        label: 'the evening, minutes played',
        value: Math.round(result.seconds / 6) / 10,
        unit: 'count',
        note: `${counts.actions} actions (${counts.cameraRolls} camera rolls, ${counts.padRolls} pad rolls, ${counts.banks} banks), ${counts.undos} undos, ${counts.games} games, camera off/on ${counts.cameraToggles}×, table left ${counts.tableLeft}×, hidden ${counts.hidden}×, ${counts.resyncs} resyncs`,
      });
      return figures;
    });
  },
};

/** Runs `measure` on the built app in a browser whose fake camera plays `video` (a .y4m beside the build, removed after). */
async function withFakeCamera(ctx: BenchContext, name: string, video: Buffer, measure: (browser: Browser, url: string) => Promise<Figure[]>): Promise<Figure[]> {
  const { url } = await ctx.app();
  const file = path.join(ctx.appDir, '..', `${path.basename(ctx.appDir)}-${name}.y4m`);
  writeFileSync(file, video);
  const browser = await ctx.launch(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${file}`]);
  try {
    return await measure(browser, url);
  } finally {
    await browser.close();
    rmSync(file, { force: true });
  }
}

export const SECTIONS: BenchSection[] = [detectorSection, photoTilesSection, faceEmbedderSection, dieFaceSection, blurMeasureSection, firstLoadSection, firstVisitSection, readerStartsSection, appStartsSection, settleSection, restSection, tableTapsSection, bigHistorySection, soakSection];

function format(value: number, unit: Figure['unit']): string {
  if (unit === 'ms') return `${value.toFixed(value < 10 ? 2 : 1)} ms`;
  if (unit === 'fps') return `${value.toFixed(1)} fps`;
  if (unit === 'MB') return `${value.toFixed(1)} MB`;
  if (unit === 'bytes') return `${value.toLocaleString('en')} B (${value < 1024 * 1024 ? kib(value) : `${(value / 1024 / 1024).toFixed(2)} MiB`})`;
  return String(value);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      json: { type: 'boolean', default: false },
      frames: { type: 'string', default: '40' },
      warmup: { type: 'string', default: '5' },
      settles: { type: 'string', default: '20' },
      'soak-minutes': { type: 'string', default: '6' },
      camera: { type: 'string', default: `${PHONE_CAMERA.width}x${PHONE_CAMERA.height}` },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const usage = `usage: npm run bench -- [--json] [--frames N] [--warmup N] [--settles N] [--soak-minutes N] [--camera WIDTHxHEIGHT] [--only ${SECTIONS.map((s) => s.id).join(',')}]`;
  if (values.help) throw new HelpRequest(usage);
  const frames = Number(values.frames);
  const warmup = Number(values.warmup);
  const settles = Number(values.settles);
  const soakMinutes = Number(values['soak-minutes']);
  if (!Number.isInteger(frames) || frames < 1 || !Number.isInteger(warmup) || warmup < 0 || !Number.isInteger(settles) || settles < 1) {
    throw new UsageError(`--frames, --warmup and --settles must be whole numbers\n${usage}`);
  }
  if (!(soakMinutes > 0)) throw new UsageError(`--soak-minutes must be a number of minutes\n${usage}`);
  const cameraSize = /^(\d+)x(\d+)$/.exec(values.camera);
  // even sides: the fake camera's file is 4:2:0, a chroma sample for each 2×2 pixels
  const camera = cameraSize ? { width: Number(cameraSize[1]), height: Number(cameraSize[2]) } : null;
  if (!camera || camera.width < 64 || camera.height < 64 || camera.width % 2 || camera.height % 2) {
    throw new UsageError(`--camera must be a width and height in pixels, even and at least 64, such as 1280x720\n${usage}`);
  }
  const only = values.only?.split(',').map((s) => s.trim());
  const unknown = only?.filter((id) => !SECTIONS.some((s) => s.id === id)) ?? [];
  if (unknown.length) throw new UsageError(`unknown section ${unknown.join(', ')}\n${usage}`);
  const sections = SECTIONS.filter((s) => !only || only.includes(s.id));

  const loadAtStart = loadavg()[0]!;
  const ctx = new BenchContext({ frames, warmup, settles, soakMinutes, camera });
  const results: Array<{ id: string; title: string; method: string; figures: Figure[] }> = [];
  try {
    for (const s of sections) results.push({ id: s.id, title: s.title, method: s.method, figures: await s.run(ctx) });
    const chromium = ctx.chromiumVersion;
    const ortVersion = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules/onnxruntime-web/package.json'), 'utf8')) as { version: string }).version;
    const machine = {
      chromium,
      onnxruntimeWeb: ortVersion,
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      loadAverage: { atStart: loadAtStart, atEnd: loadavg()[0]! },
      fakeCamera: `${camera.width}×${camera.height}`,
    };
    if (values.json) {
      console.log(JSON.stringify({ machine, sections: results }, null, 2));
    } else {
      console.log(`Rollcall bench — headless Chromium ${machine.chromium ?? '(not started)'}, onnxruntime-web ${machine.onnxruntimeWeb}, ${machine.cpu} (${machine.cores} cores, shared)`);
      console.log(`Production build served by vite preview, cross-origin isolated; the table's fake camera ${machine.fakeCamera}. Figures are this machine's, not a phone's.`);
      const load = Math.max(machine.loadAverage.atStart, machine.loadAverage.atEnd);
      console.log(
        `Load average ${machine.loadAverage.atStart.toFixed(1)} at start, ${machine.loadAverage.atEnd.toFixed(1)} at end, on ${machine.cores} cores` +
          (load > machine.cores * 0.75 ? ' — other work was running: times are inflated, and extra threads cannot help much.' : '.'),
      );
      for (const r of results) {
        console.log(`\n${r.title}\n  (${r.method})`);
        const width = Math.max(...r.figures.map((f) => f.label.length));
        for (const f of r.figures) console.log(`  ${f.label.padEnd(width)}  ${format(f.value, f.unit).padStart(12)}${f.note ? `   ${f.note}` : ''}`);
      }
    }
    return 0;
  } finally {
    await ctx.close();
  }
}

runCli('bench', import.meta.url, main);
