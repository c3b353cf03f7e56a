/** Plain JSON, as every file brought in must be (src/lib/store/json.ts `jsonProblem`). */
import { describe, expect, it } from 'vitest';
import { jsonProblem, MAX_JSON_DEPTH } from '../../src/lib/store/json.ts';

const nested = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

describe('jsonProblem', () => {
  it('says where a value stops being JSON, the first place in reading order', () => {
    expect(jsonProblem({ a: 1, b: [true, null, 'x'] })).toBeNull();
    expect(jsonProblem({ a: [1, Number.NaN], b: undefined })).toBe('$.a[1] is not a finite number');
    expect(jsonProblem({ when: new Date(0) })).toBe('$.when is not a plain object');
  });

  it('refuses a value nested deeper than any record, without running out of stack (a hostile file)', () => {
    expect(jsonProblem(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonProblem(nested(MAX_JSON_DEPTH + 1))).toMatch(/is nested too deeply \(over 64 levels\)$/);
    expect(jsonProblem({ x: nested(100_000) })).toMatch(/^\$\.x(\[0\])+ is nested too deeply/);
  });

  it('refuses the keys a plain object treats specially, which no record has', () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      expect(jsonProblem(JSON.parse(`{"deltas": {"${key}": 5}}`))).toBe(`$.deltas has the key "${key}", which no record has`);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
