import type { Box } from '../lib/vision/settle.ts';

/** A die to draw over the picture (`DieMarks.svelte`): its box in the picture's pixels and what was read. */
export interface DieMark {
  box: Box;
  label: string;
  /** `unsure` for a face that could not be read. */
  tone: 'read' | 'unsure';
}

/**
 * Where a mark's label sits (its baseline's y): above the box, as a player reads a die's face
 * over it; below it where a die lies against the picture's top edge and the label would be cut
 * off; inside the box's top where the box fills the picture's height.
 */
export function labelBaseline(box: Box, pictureHeight: number, fontSize: number, gap: number): number {
  // a label's glyphs rise about 0.75 of the font size above its baseline
  const above = box.y - gap;
  if (above - 0.75 * fontSize >= 0) return above;
  const below = box.y + box.h + gap + 0.75 * fontSize;
  if (below <= pictureHeight) return below;
  return Math.max(0.75 * fontSize, box.y + gap + 0.75 * fontSize);
}
