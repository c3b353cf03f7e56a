/**
 * Scenes for the hand-wired test model (tests/fixtures/test-model): grey frames with solid
 * colour squares that fill stride-32 cells of its 320 input exactly, so its reads are exact.
 */
import sharp from 'sharp';

/** Colours the test model reads as values (its nearest-colour classes); white is `other`. */
export const COLOUR = {
  1: [255, 0, 0],
  2: [0, 255, 0],
  3: [0, 0, 255],
  4: [255, 255, 0],
  5: [255, 0, 255],
  6: [0, 255, 255],
  other: [255, 255, 255],
} as const;

export type Square = { x: number; y: number; side: number; rgb: readonly [number, number, number] };

/** PNG bytes of a grey frame with the squares drawn. */
export async function scenePng(width: number, height: number, squares: Square[]): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3, 128);
  for (const s of squares) {
    for (let y = s.y; y < s.y + s.side; y++) for (let x = s.x; x < s.x + s.side; x++) data.set(s.rgb, (y * width + x) * 3);
  }
  return sharp(data, { raw: { width, height, channels: 3 } }).png().toBuffer();
}
