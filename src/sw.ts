/// <reference lib="webworker" />
/**
 * Rollcall's service worker (Workbox, built by vite-plugin-pwa's injectManifest): precaches the
 * whole app, the ONNX models and onnxruntime's wasm, so everything works offline after one
 * visit, and serves all of it with the cross-origin isolation headers threaded wasm needs.
 */
import { addPlugins, cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { clientsClaim } from 'workbox-core';
import { ASK_READER_DOWNLOAD, ReaderDownloadTally, readerFileName } from './lib/vision/reader-download.ts';
import { INFLATED_WASM_CACHE, ORT_WASM_PATH } from './lib/vision/ort-wasm.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

/** COOP/COEP on every response the worker serves, so `crossOriginIsolated` holds offline too. */
function withIsolationHeaders(response: Response): Response {
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
      if (readerDownloads.received(file, chunk, Date.now())) void tellPages();
    },
    flush() {
      readerDownloads.finished(file, Date.now());
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
  { handlerWillRespond: async ({ response }) => withIsolationHeaders(response) },
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
