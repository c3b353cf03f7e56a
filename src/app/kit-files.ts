/**
 * A taught set as a kit file (`*.rollcall-kit.json`, the bundle of `src/lib/dice/bundle.ts`):
 * export with its pictures, import with every field checked first. An import finds the die in
 * each picture again with the dice reader (embeddings belong to one face model and are never in
 * the file) and writes the set in ONE transaction: a bad file changes nothing.
 */
import { BUILT_IN_KITS, KitError, makeKitBundle, parseKitBundleText, type DiceKit } from '../lib/dice/index.ts';
import type { ImageBox, RollcallStore, TaughtSetRecord } from '../lib/store/index.ts';
import type { DiceReader } from '../lib/vision/dice-reader.ts';
import { kitFileName, kitOfSet } from './kits.ts';
import { MAX_NAME_LENGTH, clipName } from '../lib/rules/index.ts';
import { blobToDataUrl, dataUrlToBlob } from '../lib/dice/data-url.ts';

/**
 * A taught set as a kit file. A built-in kit's dice travel as that kit, named as the set (the
 * importing app knows its art); an own kit with its art.
 */
export async function exportKitFile(store: RollcallStore, setId: string): Promise<{ fileName: string; text: string }> {
  const set = await store.getTaughtSet(setId);
  if (!set) throw new KitError('That dice set is not on this device.');
  const kit: DiceKit = set.kit ?? { ...kitOfSet(set), name: set.name };
  // a Map by face id, not `obj[id] ??= …`: an id is data
  const examples = new Map<string, string[]>();
  for (const face of await store.listTaughtFaces(setId)) {
    const list = examples.get(face.faceId) ?? [];
    list.push(await blobToDataUrl(face.image, 'image/jpeg'));
    examples.set(face.faceId, list);
  }
  const bundle = makeKitBundle(kit, set.kit ? set.art : {}, Object.fromEntries(examples));
  return { fileName: kitFileName(kit), text: JSON.stringify(bundle) };
}

export interface KitImport {
  set: TaughtSetRecord;
  /** Pictures taught, and those in which no single die was found (left out). */
  taught: number;
  skipped: number;
}

/** Progress of an import: pictures read so far of all. */
export type ImportProgress = (done: number, total: number) => void;

/**
 * Reads a kit file and stores it as a new taught set. Refused with a KitError, nothing stored:
 * not a kit file, a bad field, a picture that is not an image, a built-in kit's id with other
 * faces. Pictures whose die is not found are left out and counted.
 */
export async function importKitFile(store: RollcallStore, reader: DiceReader, text: string, fileName = 'kit file', progress?: ImportProgress): Promise<KitImport> {
  const bundle = parseKitBundleText(text, fileName);
  const builtIn = BUILT_IN_KITS[bundle.kit.id];
  if (builtIn) {
    const same = builtIn.faces.length === bundle.kit.faces.length && builtIn.faces.every((f, i) => bundle.kit.faces[i]?.id === f.id && bundle.kit.faces[i]?.value === f.value);
    if (!same) {
      throw new KitError(`${fileName}: its kit uses the id of the built-in kit "${builtIn.id}" but not its faces (${builtIn.faces.map((f) => f.id).join(', ')}); give it another id.`);
    }
  }
  const pictures = Object.entries(bundle.examples).flatMap(([faceId, urls]) => urls.map((url, i) => ({ faceId, url, at: `examples.${faceId}[${i}]` })));
  // Every picture must decode before anything is stored.
  const bitmaps: ImageBitmap[] = [];
  try {
    for (const p of pictures) {
      try {
        const blob = dataUrlToBlob(p.url);
        if (!blob) throw new Error('no bytes'); // said below, as a picture that does not decode
        bitmaps.push(await createImageBitmap(blob));
      } catch {
        throw new KitError(`${fileName}: ${p.at} is not a picture Rollcall can read.`);
      }
    }
  } catch (err) {
    for (const b of bitmaps) b.close();
    throw err;
  }
  const faces: Array<{ faceId: string; image: Blob; embedding: { vector: Float32Array; model: string }; box: ImageBox }> = [];
  let skipped = 0;
  for (const [i, p] of pictures.entries()) {
    const outcome = await reader.teach(bitmaps[i]!, { keep: true });
    progress?.(i + 1, pictures.length);
    if (!outcome.ok) {
      skipped++;
      continue;
    }
    faces.push({ faceId: p.faceId, image: outcome.kept!.image, embedding: { vector: outcome.embedding, model: outcome.embeddingModel }, box: outcome.kept!.box });
  }
  const name = clipName(bundle.kit.name.trim(), MAX_NAME_LENGTH);
  const set = await store.importTaughtSet(builtIn ? { kitId: builtIn.id, name } : { kitId: bundle.kit.id, name, own: { kit: bundle.kit, art: bundle.art } }, faces);
  return { set, taught: faces.length, skipped };
}
