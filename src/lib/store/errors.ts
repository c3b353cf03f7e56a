export type StoreErrorCode =
  | 'not-found'
  | 'invalid-input'
  | 'stale-log'
  | 'nothing-to-undo'
  | 'game-closed'
  | 'name-taken'
  | 'already-here'
  | 'storage-full'
  | 'unavailable';

/** A refused store operation. Nothing was written. `message` is fit to show a player. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export type BackupErrorCode = 'not-json' | 'foreign' | 'too-new' | 'corrupt';

/** A backup file that was refused. Nothing was written. `message` is fit to show a player. */
export class BackupError extends Error {
  override readonly name = 'BackupError';
  constructor(
    readonly code: BackupErrorCode,
    message: string,
  ) {
    super(message);
  }
}
