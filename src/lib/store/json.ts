import type { Json } from './types.ts';

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
 * Walked with a stack of its own, never by recursion: a hostile file cannot overflow it.
 */
export function jsonProblem(value: unknown, path = '$'): string | null {
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value, path, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: v, path: at, depth } = next;
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return `${at} is not a finite number`;
      continue;
    }
    if (typeof v !== 'object') return `${at} is ${typeof v}, not JSON`;
    if (depth >= MAX_JSON_DEPTH) return `${at} is nested too deeply (over ${MAX_JSON_DEPTH} levels)`;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) pending.push({ value: v[i], path: `${at}[${i}]`, depth: depth + 1 });
      continue;
    }
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return `${at} is not a plain object`;
    const entries = Object.entries(v);
    for (const [key] of entries) if (PROTOTYPE_KEYS.has(key)) return `${at} has the key "${key}", which no record has`;
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      pending.push({ value: item, path: `${at}.${key}`, depth: depth + 1 });
    }
  }
  return null;
}

export function isJson(value: unknown): value is Json {
  return jsonProblem(value) === null;
}
