/**
 * Draws Rollcall's icon (a die of five whose last pip is a tick: "counted") and renders the PWA's
 * PNGs from it with sharp: `npm run icons`. The output is committed; run this after changing
 * the drawing. Same input, same sharp version → same bytes.
 */
import sharp from 'sharp';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HelpRequest, runCli, UsageError } from './lib/cli.ts';

const USAGE = 'usage: npm run icons   (no options: writes public/favicon.svg and the PNGs in public/icons/)';

const NAVY = '#14213d';
const CREAM = '#fbf7ef';
const AMBER = '#fca311';

/** The die and tick, drawn in a 512 box, scaled by `scale` around the centre. */
function mark(scale: number): string {
  const pip = (cx: number, cy: number) => `<circle cx="${cx}" cy="${cy}" r="27" fill="${NAVY}"/>`;
  return `<g transform="translate(256 256) scale(${scale}) translate(-256 -256)">
    <g transform="rotate(-9 240 240)">
      <rect x="96" y="96" width="288" height="288" rx="60" fill="${CREAM}"/>
      ${pip(170, 170)}${pip(310, 170)}${pip(240, 240)}${pip(170, 310)}
    </g>
    <circle cx="372" cy="372" r="92" fill="${AMBER}" stroke="${NAVY}" stroke-width="18"/>
    <path d="M326 374 l32 32 l58 -66" fill="none" stroke="${NAVY}" stroke-width="26" stroke-linecap="round" stroke-linejoin="round"/>
  </g>`;
}

/** Standard icon: a rounded navy tile. */
export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <rect width="512" height="512" rx="112" fill="${NAVY}"/>${mark(0.92)}
</svg>`;

/** Maskable icon: full bleed, the mark inside the central safe zone (a circle of 40 % radius). */
export const MASKABLE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <rect width="512" height="512" fill="${NAVY}"/>${mark(0.78)}
</svg>`;

async function png(svg: string, size: number, file: string): Promise<void> {
  const out = await sharp(Buffer.from(svg), { density: 72 * (size / 512) * 4 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: false })
    .toBuffer();
  writeFileSync(file, out);
  console.log(`${file}  ${size}×${size}  ${out.length} bytes`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { help: { type: 'boolean', short: 'h' } } });
  if (values.help) throw new HelpRequest(USAGE);
  const publicDir = join(import.meta.dirname, '..', 'public');
  const iconsDir = join(publicDir, 'icons');
  mkdirSync(iconsDir, { recursive: true });
  writeFileSync(join(publicDir, 'favicon.svg'), ICON_SVG);
  await png(ICON_SVG, 192, join(iconsDir, 'icon-192.png'));
  await png(ICON_SVG, 512, join(iconsDir, 'icon-512.png'));
  await png(MASKABLE_SVG, 192, join(iconsDir, 'maskable-192.png'));
  await png(MASKABLE_SVG, 512, join(iconsDir, 'maskable-512.png'));
  await png(MASKABLE_SVG, 180, join(iconsDir, 'apple-touch-icon-180.png'));
}

runCli('make-icons', import.meta.url, main);
