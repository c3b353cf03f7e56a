/**
 * A dice reader that cannot read says why. One whose worker is gone says so with
 * `DiceReaderLost`, for the table to start another: a worker that crashed (an error event) and
 * one killed without a word (no reply in READ_ANSWER_MS). A browser that cannot start the worker
 * at all (Firefox before 114 throws on a module worker; some embedded browsers have no Worker)
 * gets a reader that says why through `ready` and every call, and the table opens the dice pad.
 * Fake Workers stand in for the real one, which Node cannot run.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDiceReader, DiceReaderError, DiceReaderLost, READ_ANSWER_MS } from '../../src/lib/vision/dice-reader.ts';

class SilentWorker {
  static last: SilentWorker | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  posted: { type: string }[] = [];
  terminated = false;
  constructor() {
    SilentWorker.last = this;
  }
  postMessage(message: { type: string }): void {
    this.posted.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
}

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

const frame = { width: 1, height: 1, data: new Uint8ClampedArray(4), colorSpace: 'srgb' } as ImageData;

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('Worker', SilentWorker);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a dice reader whose worker is gone', () => {
  it('stops waiting on a worker that answers nothing, and reads nothing more', async () => {
    const reader = createDiceReader();
    const worker = SilentWorker.last!;
    const read = reader.read(frame);
    const outcome = read.then(() => 'read', (e: unknown) => e);
    await vi.advanceTimersByTimeAsync(READ_ANSWER_MS - 1);
    expect(worker.terminated).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(DiceReaderLost);
    expect((error as Error).message).toBe('the dice reader stopped answering (no reply in 60 s)');
    expect(worker.terminated).toBe(true);
    await expect(reader.read(frame)).rejects.toBeInstanceOf(DiceReaderLost);
    // a camera frame given to it now is closed, not left to the collector
    vi.stubGlobal('ImageBitmap', FakeBitmap);
    const bitmap = new FakeBitmap();
    await expect(reader.read(bitmap as unknown as ImageBitmap)).rejects.toBeInstanceOf(DiceReaderLost);
    expect(bitmap.closed).toBe(true);
  });

  it("keeps waiting while the first install fills the precache a read may wait on, and not after", async () => {
    // a first visit: the page's first service worker is installing, the reader waits on its precache
    const installing = Object.assign(new EventTarget(), { state: 'installing' });
    vi.stubGlobal('caches', {});
    vi.stubGlobal('navigator', { serviceWorker: { controller: null, getRegistration: () => Promise.resolve({ installing }) } });
    const reader = createDiceReader();
    const worker = SilentWorker.last!;
    expect(worker.posted[0]).toMatchObject({ type: 'init', precacheFilling: true });
    worker.onmessage!({ data: { type: 'ready', info: {} } } as MessageEvent);
    const outcome = reader.read(frame).then(() => 'read', (e: unknown) => e);
    // the worker may wait two minutes on the precache for the face model before downloading it itself
    await vi.advanceTimersByTimeAsync(READ_ANSWER_MS * 2 + 1000);
    expect(worker.terminated).toBe(false);
    installing.state = 'installed';
    installing.dispatchEvent(new Event('statechange'));
    expect(worker.posted.at(-1)).toEqual({ type: 'precache-settled' });
    // the install over, a read left unanswered this long again is a lost worker
    await vi.advanceTimersByTimeAsync(READ_ANSWER_MS);
    expect(await outcome).toBeInstanceOf(DiceReaderLost);
    expect(worker.terminated).toBe(true);
  });

  it('says a worker that could not start failed, not that it was lost', async () => {
    const reader = createDiceReader();
    SilentWorker.last!.onerror!(Object.assign(new Event('error'), { message: '', preventDefault: () => undefined }) as unknown as ErrorEvent);
    const error = await reader.ready.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiceReaderError);
    expect(error).not.toBeInstanceOf(DiceReaderLost);
    expect((error as Error).message).toBe('dice reader worker failed: could not load the worker script');
  });

  it('says a crashed worker is lost; a read answered in time is not', async () => {
    const reader = createDiceReader();
    const worker = SilentWorker.last!;
    worker.onmessage!({ data: { type: 'ready', info: {} } } as MessageEvent);
    const read = reader.read(frame);
    await vi.advanceTimersByTimeAsync(1000);
    const id = (worker.posted.find((m) => m.type === 'read') as unknown as { id: number }).id;
    worker.onmessage!({ data: { type: 'result', id, dice: [], faces: null, width: 1, height: 1, edgeWidth: null, timing: {} } } as MessageEvent);
    expect((await read).dice).toEqual([]);
    // that read's clock is stopped: nothing fires later
    await vi.advanceTimersByTimeAsync(READ_ANSWER_MS * 2);
    expect(worker.terminated).toBe(false);

    const next = reader.read(frame);
    worker.onerror!(Object.assign(new Event('error'), { message: 'out of memory', preventDefault: () => undefined }) as unknown as ErrorEvent);
    const error = await next.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiceReaderLost);
    expect(error).toBeInstanceOf(DiceReaderError);
    expect((error as Error).message).toBe('dice reader worker failed: out of memory');
  });
});

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
