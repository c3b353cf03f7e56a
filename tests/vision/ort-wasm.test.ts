import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzippedWasmUrl, keepInflatedWasm, keptWasmLooksWhole, wasmFromGzipResponse } from '../../src/lib/vision/ort-wasm.ts';
import { DamagedFileError } from '../../src/lib/vision/precache-heal.ts';

const URL_ = 'http://app.test/assets/ort-wasm-simd-threaded-X.wasm.gz';
// the wasm the app ships, so the test inflates what the build gzips
const wasm = readFileSync(createRequire(import.meta.url).resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm'));
const bytesOf = async (blob: Blob): Promise<Buffer> => Buffer.from(await blob.arrayBuffer());

describe("onnxruntime's wasm, shipped gzipped", () => {
  it('is asked for beside the plain file', () => {
    expect(gzippedWasmUrl('http://app.test/assets/ort-wasm-simd-threaded-X.wasm')).toBe(URL_);
  });

  it('is inflated into a wasm Blob, byte for byte', async () => {
    const blob = await wasmFromGzipResponse(new Response(gzipSync(wasm)), URL_);
    expect(blob.type).toBe('application/wasm');
    expect((await bytesOf(blob)).equals(wasm)).toBe(true);
  });

  it('is taken as it is when the host already inflated it (a .gz sent with Content-Encoding: gzip)', async () => {
    const blob = await wasmFromGzipResponse(new Response(wasm.subarray(0, 4096)), URL_);
    expect(blob.type).toBe('application/wasm');
    expect((await bytesOf(blob)).equals(wasm.subarray(0, 4096))).toBe(true);
  });

  it('refuses a failed download, a web page, a cut-off file and gzip of something else, each in words', async () => {
    await expect(wasmFromGzipResponse(new Response('gone', { status: 404, statusText: 'Not Found' }), URL_)).rejects.toThrow(
      `onnxruntime's wasm download failed (404 Not Found): ${URL_}`,
    );
    await expect(wasmFromGzipResponse(new Response('<!doctype html><title>Rollcall</title>'), URL_)).rejects.toThrow(`no onnxruntime wasm at ${URL_} (neither gzip nor wasm came back)`);
    const gz = gzipSync(wasm);
    await expect(wasmFromGzipResponse(new Response(gz.subarray(0, gz.length >> 1)), URL_)).rejects.toThrow(`onnxruntime's wasm at ${URL_} is damaged (`);
    await expect(wasmFromGzipResponse(new Response(gzipSync('not wasm at all')), URL_)).rejects.toThrow(`onnxruntime's wasm at ${URL_} is damaged (not wasm once inflated)`);
  });

  it('says which refusals are a damaged file (to be downloaded again where precached), not a failed download', async () => {
    const gz = gzipSync(wasm);
    for (const body of ['<!doctype html>', gz.subarray(0, gz.length >> 1), gzipSync('not wasm at all')]) {
      await expect(wasmFromGzipResponse(new Response(body), URL_)).rejects.toBeInstanceOf(DamagedFileError);
    }
    await expect(wasmFromGzipResponse(new Response('gone', { status: 404 }), URL_)).rejects.not.toBeInstanceOf(DamagedFileError);
  });
});

/** Cache Storage's cache as keepInflatedWasm uses it, kept in a Map; `full`: every put fails (storage full). */
function fakeCache(full = false): Cache & { entries: Map<string, Response> } {
  const entries = new Map<string, Response>();
  return {
    entries,
    keys: async () => [...entries.keys()].map((u) => new Request(u)),
    delete: async (key: RequestInfo | URL) => entries.delete(key instanceof Request ? key.url : String(key)),
    put: async (key: RequestInfo | URL, response: Response) => {
      if (full) throw new DOMException('Quota exceeded.', 'QuotaExceededError');
      entries.set(key instanceof Request ? key.url : String(key), response);
    },
  } as unknown as Cache & { entries: Map<string, Response> };
}

describe("onnxruntime's wasm, kept inflated for the service worker to serve (src/sw.ts)", () => {
  const PLAIN = 'http://app.test/assets/ort-wasm-simd-threaded-X.wasm';

  it('is kept under the plain file\'s URL as wasm, the one entry: another version\'s is dropped', async () => {
    const cache = fakeCache();
    await cache.put('http://app.test/assets/ort-wasm-simd-threaded-OLD.wasm', new Response('old'));
    expect(await keepInflatedWasm(cache, PLAIN, new Blob([wasm.subarray(0, 4096)], { type: 'application/wasm' }))).toBe(true);
    expect([...cache.entries.keys()]).toEqual([PLAIN]);
    const kept = cache.entries.get(PLAIN)!;
    expect(kept.headers.get('content-type')).toBe('application/wasm');
    expect(Buffer.from(await kept.arrayBuffer()).equals(wasm.subarray(0, 4096))).toBe(true);
  });

  it('is looked at before use: wasm as long as when kept passes; another length, or not wasm, does not', async () => {
    const cache = fakeCache();
    const head = wasm.subarray(0, 4096);
    await keepInflatedWasm(cache, PLAIN, new Blob([head], { type: 'application/wasm' }));
    expect(await keptWasmLooksWhole(cache.entries.get(PLAIN)!)).toBe(true);
    expect(await keptWasmLooksWhole(new Response(head.subarray(0, 1000), { headers: { 'Content-Length': '4096' } }))).toBe(false);
    expect(await keptWasmLooksWhole(new Response('<!doctype html>'))).toBe(false);
    expect(await keptWasmLooksWhole(new Response(''))).toBe(false);
  });

  it('says so where it cannot be kept, without throwing', async () => {
    expect(await keepInflatedWasm(fakeCache(true), PLAIN, new Blob([wasm.subarray(0, 16)]))).toBe(false);
  });
});
