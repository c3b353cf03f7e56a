import path from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { holdoutSlices } from './lib/datasets.ts';
import { dataRoot } from './lib/node-vision.ts';
for (const slice of await holdoutSlices(dataRoot())) {
  const dir = path.join('/tmp/mosaic/up2', slice.name);
  mkdirSync(dir, { recursive: true });
  const images = [];
  for (const im of slice.images) {
    await sharp(path.join(slice.dir, im.file)).resize(im.width * 2, im.height * 2, { kernel: 'lanczos3' }).jpeg({ quality: 92 }).toFile(path.join(dir, im.file));
    images.push({ file: im.file, width: im.width * 2, height: im.height * 2, dice: im.dice.map((d) => ({ x: d.box.x * 2, y: d.box.y * 2, w: d.box.w * 2, h: d.box.h * 2, value: d.value })) });
  }
  writeFileSync(path.join(dir, 'labels.json'), JSON.stringify({ source: 'up2', license: 'as the photos', box_style: slice.boxStyle, images }));
}
