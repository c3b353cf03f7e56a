/**
 * A dice reader slow to start says so: on the table (`TableCamera`) and on the Camera check alike,
 * after the same wait and in the same words. onnxruntime compiling and the models loading take
 * seconds on a slow phone, and "Starting the dice reader…" alone, unchanged that long, reads as stuck.
 */

/** How long a dice reader starts before it is said to be still starting. */
export const READER_SLOW_MS = 4000;

/** What is said of a reader starting for READER_SLOW_MS (its files downloaded, or none counted). */
export const READER_STILL_STARTING = 'Still starting the dice reader…';
