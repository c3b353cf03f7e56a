/**
 * A screen's failed read on opening (Home, New game, Players, Dice kits): what could not be read is
 * shown where it would have been (ReadProblem), with Try again where reading again can help, and
 * said at once to a screen reader; what the screen showed before stays.
 */
import { announce } from './announce.svelte.ts';
import { readAgainHelps, readProblem } from './readProblem.ts';

export class FailedRead {
  /** The words shown, or null while the last read worked. */
  problem = $state<string | null>(null);
  /** The read may work if tried again (its words say "Try again"): offered beside them. */
  canReadAgain = $state(false);

  /** `what` ("The players") could not be read: shown and said. */
  fail(err: unknown, what: string): void {
    this.problem = readProblem(err, what);
    this.canReadAgain = readAgainHelps(err);
    announce(this.problem, { politeness: 'assertive' });
  }

  /** The read worked: the words go. */
  clear(): void {
    this.problem = null;
  }
}
