import { describe, expect, it } from 'vitest';
import { playerCountText } from '../../src/app/games.ts';
import { gameById, resolveOptions } from '../../src/lib/rules/index.ts';

const said = (id: string, options: Record<string, unknown> = {}): string => playerCountText(gameById(id), resolveOptions(gameById(id), options));

describe('playerCountText: how many New game says can play', () => {
  it("says the counts Start allows, not only the game's bounds", () => {
    // Hi-Low: two players, or two teams of two; three are refused at Start
    expect(said('hi-low')).toBe('2 or 4');
    // Dominoes: two, unless played as the series (2 to 4)
    expect(said('dominoes')).toBe('2');
    expect(said('dominoes', { variation: 'series' })).toBe('2–4');
  });

  it("a game's bounds where it refuses no count within them", () => {
    expect(said('five-thousand')).toBe('2–20');
    expect(said('face-off')).toBe('2–4');
    expect(said('war')).toBe('2');
  });
});
