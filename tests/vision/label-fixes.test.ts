import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyLabelFixes, loadDataset, readLabelFixes, scoredPredictions, type LabelFix, type LabelledImage } from '../../scripts/lib/datasets.ts';
import { dataRoot } from '../../scripts/lib/node-vision.ts';

const box = (x: number, y: number, w = 20) => ({ x, y, w, h: w });
const photo = (file: string, dice: LabelledImage['dice']): LabelledImage => ({ file, width: 200, height: 100, dice, ignore: [] });
const images = [photo('a.jpg', [{ box: box(10, 10), value: 2 }, { box: box(50, 10), value: 5 }]), photo('b.jpg', [])];
const fix = (f: Partial<LabelFix>): LabelFix => ({ split: 'toy-train', file: 'a.jpg', why: 'test', ...f });

describe('label fixes (models/training/label-fixes.json)', () => {
  it('revalues a labelled die, adds a left-out die, and leaves a left-out die that is no pip die unscored', () => {
    const fixed = applyLabelFixes('toy-train', images, [
      fix({ die: 0, box: box(10, 10), was: 2, value: 3 }),
      fix({ add: box(100, 10), value: 6 }),
      fix({ add: box(140, 10), value: null }),
      fix({ ignore: box(170, 60) }),
      fix({ split: 'other-train', file: 'elsewhere.jpg', add: box(0, 0), value: 1 }),
    ]);
    expect(fixed[0]!.dice).toEqual([{ box: box(10, 10), value: 3 }, { box: box(50, 10), value: 5 }, { box: box(100, 10), value: 6 }]);
    expect(fixed[0]!.ignore).toEqual([box(140, 10), box(170, 60)]);
    expect(fixed[1]).toEqual(images[1]);
    expect(images[0]!.dice[0]!.value).toBe(2); // the labels read are not changed in place
  });

  it('refuses a fix that no longer fits the labels, and fixes of a split that is not a train split', () => {
    expect(() => applyLabelFixes('toy-train', images, [fix({ die: 0, box: box(10, 10), was: 4, value: 3 })])).toThrow(/die 0 is not the labelled die .* valued 4/);
    expect(() => applyLabelFixes('toy-train', images, [fix({ die: 1, box: box(10, 10), was: 5, value: 3 })])).toThrow(/die 1 is not the labelled die/);
    expect(() => applyLabelFixes('toy-train', images, [fix({ die: 7, box: box(10, 10), was: 2, value: 3 })])).toThrow(/die 7/);
    expect(() => applyLabelFixes('toy-train', images, [fix({ file: 'gone.jpg', add: box(0, 0), value: 1 })])).toThrow(/toy-train has no photo gone\.jpg/);
    expect(() => applyLabelFixes('toy-train', images, [fix({})])).toThrow(/one of die, add or ignore/);
    expect(() => applyLabelFixes('toy-val', images, [fix({ split: 'toy-val', add: box(0, 0), value: 1 })])).toThrow(/train splits only, not toy-val/);
  });

  it('scores no read centred in an ignored region', () => {
    const read = [{ box: box(140, 10), value: 3, score: 0.9 }, { box: box(10, 10), value: 2, score: 0.9 }, { box: box(130, 0, 10), value: null, score: 0.9 }];
    expect(scoredPredictions({ ignore: [box(140, 10)] }, read)).toEqual([read[1], read[2]]);
    expect(scoredPredictions({ ignore: [] }, read)).toEqual(read);
  });

  it('ships reviewed fixes of the train splits only, each one kind with its reason', async () => {
    const fixes = await readLabelFixes();
    expect(fixes.length).toBeGreaterThan(0);
    for (const f of fixes) {
      expect(f.split).toMatch(/^(byler|epanemu|matteop65)-train$/);
      expect([f.die, f.add, f.ignore].filter((k) => k !== undefined)).toHaveLength(1);
      expect(f.why.length).toBeGreaterThan(10);
      if (f.die !== undefined || (f.add && f.value !== null)) expect([1, 2, 3, 4, 5, 6]).toContain(f.value);
    }
  });

  it('refuses a fixes file that is not JSON or has a malformed fix, with the file named', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fixes-'));
    const notJson = path.join(dir, 'a.json');
    writeFileSync(notJson, '{ nope');
    await expect(readLabelFixes(notJson)).rejects.toThrow(/a\.json: not readable JSON/);
    const badBox = path.join(dir, 'b.json');
    writeFileSync(badBox, JSON.stringify({ fixes: [{ split: 'x-train', file: 'a.jpg', why: 'w', add: { x: 1 } }] }));
    await expect(readLabelFixes(badBox)).rejects.toThrow(/b\.json: fixes\[0\] needs split, file and why/);
  });

  const photos = path.join(dataRoot(), 'dice-photos');
  it.skipIf(!existsSync(photos))('applies cleanly to the train splits of ../shared/data', async () => {
    const fixes = await readLabelFixes();
    for (const split of [...new Set(fixes.map((f) => f.split))]) {
      const raw = await loadDataset(path.join(photos, split), undefined, { fixes: [] });
      const fixed = await loadDataset(path.join(photos, split));
      const own = fixes.filter((f) => f.split === split);
      const added = own.filter((f) => f.add && f.value !== null).length;
      const unscored = own.filter((f) => f.ignore || (f.add && f.value === null)).length;
      expect(fixed.images.reduce((n, im) => n + im.dice.length, 0)).toBe(raw.images.reduce((n, im) => n + im.dice.length, 0) + added);
      expect(fixed.images.reduce((n, im) => n + im.ignore.length, 0)).toBe(unscored);
    }
  });
});
