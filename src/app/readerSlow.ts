/**
 * A dice reader slow to start says so: on the table (`TableCamera`) and on the Camera check alike,
 * after the same wait and in the same words, with how far a first visit's download has got.
 * onnxruntime compiling and the models loading take seconds on a slow phone, and "Starting the
 * dice reader…" alone, unchanged that long, reads as stuck.
 */
import { watchReaderDownload } from '../lib/vision/dice-reader.ts';
import { megabytes, megabytesOf, shippedBytesDownloaded, type ReaderFileDownload } from '../lib/vision/reader-download.ts';

/** How long a dice reader starts before it is said to be still starting. */
export const READER_SLOW_MS = 4000;

/** What is said of a reader starting for READER_SLOW_MS (its files downloaded, or none to download). */
const READER_STILL_STARTING = 'Still starting the dice reader…';

/**
 * Why a starting reader is not ready yet. `firstVisit`: no service worker serves the page yet, so
 * its files come down the line; `downloads`, the first install's count of them
 * (`watchReaderDownload`), null while not counted (no such install, or it failed).
 */
export type ReaderSlow = { firstVisit: false } | { firstVisit: true; downloads: ReaderFileDownload[] | null };

/**
 * Watches a reader starting: `onSlow` at once on a first visit (said after READER_SLOW_MS, the
 * table's sentence pushed the dice pad down under a finger already entering the first roll), and
 * again at each new count of the download; else once, after READER_SLOW_MS. Returns a function
 * that stops the watch, to call once the reader has started or failed.
 */
export function watchReaderSlow(onSlow: (slow: ReaderSlow) => void): () => void {
  if (!servedWithoutWorker()) {
    const timer = setTimeout(() => onSlow({ firstVisit: false }), READER_SLOW_MS);
    return () => clearTimeout(timer);
  }
  onSlow({ firstVisit: true, downloads: null });
  return watchReaderDownload((downloads) => onSlow({ firstVisit: true, downloads }));
}

/**
 * What is said of a reader slow to start (`watchReaderSlow`): the download and how far it has got
 * of what the first read needs (`readsPips`: pip dice; other kits load the face model and the
 * symbol detector as well), or, all downloaded or none to, that it is still starting.
 */
export function readerSlowSentence(slow: ReaderSlow, readsPips: boolean): string {
  if (!slow.firstVisit) return READER_STILL_STARTING;
  const sizes = readsPips ? __FIRST_READ_BYTES__.pips : __FIRST_READ_BYTES__.symbols;
  const total = Object.values(sizes).reduce((sum, bytes) => sum + bytes, 0);
  if (slow.downloads === null) return `Downloading the dice reader (${megabytes(total)}\u00a0MB, on a first visit only)…`;
  const downloaded = shippedBytesDownloaded(slow.downloads, sizes, __FIRST_READ_BYTES__.inflated);
  // all downloaded: onnxruntime compiles, the models load
  return downloaded < total ? `Downloading the dice reader: ${megabytesOf(downloaded, total)} (on a first visit only)…` : READER_STILL_STARTING;
}

/** No service worker serves the page yet: the reader's files come down the line. */
function servedWithoutWorker(): boolean {
  try {
    return 'serviceWorker' in navigator && navigator.serviceWorker.controller === null;
  } catch {
    // Firefox throws on touching it where the player keeps no site data (dice-reader.ts `watchFirstInstall`)
    return false;
  }
}
