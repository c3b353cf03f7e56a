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
import { fakeCameraFile, launch, ROOT, serve, type BrowserSession, type StaticServer } from './harness.ts';
import { startGame } from './table-helpers.ts';

const PHOTO = join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg');

let server: StaticServer;
let session: BrowserSession;
let camera: { path: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  server = await serve(inject('distDir'));
  const shrunk = await sharp(PHOTO).resize({ width: 416 }).toBuffer();
  const far = await sharp({ create: { width: 1280, height: 720, channels: 3, background: { r: 120, g: 100, b: 80 } } })
    .composite([{ input: shrunk, left: 432, top: 204 }])
    .jpeg({ quality: 92 })
    .toBuffer();
  camera = await fakeCameraFile(far, 1280, 720);
  session = await launch({ camera: camera.path });
  await session.page.goto(server.url);
});

afterAll(async () => {
  await session?.close();
  await server?.stop();
  await camera?.cleanup();
});

describe('camera held far from the dice', () => {
  it('reads the dice and asks the player to hold the phone closer', async () => {
    const { page, errors } = session;
    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
    const status = page.getByTestId('camera-status');
    await status.getByText('They look small: hold the phone closer.', { exact: false }).waitFor({ timeout: 45_000 });
    expect(await status.textContent()).toMatch(/^I see \d dice.* They look small: hold the phone closer\.$/);
    expect(errors).toEqual([]);
  });
});
