/**
 * How far a first visit's download of the dice reader's files has got: the first service worker
 * counts each of them as its precache downloads it (src/sw.ts) and tells the pages, and the table
 * and the Camera check say how much of what their first read needs has come (dice-reader.ts
 * `watchReaderDownload`, app/readerSlow.ts). Shared by the service worker and the page: no DOM, no worker.
 */
import { isWasm, ORT_WASM_GZ_PATH } from './ort-wasm.ts';

/** The gzipped wasm's name in `__FIRST_READ_BYTES__`: the build names its file with a hash. */
export const ORT_WASM_GZ_FILE = 'ort-wasm-simd-threaded.wasm.gz';

/**
 * The reader's file at `url` by its name in `__FIRST_READ_BYTES__` (onnxruntime's gzipped wasm
 * or a shipped model), null for any other file.
 */
export function readerFileName(url: string): string | null {
  const path = new URL(url, 'http://localhost/').pathname;
  if (ORT_WASM_GZ_PATH.test(path)) return ORT_WASM_GZ_FILE;
  return /\/models\/([\w.-]+\.onnx)$/.exec(path)?.[1] ?? null;
}

/** One reader file's precache download, as the service worker counts it. */
export interface ReaderFileDownload {
  /** `readerFileName` */
  file: string;
  /**
   * Body bytes landed so far. A host that compresses a file itself (`Content-Encoding`) has the
   * browser decode it: the body is the file as shipped all the same, except the gzipped wasm, sent
   * with `Content-Encoding: gzip`: then it is the wasm inflated (`inflated`).
   */
  bytes: number;
  /** The gzipped wasm came inflated: its body is the plain wasm, not the bytes shipped. */
  inflated: boolean;
  /** Landed whole. */
  done: boolean;
}

/** The service worker to the pages: every reader file its install has downloaded, or begun to. */
export interface ReaderDownloadMessage {
  type: 'reader-download';
  files: ReaderFileDownload[];
}

/** A page to the installing service worker: answer with a `ReaderDownloadMessage` now (a page loaded mid-download). */
export const ASK_READER_DOWNLOAD = 'ASK_READER_DOWNLOAD';

export function isReaderDownloadMessage(data: unknown): data is ReaderDownloadMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'reader-download' && Array.isArray((data as { files?: unknown }).files);
}

/**
 * The service worker's count of the reader files' downloads. A page is told at most every
 * `reportEveryMs` while bytes land (a message per chunk would be hundreds a second on a fast
 * line), and always when a file lands whole, so the last figure is never left behind.
 */
export class ReaderDownloadTally {
  private readonly downloads = new Map<string, ReaderFileDownload>();
  private reportedAt = -Infinity;

  constructor(private readonly reportEveryMs: number) {}

  /** A download of `file` begins (again, after a failed one: counted anew). */
  started(file: string): void {
    this.downloads.set(file, { file, bytes: 0, inflated: false, done: false });
  }

  /**
   * `chunk`, the next of `file`'s body, landed at `now` (ms, a monotonic clock: `performance.now()`,
   * as a phone's clock stepped back mid-download would stop the progress): whether to tell the pages now.
   */
  received(file: string, chunk: Uint8Array, now: number): boolean {
    const download = this.downloads.get(file);
    if (!download) return false;
    // the bytes tell, not the headers (as the reader's worker tells, ort-wasm.ts)
    if (download.bytes === 0 && file.endsWith('.gz')) download.inflated = isWasm(chunk);
    download.bytes += chunk.byteLength;
    if (now - this.reportedAt < this.reportEveryMs) return false;
    this.reportedAt = now;
    return true;
  }

  /** `file` landed whole at `now`: tell the pages. */
  finished(file: string, now: number): void {
    const download = this.downloads.get(file);
    if (download) download.done = true;
    this.reportedAt = now;
  }

  message(): ReaderDownloadMessage {
    return { type: 'reader-download', files: [...this.downloads.values()].map((d) => ({ ...d })) };
  }
}

/**
 * How many of the bytes in `sizes` (each file's size as shipped, `__FIRST_READ_BYTES__`) have
 * come down: each file's share of its body landed, at most all of it. An inflated file's share is
 * of `inflatedSizes` (the plain wasm); one of unknown size counts once it landed whole. So the
 * figure never passes the total, and never goes back.
 */
export function shippedBytesDownloaded(
  downloads: readonly ReaderFileDownload[],
  sizes: Readonly<Record<string, number>>,
  inflatedSizes: Readonly<Record<string, number>>,
): number {
  let downloaded = 0;
  for (const [file, size] of Object.entries(sizes)) {
    const download = downloads.find((d) => d.file === file);
    if (!download) continue;
    const body = download.inflated ? inflatedSizes[file] : size;
    downloaded += download.done ? size : body ? Math.floor(size * Math.min(1, download.bytes / body)) : 0;
  }
  return downloaded;
}

/** Megabytes to a tenth, as the table says a download's size: "5.4". */
export const megabytes = (bytes: number): string => (Math.round(bytes / 1e5) / 10).toFixed(1);

/**
 * "2.1 of 5.4 MB": megabytes to a tenth, what came rounded down and never shown as the total
 * until it is all there. A no-break space holds "MB" to its figure where the sentence wraps.
 */
export function megabytesOf(downloaded: number, total: number): string {
  const totalTenths = Math.round(total / 1e5);
  const downloadedTenths = downloaded >= total ? totalTenths : Math.max(0, Math.min(Math.floor(downloaded / 1e5), totalTenths - 1));
  return `${(downloadedTenths / 10).toFixed(1)} of ${megabytes(total)}\u00a0MB`;
}
