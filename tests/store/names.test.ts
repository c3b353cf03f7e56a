/** The store and backups compare names by `nameKey` and count them in symbols a player sees. */
import { afterEach, describe, expect, it } from 'vitest';
import { StoreError, unusedName, type RollcallStore } from '../../src/lib/store/index.ts';
import { freshStore } from './helpers.ts';

const NFC = 'Jos\u00e9';
const NFD = 'Jose\u0301';
const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}';

let open: RollcallStore[] = [];
afterEach(() => {
  for (const s of open) s.close();
  open = [];
});
async function store(): Promise<RollcallStore> {
  const s = await freshStore();
  open.push(s);
  return s;
}
async function refusal(p: Promise<unknown>): Promise<StoreError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(StoreError);
  return err as StoreError;
}

describe('player names in the store', () => {
  it('refuses a second José, typed the other way; keeps the name composed (NFC)', async () => {
    const s = await store();
    const jose = await s.addPlayer(NFD);
    expect(jose.name).toBe(NFC);
    expect((await refusal(s.addPlayer(NFC))).code).toBe('name-taken');
    expect((await refusal(s.addPlayer('\uff2a\uff4f\uff53\uff45\u0301'))).code).toBe('name-taken');
    const ann = await s.addPlayer('Ann');
    expect((await refusal(s.renamePlayer(ann.id, `${NFD}\u200b`))).code).toBe('name-taken');
    expect((await s.listPlayers()).map((p) => p.name).sort()).toEqual(['Ann', NFC]);
  });

  it('refuses a name with nothing visible, and writes nothing', async () => {
    const s = await store();
    for (const blank of ['\u200b', ' \u00ad ', '\ufeff']) {
      const err = await refusal(s.addPlayer(blank));
      expect(err.code).toBe('invalid-input');
      expect(err.message).toBe('A player needs a name.');
    }
    await expect(s.startSession('\u2060')).rejects.toThrow('A session needs a name.');
    await expect(s.createTaughtSet('face-off', '\u200b')).rejects.toThrow('A dice set needs a name.');
    expect(await s.listPlayers()).toEqual([]);
    expect(await s.listTaughtSets()).toEqual([]);
  });

  it('counts 40 symbols, not UTF-16 units: four family emoji fit, 41 symbols do not', async () => {
    const s = await store();
    expect((await s.addPlayer(FAMILY.repeat(4))).name).toBe(FAMILY.repeat(4));
    const err = await refusal(s.addPlayer(`x${FAMILY.repeat(40)}`));
    expect(err.message).toBe(`Names are at most 40 characters ("x${FAMILY.repeat(19)}…" has 41).`);
    const set = await s.createTaughtSet('face-off', FAMILY.repeat(40));
    expect(set.name).toBe(FAMILY.repeat(40));
  });

  it('numbers a taken name by cutting it between symbols', () => {
    const long = FAMILY.repeat(40);
    expect(unusedName(long, [long])).toBe(`${FAMILY.repeat(36)} 2`);
    expect(unusedName(NFD, [NFC])).toBe(`${NFD} 2`);
  });

  it('a game imported with José typed the other way is played by the José here', async () => {
    const s = await store();
    const jose = await s.addPlayer(NFC);
    const game = await s.importGame({ game: 'tug', playerNames: [NFD, 'Bob'], actions: [], dice: { kitId: 'standard', taughtSetId: null }, result: null });
    expect(game.players[0]).toEqual({ id: jose.id, name: NFC });
    await expect(s.importGame({ game: 'tug', playerNames: [NFC, `${NFD}\u200b`], actions: [], dice: { kitId: 'standard', taughtSetId: null }, result: null })).rejects.toThrow('Two players have the same name.');
  });
});
