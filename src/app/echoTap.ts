/**
 * A double tap at the table must not make a move nobody chose. When a tap changes the game, the
 * next moves appear at once, often right under the finger (Face Off's "Go Villain" is replaced
 * by the declarations, Confirm roll by Go Hero / Go Villain, "Bob passes" by "Cy passes"), so the
 * second tap of a double tap would land on a button the player never saw. Such a tap is an echo:
 * at the same spot as the tap before it, soon after it, and the game changed in between.
 */

/** Taps closer together than this are one gesture (Android's double-tap timeout is 300 ms). */
export const ECHO_TAP_MS = 400;
/** …and nearer than this (CSS px) are at the same spot: a fingertip's wobble, not a new aim. */
export const ECHO_TAP_PX = 32;

export interface Tap {
  x: number;
  y: number;
  /** `performance.now()` when the tap arrived. */
  at: number;
}

/** Whether `tap` echoes `previous`: soon after it, at the same spot, the game changed between. */
export function isEchoTap(previous: Tap | null, tap: Tap, gameChangedAt: number): boolean {
  if (!previous) return false;
  return (
    gameChangedAt > previous.at &&
    tap.at - previous.at < ECHO_TAP_MS &&
    Math.hypot(tap.x - previous.x, tap.y - previous.y) < ECHO_TAP_PX
  );
}

/**
 * Remembers the last tap that went through and tells the echoes of it. A tap dropped as an echo
 * is not remembered, so a triple tap is measured from its first tap too. Keyboard and scripted
 * clicks (`detail` 0: no pointer) always go through.
 */
export class EchoTapFilter {
  private last: Tap | null = null;

  /** True when the click should be dropped. */
  isEcho(event: MouseEvent, gameChangedAt: number, now = performance.now()): boolean {
    if (event.detail === 0) return false;
    const tap: Tap = { x: event.clientX, y: event.clientY, at: now };
    if (isEchoTap(this.last, tap, gameChangedAt)) return true;
    this.last = tap;
    return false;
  }

  /** A tap this filter does not guard ends the gesture: the next tap echoes nothing. */
  forget(): void {
    this.last = null;
  }
}
