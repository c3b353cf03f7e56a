/**
 * A Rollcall file picked on the wrong screen (a backup in History's transcript import, a transcript
 * in Settings' backup import, either in Dice kits): the player is told what the file is and where
 * it goes, not what it lacks as the file that screen takes.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BACKUP_FORMAT } from '../../src/lib/store/backup.ts';
import { KIT_BUNDLE_FORMAT } from '../../src/lib/dice/bundle.ts';
import { BACKUP_MARK, KIT_MARK, rollcallFileKind, wrongFileIn } from '../../src/app/file-kinds.ts';
import { readTranscript, TranscriptImportError } from '../../src/app/play.ts';
import { bigHistory } from '../../scripts/lib/big-history.ts';

const transcript = readFileSync(resolve(import.meta.dirname, '../transcripts/big-roll-5000/five-ones-win.json'), 'utf8');
const backup = JSON.stringify(bigHistory({ games: 2, sessions: 1, seed: 1 }).backup);
const kit = JSON.stringify({ format: KIT_BUNDLE_FORMAT, version: 1, kit: { id: 'animals', name: 'Animals', faces: [] }, art: {}, examples: {} });

describe('which of Rollcall’s files', () => {
  it('knows the marks the backup and the kit file are written with', () => {
    expect(BACKUP_MARK).toBe(BACKUP_FORMAT);
    expect(KIT_MARK).toBe(KIT_BUNDLE_FORMAT);
  });

  it('tells a transcript, a backup and a kit file apart, and anything else from all three', () => {
    expect(rollcallFileKind(JSON.parse(transcript))).toBe('transcript');
    expect(rollcallFileKind(JSON.parse(backup))).toBe('backup');
    expect(rollcallFileKind(JSON.parse(kit))).toBe('kit');
    for (const other of [null, [], 'x', {}, { game: 'war' }, { format: 'something-else', game: 'war', players: [], actions: [] }]) expect(rollcallFileKind(other)).toBeNull();
  });

  it('says where a file picked on the wrong screen goes, and nothing of a file of the right kind or none', () => {
    expect(wrongFileIn(backup, 'transcript')).toBe('This file is a Rollcall backup, not a game transcript: import it in Settings, under Backup.');
    expect(wrongFileIn(kit, 'backup')).toBe('This file is a dice kit file, not a backup: import it in Dice kits.');
    expect(wrongFileIn(transcript, 'kit')).toBe('This file is a game transcript, not a kit file: import it in History, under Import a game.');
    expect(wrongFileIn(transcript, 'transcript')).toBeNull();
    expect(wrongFileIn('not json', 'kit')).toBeNull();
    expect(wrongFileIn('{"game": 3}', 'transcript')).toBeNull();
  });
});

describe('History’s transcript import', () => {
  it('refuses a backup or a kit file by what it is, nothing imported', () => {
    expect(() => readTranscript(backup)).toThrow(new TranscriptImportError('This file is a Rollcall backup, not a game transcript: import it in Settings, under Backup. Nothing was imported.'));
    expect(() => readTranscript(kit)).toThrow(new TranscriptImportError('This file is a dice kit file, not a game transcript: import it in Dice kits. Nothing was imported.'));
    // a transcript still reads, and a broken one is still told what it lacks
    expect(readTranscript(transcript).transcript.game).toBe('big-roll-5000');
    expect(() => readTranscript('{"game":"war"}')).toThrow('Transcript: "players" must be a list of names. Nothing was imported.');
  });
});
