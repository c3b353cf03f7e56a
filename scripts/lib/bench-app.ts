/**
 * Figures of the app as a player meets it, for `npm run bench` (scripts/bench.ts): the
 * JavaScript the first screen loads and the precache a first visit fills (`measureFirstLoad`),
 * how long a settled camera read takes to reach the screen (`measureSettleToShown`), and how
 * often the camera is read while the dice lie still (`measureReadsAtRest`), and the starts when a
 * player comes back: the reader's (`measureReaderStarts`), the app's with V8's code cache for its
 * scripts (`measureAppStarts`). All drive the production build (no harness page) in headless Chromium.
 */
import { gzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { DICE_SETTLED_MARK, type SettledMarkDetail } from '../../src/app/cameraRead.ts';
import { DEFAULT_SETTINGS } from '../../src/lib/store/types.ts';
import { framesToY4m } from '../y4m.ts';
import { slowLine } from './slow-line.ts';

/** A phone-sized page, as the browser tests use. */
export const PHONE_VIEWPORT = { width: 412, height: 860 } as const;
const PHONE = { viewport: PHONE_VIEWPORT, deviceScaleFactor: 1 } as const;

/** Taps `selector` (its first match, or the `nth`) where it now lies, as a finger would: a real input event through CDP, no in-page click. */
export async function tap(page: Page, selector: string, nth = 0): Promise<void> {
  const target = page.locator(selector).nth(nth);
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error(`nothing to tap at ${selector}`);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

const gzipSize = (bytes: Buffer): number => gzipSync(bytes, { level: 9 }).byteLength;

export interface ScriptLoad {
  path: string;
  bytes: number;
  gzip: number;
}

export interface FirstLoad {
  /** Scripts the page requested before Home's "New game" button was on the page. */
  initial: ScriptLoad[];
  /** Scripts the page requested after that, until the network went quiet (loaded lazily). */
  later: ScriptLoad[];
  /** Navigation start to the first screen being interactive (ms). */
  interactiveMs: number;
  /** The service worker's own script. */
  serviceWorker: ScriptLoad;
  /** What the service worker precached on install, as the Cache API holds it. */
  precache: { entries: number; bytes: number; gzip: number; largest: { path: string; bytes: number }[] };
}

/**
 * Loads the app once in a fresh profile, as a first visit: every script response the page gets
 * before the first screen is interactive (Home's "New game" button in the document) is summed,
 * gzip-compressed here (level 9) since the servers' compression varies; then waits for the
 * service worker to take control and sums what it precached.
 */
export async function measureFirstLoad(browser: Browser, url: string, distDir: string): Promise<FirstLoad> {
  const context = await browser.newContext(PHONE);
  try {
    const page = await context.newPage();
    await page.addInitScript(() => {
      // (No named inner functions here or below: tsx would wrap them in a helper the page lacks.)
      const w = window as unknown as { __interactiveAt?: number };
      const observer = new MutationObserver(() => {
        if (w.__interactiveAt !== undefined || !document.querySelector('[data-testid="new-game"]')) return;
        w.__interactiveAt = performance.timeOrigin + performance.now();
        observer.disconnect();
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    const scripts: { path: string; startedAt: number; body: Promise<Buffer> }[] = [];
    page.on('response', (response) => {
      const request = response.request();
      if (request.resourceType() !== 'script' || request.frame() !== page.mainFrame()) return;
      scripts.push({ path: new URL(response.url()).pathname, startedAt: request.timing().startTime, body: response.body() });
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.getByTestId('new-game').waitFor();
    const { interactiveAt, navigationStart } = await page.evaluate(() => ({
      interactiveAt: (window as unknown as { __interactiveAt: number }).__interactiveAt,
      navigationStart: performance.timeOrigin,
    }));
    const load = async (s: (typeof scripts)[number]): Promise<ScriptLoad> => {
      const body = await s.body;
      return { path: s.path, bytes: body.byteLength, gzip: gzipSize(body) };
    };
    const initial = await Promise.all(scripts.filter((s) => s.startedAt <= interactiveAt).map(load));
    const later = await Promise.all(scripts.filter((s) => s.startedAt > interactiveAt).map(load));
    if (initial.length === 0) throw new Error('no script was loaded before the first screen: is this the app?');

    const cached = await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise<void>((ok) => navigator.serviceWorker.addEventListener('controllerchange', () => ok(), { once: true }));
      }
      const files: { path: string; bytes: number }[] = [];
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          const response = await cache.match(request);
          files.push({ path: new URL(request.url).pathname, bytes: response ? (await response.arrayBuffer()).byteLength : 0 });
        }
      }
      return files;
    });
    let gzip = 0;
    for (const file of cached) gzip += gzipSize(await readFile(path.join(distDir, file.path)));
    const sw = await readFile(path.join(distDir, 'sw.js'));
    return {
      initial,
      later,
      interactiveMs: interactiveAt - navigationStart,
      serviceWorker: { path: '/sw.js', bytes: sw.byteLength, gzip: gzipSize(sw) },
      precache: {
        entries: cached.length,
        bytes: cached.reduce((sum, f) => sum + f.bytes, 0),
        gzip,
        largest: [...cached].sort((a, b) => b.bytes - a.bytes).slice(0, 3),
      },
    };
  } finally {
    await context.close();
  }
}

/** A fake camera's picture size. */
export interface CameraSize {
  width: number;
  height: number;
}

/** What the app asks a phone's camera for (src/app/camera.ts) and what phones give: the benches' camera unless `--camera` says otherwise. */
export const PHONE_CAMERA: CameraSize = { width: 1280, height: 720 };

/** The fake camera's picture, its frame rate, and how the scene plays. */
export const SETTLE_CAMERA = {
  photo: 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg',
  fps: 10,
  /** Frames of the bare table, of dice rolling (shifting, then still), per throw. */
  emptyFrames: 5,
  /** How far the dice slide each frame as they come to rest, in a 640-pixel-wide picture's pixels (scaled to the camera's width). */
  rollingShifts: [96, 64, 36, 16, 6],
  stillFrames: 30,
} as const;

/**
 * A looping camera scene of throws that settle: the bare table, then the photo's dice sliding
 * to a stop and lying still; the next throw lands mirrored (another layout, so the settle
 * tracker proposes it as a new roll rather than the same dice again).
 */
export async function settlingDiceY4m(photoPath: string, { width, height }: CameraSize = PHONE_CAMERA): Promise<Buffer> {
  const { fps, emptyFrames, stillFrames } = SETTLE_CAMERA;
  const rollingShifts = SETTLE_CAMERA.rollingShifts.map((dx) => Math.round((dx * width) / 640));
  const base = await sharp(photoPath).rotate().resize(width, height, { fit: 'cover' }).removeAlpha().png().toBuffer();
  const { dominant } = await sharp(base).stats();
  const table = await sharp({ create: { width, height, channels: 3, background: dominant } }).png().toBuffer();
  const pad = Math.max(...rollingShifts);
  // Two pipelines: within one, sharp would crop before it pads.
  const shifted = async (picture: Buffer, dx: number): Promise<Buffer> => {
    const padded = await sharp(picture).extend({ left: pad, right: pad, top: 0, bottom: 0, background: dominant }).png().toBuffer();
    return sharp(padded).extract({ left: pad - dx, top: 0, width, height }).png().toBuffer();
  };
  const frames: Buffer[] = [];
  for (const picture of [base, await sharp(base).flop().png().toBuffer()]) {
    for (let i = 0; i < emptyFrames; i++) frames.push(table);
    for (const dx of rollingShifts) frames.push(await shifted(picture, dx));
    for (let i = 0; i < stillFrames; i++) frames.push(picture);
  }
  return framesToY4m(frames, { width, height, fps });
}

export interface SettleTiming {
  /** The settling frame's capture time → the proposed roll painted (ms). */
  frameToShown: number;
  /** The settle tracker's decision (the mark) → painted (ms). */
  settledToShown: number;
  /** The settling frame's capture → the decision: that frame's trip through the reader (ms). */
  frameToSettled: number;
  read: string;
}

/**
 * In the built app at a 5000 table with the fake camera playing `settlingDiceY4m`: for each
 * throw, from the frame the settle tracker settled on (the `rollcall:dice-settled` mark the app
 * makes, with that frame's time) to the proposed roll on screen — the proposal in the document,
 * then the next animation frame painted. Each proposal is discarded at once, as a player would
 * who throws again. Waits for `count` settles after `warmup` discarded ones.
 */
export async function measureSettleToShown(browser: Browser, url: string, count: number, warmup: number): Promise<{ timings: SettleTiming[]; settleMs: number }> {
  const context = await browser.newContext(PHONE);
  await context.grantPermissions(['camera']);
  try {
    const page = await context.newPage();
    await page.addInitScript((markName: string) => {
      const w = window as unknown as { __settles: SettleTiming[] };
      w.__settles = [];
      let lastMark: PerformanceEntry | null = null;
      const observer = new MutationObserver(() => {
        const read = document.querySelector('[data-testid="camera-read"][data-source="camera"]');
        if (!read) return;
        const marks = performance.getEntriesByName(markName, 'mark') as PerformanceMark[];
        const mark = marks.at(-1);
        if (!mark || mark === lastMark || !(mark.detail as SettledMarkDetail).proposed) return;
        lastMark = mark;
        const { frameTime } = mark.detail as SettledMarkDetail;
        requestAnimationFrame(() => {
          // A task queued from the animation frame runs once that frame has been produced.
          const channel = new MessageChannel();
          channel.port1.addEventListener('message', () => {
            const shown = performance.now();
            w.__settles.push({ frameToShown: shown - frameTime, settledToShown: shown - mark.startTime, frameToSettled: mark.startTime - frameTime, read: read.textContent ?? '' });
            const discard = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Discard');
            discard?.click();
          });
          channel.port1.start();
          channel.port2.postMessage(null);
        });
      });
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    }, DICE_SETTLED_MARK);
    await page.goto(url);
    await startFiveThousand(page);
    await page
      .waitForFunction((n) => (window as unknown as { __settles: unknown[] }).__settles.length >= n, count + warmup, { timeout: (count + warmup) * 20_000 + 60_000, polling: 500 })
      .catch(async (e: unknown) => {
        const done = await page.evaluate(() => (window as unknown as { __settles: unknown[] }).__settles.length);
        const status = await page.getByTestId('camera-status').textContent().catch(() => null);
        throw new Error(`settle-to-read: ${done} of ${count + warmup} throws reached the screen (camera says: ${status ?? 'nothing'})`, { cause: e });
      });
    const timings = (await page.evaluate(() => (window as unknown as { __settles: SettleTiming[] }).__settles)).slice(warmup, warmup + count);
    // A fresh profile: the table settles on the default settle time.
    return { timings, settleMs: DEFAULT_SETTINGS.settleMs };
  } finally {
    await context.close();
  }
}

/**
 * Run in the page (`page.addInitScript`, or `page.evaluate` before the table opens): records when
 * each frame is sent to a worker (every message but a worker's start) for `framesRead`.
 */
export function recordFramesRead(): void {
  const w = window as unknown as { __framesRead: number[] };
  w.__framesRead = [];
  const post = Worker.prototype.postMessage as (this: Worker, message: unknown, transfer?: unknown) => void;
  Worker.prototype.postMessage = function (this: Worker, message: unknown, transfer?: unknown) {
    if ((message as { type?: string } | null)?.type !== 'init') w.__framesRead.push(performance.now());
    post.call(this, message, transfer);
  } as Worker['postMessage'];
}

/** The times (performance.now()) of the frames sent to the page's workers since `recordFramesRead`. */
export function framesRead(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { __framesRead: number[] }).__framesRead);
}

/** A fake camera of dice lying still: the settle scene's photo alone, looped. */
export async function stillDiceY4m(photoPath: string, { width, height }: CameraSize = PHONE_CAMERA): Promise<Buffer> {
  const { fps } = SETTLE_CAMERA;
  const picture = await sharp(photoPath).rotate().resize(width, height, { fit: 'cover' }).removeAlpha().png().toBuffer();
  return framesToY4m([picture], { width, height, fps });
}

export interface ReadsAtRest {
  /** Frames sent to the dice reader's worker a second while the proposed dice lie still. */
  perSecond: number;
  /** The same before the proposal: from the first frame read to the proposal on screen (the dice settling). */
  settlingPerSecond: number;
}

/**
 * In the built app at a 5000 table with the fake camera playing `stillDiceY4m`: the frames the
 * table sends its dice reader (every message to the worker but its start), counted while the
 * dice settle into the first proposal and then for `seconds` while the proposal waits, the dice
 * still: the pace a propped phone reads at while the players score (src/app/readPace.ts).
 */
export async function measureReadsAtRest(browser: Browser, url: string, seconds: number): Promise<ReadsAtRest> {
  const context = await browser.newContext(PHONE);
  await context.grantPermissions(['camera']);
  try {
    const page = await context.newPage();
    await page.addInitScript(recordFramesRead);
    await page.goto(url);
    await startFiveThousand(page);
    await page.getByTestId('camera-read').waitFor({ timeout: 120_000 });
    const reads = (): Promise<number[]> => framesRead(page);
    // the frame the tracker settled on (its mark) ends the settling
    const settledAt = await page.evaluate((name) => performance.getEntriesByName(name, 'mark')[0]!.startTime, DICE_SETTLED_MARK);
    const from = (await reads()).length;
    await page.waitForTimeout(seconds * 1000);
    const all = await reads();
    const settling = all.filter((t) => t <= settledAt);
    const span = (settledAt - settling[0]!) / 1000;
    return { perSecond: (all.length - from) / seconds, settlingPerSecond: span > 0 ? (settling.length - 1) / span : 0 };
  } finally {
    await context.close();
  }
}

/** Home → New game → 5000 with `players` (two by default) → the table, waiting for a roll. */
export async function startFiveThousand(page: Page, players: readonly string[] = ['Ann', 'Bob']): Promise<void> {
  await page.getByTestId('new-game').click();
  await page.getByTestId('game-select').selectOption('five-thousand');
  for (const name of players) {
    await page.getByTestId('player-name').fill(name);
    await page.getByTestId('add-player').click();
  }
  await page.getByTestId('start-game').click();
  await page.getByTestId('table-camera').waitFor();
}

/** The line `measureFirstVisit` runs on: a slow mobile connection (3G-like). */
export const SLOW_LINE = { bytesPerSecond: 200 * 1024, roundTripMs: 150 } as const;

export interface FirstVisit {
  /** Navigation start → Home's "New game" on the page (ms). */
  homeMs: number;
  /** The table on screen (just after the tap on Start) → the first dice read by the camera (ms). */
  startToReadMs: number;
  /** How many times each of the big files went down the line. */
  downloads: { wasm: number; pipModel: number; dieFaceModel: number };
  /** onnxruntime's wasm as it went down the line: its path, the bytes sent, and the server's content-encoding, if any. */
  wasm: { path: string; bytes: number; encoding: string | null } | null;
}

/**
 * A first visit on a slow line (`SLOW_LINE`, scripts/lib/slow-line.ts) in front of the built app
 * at `url`, a fresh profile with the fake camera the browser was launched with: Home, then at
 * once New game → 5000 → Start, until the camera's first read is on the table. The service worker
 * installs meanwhile, as it does on a phone's first visit.
 */
export async function measureFirstVisit(browser: Browser, url: string): Promise<FirstVisit> {
  const line = await slowLine(url, SLOW_LINE);
  const context = await browser.newContext(PHONE);
  await context.grantPermissions(['camera']);
  try {
    const page = await context.newPage();
    await page.goto(line.url, { timeout: 120_000 });
    await page.getByTestId('new-game').waitFor({ timeout: 120_000 });
    const homeMs = await page.evaluate(() => performance.now());
    await startFiveThousand(page);
    const startedAt = await page.evaluate(() => performance.now());
    await page.getByTestId('camera-read').waitFor({ timeout: 600_000 });
    const readAt = await page.evaluate(() => performance.now());
    const wasm = line.served.find((f) => /\.wasm(\.gz)?$/.test(f.path));
    return {
      homeMs,
      startToReadMs: readAt - startedAt,
      downloads: { wasm: line.downloads(/\.wasm(\.gz)?$/), pipModel: line.downloads(/dice-pips\.onnx$/), dieFaceModel: line.downloads(/die-face\.onnx$/) },
      wasm: wasm ? { path: wasm.path, bytes: wasm.bytes, encoding: wasm.encoding } : null,
    };
  } finally {
    await context.close();
    await line.close();
  }
}

/** The dice reader's starts at the table, on a first start and on later visits (`measureReaderStarts`). */
export interface ReaderStarts {
  /** The first start in a fresh profile, its service worker in control: worker created → ready (ms). */
  firstMs: number;
  /** Each later start: the browser started again on the same profile, the game resumed (ms). */
  laterMs: number[];
  /** V8's wasm code cache on the later starts (Chromium's `V8.WasmCodeCaching`): hits, misses, and compiles with none to ask. */
  codeCache: { hits: number; misses: number; noHandler: number };
}

/** Records, in the page, each Worker's creation and its `ready` message (the dice reader's start). */
function recordReaderStarts(): void {
  const w = window as unknown as { readerStarts: { created: number; ready?: number }[] };
  w.readerStarts = [];
  const Original = window.Worker;
  window.Worker = class extends Original {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      const start: { created: number; ready?: number } = { created: performance.now() };
      w.readerStarts.push(start);
      this.addEventListener('message', (event: MessageEvent) => {
        if ((event.data as { type?: unknown } | null)?.type === 'ready') start.ready ??= performance.now();
      });
    }
  };
}

/** V8.WasmCodeCaching's samples in this browser by outcome (0 miss, 1 hit, 3 no cache handler), the renderers' merged in by chrome://histograms. */
async function wasmCodeCaching(context: BrowserContext): Promise<Record<number, number>> {
  const page = await context.newPage();
  await page.goto('chrome://histograms/#V8.WasmCodeCaching');
  await page.waitForTimeout(2000);
  const cdp = await context.newCDPSession(page);
  const { histograms } = (await cdp.send('Browser.getHistograms', { query: 'V8.WasmCodeCaching' })) as { histograms: { name: string; buckets: { low: number; count: number }[] }[] };
  await cdp.detach();
  await page.close();
  const histogram = histograms.find((h) => h.name === 'V8.WasmCodeCaching');
  return Object.fromEntries((histogram?.buckets ?? []).map((b) => [b.low, b.count]));
}

/**
 * The dice reader's start at a 5000 table of the built app at `url`, as a player meets it: once in
 * a fresh profile with its service worker in control, held `optimiseMs` (V8 optimises the wasm
 * and caches its code meanwhile), then `later` times with the browser started again on the same
 * profile (`open`: a persistent context on it) and the game resumed from Home, as a player coming
 * back to the app does.
 */
export async function measureReaderStarts(open: () => Promise<BrowserContext>, url: string, later: number, optimiseMs: number): Promise<ReaderStarts> {
  const startAt = async (first: boolean): Promise<{ ms: number; codeCache: Record<number, number> }> => {
    const context = await open();
    try {
      await context.grantPermissions(['camera']);
      await context.addInitScript(recordReaderStarts);
      const page = await context.newPage();
      await page.goto(url);
      if (first) {
        await page.evaluate(async () => {
          await navigator.serviceWorker.ready;
          if (!navigator.serviceWorker.controller) await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
        });
        await page.getByTestId('new-game').waitFor();
        await startFiveThousand(page);
      } else {
        // Home: the game under way, resumed
        await page.getByRole('button', { name: 'Resume' }).first().click();
        await page.getByTestId('table-camera').waitFor();
      }
      await page.waitForFunction(() => (window as unknown as { readerStarts: { ready?: number }[] }).readerStarts.some((s) => s.ready !== undefined), null, { timeout: 120_000 });
      const start = await page.evaluate(() => (window as unknown as { readerStarts: { created: number; ready?: number }[] }).readerStarts.find((s) => s.ready !== undefined)!);
      await page.waitForTimeout(first ? optimiseMs : 3000);
      return { ms: start.ready! - start.created, codeCache: await wasmCodeCaching(context) };
    } finally {
      await context.close();
    }
  };
  const first = await startAt(true);
  const laterStarts: { ms: number; codeCache: Record<number, number> }[] = [];
  for (let i = 0; i < later; i++) laterStarts.push(await startAt(false));
  const count = (bucket: number): number => laterStarts.reduce((sum, s) => sum + (s.codeCache[bucket] ?? 0), 0);
  return { firstMs: first.ms, laterMs: laterStarts.map((s) => s.ms), codeCache: { hits: count(1), misses: count(0), noHandler: count(3) } };
}

export interface ScriptCompiles {
  compiled: number;
  fromCache: number;
  missed: string[];
}

/** The app's starts when a player comes back (`measureAppStarts`). */
export interface AppStarts {
  /** Each later start: the browser started again on the same profile, navigation start → Home interactive (ms). */
  homeMs: number[];
  /** Each later start: the table on screen, the game resumed → the dice reader's worker ready (ms). */
  tableMs: number[];
  /** The app's scripts V8 compiled on the later starts, by where they ran: how many, how many took V8's code cache (a `consumedCacheSize` in their trace event), and the paths of those that did not. */
  codeCache: Record<'page' | 'workers', ScriptCompiles>;
}

interface TraceEvent {
  name: string;
  pid: number;
  tid: number;
  /** `name`: a thread's, on a `thread_name` event; `data`: a compile's. */
  args?: { name?: string; data?: { url?: string; consumedCacheSize?: number; cacheRejected?: boolean } };
}

/**
 * Traces V8's script compiles (Chromium's `v8.compile` and `v8.compileModule` events, whose
 * `consumedCacheSize` says the code came from V8's code cache) in the whole browser until the
 * returned function is called.
 */
async function traceScriptCompiles(cdp: CDPSession): Promise<() => Promise<TraceEvent[]>> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e: { value: object[] }) => {
    for (const event of e.value as TraceEvent[]) if (event.name === 'v8.compile' || event.name === 'v8.compileModule' || event.name === 'thread_name') events.push(event);
  });
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['v8', '__metadata'] }, transferMode: 'ReportEvents' });
  return async () => {
    const complete = new Promise<void>((ok) => cdp.once('Tracing.tracingComplete', () => ok()));
    await cdp.send('Tracing.end');
    await complete;
    return events;
  };
}

/**
 * The app's start as a player coming back meets it: once in a fresh profile (the service worker
 * installs and takes control, a 5000 game is started and its reader started), then `later` times
 * with the browser started again on that profile (`open`: a persistent context on it): navigation
 * → Home interactive (its "New game" button on the page), then the game resumed, the table on
 * screen → the reader's worker ready.
 * Each later start is traced for V8's compiles of the app's scripts, in the page and the workers.
 */
export async function measureAppStarts(open: () => Promise<BrowserContext>, url: string, later: number): Promise<AppStarts> {
  const origin = new URL(url).origin;
  const result: AppStarts = { homeMs: [], tableMs: [], codeCache: { page: { compiled: 0, fromCache: 0, missed: [] }, workers: { compiled: 0, fromCache: 0, missed: [] } } };
  for (let i = 0; i <= later; i++) {
    const first = i === 0;
    const context = await open();
    try {
      await context.grantPermissions(['camera']);
      await context.addInitScript(recordReaderStarts);
      await context.addInitScript(() => {
        const w = window as unknown as { __interactiveAt?: number };
        const observer = new MutationObserver(() => {
          if (w.__interactiveAt !== undefined || !document.querySelector('[data-testid="new-game"]')) return;
          w.__interactiveAt = performance.now();
          observer.disconnect();
        });
        observer.observe(document, { childList: true, subtree: true });
      });
      const page = context.pages()[0] ?? (await context.newPage());
      const cdp = await context.newCDPSession(page);
      const stopTrace = first ? null : await traceScriptCompiles(cdp);
      await page.goto(url);
      await page.getByTestId('new-game').waitFor();
      const homeMs = await page.evaluate(() => (window as unknown as { __interactiveAt: number }).__interactiveAt);
      if (first) {
        await page.evaluate(async () => {
          await navigator.serviceWorker.ready;
          if (!navigator.serviceWorker.controller) await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
        });
        await startFiveThousand(page);
      } else {
        await page.getByRole('button', { name: 'Resume' }).first().click();
        await page.getByTestId('table-camera').waitFor();
      }
      const tableAt = await page.evaluate(() => performance.now());
      await page.waitForFunction(() => (window as unknown as { readerStarts: { ready?: number }[] }).readerStarts.some((s) => s.ready !== undefined), null, { timeout: 120_000 });
      const readyAt = await page.evaluate(() => (window as unknown as { readerStarts: { ready?: number }[] }).readerStarts.find((s) => s.ready !== undefined)!.ready!);
      // V8 caches a script's code once it has run a while; the next start is the one that gains
      await page.waitForTimeout(3000);
      if (stopTrace) {
        const events = await stopTrace();
        // the page's scripts run on its renderer's main thread; the workers' on threads of their own
        const mainThreads = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
        for (const e of events) {
          const script = e.args?.data?.url;
          if (e.name === 'thread_name' || !script?.startsWith(origin)) continue;
          const where = mainThreads.has(`${e.pid}:${e.tid}`) ? result.codeCache.page : result.codeCache.workers;
          where.compiled += 1;
          if ((e.args?.data?.consumedCacheSize ?? 0) > 0 && !e.args?.data?.cacheRejected) where.fromCache += 1;
          else where.missed.push(new URL(script).pathname);
        }
        result.homeMs.push(homeMs);
        result.tableMs.push(readyAt - tableAt);
      }
      await cdp.detach();
    } finally {
      await context.close();
    }
  }
  return result;
}
