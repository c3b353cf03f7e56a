/**
 * A first visit on a slow line: the dice reader is still downloading when the player enters the
 * first roll with the dice pad. When the reader comes ready, its first read of the dice on the
 * table must not take the place of the roll entered by hand and waiting to be confirmed, nor, once
 * that roll is confirmed, be proposed as the next throw.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { slowLine, type SlowLine } from '../../scripts/lib/slow-line.ts';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { fakeCameraFile, launch, ROOT, serve, type BrowserSession, type StaticServer } from './harness.ts';
import { move, padEnter, startGame } from './table-helpers.ts';

const PHOTO = join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg');
/** A rendered roll of five Face Off dice (table-symbol-camera.test). */
const FACE_OFF_PHOTO = join(ROOT, 'tests/fixtures/symbol-photos/rolls/face-off-roll-002.jpg');
const WASM = /\/ort-wasm-simd-threaded-[\w-]+\.wasm\.gz$/;

let server: StaticServer;
let session: BrowserSession;
let camera: { path: string; cleanup: () => Promise<void> };
/** A browser whose camera shows Face Off dice. */
let symbolSession: BrowserSession;
let symbolCamera: { path: string; cleanup: () => Promise<void> };
let line: SlowLine;
let padEntered!: () => void;

beforeAll(async () => {
  server = await serve(inject('distDir'));
  camera = await fakeCameraFile(readFileSync(PHOTO), 640, 480);
  session = await launch({ camera: camera.path });
  symbolCamera = await fakeCameraFile(readFileSync(FACE_OFF_PHOTO), 480, 640);
  symbolSession = await launch({ camera: symbolCamera.path });
  const entered = new Promise<void>((resolve) => (padEntered = resolve));
  // the reader's wasm is held back until the roll is entered by hand: the reader is still loading then
  line = await slowLine(server.url, { bytesPerSecond: 4 * 1024 * 1024, roundTripMs: 20, hold: (path) => (WASM.test(path) ? entered : null) });
});

afterAll(async () => {
  await session?.close();
  await symbolSession?.close();
  await line?.close();
  await server?.stop();
  await camera?.cleanup();
  await symbolCamera?.cleanup();
});

/** A phone's browser context (412×860, the camera allowed) in `on`'s browser, and a page in it. */
async function phonePage(on: BrowserSession = session, options: { isMobile?: boolean; hasTouch?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await on.browser.newContext({ viewport: { width: 412, height: 860 }, ...options });
  await context.grantPermissions(['camera']);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return { context, page };
}

/**
 * A first visit in a fresh profile on a slow line of its own, its reader's wasm held back until
 * `release` is called; `page` is at the table of a new game (of 5000, unless `game` says) for
 * Ann, Bob and Cy, in `on`'s browser (the pip dice's camera, unless it says).
 */
async function heldReaderTable(ante: number, { game = 'five-thousand', on = session }: { game?: string; on?: BrowserSession } = {}): Promise<{ page: Page; release: () => void; close: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held = await slowLine(server.url, { bytesPerSecond: 4 * 1024 * 1024, roundTripMs: 20, hold: (path) => (WASM.test(path) ? released : null) });
  const { context, page } = await phonePage(on);
  await page.goto(held.url);
  await startGame(page, game, ['Ann', 'Bob', 'Cy'], ante);
  return {
    page,
    release,
    close: async () => {
      await context.close();
      await held.close();
    },
  };
}

/** Notes where the dice pad is at every frame from now (`padTops`): whether anything moved it under the finger. */
async function watchPadTops(pad: Locator): Promise<void> {
  await pad.evaluate((element) => {
    const tops = new Set<number>();
    const sample = (): void => {
      tops.add(Math.round(element.getBoundingClientRect().top));
      requestAnimationFrame(sample);
    };
    sample();
    (window as unknown as { padTops: Set<number> }).padTops = tops;
  });
}

/** The pad's tops seen since `watchPadTops`, each once. */
async function padTops(page: Page): Promise<number[]> {
  return page.evaluate(() => [...(window as unknown as { padTops: Set<number> }).padTops]);
}

describe('the dice reader comes ready while a roll entered by hand waits', () => {
  it('leaves the entered roll in place; the camera reads again after it is confirmed', async () => {
    const { page } = session;
    page.setDefaultTimeout(30_000);
    await page.goto(line.url);
    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
    await page.getByTestId('camera-status').getByText(/^Downloading the dice reader/).waitFor();
    await page.getByTestId('dice-pad-toggle').click();
    await padEnter(page, ['1', '1', '4', '5', '6']);
    padEntered();
    // the reader is ready and sees the (other) dice in the camera's picture
    await page.getByTestId('camera-status').getByText('I see 5 dice.').waitFor({ timeout: 90_000 });
    await page.waitForTimeout(3000);
    const read = page.getByTestId('camera-read');
    expect(await read.getAttribute('data-source')).toBe('pad');
    expect(await read.textContent()).toBe('1 1 4 5 6');
    await page.getByTestId('confirm-roll').click();
    await read.waitFor({ state: 'detached' });
    expect(await page.getByTestId('headline').textContent()).toMatch(/^Ann rolled 1 1 4 5 6 = 250/);
  }, 150_000);

  it('leaves the pad be while dice are being tapped into it: no read pushes it from under the finger', async () => {
    // a fresh profile (a first visit again), its reader held back until a die is tapped in
    const { page, release: tappedIn, close } = await heldReaderTable(2);
    try {
      await page.getByTestId('dice-pad-toggle').click();
      const pad = page.getByTestId('dice-pad');
      await pad.locator('button[data-face="1"]').click();
      // where the pad is, every frame from the first die tapped in until the test looks again
      await watchPadTops(pad);
      tappedIn();
      await page.getByTestId('camera-status').getByText('I see 5 dice.').waitFor({ timeout: 90_000 });
      await page.waitForTimeout(3000);
      // no read proposed above the pad (it would push the pad down by a proposal's height)
      expect(await page.getByTestId('camera-read').count()).toBe(0);
      // nor did the status above it move it: the download's sentence shows from the table's
      // opening, and keeps its height while the pad holds a die (one line once ready, else)
      expect(await padTops(page)).toHaveLength(1);
      // the die tapped in stays, and the roll finished by hand is the one proposed
      for (const face of ['1', '4', '5', '6']) await pad.locator(`button[data-face="${face}"]`).click();
      await page.getByTestId('dice-pad-done').click();
      const read = page.getByTestId('camera-read');
      expect(await read.getAttribute('data-source')).toBe('pad');
      expect(await read.textContent()).toBe('1 1 4 5 6');
    } finally {
      await close();
    }
  }, 150_000);

  it('keeps an open pad still when the reader comes ready before a die is tapped in: the status does not shrink from over it', async () => {
    const { page, release, close } = await heldReaderTable(2);
    try {
      await page.getByTestId('dice-pad-toggle').click();
      const pad = page.getByTestId('dice-pad');
      // the player's finger is on its way to the pad: where the pad is, every frame from now
      await watchPadTops(pad);
      release();
      // the reader ready and reading (a read shown above the pad keeps the pad in place: RollEntry)
      await page.getByTestId('camera-read').waitFor({ timeout: 90_000 });
      await page.waitForTimeout(500);
      // the two-line "still starting" sentence gave way to a one-line one: it pulled the pad up 26 px
      expect(await padTops(page)).toHaveLength(1);
    } finally {
      await close();
    }
  }, 150_000);

  it('keeps an open pad still when a reader downloaded before comes ready: the room of Read again is kept from the start', async () => {
    const { context, page } = await phonePage();
    try {
      // a first visit downloads the reader; the table is opened again (where a reload lands) with its worker's "ready" held
      await page.goto(server.url);
      await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
      await page.locator('[data-testid="table-camera"][data-reader="ready"]').waitFor({ timeout: 90_000 });
      await context.addInitScript(() => {
        const w = window as unknown as { releaseReady: () => void };
        let held: (() => void)[] | null = [];
        w.releaseReady = () => {
          for (const answer of held!.splice(0)) answer();
          held = null;
        };
        const onmessage = Object.getOwnPropertyDescriptor(Worker.prototype, 'onmessage')!;
        Object.defineProperty(Worker.prototype, 'onmessage', {
          configurable: true,
          get(this: Worker) {
            return onmessage.get!.call(this);
          },
          set(this: Worker, handler: ((event: MessageEvent) => void) | null) {
            const worker = this;
            onmessage.set!.call(
              this,
              handler &&
                ((event: MessageEvent) => {
                  if (held && (event.data as { type?: string } | null)?.type === 'ready') held.push(() => handler.call(worker, event));
                  else handler.call(worker, event);
                }),
            );
          },
        });
      });
      await page.goto(server.url);
      await page.getByTestId('camera-status').getByText('Starting the dice reader…').waitFor();
      await page.getByTestId('dice-pad-toggle').click();
      await watchPadTops(page.getByTestId('dice-pad'));
      await page.evaluate(() => (window as unknown as { releaseReady: () => void }).releaseReady());
      await page.getByTestId('camera-read').waitFor({ timeout: 60_000 });
      await page.waitForTimeout(500);
      // (before, the status row grew from one line, 23 px, to the button's 44 as the reader came ready: the pad went 21 px down)
      expect(await padTops(page)).toHaveLength(1);
    } finally {
      await context.close();
    }
  }, 150_000);

  it('keeps an open pad still as a symbol-dice reader comes ready: how it reads is said from the start', async () => {
    const { page, release, close } = await heldReaderTable(2, { game: 'face-off', on: symbolSession });
    try {
      await page.getByTestId('dice-pad-toggle').click();
      await watchPadTops(page.getByTestId('dice-pad'));
      release();
      await page.getByTestId('camera-read').waitFor({ timeout: 90_000 });
      await page.waitForTimeout(500);
      expect(await page.getByTestId('camera-reads').textContent()).toBe('Reading Star Wars Face Off dice by the printed faces.');
      // (before, that line appeared as the reader came ready: the pad went 26 px down)
      expect(await padTops(page)).toHaveLength(1);
    } finally {
      await close();
    }
  }, 150_000);

  it('keeps an open pad still on a Face Off villain\'s private screen as the reader comes ready there', async () => {
    const { page, release, close } = await heldReaderTable(2, { game: 'face-off', on: symbolSession });
    try {
      // the opening roll entered by hand while the reader downloads; Ann goes villain and re-rolls one die in secret
      await page.getByTestId('dice-pad-toggle').click();
      await padEnter(page, ['luke', 'r2d2', 'han', 'vader', 'stormtrooper']);
      await page.getByTestId('confirm-roll').click();
      await page.getByTestId('camera-read').waitFor({ state: 'detached' });
      await move(page, 'Go Villain');
      await page.getByTestId('choose-dice-open').click();
      await page.getByTestId('choose-dice').locator('button[data-token]').first().click();
      await page.getByTestId('choose-dice-confirm').click();
      await page.getByTestId('pass-phone').click();
      await page.getByTestId('private-unlock').click();
      // the pad open there as it was at the table, scrolled into view for the finger
      const privateScreen = page.getByTestId('private-screen');
      await privateScreen.getByTestId('table-camera').waitFor();
      const pad = privateScreen.getByTestId('dice-pad');
      await pad.evaluate((element) => element.scrollIntoView({ block: 'end' }));
      await watchPadTops(pad);
      release();
      await privateScreen.getByTestId('camera-read').waitFor({ timeout: 90_000 });
      await page.waitForTimeout(500);
      // (before, 444 → 465 → 488 px: the status let go of its height as the reads line came, then
      // "I see 5 dice: 1 thrown and 4 kept." took two lines). The read shown above the pad is made
      // up for by a scroll of whole pixels (RollEntry): the pad may end a fraction of one away.
      const tops = await padTops(page);
      expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(1);
    } finally {
      await close();
    }
  }, 150_000);

  it('does not propose the roll entered by hand, when the slow reader first sees its dice after it was confirmed', async () => {
    // a fresh profile, its reader held back until the roll in view is entered and confirmed by hand
    const { page, release: confirmedByHand, close } = await heldReaderTable(5);
    try {
      // the dice lying in the camera's picture, entered by hand and confirmed
      await page.getByTestId('dice-pad-toggle').click();
      await padEnter(page, ['2', '3', '3', '3', '6']);
      await page.getByTestId('confirm-roll').click();
      await page.getByTestId('camera-read').waitFor({ state: 'detached' });
      expect(await page.getByTestId('headline').textContent()).toMatch(/^Ann rolled 2 3 3 3 6 = 300 \(3 3 3 set aside\)\. Roll 2 dice/);
      confirmedByHand();
      // the dice settle: they are the roll just entered, not Ann's next throw of 2 (2 and 6, a bust)
      const status = page.getByTestId('camera-status');
      await Promise.race([
        status.getByText(/^These dice were (read|entered) already/).waitFor({ timeout: 60_000 }),
        page.getByTestId('camera-read').waitFor({ timeout: 60_000 }),
      ]);
      await page.waitForTimeout(2000);
      // (before, the camera proposed them: "Ann rolled 2 6: nothing scores — bust, 300 lost.")
      expect(await page.getByTestId('camera-read').count()).toBe(0);
      // entered with the dice pad, not read by the camera: said as such
      expect((await status.textContent())?.trim()).toBe('These dice were entered already: waiting for the throw.');
      // read again on the player's word, they are proposed
      await page.getByTestId('read-again').click();
      await page.getByTestId('camera-read').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('camera-read').getAttribute('data-source')).toBe('camera');
    } finally {
      await close();
    }
  }, 150_000);

  it('says it is looking for the dice until it has read them, not that none are in view', async () => {
    const { context, page } = await phonePage();
    try {
      // the frames sent to the reader are held while `holdReads` (a slow phone's first read takes seconds)
      await page.addInitScript(() => {
        const w = window as unknown as { holdReads: boolean; heldReads: (() => void)[] };
        w.holdReads = true;
        w.heldReads = [];
        const post = Worker.prototype.postMessage as (this: Worker, message: unknown, transfer?: Transferable[]) => void;
        Worker.prototype.postMessage = function (this: Worker, message: unknown, transfer?: Transferable[]) {
          if (w.holdReads && (message as { type?: string } | null)?.type === 'read') w.heldReads.push(() => post.call(this, message, transfer));
          else post.call(this, message, transfer);
        } as Worker['postMessage'];
      });
      await page.goto(server.url);
      await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 5);
      // the reader ready, its first frame sent and not read yet: five dice lie in view
      await page.locator('[data-testid="table-camera"][data-reader="ready"]').waitFor({ timeout: 90_000 });
      await page.waitForFunction(() => (window as unknown as { heldReads: unknown[] }).heldReads.length > 0);
      expect(await page.getByTestId('camera-status').textContent()).toBe('Looking for the dice…');
      // its first read done, the next frame held: the dice it found are not tracked yet (a die is,
      // once seen in two frames), yet they were seen
      await page.evaluate(() => (window as unknown as { heldReads: (() => void)[] }).heldReads.shift()!());
      await page.waitForFunction(() => (window as unknown as { heldReads: unknown[] }).heldReads.length > 0);
      expect(await page.getByTestId('camera-status').textContent()).toBe('Looking for the dice…');
      await page.evaluate(() => {
        const w = window as unknown as { holdReads: boolean; heldReads: (() => void)[] };
        w.holdReads = false;
        for (const send of w.heldReads.splice(0)) send();
      });
      await page.getByTestId('camera-status').getByText('I see 5 dice.').waitFor({ timeout: 60_000 });
    } finally {
      await context.close();
    }
  }, 150_000);
});

describe('a read arriving while the dice pad is open, no die tapped in yet', () => {
  it('shows above the pad without moving the pad from under the finger about to tap it', async () => {
    const { context, page } = await phonePage(session, { isMobile: true, hasTouch: true });
    try {
      await page.goto(server.url);
      await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
      await page.getByTestId('dice-pad-toggle').click();
      // the player scrolled the pad into view to tap it
      const pad = page.getByTestId('dice-pad');
      await pad.evaluate((element) => element.scrollIntoView({ block: 'end' }));
      // where the pad is at every frame, and whether a read was shown then
      await pad.evaluate((element) => {
        const frames: { top: number; read: boolean }[] = [];
        const sample = (): void => {
          frames.push({ top: Math.round(element.getBoundingClientRect().top), read: document.querySelector('[data-testid="camera-read"]') !== null });
          requestAnimationFrame(sample);
        };
        sample();
        (window as unknown as { padFrames: typeof frames }).padFrames = frames;
      });
      const read = page.getByTestId('camera-read');
      await read.waitFor({ timeout: 90_000 });
      await page.waitForTimeout(500);
      // the camera read the dice: it is proposed, its Confirm in view and focused
      expect(await read.getAttribute('data-source')).toBe('camera');
      const confirm = await page.getByTestId('confirm-roll').boundingBox();
      expect(confirm!.y).toBeGreaterThanOrEqual(0);
      expect(confirm!.y + confirm!.height).toBeLessThanOrEqual(860);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('confirm-roll');
      // and the pad stayed where it was the frame before (before, it went ~300 px down, off the screen)
      const frames = await page.evaluate(() => (window as unknown as { padFrames: { top: number; read: boolean }[] }).padFrames);
      const first = frames.findIndex((f) => f.read);
      expect(first).toBeGreaterThan(0);
      expect([...new Set(frames.slice(first - 1).map((f) => f.top))]).toEqual([frames[first - 1]!.top]);
    } finally {
      await context.close();
    }
  }, 150_000);
});
