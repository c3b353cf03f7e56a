/**
 * Validation of kits (the `kit.json` of a kit folder, docs/kits.md) with errors that name the
 * file, the field and what was wrong, so a bad kit fails when it is loaded or imported and
 * never halfway through a game.
 */
import type { DiceKit, DieFace } from './kit.ts';
import { nameKey } from './names.ts';

export class KitError extends Error {
  override name = 'KitError';
}

/** Kit ids name folders and IndexedDB records: lower-case letters, digits and dashes. */
export const KIT_ID_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
/** Face ids name folders (`examples/<faceId>/`) and art files: letters, digits, `_` and `-`. */
export const FACE_ID_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,62})$/;
export const MIN_FACES = 2;
export const MAX_FACES = 24;

const KIT_KEYS = ['id', 'name', 'faces'] as const;
const FACE_KEYS = ['id', 'label', 'value', 'group'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v));

function checkKeys(obj: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) throw new KitError(`${where}: unknown field "${key}" (allowed: ${allowed.join(', ')})`);
  }
  for (const key of allowed) {
    if (obj[key] === undefined) throw new KitError(`${where}: missing field "${key}"`);
  }
}

/**
 * Ids name keys of the kit's art and examples: never one a plain object already has ("toString",
 * "constructor"), which a lookup by id would find instead of nothing.
 */
export function isObjectsOwnName(id: string): boolean {
  return id in Object.prototype || id === 'prototype';
}

function parseFace(json: unknown, at: string): DieFace {
  if (!isObject(json)) throw new KitError(`${at}: must be an object { id, label, value, group }, got ${show(json)}`);
  checkKeys(json, FACE_KEYS, at);
  const { id, label, value, group } = json;
  if (typeof id !== 'string' || !FACE_ID_PATTERN.test(id)) {
    throw new KitError(`${at}.id: must be 1–63 letters, digits, "_" or "-" (it names the examples folder), got ${show(id)}`);
  }
  if (isObjectsOwnName(id)) throw new KitError(`${at}.id: "${id}" is a name JavaScript keeps for itself; choose another`);
  if (typeof label !== 'string' || nameKey(label) === '') throw new KitError(`${at}.label (${id}): must be a non-empty string, got ${show(label)}`);
  if (value !== null && (typeof value !== 'number' || !Number.isFinite(value))) {
    throw new KitError(`${at}.value (${id}): must be a number or null, got ${show(value)}`);
  }
  if (group !== null && (typeof group !== 'string' || group.trim() === '')) {
    throw new KitError(`${at}.group (${id}): must be a non-empty string (e.g. "hero") or null, got ${show(group)}`);
  }
  return { id, label, value, group };
}

/**
 * Checks a parsed `kit.json` and returns it as a DiceKit (a fresh object: the input is not
 * kept). `source` names the file in error messages. Throws KitError on the first problem.
 */
export function parseKit(json: unknown, source = 'kit.json'): DiceKit {
  if (!isObject(json)) throw new KitError(`${source}: must be a JSON object { id, name, faces }, got ${show(json)}`);
  checkKeys(json, KIT_KEYS, source);
  const { id, name, faces } = json;
  if (typeof id !== 'string' || !KIT_ID_PATTERN.test(id)) {
    throw new KitError(`${source}: "id" must be lower-case letters, digits and dashes (e.g. "my-spike-dice"), got ${show(id)}`);
  }
  if (isObjectsOwnName(id)) throw new KitError(`${source}: "id" "${id}" is a name JavaScript keeps for itself; choose another`);
  if (typeof name !== 'string' || nameKey(name) === '') throw new KitError(`${source}: "name" must be a non-empty string, got ${show(name)}`);
  if (!Array.isArray(faces)) throw new KitError(`${source}: "faces" must be an array, got ${show(faces)}`);
  if (faces.length < MIN_FACES || faces.length > MAX_FACES) {
    throw new KitError(`${source}: a kit needs ${MIN_FACES}–${MAX_FACES} faces, "faces" has ${faces.length}`);
  }
  const parsed = faces.map((f, i) => parseFace(f, `${source}: faces[${i}]`));
  const seen = new Map<string, number>();
  parsed.forEach((f, i) => {
    const first = seen.get(f.id.toLowerCase());
    // Case-insensitive: face ids name folders, and some file systems ignore case.
    if (first !== undefined) throw new KitError(`${source}: faces[${i}].id "${f.id}" repeats faces[${first}].id "${parsed[first]!.id}"`);
    seen.set(f.id.toLowerCase(), i);
  });
  return { id, name, faces: parsed };
}

/** Parses kit.json text: JSON syntax errors become KitErrors naming the file. */
export function parseKitText(text: string, source = 'kit.json'): DiceKit {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new KitError(`${source}: not valid JSON (${(e as Error).message})`);
  }
  return parseKit(json, source);
}

/** The face with this id, or a KitError listing the kit's faces. */
export function kitFace(kit: DiceKit, faceId: string, where = kit.id): DieFace {
  const face = kit.faces.find((f) => f.id === faceId);
  if (!face) throw new KitError(`${where}: no face "${faceId}" in kit "${kit.id}" (faces: ${kit.faces.map((f) => f.id).join(', ')})`);
  return face;
}
