import { describe, expect, it } from 'vitest';
import type { DieToken } from '../../src/lib/dice/index.ts';
import { SettleTracker, type ProposedRoll } from '../../src/lib/vision/settle.ts';
import { BLUR_FRAMES, BLURRED_EDGE_WIDTH, blurredDiceHint, CUT_DIE_GAP, CUT_DIE_SHOWN, cutByFrameEdge, cutDiceHint, cutDieAskedFor, shareInView, withLatestEdgeWidth, cameraProposal, countsInView, diceLookBlurred, diceLookSmall, diceToLearn, filledAllAs, readLearning, unreadToLearn, onlyDiceTakenAway, readsMoreFaces, diceEnteredByHand, handEntryAfterFrame, layoutInFrame, settleFrame, markDiceSettled, DICE_SETTLED_MARK, SMALL_DIE_SHARE, smallDiceHint, unreadDiceCounted, readPaceText, type ReadDie } from '../../src/app/cameraRead.ts';

const die = (x: number, y: number, token: DieToken | null): ReadDie => ({ box: { x, y, w: 40, h: 40 }, token, score: 0.9 });

/** What the table shows of a settled read: the faces proposed and the ? slots (nothing read was left out). */
function shown(dice: readonly { box: unknown; face: DieToken | null; score: number }[], counts: readonly number[] = []): { seen: DieToken[]; unread: number } {
  const { seen, unread, leftOut } = cameraProposal(dice, counts);
  expect(leftOut).toBeNull();
  return { seen, unread };
}

/** Feeds the same dice for `ms` at 30 frames a second; returns the proposals made. */
function hold(tracker: SettleTracker<DieToken>, from: number, ms: number, dice: ReadDie[]): { t: number; proposals: ProposedRoll<DieToken>[] } {
  const proposals: ProposedRoll<DieToken>[] = [];
  let t = from;
  for (; t <= from + ms; t += 33) {
    const update = tracker.update(settleFrame(t, dice));
    if (update.proposal) proposals.push(update.proposal);
  }
  return { t, proposals };
}

describe('camera reads to proposals', () => {
  it('tracks the kit reader’s tokens, pips and symbol faces alike; an unread die has none', () => {
    const frame = settleFrame(5, [die(0, 0, 4), die(50, 0, 'vader'), die(100, 0, null)]);
    expect(frame).toEqual({ t: 5, dice: [die(0, 0, 4), die(50, 0, 'vader'), die(100, 0, null)].map((d) => ({ box: d.box, face: d.token, score: d.score })) });
  });

  it('proposes each roll once, ignores kept dice set aside, and proposes the re-roll', () => {
    const tracker = new SettleTracker<DieToken>();
    const first = [die(10, 10, 1), die(100, 10, 1), die(200, 10, 4), die(300, 10, 5), die(400, 10, 6)];
    let step = hold(tracker, 0, 1000, first);
    expect(step.proposals).toHaveLength(1);
    const read = step.proposals[0]!;
    expect(shown(read.dice)).toEqual({ seen: [1, 1, 4, 5, 6], unread: 0 });

    // 1 1 5 set aside out of view: the 4 and the 6 still lie where they were
    // (the tracker proposes it: dice left the table; the app knows better)
    step = hold(tracker, step.t, 1000, [die(200, 10, 4), die(400, 10, 6)]);
    expect(step.proposals).toHaveLength(1);
    expect(onlyDiceTakenAway(step.proposals[0]!.dice, read.dice)).toBe(true);

    // the 4 and the 6 picked up and thrown: they land elsewhere
    step = hold(tracker, step.t, 300, []);
    step = hold(tracker, step.t, 1000, [die(150, 200, 3), die(260, 220, 2)]);
    expect(step.proposals).toHaveLength(1);
    expect(onlyDiceTakenAway(step.proposals[0]!.dice, read.dice)).toBe(false);
    expect(shown(step.proposals[0]!.dice)).toEqual({ seen: [3, 2], unread: 0 });
  });

  it('a die that lands where it lay but shows another face is a roll; unread dice are counted', () => {
    const before = [{ box: { x: 0, y: 0, w: 40, h: 40 }, face: 4 as DieToken, score: 1 }];
    expect(onlyDiceTakenAway([{ ...before[0]!, face: 2 }], before)).toBe(false);
    expect(onlyDiceTakenAway(before, null)).toBe(false);
    // a die not read then, read now where it lay (learnt from the player's fill-in), was not thrown; the reverse is no roll either
    const unread = [{ ...before[0]!, face: null }];
    expect(onlyDiceTakenAway(before, unread)).toBe(true);
    expect(onlyDiceTakenAway([{ ...before[0]!, box: { x: 100, y: 0, w: 40, h: 40 } }], unread)).toBe(false);
    // a die read then, unread now where it lay: the reader doubting the same die, not a throw
    expect(onlyDiceTakenAway(unread, before)).toBe(true);
    // but a die half the size where it lay was thrown there, read or not (a die's box keeps its size)
    const small = { x: 10, y: 10, w: 20, h: 20 };
    expect(onlyDiceTakenAway([{ ...before[0]!, box: small }], before)).toBe(false);
    expect(onlyDiceTakenAway([{ box: small, face: null, score: 0.5 }], before)).toBe(false);
    expect(onlyDiceTakenAway([{ ...before[0]!, box: { x: 2, y: 2, w: 34, h: 36 } }], before)).toBe(true);
    expect(shown([{ box: before[0]!.box, face: null, score: 0.4 }, before[0]!])).toEqual({ seen: [4], unread: 1 });
    // symbol dice: Face Off faces are written by id
    const faces = [{ box: { x: 0, y: 0, w: 40, h: 40 }, face: 'luke' as DieToken, score: 1 }, { box: { x: 60, y: 0, w: 40, h: 40 }, face: null, score: 0.8 }];
    expect(shown(faces)).toEqual({ seen: ['luke'], unread: 1 });
  });

  it('a read of more faces where a ? lay completes a proposal still awaiting confirmation', () => {
    const proposed = [{ box: { x: 0, y: 0, w: 40, h: 40 }, face: null as DieToken | null, score: 0.9 }, { box: { x: 60, y: 0, w: 40, h: 40 }, face: 3 as DieToken | null, score: 0.9 }];
    const whole = [{ ...proposed[0]!, face: 6 as DieToken }, proposed[1]!];
    // the same dice to `onlyDiceTakenAway`, but more of them read: the table offers it while the proposal waits
    expect(onlyDiceTakenAway(whole, proposed)).toBe(true);
    expect(readsMoreFaces(whole, proposed)).toBe(true);
    expect(readsMoreFaces(proposed, whole)).toBe(false);
    expect(readsMoreFaces(whole, whole)).toBe(false);
    // dice taken away, though the ? is read: fewer faces, not a completed read
    expect(readsMoreFaces([whole[0]!], proposed)).toBe(false);
    expect(readsMoreFaces(whole, null)).toBe(false);
  });
});

describe('unread boxes against the roll awaited', () => {
  const roll = (faces: (DieToken | null)[]): ProposedRoll<DieToken> => ({ id: 1, t: 0, dice: faces.map((face, i) => ({ box: { x: 60 * i, y: 0, w: 40, h: 40 }, face, score: 0.9 })) });

  it('says how many dice a roll awaited can show in view: thrown, or thrown and kept', () => {
    expect(countsInView(null)).toEqual([]);
    expect(countsInView({ count: 5, kept: [] })).toEqual([5]);
    expect(countsInView({ count: 3, kept: [1, 5] })).toEqual([3, 5]);
  });

  it('leaves out unread boxes when the faces read are already as many dice as were thrown', () => {
    const counts = countsInView({ count: 5, kept: [] });
    expect(shown(roll(['luke', 'r2', 'han', null, 'vader', 'han']).dice, counts)).toEqual({ seen: ['luke', 'r2', 'han', 'vader', 'han'], unread: 0 });
    expect(unreadDiceCounted(['luke', null, null, 'han', 'han', 'r2', 'chewie'], counts)).toBe(0);
  });

  it('keeps them when a die is still missing, or no roll is awaited', () => {
    const counts = countsInView({ count: 5, kept: [] });
    expect(shown(roll([1, 2, null, 4, 5]).dice, counts)).toEqual({ seen: [1, 2, 4, 5], unread: 1 });
    expect(shown(roll([1, 2, 3, 4, 5, null]).dice)).toEqual({ seen: [1, 2, 3, 4, 5], unread: 1 });
  });

  it('counts kept dice in view: thrown alone or thrown and kept both make a roll', () => {
    const counts = countsInView({ count: 3, kept: [1, 5] });
    expect(unreadDiceCounted([2, 3, 4, null], counts)).toBe(0);
    expect(unreadDiceCounted([1, 5, 2, 3, 4, null], counts)).toBe(0);
    expect(unreadDiceCounted([1, 5, 2, 3, null], counts)).toBe(1);
  });
});

describe('what a roll confirmed as read teaches', () => {
  it('takes each die as its last frame read it, leaving out dice the vote corrected or never read', () => {
    const boxes = [0, 1, 2, 3].map((i) => ({ x: 60 * i, y: 0, w: 40, h: 40 }));
    const lastReads = new Map([
      [boxes[0]!, 'luke'],
      [boxes[1]!, 'han'], // the frames voted vader: the vote corrected this die
      [boxes[2]!, 'r2d2'],
    ]);
    const dice = [
      { box: boxes[0]!, face: 'luke' },
      { box: boxes[1]!, face: 'vader' },
      { box: boxes[2]!, face: null },
      { box: boxes[3]!, face: 'han' },
    ];
    expect(diceToLearn(dice, (b) => lastReads.get(b), (read, face) => read === face)).toEqual(['luke']);
  });
});

describe('dice that look small', () => {
  const sized = (side: number) => ({ box: { x: 0, y: 0, w: side, h: side * 0.8 } });
  const frame = { width: 1280, height: 720 };

  it('is the median die under 5% of the frame’s long side', () => {
    expect(SMALL_DIE_SHARE).toBe(0.05);
    expect(diceLookSmall([sized(50), sized(60), sized(80)], frame)).toBe(true); // 60 < 64
    expect(diceLookSmall([sized(50), sized(66), sized(80)], frame)).toBe(false);
    // one far die among near ones does not call them all small, nor the other way round
    expect(diceLookSmall([sized(20), sized(80), sized(80)], frame)).toBe(false);
    expect(diceLookSmall([sized(20), sized(20), sized(200)], frame)).toBe(true);
    // what the camera says of it, for one die or several
    expect(smallDiceHint([sized(50)], frame)).toBe(' It looks small: hold the phone closer.');
    expect(smallDiceHint([sized(50), sized(60)], frame)).toBe(' They look small: hold the phone closer.');
    expect(smallDiceHint([sized(80)], frame)).toBe('');
    // an even count: the mean of the middle two
    expect(diceLookSmall([sized(64), sized(66)], frame)).toBe(false); // 65 ≥ 64
    expect(diceLookSmall([sized(64), sized(66)], { width: 720, height: 1400 })).toBe(true); // 65 < 70
  });

  it('says nothing without dice or a frame', () => {
    expect(diceLookSmall([], frame)).toBe(false);
    expect(diceLookSmall([sized(10)], { width: 0, height: 0 })).toBe(false);
  });
});

describe('a die cut by the frame\'s edge', () => {
  const frame = { width: 1280, height: 720 };
  const box = (x: number, y: number, w = 80, h = 80) => ({ x, y, w, h });

  it('is a die whose box reaches within 5% of its side of an edge', () => {
    expect(CUT_DIE_GAP).toBe(0.05);
    expect(cutByFrameEdge(box(0, 300), frame)).toBe(true);
    expect(cutByFrameEdge(box(4, 300), frame)).toBe(true); // 4 ≤ 0.05 × 80
    expect(cutByFrameEdge(box(5, 300), frame)).toBe(false);
    expect(cutByFrameEdge(box(1196, 300), frame)).toBe(true); // right: 1196 + 80 ≥ 1280 − 4
    expect(cutByFrameEdge(box(600, 637), frame)).toBe(true); // bottom
    expect(cutByFrameEdge(box(600, 3), frame)).toBe(true); // top
    expect(cutByFrameEdge(box(600, 300), frame)).toBe(false);
    // a small die: a pixel at least
    expect(cutByFrameEdge(box(1, 300, 10, 10), frame)).toBe(true);
    expect(cutByFrameEdge(box(2, 300, 10, 10), frame)).toBe(false);
  });

  it('shows the share of it in view, judged by the dice not cut', () => {
    // a die at the left edge 40 px wide, its fellows 80 px wide: half of it in view
    expect(shareInView(box(0, 300, 40, 70), [box(300, 300), box(500, 200, 80, 100)], frame)).toBeCloseTo(0.5);
    // at the top edge, 50 px high, its fellows 100 high (seen obliquely): half
    expect(shareInView(box(600, 0, 80, 50), [box(300, 300, 80, 100), box(500, 200, 64, 100), box(700, 200, 70, 90)], frame)).toBeCloseTo(0.5);
    // only dice cut too, or none: against its own side along the edge
    expect(shareInView(box(0, 300, 60, 80), [box(0, 100, 30, 80)], frame)).toBeCloseTo(0.75);
    // a die not at the edge: all of it; never more than all
    expect(shareInView(box(600, 300, 40, 80), [], frame)).toBe(1);
    expect(shareInView(box(0, 300, 100, 80), [box(300, 300)], frame)).toBe(1);
    // cut at a corner: the more cut side
    expect(shareInView(box(0, 0, 60, 40), [box(300, 300)], frame)).toBeCloseTo(0.5);
  });

  it('is asked for, not proposed, when less than half of it is in view', () => {
    expect(CUT_DIE_SHOWN).toBe(0.5);
    const fellows = [box(300, 300), box(500, 200)];
    expect(cutDieAskedFor(box(0, 300, 36, 80), [box(0, 300, 36, 80), ...fellows], frame)).toBe(true);
    expect(cutDieAskedFor(box(0, 300, 44, 80), [box(0, 300, 44, 80), ...fellows], frame)).toBe(false);
    expect(cutDieAskedFor(box(300, 300), [box(0, 300, 36, 80), ...fellows], frame)).toBe(false);
  });

  it('tells the player to bring it in view, unless no die is cut', () => {
    expect(cutDiceHint([{ box: box(0, 300) }, { box: box(600, 300) }], frame)).toBe(' 1 die is cut by the edge of the picture: move the phone to take it in.');
    expect(cutDiceHint([{ box: box(0, 300) }, { box: box(1200, 300) }], frame)).toBe(' 2 dice are cut by the edge of the picture: move the phone to take them in.');
    expect(cutDiceHint([{ box: box(600, 300) }], frame)).toBe('');
    expect(cutDiceHint([{ box: box(0, 300) }], { width: 0, height: 0 })).toBe('');
  });
});

describe('more faces read than the roll can show', () => {
  const roll = (faces: (DieToken | null)[], scores: number[]) => faces.map((face, i) => ({ box: { x: 60 * i, y: 0, w: 40, h: 40 }, face, score: scores[i]! }));

  it('leaves out the least sure down to the count, names them, and keeps reading order', () => {
    const dice = roll(['luke', 'r2', 'han', 'vader', 'han', 'r2'], [0.95, 0.5, 0.9, 0.93, 0.88, 0.96]);
    const p = cameraProposal(dice, countsInView({ count: 5, kept: [] }));
    expect(p.seen).toEqual(['luke', 'han', 'vader', 'han', 'r2']);
    expect(p.leftOut).toBe('r2');
    expect(p.unread).toBe(0);
    expect(p.dice).toEqual([dice[0], dice[2], dice[3], dice[4], dice[5]]);
  });

  it('dice found but not read beside them say other dice lie in view: nothing is left out', () => {
    // Face Off dice on a Point Five table: two read, three not, for a throw of one
    const dice = roll(['burst', null, 'burst', null, null], [0.9, 0.9, 0.4, 0.9, 0.9]);
    expect(cameraProposal(dice, [1])).toEqual({ dice, seen: ['burst', 'burst'], unread: 3, leftOut: null });
  });

  it('two or more too many (dice lying in view, not a false box) leave the count for the player to fix', () => {
    const dice = roll([1, 2, 3, 4, 5, 6, 6], [0.9, 0.9, 0.3, 0.9, 0.9, 0.9, 0.4]);
    expect(cameraProposal(dice, [5])).toEqual({ dice, seen: [1, 2, 3, 4, 5, 6, 6], unread: 0, leftOut: null });
    // War's centre die with the five dice of another game in view
    expect(cameraProposal(roll([1, 2, 3, 4, 5], [0.9, 0.8, 0.7, 0.6, 0.5]), [1]).leftOut).toBeNull();
  });

  it('counts kept dice in view: up to thrown and kept nothing is left out', () => {
    const counts = countsInView({ count: 2, kept: [3, 3, 3] });
    expect(cameraProposal(roll([1, 2, 3, 3, 3], [0.9, 0.9, 0.9, 0.9, 0.2]), counts).leftOut).toBeNull();
    expect(cameraProposal(roll([1, 2, 3, 3, 3, 6], [0.9, 0.9, 0.9, 0.9, 0.9, 0.2]), counts)).toMatchObject({ seen: [1, 2, 3, 3, 3], leftOut: 6 });
    // no roll awaited: nothing to count against
    expect(cameraProposal(roll([1, 2, 3, 4, 5, 6], [0.9, 0.9, 0.9, 0.9, 0.9, 0.2])).leftOut).toBeNull();
  });
});

describe('what filling in the dice not read teaches', () => {
  const box = (x: number) => ({ x, y: 0, w: 10, h: 10 });
  it("gives each ? die's last vector, only when every ? has one", () => {
    const a = box(0), b = box(20), c = box(40);
    const dice = [{ box: a, face: 5 as DieToken | null }, { box: b, face: null }, { box: c, face: null }];
    const vectors = new Map([[b, 'vb'], [c, 'vc']]);
    expect(unreadToLearn(dice, (x) => vectors.get(x))).toEqual(['vb', 'vc']);
    vectors.delete(c);
    expect(unreadToLearn(dice, (x) => vectors.get(x))).toEqual([]);
    expect(unreadToLearn([{ box: a, face: 5 }], (x) => vectors.get(x))).toEqual([]);
  });

  it('teaches a read as read, or its ? as the face filled in, through one teach (camera and photo alike)', () => {
    const a = box(0), b = box(20), c = box(40);
    const vector = (n: number) => new Float32Array([n]);
    const read = new Map([[a, { faceId: 'five', embedding: vector(1) }], [b, { faceId: 'two', embedding: vector(2) }]]);
    const unread = new Map([[c, vector(3)]]);
    const faceIdOf = (face: DieToken) => ({ 5: 'five', 2: 'two', 1: 'one' })[face as 5 | 2 | 1];
    const taught: { faceId: string; embedding: Float32Array }[][] = [];
    const learning = readLearning(
      [{ box: a, face: 5 as DieToken | null }, { box: b, face: 3 }, { box: c, face: null }],
      (x) => read.get(x),
      (x) => unread.get(x),
      faceIdOf,
      (dice) => taught.push(dice),
    );
    // b was proposed as 3 but its last read said two: not learnt as read
    learning.asRead?.();
    expect(taught).toEqual([[{ faceId: 'five', embedding: vector(1) }]]);
    learning.filledAs?.(1);
    expect(taught[1]).toEqual([{ faceId: 'one', embedding: vector(3) }]);
    // a face the kit has no id for teaches nothing
    learning.filledAs?.(4);
    expect(taught).toHaveLength(2);
    // nothing to learn: no functions to call
    const none = readLearning([{ box: a, face: null }], () => undefined, () => undefined, faceIdOf, () => undefined);
    expect(none).toEqual({ asRead: null, filledAs: null });
  });

  it('names the face every ? was filled with, when filling them was the only change', () => {
    expect(filledAllAs([1], 0, false)).toBe(1);
    expect(filledAllAs([1, 1], 0, false)).toBe(1);
    // which ? was which cannot be told
    expect(filledAllAs([1, 2], 0, false)).toBeNull();
    // a ? left, a die corrected, dropped or added, nothing filled
    expect(filledAllAs([1], 1, false)).toBeNull();
    expect(filledAllAs([1], 0, true)).toBeNull();
    expect(filledAllAs([], 0, false)).toBeNull();
  });
});

describe('diceLookBlurred: the dice\'s edge width over the latest frames', () => {
  const sharp = 0.05;
  const soft = BLURRED_EDGE_WIDTH + 0.02;

  it('calls the dice blurred when the median of the latest frames reaches the width', () => {
    expect(diceLookBlurred([soft, soft, soft, soft])).toBe(true);
    expect(diceLookBlurred([sharp, sharp, sharp, sharp])).toBe(false);
    expect(diceLookBlurred([BLURRED_EDGE_WIDTH, BLURRED_EDGE_WIDTH])).toBe(true); // at the width, blurred
    expect(diceLookBlurred([sharp, soft])).toBe(false); // two frames: the mean of the two, under the width
  });

  it('one blurred frame of a tremor does not call out, nor does one sharp frame silence it', () => {
    expect(diceLookBlurred([sharp, sharp, soft, sharp])).toBe(false);
    expect(diceLookBlurred([soft, soft, sharp, soft])).toBe(true);
  });

  it('looks only at the latest frames, and needs two of them measured', () => {
    expect(diceLookBlurred([soft, soft, soft, soft, ...Array<number>(BLUR_FRAMES).fill(sharp)])).toBe(false);
    expect(diceLookBlurred([soft])).toBe(false);
    expect(diceLookBlurred([soft, null, null, null])).toBe(false);
    expect(diceLookBlurred([null, soft, null, soft])).toBe(true);
    expect(diceLookBlurred([])).toBe(false);
  });

  it('keeps the last frames only, a frame with no die as null', () => {
    let kept: (number | null)[] = [];
    for (const w of [0.2, 0.2, null, sharp, sharp, sharp]) kept = withLatestEdgeWidth(kept, w);
    expect(kept).toEqual([null, sharp, sharp, sharp]);
    expect(kept).toHaveLength(BLUR_FRAMES);
    expect(diceLookBlurred(kept)).toBe(false);
  });

  it('says so for one die or several, and nothing when sharp', () => {
    expect(blurredDiceHint([soft, soft], 1)).toBe(' It looks blurred: hold the phone still, not too close, and let it focus.');
    expect(blurredDiceHint([soft, soft], 3)).toBe(' They look blurred: hold the phone still, not too close, and let it focus.');
    expect(blurredDiceHint([sharp, sharp], 3)).toBe('');
  });
});

describe('layoutInFrame: the table\'s last layout in the frame read now', () => {
  const landscape = { width: 640, height: 360 };
  const portrait = { width: 360, height: 640 };
  const layout = { dice: [die(300, 150, 2), die(360, 170, 5), die(250, 190, 6)].map((d) => ({ box: d.box, face: d.token, score: d.score })), frame: landscape };

  it('stays as it is in frames of its size, or with no size given', () => {
    expect(layoutInFrame(layout, settleFrame(0, [], landscape), null)).toBe(layout);
    expect(layoutInFrame(layout, settleFrame(0, [die(0, 0, 1)]), null)).toBe(layout);
    expect(layoutInFrame(null, settleFrame(0, [], portrait), null)).toBeNull();
  });

  it('goes with the tracker\'s move of the camera', () => {
    const moved = layoutInFrame(layout, settleFrame(0, [], landscape), (b) => ({ ...b, x: b.x + 100 }));
    expect(moved!.dice.map((d) => d.box.x)).toEqual([400, 460, 350]);
    expect(moved!.frame).toEqual(landscape);
  });

  it('read in frames of another size (the phone turned between games): carried by the dice in view, once there are some', () => {
    // the screen rotated: the same dice framed anew about the frame's centre
    const inView = layout.dice.map((d) => die(d.box.x - 140, d.box.y + 140, d.face));
    expect(layoutInFrame(layout, settleFrame(0, [], portrait), null)).toBe(layout);
    const carried = layoutInFrame(layout, settleFrame(0, inView, portrait), null);
    expect(carried!.frame).toEqual(portrait);
    expect(carried!.dice.map((d) => [d.box.x, d.box.y])).toEqual(inView.map((d) => [d.box.x, d.box.y]));
    expect(onlyDiceTakenAway(carried!.dice.slice(0, 2), layout.dice)).toBe(false);
    expect(onlyDiceTakenAway(carried!.dice.slice(0, 2), carried!.dice)).toBe(true);
  });
});

describe('markDiceSettled: the settled-read mark a propped phone makes all evening', () => {
  it('keeps only the latest mark, however many reads settle', () => {
    performance.clearMarks(DICE_SETTLED_MARK);
    for (let i = 0; i < 1000; i++) markDiceSettled({ frameTime: i, proposed: i % 2 === 0 });
    const marks = performance.getEntriesByName(DICE_SETTLED_MARK, 'mark') as PerformanceMark[];
    expect(marks).toHaveLength(1);
    expect(marks[0]!.detail).toEqual({ frameTime: 999, proposed: false });
    performance.clearMarks(DICE_SETTLED_MARK);
  });
});

describe('readPaceText: the Camera check\'s line on the reading pace', () => {
  it('says one frame a second in the singular, and the read time once there is one', () => {
    expect(readPaceText(1, 454.2)).toBe('1 frame a second reaches the dice reader; each read takes about 454 ms on this device.');
    expect(readPaceText(3, 407)).toBe('3 frames a second reach the dice reader; each read takes about 407 ms on this device.');
    expect(readPaceText(0, null)).toBe('0 frames a second reach the dice reader.');
  });
});

describe('diceEnteredByHand', () => {
  const dice = (...faces: (DieToken | null)[]) => faces.map((face) => ({ face }));

  it('knows the dice of a roll entered by hand, whatever their order, a ? being any face', () => {
    expect(diceEnteredByHand(dice(6, 3, 3, 3, 2), [2, 3, 3, 3, 6])).toBe(true);
    expect(diceEnteredByHand(dice(6, null, 3, 3, 2), [2, 3, 3, 3, 6])).toBe(true);
  });

  it('takes other faces, another count, or no roll entered for a throw', () => {
    expect(diceEnteredByHand(dice(6, 3, 3, 3, 1), [2, 3, 3, 3, 6])).toBe(false);
    expect(diceEnteredByHand(dice(6, 3, 3, 3), [2, 3, 3, 3, 6])).toBe(false);
    expect(diceEnteredByHand(dice(6, 6, 3, 3, 2), [2, 3, 3, 3, 6])).toBe(false);
    expect(diceEnteredByHand(dice(2, 3, 3, 3, 6), null)).toBe(false);
    expect(diceEnteredByHand(dice(), [])).toBe(false);
  });

  it('is let go once a frame shows no dice (picked up to be thrown): a War die thrown again showing the face entered is a new throw', () => {
    const entered: DieToken[] = [4];
    // the die entered still lying there (seen, tracked or not yet): kept for the settle to compare
    expect(handEntryAfterFrame(entered, 1)).toBe(entered);
    // picked up: gone, so the 4 thrown next is proposed
    expect(handEntryAfterFrame(entered, 0)).toBeNull();
    expect(handEntryAfterFrame(null, 1)).toBeNull();
  });
});
