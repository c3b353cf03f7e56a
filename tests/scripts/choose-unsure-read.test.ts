import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_RIGHT_ASKED, sweepUnsure, type UnsureRun } from '../../scripts/choose-unsure-read.ts';
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
  it('keeps the rule with the fewest wrong yet confirmable rolls among those asking for at most 1% of the right rolls', () => {
    // 200 photos: 197 read right surely, one right at 0.52, two misread 5 → 6 at 0.42 and 0.62
    const videos = [...Array.from({ length: 197 }, () => video('s-holdout', 5, 0.97)), video('s-holdout', 5, 0.52), video('s-holdout', 6, 0.42), video('s-holdout', 6, 0.62)];
    const runs: UnsureRun[] = [{ name: 'a', videos }];
    const { rows, kept } = sweepUnsure(runs);
    const at = (below: number | null) => rows.find((r) => r.below === below)!;
    expect([at(null).exact, at(null).asked, at(null).wrongConfirmable]).toEqual([198, 0, 2]);
    expect([at(0.45).exact, at(0.45).asked, at(0.45).wrongConfirmable]).toEqual([198, 1, 1]);
    // 0.55 asks for the right roll at 0.52 too (1 of 200 photos: within 1%) and catches no more
    expect([at(0.55).exact, at(0.55).asked, at(0.55).wrongConfirmable]).toEqual([197, 2, 1]);
    expect([at(0.65).exact, at(0.65).asked, at(0.65).wrongConfirmable]).toEqual([197, 3, 0]);
    expect(MAX_RIGHT_ASKED).toBe(0.01);
    expect(kept.below).toBe(0.65);
    // the same with the right roll asked for twice as often: 0.55 and up now cost 1 of 50 photos (2%), over the bar
    const small: UnsureRun[] = [{ name: 'b', videos: videos.slice(150) }];
    expect(sweepUnsure(small).kept.below).toBe(0.45);
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
