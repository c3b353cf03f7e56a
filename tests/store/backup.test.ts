import { describe, expect, it } from 'vitest';
import { BackupError, StoreError, type RollcallStore } from '../../src/lib/store/index.ts';
import type { DiceKit } from '../../src/lib/dice/kit.ts';
import { parseKitBundle } from '../../src/lib/dice/bundle.ts';
import { exportBackup, exportBackupBlob, exportBackupJson, importBackupText, parseBackup, parseBackupInSteps, type BackupFile, type ImportProgress } from '../../src/lib/store/backup.ts';
import { bigHistory } from '../../scripts/lib/big-history.ts';
import { ALICE, BOB, storesClosedAfterEach } from './helpers.ts';

const store = storesClosedAfterEach();

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 255, 7]);

/** A store with one of everything: two games (one finished), players, a session, a taught set. */
async function populated(): Promise<RollcallStore> {
  const s = await store();
  const alice = await s.addPlayer('Alice');
  const bob = await s.addPlayer('Bob');
  const session = await s.startSession('Friday');
  const players = [{ id: alice.id, name: alice.name }, { id: bob.id, name: bob.name }];
  // Big Roll's five 1s win at once: Alice throws nothing that scores, then Bob throws five 1s.
  const g1 = await s.createGame({ game: 'big-roll-5000', players, ante: 2, dice: { kitId: 'standard', taughtSetId: null }, sessionId: session.id, options: { ante: 2, startingPlayer: 'first-listed' } });
  await s.appendAction(g1.id, { type: 'roll', dice: [2, 3, 4, 6, 6] });
  await s.appendAction(g1.id, { type: 'roll', dice: [1, 1, 1, 1, 1] });
  await s.finishGame(g1.id, { winners: [bob.id], payouts: { [alice.id]: -2, [bob.id]: 2 } });
  const g2 = await s.createGame({ game: 'face-off', players, dice: { kitId: 'face-off', taughtSetId: null }, sessionId: session.id });
  await s.appendAction(g2.id, { type: 'roll', dice: ['vader', 'luke', 'han', 'han', 'r2d2'] });
  const set = await s.createTaughtSet('face-off', 'Our dice');
  await s.addTaughtFace(set.id, 'vader', new Blob([PNG], { type: 'image/png' }), { vector: [0.6, 0.8], model: 'face-embed@1' });
  await s.updateSettings({ theme: 'dark', speech: true });
  return s;
}

async function snapshot(s: RollcallStore): Promise<Omit<BackupFile, 'exportedAt'>> {
  const { exportedAt: _ignored, ...rest } = await exportBackup(s);
  return rest;
}

async function expectRefused(s: RollcallStore, text: string, code: BackupError['code'], message?: RegExp): Promise<void> {
  const before = await snapshot(s);
  const err = await importBackupText(s, text, 'replace').then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BackupError);
  expect((err as BackupError).code).toBe(code);
  expect((err as BackupError).message).toMatch(/Nothing was changed/);
  if (message) expect((err as BackupError).message).toMatch(message);
  expect(await snapshot(s)).toEqual(before);
}

const OPTIONS = { ante: 2, startingPlayer: 'first-listed' };
/** Big Roll with an ante of 2 that the second player wins at once. */
async function bigRoll(s: RollcallStore, players: { id: string; name: string }[], sessionId: string): Promise<void> {
  const g = await s.createGame({ game: 'big-roll-5000', players, ante: 2, dice: { kitId: 'standard', taughtSetId: null }, sessionId, options: OPTIONS });
  await s.appendAction(g.id, { type: 'roll', dice: [2, 3, 4, 6, 6] });
  await s.appendAction(g.id, { type: 'roll', dice: [1, 1, 1, 1, 1] }, undefined, { winners: [players[1]!.id], payouts: { [players[0]!.id]: -2, [players[1]!.id]: 2 } });
}
const DICE = { kitId: 'standard', taughtSetId: null };

/**
 * A phone on Friday 5 December 2026, 20:00, knowing Alice and Bob, its evening "Friday" begun,
 * with `games` games of Big Roll won by Bob in it; `clock.t` is its time, to move on.
 */
async function fridayOfBigRoll(games: number) {
  const clock = { t: Date.UTC(2026, 11, 5, 20) };
  const source = await store({ now: () => clock.t });
  const alice = await source.addPlayer('Alice');
  const bob = await source.addPlayer('Bob');
  const friday = await source.sessionForNewGame('Friday');
  for (let k = 0; k < games; k++) await bigRoll(source, [{ id: alice.id, name: alice.name }, { id: bob.id, name: bob.name }], friday.id);
  return { clock, source, alice, bob, friday };
}

describe('backup export and import', () => {
  it('round-trips everything, pictures included, into an empty device', async () => {
    const source = await populated();
    const text = await exportBackupJson(source);
    const target = await store();
    const summary = await importBackupText(target, text, 'merge');
    expect(summary.games).toEqual({ added: 2, skipped: 0 });
    expect(summary.players).toEqual({ added: 2, skipped: 0 });
    // a new phone has no settings of its own yet: it takes the backup's
    expect(await snapshot(target)).toEqual(await snapshot(source));
    const [set] = await target.listTaughtSets();
    const [face] = await target.listTaughtFaces(set!.id);
    expect(face!.image).toBeInstanceOf(Blob);
    expect(face!.image.type).toBe('image/png');
    expect([...new Uint8Array(await face!.image.arrayBuffer())]).toEqual([...PNG]);
    // an imported active game goes on where it stopped
    const active = (await target.listGames('active'))[0]!;
    expect((await target.appendAction(active.id, { type: 'go-hero' })).seq).toBe(1);
  });

  it('an evening ended by the break and never settled up stays so on a restored phone, still said', async () => {
    const { clock, source, alice, bob, friday } = await fridayOfBigRoll(1);
    clock.t += 7 * 24 * 60 * 60 * 1000;
    await source.sessionForNewGame('Next Friday');
    const target = await store();
    await importBackupText(target, await exportBackupJson(source), 'replace');
    expect(await target.getSession(friday.id)).toMatchObject({ endedBy: 'break' });
    expect((await target.unsettledEvenings()).map((e) => [e.session.name, e.balances])).toEqual([['Friday', { [alice.id]: -2, [bob.id]: 2 }]]);
    // an older backup, kept before evenings said how they ended, still imports: nothing said of them
    const old = JSON.parse(await exportBackupJson(source)) as BackupFile;
    for (const s of old.sessions) delete s.endedBy;
    await importBackupText(target, JSON.stringify(old), 'replace');
    expect(await target.unsettledEvenings()).toEqual([]);
  });

  it('an evening carried on keeps the evening it went into on a restored phone; a damaged one refuses the file', async () => {
    const { clock, source, friday } = await fridayOfBigRoll(1);
    clock.t += 7 * 24 * 60 * 60 * 1000;
    const tonight = await source.sessionForNewGame('Next Friday');
    await source.carryEvening(friday.id, 'unused');
    const file = JSON.parse(await exportBackupJson(source)) as BackupFile;
    expect(file.sessions.find((s) => s.id === friday.id)).toMatchObject({ endedBy: 'carried', carriedInto: tonight.id });
    const target = await store();
    await importBackupText(target, JSON.stringify(file), 'replace');
    expect(await target.getSession(friday.id)).toMatchObject({ endedBy: 'carried', carriedInto: tonight.id });
    // an older backup, kept before it was said where, still imports: carried, into an evening unsaid
    const old = { ...file, sessions: file.sessions.map(({ carriedInto: _c, ...s }) => s) };
    await importBackupText(target, JSON.stringify(old), 'replace');
    const restored = await target.getSession(friday.id);
    expect(restored).toMatchObject({ endedBy: 'carried' });
    expect(restored).not.toHaveProperty('carriedInto');
    // damaged: the field named, nothing changed
    const withInto = (carriedInto: unknown, endedBy: unknown = 'carried') =>
      JSON.stringify({ ...file, sessions: file.sessions.map((s) => (s.id === friday.id ? { ...s, endedBy, carriedInto } : s)) });
    const at = file.sessions.findIndex((s) => s.id === friday.id);
    await expectRefused(target, withInto(7), 'corrupt', new RegExp(`sessions\\.${at}\\.carriedInto must be text`));
    await expectRefused(target, withInto(''), 'corrupt', new RegExp(`sessions\\.${at}\\.carriedInto must not be empty`));
    await expectRefused(target, withInto('nowhere'), 'corrupt', new RegExp(`session "${friday.id}" was carried into a missing session`));
    await expectRefused(target, withInto(friday.id), 'corrupt', /was carried into a missing session/);
    await expectRefused(target, withInto(tonight.id, 'settled'), 'corrupt', /names an evening it was carried into but was not carried on/);
  });

  it('takes back what a game deleted from an evening carried on left: the carried line as it was changed', async () => {
    const { clock, source, alice, bob, friday } = await fridayOfBigRoll(2);
    clock.t += 7 * 24 * 60 * 60 * 1000;
    const tonight = await source.sessionForNewGame('Next Friday');
    await source.carryEvening(friday.id, 'unused');
    const [deleted] = await source.sessionGames(friday.id);
    expect(await source.deleteGame(deleted!.id)).toEqual({ evening: expect.objectContaining({ id: tonight.id }), changes: true });
    expect(await source.sessionBalances(tonight.id)).toEqual({ [alice.id]: -2, [bob.id]: 2 });
    const target = await store();
    await importBackupText(target, await exportBackupJson(source), 'replace');
    expect(await target.getSession(friday.id)).toMatchObject({ endedBy: 'carried', carriedInto: tonight.id });
    expect(await target.ledgerForSession(tonight.id)).toEqual(await source.ledgerForSession(tonight.id));
    expect(await target.sessionBalances(friday.id)).toEqual({ [alice.id]: -2, [bob.id]: 2 });
  });

  it('says how many games it has written as it goes, skipped ones counted, up to the total', async () => {
    const source = await populated();
    const text = await exportBackupJson(source);
    const target = await store();
    const seen: ImportProgress[] = [];
    // (a check that takes long enough says how far it has got first: the test below)
    const written = (): ImportProgress[] => seen.filter((p) => p.stage === 'writing');
    await importBackupText(target, text, 'merge', (progress) => seen.push(progress));
    expect(written()).toEqual([
      { stage: 'writing', games: 0, of: 2 },
      { stage: 'writing', games: 1, of: 2 },
      { stage: 'writing', games: 2, of: 2 },
    ]);
    // merged again, both games are already here: still counted through
    seen.length = 0;
    await importBackupText(target, text, 'merge', (progress) => seen.push(progress));
    expect(written().map((p) => p.games)).toEqual([0, 1, 2]);
  });

  it('replace makes the device hold exactly the backup, settings included', async () => {
    const source = await populated();
    const text = await exportBackupJson(source);
    const target = await store();
    await target.addPlayer('Zed');
    await target.createGame({ game: 'war', players: [ALICE, BOB], dice: { kitId: 'standard', taughtSetId: null } });
    await importBackupText(target, text, 'replace');
    expect(await snapshot(target)).toEqual(await snapshot(source));
  });

  it('settings of the device itself (storage asked, camera) stay this device\'s, merged or replaced', async () => {
    const source = await populated();
    await source.updateSettings({ persistAsked: true, cameraId: 'camera-of-another-phone' });
    const text = await exportBackupJson(source);
    // a new phone: the backup's theme and speech, its own (default) storage and camera
    const fresh = await store();
    await importBackupText(fresh, text, 'merge');
    expect(await fresh.getSettings()).toEqual({ theme: 'dark', speech: true, settleMs: 600, persistAsked: false, cameraId: null });
    const replaced = await store();
    await replaced.updateSettings({ persistAsked: true, cameraId: 'mine', theme: 'light' });
    await importBackupText(replaced, text, 'replace');
    expect(await replaced.getSettings()).toEqual({ theme: 'dark', speech: true, settleMs: 600, persistAsked: true, cameraId: 'mine' });
    const unasked = await store();
    await importBackupText(unasked, text, 'replace');
    expect(await unasked.getSettings()).toMatchObject({ persistAsked: false, cameraId: null });
  });

  it('merge keeps what the device has and adds the rest', async () => {
    const source = await populated();
    const text = await exportBackupJson(source);
    const target = await store();
    const zed = await target.addPlayer('Zed');
    const alice = await target.addPlayer('alice'); // same name as a player in the backup: kept, backup's skipped
    await target.updateSettings({ theme: 'light' });
    await importBackupText(target, text, 'merge');
    // importing the same file again adds nothing
    const again = await importBackupText(target, text, 'merge');
    expect(again.games).toEqual({ added: 0, skipped: 2 });
    expect((await target.listPlayers()).map((p) => p.name).sort()).toEqual(['Bob', 'Zed', 'alice']);
    expect((await target.listPlayers()).some((p) => p.id === zed.id)).toBe(true);
    expect(await target.listGames()).toHaveLength(2);
    const session = (await target.listSessions())[0]!;
    expect(Object.values(await target.sessionBalances(session.id)).sort()).toEqual([-2, 2]);
    // the backup's Alice is this device's alice: her games, result and ledger line use the id known here
    const bob = (await target.listPlayers()).find((p) => p.name === 'Bob')!;
    const finished = (await target.listGames('finished'))[0]!;
    expect(finished.players.map((p) => p.id)).toEqual([alice.id, bob.id]);
    expect(finished.result).toEqual({ winners: [bob.id], payouts: { [alice.id]: -2, [bob.id]: 2 } });
    expect(await target.sessionBalances(session.id)).toEqual({ [alice.id]: -2, [bob.id]: 2 });
    for (const game of await target.listGames()) {
      expect(game.players.every((p) => p.id === alice.id || p.id === bob.id)).toBe(true);
    }
    // the settings made here stay
    expect((await target.getSettings()).theme).toBe('light');
  });

  it("a merge never moves a picture here into the backup's set, nor brings a game without its payout (found by damaged-backups)", async () => {
    const source = await populated();
    const text = await exportBackupJson(source);
    const file = JSON.parse(text) as BackupFile;
    const target = await store();
    await importBackupText(target, text, 'replace');
    const before = await snapshot(target);
    // the same set under a new id, its picture under its old one: was written over the picture here, into the new set
    const [set] = file.taughtSets;
    const newSet = text.replaceAll(`"${set!.id}"`, '"new-set"');
    await importBackupText(target, newSet, 'merge');
    const after = await snapshot(target);
    expect(after.taughtFaces).toEqual(before.taughtFaces);
    expect(after.taughtSets.map((x) => x.name).sort()).toEqual(['Our dice', 'Our dice 2']);
    // the finished game under a new id, played by another name; its payout line under the id of the line here:
    // was merged finished without its line (the balances left its payout out)
    const g = file.games.find((x) => x.status === 'finished')!;
    const line = file.ledger.find((l) => l.gameId === g.id)!;
    const renamed = { ...g, id: 'new-game', players: g.players.map((p, i) => (i === 0 ? { ...p, name: 'Alicia' } : p)) };
    const moved = JSON.stringify({ ...file, games: file.games.map((x) => (x === g ? renamed : x)), ledger: file.ledger.map((l) => (l === line ? { ...l, gameId: 'new-game' } : l)) });
    const was = await snapshot(target);
    const refusal = await importBackupText(target, moved, 'merge').then(() => null, (e: unknown) => e);
    expect(refusal).toBeInstanceOf(BackupError);
    expect((refusal as BackupError).message).toBe(`This backup could not be merged: the payout of game "new-game" has the id of another ledger line here ("${line.id}"). Nothing was changed.`);
    expect(await snapshot(target)).toEqual(was);
  });

  it('a merged dice set named as one here is numbered', async () => {
    const source = await populated(); // its set is "Our dice"
    const target = await store();
    const mine = await target.createTaughtSet('standard', 'OUR  dice');
    const summary = await importBackupText(target, await exportBackupJson(source), 'merge');
    expect(summary.taughtSets).toEqual({ added: 1, skipped: 0 });
    const sets = await target.listTaughtSets();
    expect(sets.map((s) => s.name).sort()).toEqual(['OUR  dice', 'Our dice 2']);
    expect(sets.find((s) => s.id === mine.id)!.name).toBe('OUR  dice');
    // and the set keeps its faces
    const merged = sets.find((s) => s.id !== mine.id)!;
    expect(await target.listTaughtFaces(merged.id)).toHaveLength(1);
  });

  it('another phone\'s open session merged in does not take over this evening\'s', async () => {
    const clock = { t: 1_700_000_000_000 };
    const here = await store({ now: () => clock.t });
    const alice = await here.addPlayer('Alice');
    const bob = await here.addPlayer('Bob');
    const tonight = await here.sessionForNewGame('Tonight here');
    await here.addLedgerEntry({ sessionId: tonight.id, deltas: { [alice.id]: 5, [bob.id]: -5 }, note: '' });
    clock.t += 60_000;
    const there = await store({ now: () => clock.t });
    const cara = await there.addPlayer('Cara');
    const theirs = await there.sessionForNewGame('Tonight there'); // started later than this phone's
    clock.t += 60_000;
    await there.addLedgerEntry({ sessionId: theirs.id, deltas: { [cara.id]: 1 }, note: '' });
    const lastThere = clock.t;
    clock.t += 60_000;
    const text = await exportBackupJson(there);
    await importBackupText(here, text, 'merge');
    expect((await here.currentSession())!.id).toBe(tonight.id);
    expect((await here.sessionForNewGame('Next')).id).toBe(tonight.id);
    // theirs came in ended at its last activity, its balances intact
    expect((await here.listSessions()).find((s) => s.id === theirs.id)!.endedAt).toBe(lastThere);
    expect(await here.sessionBalances(theirs.id)).toEqual({ [cara.id]: 1 });
    // nobody settled it up: its debts are said on Home as still owed, not dropped without a word
    expect((await here.unsettledEvenings()).map((u) => [u.session.id, u.balances])).toEqual([[theirs.id, { [cara.id]: 1 }]]);
    // a phone with no open session (a new one, or one whose evening has ended) takes it open
    const fresh = await store();
    await importBackupText(fresh, text, 'merge');
    expect((await fresh.currentSession())!.id).toBe(theirs.id);
    const ended = await store({ now: () => clock.t });
    await ended.endSession((await ended.startSession('Last week')).id);
    await importBackupText(ended, text, 'merge');
    expect((await ended.currentSession())!.id).toBe(theirs.id);
  });

  it("a game still in play in another phone's open session, merged in, goes on in this evening: its end pays into tonight's balances and may be undone", async () => {
    const clock = { t: 1_700_000_000_000 };
    const here = await store({ now: () => clock.t });
    const tonight = await here.sessionForNewGame('Tonight here');
    const there = await store({ now: () => clock.t });
    const [cara, dan] = [await there.addPlayer('Cara'), await there.addPlayer('Dan')];
    const theirs = await there.sessionForNewGame('Tonight there');
    const players = [cara, dan].map(({ id, name }) => ({ id, name }));
    const options = { ante: 2, startingPlayer: 'first-listed' };
    const finished = await there.createGame({ game: 'big-roll-5000', players, ante: 2, options, dice: { kitId: 'standard', taughtSetId: null }, sessionId: theirs.id });
    await there.appendAction(finished.id, { type: 'roll', dice: [1, 1, 1, 1, 1] }, undefined, { winners: [cara.id], payouts: { [cara.id]: 2, [dan.id]: -2 } });
    const inPlay = await there.createGame({ game: 'big-roll-5000', players, ante: 2, options, dice: { kitId: 'standard', taughtSetId: null }, sessionId: theirs.id });
    await there.appendAction(inPlay.id, { type: 'roll', dice: [2, 3, 4, 6, 6] }); // nothing scores: Dan's turn
    clock.t += 60_000;
    await importBackupText(here, await exportBackupJson(there), 'merge');
    // theirs came in ended, its finished game's payout with it; the game in play is tonight's here
    expect((await here.listSessions()).find((s) => s.id === theirs.id)!.endedAt).not.toBeNull();
    expect(await here.sessionBalances(theirs.id)).toEqual({ [cara.id]: 2, [dan.id]: -2 });
    expect((await here.getGame(finished.id))!.sessionId).toBe(theirs.id);
    expect((await here.getGame(inPlay.id))!.sessionId).toBe(tonight.id);
    await here.appendAction(inPlay.id, { type: 'roll', dice: [1, 1, 1, 1, 1] }, undefined, { winners: [dan.id], payouts: { [cara.id]: -2, [dan.id]: 2 } });
    expect(await here.sessionBalances(tonight.id)).toEqual({ [cara.id]: -2, [dan.id]: 2 });
    // nobody settled tonight up: the end is undone as any other
    await here.undoLastAction(inPlay.id);
    expect((await here.getGame(inPlay.id))!.status).toBe('active');
    // a phone with no open session takes theirs open, its game in play with it
    const fresh = await store();
    await importBackupText(fresh, await exportBackupJson(there), 'merge');
    expect((await fresh.getGame(inPlay.id))!.sessionId).toBe(theirs.id);
    expect((await fresh.currentSession())!.id).toBe(theirs.id);
  });

  it('a game brought over as a transcript is not merged again from a backup', async () => {
    const source = await populated(); // its finished game: Big Roll, Alice and Bob, ante 2
    const [finished] = await source.listGames('finished');
    const { actions } = await source.loadGame(finished!.id);
    const target = await store();
    const transcript = { game: finished!.game, playerNames: ['alice', 'Bob'], options: finished!.options, ante: 2, dice: finished!.dice, actions, result: { winners: [1], payouts: [-2, 2] } };
    await target.importGame(transcript);
    const summary = await importBackupText(target, await exportBackupJson(source), 'merge');
    expect(summary.games).toEqual({ added: 1, skipped: 1 });
    expect(await target.listGames('finished')).toHaveLength(1);
    const lines = await Promise.all((await target.listGames()).map(async (g) => (await target.actionRecords(g.id)).length));
    expect(lines.sort()).toEqual([1, 2]);
    const paid = (await target.listSessions()).map((s) => s.id);
    for (const id of paid) expect(await target.ledgerForSession(id)).toEqual([]); // the backup's line was skipped with its game
    // the other way round, as before: the transcript of a game merged from a backup is already here
    const err = await target.importGame(transcript).catch((e: unknown) => e);
    expect((err as StoreError).code).toBe('already-here');
  });

  it('two games played alike in one backup are both merged', async () => {
    const source = await populated();
    const [finished] = await source.listGames('finished');
    const again = await source.createGame({ ...finished!, sessionId: finished!.sessionId });
    for (const action of (await source.loadGame(finished!.id)).actions) await source.appendAction(again.id, action);
    await source.finishGame(again.id, finished!.result!);
    const text = await exportBackupJson(source);
    const fresh = await store();
    expect((await importBackupText(fresh, text, 'merge')).games).toEqual({ added: 3, skipped: 0 });
    // a phone that has one of them as a transcript: that one is skipped, its twin merged
    const target = await store();
    await target.importGame({ game: finished!.game, playerNames: ['Alice', 'Bob'], options: finished!.options, ante: 2, dice: finished!.dice, actions: (await source.loadGame(finished!.id)).actions, result: { winners: [1], payouts: [-2, 2] } });
    expect((await importBackupText(target, text, 'merge')).games).toEqual({ added: 2, skipped: 1 });
    expect(await target.listGames('finished')).toHaveLength(2);
  });

  describe('players known here by name', () => {

    it('a name here under an id the backup gives another player is not taken for theirs', async () => {
      // B was restored from A; then on A "Al" became "Alan", a new friend "Al" joined, and they played
      const a = await store();
      const al = await a.addPlayer('Al');
      const b = await store();
      await importBackupText(b, await exportBackupJson(a), 'replace');
      await a.renamePlayer(al.id, 'Alan');
      // Al is a name Alan was known by: the new friend is someone else, said so (New game's "someone else")
      const newAl = await a.addPlayer('Al', { apart: true });
      const session = await a.startSession('Friday');
      await bigRoll(a, [{ id: al.id, name: 'Alan' }, { id: newAl.id, name: 'Al' }], session.id);
      const summary = await importBackupText(b, await exportBackupJson(a), 'merge');
      expect(summary.players).toEqual({ added: 1, skipped: 1 });
      const [game] = await b.listGames('finished');
      expect(game!.players.map((p) => p.id)).toEqual([al.id, newAl.id]);
      expect(await b.sessionBalances(session.id)).toEqual({ [al.id]: -2, [newAl.id]: 2 });
      // the new friend kept apart under a free name; this device's own backup is still accepted
      expect((await b.listPlayers()).map((p) => [p.id, p.name]).sort()).toEqual([[al.id, 'Al'], [newAl.id, 'Al 2']].sort());
      const mine = await exportBackupJson(b);
      expect(() => parseBackup(mine)).not.toThrow();
      const again = await store();
      await importBackupText(again, mine, 'replace');
      expect(await again.sessionBalances(session.id)).toEqual({ [al.id]: -2, [newAl.id]: 2 });
    });

    it('a player deleted from the backup\'s roster is known here by the name in their seats', async () => {
      const a = await store();
      const alice = await a.addPlayer('Alice');
      const bob = await a.addPlayer('Bob');
      const session = await a.startSession('Friday');
      await bigRoll(a, [{ id: alice.id, name: 'Alice' }, { id: bob.id, name: 'Bob' }], session.id);
      await a.deletePlayer(alice.id);
      const b = await store();
      const hersHere = await b.addPlayer('alice');
      await importBackupText(b, await exportBackupJson(a), 'merge');
      const [game] = await b.listGames('finished');
      expect(game!.players.map((p) => p.id)).toEqual([hersHere.id, bob.id]);
      expect(await b.sessionBalances(session.id)).toEqual({ [hersHere.id]: -2, [bob.id]: 2 });
    });
  });

  describe('the names players were known by', () => {
    /** A device where Bbo was merged into Bob. */
    async function bobWasBbo(): Promise<{ s: RollcallStore; bob: string }> {
      const s = await store();
      const bob = await s.addPlayer('Bob');
      const bbo = await s.addPlayer('Bbo');
      await s.mergePlayers(bbo.id, bob.id);
      return { s, bob: bob.id };
    }

    it('travel with the backup, and a restored phone finds the player by them', async () => {
      const { s, bob } = await bobWasBbo();
      const file = JSON.parse(await exportBackupJson(s)) as BackupFile;
      expect(file.version).toBe(3);
      expect(file.players).toEqual([expect.objectContaining({ id: bob, name: 'Bob', aliases: ['Bbo'] })]);
      const phone = await store();
      await importBackupText(phone, JSON.stringify(file), 'replace');
      expect(await snapshot(phone)).toEqual(await snapshot(s));
      expect((await phone.importGame({ game: 'war', playerNames: ['Bbo', 'Ann'], options: {}, ante: 0, dice: DICE, actions: [], result: null })).players[0]!.id).toBe(bob);
    });

    it("another phone's Bbo, merged here into Bob, joins Bob: one row on the balances, and Bob learns the names that phone knew", async () => {
      const { s, bob } = await bobWasBbo();
      const other = await store();
      const bbo = await other.addPlayer('Bbo');
      await other.renamePlayer(bbo.id, 'Bbo Baggins');
      await other.renamePlayer(bbo.id, 'Bbo');
      const session = await other.startSession('Friday');
      const ann = await other.addPlayer('Ann');
      await bigRoll(other, [{ id: ann.id, name: 'Ann' }, { id: bbo.id, name: 'Bbo' }], session.id);
      const summary = await importBackupText(s, await exportBackupJson(other), 'merge');
      expect(summary.players).toEqual({ added: 1, skipped: 1 });
      expect(await s.sessionBalances(session.id)).toEqual({ [ann.id]: -2, [bob]: 2 });
      expect((await s.listPlayers()).map((p) => [p.name, p.aliases ?? []]).sort()).toEqual([['Ann', []], ['Bob', ['Bbo', 'Bbo Baggins']]]);
    });

    it("a name known here as someone's stays theirs: a newcomer by it is numbered, and another's other name is not taken", async () => {
      const { s, bob } = await bobWasBbo();
      const other = await store();
      const cy = await other.addPlayer('Cy');
      await other.renamePlayer(cy.id, 'Bob'); // there, Bob was Cy before
      const session = await other.startSession('Friday');
      const bbo = await other.addPlayer('Bbo');
      await bigRoll(other, [{ id: cy.id, name: 'Bob' }, { id: bbo.id, name: 'Bbo' }], session.id);
      await importBackupText(s, await exportBackupJson(other), 'merge');
      // their Bob is Bob here; their Bbo sat with him, so is someone else here: numbered, as a name taken is
      const here = (await s.listPlayers()).map((p) => [p.name, p.aliases ?? []]).sort();
      expect(here).toEqual([['Bbo 2', []], ['Bob', ['Bbo', 'Cy']]]);
      expect(Object.keys(await s.sessionBalances(session.id))).toContain(bob);
    });

    it('an older backup without them still imports, its players known by no other name', async () => {
      const { s } = await bobWasBbo();
      const file = JSON.parse(await exportBackupJson(s)) as BackupFile;
      const old = { ...file, version: 2, players: file.players.map(({ aliases: _a, ...p }) => p) };
      const phone = await store();
      await importBackupText(phone, JSON.stringify(old), 'replace');
      expect((await phone.listPlayers()).map((p) => [p.name, p.aliases])).toEqual([['Bob', undefined]]);
    });

    it('a damaged list of them refuses the file, naming where, and changes nothing', async () => {
      const { s } = await bobWasBbo();
      const file = JSON.parse(await exportBackupJson(s)) as BackupFile;
      const withAliases = (aliases: unknown) => JSON.stringify({ ...file, players: [{ ...file.players[0], aliases }] });
      await expectRefused(s, withAliases('Bbo'), 'corrupt', /players\.0\.aliases must be a list/);
      await expectRefused(s, withAliases(['Bbo', 7]), 'corrupt', /players\.0\.aliases\.1 must be text/);
      await expectRefused(s, withAliases(['  ']), 'corrupt', /players\.0\.aliases\.0 must not be empty/);
      await expectRefused(s, withAliases(['x'.repeat(41)]), 'corrupt', /players\.0\.aliases\.0 is longer than 40 characters/);
    });
  });

  describe('refuses a bad file and changes nothing', () => {
    async function valid(): Promise<{ s: RollcallStore; file: BackupFile }> {
      const s = await populated();
      return { s, file: JSON.parse(await exportBackupJson(s)) as BackupFile };
    }

    it('not JSON', async () => {
      const { s } = await valid();
      await expectRefused(s, '{"format": "rollcall-backup", ', 'not-json');
      await expectRefused(s, '\u0089PNG\r\n', 'not-json');
    });

    it('JSON that is not a Rollcall backup', async () => {
      const { s } = await valid();
      await expectRefused(s, '{"hello": "world"}', 'foreign', /not a Rollcall backup/);
      await expectRefused(s, '[1, 2, 3]', 'foreign');
      await expectRefused(s, 'null', 'foreign');
    });

    it('a backup from a newer version', async () => {
      const { s, file } = await valid();
      await expectRefused(s, JSON.stringify({ ...file, version: 99 }), 'too-new', /newer version/);
    });

    it('a missing or mistyped field, naming where', async () => {
      const { s, file } = await valid();
      const g = file.games[0]!;
      await expectRefused(s, JSON.stringify({ ...file, players: undefined }), 'corrupt', /players/);
      await expectRefused(s, JSON.stringify({ ...file, games: [{ ...g, ante: 'two' }] }), 'corrupt', /games\.0\.ante/);
      await expectRefused(s, JSON.stringify({ ...file, games: [{ ...g, status: 'paused' }] }), 'corrupt', /status/);
      await expectRefused(s, JSON.stringify({ ...file, games: [{ ...g, actions: [{ action: { dice: [1] }, at: 1 }, g.actions[1]] }] }), 'corrupt', /action/);
      await expectRefused(s, JSON.stringify({ ...file, settings: { ...file.settings, settleMs: -4 } }), 'corrupt', /settleMs/);
    });

    it("a missing or mistyped field in words a player reads, never valibot's (found by damaged-backups)", async () => {
      const { s, file } = await valid();
      const g = file.games[0]!;
      const { name: _name, ...unnamed } = file.taughtSets[0]!;
      // was: "taughtSets.0.name Invalid key: Expected "name" but received undefined"
      await expectRefused(s, JSON.stringify({ ...file, taughtSets: [unnamed] }), 'corrupt', /: taughtSets\.0\.name is missing\. Nothing was changed\.$/);
      // was: "Invalid type: Expected ("system" | "light" | "dark") but received "neon""
      await expectRefused(s, JSON.stringify({ ...file, settings: { ...file.settings, theme: 'neon' } }), 'corrupt', /: settings\.theme must be "system", "light" or "dark"\. Nothing/);
      // was: "Invalid integer: Received 1.5", "Invalid value: Expected >=0 but received -1"
      await expectRefused(s, JSON.stringify({ ...file, games: [{ ...g, actionCount: 1.5 }] }), 'corrupt', /: games\.0\.actionCount must be a whole number\. Nothing/);
      await expectRefused(s, JSON.stringify({ ...file, games: [{ ...g, createdAt: -1 }] }), 'corrupt', /: games\.0\.createdAt must be 0 or more\. Nothing/);
      await expectRefused(s, JSON.stringify({ ...file, games: [{ ...g, players: null }] }), 'corrupt', /: games\.0\.players must be a list\. Nothing/);
    });

    it('a game read with dice other than its own, or paid into another session (found by damaged-backups)', async () => {
      const { s, file } = await valid();
      const [g, faceOff] = file.games as [BackupFile['games'][number], BackupFile['games'][number]]; // Big Roll with standard dice, Face Off
      const set = file.taughtSets[0]!; // of Face Off's dice
      const withFirst = (game: typeof g, ledger = file.ledger) => JSON.stringify({ ...file, games: [game, faceOff], ledger });
      await expectRefused(s, withFirst({ ...g, dice: { kitId: 'face-off', taughtSetId: null } }), 'corrupt', new RegExp(`game "${g.id}" is read with the dice kit "face-off", but its game is played with "standard"`));
      await expectRefused(s, withFirst({ ...g, dice: { kitId: 'standard', taughtSetId: set.id } }), 'corrupt', new RegExp(`game "${g.id}" is read with the dice set "${set.id}", which is of another kit`));
      // a set since deleted is no longer in the file: the game is read with its own dice
      await expect(importBackupText(await store(), withFirst({ ...g, dice: { kitId: 'standard', taughtSetId: 'deleted-set' } }), 'replace')).resolves.toBeDefined();
      const ledger = file.ledger.map((l) => (l.gameId === g.id ? { ...l, sessionId: null } : l));
      await expectRefused(s, withFirst(g, ledger), 'corrupt', /ledger line "[^"]+" is of another session than its game/);
    });

    it('a log that does not match its header', async () => {
      const { s, file } = await valid();
      const g = file.games[0]!;
      await expectRefused(s, JSON.stringify({ ...file, games: [{ ...g, actions: g.actions.slice(1) }, ...file.games.slice(1)] }), 'corrupt', /should have 2 actions/);
    });

    it('a log that does not replay under the rules, naming the game and the action', async () => {
      const { s, file } = await valid();
      const g = file.games[0]!;
      // a bank before any roll: well-formed, but the rules refuse it
      const banked = { ...g, actions: [{ action: { type: 'bank' }, at: 1 }, g.actions[1]!] };
      await expectRefused(s, JSON.stringify({ ...file, games: [banked, ...file.games.slice(1)] }), 'corrupt', new RegExp(`game "${g.id}" stops making sense at action 1 of 2`));
      await expectRefused(s, JSON.stringify({ ...file, games: [{ ...g, game: 'snakes-and-ladders' }, ...file.games.slice(1)] }), 'corrupt', new RegExp(`game "${g.id}" cannot be set up`));
    });

    it('a result its log does not make, or a ledger that disagrees with it', async () => {
      const { s, file } = await valid();
      const g = file.games[0]!; // finished: Bob won with five 1s, ante 2
      const [alice, bob] = g.players.map((p) => p.id) as [string, string];
      const rest = file.games.slice(1);
      const line = file.ledger.find((l) => l.gameId === g.id)!;
      const others = file.ledger.filter((l) => l !== line);
      const withGame = (game: typeof g, ledger = file.ledger) => JSON.stringify({ ...file, games: [game, ...rest], ledger });
      // another winner than the log's, paid as such
      const alicePaid = { winners: [alice], payouts: { [alice]: 2, [bob]: -2 } };
      await expectRefused(s, withGame({ ...g, result: alicePaid }, [...others, { ...line, deltas: alicePaid.payouts }]), 'corrupt', new RegExp(`game "${g.id}" names Alice as its winner, but its log makes it Bob`));
      // the log cut before its end, still marked finished
      const cut = { ...g, actions: g.actions.slice(0, 1), actionCount: 1 };
      await expectRefused(s, withGame(cut), 'corrupt', new RegExp(`game "${g.id}" is marked finished, but its log does not end it`));
      // the right winner, the wrong payout
      await expectRefused(s, withGame({ ...g, result: { winners: [bob], payouts: { [alice]: -2, [bob]: 4 } } }), 'corrupt', /pays Bob 4, but its log pays 2/);
      // a result on a game still open
      await expectRefused(s, withGame({ ...cut, status: 'active', finishedAt: null }, others), 'corrupt', /has a result but is not finished/);
      // its ledger line gone, changed, or twice
      await expectRefused(s, withGame(g, others), 'corrupt', /should have one ledger line for its payout but has 0/);
      await expectRefused(s, withGame(g, [...others, { ...line, deltas: { [alice]: 0, [bob]: 0 } }]), 'corrupt', new RegExp(`ledger line "${line.id}" does not match the payout`));
      await expectRefused(s, withGame(g, [...file.ledger, { ...line, id: 'again' }]), 'corrupt', /has 2/);
      // a ledger line for a game that paid nothing
      const open = { ...cut, status: 'active' as const, finishedAt: null, result: null };
      await expectRefused(s, withGame(open), 'corrupt', new RegExp(`ledger line "${line.id}" belongs to game "${g.id}", which has no payout`));
    });

    it('a game whose log has ended but whose result was never written, as a closed tab leaves it', async () => {
      const { s, file } = await valid();
      const g = file.games[0]!;
      const unwritten = { ...g, status: 'active' as const, finishedAt: null, result: null };
      const summary = await importBackupText(s, JSON.stringify({ ...file, games: [unwritten, ...file.games.slice(1)], ledger: file.ledger.filter((l) => l.gameId !== g.id) }), 'replace');
      expect(summary.games.added).toBe(2);
    });

    it('records that refer to missing or duplicate records', async () => {
      const { s, file } = await valid();
      await expectRefused(s, JSON.stringify({ ...file, sessions: [] }), 'corrupt', /missing session/);
      await expectRefused(s, JSON.stringify({ ...file, games: [file.games[1]] }), 'corrupt', /missing game/);
      await expectRefused(s, JSON.stringify({ ...file, taughtSets: [] }), 'corrupt', /missing dice set/);
      await expectRefused(s, JSON.stringify({ ...file, players: [...file.players, file.players[0]] }), 'corrupt', /appears twice/);
    });

    it('a picture that cannot be read', async () => {
      const { s, file } = await valid();
      const face = file.taughtFaces[0]!;
      await expectRefused(s, JSON.stringify({ ...file, taughtFaces: [{ ...face, image: 'data:text/html;base64,PGgxPg==' }] }), 'corrupt', /image/);
      await expectRefused(s, JSON.stringify({ ...file, taughtFaces: [{ ...face, image: 'data:image/png;base64,@@@' }] }), 'corrupt');
      // base64 that decodes, but to three bytes of no picture
      await expectRefused(s, JSON.stringify({ ...file, taughtFaces: [{ ...face, image: 'data:image/png;base64,AAAA' }] }), 'corrupt', /picture of taught face/);
    });

    it('a large damaged file, refused at its first problem', async () => {
      const { s, file } = await valid();
      const games = Array.from({ length: 200_000 }, (_, i) => ({ id: `g${i}` }));
      await expectRefused(s, JSON.stringify({ ...file, games }), 'corrupt', /^This backup is damaged .*games\.0\./);
    });

    it('a truncated file', async () => {
      const { s } = await valid();
      const text = await exportBackupJson(s);
      await expectRefused(s, text.slice(0, Math.floor(text.length / 2)), 'not-json');
    });
  });

  it('a write that fails part-way changes nothing: a full disk is the store\'s storage-full refusal', async () => {
    const s = await populated();
    const text = await exportBackupJson(await populated());
    const before = await snapshot(s);
    const proto = IDBObjectStore.prototype as { put: IDBObjectStore['put'] };
    const realPut = proto.put;
    for (const [failure, code] of [
      [new DOMException('The quota has been exceeded.', 'QuotaExceededError'), 'storage-full'],
      [new TypeError('cannot clone'), 'corrupt'],
    ] as const) {
      let puts = 0;
      proto.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
        if (++puts === 4) throw failure;
        return realPut.apply(this, args);
      };
      try {
        const err = await importBackupText(s, text, 'replace').catch((e: unknown) => e);
        expect((err as StoreError | BackupError).code).toBe(code);
        expect((err as Error).message).toMatch(code === 'storage-full' ? /out of storage space/ : /could not be written .*Nothing was changed/);
      } finally {
        proto.put = realPut;
      }
      expect(await snapshot(s)).toEqual(before);
    }
  });

  it('a game\'s log is written whole and in order, and a write refused mid-log changes nothing', async () => {
    // The actions of a game are written together, not one awaited after another: each must still
    // land at its place, and a request that fails among them (not at once: its error comes later,
    // after the rest were issued) must abort everything.
    const source = await store();
    const players = [ALICE, BOB];
    const g = await source.createGame({ game: 'five-thousand', players, dice: { kitId: 'standard', taughtSetId: null }, options: { startingPlayer: 'first-listed' } });
    for (let i = 0; i < 60; i++) await source.appendAction(g.id, { type: 'roll', dice: [2, 3, 4, 6, 6] });
    const text = await exportBackupJson(source);
    const target = await store();
    await importBackupText(target, text, 'merge');
    expect((await target.actionRecords(g.id)).map((r) => r.seq)).toEqual([...Array(60).keys()]);
    expect(await snapshot(target)).toEqual(await snapshot(source));

    const s = await populated();
    const before = await snapshot(s);
    const proto = IDBObjectStore.prototype as { put: IDBObjectStore['put']; add: IDBObjectStore['add'] };
    const realPut = proto.put;
    let puts = 0;
    proto.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      // the 30th action: written, then added again, which fails when the request runs
      if (this.name === 'actions' && ++puts === 30) {
        realPut.apply(this, args);
        return proto.add.apply(this, args);
      }
      return realPut.apply(this, args);
    };
    try {
      const err = await importBackupText(s, text, 'merge').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BackupError);
      expect((err as BackupError).message).toMatch(/could not be written .*Nothing was changed/);
    } finally {
      proto.put = realPut;
    }
    expect(puts).toBe(60);
    expect(await snapshot(s)).toEqual(before);
  });

  it('parseBackup alone validates without a store', async () => {
    const s = await populated();
    const parsed = parseBackup(await exportBackupJson(s));
    expect(parsed.file.games).toHaveLength(2);
    expect(parsed.images.size).toBe(1);
  });

  it('the file saved a game at a time is what JSON.stringify writes of the whole backup', async () => {
    const now = new Date(Date.UTC(2026, 11, 6));
    const s = await populated();
    expect(await (await exportBackupBlob(s, now)).text()).toBe(JSON.stringify(await exportBackup(s, now)));
    const big = await store();
    await importBackupText(big, JSON.stringify(bigHistory({ games: 60, players: 6, sessions: 10, seed: 7 }).backup), 'replace');
    const blob = await exportBackupBlob(big, now);
    expect(blob.type).toBe('application/json');
    expect(await blob.text()).toBe(JSON.stringify(await exportBackup(big, now)));
    // each game's log in the order played, as the store keeps it
    const file = await exportBackup(big, now);
    for (const g of file.games) expect((await big.loadGameRecords(g.id)).records.map((r) => r.action)).toEqual(g.actions.map((a) => a.action));
    const empty = await store();
    expect(JSON.parse(await exportBackupJson(empty, now))).toMatchObject({ games: [], players: [] });
  });

  it('checked in steps, a big history lets the page draw between them and reads as checked at once', async () => {
    const text = JSON.stringify(bigHistory({ games: 120, players: 6, sessions: 20, seed: 5 }).backup);
    const progress: ImportProgress[] = [];
    let turns = 0; // the event loop's turns taken while the check runs: the page's chances to draw
    const ticking = setInterval(() => turns++, 0);
    const stepped = await parseBackupInSteps(text, (p) => progress.push(p)).finally(() => clearInterval(ticking));
    expect(stepped).toEqual(parseBackup(text));
    expect(turns).toBeGreaterThan(0);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => p.stage === 'checking' && p.of === 120 && p.games <= 120)).toBe(true);
    expect(progress.map((p) => p.games)).toEqual([...progress.map((p) => p.games)].sort((a, b) => a - b));
    // damaged, it is refused the same way, and after the same games
    const damaged = text.replace('"type":"roll","dice":[', '"type":"roll","dice":[9,');
    const atOnce = (() => { try { parseBackup(damaged); } catch (e) { return e; } })();
    expect(atOnce).toBeInstanceOf(BackupError);
    await expect(parseBackupInSteps(damaged)).rejects.toEqual(atOnce);
  });
});

/** An own kit, as a kit file brings it. */
const OWN_KIT = { id: 'my-dice', name: 'My dice', faces: [{ id: 'sun', label: 'Sun', value: 1, group: null }, { id: 'moon', label: 'Moon', value: 2, group: null }] } as DiceKit;
const base64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64');

describe('a backup whose own kit is damaged', () => {
  it('is refused naming the field, in words', async () => {
    const s = await store();
    await s.createTaughtSet(OWN_KIT.id, 'My dice', { kit: OWN_KIT, art: {} });
    const file = JSON.parse(await exportBackupJson(s)) as { taughtSets: Array<{ kit: { id: string } }> };
    file.taughtSets[0]!.kit.id = 'My Dice!';
    const refusal = await importBackupText(await store(), JSON.stringify(file), 'replace').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(BackupError);
    expect((refusal as BackupError).message).toBe(
      'This backup is damaged and was not imported: taughtSets.0.kit is not a kit Rollcall reads: "id" must be lower-case letters, digits and dashes (e.g. "my-spike-dice"), got "My Dice!". Nothing was changed.',
    );
  });
});

describe('the store holds only what a backup takes', () => {
  it('kit art in any case or with parameters is kept as a backup accepts it', async () => {
    const s = await store();
    // accepted by a kit file: an upper-case type, a charset parameter
    const bundle = parseKitBundle({
      format: 'rollcall-kit',
      version: 1,
      kit: OWN_KIT,
      art: { sun: `data:image/PNG;base64,${base64(PNG)}`, moon: `data:image/svg+xml;charset=utf-8;base64,${base64('<svg xmlns="http://www.w3.org/2000/svg"/>')}` },
      examples: {},
    });
    expect(bundle.art.sun).toBe(`data:image/png;base64,${base64(PNG)}`);
    const set = await s.importTaughtSet({ kitId: OWN_KIT.id, name: 'My dice', own: { kit: bundle.kit, art: bundle.art } }, []);
    expect(set.art.moon).toMatch(/^data:image\/svg\+xml;base64,/);
    // given straight to the store, normalised the same way
    const other = await s.createTaughtSet('other-dice', 'Other dice', { kit: { ...OWN_KIT, id: 'other-dice' }, art: { sun: `DATA:IMAGE/PNG;name=a.png;base64,${base64(PNG)}` } });
    expect(other.art.sun).toBe(`data:image/png;base64,${base64(PNG)}`);
    const text = await exportBackupJson(s);
    expect(() => parseBackup(text)).not.toThrow();
    const target = await store();
    await importBackupText(target, text, 'replace');
    expect(await snapshot(target)).toEqual(await snapshot(s));
  });

  it('the store refuses art a backup would refuse', async () => {
    const s = await store();
    for (const url of ['data:image/png;base64,@@@', 'data:text/html;base64,PGgxPg==', 'data:image/png,raw', 'https://x/y.png']) {
      const err = await s.createTaughtSet(OWN_KIT.id, 'My dice', { kit: OWN_KIT, art: { sun: url } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreError);
      expect((err as StoreError).code).toBe('invalid-input');
    }
    expect(await s.listTaughtSets()).toEqual([]);
  });

  it('a backup of every kind of record the store writes is accepted', async () => {
    const s = await populated();
    const [alice, bob] = (await s.listPlayers()).sort((a, b) => a.name.localeCompare(b.name));
    const session = (await s.currentSession())!;
    await s.addLedgerEntry({ sessionId: session.id, deltas: { [alice!.id]: 1.5, [bob!.id]: -1.5 }, note: 'settled' });
    await s.addLedgerEntry({ sessionId: null, deltas: {}, note: '' });
    const abandoned = await s.createGame({ game: 'face-off', players: [{ id: alice!.id, name: 'Alice' }, { id: bob!.id, name: 'Bob' }], dice: { kitId: 'face-off', taughtSetId: null }, sessionId: null });
    await s.abandonGame(abandoned.id);
    await s.importGame({ game: 'big-roll-5000', playerNames: ['Alice', 'Cara'], options: { ante: 1, startingPlayer: 'first-listed' }, ante: 1, dice: { kitId: 'standard', taughtSetId: null }, actions: [{ type: 'roll', dice: [2, 3, 4, 6, 6] }, { type: 'roll', dice: [1, 1, 1, 1, 1] }] as never, result: { winners: [1], payouts: [-1, 1] } });
    await s.endSession(session.id);
    await s.startSession('Saturday');
    const own = await s.importTaughtSet(
      { kitId: OWN_KIT.id, name: 'Our dice', own: { kit: OWN_KIT, art: { sun: `data:Image/Png;charset=x;base64,${base64(PNG)}` } } },
      [{ faceId: 'moon', image: new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1])], { type: 'image/jpeg' }), embedding: { vector: [1, 0], model: 'face-embed@1' }, box: { x: 1, y: 2, w: 3, h: 4 } }],
    );
    expect(own.name).toBe('Our dice 2');
    await s.updateSettings({ settleMs: 1200, cameraId: 'rear', persistAsked: true });
    const text = await exportBackupJson(s);
    expect(parseBackup(text).file.games).toHaveLength(4);
    const target = await store();
    await importBackupText(target, text, 'replace');
    const { settings: _mine, ...rest } = await snapshot(target);
    const { settings: _theirs, ...source } = await snapshot(s);
    expect(rest).toEqual(source);
  });
});
