/**
 * A die cut by the edge of the picture: the five dice of the photo table-camera.test.ts reads (a
 * matteop65 val image, licence beside it), the phone held so that the 6 on the left lies half out
 * of the frame. Half a 6 shows one column of three pips, and the reader reads it as a 3, surely:
 * proposed as it stands, "3 3 3 3 2" would score four 3s, one tap from the slate. A die less than
 * half in view is asked for instead (`cutDieAskedFor`, src/app/cameraRead.ts), and the status line
 * tells the player to bring it in view. Moved so that every die is whole, the phone reads the roll
 * in full; but once the player has filled the ? in, what they did stands. The camera is a canvas
 * stream (getUserMedia replaced before the app loads), so that the test can move the phone.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { join } from 'node:path';
import sharp from 'sharp';
import { launch, layoutProblems, ROOT, serve, type BrowserSession, type StaticServer } from './harness.ts';
import { startGame } from './table-helpers.ts';
import { DICE_SETTLED_MARK } from '../../src/app/cameraRead.ts';

const PHOTO = join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg');
const BACKGROUND = { r: 196, g: 184, b: 166 };
/** Where the frame's left edge cuts the photo (640 × 480): through the middle of the 6, whose die spans about x 65–150. */
const CUT_AT = 110;

let server: StaticServer;
const sessions: BrowserSession[] = [];
let cut: string;
let whole: string;

/** A 1280 × 720 camera frame: the photo from `left` on, scaled 1.5 times, at the frame's left edge. */
async function frame(left: number): Promise<string> {
  const picture = await sharp(PHOTO)
    .extract({ left, top: 0, width: 640 - left, height: 480 })
    .resize({ height: 720 })
    .toBuffer();
  const jpeg = await sharp({ create: { width: 1280, height: 720, channels: 3, background: BACKGROUND } })
    .composite([{ input: picture, left: 0, top: 0 }])
    .jpeg({ quality: 92 })
    .toBuffer();
  return jpeg.toString('base64');
}

/** A browser on the app whose camera shows the dice with the 6 cut; `movePhone` shows them whole. Closed after all. */
async function openTable(): Promise<BrowserSession> {
  const session = await launch();
  // The camera: a canvas repainted 20 times a second with the frame of where the phone is held.
  await session.page.addInitScript(
    ({ first, second }) => {
      const canvas = Object.assign(document.createElement('canvas'), { width: 1280, height: 720 });
      const pictures = [first, second].map((jpeg) => Object.assign(new Image(), { src: `data:image/jpeg;base64,${jpeg}` }));
      let held = pictures[0]!;
      const paint = () => held.complete && canvas.getContext('2d')!.drawImage(held, 0, 0);
      Object.assign(window, { movePhone: (to: number) => (held = pictures[to]!) });
      navigator.mediaDevices.getUserMedia = async () => {
        await Promise.all(pictures.map((p) => p.decode()));
        paint();
        setInterval(paint, 50);
        return canvas.captureStream(20);
      };
    },
    { first: cut, second: whole },
  );
  await session.page.goto(server.url);
  sessions.push(session);
  return session;
}

/** Moves the phone to take every die in; returns when, on the page's clock (performance.now()). */
async function movePhone(session: BrowserSession): Promise<number> {
  return session.page.evaluate(() => {
    (window as unknown as { movePhone: (to: number) => void }).movePhone(1);
    return performance.now();
  });
}

/**
 * How long a camera read may take to come. Idle here one comes a second or two after the dice
 * show (the reader starts, frames are read at up to 15 a second, the dice must lie still 600 ms);
 * on a loaded machine every step waits its turn for a core: with the page's main thread throttled
 * 30× the roll was read in full 5 to 8 s after the phone moved. A read is awaited as long as the
 * first one, reader start included, is.
 */
const READ_WAIT_MS = 45_000;
/** A test awaits a read or two (startGame, the first read, then one after the phone moved). */
const TEST_MS = 120_000;

/** Starts 5000 and waits for the camera's proposal of the dice with the 6 cut. */
async function cutRollProposed(session: BrowserSession): Promise<void> {
  const { page } = session;
  await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
  await page.getByTestId('camera-read').waitFor({ timeout: READ_WAIT_MS });
}

beforeAll(async () => {
  cut = await frame(CUT_AT);
  whole = await frame(0);
  server = await serve(inject('distDir'));
});

afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await server?.stop();
});

describe('a die cut by the edge of the picture', () => {
  let session: BrowserSession;
  beforeAll(async () => {
    session = await openTable();
  });

  it('is asked for, not proposed as read, and the player is told to bring it in view', { timeout: TEST_MS }, async () => {
    const { page, errors } = session;
    await cutRollProposed(session);
    const read = page.getByTestId('camera-read');
    expect(await page.getByTestId('camera-status').textContent()).toBe('I see 5 dice. 1 die is cut by the edge of the picture: move the phone to take it in.');
    // four dice proposed as read, the cut one a ? to fill (a 3 here would be one tap from four 3s)
    expect(await read.textContent()).toBe('3 3 3 2');
    expect(await page.getByTestId('unread-die').count()).toBe(1);
    expect(await page.getByTestId('unread').textContent()).toBe('1 die could not be read: tap its ? and pick the face.');
    expect(await layoutProblems(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('reads the roll in full once the phone is moved to take the die in', { timeout: TEST_MS }, async () => {
    const { page, errors } = session;
    await movePhone(session);
    const read = page.getByTestId('camera-read');
    await read
      .getByText('6 3 3 3 2')
      .waitFor({ timeout: READ_WAIT_MS })
      .catch(async (err: unknown) => {
        // what the table showed instead: the one failure seen (CI-like load, 2026-12-08) said nothing of it
        const shown = await page.evaluate(() => ['camera-status', 'camera-read', 'unread'].map((id) => `${id}: ${document.querySelector(`[data-testid="${id}"]`)?.textContent ?? '(none)'}`).join('; '));
        throw new Error(`${String(err)}\nshown: ${shown}`);
      });
    expect(await page.getByTestId('unread-die').count()).toBe(0);
    expect(await page.getByTestId('camera-status').textContent()).toBe('I see 5 dice.');
    expect(await page.getByTestId('roll-preview').textContent()).toBe('Ann rolled 2 3 3 3 6 = 300 (3 3 3 set aside). Roll 2 dice — turn total 300, must reach 500 to enter');
    await page.getByTestId('confirm-roll').click();
    await read.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});

describe('a die cut by the edge of the picture, filled in by the player', () => {
  let session: BrowserSession;
  beforeAll(async () => {
    session = await openTable();
  });

  it('keeps what the player filled in when the phone is moved after', { timeout: TEST_MS }, async () => {
    const { page, errors } = session;
    await cutRollProposed(session);
    await page.getByTestId('unread-die').click();
    await page.locator('button[data-fix-face="6"]').click();
    const read = page.getByTestId('camera-read');
    expect(await read.textContent()).toBe('3 3 3 2 6');
    // the phone moved to take the die in: the camera reads the roll in full, and the player's roll stands
    const moved = await movePhone(session);
    await page.getByTestId('camera-status').getByText('I see 5 dice.', { exact: true }).waitFor({ timeout: READ_WAIT_MS });
    // the camera settles on the dice now whole (DICE_SETTLED_MARK, set as it hands the read to
    // the table): what it would change, it has; 2 s of waiting instead was too short to be sure on a loaded machine
    await page.waitForFunction(
      ({ mark, moved }) => performance.getEntriesByName(mark).some((m) => (m as PerformanceMark).detail.frameTime > moved),
      { mark: DICE_SETTLED_MARK, moved },
      { timeout: READ_WAIT_MS },
    );
    expect(await read.textContent()).toBe('3 3 3 2 6');
    expect(await page.getByTestId('roll-preview').textContent()).toBe('Ann rolled 2 3 3 3 6 = 300 (3 3 3 set aside). Roll 2 dice — turn total 300, must reach 500 to enter');
    expect(errors).toEqual([]);
  });
});
