/**
 * How often the table's camera is read. Each read runs the detector and the die-face reader
 * (about 60 ms of one core here, several times that on a phone), and a phone propped over the
 * table reads for a whole game while the dice mostly lie still as the players score. So the
 * camera is read at full pace while anything changes, and slowly while the table is settled (the
 * read proposed) or empty and the last frame showed nothing new: the first frame that differs (a
 * die missing, a new box, one moving or turned) brings back the full pace, before the tracker has
 * confirmed the change. A throw is noticed at most one slow frame late, while its dice still roll.
 */
import type { SettleUpdate } from '../lib/vision/settle.ts';

/** Frames a second while the dice change (the frame pump's cap; a slow device reads fewer). */
export const READ_FPS = 15;

/** Frames a second while the table is settled or empty and quiet (models/record/at-the-table.md, "At the table"). */
export const IDLE_READ_FPS = 4;

/** The pace to read the next frame at, after this frame's update. */
export function readFps(update: Pick<SettleUpdate<unknown>, 'phase' | 'quiet'>, idleFps = IDLE_READ_FPS): number {
  return update.quiet && (update.phase === 'settled' || update.phase === 'empty') ? Math.min(idleFps, READ_FPS) : READ_FPS;
}
