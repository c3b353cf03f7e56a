/**
 * The app's own scripts damaged in the precache (a host or proxy that once answered a cut-off
 * file or an error page with status 200): Workbox serves its precache cache-first, so the page
 * stayed blank at every visit, online or off, until an update. Now the install refuses such a
 * download of the app's scripts and style sheets (their integrity is in the precache manifest,
 * scripts/vite/precache-integrity.ts), and where a damaged copy is there all the same, the start
 * check (public/start-check.js) says the app could not start, that the games are safe, and
 * repairs it: offline it says it needs a connection, online it empties Cache Storage, unregisters
 * the service worker and reloads, and the app starts with its games. Each case in a browser
 * profile of its own.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { damageCached, ERROR_PAGE, launch, serve, waitForServiceWorker, type BrowserSession, type StaticServer } from './harness.ts';
import { startGame } from './table-helpers.ts';

const ENTRY = /^\/assets\/index-[\w-]+\.js$/;
const TEACH = /^\/assets\/Teach-[\w-]+\.js$/;
let server: StaticServer;
let session: BrowserSession;

beforeAll(async () => {
  server = await serve(inject('distDir'));
  session = await launch();
});

afterAll(async () => {
  await session?.close();
  await server?.stop();
});

/** The build's file whose path matches `path`, as shipped. */
function distFile(path: RegExp): Buffer {
  const name = readdirSync(join(inject('distDir'), 'assets')).find((f) => path.test(`/assets/${f}`))!;
  return readFileSync(join(inject('distDir'), 'assets', name));
}

/** The precache's copy of the file whose path matches `path`, as text; null where it holds none. */
async function precached(page: Page, path: RegExp): Promise<string | null> {
  return page.evaluate(async (source) => {
    for (const name of (await caches.keys()).filter((n) => n.startsWith('workbox-precache-v2-'))) {
      const cache = await caches.open(name);
      const key = (await cache.keys()).find((k) => new RegExp(source).test(new URL(k.url).pathname));
      if (key) return (await (await cache.match(key))!.text());
    }
    return null;
  }, path.source);
}

/** A fresh profile with the app installed: its service worker in control, everything precached. */
async function installedApp(): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await session.browser.newContext({ viewport: { width: 412, height: 860 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  // what the page's Content-Security-Policy refused, on every load
  await page.addInitScript(() => {
    const record: string[] = [];
    (window as unknown as { refusedByPolicy: string[] }).refusedByPolicy = record;
    document.addEventListener('securitypolicyviolation', (e) => record.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  await page.goto(server.url);
  await page.getByTestId('new-game').waitFor();
  await waitForServiceWorker(page);
  await page.getByTestId('offline-ready').waitFor();
  return { page, close: () => context.close() };
}

/** The start check's message's background, 0 (black) to 255 (white). */
async function brightness(page: Page): Promise<number> {
  const background = await page.locator('#start-failed').evaluate((el) => getComputedStyle(el).backgroundColor);
  const [r = 0, g = 0, b = 0, alpha = 1] = (background.match(/[\d.]+/g) ?? []).map(Number);
  expect(alpha).toBe(1);
  return (r + g + b) / 3;
}

/** The players of the games in progress on Home. */
async function gamesInProgress(page: Page): Promise<string> {
  const section = page.getByRole('region', { name: 'In progress' });
  await section.waitFor();
  return (await section.textContent()) ?? '';
}

/**
 * For a page's init script: keeps in `window.installState` what became of the first service worker
 * the page registers ('redundant': its install failed), however fast that happens.
 */
function recordInstall(): void {
  const w = window as unknown as { installState?: string };
  const register = ServiceWorkerContainer.prototype.register;
  ServiceWorkerContainer.prototype.register = async function (...args: Parameters<typeof register>) {
    const registration = await register.apply(this, args);
    const watch = (worker: ServiceWorker | null): void => {
      if (!worker) return;
      w.installState = worker.state;
      worker.addEventListener('statechange', () => void (w.installState = worker.state));
    };
    watch(registration.installing ?? registration.waiting ?? registration.active);
    registration.addEventListener('updatefound', () => watch(registration.installing));
    return registration;
  };
}

/** What became of the install `recordInstall` watched, once it has ended: 'activated' or 'redundant'. */
async function installEnded(page: Page): Promise<string> {
  const ended = await page.waitForFunction(
    () => {
      const state = (window as unknown as { installState?: string }).installState;
      return state === 'activated' || state === 'redundant' ? state : null;
    },
    undefined,
    { timeout: 30_000 },
  );
  return (await ended.jsonValue()) ?? '';
}

describe("a damaged copy of the app's own script in the precache", () => {
  it('says the app could not start, not a blank page; Repair needs a connection, then brings the app back with its games', async () => {
    const { page, close } = await installedApp();
    try {
      await startGame(page, 'five-thousand', ['Ann', 'Bob']);
      await page.getByRole('button', { name: 'Back' }).click();
      expect(await gamesInProgress(page)).toMatch(/Ann.*Bob/);

      const entry = distFile(ENTRY).toString();
      expect(await precached(page, ENTRY)).toBe(entry);
      await damageCached(page, 'precache', ENTRY, 'cut');
      await page.reload();

      const message = page.getByRole('alert').filter({ hasText: 'Rollcall could not start' });
      await message.waitFor();
      expect(await message.textContent()).toContain('A stored copy of the app may be damaged. Your games are safe on this device.');
      expect(await page.getByTestId('new-game').count()).toBe(0);
      const repair = message.getByRole('button', { name: 'Repair and reload' });
      // a real button, where a finger or the keyboard finds it
      expect(await repair.evaluate((button) => button === document.activeElement)).toBe(true);
      const box = (await repair.boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(44);
      expect(box.height).toBeGreaterThanOrEqual(44);
      // drawn as its own page, in the system's colours, light or dark, and nothing of it refused
      // by the Content-Security-Policy (styled through the CSSOM)
      expect(await message.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
      expect(await brightness(page)).toBeGreaterThan(200);
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await brightness(page)).toBeLessThan(60);
      await page.emulateMedia({ colorScheme: 'light' });
      expect(await page.evaluate(() => (window as unknown as { refusedByPolicy: string[] }).refusedByPolicy)).toEqual([]);

      // offline: nothing is thrown away, and the player is told what the repair needs
      await page.context().setOffline(true);
      server.setNetworkDown(true);
      await repair.click();
      await message.getByRole('status').filter({ hasText: 'No connection' }).waitFor();
      expect(await repair.isEnabled()).toBe(true);
      expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(1);
      expect(await precached(page, ENTRY)).not.toBe(entry);

      await page.context().setOffline(false);
      server.setNetworkDown(false);
      await Promise.all([page.waitForEvent('load'), repair.click()]);
      await page.getByTestId('new-game').waitFor();
      expect(await gamesInProgress(page)).toMatch(/Ann.*Bob/);
      expect(await page.getByRole('alert').filter({ hasText: 'Rollcall could not start' }).count()).toBe(0);
      // installed anew, whole: the next visit starts offline too
      await waitForServiceWorker(page);
      await page.getByTestId('offline-ready').waitFor();
      expect(await precached(page, ENTRY)).toBe(entry);
      await page.context().setOffline(true);
      server.setNetworkDown(true);
      await page.reload();
      await page.getByTestId('new-game').waitFor();
      expect(await gamesInProgress(page)).toMatch(/Ann.*Bob/);
    } finally {
      await page.context().setOffline(false);
      server.setNetworkDown(false);
      await close();
    }
  });

  it('an error page where the script should be: the same message, at once, not after the longest wait', async () => {
    const { page, close } = await installedApp();
    try {
      await damageCached(page, 'precache', ENTRY, 'error page');
      const reloaded = Date.now();
      await page.reload();
      await page.getByRole('alert').filter({ hasText: 'Rollcall could not start' }).waitFor();
      expect(Date.now() - reloaded).toBeLessThan(8_000);
    } finally {
      await close();
    }
  });
});

describe("a damaged download of the app's own script", () => {
  it('is refused by the install, which a later visit makes whole', async () => {
    // a host that answers an error page with status 200 for a script the first visit does not run
    const broken = await mkdtemp(join(tmpdir(), 'rollcall-broken-'));
    try {
      await cp(inject('distDir'), broken, { recursive: true });
      const teach = (await readdir(join(broken, 'assets'))).find((f) => TEACH.test(`/assets/${f}`))!;
      await writeFile(join(broken, 'assets', teach), ERROR_PAGE);
      server.setRoot(broken);

      const context = await session.browser.newContext({ viewport: { width: 412, height: 860 } });
      try {
        const page = await context.newPage();
        page.setDefaultTimeout(10_000);
        await page.addInitScript(recordInstall);
        await page.goto(server.url);
        await page.getByTestId('new-game').waitFor();
        // the install fails on it: no worker takes over, and the precache holds no error page
        expect(await installEnded(page)).toBe('redundant');
        expect(await precached(page, TEACH)).not.toBe(ERROR_PAGE);

        // the host answers right again: the next visit installs, the script whole
        server.setRoot(inject('distDir'));
        await page.reload();
        await page.getByTestId('new-game').waitFor();
        await waitForServiceWorker(page);
        await page.getByTestId('offline-ready').waitFor();
        expect(await precached(page, TEACH)).toBe(distFile(TEACH).toString());
      } finally {
        await context.close();
      }
    } finally {
      server.setRoot(inject('distDir'));
      await rm(broken, { recursive: true, force: true });
    }
  });
});
