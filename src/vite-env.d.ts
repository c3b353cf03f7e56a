/// <reference types="svelte" />
/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/client" />

/** Each shipped model's version by file name (vite.config.ts, scripts/vite/shipped-models.ts). */
declare const __SHIPPED_MODEL_VERSIONS__: Record<string, string>;
/**
 * The bytes a first visit downloads before a table's first read, of pip dice and of symbol dice,
 * by file (`readerFileName`), and the plain wasm's, the gzipped one's body when a host sends it
 * with `Content-Encoding: gzip` (`inflated`; vite.config.ts, scripts/vite/shipped-models.ts).
 */
declare const __FIRST_READ_BYTES__: { pips: Record<string, number>; symbols: Record<string, number>; inflated: Record<string, number> };
