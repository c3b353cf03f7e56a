/**
 * What a sound store keeps true, checked apart from the importers' own validators: for the
 * damaged-file property tests, after an import went through.
 */
import { expect } from 'vitest';
import { resultOfGame, type RollcallStore } from '../../src/lib/store/index.ts';
import { exportBackup, exportBackupJson, importBackupText, parseBackup, type BackupFile } from '../../src/lib/store/backup.ts';
import { createMatch, gameById, matchResult, tryAction, type Action } from '../../src/lib/rules/index.ts';
import { nameKey } from '../../src/lib/dice/names.ts';
import { freshStore } from '../store/helpers.ts';
import { headerOfRecord } from './made-files.ts';

export type Snapshot = Omit<BackupFile, 'exportedAt'>;

export async function snapshot(store: RollcallStore): Promise<Snapshot> {
  const { exportedAt: _when, ...rest } = await exportBackup(store);
  return rest;
}

/** Everything a sound store keeps true, checked apart from the importer's own validator. */
export async function expectSound(store: RollcallStore): Promise<void> {
  const file = await snapshot(store);
  const sessionIds = new Set(file.sessions.map((s) => s.id));
  const gameIds = new Set(file.games.map((g) => g.id));
  for (const g of file.games) {
    expect(new Set(g.players.map((p) => p.id)).size, `game ${g.id} seats someone twice`).toBe(g.players.length);
    expect(g.actions.length, `game ${g.id}'s action count`).toBe(g.actionCount);
    if (g.sessionId !== null) expect(sessionIds.has(g.sessionId), `game ${g.id}'s session`).toBe(true);
    let state = createMatch(headerOfRecord(g), { namesAsPlayed: true });
    for (const [i, { action }] of g.actions.entries()) {
      const next = tryAction(state, action as Action);
      if (!next.ok) throw new Error(`game ${g.id}'s log stops at action ${i + 1}: ${next.error.message}`);
      state = next.state;
    }
    const byLog = matchResult(state);
    if (g.status === 'finished') {
      expect(byLog, `finished game ${g.id} has a log that ends it`).not.toBeNull();
      const expected = resultOfGame(g.players, g.ante, byLog!);
      expect([...g.result!.winners].sort(), `game ${g.id}'s winners`).toEqual([...expected.winners].sort());
      for (const p of g.players) expect(g.result!.payouts[p.id] ?? 0, `game ${g.id} pays ${p.name}`).toBe(expected.payouts[p.id] ?? 0);
    } else {
      expect(g.result, `game ${g.id} is ${g.status} without a result`).toBeNull();
    }
    const lines = file.ledger.filter((l) => l.gameId === g.id);
    expect(lines.length, `game ${g.id}'s ledger lines`).toBe(g.status === 'finished' && g.ante > 0 ? 1 : 0);
    // its payout counts in the evening it was played
    for (const l of lines) expect(l.sessionId, `game ${g.id}'s ledger line's session`).toBe(g.sessionId);
    // read with the dice the game is played with (a taught set of them, if it is still here)
    expect(g.dice.kitId, `game ${g.id}'s dice`).toBe(gameById(g.game).kit);
    const set = file.taughtSets.find((s) => s.id === g.dice.taughtSetId);
    if (set) expect(set.kitId, `game ${g.id}'s taught set`).toBe(g.dice.kitId);
  }
  for (const l of file.ledger) {
    if (l.gameId !== null) expect(gameIds.has(l.gameId), `ledger line ${l.id}'s game`).toBe(true);
    if (l.sessionId !== null) expect(sessionIds.has(l.sessionId), `ledger line ${l.id}'s session`).toBe(true);
  }
  expect(new Set(file.players.map((p) => nameKey(p.name))).size, 'two players of one name').toBe(file.players.length);
  expect(new Set(file.taughtSets.map((s) => nameKey(s.name))).size, 'two dice sets of one name').toBe(file.taughtSets.length);
  const setIds = new Set(file.taughtSets.map((s) => s.id));
  for (const f of file.taughtFaces) expect(setIds.has(f.setId), `taught face ${f.id}'s set`).toBe(true);
  // the store's own backup is one the app takes, and brings the same data to a new phone
  const text = await exportBackupJson(store);
  expect(() => parseBackup(text)).not.toThrow();
  const copy = await freshStore();
  try {
    await importBackupText(copy, text, 'replace');
    const again = await snapshot(copy);
    // a new phone keeps its own device settings (asked to keep storage, its camera)
    expect({ ...again, settings: { ...again.settings, persistAsked: file.settings.persistAsked, cameraId: file.settings.cameraId } }).toEqual(file);
  } finally {
    copy.close();
  }
}

