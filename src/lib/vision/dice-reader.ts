/**
 * The app's handle on the dice reader: `createDiceReader()` starts the worker (which loads
 * ONNX Runtime and the model lazily), `read(frame)` returns the dice in that frame with
 * timings. Importing this module costs the main bundle a few hundred bytes, nothing of ORT.
 *
 *   const reader = createDiceReader();
 *   const { dice } = await reader.read(await createImageBitmap(video));
 *
 * Symbol dice: `useKit(spec)` loads the face embedder (once) and the kit's prototypes; from then
 * on every read also gives each die's face (`faces`). `teach(frame)` finds the one die of a
 * teach photo and embeds it. The app's wrapper with the store is `src/app/kit-reader.ts`.
 *
 * An ImageBitmap is transferred to the worker (closed for the caller); ImageData is copied.
 * Requests are answered in order; for a camera loop, await one read before sending the next.
 */
import type {
  DiceRead,
  FaceModelInfo,
  PrototypeData,
  FromWorker,
  KitInfo,
  KitSpec,
  ReaderInfo,
  ReaderInitOptions,
  TeachOutcome,
  TeachRequest,
  ToWorker,
} from './dice-reader-protocol.ts';
import { ASK_READER_DOWNLOAD, isReaderDownloadMessage, type ReaderFileDownload } from './reader-download.ts';

export type {
  DiceRead,
  FaceModelInfo,
  FaceRead,
  KitInfo,
  KitSpec,
  PrototypeData,
  ReaderInfo,
  ReaderInitOptions,
  TaughtExample,
  TeachOutcome,
  TeachRefusal,
  TeachRequest,
} from './dice-reader-protocol.ts';

export interface DiceReader {
  /** Resolves when the model is loaded and warmed up (with timings), rejects if it cannot start. */
  readonly ready: Promise<ReaderInfo>;
  /**
   * The dice in this frame. `expected`: how many dice the caller knows lie in view (the roll a
   * game awaits); pip dice missed below it are looked for again (die-face-reader.ts `detectCounted`).
   * `tiles`: a photo, not a camera frame: pip dice small in a large picture are looked for in tiles
   * of it too (tiles.ts `withTiles`).
   */
  read(frame: ImageBitmap | ImageData, expected?: number, options?: { tiles?: boolean }): Promise<DiceRead>;
  /**
   * Reads symbol dice of this kit from now on (null: pips again). Resolves once the face model
   * is loaded and the kit's art is embedded, with what `kitSeparation` needs.
   */
  useKit(spec: KitSpec): Promise<KitInfo>;
  useKit(spec: null): Promise<null>;
  /**
   * Pip faces learnt at the table (pip-learning.ts): dice the die-face reader reads `other` and
   * that look like one of these are read as its face ("1"…"6") from now on. Replaces the set
   * learnt before; resolves to how many prototypes the worker reads with.
   */
  learnPips(prototypes: readonly PrototypeData[]): Promise<number>;
  /** Loads the face embedder (once): which model it is, for keying and refreshing taught embeddings. */
  faceModel(): Promise<FaceModelInfo>;
  /** One teach photo: its die found (or `request.box` used) and embedded; a refusal says why. */
  teach(frame: ImageBitmap | ImageData, request?: TeachRequest): Promise<TeachOutcome>;
  /** Stops the worker; pending requests reject. */
  close(): void;
}

export class DiceReaderError extends Error {
  override name = 'DiceReaderError';
}

/**
 * The reader's worker is gone after it started: it crashed (a phone short of memory may kill it)
 * or stopped answering. This reader answers nothing more; a new one can read (the table starts one).
 */
export class DiceReaderLost extends DiceReaderError {
  override name = 'DiceReaderLost';
}

/**
 * A read unanswered this long means the worker is gone without a word (killed, not crashed). A
 * read takes well under a second; the longest wait is the first read that loads the face model,
 * which on a first visit may wait on its download. While the first install still fills the
 * precache the clock starts again instead: the worker may wait on it two minutes for a file
 * before downloading it itself (`fetchShipped`), longer than this.
 */
export const READ_ANSWER_MS = 60_000;

type Reply = Exclude<FromWorker, { type: 'ready' } | { type: 'error' }>;

/** Whether a service worker controls this page (and so the reader's worker it starts). */
function controlledPage(): boolean {
  try {
    return typeof navigator !== 'undefined' && !!navigator.serviceWorker?.controller;
  } catch {
    // Firefox throws on touching it where the player keeps no site data
    return false;
  }
}

/**
 * A first visit on a slow line: the app's first service worker installs while the table opens,
 * downloading onnxruntime's wasm (3.7 MB gzipped) and the models into its precache. The reader downloading
 * the same files beside it would share the line with it, and Chromium holds a second request for
 * a URL already being downloaded for 20 s (its HTTP cache lock) before downloading it again: at
 * 200 KB/s the first read came 132 s after the table opened, the wasm (then shipped as 14 MB)
 * downloaded twice. So while that install runs, the worker takes these files from the precache as
 * they land in it (dice-reader.worker.ts `fetchShipped`): 80 s, each file once, and 28 s with the
 * wasm gzipped (`npm run bench -- --only first-visit`).
 *
 * True when such an install may be running; `onSettled` is called once it has ended (`installed`:
 * whether it installed; false too when it was never running after all, or the worker installing
 * is an update's), and `onInstalling` with the installing service worker once it is found.
 */
function watchFirstInstall(onSettled: (installed: boolean) => void, onInstalling?: (installing: ServiceWorker, container: ServiceWorkerContainer) => void): boolean {
  let container: ServiceWorkerContainer | undefined;
  try {
    container = typeof navigator !== 'undefined' ? navigator.serviceWorker : undefined;
    // A page a service worker controls gets these files from its cache already.
    if (!container || container.controller || typeof caches === 'undefined') return false;
  } catch {
    // Firefox throws on touching either where the player keeps no site data: no precache then
    return false;
  }
  const found = container;
  let settled = false;
  const settle = (installed: boolean): void => {
    if (settled) return;
    settled = true;
    onSettled(installed);
  };
  found.getRegistration().then(
    (registration) => {
      const installing = registration?.installing;
      // an active worker beside it: an update installing, on a page loaded past that worker (a
      // hard reload); no first visit's download, and src/sw.ts counts none of it
      if (!installing || registration.active) return settle(false);
      const ended = (): void => {
        if (installing.state === 'installing') return;
        installing.removeEventListener('statechange', ended);
        settle(installing.state !== 'redundant');
      };
      installing.addEventListener('statechange', ended);
      onInstalling?.(installing, found);
      ended();
    },
    () => settle(false),
  );
  return true;
}

/**
 * How far the first install has got downloading the reader's files (`ReaderFileDownload`, counted
 * by the service worker as its precache downloads them; src/sw.ts): `onDownload` with each new
 * count while it runs. A failed install leaves the reader's worker to download what the precache
 * lacks itself, uncounted: `onDownload(null)` then, and when there is no such install (a page a
 * service worker controls, a browser without them). Returns a function that stops the watch.
 */
export function watchReaderDownload(onDownload: (downloads: ReaderFileDownload[] | null) => void): () => void {
  let stopped = false;
  let listening: { container: ServiceWorkerContainer; heard: (event: MessageEvent) => void } | null = null;
  const stop = (): void => {
    stopped = true;
    listening?.container.removeEventListener('message', listening.heard);
  };
  const watching = watchFirstInstall(
    (installed) => {
      // installed: still listening, for the count sent as the last file landed, which may come after
      if (stopped || installed) return;
      stop();
      onDownload(null);
    },
    (installing, container) => {
      if (stopped) return;
      const heard = (event: MessageEvent): void => {
        if (!stopped && isReaderDownloadMessage(event.data)) onDownload(event.data.files);
      };
      listening = { container, heard };
      container.addEventListener('message', heard);
      // messages to a page wait for this before the page has loaded
      container.startMessages();
      // what landed before this page was there to hear it (a table opened late, a reload)
      installing.postMessage({ type: ASK_READER_DOWNLOAD });
    },
  );
  if (!watching) onDownload(null);
  return stop;
}

/**
 * A reader that never starts: `ready` and every call reject with `error`, and a frame given to it
 * is closed, as the worker would have. For a browser that cannot start the worker at all.
 */
function unavailableReader(error: DiceReaderError): DiceReader {
  const refuse = <T>(frame?: ImageBitmap | ImageData): Promise<T> => {
    if (typeof ImageBitmap !== 'undefined' && frame instanceof ImageBitmap) frame.close();
    return Promise.reject(error);
  };
  const ready = refuse<ReaderInfo>();
  ready.catch(() => undefined); // callers that only read() still get the error there
  function useKit(spec: KitSpec): Promise<KitInfo>;
  function useKit(spec: null): Promise<null>;
  function useKit(): Promise<KitInfo | null> {
    return refuse();
  }
  return {
    ready,
    read: (frame) => refuse(frame),
    useKit,
    learnPips: () => refuse(),
    faceModel: () => refuse(),
    teach: (frame) => refuse(frame),
    close: () => undefined,
  };
}

export function createDiceReader(options: ReaderInitOptions = {}): DiceReader {
  let worker: Worker;
  try {
    worker = new Worker(new URL('./dice-reader.worker.ts', import.meta.url), { type: 'module', name: 'dice-reader' });
  } catch (err) {
    // Firefox before 114 throws on a module worker ("Module scripts are not supported on
    // DedicatedWorker yet"); some embedded browsers have no Worker. Said, not thrown: the table
    // opens the dice pad on a reader that cannot start, and never waits on this one.
    const why = err instanceof Error ? err.message : String(err);
    return unavailableReader(new DiceReaderError(`this browser cannot run it, a newer one can: ${why}`));
  }
  const pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let closed: Error | null = null;
  /** The worker said it is ready: an error from now on means it was lost, not that it could not start. */
  let started = false;
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
      started = true;
      resolveReady(msg.info);
    } else if (msg.type === 'error') {
      if (msg.id === null) {
        fail(new DiceReaderError(msg.message));
        return;
      }
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      p?.reject(new DiceReaderError(msg.message));
    } else {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      p?.resolve(msg);
    }
  };
  worker.onerror = (event: ErrorEvent) => {
    event.preventDefault();
    const problem = `dice reader worker failed: ${event.message || 'could not load the worker script'}`;
    fail(started ? new DiceReaderLost(problem) : new DiceReaderError(problem));
  };
  /** The first install is still filling the precache, which a read may be waiting on. */
  let installFilling = false;
  const precacheFilling = watchFirstInstall(() => {
    installFilling = false;
    if (!closed) worker.postMessage({ type: 'precache-settled' } satisfies ToWorker);
  });
  installFilling = precacheFilling;
  worker.postMessage({ type: 'init', options, precacheFilling, served: controlledPage() } satisfies ToWorker);

  const isBitmap = (frame: unknown): frame is ImageBitmap => typeof ImageBitmap !== 'undefined' && frame instanceof ImageBitmap;

  function call(make: (id: number) => ToWorker, transfer: Transferable[] = []): Promise<Reply> {
    if (closed) {
      // a frame given to a reader that reads no more is closed here, as the worker would have
      for (const item of transfer) if (isBitmap(item)) item.close();
      return Promise.reject(closed);
    }
    const id = nextId++;
    return new Promise<Reply>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage(make(id), transfer);
    });
  }

  function unexpected(reply: Reply): never {
    throw new DiceReaderError(`dice reader: unexpected reply "${reply.type}"`);
  }

  function useKit(spec: KitSpec): Promise<KitInfo>;
  function useKit(spec: null): Promise<null>;
  async function useKit(spec: KitSpec | null): Promise<KitInfo | null> {
    const reply = await call((id) => ({ type: 'kit', id, spec }));
    if (reply.type !== 'kit') unexpected(reply);
    return reply.info;
  }

  return {
    ready,
    async read(frame, expected, options) {
      const sent = performance.now();
      const watch = (): ReturnType<typeof setTimeout> =>
        setTimeout(() => {
          if (closed) return;
          // the read may be waiting on the precache's copy of a model (READ_ANSWER_MS)
          if (installFilling) silent = watch();
          else fail(new DiceReaderLost(`the dice reader stopped answering (no reply in ${READ_ANSWER_MS / 1000} s)`));
        }, READ_ANSWER_MS);
      let silent = watch();
      let reply: Reply;
      try {
        reply = await call((id) => ({ type: 'read', id, frame, ...(expected === undefined ? {} : { expected }), ...(options?.tiles ? { tiles: true } : {}) }), isBitmap(frame) ? [frame] : []);
      } finally {
        clearTimeout(silent);
      }
      if (reply.type !== 'result') unexpected(reply);
      return { dice: reply.dice, faces: reply.faces, width: reply.width, height: reply.height, edgeWidth: reply.edgeWidth, timing: { ...reply.timing, roundTripMs: performance.now() - sent } };
    },
    useKit,
    async learnPips(prototypes) {
      const reply = await call((id) => ({ type: 'learn-pips', id, prototypes: [...prototypes] }));
      if (reply.type !== 'pips-learnt') unexpected(reply);
      return reply.count;
    },
    async faceModel() {
      const reply = await call((id) => ({ type: 'face-model', id }));
      if (reply.type !== 'face-model') unexpected(reply);
      return reply.info;
    },
    async teach(frame, request = {}) {
      const reply = await call((id) => ({ type: 'teach', id, frame, request }), isBitmap(frame) ? [frame] : []);
      if (reply.type !== 'taught') unexpected(reply);
      return reply.outcome;
    },
    close() {
      if (!closed) fail(new DiceReaderError('dice reader closed'));
    },
  };
}
