/**
 * Dice kits: the kinds of dice Rollcall knows. A kit is data (see `kits/<id>/kit.json`);
 * games and the reader take face ids, labels and values from here.
 */

export interface DieFace {
  /** Stable id within the kit, e.g. "4" or "vader". */
  id: string;
  /** What a player calls the face. */
  label: string;
  /** Numeric value the games use, or null for faces without one (Face Off). */
  value: number | null;
  /** Category such as "hero"/"villain", or null. */
  group: string | null;
}

export interface DiceKit {
  id: string;
  name: string;
  faces: DieFace[];
}

/**
 * How one die is written in an action (roll, reveal…): its face's `value` when every face of
 * the kit has a distinct value (standard pips, Corellian Spike), otherwise its face id (Face Off).
 * One rule for every game keeps transcripts readable: `[1, 1, 4, 5, 6]`, `["vader", "luke"]`.
 */
export type DieToken = number | string;

/** True when the kit's dice are written as numbers in actions. */
export function kitUsesValues(kit: DiceKit): boolean {
  // asked for every die of every action replayed (`faceForToken`), so without allocating: a kit has a few faces
  const { faces } = kit;
  for (let i = 0; i < faces.length; i++) {
    const value = faces[i]!.value;
    if (typeof value !== 'number') return false;
    for (let j = 0; j < i; j++) if (faces[j]!.value === value) return false;
  }
  return true;
}

/** The token an action carries for a face of this kit. */
export function tokenForFace(kit: DiceKit, face: DieFace): DieToken {
  return kitUsesValues(kit) && face.value !== null ? face.value : face.id;
}

/** The face a token names, or undefined when the kit has no such face. */
export function faceForToken(kit: DiceKit, token: DieToken): DieFace | undefined {
  return kitUsesValues(kit)
    ? kit.faces.find((f) => f.value === token)
    : kit.faces.find((f) => f.id === token);
}

/**
 * What a player calls the die a token names — "Star (5)", "Luke Skywalker", "4" — or the token
 * itself when the kit has no such face. The table, the log and the rules' messages all name
 * dice with this.
 */
export function faceLabel(kit: DiceKit, token: DieToken): string {
  return faceForToken(kit, token)?.label ?? String(token);
}

/** True when every face's name is its number (pips): the number says it all. */
export function kitLabelsAreValues(kit: DiceKit): boolean {
  return kit.faces.every((f) => f.label === String(f.value));
}

/** Dice in words: pips as their numbers, "1 1 4 5 6"; symbols by name, "Star (5), Circle (1)". */
export function describeDice(kit: DiceKit, dice: readonly DieToken[]): string {
  return dice.map((d) => faceLabel(kit, d)).join(kitLabelsAreValues(kit) ? ' ' : ', ');
}
