import { describe, expect, it } from 'vitest';
import { fetchShipped, type ShippedFetch } from '../../src/lib/vision/precache-fill.ts';

const URL_ = 'http://app.test/assets/ort.wasm';

/** An install the test ends by hand, a precache it fills by hand, a network it answers by hand. */
function rig(options: { patienceMs?: number; matchThrows?: boolean } = {}) {
  let end!: () => void;
  const fill = { ended: new Promise<void>((resolve) => (end = resolve)) };
  let cached: Response | undefined;
  const fetches: { init?: RequestInit; answer: (r: Response) => void; fail: (e: Error) => void }[] = [];
  const io: ShippedFetch = {
    match: async () => {
      if (options.matchThrows) throw new DOMException('The operation is insecure.', 'SecurityError');
      return cached;
    },
    fetch: (_url, init) => new Promise<Response>((answer, fail) => fetches.push({ init, answer, fail })),
    lookMs: 5,
    patienceMs: options.patienceMs ?? 10_000,
  };
  /** The reader's download, the only one: it must have started. */
  const download = () => {
    expect(fetches).toHaveLength(1);
    const first = fetches[0];
    if (!first) throw new Error('no download');
    return first;
  };
  return { fill, io, fetches, download, end, land: (body: string) => (cached = new Response(body)) };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a shipped file while the first install fills the precache', () => {
  it('is taken from the precache once it lands there, not downloaded', async () => {
    const r = rig();
    const got = fetchShipped(URL_, r.fill, r.io);
    await tick(30);
    r.land('from the precache');
    expect(await (await got).text()).toBe('from the precache');
    expect(r.fetches).toHaveLength(0);
  });

  it('is downloaded when the install ends without it', async () => {
    const r = rig();
    const got = fetchShipped(URL_, r.fill, r.io);
    await tick(20);
    r.end();
    await tick(20);
    expect(r.fetches).toHaveLength(1);
    r.download().answer(new Response('from the line'));
    expect(await (await got).text()).toBe('from the line');
  });

  it('is downloaded as well when the install stalls past the patience, the first whole copy winning', async () => {
    const r = rig({ patienceMs: 40 });
    const got = fetchShipped(URL_, r.fill, r.io);
    await tick(20);
    expect(r.fetches).toHaveLength(0);
    await tick(60);
    // the install never ends, never lands the file: the reader is not left waiting on it
    expect(r.fetches).toHaveLength(1);
    r.download().answer(new Response('from the line'));
    expect(await (await got).text()).toBe('from the line');
  });

  it('drops its own download when the precache copy lands first after all', async () => {
    const r = rig({ patienceMs: 20 });
    const got = fetchShipped(URL_, r.fill, r.io);
    await tick(50);
    expect(r.fetches).toHaveLength(1);
    const signal = r.download().init?.signal;
    r.land('from the precache');
    expect(await (await got).text()).toBe('from the precache');
    expect(signal?.aborted).toBe(true);
  });

  it('looks past a precache that throws (private modes) and downloads once the install ends', async () => {
    const r = rig({ matchThrows: true });
    const got = fetchShipped(URL_, r.fill, r.io);
    await tick(20);
    r.end();
    await tick(20);
    r.download().answer(new Response('from the line'));
    expect(await (await got).text()).toBe('from the line');
  });

  it('is a plain download when no install is filling the precache', async () => {
    const r = rig();
    const got = fetchShipped(URL_, null, r.io);
    expect(r.fetches).toHaveLength(1);
    r.download().answer(new Response('from the line'));
    expect(await (await got).text()).toBe('from the line');
  });
});
