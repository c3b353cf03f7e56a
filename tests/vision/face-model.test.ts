import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { readArt, createNodeFaceEmbedder, loadKitFolder } from '../../scripts/lib/node-faces.ts';
import type { FaceEmbedder } from '../../src/lib/vision/face-embedder.ts';
import { artPrototypes, embedTaughtFace, matchFace, type FacePrototype, type MatchRule } from '../../src/lib/vision/face-reader.ts';
import type { Box, RgbaImage } from '../../src/lib/vision/types.ts';

// The shipped face embedder on a fixture of symbol dice rendered by the evaluation renderer
// (three.js; tests/fixtures/symbol-dice/make-symbol-fixture.py): sets it never trained on.
interface Cell { set: string; face: string; role: 'teach' | 'query' }
const dir = new URL('../fixtures/symbol-dice/', import.meta.url);
const index = JSON.parse(readFileSync(new URL('index.json', dir), 'utf8')) as { cell: number; cols: number; margin: number; cells: Cell[] };

let embedder: FaceEmbedder;
let sheet: RgbaImage;
let embeddings: Float32Array[];
/** Teach cells as taught photos are embedded (`embedTaughtFace`), by cell index. */
let taughtEmbeddings: Map<number, Float32Array>;

function cellBox(i: number): Box {
  // the box whose embedder square is exactly the cell
  const side = index.cell / index.margin;
  const x = (i % index.cols) * index.cell + (index.cell - side) / 2;
  const y = Math.floor(i / index.cols) * index.cell + (index.cell - side) / 2;
  return { x, y, w: side, h: side };
}

beforeAll(async () => {
  embedder = await createNodeFaceEmbedder();
  const { data, info } = await sharp(readFileSync(new URL('sheet.jpg', dir))).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  sheet = { width: info.width, height: info.height, data: new Uint8Array(data) };
  embeddings = await embedder.embed(sheet, index.cells.map((_, i) => cellBox(i)));
  taughtEmbeddings = new Map();
  for (const [i, c] of index.cells.entries()) if (c.role === 'teach') taughtEmbeddings.set(i, await embedTaughtFace(embedder, sheet, cellBox(i)));
});
afterAll(() => embedder?.release());

function accuracy(set: string, prototypes: FacePrototype[], rule: MatchRule = embedder.config): number {
  const queries = index.cells.map((c, i) => ({ c, e: embeddings[i]! })).filter(({ c }) => c.set === set && c.role === 'query');
  return queries.filter(({ c, e }) => matchFace(prototypes, e, rule).faceId === c.face).length / queries.length;
}

const taught = (set: string): FacePrototype[] =>
  index.cells.flatMap((c, i) => (c.set === set && c.role === 'teach' ? [{ faceId: c.face, source: 'example' as const, embedding: taughtEmbeddings.get(i)! }] : []));

describe('face embedder (models/face-embed.onnx)', () => {
  it('gives L2-normalised vectors of the sidecar dimension, the same alone or in a batch', async () => {
    expect(embeddings[0]!.length).toBe(embedder.config.dim);
    for (const e of embeddings) expect(Math.hypot(...e)).toBeCloseTo(1, 4);
    const [alone] = await embedder.embed(sheet, [cellBox(5)]);
    alone!.forEach((v, i) => expect(v).toBeCloseTo(embeddings[5]![i]!, 4));
  });

  // Floors against regressions, a little under what the shipped model does; the glyph sets
  // (letters of fonts it never saw) are its weak point (models/MODEL_CARD.md, "Face embedder").
  it.each([
    ['emblems-1', 0.88],
    ['glyphs-2', 0.4],
    ['face-off', 0.88],
  ] as const)('tells the faces of %s apart from 3 taught photos each (≥ %s)', (set, floor) => {
    const a = accuracy(set, taught(set));
    console.log(`${set}: ${(a * 100).toFixed(0)}% of its 18 rolled dice read right from 3 taught photos per face`);
    expect(a).toBeGreaterThanOrEqual(floor);
  });

  it('reads Face Off dice from the shipped art alone', async () => {
    const folder = await loadKitFolder('src/lib/dice/kits/face-off');
    const art = new Map<string, RgbaImage>();
    for (const [faceId, file] of folder.artFiles) art.set(faceId, await readArt(file));
    const prototypes = await artPrototypes(embedder, art);
    expect(prototypes).toHaveLength(6 * 12);
    const a = accuracy('face-off', prototypes);
    console.log(`face-off: ${(a * 100).toFixed(0)}% of its 18 rolled dice read right from the shipped art`);
    expect(a).toBeGreaterThanOrEqual(0.8);
  });
});
