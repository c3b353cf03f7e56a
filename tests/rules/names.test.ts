/** Names as a player sees them: one key for names a screen shows alike, one length in symbols. */
import { describe, expect, it } from 'vitest';
import { MAX_NAME_LENGTH, SetupError, clipName, createMatch, nameKey, nameLength, nameLengthProblem } from '../../src/lib/rules/index.ts';

const NFC: string = 'Jos\u00e9';
const NFD = 'Jose\u0301';
const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}';

describe('nameKey', () => {
  it('composed and decomposed José are one key', () => {
    expect(NFC === NFD).toBe(false);
    expect(nameKey(NFC)).toBe(nameKey(NFD));
  });

  it('full-width Ａｎｎ is Ann', () => {
    expect(nameKey('\uff21\uff4e\uff4e')).toBe('ann');
  });

  it('drops invisible format characters wherever they are; the joiners only at the ends', () => {
    for (const invisible of ['\u00ad', '\u200b', '\u2060', '\ufeff', '\u200e']) {
      expect(nameKey(`An${invisible}n`)).toBe('ann');
      expect(nameKey(`${invisible}Ann${invisible}`)).toBe('ann');
    }
    for (const joiner of ['\u200c', '\u200d']) {
      expect(nameKey(`${joiner}Ann${joiner}`)).toBe('ann');
      expect(nameKey(joiner)).toBe('');
    }
  });

  it('keeps the joiners inside a name, which change what it shows: one family emoji is not three people', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    const three = '\u{1F468}\u{1F469}\u{1F467}';
    expect(nameKey(family)).not.toBe(nameKey(three));
  });

  it('still ignores case and runs of spaces', () => {
    expect(nameKey('  Ann \u00a0 LEE ')).toBe('ann lee');
  });

  it('lower-cases the same whatever the locale (no Turkish dotless i)', () => {
    expect(nameKey('IRIS')).toBe('iris');
  });

  it('is empty for a name with nothing visible: the one test for blank', () => {
    for (const blank of ['', '   ', '\u200b', '\u00ad\u2060', '\ufeff \u200b']) expect(nameKey(blank)).toBe('');
    expect(nameKey(FAMILY)).not.toBe('');
  });
});

describe('createMatch and names', () => {
  it('refuses José twice, typed two ways', () => {
    expect(() => createMatch({ game: 'big-roll-5000', players: [NFC, NFD] })).toThrow(SetupError);
  });

  it('refuses a name of only a zero-width space', () => {
    expect(() => createMatch({ game: 'big-roll-5000', players: ['\u200b', 'Bob'] })).toThrow(SetupError);
  });
});

describe('name length', () => {
  it('counts the symbols a player sees', () => {
    expect(FAMILY.length).toBe(11);
    expect(nameLength(FAMILY)).toBe(1);
    expect(nameLength(NFD)).toBe(4);
    expect(nameLengthProblem(FAMILY.repeat(MAX_NAME_LENGTH))).toBeNull();
    expect(nameLengthProblem('x'.repeat(MAX_NAME_LENGTH + 1))).toBe('Names are at most 40 characters ("xxxxxxxxxxxxxxxxxxxx…" has 41).');
  });

  it('cuts a name between symbols, never inside one', () => {
    expect(clipName(`A${FAMILY}${NFD}`, 2)).toBe(`A${FAMILY}`);
    expect(clipName(`${NFD}x`, 4)).toBe(NFD);
    // a long name's message shows whole symbols
    expect(nameLengthProblem(FAMILY.repeat(41))).toBe(`Names are at most 40 characters ("${FAMILY.repeat(20)}…" has 41).`);
  });
});
