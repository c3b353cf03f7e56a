import { describe, expect, it } from 'vitest';
import type { Detector, DetectOptions } from '../../src/lib/vision/detector.ts';
import type { DetectorConfig } from '../../src/lib/vision/config.ts';
import { cropImage, diceCallForShrink, diceCallForTiles, LARGE_DICE_RULE, shrunkDetector, tileBoxes, tiledDetector, TILE_RULE, withTiles } from '../../src/lib/vision/tiles.ts';
import type { Box, Detection, Die, RgbaImage } from '../../src/lib/vision/types.ts';

const die = (box: Box, score = 0.9, value: number | null = 3): Die => ({ box, score, value, classIndex: 0 });
const image = (width: number, height: number): RgbaImage => {
  const data = new Uint8Array(width * height * 4);
  // each pixel's red and green: its x and y (mod 256), so a crop shows where it was cut from
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([x % 256, y % 256, 0, 255], (y * width + x) * 4);
  return { width, height, data };
};

/**
 * A detector that "sees" a fixed set of dice in picture coordinates: a read of a crop (known by its
 * first pixel's x, y) reports the dice of that part, cut to it; the whole picture reports `whole`.
 */
function fakeDetector(inPicture: Die[], whole: Die[], config: Partial<DetectorConfig> = {}): Detector & { reads: { width: number; height: number; options?: DetectOptions }[] } {
  const reads: { width: number; height: number; options?: DetectOptions }[] = [];
  return {
    reads,
    config: { inputSize: 100, iouThreshold: 0.45, scoreThreshold: 0.25, ...config } as DetectorConfig,
    async detect(img: RgbaImage, options?: DetectOptions): Promise<Detection> {
      reads.push({ width: img.width, height: img.height, ...(options ? { options } : {}) });
      const timing = { preprocessMs: 1, inferenceMs: 1, postprocessMs: 1 };
      if (reads.length === 1) return { dice: whole, timing };
      const x0 = img.data[0]!;
      const y0 = img.data[1]!;
      const dice = inPicture.flatMap((d) => {
        const x = Math.max(d.box.x, x0);
        const y = Math.max(d.box.y, y0);
        const w = Math.min(d.box.x + d.box.w, x0 + img.width) - x;
        const h = Math.min(d.box.y + d.box.h, y0 + img.height) - y;
        return w > 0 && h > 0 ? [{ ...d, box: { x: x - x0, y: y - y0, w, h } }] : [];
      });
      return { dice, timing };
    },
    release: async () => undefined,
  };
}

describe('tileBoxes: overlapping tiles over a large picture', () => {
  it('covers the picture with tiles of the side asked, overlapping at least as asked, flush with the far edges', () => {
    const tiles = tileBoxes(250, 180, 100, 0.25);
    const xs = [...new Set(tiles.map((t) => t.x))];
    const ys = [...new Set(tiles.map((t) => t.y))];
    expect(xs).toEqual([0, 75, 150]);
    expect(ys).toEqual([0, 40, 80]);
    expect(tiles.every((t) => t.w === 100 && t.h === 100)).toBe(true);
    for (const starts of [xs, ys]) for (let i = 1; i < starts.length; i++) expect(starts[i - 1]! + 100 - starts[i]!).toBeGreaterThanOrEqual(25);
  });

  it('gives none when one tile covers the picture, and a side shorter than a tile whole', () => {
    expect(tileBoxes(100, 80, 100, 0.25)).toEqual([]);
    expect(tileBoxes(300, 60, 100, 0.25).map((t) => [t.y, t.h])).toEqual([[0, 60], [0, 60], [0, 60], [0, 60]]);
  });
});

describe('cropImage', () => {
  it('cuts out the pixels under the box', () => {
    const crop = cropImage(image(50, 40), { x: 10, y: 20, w: 5, h: 3 });
    expect([crop.width, crop.height]).toEqual([5, 3]);
    expect([crop.data[0], crop.data[1]]).toEqual([10, 20]);
    expect([crop.data[(2 * 5 + 4) * 4], crop.data[(2 * 5 + 4) * 4 + 1]]).toEqual([14, 22]);
  });
});

describe('diceCallForTiles', () => {
  const rule = { smallDice: 0.05, sureScore: 0.5 };
  it('calls for tiles when the dice found surely are small against the picture, or none is', () => {
    expect(diceCallForTiles([die({ x: 0, y: 0, w: 8, h: 8 }), die({ x: 50, y: 0, w: 9, h: 9 })], 200, 100, rule)).toBe(true);
    expect(diceCallForTiles([die({ x: 0, y: 0, w: 12, h: 12 }), die({ x: 50, y: 0, w: 9, h: 9 }), die({ x: 90, y: 0, w: 11, h: 11 })], 200, 100, rule)).toBe(false);
    expect(diceCallForTiles([], 200, 100, rule)).toBe(true);
    // weak boxes do not count: a large die found weakly beside no sure die
    expect(diceCallForTiles([die({ x: 0, y: 0, w: 40, h: 40 }, 0.2)], 200, 100, rule)).toBe(true);
  });
});

describe('tiledDetector', () => {
  // dice of 8 pixels in a picture of 200: under 5% of its long side
  const small = [die({ x: 20, y: 20, w: 8, h: 8 }, 0.8), die({ x: 140, y: 90, w: 8, h: 8 }, 0.7), die({ x: 96, y: 40, w: 8, h: 8 }, 0.9)];

  it('reads a picture that is no larger than a tile whole, once', async () => {
    const detector = fakeDetector(small, small.slice(0, 1));
    const read = await tiledDetector(detector, { ...TILE_RULE, tileInputs: 2 }).detect(image(200, 150));
    expect(detector.reads).toHaveLength(1);
    expect(read.dice).toEqual(small.slice(0, 1));
  });

  it('reads tiles of a large picture whose dice look small, and keeps each die once, whole, in the picture\'s pixels', async () => {
    // the whole read found one die; the tiles find all three, the middle one cut by some tiles' edges
    const detector = fakeDetector(small, small.slice(0, 1));
    const read = await tiledDetector(detector, { ...TILE_RULE, tileInputs: 1 }).detect(image(200, 150));
    expect(detector.reads.length).toBeGreaterThan(2);
    expect(detector.reads.slice(1).every((r) => r.width <= 100 && r.height <= 100)).toBe(true);
    const boxes = read.dice.map((d) => d.box).sort((a, b) => a.x - b.x);
    expect(boxes).toEqual([small[0]!.box, small[2]!.box, small[1]!.box]);
    expect(read.timing.inferenceMs).toBe(detector.reads.length);
  });

  it('leaves a large picture whole when its dice are not small in it', async () => {
    const large = [die({ x: 20, y: 20, w: 40, h: 40 }), die({ x: 120, y: 60, w: 40, h: 40 })];
    const detector = fakeDetector(large, large);
    expect((await tiledDetector(detector, { ...TILE_RULE, tileInputs: 1 }).detect(image(200, 150))).dice).toEqual(large);
    expect(detector.reads).toHaveLength(1);
  });

  it('passes the caller\'s options to every read, and applies its containment to the dice kept', async () => {
    // a die and its top face (a box inside it) found in tiles: containment drops the face
    const withFace = [die({ x: 20, y: 20, w: 10, h: 10 }, 0.9), die({ x: 22, y: 22, w: 5, h: 5 }, 0.6)];
    const detector = fakeDetector(withFace, []);
    const options = { scoreThreshold: 0.1, containment: 0.4 };
    const read = await tiledDetector(detector, { ...TILE_RULE, tileInputs: 1 }).detect(image(200, 150), options);
    expect(detector.reads.every((r) => r.options === options)).toBe(true);
    expect(read.dice.map((d) => d.box)).toEqual([withFace[0]!.box]);
  });

  it('withTiles tiles a plain detector\'s reads', async () => {
    const detector = fakeDetector(small, []);
    const read = await withTiles(detector, { ...TILE_RULE, tileInputs: 1 }).detect(image(200, 150));
    expect(read.dice).toHaveLength(3);
  });
});

describe('diceCallForShrink', () => {
  const rule = { callAt: 0.3, sureScore: 0.5 };
  it('calls for a shrunk read when a die found surely fills much of the picture, or none is found surely', () => {
    expect(diceCallForShrink([die({ x: 0, y: 0, w: 60, h: 50 })], 200, 150, rule)).toBe(true);
    expect(diceCallForShrink([die({ x: 0, y: 0, w: 20, h: 20 }), die({ x: 50, y: 0, w: 25, h: 25 })], 200, 150, rule)).toBe(false);
    expect(diceCallForShrink([], 200, 150, rule)).toBe(true);
    // a large box found weakly does not count
    expect(diceCallForShrink([die({ x: 0, y: 0, w: 20, h: 20 }), die({ x: 0, y: 0, w: 90, h: 90 }, 0.2)], 200, 150, rule)).toBe(false);
  });
});

describe('shrunkDetector: close-ups read shrunk as well', () => {
  // A die filling much of a 200 × 150 picture (40, 20, 120 × 110), which the whole read boxes as
  // its top face and a side face. Shrunk to half in a frame of the same size (100 × 75 at 50, 37)
  // the die lies at (70, 47, 60 × 55); that read also finds a small die, which the whole read
  // finds better.
  const parts = [die({ x: 40, y: 20, w: 60, h: 50 }, 0.9, 1), die({ x: 60, y: 70, w: 70, h: 60 }, 0.8, 6)];
  const shrunkRead = [die({ x: 70, y: 47, w: 60, h: 55 }, 0.95, 2), die({ x: 10, y: 10, w: 8, h: 8 }, 0.9, 5)];
  function closeUpDetector(whole: Die[]): Detector & { reads: { frame: RgbaImage; options?: DetectOptions }[] } {
    const reads: { frame: RgbaImage; options?: DetectOptions }[] = [];
    return {
      reads,
      config: { inputSize: 100, iouThreshold: 0.45, scoreThreshold: 0.25, padValue: 114 } as DetectorConfig,
      async detect(frame: RgbaImage, options?: DetectOptions): Promise<Detection> {
        reads.push({ frame, ...(options ? { options } : {}) });
        return { dice: reads.length === 1 ? whole : shrunkRead, timing: { preprocessMs: 1, inferenceMs: 2, postprocessMs: 1 } };
      },
      release: async () => undefined,
    };
  }

  it('reads a close-up again shrunk into a padded frame, and its large die takes the place of the parts found whole', async () => {
    const detector = closeUpDetector(parts);
    const read = await shrunkDetector(detector).detect(image(200, 150));
    expect(detector.reads).toHaveLength(2);
    const shrunk = detector.reads[1]!.frame;
    expect([shrunk.width, shrunk.height]).toEqual([200, 150]);
    expect([...shrunk.data.subarray(0, 4)]).toEqual([114, 114, 114, 255]);
    expect(read.dice).toEqual([{ ...shrunkRead[0]!, box: { x: 40, y: 20, w: 120, h: 110 } }]);
    expect(read.timing.inferenceMs).toBe(4);
  });

  it('keeps the whole read when the shrunk read finds no large die', async () => {
    const weak = [die({ x: 40, y: 40, w: 20, h: 20 }, 0.3)];
    const detector = closeUpDetector(weak);
    const read = await shrunkDetector(detector, { ...LARGE_DICE_RULE, keepFrom: 0.9 }).detect(image(200, 150));
    expect(detector.reads).toHaveLength(2);
    expect(read.dice).toEqual(weak);
  });

  it('reads a picture of dice of a usual size once', async () => {
    const usual = [die({ x: 20, y: 20, w: 25, h: 25 }), die({ x: 120, y: 60, w: 24, h: 24 })];
    const detector = closeUpDetector(usual);
    expect((await shrunkDetector(detector).detect(image(200, 150))).dice).toEqual(usual);
    expect(detector.reads).toHaveLength(1);
  });

  it('passes the caller\'s options to both reads, and applies its containment to the dice kept', async () => {
    // a weak box mostly inside the large die, its centre just outside it: containment drops it
    const inside = die({ x: 146, y: 100, w: 30, h: 20 }, 0.3);
    const detector = closeUpDetector([die({ x: 40, y: 20, w: 70, h: 60 }, 0.9, 1), inside]);
    const options = { scoreThreshold: 0.1, containment: 0.4 };
    const read = await shrunkDetector(detector, { ...LARGE_DICE_RULE, keepFrom: 0.5 }).detect(image(200, 150), options);
    expect(detector.reads.every((r) => r.options === options)).toBe(true);
    expect(read.dice.map((d) => d.box)).toEqual([{ x: 40, y: 20, w: 120, h: 110 }]);
  });
});
