import { beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO, runCli, TEST_MODEL } from './cli-helpers.ts';
import { detectorModelFor, loadModelFiles, SHIPPED_MODEL, SHIPPED_SYMBOL_MODEL, symbolDetectorModel } from '../../scripts/lib/node-vision.ts';
import { COLOUR, scenePng } from './synthetic-scenes.ts';

// The hand-wired test detector finds the coloured squares; the real face embedder
// (models/face-embed.onnx) reads them against a kit taught with one photo per face.
const dir = mkdtempSync(path.join(tmpdir(), 'read-dice-kit-'));
const kitDir = path.join(dir, 'my-kit');
const roll = path.join(dir, 'roll.png');
const data = path.join(dir, 'set');

const faces = [
  { id: 'fire', label: 'Fire', value: 1, group: null, rgb: COLOUR[1] },
  { id: 'leaf', label: 'Leaf', value: null, group: 'plant', rgb: COLOUR[2] },
  { id: 'sea', label: 'Sea', value: 3, group: null, rgb: COLOUR[3] },
];

beforeAll(async () => {
  mkdirSync(data);
  writeFileSync(path.join(kitDir + '.json'), '');
  mkdirSync(kitDir);
  writeFileSync(path.join(kitDir, 'kit.json'), JSON.stringify({ id: 'my-kit', name: 'My kit', faces: faces.map(({ rgb: _, ...f }) => f) }));
  for (const [i, f] of faces.entries()) {
    mkdirSync(path.join(kitDir, 'examples', f.id), { recursive: true });
    writeFileSync(path.join(kitDir, 'examples', f.id, '1.png'), await scenePng(200, 100, [{ x: 40 + 40 * i, y: 30, side: 20, rgb: f.rgb }]));
  }
  writeFileSync(roll, await scenePng(200, 100, [
    { x: 140, y: 50, side: 20, rgb: COLOUR[3] },
    { x: 40, y: 10, side: 20, rgb: COLOUR[1] },
    { x: 80, y: 50, side: 20, rgb: COLOUR[2] },
  ]));
  writeFileSync(path.join(data, 'roll.png'), await scenePng(200, 100, [{ x: 40, y: 10, side: 20, rgb: COLOUR[1] }, { x: 140, y: 50, side: 20, rgb: COLOUR[3] }]));
  writeFileSync(path.join(data, 'labels.json'), JSON.stringify({
    box_style: 'whole-die',
    images: [{ file: 'roll.png', width: 200, height: 100, dice: [{ x: 40, y: 10, w: 20, h: 20, face: 'fire', value: 1 }, { x: 140, y: 50, w: 20, h: 20, face: 'leaf' }] }],
  }));
});

describe('npm run read-dice -- --kit', () => {
  it('reads each die as a face of the kit: face id, label, value (or null), box, score', () => {
    const r = runCli('scripts/read-dice.ts', ['--json', '--model', TEST_MODEL, '--kit', kitDir, roll]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const [image] = JSON.parse(r.stdout) as Array<{ dice: Array<Record<string, unknown>> }>;
    expect(image!.dice.map((d) => [d.face, d.label, d.value])).toEqual([
      ['fire', 'Fire', 1],
      ['leaf', 'Leaf', null],
      ['sea', 'Sea', 3],
    ]);
    expect(image!.dice[0]!.box).toEqual({ x: 40, y: 10, w: 20, h: 20 });
    expect(image!.dice.every((d) => typeof d.score === 'number' && typeof d.similarity === 'number')).toBe(true);
  });

  it('prints face ids and labels for people', () => {
    const r = runCli('scripts/read-dice.ts', ['--model', TEST_MODEL, '--kit', kitDir, roll]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('fire: Fire');
    expect(r.stdout).toContain('leaf: Leaf');
    expect(r.stdout).toContain('3 dice: fire leaf sea');
  });

  it('says clearly what is wrong with a bad kit folder; exit 2', () => {
    const bad = path.join(dir, 'bad-kit');
    mkdirSync(path.join(bad, 'examples', 'moon'), { recursive: true });
    writeFileSync(path.join(bad, 'kit.json'), JSON.stringify({ id: 'bad', name: 'Bad', faces: [{ id: 'sun', label: 'Sun', value: 1, group: null }, { id: 'star', label: 'Star', value: 2, group: null }] }));
    const r = runCli('scripts/read-dice.ts', ['--model', TEST_MODEL, '--kit', bad, roll]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('examples/moon: no face "moon" in kit "bad" (faces: sun, star)');
    const missing = runCli('scripts/read-dice.ts', ['--model', TEST_MODEL, '--kit', path.join(dir, 'nope'), roll]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no such kit folder');
    const file = runCli('scripts/read-dice.ts', ['--model', TEST_MODEL, '--kit', kitDir + '.json', roll]);
    expect(file.status).toBe(2);
    expect(file.stderr).toContain('not a folder');
  });
});

describe('npm run eval -- --kit', () => {
  it('scores by face: a die read as the wrong face is wrong, the confusion table is by face id', () => {
    const r = runCli('scripts/eval.ts', ['--json', '--model', TEST_MODEL, '--kit', kitDir, data]);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { kit: { id: string; examplePrototypes: number }; overall: { dice: number; perDie: { recall: number }; exactRollAccuracy: number; confusion: { rows: string[]; columns: string[]; counts: number[][] } } };
    expect(out.kit).toMatchObject({ id: 'my-kit', examplePrototypes: 3 });
    expect(out.overall.dice).toBe(2);
    expect(out.overall.perDie.recall).toBe(0.5); // the second die is the sea, labelled leaf
    expect(out.overall.exactRollAccuracy).toBe(0);
    expect(out.overall.confusion.rows).toEqual(['fire', 'leaf', 'sea', 'spurious']);
    expect(out.overall.confusion.columns).toEqual(['fire', 'leaf', 'sea', 'unknown', 'missed']);
    expect(out.overall.confusion.counts[1]).toEqual([0, 0, 1, 0, 0]);
  });

  it('refuses labels without a face of the kit', () => {
    const other = path.join(dir, 'other-set');
    mkdirSync(other);
    writeFileSync(path.join(other, 'roll.png'), '');
    writeFileSync(path.join(other, 'labels.json'), JSON.stringify({ box_style: 'whole-die', images: [{ file: 'roll.png', width: 200, height: 100, dice: [{ x: 1, y: 1, w: 5, h: 5, face: 'moon' }] }] }));
    const r = runCli('scripts/eval.ts', ['--model', TEST_MODEL, '--kit', kitDir, other]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('no face "moon" in kit "my-kit" (faces: fire, leaf, sea)');
  });
});

describe('the detector a kit\'s dice are found with', () => {
  it('symbol kits: the shipped symbol-dice detector; standard dice: the pip detector; --model wins', () => {
    expect(detectorModelFor(null)).toBe(SHIPPED_MODEL);
    expect(detectorModelFor('standard')).toBe(SHIPPED_MODEL);
    expect(detectorModelFor('face-off')).toBe(SHIPPED_SYMBOL_MODEL);
    expect(detectorModelFor('my-kit')).toBe(SHIPPED_SYMBOL_MODEL);
    expect(detectorModelFor('face-off', 'other.onnx')).toBe('other.onnx');
    expect(detectorModelFor(null, 'other.onnx')).toBe('other.onnx');
    expect(symbolDetectorModel()).toBe(SHIPPED_SYMBOL_MODEL);
    expect(symbolDetectorModel('other.onnx')).toBe('other.onnx');
  });

  it('ships the symbol-dice detector within the size budget, with its symbol rule', async () => {
    const files = await loadModelFiles(SHIPPED_SYMBOL_MODEL);
    expect(files.model.byteLength).toBeLessThanOrEqual(4_000_000);
    expect(files.config.symbolDice?.inputSizes?.length).toBeGreaterThan(0);
    expect(files.config.symbolDice?.recount).not.toBeNull();
  });

  it('reads a symbol kit with it by default: the same dice as naming it', () => {
    const photo = path.join(REPO, 'tests/fixtures/symbol-photos/rolls', readdirSync(path.join(REPO, 'tests/fixtures/symbol-photos/rolls')).find((f) => f.startsWith('face-off'))!);
    const kit = path.join(REPO, 'src/lib/dice/kits/face-off');
    const byDefault = runCli('scripts/read-dice.ts', ['--json', '--kit', kit, photo]);
    const named = runCli('scripts/read-dice.ts', ['--json', '--kit', kit, '--model', SHIPPED_SYMBOL_MODEL, photo]);
    const pips = runCli('scripts/read-dice.ts', ['--json', '--kit', kit, '--model', SHIPPED_MODEL, photo]);
    expect(byDefault.status).toBe(0);
    expect(byDefault.stdout).toBe(named.stdout);
    expect(pips.status).toBe(0);
    expect(byDefault.stdout).not.toBe(pips.stdout); // two detectors, two sets of boxes
  });
});
