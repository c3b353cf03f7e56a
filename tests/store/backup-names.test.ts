/** Backups read names as the store does: by `nameKey`, counted in symbols a player sees. */
import { afterEach, describe, expect, it } from 'vitest';
import { BackupError, type RollcallStore } from '../../src/lib/store/index.ts';
import { exportBackup, exportBackupJson, importBackupText } from '../../src/lib/store/backup.ts';
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
