/**
 * Pip dice the reader cannot read, learnt at the table (src/lib/vision/pip-learning.ts). The fake
 * camera streams five dice of our own renderer (tests/fixtures/dice-photos/logo-ones, roll 9:
 * 1 1 2 2 5) whose two ones carry a key for a logo, which the die-face reader reads `other`. A
 * game of 5000 for three players with an ante: the camera proposes 2 2 5 and two `?`; the player
 * fills both with a 1 and confirms. From then on the table reads those dice as 1s: the marks over
 * the picture say 1 where they said ?, and the camera says what it learnt from. The same frame is
 * what Node reads (checked first), so the test does not depend on chance.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAppWithCamera, ROOT, type AppWithCamera } from './harness.ts';
import { headline, startGame } from './table-helpers.ts';
import { createNodeDetector } from '../../scripts/lib/node-vision.ts';
import { imageToY4m, y4mToRgba } from '../../scripts/y4m.ts';

const PHOTO = join(ROOT, 'tests/fixtures/dice-photos/logo-ones/roll-009.jpg');

let app: AppWithCamera;
let nodeRead: Array<number | null>;

beforeAll(async () => {
  const picture = readFileSync(PHOTO);
  // the frame as the fake camera streams it (640×480, 4:2:0), read by the shipped reader in Node
  const detector = await createNodeDetector({ threads: 1 });
  const { dice } = await detector.detect(y4mToRgba(await imageToY4m(picture, { width: 640, height: 480 })));
  await detector.release();
  nodeRead = dice.map((d) => d.value);
  app = await openAppWithCamera(inject('distDir'), picture, 640, 480);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

/** The labels drawn over the camera picture, sorted. */
async function markLabels(): Promise<string[]> {
  const texts = await app.session.page.locator('[data-testid="camera-view"] svg text').allTextContents();
  return texts.map((t) => t.trim()).sort();
}

describe('dice the reader cannot read, filled in once', () => {
  it('reads them as the player filled them in, from then on', async () => {
    const { page, errors } = app.session;
    // the premise: the two logo ones are read `other`, the rest right
    expect(nodeRead.map((v) => String(v ?? '?')).sort()).toEqual(['2', '2', '5', '?', '?']);

    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
    const read = page.getByTestId('camera-read');
    await read.waitFor({ timeout: 60_000 });
    expect(await read.textContent()).toBe('2 2 5');
    expect(await page.getByTestId('unread-die').count()).toBe(2);
    expect(await markLabels()).toEqual(['2', '2', '5', '?', '?']);
    const camera = page.getByTestId('table-camera');
    expect(await camera.getAttribute('data-learned')).toBe('0');

    for (let i = 0; i < 2; i++) {
      await page.getByTestId('unread-die').first().click();
      await page.locator('button[data-fix-face="1"]').click();
    }
    expect(await read.textContent()).toBe('2 2 5 1 1');
    await page.getByTestId('confirm-roll').click();
    await read.waitFor({ state: 'detached' });
    expect(await headline(page)).toMatch(/^Ann rolled 1 1 2 2 5 = 250 \(1 1 5 set aside\)/);

    // learnt: the same dice now read as 1s
    await page.waitForFunction(() => document.querySelector('[data-testid="table-camera"]')?.getAttribute('data-learned') === '2');
    expect(await page.getByTestId('camera-reads').textContent()).toBe('Learning from 2 dice you filled in.');
    await expect.poll(markLabels, { timeout: 20_000 }).toEqual(['1', '1', '2', '2', '5']);
    // the same dice, still lying there and now read in full, are not proposed as the next roll
    await page.waitForTimeout(2_000);
    expect(await read.count()).toBe(0);
    expect(await page.getByTestId('camera-status').textContent()).toBe('These dice were read already: waiting for the throw.');
    expect(errors).toEqual([]);
  });
});
