/// <reference types="svelte" />
/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/client" />

/** Each shipped model's version by file name (vite.config.ts, scripts/vite/shipped-models.ts). */
declare const __SHIPPED_MODEL_VERSIONS__: Record<string, string>;
/** The bytes a first visit downloads before the first read: onnxruntime's wasm and the models it reads with (vite.config.ts). */
declare const __FIRST_READ_BYTES__: number;
