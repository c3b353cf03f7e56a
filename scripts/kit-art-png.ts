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
import { UsageError } from './lib/node-vision.ts';

async function main(): Promise<void> {
  const [kitDir, outDir, size = '256'] = process.argv.slice(2);
  if (!kitDir || !outDir) throw new UsageError('usage: npx tsx scripts/kit-art-png.ts KIT_DIR OUT_DIR [SIZE]');
  const folder = await loadKitFolder(kitDir);
  if (folder.artFiles.size === 0) throw new UsageError(`${kitDir}: the kit has no face art (faces/<faceId>.svg)`);
  await mkdir(outDir, { recursive: true });
  for (const [faceId, file] of folder.artFiles) {
    const art = await readArt(file, Number(size));
    await sharp(Buffer.from(art.data), { raw: { width: art.width, height: art.height, channels: 4 } }).png().toFile(path.join(outDir, `${faceId}.png`));
  }
  console.log(`${folder.artFiles.size} faces of ${folder.kit.id} drawn to ${outDir}`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(e instanceof UsageError ? 2 : 1);
});
