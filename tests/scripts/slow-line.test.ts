import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { slowLine, type SlowLine } from '../../scripts/lib/slow-line.ts';

let upstream: Server | undefined;
let line: SlowLine | undefined;
afterEach(async () => {
  await line?.close();
  upstream?.close();
});

async function behind(handler: Parameters<typeof createServer>[1]): Promise<string> {
  upstream = createServer(handler);
  await new Promise<void>((ok) => upstream?.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`;
}

describe('the slow line', () => {
  it('hangs up on the browser when the server behind dies mid-body, rather than leaving the download open', async () => {
    const url = await behind((_req, res) => {
      res.writeHead(200, { 'Content-Length': 2_000_000 });
      res.write(Buffer.alloc(100_000, 1));
      setTimeout(() => res.socket?.destroy(), 50);
    });
    line = await slowLine(url, { bytesPerSecond: 10_000_000, roundTripMs: 1 });
    const response = await fetch(`${line.url}big`);
    await expect(response.arrayBuffer()).rejects.toThrow();
    expect(line.served).toMatchObject([{ path: '/big', status: 200, bytes: 100_000 }]);
  }, 10_000);

  it('shares its downlink: two downloads at once take as long as both one after the other', async () => {
    const body = Buffer.alloc(200_000, 1);
    const url = await behind((_req, res) => res.writeHead(200, { 'Content-Length': body.length }).end(body));
    line = await slowLine(url, { bytesPerSecond: 1_000_000, roundTripMs: 1 });
    const t0 = performance.now();
    const ends = await Promise.all(['a', 'b'].map(async (name) => {
      await (await fetch(`${line?.url}${name}`)).arrayBuffer();
      return performance.now() - t0;
    }));
    // 400 KB at 1 MB/s: about 400 ms for the pair, each finishing near the end (interleaved, not one after the other)
    expect(Math.max(...ends)).toBeGreaterThan(350);
    expect(Math.min(...ends)).toBeGreaterThan(300);
    expect(line.downloads(/^\/[ab]$/)).toBe(2);
  });
});
