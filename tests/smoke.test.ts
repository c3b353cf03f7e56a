import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';

describe('project', () => {
  it('has a package name', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string };
    expect(pkg.name).toBe('rollcall');
  });
});
