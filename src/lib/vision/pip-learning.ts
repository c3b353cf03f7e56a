/**
 * Pip dice the die-face reader cannot read, learnt at the table. A die it reads `other` (a die,
 * but no pip face it knows: a maker's logo on the 1, pips of a shape it never met) and that no die
 * beside it read as pips makes a branded 1 (die-face-reader.ts `brandedOnesAmongPips`) is proposed
 * as `?` for the player to fill. On a top-down die a logo alone cannot tell a branded 1 from a
 * symbol die (models/record/standard-dice.md, "Pip dice from another renderer"), but the player can: once
 * the player has filled such dice with a face, dice that look the same read as that face for the
 * rest of the table.
 *
 * How: each die read `other` is embedded by the face embedder (the symbol dice' model, which
 * tells faces apart by their look) and takes the face of the nearest learnt prototype when the
 * embedder's own unknown rule says it is near enough (`matchFace`). Prototypes are the
 * embeddings of dice the player filled (`learnConfirmed`: at most 10 per face, oldest out), keyed
 * by the standard kit's face ids "1"…"6". Nothing is stored: a new table starts afresh.
 *
 * On the other renderer's pip sets (600 rolls, 24 tables, read in order as the table reads them:
 * `npm run eval -- --learn`), before the rule among pip dice, 26 of the 37 ones read `other` were
 * then read as 1s, and no die changed otherwise (models/record/standard-dice.md, "Dice the reader cannot
 * read, learnt at the table").
 */
import type { FaceEmbedder } from './face-embedder.ts';
import { matchFace, type FacePrototype, type MatchRule } from './face-reader.ts';
import type { Die, RgbaImage } from './types.ts';

/** A die read `other`, embedded: the face learnt for it (or null), and the vector it was read by. */
export interface OtherPipRead {
  /** The standard kit's face id ("1"…"6") read from the learnt prototypes, or null: still unread. */
  faceId: string | null;
  /** Cosine similarity to the nearest learnt face (−1 when nothing is learnt). */
  similarity: number;
  nearestFaceId: string | null;
  /** What the die was read by: a prototype of the face the player fills it with. */
  embedding: Float32Array;
}

/** The standard kit's face id of a pip value, and back. */
export const pipFaceId = (value: number): string => String(value);
const pipValue = (faceId: string): number | null => (/^[1-6]$/.test(faceId) ? Number(faceId) : null);

/**
 * Embeds the dice read `other` (value null; not those read as a value unsurely, `Die.unsure`: a
 * pip face the reader knows, not a look to learn) and reads each by the learnt prototypes. Returns
 * the dice (a die matched takes the learnt value) and, in their order, each die's read (null for
 * a die the die-face reader read itself); `reads` is null when no die was read `other`.
 */
export async function readOtherPips(
  embedder: FaceEmbedder,
  image: RgbaImage,
  dice: readonly Die[],
  learnt: readonly FacePrototype[],
  rule: MatchRule = embedder.config,
): Promise<{ dice: Die[]; reads: (OtherPipRead | null)[] | null }> {
  const others = dice.flatMap((d, i) => (d.value === null ? [i] : []));
  if (others.length === 0) return { dice: [...dice], reads: null };
  const embeddings = await embedder.embed(
    image,
    others.map((i) => dice[i]!.box),
  );
  const out = [...dice];
  const reads: (OtherPipRead | null)[] = dice.map(() => null);
  others.forEach((i, j) => {
    const embedding = embeddings[j]!;
    const match = matchFace(learnt, embedding, rule);
    const value = match.faceId === null ? null : pipValue(match.faceId);
    reads[i] = { faceId: value === null ? null : match.faceId, similarity: match.similarity, nearestFaceId: match.nearestFaceId, embedding };
    if (value !== null) out[i] = { ...dice[i]!, value };
  });
  return { dice: out, reads };
}
