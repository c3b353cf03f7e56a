/**
 * onnxruntime's wasm as the app ships it: gzipped, at `<the wasm's URL>.gz` (scripts/vite/
 * shipped-models.ts `gzippedOrtWasm`), 3.7 MB down the line instead of 14 MB wherever the host
 * does not compress wasm itself. The reader's worker inflates it here and keeps the result in
 * Cache Storage under the plain wasm's URL (`keepInflatedWasm`), which the service worker serves
 * to onnxruntime on later starts; where no service worker serves it, onnxruntime gets a `blob:`
 * URL, revoked once the runtime has started, so the bytes are not held for the worker's life (as
 * `env.wasm.wasmBinary` would hold them). Kept apart from the worker, which cannot be loaded in
 * a unit test.
 */
import { DamagedFileError } from './precache-heal.ts';

/** Where the gzipped wasm is served, beside the plain file at `wasmUrl`. */
export const gzippedWasmUrl = (wasmUrl: string): string => `${wasmUrl}.gz`;

/**
 * onnxruntime's wasm by its path or URL, plain and gzipped: in the build `assets/ort-wasm-simd-
 * threaded-<hash>.wasm`, in dev without the hash. The one test of the name, wherever it is needed.
 */
export const ORT_WASM_PATH = /(^|\/)ort-wasm-simd-threaded(-[\w-]+)?\.wasm$/;
export const ORT_WASM_GZ_PATH = /(^|\/)ort-wasm-simd-threaded(-[\w-]+)?\.wasm\.gz$/;

const GZIP_MAGIC = [0x1f, 0x8b];
const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];
const startsWith = (bytes: Uint8Array, magic: number[]): boolean => magic.every((b, i) => bytes[i] === b);
/** Whether `bytes` begin as wasm does: the `.gz` inflated by the browser, sent with `Content-Encoding: gzip`. */
export const isWasm = (bytes: Uint8Array): boolean => startsWith(bytes, WASM_MAGIC);

/**
 * The wasm in `response` (the `.gz` file) as a Blob of type `application/wasm`. A host that sends
 * the `.gz` with `Content-Encoding: gzip` has the browser inflate it already, so the bytes are
 * looked at, not the headers: gzip is inflated, wasm taken as it is, anything else refused, a
 * `DamagedFileError` where the file came back but is not the wasm (precache-heal.ts).
 */
export async function wasmFromGzipResponse(response: Response, url: string): Promise<Blob> {
  if (!response.ok) throw new Error(`onnxruntime's wasm download failed (${response.status} ${response.statusText}): ${url}`);
  // kept a Blob throughout, never copied into an ArrayBuffer: 14 MB at each copy
  const body = await response.blob();
  const head = async (blob: Blob): Promise<Uint8Array> => new Uint8Array(await blob.slice(0, WASM_MAGIC.length).arrayBuffer());
  if (isWasm(await head(body))) return body.slice(0, body.size, 'application/wasm');
  if (!startsWith(await head(body), GZIP_MAGIC)) throw new DamagedFileError(`no onnxruntime wasm at ${url} (neither gzip nor wasm came back)`);
  // Chromium's Response.blob() says only "Failed to fetch" of a stream that failed to inflate, as
  // if the network were at fault: the inflater's own error ("Compressed input was truncated.") is
  // caught on the way to be said instead
  const inflater = body.stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  let inflateError: unknown = null;
  const inflated = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await inflater.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        inflateError = error;
        controller.error(error);
      }
    },
    cancel: (reason) => inflater.cancel(reason),
  });
  let wasm: Blob;
  try {
    wasm = await new Response(inflated, { headers: { 'Content-Type': 'application/wasm' } }).blob();
  } catch (error) {
    const why = inflateError ?? error;
    throw new DamagedFileError(`onnxruntime's wasm at ${url} is damaged (${(why instanceof Error ? why.message : String(why)).replace(/\.$/, '')})`);
  }
  if (!isWasm(await head(wasm))) throw new DamagedFileError(`onnxruntime's wasm at ${url} is damaged (not wasm once inflated)`);
  return wasm;
}

/** Whether this browser can inflate gzip itself (every browser the reader runs in: Chrome 80, Safari 16.4, Firefox 113). */
export const canInflate = (): boolean => typeof DecompressionStream === 'function';

/**
 * The Cache Storage cache that keeps onnxruntime's wasm once inflated, under the plain wasm's
 * URL, for the service worker to serve that URL from (src/sw.ts). Compiled from a `blob:` URL
 * the wasm gets none of Chromium's code cache, and every start compiles it again and runs the
 * first inferences on baseline code; compiled from a Cache Storage response the service worker
 * hands over as it is, V8 keeps its optimized code beside that entry and the next start takes it
 * from there (`V8.WasmCodeCaching` hit), and the inflating is skipped too. (A copy the service
 * worker made gets no code cache, as the precache's files did while it copied each of them with
 * the isolation headers; now it copies only pages and workers' scripts.)
 */
export const INFLATED_WASM_CACHE = 'rollcall-ort-wasm';

/**
 * Keeps the inflated `wasm` in `cache` under `url`, the only entry there: another version's wasm
 * is dropped. False where it could not be kept (storage full, or off).
 */
export async function keepInflatedWasm(cache: Cache, url: string, wasm: Blob): Promise<boolean> {
  try {
    for (const key of await cache.keys()) if (key.url !== url) await cache.delete(key);
    await cache.put(url, new Response(wasm, { headers: { 'Content-Type': 'application/wasm', 'Content-Length': String(wasm.size) } }));
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the inflated wasm kept in `INFLATED_WASM_CACHE` looks whole: wasm, as long as it was
 * when kept (`keepInflatedWasm` says so in Content-Length). Looked at before every start, so only
 * what costs nothing: the size and 4 bytes, not the 14 MB. A copy damaged in a way this misses
 * fails to compile, and the worker drops it then, for the next start to inflate anew.
 */
export async function keptWasmLooksWhole(response: Response): Promise<boolean> {
  try {
    const body = await response.blob();
    const length = response.headers.get('Content-Length');
    if (length !== null && Number(length) !== body.size) return false;
    return isWasm(new Uint8Array(await body.slice(0, WASM_MAGIC.length).arrayBuffer()));
  } catch {
    return false;
  }
}
