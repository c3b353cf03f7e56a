/**
 * One face read too many: the fake camera streams two dice (the left two of the photo
 * table-camera.test.ts reads, a matteop65 val image, licence beside it) while War awaits its
 * centre die alone. One more face than the roll can show is most often a false box, so the table
 * proposes the die it is surer of, names the one left out beside the roll, and the rules accept
 * it (`cameraProposal`, src/app/cameraRead.ts). Two or more too many are left for the player to
 * fix (table-camera.test.ts: five dice in view for War's one).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { join } from 'node:path';
import sharp from 'sharp';
import { openAppWithCamera, ROOT, type AppWithCamera } from './harness.ts';
import { headline, startGame } from './table-helpers.ts';

const PHOTO = join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg');

let app: AppWithCamera;

beforeAll(async () => {
  const two = await sharp(PHOTO)
    .extract({ left: 0, top: 20, width: 222, height: 216 })
    .resize({ width: 480, height: 467 })
    .extend({ top: 6, bottom: 7, left: 80, right: 80, background: { r: 150, g: 140, b: 125 } })
    .jpeg({ quality: 92 })
    .toBuffer();
  app = await openAppWithCamera(inject('distDir'), two, 640, 480);
});

afterAll(async () => {
  await app?.close();
});

describe('one face read too many', () => {
  it('proposes the surer die, names the one left out, and the roll counts', async () => {
    const { page, errors } = app.session;
    await startGame(page, 'war', ['Ann', 'Bob']);
    expect(await headline(page)).toMatch(/centre die/i);
    const read = page.getByTestId('camera-read');
    await read.waitFor({ timeout: 45_000 });
    expect(await page.getByTestId('camera-status').textContent()).toBe('I see 2 dice, but 1 was thrown: the one read least surely is left out.');
    expect(await read.textContent()).toMatch(/^[1-6]$/);
    expect(await page.getByTestId('left-out').textContent()).toMatch(
      /^Also read, left out as more dice than the roll has: [1-6]\. If it is a die of the roll, tap the die read wrongly and pick it\.$/,
    );
    expect(await page.getByTestId('roll-preview').textContent()).not.toMatch(/expected/);
    await page.getByTestId('confirm-roll').click();
    await read.waitFor({ state: 'detached' });
    expect(await page.getByTestId('rule-error').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
