/**
 * npm run eval:live -- [--json] [--shake 0..2] [--frames N] [--fps N] [--save-reads FILE | --reads FILE]
 *                      [--tracker JSON] [--kit DIR]... [--model FILE.onnx] [--face-model FILE.onnx] [--learn]
 *                      [--holdout] [--condition NAME] [--unsure P|off] [--rests] [--idle-fps N|off] [--cut F] [DATASET_DIR...]
 *
 * How the camera read does at the table, simulated from labelled photos: each photo becomes a
 * short video (`--frames`, default 24, at `--fps`, default 8: three seconds) of a phone held over
 * still dice — the picture shaken by a hand (a bounded random walk of shift, turn and zoom, up to
 * 2% of the frame; `--shake 0`: a phone propped still, 2: a shakier hand) and each frame given
 * its own exposure and sensor noise. Every frame is read as the app reads it (detector, then
 * the die-face reader; knowing, as the game does, how many dice were thrown, here from the
 * labels: pip dice missed below that count are looked for again, die-face-reader.ts
 * `detectCounted`), and the reads go through the app's settle tracker
 * (src/lib/vision/settle.ts, shipped defaults; `--tracker '{"settleMs":800}'` overrides).
 * Printed per dataset: the first frame read alone (per-die F1, exact rolls), the share of
 * photos the tracker proposed a roll for within the video and how soon, and the first
 * proposal's per-die F1 and exact rolls (of the proposals, and of all photos: a roll never
 * proposed is a roll the player enters by hand). The proposal is scored as the table shows it:
 * knowing how many dice were thrown (from the labels here, from the game in the app), unread
 * boxes beside as many dice read are left out, and so is the least sure of one face read too many
 * (`cameraProposal`, src/app/cameraRead.ts). Then the share of photos whose proposal asks the
 * player for a face (`?`: a die read `other`, or a value read unsurely, die-face-reader.ts
 * `markUnsure`, `proposedValue`), and of those whose proposal is wrong though the player could
 * confirm it as it stands (every die given a value, the count right): the misreads a player may
 * not notice. Last,
 * the share of frames in which the table would tell the player the dice look blurred
 * (`diceLookBlurred`, over the frames so far; not where they look small, `diceLookSmall`, which
 * the table says first).
 *
 * A simulation, not video: the dice never move, so it measures the tracker against read noise
 * and camera shake, not against dice still rolling. Frames are 1280 px on the long side, as
 * the app's camera gives. `--save-reads` keeps the per-frame reads so that `--reads` can replay
 * them through other tracker options in seconds. With no folder it reads every `*-val` split;
 * `--holdout` reads the held-out slices of the train splits instead (what tracker and reading
 * rules are chosen on; datasets.ts `holdoutSlices`). `--condition NAME` puts one of the camera
 * conditions of `npm run eval -- --condition` (camera-conditions.ts) on every frame, each frame
 * drawn afresh (a blur's direction, the noise), as a video's frames differ. `--unsure P` replays
 * the pip reads with the die-face reader's `unsure` rule at P instead of its sidecar's (`off`: every
 * value read given), which is how that rule is chosen (models/record/at-the-table.md, "Unsure dice asked for").
 * `--cut F` crops each photo so that one die lies cut by the frame's edge with F of it in view (0–1,
 * `cutCrop`), as a die that rolled to the edge of the picture lies; the crop cuts no other die, and
 * a photo that cannot be cut so is left out. The cut die is scored by its label, cut to the frame:
 * the table should read it right or ask for it, not propose a wrong face.
 *
 * `--kit DIR` reads the frames as that kit's faces (detector + face embedder against the kit's
 * prototypes, as `npm run eval -- --kit` and the app's table camera for symbol games), labels
 * giving `"face"`. Give it once for all the folders, or once per folder in the same order (the
 * symbol evaluation set teaches each set its own kit). Folders that share a name (every set's
 * `rolls`) are shown by their parent's name. `--face-model` reads them with another face embedder
 * (its sidecar beside it), as `npm run eval:symbols` does; `--model` finds every set's dice with
 * another detector (by default pip dice with models/dice-pips.onnx and symbol kits' with
 * models/dice-symbols.onnx, as the app does).
 *
 * `--rests` also replays what follows each first proposal, the dice lying still for the rest of
 * the video: how often the tracker settles on them again and how many of those reads the table
 * would offer as a new roll (`restRereads`); the same with the phone turned during the rest
 * (`turnedRests`: on its side, its screen rotating or locked, or over); and, at what cost, throws made at one table: every
 * ordered pair of a set's photos, one read after the other with the table empty for a second
 * between (`throwsRead`), and how soon after they land. Longer videos (`--frames 80`: ten seconds)
 * show the rests. Frames are replayed as the table reads them (src/app/readPace.ts): every frame
 * while the dice change, no more than `--idle-fps` (the app's 4 by default; `off`: every frame)
 * while the table is settled or empty and quiet; the frames read a second at rest are printed.
 *
 * `--learn`: each folder is one table, its photos thrown in order, and the table learns from play
 * as the app's does (`Learning`, below): symbol kits from rolls proposed right, symbol kits and
 * pips from dice not read that the player fills in with one face.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { median, SettleTracker, type BoxMap, type FrameSize, type SettleOptions, type SettleUpdate, type TrackedDie } from '../src/lib/vision/settle.ts';
import { IDLE_READ_FPS, READ_FPS, readFps } from '../src/app/readPace.ts';
import { EvalAccumulator, exactRoll, percentile, type DieKey, type TruthDie } from '../src/lib/vision/metrics.ts';
import type { Box, RgbaImage } from '../src/lib/vision/types.ts';
import type { Detector } from '../src/lib/vision/detector.ts';
import type { DiceKit } from '../src/lib/dice/kit.ts';
import { holdoutSlices, loadDataset, readAsCameraFrame, type Dataset } from './lib/datasets.ts';
import { applyCameraCondition, CAMERA_CONDITIONS, CONDITION_NOTES, isCameraCondition, type CameraCondition } from './lib/camera-conditions.ts';
import { createNodeDetector, dataRoot, detectorModelFor, symbolDetectorModel } from './lib/node-vision.ts';
import { HelpRequest, runCli, UsageError } from './lib/cli.ts';
import { createNodeFaceEmbedder, createNodeKitReader, loadKitFolder, type NodeKitReader } from './lib/node-faces.ts';
import type { FaceDie, FacePrototype } from '../src/lib/vision/face-reader.ts';
import type { FaceEmbedder } from '../src/lib/vision/face-embedder.ts';
import { readOtherPips } from '../src/lib/vision/pip-learning.ts';
import { detectCounted, markUnsure, proposedValue, type DieFaceUnsure } from '../src/lib/vision/die-face-reader.ts';
import { filledValue, GAME_ROLL_DICE, learnFilledPips, valSplits } from './lib/evaluate.ts';
import { cropImage } from '../src/lib/vision/tiles.ts';
import { cameraProposal, valuesProposed, diceLookBlurred, diceLookSmall, diceToLearn, onlyDiceTakenAway } from '../src/app/cameraRead.ts';
import { diceEdgeWidth } from '../src/lib/vision/sharpness.ts';
import { gauss, random } from './lib/random.ts';

const USAGE = "usage: npm run eval:live -- [--json] [--shake 0..2] [--frames N] [--fps N] [--save-reads FILE | --reads FILE] [--tracker '{...}'] [--kit DIR]... [--model FILE.onnx] [--face-model FILE.onnx] [--learn] [--holdout] [--condition NAME] [--unsure P|off] [--rests] [--idle-fps N|off] [--cut F] [DATASET_DIR...]";

/** One die read in one frame: its box in the frame (what the tracker sees) and in the photo (what is scored). */
export interface FrameDie {
  frameBox: Box;
  photoBox: Box;
  /** The pip value, or the kit's face id (`--kit`); null: not read. */
  value: DieKey | null;
  score: number;
  /** The die-face reader's probability for its read (`Die.valueProbability`; absent in reads saved before it was kept). */
  valueProbability?: number;
  /** The reader read `value` unsurely: the table asks for the die (`Die.unsure`, `proposedValue`). */
  unsure?: true;
}

export interface PhotoVideo {
  set: string;
  file: string;
  wholeDie: boolean;
  /** The kit's face ids when read with `--kit` (absent: pip values). */
  faces?: string[];
  truth: TruthDie[];
  frames: FrameDie[][];
  /** Each frame's `diceEdgeWidth` over the dice read, and the frames' size (absent in reads saved before they were kept). */
  edgeWidths?: (number | null)[];
  frameSize?: { width: number; height: number };
}

const clamp = (v: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, v));

/** The camera's pose against the first frame: scale, turn (radians), shift (pixels). */
interface Pose {
  s: number;
  th: number;
  tx: number;
  ty: number;
}

/** The frame the camera sees at `pose` (bilinear, about the centre), with exposure `gain` and sensor noise of sd `noise`. */
function cameraFrame(src: RgbaImage, pose: Pose, gain: number, noise: number, r: () => number): RgbaImage {
  const { width: W, height: H, data } = src;
  const out = new Uint8Array(W * H * 4);
  const cx = W / 2;
  const cy = H / 2;
  const cos = Math.cos(pose.th) / pose.s;
  const sin = Math.sin(pose.th) / pose.s;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const dx = x - cx - pose.tx;
      const dy = y - cy - pose.ty;
      const u = clamp(cx + cos * dx + sin * dy, 0, W - 1.001);
      const v = clamp(cy - sin * dx + cos * dy, 0, H - 1.001);
      const x0 = Math.min(W - 2, Math.floor(u));
      const y0 = Math.min(H - 2, Math.floor(v));
      const fx = u - x0;
      const fy = v - y0;
      const o = (y * W + x) * 4;
      const p = (y0 * W + x0) * 4;
      const q = p + W * 4;
      const n = noise * gauss(r);
      for (let c = 0; c < 3; c++) {
        const top = data[p + c]! * (1 - fx) + data[p + 4 + c]! * fx;
        const bottom = data[q + c]! * (1 - fx) + data[q + 4 + c]! * fx;
        out[o + c] = clamp((top * (1 - fy) + bottom * fy) * gain + n, 0, 255);
      }
      out[o + 3] = 255;
    }
  }
  return { width: W, height: H, data: out };
}

/** A box of the frame back in the first frame's (unshaken) coordinates. */
function unshake(box: Box, pose: Pose, W: number, H: number): Box {
  const px = box.x + box.w / 2 - W / 2 - pose.tx;
  const py = box.y + box.h / 2 - H / 2 - pose.ty;
  const u = W / 2 + (Math.cos(pose.th) * px + Math.sin(pose.th) * py) / pose.s;
  const v = H / 2 + (-Math.sin(pose.th) * px + Math.cos(pose.th) * py) / pose.s;
  const w = box.w / pose.s;
  const h = box.h / pose.s;
  return { x: u - w / 2, y: v - h / 2, w, h };
}

/**
 * `--cut F`: where to crop a photo so that one die lies cut by the frame's edge, `keep` of its box
 * (0–1, across the edge) left in view, as a die that rolled out to the edge of the picture lies.
 * Of the four sides, each the die reaching furthest toward it, the crop that keeps the most of the
 * frame and cuts no other die (the others wholly in or wholly out); null when every side's would,
 * or would keep under half the frame. `crop` and the boxes are in the units of `frame`.
 */
export function cutCrop(dice: readonly { box: Box }[], frame: FrameSize, keep: number): { crop: Box; cut: number } | null {
  let best: { crop: Box; cut: number } | null = null;
  const sides = ['left', 'right', 'top', 'bottom'] as const;
  for (const side of sides) {
    const reach = (b: Box) => (side === 'left' ? -b.x : side === 'right' ? b.x + b.w : side === 'top' ? -b.y : b.y + b.h);
    const cut = dice.reduce((far, d, i) => (reach(d.box) > reach(dice[far]!.box) ? i : far), 0);
    const b = dice[cut]?.box;
    if (!b) return null;
    const line = Math.round(side === 'left' ? b.x + b.w * (1 - keep) : side === 'right' ? b.x + b.w * keep : side === 'top' ? b.y + b.h * (1 - keep) : b.y + b.h * keep);
    const crop =
      side === 'left' ? { x: line, y: 0, w: frame.width - line, h: frame.height }
      : side === 'right' ? { x: 0, y: 0, w: line, h: frame.height }
      : side === 'top' ? { x: 0, y: line, w: frame.width, h: frame.height - line }
      : { x: 0, y: 0, w: frame.width, h: line };
    if (crop.w * crop.h < (frame.width * frame.height) / 2) continue;
    const whole = (d: Box) => d.x >= crop.x && d.y >= crop.y && d.x + d.w <= crop.x + crop.w && d.y + d.h <= crop.y + crop.h;
    const gone = (d: Box) => d.x + d.w <= crop.x || d.y + d.h <= crop.y || d.x >= crop.x + crop.w || d.y >= crop.y + crop.h;
    if (dice.some((d, i) => i !== cut && !whole(d.box) && !gone(d.box))) continue;
    if (!best || crop.w * crop.h > best.crop.w * best.crop.h) best = { crop, cut };
  }
  return best;
}

const scaleBox = (b: Box, k: number): Box => ({ x: b.x * k, y: b.y * k, w: b.w * k, h: b.h * k });

/**
 * A photo's labels in the crop of `cutCrop` (`crop` in the photo's pixels): the dice wholly in it
 * moved with it, the cut die cut to it (scored where it shows), the others left out.
 */
function truthInCrop(truth: readonly TruthDie[], crop: Box, cut: number): TruthDie[] {
  return truth.flatMap((d, i) => {
    const x0 = Math.max(d.box.x, crop.x);
    const y0 = Math.max(d.box.y, crop.y);
    const x1 = Math.min(d.box.x + d.box.w, crop.x + crop.w);
    const y1 = Math.min(d.box.y + d.box.h, crop.y + crop.h);
    if (x1 <= x0 || y1 <= y0) return [];
    const box = i === cut ? { x: x0 - crop.x, y: y0 - crop.y, w: x1 - x0, h: y1 - y0 } : { ...d.box, x: d.box.x - crop.x, y: d.box.y - crop.y };
    return [{ ...d, box }];
  });
}

/**
 * Each folder's name in the figures: its own, or `parent/name` when several folders share it,
 * and the kit's id after it when the same folder is read with several kits.
 */
function setNames(dirs: readonly string[], kitIds: readonly (string | null)[]): string[] {
  const base = dirs.map((d) => path.basename(path.resolve(d)));
  const named = dirs.map((d, i) => (base.filter((b) => b === base[i]).length > 1 ? `${path.basename(path.dirname(path.resolve(d)))}/${base[i]}` : base[i]!));
  return named.map((n, i) => (named.filter((m) => m === n).length > 1 && kitIds[i] ? `${n} · ${kitIds[i]}` : n));
}

/** A frame's dice: pip values (the app's two-pass read), or faces of a kit. */
/** Reads one frame; `expected`: the dice in view (the labels' count, as the game knows it at the table). */
type ReadFrame = (frame: RgbaImage, expected: number) => Promise<Array<{ box: Box; value: DieKey | null; score: number; valueProbability?: number; unsure?: true }>>;

/**
 * Learning from play (`--learn`), as the app's table does, after each photo from its first
 * proposal: a symbol kit learns the proposed dice when the proposal is the roll (the player
 * confirms it as read), each as its last frame read it (`NodeKitReader.learn`); a symbol kit or
 * pips learn the dice not read when filling them all with one face is all the proposal needs
 * (the player fills them in: evaluate.ts `filledValue`; pips by src/lib/vision/pip-learning.ts).
 */
interface Learning {
  frameMs: number;
  options: Partial<SettleOptions>;
  /** After a photo's frames were read: its labels and its first proposal (null: none). */
  afterPhoto(truth: readonly TruthDie[], proposal: FrameDie[] | null): void;
}

/** Symbol dice: what a kit reader learns from a proposal (`Learning`); `read` holds the frames' dice by box. */
function kitLearning(learn: Omit<Learning, 'afterPhoto'>, kitReader: NodeKitReader, read: Map<Box, FaceDie>): Learning {
  return {
    ...learn,
    afterPhoto(truth, proposal) {
      const asRead = proposal?.map((d) => ({ box: d.photoBox, value: d.value })) ?? [];
      if (proposal && exactRoll(truth, asRead)) {
        const dice = proposal.map((d) => ({ box: d.frameBox, face: d.value }));
        kitReader.learn(diceToLearn(dice, (box) => read.get(box), (die, face) => die.face?.id === face));
      } else if (proposal) {
        const filled = filledValue(truth, asRead);
        const face = kitReader.folder.kit.faces.find((f) => f.id === filled);
        const unread = proposal.filter((d) => d.value === null).map((d) => read.get(d.frameBox));
        if (face && unread.every((d) => d !== undefined)) kitReader.learn(unread.map((d) => ({ ...d!, face })));
      }
      read.clear();
    },
  };
}

/** Pip dice: the faces learnt from the dice filled in (`Learning`); `vectors` holds the frames' `other` dice by box. */
function pipLearning(learn: Omit<Learning, 'afterPhoto'>, state: { learnt: FacePrototype[]; vectors: Map<Box, Float32Array> }): Learning {
  return {
    ...learn,
    afterPhoto(truth, proposal) {
      if (proposal) {
        const asRead = proposal.map((d) => ({ box: d.photoBox, value: d.value }));
        state.learnt = learnFilledPips(state.learnt, truth, asRead, (i) => state.vectors.get(proposal[i]!.frameBox));
      }
      state.vectors.clear();
    },
  };
}

/** One folder's photos, each made a shaken video and read frame by frame with `read`. */
async function readFolder(
  dataset: Dataset,
  name: string,
  read: ReadFrame,
  kit: { kit: DiceKit; faces: boolean } | null,
  frames: number,
  shake: number,
  learning: Learning | null,
  condition: CameraCondition | null,
  cut: number | null,
): Promise<PhotoVideo[]> {
  const videos: PhotoVideo[] = [];
  for (const [index, im] of dataset.images.entries()) {
    const taken = await readAsCameraFrame(path.join(dataset.dir, im.file));
    const toPhoto = im.width / taken.width;
    // --cut: the photo cropped so that one die lies cut by the frame's edge (a photo no crop can cut so is left out)
    const plan = cut === null ? null : cutCrop(im.dice.map((d) => ({ box: scaleBox(d.box, 1 / toPhoto) })), taken, cut);
    if (cut !== null && !plan) continue;
    const photo = plan ? cropImage(taken, plan.crop) : taken;
    const truth = plan ? truthInCrop(im.dice, scaleBox(plan.crop, toPhoto), plan.cut) : im.dice;
    const info = { width: photo.width, height: photo.height };
    const r = random(1000 + index);
    const pose: Pose = { s: 1, th: 0, tx: 0, ty: 0 };
    const reads: FrameDie[][] = [];
    const edgeWidths: (number | null)[] = [];
    for (let i = 0; i < frames; i++) {
      if (i > 0) {
        // a hand's shake: a bounded random walk, up to 2% of the frame, 1.1° and 1.5% of zoom
        pose.tx = clamp(pose.tx / info.width + 0.004 * shake * gauss(r), -0.02, 0.02) * info.width;
        pose.ty = clamp(pose.ty / info.height + 0.004 * shake * gauss(r), -0.02, 0.02) * info.height;
        pose.th = clamp(pose.th + 0.004 * shake * gauss(r), -0.02, 0.02);
        pose.s = clamp(pose.s + 0.003 * shake * gauss(r), 0.985, 1.015);
      }
      const taken = cameraFrame(photo, pose, 1 + 0.03 * gauss(r), 3, r);
      // each frame its own draw of the condition (a blur's direction, the noise), as a video's frames differ
      const frame = condition ? await applyCameraCondition(taken, condition, `${dataset.name}/${im.file}#${i}`) : taken;
      const dice = await read(frame, truth.length);
      edgeWidths.push(diceEdgeWidth(frame, dice.map((d) => d.box)));
      reads.push(
        dice.map((d) => {
          return { frameBox: d.box, photoBox: scaleBox(unshake(d.box, pose, info.width, info.height), toPhoto), value: d.value, score: d.score, valueProbability: d.valueProbability, ...(d.unsure ? { unsure: d.unsure } : {}) };
        }),
      );
    }
    const faces = kit?.faces ? { faces: kit.kit.faces.map((f) => f.id) } : {};
    const video: PhotoVideo = { set: name, file: im.file, wholeDie: dataset.boxStyle === 'whole-die', ...faces, truth, frames: reads, edgeWidths, frameSize: info };
    videos.push(video);
    learning?.afterPhoto(video.truth, learning ? (tableProposal(video, learning.frameMs, learning.options)?.dice ?? null) : null);
  }
  return videos;
}

/** A folder of labelled photos to read, or a dataset already loaded (the held-out slices, `--holdout`). */
type VideoSource = string | Dataset;

async function readVideos(
  sources: readonly VideoSource[],
  names: readonly string[],
  kits: readonly string[],
  frames: number,
  shake: number,
  learn: Omit<Learning, 'afterPhoto'> | null,
  condition: CameraCondition | null,
  cut: number | null,
  faceModel?: string,
  model?: string,
): Promise<PhotoVideo[]> {
  const detector = await createNodeDetector({ threads: 1, modelPath: detectorModelFor(null, model) });
  // a symbol kit's dice are found with the symbol-dice detector, as in the app (opened on first use)
  let symbolDetector: Detector | null = null;
  // pip dice read `other`, for learning them (opened with --learn, when a folder is read as pips)
  let embedder: FaceEmbedder | null = null;
  const videos: PhotoVideo[] = [];
  try {
    for (const [d, source] of sources.entries()) {
      const kitDir = kits.length ? kits[Math.min(d, kits.length - 1)]! : null;
      const kitId = kitDir ? (await loadKitFolder(kitDir)).kit.id : null;
      const kitDetector = kitId !== null && kitId !== 'standard' ? (symbolDetector ??= await createNodeDetector({ threads: 1, modelPath: symbolDetectorModel(model) })) : detector;
      const kitReader = kitDir ? await createNodeKitReader(kitDir, kitDetector, { threads: 1, ...(faceModel ? { faceModel } : {}) }) : null;
      try {
        const kitDice = new Map<Box, FaceDie>();
        const pips = { learnt: [] as FacePrototype[], vectors: new Map<Box, Float32Array>() };
        if (learn && !kitReader) embedder ??= await createNodeFaceEmbedder({ threads: 1, ...(faceModel ? { modelPath: faceModel } : {}) });
        const learning: Learning | null = !learn ? null : kitReader ? kitLearning(learn, kitReader, kitDice) : pipLearning(learn, pips);
        const read: ReadFrame = kitReader
          ? async (frame, expected) =>
              (await kitReader.read(frame, expected)).dice.map((f) => {
                if (learning) kitDice.set(f.box, f);
                return { box: f.box, value: f.face?.id ?? null, score: f.score };
              })
          : async (frame, expected) => {
              const { dice } = await detectCounted(detector, frame, expected);
              if (!embedder) return dice;
              const other = await readOtherPips(embedder, frame, dice, pips.learnt);
              other.reads?.forEach((r, i) => r && pips.vectors.set(other.dice[i]!.box, r.embedding));
              return other.dice;
            };
        // symbol kits are scored by face id; the standard kit (pips by the detector) by value
        const kit = kitReader ? { kit: kitReader.folder.kit, faces: kitReader.embedder !== null } : null;
        const dataset = typeof source === 'string' ? await loadDataset(source, kit?.kit) : source;
        const folderVideos = await readFolder(dataset, names[d]!, read, kit, frames, shake, learning, condition, cut);
        videos.push(...folderVideos);
        process.stderr.write(`${names[d]}: ${folderVideos.length} photos × ${frames} frames read${kitReader ? ` with kit ${kitReader.folder.kit.id}` : ''}\n`);
      } finally {
        await kitReader?.release();
      }
    }
  } finally {
    await detector.release();
    await symbolDetector?.release();
    await embedder?.release();
  }
  return videos;
}

/**
 * A set's row, then, where some of its photos show more dice than any game throws at once (the
 * val splits' crowds), a row of the others alone, named `<set> ≤ N dice`: the rolls a player makes.
 */
export function gameRollRows(set: string, videos: readonly PhotoVideo[], summary: (name: string, videos: readonly PhotoVideo[]) => LiveSummary): LiveSummary[] {
  const gameRolls = videos.filter((v) => v.truth.length <= GAME_ROLL_DICE);
  const rows = [summary(set, videos)];
  if (gameRolls.length > 0 && gameRolls.length < videos.length) rows.push(summary(`${set} ≤ ${GAME_ROLL_DICE} dice`, gameRolls));
  return rows;
}

/** One dataset's figures (`--json` prints an array of them). */
export interface LiveSummary {
  set: string;
  photos: number;
  firstFrame: { f1: number | null; exact: number };
  proposed: number;
  proposalMs: { median: number | null; p90: number | null };
  proposal: { f1: number | null; exactOfProposals: number | null; exactOfPhotos: number };
  /**
   * Shares of the photos whose proposal asks the player for a face (a `?`), and whose proposal
   * is wrong though the player could confirm it as it stands: every die given a value, as many
   * dice as were thrown (a wrong count the rules refuse).
   */
  asked: number;
  wrongConfirmable: number;
  /** The share of frames the table would say the dice look blurred in (`diceLookBlurred` over the frames so far, unless they look small); null without edge widths. */
  blurredFrames: number | null;
}

/**
 * The video's first proposal as the table shows it, and the frame it came at; null when the
 * tracker proposed nothing. The game says how many dice were thrown (here, the labels): unread
 * boxes beside as many dice read are left out, and so is the least sure of one face read too many
 * (`cameraProposal`, src/app/cameraRead.ts). Last, the share of frames in which the table would
 * tell the player the dice look blurred (`diceLookBlurred`, over the frames so far; not where
 * they look small, `diceLookSmall`, which the table says first).
 */
function tableProposal(video: PhotoVideo, frameMs: number, options: Partial<SettleOptions>, idleFps: number | null = IDLE_READ_FPS): { dice: FrameDie[]; frame: number } | null {
  const tracker = new SettleTracker<DieKey | null>(options);
  // the tracker keeps each die's box from the last frame it was seen in: score it where that frame put it in the photo
  const byFrameBox = new Map<Box, FrameDie>(video.frames.flat().map((d) => [d.frameBox, d]));
  let found: { dice: FrameDie[]; frame: number } | null = null;
  readAsTheTable(tracker, video.frames, frameMs, idleFps, (update, i) => {
    if (!update.proposal) return false;
    const proposed = cameraProposal(update.proposal.dice, [video.truth.length]).dice.map((p) => {
      // a box the tracker carried through a move of the camera (`turned`) is no frame's: the nearest die of this frame
      const read = byFrameBox.get(p.box) ?? nearestDie(video.frames[i]!, p.box);
      if (!read) throw new Error(`${video.file}: a die proposed where frame ${i} shows none`);
      return { ...read, value: p.face };
    });
    found = { dice: proposed, frame: i };
    return true;
  }, video.frameSize);
  return found;
}

/** The table's last layout carried through a move of the camera, as the table carries it (`layoutInFrame`; here the tracker sees every frame). */
function carried<F>(last: TrackedDie<F>[] | null, turned: BoxMap | null): TrackedDie<F>[] | null {
  return last && turned ? last.map((d) => ({ ...d, box: turned(d.box) })) : last;
}

/** The die of `dice` whose box's centre lies nearest `box`'s, or undefined when there is none. */
function nearestDie(dice: readonly FrameDie[], box: Box): FrameDie | undefined {
  const away = (b: Box) => Math.hypot(b.x + b.w / 2 - (box.x + box.w / 2), b.y + b.h / 2 - (box.y + box.h / 2));
  return dice.reduce<FrameDie | undefined>((best, d) => (best === undefined || away(d.frameBox) < away(best.frameBox) ? d : best), undefined);
}

/**
 * Feeds a video's frames to the tracker as the table's camera reads them (src/app/readPace.ts):
 * every frame while the dice change, and no more than `idleFps` a second while the table is
 * settled or empty and quiet (null: every frame). `each` gets each update and its frame's index,
 * and returns true to stop. Returns the indices of the frames read.
 */
function readAsTheTable<F>(
  tracker: SettleTracker<F>,
  frames: readonly (readonly { frameBox: Box; value: F | null; score: number; unsure?: true }[])[],
  frameMs: number,
  idleFps: number | null,
  each: (update: SettleUpdate<F>, i: number) => boolean,
  sizes?: FrameSize | readonly FrameSize[],
): number[] {
  const read: number[] = [];
  let next = 0;
  for (const [i, dice] of frames.entries()) {
    const t = i * frameMs;
    // half a frame's slack: a pace of 4 fps over 8 fps frames reads every second frame
    if (t + frameMs / 2 < next) continue;
    read.push(i);
    const size = Array.isArray(sizes) ? sizes[i] : (sizes as FrameSize | undefined);
    // as the table reads (kit-reader.ts): a value read unsurely, or a die less than half in view, is asked for
    const faces = size ? valuesProposed(dice.map((d) => ({ ...d, box: d.frameBox })), size) : dice.map(proposedValue);
    const seen = { t, dice: dice.map((d, j) => ({ box: d.frameBox, face: faces[j] ?? null, score: d.score })) };
    const update = tracker.update(size ? { ...seen, size } : seen);
    next = t + 1000 / (idleFps === null ? READ_FPS : readFps(update, idleFps));
    if (each(update, i)) break;
  }
  return read;
}

/**
 * A video's pip reads under another `unsure` rule than the reader's (`--unsure`): each die marked
 * again (`markUnsure`). Symbol kits' reads (faces, no die-face reader) are returned as they are.
 */
export function withUnsureRule(video: PhotoVideo, rule: DieFaceUnsure | null): PhotoVideo {
  if (video.faces) return video;
  return { ...video, frames: video.frames.map((dice) => markUnsure(dice, rule)) };
}

/**
 * The still dice of each video after its first proposal (`--rests`): how often the tracker
 * settles on them again, and how many of those reads the table offers the player as a new roll
 * (not only the last read with dice taken away, `onlyDiceTakenAway`): the roll just entered,
 * offered again while the players score.
 */
export function restRereads(videos: readonly PhotoVideo[], frameMs: number, options: Partial<SettleOptions>, idleFps: number | null = IDLE_READ_FPS): { settledAgain: number; offeredAgain: number; readsPerSecond: number | null } {
  let settledAgain = 0;
  let offeredAgain = 0;
  let restFrames = 0;
  let restReads = 0;
  for (const video of videos) {
    const tracker = new SettleTracker<DieKey>(options);
    let last: TrackedDie<DieKey>[] | null = null;
    let from: number | null = null;
    const read = readAsTheTable(tracker, video.frames, frameMs, idleFps, ({ proposal, turned }, i) => {
      last = carried(last, turned);
      if (!proposal) return false;
      if (last) {
        settledAgain++;
        if (!onlyDiceTakenAway(proposal.dice, last)) offeredAgain++;
      }
      last = proposal.dice;
      from ??= i;
      return false;
    }, video.frameSize);
    if (from === null) continue;
    // the rest: the frames after the first proposal
    restFrames += video.frames.length - 1 - from;
    restReads += read.filter((i) => i > from!).length;
  }
  return { settledAgain, offeredAgain, readsPerSecond: restFrames > 0 ? restReads / ((restFrames * frameMs) / 1000) : null };
}

/** How long after a video's first proposal the phone is turned (`turnedRests`), and how far the hand turning it moves the picture, in die sizes. */
const TURN_AFTER_MS = 1250;
/** How long a phone takes to turn on its side (`turnedRests` `gradually`). */
const TURN_MS = 1000;
const TURN_SHIFT = { x: 0.7, y: -0.5 };

/**
 * The still dice of each video with the phone turned `TURN_AFTER_MS` after the first proposal
 * (`--rests`), the picture moved by `TURN_SHIFT` die sizes by the hand, each frame giving its size
 * as the app's frames do, and dice the new frame does not show left out:
 * - `side`: turned on its side, the screen rotating: the frames swap width and height and the
 *   table stays upright in them, framed anew about the same centre;
 * - `gradually`: the same as a phone turns, over `TURN_MS`: the picture turns with the phone until
 *   the screen rotates, half way, then turns back the rest of the way in frames of the new shape;
 * - `locked`: turned on its side with the screen's rotation locked: the frames keep their size and
 *   the picture turns a quarter turn (clockwise and anticlockwise, video by video);
 * - `over`: the same, turned the other way up: a half turn.
 * Counts the videos whose dice are then offered again as a new roll (the table's last layout
 * carried through the turn as `TableCamera` carries it), and with `withSize` false, as a tracker
 * told no frame size sees them. Square frames (the simulation of square photos; a phone's frames
 * never are) are told one pixel apart so that a turn on the side shows.
 */
export function turnedRests(
  videos: readonly PhotoVideo[],
  frameMs: number,
  options: Partial<SettleOptions>,
  idleFps: number | null = IDLE_READ_FPS,
  withSize = true,
  how: 'side' | 'gradually' | 'locked' | 'over' = 'side',
  sensed = false,
): { rests: number; offeredAgain: number } {
  let rests = 0;
  let offeredAgain = 0;
  for (const [k, video] of videos.entries()) {
    if (!video.frameSize) continue;
    let first: number | null = null;
    readAsTheTable(new SettleTracker<DieKey>(options), video.frames, frameMs, idleFps, ({ proposal }, i) => {
      if (proposal) first = i;
      return proposal !== null;
    }, video.frameSize);
    if (first === null) continue;
    const turnAt: number = first + Math.round(TURN_AFTER_MS / frameMs);
    if (turnAt >= video.frames.length) continue;
    rests++;
    const { width, height } = video.frameSize;
    const onItsSide = how === 'side' || how === 'gradually';
    const before = onItsSide ? { width, height: width === height ? height + 1 : height } : video.frameSize;
    const after = onItsSide ? { width: before.height, height: before.width } : video.frameSize;
    const clockwise = k % 2 === 1;
    const sides = video.frames.flat().map((d) => Math.max(d.frameBox.w, d.frameBox.h));
    const side = sides.length ? median(sides) : 0;
    const steps = how === 'gradually' ? Math.max(1, Math.round(TURN_MS / frameMs)) : 1;
    const progressAt = (i: number) => Math.min(1, (i - turnAt + 1) / steps);
    // how far the picture has turned (radians, clockwise) at `progress`, and whether the frames have their new shape
    const turnAtProgress = (progress: number): { angle: number; reshaped: boolean } => {
      const quarter = ((clockwise ? 1 : -1) * Math.PI) / 2;
      if (how === 'locked') return { angle: quarter, reshaped: false };
      if (how === 'over') return { angle: Math.PI, reshaped: false };
      if (how === 'side') return { angle: 0, reshaped: true };
      return progress < 0.5 ? { angle: quarter * progress, reshaped: false } : { angle: quarter * (progress - 1), reshaped: true };
    };
    const place = (box: Box, progress: number): Box | null => {
      const { angle, reshaped } = turnAtProgress(progress);
      const frame = reshaped ? after : before;
      const [x, y] = [box.x + box.w / 2 - before.width / 2, box.y + box.h / 2 - before.height / 2];
      const cx = frame.width / 2 + x * Math.cos(angle) - y * Math.sin(angle) + TURN_SHIFT.x * side * progress;
      const cy = frame.height / 2 + x * Math.sin(angle) + y * Math.cos(angle) + TURN_SHIFT.y * side * progress;
      // a die the new frame does not show is not seen
      if (cx < 0 || cy < 0 || cx > frame.width || cy > frame.height) return null;
      const [w, h] = Math.abs(Math.sin(angle)) > Math.SQRT1_2 ? [box.h, box.w] : [box.w, box.h];
      return { x: cx - w / 2, y: cy - h / 2, w, h };
    };
    const frames = video.frames.map((dice, i) =>
      i < turnAt ? dice : dice.flatMap((d) => {
        const frameBox = place(d.frameBox, progressAt(i));
        return frameBox ? [{ ...d, frameBox }] : [];
      }),
    );
    const sizes = withSize ? frames.map((_, i) => (i >= turnAt && turnAtProgress(progressAt(i)).reshaped ? after : before)) : undefined;
    let last: TrackedDie<DieKey>[] | null = null;
    let offered = false;
    const tracker = new SettleTracker<DieKey>(options);
    // the phone's orientation sensor tells the table it turned, as the turn ends (app/phoneTurn.ts)
    if (sensed) tracker.phoneTurned((turnAt + steps - 1) * frameMs);
    readAsTheTable(tracker, frames, frameMs, idleFps, ({ proposal, turned }) => {
      last = carried(last, turned);
      if (!proposal) return false;
      if (last && !onlyDiceTakenAway(proposal.dice, last)) offered = true;
      last = proposal.dice;
      return false;
    }, sizes);
    if (offered) offeredAgain++;
  }
  return { rests, offeredAgain };
}

/**
 * Throws at one table (`--rests`): every ordered pair of two photos of a set, the first one's
 * reads for `readMs`, the table empty for `gapMs` (the dice picked up and thrown), then the
 * second one's. A pair counts when the first photo was proposed; the throw is read when the
 * second photo's dice are offered as a new roll, `delayMs` after they were first in view (their
 * median and 90th percentile). What a rule against stale reads, or a slower pace at rest, must not cost.
 */
export function throwsRead(videos: readonly PhotoVideo[], frameMs: number, options: Partial<SettleOptions>, idleFps: number | null = IDLE_READ_FPS, gapMs = 1000, readMs = 3000): { read: number; pairs: number; delayMs: { median: number | null; p90: number | null } } {
  const readFrames = Math.round(readMs / frameMs);
  const gapFrames: FrameDie[][] = Array.from({ length: Math.round(gapMs / frameMs) }, () => []);
  const landed = readFrames + gapFrames.length;
  let read = 0;
  let pairs = 0;
  const delays: number[] = [];
  for (const a of videos) {
    for (const b of videos) {
      if (a === b) continue;
      const tracker = new SettleTracker<DieKey>(options);
      let last: TrackedDie<DieKey>[] | null = null;
      let thrownAt: number | null = null;
      readAsTheTable(tracker, [...a.frames.slice(0, readFrames), ...gapFrames, ...b.frames.slice(0, readFrames)], frameMs, idleFps, ({ proposal, turned }, i) => {
        last = carried(last, turned);
        if (!proposal) return false;
        // a read settling before the thrown dice land is the first photo's dice read again (a stale read), not the throw
        if (i >= landed && last && !onlyDiceTakenAway(proposal.dice, last)) thrownAt ??= i;
        if (i < readFrames || last) last = proposal.dice;
        return false;
      }, a.frameSize);
      if (!last) continue;
      pairs++;
      if (thrownAt === null) continue;
      read++;
      delays.push((thrownAt - landed) * frameMs);
    }
  }
  return { read, pairs, delayMs: { median: delays.length ? percentile(delays, 50) : null, p90: delays.length ? percentile(delays, 90) : null } };
}

export function summarise(set: string, videos: readonly PhotoVideo[], frameMs: number, options: Partial<SettleOptions>, idleFps: number | null = IDLE_READ_FPS): LiveSummary {
  const wholeDie = videos.every((v) => v.wholeDie);
  // symbol kits: every kit's faces (the overall row spans several kits), unread dice are `unknown`
  const faces = [...new Set(videos.flatMap((v) => v.faces ?? []))];
  const accumulator = (): EvalAccumulator => (faces.length ? new EvalAccumulator(wholeDie, faces, 'unknown') : new EvalAccumulator(wholeDie));
  const first = accumulator();
  const proposals = accumulator();
  let firstExact = 0;
  let exact = 0;
  let asked = 0;
  let wrongConfirmable = 0;
  const times: number[] = [];
  for (const video of videos) {
    const firstRead = video.frames[0]!.map((d) => ({ box: d.photoBox, value: d.value }));
    first.add(video.truth, firstRead);
    if (exactRoll(video.truth, firstRead)) firstExact++;
    const proposal = tableProposal(video, frameMs, options, idleFps);
    if (!proposal) continue;
    const proposed = proposal.dice.map((d) => ({ box: d.photoBox, value: d.value }));
    proposals.add(video.truth, proposed);
    const right = exactRoll(video.truth, proposed);
    if (right) exact++;
    if (proposed.some((d) => d.value === null)) asked++;
    else if (!right && proposed.length === video.truth.length) wrongConfirmable++;
    times.push(proposal.frame * frameMs);
  }
  const n = videos.length;
  const p = times.length;
  // the table's blur hint, frame by frame, as it would have shown over each video (not when the dice look small: that is said first)
  const hinted = videos.flatMap(({ edgeWidths, frameSize, frames }) =>
    edgeWidths && frameSize ? edgeWidths.map((_, i) => !diceLookSmall(frames[i]!.map((d) => ({ box: d.frameBox })), frameSize) && diceLookBlurred(edgeWidths.slice(0, i + 1))) : [],
  );
  return {
    set,
    photos: n,
    firstFrame: { f1: first.summarise().perDie.f1, exact: firstExact / Math.max(1, n) },
    proposed: p / Math.max(1, n),
    proposalMs: { median: p ? percentile(times, 50) : null, p90: p ? percentile(times, 90) : null },
    proposal: { f1: p ? proposals.summarise().perDie.f1 : null, exactOfProposals: p ? exact / p : null, exactOfPhotos: exact / Math.max(1, n) },
    asked: asked / Math.max(1, n),
    wrongConfirmable: wrongConfirmable / Math.max(1, n),
    blurredFrames: hinted.length ? hinted.filter(Boolean).length / hinted.length : null,
  };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean', default: false },
      shake: { type: 'string', default: '1' },
      frames: { type: 'string', default: '24' },
      fps: { type: 'string', default: '8' },
      'save-reads': { type: 'string' },
      reads: { type: 'string' },
      tracker: { type: 'string', default: '{}' },
      kit: { type: 'string', multiple: true, default: [] },
      'face-model': { type: 'string' },
      model: { type: 'string' },
      learn: { type: 'boolean', default: false },
      holdout: { type: 'boolean', default: false },
      condition: { type: 'string' },
      unsure: { type: 'string' },
      rests: { type: 'boolean', default: false },
      'idle-fps': { type: 'string' },
      cut: { type: 'string' },
    },
  });
  if (values.help) throw new HelpRequest(USAGE);
  const shake = Number(values.shake);
  const frames = Number(values.frames);
  const fps = Number(values.fps);
  if (!(shake >= 0 && shake <= 2) || !Number.isInteger(frames) || frames < 2 || !(fps > 0)) throw new UsageError(USAGE);
  const condition = values.condition ?? null;
  if (condition !== null && !isCameraCondition(condition)) throw new UsageError(`--condition: one of ${CAMERA_CONDITIONS.join(', ')} (got ${condition})\n${USAGE}`);
  const unsure = values.unsure;
  const unsureBelow = unsure === undefined || unsure === 'off' ? null : Number(unsure);
  if (unsure !== undefined && unsure !== 'off' && !(unsure.trim() !== '' && unsureBelow !== null && unsureBelow >= 0 && unsureBelow <= 1)) throw new UsageError(`--unsure: a probability in [0, 1], or off (got ${unsure})\n${USAGE}`);
  const idle = values['idle-fps'];
  const idleFps = idle === undefined ? IDLE_READ_FPS : idle === 'off' ? null : Number(idle);
  if (idleFps !== null && !(idleFps > 0)) throw new UsageError(`--idle-fps: frames a second, or off (got ${idle})\n${USAGE}`);
  const cut = values.cut === undefined ? null : Number(values.cut);
  if (cut !== null && !(values.cut!.trim() !== '' && cut > 0 && cut < 1)) throw new UsageError(`--cut: the share of the cut die left in view, between 0 and 1 (got ${values.cut})\n${USAGE}`);
  if (cut !== null && values.reads) throw new UsageError(`--cut crops the photos before they are read; replay its reads with --reads alone\n${USAGE}`);
  let options: Partial<SettleOptions>;
  try {
    options = JSON.parse(values.tracker) as Partial<SettleOptions>;
  } catch {
    throw new UsageError(`--tracker: not JSON (${values.tracker})`);
  }
  let videos: PhotoVideo[];
  if (values.reads) {
    videos = JSON.parse(await readFile(values.reads, 'utf8')) as PhotoVideo[];
  } else {
    if (values.holdout && (positionals.length || values.kit.length)) throw new UsageError(`--holdout reads the held-out slices of the train splits under ${dataRoot()}/dice-photos as pip dice; give no folders or kits with it\n${USAGE}`);
    const holdout = values.holdout ? await holdoutSlices(dataRoot()) : null;
    if (holdout && holdout.length === 0) throw new UsageError(`--holdout: no train splits under ${dataRoot()}/dice-photos`);
    const dirs = holdout ? holdout.map((h) => h.dir) : positionals.length ? positionals : await valSplits(dataRoot());
    const kits = values.kit;
    if (kits.length > 1 && kits.length !== dirs.length) throw new UsageError(`--kit: give one kit for all the folders, or one per folder (${kits.length} kits, ${dirs.length} folders)`);
    // a bad kit fails before any reading
    const kitIds = await Promise.all(kits.map(async (k) => (await loadKitFolder(k)).kit.id));
    const names = holdout ? holdout.map((h) => h.name) : setNames(dirs, dirs.map((_, i) => (kitIds.length ? kitIds[Math.min(i, kitIds.length - 1)]! : null)));
    videos = await readVideos(holdout ?? dirs, names, kits, frames, shake, values.learn ? { frameMs: 1000 / fps, options } : null, condition, cut, values['face-model'], values.model);
    if (values['save-reads']) await writeFile(values['save-reads'], JSON.stringify(videos));
  }
  if (unsure !== undefined) videos = videos.map((v) => withUnsureRule(v, unsureBelow === null ? null : { below: unsureBelow }));
  const sets = [...new Set(videos.map((v) => v.set))];
  // each set, then its photos of as many dice as a game throws at most where it has larger ones (`gameRollRows`)
  const rows = sets.flatMap((set) => gameRollRows(set, videos.filter((v) => v.set === set), (name, of) => summarise(name, of, 1000 / fps, options, idleFps)));
  if (sets.length > 1) rows.push(...gameRollRows('overall', videos, (name, of) => summarise(name, of, 1000 / fps, options, idleFps)));
  const rests = values.rests
    ? sets.map((set) => {
        const ofSet = videos.filter((v) => v.set === set);
        return {
          set,
          ...restRereads(ofSet, 1000 / fps, options, idleFps),
          onItsSide: turnedRests(ofSet, 1000 / fps, options, idleFps, true, 'gradually'),
          locked: turnedRests(ofSet, 1000 / fps, options, idleFps, true, 'locked'),
          turnedOver: turnedRests(ofSet, 1000 / fps, options, idleFps, true, 'over'),
          lockedSensed: turnedRests(ofSet, 1000 / fps, options, idleFps, true, 'locked', true),
          turnedOverSensed: turnedRests(ofSet, 1000 / fps, options, idleFps, true, 'over', true),
          throws: throwsRead(ofSet, 1000 / fps, options, idleFps),
        };
      })
    : null;
  if (values.json) {
    process.stdout.write(`${JSON.stringify(rests ? { rows, rests } : rows, null, 2)}\n`);
    return;
  }
  const pct = (v: number | null): string => (v === null ? '  n/a' : (100 * v).toFixed(1).padStart(5));
  const width = Math.max(8, ...rows.map((r) => r.set.length));
  process.stdout.write(`camera read at the table, simulated: ${values.reads ? `reads from ${values.reads}` : `${frames} frames at ${fps} fps, shake ${shake}${condition ? `, every frame under ${condition} (${CONDITION_NOTES[condition]})` : ''}${cut !== null ? `, one die of each photo cut by the frame's edge, ${cut} of it in view (--cut; ${videos.length} photos could be cut so)` : ''}${values.learn ? ', learning from play (--learn: rolls proposed right, and dice not read as the player fills them in)' : ''}`}\n`);
  process.stdout.write(`${'dataset'.padEnd(width)}  photos  | first frame F1  exact | proposed  median ms  p90 ms | proposal F1  exact (of proposals)  exact (of photos) | asked ?  wrong, confirmable | frames called blurred\n`);
  for (const r of rows) {
    process.stdout.write(
      `${r.set.padEnd(width)}  ${String(r.photos).padStart(6)}  |          ${pct(r.firstFrame.f1)}  ${pct(r.firstFrame.exact)} |    ${pct(r.proposed)}  ${String(r.proposalMs.median ?? '-').padStart(9)}  ${String(r.proposalMs.p90 ?? '-').padStart(6)} |       ${pct(r.proposal.f1)}                ${pct(r.proposal.exactOfProposals)}              ${pct(r.proposal.exactOfPhotos)} |   ${pct(r.asked)}               ${pct(r.wrongConfirmable)} |                 ${pct(r.blurredFrames)}\n`,
    );
  }
  if (rests) {
    process.stdout.write('\n--rests: still dice after each first proposal (the rest of the video); throws: every ordered pair of a set\'s photos, one read 3 s, the table empty 1 s, then the other\n');
    process.stdout.write(`the camera read ${idleFps === null ? 'at every frame' : `at up to ${idleFps} fps while the table is settled or empty and quiet (--idle-fps)`}\n`);
    process.stdout.write(`${'dataset'.padEnd(width)}  settled again  offered again as a new roll  frames read a second at rest  |  phone turned, offered again: on its side  locked  over  (with the orientation sensor: locked  over)  |  throws read  delay median ms  p90 ms\n`);
    for (const r of rests) {
      process.stdout.write(
        `${r.set.padEnd(width)}  ${String(r.settledAgain).padStart(13)}  ${String(r.offeredAgain).padStart(26)}  ${(r.readsPerSecond?.toFixed(2) ?? '-').padStart(29)}  |  ${`${r.onItsSide.offeredAgain} of ${r.onItsSide.rests}`.padStart(40)}  ${`${r.locked.offeredAgain}`.padStart(6)}  ${`${r.turnedOver.offeredAgain}`.padStart(4)}  ${`${r.lockedSensed.offeredAgain}`.padStart(38)}  ${`${r.turnedOverSensed.offeredAgain}`.padStart(5)}  |  ${`${r.throws.read} of ${r.throws.pairs}`.padStart(11)}  ${String(r.throws.delayMs.median ?? '-').padStart(15)}  ${String(r.throws.delayMs.p90 ?? '-').padStart(6)}\n`,
      );
    }
    process.stdout.write(`phone turned ${TURN_AFTER_MS} ms after the first proposal, over ${TURN_MS} ms, the picture moved by ${Math.hypot(TURN_SHIFT.x, TURN_SHIFT.y).toFixed(2)} of a die: on its side (the screen rotating half way), on its side with the screen locked (a quarter turn), or over (locked, a half turn)\n`);
  }
}

runCli('eval-live', import.meta.url, main);
