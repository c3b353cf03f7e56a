// scratch: held-out photos tiled N×N into one large picture (each photo at its own pixels): dice small against the frame, not in pixels
import path from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { holdoutSlices } from './lib/datasets.ts';
import { dataRoot } from './lib/node-vision.ts';

const n = Number(process.argv[2] ?? 3);
const out = `/tmp/mosaic/m${n}`;
mkdirSync(out, { recursive: true });
const slices = await holdoutSlices(dataRoot());
for (const slice of slices) {
  const dir = path.join(out, slice.name);
  mkdirSync(dir, { recursive: true });
  const ims = slice.images;
  const cell = 640; // every photo letterboxed into 640×640 (matteop65: 640×480, centred)
  const images = [];
  for (let m = 0; m + n * n <= ims.length; m += n * n) {
    const group = ims.slice(m, m + n * n);
    const composites = [];
    const dice = [];
    for (const [k, im] of group.entries()) {
      const left = (k % n) * cell + (cell - im.width) / 2;
      const top = Math.floor(k / n) * cell + (cell - im.height) / 2;
      composites.push({ input: path.join(slice.dir, im.file), left: Math.round(left), top: Math.round(top) });
      for (const d of im.dice) dice.push({ x: d.box.x + Math.round(left), y: d.box.y + Math.round(top), w: d.box.w, h: d.box.h, value: d.value });
    }
    const file = `mosaic-${m / (n * n)}.jpg`;
    await sharp({ create: { width: n * cell, height: n * cell, channels: 3, background: { r: 128, g: 128, b: 128 } } }).composite(composites).jpeg({ quality: 92 }).toFile(path.join(dir, file));
    images.push({ file, width: n * cell, height: n * cell, dice });
  }
  writeFileSync(path.join(dir, 'labels.json'), JSON.stringify({ source: 'mosaic', license: 'as the photos', box_style: slice.boxStyle, images }));
  console.log(slice.name, images.length, 'mosaics');
}
