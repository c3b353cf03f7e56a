/**
 * A camera turned off and on through an evening: each camera view taken off the table must be
 * let go of. Each one used to stay in memory with its <video>, its stopped stream and the whole
 * view (192 DOM nodes and a listener each time; `npm run bench -- --only soak`): Chromium keeps
 * a stopped stream alive while a <video> holds it, and the stream's track held the camera
 * session's `ended` listener, and through it the view.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAppWithCamera, ROOT, type AppWithCamera } from './harness.ts';
import { startGame } from './table-helpers.ts';

const PHOTO = join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg');

let app: AppWithCamera;

beforeAll(async () => {
  app = await openAppWithCamera(inject('distDir'), readFileSync(PHOTO), 640, 480);
});

afterAll(async () => {
  await app?.close();
});

describe('the camera turned off and on', () => {
  it('lets each camera view it took off the table be collected', async () => {
    const { page, context, errors } = app.session;
    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
    const live = page.locator('[data-testid="camera-view"][data-state="live"]');
    /** The <video> on the table now, kept only weakly. */
    const keepVideo = () =>
      page.evaluate(() => {
        const w = window as unknown as { __videos?: WeakRef<HTMLVideoElement>[] };
        const video = document.querySelector<HTMLVideoElement>('[data-testid="camera-view"] video');
        if (!video) throw new Error('no camera picture on the table');
        (w.__videos ??= []).push(new WeakRef(video));
      });
    await live.waitFor({ timeout: 30_000 });
    await keepVideo();
    const times = 4;
    for (let i = 0; i < times; i++) {
      await page.getByTestId('camera-toggle').click();
      await page.getByTestId('table-camera').waitFor({ state: 'detached' });
      await page.getByTestId('camera-toggle').click();
      await live.waitFor({ timeout: 30_000 });
      // the picture plays a while, as at a table
      await page.waitForTimeout(300);
      await keepVideo();
    }
    const cdp = await context.newCDPSession(page);
    for (let i = 0; i < 3; i++) {
      await cdp.send('HeapProfiler.collectGarbage');
      await page.waitForTimeout(100);
    }
    await cdp.detach();
    const kept = await page.evaluate(() =>
      (window as unknown as { __videos: WeakRef<HTMLVideoElement>[] }).__videos.map((r) => {
        const video = r.deref();
        return video === undefined ? 'collected' : video.isConnected ? 'on the table' : 'kept';
      }),
    );
    expect(kept).toEqual([...Array<string>(times).fill('collected'), 'on the table']);
    expect(errors).toEqual([]);
  }, 120_000);
});
