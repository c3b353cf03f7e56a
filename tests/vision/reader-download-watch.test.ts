/**
 * The table's watch on the first install's download of the reader's files (dice-reader.ts
 * `watchReaderDownload`): it asks the installing service worker how far it has got and hears
 * its counts, stops hearing them when the table stops it, and says there is no count when the
 * install fails or when the worker installing is an update's (src/sw.ts counts the first install
 * only). A fake service worker container stands in for the browser's.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchReaderDownload } from '../../src/lib/vision/dice-reader.ts';
import { ASK_READER_DOWNLOAD, type ReaderDownloadMessage, type ReaderFileDownload } from '../../src/lib/vision/reader-download.ts';

class FakeServiceWorker extends EventTarget {
  state: ServiceWorkerState = 'installing';
  posted: unknown[] = [];
  postMessage(message: unknown): void {
    this.posted.push(message);
  }
  becomes(state: ServiceWorkerState): void {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeContainer extends EventTarget {
  controller: ServiceWorker | null = null;
  constructor(private readonly registration: { installing: FakeServiceWorker | null; active: FakeServiceWorker | null }) {
    super();
  }
  getRegistration(): Promise<unknown> {
    return Promise.resolve(this.registration);
  }
  startMessages(): void {}
  tell(files: ReaderFileDownload[]): void {
    const data: ReaderDownloadMessage = { type: 'reader-download', files };
    this.dispatchEvent(new MessageEvent('message', { data }));
  }
}

const FILES: ReaderFileDownload[] = [{ file: 'dice-pips.onnx', bytes: 1000, inflated: false, done: false }];

function pageWith(registration: { installing: FakeServiceWorker | null; active: FakeServiceWorker | null }): FakeContainer {
  const container = new FakeContainer(registration);
  vi.stubGlobal('caches', {});
  vi.stubGlobal('navigator', { serviceWorker: container });
  return container;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the table's watch on the first install's download", () => {
  it('asks the first install how far it has got, hears its counts, and nothing once stopped', async () => {
    const installing = new FakeServiceWorker();
    const container = pageWith({ installing, active: null });
    const heard: (ReaderFileDownload[] | null)[] = [];
    const stop = watchReaderDownload((downloads) => heard.push(downloads));
    await vi.waitFor(() => expect(installing.posted).toEqual([{ type: ASK_READER_DOWNLOAD }]));
    container.tell(FILES);
    expect(heard).toEqual([FILES]);
    stop();
    container.tell(FILES);
    expect(heard).toEqual([FILES]);
  });

  it('says there is no count once the first install failed', async () => {
    const installing = new FakeServiceWorker();
    const container = pageWith({ installing, active: null });
    const heard: (ReaderFileDownload[] | null)[] = [];
    watchReaderDownload((downloads) => heard.push(downloads));
    await vi.waitFor(() => expect(installing.posted).toHaveLength(1));
    installing.becomes('redundant');
    expect(heard).toEqual([null]);
    container.tell(FILES);
    expect(heard).toEqual([null]);
  });

  it("asks nothing of an update's install on a page no worker controls (a hard reload), and says there is no count", async () => {
    // src/sw.ts counts the first install's downloads only: the update would answer with no file
    // at all, and the table would say "0.0 of 5.4 MB" for as long as the reader starts
    const installing = new FakeServiceWorker();
    const container = pageWith({ installing, active: new FakeServiceWorker() });
    const heard: (ReaderFileDownload[] | null)[] = [];
    watchReaderDownload((downloads) => heard.push(downloads));
    await vi.waitFor(() => expect(heard).toEqual([null]));
    expect(installing.posted).toEqual([]);
    container.tell([]);
    expect(heard).toEqual([null]);
  });
});
