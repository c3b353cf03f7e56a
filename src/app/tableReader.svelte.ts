/**
 * One dice reader for a table: its live camera, its "Photo of the dice" and the private screen's
 * camera and photo all read with it. So one worker runs however the dice are read, a camera turned
 * off and on again (or the photo button back for the next roll) finds its models loaded, and what
 * one way of reading learns from a confirmed roll (learning from play) the others read with.
 */
import type { GameDice } from '../lib/store/index.ts';
import { loadKitReader, type KitReader } from './kit-reader.ts';
import type { LearnableDie } from './cameraRead.ts';

export class TableReader {
  /** How many dice the reader now reads with as learnt at this table (the last `learn`'s answer). */
  learned = $state(0);
  #current: KitReader | null = null;
  /** Every reader started, closed with the table (one replaced stays open while a holder still reads with it). */
  readonly #started: KitReader[] = [];
  #closed = false;

  constructor(
    readonly dice: GameDice,
    private readonly load: (dice: GameDice) => KitReader = loadKitReader,
  ) {}

  /**
   * The reader, started at the first call (its models load in about a second). One that could not
   * start is forgotten by itself, and one `replace`d too: the next call starts a new one.
   */
  start(): KitReader {
    if (this.#closed) throw new Error('The table has closed its dice reader.');
    if (this.#current) return this.#current;
    const reader = this.load(this.dice);
    this.#current = reader;
    this.#started.push(reader);
    reader.ready.catch(() => this.replace(reader));
    return reader;
  }

  /**
   * `failed` stopped reading (its worker lost): the next `start` starts a new reader. What it
   * learnt at the table goes with it, so `learned` starts again from none.
   */
  replace(failed: KitReader): void {
    if (this.#current !== failed) return;
    this.#current = null;
    this.learned = 0;
  }

  /**
   * Teaches the reader a confirmed roll's dice (`KitReader.learn`) and keeps its answer in
   * `learned`. Learning is a bonus: a reader that cannot take it reads as before.
   */
  async learn(dice: readonly LearnableDie[], kitId: string): Promise<void> {
    const reader = this.#current;
    if (!reader || dice.length === 0) return;
    try {
      const n = await reader.learn(dice, kitId);
      if (reader === this.#current) this.learned = n;
    } catch {
      // the reader reads on as it did
    }
  }

  /** The table closes: every reader it started stops. */
  close(): void {
    this.#closed = true;
    this.#current = null;
    for (const reader of this.#started.splice(0)) reader.close();
  }
}
