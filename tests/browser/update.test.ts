import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contrastRatio, lastControlClearance, launch, serve, waitForServiceWorker, type BrowserSession, type StaticServer } from './harness.ts';

let server: StaticServer;
let session: BrowserSession;
let nextVersion: string;

beforeAll(async () => {
  const dist = inject('distDir');
  // The "next version": the same build with a changed service worker, as a deploy would bring.
  nextVersion = await mkdtemp(join(tmpdir(), 'rollcall-next-'));
  await cp(dist, nextVersion, { recursive: true });
  await appendFile(join(nextVersion, 'sw.js'), '\n// next version\n');
  server = await serve(dist);
  session = await launch();
});

afterAll(async () => {
  await session?.close();
  await server?.stop();
  await rm(nextVersion, { recursive: true, force: true });
});

describe('app updates', () => {
  it('offers a new version when one is ready, and reloads into it when asked', async () => {
    const { page } = session;
    await page.goto(server.url);
    await waitForServiceWorker(page);
    await page.getByTestId('offline-ready').waitFor();
    expect(await page.getByTestId('update-ready').count()).toBe(0);

    server.setRoot(nextVersion);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const prompt = page.getByTestId('update-ready');
    await prompt.waitFor();
    expect(await prompt.textContent()).toMatch(/new version of Rollcall is ready/);
    expect(await page.getByTestId('announcer').textContent()).toBe('A new version of Rollcall is ready. Your games are saved; reloading takes a second.');
    // Nothing happens behind the player's back: the old version stays until they accept.
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting !== null)).toBe(true);
    // While it waits, the page makes room for it: scrolled to its foot, the last control lies clear above it.
    // The room follows the prompt's height, which App learns from a ResizeObserver a frame or more
    // after the resize narrows (and so heightens) the prompt: polled, not read at once.
    await page.setViewportSize({ width: 390, height: 480 });
    await expect.poll(() => lastControlClearance(page, '[data-testid="update-ready"]')).toBeGreaterThanOrEqual(0);
    // It floats over the page's cards, in the dark theme the same colour as it: its edge stands out
    // (3:1) from its own face and the page's, in either scheme.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const [edge, face, ground] = await prompt.evaluate((el) => [getComputedStyle(el).borderTopColor, getComputedStyle(el).backgroundColor, getComputedStyle(document.documentElement).backgroundColor]);
      expect.soft(contrastRatio(edge!, face!), `its edge on its face, ${scheme}`).toBeGreaterThanOrEqual(3);
      expect.soft(contrastRatio(edge!, ground!), `its edge on the page, ${scheme}`).toBeGreaterThanOrEqual(3);
    }
    await page.emulateMedia({ colorScheme: 'light' });

    await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload now' }).click()]);
    await page.getByTestId('new-game').waitFor();
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null)).toBeNull();
    expect(await page.getByTestId('update-ready').count()).toBe(0);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  });
});
