/// <reference lib="webworker" />
/**
 * Rollcall's service worker (Workbox, built by vite-plugin-pwa's injectManifest): precaches the
 * whole app, the ONNX models and onnxruntime's wasm, so everything works offline after one
 * visit, and serves all of it with the cross-origin isolation headers threaded wasm needs.
 */
import { addPlugins, cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { clientsClaim } from 'workbox-core';

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

addPlugins([{ handlerWillRespond: async ({ response }) => withIsolationHeaders(response) }]);
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// Any in-app URL opens the app shell, online or off.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html')));

// The first install takes control at once; an update waits until the player accepts the prompt.
clientsClaim();
self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
