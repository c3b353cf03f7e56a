/**
 * The app's side of the start check (public/start-check.js, a classic script run before the
 * bundle): once the app has mounted, it is told so, and shows no "could not start" message, or
 * takes away one shown while a slow start was still going on. Until then, a script of the app
 * that failed to load or to run, or a start that never came, has it show the message.
 */

/** The window event the start check waits for; spelled the same in public/start-check.js. */
export const START_EVENT = 'rollcall:started';

/** Tells the start check that the app has mounted (src/main.ts, after `mount`). */
export function tellStarted(): void {
  window.dispatchEvent(new Event(START_EVENT));
}
