import { describe, expect, it } from 'vitest';
import { TableReader } from '../../src/app/tableReader.svelte.ts';
import type { KitReader, KitReaderInfo } from '../../src/app/kit-reader.ts';
import type { GameDice } from '../../src/lib/store/index.ts';
import { STANDARD_KIT } from '../../src/lib/dice/index.ts';

const DICE: GameDice = { kitId: 'standard', taughtSetId: null };

/** A kit reader that reads nothing, learns by counting, and says whether it was closed. */
function fakeReader(options: { fails?: boolean; learnFails?: boolean } = {}): KitReader & { closed: boolean; taught: number } {
  const ready: Promise<KitReaderInfo> = options.fails ? Promise.reject(new Error('no models')) : new Promise<KitReaderInfo>(() => undefined);
  ready.catch(() => undefined);
  const reader = {
    gameKit: STANDARD_KIT,
    ready,
    closed: false,
    taught: 0,
    read: () => Promise.reject(new Error('not read in these tests')),
    async learn(dice: readonly unknown[]) {
      if (options.learnFails) throw new Error('worker lost');
      reader.taught += dice.length;
      return reader.taught;
    },
    close() {
      reader.closed = true;
    },
  };
  return reader;
}

const die = (faceId: string) => ({ faceId, embedding: new Float32Array([1, 0]) });

/** A table whose readers are fakes (`fails(n)`: the n-th started cannot start), and the readers it started. */
function fakeTable(fails: (n: number) => boolean = () => false): { table: TableReader; started: ReturnType<typeof fakeReader>[] } {
  const started: ReturnType<typeof fakeReader>[] = [];
  const table = new TableReader(DICE, () => {
    const r = fakeReader({ fails: fails(started.length) });
    started.push(r);
    return r;
  });
  return { table, started };
}

describe("the table's one dice reader", () => {
  it('starts one reader at the first call and gives it to every later one', () => {
    const { table, started } = fakeTable();
    expect(started).toHaveLength(0);
    const camera = table.start();
    const photo = table.start();
    expect(photo).toBe(camera);
    expect(started).toHaveLength(1);
  });

  it('starts a new reader after one that could not start', async () => {
    const { table } = fakeTable((n) => n === 0);
    const first = table.start();
    await first.ready.catch(() => undefined);
    await Promise.resolve();
    const second = table.start();
    expect(second).not.toBe(first);
    expect(table.start()).toBe(second);
  });

  it('starts a new reader after one replaced, and closes every reader with the table', () => {
    const { table, started } = fakeTable();
    const first = table.start();
    table.replace(fakeReader()); // not the table's: nothing changes
    expect(table.start()).toBe(first);
    table.replace(first);
    // the replaced reader stays open for whoever still reads with it, until the table closes
    expect(started[0]!.closed).toBe(false);
    expect(table.start()).not.toBe(first);
    table.close();
    expect(started.map((r) => r.closed)).toEqual([true, true]);
    expect(() => table.start()).toThrow(/closed/);
  });

  it('keeps what the reader learnt, whoever taught it, and shrugs off a reader that cannot learn', async () => {
    const table = new TableReader(DICE, () => fakeReader());
    await table.learn([die('1')], 'standard'); // nothing started: nothing learnt
    expect(table.learned).toBe(0);
    table.start();
    await table.learn([die('1'), die('1')], 'standard'); // the camera
    expect(table.learned).toBe(2);
    await table.learn([die('6')], 'standard'); // a photo
    expect(table.learned).toBe(3);
    await table.learn([], 'standard');
    expect(table.learned).toBe(3);

    // a reader replaced (its worker lost) takes what it learnt with it: the new one has learnt nothing
    table.replace(fakeReader()); // not the table's: nothing changes
    expect(table.learned).toBe(3);
    table.replace(table.start());
    expect(table.learned).toBe(0);
    table.start();
    await table.learn([die('2')], 'standard');
    expect(table.learned).toBe(1);

    const failing = new TableReader(DICE, () => fakeReader({ learnFails: true }));
    failing.start();
    await expect(failing.learn([die('1')], 'standard')).resolves.toBeUndefined();
    expect(failing.learned).toBe(0);
  });
});
