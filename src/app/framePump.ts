/**
 * Takes frames from the camera's <video> for the dice reader, one at a time: while the reader is
 * busy with a frame, newer frames are skipped rather than queued, so reads never lag behind the
 * table (what the settle tracker sees is always the latest picture). Frames come from
 * requestVideoFrameCallback where the browser has it (one per decoded frame), otherwise from
 * requestAnimationFrame when the video's time has moved.
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
  /** Frames skipped because the consumer was still busy (or over maxFps). */
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
  let busy = false;
  let stopped = false;
  let handle = 0;
  let lastTime = -1;
  let lastDelivered = -Infinity;

  async function grab(t: number): Promise<void> {
    if (busy || t - lastDelivered < minInterval || v.videoWidth === 0 || v.readyState < 2) {
      stats.skipped++;
      return;
    }
    busy = true;
    try {
      let bitmap: ImageBitmap;
      try {
        bitmap = await createImageBitmap(v);
      } catch {
        // A frame that could not be taken (the stream just stopped) is skipped like a busy one.
        stats.skipped++;
        return;
      }
      if (stopped) {
        bitmap.close();
        return;
      }
      lastDelivered = t;
      stats.delivered++;
      await consume({ bitmap, t, width: bitmap.width, height: bitmap.height });
    } catch (error) {
      // the consumer's own failure: the camera must not go quiet without a word
      if (options.onError) options.onError(error);
      else console.error(error);
    } finally {
      busy = false;
    }
  }

  const useFrameCallback = typeof v.requestVideoFrameCallback === 'function';
  function schedule(): void {
    if (stopped) return;
    if (useFrameCallback) {
      handle = v.requestVideoFrameCallback!((now, meta) => {
        // Not expectedDisplayTime: that is a vsync up to a frame period ahead, not when the picture was taken.
        void grab(meta.captureTime ?? meta.presentationTime ?? now);
        schedule();
      });
    } else {
      handle = requestAnimationFrame((now) => {
        if (v.currentTime !== lastTime) {
          lastTime = v.currentTime;
          void grab(now);
        }
        schedule();
      });
    }
  }
  schedule();

  return {
    stop() {
      stopped = true;
      if (useFrameCallback) v.cancelVideoFrameCallback?.(handle);
      else cancelAnimationFrame(handle);
    },
    setMaxFps(fps: number) {
      minInterval = fps > 0 ? 1000 / fps : 0;
    },
    stats: () => ({ ...stats }),
  };
}
