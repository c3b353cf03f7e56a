/**
 * npm run read-dice -- [--json] [--model FILE.onnx] [--die-face auto|off|FILE.onnx] [--tiles on|off] [--kit DIR] IMAGE...
 *
 * Reads the dice in each image with the shipped detector (the same pre/post-processing as the
 * app, on onnxruntime-node) and prints every die (value, box in pixels, confidence) and a
 * summary line, or with --json ONE array with an element per image, in the order given.
 * Exit code 2 when any image could not be read (the others are still read) or on bad usage.
 * Boxes are in the pixels of the picture as a phone shows it (its EXIF orientation applied), cut
 * to the picture. `value` is 1–6, or null for a die seen but not read as a pip value (listed as
 * `?`). Relative paths are read from the folder `npm run` was typed in, and reported as given.
 *
 * Readers are pluggable: a `DieReader` turns an image into labelled dice: the standard pip
 * reader, or with `--kit DIR` (a kit folder, docs/kits.md) the symbol reader, which finds the dice
 * with the symbol-dice detector (models/dice-symbols.onnx; `--model` uses another), compares
 * each die's face with the kit's prototypes (its art on dice, its example photos) and adds
 * `face` (face id, null when unknown), `label` and `similarity` to every die.
 *
 * Standard dice are read as the app reads them: the detector, then the die-face reader's second
 * pass when models/die-face.onnx ships (`--die-face auto`); `--die-face off` prints the
 * detector's own values, `--die-face FILE.onnx` uses another die-face model. A value the reader
 * read too unsurely for the table to propose (it asks the player instead) carries `"unsure": true`
 * in `--json`, and is shown as `5?` in the summary. A photo larger than the detector's input whose
 * pip dice look small in it is read in overlapping tiles as well, and a close-up whose die fills
 * much of it (or with no die found surely) shrunk into a padded frame as well
 * (src/lib/vision/tiles.ts), as the table reads a photo of the roll; `--tiles off` reads it whole
 * only, as the live camera reads.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Box, Die, RgbaImage } from '../src/lib/vision/types.ts';
import { createNodeDetector, readImageFile } from './lib/node-vision.ts';
import { readingOrder } from '../src/lib/vision/settle.ts';
import { withTiles } from '../src/lib/vision/tiles.ts';
import { HelpRequest, runCli, UsageError } from './lib/cli.ts';
import { createNodeKitReader, kitDetectorModel } from './lib/node-faces.ts';
import type { FaceDie } from '../src/lib/vision/face-reader.ts';

const USAGE = 'usage: npm run read-dice -- [--json] [--model FILE.onnx] [--die-face auto|off|FILE.onnx] [--tiles on|off] [--kit DIR] IMAGE...';

/** One die as the CLI reports it. Kit readers add the face read (id, label) and its similarity. */
export interface ReadDie {
  value: number | null;
  /** True when the reader read `value` too unsurely for the table to propose it (die-face-reader.ts `markUnsure`). */
  unsure?: true;
  box: Box;
  score: number;
  /** With --kit: the face id read, or null when no face is near enough (unknown). */
  face?: string | null;
  label?: string | null;
  /** With --kit: cosine similarity to the nearest face's prototypes. */
  similarity?: number;
}

export interface DieReader {
  read(image: RgbaImage): Promise<ReadDie[]>;
  /** How a die is written in the human-readable summary. */
  label(die: ReadDie): string;
  release(): Promise<void>;
}

export interface ReadDiceOptions {
  json: boolean;
  model?: string;
  /** 'auto' (default), 'off' or a die-face model file (see createNodeDetector). */
  dieFace?: string;
  /** Large photos whose dice look small read in tiles too (default true; tiles.ts). Pips only. */
  tiles?: boolean;
  kit?: string;
  files: string[];
}

export type ImageResult = { file: string; dice: ReadDie[] } | { file: string; error: string };

const round = (v: number, digits: number): number => Number(v.toFixed(digits));

/**
 * A die as reported: its box cut to the picture (a die at the edge is boxed partly outside it),
 * in the pixels of the picture as shown, upright by its EXIF orientation.
 */
function toReadDie(die: Die, picture: { width: number; height: number }): ReadDie {
  const x0 = Math.max(0, die.box.x);
  const y0 = Math.max(0, die.box.y);
  const x1 = Math.min(picture.width, die.box.x + die.box.w);
  const y1 = Math.min(picture.height, die.box.y + die.box.h);
  return {
    value: die.value,
    ...(die.unsure ? { unsure: die.unsure } : {}),
    box: { x: round(x0, 1), y: round(y0, 1), w: round(Math.max(0, x1 - x0), 1), h: round(Math.max(0, y1 - y0), 1) },
    score: round(die.score, 3),
  };
}

function toKitDie(die: FaceDie, picture: { width: number; height: number }): ReadDie {
  return {
    ...toReadDie({ value: die.face?.value ?? null, box: die.box, score: die.score, classIndex: -1 }, picture),
    face: die.face?.id ?? null,
    label: die.face?.label ?? null,
    similarity: round(die.match.similarity, 3),
  };
}

export async function createReader(options: ReadDiceOptions): Promise<DieReader> {
  // a symbol kit's dice are found with the symbol-dice detector, as in the app
  const detector = await createNodeDetector({ modelPath: await kitDetectorModel(options.kit, options.model), ...(options.dieFace ? { dieFace: options.dieFace } : {}) });
  if (options.kit) {
    let kitReader;
    try {
      kitReader = await createNodeKitReader(options.kit, detector);
    } catch (e) {
      await detector.release();
      if (e instanceof Error && e.name === 'KitError') throw new UsageError(e.message);
      throw e;
    }
    for (const s of kitReader.skipped) console.error(`${s.file}: example not used: ${s.reason}`);
    return {
      async read(image) {
        const { dice } = await kitReader.read(image);
        return readingOrder(dice.map((d) => toKitDie(d, image)));
      },
      label: (die) => (die.face ? die.face : '?'),
      release: async () => {
        await kitReader.release();
        await detector.release();
      },
    };
  }
  const reading = options.tiles === false ? detector : withTiles(detector);
  return {
    async read(image) {
      const { dice } = await reading.detect(image);
      return readingOrder(dice.map((d) => toReadDie(d, image)));
    },
    // a value read unsurely (the table asks for it) is shown with its question: "5?"
    label: (die) => (die.value === null ? '?' : `${die.value}${die.unsure ? '?' : ''}`),
    release: () => detector.release(),
  };
}

export function parseReadDiceArgs(argv: string[]): ReadDiceOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      model: { type: 'string' },
      'die-face': { type: 'string' },
      tiles: { type: 'string', default: 'on' },
      kit: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) throw new HelpRequest(USAGE);
  if (positionals.length === 0) throw new UsageError(`no image given\n${USAGE}`);
  if (values.tiles !== 'on' && values.tiles !== 'off') throw new UsageError(`--tiles must be on or off\n${USAGE}`);
  return {
    json: values.json ?? false,
    tiles: values.tiles === 'on',
    files: positionals,
    ...(values.model ? { model: values.model } : {}),
    ...(values['die-face'] ? { dieFace: values['die-face'] } : {}),
    ...(values.kit ? { kit: values.kit } : {}),
  };
}

export function summary(dice: ReadDie[], label: (d: ReadDie) => string): string {
  const labels = dice.map(label).sort((a, b) => (a === '?' ? 1 : b === '?' ? -1 : a.localeCompare(b, 'en', { numeric: true })));
  return dice.length === 0 ? 'no dice' : `${dice.length} ${dice.length === 1 ? 'die' : 'dice'}: ${labels.join(' ')}`;
}

function formatHuman(result: ImageResult, label: (d: ReadDie) => string): string {
  if ('error' in result) return `${result.file}: error: ${result.error}`;
  const lines = [result.file];
  for (const d of result.dice) {
    const b = d.box;
    const where = `box x=${b.x.toFixed(0)} y=${b.y.toFixed(0)} w=${b.w.toFixed(0)} h=${b.h.toFixed(0)}  score ${d.score.toFixed(2)}`;
    if (d.face !== undefined) {
      const face = d.face === null ? '? unknown' : `${d.face}: ${d.label}`;
      lines.push(`  ${face.padEnd(28)} ${where}  similarity ${d.similarity?.toFixed(2)}`);
      continue;
    }
    lines.push(`  ${label(d).padEnd(2)} ${where}`);
  }
  lines.push(`  ${summary(result.dice, label)}`);
  return lines.join('\n');
}

export async function readDice(options: ReadDiceOptions, reader: DieReader, onResult?: (r: ImageResult) => void): Promise<ImageResult[]> {
  const results: ImageResult[] = [];
  for (const file of options.files) {
    let result: ImageResult;
    const where = path.resolve(file);
    try {
      const image = await readImageFile(where);
      result = { file, dice: await reader.read(image) };
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      // a relative path is read from where npm run was typed (runCli): say where that was
      result = { file, error: where === file ? e.message : `${e.message} (${where})` };
    }
    results.push(result);
    onResult?.(result);
  }
  return results;
}

async function main(): Promise<number> {
  const options = parseReadDiceArgs(process.argv.slice(2));
  const reader = await createReader(options);
  try {
    const results = await readDice(options, reader, (r) => {
      if (options.json) return;
      if ('error' in r) console.error(formatHuman(r, reader.label));
      else console.log(formatHuman(r, reader.label));
    });
    if (options.json) console.log(JSON.stringify(results, null, 2));
    return results.some((r) => 'error' in r) ? 2 : 0;
  } finally {
    await reader.release();
  }
}

runCli('read-dice', import.meta.url, main);
