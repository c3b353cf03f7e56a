/**
 * Reading a game's dice, whatever they are: pips, a symbol kit's printed faces, or a player's
 * taught set (docs/architecture.md, "Reading a game's dice"). Joins the store (taught sets and
 * their examples), the kits' art (drawn here, on the main thread: a worker cannot decode SVG)
 * and the dice reader's worker.
 *
 *   const reader = loadKitReader(game.dice);          // starts at once, loads in the background
 *   await reader.ready;                                // what it reads with, and how long it took
 *   const { dice } = await reader.read(bitmap, expect.kit);   // dice with faces as the game's tokens
 *   reader.close();
 */
import { BUILT_IN_KITS, faceForToken, tokenForFace, type DiceKit, type DieToken } from '../lib/dice/index.ts';
import { builtInArtUrl } from '../lib/dice/art.ts';
import type { GameDice, RollcallStore, TaughtFaceRecord, TaughtSetRecord } from '../lib/store/index.ts';
import { loadArtImage } from '../lib/vision/art-image.ts';
import { proposedValue } from '../lib/vision/die-face-reader.ts';
import { learnConfirmed, type FacePrototype } from '../lib/vision/face-reader.ts';
import {
  createDiceReader,
  DiceReaderError,
  type DiceRead,
  type DiceReader,
  type KitSpec,
  type PrototypeData,
  type ReaderInfo,
  type ReaderInitOptions,
} from '../lib/vision/dice-reader.ts';
import type { Box } from '../lib/vision/types.ts';
import { data } from './db.svelte.ts';
import { kitOfSet, kitReadsPips, lostSetNote, readableKits, type ReadableKit } from './kits.ts';
import { cutDieAskedFor } from './cameraRead.ts';

export type { ReadableKit } from './kits.ts';

/** One die read for the game. */
export interface KitDie {
  box: Box;
  /** The detector's confidence, 0–1. */
  score: number;
  /** The face read, as an id of the kit read (`KitReader.kit`, or the roll's pip kit); null: not read. */
  faceId: string | null;
  /** The face as the game's actions write it (`tokenForFace`); null: not read. */
  token: DieToken | null;
  /** Dice read by the face embedder: similarity to the nearest face (−1…1); null otherwise. */
  similarity: number | null;
  /**
   * The vector the die was read by, for `KitReader.learn`: every symbol die; a pip die only when
   * the die-face reader read it `other` (pip-learning.ts); null otherwise.
   */
  embedding: Float32Array | null;
}

export interface KitRead {
  dice: KitDie[];
  width: number;
  height: number;
  edgeWidth: DiceRead['edgeWidth'];
  timing: DiceRead['timing'];
}

export interface KitReaderInfo {
  reader: ReaderInfo;
  /** The faces read for the game's kit: the game's kit, or an own kit standing in for it. */
  kit: DiceKit;
  reads: ReadableKit['reads'];
  /** The taught set read with (its name as the player gave it), or null for the built-in kit. */
  setName: string | null;
  /** Taught photos read with, and those that could not be used (no die found again for a new face model). */
  examples: number;
  /** Faces with printed art to read by: none for an own kit made on this phone (0 for pips too). */
  artFaces: number;
  unusable: number;
  /** The face model's identity (null for pips). */
  faceModel: string | null;
  /** Art drawing, embedder load and prototypes, after the reader itself was ready. */
  kitLoadMs: number;
  /** Set when the game's taught set is gone and the printed faces are read instead. */
  note: string | null;
}

export interface KitReader {
  /** The game's kit (`GameDice.kitId`). */
  readonly gameKit: DiceKit;
  /** Resolves once the dice can be read; rejects (a DiceReaderError) if the reader cannot start. */
  readonly ready: Promise<KitReaderInfo>;
  /**
   * Reads a frame (an ImageBitmap is transferred and closed). `kitId` is the kit of the roll
   * awaited (`ExpectedRoll.kit`), default the game's: a Face Off roll-off thrown with a standard
   * die is read as pips, the game's own rolls with its symbol kit. `expected`: how many dice the
   * roll awaited puts in view at least (`ExpectedRoll.count`); pip dice missed below it are
   * looked for again (die-face-reader.ts `detectCounted`). `tiles`: a photo (`RollPhoto`), whose
   * pip dice small in a large picture are looked for in tiles of it too (tiles.ts).
   */
  read(frame: ImageBitmap | ImageData, kitId?: string, expected?: number, options?: { tiles?: boolean }): Promise<KitRead>;
  /**
   * Learning from play: dice of a confirmed roll (their face ids and reading embeddings,
   * `KitDie`) become prototypes of their faces for the rest of this reader's life
   * (`learnConfirmed`: at most CONFIRMED_PER_FACE per face, oldest out). `kitId` is the kit the
   * roll was read as (default the game's). A symbol kit learns the dice of a roll confirmed
   * exactly as read; pips learn the dice the reader could not read, as the player filled them
   * in (pip-learning.ts). Resolves to how many dice that kit now reads with that way.
   */
  learn(dice: readonly { faceId: string; embedding: Float32Array }[], kitId?: string): Promise<number>;
  close(): void;
}

/** The URLs of a kit's face art: a built-in kit's SVGs, or an own kit's imported data URLs. */
export function artUrls(kit: DiceKit, set: Pick<TaughtSetRecord, 'kit' | 'art'> | null): Map<string, string> {
  const urls = new Map<string, string>();
  for (const face of kit.faces) {
    const url = set?.kit ? (Object.hasOwn(set.art, face.id) ? set.art[face.id] : undefined) : builtInArtUrl(kit.id, face.id);
    if (url) urls.set(face.id, url);
  }
  return urls;
}

/** Draws face art for the worker (128 × 128 RGBA each). Art that cannot be drawn is left out. */
export async function drawArt(urls: ReadonlyMap<string, string>): Promise<KitSpec['art']> {
  const out: KitSpec['art'] = [];
  for (const [faceId, url] of urls) {
    try {
      out.push({ faceId, image: await loadArtImage(url) });
    } catch {
      // a face without usable art reads only from taught photos
    }
  }
  return out;
}

/**
 * Brings a set's taught examples up to the face model the worker runs: an example embedded by
 * another model (or never) is embedded again from its picture — at its stored box, or where the
 * detector finds its die — and stored. Returns the examples usable now, and how many are not.
 */
export async function refreshEmbeddings(
  store: RollcallStore,
  reader: DiceReader,
  faces: readonly TaughtFaceRecord[],
  model: string,
): Promise<{ usable: TaughtFaceRecord[]; unusable: number }> {
  const usable: TaughtFaceRecord[] = [];
  let unusable = 0;
  for (const face of faces) {
    if (face.embedding && face.embeddingModel === model) {
      usable.push(face);
      continue;
    }
    let bitmap: ImageBitmap;
    try {
      bitmap = await createImageBitmap(face.image);
    } catch {
      unusable++;
      continue;
    }
    const outcome = await reader.teach(bitmap, face.box ? { box: face.box } : {});
    if (!outcome.ok) {
      unusable++;
      continue;
    }
    const vector = Array.from(outcome.embedding);
    await store.setFaceEmbedding(face.id, vector, outcome.embeddingModel, outcome.box);
    usable.push({ ...face, embedding: vector, embeddingModel: outcome.embeddingModel, box: outcome.box });
  }
  return { usable, unusable };
}

/** Taught examples as the worker takes them. */
export function examplePrototypes(faces: readonly TaughtFaceRecord[]): PrototypeData[] {
  return faces.flatMap((f) => (f.embedding ? [{ faceId: f.faceId, embedding: Float32Array.from(f.embedding) }] : []));
}

/**
 * The dice a game of `gameKitId` can be read with, for the new-game screen: the built-in kit
 * (pips, or the printed faces), then the player's taught sets of it and own kits that stand in
 * for it (`standsInFor`), each with a one-line note. Record the choice's `dice` in the game.
 */
export async function listReadableKits(gameKitId: string, store?: RollcallStore): Promise<ReadableKit[]> {
  const db = store ?? (await data.store());
  const sets = await db.listTaughtSets();
  const examples = new Map<string, TaughtFaceRecord[]>();
  for (const set of sets) examples.set(set.id, await db.listTaughtFaces(set.id));
  return readableKits(gameKitId, sets, examples);
}

/**
 * A reader for a game's dice (`GameRecord.dice`): pips with the detector's classes, a symbol kit
 * by its printed art, a taught set by its photos (and art for faces not taught). Starts the
 * worker at once; `ready` says when it can read. The face model loads for symbol dice, and for
 * pips only once a die is read `other` (pip-learning.ts).
 */
export function loadKitReader(dice: GameDice, options: { reader?: ReaderInitOptions; store?: RollcallStore } = {}): KitReader {
  const gameKit = BUILT_IN_KITS[dice.kitId];
  const reader = createDiceReader(options.reader);
  /** How to switch the worker back to the game's symbol kit after a roll of pips (art not embedded again). */
  let symbolSpec: KitSpec | null = null;
  let readKit: DiceKit = gameKit ?? { id: dice.kitId, name: dice.kitId, faces: [] };
  let current: 'pips' | 'symbol' = 'pips';
  /** Dice learnt from confirmed rolls (`learn`). */
  let confirmed: FacePrototype[] = [];
  /** Pip dice the die-face reader could not read, as the player filled them in (`learn` of a pip roll). */
  let pipsLearnt: FacePrototype[] = [];
  /** Kit switches and reads, one at a time. */
  let queue: Promise<unknown> = Promise.resolve();

  const ready = (async (): Promise<KitReaderInfo> => {
    if (!gameKit) throw new DiceReaderError(`Rollcall has no dice kit "${dice.kitId}".`);
    const readerInfo = await reader.ready;
    const t0 = performance.now();
    const store = options.store ?? (await data.store());
    const set = dice.taughtSetId ? ((await store.getTaughtSet(dice.taughtSetId)) ?? null) : null;
    const note = dice.taughtSetId && !set ? lostSetNote(gameKit) : null;
    readKit = set ? kitOfSet(set) : gameKit;
    if (kitReadsPips(readKit)) {
      return { reader: readerInfo, kit: readKit, reads: 'pips', setName: set?.name ?? null, examples: 0, artFaces: 0, unusable: 0, faceModel: null, kitLoadMs: performance.now() - t0, note };
    }
    const model = await reader.faceModel();
    const { usable, unusable } = set ? await refreshEmbeddings(store, reader, await store.listTaughtFaces(set.id), model.embeddingModel) : { usable: [], unusable: 0 };
    const examples = examplePrototypes(usable);
    const art = await drawArt(artUrls(readKit, set));
    const info = await reader.useKit({ kit: readKit, art, examples });
    symbolSpec = { kit: readKit, art: [], examples, artPrototypes: info.artPrototypes };
    current = 'symbol';
    return {
      reader: readerInfo,
      kit: readKit,
      reads: examples.length > 0 ? 'taught' : 'art',
      setName: set?.name ?? null,
      examples: examples.length,
      artFaces: art.length,
      unusable,
      faceModel: model.embeddingModel,
      kitLoadMs: performance.now() - t0,
      note,
    };
  })();
  ready.catch(() => undefined); // read() rejects with the same error

  /** The kit a roll of `kitId` is read as: the game's own rolls with the dice read for it, others (a roll-off's pips) as built in. */
  const rollKitOf = (kitId: string): DiceKit | undefined => (kitId === dice.kitId ? readKit : BUILT_IN_KITS[kitId]);

  /**
   * Waits for the reader and switches it to the roll's kit. A frame that cannot be read then is
   * closed here, as the worker would have (else a camera's frames wait for the collector).
   */
  async function kitForRoll(frame: ImageBitmap | ImageData, kitId: string): Promise<DiceKit> {
    try {
      await ready;
      const rollKit = rollKitOf(kitId);
      if (!rollKit || (rollKit !== readKit && !kitReadsPips(rollKit))) {
        throw new DiceReaderError(`These dice (${readKit.name}) cannot be read as ${rollKit?.name ?? kitId}.`);
      }
      const want = kitReadsPips(rollKit) ? 'pips' : 'symbol';
      if (want !== current) {
        if (want === 'pips') await reader.useKit(null);
        else await reader.useKit(symbolSpec!);
        current = want;
      }
      return rollKit;
    } catch (err) {
      if (typeof ImageBitmap !== 'undefined' && frame instanceof ImageBitmap) frame.close();
      throw err;
    }
  }

  async function readNow(frame: ImageBitmap | ImageData, kitId: string, expected: number | undefined, options: { tiles?: boolean } | undefined): Promise<KitRead> {
    const rollKit = await kitForRoll(frame, kitId);
    const read = await reader.read(frame, expected, options);
    const found = read.dice.map((die, i): KitDie => {
      const faceRead = read.faces?.[i];
      if (faceRead) {
        const face = rollKit.faces.find((f) => f.id === faceRead.faceId);
        return {
          box: die.box,
          score: die.score,
          faceId: face?.id ?? null,
          token: face ? tokenForFace(rollKit, face) : null,
          similarity: faceRead.similarity,
          embedding: faceRead.embedding,
        };
      }
      // a value the reader doubts is asked for (`?`), not proposed
      const value = proposedValue(die);
      const face = value === null ? undefined : faceForToken(rollKit, value);
      return { box: die.box, score: die.score, faceId: face?.id ?? null, token: face ? tokenForFace(rollKit, face) : null, similarity: null, embedding: null };
    });
    // a die cut by the frame's edge is asked for too: its face may be cut (nor is its look learnt)
    const size = { width: read.width, height: read.height };
    const boxes = found.map((d) => d.box);
    const asked = found.map((d) => (cutDieAskedFor(d.box, boxes, size) ? { ...d, faceId: null, token: null, similarity: null, embedding: null } : d));
    return { dice: asked, width: read.width, height: read.height, edgeWidth: read.edgeWidth, timing: read.timing };
  }

  async function learnNow(roll: readonly { faceId: string; embedding: Float32Array }[], kitId: string): Promise<number> {
    await ready;
    const rollKit = rollKitOf(kitId);
    if (rollKit && kitReadsPips(rollKit)) {
      const known = new Set(rollKit.faces.map((f) => f.id));
      pipsLearnt = learnConfirmed(pipsLearnt, roll.filter((d) => known.has(d.faceId)));
      await reader.learnPips(pipsLearnt.map((p) => ({ faceId: p.faceId, embedding: p.embedding })));
      return pipsLearnt.length;
    }
    if (!symbolSpec) return 0;
    const known = new Set(readKit.faces.map((f) => f.id));
    confirmed = learnConfirmed(confirmed, roll.filter((d) => known.has(d.faceId)));
    symbolSpec = { ...symbolSpec, confirmed: confirmed.map((p) => ({ faceId: p.faceId, embedding: p.embedding })) };
    // the worker takes the new prototypes now if it reads the symbol kit, else when it switches back
    if (current === 'symbol') await reader.useKit(symbolSpec);
    return confirmed.length;
  }

  return {
    gameKit: gameKit ?? readKit,
    ready,
    read(frame, kitId = dice.kitId, expected, options) {
      const next = queue.then(() => readNow(frame, kitId, expected, options));
      queue = next.catch(() => undefined);
      return next;
    },
    learn(roll, kitId = dice.kitId) {
      const next = queue.then(() => learnNow(roll, kitId));
      queue = next.catch(() => undefined);
      return next;
    },
    close: () => reader.close(),
  };
}
