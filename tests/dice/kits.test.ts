import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import {
  BUILT_IN_KITS,
  CORELLIAN_SPIKE_KIT,
  describeDice,
  FACE_OFF_KIT,
  faceLabel,
  KitError,
  kitFace,
  parseKit,
  parseKitText,
  STANDARD_KIT,
} from '../../src/lib/dice/index.ts';

const kitsDir = new URL('../../src/lib/dice/kits/', import.meta.url);
const good = {
  id: 'my-dice',
  name: 'My dice',
  faces: [
    { id: 'sun', label: 'Sun', value: 1, group: null },
    { id: 'moon', label: 'Moon', value: null, group: 'night' },
  ],
};
const withFace = (i: number, patch: Record<string, unknown>): unknown => ({ ...good, faces: good.faces.map((f, j) => (j === i ? { ...f, ...patch } : f)) });

describe('built-in kits', () => {
  it.each(Object.keys(BUILT_IN_KITS))('%s is valid and has art for every face', (id) => {
    const text = readFileSync(new URL(`${id}/kit.json`, kitsDir), 'utf8');
    const kit = parseKitText(text, `${id}/kit.json`);
    expect(kit).toEqual(BUILT_IN_KITS[id]);
    for (const f of kit.faces) {
      const art = new URL(`${id}/faces/${f.id}.svg`, kitsDir);
      expect(existsSync(art), `${id}/faces/${f.id}.svg`).toBe(true);
      const svg = readFileSync(art, 'utf8');
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 100 100"/);
      expect(svg).toContain(`<title>${f.label}</title>`);
    }
  });

  it('keeps the face ids the games use', () => {
    expect(BUILT_IN_KITS['corellian-spike']!.faces.map((f) => [f.id, f.value])).toEqual([
      ['circle', 1], ['triangle', 2], ['square', 3], ['diamond', 4], ['star', 5], ['burst', 6],
    ]);
    expect(BUILT_IN_KITS['face-off']!.faces.map((f) => [f.id, f.group])).toEqual([
      ['luke', 'hero'], ['r2d2', 'hero'], ['han', 'hero'], ['chewbacca', 'hero'], ['vader', 'villain'], ['stormtrooper', 'villain'],
    ]);
  });
});

describe('naming dice (the table, the log and the rules all use these)', () => {
  it('names a die by its face: symbols by name, pips by number, an unknown token as written', () => {
    expect(faceLabel(CORELLIAN_SPIKE_KIT, 5)).toBe('Star (5)');
    expect(faceLabel(FACE_OFF_KIT, 'luke')).toBe('Luke Skywalker');
    expect(faceLabel(STANDARD_KIT, 4)).toBe('4');
    expect(faceLabel(STANDARD_KIT, 9)).toBe('9');
  });

  it('writes pips as "1 1 4", symbols as names between commas', () => {
    expect(describeDice(STANDARD_KIT, [1, 1, 4, 5, 6])).toBe('1 1 4 5 6');
    expect(describeDice(CORELLIAN_SPIKE_KIT, [5, 1])).toBe('Star (5), Circle (1)');
    expect(describeDice(FACE_OFF_KIT, ['vader', 'han'])).toBe('Darth Vader, Han Solo');
    expect(describeDice(STANDARD_KIT, [])).toBe('');
  });
});

describe('parseKit', () => {
  it('returns a fresh, equal kit', () => {
    const kit = parseKit(good);
    expect(kit).toEqual(good);
    expect(kit).not.toBe(good);
  });

  it.each([
    ['not an object', [], 'kit.json: must be a JSON object'],
    ['missing field', { id: 'a', name: 'b' }, 'kit.json: missing field "faces"'],
    ['unknown field (typo)', { ...good, nmae: 'x' }, 'unknown field "nmae"'],
    ['bad kit id', { ...good, id: 'My Dice' }, '"id" must be lower-case letters, digits and dashes'],
    ['empty name', { ...good, name: ' ' }, '"name" must be a non-empty string'],
    ['faces not an array', { ...good, faces: {} }, '"faces" must be an array'],
    ['one face', { ...good, faces: [good.faces[0]] }, 'a kit needs 2–24 faces, "faces" has 1'],
    ['face not an object', { ...good, faces: [good.faces[0], 'moon'] }, 'faces[1]: must be an object'],
    ['face missing value', withFace(0, { value: undefined }), 'faces[0]: missing field "value"'],
    ['face typo', { ...good, faces: [good.faces[0], { ...good.faces[1], vaule: 2 }] }, 'faces[1]: unknown field "vaule"'],
    ['bad face id', withFace(1, { id: 'moon/../x' }), 'faces[1].id: must be 1–63 letters'],
    ['value as string', withFace(0, { value: '5' }), 'faces[0].value (sun): must be a number or null, got "5"'],
    ['value NaN-like', withFace(0, { value: Infinity }), 'faces[0].value (sun)'],
    ['empty label', withFace(0, { label: '' }), 'faces[0].label (sun): must be a non-empty string'],
    ['empty group', withFace(0, { group: '' }), 'faces[0].group (sun)'],
    ['duplicate ids, any case', withFace(1, { id: 'SUN' }), 'faces[1].id "SUN" repeats faces[0].id "sun"'],
  ])('%s → a KitError that says so', (_, json, message) => {
    expect(() => parseKit(json)).toThrow(KitError);
    expect(() => parseKit(json)).toThrow(message);
  });

  it('names the file given, and reports bad JSON as such', () => {
    expect(() => parseKit({ ...good, id: 1 }, 'x/kit.json')).toThrow(/^x\/kit\.json: "id"/);
    expect(() => parseKitText('{ "id": ', 'x/kit.json')).toThrow(/^x\/kit\.json: not valid JSON/);
  });

  it('kitFace lists the faces when one is missing', () => {
    const kit = parseKit(good);
    expect(kitFace(kit, 'moon').label).toBe('Moon');
    expect(() => kitFace(kit, 'star')).toThrow('no face "star" in kit "my-dice" (faces: sun, moon)');
  });
});
