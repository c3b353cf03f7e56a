/**
 * The frame pump (src/app/framePump.ts): one frame at a time to the reader; a frame the camera
 * could not give is skipped quietly, but a failure of the reader's own code is said, never
 * swallowed (the camera would go quiet with no word to the player).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FRAME_FAILURE_MS, startFramePump, type CameraFrame } from '../../src/app/framePump.ts';

/** No frame can be taken from the camera (its stream just stopped, or was paused). */
function framesGone(): void {
  vi.stubGlobal('createImageBitmap', async () => {
    throw new DOMException('The source is gone', 'InvalidStateError');
  });
}

/** A <video> that decodes a frame each time `next()` is called; a frame callback is called once, as a browser does. */
function fakeVideo() {
  let callback: ((now: number, meta: { captureTime?: number }) => void) | null = null;
  let t = 0;
  const video = {
    videoWidth: 64,
    videoHeight: 48,
    readyState: 4,
    requestVideoFrameCallback(cb: (now: number, meta: { captureTime?: number }) => void) {
      callback = cb;
      asked++;
      return 1;
    },
    cancelVideoFrameCallback() {
      callback = null;
    },
  } as unknown as HTMLVideoElement;
  let asked = 0;
  return {
    video,
    /** Whether a frame callback is waiting now, and how many were asked for in all. */
    waiting: () => callback !== null,
    asked: () => asked,
    /** Time passes without a frame (a paused camera). */
    advance: () => {
      t += 100;
    },
    next: async () => {
      t += 100;
      const cb = callback;
      callback = null;
      cb?.(t, { captureTime: t });
      await new Promise((r) => setTimeout(r, 0));
    },
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('the frame pump', () => {
  it("says the reader's failure through onError, and goes on with the next frame", async () => {
    vi.stubGlobal('createImageBitmap', async () => ({ width: 64, height: 48, close() {} }));
    const { video, next } = fakeVideo();
    const errors: unknown[] = [];
    const frames: CameraFrame[] = [];
    let fail = true;
    const pump = startFramePump(
      video,
      (frame) => {
        if (fail) throw new Error('the settle tracker broke');
        frames.push(frame);
      },
      { onError: (e) => errors.push(e) },
    );
    await next();
    expect(errors).toEqual([new Error('the settle tracker broke')]);
    fail = false;
    await next();
    expect(frames).toHaveLength(1);
    pump.stop();
  });

  it('skips a frame the camera could not give, quietly', async () => {
    framesGone();
    const { video, next } = fakeVideo();
    const errors: unknown[] = [];
    const pump = startFramePump(video, () => undefined, { onError: (e) => errors.push(e) });
    await next();
    expect(errors).toEqual([]);
    expect(pump.stats()).toEqual({ delivered: 0, skipped: 1 });
    pump.stop();
  });
});

describe('a camera whose frames can never be taken', () => {
  it('is said once frames have failed for FRAME_FAILURE_MS on end, and again only after a frame came', async () => {
    let works = false;
    vi.stubGlobal('createImageBitmap', async () => {
      if (works) return { width: 64, height: 48, close() {} };
      // Safari and older browsers without createImageBitmap, or without it for a <video>
      throw new TypeError('createImageBitmap is not defined');
    });
    const { video, next } = fakeVideo();
    const errors: unknown[] = [];
    const pump = startFramePump(video, () => undefined, { onError: (e) => errors.push(e) });
    // frames every 100 ms: the first fails at 100, FRAME_FAILURE_MS later is said
    for (let t = 100; t < 100 + FRAME_FAILURE_MS; t += 100) await next();
    expect(errors).toEqual([]);
    await next();
    expect(errors).toEqual([new Error('this browser gives no pictures of the camera to read: createImageBitmap is not defined')]);
    for (let i = 0; i < 40; i++) await next();
    expect(errors).toHaveLength(1);
    works = true;
    await next();
    expect(pump.stats().delivered).toBe(1);
    works = false;
    for (let i = 0; i <= FRAME_FAILURE_MS / 100; i++) await next();
    expect(errors).toHaveLength(2);
    pump.stop();
  });

  it('is not said for a few frames far apart (a camera paused while the page was hidden)', async () => {
    framesGone();
    const { video, next } = fakeVideo();
    const errors: unknown[] = [];
    const pump = startFramePump(video, () => undefined, { onError: (e) => errors.push(e) });
    await next();
    await new Promise((r) => setTimeout(r, 0));
    for (let i = 0; i < 60; i++) await next(); // 6 s of frames ticking, none taken: said
    expect(errors).toHaveLength(1);
    pump.stop();

    const other = fakeVideo();
    const quiet: unknown[] = [];
    const second = startFramePump(other.video, () => undefined, { onError: (e) => quiet.push(e) });
    // two failed frames, then a long pause (no callbacks), then one more: not a run of failures
    await other.next();
    await other.next();
    for (let i = 0; i < 100; i++) other.advance();
    await other.next();
    expect(quiet).toEqual([]);
    second.stop();
  });
});

describe('the frames asked for (each callback wakes the main thread for a rendering update)', () => {
  it('asks for no frame while one is read, and for the next once it is done', async () => {
    vi.stubGlobal('createImageBitmap', async () => ({ width: 64, height: 48, close() {} }));
    const { video, next, waiting, asked } = fakeVideo();
    let done = (): void => undefined;
    const pump = startFramePump(video, () => new Promise<void>((resolve) => (done = resolve)));
    expect(asked()).toBe(1);
    await next();
    expect(pump.stats().delivered).toBe(1);
    expect(waiting()).toBe(false);
    await next();
    await next();
    expect(asked()).toBe(1);
    done();
    await new Promise((r) => setTimeout(r, 0));
    expect(waiting()).toBe(true);
    await next();
    expect(pump.stats()).toEqual({ delivered: 2, skipped: 0 });
    pump.stop();
  });

  it('at a slower pace, asks for the next frame only once the pace allows it', async () => {
    vi.stubGlobal('createImageBitmap', async () => ({ width: 64, height: 48, close() {} }));
    const { video, next, waiting } = fakeVideo();
    const pump = startFramePump(video, () => undefined, { maxFps: 10 });
    await next();
    expect(pump.stats().delivered).toBe(1);
    expect(waiting()).toBe(false);
    await new Promise((r) => setTimeout(r, 120));
    expect(waiting()).toBe(true);
    pump.stop();
  });

  it('asks for nothing more once stopped, even while it waits on the pace', async () => {
    vi.stubGlobal('createImageBitmap', async () => ({ width: 64, height: 48, close() {} }));
    const { video, next, waiting } = fakeVideo();
    const pump = startFramePump(video, () => undefined, { maxFps: 10 });
    await next();
    pump.stop();
    await new Promise((r) => setTimeout(r, 120));
    expect(waiting()).toBe(false);
  });
});
