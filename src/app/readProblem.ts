/**
 * A store read that failed, said as the app says a refused write (src/lib/store/errors.ts): a
 * screen shows it where what it read would have been, and keeps what it showed before.
 */
import { StoreError, unreadableMessage } from '../lib/store/index.ts';

/**
 * What a player is told when `what` ("The games", "This evening's balances") could not be read:
 * a connection closed under the page (another tab opened a newer Rollcall: InvalidStateError, or
 * the store's `unavailable`) as a write's refusal says it, the store's other refusals as it words
 * them, anything else with the browser's words.
 */
export function readProblem(err: unknown, what: string): string {
  // a read in one transaction (`inTx`) is refused in a write's words ("Not saved: …"): said of the read here
  if (closed(err)) return unreadableMessage(what, { closed: true });
  if (err instanceof StoreError) return err.message;
  return unreadableMessage(what, { closed: false, detail: err instanceof Error ? err.message || err.name : String(err) });
}

/**
 * Whether reading again can help, as `readProblem`'s words then say ("Try again, or reload the
 * page"): not over a closed connection (only a reload opens another), nor for the store's own
 * refusals. A screen that says so offers a "Try again" that reads again.
 */
export function readAgainHelps(err: unknown): boolean {
  return !closed(err) && !(err instanceof StoreError);
}

function closed(err: unknown): boolean {
  const name = typeof err === 'object' && err !== null ? (err as { name?: unknown }).name : undefined;
  return name === 'InvalidStateError' || (err instanceof StoreError && err.code === 'unavailable');
}
