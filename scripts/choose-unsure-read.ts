/**
 * npm run choose-unsure-read -- [--json] READS.json...
 *
 * Chooses the die-face reader's `unsure` rule (models/die-face.json; die-face-reader.ts
 * `markUnsure`): below which probability a value read is marked unsure, so that the table asks the
 * player for that die (`?`) rather than propose a value it may have wrong. Chosen at the table,
 * on simulated videos of the held-out slices (never val): each READS.json is the `--save-reads`
 * of `npm run eval:live -- --holdout [--condition NAME]` (at its default 8 fps), replayed through
 * the settle tracker under each rule tried (`--unsure`, as eval:live replays it).
 *
 * Printed, per rule and run: the rolls proposed exactly, those that ask for a face, and those
 * wrong though the player could confirm them as they stand (every die given a value, the count
 * right: the misreads a player may not notice), as counts of photos. Kept is the rule that leaves
 * the player the fewest rolls to mend over all the runs: the exact rolls it loses (a right roll
 * asked for) plus the wrong rolls it leaves confirmable (`rollsToMend`). Both count alike, though a
 * misread confirmed unseen costs a player more than a question, so the rule asks no more than
 * the misreads it catches pay for. On a tie, the lower probability (it asks least). `off` (every
 * value given) is among the rules.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { HelpRequest, runCli, UsageError } from './lib/cli.ts';
import { summarise, withUnsureRule, type PhotoVideo } from './eval-live.ts';

const USAGE = 'usage: npm run choose-unsure-read -- [--json] READS.json...   (each the --save-reads of npm run eval:live -- --holdout [--condition NAME])';

/** The rules tried: off (null), then below these probabilities. */
export const UNSURE_RULES: readonly (number | null)[] = [null, ...Array.from({ length: 11 }, (_, i) => Math.round((0.3 + 0.05 * i) * 100) / 100)];
/** eval:live's default frame rate, at which its reads are made. */
const FRAME_MS = 1000 / 8;

export interface UnsureRun {
  name: string;
  videos: PhotoVideo[];
}

export interface UnsureRow {
  /** Values read below this are asked for; null: every value proposed. */
  below: number | null;
  /** Per run, in the order given: the photos, and how many were proposed exactly, asked for a face, wrong yet confirmable. */
  runs: { name: string; photos: number; exact: number; asked: number; wrongConfirmable: number }[];
  exact: number;
  asked: number;
  wrongConfirmable: number;
}

/** What a rule leaves the player to mend beside `off`: the exact rolls it loses, and the wrong rolls left confirmable. */
export const rollsToMend = (row: UnsureRow, off: UnsureRow): number => off.exact - row.exact + row.wrongConfirmable;

/** Every rule of `UNSURE_RULES` replayed over the runs, and the rule kept (the fewest `rollsToMend`). */
export function sweepUnsure(runs: readonly UnsureRun[]): { rows: UnsureRow[]; kept: UnsureRow } {
  const rows = UNSURE_RULES.map((below): UnsureRow => {
    const figures = runs.map(({ name, videos }) => {
      const s = summarise(name, videos.map((v) => withUnsureRule(v, below === null ? null : { below })), FRAME_MS, {});
      const count = (share: number): number => Math.round(share * s.photos);
      return { name, photos: s.photos, exact: count(s.proposal.exactOfPhotos), asked: count(s.asked), wrongConfirmable: count(s.wrongConfirmable) };
    });
    const total = (k: 'exact' | 'asked' | 'wrongConfirmable'): number => figures.reduce((t, f) => t + f[k], 0);
    return { below, runs: figures, exact: total('exact'), asked: total('asked'), wrongConfirmable: total('wrongConfirmable') };
  });
  const off = rows[0]!;
  const kept = rows.reduce((best, r) => (rollsToMend(r, off) < rollsToMend(best, off) ? r : best));
  return { rows, kept };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ args: process.argv.slice(2), allowPositionals: true, options: { json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) throw new HelpRequest(USAGE);
  if (positionals.length === 0) throw new UsageError(USAGE);
  const runs: UnsureRun[] = [];
  for (const file of positionals) {
    let videos: PhotoVideo[];
    try {
      videos = JSON.parse(await readFile(file, 'utf8')) as PhotoVideo[];
    } catch (e) {
      throw new UsageError(`${file}: not the saved reads of npm run eval:live (${e instanceof Error ? e.message : String(e)})\n${USAGE}`);
    }
    if (!Array.isArray(videos) || videos.length === 0) throw new UsageError(`${file}: no videos in it\n${USAGE}`);
    const val = videos.find((v) => /-val$/.test(v.set));
    if (val) throw new UsageError(`${file}: reads of ${val.set}; the rule is never chosen on a val split\n${USAGE}`);
    if (videos.some((v) => v.faces)) throw new UsageError(`${file}: reads of symbol dice; the rule is the pip reader's\n${USAGE}`);
    runs.push({ name: file, videos });
  }
  const { rows, kept } = sweepUnsure(runs);
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ rows: rows.map((r) => ({ ...r, rollsToMend: rollsToMend(r, rows[0]!) })), kept: kept.below }, null, 2)}\n`);
    return;
  }
  console.log(`each run: photos proposed exactly / asked for a face / wrong yet confirmable, of ${runs.map((r) => `${r.name} (${r.videos.length} photos)`).join(', ')}`);
  for (const r of rows) {
    const cells = r.runs.map((f) => `${f.exact} / ${f.asked} / ${f.wrongConfirmable}`.padStart(14)).join('  ');
    console.log(`${(r.below === null ? 'off' : r.below.toFixed(2)).padStart(5)}  ${cells}  | all ${r.exact} / ${r.asked} / ${r.wrongConfirmable}  | to mend ${rollsToMend(r, rows[0]!)}`);
  }
  console.log(`kept: ${kept.below === null ? 'off' : `below ${kept.below}`} (the fewest rolls to mend: exact rolls lost to a question, plus wrong rolls left confirmable)`);
}

runCli('choose-unsure-read', import.meta.url, main);
