/**
 * Takes frames from the camera's <video> for the dice reader, one at a time: while the reader is
 * busy with a frame, newer frames are skipped rather than queued, so reads never lag behind the
 * table (what the settle tracker sees is always the latest picture). Frames come from
 * requestVideoFrameCallback where the browser has it (one per decoded frame), otherwise from
 * requestAnimationFrame when the video's time has moved; either is asked for only once the
 * reader is free and the pace (`maxFps`) allows the next frame. A frame callback asked for at
 * every frame wakes the main thread and runs a rendering update for each of the camera's 30
 * frames a second, most of them skipped: about 4 ms each with the CPU throttled 4× (`npm run
 * bench -- --only table-taps`).
 */

export interface CameraFrame {
  /** The picture; the consumer owns it: transfer it to the worker or close() it. */
  bitmap: ImageBitmap;
  /** Capture time in ms on the performance.now() clock. */
  t: number;
  width: number;
  height: number;
}

export interface FramePumpStats {
  /** Frames handed to the consumer. */
  delivered: number;
  /** Frames seen and not handed over: too soon for maxFps, the video not ready, or the camera could not give them (frames that come while one is read are not seen). */
  skipped: number;
}

export interface FramePump {
  stop(): void;
  /** Caps the frames handed over at `fps` a second from now on (`readFps`: slower while the table is quiet). */
  setMaxFps(fps: number): void;
  stats(): FramePumpStats;
}

/** What requestVideoFrameCallback reports of a frame (the fields used here). */
interface VideoFrameMetadata {
  /** When the camera captured it (local and remote streams), performance.now() clock. */
  captureTime?: number;
  /** When it was handed to the compositor. */
  presentationTime?: number;
}

type VideoWithFrameCallback = HTMLVideoElement & {
  requestVideoFrameCallback?: (cb: (now: number, meta: VideoFrameMetadata) => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

/**
 * Frames the camera could not give, one after another for this long (ms, capture clock) and at
 * least FRAME_FAILURES of them (a camera paused while the page was hidden is not a long run), are
 * not a stream stopping but a browser that cannot take frames from a <video> (`createImageBitmap`
 * missing, or refusing video): said through `onError` once, else the table would show the dice
 * and say "No dice in view." for ever.
 */
export const FRAME_FAILURE_MS = 3000;
const FRAME_FAILURES = 10;

export function startFramePump(
  video: HTMLVideoElement,
  consume: (frame: CameraFrame) => Promise<void> | void,
  options: {
    maxFps?: number;
    /** A frame's consumer threw (the reader, the settle tracker, the proposal): said, not swallowed. */
    onError?: (error: unknown) => void;
  } = {},
): FramePump {
  const v = video as VideoWithFrameCallback;
  let minInterval = options.maxFps ? 1000 / options.maxFps : 0;
  const stats: FramePumpStats = { delivered: 0, skipped: 0 };
  let stopped = false;
  let handle = 0;
  /** The wait for the pace to allow the next frame (`schedule`). */
  let paced: ReturnType<typeof setTimeout> | undefined;
  /** When the last frame was handed over, on this page's clock (capture times may be on another). */
  let deliveredAt = -Infinity;
  let lastTime = -1;
  let lastDelivered = -Infinity;
  /** Capture time of the first of the frames that could not be taken since the last one taken; null while frames come. */
  let failingSince: number | null = null;
  let failures = 0;
  let failureSaid = false;

  async function grab(t: number): Promise<void> {
    // one frame at a time without a flag: the next is asked for only once this one is done (`schedule`)
    if (t - lastDelivered < minInterval || v.videoWidth === 0 || v.readyState < 2) {
      stats.skipped++;
      return;
    }
    try {
      let bitmap: ImageBitmap;
      try {
        bitmap = await createImageBitmap(v);
      } catch (error) {
        // A frame that could not be taken (the stream just stopped) is skipped like one too soon;
        // only frames failing for FRAME_FAILURE_MS on end are said.
        stats.skipped++;
        failingSince ??= t;
        failures++;
        if (!failureSaid && failures >= FRAME_FAILURES && t - failingSince >= FRAME_FAILURE_MS) {
          failureSaid = true;
          const why = error instanceof Error ? error.message : String(error);
          const said = new Error(`this browser gives no pictures of the camera to read: ${why}`);
          if (options.onError) options.onError(said);
          else console.error(said);
        }
        return;
      }
      failingSince = null;
      failures = 0;
      failureSaid = false;
      if (stopped) {
        bitmap.close();
        return;
      }
      lastDelivered = t;
      deliveredAt = performance.now();
      stats.delivered++;
      await consume({ bitmap, t, width: bitmap.width, height: bitmap.height });
    } catch (error) {
      // the consumer's own failure: the camera must not go quiet without a word
      if (options.onError) options.onError(error);
      else console.error(error);
    }
  }

  const useFrameCallback = typeof v.requestVideoFrameCallback === 'function';
  /** The next frame asked for; grab() never rejects, and asks again once it is done. */
  function nextFrame(): void {
    paced = undefined;
    if (stopped) return;
    if (useFrameCallback) {
      handle = v.requestVideoFrameCallback!((now, meta) => {
        // Not expectedDisplayTime: that is a vsync up to a frame period ahead, not when the picture was taken.
        void grab(meta.captureTime ?? meta.presentationTime ?? now).then(schedule);
      });
    } else {
      handle = requestAnimationFrame((now) => {
        if (v.currentTime === lastTime) return nextFrame();
        lastTime = v.currentTime;
        void grab(now).then(schedule);
      });
    }
  }
  /** Asks for the next frame once the pace allows it (a frame captured sooner is still skipped by grab). */
  function schedule(): void {
    if (stopped) return;
    const wait = deliveredAt + minInterval - performance.now();
    if (wait > 0) paced = setTimeout(nextFrame, wait);
    else nextFrame();
  }
  schedule();

  return {
    stop() {
      stopped = true;
      clearTimeout(paced);
      if (useFrameCallback) v.cancelVideoFrameCallback?.(handle);
      else cancelAnimationFrame(handle);
    },
    setMaxFps(fps: number) {
      minInterval = fps > 0 ? 1000 / fps : 0;
    },
    stats: () => ({ ...stats }),
  };
}
