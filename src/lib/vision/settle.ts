/**
 * The settle tracker: fed the dice the detector sees in each camera frame, it proposes a roll
 * once the same dice have shown the same faces, without moving, for `settleMs`.
 *
 * - A change (a die's face, a die arriving, leaving or moving) counts only once it has been
 *   seen in `confirmFrames` consecutive frames, so one flickering frame or box jitter does not
 *   restart the read.
 * - Each read proposes once. A configuration equal to the last proposal is never proposed
 *   again: not after a hand passes over the dice (same faces, same places), nor after a die is
 *   nudged (no die left the table, same faces). Picking dice up and rolling again (dice leave
 *   and come back elsewhere or showing other faces) starts a new read that will be proposed.
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
}

export interface SettleOptions {
  /** How long the dice must stay the same before a roll is proposed (ms). */
  settleMs: number;
  /** How many consecutive frames a change must show in before it counts. */
  confirmFrames: number;
  /** A die has moved when its centre is further than this × its size from where it settled. */
  moveTolerance: number;
  /** A detection is the same die as a tracked one when their centres are within this × die size. */
  matchDistance: number;
  /** Frames further apart than this (a paused camera) restart the settle clock (ms). */
  maxGapMs: number;
}

export const DEFAULT_SETTLE_OPTIONS: Readonly<SettleOptions> = {
  settleMs: 600,
  confirmFrames: 2,
  moveTolerance: 0.25,
  matchDistance: 1,
  maxGapMs: 1000,
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
}

interface Point {
  x: number;
  y: number;
}

interface Track<F> {
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
}

interface Candidate<F> {
  box: Box;
  face: F | null;
  score: number;
  frames: number;
}

const centre = (b: Box): Point => ({ x: b.x + b.w / 2, y: b.y + b.h / 2 });
const size = (b: Box): number => Math.max(b.w, b.h, 1e-9);
const distance = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);

/** Pairs items of `a` with items of `b` nearest first, each pair within `limit` die sizes. */
function matchBoxes(a: readonly Box[], b: readonly Box[], limit: number): Map<number, number> {
  const pairs: { i: number; j: number; d: number }[] = [];
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
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

function readingOrder<F>(dice: TrackedDie<F>[]): TrackedDie<F>[] {
  return [...dice].sort((p, q) => centre(p.box).x - centre(q.box).x || centre(p.box).y - centre(q.box).y);
}

function sameFaces<F>(a: readonly TrackedDie<F>[], b: readonly TrackedDie<F>[]): boolean {
  if (a.length !== b.length) return false;
  const left = a.map((d) => d.face);
  for (const die of b) {
    const at = left.indexOf(die.face);
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return true;
}

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

export class SettleTracker<F = string> {
  private options: SettleOptions;
  private tracks: Track<F>[] = [];
  private candidates: Candidate<F>[] = [];
  private stableSince: number | null = null;
  private lastT: number | null = null;
  /** Whether the current read has been proposed (or found equal to the last proposal). */
  private done = false;
  /** Whether any die left or arrived since the last proposal. */
  private diceChangedSinceProposal = false;
  private last: ProposedRoll<F> | null = null;
  private nextId = 1;

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
    this.done = false;
    this.diceChangedSinceProposal = false;
    this.last = null;
  }

  get lastProposal(): ProposedRoll<F> | null {
    return this.last;
  }

  update(frame: DetectionFrame<F>): SettleUpdate<F> {
    const { confirmFrames, moveTolerance, matchDistance, maxGapMs, settleMs } = this.options;
    const t = frame.t;
    if (this.lastT !== null && t - this.lastT > maxGapMs && this.stableSince !== null) this.stableSince = t;
    this.lastT = t;

    let changed = false;
    /** Whether this frame disagrees with the tracked dice (a change, or maybe a flicker). */
    let unsettledNow = false;

    // 1. Match this frame's dice to the tracked dice.
    const detections = frame.dice;
    const matches = matchBoxes(
      this.tracks.map((tr) => tr.box),
      detections.map((d) => d.box),
      matchDistance,
    );
    const usedDetections = new Set(matches.values());
    const kept: Track<F>[] = [];
    for (const [i, track] of this.tracks.entries()) {
      const j = matches.get(i);
      if (j === undefined) {
        track.missingFrames++;
        unsettledNow = true;
        if (track.missingFrames >= confirmFrames) {
          changed = true;
          this.diceChangedSinceProposal = true;
          continue; // the die left
        }
        kept.push(track);
        continue;
      }
      const det = detections[j]!;
      track.missingFrames = 0;
      track.box = det.box;
      track.score = det.score;
      if (distance(centre(det.box), track.anchor) / size(det.box) > moveTolerance) {
        track.movingFrames++;
        unsettledNow = true;
        if (track.movingFrames >= confirmFrames) changed = true;
      } else {
        track.movingFrames = 0;
      }
      if (det.face === track.face) {
        track.pendingFace = null;
      } else {
        unsettledNow = true;
        track.pendingFace =
          track.pendingFace && track.pendingFace.face === det.face
            ? { face: det.face, frames: track.pendingFace.frames + 1 }
            : { face: det.face, frames: 1 };
        if (track.pendingFace.frames >= confirmFrames) {
          track.face = det.face;
          track.pendingFace = null;
          changed = true;
        }
      }
      kept.push(track);
    }
    this.tracks = kept;

    // 2. Dice not matched to a track are candidates until seen in enough consecutive frames.
    const fresh = detections.filter((_, j) => !usedDetections.has(j));
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
        this.tracks.push({
          box: det.box,
          face: det.face,
          score: det.score,
          anchor: c,
          pendingFace: null,
          movingFrames: 0,
          missingFrames: 0,
        });
        changed = true;
        this.diceChangedSinceProposal = true;
      } else {
        unsettledNow = true;
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
      }
    }

    const dice = readingOrder(this.tracks.map((tr) => ({ box: tr.box, face: tr.face, score: tr.score })));
    const base = { dice, lastProposal: this.last };
    if (this.tracks.length === 0) {
      this.stableSince = null;
      this.done = false;
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
    const last = this.last;
    const repeat =
      last !== null &&
      (sameLayout(last.dice, dice, moveTolerance) || (!this.diceChangedSinceProposal && sameFaces(last.dice, dice)));
    if (repeat) return { ...base, phase: 'settled', progress: 1, proposal: null };
    const proposal: ProposedRoll<F> = { id: this.nextId++, t, dice };
    this.last = proposal;
    this.diceChangedSinceProposal = false;
    return { ...base, lastProposal: proposal, phase: 'settled', progress: 1, proposal };
  }
}
