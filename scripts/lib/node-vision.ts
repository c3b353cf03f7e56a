/**
 * Node glue for the vision tools (read-dice, eval): image decoding with sharp (EXIF
 * orientation applied), the shipped model's files, and a detector on onnxruntime-node.
 * The detector itself is src/lib/vision — the same code the browser worker runs.
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import sharp from 'sharp';
import { parseDetectorConfig, type DetectorConfig } from '../../src/lib/vision/config.ts';
import { createDetector, type Detector } from '../../src/lib/vision/detector.ts';
import { createDieFaceReader, parseDieFaceConfig, withDieFaceReader, type DieFaceConfig, type DieFaceReader } from '../../src/lib/vision/die-face-reader.ts';
import type { RgbaImage } from '../../src/lib/vision/types.ts';
import { UsageError } from './cli.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHIPPED_MODEL = path.join(REPO_ROOT, 'models/dice-pips.onnx');
export const SHIPPED_DIE_FACE_MODEL = path.join(REPO_ROOT, 'models/die-face.onnx');
export const SHIPPED_SYMBOL_MODEL = path.join(REPO_ROOT, 'models/dice-symbols.onnx');

/**
 * The detector symbol dice are found with, as the app's worker chooses: `model` when given; else
 * the shipped symbol-dice detector when there is one; else the pip detector (whose sidecar's
 * `symbolDice` rule then finds symbol dice).
 */
export function symbolDetectorModel(model?: string): string {
  return model ?? (existsSync(SHIPPED_SYMBOL_MODEL) ? SHIPPED_SYMBOL_MODEL : SHIPPED_MODEL);
}

/** The detector a kit's dice are found with: symbol kits' as above, standard dice's (`kitId` null or 'standard') the pip detector or `model`. */
export function detectorModelFor(kitId: string | null, model?: string): string {
  return kitId !== null && kitId !== 'standard' ? symbolDetectorModel(model) : (model ?? SHIPPED_MODEL);
}

/** A problem the user can fix (bad path, bad file): printed as one line, exit code 2 (scripts/lib/cli.ts). */
export { UsageError };

/** The sidecar of a model file: same path, `.json` instead of `.onnx`. */
export function sidecarPath(modelPath: string): string {
  return modelPath.replace(/\.onnx$/i, '') + '.json';
}

export async function loadDetectorConfig(configPath: string): Promise<DetectorConfig> {
  let text: string;
  try {
    text = await readFile(configPath, 'utf8');
  } catch {
    throw new UsageError(`cannot read the detector sidecar ${configPath}`);
  }
  try {
    return parseDetectorConfig(JSON.parse(text));
  } catch (e) {
    throw new UsageError(`${configPath}: ${(e as Error).message}`);
  }
}

export interface ModelFiles {
  model: Uint8Array;
  config: DetectorConfig;
  modelPath: string;
}

export async function loadModelFiles(modelPath = SHIPPED_MODEL): Promise<ModelFiles> {
  if (!existsSync(modelPath)) {
    throw new UsageError(
      modelPath === SHIPPED_MODEL || modelPath === SHIPPED_SYMBOL_MODEL
        ? `no detector model at ${path.relative(process.cwd(), modelPath) || modelPath} (models/training/ makes it; --model FILE.onnx uses another)`
        : `no model file at ${modelPath}`,
    );
  }
  const config = await loadDetectorConfig(sidecarPath(modelPath));
  return { model: new Uint8Array(await readFile(modelPath)), config, modelPath };
}

export interface NodeDetectorOptions {
  modelPath?: string;
  /** Intra-op threads for onnxruntime-node (default: ORT's choice, all cores). */
  threads?: number;
  /**
   * The die-face reader's second pass (src/lib/vision/die-face-reader.ts): 'auto' (default) runs
   * the shipped one when models/die-face.onnx is there, as the app does; 'off' the detector
   * alone; anything else is the path of another die-face model.
   */
  dieFace?: string;
}

export interface DieFaceFiles {
  model: Uint8Array;
  config: DieFaceConfig;
  modelPath: string;
}

export async function loadDieFaceFiles(modelPath = SHIPPED_DIE_FACE_MODEL): Promise<DieFaceFiles> {
  if (!existsSync(modelPath)) throw new UsageError(`no die-face model at ${modelPath}`);
  const configPath = sidecarPath(modelPath);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(configPath, 'utf8'));
  } catch (e) {
    throw new UsageError(`${configPath}: cannot read the die-face sidecar (${(e as Error).message})`);
  }
  try {
    return { model: new Uint8Array(await readFile(modelPath)), config: parseDieFaceConfig(json), modelPath };
  } catch (e) {
    throw new UsageError(`${configPath}: ${(e as Error).message}`);
  }
}

/** The die-face model `option` names ('auto', 'off' or a path): its path, or null for none. */
export function dieFaceModelPath(option = 'auto'): string | null {
  if (option === 'off') return null;
  if (option === 'auto') return existsSync(SHIPPED_DIE_FACE_MODEL) ? SHIPPED_DIE_FACE_MODEL : null;
  return option;
}

/** The die-face reader on onnxruntime-node, one thread unless told. */
export async function createNodeDieFaceReader(modelPath = SHIPPED_DIE_FACE_MODEL, threads = 1): Promise<DieFaceReader> {
  const files = await loadDieFaceFiles(modelPath);
  const ort = await import('onnxruntime-node');
  return createDieFaceReader(ort, files.model, files.config, { executionProviders: ['cpu'], intraOpNumThreads: threads, interOpNumThreads: 1 });
}

/**
 * The dice reader on onnxruntime-node (native CPU), as the app reads standard dice: the detector,
 * then the die-face reader when one is used (`dieFace`). Loaded lazily: only the tools need it.
 */
export async function createNodeDetector(options: NodeDetectorOptions = {}): Promise<Detector & { modelPath: string; dieFacePath: string | null }> {
  const files = await loadModelFiles(options.modelPath);
  const dieFacePath = dieFaceModelPath(options.dieFace);
  const dieFace = dieFacePath ? await loadDieFaceFiles(dieFacePath) : null;
  const ort = await import('onnxruntime-node');
  const detector = await createDetector(ort, files.model, files.config, {
    executionProviders: ['cpu'],
    ...(options.threads ? { intraOpNumThreads: options.threads, interOpNumThreads: 1 } : {}),
  });
  if (!dieFace) return Object.assign(detector, { modelPath: files.modelPath, dieFacePath: null });
  const reader = await createDieFaceReader(ort, dieFace.model, dieFace.config, {
    executionProviders: ['cpu'],
    intraOpNumThreads: options.threads ?? 1,
    interOpNumThreads: 1,
  });
  return Object.assign(withDieFaceReader(detector, reader), { modelPath: files.modelPath, dieFacePath });
}

/**
 * Decodes an image file to RGBA, clear errors for bad files. `upright` (default): its EXIF
 * orientation applied, the picture as a phone shows it; false: its pixels as stored, in which the
 * labels of a dataset give their boxes (../shared/data/README.md).
 */
export async function readImageFile(file: string, options: { upright?: boolean } = {}): Promise<RgbaImage> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, not an image' : code === 'EACCES' ? 'permission denied' : `cannot read (${code ?? (e as Error).message})`,
    );
  }
  try {
    const decoder = sharp(bytes, { failOn: 'error' });
    const { data, info } = await (options.upright === false ? decoder : decoder.rotate()).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 4) throw new Error(`unexpected ${info.channels} channels`);
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  } catch (e) {
    const message = (e as Error).message;
    if (/unsupported image format/i.test(message)) throw new UsageError('not an image sharp can decode (JPEG, PNG, WebP, AVIF, GIF, TIFF…)');
    // libvips repeats its decoder's lines (a JPEG cut short says so five times): one line, each said once
    const lines = [...new Set(message.split('\n').map((line) => line.trim()).filter(Boolean))];
    const said = lines.filter((line) => !lines.some((other) => other !== line && other.includes(line))).join('; ');
    throw new UsageError(/premature end|truncated/i.test(message) ? `the image is cut short (${said})` : `cannot decode the image (${said})`);
  }
}

/** Where the shared labelled photographs are: $ROLLCALL_DATA, else ../shared/data from the repo root. */
export function dataRoot(): string {
  return process.env.ROLLCALL_DATA ? path.resolve(process.env.ROLLCALL_DATA) : path.resolve(REPO_ROOT, '../shared/data');
}
