import { describe, expect, it } from 'vitest';
import { ECHO_TAP_MS, ECHO_TAP_PX, EchoTapFilter, isEchoTap } from '../../src/app/echoTap.ts';

/** A click as a finger makes it (`detail` 1), or as a key or a script does (`detail` 0). */
function click(x: number, y: number, detail = 1): MouseEvent {
  return { clientX: x, clientY: y, detail } as MouseEvent;
}

describe('echo taps (the second tap of a double tap, landing on the moves the first one brought)', () => {
  it('is an echo only soon after the tap before, at the same spot, with the game changed between', () => {
    const first = { x: 100, y: 200, at: 1000 };
    expect(isEchoTap(first, { x: 104, y: 203, at: 1120 }, 1010)).toBe(true);
    // the game did not change: a second tap on the same button is the button's business
    expect(isEchoTap(first, { x: 100, y: 200, at: 1120 }, 900)).toBe(false);
    // long enough after to have seen the new buttons
    expect(isEchoTap(first, { x: 100, y: 200, at: 1000 + ECHO_TAP_MS }, 1010)).toBe(false);
    // somewhere else: aimed at another button
    expect(isEchoTap(first, { x: 100 + ECHO_TAP_PX, y: 200, at: 1120 }, 1010)).toBe(false);
    expect(isEchoTap(null, { x: 100, y: 200, at: 1120 }, 1010)).toBe(false);
  });

  it('drops a double and a triple tap after the first, and lets through a tap after the pause', () => {
    const taps = new EchoTapFilter();
    let changedAt = Number.NEGATIVE_INFINITY;
    expect(taps.isEcho(click(50, 60), changedAt, 1000)).toBe(false);
    changedAt = 1008; // the first tap was written and the new moves shown
    expect(taps.isEcho(click(51, 60), changedAt, 1120)).toBe(true);
    expect(taps.isEcho(click(50, 61), changedAt, 1240)).toBe(true);
    // a deliberate tap, once the player has had the time to see what is there now
    expect(taps.isEcho(click(50, 60), changedAt, 1000 + ECHO_TAP_MS + 10)).toBe(false);
  });

  it('forgets the last tap when told a tap it does not guard came between: nothing echoes it', () => {
    const taps = new EchoTapFilter();
    expect(taps.isEcho(click(50, 60), Number.NEGATIVE_INFINITY, 1000)).toBe(false);
    taps.forget(); // a tap elsewhere, which changed the screen again
    expect(taps.isEcho(click(50, 60), 1100, 1150)).toBe(false);
  });

  it('never drops a keyboard or scripted click', () => {
    const taps = new EchoTapFilter();
    expect(taps.isEcho(click(50, 60), Number.NEGATIVE_INFINITY, 1000)).toBe(false);
    expect(taps.isEcho(click(0, 0, 0), 1005, 1010)).toBe(false);
    expect(taps.isEcho(click(0, 0, 0), 1015, 1020)).toBe(false);
  });
});
