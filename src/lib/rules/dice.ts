/**
 * Dice as the rules see them: kit tokens (numbers for pip and Corellian Spike dice, face ids for
 * Face Off), multisets of them, and the checks every roll goes through.
 */
import { BUILT_IN_KITS, describeDice, faceForToken, type DiceKit, type DieToken } from '../dice/index.ts';
import { quoted, RuleError } from './errors.ts';
import type { ExpectedRoll } from './types.ts';

export function kitById(kitId: string): DiceKit {
  const kit = BUILT_IN_KITS[kitId];
  if (!kit) throw new Error(`Unknown dice kit "${kitId}".`);
  return kit;
}

/**
 * "1 1 4 5 6": tokens as written in actions, for the pip-only games' messages (Tug, Dominoes) and
 * internal errors. Dice of any kit are named for players with describeDice (src/lib/dice/kit.ts).
 */
export function formatDice(dice: readonly DieToken[]): string {
  return dice.map(String).join(' ');
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cy": names (or phrases) as a sentence lists them. */
export function andList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

/**
 * The most players a headline names: past three they are counted. Nineteen names in one headline
 * would push the table off the screen, and the slate's rows say who each is.
 */
export const NAMED_AT_MOST = 3;

/** "Ann and Bob", or "5 players" at a big table (more than three): players a headline is about. */
export function namesOrCount(names: readonly string[]): string {
  return names.length > NAMED_AT_MOST ? `${names.length} players` : andList(names);
}

/** Counts of each token. */
export function countTokens(dice: readonly DieToken[]): Map<DieToken, number> {
  const counts = new Map<DieToken, number>();
  for (const d of dice) counts.set(d, (counts.get(d) ?? 0) + 1);
  return counts;
}

/** True when `part` is a sub-multiset of `whole`. */
export function containsAll(whole: readonly DieToken[], part: readonly DieToken[]): boolean {
  const counts = countTokens(whole);
  for (const d of part) {
    const n = counts.get(d) ?? 0;
    if (n === 0) return false;
    counts.set(d, n - 1);
  }
  return true;
}

/** `whole` minus the multiset `part` (which must be contained in it). */
export function removeAll(whole: readonly DieToken[], part: readonly DieToken[]): DieToken[] {
  const rest = [...whole];
  for (const d of part) {
    const i = rest.indexOf(d);
    if (i < 0) throw new Error(`removeAll: ${String(d)} is not among ${formatDice(whole)}`);
    rest.splice(i, 1);
  }
  return rest;
}

/** Same multiset? */
export function sameDice(a: readonly DieToken[], b: readonly DieToken[]): boolean {
  return a.length === b.length && containsAll(a, b);
}

/**
 * Checks that `dice` is a valid list of `count` tokens of the kit. Throws a RuleError naming
 * the problem ("3 dice thrown, 2 expected"; "7 is not a face of Standard dice").
 */
export function checkDiceTokens(kitId: string, dice: unknown, count?: number): DieToken[] {
  const kit = kitById(kitId);
  if (!Array.isArray(dice)) throw new RuleError('bad-dice', 'A roll must list its dice.');
  for (const d of dice) {
    if ((typeof d !== 'number' && typeof d !== 'string') || !faceForToken(kit, d)) {
      const faces = kit.faces.map((f) => String(f.value ?? f.id)).join(', ');
      throw new RuleError('bad-face', `${quoted(d)} is not a face of ${kit.name} (faces: ${faces}).`);
    }
  }
  if (count !== undefined && dice.length !== count) {
    throw new RuleError(
      'wrong-dice-count',
      `${plural(dice.length, 'die', 'dice')} thrown, ${count} expected.`,
    );
  }
  return dice as DieToken[];
}

/** Checks a roll action's dice against what the game expects now. */
export function checkRoll(expected: ExpectedRoll, dice: unknown): DieToken[] {
  return checkDiceTokens(expected.kit, dice, expected.count);
}

/**
 * Turns what the camera (or a full-table tap on the pad) saw into the dice just thrown.
 * The table may show only the thrown dice (kept dice set aside out of view) or every die, kept
 * ones included; then the kept dice must be among them, unchanged. Refusals name the difference:
 * "4 dice seen, 3 were re-rolled and 2 kept".
 */
export function thrownDiceFromTable(expected: ExpectedRoll, seen: readonly DieToken[]): DieToken[] {
  checkDiceTokens(expected.kit, seen);
  const kit = kitById(expected.kit);
  const kept = expected.kept.length;
  if (seen.length === expected.count) return [...seen];
  if (kept > 0 && seen.length === expected.count + kept) {
    if (!containsAll(seen, expected.kept)) {
      throw new RuleError(
        'kept-dice-changed',
        `The kept dice (${describeDice(kit, expected.kept)}) are not all on the table as they were: seen ${describeDice(kit, seen)}.`,
      );
    }
    return removeAll(seen, expected.kept);
  }
  const seenText = plural(seen.length, 'die', 'dice');
  throw new RuleError(
    'wrong-dice-count',
    kept > 0
      ? `${seenText} seen, ${expected.count} ${expected.count === 1 ? 'was' : 'were'} re-rolled and ${kept} kept.`
      : `${seenText} seen, ${expected.count} expected.`,
  );
}
