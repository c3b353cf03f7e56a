/**
 * Node glue for reading symbol dice (read-dice --kit, eval --kit, bench): kit folders on disk
 * (docs/kits.md), the face embedder on onnxruntime-node, and the prototypes a kit folder gives
 * (its art rendered on dice, its example photos). The reading itself is src/lib/vision.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { KitError, parseKitText } from '../../src/lib/dice/validate.ts';
import type { DiceKit } from '../../src/lib/dice/kit.ts';
import type { Detector } from '../../src/lib/vision/detector.ts';
import { detectCounted } from '../../src/lib/vision/die-face-reader.ts';
import { createFaceEmbedder, parseFaceEmbedderConfig, type FaceEmbedder, type FaceEmbedderConfig } from '../../src/lib/vision/face-embedder.ts';
import { artPrototypes, learnConfirmed, readFaces, teachExample, TeachError, type FaceDie, type FacePrototype } from '../../src/lib/vision/face-reader.ts';
import type { RgbaImage } from '../../src/lib/vision/types.ts';
import { detectorModelFor, readImageFile, REPO_ROOT, sidecarPath, UsageError } from './node-vision.ts';

export const SHIPPED_FACE_MODEL = path.join(REPO_ROOT, 'models/face-embed.onnx');
/** Art is drawn at this size before it is painted on dice. */
export const ART_SIZE = 128;

const ART_EXTENSIONS = ['.svg', '.png', '.jpg', '.jpeg', '.webp'];
const EXAMPLE_EXTENSIONS = ['.png', '.jpg', '.jpeg'];

export interface KitFolder {
  dir: string;
  kit: DiceKit;
  /** Face id → art file (faces/<faceId>.svg|png|jpg|webp). */
  artFiles: Map<string, string>;
  /** Face id → example photos (examples/<faceId>/*.png|jpg), sorted by name. */
  exampleFiles: Map<string, string[]>;
}

async function listDir(dir: string): Promise<string[] | null> {
  const info = await stat(dir).catch(() => null);
  if (!info) return null;
  if (!info.isDirectory()) throw new KitError(`${dir}: expected a folder`);
  return (await readdir(dir)).filter((n) => !n.startsWith('.')).sort();
}

/** Reads and validates a kit folder: kit.json, optional faces/ art and examples/ photos. */
export async function loadKitFolder(dir: string): Promise<KitFolder> {
  const info = await stat(dir).catch(() => null);
  if (!info) throw new UsageError(`${dir}: no such kit folder`);
  if (!info.isDirectory()) throw new UsageError(`${dir}: not a folder (a kit is a folder with a kit.json; see docs/kits.md)`);
  const kitPath = path.join(dir, 'kit.json');
  let text: string;
  try {
    text = await readFile(kitPath, 'utf8');
  } catch {
    throw new UsageError(`${dir}: no kit.json (see docs/kits.md)`);
  }
  const kit = parseKitText(text, kitPath);
  const faceIds = new Set(kit.faces.map((f) => f.id));
  const faceList = kit.faces.map((f) => f.id).join(', ');

  const artFiles = new Map<string, string>();
  const facesDir = path.join(dir, 'faces');
  for (const name of (await listDir(facesDir)) ?? []) {
    const ext = path.extname(name).toLowerCase();
    const id = path.basename(name, path.extname(name));
    if (!ART_EXTENSIONS.includes(ext)) throw new KitError(`${path.join(facesDir, name)}: art must be ${ART_EXTENSIONS.join(', ')}`);
    if (!faceIds.has(id)) throw new KitError(`${path.join(facesDir, name)}: no face "${id}" in kit "${kit.id}" (faces: ${faceList})`);
    if (artFiles.has(id)) throw new KitError(`${facesDir}: two art files for face "${id}"`);
    artFiles.set(id, path.join(facesDir, name));
  }

  const exampleFiles = new Map<string, string[]>();
  const examplesDir = path.join(dir, 'examples');
  for (const id of (await listDir(examplesDir)) ?? []) {
    const sub = path.join(examplesDir, id);
    if (!faceIds.has(id)) throw new KitError(`${sub}: no face "${id}" in kit "${kit.id}" (faces: ${faceList})`);
    const files = (await listDir(sub)) ?? [];
    for (const f of files) {
      if (!EXAMPLE_EXTENSIONS.includes(path.extname(f).toLowerCase())) throw new KitError(`${path.join(sub, f)}: example photos must be .png or .jpg`);
    }
    if (files.length) exampleFiles.set(id, files.map((f) => path.join(sub, f)));
  }
  return { dir, kit, artFiles, exampleFiles };
}

/** Draws an art file (SVG or bitmap) as a square RGBA image. */
export async function readArt(file: string, size = ART_SIZE): Promise<RgbaImage> {
  try {
    const { data, info } = await sharp(file, { density: 300 })
      .resize(size, size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  } catch (e) {
    throw new KitError(`${file}: cannot draw the art (${(e as Error).message})`);
  }
}

export interface FaceModelFiles {
  model: Uint8Array;
  config: FaceEmbedderConfig;
  modelPath: string;
}

export async function loadFaceModelFiles(modelPath = SHIPPED_FACE_MODEL): Promise<FaceModelFiles> {
  if (!existsSync(modelPath)) {
    throw new UsageError(`no face embedder at ${path.relative(process.cwd(), modelPath) || modelPath} (models/training/train_face_embed.py makes it)`);
  }
  const configPath = sidecarPath(modelPath);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(configPath, 'utf8'));
  } catch (e) {
    throw new UsageError(`${configPath}: cannot read the face embedder sidecar (${(e as Error).message})`);
  }
  try {
    return { model: new Uint8Array(await readFile(modelPath)), config: parseFaceEmbedderConfig(json), modelPath };
  } catch (e) {
    throw new UsageError(`${configPath}: ${(e as Error).message}`);
  }
}

/** The face embedder on onnxruntime-node (one thread unless told). */
export async function createNodeFaceEmbedder(options: { modelPath?: string; threads?: number } = {}): Promise<FaceEmbedder> {
  const files = await loadFaceModelFiles(options.modelPath);
  const ort = await import('onnxruntime-node');
  return createFaceEmbedder(ort, files.model, files.config, {
    executionProviders: ['cpu'],
    intraOpNumThreads: options.threads ?? 1,
    interOpNumThreads: 1,
  });
}

export interface KitPrototypes {
  prototypes: FacePrototype[];
  /** Example photos that could not be used, with why (no die, several dice, unreadable). */
  skipped: Array<{ file: string; reason: string }>;
}

/** Prototypes of a kit folder: its art on dice, plus every example photo's die. */
export async function kitFolderPrototypes(folder: KitFolder, detector: Detector, embedder: FaceEmbedder): Promise<KitPrototypes> {
  const art = new Map<string, RgbaImage>();
  for (const [faceId, file] of folder.artFiles) art.set(faceId, await readArt(file));
  const prototypes = await artPrototypes(embedder, art);
  const skipped: KitPrototypes['skipped'] = [];
  for (const [faceId, files] of folder.exampleFiles) {
    for (const file of files) {
      try {
        const image = await readImageFile(file);
        prototypes.push((await teachExample(detector, embedder, image, faceId)).prototype);
      } catch (e) {
        if (!(e instanceof TeachError || e instanceof UsageError)) throw e;
        skipped.push({ file, reason: e.message });
      }
    }
  }
  if (prototypes.length === 0) {
    throw new UsageError(`${folder.dir}: the kit has no art (faces/) and no usable example photos (examples/<faceId>/), so nothing to compare dice with`);
  }
  return { prototypes, skipped };
}

/**
 * The detector model a kit folder's dice are found with (`detectorModelFor`; no folder: standard
 * dice). A bad kit is a usage error, as everywhere in the tools.
 */
export async function kitDetectorModel(kitDir: string | undefined, model?: string): Promise<string> {
  if (!kitDir) return detectorModelFor(null, model);
  try {
    return detectorModelFor((await loadKitFolder(kitDir)).kit.id, model);
  } catch (e) {
    throw e instanceof KitError ? new UsageError(e.message) : e;
  }
}

export interface NodeKitReader {
  folder: KitFolder;
  /** null for the standard kit, read by the detector's pip classes. */
  embedder: FaceEmbedder | null;
  prototypes: FacePrototype[];
  skipped: KitPrototypes['skipped'];
  /**
   * Reads every die of an image as a face of the kit (face null: unknown). `expected`: how many
   * dice lie in view, when known (the table's count: dice missed are looked for again).
   */
  read(image: RgbaImage, expected?: number): Promise<{ dice: FaceDie[]; ms: number }>;
  /** Learning from play, as the app's table does (`learnConfirmed`): the dice of a roll read right become prototypes. */
  learn(dice: readonly FaceDie[]): void;
  release(): Promise<void>;
}

/**
 * A reader for a kit folder on top of a detector: the detector finds the dice and the face
 * embedder reads them against the kit's prototypes. The standard kit reads pips with the
 * detector's classes, as `read-dice` without a kit does.
 */
export async function createNodeKitReader(
  kitDir: string,
  detector: Detector,
  options: { faceModel?: string; threads?: number } = {},
): Promise<NodeKitReader> {
  const folder = await loadKitFolder(kitDir);
  const kit = folder.kit;
  if (kit.id === 'standard') {
    return {
      folder,
      embedder: null,
      prototypes: [],
      skipped: [],
      async read(image, expected) {
        const t0 = performance.now();
        const { dice } = await detectCounted(detector, image, expected);
        const ms = performance.now() - t0;
        return {
          ms,
          dice: dice.map((d) => {
            const face = kit.faces.find((f) => f.value === d.value) ?? null;
            const s = face ? 1 : -1;
            return { box: d.box, score: d.score, face, die: d, embedding: null, match: { faceId: face?.id ?? null, nearestFaceId: face?.id ?? null, similarity: s, runnerUpFaceId: null, runnerUpSimilarity: -1 } };
          }),
        };
      },
      learn: () => {},
      release: async () => {},
    };
  }
  const embedder = await createNodeFaceEmbedder({ ...(options.faceModel ? { modelPath: options.faceModel } : {}), ...(options.threads ? { threads: options.threads } : {}) });
  const { prototypes, skipped } = await kitFolderPrototypes(folder, detector, embedder);
  let confirmed: FacePrototype[] = [];
  return {
    folder,
    embedder,
    prototypes,
    skipped,
    async read(image, expected) {
      const t0 = performance.now();
      const { dice } = await readFaces(detector, embedder, kit, [...prototypes, ...confirmed], image, embedder.config, expected);
      return { dice, ms: performance.now() - t0 };
    },
    learn(dice) {
      confirmed = learnConfirmed(confirmed, dice.flatMap((d) => (d.face && d.embedding ? [{ faceId: d.face.id, embedding: d.embedding }] : [])));
    },
    release: () => embedder.release(),
  };
}
