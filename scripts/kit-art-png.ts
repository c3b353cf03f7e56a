/**
 * npx tsx scripts/kit-art-png.ts KIT_DIR OUT_DIR [SIZE]
 *
 * Draws a kit's face art (faces/<faceId>.svg|png|jpg|webp) as square PNGs, OUT_DIR/<faceId>.png,
 * as the app draws it (`readArt`), for Python tools that paint kit dice
 * (`models/training/render_symbol_scenes.py --kit-art OUT_DIR`).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { loadKitFolder, readArt } from './lib/node-faces.ts';

const [kitDir, outDir, size = '256'] = process.argv.slice(2);
if (!kitDir || !outDir) {
  console.error('usage: npx tsx scripts/kit-art-png.ts KIT_DIR OUT_DIR [SIZE]');
  process.exit(2);
}
const folder = await loadKitFolder(kitDir);
if (folder.artFiles.size === 0) {
  console.error(`${kitDir}: the kit has no face art (faces/<faceId>.svg)`);
  process.exit(2);
}
await mkdir(outDir, { recursive: true });
for (const [faceId, file] of folder.artFiles) {
  const art = await readArt(file, Number(size));
  await sharp(Buffer.from(art.data), { raw: { width: art.width, height: art.height, channels: 4 } }).png().toFile(path.join(outDir, `${faceId}.png`));
}
console.log(`${folder.artFiles.size} faces of ${folder.kit.id} drawn to ${outDir}`);
