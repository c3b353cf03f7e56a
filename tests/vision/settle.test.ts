import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cameraExpectation, quarterTurns, sameLayoutMoved, SettleTracker, TURNED_SAME_FACES_MS, type BoxMap, type DetectionFrame, type DieDetection, type ProposedRoll, type SettleUpdate } from '../../src/lib/vision/settle.ts';

const FRAME_MS = 33;
const SIZE = 40;

type Face = string;
const die = (x: number, y: number, face: Face | null, score = 0.9): DieDetection<Face> => ({ box: { x, y, w: SIZE, h: SIZE }, face, score });

/** A scripted camera: each call adds `n` frames showing `dice` (or a function of the frame index). */
class Script {
  t = 0;
  frames: DetectionFrame<Face>[] = [];
  show(n: number, dice: DieDetection<Face>[] | ((i: number) => DieDetection<Face>[])): this {
    for (let i = 0; i < n; i++) {
      this.frames.push({ t: this.t, dice: typeof dice === 'function' ? dice(i) : dice });
      this.t += FRAME_MS;
    }
    return this;
  }
  /** Frames for `ms` milliseconds. */
  hold(ms: number, dice: DieDetection<Face>[] | ((i: number) => DieDetection<Face>[])): this {
    return this.show(Math.ceil(ms / FRAME_MS), dice);
  }
  gap(ms: number): this {
    this.t += ms;
    return this;
  }
}

function run(script: Script, tracker = new SettleTracker<Face>()): { proposals: ProposedRoll<Face>[]; updates: SettleUpdate<Face>[] } {
  const updates = script.frames.map((f) => tracker.update(f));
  return { proposals: updates.flatMap((u) => (u.proposal ? [u.proposal] : [])), updates };
}

const faces = (p: ProposedRoll<Face>): (Face | null)[] => p.dice.map((d) => d.face);
const roll = [die(100, 100, '1'), die(200, 110, '5'), die(300, 90, '3'), die(400, 100, '3'), die(500, 120, '6')];
// the same faces thrown again: no throw lands them in the same layout
const rerolled = [die(150, 250, '1'), die(320, 200, '5'), die(90, 300, '3'), die(450, 280, '3'), die(260, 330, '6')];

describe('settle tracker', () => {
  it('proposes once the dice have been still for the settle time, and only once', () => {
    const { proposals, updates } = run(new Script().hold(5000, roll));
    expect(proposals).toHaveLength(1);
    expect(faces(proposals[0]!)).toEqual(['1', '5', '3', '3', '6']);
    // tracked from the 2nd frame (33 ms), settled 600 ms later
    expect(proposals[0]!.t).toBeGreaterThanOrEqual(33 + 600);
    expect(proposals[0]!.t).toBeLessThan(33 + 600 + FRAME_MS);
    expect(updates.at(-1)!.phase).toBe('settled');
  });

  it('reports progress from 0 to 1 while settling', () => {
    const { updates } = run(new Script().hold(1000, roll));
    const settling = updates.filter((u) => u.phase === 'settling').map((u) => u.progress);
    expect(settling.length).toBeGreaterThan(10);
    expect(settling).toEqual([...settling].sort((a, b) => a - b));
    expect(settling[0]).toBe(0);
    expect(settling.at(-1)).toBeLessThan(1);
  });

  it('honours a settable settle time', () => {
    const { proposals } = run(new Script().hold(3000, roll), new SettleTracker({ settleMs: 1500 }));
    expect(proposals).toHaveLength(1);
    expect(proposals[0]!.t).toBeGreaterThanOrEqual(1500);
    expect(proposals[0]!.t).toBeLessThan(1500 + 3 * FRAME_MS);
  });

  it('calls a frame quiet when it shows the dice tracked, still and as read, and nothing else', () => {
    const moved = roll.map((d, k) => (k === 1 ? { ...d, box: { ...d.box, x: d.box.x + SIZE } } : d));
    const turned = roll.map((d, k) => (k === 1 ? { ...d, face: '2' } : d));
    const { updates } = run(
      new Script()
        .hold(2000, roll) // 0–60: settled
        .show(1, roll.slice(1)) // 61: a die missing
        .hold(500, roll) // 62–77: back
        .show(1, [...roll, die(600, 300, '4')]) // 78: a new box
        .hold(500, roll) // 79–94
        .show(1, turned) // 95: another face
        .hold(500, roll) // 96–111
        .show(1, moved), // 112: a die moved
    );
    // the first frames: the dice are new, then settling (quiet, but not yet a read to rest on)
    expect(updates[0]!.quiet).toBe(false);
    expect(updates[30]).toMatchObject({ phase: 'settled', quiet: true });
    for (const i of [61, 78, 95, 112]) expect(updates[i]!.quiet, `frame ${i}`).toBe(false);
    for (const i of [70, 90, 105]) expect(updates[i], `frame ${i}`).toMatchObject({ phase: 'settled', quiet: true });
    // an empty table is quiet too, once the dice have gone
    const gone = run(new Script().hold(1000, roll).hold(300, [])).updates;
    expect(gone.at(-1)).toMatchObject({ phase: 'empty', quiet: true });
  });

  it('ignores box jitter', () => {
    const wobble = (i: number) => roll.map((d, k) => ({ ...d, box: { ...d.box, x: d.box.x + ((i * 7 + k * 3) % 7) - 3, y: d.box.y + ((i * 5 + k) % 5) - 2, w: SIZE + (i % 3) - 1 } }));
    const { proposals } = run(new Script().hold(3000, wobble));
    expect(proposals).toHaveLength(1);
    expect(proposals[0]!.t).toBeLessThan(33 + 600 + FRAME_MS);
  });

  it('ignores a face flickering for one frame, and proposes the stable face', () => {
    const flicker = (i: number) => (i % 6 === 3 ? roll.map((d, k) => (k === 2 ? { ...d, face: '5' } : d)) : roll);
    const { proposals } = run(new Script().hold(3000, flicker));
    expect(proposals).toHaveLength(1);
    expect(faces(proposals[0]!)).toEqual(['1', '5', '3', '3', '6']);
    expect(proposals[0]!.t).toBeLessThan(33 + 600 + 2 * FRAME_MS);
  });

  it('ignores a die missed for one frame', () => {
    const dropout = (i: number) => (i % 5 === 2 ? roll.slice(1) : roll);
    const { proposals } = run(new Script().hold(3000, dropout));
    expect(proposals).toHaveLength(1);
    expect(proposals[0]!.dice).toHaveLength(5);
    expect(proposals[0]!.t).toBeLessThan(33 + 600 + 2 * FRAME_MS);
  });

  it('ignores a spurious detection that lasts one frame', () => {
    const ghost = (i: number) => (i % 4 === 1 ? [...roll, die(50, 400, '2', 0.3)] : roll);
    const { proposals } = run(new Script().hold(3000, ghost));
    expect(proposals).toHaveLength(1);
    expect(proposals[0]!.dice).toHaveLength(5);
  });

  it('does not get stuck on a die whose face the reader cannot decide', () => {
    const undecided = (i: number) => roll.map((d, k) => (k === 4 && i % 2 === 1 ? { ...d, face: '2' } : d));
    const { proposals } = run(new Script().hold(3000, undecided));
    expect(proposals).toHaveLength(1);
    expect(faces(proposals[0]!).slice(0, 4)).toEqual(['1', '5', '3', '3']);
    expect(['6', '2']).toContain(faces(proposals[0]!)[4]);
  });

  it('waits while dice are moving and reads where they come to rest', () => {
    // each die its own way and speed, as thrown dice go
    const tumbling = (i: number) =>
      roll.map((d, k) => ({ ...d, face: String(((i + k) % 6) + 1), box: { ...d.box, x: d.box.x + (200 - i * 8) * (1 + 0.3 * k), y: d.box.y + 15 * Math.sin(i + k) * (k % 2 ? 1 : -1) } }));
    const { proposals, updates } = run(new Script().show(25, tumbling).hold(2000, roll));
    expect(proposals).toHaveLength(1);
    expect(faces(proposals[0]!)).toEqual(['1', '5', '3', '3', '6']);
    expect(updates.slice(0, 25).every((u) => u.proposal === null)).toBe(true);
    expect(updates.slice(2, 25).some((u) => u.phase === 'moving')).toBe(true);
    expect(proposals[0]!.t).toBeGreaterThanOrEqual(25 * FRAME_MS + 600);
  });

  it('dice thrown together, sliding the same way, are moving, not the camera', () => {
    const sliding = (i: number) => roll.map((d, k) => ({ ...d, face: String(((i + k) % 6) + 1), box: { ...d.box, x: d.box.x + 300 - i * 12 } }));
    const { proposals } = run(new Script().show(25, sliding).hold(2000, roll));
    expect(proposals).toHaveLength(1);
    expect(faces(proposals[0]!)).toEqual(['1', '5', '3', '3', '6']);
    expect(proposals[0]!.t).toBeGreaterThanOrEqual(25 * FRAME_MS + 600 - 3 * FRAME_MS);
  });

  it('a camera held by hand: the whole picture shifting, turning and zooming a little is not dice moving', () => {
    // a slow drift of the whole frame: 30 px (0.75 die) and 1° over a second, 2% zoom
    const shaken = (i: number) => {
      const f = Math.min(i, 30) / 30;
      const th = (f * Math.PI) / 180;
      const s = 1 + 0.02 * f;
      return roll.map((d) => {
        const cx = d.box.x + SIZE / 2 - 300;
        const cy = d.box.y + SIZE / 2 - 100;
        const x = 300 + s * (Math.cos(th) * cx - Math.sin(th) * cy) + 30 * f;
        const y = 100 + s * (Math.sin(th) * cx + Math.cos(th) * cy) - 10 * f;
        return { ...d, box: { x: x - (SIZE * s) / 2, y: y - (SIZE * s) / 2, w: SIZE * s, h: SIZE * s } };
      });
    };
    const { proposals } = run(new Script().hold(3000, shaken));
    expect(proposals).toHaveLength(1);
    expect(faces(proposals[0]!)).toEqual(['1', '5', '3', '3', '6']);
    expect(proposals[0]!.t).toBeLessThan(33 + 600 + FRAME_MS);
  });

  it('one die moving while the others stay is moving, even with the camera shaking', () => {
    const shaken = (i: number) => roll.map((d, k) => ({ ...d, box: { ...d.box, x: d.box.x + (i % 3) * 3 + (k === 2 ? Math.min(i, 20) * 6 : 0), y: d.box.y - (i % 2) * 3 } }));
    const { proposals } = run(new Script().hold(2000, shaken));
    expect(proposals).toHaveLength(1);
    // the die slid for 20 frames: the read settles only after it stopped
    expect(proposals[0]!.t).toBeGreaterThanOrEqual(18 * FRAME_MS + 600);
  });

  it('a lone die under a shaking hand is still: small steps within a shake of where it settled', () => {
    // the picture wanders up to 12 px (0.3 die) from where it began, 4–8 px a frame
    const wander = [0, 6, 12, 6, -2, -8, -4, 4, 10, 4];
    const shaken = (i: number) => [die(300 + wander[i % 10]!, 200 - wander[(i + 3) % 10]!, '4')];
    const { proposals } = run(new Script().hold(2000, shaken));
    expect(proposals).toHaveLength(1);
    expect(faces(proposals[0]!)).toEqual(['4']);
    expect(proposals[0]!.t).toBeLessThan(33 + 600 + 2 * FRAME_MS);
  });

  it('a lone die rolling is moving until it stops, and one sliding further than a shake starts a new read', () => {
    // rolling: a third of a die or more each frame
    const rolling = (i: number) => [die(100 + i * 15, 200, String((i % 6) + 1))];
    const first = run(new Script().show(30, rolling).hold(1500, [die(100 + 30 * 15, 200, '2')]));
    expect(first.proposals).toHaveLength(1);
    expect(faces(first.proposals[0]!)).toEqual(['2']);
    // (the settle clock starts at the last re-anchoring, a frame before the die lands)
    expect(first.proposals[0]!.t).toBeGreaterThanOrEqual(29 * FRAME_MS + 600);
    expect(first.updates.slice(2, 30).every((u) => u.phase === 'moving')).toBe(true);
    // creeping a fifth of a die a frame: still frame to frame, but 1.2 dice from where it settled after 6 frames
    const creeping = (i: number) => [die(100 + Math.min(i, 12) * 8, 200, '2')];
    const second = run(new Script().hold(1500, creeping));
    expect(second.proposals).toHaveLength(1);
    expect(second.proposals[0]!.t).toBeGreaterThanOrEqual(7 * FRAME_MS + 600);
  });

  it('a die the reader reads two ways is proposed with the face read most often, without delay', () => {
    // the last die reads '6' in two frames of three, '2' in the third, never twice in a row
    const hesitant = (i: number) => roll.map((d, k) => (k === 4 && i % 3 === 2 ? { ...d, face: '2' } : d));
    const { proposals } = run(new Script().hold(3000, hesitant));
    expect(proposals).toHaveLength(1);
    expect(faces(proposals[0]!)).toEqual(['1', '5', '3', '3', '6']);
    expect(proposals[0]!.t).toBeLessThan(33 + 600 + 2 * FRAME_MS);
  });

  it('a die the detector misses in one frame of three, and a box seen in single frames, do not hold the read back', () => {
    const patchy = (i: number) => {
      const dice = i % 3 === 1 ? roll.filter((_, k) => k !== 1) : [...roll];
      return i % 4 === 2 ? [...dice, die(700, 400, '4', 0.4)] : dice;
    };
    const { proposals } = run(new Script().hold(3000, patchy));
    expect(proposals).toHaveLength(1);
    expect(faces(proposals[0]!)).toEqual(['1', '5', '3', '3', '6']);
    // the die missed in frame 1 joins the read in frame 3 (seen in two frames in a row)
    expect(proposals[0]!.t).toBeLessThan(3 * FRAME_MS + 600 + 2 * FRAME_MS);
  });

  it('an empty table proposes nothing', () => {
    const { proposals, updates } = run(new Script().hold(2000, []));
    expect(proposals).toEqual([]);
    expect(updates.every((u) => u.phase === 'empty')).toBe(true);
  });

  it('picking the dice up and rolling again is a new read, even with the same faces', () => {
    const { proposals } = run(new Script().hold(1500, roll).hold(400, []).hold(1500, rerolled));
    expect(proposals.map(faces)).toEqual([
      ['1', '5', '3', '3', '6'],
      ['3', '1', '6', '5', '3'],
    ]);
    expect(proposals.map((p) => p.id)).toEqual([1, 2]);
  });

  it('re-rolling some dice while others stay: a new read', () => {
    const kept = roll.slice(0, 2);
    const { proposals } = run(
      new Script()
        .hold(1500, roll)
        .hold(300, kept) // three dice picked up
        .hold(1500, [...kept, die(320, 250, '4'), die(420, 260, '2'), die(520, 240, '2')]),
    );
    expect(proposals.map(faces)).toEqual([
      ['1', '5', '3', '3', '6'],
      ['1', '5', '4', '2', '2'],
    ]);
  });

  it('a re-rolled die that shows the same face somewhere else is proposed again', () => {
    const one = [die(200, 200, '4')];
    const { proposals } = run(new Script().hold(1500, one).hold(300, []).hold(1500, [die(320, 150, '4')]));
    expect(proposals).toHaveLength(2);
  });

  it('a die the detector loses for a moment while the camera drifts is the same die: the read is not proposed again', () => {
    // two dice, the camera drifting 1 px a frame: after 2.5 s they lie 75 px (1.9 dice) from where they were proposed
    const drift = (from: number) => (i: number) => [die(100 + from + i, 100, '2'), die(220 + from + i, 130, '5')];
    const lost = (from: number) => (i: number) => [die(100 + from + i, 100, '2')];
    const script = new Script().show(40, drift(0)).show(6, lost(40)).show(30, drift(46));
    expect(script.frames.length * FRAME_MS).toBeLessThan(2600);
    const { proposals } = run(script);
    expect(proposals).toHaveLength(1);
    // lost for longer than returnMs (400 ms), it may have been picked up and thrown: a new read
    const longer = new Script().show(40, drift(0)).show(16, lost(40)).show(30, drift(56));
    expect(run(longer).proposals).toHaveLength(2);
  });

  it('a die lost long enough for a read without it, found again where it lay, is no new read', () => {
    const two = [die(100, 100, '2'), die(220, 130, '5')];
    const { proposals } = run(new Script().hold(1500, two).hold(1500, [two[0]!]).hold(1500, two));
    // the 2 alone is proposed (dice taken away: the app sets it aside); both again are the first read
    expect(proposals.map(faces)).toEqual([['2', '5'], ['2']]);
  });

  it('dice thrown to lie as they lay two throws ago, the table cleared between, are a new read', () => {
    const two = [die(100, 100, '2'), die(220, 130, '5')];
    const other = [die(400, 300, '6'), die(480, 320, '1')];
    const { proposals } = run(new Script().hold(1500, two).hold(1000, []).hold(1500, other).hold(1000, []).hold(1500, two));
    expect(proposals.map(faces)).toEqual([['2', '5'], ['6', '1'], ['2', '5']]);
    // the table cleared, the last read found again where it lay is still no new read (a hand passed over)
    expect(run(new Script().hold(1500, two).hold(1000, []).hold(1500, two)).proposals).toHaveLength(1);
  });

  it('two dice turned in place to show each other\'s face are a new read (the same dice, not the same faces)', () => {
    const two = [die(100, 100, '2'), die(220, 130, '5')];
    const swapped = [die(100, 100, '5'), die(220, 130, '2')];
    const { proposals } = run(new Script().hold(1500, two).hold(1500, swapped));
    expect(proposals.map(faces)).toEqual([['2', '5'], ['5', '2']]);
  });

  it('a die read, then unread again and again where it lies, is the reader\'s doubt: no turn, no new read', () => {
    const two = [die(100, 100, '2'), die(220, 130, '5')];
    const doubted = [two[0]!, { ...two[1]!, face: null }];
    const { proposals, updates } = run(new Script().hold(1500, two).hold(2500, doubted));
    expect(proposals).toHaveLength(1);
    // not a die turned by hand (a new read): the read stays settled throughout
    expect(updates.slice(46).every((u) => u.phase === 'settled')).toBe(true);
    // its vote goes to ? in the end; a die come and gone beside it starts a read of the same two dice: no new read
    const later = run(new Script().hold(1500, two).hold(2500, doubted).hold(300, [...doubted, die(400, 300, '4')]).hold(1500, doubted));
    expect(later.proposals).toHaveLength(1);
  });

  it('a die come back that lay still through a read, nudged later, is no new roll', () => {
    const two = [die(100, 100, '2'), die(220, 130, '5')];
    const slide = (i: number) => [two[0]!, die(220 + i * 4, 130 + i * 5, '5')];
    const { proposals } = run(new Script().hold(1500, two).show(4, [two[0]!]).hold(1500, two).show(5, slide).hold(1500, [two[0]!, die(240, 155, '5')]));
    expect(proposals).toHaveLength(1);
  });

  it('a die found again where it was lost but then rolling was thrown: a new read', () => {
    const one = [die(200, 200, '4')];
    const rolling = (i: number) => [die(200 + 10 * i, 200, '4')];
    const { proposals } = run(new Script().hold(1500, one).show(5, []).show(12, rolling).hold(1500, [die(310, 200, '4')]));
    expect(proposals).toHaveLength(2);
  });

  it('a hand passing over the dice is not a new roll', () => {
    const { proposals } = run(new Script().hold(1500, roll).hold(300, []).hold(1500, roll));
    expect(proposals).toHaveLength(1);
  });

  it('a nudged die showing the same face is not a new roll', () => {
    const nudged = roll.map((d, k) => (k === 1 ? { ...d, box: { ...d.box, x: d.box.x + 20, y: d.box.y + 25 } } : d));
    const slide = (i: number) => roll.map((d, k) => (k === 1 ? { ...d, box: { ...d.box, x: d.box.x + i * 4, y: d.box.y + i * 5 } } : d));
    const { proposals } = run(new Script().hold(1500, roll).show(5, slide).hold(1500, nudged));
    expect(proposals).toHaveLength(1);
  });

  it('a die turned to another face is a new read', () => {
    const turned = roll.map((d, k) => (k === 4 ? { ...d, face: '1' } : d));
    const { proposals } = run(new Script().hold(1500, roll).hold(1500, turned));
    expect(proposals.map(faces)).toEqual([
      ['1', '5', '3', '3', '6'],
      ['1', '5', '3', '3', '1'],
    ]);
  });

  it('dice thrown one at a time: each new die is a new read', () => {
    const first = [die(100, 100, 'star')];
    const second = [...first, die(300, 140, 'circle')];
    const { proposals } = run(new Script().hold(1200, first).hold(1200, second));
    expect(proposals.map(faces)).toEqual([['star'], ['star', 'circle']]);
  });

  it('keeps unread faces as null', () => {
    const { proposals } = run(new Script().hold(1200, [die(100, 100, null), die(200, 100, '2')]));
    expect(faces(proposals[0]!)).toEqual([null, '2']);
  });

  it('lists dice left to right', () => {
    const { proposals } = run(new Script().hold(1200, [die(400, 100, 'c'), die(100, 300, 'a'), die(250, 10, 'b')]));
    expect(faces(proposals[0]!)).toEqual(['a', 'b', 'c']);
  });

  it('restarts the settle clock after a gap in frames (camera paused)', () => {
    const tracker = new SettleTracker<Face>();
    const script = new Script().hold(300, roll).gap(5000).hold(200, roll);
    const { proposals } = run(script, tracker);
    expect(proposals).toEqual([]);
  });

  it('a slow phone reading each frame in over a second still proposes the roll; a pause far longer than its pace restarts the clock', () => {
    const paced = (times: number[]): Script => Object.assign(new Script(), { frames: times.map((t) => ({ t, dice: roll })) });
    // frames 1.1 s apart (maxGapMs is 1 s): the dice are still from frame to frame
    const slow = run(paced([0, 1100, 2200, 3300, 4400]));
    expect(slow.proposals).toHaveLength(1);
    expect(faces(slow.proposals[0]!)).toEqual(['1', '5', '3', '3', '6']);
    // the same pace, then the camera paused for 5 s: the first frames after it are no proof of stillness
    const tracker = new SettleTracker<Face>();
    const paused = run(paced([0, 1100, 2200, 3300, 8300, 8400]), tracker);
    expect(paused.proposals).toHaveLength(1);
    expect(paused.proposals[0]!.t).toBeLessThan(8300);
    const afterPause = new SettleTracker<Face>();
    // still settling when the pause came: the frames after it start the settle clock again
    expect(run(paced([0, 1100, 6100, 6200]), afterPause).proposals).toEqual([]);
  });

  it('does not re-propose the same dice after a pause', () => {
    const { proposals } = run(new Script().hold(1200, roll).gap(10_000).hold(1200, roll));
    expect(proposals).toHaveLength(1);
  });

  it('reset() forgets the last proposal: the dice on the table are proposed again', () => {
    const tracker = new SettleTracker<Face>();
    expect(run(new Script().hold(1200, roll), tracker).proposals).toHaveLength(1);
    tracker.reset();
    const again = new Script();
    again.t = 5000;
    expect(run(again.hold(1200, roll), tracker).proposals).toHaveLength(1);
  });

  it('property: still dice with isolated one-frame glitches are proposed exactly once, with their true faces', () => {
    const glitch = fc.oneof(
      fc.constant('none' as const),
      fc.constant('drop' as const),
      fc.constant('face' as const),
      fc.constant('ghost' as const),
      fc.constant('jitter' as const),
    );
    fc.assert(
      fc.property(fc.array(glitch, { minLength: 60, maxLength: 150 }), fc.integer({ min: 0, max: 4 }), (glitches, which) => {
        // isolated: a glitch frame is always followed by a clean frame
        const frames = glitches.flatMap((g) => (g === 'none' ? ['none' as const] : [g, 'none' as const]));
        const script = new Script();
        for (const g of frames) {
          script.show(1, () => {
            switch (g) {
              case 'drop':
                return roll.filter((_, k) => k !== which);
              case 'face':
                return roll.map((d, k) => (k === which ? { ...d, face: 'x' } : d));
              case 'ghost':
                return [...roll, die(700, 700, '2')];
              case 'jitter':
                return roll.map((d) => ({ ...d, box: { ...d.box, x: d.box.x + 4, y: d.box.y - 4 } }));
              default:
                return roll;
            }
          });
        }
        script.hold(700, roll);
        const { proposals } = run(script);
        expect(proposals).toHaveLength(1);
        expect(faces(proposals[0]!)).toEqual(['1', '5', '3', '3', '6']);
      }),
      { numRuns: 200, seed: 42 },
    );
  });
});

describe('cameraExpectation', () => {
  const anchors = [
    { x: 100, y: 100 },
    { x: 300, y: 120 },
    { x: 200, y: 300 },
    { x: 420, y: 260 },
    { x: 150, y: 420 },
  ];
  // the camera turned 2°, zoomed 3% and shifted (12, -7) about the origin
  const th = (2 * Math.PI) / 180;
  const camera = (p: { x: number; y: number }) => ({
    x: 1.03 * (Math.cos(th) * p.x - Math.sin(th) * p.y) + 12,
    y: 1.03 * (Math.sin(th) * p.x + Math.cos(th) * p.y) - 7,
  });

  it('recovers the camera motion from four or more dice', () => {
    const expected = cameraExpectation(anchors, anchors.map(camera), 5);
    expected.forEach((p, k) => {
      expect(p.x).toBeCloseTo(camera(anchors[k]!).x, 6);
      expect(p.y).toBeCloseTo(camera(anchors[k]!).y, 6);
    });
  });

  it('a die that really moved stands out of the fit', () => {
    const now = anchors.map(camera);
    now[3] = { x: now[3]!.x + 60, y: now[3]!.y };
    const expected = cameraExpectation(anchors, now, 5);
    expect(Math.hypot(expected[3]!.x - now[3]!.x, expected[3]!.y - now[3]!.y)).toBeGreaterThan(55);
    for (const k of [0, 1, 2, 4]) expect(Math.hypot(expected[k]!.x - now[k]!.x, expected[k]!.y - now[k]!.y)).toBeLessThan(1);
  });

  it('two or three dice give a shift, robust to one die moving among three', () => {
    const three = anchors.slice(0, 3);
    const now = three.map((p) => ({ x: p.x + 5, y: p.y - 4 }));
    now[1] = { x: now[1]!.x + 50, y: now[1]!.y };
    const expected = cameraExpectation(three, now);
    expect(expected[0]).toEqual({ x: 105, y: 96 });
    expect(expected[1]).toEqual({ x: 305, y: 116 });
  });

  it('one die, or a motion larger than a shake, is not the camera', () => {
    expect(cameraExpectation([anchors[0]!], [{ x: 140, y: 100 }])).toEqual([anchors[0]]);
    const far = anchors.map((p) => ({ x: p.x + 80, y: p.y }));
    expect(cameraExpectation(anchors, far, 5, 40)).toEqual(anchors);
    expect(cameraExpectation(anchors, far, 5, 100)[0]!.x).toBeCloseTo(180, 6);
  });

  it('dice going every way are not a camera motion', () => {
    const scattered = anchors.map((p, k) => ({ x: p.x + [40, -30, 0, 25, -45][k]!, y: p.y + [0, 35, -40, 30, 10][k]! }));
    expect(cameraExpectation(anchors, scattered, 5)).toEqual(anchors);
  });

  it('refuses mismatched lists', () => {
    expect(() => cameraExpectation(anchors, anchors.slice(1))).toThrow(RangeError);
  });
});

describe('the camera turned (a phone delivers frames the way it is held)', () => {
  const LANDSCAPE = { width: 640, height: 360 };
  const PORTRAIT = { width: 360, height: 640 };
  const [, clockwise, , anticlockwise] = quarterTurns(LANDSCAPE, PORTRAIT);
  /** `dice` as a phone turned by `turn` sees them, moved by (dx, dy) as the hand turning it moves it. */
  const seenTurned = (dice: DieDetection<Face>[], turn: BoxMap, dx = 0, dy = 0) => dice.map((d) => ({ ...d, box: { ...turn(d.box), x: turn(d.box).x + dx, y: turn(d.box).y + dy } }));
  const sized = (frames: DetectionFrame<Face>[], size: { width: number; height: number }) => frames.map((f) => ({ ...f, size }));

  it('quarterTurns: the picture turned clockwise puts its top left corner top right', () => {
    const corner = { x: 0, y: 0, w: 64, h: 36 };
    expect(clockwise!(corner)).toEqual({ x: 324, y: 0, w: 36, h: 64 });
    expect(anticlockwise!(corner)).toEqual({ x: 0, y: 640 - 64, w: 36, h: 64 });
    expect(quarterTurns(LANDSCAPE, LANDSCAPE)[0]!(corner)).toEqual(corner);
  });

  it('the screen rotating with the phone keeps the table upright: the same picture framed anew is not a new read', () => {
    const tracker = new SettleTracker<Face>();
    // five dice about the middle of a landscape frame, framed anew in a portrait one
    const middle = roll.map((d) => ({ ...d, box: { ...d.box, x: d.box.x - 20, y: d.box.y + 60 } }));
    const before = new Script().hold(2000, middle);
    expect(run({ frames: sized(before.frames, LANDSCAPE) } as Script, tracker).proposals).toHaveLength(1);
    const after = new Script();
    after.t = before.t;
    const reframed = seenTurned(middle, quarterTurns(LANDSCAPE, PORTRAIT)[0]!, 10, -20);
    const { proposals, updates } = run({ frames: sized(after.hold(3000, reframed).frames, PORTRAIT) } as Script, tracker);
    expect(proposals).toEqual([]);
    expect(updates[0]!.turned!(middle[0]!.box)).toMatchObject({ x: expect.closeTo(reframed[0]!.box.x, 0), y: expect.closeTo(reframed[0]!.box.y, 0) });
  });

  for (const [name, turn] of [['clockwise', clockwise!], ['anticlockwise', anticlockwise!]] as const) {
    it(`still dice seen after the phone turned ${name} (and moved two dice' width) are not a new read`, () => {
      const tracker = new SettleTracker<Face>();
      const before = new Script().hold(2000, roll);
      const first = run({ frames: sized(before.frames, LANDSCAPE) } as Script, tracker);
      expect(first.proposals).toHaveLength(1);
      const after = new Script();
      after.t = before.t;
      after.hold(3000, seenTurned(roll, turn, 70, -50));
      const { proposals, updates } = run({ frames: sized(after.frames, PORTRAIT) } as Script, tracker);
      expect(proposals).toEqual([]);
      expect(updates[0]!.turned).not.toBeNull();
      expect(updates.slice(1).every((u) => u.turned === null)).toBe(true);
      expect(updates.every((u) => u.phase === 'settled')).toBe(true);
      expect(updates.at(-1)!.quiet).toBe(true);
      // the last proposal is carried into the new frame too
      expect(updates.at(-1)!.lastProposal!.dice.map((d) => d.face)).toEqual(faces(first.proposals[0]!));
    });
  }

  it('without the frame size, two turned dice look thrown: a new read (what the size is for); five keep their layout', () => {
    for (const [dice, reads] of [[roll.slice(0, 2), 1], [roll, 0]] as const) {
      const tracker = new SettleTracker<Face>();
      const before = new Script().hold(2000, [...dice]);
      run(before, tracker);
      const after = new Script();
      after.t = before.t;
      const { proposals, updates } = run(after.hold(3000, seenTurned([...dice], clockwise!)), tracker);
      expect(proposals).toHaveLength(reads);
      expect(updates.every((u) => u.turned === null)).toBe(true);
    }
  });

  it('frames without dice as the phone turns (blurred) put off the turn to the first frame with dice', () => {
    const tracker = new SettleTracker<Face>();
    const before = new Script().hold(2000, roll);
    run({ frames: sized(before.frames, LANDSCAPE) } as Script, tracker);
    const after = new Script();
    after.t = before.t;
    after.show(8, []).hold(3000, seenTurned(roll, clockwise!, -40, 60));
    const { proposals, updates } = run({ frames: sized(after.frames, PORTRAIT) } as Script, tracker);
    expect(proposals).toEqual([]);
    expect(updates.findIndex((u) => u.turned !== null)).toBe(8);
  });

  it('a lone die, turned with the phone, is not a new read', () => {
    const tracker = new SettleTracker<Face>();
    const lone = [die(500, 60, '4')];
    const before = new Script().hold(2000, lone);
    expect(run({ frames: sized(before.frames, LANDSCAPE) } as Script, tracker).proposals).toHaveLength(1);
    const after = new Script();
    after.t = before.t;
    expect(run({ frames: sized(after.hold(3000, seenTurned(lone, anticlockwise!)).frames, PORTRAIT) } as Script, tracker).proposals).toEqual([]);
  });

  it('two dice lost as the phone turns and found where no turn lays them are not a new read soon after; thrown later, or showing other faces, they are', () => {
    expect(TURNED_SAME_FACES_MS).toBe(3000);
    const two = [die(200, 100, '4'), die(300, 120, '2')];
    // found again 3 die sizes apart, not 1: no turn and shift lays both, so a new read settles
    const elsewhere = [die(100, 300, '2'), die(250, 420, '4')];
    const turnedWith = (then: DieDetection<Face>[], gapMs: number) => {
      const tracker = new SettleTracker<Face>();
      const before = new Script().hold(2000, two);
      expect(run({ frames: sized(before.frames, LANDSCAPE) } as Script, tracker).proposals).toHaveLength(1);
      const after = new Script();
      after.t = before.t;
      after.show(3, [die(180, 200, '4')]).show(3, []).gap(gapMs).hold(2000, then);
      return run({ frames: sized(after.frames, PORTRAIT) } as Script, tracker).proposals;
    };
    expect(turnedWith(elsewhere, 0)).toEqual([]);
    // the table quiet for 3 s after the turn, then the same two faces: a throw
    expect(turnedWith(elsewhere, 3000)).toHaveLength(1);
    // other faces soon after the turn: a throw
    expect(turnedWith([die(100, 300, '2'), die(250, 420, '5')], 0)).toHaveLength(1);
  });

  it('the phone\'s sensor telling it turned opens the same window at the same frame size (a locked screen), from its time on', () => {
    const two = [die(200, 100, '4'), die(300, 120, '2')];
    const elsewhere = [die(100, 300, '2'), die(250, 320, '4')];
    const lockedTurn = (turnedAt: number | null) => {
      const tracker = new SettleTracker<Face>();
      const before = new Script().hold(2000, two);
      run({ frames: sized(before.frames, LANDSCAPE) } as Script, tracker);
      if (turnedAt !== null) tracker.phoneTurned(before.t + turnedAt);
      const after = new Script();
      after.t = before.t;
      after.show(3, []).hold(2000, elsewhere);
      return run({ frames: sized(after.frames, LANDSCAPE) } as Script, tracker).proposals;
    };
    expect(lockedTurn(null)).toHaveLength(1);
    expect(lockedTurn(100)).toEqual([]);
    // a turn told after the read settled says nothing of it
    expect(lockedTurn(5000)).toHaveLength(1);
  });

  it('dice thrown while the phone turned are a new read', () => {
    const tracker = new SettleTracker<Face>();
    const before = new Script().hold(2000, roll);
    run({ frames: sized(before.frames, LANDSCAPE) } as Script, tracker);
    const thrown = [die(40, 400, '2'), die(200, 500, '2'), die(280, 300, '4'), die(100, 200, '6'), die(250, 100, '5')];
    const after = new Script();
    after.t = before.t;
    const { proposals } = run({ frames: sized(after.hold(3000, thrown).frames, PORTRAIT) } as Script, tracker);
    expect(proposals).toHaveLength(1);
    expect(faces(proposals[0]!).sort()).toEqual(thrown.map((d) => d.face).sort());
  });
});

describe('the phone turned over (on its side, the other way up: the frames keep their size), or moved far', () => {
  const LANDSCAPE = { width: 640, height: 360 };
  const [, , halfTurn] = quarterTurns(LANDSCAPE, LANDSCAPE);
  const sized = (frames: DetectionFrame<Face>[]) => frames.map((f) => ({ ...f, size: LANDSCAPE }));
  const over = (dice: DieDetection<Face>[], dx = 0, dy = 0) => dice.map((d) => ({ ...d, box: { ...halfTurn!(d.box), x: halfTurn!(d.box).x + dx, y: halfTurn!(d.box).y + dy } }));
  const afterSettling = (dice: DieDetection<Face>[], then: DieDetection<Face>[]) => {
    const tracker = new SettleTracker<Face>();
    const before = new Script().hold(2000, dice);
    expect(run({ frames: sized(before.frames) } as Script, tracker).proposals).toHaveLength(1);
    const after = new Script();
    after.t = before.t;
    return run({ frames: sized(after.hold(3000, then).frames) } as Script, tracker);
  };

  it('still dice seen the other way up (and moved a little) are not a new read', () => {
    const { proposals, updates } = afterSettling(roll, over(roll, 30, 20));
    expect(proposals).toEqual([]);
    expect(updates[0]!.turned).not.toBeNull();
    expect(updates.at(-1)!.quiet).toBe(true);
  });

  it('two dice turned over are not a new read either; a lone die cannot tell a turn from a throw', () => {
    const two = roll.slice(0, 2);
    expect(afterSettling(two, over(two)).proposals).toEqual([]);
    const one = [die(100, 100, '4')];
    expect(afterSettling(one, over(one)).proposals).toHaveLength(1);
  });

  it('still dice all shifted further than a shake in one frame (the phone moved, a tray pushed) are not a new read', () => {
    const shifted = roll.map((d) => ({ ...d, box: { ...d.box, x: d.box.x + 2.5 * SIZE, y: d.box.y + SIZE } }));
    expect(afterSettling(roll, shifted).proposals).toEqual([]);
    // without the frame size the tracker does not carry its dice over, but the read settled after is the same layout
    const tracker = new SettleTracker<Face>();
    const before = new Script().hold(2000, roll);
    run(before, tracker);
    const after = new Script();
    after.t = before.t;
    const { proposals, updates } = run(after.hold(3000, shifted), tracker);
    expect(proposals).toEqual([]);
    expect(updates.some((u) => u.phase === 'settling')).toBe(true);
  });

  it('dice thrown to new places are a new read, and so are dice at the turned places showing other faces', () => {
    expect(afterSettling(roll, rerolled).proposals).toHaveLength(1);
    const otherFaces = over(roll).map((d, i) => ({ ...d, face: String(((i + 1) % 6) + 1) }));
    expect(afterSettling(roll, otherFaces).proposals).toHaveLength(1);
  });
});

describe('sameLayoutMoved: the same dice, faces and layout wherever the camera has gone', () => {
  const moved = (dice: DieDetection<Face>[], angle: number, scale: number, dx: number, dy: number) =>
    dice.map((d) => {
      const [x, y] = [d.box.x + d.box.w / 2, d.box.y + d.box.h / 2];
      const cx = dx + scale * (x * Math.cos(angle) - y * Math.sin(angle));
      const cy = dy + scale * (x * Math.sin(angle) + y * Math.cos(angle));
      return { ...d, box: { x: cx - d.box.w / 2, y: cy - d.box.h / 2, w: d.box.w, h: d.box.h } };
    });
  const spread = [die(100, 100, '1'), die(260, 140, '5'), die(180, 300, '3'), die(400, 220, '3'), die(330, 60, '6')];

  it('takes the layout turned by any angle, shifted and zoomed a little', () => {
    expect(sameLayoutMoved(spread, moved(spread, 0.5, 1.1, 300, -50))).toBe(true);
    expect(sameLayoutMoved(spread, moved(spread, Math.PI, 0.9, 500, 400).reverse())).toBe(true);
  });

  it('refuses the same faces in another layout, a zoom past 1.25, another face, or fewer than three dice', () => {
    expect(sameLayoutMoved(spread, rerolled)).toBe(false);
    expect(sameLayoutMoved(spread, moved(spread, 0.5, 1.5, 300, -50))).toBe(false);
    expect(sameLayoutMoved(spread, moved(spread, 0.5, 1, 300, -50).map((d, i) => (i === 2 ? { ...d, face: '4' } : d)))).toBe(false);
    expect(sameLayoutMoved(spread.slice(0, 2), moved(spread.slice(0, 2), 0.5, 1, 300, -50))).toBe(false);
    // a die moved by a third of its size from where the camera's move takes it
    expect(sameLayoutMoved(spread, moved(spread, 0, 1, 0, 0).map((d, i) => (i === 1 ? { ...d, box: { ...d.box, x: d.box.x + SIZE / 3 } } : d)))).toBe(false);
  });
});
