/**
 * A file the first service worker precaches (onnxruntime's wasm, a shipped model), asked for by
 * the dice reader's worker while that install runs (dice-reader.ts `watchFirstInstall`): the
 * precache's copy is awaited rather than downloaded a second time beside it (docs/architecture.md,
 * "Models at run time"). Kept apart from the worker, which cannot be loaded in a unit test.
 */

/** The first install, while it fills the precache: `ended` resolves once it has ended, however. */
export interface PrecacheFill {
  ended: Promise<void>;
}

export interface ShippedFetch {
  /** Looks the URL up in the precache (`caches.match`); may reject or be missing (private modes). */
  match(url: string): Promise<Response | undefined>;
  fetch(url: string, init?: RequestInit): Promise<Response>;
  /** How often the precache is looked in (ms). */
  lookMs: number;
  /**
   * How long the precache's copy is waited for before the file is downloaded too (ms): an
   * install stalled on a dead connection ends only when the browser gives up on it (Chromium:
   * 5 minutes; the spec sets no limit), and the reader must not wait on it that long.
   */
  patienceMs: number;
}

/**
 * The file at `url`: from the precache as soon as the install puts it there; downloaded when the
 * install ends without it, or, once `patienceMs` have passed, downloaded as well, the first
 * whole copy winning (the download is dropped if the precache's comes first). At worst the file
 * goes down the line twice, as it did before the reader waited on the install; never a hang
 * longer than the patience and one download. Without a fill, a plain fetch.
 */
export async function fetchShipped(url: string, fill: PrecacheFill | null, io: ShippedFetch): Promise<Response> {
  if (!fill) return io.fetch(url);
  let stopped = false;
  let ended = false;
  void fill.ended.then(() => (ended = true));
  const look = async (): Promise<Response | undefined> => {
    try {
      return await io.match(url);
    } catch {
      return undefined;
    }
  };
  // the precache's copy, or null when the install ended without it (or the wait was given up)
  const fromPrecache = (async (): Promise<Response | null> => {
    while (!stopped) {
      const cached = await look();
      if (cached) return cached;
      if (ended) return null;
      await Promise.race([fill.ended, new Promise((resolve) => setTimeout(resolve, io.lookMs))]);
    }
    return null;
  })();

  let patience: ReturnType<typeof setTimeout> | undefined;
  const waited = await Promise.race([fromPrecache, new Promise<'impatient'>((resolve) => (patience = setTimeout(() => resolve('impatient'), io.patienceMs)))]);
  clearTimeout(patience);
  if (waited instanceof Response) return waited;
  if (waited === null) return io.fetch(url);

  // Waited too long: download it too, whole, and take whichever copy is complete first.
  const own = new AbortController();
  const downloaded = io.fetch(url, { signal: own.signal }).then(async (response) => {
    if (!response.ok) return response;
    const body = await response.arrayBuffer();
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  });
  downloaded.catch(() => undefined);
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    const win = (response: Response): void => {
      if (settled) return;
      settled = true;
      stopped = true;
      own.abort(); // nothing to stop once the download is whole
      resolve(response);
    };
    downloaded.then(
      (response) => {
        if (response.ok) return win(response);
        // an error from the server while the install still runs: the precache's copy may still come
        void fromPrecache.then((cached) => win(cached ?? response));
      },
      () => void fromPrecache.then((cached) => (cached ? win(cached) : io.fetch(url).then(win, reject))),
    );
    void fromPrecache.then((cached) => {
      if (cached) win(cached);
    });
  });
}
