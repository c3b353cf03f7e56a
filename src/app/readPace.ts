/**
 * How often the table's camera is read. Each read runs the detector and the die-face reader
 * (about 60 ms of one core here, several times that on a phone), and a phone propped over the
 * table reads for a whole game while the dice mostly lie still as the players score. So the
 * camera is read at full pace while anything changes, and slowly while the table is settled (the
 * read proposed) or empty and the last frame showed nothing new: the first frame that differs (a
 * die missing, a new box, one moving or turned) brings back the full pace, before the tracker has
 * confirmed the change. A throw is noticed at most one slow frame late, while its dice still roll.
 */
import { median, type SettleUpdate } from '../lib/vision/settle.ts';

/** Frames a second while the dice change (the frame pump's cap; a slow device reads fewer). */
export const READ_FPS = 15;

/** Frames a second while the table is settled or empty and quiet (models/record/at-the-table.md, "At the table"). */
export const IDLE_READ_FPS = 4;

/** The pace to read the next frame at, after this frame's update. */
export function readFps(update: Pick<SettleUpdate<unknown>, 'phase' | 'quiet'>, idleFps = IDLE_READ_FPS): number {
  return update.quiet && (update.phase === 'settled' || update.phase === 'empty') ? Math.min(idleFps, READ_FPS) : READ_FPS;
}

/** The window the Camera check counts frames reaching the dice reader over: "N frames a second". */
export const PACE_WINDOW_MS = 1000;

/**
 * When frames reached the dice reader (ms, one clock): the first of all, and those of the last
 * window; and the reads that finished: the last window's, or the latest one.
 */
export interface ReaderPace {
  first: number | null;
  recent: readonly number[];
  reads: readonly { at: number; ms: number }[];
}

export const NO_PACE: ReaderPace = { first: null, recent: [], reads: [] };

/** The pace after a frame reached the reader at `t` (times older than a window are dropped). */
export function paceWithFrame(pace: ReaderPace, t: number): ReaderPace {
  return { ...pace, first: pace.first ?? t, recent: [...pace.recent.filter((r) => r > t - PACE_WINDOW_MS), t] };
}

/** The pace after a read that took `ms` finished at `at` (reads older than a window are dropped). */
export function paceWithRead(pace: ReaderPace, at: number, ms: number): ReaderPace {
  return { ...pace, reads: [...pace.reads.filter((r) => r.at > at - PACE_WINDOW_MS), { at, ms }] };
}

/**
 * How long a read takes at `now`: the median of the reads that finished in the last window, the
 * window the frame rate is counted over, so the two agree as the reader warms up (a median of the
 * last 20 reads kept its first slow ones beside a rate that had left them behind); the latest
 * read's time when none finished in it (a device taking over a second a read). Null before any.
 */
export function paceReadMs(pace: ReaderPace, now: number): number | null {
  const inWindow = pace.reads.filter((r) => r.at > now - PACE_WINDOW_MS && r.at <= now).map((r) => r.ms);
  if (inWindow.length > 0) return median(inWindow);
  return pace.reads.at(-1)?.ms ?? null;
}

/**
 * Frames a second reaching the reader at `now`: those of the last window. Null until a whole
 * window has passed since the first frame reached it: a count over part of a second (the reader
 * just started, the camera just began sending) is no rate, and would disagree with the read time
 * shown beside it.
 */
export function paceFps(pace: ReaderPace, now: number): number | null {
  if (pace.first === null || now - pace.first < PACE_WINDOW_MS) return null;
  return pace.recent.filter((r) => r > now - PACE_WINDOW_MS && r <= now).length;
}
