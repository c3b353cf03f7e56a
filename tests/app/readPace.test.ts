import { describe, expect, it } from 'vitest';
import { IDLE_READ_FPS, NO_PACE, PACE_WINDOW_MS, paceFps, paceReadMs, paceWithFrame, paceWithRead, READ_FPS, readFps, type ReaderPace } from '../../src/app/readPace.ts';

describe('read pace', () => {
  it('reads slowly only while the table is settled or empty and the last frame was quiet', () => {
    expect(IDLE_READ_FPS).toBeLessThan(READ_FPS);
    expect(readFps({ phase: 'settled', quiet: true })).toBe(IDLE_READ_FPS);
    expect(readFps({ phase: 'empty', quiet: true })).toBe(IDLE_READ_FPS);
    // anything differing brings the full pace back at once, before the tracker confirms a change
    expect(readFps({ phase: 'settled', quiet: false })).toBe(READ_FPS);
    expect(readFps({ phase: 'empty', quiet: false })).toBe(READ_FPS);
    // dice settling or moving are read at the full pace, quiet or not
    expect(readFps({ phase: 'settling', quiet: true })).toBe(READ_FPS);
    expect(readFps({ phase: 'moving', quiet: false })).toBe(READ_FPS);
  });

  it('takes another idle pace, never above the full one', () => {
    expect(readFps({ phase: 'settled', quiet: true }, 2)).toBe(2);
    expect(readFps({ phase: 'settled', quiet: true }, 60)).toBe(READ_FPS);
  });
});

describe('the Camera check\'s frames a second reaching the reader', () => {
  /** Frames reaching the reader at these times (ms), in order. */
  const reached = (times: number[]): ReaderPace => times.reduce(paceWithFrame, NO_PACE);
  /** One frame every `everyMs` from `from` up to `to`: a reader taking `everyMs` a read (reads are one at a time). */
  const every = (everyMs: number, from: number, to: number): number[] => Array.from({ length: Math.floor((to - from) / everyMs) + 1 }, (_, i) => from + i * everyMs);

  it('says nothing before a frame reaches the reader, nor until a whole second has since it', () => {
    expect(paceFps(NO_PACE, 5000)).toBeNull();
    // the reader ready at 3000 ms and reading a frame every 400 ms: its first 400 ms read time is
    // shown at once, and a rate counted over the part of a second since would not agree with it
    const slow = every(400, 3000, 3800);
    expect(paceFps(reached(slow), 3900)).toBeNull();
    expect(paceFps(reached(slow), 3000 + PACE_WINDOW_MS - 1)).toBeNull();
  });

  it('counts the frames of the last second once one is measured, agreeing with the read time', () => {
    // 400 ms a read: 2 or 3 frames a second, never the camera's 15 (the rate of frames dropped while the reader started)
    const slow = every(400, 3000, 6000);
    for (let now = 4000; now <= 6000; now += 100) {
      const fps = paceFps(reached(slow.filter((t) => t <= now)), now)!;
      expect(fps, `at ${now} ms`).toBeGreaterThanOrEqual(2);
      expect(fps, `at ${now} ms`).toBeLessThanOrEqual(3);
    }
    // 15 frames a second, from the first frame on, not from when counting began (at 0: its first
    // second would have counted 5 frames, beside a read time that allows 15)
    const fast = every(1000 / 15, 700, 3000);
    expect(paceFps(reached(fast.filter((t) => t <= 1000)), 1000)).toBeNull();
    expect(paceFps(reached(fast.filter((t) => t <= 1750)), 1750)).toBe(15);
    expect(paceFps(reached(fast), 3000)).toBe(15);
  });

  it('falls to 0 when frames stop reaching the reader, and keeps only the last second', () => {
    const pace = reached(every(50, 0, 2000));
    expect(pace.first).toBe(0);
    expect(pace.recent.length).toBeLessThanOrEqual(PACE_WINDOW_MS / 50);
    expect(paceFps(pace, 2000)).toBe(20);
    expect(paceFps(pace, 2500)).toBe(10);
    expect(paceFps(pace, 3000)).toBe(0);
  });
});

describe("the Camera check's read time", () => {
  /** Reads finishing at these times (ms), each taking `ms`. */
  const finished = (reads: Array<[at: number, ms: number]>): ReaderPace => reads.reduce((pace, [at, ms]) => paceWithRead(pace, at, ms), NO_PACE);

  it('is nothing before a read, then the median of the last second, the window the frame rate counts', () => {
    expect(paceReadMs(NO_PACE, 1000)).toBeNull();
    // a reader warming up: three slow reads, then fast ones; a second later only the fast ones count
    // (the median of the last 20 reads said 472 ms beside "10 frames a second")
    const warming = finished([
      [500, 480],
      [980, 472],
      [1450, 470],
      ...Array.from({ length: 20 }, (_, i): [number, number] => [1550 + i * 100, 95]),
    ]);
    expect(paceReadMs(warming, 3500)).toBe(95);
    const fps = paceFps(Array.from({ length: 20 }, (_, i) => 1550 + i * 100).reduce(paceWithFrame, NO_PACE), 3500)!;
    expect(fps * paceReadMs(warming, 3500)!).toBeLessThanOrEqual(1000);
    expect(finished([[100, 120], [200, 80], [300, 100]]).reads).toHaveLength(3);
    expect(paceReadMs(finished([[100, 120], [200, 80], [300, 100]]), 400)).toBe(100);
  });

  it("is the latest read's time on a device taking over a second a read, and keeps one window of reads", () => {
    const slow = finished([
      [1500, 1500],
      [3100, 1600],
    ]);
    expect(paceReadMs(slow, 4500)).toBe(1600);
    const pace = finished(Array.from({ length: 40 }, (_, i): [number, number] => [i * 50, 40]));
    expect(pace.reads.length).toBeLessThanOrEqual(PACE_WINDOW_MS / 50);
    // frames and reads are kept side by side, neither dropping the other
    const both = paceWithFrame(paceWithRead(paceWithFrame(NO_PACE, 0), 60, 60), 70);
    expect(both.recent).toEqual([0, 70]);
    expect(both.reads).toEqual([{ at: 60, ms: 60 }]);
  });
});
