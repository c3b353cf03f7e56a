import type { Json } from './types.ts';

/**
 * Where `value` stops being plain JSON (a path like `$.dice[2]`), or null when it is JSON all the
 * way down. NaN, Infinity, undefined, functions, dates, maps and class instances are refused: a
 * log must replay the same after a JSON round trip (export, import, transcripts).
 */
export function jsonProblem(value: unknown, path = '$'): string | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : `${path} is not a finite number`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = jsonProblem(value[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  if (typeof value === 'object') {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return `${path} is not a plain object`;
    for (const [key, item] of Object.entries(value)) {
      const problem = jsonProblem(item, `${path}.${key}`);
      if (problem) return problem;
    }
    return null;
  }
  return `${path} is ${typeof value}, not JSON`;
}

export function isJson(value: unknown): value is Json {
  return jsonProblem(value) === null;
}
