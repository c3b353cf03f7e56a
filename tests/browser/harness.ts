/**
 * Browser-test harness: builds the app once (global-setup.ts), serves the build with the
 * cross-origin isolation headers from a tiny static server that a test can stop (to go
 * offline), and drives Debian's Chromium through playwright-core, with an optional fake camera.
 */
import { createServer, type Server } from 'node:http';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ROOT = resolve(import.meta.dirname, '..', '..');

/** Builds the app with the project's vite.config.ts into a fresh temporary folder. */
export async function buildApp(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'rollcall-dist-'));
  const { build } = await import('vite');
  await build({ root: ROOT, configFile: join(ROOT, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  return outDir;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.gz': 'application/gzip',
  '.onnx': 'application/octet-stream',
};

export interface StaticServer {
  url: string;
  /** Serves another folder from now on (a new version of the app being deployed). */
  setRoot(dir: string): void;
  /**
   * Every request that reached the server, in order (path, and whether the network was down).
   * A test that takes the network away checks that nothing more arrives.
   */
  readonly requests: { path: string; networkDown: boolean }[];
  /** Down: every request is logged and its connection dropped unanswered, as with no network. */
  setNetworkDown(down: boolean): void;
  stop(): Promise<void>;
}

/**
 * Serves `dir` on 127.0.0.1 (a free port) with COOP/COEP (unless told not to), falling back to index.html for app URLs.
 * `gzipEncoded`: gzip files sent with `Content-Encoding: gzip`, as some hosts send a `.gz`, which
 * the browser then inflates. `isolationHeaders: false`: no COOP/COEP/CORP at all, as a static host
 * that sets no headers serves the app (the service worker then adds them, src/sw.ts).
 */
export async function serve(dir: string, options: { gzipEncoded?: RegExp; isolationHeaders?: boolean } = {}): Promise<StaticServer> {
  let root = resolve(dir);
  let networkDown = false;
  const requests: StaticServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push({ path, networkDown });
    if (networkDown) {
      req.socket.destroy();
      return;
    }
    let file = normalize(join(root, path));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    if (!existsSync(file) || statSync(file).isDirectory()) {
      if (extname(path) !== '') {
        res.writeHead(404).end();
        return;
      }
      file = join(root, 'index.html');
    }
    res.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Content-Length': statSync(file).size,
      ...(options.isolationHeaders === false
        ? {}
        : { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp', 'Cross-Origin-Resource-Policy': 'same-origin' }),
      'Cache-Control': 'no-cache',
      ...(options.gzipEncoded?.test(path) ? { 'Content-Encoding': 'gzip' } : {}),
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    setRoot: (next) => {
      root = resolve(next);
    },
    requests,
    setNetworkDown: (down) => {
      networkDown = down;
    },
    stop: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

export interface LaunchOptions {
  /** A .y4m file for the fake camera; without one Chromium has no camera at all. */
  camera?: string;
  /** Grant the camera permission (default) or leave it to be refused. */
  cameraPermission?: 'grant' | 'deny';
  /** The phone's language and region (`navigator.language`, Intl's default), e.g. 'de-DE'; Chromium's own when left out. */
  locale?: string;
  /** The phone's time zone, e.g. 'Europe/Berlin'; the machine's when left out. */
  timezoneId?: string;
}

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors seen so far. */
  errors: string[];
  close(): Promise<void>;
}

/** The page's errors and console errors as they come, for a test to expect none; 10 s waits. */
export function watchErrors(page: Page): string[] {
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(String(err)));
  return errors;
}

/**
 * A test's own style sheet, added through the CSSOM: the built page's Content-Security-Policy
 * refuses a `<style>` element (Playwright's addStyleTag), as it would an attacker's. Returns what
 * takes it away again.
 */
export async function addTestStyles(page: Page, css: string): Promise<() => Promise<void>> {
  const sheet = await page.evaluateHandle((text) => {
    const added = new CSSStyleSheet();
    added.replaceSync(text);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, added];
    return added;
  }, css);
  return async () => {
    await sheet.evaluate((added) => {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== added);
    });
    await sheet.dispose();
  };
}

/** Headless Chromium with the flags from the team brief, one context, one page. */
export async function launch(options: LaunchOptions = {}): Promise<BrowserSession> {
  const args = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
  if (options.camera) {
    args.push('--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${options.camera}`);
    if (options.cameraPermission !== 'deny') args.push('--use-fake-ui-for-media-stream');
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args });
  const context = await browser.newContext({
    viewport: { width: 412, height: 860 },
    deviceScaleFactor: 1,
    ...(options.locale ? { locale: options.locale } : {}),
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
  });
  if (options.camera && options.cameraPermission !== 'deny') await context.grantPermissions(['camera']);
  const page = await context.newPage();
  const errors = watchErrors(page);
  return {
    browser,
    context,
    page,
    errors,
    close: async () => {
      await context.close().catch(() => undefined);
      await browser.close();
    },
  };
}

export interface AppSessionOptions extends LaunchOptions {
  /** Open the app's URL in the page in beforeAll (default); false leaves the page blank. */
  open?: boolean;
}

/** The built app's server and one browser, created by appSession()'s beforeAll. */
export interface AppSession {
  readonly server: StaticServer;
  readonly session: BrowserSession;
  readonly page: Page;
}

/**
 * For a test file: registers a beforeAll that serves the build and launches Chromium (opening
 * the app unless `open: false`), and an afterAll that closes both. The getters return what
 * beforeAll created, so read them inside hooks and tests, not at module load.
 */
export function appSession(options: AppSessionOptions = {}): AppSession {
  const { open = true, ...launchOptions } = options;
  let server: StaticServer | undefined;
  let session: BrowserSession | undefined;
  beforeAll(async () => {
    server = await serve(inject('distDir'));
    session = await launch(launchOptions);
    if (open) await session.page.goto(server.url);
  });
  afterAll(async () => {
    await session?.close();
    await server?.stop();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`appSession(): ${what} is not started yet (read it inside a hook or test)`);
    return value;
  };
  return {
    get server() {
      return started(server, 'server');
    },
    get session() {
      return started(session, 'session');
    },
    get page() {
      return started(session, 'session').page;
    },
  };
}

/**
 * The network taken away (Chromium offline, and the server dropping every connection) and the app
 * reloaded from its service worker, on Home. Returns how many requests the server had seen before,
 * so a test can show that none came after. `setNetworkDown(false)` and `setOffline(false)` undo it.
 */
export async function reloadOffline(page: Page, server: StaticServer): Promise<number> {
  await page.context().setOffline(true);
  server.setNetworkDown(true);
  const before = server.requests.length;
  await page.reload();
  await page.getByTestId('new-game').waitFor();
  return before;
}

/** Waits until a service worker controls the page (it precached everything before activating). */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((ok) => navigator.serviceWorker.addEventListener('controllerchange', () => ok(), { once: true }));
    }
  });
}

/** Writes a .y4m of `picture` into a temporary file for the fake camera. */
export async function fakeCameraFile(picture: Buffer, width = 640, height = 480): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const { imageToY4m } = await import('../../scripts/y4m.ts');
  const dir = await mkdtemp(join(tmpdir(), 'rollcall-cam-'));
  const path = join(dir, 'camera.y4m');
  await writeFile(path, await imageToY4m(picture, { width, height }));
  return { path, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** The built app served and open in Chromium, with a fake camera streaming `picture`. */
export interface AppWithCamera {
  server: StaticServer;
  session: BrowserSession;
  /** Closes the browser, stops the server, removes the camera file. */
  close(): Promise<void>;
}

export async function openAppWithCamera(distDir: string, picture: Buffer, width = 640, height = 480): Promise<AppWithCamera> {
  const server = await serve(distDir);
  const camera = await fakeCameraFile(picture, width, height);
  const session = await launch({ camera: camera.path });
  await session.page.goto(server.url);
  return {
    server,
    session,
    close: async () => {
      await session.close();
      await server.stop();
      await camera.cleanup();
    },
  };
}

/**
 * WCAG's contrast ratio of two colours as getComputedStyle gives them ('rgb(r, g, b)', opaque),
 * for what axe leaves unchecked.
 */
export function contrastRatio(a: string, b: string): number {
  const luminance = (rgb: string): number => {
    const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((c) => Number(c) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/**
 * Scrolled to the page's foot, how far the screen's last control lies above what floats over the
 * foot (`selector`: the update prompt, the "updated in another tab" banner): negative when under it.
 */
export async function lastControlClearance(page: Page, selector: string): Promise<number> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  return page.evaluate((floating) => {
    const buttons = [...document.querySelectorAll('main button')];
    const last = buttons[buttons.length - 1]!.getBoundingClientRect();
    return document.querySelector(floating)!.getBoundingClientRect().top - last.bottom;
  }, selector);
}

/**
 * What a phone user would trip over on the current screen: controls smaller than 44 × 44 px
 * and content wider than the screen (sideways scrolling).
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    for (const el of document.querySelectorAll('button, a.button, select, input:not([type="file"])')) {
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || el.closest('.visually-hidden')) continue;
      if (el instanceof HTMLInputElement && (el.type === 'radio' || el.type === 'checkbox')) {
        const label = el.closest('label')?.getBoundingClientRect();
        if (!label || label.height < 44) problems.push(`${el.type} label under 44 px high`);
        continue;
      }
      if (rect.width < 44 || rect.height < 44) problems.push(`${el.tagName} "${(el.textContent ?? '').trim()}" ${rect.width}×${rect.height}`);
    }
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > root.clientWidth) problems.push(`page ${root.scrollWidth} px wide on a ${root.clientWidth} px screen`);
    return problems;
  });
}

/**
 * Headless Chromium never offers to install by itself (no `beforeinstallprompt` here), so the
 * tests give the page the event Chromium gives a phone: cancelable, with prompt() and userChoice.
 * The page's `promptsShown` counts the dialogs opened, `installEventCancelled` whether it kept
 * the browser's own mini-infobar away.
 */
export async function browserOffersInstall(page: Page, outcome: 'accepted' | 'dismissed' = 'accepted'): Promise<void> {
  await page.evaluate((choice) => {
    const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & { prompt(): Promise<void>; userChoice: Promise<{ outcome: string }> };
    const w = window as unknown as { promptsShown: number; installEventCancelled: boolean };
    w.promptsShown ??= 0;
    event.prompt = async () => void (w.promptsShown += 1);
    event.userChoice = Promise.resolve({ outcome: choice });
    window.dispatchEvent(event);
    // cancelled: the browser's own mini-infobar stays away, the page's button stands in for it
    w.installEventCancelled = event.defaultPrevented;
  }, outcome);
}

/** What a host once answered in place of a file, with status 200: a proxy's error page. */
export const ERROR_PAGE = '<!doctype html><title>502 Bad Gateway</title><h1>502 Bad Gateway</h1>';

/**
 * Damages the entry of Cache Storage `cache` ('precache': Workbox's) whose path matches `path`:
 * cut to half, or an error page (`ERROR_PAGE`), under the same key and headers.
 */
export async function damageCached(page: Page, cache: 'precache' | string, path: RegExp, how: 'cut' | 'error page'): Promise<void> {
  const done = await page.evaluate(
    async ({ cache, source, how, errorPage }) => {
      const name = cache === 'precache' ? (await caches.keys()).find((n) => n.startsWith('workbox-precache-v2-'))! : cache;
      const store = await caches.open(name);
      const key = (await store.keys()).find((k) => new RegExp(source).test(new URL(k.url).pathname));
      if (!key) return false;
      const response = (await store.match(key))!;
      const bytes = await response.arrayBuffer();
      const headers = new Headers(response.headers);
      headers.delete('Content-Length');
      await store.put(key, new Response(how === 'cut' ? bytes.slice(0, bytes.byteLength >> 1) : errorPage, { headers }));
      return true;
    },
    { cache, source: path.source, how, errorPage: ERROR_PAGE },
  );
  if (!done) throw new Error(`damageCached: nothing in ${cache} matches ${path}`);
}
