/**
 * Random damage to a file a player can import (fast-check), for the importers' property tests
 * (damaged-*.test.ts): at the JSON level (a key deleted, a value of another type, a number off
 * by one, an array element duplicated or two swapped, two ids swapped, a die face that is no
 * face, an unknown key) and at the text level (cut short, a character changed or added, a BOM,
 * a lone surrogate, a digit changed). A damage is a plain record, so a failing run prints it.
 */
import fc from 'fast-check';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = ReadonlyArray<string | number>;

/** Runs and seed of a property: fixed in CI; `FUZZ_RUNS=5000 FUZZ_SEED=7` for a longer hunt. */
export function fuzzParameters(ciRuns: number): { numRuns: number; seed: number } {
  const runs = Number(process.env.FUZZ_RUNS);
  const seed = Number(process.env.FUZZ_SEED);
  return { numRuns: Number.isInteger(runs) && runs > 0 ? runs : ciRuns, seed: Number.isInteger(seed) ? seed : 20_260_501 };
}

/** How long a property test may take: a long hunt takes as long as it takes. */
export const FUZZ_TIMEOUT_MS = process.env.FUZZ_RUNS ? 4 * 3_600_000 : 30_000;

/** Values put where another was: other types, edges of numbers, strings that read as numbers. */
const JUNK: readonly Json[] = [
  null, true, false, 0, -1, 1.5, -0.5, 7, 1e308, -1e308, 2 ** 53 + 2, '', ' ', 'NaN', 'Infinity', '-1', '6', '0', 'x',
  'missing-id', '\u0000', '\ud800', 'constructor', '__proto__', [], [null], {}, { type: 'roll' }, 'a'.repeat(300),
];
/** What a die may be turned into: no face, a face of other dice, a face as text. */
const BAD_FACES: readonly Json[] = [0, 7, -1, 1.5, '6', '1', null, 'vader', 'luke', 'star', 6, 1, 2, 5, [], {}];
/** An id given to a record everywhere it is named: a file edited with care, or made on another phone. */
const RENAMED_IDS = ['renamed-id', 'x', 'Ann', 'standard', '0'];
const UNKNOWN_KEYS = ['extra', 'id', 'type', 'dice', '__proto__', 'constructor', 'toString', 'players', ''];
const CHARS = ['"', '{', '}', '[', ']', ',', ':', '\\', '0', '9', '-', '.', 'e', 'n', ' ', '\n', '\u0000', '\ufffd', '\ud800', '\udc00', 'é', '\u200b', 'x'];

export type JsonDamage =
  | { kind: 'delete'; at: number; outsideLogs: boolean }
  | { kind: 'replace'; at: number; outsideLogs: boolean; value: number }
  | { kind: 'nudge'; at: number; outsideLogs: boolean; by: number }
  | { kind: 'duplicate'; at: number; outsideLogs: boolean }
  | { kind: 'swap'; at: number; outsideLogs: boolean; i: number; j: number }
  | { kind: 'swap-strings'; a: number; b: number }
  | { kind: 'swap-ids'; a: number; b: number }
  | { kind: 'rename-id'; a: number; to: number }
  | { kind: 'move-string'; a: number; b: number }
  | { kind: 'die'; at: number; face: number }
  | { kind: 'add-key'; at: number; outsideLogs: boolean; key: number; value: number };

export type TextDamage =
  | { kind: 'truncate'; at: number }
  | { kind: 'change-char'; at: number; char: number }
  | { kind: 'insert-char'; at: number; char: number }
  | { kind: 'delete-char'; at: number }
  | { kind: 'digit'; at: number; digit: number }
  | { kind: 'bom' };

export type Damage = { json: JsonDamage[] } | { text: TextDamage[] } | { json: JsonDamage[]; then: TextDamage[] };

const at = fc.nat();
const outsideLogs = fc.boolean();
const jsonDamageArb: fc.Arbitrary<JsonDamage> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at, outsideLogs }),
  fc.record({ kind: fc.constant('replace' as const), at, outsideLogs, value: fc.nat(JUNK.length - 1) }),
  fc.record({ kind: fc.constant('nudge' as const), at, outsideLogs, by: fc.constantFrom(-1, 1, 0.5, -1000, 1000) }),
  fc.record({ kind: fc.constant('duplicate' as const), at, outsideLogs }),
  fc.record({ kind: fc.constant('swap' as const), at, outsideLogs, i: fc.nat(), j: fc.nat() }),
  fc.record({ kind: fc.constant('swap-strings' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('move-string' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('swap-ids' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('rename-id' as const), a: fc.nat(), to: fc.nat(RENAMED_IDS.length - 1) }),
  fc.record({ kind: fc.constant('die' as const), at, face: fc.nat(BAD_FACES.length - 1) }),
  fc.record({ kind: fc.constant('add-key' as const), at, outsideLogs, key: fc.nat(UNKNOWN_KEYS.length - 1), value: fc.nat(JUNK.length - 1) }),
);
const textDamageArb: fc.Arbitrary<TextDamage> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at }),
  fc.record({ kind: fc.constant('change-char' as const), at, char: fc.nat(CHARS.length - 1) }),
  fc.record({ kind: fc.constant('insert-char' as const), at, char: fc.nat(CHARS.length - 1) }),
  fc.record({ kind: fc.constant('delete-char' as const), at }),
  fc.record({ kind: fc.constant('digit' as const), at, digit: fc.nat(9) }),
  fc.record({ kind: fc.constant('bom' as const) }),
);

/** One to three damages, most of them to the JSON (which still parses, so reaches the checks behind it). */
export const damageArb: fc.Arbitrary<Damage> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ json: fc.array(jsonDamageArb, { minLength: 1, maxLength: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ text: fc.array(textDamageArb, { minLength: 1, maxLength: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ json: fc.array(jsonDamageArb, { minLength: 1, maxLength: 2 }), then: fc.array(textDamageArb, { minLength: 1, maxLength: 1 }) }) },
);

// ── applying a damage ────────────────────────────────────────────────────────────────────

const isObject = (v: Json | undefined): v is { [key: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every path in the value (the root excluded), depth first. `outsideLogs`: not inside a game's `actions`. */
function pathsOf(value: Json, outsideLogs = false): Path[] {
  const out: Path[] = [];
  const walk = (v: Json, path: Path): void => {
    if (Array.isArray(v)) v.forEach((item, i) => { out.push([...path, i]); walk(item, [...path, i]); });
    else if (isObject(v)) {
      for (const [key, item] of Object.entries(v)) {
        out.push([...path, key]);
        if (!(outsideLogs && key === 'actions')) walk(item, [...path, key]);
      }
    }
  };
  walk(value, []);
  return out;
}

function get(root: Json, path: Path): Json | undefined {
  let v: Json | undefined = root;
  for (const key of path) {
    if (Array.isArray(v) && typeof key === 'number') v = v[key];
    else if (isObject(v) && typeof key === 'string') v = Object.hasOwn(v, key) ? v[key] : undefined;
    else return undefined;
  }
  return v;
}

/** Sets an own property, even "__proto__" (a JSON file can hold one; an assignment would set the prototype). */
function setOwn(obj: { [key: string]: Json } | Json[], key: string | number, value: Json): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function pick<T>(list: readonly T[], n: number): T | undefined {
  return list.length === 0 ? undefined : list[n % list.length];
}

function stringLeaves(root: Json): Array<{ path: Path; value: string }> {
  return pathsOf(root).flatMap((path) => {
    const v = get(root, path);
    return typeof v === 'string' ? [{ path, value: v }] : [];
  });
}

function replaceStrings(v: Json, swap: (s: string) => string): Json {
  if (typeof v === 'string') return swap(v);
  if (Array.isArray(v)) return v.map((x) => replaceStrings(x, swap));
  if (isObject(v)) {
    const out: { [key: string]: Json } = {};
    for (const [key, item] of Object.entries(v)) setOwn(out, swap(key), replaceStrings(item, swap));
    return out;
  }
  return v;
}

function applyJson(root: Json, d: JsonDamage): Json {
  if (d.kind === 'swap-strings') {
    // two ids (or names) trade places everywhere, keys of records included
    const strings = [...new Set(stringLeaves(root).map((s) => s.value))];
    const a = pick(strings, d.a);
    const b = pick(strings, d.b);
    if (a === undefined || b === undefined || a === b) return root;
    return replaceStrings(root, (s) => (s === a ? b : s === b ? a : s));
  }
  if (d.kind === 'swap-ids' || d.kind === 'rename-id') {
    // a record's id (a value at a key "id") changed everywhere it is named, or two records' ids traded
    const ids = [...new Set(pathsOf(root).filter((p) => p.at(-1) === 'id').map((p) => get(root, p)).filter((v): v is string => typeof v === 'string'))];
    const a = pick(ids, d.a);
    const b = d.kind === 'swap-ids' ? pick(ids, d.b) : RENAMED_IDS[d.to];
    if (a === undefined || b === undefined || a === b) return root;
    return replaceStrings(root, (s) => (s === a ? b : s === b ? a : s));
  }
  if (d.kind === 'move-string') {
    // one string takes another's value there: a reference to the wrong record, a name twice
    const leaves = stringLeaves(root);
    const a = pick(leaves, d.a);
    const b = pick(leaves, d.b);
    const parent = a && get(root, a.path.slice(0, -1));
    if (!a || !b || parent === undefined || typeof parent !== 'object' || parent === null) return root;
    setOwn(parent, a.path.at(-1)!, b.value);
    return root;
  }
  if (d.kind === 'die') {
    const dice = pathsOf(root).filter((p) => p.at(-1) === 'die' || (typeof p.at(-1) === 'number' && p.at(-2) === 'dice'));
    const path = pick(dice, d.at);
    const parent = path && get(root, path.slice(0, -1));
    if (path && parent !== undefined && typeof parent === 'object' && parent !== null) setOwn(parent, path.at(-1)!, BAD_FACES[d.face]!);
    return root;
  }
  const paths = pathsOf(root, d.outsideLogs);
  if (d.kind === 'add-key') {
    const objects: Path[] = [[], ...paths.filter((p) => isObject(get(root, p)))];
    const target = get(root, pick(objects, d.at)!);
    if (isObject(target)) setOwn(target, UNKNOWN_KEYS[d.key]!, JUNK[d.value]!);
    return root;
  }
  if (d.kind === 'swap') {
    const arrays = paths.filter((p) => Array.isArray(get(root, p)) && (get(root, p) as Json[]).length > 1);
    const list = get(root, pick(arrays, d.at) ?? []) as Json;
    if (Array.isArray(list)) {
      const i = d.i % list.length;
      const j = d.j % list.length;
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return root;
  }
  const candidates = d.kind === 'nudge' ? paths.filter((p) => typeof get(root, p) === 'number') : d.kind === 'duplicate' ? paths.filter((p) => typeof p.at(-1) === 'number') : paths;
  const path = pick(candidates, d.at);
  if (!path) return root;
  const parent = get(root, path.slice(0, -1));
  const key = path.at(-1)!;
  if (parent === undefined || typeof parent !== 'object' || parent === null) return root;
  switch (d.kind) {
    case 'delete':
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key as string];
      return root;
    case 'replace':
      setOwn(parent, key, structuredClone(JUNK[d.value]!));
      return root;
    case 'nudge':
      setOwn(parent, key, (get(root, path) as number) + d.by);
      return root;
    case 'duplicate':
      if (Array.isArray(parent)) parent.splice((key as number) + 1, 0, structuredClone(parent[key as number]!));
      return root;
  }
}

function applyText(text: string, d: TextDamage): string {
  const i = text.length === 0 ? 0 : ('at' in d ? d.at : 0) % text.length;
  switch (d.kind) {
    case 'truncate':
      return text.slice(0, i);
    case 'change-char':
      return text.slice(0, i) + CHARS[d.char]! + text.slice(i + 1);
    case 'insert-char':
      return text.slice(0, i) + CHARS[d.char]! + text.slice(i);
    case 'delete-char':
      return text.slice(0, i) + text.slice(i + 1);
    case 'bom':
      return `\ufeff${text}`;
    case 'digit': {
      // a number in the file changed by one digit: still JSON, another value
      const digits = [...text.matchAll(/\d/g)].map((m) => m.index);
      const where = pick(digits, d.at);
      return where === undefined ? text : text.slice(0, where) + String(d.digit) + text.slice(where + 1);
    }
  }
}

/** The file's text after the damage (`text` is valid JSON made by the app). */
export function damaged(text: string, damage: Damage): string {
  let out = text;
  if ('json' in damage) {
    let root = JSON.parse(text) as Json;
    for (const d of damage.json) root = applyJson(root, d);
    out = JSON.stringify(root);
  }
  const textDamages = 'text' in damage ? damage.text : 'then' in damage ? damage.then : [];
  for (const d of textDamages) out = applyText(out, d);
  return out;
}

/**
 * What is wrong with a refusal's message, or null: a player must be able to read it, so none of
 * the words a program's own failure leaks, unless the file itself holds them (a face named "NaN"
 * is named back as it is).
 */
export function unreadable(message: string, file: string): string | null {
  const leaks = ['undefined', 'TypeError', 'Cannot read properties', '[object Object]', 'NaN', 'is not a function', 'ReferenceError', 'RangeError'];
  const leak = leaks.find((w) => message.includes(w) && !file.includes(w));
  if (leak) return `says "${leak}"`;
  if (message.trim().length < 10) return 'says almost nothing';
  return null;
}

/** Throws unless `err` is one of the importer's own errors, with a message a player can read. */
export function expectReadableRefusal(err: unknown, file: string, ...classes: Array<abstract new (...args: never[]) => Error>): void {
  if (!classes.some((c) => err instanceof c)) throw new Error(`not a ${classes.map((c) => c.name).join(' or ')}: ${String(err)}`, { cause: err });
  const problem = unreadable((err as Error).message, file);
  if (problem) throw new Error(`the refusal ${problem}: ${(err as Error).message}`);
}
