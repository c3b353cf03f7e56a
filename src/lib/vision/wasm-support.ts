/**
 * Whether this browser can run onnxruntime-web at all, asked before the worker fetches it. ORT 1.30
 * ships one wasm build, `ort-wasm-simd-threaded`: without WebAssembly SIMD (Safari before 16.4,
 * so every iPhone left on iOS 15) it refuses with "no available backend found. ERR: [wasm]
 * Error: WebAssembly SIMD is not supported in the current environment."; without WebAssembly
 * (an iPhone in Lockdown Mode, some locked-down browsers) it fails further in. A player is told
 * in a sentence instead, and the table opens the dice pad.
 */

/** ORT's own SIMD probe (`isSimdSupported` in onnxruntime-web's wasm factory): a module using v128 ops. */
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 30, 1, 28, 0, 65, 0, 253, 15, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 253, 186, 1, 26, 11,
]);

/** Why the dice reader cannot run here, for the player; null when it can. */
export function wasmSupportProblem(wasm: typeof WebAssembly | null | undefined = globalThis.WebAssembly): string | null {
  if (typeof wasm !== 'object' || wasm === null || typeof wasm.validate !== 'function') {
    return 'this browser runs no WebAssembly; on an iPhone, Lockdown Mode turns it off for websites';
  }
  let simd: boolean;
  try {
    simd = wasm.validate(SIMD_PROBE);
  } catch {
    simd = false;
  }
  return simd ? null : 'this browser is too old for it; it needs WebAssembly SIMD, as in Safari 16.4, Chrome 91, Firefox 89 and later';
}
