import { describe, expect, it } from 'vitest';
import { PHONE_TURN_DEGREES, PHONE_TURN_MS, PhoneTurnWatch, turnAboutScreen, watchPhoneTurns } from '../../src/app/phoneTurn.ts';

const flat = { alpha: 30, beta: 0, gamma: 0 };

describe('the phone turning, from its orientation sensor', () => {
  it('measures the turn about the screen\'s normal, the one that turns the picture', () => {
    expect(turnAboutScreen(flat, flat)).toBeCloseTo(0);
    // held flat over the table and turned a quarter round: alpha moves
    expect(turnAboutScreen(flat, { ...flat, alpha: 120 })).toBeCloseTo(90);
    expect(turnAboutScreen(flat, { ...flat, alpha: 210 })).toBeCloseTo(180);
    expect(turnAboutScreen({ alpha: 350, beta: 0, gamma: 0 }, { alpha: 20, beta: 0, gamma: 0 })).toBeCloseTo(30);
    // tilted up to look at the screen, or rolled: the picture moves, it does not turn
    expect(turnAboutScreen(flat, { ...flat, beta: 45 })).toBeCloseTo(0);
    expect(turnAboutScreen(flat, { ...flat, gamma: 40 })).toBeCloseTo(0);
    // turned a quarter and tilted at once: the quarter turn
    expect(turnAboutScreen(flat, { alpha: 120, beta: 30, gamma: 0 })).toBeCloseTo(90);
  });

  it('reports a turn of 60° or more made within 1.5 s, once, at the reading that completes it', () => {
    expect([PHONE_TURN_DEGREES, PHONE_TURN_MS]).toEqual([60, 1500]);
    const turns: number[] = [];
    const watch = new PhoneTurnWatch((t) => turns.push(t));
    // a hand's shake, then a quarter turn over a second (a reading every 100 ms), then still
    for (let t = 0; t <= 1000; t += 100) watch.reading({ ...flat, alpha: 30 + 4 * Math.sin(t) }, t);
    for (let k = 1; k <= 10; k++) watch.reading({ ...flat, alpha: 30 + 9 * k }, 1000 + 100 * k);
    for (let t = 2100; t <= 4000; t += 100) watch.reading({ ...flat, alpha: 120 }, t);
    expect(turns).toEqual([1700]); // 63° from the reading of 1.5 s before
  });

  it('takes no slow drift for a turn, nor a tilt, nor a reading without an orientation', () => {
    const turns: number[] = [];
    const watch = new PhoneTurnWatch((t) => turns.push(t));
    // 90° over 6 s: 22.5° a second and a half
    for (let t = 0; t <= 6000; t += 100) watch.reading({ ...flat, alpha: 30 + (90 * t) / 6000 }, t);
    watch.reading(null, 6100);
    // the phone tilted up 70° at once to look at the slate
    watch.reading({ ...flat, alpha: 120, beta: 70 }, 6200);
    expect(turns).toEqual([]);
  });

  it('listens to deviceorientation events until stopped', () => {
    const target = new EventTarget();
    const turns: number[] = [];
    const stop = watchPhoneTurns(target as unknown as Window, (t) => turns.push(t));
    const reading = (alpha: number | null) => Object.assign(new Event('deviceorientation'), { alpha, beta: 0, gamma: 0 });
    target.dispatchEvent(reading(0));
    target.dispatchEvent(reading(null)); // a browser without the sensor gives nulls
    target.dispatchEvent(reading(90));
    expect(turns).toHaveLength(1);
    stop();
    target.dispatchEvent(reading(180));
    expect(turns).toHaveLength(1);
  });
});
