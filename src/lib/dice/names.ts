/**
 * Names as a player sees them: the one key two names are compared by, and the one length rule
 * (symbols on screen, not UTF-16 units) for players, sessions, dice sets and kits.
 */

/** The longest name, in symbols a player sees (`nameLength`). */
export const MAX_NAME_LENGTH = 40;

/**
 * A name as compared with another: names that read as the same are one key. "José" typed with é
 * or with e + ◌́, and full-width "Ａｎｎ" and "Ann" (NFKC, which also folds other compatibility
 * forms: "Ann²" is "Ann2"); invisible format characters (soft hyphen, zero-width space, BOM:
 * \p{Cf}) dropped, but not the joiners inside a name (ZWJ, ZWNJ), which change what it shows (a
 * family emoji, an Indic conjunct); runs of spaces as one; case ignored with `toLowerCase`, the
 * same on every device whatever its locale. Turkish pairs İ with i and I with ı, English I with i:
 * no locale-free lower case joins all of them, so the four are one letter here ("ilker" typed is
 * İlker, "ışıl" Işıl), as on a phone whose keyboard has no dotless ı they are typed anyway.
 * Two players of one game, two players on a device, or two dice sets may not share it.
 * `nameKey(name) === ''` is THE test for a blank name: nothing a player could see.
 */
export function nameKey(name: string): string {
  const key = name
    .normalize('NFKC')
    .replace(/(?![\u200C\u200D])\p{Cf}/gu, '')
    .replace(/^[\s\u200C\u200D]+|[\s\u200C\u200D]+$/gu, '')
    .replace(/\s+/g, ' ')
    .toLowerCase()
    // toLowerCase makes İ "i" with a combining dot above; ı has no upper case of its own here
    .replace(/i\u0307|ı/g, 'i');
  return key;
}

// Intl.Segmenter is missing before Firefox 125: counting code points there still never cuts a
// symbol in half, it only counts a joined emoji as several.
const segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

function graphemes(name: string): string[] {
  return segmenter ? Array.from(segmenter.segment(name), (s) => s.segment) : Array.from(name);
}

/** How long a name is as a player counts it: "👨‍👩‍👧‍👦" is 1, not 11 UTF-16 units. */
export function nameLength(name: string): number {
  return graphemes(name).length;
}

/** The first `length` symbols of `name` (an emoji or accented letter is never cut in half). */
export function clipName(name: string, length: number): string {
  return graphemes(name).slice(0, length).join('');
}

/** What is wrong with a name's length, said the same wherever a name is typed; null if it fits. */
export function nameLengthProblem(name: string): string | null {
  const length = nameLength(name);
  if (length <= MAX_NAME_LENGTH) return null;
  return `Names are at most ${MAX_NAME_LENGTH} characters ("${clipName(name, 20)}…" has ${length}).`;
}

/**
 * A name field's `maxlength`: the browser counts UTF-16 units and would cut a pasted emoji in
 * half, so the field only stops a runaway paste and `nameLengthProblem` says what is too long.
 */
export const NAME_INPUT_MAXLENGTH = MAX_NAME_LENGTH * 8;
