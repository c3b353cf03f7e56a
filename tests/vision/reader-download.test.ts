import { describe, expect, it } from 'vitest';
import { isReaderDownloadMessage, megabytesOf, ORT_WASM_GZ_FILE, ReaderDownloadTally, readerFileName, shippedBytesDownloaded } from '../../src/lib/vision/reader-download.ts';

const SIZES = { [ORT_WASM_GZ_FILE]: 3_700_000, 'dice-pips.onnx': 1_067_345, 'die-face.onnx': 602_554 };
const TOTAL = 3_700_000 + 1_067_345 + 602_554;
/** The plain wasm: the gzipped one's body when a host sends it with Content-Encoding: gzip. */
const INFLATED: Record<string, number> = { [ORT_WASM_GZ_FILE]: 14_800_000 };
/** A body's chunk of `bytes` bytes beginning with `head`. */
const chunk = (bytes: number, head: number[] = []): Uint8Array => Uint8Array.from({ length: bytes }, (_, i) => head[i] ?? 0);
const GZIP = [0x1f, 0x8b, 0x08];
const WASM = [0x00, 0x61, 0x73, 0x6d];

describe("the first install's download of the reader's files", () => {
  it('names the reader files by their names in __FIRST_READ_BYTES__, and nothing else', () => {
    expect(readerFileName('http://app.test/assets/ort-wasm-simd-threaded-B1x_9-zQ.wasm.gz')).toBe(ORT_WASM_GZ_FILE);
    expect(readerFileName('http://app.test/rollcall/models/dice-pips.onnx?v=0123456789abcdef')).toBe('dice-pips.onnx');
    expect(readerFileName('http://app.test/assets/ort-wasm-simd-threaded-B1x_9-zQ.wasm')).toBeNull();
    expect(readerFileName('http://app.test/models/dice-pips.json')).toBeNull();
    expect(readerFileName('http://app.test/assets/index-BhmbTyPg.js')).toBeNull();
  });

  it('tells the pages at most every 250 ms while bytes land, and always when a file lands whole', () => {
    const tally = new ReaderDownloadTally(250);
    tally.started(ORT_WASM_GZ_FILE);
    expect(tally.received(ORT_WASM_GZ_FILE, chunk(65_536, GZIP), 1000)).toBe(true);
    expect(tally.received(ORT_WASM_GZ_FILE, chunk(65_536), 1100)).toBe(false);
    expect(tally.received(ORT_WASM_GZ_FILE, chunk(65_536), 1249)).toBe(false);
    expect(tally.received(ORT_WASM_GZ_FILE, chunk(65_536), 1250)).toBe(true);
    tally.finished(ORT_WASM_GZ_FILE, 1300);
    tally.started('dice-pips.onnx');
    // the count after the file that landed whole waits its turn as well
    expect(tally.received('dice-pips.onnx', chunk(1000), 1400)).toBe(false);
    const message = tally.message();
    expect(isReaderDownloadMessage(message)).toBe(true);
    expect(message.files).toEqual([
      { file: ORT_WASM_GZ_FILE, bytes: 4 * 65_536, inflated: false, done: true },
      { file: 'dice-pips.onnx', bytes: 1000, inflated: false, done: false },
    ]);
    // a copy: later bytes do not change a message already sent
    tally.received('dice-pips.onnx', chunk(1000), 2000);
    expect(message.files[1]?.bytes).toBe(1000);
  });

  it('tells the gzipped wasm inflated by the browser by its bytes, whatever the headers said', () => {
    const tally = new ReaderDownloadTally(250);
    tally.started(ORT_WASM_GZ_FILE);
    tally.received(ORT_WASM_GZ_FILE, chunk(100, WASM), 0);
    // later chunks say nothing of the body's kind
    tally.received(ORT_WASM_GZ_FILE, chunk(100, GZIP), 0);
    tally.started('die-face.onnx');
    tally.received('die-face.onnx', chunk(100, WASM), 0);
    expect(tally.message().files.map((d) => [d.file, d.inflated])).toEqual([
      [ORT_WASM_GZ_FILE, true],
      ['die-face.onnx', false],
    ]);
  });

  it('counts the bytes as shipped, never past a file or the total, and what the kit does not need not at all', () => {
    expect(shippedBytesDownloaded([], SIZES, INFLATED)).toBe(0);
    expect(
      shippedBytesDownloaded(
        [
          { file: ORT_WASM_GZ_FILE, bytes: 3_700_000, inflated: false, done: true },
          { file: 'dice-pips.onnx', bytes: 500_000, inflated: false, done: false },
          { file: 'face-embed.onnx', bytes: 2_000_000, inflated: false, done: false },
        ],
        SIZES,
        INFLATED,
      ),
    ).toBe(4_200_000);
    // a host serving another build's bigger file
    expect(shippedBytesDownloaded([{ file: 'die-face.onnx', bytes: 9_000_000, inflated: false, done: false }], SIZES, INFLATED)).toBe(602_554);
  });

  it('counts the gzipped wasm inflated by the browser as its share of the plain wasm: never 14.8 of 5.4 MB', () => {
    const inflating = { file: ORT_WASM_GZ_FILE, bytes: 7_400_000, inflated: true, done: false };
    expect(shippedBytesDownloaded([inflating], SIZES, INFLATED)).toBe(1_850_000);
    expect(shippedBytesDownloaded([{ ...inflating, bytes: 14_800_000 }], SIZES, INFLATED)).toBe(3_700_000);
    expect(shippedBytesDownloaded([{ ...inflating, bytes: 14_800_000, done: true }], SIZES, INFLATED)).toBe(3_700_000);
    // a build that did not say how big the plain wasm is: counted once whole
    expect(shippedBytesDownloaded([inflating], SIZES, {})).toBe(0);
    expect(shippedBytesDownloaded([{ ...inflating, done: true }], SIZES, {})).toBe(3_700_000);
  });

  it('rises as the files land, never past the total, however they are sent', () => {
    for (const inflated of [false, true]) {
      const tally = new ReaderDownloadTally(0);
      const seen: number[] = [];
      for (const [file, size] of Object.entries(SIZES)) {
        tally.started(file);
        const body = inflated ? (INFLATED[file] ?? size) : size;
        for (let landed = 0; landed < body; landed += 100_000) {
          tally.received(file, chunk(Math.min(100_000, body - landed), landed === 0 && inflated ? WASM : GZIP), 0);
          seen.push(shippedBytesDownloaded(tally.message().files, SIZES, INFLATED));
        }
        tally.finished(file, 0);
        seen.push(shippedBytesDownloaded(tally.message().files, SIZES, INFLATED));
      }
      expect(seen.every((bytes, i) => bytes >= (seen[i - 1] ?? 0))).toBe(true);
      expect(seen.at(-1)).toBe(TOTAL);
      expect(Math.max(...seen)).toBe(TOTAL);
    }
  });

  it('says megabytes to a tenth, what came rounded down and the total only once it is all there', () => {
    expect(megabytesOf(0, TOTAL)).toBe('0.0 of 5.4\u00a0MB');
    expect(megabytesOf(2_149_999, TOTAL)).toBe('2.1 of 5.4\u00a0MB');
    expect(megabytesOf(TOTAL - 1, TOTAL)).toBe('5.3 of 5.4\u00a0MB');
    // 5.42 MB rounds to 5.4: 5.41 MB came is not yet 5.4 of 5.4
    expect(megabytesOf(5_410_000, 5_420_000)).toBe('5.3 of 5.4\u00a0MB');
    expect(megabytesOf(TOTAL, TOTAL)).toBe('5.4 of 5.4\u00a0MB');
    expect(megabytesOf(20_000, 40_000)).toBe('0.0 of 0.0\u00a0MB');
  });
});
