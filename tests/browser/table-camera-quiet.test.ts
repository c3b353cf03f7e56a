/**
 * A camera that goes quiet at the table without ending: no new frame (a hung camera driver), or
 * its track muted (iOS during a call, another app taking the camera) and unmuted. Chromium's fake
 * camera can be neither, so the page's getUserMedia gives a canvas's stream (`captureStream(0)`)
 * whose frames the test sends: a fixture photo of dice drawn and `requestFrame()`ed 15 times a
 * second while it feeds, none while it does not; a mute is the track's `muted` turned on and its
 * `mute` event, as a browser does. The table must say where the picture is that the camera
 * sends none (aloud too, where speech is on), keep the pad working (a pad roll is confirmed
 * while it is quiet), take the message back by itself when frames come again, and read the next
 * roll by the camera.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, ROOT, serve, type BrowserSession, type StaticServer } from './harness.ts';
import { padRoll, startGame } from './table-helpers.ts';
import { QUIET_CAMERA_MS } from '../../src/app/quietCamera.ts';

const PHOTOS = join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample');
/** Ann's roll, Bob's, then Bob's dice thrown again: three different layouts of five dice. */
const PICTURES = ['valid_80.jpg', 'valid_61.jpg', 'valid_70.jpg'];

/** The page's camera, driven by the test (installed before the app loads). */
interface TestCamera {
  picture: number;
  feeding: boolean;
  /** Streams opened (getUserMedia calls answered). */
  opened: number;
  /** The latest track's state: 'live' or 'ended'; of every track, oldest first. */
  trackStates(): string[];
  /** Mutes or unmutes the latest track. */
  mute(muted: boolean): void;
  /** performance.now() when feeding last stopped. */
  stoppedAt: number;
}

function installTestCamera(pictures: string[]): void {
  const bitmaps = pictures.map((b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    return createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }));
  });
  const tracks: { track: MediaStreamTrack & { requestFrame(): void }; muted: boolean }[] = [];
  let canvas: HTMLCanvasElement | null = null;
  let feeding = true;
  const camera = {
    picture: 0,
    opened: 0,
    stoppedAt: 0,
    get feeding() {
      return feeding;
    },
    set feeding(on: boolean) {
      if (!on && feeding) camera.stoppedAt = performance.now();
      feeding = on;
    },
    trackStates: () => tracks.map((t) => t.track.readyState),
    mute(muted: boolean) {
      const latest = tracks.at(-1);
      if (!latest) throw new Error('no camera track yet');
      latest.muted = muted;
      latest.track.dispatchEvent(new Event(muted ? 'mute' : 'unmute'));
    },
  };
  (window as unknown as { testCamera: typeof camera }).testCamera = camera;
  navigator.mediaDevices.getUserMedia = async () => {
    canvas ??= Object.assign(document.createElement('canvas'), { width: 640, height: 480 });
    const stream = canvas.captureStream(0);
    const track = stream.getVideoTracks()[0] as MediaStreamTrack & { requestFrame(): void };
    const entry = { track, muted: false };
    // the browser's word for it, as the app reads it
    Object.defineProperty(track, 'muted', { get: () => entry.muted });
    tracks.push(entry);
    camera.opened++;
    return stream;
  };
  setInterval(() => {
    if (!feeding || !canvas) return;
    const target = canvas;
    void bitmaps[camera.picture]!.then((bitmap) => {
      target.getContext('2d')!.drawImage(bitmap, 0, 0, target.width, target.height);
      for (const { track } of tracks) if (track.readyState === 'live') track.requestFrame();
    });
  }, 66);
}

let server: StaticServer;
let session: BrowserSession;

beforeAll(async () => {
  server = await serve(inject('distDir'));
  session = await launch();
  await session.page.addInitScript(installTestCamera, PICTURES.map((p) => readFileSync(join(PHOTOS, p)).toString('base64')));
  // what would be said aloud, in place of the browser's voice (as speech.test)
  await session.page.addInitScript(`
    window.__spoken = [];
    window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
    Object.defineProperty(window, 'speechSynthesis', { configurable: true, value: { speak: (u) => window.__spoken.push(u.text), cancel: () => {} } });
  `);
  await session.page.goto(server.url);
}, 60_000);

afterAll(async () => {
  await session?.close();
  await server?.stop();
});

describe('a camera that goes quiet at the table', () => {
  it('says so over the picture, keeps the pad, and reads again once the picture is back', async () => {
    const { page, errors } = session;
    /** Runs `body` in the page with `c`, its test camera. */
    const run = (body: string) => page.evaluate(`(() => { const c = window.testCamera; ${body} })()`);
    // speech on: a player looking at the dice, waiting to hear them read
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('speech').check();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
    const quiet = page.getByTestId('camera-quiet');
    const read = page.getByTestId('camera-read');

    // Ann's roll read by the camera, proposed (not confirmed yet)
    await read.waitFor({ timeout: 60_000 });
    expect(await read.getAttribute('data-source')).toBe('camera');
    const annRead = await read.textContent();

    // the frames stop: after QUIET_CAMERA_MS, not before, the table says so where the picture is
    await run('c.feeding = false;');
    const shownAfter = Number(
      await (
        await page.waitForFunction(() => document.querySelector('[data-testid="camera-quiet"]') && performance.now() - (window as unknown as { testCamera: TestCamera }).testCamera.stoppedAt, undefined, { timeout: QUIET_CAMERA_MS + 5000, polling: 100 })
      ).jsonValue(),
    );
    expect(shownAfter).toBeGreaterThan(QUIET_CAMERA_MS - 1000);
    expect(await quiet.getAttribute('data-reason')).toBe('no-frames');
    expect(await quiet.locator('p').allTextContents()).toEqual(['The camera has sent no picture for 5 seconds: another app may be using it.', 'Restart the camera or enter the dice with the dice pad.']);
    expect(await page.getByTestId('announcer').textContent()).toBe(
      'The camera has sent no picture for 5 seconds: another app may be using it. Restart the camera, or enter the dice with the dice pad.',
    );
    expect(await page.evaluate('window.__spoken.at(-1)')).toBe('The camera has stopped sending pictures.');
    expect(await page.getByTestId('camera-status').textContent()).toBe('Waiting for the camera’s picture.');
    // what the camera proposed stays, to confirm or fix: it was read from the dice as they lay
    expect(await read.getAttribute('data-source')).toBe('camera');
    expect(await read.textContent()).toBe(annRead);

    // the dice pad is one tap away, and Ann's roll goes in by it: she busts
    await page.getByTestId('dice-pad-toggle').click();
    await padRoll(page, ['2', '3', '4', '6', '6']);
    expect(await page.getByTestId('current-player').textContent()).toBe('Bob to play');
    expect(await quiet.count()).toBe(1);
    expect(await read.count()).toBe(0);
    await page.getByTestId('dice-pad-toggle').click();

    // the frames come again (Bob's dice): the message goes by itself, and the camera reads his roll
    await run('c.picture = 1; c.feeding = true;');
    await quiet.waitFor({ state: 'detached', timeout: 3000 });
    expect(await page.getByTestId('announcer').textContent()).toBe('The camera is sending pictures again.');
    expect(await page.evaluate('window.__spoken')).not.toContain('The camera is sending pictures again.'); // its end is not said aloud: the next read is
    await read.waitFor({ timeout: 30_000 });
    expect(await read.getAttribute('data-source')).toBe('camera');
    const bobRead = await read.textContent();
    expect(await run('return c.opened;')).toBe(1);

    // the track muted (another app takes the camera) and its frames stopped: said well before QUIET_CAMERA_MS
    await run('c.feeding = false; c.mute(true);');
    await quiet.waitFor({ timeout: QUIET_CAMERA_MS - 1000 });
    expect(await quiet.getAttribute('data-reason')).toBe('muted');
    expect(await quiet.textContent()).toMatch(/^The camera is sending no picture: another app may be using it/);
    // a phone held sideways, its browser's bars showing: the picture (under half the screen's
    // height) is shorter than the message, which starts at the box's inner edge (not above it,
    // out of scrolling's reach) and scrolls down to its button
    await page.setViewportSize({ width: 844, height: 320 });
    await quiet.scrollIntoViewIfNeeded();
    const sideways = await quiet.evaluate((box) => {
      const inner = box.getBoundingClientRect().top + parseFloat(getComputedStyle(box).paddingTop);
      const start = box.querySelector('p')!.getBoundingClientRect().top;
      box.scrollTop = box.scrollHeight;
      const button = box.querySelector('button')!.getBoundingClientRect();
      return { overflows: box.scrollHeight > box.clientHeight, startInView: start >= inner - 0.5, buttonInView: button.bottom <= box.getBoundingClientRect().bottom };
    });
    expect(sideways).toEqual({ overflows: true, startInView: true, buttonInView: true });
    await page.setViewportSize({ width: 412, height: 860 });
    // unmuted, frames again (Bob threw again): gone, and the new throw read
    await run('c.picture = 2; c.feeding = true; c.mute(false);');
    await quiet.waitFor({ state: 'detached', timeout: 3000 });
    await page.waitForFunction((before) => document.querySelector('[data-testid="camera-read"]')?.textContent !== before, bobRead, { timeout: 30_000 });
    expect(await read.getAttribute('data-source')).toBe('camera');

    // muted again, and the player restarts the camera: the stream let go of, a new one read from
    await run('c.mute(true);');
    await quiet.waitFor({ timeout: QUIET_CAMERA_MS - 1000 });
    await page.getByTestId('restart-camera').click();
    await page.locator('[data-testid="camera-view"][data-state="live"]').waitFor();
    expect(await run('return c.trackStates();')).toEqual(['ended', 'live']);
    expect(await quiet.count()).toBe(0);
    // and it stays gone: the new stream's frames keep coming
    await page.waitForTimeout(QUIET_CAMERA_MS + 1000);
    expect(await quiet.count()).toBe(0);
    expect(errors).toEqual([]);
  }, 180_000);
});
