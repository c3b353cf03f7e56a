import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO, runCli, TEST_MODEL } from './cli-helpers.ts';
import { COLOUR, scenePng } from './synthetic-scenes.ts';
import { isHoldout } from '../../scripts/lib/datasets.ts';
import { GAME_ROLL_DICE, photoOutcome } from '../../scripts/lib/evaluate.ts';
import { GAMES } from '../../src/lib/rules/registry.ts';
import type { Die } from '../../src/lib/vision/types.ts';

// Datasets the hand-wired test model reads predictably (see synthetic-scenes.ts):
// 200×100 frames, stride-32 cell (c, r) = source square at x 20c, y 20r − 50, side 20.
const root = mkdtempSync(path.join(tmpdir(), 'eval-'));
const whole = path.join(root, 'whole-set');
const pips = path.join(root, 'pips-set');
const sq = (x: number, y: number, w = 20) => ({ x, y, w, h: w });
const TEST_READER = path.join(REPO, 'tests/fixtures/die-face-model/die-face-test.onnx');

beforeAll(async () => {
  mkdirSync(whole);
  mkdirSync(pips);
  // a: a 1 and a 6, both read right.
  writeFileSync(path.join(whole, 'a.png'), await scenePng(200, 100, [
    { x: 40, y: 10, side: 20, rgb: COLOUR[1] },
    { x: 140, y: 50, side: 20, rgb: COLOUR[6] },
  ]));
  // b: a green square (read 2) labelled 3; a labelled 5 with nothing there (missed);
  // a white square nobody labelled (spurious `other`).
  writeFileSync(path.join(whole, 'b.png'), await scenePng(200, 100, [
    { x: 60, y: 30, side: 20, rgb: COLOUR[2] },
    { x: 0, y: 70, side: 20, rgb: COLOUR.other },
  ]));
  writeFileSync(path.join(whole, 'labels.json'), JSON.stringify({
    source: 'test', license: 'test', box_style: 'whole-die',
    images: [
      { file: 'a.png', width: 200, height: 100, dice: [{ ...sq(40, 10), value: 1 }, { ...sq(140, 50), value: 6 }] },
      { file: 'b.png', width: 200, height: 100, dice: [{ ...sq(60, 30), value: 3 }, { ...sq(160, 0), value: 5 }] },
    ],
  }));
  // c: a 4 labelled by its pip pattern only (a small box inside the die).
  writeFileSync(path.join(pips, 'c.png'), await scenePng(200, 100, [{ x: 40, y: 10, side: 20, rgb: COLOUR[4] }]));
  writeFileSync(path.join(pips, 'labels.json'), JSON.stringify({
    box_style: 'pips', images: [{ file: 'c.png', width: 200, height: 100, dice: [{ ...sq(45, 15, 10), value: 4 }] }],
  }));
});

interface Summary {
  images: number;
  dice: number;
  predicted: number;
  perDie: { precision: number; recall: number; f1: number };
  perDieIoU50: { precision: number; recall: number; f1: number; images: number } | null;
  detectionRecall: number;
  exactRollAccuracy: number;
  confusion: { counts: number[][] };
  latencyMs: { median: number; p95: number };
}

describe('npm run eval', () => {
  it('measures per dataset and overall (--json)', () => {
    const r = runCli('scripts/eval.ts', ['--json', '--model', TEST_MODEL, '--die-face', 'off', whole, pips]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as { model: { inputSize: number }; datasets: Array<Summary & { name: string; boxStyle: string; wrongRolls: unknown[] }>; overall: Summary };
    expect(report.model.inputSize).toBe(320);
    const [w, p] = report.datasets;
    expect([w!.name, w!.boxStyle, p!.name, p!.boxStyle]).toEqual(['whole-set', 'whole-die', 'pips-set', 'pips']);
    expect([w!.images, w!.dice, w!.predicted]).toEqual([2, 4, 4]);
    expect(w!.perDie).toEqual({ precision: 0.5, recall: 0.5, f1: 0.5 });
    expect(w!.perDieIoU50).toEqual({ precision: 0.5, recall: 0.5, f1: 0.5, images: 2, dice: 4 });
    expect(w!.detectionRecall).toBe(0.75);
    expect(w!.exactRollAccuracy).toBe(0.5);
    const c = w!.confusion.counts;
    expect(c[0]).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(c[2]).toEqual([0, 1, 0, 0, 0, 0, 0, 0]); // true 3 read 2
    expect(c[4]).toEqual([0, 0, 0, 0, 0, 0, 0, 1]); // true 5 missed
    expect(c[5]).toEqual([0, 0, 0, 0, 0, 1, 0, 0]);
    expect(c[6]).toEqual([0, 0, 0, 0, 0, 0, 1, 0]); // spurious other
    // b: the 3 read 2, the 5 missed, a spurious die found but not read
    expect(w!.wrongRolls).toEqual([{ file: 'b.png', truth: ['3', '5'], read: ['2', null] }]);
    expect(p!.perDie).toEqual({ precision: 1, recall: 1, f1: 1 });
    expect(p!.perDieIoU50).toBeNull();
    expect(p!.wrongRolls).toEqual([]);
    const o = report.overall;
    expect([o.images, o.dice, o.predicted]).toEqual([3, 5, 5]);
    expect(o.perDie.precision).toBeCloseTo(0.6, 12);
    expect(o.exactRollAccuracy).toBeCloseTo(2 / 3, 12);
    expect(o.perDieIoU50).toMatchObject({ precision: 0.5, recall: 0.5, images: 2 }); // whole-die sets only
    expect(o.latencyMs.p95).toBeGreaterThanOrEqual(o.latencyMs.median);
  });

  it('measures the crowds apart: photos of --crowd N dice or more (default 8)', () => {
    type Report = { datasets: Array<{ name: string; crowds: Summary | null }>; overall: Summary; crowds: Summary | null; crowdDice: number };
    const byDefault = JSON.parse(runCli('scripts/eval.ts', ['--json', '--model', TEST_MODEL, '--die-face', 'off', whole, pips]).stdout) as Report;
    expect(byDefault.crowdDice).toBe(8);
    expect([byDefault.crowds, ...byDefault.datasets.map((d) => d.crowds)]).toEqual([null, null, null]);
    // with 2: both photos of whole-set (two dice each) are crowds, the one-die photo of pips-set is not
    const r = runCli('scripts/eval.ts', ['--json', '--crowd', '2', '--model', TEST_MODEL, '--die-face', 'off', whole, pips]);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    const [w, p] = report.datasets;
    expect(w!.crowds).toMatchObject({ images: 2, dice: 4, perDie: { precision: 0.5, recall: 0.5, f1: 0.5 }, detectionRecall: 0.75, exactRollAccuracy: 0.5 });
    expect(p!.crowds).toBeNull();
    expect(report.crowds).toMatchObject({ images: 2, dice: 4, exactRollAccuracy: 0.5 });
    const table = runCli('scripts/eval.ts', ['--crowd', '2', '--model', TEST_MODEL, '--die-face', 'off', whole, pips]).stdout;
    expect(table).toMatch(/whole-set \(die\)[^\n]*\n  ≤ 6 dice[^\n]*\n  ≥ 2 dice\s+2\s+4\s+50\.0/);
    expect(table).toMatch(/overall[^\n]*\n  ≤ 6 dice[^\n]*\n  ≥ 2 dice\s+2\s+4\s+50\.0/);
    // a split of two photos pins its exact-roll share hardly at all, and the report says so
    expect(table).toContain('exact, with its 95% interval over the photos (Wilson score): whole-set 50.0 (9.5–90.5), pips-set 100.0 (20.7–100.0), overall');
    const bad = runCli('scripts/eval.ts', ['--crowd', '0', '--model', TEST_MODEL, whole]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--crowd must be a positive integer');
  });

  it('measures the rolls a game throws apart: photos of at most as many dice as any game rolls', () => {
    type Report = { datasets: Array<Summary & { gameRolls: Summary | null }>; overall: Summary; gameRolls: Summary | null; gameRollDice: number };
    expect(GAME_ROLL_DICE).toBe(Math.max(...GAMES.map((g) => g.diceCount)));
    expect(GAME_ROLL_DICE).toBe(6); // Point Five's six dice
    const r = runCli('scripts/eval.ts', ['--json', '--model', TEST_MODEL, '--die-face', 'off', whole, pips]);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.gameRollDice).toBe(6);
    // every photo here shows one or two dice: each set's game rolls are the whole set
    const [w, p] = report.datasets;
    expect(w!.gameRolls).toMatchObject({ images: 2, dice: 4, perDie: w!.perDie, exactRollAccuracy: w!.exactRollAccuracy });
    expect(p!.gameRolls).toMatchObject({ images: 1, dice: 1, exactRollAccuracy: 1 });
    expect(report.gameRolls).toMatchObject({ images: 3, dice: 5, exactRollAccuracy: report.overall.exactRollAccuracy });
  });

  it('leaves the game rolls out of a report with no photo of that few dice', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rollcall-eval-many-'));
    try {
      const squares = Array.from({ length: GAME_ROLL_DICE + 1 }, (_, i) => ({ x: 25 * i, y: 40, side: 20, rgb: COLOUR[1] }));
      writeFileSync(path.join(dir, 'many.png'), await scenePng(200, 100, squares));
      writeFileSync(path.join(dir, 'labels.json'), JSON.stringify({ source: 'test', license: 'test', box_style: 'whole-die', images: [
        { file: 'many.png', width: 200, height: 100, dice: squares.map((s) => ({ ...sq(s.x, s.y), value: 1 })) },
      ] }));
      const r = runCli('scripts/eval.ts', ['--json', '--model', TEST_MODEL, '--die-face', 'off', dir]);
      expect(r.status).toBe(0);
      const report = JSON.parse(r.stdout) as { datasets: Array<{ gameRolls: unknown }>; gameRolls: unknown };
      expect([report.gameRolls, report.datasets[0]!.gameRolls]).toEqual([null, null]);
      expect(runCli('scripts/eval.ts', ['--model', TEST_MODEL, '--die-face', 'off', dir]).stdout).not.toContain('≤ 6 dice');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a photo carrying an export\'s salt-and-pepper specks without them, and says so', async () => {
    const squares = [{ x: 40, y: 10, side: 20, rgb: COLOUR[1] }, { x: 140, y: 50, side: 20, rgb: COLOUR[6] }];
    const labels = JSON.stringify({ box_style: 'whole-die', images: [{ file: 'a.png', width: 200, height: 100, dice: [{ ...sq(40, 10), value: 1 }, { ...sq(140, 50), value: 6 }] }] });
    const clean = path.join(root, 'clean-set');
    const speckled = path.join(root, 'speckled-set');
    for (const dir of [clean, speckled]) {
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'labels.json'), labels);
    }
    writeFileSync(path.join(clean, 'a.png'), await scenePng(200, 100, squares));
    // the same scene with 30 single white and black pixels on the grey table (0.15% of its pixels)
    const { data } = await sharp(await scenePng(200, 100, squares)).raw().toBuffer({ resolveWithObject: true });
    for (let k = 0; k < 30; k++) data.fill(k % 2 ? 0 : 255, ((85 + (k % 3) * 4) * 200 + 5 + 6 * k) * 3, ((85 + (k % 3) * 4) * 200 + 6 + 6 * k) * 3);
    writeFileSync(path.join(speckled, 'a.png'), await sharp(data, { raw: { width: 200, height: 100, channels: 3 } }).png().toBuffer());
    const r = runCli('scripts/eval.ts', ['--json', '--model', TEST_MODEL, '--die-face', 'off', clean, speckled]);
    expect(r.status).toBe(0);
    const [c, s] = (JSON.parse(r.stdout) as { datasets: Array<Summary & { despeckled: number }> }).datasets;
    expect([c!.despeckled, s!.despeckled]).toEqual([0, 1]);
    expect(s!.perDie).toEqual(c!.perDie);
    expect(s!.confusion).toEqual(c!.confusion);
    const table = runCli('scripts/eval.ts', ['--model', TEST_MODEL, '--die-face', 'off', clean, speckled]).stdout;
    expect(table).toContain('speckled-set: 1 of 1 photos read without the salt-and-pepper specks of their export');
    expect(table).not.toContain('clean-set: ');
  });

  it('compares itself photo by photo with an earlier report (--against BASE.json), and refuses a bad base before reading', () => {
    const first = runCli('scripts/eval.ts', ['--json', '--model', TEST_MODEL, '--die-face', 'off', whole, pips]);
    expect(first.status).toBe(0);
    const base = JSON.parse(first.stdout) as { countKnown: boolean; datasets: Array<{ wrongRolls: Array<{ file: string; truth: string[]; read: Array<string | null> }> }> };
    expect(base.countKnown).toBe(false);
    // the same reader against itself: nothing fixed or broken
    const same = path.join(root, 'base-same.json');
    writeFileSync(same, first.stdout);
    const again = runCli('scripts/eval.ts', ['--json', '--model', TEST_MODEL, '--die-face', 'off', '--against', same, whole, pips]);
    expect(again.status).toBe(0);
    const a = (JSON.parse(again.stdout) as { against: { file: string; fixed: unknown[]; broken: unknown[]; overall: { signTestP: number }; readDifferently: string[] } }).against;
    expect([a.file, a.fixed, a.broken, a.overall.signTestP, a.readDifferently]).toEqual([same, [], [], 1, []]);
    // a base that read a.png wrong and b.png right: a.png fixed here, b.png broken
    base.datasets[0]!.wrongRolls = [{ file: 'a.png', truth: ['1', '6'], read: ['1'] }];
    const other = path.join(root, 'base-other.json');
    writeFileSync(other, JSON.stringify(base));
    const text = runCli('scripts/eval.ts', ['--model', TEST_MODEL, '--die-face', 'off', '--count-known', '--against', other, whole, pips]);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(`against ${other}, photo by photo`);
    expect(text.stdout).toContain('read differently: count known: false in the base, true here');
    expect(text.stdout).toContain('  fixed  whole-set/a.png: truth 1 6, the base read 1');
    expect(text.stdout).toContain('  broken whole-set/b.png: truth 3 5, read here 2 ?');
    expect(text.stdout).toMatch(/\nwhole-set +2 .* 1 +1 +1\.000\n/);
    // a bad base is said at once (exit 2), nothing read
    for (const [file, message] of [
      [path.join(root, 'no-such.json'), 'no such file'],
      [path.join(REPO, 'package.json'), 'not an npm run eval -- --json report'],
    ] as const) {
      const r = runCli('scripts/eval.ts', ['--model', TEST_MODEL, '--against', file, whole]);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`eval: --against ${file}: ${message}`);
    }
    // a base of other photos: this run's report is printed, then the refusal
    const mismatch = runCli('scripts/eval.ts', ['--json', '--model', TEST_MODEL, '--die-face', 'off', '--against', same, whole]);
    expect(mismatch.status).toBe(2);
    expect((JSON.parse(mismatch.stdout) as { datasets: unknown[] }).datasets).toHaveLength(1);
    expect(mismatch.stderr).toContain('the base measured other photos (whole-set (2), pips-set (1)) than this run (whole-set (2))');
  });

  it('prints a table and confusion matrices', () => {
    const r = runCli('scripts/eval.ts', ['--model', TEST_MODEL, '--die-face', 'off', whole]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/whole-set \(die\)\s+2\s+4\s+50\.0\s+50\.0\s+50\.0\s+50\.0\s+50\.0\s+50\.0\s+75\.0\s+50\.0/);
    expect(r.stdout).toContain('confusion, overall');
    expect(r.stdout).not.toContain('rolls not read exactly');
    const wrong = runCli('scripts/eval.ts', ['--wrong', '--model', TEST_MODEL, '--die-face', 'off', whole]);
    expect(wrong.stdout).toContain('rolls not read exactly, whole-set (1 of 2; ? = a die found but not read):\n  b.png: truth 3 5, read 2 ?');
  });

  it('reads with a die-face model\'s second pass (--die-face FILE), and its reading alone on the labelled boxes (--boxes truth)', () => {
    // The test reader (tests/fixtures/die-face-model) reads colours its own way: red 6, cyan 1, green 5, grey 2, yellow 3.
    const withReader = runCli('scripts/eval.ts', ['--json', '--model', TEST_MODEL, '--die-face', TEST_READER, whole]);
    expect(withReader.stderr).toBe('');
    const a = JSON.parse(withReader.stdout) as { dieFace: { inputSize: number } | null; boxes: string; overall: Summary };
    expect(a.dieFace).toMatchObject({ inputSize: 8 });
    expect(a.boxes).toBe('detector');
    // found as before (a red and a cyan die, a green one, a white spurious one), read by the second pass
    expect(a.overall.detectionRecall).toBe(0.75);
    expect(a.overall.confusion.counts[0]).toEqual([0, 0, 0, 0, 0, 1, 0, 0]); // true 1 (red) read 6
    expect(a.overall.confusion.counts[5]).toEqual([1, 0, 0, 0, 0, 0, 0, 0]); // true 6 (cyan) read 1
    expect(a.overall.confusion.counts[2]).toEqual([0, 0, 0, 0, 1, 0, 0, 0]); // true 3 (green) read 5
    // a reader without a recount rule reads the same knowing the count
    const counted = runCli('scripts/eval.ts', ['--json', '--count-known', '--model', TEST_MODEL, '--die-face', TEST_READER, whole]);
    expect((JSON.parse(counted.stdout) as { overall: Summary }).overall.confusion).toEqual(a.overall.confusion);

    const truth = runCli('scripts/eval.ts', ['--json', '--model', TEST_MODEL, '--die-face', TEST_READER, '--boxes', 'truth', whole, pips]);
    expect(truth.stderr).toBe('');
    const t = JSON.parse(truth.stdout) as { boxes: string; datasets: Summary[]; overall: Summary };
    expect(t.boxes).toBe('truth');
    const [w, p] = t.datasets;
    expect([w!.dice, w!.predicted, w!.detectionRecall]).toEqual([4, 4, 1]); // every labelled box read, nothing else
    expect(w!.confusion.counts[4]).toEqual([0, 1, 0, 0, 0, 0, 0, 0]); // the labelled 5 over bare table (grey) reads 2
    expect(w!.confusion.counts[6]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]); // no spurious dice
    // the pip-pattern box of the yellow die, grown to die size, stays on the die: yellow reads 3
    expect(p!.confusion.counts[3]).toEqual([0, 0, 1, 0, 0, 0, 0, 0]);
    expect(t.overall.latencyMs.median).toBeGreaterThanOrEqual(0);
  });

  it('measures the train splits\' held-out slices with --holdout, never their other photos nor val', async () => {
    const data = path.join(root, 'holdout-data');
    const train = path.join(data, 'dice-photos', 'toy-train');
    const val = path.join(data, 'dice-photos', 'toy-val');
    mkdirSync(train, { recursive: true });
    mkdirSync(val, { recursive: true });
    // models/training/datasets.py is_holdout('toy-train', …) holds out p1, p9, p16 and p18 of p0…p19;
    // the others are empty files, so reading any of them would fail the run
    const names = Array.from({ length: 20 }, (_, i) => `p${i}.png`);
    const heldOut = ['p1.png', 'p9.png', 'p16.png', 'p18.png'];
    expect(names.filter((n) => isHoldout('toy-train', n))).toEqual(heldOut);
    const scene = await scenePng(200, 100, [{ x: 40, y: 10, side: 20, rgb: COLOUR[1] }, { x: 140, y: 50, side: 20, rgb: COLOUR[6] }]);
    for (const n of names) writeFileSync(path.join(train, n), heldOut.includes(n) ? scene : '');
    writeFileSync(path.join(train, 'labels.json'), JSON.stringify({
      box_style: 'whole-die',
      images: names.map((file) => ({ file, width: 200, height: 100, dice: [{ ...sq(40, 10), value: 1 }, { ...sq(140, 50), value: 6 }] })),
    }));
    writeFileSync(path.join(val, 'labels.json'), 'not json: val is never read here');
    const r = runCli('scripts/eval.ts', ['--json', '--holdout', '--model', TEST_MODEL, '--die-face', 'off'], { ROLLCALL_DATA: data });
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as { datasets: Array<Summary & { name: string }>; overall: Summary };
    expect(report.datasets.map((d) => [d.name, d.images, d.dice])).toEqual([['toy-holdout', 4, 8]]);
    expect(report.overall.exactRollAccuracy).toBe(1);

    const withFolder = runCli('scripts/eval.ts', ['--holdout', '--model', TEST_MODEL, whole], { ROLLCALL_DATA: data });
    expect(withFolder.status).toBe(2);
    expect(withFolder.stderr).toMatch(/--holdout measures the held-out slices .*give no folders with it/);
    const none = runCli('scripts/eval.ts', ['--holdout', '--model', TEST_MODEL], { ROLLCALL_DATA: path.join(root, 'no-data') });
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/--holdout: no \*-train folders under .*no-data\/dice-photos/);
  });

  it('reads every photo under a camera condition (--condition) and says which', () => {
    expect(JSON.parse(runCli('scripts/eval.ts', ['--json', '--model', TEST_MODEL, '--die-face', 'off', whole]).stdout).condition).toBeUndefined();
    const r = runCli('scripts/eval.ts', ['--json', '--model', TEST_MODEL, '--die-face', 'off', '--condition', 'tungsten', whole]);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.condition).toEqual({ name: 'tungsten', note: expect.stringMatching(/2700 K lamp/) });
    expect(runCli('scripts/eval.ts', ['--model', TEST_MODEL, '--die-face', 'off', '--condition', 'shake', whole]).stdout).toMatch(/camera condition \(--condition shake\): a hand moving a little/);
  });

  it('counts the dice read unsurely apart (asked for at the table), scoring them as read', async () => {
    // the matteop65 photo the blurred browser test streams (2 3 3 3 6), under the same blur: the shipped reader doubts some of its 3s
    const dir = path.join(root, 'blurred');
    mkdirSync(dir, { recursive: true });
    const sample = path.join(REPO, 'tests/fixtures/dice-photos/matteop65-val-sample');
    writeFileSync(path.join(dir, 'valid_80.jpg'), await sharp(path.join(sample, 'valid_80.jpg')).blur(7).jpeg({ quality: 92 }).toBuffer());
    const labels = JSON.parse(readFileSync(path.join(sample, 'labels.json'), 'utf8')) as { images: Array<{ file: string }> };
    writeFileSync(path.join(dir, 'labels.json'), JSON.stringify({ ...labels, images: labels.images.filter((im) => im.file === 'valid_80.jpg') }));
    const r = runCli('scripts/eval.ts', ['--json', dir]);
    expect(r.status, r.stderr).toBe(0);
    const { datasets } = JSON.parse(r.stdout) as { datasets: Array<{ unsure: { dice: number; right: number; misread: number; noDie: number } }> };
    const u = datasets[0]!.unsure;
    expect(u.dice).toBeGreaterThanOrEqual(1);
    expect(u.right + u.misread + u.noDie).toBe(u.dice);
    const text = runCli('scripts/eval.ts', [dir]);
    expect(text.stdout).toContain(`  blurred: ${u.dice} (read right ${u.right}, misread ${u.misread}, no die there ${u.noDie})`);
  });

  it('counts the photos as the table would propose them from a photo of the roll, the count known', () => {
    // a: red and cyan read 6 and 1 (each wrong, the roll right); b: green read 5 beside a white box read `other`, asked for
    const counted = runCli('scripts/eval.ts', ['--json', '--count-known', '--model', TEST_MODEL, '--die-face', TEST_READER, whole]);
    expect(counted.status, counted.stderr).toBe(0);
    const c = JSON.parse(counted.stdout) as { datasets: Array<{ photo: unknown }>; overall: { photo: unknown } };
    const tally = { photos: 2, exact: 1, asked: 1, wrongConfirmable: 0, refused: 0 };
    expect(c.datasets[0]!.photo).toEqual(tally);
    expect(c.overall.photo).toEqual(tally);
    const text = runCli('scripts/eval.ts', ['--count-known', '--model', TEST_MODEL, '--die-face', TEST_READER, whole]).stdout;
    expect(text).toMatch(/as a photo of the roll .*% of photos:\n.*exact  asked \?  wrong, confirmable  refused \(count\)\n  whole-set +50\.0 +50\.0 +0\.0 +0\.0\n  overall +50\.0 +50\.0 +0\.0 +0\.0/);
    // without the count, a photo's proposal is not what the table makes: not counted
    const uncounted = JSON.parse(runCli('scripts/eval.ts', ['--json', '--model', TEST_MODEL, '--die-face', TEST_READER, whole]).stdout) as typeof c;
    expect(uncounted.datasets[0]!.photo).toBeNull();
    expect(uncounted.overall.photo).toBeNull();
  });

  it('prints which reader read the dice', () => {
    const r = runCli('scripts/eval.ts', ['--model', TEST_MODEL, '--die-face', TEST_READER, '--boxes', 'truth', whole]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\ntiles: a photo larger than a tile whose dice look small is read in tiles too/);
    expect(runCli('scripts/eval.ts', ['--model', TEST_MODEL, '--die-face', TEST_READER, '--tiles', 'off', whole]).stdout).toMatch(/\ntiles: off \(every photo read whole\)/);
    expect(r.stdout).toMatch(/die-face reader .*die-face-test\.onnx .*crop 8, margin 1\)/);
    expect(r.stdout).toMatch(/boxes: the LABELLED boxes as perfect detections/);
    expect(runCli('scripts/eval.ts', ['--model', TEST_MODEL, '--die-face', 'off', whole]).stdout).toMatch(/die-face reader: none \(the detector's own values\)/);
  });

  it.each([
    ['--boxes truth without a die-face reader', ['--die-face', 'off', '--boxes', 'truth'], /--boxes truth measures the die-face reader, and there is none \(--die-face off\)/],
    ['--boxes other than detector or truth', ['--boxes', 'mine'], /--boxes must be detector or truth/],
    ['a die-face model that is not there', ['--die-face', '/nope/x.onnx'], /no die-face model at \/nope\/x\.onnx/],
    ['an unknown camera condition', ['--die-face', 'off', '--condition', 'fog'], /--condition must be one of dim, tungsten, shade, shake, swing, defocus, jpeg, glare, lowres, flicker/],
    ['--tiles other than on or off', ['--die-face', 'off', '--tiles', 'maybe'], /--tiles must be on or off/],
  ])('exits 2 for %s', (_what, args, message) => {
    const r = runCli('scripts/eval.ts', ['--model', TEST_MODEL, ...args, whole]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it.each([
    ['a missing folder', () => path.join(root, 'nope'), /no such dataset folder/],
    ['a folder without labels.json', () => { const d = path.join(root, 'empty'); mkdirSync(d, { recursive: true }); return d; }, /no labels.json/],
    ['invalid JSON', () => { const d = path.join(root, 'badjson'); mkdirSync(d, { recursive: true }); writeFileSync(path.join(d, 'labels.json'), '{ nope'); return d; }, /not valid JSON/],
    ['a bad value', () => {
      const d = path.join(root, 'badvalue');
      mkdirSync(d, { recursive: true });
      writeFileSync(path.join(d, 'labels.json'), JSON.stringify({ box_style: 'pips', images: [{ file: 'x.png', width: 1, height: 1, dice: [{ x: 0, y: 0, w: 1, h: 1, value: 7 }] }] }));
      return d;
    }, /images\[0\]\.dice\[0\] \(x\.png\): "value" must be 1–6/],
    ['a missing image', () => {
      const d = path.join(root, 'noimage');
      mkdirSync(d, { recursive: true });
      writeFileSync(path.join(d, 'labels.json'), JSON.stringify({ box_style: 'pips', images: [{ file: 'gone.png', width: 1, height: 1, dice: [] }] }));
      return d;
    }, /missing, e\.g\. gone\.png/],
  ])('exits 2 with a clear message for %s', (_what, make, message) => {
    const r = runCli('scripts/eval.ts', ['--model', TEST_MODEL, '--die-face', 'off', whole, make()]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe(''); // nothing measured when any set is bad
  });
});

describe('photoOutcome: a photo of the roll as the table proposes it', () => {
  const FRAME = { width: 400, height: 300 };
  const truth = [{ box: sq(100, 100, 40), value: 2 }, { box: sq(200, 100, 40), value: 5 }];
  const read = (x: number, value: number | null, extra: Partial<Die> = {}): Die => ({ box: sq(x, 100, 40), value, score: 0.9, classIndex: 0, ...extra });

  it('is exact when every die is read right, in any order', () => {
    expect(photoOutcome(truth, [read(200, 5), read(100, 2)], FRAME)).toBe('exact');
  });

  it('asks for a die the reader doubts, read `other`, or under half in view', () => {
    expect(photoOutcome(truth, [read(100, 2), read(200, 5, { unsure: true })], FRAME)).toBe('asked');
    expect(photoOutcome(truth, [read(100, 2), read(200, null)], FRAME)).toBe('asked');
    // a die 15 px of 40 in view at the frame's right edge
    expect(photoOutcome(truth, [read(100, 2), { ...read(200, 5), box: { x: 385, y: 100, w: 15, h: 40 } }], FRAME)).toBe('asked');
  });

  it('is wrong but confirmable when every die has a value and the count is right, and refused when the count is not', () => {
    expect(photoOutcome(truth, [read(100, 2), read(200, 6)], FRAME)).toBe('wrongConfirmable');
    expect(photoOutcome(truth, [read(100, 2)], FRAME)).toBe('refused');
    // one face too many: the least sure is left out, as the table does
    expect(photoOutcome(truth, [read(100, 2), read(200, 5), read(300, 1, { score: 0.3 })], FRAME)).toBe('exact');
  });
});
