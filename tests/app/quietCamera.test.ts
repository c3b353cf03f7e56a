/**
 * The quiet camera's watch (src/app/quietCamera.ts): a live camera whose track is muted, or whose
 * <video> gets no new frame for QUIET_CAMERA_MS, is said to be quiet, and the picture coming back
 * takes that back at once. Frames are what the video presents, not what the reader reads.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MUTED_QUIET_MS, QUIET_CAMERA_MS, QUIET_CHECK_MS, quietCameraText, watchCameraPicture, type CameraQuiet, type WatchedVideo } from '../../src/app/quietCamera.ts';

/** A playing <video> whose frame callback is called once per frame presented (`frame()`), as a browser does. */
function fakeVideo() {
  let callback: (() => void) | null = null;
  let asked = 0;
  let cancelled = 0;
  const video = {
    paused: false,
    currentTime: 0,
    requestVideoFrameCallback(cb: () => void) {
      callback = cb;
      asked++;
      return asked;
    },
    cancelVideoFrameCallback() {
      callback = null;
      cancelled++;
    },
  };
  return {
    video: video as WatchedVideo & { paused: boolean },
    asked: () => asked,
    cancelled: () => cancelled,
    frame: () => {
      const cb = callback;
      callback = null;
      cb?.();
    },
  };
}

/** Frames every `everyMs` for `forMs`, time passing between them. */
function framesFor(frame: () => void, forMs: number, everyMs = 33): void {
  for (let t = 0; t < forMs; t += everyMs) {
    vi.advanceTimersByTime(everyMs);
    frame();
  }
}

function watch(video: WatchedVideo, options: { muted?: boolean; doc?: { visibilityState: DocumentVisibilityState } } = {}) {
  const said: CameraQuiet[] = [];
  const w = watchCameraPicture(video, (q) => said.push(q), { now: () => Date.now(), ...options });
  return { said, watch: w };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the quiet camera watch', () => {
  it('says nothing while frames come, even a few a second in a dim room, and asks for a frame at most once a check', () => {
    const camera = fakeVideo();
    const { said, watch: w } = watch(camera.video);
    framesFor(camera.frame, 10_000, 33);
    framesFor(camera.frame, 10_000, 400);
    expect(said).toEqual([]);
    // 30 frames a second for 10 s, 2.5 for 10 s: a callback asked for at most every QUIET_CHECK_MS
    expect(camera.asked()).toBeLessThanOrEqual(1 + (2 * 10_000) / QUIET_CHECK_MS);
    w.stop();
  });

  it('says the camera is quiet once no frame has come for QUIET_CAMERA_MS, and takes it back at the next frame', () => {
    const camera = fakeVideo();
    const { said, watch: w } = watch(camera.video);
    framesFor(camera.frame, 2000);
    // the frames stop (a hung camera): not yet at QUIET_CAMERA_MS less a check…
    vi.advanceTimersByTime(QUIET_CAMERA_MS - QUIET_CHECK_MS);
    expect(said).toEqual([]);
    // …and said within a check and a frame sample after it
    vi.advanceTimersByTime(2 * QUIET_CHECK_MS);
    expect(said).toEqual(['no-frames']);
    vi.advanceTimersByTime(60_000);
    expect(said).toEqual(['no-frames']);
    camera.frame();
    expect(said).toEqual(['no-frames', null]);
    framesFor(camera.frame, 2000);
    expect(said).toEqual(['no-frames', null]);
    w.stop();
  });

  it('says a camera that gives no first frame is quiet', () => {
    const camera = fakeVideo();
    const { said, watch: w } = watch(camera.video);
    vi.advanceTimersByTime(QUIET_CAMERA_MS + QUIET_CHECK_MS);
    expect(said).toEqual(['no-frames']);
    w.stop();
  });

  it('says a muted track after MUTED_QUIET_MS (a mute for a moment passes unsaid), and takes it back when unmuted', () => {
    const camera = fakeVideo();
    const { said, watch: w } = watch(camera.video);
    framesFor(camera.frame, 1000);
    w.setMuted(true);
    vi.advanceTimersByTime(MUTED_QUIET_MS / 2);
    w.setMuted(false);
    framesFor(camera.frame, 3000);
    expect(said).toEqual([]);

    w.setMuted(true);
    // frames may still come (black ones, on some phones): muted is muted
    framesFor(camera.frame, MUTED_QUIET_MS + QUIET_CHECK_MS);
    expect(said).toEqual(['muted']);
    vi.advanceTimersByTime(60_000);
    expect(said).toEqual(['muted']);
    w.setMuted(false);
    expect(said).toEqual(['muted', null]);
    // unmuted with still no frame: a hung camera, said after QUIET_CAMERA_MS
    vi.advanceTimersByTime(QUIET_CAMERA_MS - QUIET_CHECK_MS);
    expect(said).toEqual(['muted', null]);
    vi.advanceTimersByTime(2 * QUIET_CHECK_MS);
    expect(said).toEqual(['muted', null, 'no-frames']);
    camera.frame();
    expect(said).toEqual(['muted', null, 'no-frames', null]);
    w.stop();
  });

  it('says a track muted from the start after MUTED_QUIET_MS', () => {
    const camera = fakeVideo();
    const { said, watch: w } = watch(camera.video, { muted: true });
    vi.advanceTimersByTime(MUTED_QUIET_MS + QUIET_CHECK_MS);
    expect(said).toEqual(['muted']);
    w.stop();
  });

  it('counts no time while the picture is paused or the page hidden, nor across a late check (a long task)', () => {
    const camera = fakeVideo();
    const doc = { visibilityState: 'visible' as DocumentVisibilityState };
    const { said, watch: w } = watch(camera.video, { doc });
    camera.video.paused = true;
    vi.advanceTimersByTime(3 * QUIET_CAMERA_MS);
    camera.video.paused = false;
    doc.visibilityState = 'hidden';
    vi.advanceTimersByTime(3 * QUIET_CAMERA_MS);
    doc.visibilityState = 'visible';
    camera.frame();
    // the main thread blocked for longer than QUIET_CAMERA_MS: the frames may have come unseen
    vi.setSystemTime(Date.now() + 2 * QUIET_CAMERA_MS);
    vi.advanceTimersByTime(QUIET_CHECK_MS);
    camera.frame();
    expect(said).toEqual([]);
    // playing and visible, the frames stopped: said
    vi.advanceTimersByTime(QUIET_CAMERA_MS + 2 * QUIET_CHECK_MS);
    expect(said).toEqual(['no-frames']);
    w.stop();
  });

  it('goes by the frames counted, or the picture time, where there are no frame callbacks', () => {
    let frames = 0;
    const video = { paused: false, currentTime: 0, getVideoPlaybackQuality: () => ({ totalVideoFrames: frames }) };
    const { said, watch: w } = watch(video);
    for (let i = 0; i < 100; i++) {
      vi.advanceTimersByTime(100);
      frames++;
    }
    expect(said).toEqual([]);
    vi.advanceTimersByTime(QUIET_CAMERA_MS + QUIET_CHECK_MS);
    expect(said).toEqual(['no-frames']);
    video.currentTime = 12.5;
    vi.advanceTimersByTime(QUIET_CHECK_MS);
    expect(said).toEqual(['no-frames', null]);
    w.stop();
  });

  it('stops: its frame callback cancelled, nothing said after', () => {
    const camera = fakeVideo();
    const { said, watch: w } = watch(camera.video);
    w.stop();
    expect(camera.cancelled()).toBe(1);
    vi.advanceTimersByTime(3 * QUIET_CAMERA_MS);
    w.setMuted(true);
    vi.advanceTimersByTime(3 * QUIET_CAMERA_MS);
    expect(said).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('tells the player in plain words', () => {
    expect(quietCameraText('no-frames')).toBe('The camera has sent no picture for 5 seconds: another app may be using it.');
    expect(quietCameraText('muted')).toMatch(/^The camera is sending no picture: another app may be using it/);
  });
});
