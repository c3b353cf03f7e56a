import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { REPO, runCli, TEST_MODEL } from './cli-helpers.ts';
import { COLOUR, scenePng } from './synthetic-scenes.ts';
import { nineFixturePhotos } from '../../scripts/lib/fixture-mosaic.ts';

// 200×100 frames: input scale 1.6, padY 80; a stride-32 cell (c, r) is source x 20c, y 20r − 50, 20 px.
const dir = mkdtempSync(path.join(tmpdir(), 'read-dice-'));
const two = path.join(dir, 'two dice.png');
const none = path.join(dir, 'empty.png');
const rotated = path.join(dir, 'rotated.jpg');
const notImage = path.join(dir, 'notes.jpg');
const cutShort = path.join(dir, 'cut short.jpg');

beforeAll(async () => {
  writeFileSync(two, await scenePng(200, 100, [
    { x: 140, y: 50, side: 20, rgb: COLOUR[6] },
    { x: 40, y: 10, side: 20, rgb: COLOUR[1] },
  ]));
  writeFileSync(none, await scenePng(200, 100, []));
  // Stored as 100×200 pixels with EXIF orientation 6 (rotate 90° clockwise to view): the
  // viewed frame is 200×100 with the yellow square at (40, 10), so the die's box is there.
  const stored = await sharp(await scenePng(200, 100, [{ x: 40, y: 10, side: 20, rgb: COLOUR[4] }])).rotate(-90).png().toBuffer();
  writeFileSync(rotated, await sharp(stored).jpeg({ quality: 100 }).withMetadata({ orientation: 6 }).toBuffer());
  writeFileSync(notImage, 'not a picture');
  // a download or copy stopped part way: the JPEG's header and a little of its data
  const whole = await sharp(await scenePng(200, 100, [{ x: 40, y: 10, side: 20, rgb: COLOUR[4] }])).jpeg().toBuffer();
  writeFileSync(cutShort, whole.subarray(0, Math.floor(whole.length / 2)));
});

describe('npm run read-dice', () => {
  it('prints each die (value, box, confidence) and a summary, left to right', () => {
    const r = runCli('scripts/read-dice.ts', ['--model', TEST_MODEL, '--die-face', 'off', two]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${two}\n  1  box x=40 y=10 w=20 h=20  score 1.00\n  6  box x=140 y=50 w=20 h=20  score 1.00\n  2 dice: 1 6\n`);
  });

  it('reads each die again with a die-face model when given one (--die-face FILE)', () => {
    // the test reader (tests/fixtures/die-face-model) reads red as 6 and cyan as 1, the test detector the other way round
    const reader = path.join(REPO, 'tests/fixtures/die-face-model/die-face-test.onnx');
    const r = runCli('scripts/read-dice.ts', ['--model', TEST_MODEL, '--die-face', reader, two]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${two}\n  6  box x=40 y=10 w=20 h=20  score 1.00\n  1  box x=140 y=50 w=20 h=20  score 1.00\n  2 dice: 1 6\n`);
  });

  it('--json prints one array, an element per image in the order given, errors included; exit 2', () => {
    const r = runCli('scripts/read-dice.ts', ['--json', '--model', TEST_MODEL, '--die-face', 'off', none, path.join(dir, 'missing.png'), two, notImage, dir]);
    expect(r.status).toBe(2);
    const out = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(out.map((o) => o.file)).toEqual([none, path.join(dir, 'missing.png'), two, notImage, dir]);
    expect(out[0]).toEqual({ file: none, dice: [] });
    expect(out[1]).toEqual({ file: path.join(dir, 'missing.png'), error: 'no such file' });
    expect(out[2]).toEqual({
      file: two,
      dice: [
        { value: 1, box: { x: 40, y: 10, w: 20, h: 20 }, score: 1 },
        { value: 6, box: { x: 140, y: 50, w: 20, h: 20 }, score: 1 },
      ],
    });
    expect(out[3]!.error).toMatch(/not an image/);
    expect(out[4]!.error).toMatch(/directory/);
  });

  it('reads a relative path from the folder npm run was typed in, and reports it as given', () => {
    const r = runCli('scripts/read-dice.ts', ['--json', '--model', TEST_MODEL, '--die-face', 'off', 'two dice.png', 'gone.png'], { INIT_CWD: dir });
    expect(r.status).toBe(2);
    const out = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(out[0]).toMatchObject({ file: 'two dice.png', dice: [{ value: 1 }, { value: 6 }] });
    expect(out[1]).toEqual({ file: 'gone.png', error: `no such file (${path.join(dir, 'gone.png')})` });
  });

  it('applies EXIF orientation before reading', () => {
    const r = runCli('scripts/read-dice.ts', ['--json', '--model', TEST_MODEL, '--die-face', 'off', rotated]);
    expect(r.status).toBe(0);
    const [result] = JSON.parse(r.stdout) as Array<{ dice: Array<{ value: number; box: Record<string, number> }> }>;
    expect(result!.dice).toHaveLength(1);
    expect(result!.dice[0]!.value).toBe(4);
    expect(result!.dice[0]!.box).toEqual({ x: 40, y: 10, w: 20, h: 20 });
  });

  it('reports unreadable images on stderr, reads the rest, exits 2', () => {
    const r = runCli('scripts/read-dice.ts', ['--model', TEST_MODEL, '--die-face', 'off', notImage, none]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${notImage}: error: not an image`);
    expect(r.stdout).toBe(`${none}\n  no dice\n`);
  });

  it('says an image cut short in one line, and reads the rest', () => {
    const r = runCli('scripts/read-dice.ts', ['--json', '--model', TEST_MODEL, '--die-face', 'off', cutShort, none]);
    expect(r.status).toBe(2);
    const [bad, good] = JSON.parse(r.stdout) as Array<{ error?: string; dice?: unknown[] }>;
    expect(bad!.error).toMatch(/^the image is cut short \(/);
    expect(bad!.error).not.toContain('\n');
    expect(new Set(bad!.error!.split('; ')).size).toBe(bad!.error!.split('; ').length);
    expect(good!.dice).toEqual([]);
  });

  it('exits 2 with usage when no image or an unknown option is given', () => {
    expect(runCli('scripts/read-dice.ts', []).status).toBe(2);
    const r = runCli('scripts/read-dice.ts', ['--frobnicate', two]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/frobnicate/);
  });

  it('exits 2 with a clear message when the model is missing', () => {
    const r = runCli('scripts/read-dice.ts', ['--model', path.join(dir, 'nope.onnx'), two]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no model file/);
  });

  it('exits 2 for --tiles other than on or off', () => {
    const r = runCli('scripts/read-dice.ts', ['--tiles', 'maybe', two]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--tiles must be on or off/);
  });
});

describe('npm run read-dice on a large photo of small dice (the shipped models)', () => {
  const mosaic = path.join(dir, 'nine photos.jpg');
  let truth: string;

  beforeAll(async () => {
    const { jpeg, values } = await nineFixturePhotos();
    writeFileSync(mosaic, jpeg);
    truth = values.join(' ');
  });

  it('finds the dice in tiles of it (the default), where read whole it misses half', () => {
    const dice = (tiles: string) => {
      const r = runCli('scripts/read-dice.ts', ['--json', '--tiles', tiles, mosaic]);
      expect(r.status, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as Array<{ dice: Array<{ value: number | null }> }>)[0]!.dice;
    };
    expect(truth.split(' ')).toHaveLength(46);
    expect(dice('on').map((d) => d.value).sort().join(' ')).toBe(truth);
    expect(dice('off').length).toBeLessThan(30);
  });
});

describe('npm run read-dice on close-ups (tests/fixtures/dice-photos/close-ups: our renders, one die filling much of the picture)', () => {
  const closeUps = ['pips-302-roll-007.jpg', 'pips-303-roll-019.jpg'].map((f) => path.join(REPO, 'tests/fixtures/dice-photos/close-ups', f));

  it('reads each die shrunk into a padded frame (the default), where read whole it finds none', () => {
    const values = (tiles: string) => {
      const r = runCli('scripts/read-dice.ts', ['--json', '--tiles', tiles, ...closeUps]);
      expect(r.status, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as Array<{ dice: Array<{ value: number | null }> }>).map((photo) => photo.dice.map((d) => d.value));
    };
    expect(values('on')).toEqual([[4], [1]]);
    expect(values('off')).toEqual([[], []]);
  });
});
