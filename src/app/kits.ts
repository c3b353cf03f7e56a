/**
 * Dice kits as the app offers them: which dice can be read for a game (a built-in kit, a player's
 * taught set of it, or a kit of their own whose faces stand in for it), what the teach screen
 * says about how well a kit separates its faces, and a new kit made from a form. Pure: no DOM,
 * no store, no worker (those are in `kit-reader.ts`), so it is tested in Node.
 */
import { BUILT_IN_KITS, KIT_ID_PATTERN, KitError, isObjectsOwnName, STANDARD_KIT, kitUsesValues, parseKit, tokenForFace, type DiceKit, type DieFace, type DieToken } from '../lib/dice/index.ts';
import type { GameDice, GameRecord, TaughtSetRecord } from '../lib/store/types.ts';
import { gameName } from './games.ts';
import { nameList } from './format.ts';
import { kitOfTaughtSet, unusedName } from '../lib/store/index.ts';
import { MAX_NAME_LENGTH, clipName, nameKey, nameLengthProblem } from '../lib/rules/index.ts';
import { MIN_TEACH_EXAMPLES, type KitSeparation } from '../lib/vision/face-reader.ts';

/** The kit a taught set's dice have: its own, or the built-in kit it copies. */
export function kitOfSet(set: Pick<TaughtSetRecord, 'kitId' | 'kit'>): DiceKit {
  const kit = kitOfTaughtSet(set);
  if (!kit) throw new Error(`dice set of an unknown kit "${set.kitId}"`);
  return kit;
}

/**
 * Pip dice (the built-in standard kit) are read by the detector's classes; every other kit by its
 * faces. By id, not by the faces: an own kit whose faces are "1"…"6" valued 1–6 (dice with a logo
 * on the 1, say) was made to be read from its taught photos. Own kits never carry a built-in id
 * (`kitFromForm`; a kit file with one is the built-in kit or refused, kit-files.ts).
 */
export function kitReadsPips(kit: DiceKit): boolean {
  return kit.id === STANDARD_KIT.id;
}

/**
 * Whether dice of `kit` can be played in a game of `gameKit`: every face is written in actions
 * as a token of the game's kit and every token of the game's kit has a face (`tokenForFace`), so
 * a read of these dice is a roll the game's rules accept. True for the game's kit itself.
 */
export function standsInFor(kit: DiceKit, gameKit: DiceKit): boolean {
  if (kit.id === gameKit.id) return true;
  if (kitUsesValues(kit) !== kitUsesValues(gameKit) || kit.faces.length !== gameKit.faces.length) return false;
  const tokens = new Set<DieToken>(gameKit.faces.map((f) => tokenForFace(gameKit, f)));
  const own = new Set<DieToken>(kit.faces.map((f) => tokenForFace(kit, f)));
  return own.size === tokens.size && [...own].every((t) => tokens.has(t));
}

/** One choice of dice for a game, as the new-game screen lists it. */
export interface ReadableKit {
  /** What the game records (`GameDice`): the game's kit, and the taught set if any. */
  dice: GameDice;
  /** The faces the camera reads: the game's kit, or an own kit standing in for it. */
  kit: DiceKit;
  /** What to call this choice. */
  name: string;
  /** How it reads: pips, the printed art, or taught photos. */
  reads: 'pips' | 'art' | 'taught';
  /** Taught photos, and faces with at least one. */
  examples: number;
  facesTaught: number;
  /** One line for the player, e.g. "taught: 18 photos, every face" or "reads the printed faces". */
  note: string;
}

/**
 * The dice a game of `gameKitId` can be read with: the built-in kit first, then taught sets of
 * it and own kits that stand in for it, most recently changed first (`sets` in that order).
 * `examples` gives each set's taught photos by face id.
 */
export function readableKits(
  gameKitId: string,
  sets: readonly TaughtSetRecord[],
  examples: ReadonlyMap<string, readonly { faceId: string }[]>,
): ReadableKit[] {
  const gameKit = BUILT_IN_KITS[gameKitId];
  if (!gameKit) return [];
  const pips = kitReadsPips(gameKit);
  const out: ReadableKit[] = [
    {
      dice: { kitId: gameKitId, taughtSetId: null },
      kit: gameKit,
      name: pips ? 'Standard dice' : 'Printed faces (built in)',
      reads: pips ? 'pips' : 'art',
      examples: 0,
      facesTaught: 0,
      note: pips ? 'reads the pips' : 'reads dice that look like the printed art',
    },
  ];
  for (const set of sets) {
    let kit: DiceKit;
    try {
      kit = kitOfSet(set);
    } catch {
      continue;
    }
    if (!standsInFor(kit, gameKit)) continue;
    const photos = examples.get(set.id) ?? [];
    const taught = new Set(photos.map((p) => p.faceId).filter((id) => kit.faces.some((f) => f.id === id)));
    const every = taught.size === kit.faces.length;
    // a built-in kit's dice have its printed art; an own kit only the art it was imported with
    const art = set.kit === null || Object.keys(set.art).length > 0;
    const untaught = art ? 'read like the printed faces' : 'cannot be read until taught';
    out.push({
      dice: { kitId: gameKitId, taughtSetId: set.id },
      kit,
      name: set.name,
      reads: 'taught',
      examples: photos.length,
      facesTaught: taught.size,
      note:
        photos.length === 0
          ? `not taught yet: its faces ${untaught}`
          : every
            ? `taught: ${plural(photos.length, 'view')}, every face`
            : `taught: ${taught.size} of ${kit.faces.length} faces (the others ${untaught})`,
    });
  }
  return out;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "3 taught views": the word Teach uses for what is taught ("Take this view", "2 of 3 views"). */
export const taughtViews = (n: number): string => plural(n, 'taught view');

/**
 * What a game reads once the taught set it was started with is gone: its own built-in kit
 * (`loadKitReader`), pips for a pip game (an own kit stood in for standard dice: they have no
 * printed faces), else the kit's printed faces. Said by the delete question and the table's note.
 */
export function readInsteadOfSet(gameKit: DiceKit | undefined): string {
  return gameKit !== undefined && kitReadsPips(gameKit) ? 'plain pips' : 'the printed faces';
}

/** The table's note for a game whose taught set was deleted since it started. */
export function lostSetNote(gameKit: DiceKit | undefined): string {
  return `The taught dice of this game are no longer on this device: ${readInsteadOfSet(gameKit)} are read instead.`;
}

/** A game in play that reads with a taught set, as the delete question names it. */
export type GameInPlay = Pick<GameRecord, 'game' | 'players' | 'dice'>;

/**
 * The question before a taught set is deleted: what goes with it, and what the games in play
 * that read with it read once it is gone (`readInsteadOfSet`). Said before, so that the table's
 * note after is no surprise.
 */
export function deleteSetQuestion(setName: string, views: number, inPlay: readonly GameInPlay[]): string {
  const question = `Delete ${setName}? ${views === 0 ? 'Nothing is taught to it yet.' : `Its ${taughtViews(views)} ${views === 1 ? 'goes' : 'go'} for good.`}`;
  if (inPlay.length === 0) return question;
  const games = inPlay.map((g) => `${gameName(g.game)} with ${nameList(g.players.map((p) => p.name))}`);
  const read = new Set(inPlay.map((g) => readInsteadOfSet(BUILT_IN_KITS[g.dice.kitId])));
  const instead = read.size === 1 ? [...read][0]! : "their games' own dice (pips, or the printed faces)";
  return inPlay.length === 1
    ? `${question} The game of ${games[0]!} in play reads with it: it will read ${instead} instead.`
    : `${question} ${inPlay.length} games in play read with it (${games.join('; ')}): they will read ${instead} instead.`;
}

/** "Show the Star (5) face up": what the teach screen asks for one face. */
export function faceInstruction(face: DieFace, have: number, want = MIN_TEACH_EXAMPLES): string {
  const more = Math.max(0, want - have);
  const views = more > 0 ? `${plural(more, 'more view')} at least` : 'more views make it surer';
  return `Show the ${face.label} face up, ${views}.`;
}

export interface SeparationVerdict {
  tone: 'good' | 'warn' | 'todo';
  /** One sentence a player understands. */
  headline: string;
  /** What to do next, or null when nothing is needed. */
  advice: string | null;
}

/**
 * The teach screen's figure in plain words: is the kit ready, and if not, what to do.
 * `printedFaces`: the set's dice have art to read by before any are taught (a built-in kit's, an
 * own kit's imported with some; `readableKits` tells them apart the same way).
 */
export function separationVerdict(kit: DiceKit, separation: KitSeparation, printedFaces: boolean): SeparationVerdict {
  const label = (id: string): string => kit.faces.find((f) => f.id === id)?.label ?? id;
  const missing = separation.faces.filter((f) => f.status === 'missing');
  const confused = separation.faces.filter((f) => f.status === 'confusable');
  if (separation.ready) {
    const pair = separation.closestPair;
    return {
      tone: 'good',
      headline: `Ready: every taught view reads as its own face${separation.score !== null ? ` (${Math.round(separation.score * 100)}%)` : ''}.`,
      advice: pair && pair.similarity > 0.85 ? `${label(pair.faceIds[0])} and ${label(pair.faceIds[1])} look most alike: a few more views of them make reads surer.` : null,
    };
  }
  if (confused.length > 0) {
    const f = confused[0]!;
    const other = f.closestFaceId ? label(f.closestFaceId) : 'another face';
    return {
      tone: 'warn',
      headline: `${label(f.faceId)} is taken for ${other}${confused.length > 1 ? `, and ${plural(confused.length - 1, 'more face')} too` : ''}.`,
      advice: `Add views of ${label(f.faceId)} and ${other} in good light, or delete a blurred view.`,
    };
  }
  if (missing.length === kit.faces.length) {
    // an own kit made on this phone has no printed faces to fall back on (New game: "cannot be read until taught")
    const meanwhile = printedFaces ? 'dice are read by the printed faces' : 'these dice cannot be read until taught';
    return { tone: 'todo', headline: `Nothing taught yet: ${meanwhile}.`, advice: `Show each face at least ${MIN_TEACH_EXAMPLES} times.` };
  }
  const todo = separation.faces.filter((f) => f.status === 'missing' || f.status === 'needs-more');
  const started = separation.faces.filter((f) => f.examples > 0).length;
  return {
    tone: 'todo',
    headline: `${started} of ${kit.faces.length} faces have views; ${
      separation.score === null || separation.score === 1 ? 'each view so far reads as its own face' : `${Math.round(separation.score * 100)}% of the views so far read as their own face`
    }.`,
    advice: `Still to teach: ${todo.map((f) => `${label(f.faceId)} (${f.examples}/${MIN_TEACH_EXAMPLES})`).join(', ')}.`,
  };
}

/** A face of the new-kit form, as typed. */
export interface FaceDraft {
  label: string;
  /** A number, or empty for none. */
  value: string;
  /** A category such as "hero", or empty. */
  group: string;
}

/** Lower-case letters, digits and dashes from any text ("Star (5)" → "star-5"). */
function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
}

/**
 * A kit from the new-kit form: ids made from the name and the labels (unique, never a built-in
 * kit's id), values and groups from the text typed; checked by `parseKit`, whose KitError says
 * what is wrong ("a kit needs 2–24 faces", "faces[2].label … must be a non-empty string").
 */
export function kitFromForm(name: string, faces: readonly FaceDraft[]): DiceKit {
  let id = slug(name) || 'my-dice';
  // never a built-in kit's id, nor a name JavaScript objects keep ("Prototype", "Constructor")
  if (BUILT_IN_KITS[id] || isObjectsOwnName(id)) id = `${id}-own`;
  if (!KIT_ID_PATTERN.test(id)) id = 'my-dice';
  const used = new Set<string>();
  // the form's own slips in the player's words, before the kit validator's (which name its fields)
  const kitNameTooLong = nameLengthProblem(name.trim());
  if (kitNameTooLong) throw new KitError(kitNameTooLong);
  for (const [i, f] of faces.entries()) {
    if (nameKey(f.label) === '') throw new KitError(`Face ${i + 1} needs a name.`);
    const tooLong = nameLengthProblem(f.label.trim()) ?? nameLengthProblem(f.group.trim());
    if (tooLong) throw new KitError(`Face ${i + 1}: ${tooLong}`);
    const valueText = f.value.trim();
    if (valueText !== '' && !Number.isFinite(Number(valueText))) {
      throw new KitError(`The value of face ${i + 1} (${f.label.trim()}) must be a number, such as 3 or 1.5 (with a dot), or left empty.`);
    }
  }
  const drafts = faces.map((f, i) => {
    const slugged = slug(f.label) || `face-${i + 1}`;
    const base = isObjectsOwnName(slugged) ? `${slugged}-face` : slugged;
    let faceId = base;
    for (let n = 2; used.has(faceId); n++) faceId = `${base}-${n}`;
    used.add(faceId);
    // every value was found a number or empty above
    const valueText = f.value.trim();
    return { id: faceId, label: f.label.trim(), value: valueText === '' ? null : Number(valueText), group: f.group.trim() || null };
  });
  return parseKit({ id, name: name.trim(), faces: drafts }, 'your kit');
}

/** The file a kit is exported to: `<kit id>.rollcall-kit.json`. */
export function kitFileName(kit: DiceKit): string {
  return `${kit.id}.rollcall-kit.json`;
}

/** "Star Wars Face Off dice (4 heroes, 2 villains)" → "Star Wars Face Off dice": a kit's name without its note in brackets. */
export function shortKitName(name: string): string {
  return name.replace(/\s*\(.*\)\s*$/, '');
}

/** A new taught set's name: "My Corellian Spike dice", numbered when the name is taken. */
export function defaultSetName(kit: DiceKit, taken: readonly string[]): string {
  return unusedName(clipName(`My ${shortKitName(kit.name)}`, MAX_NAME_LENGTH), taken);
}

/** One face's line on the teach screen: "good", "2 of 3 views", "taken for Han Solo". */
export function faceStatusText(kit: DiceKit, face: KitSeparation['faces'][number]): string {
  switch (face.status) {
    case 'missing':
      return 'not taught yet';
    case 'needs-more':
      return `${face.examples} of ${MIN_TEACH_EXAMPLES} views`;
    case 'confusable':
      return `taken for ${kit.faces.find((f) => f.id === face.closestFaceId)?.label ?? 'another face'}`;
    case 'good':
      return `good (${plural(face.examples, 'view')})`;
  }
}
