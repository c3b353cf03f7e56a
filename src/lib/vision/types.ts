/**
 * Shared types of the dice reader: image in, dice out. Pixels and boxes are always in the
 * source image's pixel coordinates unless a name says otherwise (`input` = letterboxed tensor).
 */

/** RGBA pixels, row-major, 4 bytes per pixel: what ImageData, canvas and sharp all give. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8ClampedArray | Uint8Array;
}

/** An axis-aligned box: left, top, width, height, in pixels. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One die the detector found. */
export interface Die {
  /** Top-face value 1–6, or null for the `other` class (not a pip face: symbol die, on edge). */
  value: number | null;
  /** Where the die is, in source-image pixels. */
  box: Box;
  /** objectness × best class probability, 0–1. */
  score: number;
  /** Index of the best class in the detector's `classes` (kept for readers that need it). */
  classIndex: number;
  /**
   * The die-face reader's probability for the class it read (a value, or `other`), when a
   * die-face reader read the die; absent for the detector's own reads.
   */
  valueProbability?: number;
  /**
   * A die the die-face reader read `other` under its `brandedOne` rule: P(1) + P(other), how
   * surely it is a 1 if it is a maker's logo on the 1 (die-face-reader.ts `brandedOnesAmongPips`).
   */
  brandedOneProbability?: number;
  /**
   * True when the die-face reader read `value` less surely than its `unsure` rule
   * (`DieFaceConfig.unsure`, `markUnsure`): the table asks the player for this die rather than
   * propose the value (`proposedValue`). Absent otherwise.
   */
  unsure?: true;
}

/** Milliseconds spent in each stage of one read. */
export interface ReadTiming {
  preprocessMs: number;
  inferenceMs: number;
  postprocessMs: number;
  /** The die-face reader's second pass (crops + inference), when it runs (die-face-reader.ts). */
  faceReadMs?: number;
  /** Looking below the first pass for dice it missed (`findMissedDice`), when there was anything to look at. */
  missedDiceMs?: number;
}

export interface Detection {
  dice: Die[];
  timing: ReadTiming;
}
