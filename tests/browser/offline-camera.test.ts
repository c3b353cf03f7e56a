/**
 * Works offline after the first load, reading a roll by camera included: the built app is
 * loaded once online (a fake camera streaming a real photo of five dice, the one
 * table-camera.test.ts reads), its service worker installs and takes control, then the network
 * goes away — Chromium offline, and the server drops every connection unanswered, logging it.
 * After a reload a 5000 game is started and the camera reads the roll: the page, the dice
 * reader's worker, onnxruntime-web's .mjs and .wasm (the copy the reader inflated online,
 * ort-wasm.ts `INFLATED_WASM_CACHE`) and the ONNX model all come from the service worker's
 * cache, and not one request reaches the server.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Request, Response } from 'playwright-core';
import { browserOffersInstall, fakeCameraFile, launch, reloadOffline, ROOT, serve, waitForServiceWorker, type BrowserSession, type StaticServer } from './harness.ts';
import { cameraRead, startGame } from './table-helpers.ts';

const PHOTOS = join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample');
const PHOTO = 'valid_80.jpg';

let server: StaticServer;
let session: BrowserSession;
let camera: { path: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  server = await serve(inject('distDir'));
  camera = await fakeCameraFile(readFileSync(join(PHOTOS, PHOTO)), 640, 480);
  session = await launch({ camera: camera.path });
});

afterAll(async () => {
  await session?.close();
  await server?.stop();
  await camera?.cleanup();
});

describe('offline after the first load', () => {
  it('reads a roll by camera with the network gone: model and wasm from the service worker', async () => {
    const { page, context, errors } = session;
    await page.goto(server.url);
    await page.getByTestId('new-game').waitFor();
    await waitForServiceWorker(page);
    await page.getByTestId('offline-ready').waitFor();
    // the phone's browser says the app can be installed, and the player installs it from Home
    await browserOffersInstall(page);
    await page.getByTestId('install').click();
    await page.getByTestId('install-offer').waitFor({ state: 'detached' });

    // Online, the camera reads the photo once: what the same model must read offline.
    await startGame(page, 'five-thousand', ['Ann', 'Bob']);
    const online = await cameraRead(page);
    expect(online).toHaveLength(5);
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('new-game').waitFor();

    // Every response the page and its workers get from now on, and every request made from now on
    // that fails (one made before, such as the browser's late fetch of the icon, is aborted by the
    // reload and is not the offline page's).
    const responses: Response[] = [];
    const failed: string[] = [];
    const madeOffline = new Set<Request>();
    context.on('request', (r) => madeOffline.add(r));
    context.on('response', (r) => responses.push(r));
    context.on('requestfailed', (r) => {
      if (madeOffline.has(r)) failed.push(`${r.url()} (${r.failure()?.errorText ?? '?'})`);
    });

    const before = await reloadOffline(page, server);
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null && crossOriginIsolated)).toBe(true);

    await startGame(page, 'five-thousand', ['Cy', 'Dee']);
    const offline = await cameraRead(page);
    expect(offline).toEqual(online);
    expect(await page.getByTestId('roll-preview').textContent()).toMatch(/^Cy rolled /);
    await page.getByTestId('confirm-roll').click();
    await page.getByTestId('camera-read').waitFor({ state: 'detached' });
    expect(await page.getByTestId('headline').textContent()).toMatch(/^Cy rolled /);

    // The reader's worker, onnxruntime-web (.mjs and .wasm) and the model: all from the cache.
    const paths = responses.map((r) => new URL(r.url()).pathname);
    for (const file of [/^\/assets\/dice-reader\.worker-.*\.js$/, /^\/assets\/ort-wasm-.*\.mjs$/, /^\/assets\/ort-wasm-.*\.wasm$/, /^\/models\/dice-pips\.onnx$/]) {
      expect(paths.some((p) => file.test(p)), String(file)).toBe(true);
    }
    expect(responses.filter((r) => !r.fromServiceWorker()).map((r) => r.url())).toEqual([]);
    expect(failed).toEqual([]);
    // Nothing reached the server but the browser's own check for a new service worker, which a
    // navigation makes whatever the page does, and which fails quietly offline.
    expect(server.requests.slice(before).filter((r) => r.path !== '/sw.js')).toEqual([]);
    expect(errors).toEqual([]);
  });
});
