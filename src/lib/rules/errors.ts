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

/**
 * A value as an error message quotes it: its JSON, cut short. A file's value that cannot be
 * written out (nested too deeply for the stack) is said so, rather than the message itself
 * failing with "Maximum call stack size exceeded".
 */
export function quoted(value: unknown, max = 80): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    return '(a value nested too deeply to show)';
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
