/**
 * npm run dump-reads -- --model FILE.onnx --die-face FILE.onnx --out FILE.jsonl DATASET_DIR...
 *
 * Reads every photo of the labelled folders as the app reads it (the detector, then the die-face
 * reader and its rules, `readStandardDice`, the false-dice filter off) and writes one JSON line a
 * photo: its split, whether it lies in the held-out slice (null outside `*-train`), its size, the
 * labelled dice `[x, y, w, h, value]`, the ignored regions `[x, y, w, h]`, and each die read
 * `[x, y, w, h, value (0: other), score, probability]`. models/training/false_dice.py learns the
 * false-dice filter (src/lib/vision/false-dice.ts) from these lines. Exit code 2 on a bad folder.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readStandardDice, type DieFaceConfig, type TwoPassDetector } from '../src/lib/vision/die-face-reader.ts';
import type { Box } from '../src/lib/vision/types.ts';
import { HelpRequest, runCli, UsageError } from './lib/cli.ts';
import { isHoldout, loadDataset, readDatasetPhoto } from './lib/datasets.ts';
import { createNodeDetector } from './lib/node-vision.ts';

const USAGE = 'usage: npm run dump-reads -- --model FILE.onnx --die-face FILE.onnx --out FILE.jsonl DATASET_DIR...';

const rounded = (b: Box): number[] => [b.x, b.y, b.w, b.h].map((v) => Math.round(v * 10) / 10);

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: { model: { type: 'string' }, 'die-face': { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help) throw new HelpRequest(USAGE);
  if (!values.model || !values['die-face'] || !values.out || positionals.length === 0) throw new UsageError(USAGE);
  const detector = await createNodeDetector({ modelPath: values.model, dieFace: values['die-face'], threads: 2 });
  if (!('dieFaceReader' in detector)) throw new UsageError(`--die-face ${values['die-face']}: no die-face reader loaded\n${USAGE}`);
  const { firstPass, dieFaceReader } = detector as unknown as TwoPassDetector;
  // the filter off: it is what these reads teach; and the dice as it judges them, before branded ones among pips are read (completeRead)
  const brandedOne = dieFaceReader.config.brandedOne && { ...dieFaceReader.config.brandedOne, amongPipDice: false };
  const config: DieFaceConfig = { ...dieFaceReader.config, falseDice: null, brandedOne };
  const reader = { ...dieFaceReader, config };
  const lines: string[] = [];
  for (const dir of positionals) {
    const set = await loadDataset(dir);
    const split = path.basename(dir);
    for (const im of set.images) {
      const { image } = await readDatasetPhoto(path.join(dir, im.file));
      const { dice } = await readStandardDice(firstPass, reader, image);
      const reads = dice.length ? await reader.readBoxes(image, dice) : [];
      lines.push(
        JSON.stringify({
          split,
          file: im.file,
          holdout: split.endsWith('-train') ? isHoldout(split, im.file) : null,
          width: image.width,
          height: image.height,
          truth: im.dice.map((d) => [...rounded(d.box), d.value]),
          ignore: im.ignore.map(rounded),
          dice: dice.map((d, i) => [...rounded(d.box), d.value ?? 0, Math.round(d.score * 1e4) / 1e4, Math.round(reads[i]!.probability * 1e4) / 1e4]),
        }),
      );
    }
    console.error(`${split}: ${set.images.length} photos`);
  }
  await writeFile(values.out, lines.join('\n') + '\n');
  await detector.release();
}

runCli('dump-reads', import.meta.url, main);
