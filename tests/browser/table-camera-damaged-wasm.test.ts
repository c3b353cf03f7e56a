/**
 * onnxruntime's wasm damaged on its way to the phone (a deploy that cut the `.gz` short, a proxy
 * that mangled it): the table says the reader could not start because that file is damaged, and
 * how, not Chromium's "Failed to fetch", which sends a player looking at their network
 * (src/lib/vision/ort-wasm.ts).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAppWithCamera, ROOT, type AppWithCamera } from './harness.ts';
import { startGame } from './table-helpers.ts';

const PHOTO = join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg');

let app: AppWithCamera;

beforeAll(async () => {
  app = await openAppWithCamera(inject('distDir'), readFileSync(PHOTO), 640, 480);
});

afterAll(async () => {
  await app?.close();
});

describe("onnxruntime's wasm damaged", () => {
  it('is said to be damaged, and how: cut short', async () => {
    // no service worker, so the reader's own request for the wasm is the one cut short here
    const context = await app.session.browser.newContext({ viewport: { width: 412, height: 860 }, serviceWorkers: 'block' });
    try {
      await context.grantPermissions(['camera']);
      await context.route(/\/ort-wasm-simd-threaded-[\w-]+\.wasm\.gz$/, async (route) => {
        const response = await route.fetch();
        const gz = await response.body();
        await route.fulfill({ response, body: gz.subarray(0, gz.length >> 1) });
      });
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      await page.goto(app.server.url);
      await startGame(page, 'five-thousand', ['Ann', 'Bob']);
      const status = page.getByTestId('camera-status');
      await status.getByText(/could not start/).waitFor();
      const said = (await status.textContent())?.trim();
      expect(said).toMatch(/^The dice reader could not start \(dice reader failed to start: onnxruntime's wasm at http:\/\/\S+\.wasm\.gz is damaged \(Compressed input was truncated\)\)\. Enter the dice with the dice pad\.$/);
      expect(said).not.toMatch(/Failed to fetch/);
    } finally {
      await context.close();
    }
  }, 90_000);
});
