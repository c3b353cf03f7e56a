/**
 * A photo of the roll, for when the live camera cannot help: the player refused it, the page is
 * served over plain http, the browser has none, or the room is too dim and the phone's own camera
 * app (its flash, its focus) does better. The table's "Photo of the dice" decodes the picture
 * here, the kit reader reads it once, and `photoProposal` (cameraRead.ts) makes the proposal.
 */
import type { Box } from '../lib/vision/types.ts';
import { cutDiceHint, smallDiceHint } from './cameraRead.ts';
import { diceText } from './format.ts';

/**
 * The long side a photo is read at, at most. A phone's photo is 4000 pixels across; the detector
 * reads 512 of them and the die-face reader 48 a die, both averaging areas down (letterbox.ts),
 * so more only costs memory (a 12-megapixel picture is 48 MB of pixels) and time.
 */
const PHOTO_LONG_SIDE = 1920;

/** A photo that cannot be read as a roll; its message is for the player. */
export class PhotoError extends Error {
  override readonly name = 'PhotoError';
}

/** The photo's name for messages: "roll.jpg", or "This file" when it has none. */
function named(file: Blob): string {
  return file instanceof File && file.name ? file.name : 'This file';
}

/** A picture format told by a file's first bytes (`pictureFormat`). */
export type PictureFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'bmp' | 'heic' | 'avif';

/** ISO base media brands (the `ftyp` box) of HEIF pictures: what an iPhone, and some Android phones, store. */
const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);

/**
 * The picture format a file starts with (its first 12 bytes or more), or null when it is none of
 * these: what a failed decode is explained by (`undecodableText`), whatever the file is named.
 */
export function pictureFormat(head: Uint8Array): PictureFormat | null {
  const at = (offset: number, text: string): boolean => [...text].every((c, i) => head[offset + i] === c.charCodeAt(0));
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head[0] === 0x89 && at(1, 'PNG')) return 'png';
  if (at(0, 'GIF8')) return 'gif';
  if (at(0, 'RIFF') && at(8, 'WEBP')) return 'webp';
  if (at(0, 'BM')) return 'bmp';
  if (at(4, 'ftyp')) {
    const brand = String.fromCharCode(...head.subarray(8, 12));
    if (brand === 'avif' || brand === 'avis') return 'avif';
    if (HEIF_BRANDS.has(brand)) return 'heic';
  }
  return null;
}

/**
 * What the player is told when the browser cannot decode `name`, by what it starts with: a HEIC
 * photo this browser cannot open (Chrome on Android and desktop browsers but Safari), a picture
 * that is damaged or too large for the phone's memory (a 50-megapixel photo is 200 MB of pixels),
 * or a file that is no picture at all.
 */
export function undecodableText(name: string, format: PictureFormat | null): string {
  const retry = 'or enter the dice with the dice pad.';
  if (format === 'heic') {
    return `${name} is a HEIC photo, which this browser cannot open. Take it with the camera set to JPEG (on an iPhone: Settings, Camera, Formats, Most Compatible), ${retry}`;
  }
  if (format !== null) return `${name} could not be opened: the picture may be damaged, or too large for this phone. Take the photo again at a lower resolution, ${retry}`;
  return `${name} is not a picture Rollcall can read. Take the photo again, ${retry}`;
}

/**
 * The photo as a bitmap upright (its EXIF orientation applied), its long side at most `longSide`.
 * Throws a `PhotoError` for a file the browser cannot decode, saying why (`undecodableText`).
 */
export async function decodePhoto(file: Blob, longSide = PHOTO_LONG_SIDE): Promise<ImageBitmap> {
  // a decode that fails, or a shrink that runs out of memory, is said by what the file starts with
  const cannotOpen = async (): Promise<PhotoError> => {
    const head = new Uint8Array(await file.slice(0, 16).arrayBuffer().catch(() => new ArrayBuffer(0)));
    return new PhotoError(undecodableText(named(file), pictureFormat(head)));
  };
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    throw await cannotOpen();
  }
  const scale = longSide / Math.max(bitmap.width, bitmap.height);
  if (scale >= 1) return bitmap;
  try {
    return await createImageBitmap(bitmap, {
      resizeWidth: Math.max(1, Math.round(bitmap.width * scale)),
      resizeHeight: Math.max(1, Math.round(bitmap.height * scale)),
      resizeQuality: 'high',
    });
  } catch {
    throw await cannotOpen();
  } finally {
    bitmap.close();
  }
}

/**
 * A JPEG of `bitmap` to show the photo by, in place of the file picked: shown from the file, a
 * 48-megapixel photo is decoded whole by the <img> again (200 MB of pixels kept in the page for a
 * picture a few hundred pixels wide). The bitmap is drawn at once, so it can be handed to the
 * reader (transferred) while the JPEG is made; null where the browser makes none (show the file).
 */
export function displayCopy(bitmap: ImageBitmap): Promise<Blob | null> {
  const canvas = document.createElement('canvas');
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  const context = canvas.getContext('2d');
  if (!context) return Promise.resolve(null);
  context.drawImage(bitmap, 0, 0);
  return new Promise((resolve) => {
    try {
      canvas.toBlob(
        (blob) => {
          // the canvas's pixels go now, not when it is collected
          canvas.width = canvas.height = 0;
          resolve(blob);
        },
        'image/jpeg',
        0.9,
      );
    } catch {
      resolve(null);
    }
  });
}

/** What the player is told when a photo shows no die: nothing is proposed. */
export const NO_DICE_IN_PHOTO = 'No dice found in the photo. Take it again from above and closer, or enter the dice with the dice pad.';

/**
 * The line under a photo read: how many dice it shows, and what to mend in the next photo (a die
 * cut by its edge, dice too small), as the live camera says it (cameraRead.ts).
 */
export function photoText(dice: readonly { box: Box }[], frame: { width: number; height: number }): string {
  const n = dice.length;
  const count = `${diceText(n)} in the photo.`;
  return count + (cutDiceHint(dice, frame) || smallDiceHint(dice, frame, n));
}
