/**
 * A slow mobile line in front of a local server, for measuring and testing a first visit as a
 * phone at a table makes it: an HTTP proxy whose responses share one downlink of
 * `bytesPerSecond` (every download at once divides it, as on a real line) and wait
 * `roundTripMs` before their first byte. It records what it served, so a test can count how
 * often a file went down the line.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';

export interface SlowLineOptions {
  /** The downlink all responses share, in bytes a second. */
  bytesPerSecond: number;
  /** Added before each response starts (ms). */
  roundTripMs: number;
  /**
   * Answers a request itself instead of the server behind (a fault to test with): a status code,
   * or null to pass it on. Called with the path and how many times that path was asked for before.
   */
  fault?: (path: string, earlierRequests: number) => number | null;
  /**
   * Holds a request back until the promise returned settles (a test's way to keep a download
   * running until it has looked at the page), or null to pass it on at once.
   */
  hold?: (path: string) => Promise<void> | null;
}

export interface ServedFile {
  path: string;
  status: number;
  /** Body bytes sent down the line (the whole file unless the browser hung up). */
  bytes: number;
  /** Whether the response was compressed by the server behind (its content-encoding). */
  encoding: string | null;
}

export interface SlowLine {
  url: string;
  /** Every response, in the order they started. */
  served: ServedFile[];
  /** How many responses for `path` carried a body of status 200. */
  downloads(path: RegExp): number;
  close(): Promise<void>;
}

/** Chunks go down the line at most this large, so that concurrent downloads interleave fairly. */
const SLICE = 16 * 1024;

/** The shared downlink: each slice waits for its turn, first come first served. */
class Downlink {
  private freeAt = 0;
  constructor(private readonly bytesPerSecond: number) {}

  /** Resolves when `bytes` have gone down the line after everything asked for before. */
  send(bytes: number): Promise<void> {
    const now = performance.now();
    this.freeAt = Math.max(now, this.freeAt) + (bytes / this.bytesPerSecond) * 1000;
    return new Promise((resolve) => setTimeout(resolve, this.freeAt - now));
  }
}

function throttled(line: Downlink, counted: ServedFile): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      void (async () => {
        for (let at = 0; at < chunk.byteLength; at += SLICE) {
          const slice = chunk.subarray(at, at + SLICE);
          await line.send(slice.byteLength);
          counted.bytes += slice.byteLength;
          this.push(slice);
        }
        done();
      })();
    },
  });
}

/** Starts the slow line in front of `upstream` (an http://host:port URL) on a free local port. */
export async function slowLine(upstream: string, options: SlowLineOptions): Promise<SlowLine> {
  const target = new URL(upstream);
  const line = new Downlink(options.bytesPerSecond);
  const served: ServedFile[] = [];
  const asked = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const earlier = asked.get(path) ?? 0;
    asked.set(path, earlier + 1);
    const held = options.hold?.(path) ?? null;
    const start = (): void => {
      const faultStatus = options.fault?.(path, earlier) ?? null;
      if (faultStatus !== null) {
        served.push({ path, status: faultStatus, bytes: 0, encoding: null });
        res.writeHead(faultStatus, { 'Content-Type': 'text/plain' }).end();
        return;
      }
      const headers: IncomingHttpHeaders = { ...req.headers, host: target.host };
      const forward = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
        const counted: ServedFile = { path, status: answer.statusCode ?? 0, bytes: 0, encoding: answer.headers['content-encoding'] ?? null };
        served.push(counted);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(throttled(line, counted)).pipe(res);
        res.on('close', () => answer.destroy());
        // the server behind hung up mid-body: so does the line (an unhandled 'error' would end the test run)
        answer.on('error', () => res.destroy());
      });
      // a 502 while nothing was sent yet; after the headers, only hanging up is left
      forward.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
      req.pipe(forward);
    };
    const roundTrip = (): void => void setTimeout(start, options.roundTripMs);
    if (held) void held.then(roundTrip, roundTrip);
    else roundTrip();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    served,
    downloads: (pattern) => served.filter((f) => f.status === 200 && f.bytes > 0 && pattern.test(f.path)).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
