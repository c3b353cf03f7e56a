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
  // every dice reader worker the page starts, to lose one on purpose (on every load of the page)
  await app.session.page.addInitScript(() => {
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
  await app.session.page.reload();
});

type Readers = { __readers: Worker[] };

/** Kills the newest dice reader worker as a crash does: an error event, and nothing answered after. */
async function loseTheReader(page: AppWithCamera['session']['page']): Promise<void> {
  await page.evaluate(() => (window as unknown as Readers).__readers.at(-1)!.dispatchEvent(new ErrorEvent('error', { message: 'killed for the test' })));
}

afterAll(async () => {
  await app?.close();
});

describe('the dice reader lost at the table', () => {
  it('is started again by the camera, which reads on', async () => {
    const { page, errors } = app.session;
    await startGame(page, 'five-thousand', ['Ann', 'Bob']);
    const camera = page.getByTestId('table-camera');
    await page.locator('[data-testid="table-camera"][data-reader="ready"]').waitFor({ timeout: 45_000 });
    expect(await page.evaluate(() => (window as unknown as Readers).__readers.length)).toBe(1);

    // the worker dies as a crashed one does: an error event, and it answers nothing more
    await loseTheReader(page);

    const read = page.getByTestId('camera-read');
    await read.waitFor({ timeout: 45_000 });
    expect(await read.getAttribute('data-source')).toBe('camera');
    expect(((await read.textContent()) ?? '').split(' ')).toHaveLength(5);
    expect(await page.evaluate(() => (window as unknown as Readers).__readers.length)).toBe(2);
    expect(await camera.getAttribute('data-reader')).toBe('ready');
    expect(await page.getByTestId('camera-status').textContent()).not.toMatch(/failed/);
    expect(errors).toEqual([]);
  });

  it('is given up after three restarts: the camera stops reading and the dice pad opens', async () => {
    const { page } = app.session;
    // Home, on a fresh load of the page: the readers counted are this new table's alone
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('new-game').waitFor();
    await page.reload();
    await startGame(page, 'five-thousand', ['Cy', 'Dee']);
    const readers = (): Promise<number> => page.evaluate(() => (window as unknown as Readers).__readers.length);
    for (let lost = 0; lost < 4; lost++) {
      // the reader started after `lost` losses (a fresh page: this table's readers alone) is ready
      await page.waitForFunction(
        (n) => (window as unknown as Readers).__readers.length === n && document.querySelector('[data-testid="table-camera"]')?.getAttribute('data-reader') === 'ready',
        lost + 1,
        { timeout: 45_000 },
      );
      await loseTheReader(page);
    }
    await page.locator('[data-testid="table-camera"][data-reader="error"]').waitFor();
    expect(await page.getByTestId('camera-status').textContent()).toMatch(/^\s*The dice reader stopped \(dice reader worker failed: killed for the test\)\. Enter the dice with the dice pad\.\s*$/);
    await page.getByTestId('dice-pad').waitFor();
    // no fifth reader is started
    await page.waitForTimeout(1000);
    expect(await readers()).toBe(4);
  });
});
