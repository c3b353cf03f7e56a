import { describe, expect, it } from 'vitest';
import { DamagedFileError, pastServiceWorker, precacheKeyFor, refetchDamaged, type HealIO } from '../../src/lib/vision/precache-heal.ts';

const GZ = 'http://app.test/assets/ort-wasm-simd-threaded-X.wasm.gz';
const PRECACHE = 'workbox-precache-v2-http://app.test/';

/** Cache Storage as a Map of caches, each a Map of URL to body; the network answers `network`. */
function rig(network: () => Promise<Response>, caches: Record<string, Record<string, string>> = { [PRECACHE]: { [GZ]: 'damaged' } }) {
  const stored = new Map(Object.entries(caches).map(([name, entries]) => [name, new Map(Object.entries(entries).map(([u, b]) => [u, new Response(b)]))]));
  const fetched: { url: string; init: RequestInit }[] = [];
  const io: HealIO = {
    cacheNames: async () => [...stored.keys()],
    open: async (name) => {
      const cache = stored.get(name)!;
      return {
        keys: async () => [...cache.keys()].map((u) => new Request(u)),
        match: async (key: RequestInfo | URL) => cache.get(String(key)),
        delete: async (key: RequestInfo | URL) => cache.delete(String(key)),
        put: async (key: RequestInfo | URL, response: Response) => void cache.set(String(key), response),
      } as unknown as Cache;
    },
    fetch: (url, init) => {
      fetched.push({ url, init });
      return network();
    },
  };
  const text = (name: string, url: string) => stored.get(name)!.get(url)!.clone().text();
  return { io, fetched, text, stored };
}

const damage = new DamagedFileError(`onnxruntime's wasm at ${GZ} is damaged (Compressed input was truncated)`);
const good = async (response: Response): Promise<string> => {
  const body = await response.text();
  if (body !== 'good') throw new DamagedFileError(`onnxruntime's wasm at ${GZ} is damaged (network's too)`);
  return body.toUpperCase();
};

describe("a damaged file in the service worker's precache", () => {
  it('is found under its URL, or under the URL with Workbox\'s revision', () => {
    expect(precacheKeyFor(['http://app.test/a.js', GZ], GZ)).toBe(GZ);
    expect(precacheKeyFor(['http://app.test/index.html?__WB_REVISION__=abc'], 'http://app.test/index.html')).toBe('http://app.test/index.html?__WB_REVISION__=abc');
    expect(precacheKeyFor(['http://app.test/models/m.onnx?v=1'], 'http://app.test/models/m.onnx?v=2')).toBeUndefined();
  });

  it('is downloaded again past the service worker (a param no route matches) and the HTTP cache', () => {
    expect(pastServiceWorker('http://app.test/models/m.onnx?v=1')).toBe('http://app.test/models/m.onnx?v=1&rollcall-refetch=1');
  });

  it('is replaced by the network\'s copy once checked, under its key, and the check\'s result returned', async () => {
    const r = rig(async () => new Response('good', { headers: { 'Content-Type': 'application/gzip' } }));
    expect(await refetchDamaged(GZ, damage, good, r.io)).toBe('GOOD');
    expect(r.fetched).toEqual([{ url: `${GZ}?rollcall-refetch=1`, init: { cache: 'no-store' } }]);
    expect(await r.text(PRECACHE, GZ)).toBe('good');
  });

  it('is not put back where its entry went while it downloaded (an update dropped it)', async () => {
    const r: ReturnType<typeof rig> = rig(async () => {
      r.stored.get(PRECACHE)!.delete(GZ);
      return new Response('good');
    });
    expect(await refetchDamaged(GZ, damage, good, r.io)).toBe('GOOD');
    expect(r.stored.get(PRECACHE)!.has(GZ)).toBe(false);
  });

  it('is said as it is where no precache holds it (the network sent it so), downloading nothing', async () => {
    const r = rig(async () => new Response('good'), { [PRECACHE]: { 'http://app.test/other.js': 'x' }, 'rollcall-ort-wasm': { [GZ]: 'damaged' } });
    await expect(refetchDamaged(GZ, damage, good, r.io)).rejects.toBe(damage);
    expect(r.fetched).toEqual([]);
  });

  it('offline: is said to be damaged and to be downloaded again once online, and stays to be found again', async () => {
    const r = rig(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(refetchDamaged(GZ, damage, good, r.io)).rejects.toThrow(`${damage.message}; it will be downloaded again when the camera next starts online`);
    expect(r.fetched).toHaveLength(1);
    expect(await r.text(PRECACHE, GZ)).toBe('damaged');
  });

  it('the network\'s copy bad too: the check\'s words, nothing put back; a refusal said with its status', async () => {
    const bad = rig(async () => new Response('also damaged'));
    await expect(refetchDamaged(GZ, damage, good, bad.io)).rejects.toThrow('(network\'s too)');
    expect(await bad.text(PRECACHE, GZ)).toBe('damaged');
    const gone = rig(async () => new Response('', { status: 404, statusText: 'Not Found' }));
    await expect(refetchDamaged(GZ, damage, good, gone.io)).rejects.toThrow(`${damage.message}; downloading it again failed (404 Not Found)`);
  });

  it('Cache Storage unreadable (private modes): said as it is', async () => {
    const r = rig(async () => new Response('good'));
    r.io.cacheNames = () => Promise.reject(new DOMException('The operation is insecure.', 'SecurityError'));
    await expect(refetchDamaged(GZ, damage, good, r.io)).rejects.toBe(damage);
  });
});
