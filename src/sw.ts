/// <reference lib="webworker" />
/**
 * Rollcall's service worker (Workbox, built by vite-plugin-pwa's injectManifest): precaches the
 * whole app, the ONNX models and onnxruntime's wasm, so everything works offline after one
 * visit, and serves the page and the workers' scripts with the cross-origin isolation headers
 * threaded wasm needs.
 */
import { addPlugins, cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { clientsClaim } from 'workbox-core';
import { ASK_READER_DOWNLOAD, ReaderDownloadTally, readerFileName } from './lib/vision/reader-download.ts';
import { INFLATED_WASM_CACHE, ORT_WASM_PATH } from './lib/vision/ort-wasm.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

/**
 * Whether the response to `request` makes an environment whose isolation comes from its own
 * headers: a page (COOP and COEP), or a worker's script: a dedicated worker's COEP is its script's,
 * and without it the reader's module worker never got ready under the page's COEP (Chromium 156).
 * onnxruntime's pthread workers are fetched as workers too. Everything else is a same-origin
 * subresource, which COEP `require-corp` lets through without CORP.
 */
function needsIsolationHeaders(request: Request): boolean {
  return request.mode === 'navigate' || request.destination === 'worker' || request.destination === 'sharedworker';
}

/**
 * COOP/COEP on the precached `response` to `request` where it needs them, so `crossOriginIsolated`
 * holds offline and on a host that sends no headers. Any other response is handed over as Cache
 * Storage gave it: Chromium keeps V8's compiled code beside a Cache Storage entry only for that
 * very response, never for a copy made here (onnxruntime's scripts were compiled anew at every
 * start while every response was copied).
 */
function withIsolationHeaders(request: Request, response: Response): Response {
  if (!needsIsolationHeaders(request)) return response;
  if (response.type === 'opaque' || response.type === 'opaqueredirect' || response.status === 0) return response;
  const headers = new Headers(response.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
  headers.set('Cross-Origin-Resource-Policy', 'same-origin');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The reader's files as the first install downloads them into the precache, counted for the pages:
 * a table opened meanwhile says how far the download its first read waits on has got
 * (dice-reader.ts `watchReaderDownload`).
 */
const readerDownloads = new ReaderDownloadTally(250);

async function tellPages(): Promise<void> {
  const message = readerDownloads.message();
  // the first install's pages are not controlled by it yet
  for (const page of await self.clients.matchAll({ includeUncontrolled: true, type: 'window' })) page.postMessage(message);
}

/** `response` with its body counted as the precache reads it into the cache. */
function countedDownload(file: string, response: Response): Response {
  if (!response.body) return response;
  readerDownloads.started(file);
  const counting = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      controller.enqueue(chunk);
      if (readerDownloads.received(file, chunk, performance.now())) void tellPages();
    },
    flush() {
      readerDownloads.finished(file, performance.now());
      void tellPages();
    },
  });
  return new Response(response.body.pipeThrough(counting), { status: response.status, statusText: response.statusText, headers: response.headers });
}

addPlugins([
  {
    // the first install's downloads only: an update's pages have the reader already, and a
    // precached file fetched later is no first visit's wait
    fetchDidSucceed: async ({ event, request, response }) => {
      const file = event.type === 'install' && !self.registration.active && response.ok ? readerFileName(request.url) : null;
      return file ? countedDownload(file, response) : response;
    },
  },
  {
    // the page's own request, not the one the handler was given: the navigation route hands the
    // precache a plain request for index.html (createHandlerBoundToURL), no navigation
    handlerWillRespond: async ({ event, request, response }) => withIsolationHeaders(event instanceof FetchEvent ? event.request : request, response),
  },
]);
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// onnxruntime's plain wasm, which the app does not ship in its precache (the gzipped file is):
// the copy the reader's worker inflated and kept, handed over as Cache Storage gave it, not
// copied with the isolation headers (a same-origin file needs none), so that Chromium keeps the
// compiled code beside it for the next start (ort-wasm.ts `INFLATED_WASM_CACHE`). The worker asks
// for it only once kept; else the network's.
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && ORT_WASM_PATH.test(url.pathname),
  async ({ request }) => (await (await caches.open(INFLATED_WASM_CACHE)).match(request)) ?? fetch(request),
);
// Any in-app URL opens the app shell, online or off.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html')));

// The first install takes control at once; an update waits until the player accepts the prompt.
clientsClaim();
self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  // a page opened (or reloaded) while the first install downloads: how far it has got so far
  else if (type === ASK_READER_DOWNLOAD) event.source?.postMessage(readerDownloads.message());
});
