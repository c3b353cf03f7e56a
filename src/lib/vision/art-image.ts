/**
 * Face art (an SVG or bitmap URL, e.g. `builtInArtUrl(kitId, faceId)` or an imported kit's data
 * URL) drawn as a square RGBA image, in the browser's main thread (SVG needs an <img> to
 * decode), ready for `artPrototypes`. Node tools draw art with sharp instead.
 */
import type { RgbaImage } from './types.ts';

const ART_IMAGE_SIZE = 128;

export async function loadArtImage(url: string, size = ART_IMAGE_SIZE): Promise<RgbaImage> {
  const img = new Image();
  img.src = url;
  try {
    await img.decode();
  } catch {
    throw new Error(`cannot draw the face art ${url.slice(0, 60)}…: not an image the browser can decode`);
  }
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas to draw the face art on');
  ctx.drawImage(img, 0, 0, size, size);
  const { data } = ctx.getImageData(0, 0, size, size);
  return { width: size, height: size, data };
}
