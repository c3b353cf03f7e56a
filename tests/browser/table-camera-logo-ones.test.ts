/**
 * Pip dice whose 1 carries a maker's logo, which the die-face reader reads `other` (a die, but no
 * pip face it knows), at the table. Two fake cameras of our own renderer's dice
 * (tests/fixtures/dice-photos/logo-ones), a game of 5000 for three players with an ante in each:
 * - roll 9 (1 1 2 2 5, its two ones a key on a blue die): beside dice read as pips, a die read
 *   `other` is a branded 1 (die-face-reader.ts `brandedOnesAmongPips`), so the camera proposes
 *   1 1 2 2 5 at once, nothing to fill in;
 * - five such ones and nothing else (`logoOnesAlone`): no pip die tells what they are, so the
 *   camera proposes five `?`; the player fills them with 1s and confirms, and from then on the
 *   table reads those dice as 1s (pip-learning.ts): the marks over the picture say 1 where they
 *   said ?, and the camera says what it learnt from.
 * Each frame is what Node reads (checked first), so the tests do not depend on chance.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAppWithCamera, ROOT, type AppWithCamera } from './harness.ts';
import { headline, startGame } from './table-helpers.ts';
import { createNodeDetector } from '../../scripts/lib/node-vision.ts';
import { logoOnesAlone } from '../../scripts/lib/fixture-mosaic.ts';
import { imageToY4m, y4mToRgba } from '../../scripts/y4m.ts';

const ROLL_9 = join(ROOT, 'tests/fixtures/dice-photos/logo-ones/roll-009.jpg');

/** The frame as the fake camera streams it (640×480, 4:2:0), read by the shipped reader in Node: its values, `?` for none, sorted. */
async function nodeRead(picture: Buffer): Promise<string[]> {
  const detector = await createNodeDetector({ threads: 1 });
  try {
    const { dice } = await detector.detect(y4mToRgba(await imageToY4m(picture, { width: 640, height: 480 })));
    return dice.map((d) => String(d.value ?? '?')).sort();
  } finally {
    await detector.release();
  }
}

/** The labels drawn over the camera picture, sorted. */
async function markLabels(app: AppWithCamera): Promise<string[]> {
  const texts = await app.session.page.locator('[data-testid="camera-view"] svg text').allTextContents();
  return texts.map((t) => t.trim()).sort();
}

/** For one describe block: the app with a fake camera of `picture`, and what Node reads of the same frame. */
function cameraOf(picture: () => Promise<Buffer>): { app: () => AppWithCamera; nodeRead: () => string[] } {
  let app: AppWithCamera;
  let read: string[];
  beforeAll(async () => {
    const frame = await picture();
    read = await nodeRead(frame);
    app = await openAppWithCamera(inject('distDir'), frame, 640, 480);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });
  return { app: () => app, nodeRead: () => read };
}

describe('branded ones among pip dice', () => {
  const camera = cameraOf(async () => readFileSync(ROLL_9));

  it('are proposed as 1s at once', async () => {
    const app = camera.app();
    const { page, errors } = app.session;
    expect(camera.nodeRead()).toEqual(['1', '1', '2', '2', '5']);
    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
    const proposal = page.getByTestId('camera-read');
    await proposal.waitFor({ timeout: 60_000 });
    expect((await proposal.textContent())?.split(' ').sort()).toEqual(['1', '1', '2', '2', '5']);
    expect(await page.getByTestId('unread-die').count()).toBe(0);
    expect(await markLabels(app)).toEqual(['1', '1', '2', '2', '5']);
    await page.getByTestId('confirm-roll').click();
    await proposal.waitFor({ state: 'detached' });
    expect(await headline(page)).toMatch(/^Ann rolled 1 1 2 2 5 = 250 \(1 1 5 set aside\)/);
    expect(errors).toEqual([]);
  });
});

describe('dice the reader cannot read, filled in once', () => {
  const camera = cameraOf(async () => (await logoOnesAlone(0)).jpeg);

  it('reads them as the player filled them in, from then on', async () => {
    const app = camera.app();
    const { page, errors } = app.session;
    // the premise: all five are read `other`, and none beside them as pips
    expect(camera.nodeRead()).toEqual(['?', '?', '?', '?', '?']);

    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
    const proposal = page.getByTestId('camera-read');
    // nothing read yet to show in the read line: the five ? are what it proposes
    await page.getByTestId('unread-die').first().waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('unread-die').count()).toBe(5);
    expect(await markLabels(app)).toEqual(['?', '?', '?', '?', '?']);
    const tableCamera = page.getByTestId('table-camera');
    expect(await tableCamera.getAttribute('data-learned')).toBe('0');

    for (let i = 0; i < 5; i++) {
      await page.getByTestId('unread-die').first().click();
      await page.locator('button[data-fix-face="1"]').click();
    }
    expect(await proposal.textContent()).toBe('1 1 1 1 1');
    await page.getByTestId('confirm-roll').click();
    await proposal.waitFor({ state: 'detached' });
    expect(await headline(page)).toMatch(/^Ann rolled 1 1 1 1 1 = /);

    // learnt: the same dice now read as 1s
    await page.waitForFunction(() => document.querySelector('[data-testid="table-camera"]')?.getAttribute('data-learned') === '5');
    expect(await page.getByTestId('camera-reads').textContent()).toBe('Learning from 5 dice you filled in.');
    await expect.poll(() => markLabels(app), { timeout: 20_000 }).toEqual(['1', '1', '1', '1', '1']);
    // the same dice, still lying there and now read in full, are not proposed as the next roll
    await page.waitForTimeout(2_000);
    expect(await proposal.count()).toBe(0);
    expect(await page.getByTestId('camera-status').textContent()).toBe('These dice were read already: waiting for the throw.');
    expect(errors).toEqual([]);
  });
});
