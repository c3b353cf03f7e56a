import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { firstReadBytes, firstReadFirst, gzippedOrtWasm, shippedModels, shippedModelVersions, versionedModelEntries } from '../../scripts/vite/shipped-models.ts';
import { ORT_WASM_GZ_FILE } from '../../src/lib/vision/reader-download.ts';

describe('shipped models in the build', () => {
  it("versions a model by the hash the face reader keys taught embeddings by (the worker takes it instead of crypto.subtle's)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rollcall-models-'));
    try {
      const bytes = new Uint8Array([5, 4, 3, 2, 1]);
      writeFileSync(join(dir, 'face-embed.onnx'), bytes);
      // as dice-reader.worker.ts `sha256Prefix` computes it where the build gives no version
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
      const hex = [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
      expect(shippedModelVersions(dir)['face-embed.onnx']).toBe(hex);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('copies models/*.onnx and their .json sidecars into the build, nothing else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rollcall-models-'));
    try {
      writeFileSync(join(dir, 'dice-pips.onnx'), Buffer.from([1, 2, 3]));
      writeFileSync(join(dir, 'dice-pips.json'), '{"inputSize":640}');
      writeFileSync(join(dir, 'README.md'), 'model card');
      mkdirSync(join(dir, 'training'));
      const emitted: { fileName: string; source: Uint8Array }[] = [];
      const plugin = shippedModels(dir);
      const hook = plugin.generateBundle as unknown as (this: { emitFile: (f: { fileName: string; source: Uint8Array }) => string }) => void;
      hook.call({ emitFile: (f) => (emitted.push(f), f.fileName) });
      expect(emitted.map((f) => f.fileName)).toEqual(['models/dice-pips.json', 'models/dice-pips.onnx']);
      expect([...emitted[1]!.source]).toEqual([1, 2, 3]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('versions each model by its bytes, and precaches it at the URL the worker asks for, unrevisioned', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rollcall-models-'));
    try {
      writeFileSync(join(dir, 'dice-pips.onnx'), Buffer.from([1, 2, 3]));
      writeFileSync(join(dir, 'die-face.onnx'), Buffer.from([1, 2, 4]));
      writeFileSync(join(dir, 'dice-pips.json'), '{}');
      const versions = shippedModelVersions(dir);
      expect(Object.keys(versions)).toEqual(['dice-pips.onnx', 'die-face.onnx']);
      expect(versions['dice-pips.onnx']).toMatch(/^[0-9a-f]{16}$/);
      expect(versions['dice-pips.onnx']).not.toBe(versions['die-face.onnx']);
      // a revisioned entry would be fetched again with cache: 'reload', whatever the page fetched first
      const entries = versionedModelEntries(
        [
          { url: 'models/dice-pips.onnx', revision: 'abc' },
          { url: 'models/dice-pips.json', revision: 'def' },
          { url: 'index.html', revision: 'ghi' },
        ],
        versions,
      );
      expect(entries).toEqual([
        { url: `models/dice-pips.onnx?v=${versions['dice-pips.onnx']}`, revision: null },
        { url: 'models/dice-pips.json', revision: 'def' },
        { url: 'index.html', revision: 'ghi' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('precaches what the reads wait for first: the wasm, the pip detector, the die-face reader, the face embedder, the symbol detector; the rest in order', () => {
    const urls = [
      'index.html',
      'models/dice-symbols.onnx?v=4',
      'models/face-embed.onnx?v=1',
      'models/die-face.onnx?v=2',
      'models/dice-pips.json',
      'models/dice-pips.onnx?v=3',
      'assets/index-BhmbTyPg.js',
      'assets/ort-wasm-simd-threaded-DcHrbrbl.wasm.gz',
      'assets/ort-wasm-simd-threaded-qyIweqWS.mjs',
    ];
    const ordered = firstReadFirst(urls.map((url) => ({ url, revision: null })));
    expect(ordered.map((e) => e.url)).toEqual([
      'assets/ort-wasm-simd-threaded-DcHrbrbl.wasm.gz',
      'models/dice-pips.onnx?v=3',
      'models/die-face.onnx?v=2',
      'models/face-embed.onnx?v=1',
      'models/dice-symbols.onnx?v=4',
      'index.html',
      'models/dice-pips.json',
      'assets/index-BhmbTyPg.js',
      'assets/ort-wasm-simd-threaded-qyIweqWS.mjs',
    ]);
  });

  it("counts what a table's first read downloads: the wasm and the pip models, and a symbol kit's models too", () => {
    const dir = mkdtempSync(join(tmpdir(), 'rollcall-models-'));
    try {
      const wasm = { gzipped: 1000, plain: 4000 };
      writeFileSync(join(dir, 'dice-pips.onnx'), Buffer.alloc(100));
      writeFileSync(join(dir, 'die-face.onnx'), Buffer.alloc(10));
      writeFileSync(join(dir, 'face-embed.onnx'), Buffer.alloc(20));
      writeFileSync(join(dir, 'dice-symbols.onnx'), Buffer.alloc(5));
      writeFileSync(join(dir, 'dice-pips.json'), '{}');
      expect(firstReadBytes(dir, wasm)).toEqual({
        pips: { [ORT_WASM_GZ_FILE]: 1000, 'dice-pips.onnx': 100, 'die-face.onnx': 10 },
        symbols: { [ORT_WASM_GZ_FILE]: 1000, 'dice-pips.onnx': 100, 'die-face.onnx': 10, 'face-embed.onnx': 20, 'dice-symbols.onnx': 5 },
        inflated: { [ORT_WASM_GZ_FILE]: 4000 },
      });
      // a build without the die-face reader or the symbol detector counts what it ships
      rmSync(join(dir, 'die-face.onnx'));
      rmSync(join(dir, 'dice-symbols.onnx'));
      expect(firstReadBytes(dir, wasm)).toEqual({
        pips: { [ORT_WASM_GZ_FILE]: 1000, 'dice-pips.onnx': 100 },
        symbols: { [ORT_WASM_GZ_FILE]: 1000, 'dice-pips.onnx': 100, 'face-embed.onnx': 20 },
        inflated: { [ORT_WASM_GZ_FILE]: 4000 },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves the models in dev, but leaves a sidecar the app imports (`?import`) to Vite, which makes it a JS module', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rollcall-models-'));
    try {
      writeFileSync(join(dir, 'dice-pips.json'), '{"inputSize":640}');
      type Response = PassThrough & { setHeader: (name: string, value: unknown) => void };
      type Middleware = (req: { url?: string }, res: Response, next: () => void) => void;
      let middleware: Middleware | undefined;
      const hook = shippedModels(dir).configureServer as unknown as (server: { middlewares: { use: (path: string, fn: Middleware) => void } }) => void;
      hook({ middlewares: { use: (_path, fn) => void (middleware = fn) } });
      // `url`: the path below the '/models' mount, as connect hands it on
      const ask = (url: string): Promise<{ passedOn: boolean; type?: unknown; body?: string }> =>
        new Promise((resolve) => {
          const headers: Record<string, unknown> = {};
          const res = Object.assign(new PassThrough(), { setHeader: (name: string, value: unknown) => void (headers[name] = value) });
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ passedOn: false, type: headers['Content-Type'], body: Buffer.concat(chunks).toString() }));
          middleware!({ url }, res, () => resolve({ passedOn: true }));
        });
      // the reader's worker imports the sidecars: sent as JSON, its module script was refused and the worker never loaded
      expect(await ask('/dice-pips.json?import')).toEqual({ passedOn: true });
      expect(await ask('/dice-pips.json?v=abc&import')).toEqual({ passedOn: true });
      expect(await ask('/dice-pips.json')).toEqual({ passedOn: false, type: 'application/json', body: '{"inputSize":640}' });
      expect(await ask('/dice-pips.onnx')).toEqual({ passedOn: true }); // not in this models/
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('emits nothing when there are no models yet', () => {
    const emitted: unknown[] = [];
    const hook = shippedModels(join(tmpdir(), 'no-such-models-dir')).generateBundle as unknown as (this: { emitFile: (f: unknown) => string }) => void;
    hook.call({ emitFile: (f) => (emitted.push(f), '') });
    expect(emitted).toEqual([]);
  });

  it("ships onnxruntime's wasm gzipped beside the plain file, and says so when the build has no wasm", () => {
    const dir = mkdtempSync(join(tmpdir(), 'rollcall-wasm-'));
    try {
      const wasm = Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d]), Buffer.alloc(5000, 7)]);
      writeFileSync(join(dir, 'ort.wasm'), wasm);
      const { bytes, plugin } = gzippedOrtWasm(join(dir, 'ort.wasm'));
      expect(gunzipSync(bytes()).equals(wasm)).toBe(true);
      expect(bytes().length).toBeLessThan(200);
      const hook = (plugin.generateBundle as unknown as { handler: (this: unknown, options: unknown, bundle: Record<string, unknown>) => void }).handler;
      const emitted: { fileName: string; source: Buffer }[] = [];
      const errors: string[] = [];
      const context = {
        emitFile: (f: { fileName: string; source: Buffer }) => (emitted.push(f), ''),
        error: (message: string) => {
          errors.push(message);
          throw new Error(message);
        },
      };
      hook.call(context, {}, { 'assets/ort-wasm-simd-threaded-DcHrbrbl.wasm': {}, 'assets/ort-wasm-simd-threaded-qyIweqWS.mjs': {}, 'index.html': {} });
      expect(emitted.map((f) => f.fileName)).toEqual(['assets/ort-wasm-simd-threaded-DcHrbrbl.wasm.gz']);
      expect(emitted[0]?.source).toBe(bytes());
      expect(() => hook.call(context, {}, { 'index.html': {} })).toThrow("expected onnxruntime's wasm once in the build, found 0: ");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
