import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rollsToMend, sweepUnsure, type UnsureRun } from '../../scripts/choose-unsure-read.ts';
import type { PhotoVideo } from '../../scripts/eval-live.ts';
import { runCli } from '../vision/cli-helpers.ts';

const box = (x: number) => ({ x, y: 0, w: 20, h: 20 });

/** A still video of two dice, 3 and 5: the second read as `value` with probability `p` in every frame. */
function video(set: string, value: number, p: number): PhotoVideo {
  const frame = [
    { frameBox: box(0), photoBox: box(0), value: 3, score: 0.9, valueProbability: 0.99 },
    { frameBox: box(40), photoBox: box(40), value, score: 0.9, valueProbability: p },
  ];
  return { set, file: `${value}-${p}.jpg`, wholeDie: true, truth: [{ box: box(0), value: 3 }, { box: box(40), value: 5 }], frames: Array.from({ length: 12 }, () => frame.map((d) => ({ ...d }))) };
}

describe('choose-unsure-read: the rule kept', () => {
  it('keeps the rule that leaves the fewest rolls to mend: exact rolls lost to a question, plus wrong rolls left confirmable', () => {
    // 197 photos read right surely, one right at 0.52, a 5 misread as 6 at 0.42 and another at 0.62
    const videos = [...Array.from({ length: 197 }, () => video('s-holdout', 5, 0.97)), video('s-holdout', 5, 0.52), video('s-holdout', 6, 0.42), video('s-holdout', 6, 0.62)];
    const { rows, kept } = sweepUnsure([{ name: 'a', videos }]);
    const at = (below: number | null) => rows.find((r) => r.below === below)!;
    const off = at(null);
    expect([off.exact, off.asked, off.wrongConfirmable, rollsToMend(off, off)]).toEqual([198, 0, 2, 2]);
    expect([at(0.45).exact, at(0.45).asked, at(0.45).wrongConfirmable, rollsToMend(at(0.45), off)]).toEqual([198, 1, 1, 1]);
    // 0.55 asks for the right roll at 0.52 and catches no more; 0.65 catches the other misread for it
    expect([at(0.55).exact, at(0.55).asked, at(0.55).wrongConfirmable, rollsToMend(at(0.55), off)]).toEqual([197, 2, 1, 2]);
    expect([at(0.65).exact, at(0.65).asked, at(0.65).wrongConfirmable, rollsToMend(at(0.65), off)]).toEqual([197, 3, 0, 1]);
    // a tie: the lower probability, which asks least
    expect(kept.below).toBe(0.45);
    // one more misread at 0.62, in a second run: now 0.65 catches two for the one right roll it asks for
    const runs: UnsureRun[] = [{ name: 'a', videos }, { name: 'b', videos: [video('t-holdout', 6, 0.62)] }];
    expect(sweepUnsure(runs).kept.below).toBe(0.65);
    // nothing read unsurely: every value given
    expect(sweepUnsure([{ name: 'c', videos: videos.slice(0, 10) }]).kept.below).toBeNull();
  });

  it('refuses reads of a val split, of symbol dice, or no reads at all: exit 2', () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'rollcall-unsure-'));
    const write = (name: string, content: unknown): string => {
      const file = path.join(tmp, name);
      writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
      return file;
    };
    const cases: Array<[string, RegExp]> = [
      [write('val.json', [video('byler-val', 5, 0.9)]), /never chosen on a val split/],
      [write('kit.json', [{ ...video('kit-holdout', 5, 0.9), faces: ['a'] }]), /symbol dice/],
      [write('bad.json', '{oops'), /not the saved reads of npm run eval:live/],
      [write('empty.json', []), /no videos in it/],
    ];
    for (const [file, message] of cases) {
      const r = runCli('scripts/choose-unsure-read.ts', [file]);
      expect(r.status, file).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(runCli('scripts/choose-unsure-read.ts', []).status).toBe(2);
  });
});
