/** The store and backups compare names by `nameKey` and count them in symbols a player sees. */
import { describe, expect, it } from 'vitest';
import { BackupError, StoreError, playerMatches, playerSpelledAlike, unusedName } from '../../src/lib/store/index.ts';
import { exportBackup, exportBackupJson, importBackupText } from '../../src/lib/store/backup.ts';
import { expectStoreError, storesClosedAfterEach } from './helpers.ts';

const NFC = 'Jos\u00e9';
const NFD = 'Jose\u0301';
const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}';

const store = storesClosedAfterEach();
const refusal = (p: Promise<unknown>): Promise<StoreError> => expectStoreError(p);

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

  it("Turkish names: İlker and ilker, Işıl and ışıl are one player on every phone (Turkish case pairs İ/i and I/ı)", async () => {
    const s = await store();
    await s.addPlayer('İlker');
    await s.addPlayer('Işıl');
    for (const same of ['ilker', 'ILKER', 'Ilker', 'ılker']) expect((await refusal(s.addPlayer(same))).code).toBe('name-taken');
    for (const same of ['ışıl', 'IŞIL', 'işil']) expect((await refusal(s.addPlayer(same))).code).toBe('name-taken');
    expect((await s.listPlayers()).map((p) => p.name).sort()).toEqual(['Işıl', 'İlker']);
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

describe('names in backups', () => {
  it('merge matches José from another phone to José here', async () => {
    const a = await store();
    await a.addPlayer(NFD);
    const text = await exportBackupJson(a);
    const b = await store();
    await b.addPlayer(NFC);
    await importBackupText(b, text, 'merge');
    expect(await b.listPlayers()).toHaveLength(1);
  });

  it("restores a device's two players whose names now read as one (José typed two ways, kept apart there): the second is numbered", async () => {
    const a = await store();
    await a.addPlayer(NFC);
    const file = JSON.parse(await exportBackupJson(a)) as { players: Array<{ id: string; name: string }> };
    file.players.push({ ...file.players[0]!, id: 'the-other-jose', name: NFD });
    const b = await store();
    const summary = await importBackupText(b, JSON.stringify(file), 'replace');
    expect(summary.players.added).toBe(2);
    expect((await b.listPlayers()).map((p) => p.name).sort()).toEqual([NFC, `${NFD} 2`].sort());
  });

  it('restores a game those two played together (its names stand as played)', async () => {
    const a = await store();
    const jose = await a.addPlayer(NFC);
    const bob = await a.addPlayer('Bob');
    await a.createGame({ game: 'war', players: [jose, bob].map(({ id, name }) => ({ id, name })), dice: { kitId: 'standard', taughtSetId: null } });
    const file = JSON.parse(await exportBackupJson(a)) as { players: Array<{ id: string; name: string }>; games: Array<{ players: Array<{ id: string; name: string }> }> };
    // as a device kept it before names compared by nameKey: Bob was the other José
    for (const p of [...file.players, ...file.games[0]!.players]) if (p.id === bob.id) p.name = NFD;
    const b = await store();
    const summary = await importBackupText(b, JSON.stringify(file), 'replace');
    expect(summary.games.added).toBe(1);
    expect((await b.listGames())[0]!.players.map((p) => p.name)).toEqual([NFC, NFD]);
  });

  it('takes names of 40 symbols; refuses one with nothing visible, or longer, changing nothing', async () => {
    const a = await store();
    await a.addPlayer(FAMILY.repeat(40));
    const file = await exportBackup(a);
    const b = await store();
    await importBackupText(b, JSON.stringify(file), 'replace');
    expect((await b.listPlayers()).map((p) => p.name)).toEqual([FAMILY.repeat(40)]);
    for (const [name, says] of [['\u200b', /must not be empty/], [`x${FAMILY.repeat(40)}`, /is longer than 40 characters/]] as const) {
      const bad = { ...file, players: file.players.map((p) => ({ ...p, name })) };
      const err = await importBackupText(b, JSON.stringify(bad), 'replace').then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(BackupError);
      expect((err as BackupError).message).toMatch(says);
      expect((await b.listPlayers()).map((p) => p.name)).toEqual([FAMILY.repeat(40)]);
    }
  });
});

describe('finding a known player by part of a name (New game\'s "+ name" buttons as a name is typed)', () => {
  it('ignores case, accents and the way a name is typed, and finds a player by a name they were known by', () => {
    const jose = { name: NFC, aliases: ['Pepe'] };
    expect(playerMatches(jose, 'jose')).toBe(true);
    expect(playerMatches(jose, NFD.toUpperCase())).toBe(true);
    expect(playerMatches(jose, 'os')).toBe(true);
    expect(playerMatches(jose, 'pep')).toBe(true);
    expect(playerMatches(jose, '')).toBe(true);
    expect(playerMatches(jose, 'ann')).toBe(false);
    expect(playerMatches({ name: 'Zoë' }, 'zoe')).toBe(true);
    expect(playerMatches({ name: 'Ann' }, 'Anne')).toBe(false);
    // a Turkish phone's lower case, and an English keyboard's dotted i
    expect(playerMatches({ name: 'Işıl' }, 'ışıl')).toBe(true);
    expect(playerMatches({ name: 'Işıl' }, 'isil')).toBe(true);
    expect(playerMatches({ name: 'İlker' }, 'ilk')).toBe(true);
    expect(playerMatches({ name: 'ilker' }, 'İL')).toBe(true);
  });
});

describe('the player a name is spelled like, accents aside (New game: "Zoe" typed for Zoë)', () => {
  const player = (id: string, name: string, aliases?: string[]) => ({ id, name, nameKey: name.toLowerCase(), createdAt: 0, lastPlayedAt: null, ...(aliases ? { aliases } : {}) });
  it('finds the one player so spelled, by name or a name they were known by; none when two are', () => {
    const zoe = player('z', 'Zoë');
    const jose = player('j', NFC, ['Pépé']);
    expect(playerSpelledAlike([zoe, jose], 'zoe')?.id).toBe('z');
    expect(playerSpelledAlike([zoe, jose], ' JOSE ')?.id).toBe('j');
    expect(playerSpelledAlike([zoe, jose], 'pepe')?.id).toBe('j');
    expect(playerSpelledAlike([zoe, jose], 'Zo')).toBeUndefined();
    expect(playerSpelledAlike([zoe, jose], '')).toBeUndefined();
    expect(playerSpelledAlike([zoe, player('z2', 'Zoé')], 'Zoe')).toBeUndefined();
  });
});
