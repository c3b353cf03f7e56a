/**
 * The teach screen's state: one taught set, its examples (pictures kept in IndexedDB with their
 * embeddings, keyed by the face model), the dice reader's worker that finds and embeds the die in
 * each new picture, and how well the kit separates its faces after every change (`kitSeparation`,
 * on the main thread: a few dozen dot products).
 */
import type { DiceKit, DieFace } from '../lib/dice/index.ts';
import type { RollcallStore, TaughtFaceRecord, TaughtSetRecord } from '../lib/store/index.ts';
import { StoreError } from '../lib/store/index.ts';
import { createDiceReader, type DiceReader, type PrototypeData } from '../lib/vision/dice-reader.ts';
import { kitSeparation, type FacePrototype, type KitSeparation, type MatchRule } from '../lib/vision/face-reader.ts';
import { artUrls, drawArt, refreshEmbeddings } from './kit-reader.ts';
import { kitOfSet } from './kits.ts';
import { readProblem } from './readProblem.ts';

export interface TeachExample {
  record: TaughtFaceRecord;
  /** An object URL of the picture, for its thumbnail. */
  url: string;
  /** False when it could not be embedded by the current face model (no die found again). */
  usable: boolean;
}

export type AddResult = { ok: true; ms: number; example: TeachExample } | { ok: false; message: string };

export class TeachSession {
  set = $state<TaughtSetRecord>() as TaughtSetRecord;
  readonly kit: DiceKit;
  examples = $state<TeachExample[]>([]);
  phase = $state<'loading' | 'ready' | 'error'>('loading');
  problem = $state<string | null>(null);
  busy = $state(false);
  /** The reader's unknown rule and the kit's art prototypes, once the face model is loaded. */
  private rule = $state<MatchRule | null>(null);
  private art = $state.raw<PrototypeData[]>([]);
  private model = '';
  private reader: DiceReader | null = null;
  private closed = false;

  /** How well the faces taught so far stand apart; null until the face model is loaded. */
  separation = $derived.by((): KitSeparation | null => {
    if (!this.rule) return null;
    const prototypes: FacePrototype[] = [
      ...this.art.map((p): FacePrototype => ({ faceId: p.faceId, source: 'art', embedding: p.embedding })),
      ...this.examples.flatMap((e): FacePrototype[] =>
        e.usable && e.record.embedding ? [{ faceId: e.record.faceId, source: 'example', embedding: Float32Array.from(e.record.embedding) }] : [],
      ),
    ];
    return kitSeparation(this.kit, prototypes, this.rule);
  });

  constructor(
    private readonly store: RollcallStore,
    set: TaughtSetRecord,
  ) {
    this.set = set;
    this.kit = kitOfSet(set);
  }

  /** Starts the worker, brings stored examples up to the face model, embeds the art. */
  async start(): Promise<void> {
    // read first, and said as a read (a closed connection, the disk): no fault of the dice reader's
    let stored: TaughtFaceRecord[];
    try {
      stored = await this.store.listTaughtFaces(this.set.id);
    } catch (err) {
      this.phase = 'error';
      this.problem = readProblem(err, 'The photos taught for this set');
      return;
    }
    try {
      this.reader = createDiceReader();
      await this.reader.ready;
      const model = await this.reader.faceModel();
      this.model = model.embeddingModel;
      const { usable } = await refreshEmbeddings(this.store, this.reader, stored, this.model);
      const ok = new Set(usable.map((f) => f.id));
      const fresh = new Map(usable.map((f) => [f.id, f]));
      if (this.closed) return;
      this.examples = stored.map((f) => ({ record: fresh.get(f.id) ?? f, url: URL.createObjectURL(f.image), usable: ok.has(f.id) }));
      const info = await this.reader.useKit({ kit: this.kit, art: await drawArt(artUrls(this.kit, this.set)), examples: [] });
      this.art = info.artPrototypes;
      this.rule = { threshold: info.threshold, ambiguityMargin: info.ambiguityMargin };
      this.phase = 'ready';
    } catch (err) {
      this.phase = 'error';
      // the one write here: a photo embedded again for this face model, refused by the store (a
      // full disk, a closed connection). The reader started; the photos are as they were.
      this.problem =
        err instanceof StoreError
          ? `This set's photos could not be brought up to date for this dice reader, so teaching cannot start; the photos are kept. ${err.message}`
          : `The dice reader could not start (${err instanceof Error ? err.message : String(err)}).`;
    }
  }

  /** The similarity below which a die reads as unknown (the face model's), once loaded. */
  get ruleThreshold(): number | null {
    return this.rule?.threshold ?? null;
  }

  examplesOf(faceId: string): TeachExample[] {
    return this.examples.filter((e) => e.record.faceId === faceId);
  }

  /**
   * Teaches one picture of `face`: the detector must find one die (a clear refusal otherwise);
   * the die's picture, embedding and box are stored, and the separation updates.
   */
  async add(face: DieFace, frame: ImageBitmap): Promise<AddResult> {
    if (!this.reader || this.phase !== 'ready') {
      frame.close();
      return { ok: false, message: 'The dice reader is not ready yet.' };
    }
    this.busy = true;
    const t0 = performance.now();
    try {
      const outcome = await this.reader.teach(frame, { keep: true });
      if (!outcome.ok) {
        return {
          ok: false,
          message:
            outcome.problem === 'no-die'
              ? `No die found. Put one die with ${face.label} up in the middle of the picture, about as far away as when you play, and try again.`
              : `${outcome.found} dice found: show one die at a time.`,
        };
      }
      const kept = outcome.kept!;
      const record = await this.store.addTaughtFace(this.set.id, face.id, kept.image, { vector: outcome.embedding, model: outcome.embeddingModel }, kept.box);
      const example: TeachExample = { record, url: URL.createObjectURL(record.image), usable: true };
      this.examples = [...this.examples, example];
      return { ok: true, ms: performance.now() - t0, example };
    } catch (err) {
      return { ok: false, message: err instanceof StoreError ? err.message : `This picture could not be taught (${err instanceof Error ? err.message : String(err)}).` };
    } finally {
      this.busy = false;
    }
  }

  /** Deletes one taught view; a failed delete throws (a StoreError) and keeps it. */
  async remove(example: TeachExample): Promise<void> {
    await this.store.deleteTaughtFace(example.record.id);
    URL.revokeObjectURL(example.url);
    this.examples = this.examples.filter((e) => e !== example);
  }

  async rename(name: string): Promise<void> {
    this.set = await this.store.renameTaughtSet(this.set.id, name);
  }

  close(): void {
    this.closed = true;
    this.reader?.close();
    for (const e of this.examples) URL.revokeObjectURL(e.url);
  }
}
