/**
 * From the kit reader (`kit-reader.ts`: pips and symbol dice alike) to a proposed roll: each
 * camera frame's dice go to the settle tracker with their faces written as the game's tokens;
 * a settled read becomes a proposal unless it is only what was already on the table with some
 * dice taken away (dice set aside or picked up are not a roll). Pure: no DOM, no worker, so it is tested in Node.
 */
import type { DieToken } from '../lib/dice/index.ts';
import type { ExpectedRoll } from '../lib/rules/index.ts';
import { proposedValue } from '../lib/vision/die-face-reader.ts';
import { centre, median, readingOrder, turnedFrame, type Box, type BoxMap, type DetectionFrame, type FrameSize, type TrackedDie } from '../lib/vision/settle.ts';

/**
 * The performance mark made when the settle tracker settles a read (`npm run bench` times the
 * read's way onto the screen from it). Its detail is a `SettledMarkDetail`.
 */
export const DICE_SETTLED_MARK = 'rollcall:dice-settled';

export interface SettledMarkDetail {
  /** Capture time of the frame that settled the read (performance.now() clock). */
  frameTime: number;
  /** Whether the read goes to the table as a proposal (not a repeat, not dice set aside, a roll awaited). */
  proposed: boolean;
}

/**
 * Marks a settled read (`DICE_SETTLED_MARK`), the one before it cleared: the browser keeps every
 * mark until it is cleared, and a phone propped at the table settles hundreds of reads an evening.
 * What times the reads (`npm run bench`) looks at the latest mark only.
 */
export function markDiceSettled(detail: SettledMarkDetail, perf: Pick<Performance, 'mark' | 'clearMarks'> = performance): void {
  perf.clearMarks(DICE_SETTLED_MARK);
  perf.mark(DICE_SETTLED_MARK, { detail });
}

/** One die as the kit reader reports it (structurally `KitDie` of `kit-reader.ts`). */
export interface ReadDie {
  box: Box;
  /** The face read, as the game's actions write it; null when it could not be read. */
  token: DieToken | null;
  score: number;
}

/** A frame of the reader's dice, for the settle tracker; `size`, the frame's, lets it follow the camera turning. */
export function settleFrame(t: number, dice: readonly ReadDie[], size?: FrameSize): DetectionFrame<DieToken> {
  const frame = { t, dice: dice.map((d) => ({ box: d.box, face: d.token, score: d.score })) };
  return size ? { ...frame, size } : frame;
}

/**
 * How much larger one box may be than another and still be the same die read again (chosen on the
 * held-out rests and throws, models/record/at-the-table.md "A die doubted where it lies").
 */
const SAME_DIE_SIZE_RATIO = 1.5;

/**
 * True when every die of `next` lies where a die of `previous` lay, showing the same face: the
 * table only lost dice (set aside out of view, picked up to roll), nothing was thrown. A die
 * not read then (`?`) may show a face now: the same die read at last (the table learnt it from
 * the player's fill-in, pip-learning.ts), not a die thrown; and a die read then may be unread now
 * where it lay: the reader doubting the same die as the frames drift. The same die is about the
 * same size (`SAME_DIE_SIZE_RATIO`). `tolerance` is in die sizes.
 */
export function onlyDiceTakenAway(next: readonly TrackedDie<DieToken>[], previous: readonly TrackedDie<DieToken>[] | null, tolerance = 0.5): boolean {
  if (!previous || next.length === 0 || next.length > previous.length) return false;
  const free = [...previous];
  for (const die of next) {
    const c = centre(die.box);
    const side = Math.max(die.box.w, die.box.h);
    const at = free.findIndex((p) => {
      const pc = centre(p.box);
      const pSide = Math.max(p.box.w, p.box.h);
      // the same die is about the same size: a small die where a large one lay was thrown there
      const sameSize = Math.max(side, pSide) <= SAME_DIE_SIZE_RATIO * Math.min(side, pSide);
      return (p.face === die.face || p.face === null || die.face === null) && sameSize && Math.hypot(pc.x - c.x, pc.y - c.y) <= tolerance * Math.max(pSide, side);
    });
    if (at < 0) return false;
    free.splice(at, 1);
  }
  return true;
}

/**
 * True when the dice the camera settled on are the dice of a roll entered by hand (the dice pad,
 * a photo) and confirmed before the camera proposed them: the same number of dice, each face read
 * being one of the roll's (a `?` may be any). On a slow phone the reader can come ready, or the
 * dice settle, only after the player entered the roll they lie in; proposed then, they would be
 * taken for the next throw (in 5000, the two dice left of "2 3 3 3 6" read as a bust).
 */
export function diceEnteredByHand(seen: readonly { face: DieToken | null }[], entered: readonly DieToken[] | null): boolean {
  if (entered === null || seen.length === 0 || seen.length !== entered.length) return false;
  const left = [...entered];
  for (const { face } of seen) {
    if (face === null) continue;
    const at = left.indexOf(face);
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return true;
}

/**
 * The roll entered by hand still to compare with the dice the camera settles on
 * (`diceEnteredByHand`), after a frame that read `diceRead` dice: let go once a frame showed none,
 * the dice picked up to be thrown. What settles after that is a new throw, though it may show the
 * faces entered (one time in six in a game of one die). Dice seen moving do not let it go: the
 * phone shaken by the taps that entered the roll can look like that.
 */
export function handEntryAfterFrame<T>(entered: T | null, diceRead: number): T | null {
  return diceRead === 0 ? null : entered;
}

/**
 * True when `next` reads the face of more dice than `previous` (a `?` of it read now): proposed
 * while `previous` still waits to be confirmed, it completes that read (a die cut by the frame's
 * edge brought in view, a doubted die read surely at last), though `onlyDiceTakenAway` calls it
 * the same dice.
 */
export function readsMoreFaces(next: readonly { face: unknown }[], previous: readonly { face: unknown }[] | null): boolean {
  const read = (dice: readonly { face: unknown }[]) => dice.filter((d) => d.face !== null).length;
  return previous !== null && read(next) > read(previous);
}

/** The last settled layout of a table (what "the same roll" and "set aside" compare with), and the size of the frames it was read in. */
export interface TableLayout<F> {
  dice: TrackedDie<F>[];
  frame: FrameSize;
}

/**
 * `layout` in the pixels of `frame`: carried by the tracker's move of the camera (`turned`,
 * `SettleUpdate.turned`), or, when it was read in frames of another size that the tracker never
 * saw (the table before, the phone turned between games), by `turnedFrame` on the dice in view,
 * once there are some. Otherwise as it is.
 */
export function layoutInFrame<F>(layout: TableLayout<F> | null, frame: DetectionFrame<F>, turned: BoxMap | null): TableLayout<F> | null {
  const size = frame.size;
  if (!layout || !size) return layout;
  const resized = layout.frame.width !== size.width || layout.frame.height !== size.height;
  const move = turned ?? (resized && frame.dice.length > 0 ? turnedFrame(layout.dice, frame.dice, layout.frame, size) : null);
  return move ? { dice: layout.dice.map((d) => ({ ...d, box: move(d.box) })), frame: size } : layout;
}

/**
 * The numbers of dice a roll awaited can show in view: the dice thrown, or (when dice were kept
 * and still lie on the table) the dice thrown and kept. Empty when no roll is awaited.
 */
export function countsInView(expect: Pick<ExpectedRoll, 'count' | 'kept'> | null): number[] {
  if (!expect) return [];
  return expect.kept.length > 0 ? [expect.count, expect.count + expect.kept.length] : [expect.count];
}

/**
 * How many of the boxes in view stand for dice: all of them, unless the dice whose face was read
 * already number one of `counts` (`countsInView`), when the unread boxes are taken for things
 * that are not dice. The reader's boxes where no die lies are mostly unread: on the 276 dicegen
 * kit-art selection scenes (models/record/at-the-table.md, "Symbol dice at the table") 82% of them could
 * not be read, against 23% of the real dice found; there this leaves out 40 false boxes and 5
 * real dice, each of those in a read already wrong (a false box read as a die in its place).
 */
export function unreadDiceCounted(faces: readonly (DieToken | null)[], counts: readonly number[]): number {
  const read = faces.filter((f) => f !== null).length;
  return counts.includes(read) ? 0 : faces.length - read;
}

/**
 * What a settled read (its dice, left to right) proposes: the dice it keeps, their faces, how many
 * dice could not be read (`unreadDiceCounted`: none when the faces read are already as many dice
 * as the roll awaited shows, `counts`), and the face left out, if any. When every die found was read and
 * there is exactly one more than the roll can show (the largest of `counts`), the game knows one
 * is not its die: most often a side face or a shadow found as a die, and the detector's least
 * sure. That one is left out and named to the player beside the roll (`leftOut`), in case it was
 * a die. Two or more too many, or dice found but not read beside them, are mostly real dice lying
 * in view (another game's dice): then nothing is left out and the rules refuse the count. Chosen on
 * selection reads at the table (`npm run eval:live`; models/record/at-the-table.md, "One face too many").
 */
export function cameraProposal<D extends { face: DieToken | null; score: number }>(
  dice: readonly D[],
  counts: readonly number[] = [],
): { dice: D[]; seen: DieToken[]; unread: number; leftOut: DieToken | null } {
  const most = counts.length ? Math.max(...counts) : Infinity;
  const oneTooMany = dice.every((d) => d.face !== null) && dice.length === most + 1;
  const dropped = oneTooMany ? dice.reduce((least, d) => (d.score < least.score ? d : least)) : null;
  const kept = dice.filter((d) => d !== dropped);
  const faces = kept.map((d) => d.face);
  const unread = unreadDiceCounted(faces, counts);
  return {
    dice: kept.filter((d) => d.face !== null || unread > 0),
    seen: faces.filter((f): f is DieToken => f !== null),
    unread,
    leftOut: dropped?.face ?? null,
  };
}

/**
 * What a photo of the roll proposes (the table's "Photo of the dice": the phone's own camera app
 * when the live camera cannot help): its dice read once, in reading order, proposed as a settled
 * read is (`cameraProposal`, with the roll's `counts`, `countsInView`).
 */
export function photoProposal(dice: readonly ReadDie[], counts: readonly number[]): ReturnType<typeof cameraProposal<TrackedDie<DieToken>>> {
  return cameraProposal(readingOrder(dice.map((d): TrackedDie<DieToken> => ({ box: d.box, face: d.token, score: d.score }))), counts);
}

/**
 * What a roll confirmed exactly as read teaches the reader (learning from play): each proposed die
 * as its last frame read it (`lastRead`, by the box the tracker carries), when that read is the
 * face the frames voted for (`readsAs`); a die the vote corrected is left out. The table camera
 * and `npm run eval:live -- --learn` both choose the dice this way.
 */
export function diceToLearn<F, R>(
  dice: readonly { box: Box; face: F | null }[],
  lastRead: (box: Box) => R | undefined,
  readsAs: (read: R, face: F) => boolean,
): R[] {
  return dice.flatMap((d) => {
    const read = lastRead(d.box);
    return read !== undefined && d.face !== null && readsAs(read, d.face) ? [read] : [];
  });
}

/**
 * What a camera read or a photo teaches the reader once its roll is confirmed (learning from play): `asRead`
 * when it is confirmed exactly as read (`diceToLearn`), `filledAs` when the player's only change
 * was filling every `?` with the same face (`unreadToLearn`, `filledAllAs`). Either may be null.
 */
export interface ReadLearning<F> {
  asRead: (() => void) | null;
  filledAs: ((face: F) => void) | null;
}

/** A die as the reader read it, for learning: the face id read and the vector it was read by (`KitDie`). */
export interface LearnableDie {
  faceId: string;
  embedding: Float32Array;
}

/**
 * What confirming a read teaches the reader (`ReadLearning`), for the live camera (each die as
 * its last frame read it) and a photo of the roll (its one read) alike: `lastRead` and
 * `lastUnread` give, by a proposed die's box, its face read with its vector, or the vector of a
 * die not read; `faceIdOf` turns a face the player filled in into the kit's face id; `teach`
 * hands the dice to the reader.
 */
export function readLearning(
  dice: readonly { box: Box; face: DieToken | null }[],
  lastRead: (box: Box) => LearnableDie | undefined,
  lastUnread: (box: Box) => Float32Array | undefined,
  faceIdOf: (face: DieToken) => string | undefined,
  teach: (dice: LearnableDie[]) => void,
): ReadLearning<DieToken> {
  const asRead = diceToLearn(dice, lastRead, (read, face) => faceIdOf(face) === read.faceId);
  const unread = unreadToLearn(dice, lastUnread);
  return {
    asRead: asRead.length > 0 ? () => teach(asRead) : null,
    filledAs:
      unread.length > 0
        ? (face) => {
            const faceId = faceIdOf(face);
            if (faceId !== undefined) teach(unread.map((embedding) => ({ faceId, embedding })));
          }
        : null,
  };
}

/**
 * The dice a proposal shows as `?` (face null), each as its last frame embedded it (`lastRead`,
 * by the box the tracker carries): what the face the player fills them with teaches. Empty
 * unless there is one and every one has its vector.
 */
export function unreadToLearn<R>(dice: readonly { box: Box; face: unknown }[], lastRead: (box: Box) => R | undefined): R[] {
  const reads = dice.filter((d) => d.face === null).map((d) => lastRead(d.box));
  return reads.every((r) => r !== undefined) ? (reads as R[]) : [];
}

/**
 * The face a camera proposal's `?` dice were all filled with, when that was the only change:
 * every `?` filled (`unreadLeft` 0), nothing else corrected, dropped or added (`otherChange`),
 * and all with one face. Otherwise null: which `?` was which face cannot be told.
 */
export function filledAllAs<F>(filled: readonly F[], unreadLeft: number, otherChange: boolean): F | null {
  if (otherChange || unreadLeft > 0 || filled.length === 0) return null;
  return filled.every((f) => f === filled[0]) ? filled[0]! : null;
}

/**
 * Below this share of the frame's long side (the median box of the dice found), dice are often
 * missed: in the 15 held-out photos whose dice measure under 5%, the reader's first frame found
 * 64% of the dice; in the others, 93–100%.
 */
export const SMALL_DIE_SHARE = 0.05;

/**
 * True when the dice in view are, by their median, smaller than `share` of the frame's long
 * side: the player should hold the phone closer, or some dice will go unseen.
 */
export function diceLookSmall(dice: readonly { box: Box }[], frame: { width: number; height: number }, share = SMALL_DIE_SHARE): boolean {
  const long = Math.max(frame.width, frame.height);
  if (dice.length === 0 || long <= 0) return false;
  return median(dice.map((d) => Math.max(d.box.w, d.box.h))) < share * long;
}

/** " They look small: hold the phone closer." when `diceLookSmall`, else ''; `count`: the dice the sentence speaks of. */
export function smallDiceHint(dice: readonly { box: Box }[], frame: { width: number; height: number }, count = dice.length): string {
  return diceLookSmall(dice, frame) ? ` ${count === 1 ? 'It looks' : 'They look'} small: hold the phone closer.` : '';
}

/**
 * How near the frame's edge a die's box may come, as a share of its long side, before the die is
 * taken as cut by the edge. On the held-out photos as the camera gives them (framed by their
 * photographers), 6 of the 465 dice read lie this near it (two close-ups), the next 0.15 of a die
 * away; a die cut by the edge with 30–70% of it in view is read (when found) this near it 98% of
 * the time (models/record/at-the-table.md, "A die cut by the frame's edge").
 */
export const CUT_DIE_GAP = 0.05;

/** Which edges of `frame` `box` reaches within `CUT_DIE_GAP` of its long side (a pixel at least): across (left, right) and down (top, bottom). */
function edgesReached(box: Box, frame: FrameSize, gap: number): { across: boolean; down: boolean } {
  const margin = Math.max(1, gap * Math.max(box.w, box.h));
  return { across: box.x <= margin || box.x + box.w >= frame.width - margin, down: box.y <= margin || box.y + box.h >= frame.height - margin };
}

/** True when `box` reaches an edge of `frame` (`edgesReached`): the die may lie partly out of the picture. */
export function cutByFrameEdge(box: Box, frame: FrameSize, gap = CUT_DIE_GAP): boolean {
  const { across, down } = edgesReached(box, frame, gap);
  return across || down;
}

/**
 * How much of a die lies in view, 0–1: 1 unless its box reaches an edge of the frame
 * (`cutByFrameEdge`); then its side across that edge against the same side of the dice in view
 * not cut (`fellows`, their median: dice on a table look alike), or, with none, against its own
 * side along the edge. A die cut at a corner shows the less of the two.
 */
export function shareInView(box: Box, fellows: readonly Box[], frame: FrameSize): number {
  const { across, down } = edgesReached(box, frame, CUT_DIE_GAP);
  if (!across && !down) return 1;
  const whole = fellows.filter((b) => !cutByFrameEdge(b, frame));
  const width = whole.length ? median(whole.map((b) => b.w)) : box.h;
  const height = whole.length ? median(whole.map((b) => b.h)) : box.w;
  return Math.min(1, ...(across ? [box.w / width] : []), ...(down ? [box.h / height] : []));
}

/**
 * Below this share of a die in view (`shareInView`) the table asks for its face rather than propose
 * the face read: half in view, a die found is read wrong, surely, one time in five. Chosen at the
 * table on the held-out photos with a die cut to 0.3, 0.5, 0.7 and 0.85 of its box in view (`npm run eval:live --
 * --holdout --cut F`): the fewest rolls to mend (a right roll asked for, or a wrong one a player
 * could confirm) over the four (models/record/at-the-table.md, "A die cut by the frame's edge").
 */
export const CUT_DIE_SHOWN = 0.5;

/** True when the table asks for the face of the die at `box` of `boxes` (every die in the frame), cut by the frame's edge (`CUT_DIE_SHOWN`). */
export function cutDieAskedFor(box: Box, boxes: readonly Box[], frame: FrameSize): boolean {
  return shareInView(box, boxes.filter((b) => b !== box), frame) < CUT_DIE_SHOWN;
}

/**
 * The value the table proposes for each die of one frame's pip read: the value read, unless the
 * reader doubts it (`proposedValue`) or the die lies cut by the frame's edge (`cutDieAskedFor`);
 * then null, asked for. What the kit reader proposes of pips (kit-reader.ts), measured as the
 * table reads by `npm run eval:live` and, for a photo of the roll, `npm run eval -- --count-known`.
 */
export function valuesProposed<V>(dice: readonly { box: Box; value: V | null; unsure?: true }[], frame: FrameSize): (V | null)[] {
  const boxes = dice.map((d) => d.box);
  return dice.map((d) => (cutDieAskedFor(d.box, boxes, frame) ? null : proposedValue(d)));
}

/** " 1 die is cut by the edge of the picture: move the phone to take it in." when any of `dice` is (`cutByFrameEdge`), else ''. */
export function cutDiceHint(dice: readonly { box: Box }[], frame: FrameSize): string {
  if (frame.width <= 0 || frame.height <= 0) return '';
  const cut = dice.filter((d) => cutByFrameEdge(d.box, frame)).length;
  if (cut === 0) return '';
  return ` ${cut === 1 ? '1 die is' : `${cut} dice are`} cut by the edge of the picture: move the phone to take ${cut === 1 ? 'it' : 'them'} in.`;
}

/**
 * At this edge width or more (sharpness.ts `diceEdgeWidth`: the dice's median edge width, in die
 * sizes) the dice look blurred. Chosen by `npm run choose-blur-hint` on the held-out photos read
 * as the table reads them: the least width that calls at most 2% of the sharp ones blurred (1.6%,
 * 4 of 252 as taken or in dim light). It calls 21% of them blurred under shake, swing, defocus
 * or a poor camera, and a photo it calls blurred was read exactly 54% of the time, the others
 * 93% (models/record/at-the-table.md, "Blurred dice, told to the player").
 */
export const BLURRED_EDGE_WIDTH = 0.11;

/** The frames the blur is judged over (the latest), so one blurred frame of a hand's tremor does not call out. */
export const BLUR_FRAMES = 4;

/** `edgeWidths` (oldest first) with the newest frame's `edgeWidth` added, keeping the last `BLUR_FRAMES`. */
export function withLatestEdgeWidth(edgeWidths: readonly (number | null)[], edgeWidth: number | null): (number | null)[] {
  return [...edgeWidths.slice(1 - BLUR_FRAMES), edgeWidth];
}

/**
 * True when the dice of the latest frames (`edgeWidths`, oldest first; null: a frame with no die
 * to measure) look blurred: the median of the last `BLUR_FRAMES` measured reaches `width`, over
 * two frames at least.
 */
export function diceLookBlurred(edgeWidths: readonly (number | null)[], width = BLURRED_EDGE_WIDTH): boolean {
  const measured = edgeWidths.slice(-BLUR_FRAMES).filter((w): w is number => w !== null);
  return measured.length >= 2 && median(measured) >= width;
}

/** " They look blurred: hold the phone still, not too close, and let it focus." when `diceLookBlurred`, else ''; `count`: the dice the sentence speaks of. */
export function blurredDiceHint(edgeWidths: readonly (number | null)[], count: number): string {
  return diceLookBlurred(edgeWidths) ? ` ${count === 1 ? 'It looks' : 'They look'} blurred: hold the phone still, not too close, and let it focus.` : '';
}

/**
 * The Camera check's line on the reading pace: "3 frames a second reach the dice reader; each read
 * takes about 320 ms on this device." (`readMs`, the latest reads' median; null before the first).
 * One frame a second is said in the singular: a slow phone, or one busy loading, shows it.
 */
export function readPaceText(fps: number, readMs: number | null): string {
  const frames = `${fps} ${fps === 1 ? 'frame' : 'frames'} a second reach${fps === 1 ? 'es' : ''} the dice reader`;
  return `${frames}${readMs === null ? '' : `; each read takes about ${Math.round(readMs)} ms on this device`}.`;
}
