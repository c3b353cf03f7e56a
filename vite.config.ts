import { defineConfig } from 'vitest/config';
import type { LogLevel, Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { statSync } from 'node:fs';
import { firstReadBytes, firstReadFirst, gzippedOrtWasm, shippedModels, shippedModelVersions, versionedModelEntries } from './scripts/vite/shipped-models.ts';
import { contentSecurityPolicy } from './scripts/vite/content-security-policy.ts';
import { withIntegrity } from './scripts/vite/precache-integrity.ts';

const modelsDir = resolve(import.meta.dirname, 'models');
const modelVersions = shippedModelVersions(modelsDir);
const ortWasmPath = fileURLToPath(import.meta.resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm'));
const ortWasm = gzippedOrtWasm(ortWasmPath);

// Cross-origin isolation lets onnxruntime-web use threaded wasm (SharedArrayBuffer). The service
// worker (src/sw.ts) adds the same headers to what it serves, so it holds offline too.
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

// The service worker is built by a second vite build of its own, which does not take the app
// build's log level: a quiet build (the benchmarks' `--json`, the tests) stays quiet through it.
let appLogLevel: LogLevel | undefined;
// The folder Workbox globs the precache from (the app build's outDir), for the integrity hashes.
let precacheDir: string | undefined;
const rememberLogLevel: Plugin = {
  name: 'rollcall:log-level',
  configResolved(config) {
    appLogLevel = config.logLevel;
  },
};

export default defineConfig({
  plugins: [
    rememberLogLevel,
    svelte(),
    shippedModels(modelsDir),
    contentSecurityPolicy(),
    ortWasm.plugin,
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      integration: {
        beforeBuildServiceWorker(options) {
          precacheDir = options.injectManifest.globDirectory;
        },
        configureCustomSWViteBuild(swBuild) {
          if (appLogLevel) swBuild.logLevel = appLogLevel;
        },
      },
      // The glob below already takes every icon; listing them twice would duplicate precache entries.
      includeManifestIcons: false,
      manifest: {
        id: './',
        name: 'Rollcall — dice game scorekeeper',
        short_name: 'Rollcall',
        description: 'Keeps score for dice games by reading real dice through your camera. Works offline.',
        start_url: './',
        scope: './',
        display: 'standalone',
        orientation: 'any',
        background_color: '#101826',
        theme_color: '#14213d',
        categories: ['games', 'utilities'],
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: 'icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
          { src: 'icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        // Everything the app needs offline, the ONNX models and onnxruntime's wasm included: the
        // wasm gzipped, as the reader asks for it (gzippedOrtWasm), not the plain file beside it.
        globPatterns: ['**/*.{html,js,mjs,css,svg,png,webmanifest,json,wasm.gz,onnx}'],
        // Workbox skips files over 2 MiB by default; onnxruntime's wasm is 3.7 MiB gzipped and the
        // models several MiB, and the app is useless offline without them, so the cap is raised on purpose.
        maximumFileSizeToCacheInBytes: 64 * 1024 * 1024,
        // the models as the worker asks for them, by version, and what the first read needs
        // first (scripts/vite/shipped-models.ts); the app's own scripts and style sheets with
        // their integrity, so a damaged download fails the install (precache-integrity.ts)
        manifestTransforms: [
          (entries) => {
            if (!precacheDir) throw new Error('rollcall: the precache folder is not known (beforeBuildServiceWorker did not run)');
            return { manifest: withIntegrity(firstReadFirst(versionedModelEntries(entries, modelVersions)), precacheDir), warnings: [] };
          },
        ],
        // The worker is registered as a classic script, so it is built as one; the plugin's ES
        // build passes rolldown an option it deprecates (a warning on every build).
        rollupFormat: 'iife',
      },
      devOptions: { enabled: false },
    }),
  ],
  server: { headers: isolationHeaders },
  preview: { headers: isolationHeaders },
  build: { target: 'es2022' },
  define: {
    __SHIPPED_MODEL_VERSIONS__: JSON.stringify(modelVersions),
    __FIRST_READ_BYTES__: JSON.stringify(firstReadBytes(modelsDir, { gzipped: ortWasm.bytes().length, plain: statSync(ortWasmPath).size })),
  },
  // The dice reader's worker lazy-loads onnxruntime-web: module workers can code-split.
  worker: { format: 'es' },
  test: {
    environment: 'node',
    testTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/**/*.test.ts'], exclude: ['tests/browser/**'] } },
      {
        // Chromium against the built app: built once by global-setup.ts, one browser per test file.
        extends: true,
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          globalSetup: ['tests/browser/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
