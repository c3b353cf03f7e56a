import type { Plugin } from 'vite';

/**
 * What the built page may load and run. The page shows what other players made (kit art, names
 * and games from a backup file), so a script smuggled into any of it must not run, and nothing may
 * be sent anywhere: the app is offline by design and talks to its own origin only.
 * - `script-src 'self'`, without `'wasm-unsafe-eval'`: the page compiles no WebAssembly. onnxruntime
 *   compiles its own in the dice reader's worker, whose policy is its script's headers, not this.
 * - `img-src data: blob:`: kit art is kept as data URLs, photos and taught examples shown from blobs.
 * - `media-src blob: mediastream:`: the camera's stream.
 * - `style-src 'self'`: no inline styles; Svelte's `style:` directives set the CSSOM, which CSP allows.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: mediastream:",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * The policy as a `<meta>` in the built page, so that it holds on any static host and offline
 * (the service worker serves the page as built). The dev server goes without: Vite injects inline
 * styles and its client there.
 */
export function contentSecurityPolicy(): Plugin {
  return {
    name: 'rollcall:content-security-policy',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' }],
    },
  };
}
