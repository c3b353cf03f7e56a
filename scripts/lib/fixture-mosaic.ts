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

/** Three logo ones of tests/fixtures/dice-photos/logo-ones (our own renders), by photo and box. */
const LOGO_ONES: ReadonlyArray<{ file: string; box: [number, number, number, number] }> = [
  { file: 'roll-003.jpg', box: [454, 538, 151, 160] },
  { file: 'roll-009.jpg', box: [504, 387, 126, 125] },
  { file: 'roll-009.jpg', box: [138, 549, 155, 148] },
];

/**
 * Which logo one each of the five cells shows, and turned by how many quarter turns, per throw.
 * Picked so that the shipped pair finds all five (roll 9's first key turned once, in the fifth
 * cell of the first throw, it missed); the tests check that premise before they rely on it.
 */
const LOGO_THROWS = [
  [[0, 0], [1, 0], [2, 0], [0, 2], [2, 2]],
  [[2, 1], [0, 3], [1, 2], [2, 3], [0, 1]],
] as const;

/**
 * Five branded ones and nothing else, as a 640 × 480 camera frame: three logo ones of the
 * logo-ones renders, each cut out with a little of its table (1.3 times its box, centred), shown
 * five times at quarter turns (`throwIndex` 0 or 1: two throws of them), laid 3 + 2 on the
 * table's colour, each die about 93 pixels across. Every die reads `other` and none beside it
 * reads as pips, so none is taken for a branded 1 (`brandedOnesAmongPips`): the player fills them
 * in, and the table learns them (pip-learning.ts). The pip-learning and table tests read it.
 * Returns the JPEG and the dice's boxes in it.
 */
export async function logoOnesAlone(throwIndex: 0 | 1 = 0): Promise<{ jpeg: Buffer; dice: Array<{ x: number; y: number; w: number; h: number; value: 1 }> }> {
  const folder = path.join(REPO_ROOT, 'tests/fixtures/dice-photos/logo-ones');
  const DIE = 93;
  const crops = await Promise.all(
    LOGO_ONES.map(async ({ file, box: [x, y, w, h] }) => {
      const photo = sharp(readFileSync(path.join(folder, file)));
      const { width: W, height: H } = await photo.metadata();
      const side = Math.round(1.3 * Math.max(w, h));
      // moved inside the photo where the die lies near its edge
      const left = Math.min(W! - side, Math.max(0, Math.round(x + w / 2 - side / 2)));
      const top = Math.min(H! - side, Math.max(0, Math.round(y + h / 2 - side / 2)));
      const size = Math.round((side * DIE) / Math.max(w, h));
      return photo.extract({ left, top, width: side, height: side }).resize(size, size).toBuffer();
    }),
  );
  const centres = [[107, 120], [320, 120], [533, 120], [213, 360], [427, 360]] as const;
  const composites = await Promise.all(
    LOGO_THROWS[throwIndex].map(async ([die, turns], k) => {
      const input = await sharp(crops[die]!).rotate(90 * turns).toBuffer();
      const { width } = await sharp(input).metadata();
      const [cx, cy] = centres[k]!;
      return { input, left: Math.round(cx - width! / 2), top: Math.round(cy - width! / 2) };
    }),
  );
  const table = await sharp(readFileSync(path.join(folder, 'roll-003.jpg'))).extract({ left: 0, top: 0, width: 40, height: 40 }).stats();
  const [r, g, b] = table.channels.map((c) => Math.round(c.mean));
  const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: r!, g: g!, b: b! } } }).composite(composites).jpeg({ quality: 92 }).toBuffer();
  return { jpeg, dice: centres.map(([cx, cy]) => ({ x: cx - DIE / 2, y: cy - DIE / 2, w: DIE, h: DIE, value: 1 as const })) };
}
