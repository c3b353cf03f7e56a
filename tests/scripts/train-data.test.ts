/**
 * `npm run train` says what is missing from the labelled photographs before it renders or trains
 * anything (models/training/datasets.py `data_root`). Runs where Debian's Python has OpenCV and
 * NumPy (the training machine); skipped, saying so, elsewhere.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const PY = '/usr/bin/python3';
const havePython = spawnSync(PY, ['-c', 'import cv2, numpy'], { encoding: 'utf8' }).status === 0;
if (!havePython) console.warn(`train data check: ${PY} with cv2 and numpy not found — skipped (apt-get install python3-opencv)`);

describe.skipIf(!havePython)('npm run train without all the photographs', () => {
  it('names every split missing and exits 1 at once, for the full run and the smoke run', () => {
    const data = mkdtempSync(join(tmpdir(), 'rollcall-train-data-'));
    try {
      mkdirSync(join(data, 'dice-photos', 'byler-train'), { recursive: true });
      writeFileSync(join(data, 'dice-photos', 'byler-train', 'labels.json'), '{"images": []}');
      for (const args of [[], ['--smoke']]) {
        // CI is unset: the pipeline refuses to run at all under CI, before it looks at the data.
        const env: NodeJS.ProcessEnv = { ...process.env, ROLLCALL_DATA: data };
        delete env.CI;
        const r = spawnSync(PY, [join(root, 'models/training/pipeline.py'), ...args], { encoding: 'utf8', env, timeout: 60_000 });
        expect(r.status, r.stderr).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(/dice-photos lacks matteop65-train, epanemu-train, byler-val, matteop65-val, epanemu-val \(each a folder with a labels\.json\)/);
      }
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
