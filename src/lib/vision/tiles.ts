/**
 * Photos read at the scale their dice need (`withTiles`): large pictures with small dice in tiles,
 * close-ups with a die filling the picture shrunk (`shrunkDetector`, below).
 *
 * A picture much larger than the detector's input, its dice small against it (a phone's photo of
 * the table from standing height, 4000 pixels across): the detector reads it whole at its input
 * size (512 on the long side), where a die of 2% of the frame is 10 pixels and often missed,
 * though the photo holds it at 40 or 80. `tiledDetector` also reads overlapping tiles of the
 * picture, each at the detector's input, and keeps the boxes of all by the detector's own NMS and
 * containment; the die-face reader then reads every die from the full picture as before
 * (`readStandardDice`). Chosen on held-out photos laid side by side as one large picture
 * (models/record/standard-dice.md, "Large photos read in tiles").
 */
import type { Detector, DetectOptions } from './detector.ts';
import { dropContained, nms } from './decode.ts';
import { shrinkInFrame } from './letterbox.ts';
import { centreInside } from './metrics.ts';
import { withDieFaceReader, type TwoPassDetector } from './die-face-reader.ts';
import { median } from './settle.ts';
import type { Box, Detection, Die, RgbaImage } from './types.ts';

export interface TileRule {
  /** A tile's side, in the detector's input sizes (1.25: a tile of 640 source pixels for an input of 512, read shrunk 1.25 times). */
  tileInputs: number;
  /** How much neighbouring tiles overlap, as a share of a tile's side: a die cut by one tile's edge lies whole in the next. */
  overlap: number;
  /**
   * Tiles are read only when the dice found surely (score at least `sureScore`) measure under this
   * share of the picture's long side by their median box, or none is: dice of a usual size lose
   * to the tiles' false dice what small ones gain.
   */
  smallDice: number;
  sureScore: number;
}

export const TILE_RULE: Readonly<TileRule> = { tileInputs: 1.25, overlap: 0.25, smallDice: 0.05, sureScore: 0.5 };

/** True when `dice` read in a `width` × `height` picture call for tiles (`TileRule.smallDice`). */
export function diceCallForTiles(dice: readonly Die[], width: number, height: number, rule: Pick<TileRule, 'smallDice' | 'sureScore'>): boolean {
  const sure = dice.filter((d) => d.score >= rule.sureScore);
  return sure.length === 0 || median(sure.map((d) => Math.max(d.box.w, d.box.h))) < rule.smallDice * Math.max(width, height);
}

/**
 * The tiles of a `width` × `height` picture: squares of side `tile` (or the picture's side, if
 * shorter) laid from its corners, each row and column of tiles overlapping by at least `overlap`
 * of a tile, the last flush with the far edge. None when one tile would cover the picture.
 */
export function tileBoxes(width: number, height: number, tile: number, overlap: number): Box[] {
  if (width <= tile && height <= tile) return [];
  const starts = (side: number): number[] => {
    if (side <= tile) return [0];
    const count = Math.ceil((side - tile) / (tile * (1 - overlap))) + 1;
    return Array.from({ length: count }, (_, i) => Math.round((i * (side - tile)) / (count - 1)));
  };
  const w = Math.min(tile, width);
  const h = Math.min(tile, height);
  return starts(height).flatMap((y) => starts(width).map((x) => ({ x, y, w, h })));
}

/** The part of `image` under `box` (whole pixels), as a picture of its own (a tile; `eval:live`'s frame cut at a die). */
export function cropImage(image: RgbaImage, box: Box): RgbaImage {
  const x0 = Math.round(box.x);
  const y0 = Math.round(box.y);
  const width = Math.round(box.w);
  const height = Math.round(box.h);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const from = ((y0 + y) * image.width + x0) * 4;
    data.set(image.data.subarray(from, from + width * 4), y * width * 4);
  }
  return { width, height, data };
}

/**
 * True when `box`, found in `tile`, touches an edge of the tile that is not the picture's: the
 * die may go on past it, and a tile overlapping this one holds it whole.
 */
function cutByTile(box: Box, tile: Box, width: number, height: number, margin = 1): boolean {
  return (
    (tile.x > 0 && box.x <= tile.x + margin) ||
    (tile.y > 0 && box.y <= tile.y + margin) ||
    (tile.x + tile.w < width && box.x + box.w >= tile.x + tile.w - margin) ||
    (tile.y + tile.h < height && box.y + box.h >= tile.y + tile.h - margin)
  );
}

/** The dice of several reads of one picture, one box a die: the detector's own NMS, then the caller's containment rule. */
function bestBoxes(dice: readonly Die[], detector: Detector, options?: DetectOptions): Die[] {
  const kept = nms(dice, detector.config.iouThreshold);
  return options?.containment !== undefined ? dropContained(kept, options.containment) : kept;
}

/** Another read's detector time added to `timing` (the reads of one picture are timed as one). */
function addTiming(timing: Detection['timing'], read: Detection['timing']): Detection['timing'] {
  timing.preprocessMs += read.preprocessMs;
  timing.inferenceMs += read.inferenceMs;
  timing.postprocessMs += read.postprocessMs;
  return timing;
}

/**
 * `detector` reading large pictures whole and in tiles (`TILE_RULE`): a picture whose long side
 * is more than a tile's, and whose dice look small in it (`diceCallForTiles`), is also read tile by tile; each tile's dice, moved into the picture's
 * pixels and less those cut by an inner tile edge, join the whole picture's, and the detector's
 * own NMS (`iouThreshold`) and the caller's containment rule keep the best box of each die.
 * Smaller pictures are read as `detector` reads them. Timings are summed over the reads.
 */
export function tiledDetector(detector: Detector, rule: TileRule = TILE_RULE): Detector {
  return {
    config: detector.config,
    async detect(image: RgbaImage, options?: DetectOptions): Promise<Detection> {
      const whole = await detector.detect(image, options);
      const inputSize = options?.inputSize ?? detector.config.inputSize;
      const tiles = tileBoxes(image.width, image.height, Math.round(rule.tileInputs * inputSize), rule.overlap);
      if (tiles.length === 0 || !diceCallForTiles(whole.dice, image.width, image.height, rule)) return whole;
      const dice: Die[] = [...whole.dice];
      const timing = { ...whole.timing };
      for (const tile of tiles) {
        const read = await detector.detect(cropImage(image, tile), options);
        addTiming(timing, read.timing);
        for (const die of read.dice) {
          const box = { x: die.box.x + tile.x, y: die.box.y + tile.y, w: die.box.w, h: die.box.h };
          if (!cutByTile(box, tile, image.width, image.height)) dice.push({ ...die, box });
        }
      }
      return { dice: bestBoxes(dice, detector, options), timing };
    },
    release: () => detector.release(),
  };
}

/**
 * The other end of the scale: a close-up whose die fills much of the picture (a photo taken a hand
 * away from one or two dice). The detector learnt dice with table around them; a die filling the
 * picture it misses, or boxes its top face and a side face as two dice. Read again shrunk into a
 * frame of the picture's size (`shrinkInFrame`, as the symbol reader finds a taught die), the die
 * is found whole. Chosen on close-ups of the other renderer (models/record/standard-dice.md,
 * "Close-ups read shrunk").
 */
export interface LargeDiceRule {
  /** The picture is read again at this scale (0.5: shrunk to half), centred in a padded frame of its own size. */
  scale: number;
  /**
   * Read again when no die is found surely (score at least `sureScore`), or one found surely
   * measures at least `callAt` of the picture's long side.
   */
  callAt: number;
  sureScore: number;
  /**
   * A die of the shrunk read measuring at least this share of the picture's long side is kept, and
   * the dice of the whole read whose centres lie in it (parts of it) are dropped; smaller dice of
   * the shrunk read are left out: the whole read found those at a better size.
   */
  keepFrom: number;
}

export const LARGE_DICE_RULE: Readonly<LargeDiceRule> = { scale: 0.5, callAt: 0.3, sureScore: 0.5, keepFrom: 0.3 };

/** True when `dice` read in a `width` × `height` picture call for a shrunk read (`LargeDiceRule`). */
export function diceCallForShrink(dice: readonly Die[], width: number, height: number, rule: Pick<LargeDiceRule, 'callAt' | 'sureScore'>): boolean {
  const sure = dice.filter((d) => d.score >= rule.sureScore);
  return sure.length === 0 || sure.some((d) => Math.max(d.box.w, d.box.h) >= rule.callAt * Math.max(width, height));
}

/**
 * `detector` reading close-ups shrunk as well (`LARGE_DICE_RULE`): when its dice call for it
 * (`diceCallForShrink`), the picture is read again shrunk into a padded frame, and the large dice
 * of that read, moved back into the picture's pixels, take the place of the whole read's boxes
 * on them. Timings are summed over the reads.
 */
export function shrunkDetector(detector: Detector, rule: LargeDiceRule = LARGE_DICE_RULE): Detector {
  return {
    config: detector.config,
    async detect(image: RgbaImage, options?: DetectOptions): Promise<Detection> {
      const whole = await detector.detect(image, options);
      if (!diceCallForShrink(whole.dice, image.width, image.height, rule)) return whole;
      const view = shrinkInFrame(image, rule.scale, detector.config.padValue);
      const read = await detector.detect(view.frame, options);
      const timing = addTiming({ ...whole.timing }, read.timing);
      const longSide = Math.max(image.width, image.height);
      const large = read.dice.map((d) => ({ ...d, box: view.toImage(d.box) })).filter((d) => Math.max(d.box.w, d.box.h) >= rule.keepFrom * longSide);
      if (large.length === 0) return { dice: whole.dice, timing };
      const sureLarge = large.filter((d) => d.score >= rule.sureScore);
      const rest = whole.dice.filter((d) => !sureLarge.some((l) => centreInside(l.box, d.box) && l.box.w * l.box.h > d.box.w * d.box.h));
      return { dice: bestBoxes([...large, ...rest], detector, options), timing };
    },
    release: () => detector.release(),
  };
}

/**
 * `detector` reading photos at the scale their dice need: large pictures whose dice look small in
 * tiles as well (`tiledDetector`), close-ups whose dice fill the picture shrunk as well
 * (`shrunkDetector`); with a die-face reader behind it, only the first pass is tiled or shrunk,
 * and the reader reads every die from the full picture. The one way photos are read (`npm run
 * read-dice`, `npm run eval`, the table's "Photo of the dice"); the live camera reads its frames
 * whole, as many a second as it can.
 */
export function withTiles(detector: Detector, tiles: TileRule = TILE_RULE, largeDice: LargeDiceRule = LARGE_DICE_RULE): Detector {
  if (!('dieFaceReader' in detector)) return shrunkDetector(tiledDetector(detector, tiles), largeDice);
  const { firstPass, dieFaceReader } = detector as TwoPassDetector;
  return withDieFaceReader(shrunkDetector(tiledDetector(firstPass, tiles), largeDice), dieFaceReader);
}
