/**
 * A file the service worker precached damaged (a host that once sent a cut-off `.gz`, an error
 * page or a proxy's garbage with status 200): Workbox serves the precache cache-first and never
 * looks at it again, so the dice reader failed on every start until the next app update. The
 * reader now downloads the file once more past the service worker, checks it, puts it in the
 * precache in place of the damaged copy and reads dice in that same start
 * (src/lib/vision/precache-heal.ts); offline it says the file is damaged and will be downloaded
 * again, which a later start online does; where the network's copy is damaged too, it says so as
 * without a service worker. The inflated wasm kept in `rollcall-ort-wasm` is looked at before
 * use and inflated anew where it is not wasm; damaged past what is looked at, it is dropped when
 * the runtime fails on it, for the next start. Each case in a profile of its own, the copies
 * damaged in Cache Storage itself, as a bad download would have left them.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { damageCached, openAppWithCamera, reloadOffline, ROOT, waitForServiceWorker, type AppWithCamera } from './harness.ts';
import { cameraRead, startGame } from './table-helpers.ts';

const GZ = /^\/assets\/ort-wasm-simd-threaded-[\w-]+\.wasm\.gz$/;
const PLAIN = /^\/assets\/ort-wasm-simd-threaded-[\w-]+\.wasm$/;
const MODEL = /^\/models\/dice-pips\.onnx$/;

let app: AppWithCamera;

beforeAll(async () => {
  app = await openAppWithCamera(inject('distDir'), readFileSync(join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg')), 640, 480);
});

afterAll(async () => {
  await app?.close();
});

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const distFile = (dir: string, name: RegExp): Buffer => {
  const file = readdirSync(join(inject('distDir'), dir)).find((f) => name.test(`/${dir}/${f}`))!;
  return readFileSync(join(inject('distDir'), dir, file));
};

/** The entry of `cache` (a name, or the precache) whose path matches `path`: its SHA-256, or null. */
async function cached(page: Page, cache: 'precache' | string, path: RegExp): Promise<string | null> {
  return page.evaluate(
    async ({ cache, path }) => {
      const name = cache === 'precache' ? (await caches.keys()).find((n) => n.startsWith('workbox-precache-v2-'))! : cache;
      const store = await caches.open(name);
      const key = (await store.keys()).find((k) => new RegExp(path).test(new URL(k.url).pathname));
      if (!key) return null;
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await (await store.match(key))!.arrayBuffer()));
      return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
    },
    { cache, path: path.source },
  );
}

/**
 * A browser profile of its own for each case (so that one failing leaves the next its own
 * precache and no game in progress), the app installed in it: its service worker in control.
 */
async function installed(play: (page: Page, context: BrowserContext, errors: string[]) => Promise<void>): Promise<void> {
  const context = await app.session.browser.newContext({ viewport: { width: 412, height: 860 } });
  try {
    await context.grantPermissions(['camera']);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on('console', (msg) => void (msg.type() === 'error' && errors.push(msg.text())));
    page.on('pageerror', (err) => errors.push(String(err)));
    await page.goto(app.server.url);
    await page.getByTestId('new-game').waitFor();
    await waitForServiceWorker(page);
    await play(page, context, errors);
  } finally {
    await context.close();
  }
}

async function leaveTable(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Discard' }).click();
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByTestId('new-game').waitFor();
}

describe('a damaged file in the precache', () => {
  it("onnxruntime's .gz a web page: downloaded again at the next start, put back, and dice read in that start", async () => {
    await installed(async (page, _context, errors) => {
      const gz = sha256(distFile('assets', GZ));
      expect(await cached(page, 'precache', GZ)).toBe(gz);
      await damageCached(page, 'precache', GZ, 'error page');
      expect(await cached(page, 'precache', GZ)).not.toBe(gz);

      const requested = app.server.requests.length;
      await startGame(page, 'five-thousand', ['Ann', 'Bob']);
      expect(await cameraRead(page)).toHaveLength(5);
      // one download of it, past the service worker, and the precache holds the app's file again
      expect(app.server.requests.slice(requested).filter((r) => /\.wasm/.test(r.path)).map((r) => r.path)).toEqual([expect.stringMatching(GZ)]);
      expect(await cached(page, 'precache', GZ)).toBe(gz);
      expect(await cached(page, 'rollcall-ort-wasm', PLAIN)).toBe(sha256(distFile('assets', PLAIN)));
      await leaveTable(page);
      expect(errors).toEqual([]);
    });
  });

  it('the detector model cut short: downloaded again, put back, and dice read in that start', async () => {
    await installed(async (page, _context, errors) => {
      const model = sha256(readFileSync(join(ROOT, 'models/dice-pips.onnx')));
      await damageCached(page, 'precache', MODEL, 'cut');

      const requested = app.server.requests.length;
      await page.reload();
      await page.getByTestId('new-game').waitFor();
      await startGame(page, 'five-thousand', ['Cy', 'Dee']);
      expect(await cameraRead(page)).toHaveLength(5);
      const downloads = app.server.requests.slice(requested).map((r) => r.path).filter((p) => /\.(onnx|wasm)/.test(p));
      expect(downloads).toEqual(['/models/dice-pips.onnx']);
      expect(await cached(page, 'precache', MODEL)).toBe(model);
      await leaveTable(page);
      expect(errors).toEqual([]);
    });
  });

  it('the inflated wasm kept from an earlier start not wasm: inflated anew from the precache, and dice read', async () => {
    await installed(async (page, _context, errors) => {
      const plain = `${app.server.url}assets/${readdirSync(join(inject('distDir'), 'assets')).find((f) => PLAIN.test(`/assets/${f}`))!}`;
      await page.evaluate(async (url) => {
        const cache = await caches.open('rollcall-ort-wasm');
        await cache.put(url, new Response('<!doctype html><title>502 Bad Gateway</title>', { headers: { 'Content-Type': 'application/wasm' } }));
      }, plain);

      const requested = app.server.requests.length;
      await page.reload();
      await page.getByTestId('new-game').waitFor();
      await startGame(page, 'five-thousand', ['Cy', 'Dee']);
      expect(await cameraRead(page)).toHaveLength(5);
      // inflated from the precache's .gz: nothing of the wasm downloaded
      expect(app.server.requests.slice(requested).filter((r) => /\.wasm/.test(r.path))).toEqual([]);
      expect(await cached(page, 'rollcall-ort-wasm', PLAIN)).toBe(sha256(distFile('assets', PLAIN)));
      await leaveTable(page);
      expect(errors).toEqual([]);
    });
  });

  it('the inflated wasm kept damaged past what is looked at (wasm, whole length): that start fails, the next reads dice', async () => {
    await installed(async (page) => {
      const wasm = distFile('assets', PLAIN);
      const plain = `${app.server.url}assets/${readdirSync(join(inject('distDir'), 'assets')).find((f) => PLAIN.test(`/assets/${f}`))!}`;
      // the wasm's first 8 bytes, then zeros: as long as the file, but no code
      await page.evaluate(
        async ({ url, head, size }) => {
          const body = new Uint8Array(size);
          body.set(head);
          await (await caches.open('rollcall-ort-wasm')).put(url, new Response(body, { headers: { 'Content-Type': 'application/wasm', 'Content-Length': String(size) } }));
        },
        { url: plain, head: [...wasm.subarray(0, 8)], size: wasm.length },
      );
      await page.reload();
      await page.getByTestId('new-game').waitFor();
      await startGame(page, 'five-thousand', ['Kim', 'Lu']);
      await page.getByTestId('camera-status').getByText(/could not start/).waitFor({ timeout: 45_000 });
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByTestId('new-game').waitFor();
      expect(await cached(page, 'rollcall-ort-wasm', PLAIN)).toBeNull();

      await page.reload();
      await page.getByTestId('new-game').waitFor();
      await startGame(page, 'five-thousand', ['Mo', 'Ned']);
      expect(await cameraRead(page)).toHaveLength(5);
      expect(await cached(page, 'rollcall-ort-wasm', PLAIN)).toBe(sha256(wasm));
    });
  });

  it("the network's copy damaged too: said to be damaged, as without a service worker, after one download", async () => {
    await installed(async (page, context) => {
      await damageCached(page, 'precache', GZ, 'cut');
      await context.route(/\.wasm\.gz\?rollcall-refetch=1$/, async (route) => {
        const response = await route.fetch();
        const gz = await response.body();
        await route.fulfill({ response, body: gz.subarray(0, gz.length >> 1) });
      });
      const requested = app.server.requests.length;
      await startGame(page, 'five-thousand', ['Ivy', 'Jo']);
      const status = page.getByTestId('camera-status');
      await status.getByText(/could not start/).waitFor({ timeout: 45_000 });
      expect((await status.textContent())?.trim()).toMatch(
        /^The dice reader could not start \(dice reader failed to start: onnxruntime's wasm at http:\/\/\S+\.wasm\.gz is damaged \(Compressed input was truncated\)\)\. Enter the dice with the dice pad\.$/,
      );
      expect(app.server.requests.slice(requested).filter((r) => /\.wasm/.test(r.path))).toHaveLength(1);
    });
  });

  it('offline: said to be damaged and to be downloaded again once online; the next start online reads dice', async () => {
    await installed(async (page, context) => {
      const gz = sha256(distFile('assets', GZ));
      await damageCached(page, 'precache', GZ, 'cut');

      try {
        await reloadOffline(page, app.server);
        await startGame(page, 'five-thousand', ['Eve', 'Fay']);
        const status = page.getByTestId('camera-status');
        await status.getByText(/could not start/).waitFor({ timeout: 45_000 });
        expect((await status.textContent())?.trim()).toMatch(
          /^The dice reader could not start \(dice reader failed to start: onnxruntime's wasm at http:\/\/\S+\.wasm\.gz is damaged \(Compressed input was truncated\); it will be downloaded again when the camera next starts online\)\. Enter the dice with the dice pad\.$/,
        );
      } finally {
        await context.setOffline(false);
        app.server.setNetworkDown(false);
      }
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByTestId('new-game').waitFor();

      await page.reload();
      await page.getByTestId('new-game').waitFor();
      await startGame(page, 'five-thousand', ['Gil', 'Hal']);
      expect(await cameraRead(page)).toHaveLength(5);
      expect(await cached(page, 'precache', GZ)).toBe(gz);
    });
  });
});
