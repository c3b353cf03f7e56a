/**
 * Two `npm run eval -- --json` reports of the same photos compared photo by photo (`npm run eval --
 * --against BASE.json`): the rolls this run reads exactly that the base read wrong (fixed), the
 * reverse (broken), and the two-sided exact sign test over them. On the held-out slice a dozen
 * photos are left wrong, so a candidate's F1 moves by what one or two photos explain; the sign
 * test says when a change is more than that (6 fixed and none broken, or 8 and 1, before p < 0.05).
 * `wilsonInterval` says the same of one report: how closely a split's photos pin its exact-roll share.
 */
import * as v from 'valibot';
import { UsageError } from './cli.ts';

const fraction = v.nullable(v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(1)));
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const summary = { images: count, perDie: v.object({ f1: fraction }), exactRollAccuracy: fraction };
const wrongRoll = v.object({ file: v.pipe(v.string(), v.minLength(1)), truth: v.array(v.string()), read: v.array(v.nullable(v.string())) });
const reportSchema = v.object({
  model: v.optional(v.object({ file: v.string() })),
  dieFace: v.optional(v.nullable(v.object({ file: v.string(), rules: v.optional(v.record(v.string(), v.unknown())) }))),
  boxes: v.optional(v.string()),
  tiles: v.optional(v.boolean()),
  countKnown: v.optional(v.boolean()),
  condition: v.optional(v.object({ name: v.string() })),
  datasets: v.pipe(v.array(v.object({ name: v.pipe(v.string(), v.minLength(1)), ...summary, wrongRolls: v.array(wrongRoll) })), v.minLength(1)),
  overall: v.object(summary),
});

/** What `--against` needs of an eval report (the `--json` output, which holds more). */
export type ComparableReport = v.InferOutput<typeof reportSchema>;

/** The `--json` text of an earlier `npm run eval`, checked; a clear `UsageError` for anything else. */
export function parseEvalReport(text: string, file: string): ComparableReport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--against ${file}: not JSON (${(e as Error).message}); give the output of npm run eval -- --json`);
  }
  const parsed = v.safeParse(reportSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue ? v.getDotPath(issue) : null;
    throw new UsageError(`--against ${file}: not an npm run eval -- --json report (${where ? `${where}: ` : ''}${issue?.message ?? 'bad shape'})`);
  }
  return parsed.output;
}

/**
 * Two-sided exact sign test (binomial, p = ½) of `fixed` against `broken` discordant photos: the
 * chance of a split at least this uneven if the two readers were equally good. 1 with none.
 */
export function signTestP(fixed: number, broken: number): number {
  if (!(Number.isInteger(fixed) && Number.isInteger(broken) && fixed >= 0 && broken >= 0)) {
    throw new RangeError(`signTestP: counts must be non-negative integers, got ${fixed} and ${broken}`);
  }
  const n = fixed + broken;
  const k = Math.min(fixed, broken);
  // Σ_{i ≤ k} C(n, i) / 2ⁿ in log space (n may be hundreds of photos)
  let logTerm = -n * Math.LN2;
  let tail = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logTerm);
  }
  return Math.min(1, 2 * tail);
}

/**
 * The 95% Wilson score interval of a share of `successes` in `trials` (photos read exactly, of the
 * photos read): how far a split's exact-roll figure may lie from the reader's true rate on photos
 * like these. On 50 photos, 84% reads as 71–92%. `[0, 1]` with no trials.
 */
export function wilsonInterval(successes: number, trials: number, z = 1.959964): [number, number] {
  if (!(Number.isInteger(successes) && Number.isInteger(trials) && successes >= 0 && trials >= successes)) {
    throw new RangeError(`wilsonInterval: need integers 0 <= successes <= trials, got ${successes} of ${trials}`);
  }
  if (trials === 0) return [0, 1];
  const p = successes / trials;
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  // At 0 or all successes the bound is 0 or 1 exactly; keep rounding from moving it.
  return [successes === 0 ? 0 : Math.max(0, centre - half), successes === trials ? 1 : Math.min(1, centre + half)];
}

/** A photo whose roll one of the two runs read exactly and the other did not. */
export interface RollChange {
  dataset: string;
  file: string;
  truth: string[];
  /** The wrong read: the base's for a fixed photo, this run's for a broken one (null = found, not read). */
  wrongRead: Array<string | null>;
}

export interface SplitComparison {
  name: string;
  images: number;
  f1: { base: number | null; now: number | null };
  exact: { base: number | null; now: number | null };
  fixed: number;
  broken: number;
  signTestP: number;
}

export interface ReportComparison {
  datasets: SplitComparison[];
  overall: SplitComparison;
  fixed: RollChange[];
  broken: RollChange[];
  /** How the two runs were read differently (models, the reader's rules, count known, condition, tiles, boxes): said, not refused. */
  readDifferently: string[];
}

/**
 * Compares `now` with `base`, photo by photo. Both must measure the same photos: the same datasets
 * by name, each with as many photos; otherwise a `UsageError` says what differs.
 */
export function compareReports(base: ComparableReport, now: ComparableReport): ReportComparison {
  const names = (r: ComparableReport) => r.datasets.map((d) => `${d.name} (${d.images})`).join(', ');
  if (names(base) !== names(now)) {
    throw new UsageError(`--against: the base measured other photos (${names(base)}) than this run (${names(now)}); read the same folders, or both with --holdout`);
  }
  const fixed: RollChange[] = [];
  const broken: RollChange[] = [];
  const datasets = now.datasets.map((d, i): SplitComparison => {
    const b = base.datasets[i]!;
    const wrongBefore = new Map(b.wrongRolls.map((w) => [w.file, w]));
    const wrongNow = new Map(d.wrongRolls.map((w) => [w.file, w]));
    const f = b.wrongRolls.filter((w) => !wrongNow.has(w.file)).map((w) => ({ dataset: d.name, file: w.file, truth: w.truth, wrongRead: w.read }));
    const k = d.wrongRolls.filter((w) => !wrongBefore.has(w.file)).map((w) => ({ dataset: d.name, file: w.file, truth: w.truth, wrongRead: w.read }));
    fixed.push(...f);
    broken.push(...k);
    return split(d.name, d.images, b, d, f.length, k.length);
  });
  const overall = split('overall', now.overall.images, base.overall, now.overall, fixed.length, broken.length);
  return { datasets, overall, fixed, broken, readDifferently: differences(base, now) };
}

function split(
  name: string,
  images: number,
  base: { perDie: { f1: number | null }; exactRollAccuracy: number | null },
  now: { perDie: { f1: number | null }; exactRollAccuracy: number | null },
  fixed: number,
  broken: number,
): SplitComparison {
  return {
    name,
    images,
    f1: { base: base.perDie.f1, now: now.perDie.f1 },
    exact: { base: base.exactRollAccuracy, now: now.exactRollAccuracy },
    fixed,
    broken,
    signTestP: signTestP(fixed, broken),
  };
}

function differences(base: ComparableReport, now: ComparableReport): string[] {
  const said = (x: string | boolean | null): string => (x === null ? 'none' : String(x));
  // a camera condition is written only when one was used; an older report may lack countKnown
  const condition = (r: ComparableReport) => (r.model ? (r.condition?.name ?? null) : undefined);
  const dieFace = (r: ComparableReport) => (r.dieFace === undefined ? undefined : (r.dieFace?.file ?? null));
  // the sidecar's rules, one by one, where both runs recorded them
  const rule = (r: ComparableReport, name: string) => (r.dieFace?.rules && name in r.dieFace.rules ? JSON.stringify(r.dieFace.rules[name]) : undefined);
  const ruleNames = [...new Set([...Object.keys(base.dieFace?.rules ?? {}), ...Object.keys(now.dieFace?.rules ?? {})])];
  const pairs: Array<[string, string | boolean | null | undefined, string | boolean | null | undefined]> = [
    ['detector', base.model?.file, now.model?.file],
    ['die-face reader', dieFace(base), dieFace(now)],
    ['boxes', base.boxes, now.boxes],
    ['tiles', base.tiles, now.tiles],
    ['count known', base.countKnown, now.countKnown],
    ['camera condition', condition(base), condition(now)],
    ...ruleNames.map((name): [string, string | undefined, string | undefined] => [`the reader's ${name} rule`, rule(base, name), rule(now, name)]),
  ];
  const out: string[] = [];
  for (const [what, b, n] of pairs) if (b !== undefined && n !== undefined && b !== n) out.push(`${what}: ${said(b)} in the base, ${said(n)} here`);
  return out;
}

const pct = (x: number | null): string => (x === null ? '  n/a' : (100 * x).toFixed(1).padStart(5));

/** The comparison as `npm run eval` prints it after its report. */
export function formatComparison(c: ReportComparison, baseFile: string): string {
  const width = Math.max(22, ...c.datasets.map((d) => d.name.length));
  const line = (s: SplitComparison): string =>
    [
      s.name.padEnd(width),
      String(s.images).padStart(6),
      `${pct(s.f1.base)} → ${pct(s.f1.now)}`,
      `${pct(s.exact.base)} → ${pct(s.exact.now)}`,
      String(s.fixed).padStart(5),
      String(s.broken).padStart(6),
      s.signTestP.toFixed(3).padStart(7),
    ].join('  ');
  const roll = (dice: ReadonlyArray<string | null>): string => (dice.length ? dice.map((x) => x ?? '?').join(' ') : '(none)');
  const out = [
    `against ${baseFile}, photo by photo: fixed = read exactly here and not in the base, broken = the reverse; p = two-sided exact sign test over them`,
    ...c.readDifferently.map((d) => `  read differently: ${d}`),
    ['dataset'.padEnd(width), 'images'.padStart(6), 'F1 base →  here', 'exact base → here', 'fixed', 'broken', '      p'].join('  '),
    ...c.datasets.map(line),
    line(c.overall),
  ];
  for (const f of c.fixed) out.push(`  fixed  ${f.dataset}/${f.file}: truth ${roll(f.truth)}, the base read ${roll(f.wrongRead)}`);
  for (const b of c.broken) out.push(`  broken ${b.dataset}/${b.file}: truth ${roll(b.truth)}, read here ${roll(b.wrongRead)}`);
  return out.join('\n');
}
