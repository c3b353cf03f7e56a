/**
 * A phone held upright, as most players hold one, then turned on its side mid-game. A phone's
 * camera delivers frames the way it is held (720 × 1280 upright, 1280 × 720 on its side) and, as
 * its screen rotates, keeps the table upright in them: the same picture framed anew. With the
 * screen's rotation locked the frames keep their size and the picture turns instead. Chromium's fake
 * capture device has one frame size (it crops a 720 × 1280 file to 720 × 720 for the app's
 * 1280 × 720 request), so the camera here is a canvas stream (getUserMedia replaced before the app
 * loads) showing the five dice of the photo table-camera.test.ts reads (a matteop65 val image,
 * licence beside it). Each box drawn over the picture must land on its die, in every frame size:
 * boxes come in the pixels of the frame read. The faces drawn must be readable however many pixels
 * the frame has, and turning the phone must not propose the dice as a throw.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { launch, layoutProblems, ROOT, serve, type BrowserSession, type StaticServer } from './harness.ts';
import { startGame } from './table-helpers.ts';

const PHOTOS = join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample');
const PHOTO = 'valid_80.jpg';
/** The photo (640 × 480) is scaled to the width of an upright frame and centred, whatever the frame: the same camera, the same scale. */
const SCALE = 720 / 640;
const BACKGROUND = { r: 196, g: 184, b: 166 };

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface CameraFrame {
  width: number;
  height: number;
  jpeg: string;
  /** The labelled dice (matteop65 boxes the pips) where they lie in this frame. */
  dice: Box[];
}

let server: StaticServer;
let session: BrowserSession;
let upright: CameraFrame;
let onItsSide: CameraFrame;
let turnedOver: CameraFrame;

async function frame(width: number, height: number, labelled: Box[], halfTurn = false): Promise<CameraFrame> {
  const picture = await sharp(join(PHOTOS, PHOTO)).rotate(halfTurn ? 180 : 0).resize(640 * SCALE).toBuffer();
  const left = (width - 640 * SCALE) / 2;
  const top = (height - 480 * SCALE) / 2;
  const jpeg = await sharp({ create: { width, height, channels: 3, background: BACKGROUND } })
    .composite([{ input: picture, left, top }])
    .jpeg({ quality: 92 })
    .toBuffer();
  // a half turn takes (x, y) of the 640 × 480 photo to (640 − x, 480 − y)
  const dice = labelled.map((d) =>
    halfTurn
      ? { x: left + (640 - d.x - d.w) * SCALE, y: top + (480 - d.y - d.h) * SCALE, w: d.w * SCALE, h: d.h * SCALE }
      : { x: left + d.x * SCALE, y: top + d.y * SCALE, w: d.w * SCALE, h: d.h * SCALE },
  );
  return { width, height, jpeg: jpeg.toString('base64'), dice };
}

beforeAll(async () => {
  const labels = JSON.parse(readFileSync(join(PHOTOS, 'labels.json'), 'utf8')) as { images: { file: string; dice: Box[] }[] };
  const labelled = labels.images.find((i) => i.file === PHOTO)!.dice;
  upright = await frame(720, 1280, labelled);
  onItsSide = await frame(1280, 720, labelled);
  turnedOver = await frame(1280, 720, labelled, true);
  server = await serve(inject('distDir'));
  session = await launch();
  // The camera: a canvas repainted 20 times a second with the frame of the way the phone is held.
  await session.page.addInitScript(
    ({ first, second, third }) => {
      const canvas = document.createElement('canvas');
      const pictures = [first, second, third].map(({ width, height, jpeg }) => {
        const image = new Image();
        image.src = `data:image/jpeg;base64,${jpeg}`;
        return { width, height, image };
      });
      let held = pictures[0]!;
      const paint = () => {
        if (canvas.width !== held.width || canvas.height !== held.height) Object.assign(canvas, { width: held.width, height: held.height });
        if (held.image.complete) canvas.getContext('2d')!.drawImage(held.image, 0, 0);
      };
      Object.assign(window, { turnPhone: (way: number) => (held = pictures[way]!) });
      navigator.mediaDevices.getUserMedia = async () => {
        await Promise.all(pictures.map((p) => p.image.decode()));
        paint();
        setInterval(paint, 50);
        return canvas.captureStream(20);
      };
    },
    { first: upright, second: onItsSide, third: turnedOver },
  );
  await session.page.goto(server.url);
});

afterAll(async () => {
  await session?.close();
  await server?.stop();
});

/** Shows the camera's frames as the phone gives them held upright (0), on its side (1), or then turned over with the screen's rotation locked (2). */
async function turnPhone(way: 0 | 1 | 2): Promise<void> {
  await session.page.evaluate((w) => (window as unknown as { turnPhone: (way: number) => void }).turnPhone(w), way);
}

/** Waits until the boxes drawn are `expected.dice.length` boxes in that frame's pixels, each labelled die's centre inside exactly one of them. */
async function expectDiceDrawnOn(expected: CameraFrame): Promise<void> {
  const view = session.page.getByTestId('camera-view');
  await session.page.waitForFunction(
    (viewBox) => document.querySelector('[data-testid="camera-view"] svg')?.getAttribute('viewBox') === viewBox,
    `0 0 ${expected.width} ${expected.height}`,
    { timeout: 20_000 },
  );
  const onTheDice = async () => {
    const rects = await view.locator('svg rect').evaluateAll((els) =>
      els.map((el) => ({ x: Number(el.getAttribute('x')), y: Number(el.getAttribute('y')), w: Number(el.getAttribute('width')), h: Number(el.getAttribute('height')) })),
    );
    return (
      rects.length === expected.dice.length &&
      expected.dice.every((die) => {
        const cx = die.x + die.w / 2;
        const cy = die.y + die.h / 2;
        return rects.filter((r) => cx >= r.x && cx <= r.x + r.w && cy >= r.y && cy <= r.y + r.h).length === 1;
      })
    );
  };
  const deadline = Date.now() + 20_000;
  while (!(await onTheDice()) && Date.now() < deadline) await session.page.waitForTimeout(200);
  expect(await onTheDice()).toBe(true);
}

describe('camera on a phone held upright, then turned', () => {
  it('reads upright frames and draws each die where it lies', async () => {
    const { page, errors } = session;
    await page.setViewportSize({ width: 390, height: 844 });
    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
    const read = page.getByTestId('camera-read');
    await read.waitFor({ timeout: 45_000 });
    expect(((await read.textContent()) ?? '').split(' ')).toHaveLength(5);
    await expectDiceDrawnOn(upright);
    // the faces drawn are readable on the phone's screen, though the picture is shrunk from 1280 pixels to a third of the screen's height
    const labelHeights = await page.getByTestId('camera-view').locator('svg text').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
    expect(labelHeights).toHaveLength(5);
    expect(Math.min(...labelHeights)).toBeGreaterThanOrEqual(12);
    // the proposal is scrolled into view, its confirm button on the phone's screen
    const confirm = await page.getByTestId('confirm-roll').boundingBox();
    expect(confirm).not.toBeNull();
    expect(confirm!.y).toBeGreaterThanOrEqual(0);
    expect(confirm!.y + confirm!.height).toBeLessThanOrEqual(844);
    expect(await layoutProblems(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('follows the frames when the phone is turned on its side, then over, and proposes nothing new', async () => {
    const { page, errors } = session;
    await page.getByTestId('confirm-roll').click();
    await page.getByTestId('camera-read').waitFor({ state: 'detached' });
    const status = page.getByTestId('camera-status');
    await status.getByText('I see 5 dice: 2 thrown and 3 kept.').waitFor();
    const headline = await page.getByTestId('headline').textContent();

    // the dice did not move, the phone did: the two dice thrown are not proposed as a new throw
    const turnedAndNothingProposed = async (way: 1 | 2, frame: CameraFrame) => {
      await turnPhone(way);
      await expectDiceDrawnOn(frame);
      await page.waitForTimeout(3_000);
      expect(await page.getByTestId('camera-read').count()).toBe(0);
      expect(await status.textContent()).toBe('I see 5 dice: 2 thrown and 3 kept.');
      expect(await page.getByTestId('headline').textContent()).toBe(headline);
    };
    await page.setViewportSize({ width: 844, height: 390 });
    await turnedAndNothingProposed(1, onItsSide);
    // turned over with the screen's rotation locked: the frames keep their size, the picture turns round
    await turnedAndNothingProposed(2, turnedOver);
    expect(errors).toEqual([]);
  });

  it('knows the dice of the last game after the phone was turned between games', async () => {
    const { page, errors } = session;
    await page.getByRole('button', { name: 'Back' }).click();
    await turnPhone(0);
    await page.setViewportSize({ width: 390, height: 844 });
    await startGame(page, 'war', ['Ann', 'Bob']);
    await expectDiceDrawnOn(upright);
    await page.getByTestId('camera-status').getByText('These dice were read already: waiting for the throw.').waitFor({ timeout: 20_000 });
    await page.waitForTimeout(2_000);
    expect(await page.getByTestId('camera-read').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
