/**
 * A kit as one JSON file, for export and import (docs/kits.md): the kit, its reference art and
 * the examples a player taught, as data URLs. Embeddings are not exported: they belong to one
 * version of the face model and are recomputed from the photos on import.
 */
import type { DiceKit } from './kit.ts';
import { KitError, kitFace, parseKit } from './validate.ts';
import { dataUrlType, imageDataUrl } from './data-url.ts';

export const KIT_BUNDLE_FORMAT = 'rollcall-kit';
const KIT_BUNDLE_VERSION = 1;
/** At most this many taught photos per face (the teach screen asks for 3–5). */
export const MAX_EXAMPLES_PER_FACE = 40;
/** At most this many bytes of data URLs per image (a phone photo cropped around a die is far less). */
const MAX_IMAGE_DATA_URL_LENGTH = 8_000_000;

const ART_TYPES = ['image/svg+xml', 'image/png', 'image/jpeg', 'image/webp'] as const;
const EXAMPLE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

export interface KitBundle {
  format: typeof KIT_BUNDLE_FORMAT;
  version: typeof KIT_BUNDLE_VERSION;
  kit: DiceKit;
  /** Reference art by face id (faces without art are absent). */
  art: Record<string, string>;
  /** Taught photos by face id, each showing one die with that face up. */
  examples: Record<string, string[]>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkImage(url: unknown, allowed: readonly string[], at: string): string {
  if (typeof url !== 'string') throw new KitError(`${at}: must be a data URL string, got ${typeof url}`);
  if (url.length > MAX_IMAGE_DATA_URL_LENGTH) throw new KitError(`${at}: image too large (${url.length} characters; at most ${MAX_IMAGE_DATA_URL_LENGTH})`);
  const type = dataUrlType(url);
  if (type === null) throw new KitError(`${at}: not a base64 data URL ("data:image/png;base64,…")`);
  if (!allowed.includes(type)) throw new KitError(`${at}: ${type} is not allowed here (allowed: ${allowed.join(', ')})`);
  // in the one form the store keeps and a backup accepts
  return imageDataUrl(url)!;
}

function checkFaceKeys(record: Record<string, unknown>, kit: DiceKit, at: string): void {
  for (const faceId of Object.keys(record)) {
    kitFace(kit, faceId, at); // throws, naming the kit's faces, when it has no such face
  }
}

/** Validates an imported bundle (parsed JSON); throws KitError naming the first problem. */
export function parseKitBundle(json: unknown, source = 'kit bundle'): KitBundle {
  if (!isObject(json)) throw new KitError(`${source}: must be a JSON object`);
  if (json.format !== KIT_BUNDLE_FORMAT) throw new KitError(`${source}: not a Rollcall kit ("format" must be "${KIT_BUNDLE_FORMAT}")`);
  // a file without its version said "version undefined"
  if (json.version === undefined) throw new KitError(`${source}: "version" is missing (this app reads version ${KIT_BUNDLE_VERSION})`);
  if (json.version !== KIT_BUNDLE_VERSION) {
    throw new KitError(`${source}: kit bundle version ${JSON.stringify(json.version)} is not supported (this app reads version ${KIT_BUNDLE_VERSION})`);
  }
  for (const key of Object.keys(json)) {
    if (!['format', 'version', 'kit', 'art', 'examples'].includes(key)) throw new KitError(`${source}: unknown field "${key}"`);
  }
  const kit = parseKit(json.kit, `${source}: kit`);
  const artIn = json.art ?? {};
  const examplesIn = json.examples ?? {};
  if (!isObject(artIn)) throw new KitError(`${source}: "art" must be an object { faceId: dataUrl }`);
  if (!isObject(examplesIn)) throw new KitError(`${source}: "examples" must be an object { faceId: [dataUrl, …] }`);
  checkFaceKeys(artIn, kit, `${source}: art`);
  checkFaceKeys(examplesIn, kit, `${source}: examples`);
  const art: Record<string, string> = {};
  for (const [faceId, url] of Object.entries(artIn)) art[faceId] = checkImage(url, ART_TYPES, `${source}: art.${faceId}`);
  const examples: Record<string, string[]> = {};
  for (const [faceId, list] of Object.entries(examplesIn)) {
    if (!Array.isArray(list)) throw new KitError(`${source}: examples.${faceId} must be an array of data URLs`);
    if (list.length > MAX_EXAMPLES_PER_FACE) throw new KitError(`${source}: examples.${faceId} has ${list.length} photos (at most ${MAX_EXAMPLES_PER_FACE})`);
    examples[faceId] = list.map((u, i) => checkImage(u, EXAMPLE_TYPES, `${source}: examples.${faceId}[${i}]`));
  }
  return { format: KIT_BUNDLE_FORMAT, version: KIT_BUNDLE_VERSION, kit, art, examples };
}

/** Parses bundle text (a `.rollcall-kit.json` file); bad JSON becomes a KitError. */
export function parseKitBundleText(text: string, source = 'kit bundle'): KitBundle {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // not the parser's words: they quote the file's first bytes, a picture's as mojibake
    throw new KitError(`${source}: not valid JSON (cut short, or another kind of file)`);
  }
  return parseKitBundle(json, source);
}

/** Builds an export bundle, validated exactly as an import would be. */
export function makeKitBundle(kit: DiceKit, art: Record<string, string> = {}, examples: Record<string, string[]> = {}): KitBundle {
  return parseKitBundle({ format: KIT_BUNDLE_FORMAT, version: KIT_BUNDLE_VERSION, kit, art, examples }, `kit "${kit.id}"`);
}
