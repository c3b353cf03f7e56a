/**
 * A browser that cannot start the dice reader's worker at all (Firefox before 114 throws on a
 * module worker; some embedded browsers have no Worker): `createDiceReader` does not throw, its
 * reader says why through `ready` and every call, and the table opens the dice pad on it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDiceReader, DiceReaderError, DiceReaderLost } from '../../src/lib/vision/dice-reader.ts';

class ModuleWorkerRefused {
  constructor(_url: URL, options?: WorkerOptions) {
    if (options?.type === 'module') throw new TypeError('Module scripts are not supported on DedicatedWorker yet.');
  }
}

class FakeBitmap {
  width = 1;
  height = 1;
  closed = false;
  close(): void {
    this.closed = true;
  }
}

afterEach(() => vi.unstubAllGlobals());

describe('a dice reader this browser cannot start', () => {
  it('rejects ready and every call with the reason, without throwing', async () => {
    vi.stubGlobal('Worker', ModuleWorkerRefused);
    const reader = createDiceReader();
    const error = await reader.ready.then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(DiceReaderError);
    // not "lost": the table must not start it again and again
    expect(error).not.toBeInstanceOf(DiceReaderLost);
    expect((error as Error).message).toBe('this browser cannot run it, a newer one can: Module scripts are not supported on DedicatedWorker yet.');
    await expect(reader.faceModel()).rejects.toBe(error);
    await expect(reader.useKit(null)).rejects.toBe(error);
    await expect(reader.learnPips([])).rejects.toBe(error);
    // a camera frame given to it is closed, not left to the collector
    vi.stubGlobal('ImageBitmap', FakeBitmap);
    const bitmap = new FakeBitmap();
    await expect(reader.read(bitmap as unknown as ImageBitmap)).rejects.toBe(error);
    expect(bitmap.closed).toBe(true);
    reader.close();
  });

  it('says so where there is no Worker at all', async () => {
    vi.stubGlobal('Worker', undefined);
    const reader = createDiceReader();
    await expect(reader.ready).rejects.toThrow(/^this browser cannot run it, a newer one can: /);
  });
});
