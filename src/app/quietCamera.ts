/**
 * A live camera that sends no picture: its track muted (`CameraSession`'s `muted`: iOS during a
 * call or Siri, another app taking the camera, Android's camera privacy switch), or no new frame
 * reaching the <video> for `QUIET_CAMERA_MS` (a hung camera driver; a muted track on a browser
 * that does not say so). The player sees a frozen or black picture; `CameraView` says why and
 * offers to restart the camera, and the screens read nothing meanwhile.
 *
 * The <video>'s frames are watched, not the reads: the frame pump skips frames while the reader
 * is busy and paces reads down while the table is still, and a first visit's reader may download
 * for minutes; a slow reader is not a quiet camera.
 */

/**
 * No new frame for this long (ms) is a quiet camera. A camera's first frame can take 2–3 s after
 * it opens (a webcam settling its exposure, a slow Android camera), and a dim room slows frames
 * to a few a second, never to one in seconds; past 5 s a player who rolled has begun to wonder.
 */
export const QUIET_CAMERA_MS = 5000;

/** A muted track is said once muted this long (ms): a mute for a moment (a track reconfigured) passes unsaid. */
export const MUTED_QUIET_MS = 1000;

/** How often the watch looks (ms); a frame is sampled at most once in this long. */
export const QUIET_CHECK_MS = 500;

/** Why the camera sends no picture, or null while it does. */
export type CameraQuiet = 'muted' | 'no-frames' | null;

/** What the watch needs of a <video> (a test passes a fake). */
export type WatchedVideo = Pick<HTMLVideoElement, 'paused' | 'currentTime'> & {
  requestVideoFrameCallback?: (callback: () => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
  getVideoPlaybackQuality?: () => Pick<VideoPlaybackQuality, 'totalVideoFrames'>;
};

export interface CameraPictureWatch {
  /** The track was muted or unmuted (`CameraState`'s `muted`). */
  setMuted(muted: boolean): void;
  stop(): void;
}

/**
 * Watches a live camera's <video> for frames, and its track's mute: `onChange` hears the reason
 * each time the camera goes quiet, and null when the picture comes back (a new frame, or the track
 * unmuted). Start it when the camera goes live, stop it when it is not (paused, stopped).
 */
export function watchCameraPicture(
  video: WatchedVideo,
  onChange: (quiet: CameraQuiet) => void,
  options: {
    muted?: boolean;
    now?: () => number;
    doc?: Pick<Document, 'visibilityState'>;
  } = {},
): CameraPictureWatch {
  const now = options.now ?? (() => performance.now());
  const doc = options.doc ?? (typeof document === 'undefined' ? undefined : document);
  let lastFrameAt = now();
  let mutedSince: number | null = options.muted ? lastFrameAt : null;
  let quiet: CameraQuiet = null;
  let lastCheck = lastFrameAt;
  let stopped = false;

  function evaluate(): void {
    const t = now();
    const next: CameraQuiet = mutedSince !== null && t - mutedSince >= MUTED_QUIET_MS ? 'muted' : t - lastFrameAt >= QUIET_CAMERA_MS ? 'no-frames' : null;
    if (next === quiet) return;
    quiet = next;
    onChange(next);
  }

  function frameSeen(): void {
    lastFrameAt = now();
    evaluate();
  }

  // A frame callback at every frame would wake the main thread 30 times a second (framePump.ts):
  // one is asked for, and after it comes the next is asked for QUIET_CHECK_MS later.
  const frameCallbacks = typeof video.requestVideoFrameCallback === 'function';
  let handle = 0;
  let sampling: ReturnType<typeof setTimeout> | undefined;
  function askForFrame(): void {
    sampling = undefined;
    if (stopped) return;
    handle = video.requestVideoFrameCallback!(() => {
      if (stopped) return;
      frameSeen();
      sampling = setTimeout(askForFrame, QUIET_CHECK_MS);
    });
  }
  if (frameCallbacks) askForFrame();

  // Without frame callbacks (Firefox before 132): the frames counted, or the picture's time, moving.
  let lastCount = video.getVideoPlaybackQuality?.().totalVideoFrames;
  let lastTime = video.currentTime;

  const check = setInterval(() => {
    const t = now();
    const late = t - lastCheck > 3 * QUIET_CHECK_MS;
    lastCheck = t;
    // Not counted: a picture paused (not yet playing, or by the browser), a hidden page (the
    // camera is let go of), or a check that comes late (a long task, throttled timers), which
    // cannot tell whether frames came meanwhile.
    if (video.paused || doc?.visibilityState === 'hidden' || late) lastFrameAt = t;
    if (!frameCallbacks) {
      const count = video.getVideoPlaybackQuality?.().totalVideoFrames;
      if (count !== lastCount || video.currentTime !== lastTime) lastFrameAt = t;
      lastCount = count;
      lastTime = video.currentTime;
    }
    evaluate();
  }, QUIET_CHECK_MS);

  return {
    setMuted(muted: boolean) {
      if (stopped || muted === (mutedSince !== null)) return;
      const t = now();
      mutedSince = muted ? t : null;
      // unmuted: the picture is taken to be back, and given a new QUIET_CAMERA_MS to show it
      if (!muted) lastFrameAt = t;
      evaluate();
    },
    stop() {
      stopped = true;
      clearInterval(check);
      clearTimeout(sampling);
      if (frameCallbacks) video.cancelVideoFrameCallback?.(handle);
    },
  };
}

/** What the player is told of a quiet camera, before what they can do about it. */
export function quietCameraText(quiet: Exclude<CameraQuiet, null>): string {
  return quiet === 'muted'
    ? 'The camera is sending no picture: another app may be using it, or the camera was switched off in the phone’s settings.'
    : `The camera has sent no picture for ${QUIET_CAMERA_MS / 1000} seconds: another app may be using it.`;
}
