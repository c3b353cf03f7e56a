import { describe, expect, it } from 'vitest';
import { IDLE_READ_FPS, READ_FPS, readFps } from '../../src/app/readPace.ts';

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
