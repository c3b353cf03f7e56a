/**
 * The camera at the table, end to end: a fake camera streams a real photograph of five dice
 * (a matteop65 val image, licence beside it), the app's dice reader (worker, shipped model)
 * finds them, the settle tracker proposes the read once, and the player corrects it and
 * confirms. The checks hold whatever faces the shipped model reads: the test corrects each die
 * it reads wrongly to the labelled face, as a player would.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { layoutProblems, openAppWithCamera, ROOT, type AppWithCamera } from './harness.ts';
import { cameraRead, headline, startGame } from './table-helpers.ts';
import { framesRead, recordFramesRead } from '../../scripts/lib/bench-app.ts';

const PHOTOS = join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample');
const PHOTO = 'valid_80.jpg';

let app: AppWithCamera;
/** The labelled faces in reading order (left to right), as the table lists a read. */
let truth: number[];

beforeAll(async () => {
  const labels = JSON.parse(readFileSync(join(PHOTOS, 'labels.json'), 'utf8')) as {
    images: { file: string; dice: { x: number; y: number; w: number; h: number; value: number }[] }[];
  };
  const image = labels.images.find((i) => i.file === PHOTO)!;
  truth = [...image.dice].sort((a, b) => a.x + a.w / 2 - (b.x + b.w / 2)).map((d) => d.value);
  app = await openAppWithCamera(inject('distDir'), readFileSync(join(PHOTOS, PHOTO)), 640, 480);
  // counts the frames sent to the dice reader's worker (every message but its start)
  await app.session.page.evaluate(recordFramesRead);
});

afterAll(async () => {
  await app?.close();
});

describe('camera reads at the table', () => {
  it('reads the dice on the table, draws them, and proposes the settled read once', async () => {
    const { page, errors } = app.session;
    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
    // with a camera the pad starts folded away, one tap from view
    expect(await page.getByTestId('dice-pad').count()).toBe(0);
    const read = await cameraRead(page);
    expect(read).toHaveLength(5);
    expect(await page.getByTestId('camera-view').locator('svg rect').count()).toBe(5);
    expect(await page.getByTestId('camera-status').textContent()).toBe('I see 5 dice.');

    // a player corrects what the reader got wrong, die by die
    for (const [i, face] of read.entries()) {
      if (Number(face) === truth[i]) continue;
      await page.getByRole('button', { name: new RegExp(`^Die ${i + 1}: \\d\\. Correct it$`) }).click();
      await page.locator(`button[data-fix-face="${truth[i]}"]`).click();
    }
    expect(await page.getByTestId('camera-read').textContent()).toBe(truth.join(' '));
    expect(await page.getByTestId('roll-preview').textContent()).toBe(`Ann rolled ${[...truth].sort().join(' ')} = 300 (3 3 3 set aside). Roll 2 dice — turn total 300, must reach 500 to enter`);
    await page.getByTestId('confirm-roll').click();
    await page.getByTestId('camera-read').waitFor({ state: 'detached' });
    expect(await headline(page)).toMatch(/^Ann rolled .* = 300 \(3 3 3 set aside\)\. Roll 2 dice/);

    // the dice still lie there: the same roll is not proposed again
    await page.getByTestId('camera-status').getByText('I see 5 dice: 2 thrown and 3 kept.').waitFor();
    const before = (await framesRead(page)).length;
    await page.waitForTimeout(2_000);
    expect(await page.getByTestId('camera-read').count()).toBe(0);
    // and, lying still, they are read at the idle pace (4 a second; every frame could be 15)
    const atRest = (await framesRead(page)).length - before;
    expect(atRest).toBeGreaterThan(0);
    expect(atRest).toBeLessThanOrEqual(12);
    expect(await layoutProblems(page)).toEqual([]);

    // unless the player asks for it to be read again
    await page.getByTestId('read-again').click();
    const again = await cameraRead(page);
    expect(again).toHaveLength(5);
    // a read left unconfirmed while the player looks at the log is proposed again on return
    await page.getByTestId('open-log').click();
    await page.getByRole('button', { name: 'Back' }).click();
    expect(await cameraRead(page)).toEqual(again);
    await page.getByTestId('confirm-roll').click();
    await page.getByTestId('camera-read').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('says how many dice it sees against the roll awaited, and the count is fixed in the read', async () => {
    const { page } = app.session;
    await page.getByRole('button', { name: 'Back' }).click();
    await startGame(page, 'war', ['Ann', 'Bob']);
    expect(await headline(page)).toMatch(/centre die/i);
    // the dice of the last game still lie there: not proposed as this game's first throw
    await page.getByTestId('camera-status').getByText('These dice were read already: waiting for the throw.').waitFor({ timeout: 45_000 });
    expect(await page.getByTestId('camera-read').count()).toBe(0);
    await page.getByTestId('read-again').click();
    await cameraRead(page);
    // War starts with the centre die alone; the camera sees the five dice of the photo
    expect(await page.getByTestId('roll-preview').textContent()).toBe('5 dice seen, 1 expected.');
    expect(await page.getByTestId('camera-status').textContent()).toBe('I see 5 dice, but 1 was thrown. Fix the count in the read, or the dice in view.');
    for (let i = 0; i < 4; i++) {
      await page.getByRole('button', { name: /^Die 2: / }).click();
      await page.getByRole('button', { name: 'No die here' }).click();
    }
    expect(await page.getByTestId('camera-read').textContent()).toMatch(/^[1-6]$/);
    await page.getByTestId('confirm-roll').click();
    await page.getByTestId('camera-read').waitFor({ state: 'detached' });
    expect(await page.getByTestId('rule-error').count()).toBe(0);
  });

  it('turns the camera off for the dice pad, and back on', async () => {
    const { page } = app.session;
    await page.getByTestId('camera-toggle').click();
    expect(await page.getByTestId('table-camera').count()).toBe(0);
    await page.getByTestId('dice-pad').waitFor();
    await page.getByTestId('camera-toggle').click();
    await page.getByTestId('table-camera').waitFor();
    expect(await page.getByTestId('dice-pad').count()).toBe(0);
  });
});
