/**
 * The settle tracker: fed the dice the detector sees in each camera frame, it proposes a roll
 * once the same dice have shown the same faces, without moving, for `settleMs`.
 *
 * - A change (a die arriving, leaving or moving) counts only once it has been seen in
 *   `confirmFrames` consecutive frames, so one flickering frame or box jitter does not restart
 *   the read.
 * - A still die's face is voted: it shows the face read in most frames since it came to rest,
 *   so a reader that hesitates between two faces neither holds the read back nor restarts it;
 *   only a new face read in `turnFrames` consecutive frames (a die turned by hand) is a new read.
 *   A die missing from a single frame, or a box seen in one, does not hold the read back either,
 *   and the read proposes the dice seen in at least half its frames.
 * - Movement is measured against the camera's own: a phone held by hand shifts, turns and
 *   zooms the whole picture, so each die is compared with where the camera's motion (fitted to
 *   all the dice) would have taken it. A lone die cannot be told from the camera, so it is
 *   measured as it is.
 * - A frame of another size is the camera changing its frames, not the dice moving: a phone
 *   delivers them the way it is held, the table framed anew (or turned) in them. What the tracker
 *   knows is carried into the new frame by the way and the hand's shift that lay the dice known on
 *   the dice seen (`turnedFrame`); at the same size, when such a move lays every die (a locked
 *   screen turned, a phone moved far).
 * - The last proposal's dice, faces and layout moved by any turn, shift and zoom of the camera
 *   (three dice or more: `sameLayoutMoved`) are the same read, not a throw; and so are its faces
 *   wherever they lie, read within `TURNED_SAME_FACES_MS` of the phone turning (the frames changing
 *   size, or `phoneTurned`: one or two dice lost as the phone turned, found again).
 * - Each read proposes once. A configuration equal to the last proposal is never proposed
 *   again: not after a hand passes over the dice (same faces, same places), nor after a die is
 *   nudged or lost by the detector for a moment (the same dice, same faces: a die seen again
 *   within `returnMs` where it was lost is the same die), nor when a die lost long enough for a
 *   read without it comes back where it lay (equal to the proposal before the last). Picking
 *   dice up and rolling again (dice leave and come back elsewhere or showing other faces) starts
 *   a new read that will be proposed.
 *
 * Pure: no DOM, no clock (time comes with each frame), no knowledge of games.
 */

/** A box in any consistent unit (frame pixels, or 0–1): top-left corner and size. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One die as the detector saw it in one frame. `face` is null when it could not be read. */
export interface DieDetection<F> {
  box: Box;
  face: F | null;
  score: number;
}

export interface DetectionFrame<F> {
  /** Frame time in ms (any monotonic origin, e.g. performance.now() or video time). */
  t: number;
  dice: readonly DieDetection<F>[];
  /**
   * The frame's size, in the boxes' unit. When it changes the camera changed its frames (a phone
   * delivers them the way it is held): what the tracker knows is carried into the new frame
   * (`turnedFrame`), so dice lying still are not taken for dice thrown. Without it the tracker
   * looks for no move of the camera frame by frame.
   */
  size?: FrameSize;
}

export interface FrameSize {
  width: number;
  height: number;
}

/** Maps a box of the frames before a turn into the frame after it. */
export type BoxMap = (box: Box) => Box;

export interface SettleOptions {
  /** How long the dice must stay the same before a roll is proposed (ms). */
  settleMs: number;
  /** How many consecutive frames a change must show in before it counts. */
  confirmFrames: number;
  /** How many consecutive frames a still die must show a new face in to count as turned (a new read). */
  turnFrames: number;
  /** A die has moved when its centre is further than this × its size from where it settled. */
  moveTolerance: number;
  /**
   * The camera's own motion, in die sizes since the read began, taken for a hand's shake and
   * subtracted from the dice's; beyond it, dice moving together are dice moving. A die seen
   * alone may wander this far from where it settled, in steps under `moveTolerance`.
   */
  maxCameraShake: number;
  /** A detection is the same die as a tracked one when their centres are within this × die size. */
  matchDistance: number;
  /**
   * Frames further apart than this (a paused camera) restart the settle clock (ms), where the gap is
   * also `PAUSE_PACE_FACTOR` times the reader's own pace (its recent gaps): a slow phone reading
   * each frame in over a second sees the dice still from frame to frame, and is no paused camera.
   */
  maxGapMs: number;
  /**
   * A die that left and is seen again within this long (ms), within `matchDistance` of where it
   * was last seen and showing the same face, is the same die come back: a box the detector lost
   * for a moment, not a die picked up and thrown (no hand throws a die in that time).
   */
  returnMs: number;
}

const DEFAULT_SETTLE_OPTIONS: Readonly<SettleOptions> = {
  settleMs: 600,
  confirmFrames: 2,
  turnFrames: 6,
  moveTolerance: 0.25,
  maxCameraShake: 1,
  matchDistance: 1,
  maxGapMs: 1000,
  returnMs: 400,
};

/**
 * - `empty`: no dice on the table;
 * - `moving`: what the camera sees right now differs from the tracked dice (waiting to see whether
 *   it is a flicker or a change);
 * - `settling`: the dice are still; `progress` runs from 0 to 1;
 * - `settled`: this read has been proposed (or equals the last proposal).
 */
export type SettlePhase = 'empty' | 'moving' | 'settling' | 'settled';

export interface TrackedDie<F> {
  box: Box;
  face: F | null;
  score: number;
}

export interface ProposedRoll<F> {
  /** Counts proposals from 1; a new id is a new roll. */
  id: number;
  /** Time of the frame that settled it. */
  t: number;
  /** The dice, left to right (then top to bottom). */
  dice: TrackedDie<F>[];
}

export interface SettleUpdate<F> {
  phase: SettlePhase;
  /** Settle progress of the current read, 0–1 (1 once settled). */
  progress: number;
  /** The dice as tracked now, left to right. */
  dice: TrackedDie<F>[];
  /** The roll proposed by THIS frame, or null. Each roll is reported exactly once. */
  proposal: ProposedRoll<F> | null;
  /** The latest roll proposed, if any. */
  lastProposal: ProposedRoll<F> | null;
  /**
   * Nothing in this frame differs from the dice tracked: every die seen where it lay, showing the
   * face it shows, and no new box. A table settled (or empty) and quiet can be read less often.
   */
  quiet: boolean;
  /**
   * When the camera moved in this frame past what the tracker follows frame to frame (its frames
   * changed size as a phone turned; or a turn or far shift of the picture lays every die): how
   * boxes of the frames before map into it, as the tracker carried its own dice over. Whoever
   * keeps boxes of earlier frames (the table's last layout, `layoutInFrame`) maps them with it.
   * Null otherwise.
   */
  turned: BoxMap | null;
}

export interface Point {
  x: number;
  y: number;
}

interface Track<F> {
  /** Which die this is: kept by a die the detector lost for a moment and found again. */
  id: number;
  /** Whether it is a die come back (`returnMs`) not yet still through a read; if it moves, it was thrown after all. */
  returned: boolean;
  box: Box;
  face: F | null;
  score: number;
  /** Where the die lay when the current read began. */
  anchor: Point;
  /** A different face seen in the latest consecutive frames, and how many. */
  pendingFace: { face: F | null; frames: number } | null;
  /** Consecutive frames seen away from the anchor. */
  movingFrames: number;
  /** Consecutive frames not seen. */
  missingFrames: number;
  /** Frames each face was read in since the die came to rest. */
  votes: Map<F | null, number>;
  /** Frames of the current read, and those the die was seen in. */
  frames: number;
  seenFrames: number;
}

interface Candidate<F> {
  box: Box;
  face: F | null;
  score: number;
  frames: number;
}

/** The middle of a box. */
export const centre = (b: Box): Point => ({ x: b.x + b.w / 2, y: b.y + b.h / 2 });
const size = (b: Box): number => Math.max(b.w, b.h, 1e-9);
const distance = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);

/** The middle value, or the mean of the middle two (with two dice, the camera's shift is their mean). */
export function median(values: readonly number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
}

/** The similarity (scale, turn, shift) taking `from` nearest to `to` in least squares, as a map. */
function fitSimilarity(from: readonly Point[], to: readonly Point[]): (p: Point) => Point {
  const n = from.length;
  const fx = from.reduce((t, p) => t + p.x, 0) / n;
  const fy = from.reduce((t, p) => t + p.y, 0) / n;
  const tx = to.reduce((t, p) => t + p.x, 0) / n;
  const ty = to.reduce((t, p) => t + p.y, 0) / n;
  // the complex ratio z = Σ (to − t̄) · conj(from − f̄) / Σ |from − f̄|²
  let re = 0;
  let im = 0;
  let norm = 0;
  for (let k = 0; k < n; k++) {
    const px = from[k]!.x - fx;
    const py = from[k]!.y - fy;
    const qx = to[k]!.x - tx;
    const qy = to[k]!.y - ty;
    re += qx * px + qy * py;
    im += qy * px - qx * py;
    norm += px * px + py * py;
  }
  const [a, b] = norm > 0 ? [re / norm, im / norm] : [1, 0];
  return (p) => ({ x: tx + a * (p.x - fx) - b * (p.y - fy), y: ty + b * (p.x - fx) + a * (p.y - fy) });
}

/**
 * Where each die would be now had only the camera moved since the dice were anchored: the
 * anchors carried by the camera's motion as the dice show it. One die: its anchor (a lone die
 * cannot be told from the camera). Two or three dice: the median shift, so one die moving
 * among three shows as moving. Four or more: a similarity (shift, turn, zoom) chosen by
 * consensus — of the motions taking one pair of dice exactly, the one that most dice follow to
 * within `inlier` — then fitted to those dice; dice that really moved stay out of the fit.
 * When fewer than half the dice follow any motion, or the motion carries the dice further
 * than `maxShake` (dice thrown together, not a hand's shake), the anchors are returned unmoved.
 * Distances are in the points' unit.
 */
export function cameraExpectation(anchors: readonly Point[], now: readonly Point[], inlier = Infinity, maxShake = Infinity): Point[] {
  if (anchors.length !== now.length) throw new RangeError(`${anchors.length} anchors but ${now.length} positions`);
  const n = anchors.length;
  const unmoved = [...anchors];
  const within = (expected: Point[]): Point[] => (median(expected.map((p, k) => distance(p, anchors[k]!))) <= maxShake ? expected : unmoved);
  if (n < 2) return unmoved;
  if (n <= 3) {
    const dx = median(anchors.map((a, k) => now[k]!.x - a.x));
    const dy = median(anchors.map((a, k) => now[k]!.y - a.y));
    return within(anchors.map((a) => ({ x: a.x + dx, y: a.y + dy })));
  }
  let best: number[] = [];
  let bestOff = Infinity;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const camera = fitSimilarity([anchors[i]!, anchors[j]!], [now[i]!, now[j]!]);
      const off = anchors.map((a, k) => distance(camera(a), now[k]!));
      const followers = off.flatMap((d, k) => (d <= inlier ? [k] : []));
      const total = followers.reduce((t, k) => t + off[k]!, 0);
      if (followers.length > best.length || (followers.length === best.length && total < bestOff)) {
        best = followers;
        bestOff = total;
      }
    }
  }
  if (best.length * 2 < n) return unmoved;
  const camera = best.length >= 3 ? fitSimilarity(best.map((k) => anchors[k]!), best.map((k) => now[k]!)) : fitSimilarity(anchors, now);
  return within(anchors.map(camera));
}

/** The face read most often (the current one on a tie). */
function votedFace<F>(votes: ReadonlyMap<F | null, number>, current: F | null): F | null {
  let best = current;
  let most = votes.get(current) ?? 0;
  for (const [face, n] of votes) {
    if (n > most) {
      best = face;
      most = n;
    }
  }
  return best;
}

/** Pairs items of `a` with items of `b` nearest first, each pair within `limit` die sizes and allowed by `may`. */
function matchBoxes(a: readonly Box[], b: readonly Box[], limit: number, may: (i: number, j: number) => boolean = () => true): Map<number, number> {
  const pairs: { i: number; j: number; d: number }[] = [];
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      if (!may(i, j)) continue;
      const boxA = a[i]!;
      const boxB = b[j]!;
      const d = distance(centre(boxA), centre(boxB)) / Math.max(size(boxA), size(boxB));
      if (d <= limit) pairs.push({ i, j, d });
    }
  }
  pairs.sort((p, q) => p.d - q.d);
  const matched = new Map<number, number>();
  const usedB = new Set<number>();
  for (const { i, j } of pairs) {
    if (matched.has(i) || usedB.has(j)) continue;
    matched.set(i, j);
    usedB.add(j);
  }
  return matched;
}

/** Dice in the order players read them: left to right by their centres, then top to bottom. */
export function readingOrder<D extends { box: Box }>(dice: readonly D[]): D[] {
  return [...dice].sort((p, q) => centre(p.box).x - centre(q.box).x || centre(p.box).y - centre(q.box).y);
}

/**
 * The same dice by identity (`returnMs`: a die lost and found again keeps its id), each showing
 * the face it showed in `before` or unread now (the same die, doubted where it lies).
 */
function sameDiceAndFaces<F>(before: ReadonlyMap<number, F | null>, now: ReadonlyMap<number, F | null>): boolean {
  if (before.size !== now.size) return false;
  for (const [id, face] of before) if (!now.has(id) || (now.get(id) !== face && now.get(id) !== null)) return false;
  return true;
}

/** The same number of dice showing the same faces, wherever they lie. */
function sameFaces<F>(a: readonly TrackedDie<F>[], b: readonly TrackedDie<F>[]): boolean {
  if (a.length !== b.length) return false;
  const left = b.map((d) => d.face);
  for (const d of a) {
    const k = left.indexOf(d.face);
    if (k < 0) return false;
    left.splice(k, 1);
  }
  return true;
}

/**
 * How long after the phone turned (the camera's frames changing size as its screen rotates, or its
 * orientation sensor, `phoneTurned`) a read of the last proposal's faces is taken for the same dice,
 * wherever they lie. A phone turning loses one or two dice on the way, whose layout no move can
 * tell from a throw (`sameLayoutMoved` needs three), and nobody throws while turning the phone. Chosen on the held-out rests with the phone
 * turned (`npm run eval:live -- --reads F --rests`; models/record/at-the-table.md, "The phone turned").
 */
export const TURNED_SAME_FACES_MS = 3000;

/** Same faces at the same places (within the move tolerance): a hand passed over, nothing else. */
function sameLayout<F>(a: readonly TrackedDie<F>[], b: readonly TrackedDie<F>[], tolerance: number): boolean {
  if (a.length !== b.length) return false;
  const pairs = matchBoxes(
    a.map((d) => d.box),
    b.map((d) => d.box),
    tolerance,
  );
  if (pairs.size !== a.length) return false;
  for (const [i, j] of pairs) if (a[i]!.face !== b[j]!.face) return false;
  return true;
}

/**
 * The four ways the picture of a frame of size `from` can lie in a frame of size `to` after the
 * camera changed its frames: turned about its centre by none, a quarter turn clockwise, a half turn
 * or a quarter turn anticlockwise, scaled by the ratio of the frames' long sides (the same camera
 * at another resolution), its centre on the new frame's centre. A phone that auto-rotates keeps the
 * table upright on screen, so when it is turned on its side its picture is only framed anew (none);
 * frames turned with the camera are the others.
 */
export function quarterTurns(from: FrameSize, to: FrameSize): BoxMap[] {
  const scale = Math.max(to.width, to.height) / Math.max(from.width, from.height);
  const turn: ((x: number, y: number) => [number, number])[] = [
    (x, y) => [x, y],
    (x, y) => [-y, x],
    (x, y) => [-x, -y],
    (x, y) => [y, -x],
  ];
  return turn.map((rotate) => (box) => {
    const [x1, y1] = rotate(box.x - from.width / 2, box.y - from.height / 2);
    const [x2, y2] = rotate(box.x + box.w - from.width / 2, box.y + box.h - from.height / 2);
    return {
      x: to.width / 2 + Math.min(x1, x2) * scale,
      y: to.height / 2 + Math.min(y1, y2) * scale,
      w: Math.abs(x2 - x1) * scale,
      h: Math.abs(y2 - y1) * scale,
    };
  });
}

/** The most dice tracked for which a turn or a far shift of the picture is looked for at the same frame size, in every frame that misses one of them where it lay (the search grows as the fourth power of the dice). */
const MOVE_SEARCH_MAX_DICE = 12;
/** How far (in die sizes) the dice may seem to have shifted over a turn: the hand that turns the phone moves it too. */
const TURN_MATCH_DISTANCE = 3;
/** Once the hand's shift is taken off, how near (in die sizes) a die known must land on a die seen to count as laid on it. */
const TURN_FIT_DISTANCE = 0.5;

/**
 * How the dice known before the camera changed its frames (`known`, in the old frame's boxes) lie
 * in the frame after it (`seen`). Each way (`quarterTurns`) is tried with each shift that lays
 * one known die on a die seen with the same face (or one unread) within `TURN_MATCH_DISTANCE`
 * (the hand turning a phone moves it as well); kept is the turn and shift that lays the most
 * known dice on dice seen, ties to the closer fit (so none, the picture framed anew, when the dice
 * cannot tell), its shift then the median of the dice laid. With no die laid, none.
 */
export function turnedFrame<F>(known: readonly { box: Box; face: F | null }[], seen: readonly { box: Box; face: F | null }[], from: FrameSize, to: FrameSize): BoxMap {
  return bestTurn(known, seen, quarterTurns(from, to)).map;
}

/** `turnedFrame` over the given turns: the map, and how many known dice it lays on dice seen. */
function bestTurn<F>(known: readonly { box: Box; face: F | null }[], seen: readonly { box: Box; face: F | null }[], turns: readonly BoxMap[]): { map: BoxMap; laid: number } {
  const sameFace = (i: number, j: number) => known[i]!.face === seen[j]!.face || known[i]!.face === null || seen[j]!.face === null;
  const seenBoxes = seen.map((d) => d.box);
  const seenCentres = seenBoxes.map(centre);
  const shifted = (turn: BoxMap, dx: number, dy: number): BoxMap => (box) => {
    const b = turn(box);
    return { ...b, x: b.x + dx, y: b.y + dy };
  };
  let best: { map: BoxMap; laid: number; off: number } = { map: turns[0]!, laid: 0, off: Infinity };
  for (const turn of turns) {
    const turned = known.map((d) => turn(d.box));
    for (const [i, a] of turned.entries()) {
      for (const [j, b] of seenCentres.entries()) {
        const at = centre(a);
        if (!sameFace(i, j) || distance(at, b) / Math.max(size(a), size(seenBoxes[j]!)) > TURN_MATCH_DISTANCE) continue;
        const trial = turned.map((box) => ({ ...box, x: box.x + b.x - at.x, y: box.y + b.y - at.y }));
        const laid = [...matchBoxes(trial, seenBoxes, TURN_FIT_DISTANCE, sameFace)];
        if (laid.length < best.laid) continue;
        // the shift that lays them all best: their median
        const dx = b.x - at.x + median(laid.map(([k, l]) => seenCentres[l]!.x - centre(trial[k]!).x));
        const dy = b.y - at.y + median(laid.map(([k, l]) => seenCentres[l]!.y - centre(trial[k]!).y));
        const map = shifted(turn, dx, dy);
        const off = laid.reduce((total, [k, l]) => total + distance(centre(map(known[k]!.box)), seenCentres[l]!), 0);
        if (laid.length > best.laid || off < best.off) best = { map, laid: laid.length, off };
      }
    }
  }
  return { map: best.map, laid: best.laid };
}

/** The scale a camera's move may change the dice by between two reads and still be the same layout. */
const MOVED_LAYOUT_SCALE = 1.25;
/**
 * How near (in die sizes) each die must lie to where the camera's move takes it. Tighter than a
 * turn's fit: the same faces thrown again must not pass for the same layout (held-out throws at one
 * table: 0.5 took 26 of matteop65's 3,422 for the last read, all of dice showing one value, 0.3 took 14).
 */
const MOVED_LAYOUT_TOLERANCE = 0.3;

/**
 * The same dice showing the same faces in the same layout, wherever the camera has gone since: a
 * turn by any angle, a shift and a zoom (within `MOVED_LAYOUT_SCALE`) lays every die of `a` on a die
 * of `b` showing its face, within `tolerance` die sizes. Three dice or more: two dice always lie
 * alike up to a turn, so for two this would take any throw of the same faces, at the same distance
 * apart, for the same roll. No throw lands three dice so.
 */
export function sameLayoutMoved<F>(a: readonly TrackedDie<F>[], b: readonly TrackedDie<F>[], tolerance = MOVED_LAYOUT_TOLERANCE): boolean {
  const n = a.length;
  if (n < 3 || b.length !== n) return false;
  // the two dice of `a` furthest apart fix the motion best
  let [p, q] = [0, 1];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (distance(centre(a[i]!.box), centre(a[j]!.box)) > distance(centre(a[p]!.box), centre(a[q]!.box))) [p, q] = [i, j];
  const from = [centre(a[p]!.box), centre(a[q]!.box)];
  const span = distance(from[0]!, from[1]!);
  if (span === 0) return false;
  const sameFace = (i: number, j: number) => a[i]!.face === b[j]!.face;
  for (let j = 0; j < n; j++) {
    if (!sameFace(p, j)) continue;
    for (let k = 0; k < n; k++) {
      if (k === j || !sameFace(q, k)) continue;
      const to = [centre(b[j]!.box), centre(b[k]!.box)];
      const scale = distance(to[0]!, to[1]!) / span;
      if (scale > MOVED_LAYOUT_SCALE || scale < 1 / MOVED_LAYOUT_SCALE) continue;
      const camera = fitSimilarity(from, to);
      const moved = a.map((d) => {
        const c = camera(centre(d.box));
        return { ...d.box, x: c.x - d.box.w / 2, y: c.y - d.box.h / 2 };
      });
      if (matchBoxes(moved, b.map((d) => d.box), tolerance, sameFace).size === n) return true;
    }
  }
  return false;
}

/**
 * A gap in frames is a pause (`maxGapMs`) only when it is this many times the median of the last
 * `PACE_GAPS` gaps, the reader's own pace: without it a phone whose reads took over `maxGapMs`
 * restarted the settle clock at every frame and never proposed a roll.
 */
const PAUSE_PACE_FACTOR = 3;
const PACE_GAPS = 5;

export class SettleTracker<F = string> {
  private options: SettleOptions;
  private tracks: Track<F>[] = [];
  private candidates: Candidate<F>[] = [];
  private stableSince: number | null = null;
  private lastT: number | null = null;
  /** The last `PACE_GAPS` gaps between frames (ms): the reader's pace, which a pause stands out from. */
  private gaps: number[] = [];
  /** Whether the current read has been proposed (or found equal to the last proposal). */
  private done = false;
  /** Dice that left lately, any of which may come back (`returnMs`). */
  private departed: { id: number; box: Box; face: F | null; t: number }[] = [];
  /** The last two proposals' dice, and each die's face by its id: a read equal to either is not proposed again. */
  private recent: { dice: TrackedDie<F>[]; faces: Map<number, F | null> }[] = [];
  private last: ProposedRoll<F> | null = null;
  /** The size of the latest frame that gave one. */
  private frameSize: FrameSize | null = null;
  /** When the phone last turned: the frames changed size, or `phoneTurned` (`TURNED_SAME_FACES_MS`). */
  private turnedAt: number | null = null;
  private nextId = 1;
  private nextDieId = 1;

  constructor(options: Partial<SettleOptions> = {}) {
    this.options = { ...DEFAULT_SETTLE_OPTIONS, ...options };
  }

  setOptions(options: Partial<SettleOptions>): void {
    this.options = { ...this.options, ...options };
  }

  /** Forgets everything, the last proposal included: what lies on the table will be proposed again. */
  reset(): void {
    this.tracks = [];
    this.candidates = [];
    this.stableSince = null;
    this.lastT = null;
    this.gaps = [];
    this.done = false;
    this.departed = [];
    this.recent = [];
    this.last = null;
    this.frameSize = null;
    this.turnedAt = null;
  }

  /**
   * The phone turned at `t` (the frames' clock), as its orientation sensor tells (app/phoneTurn.ts):
   * a turn the frames do not show by their size (a locked screen, a phone held flat).
   */
  phoneTurned(t: number): void {
    this.turnedAt = t;
  }

  get lastProposal(): ProposedRoll<F> | null {
    return this.last;
  }

  /** The id of a die that left lately where `det` is now, showing its face (`returnMs`), or null; it is taken. */
  private cameBack(det: DieDetection<F>, t: number): number | null {
    const { returnMs, matchDistance } = this.options;
    this.departed = this.departed.filter((d) => t - d.t <= returnMs);
    let best = -1;
    let bestDistance = Infinity;
    for (const [k, d] of this.departed.entries()) {
      if (d.face !== det.face && d.face !== null && det.face !== null) continue;
      const away = distance(centre(d.box), centre(det.box)) / Math.max(size(d.box), size(det.box));
      if (away <= matchDistance && away < bestDistance) {
        best = k;
        bestDistance = away;
      }
    }
    if (best < 0) return null;
    const [back] = this.departed.splice(best, 1);
    return back!.id;
  }

  /**
   * When the camera turned, every box the tracker keeps (its dice, the boxes not yet dice, the
   * dice that left lately, the last proposals) is carried into the new frame, and the map is
   * returned (null when it did not turn). It turned when `frame`'s size differs from the last
   * frame's (a quarter turn: `turnedFrame`, going by the dice tracked, else by the last proposal;
   * a frame without dice puts the choice off), or, at the same size, when some die tracked is not
   * where it lay but a turn of the picture (a phone whose screen does not rotate, turned) or a shift
   * further than a shake (a phone moved, a tray pushed) lays every die tracked, two or more, on the
   * dice seen with their faces: no throw lands dice so. (Two dice turned over are two dice shifted.)
   */
  private carryOverTurn(frame: DetectionFrame<F>): BoxMap | null {
    const before = this.frameSize;
    const now = frame.size;
    if (!now) return null;
    const resized = before !== null && (before.width !== now.width || before.height !== now.height);
    if (resized) this.turnedAt = frame.t;
    if (resized && frame.dice.length === 0) return null;
    this.frameSize = { width: now.width, height: now.height };
    let map: BoxMap | null = null;
    if (resized) {
      map = turnedFrame(this.tracks.length > 0 ? this.tracks : (this.recent[0]?.dice ?? []), frame.dice, before, now);
    } else if (this.tracks.length >= 2 && this.tracks.length <= MOVE_SEARCH_MAX_DICE && frame.dice.length >= this.tracks.length) {
      // most frames find every die where it lay: the turns are tried only when one is not
      const found = matchBoxes(this.tracks.map((t) => t.box), frame.dice.map((d) => d.box), this.options.matchDistance).size;
      if (found < this.tracks.length) {
        const moved = bestTurn(this.tracks, frame.dice, quarterTurns(now, now));
        if (moved.laid === this.tracks.length) map = moved.map;
      }
    }
    if (!map) return null;
    for (const track of this.tracks) {
      track.box = map(track.box);
      track.anchor = centre(map({ x: track.anchor.x, y: track.anchor.y, w: 0, h: 0 }));
    }
    for (const c of this.candidates) c.box = map(c.box);
    for (const d of this.departed) d.box = map(d.box);
    const carried = map;
    const mapDice = (dice: TrackedDie<F>[]) => dice.map((d) => ({ ...d, box: carried(d.box) }));
    this.recent = this.recent.map((r) => ({ dice: mapDice(r.dice), faces: r.faces }));
    if (this.last) this.last = { ...this.last, dice: mapDice(this.last.dice) };
    return map;
  }

  update(frame: DetectionFrame<F>): SettleUpdate<F> {
    const { confirmFrames, turnFrames, moveTolerance, maxCameraShake, matchDistance, maxGapMs, settleMs } = this.options;
    const t = frame.t;
    if (this.lastT !== null) {
      const gap = t - this.lastT;
      const pace = this.gaps.length > 0 ? median(this.gaps) : 0;
      if (gap > Math.max(maxGapMs, PAUSE_PACE_FACTOR * pace) && this.stableSince !== null) this.stableSince = t;
      this.gaps = [...this.gaps.slice(1 - PACE_GAPS), gap];
    }
    this.lastT = t;
    const turned = this.carryOverTurn(frame);

    let changed = false;
    /** Whether a die is moving in this frame (a change, or maybe box jitter). */
    let unsettledNow = false;
    /** Whether every tracked die was seen, still and showing its face, and no new box was. */
    let quiet = true;

    // 1. Match this frame's dice to the tracked dice.
    const detections = frame.dice;
    const matches = matchBoxes(
      this.tracks.map((tr) => tr.box),
      detections.map((d) => d.box),
      matchDistance,
    );
    const usedDetections = new Set(matches.values());
    const matched = [...matches.keys()];
    const expected = new Map(
      cameraExpectation(
        matched.map((i) => this.tracks[i]!.anchor),
        matched.map((i) => centre(detections[matches.get(i)!]!.box)),
        moveTolerance * median(matched.map((i) => size(this.tracks[i]!.box))),
        maxCameraShake * median(matched.map((i) => size(this.tracks[i]!.box))),
      ).map((p, k) => [matched[k]!, p]),
    );
    const kept: Track<F>[] = [];
    for (const [i, track] of this.tracks.entries()) {
      const j = matches.get(i);
      track.frames++;
      if (j === undefined) {
        // missing from a frame: still there (a hand, the reader missing it), not holding the read back
        quiet = false;
        track.missingFrames++;
        if (track.missingFrames >= confirmFrames) {
          changed = true;
          this.departed.push({ id: track.id, box: track.box, face: track.face, t });
          continue; // the die left
        }
        kept.push(track);
        continue;
      }
      const det = detections[j]!;
      const now = centre(det.box);
      // A die seen alone cannot be told from the camera: it is still while each frame moves it
      // less than the tolerance and it stays within a hand's shake of where it settled.
      const alone = matched.length === 1 && distance(now, track.anchor) / size(det.box) <= maxCameraShake;
      const from = alone ? centre(track.box) : expected.get(i)!;
      track.seenFrames++;
      track.missingFrames = 0;
      track.box = det.box;
      track.score = det.score;
      if (distance(now, from) / size(det.box) > moveTolerance) {
        track.movingFrames++;
        unsettledNow = true;
        quiet = false;
        if (track.movingFrames >= confirmFrames) {
          changed = true;
          track.votes = new Map(); // it moved: its earlier faces are no evidence
          if (track.returned) track.id = this.nextDieId++; // found again, then rolling: thrown
          track.returned = false;
        }
      } else {
        track.movingFrames = 0;
      }
      track.votes.set(det.face, (track.votes.get(det.face) ?? 0) + 1);
      if (det.face === track.face) {
        track.pendingFace = null;
      } else {
        quiet = false;
        track.pendingFace =
          track.pendingFace && track.pendingFace.face === det.face
            ? { face: det.face, frames: track.pendingFace.frames + 1 }
            : { face: det.face, frames: 1 };
        // read again and again: the die was turned, not misread; unless now unread (a hand turns a
        // die to a face, and the same die read, then doubted where it lies, is the reader's doubt)
        if (track.pendingFace.frames >= turnFrames && det.face !== null) {
          track.votes = new Map([[det.face, track.pendingFace.frames]]);
          track.pendingFace = null;
          changed = true;
        }
      }
      track.face = votedFace(track.votes, track.face);
      kept.push(track);
    }
    this.tracks = kept;

    // 2. Dice not matched to a track are candidates until seen in enough consecutive frames.
    const fresh = detections.filter((_, j) => !usedDetections.has(j));
    if (fresh.length > 0) quiet = false;
    const candidateMatches = matchBoxes(
      this.candidates.map((c) => c.box),
      fresh.map((d) => d.box),
      matchDistance,
    );
    const byDetection = new Map<number, Candidate<F>>();
    for (const [i, j] of candidateMatches) byDetection.set(j, this.candidates[i]!);
    const nextCandidates: Candidate<F>[] = [];
    for (const [j, det] of fresh.entries()) {
      // A die counts from its presence; its face is settled by the tracking that follows.
      const frames = (byDetection.get(j)?.frames ?? 0) + 1;
      if (frames >= confirmFrames) {
        const c = centre(det.box);
        const back = this.cameBack(det, t);
        this.tracks.push({
          id: back ?? this.nextDieId++,
          returned: back !== null,
          box: det.box,
          face: det.face,
          score: det.score,
          anchor: c,
          pendingFace: null,
          movingFrames: 0,
          missingFrames: 0,
          votes: new Map([[det.face, 1]]),
          frames: 1,
          seenFrames: 1,
        });
        changed = true;
      } else {
        nextCandidates.push({ box: det.box, face: det.face, score: det.score, frames });
      }
    }
    this.candidates = nextCandidates;

    // 3. A change starts a new read, anchored where the dice are now.
    if (changed) {
      this.done = false;
      this.stableSince = t;
      for (const track of this.tracks) {
        track.anchor = centre(track.box);
        track.movingFrames = 0;
        track.frames = 1;
        track.seenFrames = track.missingFrames === 0 ? 1 : 0;
      }
    }

    // the dice of the read: those seen in at least half its frames (not a box seen now and then)
    const inRead = this.tracks.filter((tr) => tr.seenFrames >= tr.frames / 2);
    const dice = readingOrder(inRead.map((tr) => ({ box: tr.box, face: tr.face, score: tr.score })));
    const base = { dice, lastProposal: this.last, quiet: quiet && !changed, turned };
    if (this.tracks.length === 0) {
      this.stableSince = null;
      this.done = false;
      // the table cleared: the dice were picked up, so only the last read can still be lying there
      this.recent = this.recent.slice(0, 1);
      return { ...base, phase: unsettledNow ? 'moving' : 'empty', progress: 0, proposal: null };
    }
    if (this.stableSince === null) this.stableSince = t;
    if (this.done) return { ...base, phase: 'settled', progress: 1, proposal: null };
    const progress = Math.min(1, (t - this.stableSince) / settleMs);
    if (progress < 1 || unsettledNow) {
      return { ...base, phase: unsettledNow ? 'moving' : 'settling', progress, proposal: null };
    }

    // 4. Settled: propose, unless this is the last proposal again.
    this.done = true;
    // a die come back that lay still through a read is the die it was; a later nudge is a nudge
    for (const track of this.tracks) track.returned = false;
    const faces = new Map(inRead.map((tr) => [tr.id, tr.face]));
    // the last proposal, or the one before it (a die lost long enough for a read without it, then found again)
    // and the same faces just after the phone turned: the dice it lost on the way, found again
    const justTurned = this.turnedAt !== null && t >= this.turnedAt && t - this.turnedAt <= TURNED_SAME_FACES_MS;
    const repeat = this.recent.some((r) => sameLayout(r.dice, dice, moveTolerance) || sameDiceAndFaces(r.faces, faces) || sameLayoutMoved(r.dice, dice) || (justTurned && sameFaces(r.dice, dice)));
    if (repeat) return { ...base, phase: 'settled', progress: 1, proposal: null };
    const proposal: ProposedRoll<F> = { id: this.nextId++, t, dice };
    this.last = proposal;
    this.recent = [{ dice, faces }, ...this.recent].slice(0, 2);
    return { ...base, lastProposal: proposal, phase: 'settled', progress: 1, proposal };
  }
}
