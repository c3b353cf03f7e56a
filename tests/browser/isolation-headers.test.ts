/**
 * The service worker's isolation headers, on a host that sends none (a plain static host): the
 * service worker gives COOP/COEP to the page and to the workers' scripts, which need them for
 * `crossOriginIsolated` (threaded wasm), and hands every other precached file over as Cache
 * Storage gave it. Only that response, not a copy, lets Chromium keep V8's compiled code beside
 * the entry and take it on the next start (src/sw.ts `needsIsolationHeaders`). Online and offline,
 * the page and the dice reader's worker stay isolated and the reader runs on threads.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Response } from 'playwright-core';
import type { ReaderInfo } from '../../src/lib/vision/dice-reader-protocol.ts';
import { fakeCameraFile, launch, reloadOffline, ROOT, serve, waitForServiceWorker, type BrowserSession, type StaticServer } from './harness.ts';
import { cameraRead, startGame } from './table-helpers.ts';

let server: StaticServer;
let session: BrowserSession;
let camera: { path: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  server = await serve(inject('distDir'), { isolationHeaders: false });
  camera = await fakeCameraFile(readFileSync(join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg')), 640, 480);
  session = await launch({ camera: camera.path });
  // What each reader's worker says of itself once ready (threads, crossOriginIsolated); and the
  // reader asked for two threads, as a phone's cores give it (this machine's two cores give one):
  // onnxruntime then starts its pthread workers, module workers of their own, which need the
  // isolation as much as the reader's worker does.
  await session.context.addInitScript(() => {
    const w = window as unknown as { readerInfos: unknown[] };
    w.readerInfos = [];
    const Original = window.Worker;
    window.Worker = class extends Original {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        this.addEventListener('message', (event: MessageEvent) => {
          const data = event.data as { type?: unknown; info?: unknown } | null;
          if (data?.type === 'ready') w.readerInfos.push(data.info);
        });
      }
      override postMessage(message: unknown, transfer?: unknown): void {
        const init = message as { type?: unknown; options?: object } | null;
        const sent = init?.type === 'init' ? { ...init, options: { ...init.options, threads: 2 } } : message;
        super.postMessage(sent, transfer as Transferable[]);
      }
    };
  });
});

afterAll(async () => {
  await session?.close();
  await server?.stop();
  await camera?.cleanup();
});

const readerInfos = (page: Page): Promise<ReaderInfo[]> => page.evaluate(() => (window as unknown as { readerInfos: ReaderInfo[] }).readerInfos);

/** The isolation headers a response came with, by the path it was for. */
async function isolationOf(response: Response): Promise<{ path: string; coop: string | null; coep: string | null; corp: string | null }> {
  const headers = await response.allHeaders();
  return {
    path: new URL(response.url()).pathname,
    coop: headers['cross-origin-opener-policy'] ?? null,
    coep: headers['cross-origin-embedder-policy'] ?? null,
    corp: headers['cross-origin-resource-policy'] ?? null,
  };
}

/** A 5000 table opened, the camera's read waited for, and the reader's worker's own word on its isolation. */
async function readAtTable(page: Page, players: string[]): Promise<ReaderInfo> {
  await startGame(page, 'five-thousand', players);
  expect(await cameraRead(page)).toHaveLength(5);
  const infos = await readerInfos(page);
  expect(infos).toHaveLength(1);
  return infos[0]!;
}

describe('isolation headers from the service worker', () => {
  it('go on the page and the workers only; the scripts come as Cache Storage keeps them; isolated online and offline', async () => {
    const { page, context, errors } = session;
    await page.goto(server.url);
    await page.getByTestId('new-game').waitFor();
    // the host sends no isolation headers: the first visit is not isolated
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
    await waitForServiceWorker(page);
    await page.getByTestId('offline-ready').waitFor();

    const responses: Response[] = [];
    context.on('response', (r) => responses.push(r));
    await page.reload();
    await page.getByTestId('new-game').waitFor();
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    expect(await readAtTable(page, ['Ann', 'Bob'])).toMatchObject({ crossOriginIsolated: true, threads: 2 });

    const served = await Promise.all(responses.filter((r) => r.fromServiceWorker()).map(isolationOf));
    const isolated = { coop: 'same-origin', coep: 'require-corp', corp: 'same-origin' };
    // the page
    expect(served.filter((r) => r.path === '/')).toEqual([{ path: '/', ...isolated }]);
    // the reader's worker (a module worker), whose COEP is its script's
    expect(served.filter((r) => /^\/assets\/dice-reader\.worker-[\w-]+\.js$/.test(r.path))).toEqual([expect.objectContaining(isolated)]);
    // the app's own scripts and styles, as the host sent them
    const plain = { coop: null, coep: null, corp: null };
    const bundle = served.find((r) => /^\/assets\/index-[\w-]+\.js$/.test(r.path));
    expect(bundle).toEqual(expect.objectContaining(plain));
    // (by what they are, not by chunk names, which the bundler chooses: vite 8.4 put rules, kits
    // and ScreenHeader into index)
    const assets = served.filter((r) => /^\/assets\/[\w.-]+\.(js|css)$/.test(r.path) && !/^\/assets\/(dice-reader\.worker|ort[.-])/.test(r.path));
    expect(assets.map((a) => a.path.replace(/-[\w-]+\./, '.')).sort()).toEqual(expect.arrayContaining(['/assets/index.css', '/assets/index.js']));
    for (const asset of assets) expect(asset).toEqual({ path: asset.path, ...plain });
    // onnxruntime's scripts, imported by the reader's worker; its pthread worker is the .mjs
    // again, fetched as a worker's script, with the headers
    expect(served.filter((r) => /^\/assets\/ort\.wasm\.bundle\.min-[\w-]+\.js$/.test(r.path))).toEqual([expect.objectContaining(plain)]);
    const runtime = served.filter((r) => /^\/assets\/ort-wasm-simd-threaded-[\w-]+\.mjs$/.test(r.path));
    expect(runtime).toHaveLength(2);
    expect(runtime).toEqual(expect.arrayContaining([expect.objectContaining(plain), expect.objectContaining(isolated)]));
    // and the models
    const models = served.filter((r) => r.path.startsWith('/models/'));
    expect(models.map((r) => r.path)).toContain('/models/dice-pips.onnx');
    for (const model of models) expect(model).toEqual({ path: model.path, ...plain });

    // offline: the page, a deep link and the reader's worker all isolated still, the reader threaded
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('new-game').waitFor();
    const before = await reloadOffline(page, server);
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null && crossOriginIsolated)).toBe(true);
    expect(await readAtTable(page, ['Cy', 'Dee'])).toMatchObject({ crossOriginIsolated: true, threads: 2 });
    await page.goto(`${server.url}history`);
    await page.getByTestId('new-game').waitFor();
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    // (but the browser's own check for a new service worker)
    expect(server.requests.slice(before).filter((r) => r.path !== '/sw.js')).toEqual([]);
    expect(errors).toEqual([]);
  });
});
