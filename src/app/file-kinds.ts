/**
 * Rollcall writes three kinds of JSON file (a game transcript, a backup, a dice kit), each taken in
 * by its own screen, and all three land side by side in the phone’s downloads as `.json` files named for Rollcall.
 * A player who picks the wrong one was told what the file lacks ('Transcript: "game" must be a game
 * id', 'not a Rollcall kit ("format" must be "rollcall-kit")'); this says what the file is and where
 * it goes instead.
 */

/**
 * The "format" marks of a backup (lib/store/backup.ts BACKUP_FORMAT) and a kit file
 * (lib/dice/bundle.ts KIT_BUNDLE_FORMAT), written out here: importing those modules would pull the
 * backup's checker into the first screen's bundle, which loads it only when a backup is imported.
 * tests/app/file-kinds.test.ts holds them equal.
 */
export const BACKUP_MARK = 'rollcall-backup';
export const KIT_MARK = 'rollcall-kit';

export type RollcallFileKind = 'transcript' | 'backup' | 'kit';

const WHERE: Record<RollcallFileKind, { is: string; not: string; goes: string }> = {
  transcript: { is: 'a game transcript', not: 'game transcript', goes: 'in History, under Import a game' },
  backup: { is: 'a Rollcall backup', not: 'backup', goes: 'in Settings, under Backup' },
  kit: { is: 'a dice kit file', not: 'kit file', goes: 'in Dice kits' },
};

/** Which of Rollcall's files `json` (parsed) is, by its marks; null when none. */
export function rollcallFileKind(json: unknown): RollcallFileKind | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const { format, game, players, actions } = json as Record<string, unknown>;
  if (format === BACKUP_MARK) return 'backup';
  if (format === KIT_MARK) return 'kit';
  if (format === undefined && typeof game === 'string' && Array.isArray(players) && Array.isArray(actions)) return 'transcript';
  return null;
}

/** What to tell a player who gave the screen that takes `wanted` a file of `kind` instead. */
export function wrongFileMessage(kind: RollcallFileKind, wanted: RollcallFileKind): string {
  return `This file is ${WHERE[kind].is}, not a ${WHERE[wanted].not}: import it ${WHERE[kind].goes}.`;
}

/**
 * For the screen that takes `wanted`: what to say when `text` is another of Rollcall's files
 * ("This file is a Rollcall backup, not a kit file: import it in Settings, under Backup."), or null
 * when it is not (the screen's own check then says what is wrong with it, if anything).
 */
export function wrongFileIn(text: string, wanted: RollcallFileKind): string | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const kind = rollcallFileKind(json);
  return kind === null || kind === wanted ? null : wrongFileMessage(kind, wanted);
}
