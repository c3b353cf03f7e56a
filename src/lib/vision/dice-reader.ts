/**
 * The app's handle on the dice reader: `createDiceReader()` starts the worker (which loads
 * ONNX Runtime and the model lazily), `read(frame)` returns the dice in that frame with
 * timings. Importing this module costs the main bundle a few hundred bytes, nothing of ORT.
 *
 *   const reader = createDiceReader();
 *   const { dice } = await reader.read(await createImageBitmap(video));
 *
 * An ImageBitmap is transferred to the worker (closed for the caller); ImageData is copied.
 * Reads are answered in order; for a camera loop, await one read before sending the next.
 */
import type { DiceRead, FromWorker, ReaderInfo, ReaderInitOptions, ToWorker } from './dice-reader-protocol.ts';

export type { DiceRead, ReaderInfo, ReaderInitOptions } from './dice-reader-protocol.ts';

export interface DiceReader {
  /** Resolves when the model is loaded and warmed up (with timings), rejects if it cannot start. */
  readonly ready: Promise<ReaderInfo>;
  read(frame: ImageBitmap | ImageData): Promise<DiceRead>;
  /** Stops the worker; pending reads reject. */
  close(): void;
}

export class DiceReaderError extends Error {
  override name = 'DiceReaderError';
}

export function createDiceReader(options: ReaderInitOptions = {}): DiceReader {
  const worker = new Worker(new URL('./dice-reader.worker.ts', import.meta.url), { type: 'module', name: 'dice-reader' });
  const pending = new Map<number, { resolve: (r: DiceRead) => void; reject: (e: Error) => void; sent: number }>();
  let nextId = 1;
  let closed: Error | null = null;
  let resolveReady!: (info: ReaderInfo) => void;
  let rejectReady!: (e: Error) => void;
  const ready = new Promise<ReaderInfo>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  ready.catch(() => undefined); // callers that only read() still get the error there

  const fail = (error: Error): void => {
    closed = error;
    rejectReady(error);
    for (const p of pending.values()) p.reject(error);
    pending.clear();
    worker.terminate();
  };

  worker.onmessage = (event: MessageEvent<FromWorker>) => {
    const msg = event.data;
    if (msg.type === 'ready') {
      resolveReady(msg.info);
    } else if (msg.type === 'result') {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      p?.resolve({ dice: msg.dice, width: msg.width, height: msg.height, timing: { ...msg.timing, roundTripMs: performance.now() - p.sent } });
    } else if (msg.id === null) {
      fail(new DiceReaderError(msg.message));
    } else {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      p?.reject(new DiceReaderError(msg.message));
    }
  };
  worker.onerror = (event: ErrorEvent) => {
    event.preventDefault();
    fail(new DiceReaderError(`dice reader worker failed: ${event.message || 'could not load the worker script'}`));
  };
  worker.postMessage({ type: 'init', options } satisfies ToWorker);

  return {
    ready,
    read(frame) {
      if (closed) return Promise.reject(closed);
      const id = nextId++;
      return new Promise<DiceRead>((resolve, reject) => {
        pending.set(id, { resolve, reject, sent: performance.now() });
        const message: ToWorker = { type: 'read', id, frame };
        worker.postMessage(message, typeof ImageBitmap !== 'undefined' && frame instanceof ImageBitmap ? [frame] : []);
      });
    },
    close() {
      if (!closed) fail(new DiceReaderError('dice reader closed'));
    },
  };
}
