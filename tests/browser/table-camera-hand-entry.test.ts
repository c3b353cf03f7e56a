/**
 * A roll entered by hand is compared with the dice the camera settles on next, so that the dice
 * just entered are not proposed as the next throw (`diceEnteredByHand`, table-camera-after-pad.test).
 * Once a frame shows no dice (picked up to be thrown), that roll is let go
 * (`handEntryAfterFrame`, wired in TableCamera's frame loop): dice that settle after it are a
 * new throw, proposed even when they show the faces entered.
 *
 * The fake camera streams five pip dice ("2 3 3 3 6"); while `blankFrames` is set, each frame the
 * table sends its reader is swapped for an empty table of the same size, as a camera sees one
 * with the dice picked up.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openAppWithCamera, ROOT, type AppWithCamera } from './harness.ts';
import { padRoll, startGame } from './table-helpers.ts';

let app: AppWithCamera;

beforeAll(async () => {
  app = await openAppWithCamera(inject('distDir'), readFileSync(path.join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg')), 640, 480);
  const { page } = app.session;
  page.setDefaultTimeout(30_000);
  await page.addInitScript(() => {
    const w = window as unknown as { blankFrames: boolean; blankReads: number };
    w.blankFrames = true;
    w.blankReads = 0;
    const post = Worker.prototype.postMessage as (this: Worker, message: unknown, transfer?: Transferable[]) => void;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, transfer?: Transferable[]) {
      const read = message as { type?: string; frame?: unknown } | null;
      if (w.blankFrames && read?.type === 'read' && read.frame instanceof ImageBitmap) {
        const { width, height } = read.frame;
        read.frame.close();
        const canvas = new OffscreenCanvas(width, height);
        const context = canvas.getContext('2d')!;
        context.fillStyle = '#2f5d3a'; // a bare table
        context.fillRect(0, 0, width, height);
        const empty = canvas.transferToImageBitmap();
        w.blankReads += 1;
        post.call(this, { ...read, frame: empty }, [empty]);
        return;
      }
      post.call(this, message, transfer);
    } as Worker['postMessage'];
  });
  await page.reload();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const blankReads = (app: AppWithCamera): Promise<number> => app.session.page.evaluate(() => (window as unknown as { blankReads: number }).blankReads);

describe('a roll entered by hand, then an empty table in view', () => {
  it('lets the entered roll go: dice thrown after it showing the same faces are proposed', async () => {
    const { page, errors } = app.session;
    await startGame(page, 'five-thousand', ['Ann', 'Bob']);
    await page.locator('[data-testid="table-camera"][data-reader="ready"]').waitFor({ timeout: 90_000 });
    const status = page.getByTestId('camera-status');
    await status.getByText('No dice in view.').waitFor();
    // the roll entered by hand while the camera sees an empty table
    await page.getByTestId('dice-pad-toggle').click();
    await padRoll(page, ['2', '3', '3', '3', '6']);
    expect(await page.getByTestId('headline').textContent()).toMatch(/^Ann rolled 2 3 3 3 6 = 300 \(3 3 3 set aside\)\. Roll 2 dice/);
    // frames of the empty table read since: the entered roll is let go (two sent, so one at least read after it)
    const after = await blankReads(app);
    await page.waitForFunction((n) => (window as unknown as { blankReads: number }).blankReads >= n + 2, after);
    // Ann's two dice thrown land 2 and 6 beside the three kept: the faces entered, a new throw
    await page.evaluate(() => ((window as unknown as { blankFrames: boolean }).blankFrames = false));
    const read = page.getByTestId('camera-read');
    await Promise.race([read.waitFor({ timeout: 60_000 }), status.getByText(/^These dice were entered already/).waitFor({ timeout: 60_000 })]);
    // (held as the roll entered, it was "These dice were entered already: waiting for the throw.")
    expect((await status.textContent())?.trim()).not.toMatch(/entered already/);
    expect(await read.getAttribute('data-source')).toBe('camera');
    // the dice in view, left to right, the three kept among them
    expect(await read.textContent()).toBe('6 3 3 3 2');
    expect(errors).toEqual([]);
  }, 180_000);
});
