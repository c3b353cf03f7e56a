/**
 * npm run choose-blur-hint -- [--json] [--conditions NAME,...]
 *
 * Chooses the edge width at which the table tells the player the dice look blurred
 * (src/app/cameraRead.ts `BLURRED_EDGE_WIDTH`; the measure is src/lib/vision/sharpness.ts
 * `diceEdgeWidth`). Each photo of the held-out slices (never val) is read as the table reads a
 * camera frame: scaled to the app's 1280 px frame, under each camera condition of
 * `npm run eval -- --condition` given (and as taken), by the app's two-pass read knowing the
 * count; the dice found are measured. Printed: per condition and slice, the median edge width and
 * the exact rolls; then, for each width tried, the share of photos it would call blurred as taken
 * or in dim light (false alarms: those photos are sharp), the share under the blurring conditions
 * (shake, swing, defocus, lowres), and the exact rolls of the photos called blurred and of the
 * others. Kept is the least width that calls at most `MAX_SHARP_CALLED` of the sharp photos
 * blurred: a hint that cries wolf on a sharp table is worse than none.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { HelpRequest, runCli, UsageError } from './lib/cli.ts';
import { dataRoot, createNodeDetector } from './lib/node-vision.ts';
import { holdoutSlices, readAsCameraFrame } from './lib/datasets.ts';
import { applyCameraCondition, CAMERA_CONDITIONS, isCameraCondition, type CameraCondition } from './lib/camera-conditions.ts';
import { detectCounted } from '../src/lib/vision/die-face-reader.ts';
import { exactRoll } from '../src/lib/vision/metrics.ts';
import { diceEdgeWidth } from '../src/lib/vision/sharpness.ts';
import { median } from '../src/lib/vision/settle.ts';

const USAGE = 'usage: npm run choose-blur-hint -- [--json] [--conditions NAME,...]   (default: dim,shake,swing,defocus,lowres; the photos as taken are always read)';

/** Photos as taken, and in a dim room: sharp, so any call of "blurred" on them is a false alarm. */
const SHARP = new Set(['none', 'dim']);
/** The conditions that blur a die's edges. */
const BLURRING = new Set(['shake', 'swing', 'defocus', 'lowres']);
/** The most of the sharp photos the kept width may call blurred. */
const MAX_SHARP_CALLED = 0.02;
/** The widths tried, in die sizes. */
const WIDTHS = Array.from({ length: 13 }, (_, i) => Math.round((0.08 + 0.01 * i) * 100) / 100);

/** One photo under one condition, as the table would have read it. */
export interface BlurReading {
  slice: string;
  file: string;
  condition: string;
  /** `diceEdgeWidth` of the dice found; null when none could be measured. */
  edgeWidth: number | null;
  exact: boolean;
}

export interface WidthRow {
  width: number;
  sharpCalled: number;
  blurringCalled: number;
  exactCalled: number | null;
  exactOthers: number | null;
}

/** The sweep over `WIDTHS` and the width kept (null when none keeps false alarms under the bar). */
export function sweepWidths(readings: readonly BlurReading[]): { rows: WidthRow[]; kept: number | null } {
  const share = (xs: readonly BlurReading[], f: (r: BlurReading) => boolean): number | null => (xs.length ? xs.filter(f).length / xs.length : null);
  const sharp = readings.filter((r) => SHARP.has(r.condition));
  const blurring = readings.filter((r) => BLURRING.has(r.condition));
  const rows = WIDTHS.map((width) => {
    const called = (r: BlurReading) => r.edgeWidth !== null && r.edgeWidth >= width;
    return {
      width,
      sharpCalled: share(sharp, called) ?? 0,
      blurringCalled: share(blurring, called) ?? 0,
      exactCalled: share(readings.filter(called), (r) => r.exact),
      exactOthers: share(readings.filter((r) => !called(r)), (r) => r.exact),
    };
  });
  return { rows, kept: rows.find((r) => r.sharpCalled <= MAX_SHARP_CALLED)?.width ?? null };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean', default: false },
      conditions: { type: 'string', default: 'dim,shake,swing,defocus,lowres' },
    },
  });
  if (values.help) throw new HelpRequest(USAGE);
  const conditions = values.conditions.split(',').filter((c) => c !== '' && c !== 'none');
  const unknown = conditions.filter((c) => !isCameraCondition(c));
  if (unknown.length) throw new UsageError(`--conditions: ${unknown.join(', ')} unknown (one of ${CAMERA_CONDITIONS.join(', ')})\n${USAGE}`);
  const slices = await holdoutSlices(dataRoot());
  if (slices.length === 0) throw new UsageError(`no train splits under ${dataRoot()}/dice-photos: the held-out slices are what the hint is chosen on`);
  const detector = await createNodeDetector({ threads: 1 });
  const readings: BlurReading[] = [];
  try {
    for (const slice of slices) {
      for (const im of slice.images) {
        const frame = await readAsCameraFrame(path.join(slice.dir, im.file));
        for (const condition of ['none', ...conditions]) {
          const image = condition === 'none' ? frame : await applyCameraCondition(frame, condition as CameraCondition, `${slice.name}/${im.file}`);
          const { dice } = await detectCounted(detector, image, im.dice.length);
          readings.push({ slice: slice.name, file: im.file, condition, edgeWidth: diceEdgeWidth(image, dice.map((d) => d.box)), exact: exactRoll(im.dice, dice) });
        }
      }
      process.stderr.write(`${slice.name}: ${slice.images.length} photos read\n`);
    }
  } finally {
    await detector.release();
  }
  const { rows, kept } = sweepWidths(readings);
  const byCondition = ['none', ...conditions].flatMap((condition) =>
    slices.map((slice) => {
      const rs = readings.filter((r) => r.condition === condition && r.slice === slice.name);
      const widths = rs.flatMap((r) => (r.edgeWidth === null ? [] : [r.edgeWidth]));
      return { condition, slice: slice.name, photos: rs.length, medianEdgeWidth: widths.length ? median(widths) : null, exact: rs.filter((r) => r.exact).length / Math.max(1, rs.length) };
    }),
  );
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ byCondition, widths: rows, kept, maxSharpCalled: MAX_SHARP_CALLED }, null, 2)}\n`);
    return;
  }
  const pct = (v: number | null): string => (v === null ? '  n/a' : (100 * v).toFixed(1).padStart(5));
  process.stdout.write('the held-out slices as the table reads them (1280 px frames, the count known):\n');
  process.stdout.write(`${'condition'.padEnd(10)} ${'slice'.padEnd(18)} photos  median edge width  exact\n`);
  for (const r of byCondition) {
    process.stdout.write(`${r.condition.padEnd(10)} ${r.slice.padEnd(18)} ${String(r.photos).padStart(6)}  ${(r.medianEdgeWidth?.toFixed(3) ?? 'n/a').padStart(17)}  ${pct(r.exact)}\n`);
  }
  process.stdout.write(`\nwidth  called blurred: sharp (as taken, dim)  blurring (${[...BLURRING].filter((c) => conditions.includes(c)).join(', ')})  | exact: called  others\n`);
  for (const r of rows) {
    process.stdout.write(`${r.width.toFixed(2)}   ${pct(r.sharpCalled).padStart(30)}  ${pct(r.blurringCalled).padStart(30)}  |    ${pct(r.exactCalled)}  ${pct(r.exactOthers)}\n`);
  }
  process.stdout.write(`\nkept: ${kept === null ? `none (every width calls more than ${100 * MAX_SHARP_CALLED}% of the sharp photos blurred)` : `${kept.toFixed(2)} (the least width calling at most ${100 * MAX_SHARP_CALLED}% of the sharp photos blurred)`}\n`);
}

runCli('choose-blur-hint', import.meta.url, main);
