/**
 * A phone short of memory may kill the dice reader's worker in the middle of a game. The camera
 * then starts a new reader by itself and reads on, instead of saying "failed" for the rest of
 * the evening (TableCamera.svelte `startReader`, dice-reader.ts `DiceReaderLost`).
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
  // every dice reader worker the page starts, to lose one on purpose
  await app.session.page.evaluate(() => {
    const w = window as unknown as { __readers: Worker[] };
    w.__readers = [];
    const Original = window.Worker;
    window.Worker = class extends Original {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        if (options?.name === 'dice-reader') w.__readers.push(this);
      }
    };
  });
});

afterAll(async () => {
  await app?.close();
});

describe('the dice reader lost at the table', () => {
  it('is started again by the camera, which reads on', async () => {
    const { page, errors } = app.session;
    await startGame(page, 'five-thousand', ['Ann', 'Bob']);
    const camera = page.getByTestId('table-camera');
    await page.locator('[data-testid="table-camera"][data-reader="ready"]').waitFor({ timeout: 45_000 });
    expect(await page.evaluate(() => (window as unknown as { __readers: Worker[] }).__readers.length)).toBe(1);

    // the worker dies as a crashed one does: an error event, and it answers nothing more
    await page.evaluate(() => (window as unknown as { __readers: Worker[] }).__readers[0]!.dispatchEvent(new ErrorEvent('error', { message: 'killed for the test' })));

    const read = page.getByTestId('camera-read');
    await read.waitFor({ timeout: 45_000 });
    expect(await read.getAttribute('data-source')).toBe('camera');
    expect(((await read.textContent()) ?? '').split(' ')).toHaveLength(5);
    expect(await page.evaluate(() => (window as unknown as { __readers: Worker[] }).__readers.length)).toBe(2);
    expect(await camera.getAttribute('data-reader')).toBe('ready');
    expect(await page.getByTestId('camera-status').textContent()).not.toMatch(/failed/);
    expect(errors).toEqual([]);
  });
});
