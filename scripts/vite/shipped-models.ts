import type { Plugin } from 'vite';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { ORT_WASM_GZ_FILE } from '../../src/lib/vision/reader-download.ts';
import { ORT_WASM_GZ_PATH, ORT_WASM_PATH } from '../../src/lib/vision/ort-wasm.ts';

const MODEL_FILE = /^[\w.-]+\.(onnx|json)$/;

/**
 * Each shipped model's version, a hash of its bytes, by file name. The worker asks for
 * `models/<file>?v=<version>` and the service worker precaches that same URL, unrevisioned: so a
 * model the page fetched first is not downloaded again in full by the precache (Workbox refetches
 * a revisioned entry with `cache: 'reload'`), and a new model is a new URL.
 */
export function shippedModelVersions(modelsDir: string): Record<string, string> {
  if (!existsSync(modelsDir)) return {};
  const versions: Record<string, string> = {};
  for (const file of readdirSync(modelsDir).filter((f) => /^[\w.-]+\.onnx$/.test(f)).sort()) {
    versions[file] = createHash('sha256').update(readFileSync(join(modelsDir, file))).digest('hex').slice(0, 16);
  }
  return versions;
}

/**
 * The precache entries of the models as the worker asks for them (`shippedModelVersions`): for
 * `injectManifest.manifestTransforms`.
 */
export function versionedModelEntries<E extends { url: string; revision: string | null }>(entries: E[], versions: Record<string, string>): E[] {
  return entries.map((entry) => {
    const file = /^models\/([\w.-]+\.onnx)$/.exec(entry.url)?.[1];
    const version = file ? versions[file] : undefined;
    return version ? { ...entry, url: `${entry.url}?v=${version}`, revision: null } : entry;
  });
}

/**
 * What the table's reads wait for, in the order the reader asks: onnxruntime's wasm, the pip
 * detector, the die-face reader (the first read), then the face embedder (the first die read as
 * neither pips nor blank, pip-learning.ts) and the symbol detector (a table of symbol dice, which
 * waits on both). The precache downloads one file at a time, in manifest order.
 */
const FIRST_READ = [
  ORT_WASM_GZ_PATH,
  /^models\/dice-pips\.onnx(\?|$)/,
  /^models\/die-face\.onnx(\?|$)/,
  /^models\/face-embed\.onnx(\?|$)/,
  /^models\/dice-symbols\.onnx(\?|$)/,
];

/**
 * The bytes a table's reader downloads before its first read, by file (as `readerFileName` names
 * them), for the table to say how much a first visit waits for and how far it has got: `pips`,
 * onnxruntime's wasm as shipped (`wasm.gzipped`) and the pip detector and die-face reader in
 * `modelsDir`; `symbols`, those and the face embedder and symbol detector a symbol kit loads too
 * (each where shipped). `inflated`: the plain wasm's (`wasm.plain`), the body of the gzipped one
 * a host sends with `Content-Encoding: gzip`.
 */
export function firstReadBytes(
  modelsDir: string,
  wasm: { gzipped: number; plain: number },
): { pips: Record<string, number>; symbols: Record<string, number>; inflated: Record<string, number> } {
  const sizes = (files: string[]): Record<string, number> =>
    Object.fromEntries(files.filter((file) => existsSync(join(modelsDir, file))).map((file) => [file, statSync(join(modelsDir, file)).size]));
  const pips = { [ORT_WASM_GZ_FILE]: wasm.gzipped, ...sizes(['dice-pips.onnx', 'die-face.onnx']) };
  return { pips, symbols: { ...pips, ...sizes(['face-embed.onnx', 'dice-symbols.onnx']) }, inflated: { [ORT_WASM_GZ_FILE]: wasm.plain } };
}

/**
 * The precache entries with what the reads wait for first (`FIRST_READ`): on a first visit the
 * reader takes those files from the precache as they land in it (dice-reader.worker.ts
 * `fetchShipped`), so they come before the rest; the others keep their order.
 */
export function firstReadFirst<E extends { url: string }>(entries: E[]): E[] {
  const rank = (entry: E): number => {
    const i = FIRST_READ.findIndex((pattern) => pattern.test(entry.url));
    return i < 0 ? FIRST_READ.length : i;
  };
  return entries.map((entry, index) => ({ entry, index, rank: rank(entry) })).sort((a, b) => a.rank - b.rank || a.index - b.index).map((e) => e.entry);
}

/**
 * The shipped models (`models/*.onnx` and their `.json` sidecars) are served at
 * `<base>models/<file>`: from `modelsDir` in dev, copied into the build otherwise, where the
 * service worker precaches them with the rest of the app.
 */
export function shippedModels(modelsDir: string): Plugin {
  const files = (): string[] => (existsSync(modelsDir) ? readdirSync(modelsDir).filter((f) => MODEL_FILE.test(f)).sort() : []);
  return {
    name: 'rollcall:shipped-models',
    configureServer(server) {
      server.middlewares.use('/models', (req, res, next) => {
        const [pathname = '', query = ''] = (req.url ?? '').split('?');
        // a sidecar the app imports (`import config from '.../models/x.json'`, `?import`) is Vite's
        // to serve as a JS module: sent as JSON, the module script is refused and the worker never loads
        if (new URLSearchParams(query).has('import')) return next();
        const file = decodeURIComponent(pathname).replace(/^\//, '');
        const path = join(modelsDir, file);
        if (!MODEL_FILE.test(file) || !existsSync(path)) return next();
        res.setHeader('Content-Type', file.endsWith('.json') ? 'application/json' : 'application/octet-stream');
        res.setHeader('Content-Length', statSync(path).size);
        createReadStream(path).pipe(res);
      });
    },
    generateBundle() {
      for (const file of files()) {
        this.emitFile({ type: 'asset', fileName: `models/${file}`, source: readFileSync(join(modelsDir, file)) });
      }
    },
  };
}

/**
 * onnxruntime's wasm gzipped, as the reader's worker downloads it: 14 MB of wasm are 3.7 MB
 * gzipped, and a host need not compress wasm (`vite preview` does not), so the app ships it
 * compressed itself and the worker inflates it (DecompressionStream, src/lib/vision/ort-wasm.ts).
 * Made once per build from the file at `wasmPath`.
 */
export function gzippedOrtWasm(wasmPath: string): { bytes: () => Buffer; plugin: Plugin } {
  let gz: Buffer | undefined;
  const bytes = (): Buffer => (gz ??= gzipSync(readFileSync(wasmPath), { level: 9 }));
  const plugin: Plugin = {
    name: 'rollcall:gzipped-ort-wasm',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (!ORT_WASM_GZ_PATH.test((req.url ?? '').split('?')[0] ?? '')) return next();
        res.setHeader('Content-Type', 'application/gzip');
        res.setHeader('Content-Length', bytes().length);
        res.end(bytes());
      });
    },
    // after Vite has added the worker's assets to the bundle, the wasm among them
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const wasm = Object.keys(bundle).filter((file) => ORT_WASM_PATH.test(file));
        if (wasm.length !== 1) this.error(`expected onnxruntime's wasm once in the build, found ${wasm.length}: ${wasm.join(', ')}`);
        this.emitFile({ type: 'asset', fileName: `${wasm[0]}.gz`, source: bytes() });
      },
    },
  };
  return { bytes, plugin };
}
