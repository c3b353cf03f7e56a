/**
 * The dice reader asks whether onnxruntime-web can run here before it downloads anything
 * (wasm-support.ts): its only wasm build needs WebAssembly SIMD.
 */
import { describe, expect, it } from 'vitest';
import { wasmSupportProblem } from '../../src/lib/vision/wasm-support.ts';

describe('whether the dice reader can run in this browser', () => {
  it('can with WebAssembly SIMD (Node has it)', () => {
    expect(wasmSupportProblem()).toBeNull();
  });

  it('cannot without SIMD (Safari before 16.4), and says what would', () => {
    const noSimd = { ...WebAssembly, validate: () => false } as typeof WebAssembly;
    expect(wasmSupportProblem(noSimd)).toBe('this browser is too old for it; it needs WebAssembly SIMD, as in Safari 16.4, Chrome 91, Firefox 89 and later');
    const throwing = { ...WebAssembly, validate: () => { throw new Error('no'); } } as typeof WebAssembly;
    expect(wasmSupportProblem(throwing)).toMatch(/WebAssembly SIMD/);
  });

  it('cannot without WebAssembly (Lockdown Mode)', () => {
    expect(wasmSupportProblem(null)).toMatch(/^this browser runs no WebAssembly/);
  });
});
