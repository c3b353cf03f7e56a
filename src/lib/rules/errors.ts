/**
 * A rule error: the action is not allowed now. Its message is written for players
 * ("Keep at least one scoring die"); its code is stable for tests and the app.
 */
export class RuleError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'RuleError';
    this.code = code;
  }
}

/**
 * A malformed match description: an unknown game, an unknown or invalid option, a wrong
 * number of players, a transcript that is not the documented shape. Not a rule of play.
 */
export class SetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SetupError';
  }
}
