/**
 * Builds the app with the vision harness page beside it (same Vite config, so the worker,
 * ORT wasm files and model are bundled exactly as in the app), serves the build with
 * `vite preview` (cross-origin isolated, as configured), and drives Debian's Chromium
 * headless through playwright-core. Used by tests/browser and `npm run bench`.
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import { build, preview, type PreviewServer } from 'vite';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { REPO_ROOT } from './node-vision.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const HARNESS_PAGE = 'scripts/browser/vision.html';

/** Production build of the app plus the harness page into `outDir`. */
export async function buildWithHarness(outDir: string): Promise<void> {
  await build({
    configFile: path.join(REPO_ROOT, 'vite.config.ts'),
    root: REPO_ROOT,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      rollupOptions: { input: { index: path.join(REPO_ROOT, 'index.html'), vision: path.join(REPO_ROOT, HARNESS_PAGE) } },
    },
  });
}

export async function servePreview(outDir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: PreviewServer = await preview({
    configFile: path.join(REPO_ROOT, 'vite.config.ts'),
    root: REPO_ROOT,
    logLevel: 'warn',
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1', strictPort: false, open: false },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report a URL');
  return { url, close: () => server.close() };
}

/** Headless Chromium with the team's flags; `extraArgs` adds more (a fake camera, say). */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/**
 * Headless Chromium with the team's flags and `extraArgs` on the profile in `userDataDir`, kept
 * between launches (caches, service worker, IndexedDB, V8's code cache): a browser started again,
 * as a player coming back to the app starts theirs.
 */
export async function launchChromiumProfile(userDataDir: string, extraArgs: readonly string[], viewport: { width: number; height: number }): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  return chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs], viewport });
}

/** The production build alone (`npm run build`, no harness page), into `outDir`. */
export async function buildApp(outDir: string): Promise<void> {
  await build({ configFile: path.join(REPO_ROOT, 'vite.config.ts'), root: REPO_ROOT, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
}
