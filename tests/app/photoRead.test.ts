import { describe, expect, it } from 'vitest';
import type { DieToken } from '../../src/lib/dice/index.ts';
import { photoProposal, type ReadDie } from '../../src/app/cameraRead.ts';
import { pictureFormat, photoText, undecodableText } from '../../src/app/photoRead.ts';

const die = (x: number, y: number, token: DieToken | null, score = 0.9, side = 40): ReadDie => ({ box: { x, y, w: side, h: side }, token, score });
const FRAME = { width: 1920, height: 1440 };

describe('photoProposal: a photo read once, proposed as a settled read is', () => {
  it('proposes the faces in reading order, left to right by the dice centres', () => {
    // the reader gives dice in no order; a wide die further left by its edge lies right by its centre
    const dice = [die(900, 100, 2), die(100, 700, 6), die(500, 300, 3), die(90, 100, 5, 0.9, 300)];
    expect(photoProposal(dice, [4])).toMatchObject({ seen: [6, 5, 3, 2], unread: 0, leftOut: null });
  });

  it('asks for the dice not read', () => {
    const { seen, unread } = photoProposal([die(100, 100, 4), die(300, 100, null), die(500, 100, 1)], [3]);
    expect(seen).toEqual([4, 1]);
    expect(unread).toBe(1);
  });

  it('leaves out the least sure of one face too many, and names it', () => {
    const dice = [die(100, 100, 5, 0.95), die(300, 100, 2, 0.4), die(500, 100, 5, 0.9)];
    expect(photoProposal(dice, [2])).toMatchObject({ seen: [5, 5], unread: 0, leftOut: 2 });
  });

  it('leaves out unread boxes beside as many dice read as the roll shows', () => {
    const { seen, unread } = photoProposal([die(100, 100, 3), die(300, 100, null), die(500, 100, 3)], [2, 5]);
    expect(seen).toEqual([3, 3]);
    expect(unread).toBe(0);
  });
});

describe('photoText: the line under a photo read', () => {
  it('counts the dice', () => {
    expect(photoText([die(500, 500, 1, 0.9, 200)], FRAME)).toBe('1 die in the photo.');
    expect(photoText([die(500, 500, 1, 0.9, 200), die(900, 500, 2, 0.9, 200)], FRAME)).toBe('2 dice in the photo.');
  });

  it('names a die cut by the photo\'s edge first, dice too small otherwise', () => {
    expect(photoText([die(0, 500, 1, 0.9, 200), die(900, 500, 2, 0.9, 200)], FRAME)).toBe('2 dice in the photo. 1 die is cut by the edge of the picture: move the phone to take it in.');
    expect(photoText([die(500, 500, 1, 0.9, 40), die(900, 500, 2, 0.9, 40)], FRAME)).toBe('2 dice in the photo. They look small: hold the phone closer.');
  });
});

describe('a photo the browser cannot open, told by what the file starts with', () => {
  const bytes = (...parts: (string | number[])[]): Uint8Array =>
    new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

  it('knows the picture formats a phone or a computer stores', () => {
    expect(pictureFormat(bytes([0xff, 0xd8, 0xff, 0xe1], 'xxxxxxxx'))).toBe('jpeg');
    expect(pictureFormat(bytes([0x89], 'PNG', [13, 10, 26, 10], 'xxxx'))).toBe('png');
    expect(pictureFormat(bytes('GIF89a', 'xxxxxx'))).toBe('gif');
    expect(pictureFormat(bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '))).toBe('webp');
    expect(pictureFormat(bytes('BM', 'xxxxxxxxxx'))).toBe('bmp');
    // an iPhone's photo, and a HEIF from an Android phone
    expect(pictureFormat(bytes([0, 0, 0, 24], 'ftypheic', [0, 0, 0, 0]))).toBe('heic');
    expect(pictureFormat(bytes([0, 0, 0, 24], 'ftypmif1', [0, 0, 0, 0]))).toBe('heic');
    expect(pictureFormat(bytes([0, 0, 0, 28], 'ftypavif', [0, 0, 0, 0]))).toBe('avif');
    // a video is an ISO box file too, not a picture
    expect(pictureFormat(bytes([0, 0, 0, 24], 'ftypisom', [0, 0, 0, 0]))).toBeNull();
    expect(pictureFormat(bytes('6 3 3 3 2'))).toBeNull();
    expect(pictureFormat(new Uint8Array())).toBeNull();
  });

  it('says what to do for each', () => {
    expect(undecodableText('IMG_0001.HEIC', 'heic')).toBe(
      'IMG_0001.HEIC is a HEIC photo, which this browser cannot open. Take it with the camera set to JPEG (on an iPhone: Settings, Camera, Formats, Most Compatible), or enter the dice with the dice pad.',
    );
    expect(undecodableText('roll.jpg', 'jpeg')).toBe(
      'roll.jpg could not be opened: the picture may be damaged, or too large for this phone. Take the photo again at a lower resolution, or enter the dice with the dice pad.',
    );
    expect(undecodableText('notes.txt', null)).toBe('notes.txt is not a picture Rollcall can read. Take the photo again, or enter the dice with the dice pad.');
  });
});
