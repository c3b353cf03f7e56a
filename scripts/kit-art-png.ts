/**
 * npx tsx scripts/kit-art-png.ts KIT_DIR OUT_DIR [SIZE]
 *
 * Draws a kit's face art (faces/<faceId>.svg|png|jpg|webp) as square PNGs, OUT_DIR/<faceId>.png,
 * as the app draws it (`readArt`), for Python tools that paint kit dice
 * (`models/training/render_symbol_scenes.py --kit-art OUT_DIR`).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { loadKitFolder, readArt } from './lib/node-faces.ts';
import { HelpRequest, runCli, UsageError } from './lib/cli.ts';

const USAGE = 'usage: npx tsx scripts/kit-art-png.ts KIT_DIR OUT_DIR [SIZE]   (SIZE: the PNGs\' side in pixels, default 256)';

/** A kit's own problem (no such folder, a bad kit.json or art file) is the user's to fix: one line, exit 2. */
function kitProblem(e: unknown): never {
  throw e instanceof Error && e.name === 'KitError' ? new UsageError(e.message) : e;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ args: process.argv.slice(2), allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
  if (values.help) throw new HelpRequest(USAGE);
  const [kitDir, outDir, size = '256', ...rest] = positionals;
  if (!kitDir || !outDir || rest.length) throw new UsageError(USAGE);
  if (!/^[1-9]\d*$/.test(size)) throw new UsageError(`SIZE must be a positive whole number of pixels, not ${size}\n${USAGE}`);
  const folder = await loadKitFolder(kitDir).catch(kitProblem);
  if (folder.artFiles.size === 0) throw new UsageError(`${kitDir}: the kit has no face art (faces/<faceId>.svg)`);
  await mkdir(outDir, { recursive: true });
  for (const [faceId, file] of folder.artFiles) {
    const art = await readArt(file, Number(size)).catch(kitProblem);
    await sharp(Buffer.from(art.data), { raw: { width: art.width, height: art.height, channels: 4 } }).png().toFile(path.join(outDir, `${faceId}.png`));
  }
  console.log(`${folder.artFiles.size} faces of ${folder.kit.id} drawn to ${outDir}`);
}

runCli('kit-art-png', import.meta.url, main);
