/**
 * A stranger's file, made to hurt: every import says what is wrong and keeps nothing; none
 * overflows the stack, pollutes an object's prototype or takes minutes.
 */
import { describe, expect, it } from 'vitest';
import 'fake-indexeddb/auto';
import { readTranscript, TranscriptImportError } from '../../src/app/play.ts';
import { MAX_LOG_ACTIONS } from '../../src/lib/rules/index.ts';
import { parseKit } from '../../src/lib/dice/index.ts';
import { BackupError } from '../../src/lib/store/index.ts';
import { exportBackupJson, importBackupText } from '../../src/lib/store/backup.ts';
import { freshStore } from '../store/helpers.ts';

const deep = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const transcript = (actions: string): string => `{"game":"war","players":["Ann","Bob"],"options":{"startingPlayer":"first-listed"},"actions":${actions}}`;

describe('hostile transcripts', () => {
  it('a die nested 100,000 deep is a clear refusal, not "Maximum call stack size exceeded"', () => {
    expect(() => readTranscript(transcript(`[{"type":"roll","dice":[${deep(100_000)}]}]`))).toThrow(
      new TranscriptImportError('Action 1 of this transcript is not allowed: (a value nested too deeply to show) is not a face of Standard dice (pips 1–6) (faces: 1, 2, 3, 4, 5, 6). Nothing was imported.'),
    );
  });

  it(`a log longer than any game (over ${MAX_LOG_ACTIONS} actions) is refused before it is replayed`, () => {
    const actions = JSON.stringify(Array.from({ length: MAX_LOG_ACTIONS + 1 }, () => ({ type: 'roll', dice: [3] })));
    expect(() => readTranscript(transcript(actions))).toThrow(/20001 actions; a game's log holds at most 20000\. Nothing was imported\.$/);
  });
});

describe('hostile backups', () => {
  it('deep nesting, prototype keys and ids JavaScript keeps for itself are refused, changing nothing', async () => {
    const s = await freshStore();
    const ann = await s.addPlayer('Ann');
    const file = JSON.parse(await exportBackupJson(s)) as { players: Array<{ id: string }>; settings: Record<string, unknown> };
    const refusal = async (text: string) => importBackupText(s, text, 'replace').then(() => null, (e: unknown) => e);
    const withSettings = (extra: string) => JSON.stringify(file).replace('"settings":{', `"settings":{${extra},`);
    expect(await refusal(withSettings(`"deep":${deep(100_000)}`))).toMatchObject({ code: 'corrupt', message: expect.stringMatching(/nested too deeply/) });
    expect(await refusal(withSettings('"__proto__":{"polluted":true}'))).toMatchObject({ code: 'corrupt', message: expect.stringMatching(/"__proto__"/) });
    expect(await refusal(JSON.stringify(file).replaceAll(ann.id, 'constructor'))).toBeInstanceOf(BackupError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await s.listPlayers()).map((p) => p.id)).toEqual([ann.id]);
    s.close();
  });

  it("balances are kept by player id in a map: an id is data, never an object's own property", async () => {
    const s = await freshStore();
    const session = await s.startSession('Friday');
    await s.addLedgerEntry({ sessionId: session.id, deltas: { constructor: 5, toString: -5 }, note: '' });
    expect(await s.sessionBalances(session.id)).toEqual({ constructor: 5, toString: -5 });
    s.close();
  });
});

describe('hostile kit files', () => {
  it('a kit or face id that JavaScript objects keep for themselves is refused', () => {
    const faces = (ids: string[]) => ids.map((id, i) => ({ id, label: `Face ${i + 1}`, value: i + 1, group: null }));
    const kit = (id: string, faceIds: string[]) => ({ id, name: 'Odd dice', faces: faces(faceIds) });
    expect(() => parseKit(kit('constructor', ['a', 'b', 'c', 'd', 'e', 'f']))).toThrow(/"id" "constructor" is a name JavaScript keeps for itself/);
    expect(() => parseKit(kit('odd-dice', ['a', 'toString', 'c', 'd', 'e', 'f']))).toThrow(/"toString" is a name JavaScript keeps for itself/);
    expect(parseKit(kit('odd-dice', ['a', 'b', 'c', 'd', 'e', 'f'])).id).toBe('odd-dice');
  });
});
