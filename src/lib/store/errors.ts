export type StoreErrorCode =
  | 'not-found'
  | 'invalid-input'
  | 'stale-log'
  | 'nothing-to-undo'
  | 'game-closed'
  | 'name-taken'
  | 'already-here'
  | 'played-together'
  | 'storage-full'
  | 'unavailable';

/**
 * What a write the store refused was to do, for the refusal's words: a delete refused on a full
 * disk deleted nothing, it did not fail to "save" (`storageFullMessage`, `unreachableMessage`).
 */
export type StoreWrite = 'save' | 'delete';

/** A full disk (QuotaExceededError), said of the write it refused: one wording for every save, one for every delete. */
export function storageFullMessage(write: StoreWrite = 'save'): string {
  return `The device is out of storage space, so ${write === 'delete' ? 'nothing was deleted' : 'this was not saved'}. Free some space and try again.`;
}

/**
 * The connection closed under the page (a newer Rollcall opened in another tab, or the browser
 * closed it), said of the write it refused.
 */
export function unreachableMessage(write: StoreWrite = 'save'): string {
  const why = UNREACHABLE_WHY;
  return write === 'delete'
    ? `Nothing was deleted: ${why}. Reload the page and try again; everything saved is safe.`
    : `Not saved: ${why}. Reload the page to play on; everything saved before is safe.`;
}

const UNREACHABLE_WHY = 'this page can no longer reach the saved games (a newer Rollcall opened in another tab, or the browser closed them)';

/**
 * A read that failed, said of what was to be shown (`what`: "The older games"): the connection
 * closed under the page (`closed`), as `unreachableMessage` says of a write, or any other failure
 * (`detail`, the browser's words, in brackets). Nothing was changed either way.
 */
export function unreadableMessage(what: string, cause: { closed: true } | { closed: false; detail: string }): string {
  return cause.closed
    ? `${what} could not be read: ${UNREACHABLE_WHY}. Reload the page; everything saved is safe.`
    : `${what} could not be read (${cause.detail}). Try again, or reload the page; everything saved is safe.`;
}

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
