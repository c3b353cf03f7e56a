/**
 * The store: IndexedDB through `idb`. Backup export/import lives in `./backup.ts`, imported on
 * demand, so its validator stays out of the initial bundle; `./memory.ts` too, loaded only where
 * the browser refuses IndexedDB.
 */
export * from './types.ts';
export * from './errors.ts';
export { openStore, kitOfTaughtSet, SETTLED_GAME_CLOSED, resultOfGame, unusedName, withLogChange, RollcallStore, SAME_EVENING_MS, tableStillAt, type NewGame, type ImportedGame, type LogExpectation, type OpenStoreOptions, type PlayerMerge, type PlayerSummary, type CarriedChange } from './store.ts';
export { aliasesOf, playerMatches, playerNamed, playerSpelledAlike, type NamedPlayer } from './players.ts';
export { DB_NAME, DB_VERSION } from './schema.ts';
