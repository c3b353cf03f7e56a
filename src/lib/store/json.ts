/** Deeper than this, a record is not one Rollcall writes: refused, rather than walked until the stack runs out. */
export const MAX_JSON_DEPTH = 64;

/**
 * Keys no record of Rollcall has, and which plain objects treat specially (`obj[key] = …` on
 * them reaches the prototype): refused wherever a file brings JSON in.
 */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Where `value` stops being plain JSON (a path like `$.dice[2]`), or null when it is JSON all the
 * way down. NaN, Infinity, undefined, functions, dates, maps and class instances are refused: a
 * log must replay the same after a JSON round trip (export, import, transcripts). So are values
 * nested deeper than `MAX_JSON_DEPTH` and the keys `__proto__`, `constructor` and `prototype`.
 * Walked with a stack of its own, never by recursion: a hostile file cannot overflow it. A value's
 * path is written out only for the one reported (a backup holds a few hundred thousand values).
 */
export function jsonProblem(value: unknown, path = '$'): string | null {
  interface Step {
    value: unknown;
    depth: number;
    /** Where the value sits in its parent: an array's index or an object's key (null at the top). */
    key: number | string | null;
    parent: Step | null;
  }
  const pathOf = (step: Step): string => {
    const parts: string[] = [];
    for (let at: Step | null = step; at?.key != null; at = at.parent) parts.push(typeof at.key === 'number' ? `[${at.key}]` : `.${at.key}`);
    return path + parts.reverse().join('');
  };
  const pending: Step[] = [{ value, depth: 0, key: null, parent: null }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: v, depth } = next;
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return `${pathOf(next)} is not a finite number`;
      continue;
    }
    if (typeof v !== 'object') return `${pathOf(next)} is ${typeof v}, not JSON`;
    if (depth >= MAX_JSON_DEPTH) return `${pathOf(next)} is nested too deeply (over ${MAX_JSON_DEPTH} levels)`;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) pending.push({ value: v[i], depth: depth + 1, key: i, parent: next });
      continue;
    }
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return `${pathOf(next)} is not a plain object`;
    const keys = Object.keys(v);
    for (const key of keys) if (PROTOTYPE_KEYS.has(key)) return `${pathOf(next)} has the key "${key}", which no record has`;
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      pending.push({ value: (v as Record<string, unknown>)[key], depth: depth + 1, key, parent: next });
    }
  }
  return null;
}
