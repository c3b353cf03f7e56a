/**
 * A photo stored turned, with an EXIF orientation: `read-dice` (and the app) read it upright, as
 * a phone shows it; the measuring tools read a labelled photo in its stored pixels, in which the
 * labels give their boxes (../shared/data/README.md): `readDatasetPhoto`, or `readImageFile`'s
 * `upright: false` where a tool reads a labelled photo itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { readImageFile } from '../../scripts/lib/node-vision.ts';
import { readDatasetPhoto } from '../../scripts/lib/datasets.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'rollcall-orientation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('EXIF orientation', () => {
  it('read-dice reads a photo upright; a labelled photo is measured as stored', async () => {
    // 60×40 stored, a red square at the stored top left; orientation 6: shown turned a quarter clockwise
    const stored = Buffer.alloc(60 * 40 * 3, 255);
    for (let y = 0; y < 10; y++) for (let x = 0; x < 10; x++) stored.set([255, 0, 0], (y * 60 + x) * 3);
    const file = path.join(dir, 'turned.jpg');
    await sharp(stored, { raw: { width: 60, height: 40, channels: 3 } }).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toFile(file);

    const upright = await readImageFile(file);
    expect([upright.width, upright.height]).toEqual([40, 60]);
    const { image: asStored } = await readDatasetPhoto(file);
    expect([asStored.width, asStored.height]).toEqual([60, 40]);
    // the red square where the labels (stored pixels) would put it
    expect(asStored.data[(5 * 60 + 5) * 4]).toBeGreaterThan(200);
    expect(asStored.data[(5 * 60 + 5) * 4 + 1]).toBeLessThan(60);
  });
});
