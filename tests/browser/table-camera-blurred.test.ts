/**
 * A camera that has not focused: the fake camera streams the five dice of the photo
 * table-camera.test.ts reads (a matteop65 val image, licence beside it: 2 3 3 3 6) under a
 * Gaussian blur of sd 7 px, about 8% of a die's side, where the reader starts to misread them
 * (its 3s look like 2s). The reader still finds them, and the status line tells the player the
 * dice look blurred (`BLURRED_EDGE_WIDTH`), as does the camera check. The values the reader
 * doubts are not proposed but asked for (`?`: the die-face sidecar's `unsure` rule); the player
 * fills them in, and the table learns nothing from that (a pip face, not a look to learn). Until
 * then the read asks for them, not counting the dice read alone against the roll.
 * The same photo in focus says nothing more (table-camera.test.ts: "I see 5 dice.").
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { join } from 'node:path';
import sharp from 'sharp';
import { openAppWithCamera, ROOT, type AppWithCamera } from './harness.ts';
import { headline, startGame } from './table-helpers.ts';

const PHOTO = join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg');

let app: AppWithCamera;

beforeAll(async () => {
  const unfocused = await sharp(PHOTO).blur(7).jpeg({ quality: 92 }).toBuffer();
  app = await openAppWithCamera(inject('distDir'), unfocused, 640, 480);
});

afterAll(async () => {
  await app?.close();
});

describe('camera out of focus', () => {
  it('reads the dice and tells the player they look blurred', async () => {
    const { page, errors } = app.session;
    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
    const status = page.getByTestId('camera-status');
    await status.getByText('They look blurred: hold the phone still, not too close, and let it focus.', { exact: false }).waitFor({ timeout: 45_000 });
    expect(await status.textContent()).toMatch(/^I see 5 dice\. They look blurred: hold the phone still, not too close, and let it focus\.$/);
    // the dice it doubts are asked for, not proposed
    const read = page.getByTestId('camera-read');
    await read.waitFor({ timeout: 45_000 });
    const asked = await page.getByTestId('unread-die').count();
    expect(asked).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('unread').textContent()).toMatch(/could not be read: tap (its|each) \? and pick the face\./);
    const given = ((await read.textContent()) ?? '').split(' ').filter(Boolean);
    expect(given.length + asked).toBe(5);
    // the read dice alone are short of the roll: the read asks for the ? rather than miscount ("4 dice seen, 5 expected")
    expect(await page.getByTestId('roll-preview').count()).toBe(0);
    const before = await headline(page);
    await page.getByTestId('confirm-roll').click();
    expect(await page.getByTestId('rule-error').textContent()).toBe(await page.getByTestId('unread').textContent());
    expect(await headline(page)).toBe(before);
    for (let i = 0; i < asked; i++) {
      await page.getByTestId('unread-die').first().click();
      await page.locator('button[data-fix-face="3"]').click();
    }
    expect((await read.textContent())?.split(' ').filter((f) => f === '3').length).toBeGreaterThanOrEqual(asked);
    await page.getByTestId('confirm-roll').click();
    await read.waitFor({ state: 'detached' });
    expect(await headline(page)).toMatch(/^Ann rolled /);
    // a value read unsurely is not a face to learn by its look
    await page.waitForTimeout(1_000);
    expect(await page.getByTestId('table-camera').getAttribute('data-learned')).toBe('0');
    expect(errors).toEqual([]);
  });

  it('the camera check says so too', async () => {
    const { page, errors } = app.session;
    // from the table back to Home, then Settings
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('new-game').waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('camera-check').click();
    const read = page.getByTestId('check-read');
    await read.getByText('They look blurred: hold the phone still, not too close, and let it focus.', { exact: false }).waitFor({ timeout: 45_000 });
    // the dice it doubts are not named (the camera check says so rather than guess)
    expect((await read.textContent())?.trim()).toMatch(/^I see 5 dice: [1-6]( [1-6]){0,3} \([1-5] not read\)\. They look blurred: hold the phone still, not too close, and let it focus\.$/);
    expect(errors).toEqual([]);
  });
});
