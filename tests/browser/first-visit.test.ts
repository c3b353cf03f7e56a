/**
 * A first visit on a slow line: the player opens the app and starts a game at once, while the
 * first service worker is still installing, downloading onnxruntime's wasm (3.7 MB gzipped) and the
 * models into its precache. The table's reader takes those files from the precache as they land
 * (dice-reader.worker.ts `fetchShipped`), so each goes down the line once, not twice; and when
 * that install fails, the reader downloads them itself and still reads the roll.
 * The line (scripts/lib/slow-line.ts) is slowed so that the install is still running when the
 * table opens, as on a phone; `npm run bench -- --only first-visit` times the same at 3G speed.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { slowLine, type SlowLine } from '../../scripts/lib/slow-line.ts';
import { fakeCameraFile, launch, layoutProblems, ROOT, serve, type BrowserSession, type StaticServer } from './harness.ts';
import { cameraRead, startGame } from './table-helpers.ts';

const PHOTO = join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg');
/**
 * The gzipped wasm alone (3.7 MB) takes about 7 s at this speed: long enough to open a table
 * during the install, and for the table to say why it waits (after 4 s).
 */
const LINE = { bytesPerSecond: 512 * 1024, roundTripMs: 20 };
const WASM = /\/ort-wasm-simd-threaded-[\w-]+\.wasm\.gz$/;
const PIP_MODEL = /\/models\/dice-pips\.onnx$/;
const DIE_FACE_MODEL = /\/models\/die-face\.onnx$/;

let server: StaticServer;
let session: BrowserSession;
let camera: { path: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  server = await serve(inject('distDir'));
  camera = await fakeCameraFile(readFileSync(PHOTO), 640, 480);
  session = await launch({ camera: camera.path });
});

afterAll(async () => {
  await session?.close();
  await server?.stop();
  await camera?.cleanup();
});

/**
 * A slow line that holds back the precache's request for `held` until `firstVisit` has opened the
 * table: the first install is still running there however slowly this machine opens it. And
 * `heldLonger`'s, until the test lets it go.
 */
async function slowLineHoldingTheInstall(
  held: RegExp,
  fault?: (path: string, earlier: number) => number | null,
  heldLonger?: { path: RegExp; until: Promise<void> },
  upstream: StaticServer = server,
): Promise<SlowLine & { tableOpen: () => void }> {
  let tableOpen!: () => void;
  const opened = new Promise<void>((resolve) => (tableOpen = resolve));
  const line = await slowLine(upstream.url, { ...LINE, fault, hold: (path) => (held.test(path) ? opened : heldLonger?.path.test(path) ? heldLonger.until : null) });
  return Object.assign(line, { tableOpen });
}

/** The table's sentence while the first install downloads what its first read needs, with how far it has got. */
const DOWNLOAD_FIGURE = /^\s*Downloading the dice reader: (\d+\.\d) of (\d+\.\d)\u00a0MB \(on a first visit only\)… Enter the dice with the dice pad meanwhile\.\s*$/;

/** The table's sentence while the first install downloads, when it cannot say how far it has got. */
const DOWNLOAD_UNCOUNTED = /^\s*Downloading the dice reader \(5\.4\u00a0MB, on a first visit only\)… Enter the dice with the dice pad meanwhile\.\s*$/;

/** The table's sentence once what the first read needs has downloaded, while the reader starts. */
const STILL_STARTING = /^\s*Still starting the dice reader… Enter the dice with the dice pad meanwhile\.\s*$/;

/**
 * Every sentence the table's camera status shows from now on, each time it changes. Watched in the
 * page, so that none shown briefly is missed. `heights`: the status's height as each was shown.
 */
async function statusSentences(page: Page): Promise<(() => Promise<string[]>) & { heights: () => Promise<{ sentence: string; height: number }[]> }> {
  await page.evaluate(() => {
    const status = document.querySelector('[data-testid="camera-status"]');
    const shown: string[] = [];
    const heights: { sentence: string; height: number }[] = [];
    const look = (): void => {
      const text = status?.textContent?.trim() ?? '';
      const height = status?.getBoundingClientRect().height ?? 0;
      if (shown.at(-1) !== text) shown.push(text);
      if (heights.at(-1)?.sentence !== text || heights.at(-1)?.height !== height) heights.push({ sentence: text, height });
    };
    look();
    new MutationObserver(look).observe(status ?? document.body, { subtree: true, childList: true, characterData: true });
    if (status) new ResizeObserver(look).observe(status);
    Object.assign(window, { statusSentences: shown, statusHeights: heights });
  });
  return Object.assign(() => page.evaluate(() => (window as unknown as { statusSentences: string[] }).statusSentences), {
    heights: () => page.evaluate(() => (window as unknown as { statusHeights: { sentence: string; height: number }[] }).statusHeights),
  });
}

/** The figures (`DOWNLOAD_FIGURE`: MB downloaded, MB in all) among `sentences`, in turn. */
function downloadFigures(sentences: string[]): { downloaded: number; total: number }[] {
  return sentences.flatMap((sentence) => {
    const [, downloaded, total] = DOWNLOAD_FIGURE.exec(sentence) ?? [];
    return downloaded && total ? [{ downloaded: Number(downloaded), total: Number(total) }] : [];
  });
}

/** A fresh profile (no service worker, empty caches) on `line`: Home, then a 5000 table at once. */
async function firstVisit(line: SlowLine & { tableOpen: () => void }): Promise<{ page: Page; installingAtTable: boolean; close: () => Promise<void> }> {
  const context = await session.browser.newContext({ viewport: { width: 412, height: 860 } });
  await context.grantPermissions(['camera']);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await page.goto(line.url);
  await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy']);
  const installingAtTable = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return navigator.serviceWorker.controller === null && (registration?.installing ?? null) !== null;
  });
  line.tableOpen();
  return { page, installingAtTable, close: () => context.close() };
}

describe('a first visit on a slow line', () => {
  it('reads the first roll with the wasm and the model from the installing service worker: each downloaded once', async () => {
    // the wasm, the precache's first file: the reader waits its whole download (about 7 s) at the table
    const line = await slowLineHoldingTheInstall(WASM);
    const visit = await firstVisit(line);
    try {
      // the case in question: the table opened before the first install had finished
      expect(visit.installingAtTable).toBe(true);
      const sentences = await statusSentences(visit.page);
      // the wait is explained after a few seconds, with the pad to use meanwhile and how far the download has got
      await visit.page.getByTestId('camera-status').filter({ hasText: DOWNLOAD_FIGURE }).waitFor();
      expect(await layoutProblems(visit.page)).toEqual([]);
      expect(await cameraRead(visit.page, 60_000)).toHaveLength(5);
      // the figure rose as the files came, never back, never past what the first read needs (5.4 MB)
      const shown = downloadFigures(await sentences());
      expect(new Set(shown.map((f) => f.downloaded)).size).toBeGreaterThanOrEqual(2);
      expect(shown.every((f) => f.total === shown[0]?.total)).toBe(true);
      expect(shown[0]?.total).toBe(5.4);
      expect(shown.every((f, i) => f.downloaded >= (shown[i - 1]?.downloaded ?? 0) && f.downloaded <= f.total)).toBe(true);
      // the wasm gzipped, once, and never the plain 14 MB file beside it
      expect(line.downloads(WASM)).toBe(1);
      expect(line.downloads(/\.wasm$/)).toBe(0);
      expect(line.downloads(PIP_MODEL)).toBe(1);
      // the dice pad below stays where it was while the reader is slow to start: the status never
      // shrinks from the first figure on, though "Still starting…" is shorter than the figure's sentence
      const heights = await sentences.heights();
      const slow = heights.slice(heights.findIndex((h) => DOWNLOAD_FIGURE.test(h.sentence)));
      const slowUntilReady = slow.slice(0, slow.findIndex((h) => !DOWNLOAD_FIGURE.test(h.sentence) && !STILL_STARTING.test(h.sentence)));
      expect(slowUntilReady.some((h) => STILL_STARTING.test(h.sentence))).toBe(true);
      expect(slowUntilReady.filter((h, i) => h.height < (slowUntilReady[i - 1]?.height ?? 0))).toEqual([]);
    } finally {
      await visit.close();
      await line.close();
    }
  });

  it("counts the gzipped wasm a host sends with Content-Encoding: gzip by its share of the plain wasm the browser inflates", async () => {
    const encodingServer = await serve(inject('distDir'), { gzipEncoded: WASM });
    const line = await slowLineHoldingTheInstall(WASM, undefined, undefined, encodingServer);
    const visit = await firstVisit(line);
    try {
      expect(visit.installingAtTable).toBe(true);
      const sentences = await statusSentences(visit.page);
      await visit.page.getByTestId('camera-status').filter({ hasText: DOWNLOAD_FIGURE }).waitFor();
      expect(await cameraRead(visit.page, 60_000)).toHaveLength(5);
      expect(line.served.filter((f) => WASM.test(f.path)).map((f) => f.encoding)).toEqual(['gzip']);
      // the body counted is the 14 MB wasm; the figure is of the 5.4 MB shipped all the same
      const shown = downloadFigures(await sentences());
      expect(new Set(shown.map((f) => f.downloaded)).size).toBeGreaterThanOrEqual(2);
      expect(shown.every((f, i) => f.total === 5.4 && f.downloaded >= (shown[i - 1]?.downloaded ?? 0) && f.downloaded < f.total)).toBe(true);
    } finally {
      await visit.close();
      await line.close();
      await encodingServer.stop();
    }
  });

  it('says how far the download has got after a reload in the middle of it, counting what came before', async () => {
    // the die-face model, held until the page is back: the download is still running there
    let pageBack!: () => void;
    const back = new Promise<void>((resolve) => (pageBack = resolve));
    const line = await slowLineHoldingTheInstall(WASM, undefined, { path: DIE_FACE_MODEL, until: back });
    const visit = await firstVisit(line);
    try {
      expect(visit.installingAtTable).toBe(true);
      const before = await statusSentences(visit.page);
      await visit.page.getByTestId('camera-status').filter({ hasText: DOWNLOAD_FIGURE }).waitFor();
      const last = downloadFigures(await before()).at(-1);
      // the same install downloads on; the page back at the table hears from it anew
      await visit.page.reload();
      await visit.page.getByTestId('table-camera').waitFor();
      const after = await statusSentences(visit.page);
      await visit.page.getByTestId('camera-status').filter({ hasText: DOWNLOAD_FIGURE }).waitFor();
      const first = downloadFigures(await after())[0];
      pageBack();
      expect(first?.downloaded).toBeGreaterThanOrEqual(last?.downloaded ?? Infinity);
      expect(first?.downloaded).toBeLessThan(5.4);
      expect(await cameraRead(visit.page, 60_000)).toHaveLength(5);
    } finally {
      pageBack();
      await visit.close();
      await line.close();
    }
  });

  it('still reads when that install fails: the reader downloads what the precache lacks itself', async () => {
    // The service worker's request for the die-face model (the third file it fetches, after the
    // wasm and the pip model) fails, so its install does, with the table waiting on that model.
    const line = await slowLineHoldingTheInstall(DIE_FACE_MODEL, (path, earlier) => (DIE_FACE_MODEL.test(path) && earlier === 0 ? 503 : null));
    const visit = await firstVisit(line);
    try {
      expect(visit.installingAtTable).toBe(true);
      const sentences = await statusSentences(visit.page);
      expect(await cameraRead(visit.page, 60_000)).toHaveLength(5);
      expect(line.served.filter((f) => DIE_FACE_MODEL.test(f.path)).map((f) => f.status)).toEqual([503, 200]);
      // the figure while the install downloaded; once it failed, the reader downloads uncounted: no figure is left standing
      const shown = await sentences();
      const lastFigure = shown.findLastIndex((sentence) => DOWNLOAD_FIGURE.test(sentence));
      expect(lastFigure).toBeGreaterThanOrEqual(0);
      expect(shown.slice(lastFigure + 1).some((sentence) => DOWNLOAD_UNCOUNTED.test(sentence))).toBe(true);
      expect(line.downloads(WASM)).toBe(1);
      expect(await visit.page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active != null)).toBe(false);
    } finally {
      await visit.close();
      await line.close();
    }
  });
});
