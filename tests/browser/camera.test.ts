import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeCameraFile, launch, ROOT, serve, type StaticServer } from './harness.ts';
import { padRoll, startGame } from './table-helpers.ts';
import { slowLine } from '../../scripts/lib/slow-line.ts';

/** onnxruntime's wasm, held back on a slow line to keep the dice reader starting. */
const WASM = /\/ort-wasm-simd-threaded-[\w-]+\.wasm\.gz$/;

/** The table's sentence while a first visit downloads the reader (first-visit.test), without the table's "Enter the dice with the dice pad meanwhile." */
const DOWNLOAD_FIGURE = /^\s*Downloading the dice reader: \d+\.\d of 5\.4\u00a0MB \(on a first visit only\)…\s*$/;
/** The same before the first count comes. */
const DOWNLOAD_UNCOUNTED = /^\s*Downloading the dice reader \(5\.4\u00a0MB, on a first visit only\)…\s*$/;
/** What the read line says while a reader starts. */
const READER_STARTING = [/^Starting the dice reader…$/, DOWNLOAD_FIGURE, DOWNLOAD_UNCOUNTED, /^Still starting the dice reader…$/];

let server: StaticServer;
let camera: { path: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  server = await serve(inject('distDir'));
  // A synthetic table: green felt with a white square, enough for the fake camera to stream.
  const picture = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#1d5c3a' } })
    .composite([{ input: { create: { width: 80, height: 80, channels: 3, background: '#ffffff' } }, left: 280, top: 200 }])
    .png()
    .toBuffer();
  camera = await fakeCameraFile(picture, 640, 480);
});

afterAll(async () => {
  await camera?.cleanup();
  await server?.stop();
});

async function openCameraCheck(page: import('playwright-core').Page): Promise<void> {
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByTestId('camera-check').click();
}

describe('camera', () => {
  it('streams the fake camera at its size', async () => {
    const session = await launch({ camera: camera.path });
    try {
      await openCameraCheck(session.page);
      await session.page.getByText('The camera gives 640 × 480 pixels.').waitFor();
      expect(await session.page.getByTestId('camera-view').getAttribute('data-state')).toBe('live');
      // frames flow from the camera through the frame pump to the dice reader, once it has started
      await session.page.waitForFunction(() => Number.parseInt(document.querySelector('[data-testid="camera-fps"]')?.textContent ?? '0', 10) > 0, null, { timeout: 45_000 });
    } finally {
      await session.close();
    }
  });

  it('reads the dice in view, draws them, and reads as another kit when asked', async () => {
    // a matteop65 val photograph of five dice (licence beside it)
    const photo = readFileSync(join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg'));
    const dice = await fakeCameraFile(photo, 640, 480);
    const session = await launch({ camera: dice.path });
    try {
      const { page } = session;
      // every (read line, pace line) the screen shows, as it changes
      await page.addInitScript(() => {
        const shown: Array<{ read: string; pace: string | null }> = [];
        (window as unknown as { paceShown: typeof shown }).paceShown = shown;
        const note = (): void => {
          const read = document.querySelector('[data-testid="check-read"]');
          if (!read) return;
          const now = { read: read.textContent?.trim() ?? '', pace: document.querySelector('[data-testid="camera-fps"]')?.textContent?.trim() ?? null };
          const last = shown.at(-1);
          if (!last || last.read !== now.read || last.pace !== now.pace) shown.push(now);
        };
        new MutationObserver(note).observe(document, { subtree: true, childList: true, characterData: true });
      });
      await openCameraCheck(page);
      const read = page.getByTestId('check-read');
      await page.waitForFunction(() => /^I see/.test(document.querySelector('[data-testid="check-read"]')?.textContent?.trim() ?? ''), null, { timeout: 45_000 });
      expect((await read.textContent())?.trim()).toMatch(/^I see 5 dice: [1-6]( [1-6]){4}\.$/);
      expect(await page.getByTestId('camera-view').locator('svg rect').count()).toBe(5);
      // how long a read takes on this device, beside the frames that reach the reader
      await page.waitForFunction(() => /each read takes about \d+ ms/.test(document.querySelector('[data-testid="camera-fps"]')?.textContent ?? ''));

      // asked for while the standard reader's read is in flight (sent to its worker, unanswered):
      // that read fails as its reader is closed, and a reader closed on purpose says nothing
      await page.evaluate(
        () =>
          new Promise<void>((resolve) => {
            const original = Worker.prototype.postMessage;
            const post = original as (this: Worker, message: unknown, transfer?: Transferable[]) => void;
            Worker.prototype.postMessage = function (this: Worker, message: unknown, transfer?: Transferable[]) {
              post.call(this, message, transfer);
              if ((message as { type?: string } | null)?.type !== 'read') return;
              Worker.prototype.postMessage = original;
              const select = document.querySelector<HTMLSelectElement>('[data-testid="check-kit"]')!;
              select.value = [...select.options].find((o) => o.text === 'Corellian Spike dice (symbols valued 1–6)')!.value;
              select.dispatchEvent(new Event('change'));
              resolve();
            } as Worker['postMessage'];
          }),
      );
      await page.waitForFunction(() => /^(I see|No dice)/.test(document.querySelector('[data-testid="check-read"]')?.textContent?.trim() ?? ''), null, { timeout: 45_000 });
      // No frames reach a reader that is starting, so no pace is shown then: not the last
      // reader's, kept while this one starts and then shown beside its first read time, nor
      // the frames the camera sends before the first reader is ready
      const shown = await page.evaluate(() => (window as unknown as { paceShown: Array<{ read: string; pace: string | null }> }).paceShown);
      // (a first visit: the first reader says how far its download has got)
      const starting = shown.filter((s) => READER_STARTING.some((sentence) => sentence.test(s.read)));
      expect(starting.length).toBeGreaterThanOrEqual(2); // the first reader, and the one asked for
      expect(starting.filter((s) => s.pace !== null)).toEqual([]);
      // between a reader ready and its first read (seconds on a slow phone) the line says so, never goes blank
      expect(shown.filter((s) => s.read === '')).toEqual([]);
      expect(shown.some((s) => s.read === 'Looking for the dice…')).toBe(true);
      // (before, the closed reader's read was said once the new reader was ready: "The dice reader stopped reading (dice reader closed).")
      expect(shown.filter((s) => /stopped reading/.test(s.read))).toEqual([]);
      expect(session.errors).toEqual([]);
    } finally {
      await session.close();
      await dice.cleanup();
    }
  });

  it('says how far the dice reader has downloaded on a first visit, in the table’s words, then that it is still starting', async () => {
    // a first visit (a fresh profile), the reader's wasm held back until the test has looked: the
    // first install downloads it into the precache, and says how far it has got (src/sw.ts)
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const line = await slowLine(server.url, { bytesPerSecond: 4 * 1024 * 1024, roundTripMs: 20, hold: (path) => (WASM.test(path) ? released : null) });
    const session = await launch({ camera: camera.path });
    try {
      const { page } = session;
      // every sentence the read line shows, as it changes
      await page.addInitScript(() => {
        const shown: string[] = [];
        (window as unknown as { readShown: string[] }).readShown = shown;
        new MutationObserver(() => {
          const read = document.querySelector('[data-testid="check-read"]')?.textContent?.trim();
          if (read !== undefined && shown.at(-1) !== read) shown.push(read);
        }).observe(document, { subtree: true, childList: true, characterData: true });
      });
      await page.goto(line.url);
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.getByTestId('camera-check').click();
      // (before, "Starting the dice reader…", then "Still starting the dice reader…", with no figure)
      await page.getByTestId('check-read').filter({ hasText: DOWNLOAD_FIGURE }).waitFor({ timeout: 15_000 });
      release();
      await page.waitForFunction(() => /^(Looking for the dice|I see|No dice)/.test(document.querySelector('[data-testid="check-read"]')?.textContent?.trim() ?? ''), null, { timeout: 60_000 });
      const shown = await page.evaluate(() => (window as unknown as { readShown: string[] }).readShown);
      const starting = shown.slice(0, shown.findIndex((s) => /^(Looking for the dice|I see|No dice)/.test(s)));
      // the figure (uncounted until the service worker first answers), then still starting once all of it has come
      expect(starting.filter((s) => !DOWNLOAD_FIGURE.test(s) && !DOWNLOAD_UNCOUNTED.test(s))).toEqual(['Still starting the dice reader…']);
      expect(starting.at(-1)).toBe('Still starting the dice reader…');
      expect(session.errors).toEqual([]);
    } finally {
      release();
      await session.close();
      await line.close();
    }
  }, 120_000);

  it('a denied camera shows a clear screen that offers the dice pad, and the pad works', async () => {
    const session = await launch({ camera: camera.path, cameraPermission: 'deny' });
    try {
      const { page } = session;
      await openCameraCheck(page);
      const problem = page.getByTestId('camera-problem');
      await problem.waitFor();
      expect(await problem.getAttribute('data-kind')).toBe('denied');
      expect(await problem.textContent()).toMatch(/may not use the camera/);
      await page.getByTestId('use-dice-pad').click();
      const pad = page.getByTestId('dice-pad');
      for (const face of ['1', '5', '3', '3', '6']) await pad.locator(`button[data-face="${face}"]`).click();
      await page.getByTestId('dice-pad-done').click();
      expect(await page.getByTestId('pad-result').textContent()).toBe('You entered 1 5 3 3 6.');
      // and by keyboard: digits enter dice, Backspace takes the last out, Enter submits
      await pad.locator('button[data-face="2"]').focus();
      await page.keyboard.type('24696'); // 9 is no face
      await page.keyboard.press('Backspace');
      await page.keyboard.type('12');
      await page.getByTestId('dice-pad-done').focus();
      await page.keyboard.press('Enter');
      expect(await page.getByTestId('pad-result').textContent()).toBe('You entered 2 4 6 1 2.');
    } finally {
      await session.close();
    }
  });

  it('at a phone\'s table, a refused camera is said in full once, then the table goes on without it: the dice pad stays on the screen', async () => {
    const session = await launch({ camera: camera.path, cameraPermission: 'deny' });
    try {
      const phone = await session.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      const page = await phone.newPage();
      await page.goto(server.url);
      await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
      const problem = page.getByTestId('camera-problem');
      await problem.waitFor();
      expect(await problem.getAttribute('role')).toBe('alert');
      expect(await problem.textContent()).toMatch(/may not use the camera/);
      await padRoll(page, ['2', '3', '3', '3', '4']);
      // read, and the player went on by hand: the camera off, why in a line below the pad, and
      // the pad's faces on the first screen
      await problem.waitFor({ state: 'detached' });
      expect(await page.getByTestId('camera-note').textContent()).toMatch(/may not use the camera/);
      // on the screen together, as the table rests after the roll: what happened, and the pad
      const headline = await page.getByTestId('headline').boundingBox();
      const lastFace = await page.getByTestId('dice-pad').locator('button[data-face="6"]').boundingBox();
      expect(headline!.y).toBeGreaterThanOrEqual(0);
      expect(lastFace!.y + lastFace!.height).toBeLessThanOrEqual(844);
      const padFirst = await page.evaluate(() => {
        const pad = document.querySelector('[data-testid="dice-pad"]')!;
        const toggle = document.querySelector('[data-testid="camera-toggle"]')!;
        return Boolean(pad.compareDocumentPosition(toggle) & Node.DOCUMENT_POSITION_FOLLOWING);
      });
      expect(padFirst).toBe(true);
      // asked again and refused again: said in full again
      await page.getByRole('button', { name: 'Read the dice with the camera' }).click();
      await problem.waitFor();
      expect(await problem.getAttribute('role')).toBe('alert');
    } finally {
      await session.close();
    }
  });

  it('a device without a camera says so and offers the dice pad', async () => {
    const session = await launch();
    try {
      await openCameraCheck(session.page);
      const problem = session.page.getByTestId('camera-problem');
      await problem.waitFor();
      expect(['absent', 'unavailable']).toContain(await problem.getAttribute('data-kind'));
      await session.page.getByTestId('use-dice-pad').waitFor();
    } finally {
      await session.close();
    }
  });
});
