/** The rules engine's public surface: what the app, the store, the CLIs and the tests use. */
export * from './types.ts';
export { RuleError, SetupError } from './errors.ts';
export { GAMES, gameById, isGameId } from './registry.ts';
export { optionSpecs, resolveOptions } from './options.ts';
export {
  createMatch,
  applyAction,
  tryAction,
  expectRoll,
  viewMatch,
  matchResult,
  type MatchHeader,
  type MatchState,
  type MatchView,
} from './match.ts';
export {
  parseTranscript,
  MAX_LOG_ACTIONS,
  replay,
  summarize,
  ReplayError,
  type MatchSummary,
  type Transcript,
} from './transcript.ts';
export { MAX_NAME_LENGTH, NAME_INPUT_MAXLENGTH, clipName, nameKey, nameLength, nameLengthProblem } from '../dice/names.ts';
export { thrownDiceFromTable, formatDice, sameDice, andList, namesOrCount, NAMED_AT_MOST } from './dice.ts';
export { potAfterAntes, sessionLedger, splitPot, type GameMoney, type PlayerBalance } from './pot.ts';
