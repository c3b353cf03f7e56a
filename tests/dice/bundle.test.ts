import { describe, expect, it } from 'vitest';
import { KitError, makeKitBundle, parseKitBundle, parseKitBundleText, CORELLIAN_SPIKE_KIT, MAX_EXAMPLES_PER_FACE, dataUrlType } from '../../src/lib/dice/index.ts';

const png = 'data:image/png;base64,iVBORw0KGgo=';
const svg = 'data:image/svg+xml;base64,PHN2Zy8+';

describe('kit bundles (export / import)', () => {
  it('round-trips through JSON text', () => {
    const bundle = makeKitBundle(CORELLIAN_SPIKE_KIT, { star: svg }, { star: [png, png], circle: [png] });
    const back = parseKitBundleText(JSON.stringify(bundle));
    expect(back).toEqual(bundle);
    expect(back.format).toBe('rollcall-kit');
  });

  it('treats missing art and examples as none', () => {
    const b = parseKitBundle({ format: 'rollcall-kit', version: 1, kit: CORELLIAN_SPIKE_KIT });
    expect(b.art).toEqual({});
    expect(b.examples).toEqual({});
  });

  const base = { format: 'rollcall-kit', version: 1, kit: CORELLIAN_SPIKE_KIT, art: {}, examples: {} };
  it.each([
    ['not JSON', null, 'not valid JSON'],
    ['another format', { ...base, format: 'zip' }, 'not a Rollcall kit'],
    ['a newer version', { ...base, version: 2 }, 'kit bundle version 2 is not supported'],
    // found by damaged-kit-files: was "kit bundle version undefined is not supported"
    ['no version', { ...base, version: undefined }, 'kit bundle: "version" is missing (this app reads version 1)'],
    ['an unknown field', { ...base, extra: 1 }, 'unknown field "extra"'],
    ['a bad kit', { ...base, kit: { ...CORELLIAN_SPIKE_KIT, id: '' } }, 'kit bundle: kit: "id"'],
    ['art for a face the kit lacks', { ...base, art: { moon: svg } }, 'art: no face "moon" in kit "corellian-spike"'],
    ['examples for a face the kit lacks', { ...base, examples: { moon: [png] } }, 'examples: no face "moon"'],
    ['examples not a list', { ...base, examples: { star: png } }, 'examples.star must be an array'],
    ['a URL that is not a data URL', { ...base, examples: { star: ['https://x/y.png'] } }, 'examples.star[0]: not a base64 data URL'],
    ['an SVG as a photo', { ...base, examples: { star: [svg] } }, 'examples.star[0]: image/svg+xml is not allowed here'],
    ['a non-image type', { ...base, art: { star: 'data:text/html;base64,PGI+' } }, 'art.star: text/html is not allowed'],
    ['too many photos', { ...base, examples: { star: Array(MAX_EXAMPLES_PER_FACE + 1).fill(png) } }, `has ${MAX_EXAMPLES_PER_FACE + 1} photos`],
  ])('refuses %s with a clear error', (_, json, message) => {
    const text = json === null ? '{"format":' : JSON.stringify(json);
    expect(() => parseKitBundleText(text)).toThrow(KitError);
    expect(() => parseKitBundleText(text)).toThrow(message);
  });

  it('says a file that is not JSON is cut short or of another kind, quoting none of its bytes (a photo picked by mistake showed as mojibake)', () => {
    const photo = String.fromCharCode(0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46);
    for (const text of [photo, '{"format":"rollcall-kit","kit":{"id":"x']) {
      expect(() => parseKitBundleText(text, 'photo.jpg')).toThrow(new KitError('photo.jpg: not valid JSON (cut short, or another kind of file)'));
    }
  });

  it('reads data URL types', () => {
    expect(dataUrlType(png)).toBe('image/png');
    expect(dataUrlType('data:image/jpeg;name=a.jpg;base64,/9j/')).toBe('image/jpeg');
    expect(dataUrlType('data:image/png,raw')).toBeNull();
  });
});
