/**
 * A phone held too far from the dice: the fake camera streams the five dice of the photo
 * table-camera.test.ts reads (a matteop65 val image, licence beside it), shrunk to 0.65 in the
 * middle of a 1280 × 720 frame, so each die's box is about 4% of the frame's width. The reader still
 * finds them, and the status line tells the player to hold the phone closer: dice that small
 * are often missed (`SMALL_DIE_SHARE`). At play distance the line says nothing more
 * (table-camera.test.ts: "I see 5 dice.").
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { join } from 'node:path';
import sharp from 'sharp';
import { openAppWithCamera, ROOT, type AppWithCamera } from './harness.ts';
import { startGame } from './table-helpers.ts';

const PHOTO = join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg');

let app: AppWithCamera;

beforeAll(async () => {
  const shrunk = await sharp(PHOTO).resize({ width: 416 }).toBuffer();
  const far = await sharp({ create: { width: 1280, height: 720, channels: 3, background: { r: 120, g: 100, b: 80 } } })
    .composite([{ input: shrunk, left: 432, top: 204 }])
    .jpeg({ quality: 92 })
    .toBuffer();
  app = await openAppWithCamera(inject('distDir'), far, 1280, 720);
});

afterAll(async () => {
  await app?.close();
});

describe('camera held far from the dice', () => {
  it('reads the dice and asks the player to hold the phone closer', async () => {
    const { page, errors } = app.session;
    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
    const status = page.getByTestId('camera-status');
    await status.getByText('They look small: hold the phone closer.', { exact: false }).waitFor({ timeout: 45_000 });
    expect(await status.textContent()).toMatch(/^I see \d dice.* They look small: hold the phone closer\.$/);
    expect(errors).toEqual([]);
  });
});
