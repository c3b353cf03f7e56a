/**
 * A photo of the roll, for when the live camera cannot help: the player refused it, the page is
 * served over plain http, the browser has none, or the room is too dim and the phone's own camera
 * app (its flash, its focus) does better. The table's "Photo of the dice" decodes the picture
 * here, the kit reader reads it once, and `photoProposal` (cameraRead.ts) makes the proposal.
 */
import type { Box } from '../lib/vision/types.ts';
import { cutDiceHint, smallDiceHint } from './cameraRead.ts';

/**
 * The long side a photo is read at, at most. A phone's photo is 4000 pixels across; the detector
 * reads 512 of them and the die-face reader 48 a die, both averaging areas down (letterbox.ts),
 * so more only costs memory (a 12-megapixel picture is 48 MB of pixels) and time.
 */
export const PHOTO_LONG_SIDE = 1920;

/** A photo that cannot be read as a roll; its message is for the player. */
export class PhotoError extends Error {
  override readonly name = 'PhotoError';
}

/** The photo's name for messages: "roll.jpg", or "This file" when it has none. */
function named(file: Blob): string {
  return file instanceof File && file.name ? file.name : 'This file';
}

/**
 * The photo as a bitmap upright (its EXIF orientation applied), its long side at most `longSide`.
 * Throws a `PhotoError` for a file that is not a picture the browser can decode.
 */
export async function decodePhoto(file: Blob, longSide = PHOTO_LONG_SIDE): Promise<ImageBitmap> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    throw new PhotoError(`${named(file)} is not a picture Rollcall can read. Take the photo again, or enter the dice with the dice pad.`);
  }
  const scale = longSide / Math.max(bitmap.width, bitmap.height);
  if (scale >= 1) return bitmap;
  try {
    return await createImageBitmap(bitmap, {
      resizeWidth: Math.max(1, Math.round(bitmap.width * scale)),
      resizeHeight: Math.max(1, Math.round(bitmap.height * scale)),
      resizeQuality: 'high',
    });
  } finally {
    bitmap.close();
  }
}

/** What the player is told when a photo shows no die: nothing is proposed. */
export const NO_DICE_IN_PHOTO = 'No dice found in the photo. Take it again from above and closer, or enter the dice with the dice pad.';

/**
 * The line under a photo read: how many dice it shows, and what to mend in the next photo (a die
 * cut by its edge, dice too small), as the live camera says it (cameraRead.ts).
 */
export function photoText(dice: readonly { box: Box }[], frame: { width: number; height: number }): string {
  const n = dice.length;
  const count = `${n === 1 ? '1 die' : `${n} dice`} in the photo.`;
  return count + (cutDiceHint(dice, frame) || smallDiceHint(dice, frame, n));
}
