/**
 * The phones players bring: browsers without a feature the app reads dice with still keep score,
 * with the dice pad and a sentence saying why the camera cannot read. Each case removes the
 * feature from Chromium before the app loads (a fresh page for each).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { fakeCameraFile, launch, ROOT, serve, type BrowserSession, type StaticServer } from './harness.ts';
import { padRoll, startGame } from './table-helpers.ts';

const PHOTO = join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg');

let server: StaticServer;
let camera: { path: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  server = await serve(inject('distDir'));
  camera = await fakeCameraFile(readFileSync(PHOTO), 640, 480);
});

afterAll(async () => {
  await camera?.cleanup();
  await server?.stop();
});

/**
 * `play` on the app in a browser whose pages run `script` first, a worker's globals patched by
 * `workerPatch` (prepended to the reader's script); no page error may follow. The browser is
 * closed after, however it went.
 */
async function inBrowserWithout(script: string, workerPatch: string | null, play: (page: Page) => Promise<void>): Promise<void> {
  const session: BrowserSession = await launch({ camera: camera.path });
  try {
    await session.page.addInitScript({ content: script });
    if (workerPatch) {
      await session.context.route(/\/assets\/dice-reader\.worker-[\w-]+\.js$/, async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: `${workerPatch}\n${await response.text()}` });
      });
    }
    await session.page.goto(server.url);
    await play(session.page);
    expect(session.errors).toEqual([]);
  } finally {
    await session.close();
  }
}

/** The scorekeeper works: the pad is open, and a roll entered on it scores. */
async function keepsScoreWithThePad(page: Page): Promise<void> {
  await page.getByTestId('dice-pad').waitFor();
  await padRoll(page, ['1', '1', '5', '2', '3'], '1 1 5 2 3');
  expect(await page.getByTestId('headline').textContent()).toMatch(/^Ann rolled 1 1 2 3 5 = 250/);
}

describe('a phone whose browser lacks what the camera reads with', () => {
  it('without module workers (Firefox before 114): the reader could not start, said; the pad opens and scores', async () => {
    const noModuleWorkers = `const W = window.Worker;
      window.Worker = class extends W {
        constructor(url, options) {
          if (options && options.type === 'module') throw new TypeError('Module scripts are not supported on DedicatedWorker yet.');
          super(url, options);
        }
      };`;
    await inBrowserWithout(noModuleWorkers, null, async (page) => {
      await startGame(page, 'five-thousand', ['Ann', 'Bob']);
      await page.locator('[data-testid="table-camera"][data-reader="error"]').waitFor();
      expect(await page.getByTestId('camera-status').textContent()).toBe(
        'The dice reader could not start (this browser cannot run it, a newer one can: Module scripts are not supported on DedicatedWorker yet.). Enter the dice with the dice pad.',
      );
      await keepsScoreWithThePad(page);
    });
  });

  it("without WebAssembly SIMD (Safari before 16.4, every iPhone left on iOS 15): said in words, not in ORT's", async () => {
    await inBrowserWithout('', 'WebAssembly.validate = () => false;', async (page) => {
      await startGame(page, 'five-thousand', ['Ann', 'Bob']);
      await page.locator('[data-testid="table-camera"][data-reader="error"]').waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('camera-status').textContent()).toMatch(/could not start \(.*this browser is too old for it; it needs WebAssembly SIMD, as in Safari 16\.4/);
      await keepsScoreWithThePad(page);
    });
  });

  it('whose camera gives no frames to read (createImageBitmap refusing a <video>): said, not "No dice in view" for ever', async () => {
    const noVideoBitmaps = `const original = window.createImageBitmap;
      window.createImageBitmap = (source, ...rest) =>
        source instanceof HTMLVideoElement ? Promise.reject(new DOMException('The source image could not be decoded.', 'InvalidStateError')) : original(source, ...rest);`;
    await inBrowserWithout(noVideoBitmaps, null, async (page) => {
      await startGame(page, 'five-thousand', ['Ann', 'Bob']);
      await page.locator('[data-testid="table-camera"][data-reader="ready"]').waitFor({ timeout: 45_000 });
      await page.getByText("The camera's read failed (this browser gives no pictures of the camera to read: The source image could not be decoded.). Enter the dice with the dice pad.").waitFor({ timeout: 15_000 });
      await page.getByTestId('dice-pad-toggle').click();
      await keepsScoreWithThePad(page);
    });
  });

  it('without crypto.randomUUID (a page over plain http, Safari before 15.4): games still start', async () => {
    await inBrowserWithout('delete Crypto.prototype.randomUUID;', null, async (page) => {
      await startGame(page, 'five-thousand', ['Ann', 'Bob']);
      await page.getByTestId('camera-toggle').click(); // the camera off: the pad
      await keepsScoreWithThePad(page);
    });
  });

  it('without crypto.subtle in the worker (a page over plain http): symbol dice are still read', async () => {
    await inBrowserWithout('', 'delete Crypto.prototype.subtle;', async (page) => {
      await startGame(page, 'face-off', ['Ann', 'Bob']);
      // the face reader keys taught photos by the face model's hash: the build's, not one computed with crypto.subtle
      await page.locator('[data-testid="table-camera"][data-reader="ready"][data-reads="art"]').waitFor({ timeout: 45_000 });
    });
  });
});
