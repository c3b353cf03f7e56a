/**
 * A file the service worker precached damaged: a host that once answered with a cut-off `.gz`,
 * an error page or a proxy's garbage, with status 200. Workbox serves its precache cache-first
 * and never looks at it again until the next app update, so the dice reader would fail on every
 * start until then. The reader's worker, which finds the damage (it inflates the wasm, loads the
 * models), downloads the file once more past the service worker, checks that copy, and puts it
 * in the precache in place of the damaged one; the same start then goes on with it. Kept apart
 * from the worker, which cannot be loaded in a unit test.
 */

/** A file that came back whole from where it was asked for, but is not what the app shipped. */
export class DamagedFileError extends Error {
  override name = 'DamagedFileError';
}

/** Workbox's precache caches: `workbox-precache-v2-<scope>` (workbox-core `cacheNames.precache`). */
const PRECACHE_CACHE = /^workbox-precache-v2-/;

/**
 * The key `url` is precached under among `keys`: the URL itself for an unrevisioned entry (the
 * hashed assets, the models by version), else the URL with Workbox's `__WB_REVISION__` param.
 */
export function precacheKeyFor(keys: readonly string[], url: string): string | undefined {
  if (keys.includes(url)) return url;
  return keys.find((key) => {
    const bare = new URL(key);
    if (!bare.searchParams.has('__WB_REVISION__')) return false;
    bare.searchParams.delete('__WB_REVISION__');
    return bare.href === url;
  });
}

/**
 * `url` as asked for past the service worker: with a search param that no route of src/sw.ts
 * matches (the precache's route matches its entries' URLs exactly, and a request the service
 * worker has no route for goes to the network), which a static host ignores. From the reader's
 * worker every `fetch` passes through the service worker, `cache: 'reload'` included.
 */
export function pastServiceWorker(url: string): string {
  const fresh = new URL(url);
  fresh.searchParams.set('rollcall-refetch', '1');
  return fresh.href;
}

/** What `refetchDamaged` needs of the browser: Cache Storage and the network. */
export interface HealIO {
  /** `caches.keys()`; may be missing or throw (private modes): then nothing is healed. */
  cacheNames(): Promise<string[]>;
  open(name: string): Promise<Pick<Cache, 'keys' | 'match' | 'put'>>;
  fetch(url: string, init: RequestInit): Promise<Response>;
}

const said = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * `damage`, found in the copy of `url` the reader was given, healed where that copy is the
 * precache's: the file is downloaded once past the service worker and the HTTP cache,
 * `verify`'s check is made of it (it throws, in words, where the network's copy is bad too), and
 * the checked copy put in every precache that held `url`, under its key; what `verify` made of
 * it is returned. Rethrows `damage` where no precache holds `url` (the damage was the
 * network's, and is said as it is); where the download fails (offline) or is refused, says the
 * file is damaged and will be downloaded again: the damaged copy stays, to be found and healed
 * at the next start online. One download per call: the caller calls it once per file and start.
 */
export async function refetchDamaged<T>(url: string, damage: unknown, verify: (response: Response) => Promise<T>, io: HealIO): Promise<T> {
  const holding: { cache: Pick<Cache, 'keys' | 'match' | 'put'>; key: string }[] = [];
  try {
    for (const name of (await io.cacheNames()).filter((n) => PRECACHE_CACHE.test(n))) {
      const cache = await io.open(name);
      const key = precacheKeyFor((await cache.keys()).map((k) => k.url), url);
      if (key) holding.push({ cache, key });
    }
  } catch {
    // Cache Storage unreadable: nothing can be healed, the damage is said as it is
  }
  if (holding.length === 0) throw damage;
  let response: Response;
  try {
    response = await io.fetch(pastServiceWorker(url), { cache: 'no-store' });
  } catch {
    throw new DamagedFileError(`${said(damage)}; it will be downloaded again when the camera next starts online`);
  }
  if (!response.ok) throw new DamagedFileError(`${said(damage)}; downloading it again failed (${response.status} ${response.statusText})`);
  // one read of the body, for both the check and the precache (a Blob is not copied)
  const body = await response.blob();
  const init = { status: response.status, statusText: response.statusText, headers: response.headers };
  const verified = await verify(new Response(body, init));
  for (const { cache, key } of holding) {
    // not put back where the entry went meanwhile (an update's service worker activated and
    // dropped it: its manifest no longer lists it); not kept (storage full): this start goes on
    // with the good copy all the same
    const still = await cache.match(key).catch(() => undefined);
    if (still) await cache.put(key, new Response(body, init)).catch(() => undefined);
  }
  return verified;
}
