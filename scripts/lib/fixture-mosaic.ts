/**
 * A large photo of small dice from the licensed fixture photos (tests/fixtures/dice-photos, their
 * notices beside them): nine of them (the seven byler, two matteop65) laid 3 × 3 as one 1,920-pixel
 * picture, each die at its own pixels but 2–4% of the frame. What tiles are for (src/lib/vision/tiles.ts):
 * the read-dice and browser tests read it, `npm run bench -- --only photo-tiles` times it.
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { REPO_ROOT } from './node-vision.ts';

type Labels = { images: Array<{ file: string; dice: Array<{ value: number }> }> };

/** The picture as JPEG, and the values of its 46 dice, sorted. */
export async function nineFixturePhotos(): Promise<{ jpeg: Buffer; values: number[] }> {
  const fixtures = path.join(REPO_ROOT, 'tests/fixtures/dice-photos');
  const labels = (set: string) => (JSON.parse(readFileSync(path.join(fixtures, set, 'labels.json'), 'utf8')) as Labels).images.map((im) => ({ ...im, set }));
  const nine = [...labels('byler-val-sample'), ...labels('matteop65-val-sample').slice(0, 2)].slice(0, 9);
  const composites = nine.map((p, k) => ({ input: path.join(fixtures, p.set, p.file), left: (k % 3) * 640, top: Math.floor(k / 3) * 640 }));
  const jpeg = await sharp({ create: { width: 1920, height: 1920, channels: 3, background: { r: 128, g: 128, b: 128 } } }).composite(composites).jpeg({ quality: 90 }).toBuffer();
  return { jpeg, values: nine.flatMap((p) => p.dice.map((d) => d.value)).sort() };
}
