/**
 * The frame pump (src/app/framePump.ts): one frame at a time to the reader; a frame the camera
 * could not give is skipped quietly, but a failure of the reader's own code is said, never
 * swallowed (the camera would go quiet with no word to the player).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFramePump, type CameraFrame } from '../../src/app/framePump.ts';

/** A <video> that decodes a frame each time `next()` is called. */
function fakeVideo() {
  let callback: ((now: number, meta: { captureTime?: number }) => void) | null = null;
  let t = 0;
  const video = {
    videoWidth: 64,
    videoHeight: 48,
    readyState: 4,
    requestVideoFrameCallback(cb: (now: number, meta: { captureTime?: number }) => void) {
      callback = cb;
      return 1;
    },
    cancelVideoFrameCallback() {
      callback = null;
    },
  } as unknown as HTMLVideoElement;
  return {
    video,
    next: async () => {
      t += 100;
      callback?.(t, { captureTime: t });
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
    vi.stubGlobal('createImageBitmap', async () => {
      throw new DOMException('The source is gone', 'InvalidStateError');
    });
    const { video, next } = fakeVideo();
    const errors: unknown[] = [];
    const pump = startFramePump(video, () => undefined, { onError: (e) => errors.push(e) });
    await next();
    expect(errors).toEqual([]);
    expect(pump.stats()).toEqual({ delivered: 0, skipped: 1 });
    pump.stop();
  });
});
