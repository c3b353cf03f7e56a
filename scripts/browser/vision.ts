/**
 * The page behind the browser tests and `npm run bench`: it exposes the app's dice reader
 * (the same client, worker, runtime and model assets as the app build) to Playwright.
 */
import { createDiceReader, type DiceRead, type ReaderInfo, type ReaderInitOptions } from '../../src/lib/vision/dice-reader.ts';

export interface HarnessReadResult {
  info: ReaderInfo;
  reads: DiceRead[];
}

async function frame(bytes: Uint8Array): Promise<ImageBitmap> {
  return createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]), { imageOrientation: 'from-image' });
}

/**
 * Starts a reader, reads the image `times` times (each read gets a fresh ImageBitmap), stops it.
 * `expected`: how many dice the caller says lie in view; `read`: `{ tiles: true }` for a photo (`DiceReader.read`).
 */
async function readImage(base64: string, times: number, options: ReaderInitOptions, expected?: number, read?: { tiles?: boolean }): Promise<HarnessReadResult> {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const reader = createDiceReader(options);
  try {
    const info = await reader.ready;
    const reads: DiceRead[] = [];
    for (let i = 0; i < times; i++) reads.push(await reader.read(await frame(bytes), expected, read));
    return { info, reads };
  } finally {
    reader.close();
  }
}

/**
 * Starts one reader per options entry, then reads the image `times` times with each, taking
 * turns frame by frame, so that changes in the machine's load hit every configuration alike.
 */
async function readInterleaved(base64: string, times: number, optionsList: ReaderInitOptions[]): Promise<HarnessReadResult[]> {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const readers = optionsList.map((o) => createDiceReader(o));
  try {
    const infos: ReaderInfo[] = [];
    for (const r of readers) infos.push(await r.ready); // one at a time: load times are not shared
    const results: HarnessReadResult[] = infos.map((info) => ({ info, reads: [] }));
    for (let i = 0; i < times; i++) {
      for (const [k, r] of readers.entries()) results[k]!.reads.push(await r.read(await frame(bytes)));
    }
    return results;
  } finally {
    for (const r of readers) r.close();
  }
}

/** Reads ImageData too (the other frame type the client accepts). */
async function readImageData(base64: string, options: ReaderInitOptions): Promise<DiceRead> {
  const bitmap = await frame(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext('2d')!;
  context.drawImage(bitmap, 0, 0);
  const reader = createDiceReader(options);
  try {
    return await reader.read(context.getImageData(0, 0, bitmap.width, bitmap.height));
  } finally {
    reader.close();
  }
}

const harness = { readImage, readInterleaved, readImageData, crossOriginIsolated: () => self.crossOriginIsolated, cores: () => navigator.hardwareConcurrency };
export type VisionHarness = typeof harness;
(globalThis as unknown as { visionHarness: VisionHarness }).visionHarness = harness;
document.body.dataset.ready = 'true';
