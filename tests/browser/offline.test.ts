import { describe, expect, inject, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { appSession, waitForServiceWorker } from './harness.ts';

const app = appSession({ open: false });

describe('offline PWA', () => {
  it('is cross-origin isolated online', async () => {
    const { page } = app.session;
    await page.goto(app.server.url);
    await page.getByTestId('new-game').waitFor();
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    expect(await page.evaluate(() => typeof SharedArrayBuffer)).toBe('function');
  });

  it('installs the service worker, which precaches the app', async () => {
    const { page } = app.session;
    await waitForServiceWorker(page);
    await page.getByTestId('offline-ready').waitFor();
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
      return urls;
    });
    expect(cached).toContain('/index.html');
    expect(cached.some((u) => /^\/assets\/index-.*\.js$/.test(u))).toBe(true);
    expect(cached).toContain('/manifest.webmanifest');
    // Every file of the build is precached (the models and onnxruntime's wasm whenever the
    // build has them), except the service worker itself and the plain wasm: the reader asks for
    // the gzipped copy beside it (src/lib/vision/ort-wasm.ts), which is precached instead.
    const dist = inject('distDir');
    const files = (readdirSync(dist, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
      .filter((d) => d.isFile())
      .map((d) => `/${relative(dist, join(d.parentPath, d.name)).split('\\').join('/')}`)
      .filter((f) => f !== '/sw.js');
    const plainWasm = files.filter((f) => /\/ort-wasm-simd-threaded-[\w-]+\.wasm$/.test(f));
    expect(plainWasm).toHaveLength(1);
    expect(files).toContain(`${plainWasm[0]}.gz`);
    expect(cached).not.toContain(plainWasm[0]);
    expect(files.length).toBeGreaterThan(5);
    expect(cached.map((u) => u.split('?')[0]).sort()).toEqual(expect.arrayContaining(files.filter((f) => f !== plainWasm[0]).sort()));
  });

  it('reloads with the server gone, still cross-origin isolated, deep links included', async () => {
    const { page, context } = app.session;
    // Something to find after the reload: a game in the store.
    await page.getByTestId('new-game').click();
    await page.getByTestId('game-select').selectOption('five-thousand');
    await page.getByTestId('player-name').fill('Offline Olga');
    await page.getByTestId('add-player').click();
    await page.getByTestId('player-name').fill('Offline Otto');
    await page.getByTestId('add-player').click();
    await page.getByTestId('start-game').click();
    await page.getByRole('heading', { level: 1, name: '5000 (bumps and gifts)' }).waitFor();

    await app.server.stop();
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: '5000 (bumps and gifts)' }).waitFor();
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    await page.goto(`${app.server.url}history`);
    await page.getByTestId('new-game').waitFor();
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    expect(await page.getByTestId('game-list').textContent()).toContain('Offline Olga');
  });
});
