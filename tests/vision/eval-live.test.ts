import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cutCrop, gameRollRows, restRereads, throwsRead, turnedRests, type FrameDie, type LiveSummary as LiveRow, type PhotoVideo } from '../../scripts/eval-live.ts';
import { REPO, runCli } from './cli-helpers.ts';

const webcam = path.join(REPO, 'tests/fixtures/dice-photos/matteop65-val-sample');

// each case runs the CLI over videos of the fixture photos: 20–30 s alone on two cores, more beside other work
describe('npm run eval:live', { timeout: 90_000 }, () => {
  it('reads a shaken video of each photo and replays it through the settle tracker; the reads replay alike', () => {
    const reads = path.join(mkdtempSync(path.join(tmpdir(), 'rollcall-live-')), 'reads.json');
    const r = runCli('scripts/eval-live.ts', ['--json', '--frames', '10', '--save-reads', reads, webcam]);
    expect(r.status, r.stderr).toBe(0);
    const [row] = JSON.parse(r.stdout) as LiveRow[];
    expect(row!.set).toBe('matteop65-val-sample');
    expect(row!.photos).toBe(5);
    // still white dice under a webcam: every roll is proposed, from the 2nd frame + 600 ms on
    expect(row!.proposed).toBe(1);
    expect(row!.proposalMs.median).toBeGreaterThanOrEqual(125 + 600);
    expect(row!.proposal.f1).toBeGreaterThan(0.9);
    // the webcam's dice, in focus: the table never says they look blurred
    expect(row!.blurredFrames).toBe(0);
    const saved = JSON.parse(readFileSync(reads, 'utf8')) as Array<{ frames: unknown[] }>;
    expect(saved).toHaveLength(5);
    expect(saved.every((v) => v.frames.length === 10)).toBe(true);

    const again = runCli('scripts/eval-live.ts', ['--json', '--reads', reads]);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([row]);
    // a settle time longer than the video: nothing proposed
    const slow = runCli('scripts/eval-live.ts', ['--json', '--reads', reads, '--tracker', '{"settleMs":5000}']);
    expect((JSON.parse(slow.stdout) as LiveRow[])[0]!.proposed).toBe(0);
  });

  it('--unsure replays pip reads with another unsure rule: a wrong value read unsurely is asked for, not proposed', () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'rollcall-live-unsure-'));
    const reads = path.join(tmp, 'reads.json');
    const r = runCli('scripts/eval-live.ts', ['--json', '--frames', '10', '--save-reads', reads, webcam]);
    expect(r.status, r.stderr).toBe(0);
    const [row] = JSON.parse(r.stdout) as LiveRow[];
    expect(row!.asked).toBe(0);
    expect(row!.wrongConfirmable).toBe(0);
    type SavedDie = { value: number | null; valueProbability?: number; unsure?: true };
    const saved = JSON.parse(readFileSync(reads, 'utf8')) as Array<{ frames: SavedDie[][] }>;
    // every die read carries the reader's probability
    expect(saved.flatMap((v) => v.frames.flat()).every((d) => d.valueProbability! > 0 && d.valueProbability! <= 1)).toBe(true);
    // the first photo's first die misread in every frame: surely (0.9), then unsurely (0.2)
    const misread = (p: number): string => {
      const file = path.join(tmp, `misread-${p}.json`);
      const frames = saved[0]!.frames.map((dice) => dice.map((d, i) => (i === 0 ? { ...d, value: (d.value! % 6) + 1, valueProbability: p } : d)));
      writeFileSync(file, JSON.stringify([{ ...saved[0], frames }, ...saved.slice(1)]));
      return file;
    };
    const replay = (file: string, unsure: string): LiveRow => {
      const out = runCli('scripts/eval-live.ts', ['--json', '--reads', file, '--unsure', unsure]);
      expect(out.status, out.stderr).toBe(0);
      return (JSON.parse(out.stdout) as LiveRow[])[0]!;
    };
    expect(replay(reads, 'off')).toEqual(row);
    const sure = replay(misread(0.9), '0.5');
    expect([sure.asked, sure.wrongConfirmable, sure.proposal.exactOfPhotos]).toEqual([0, 0.2, row!.proposal.exactOfPhotos - 0.2]);
    const unsure = replay(misread(0.2), '0.5');
    expect([unsure.asked, unsure.wrongConfirmable, unsure.proposal.exactOfPhotos]).toEqual([0.2, 0, row!.proposal.exactOfPhotos - 0.2]);
    expect(replay(misread(0.2), 'off').wrongConfirmable).toBe(0.2);
    const bad = runCli('scripts/eval-live.ts', ['--reads', reads, '--unsure', '2']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--unsure: a probability in \[0, 1\], or off/);
  });

  it('--kit reads the frames as a kit\'s faces: one kit per folder, folders of the same name told apart', () => {
    // each rendered roll (tests/fixtures/symbol-photos/rolls) in a dataset of its own, read with its kit's printed art
    const tmp = mkdtempSync(path.join(tmpdir(), 'rollcall-live-kit-'));
    const labels = JSON.parse(readFileSync(path.join(REPO, 'tests/fixtures/symbol-photos/rolls/labels.json'), 'utf8')) as { images: Array<{ file: string }> };
    const dirs = ['face-off', 'corellian-spike'].map((kit) => {
      const dir = path.join(tmp, kit, 'rolls');
      mkdirSync(dir, { recursive: true });
      const images = labels.images.filter((im) => im.file.startsWith(kit));
      for (const im of images) copyFileSync(path.join(REPO, 'tests/fixtures/symbol-photos/rolls', im.file), path.join(dir, im.file));
      writeFileSync(path.join(dir, 'labels.json'), JSON.stringify({ ...labels, images }));
      return dir;
    });
    const kits = ['face-off', 'corellian-spike'].flatMap((kit) => ['--kit', path.join(REPO, 'src/lib/dice/kits', kit)]);
    const r = runCli('scripts/eval-live.ts', ['--json', '--frames', '16', ...kits, ...dirs]);
    expect(r.status, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as LiveRow[];
    expect(rows.map((row) => row.set)).toEqual(['face-off/rolls', 'corellian-spike/rolls', 'overall']);
    // five still dice each, read from the art: proposed, and mostly right
    for (const row of rows) {
      expect(row.proposed).toBe(1);
      expect(row.proposal.f1).toBeGreaterThan(0.75);
    }
    const mismatched = runCli('scripts/eval-live.ts', ['--frames', '8', ...kits, dirs[0]!]);
    expect(mismatched.status).toBe(2);
    expect(mismatched.stderr).toMatch(/--kit: give one kit for all the folders, or one per folder/);
  });

  it('--condition puts a camera condition on every frame, each frame drawn afresh', () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'rollcall-live-cond-'));
    const framesOf = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as Array<{ frames: Array<Array<{ score: number }>> }>).map((v) => v.frames);
    const plain = runCli('scripts/eval-live.ts', ['--frames', '2', '--save-reads', path.join(tmp, 'plain.json'), webcam]);
    expect(plain.status, plain.stderr).toBe(0);
    const swing = runCli('scripts/eval-live.ts', ['--frames', '2', '--condition', 'swing', '--save-reads', path.join(tmp, 'swing.json'), webcam]);
    expect(swing.status, swing.stderr).toBe(0);
    expect(swing.stdout).toMatch(/every frame under swing \(the phone still swinging/);
    // the same photos and shake, read through a blur: the detector's scores move
    expect(framesOf(path.join(tmp, 'swing.json'))).not.toEqual(framesOf(path.join(tmp, 'plain.json')));
    const again = runCli('scripts/eval-live.ts', ['--frames', '2', '--condition', 'swing', '--save-reads', path.join(tmp, 'again.json'), webcam]);
    expect(framesOf(path.join(tmp, 'again.json'))).toEqual(framesOf(path.join(tmp, 'swing.json')));
  });

  it('--cut crops each photo so that one die lies cut by the frame\'s edge, scored by its label cut to the frame', () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'rollcall-live-cut-'));
    const reads = path.join(tmp, 'cut.json');
    const r = runCli('scripts/eval-live.ts', ['--frames', '2', '--cut', '0.5', '--save-reads', reads, webcam]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/one die of each photo cut by the frame's edge, 0\.5 of it in view \(--cut; \d photos could be cut so\)/);
    const videos = JSON.parse(readFileSync(reads, 'utf8')) as PhotoVideo[];
    expect(videos.length).toBeGreaterThan(0);
    for (const v of videos) {
      // the webcam's 640 × 480 photos, read at 1280 × 960, cropped; the labels in the photo's pixels, cropped alike
      const frame = v.frameSize!;
      expect(frame.width * frame.height).toBeLessThan(1280 * 960);
      const photo = { width: (frame.width * 640) / 1280, height: (frame.height * 480) / 960 };
      const atEdge = v.truth.filter((d) => d.box.x <= 0.01 || d.box.y <= 0.01 || d.box.x + d.box.w >= photo.width - 0.01 || d.box.y + d.box.h >= photo.height - 0.01);
      expect(atEdge.length).toBeGreaterThanOrEqual(1);
      expect(v.truth.every((d) => d.box.x >= -0.01 && d.box.y >= -0.01 && d.box.x + d.box.w <= photo.width + 0.01 && d.box.y + d.box.h <= photo.height + 0.01)).toBe(true);
    }
    const c = runCli('scripts/eval-live.ts', ['--cut', '1.5', webcam]);
    expect(c.status).toBe(2);
    expect(c.stderr).toMatch(/--cut: the share of the cut die left in view, between 0 and 1 \(got 1\.5\)/);
    const again = runCli('scripts/eval-live.ts', ['--cut', '0.5', '--reads', reads]);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/--cut crops the photos before they are read/);
  });

  it('bad usage: exit 2 with a message', () => {
    const c = runCli('scripts/eval-live.ts', ['--condition', 'fog', webcam]);
    expect(c.status).toBe(2);
    expect(c.stderr).toMatch(/--condition: one of dim, tungsten/);
    const h = runCli('scripts/eval-live.ts', ['--holdout', webcam]);
    expect(h.status).toBe(2);
    expect(h.stderr).toMatch(/--holdout reads the held-out slices/);
    const r = runCli('scripts/eval-live.ts', ['--shake', '7', webcam]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/usage: npm run eval:live/);
    const t = runCli('scripts/eval-live.ts', ['--tracker', '{oops', webcam]);
    expect(t.status).toBe(2);
    expect(t.stderr).toMatch(/--tracker: not JSON/);
    const i = runCli('scripts/eval-live.ts', ['--idle-fps', '0', webcam]);
    expect(i.status).toBe(2);
    expect(i.stderr).toMatch(/--idle-fps: frames a second, or off \(got 0\)/);
  });
});

describe('eval:live: the rolls a game throws, apart', () => {
  const video = (file: string, dice: number): PhotoVideo => ({
    set: 's', file, wholeDie: true, frames: [],
    truth: Array.from({ length: dice }, (_, i) => ({ box: { x: 30 * i, y: 0, w: 20, h: 20 }, value: 1 })),
  });
  // the summary's own figures do not matter here: which photos each row is made of does
  const byPhotos = (name: string, videos: readonly PhotoVideo[]): LiveRow => ({ set: name, photos: videos.length }) as LiveRow;

  it('adds a row of the photos of at most six dice (the most a game throws) after a set that has larger ones', () => {
    const rows = gameRollRows('s', [video('a', 2), video('b', 6), video('c', 7), video('d', 20)], byPhotos);
    expect(rows.map((r) => [r.set, r.photos])).toEqual([['s', 4], ['s ≤ 6 dice', 2]]);
  });

  it('adds none where every photo, or none, is a game\'s roll', () => {
    expect(gameRollRows('s', [video('a', 5), video('b', 6)], byPhotos).map((r) => r.set)).toEqual(['s']);
    expect(gameRollRows('s', [video('a', 9)], byPhotos).map((r) => r.set)).toEqual(['s']);
  });
});

describe('eval:live --cut: where a photo is cropped', () => {
  const frame = { width: 1000, height: 800 };
  const die = (x: number, y: number, side = 100) => ({ box: { x, y, w: side, h: side } });

  it('cuts the die nearest an edge, keeping the most of the frame', () => {
    // a die 50 px from the left, the others far from every edge: the left crop keeps the most
    const plan = cutCrop([die(50, 300), die(400, 300), die(600, 500)], frame, 0.3);
    expect(plan).toEqual({ crop: { x: 120, y: 0, w: 880, h: 800 }, cut: 0 });
    // the die at the bottom edge cut to 0.5 of its side
    expect(cutCrop([die(400, 690), die(400, 300)], frame, 0.5)).toEqual({ crop: { x: 0, y: 0, w: 1000, h: 740 }, cut: 0 });
  });

  it('never cuts a second die, nor keeps under half the frame', () => {
    // beside the left die another whose box the left line would cross: the next best side
    const plan = cutCrop([die(50, 300), die(80, 500), die(850, 300)], frame, 0.5);
    expect(plan?.cut).toBe(2);
    expect(plan?.crop).toEqual({ x: 0, y: 0, w: 900, h: 800 });
    // a die in the middle of the frame: every crop would keep under half of it
    expect(cutCrop([die(450, 350)], frame, 0.3)).toBeNull();
    expect(cutCrop([], frame, 0.5)).toBeNull();
  });
});

describe('eval:live --rests', () => {
  const FRAME_MS = 125;
  const at = (x: number, y: number, value: number): FrameDie => {
    const box = { x, y, w: 40, h: 40 };
    return { frameBox: box, photoBox: box, value, score: 0.9 };
  };
  /** Two dice lying still for 80 frames while the camera drifts 1 px a frame; the 5 lost by the detector in `lost` frames. */
  const rest = (file: string, lost: (i: number) => boolean, x = 100): PhotoVideo => ({
    set: 'table',
    file,
    wholeDie: true,
    truth: [],
    frames: Array.from({ length: 80 }, (_, i) => [at(x + i, 100, 2), ...(lost(i) ? [] : [at(x + 120 + i, 130, 5)])]),
  });

  it('counts the still dice settled on again and offered as a new roll after the first proposal', () => {
    // lost for 3 frames (375 ms): the same die found again, nothing settles again
    expect(restRereads([rest('flicker', (i) => i >= 40 && i < 43)], FRAME_MS, {}, null)).toEqual({ settledAgain: 0, offeredAgain: 0, readsPerSecond: 8 });
    // lost for 12 frames (1.5 s): a read of the 2 alone, then of both dice. Both are offered: the 2
    // has drifted 0.75 of a die from where it was read (onlyDiceTakenAway compares where dice lie)
    expect(restRereads([rest('gone', (i) => i >= 30 && i < 42)], FRAME_MS, {}, null)).toMatchObject({ settledAgain: 2, offeredAgain: 2 });
    // the same without the drift: the 2 alone is dice taken away, and both dice where they lay are no new read
    const propped = rest('propped', (i) => i >= 30 && i < 42);
    propped.frames = propped.frames.map((dice) => dice.map((d) => ({ ...d, frameBox: { ...d.frameBox, x: d.frameBox.x < 200 ? 100 : 220 } })));
    expect(restRereads([propped], FRAME_MS, {}, null)).toMatchObject({ settledAgain: 1, offeredAgain: 0 });
  });

  it('reads still dice at the idle pace, and a die lost at rest at the full pace again, so the rest reads as at every frame', () => {
    for (const lost of [() => false, (i: number) => i >= 40 && i < 43, (i: number) => i >= 30 && i < 42]) {
      const everyFrame = restRereads([rest('r', lost)], FRAME_MS, {}, null);
      const paced = restRereads([rest('r', lost)], FRAME_MS, {}, 4);
      expect(paced.settledAgain).toBe(everyFrame.settledAgain);
      expect(paced.offeredAgain).toBe(everyFrame.offeredAgain);
      // 8 fps frames read at 4 a second while quiet: every second frame, and every frame around the loss
      expect(paced.readsPerSecond).toBeGreaterThanOrEqual(4);
      expect(paced.readsPerSecond).toBeLessThan(5);
    }
  });

  it('turns the phone after the first proposal: two still dice are not offered again when the frames give their size', () => {
    const still = () => false;
    const videos = [rest('a', still), rest('b', still, 300)].map((v) => ({ ...v, frameSize: { width: 640, height: 480 } }));
    expect(turnedRests(videos, FRAME_MS, {}, null)).toEqual({ rests: 2, offeredAgain: 0 });
    expect(turnedRests(videos, FRAME_MS, {}, 4)).toEqual({ rests: 2, offeredAgain: 0 });
    // a tracker told no frame size takes the turned dice for dice thrown
    expect(turnedRests(videos, FRAME_MS, {}, null, false)).toEqual({ rests: 2, offeredAgain: 2 });
    // with the screen's rotation locked: a quarter turn or a half turn of the picture, the frames' size the same
    for (const how of ['locked', 'over'] as const) {
      expect(turnedRests(videos, FRAME_MS, {}, null, true, how)).toEqual({ rests: 2, offeredAgain: 0 });
      expect(turnedRests(videos, FRAME_MS, {}, null, false, how)).toEqual({ rests: 2, offeredAgain: 2 });
      // still dice (these drift, and settle again only after 6 s): the phone's orientation sensor
      // telling a tracker without the frames' size that it turned makes the same faces no throw
      const lying = videos.map((v) => ({ ...v, frames: v.frames.map(() => v.frames[0]!) }));
      expect(turnedRests(lying, FRAME_MS, {}, null, false, how)).toEqual({ rests: 2, offeredAgain: 2 });
      expect(turnedRests(lying, FRAME_MS, {}, null, false, how, true)).toEqual({ rests: 2, offeredAgain: 0 });
    }
    // videos saved without their frames' size are left out
    expect(turnedRests([rest('c', still)], FRAME_MS, {}, null)).toEqual({ rests: 0, offeredAgain: 0 });
  });

  it('counts the throws read at one table: every ordered pair of the set, the table empty for a second between', () => {
    const still = () => false;
    const videos = [rest('a', still), rest('b', still, 400), rest('c', still, 100)];
    // a and c are the same dice at the same place: the second one is not a throw the tracker can see
    expect(throwsRead(videos, FRAME_MS, {}, null)).toEqual({ read: 4, pairs: 6, delayMs: { median: 750, p90: 750 } });
    // read at 4 fps while the table is empty (every second 8 fps frame): dice landing on a frame read are seen at once,
    expect(throwsRead(videos, FRAME_MS, {}, 4)).toEqual({ read: 4, pairs: 6, delayMs: { median: 750, p90: 750 } });
    // those landing on a frame skipped one frame later; at 1 fps up to seven frames later
    expect(throwsRead(videos, FRAME_MS, {}, null, 1125)).toMatchObject({ read: 4, delayMs: { median: 750 } });
    expect(throwsRead(videos, FRAME_MS, {}, 4, 1125)).toMatchObject({ read: 4, delayMs: { median: 875 } });
    expect(throwsRead(videos, FRAME_MS, {}, 1, 1125)).toMatchObject({ read: 4, delayMs: { median: 1625 } });
  });
});
