import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withIntegrity } from '../../scripts/vite/precache-integrity.ts';
import { START_EVENT } from '../../src/app/start-check.ts';

const ROOT = join(import.meta.dirname, '..', '..');

describe("the precache's integrity for the app's own files", () => {
  it("hashes the build's scripts and style sheets, and nothing a host may change or the reader heals", () => {
    const dir = mkdtempSync(join(tmpdir(), 'rollcall-integrity-'));
    try {
      mkdirSync(join(dir, 'assets'));
      const files: Record<string, string> = {
        'assets/index-Ab_1-x.js': 'console.log(1)',
        'assets/index-Cd2.css': 'body{}',
        'assets/ort-wasm-simd-threaded-Ef3.mjs': 'export {}',
        'assets/ort-wasm-simd-threaded-Ef3.wasm.gz': 'gz',
        'index.html': '<!doctype html>',
        'start-check.js': '(function(){})()',
      };
      for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
      const entries = [
        ...Object.keys(files).map((url) => ({ url, revision: url.startsWith('assets/') ? null : 'r1' })),
        { url: 'models/dice-pips.onnx?v=0123', revision: null },
      ];
      const sri = (text: string): string => `sha384-${createHash('sha384').update(text).digest('base64')}`;
      expect(withIntegrity(entries, dir)).toEqual([
        { url: 'assets/index-Ab_1-x.js', revision: null, integrity: sri('console.log(1)') },
        { url: 'assets/index-Cd2.css', revision: null, integrity: sri('body{}') },
        { url: 'assets/ort-wasm-simd-threaded-Ef3.mjs', revision: null, integrity: sri('export {}') },
        // a host may send it with Content-Encoding: gzip, and SRI is of the body as delivered
        { url: 'assets/ort-wasm-simd-threaded-Ef3.wasm.gz', revision: null },
        { url: 'index.html', revision: 'r1' },
        { url: 'start-check.js', revision: 'r1' },
        { url: 'models/dice-pips.onnx?v=0123', revision: null },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the start check', () => {
  it('waits for the event the app sends once it has started', () => {
    const script = readFileSync(join(ROOT, 'public/start-check.js'), 'utf8');
    expect(script).toContain(`var START_EVENT = '${START_EVENT}';`);
    expect(readFileSync(join(ROOT, 'src/main.ts'), 'utf8')).toMatch(/mount\(App[^)]*\);\s*(\/\/.*\s*)?tellStarted\(\);/);
    // before the app's module, as a file the page's policy allows (no inline script)
    const page = readFileSync(join(ROOT, 'index.html'), 'utf8');
    expect(page.indexOf('<script src="/start-check.js"></script>')).toBeGreaterThan(0);
    expect(page.indexOf('<script src="/start-check.js"></script>')).toBeLessThan(page.indexOf('<script type="module"'));
  });
});
