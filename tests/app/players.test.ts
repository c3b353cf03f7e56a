import { describe, expect, it } from 'vitest';
import { gamesText, gameStartedOn, mergeQuestion, seatName } from '../../src/app/players.ts';

describe('players as the screens say them', () => {
  it("names a seat by the player's name now, with the name played under where it reads otherwise", () => {
    const now = new Map([['p-bob', 'Bob'], ['p-ann', 'Ann']]);
    expect(seatName({ id: 'p-bob', name: 'Bbo' }, now)).toBe('Bob (as Bbo)');
    // set right in case or spacing only: one name
    expect(seatName({ id: 'p-ann', name: 'ann' }, now)).toBe('ann');
    // a player no longer on the device keeps the name played under
    expect(seatName({ id: 'p-gone', name: 'Cy' }, now)).toBe('Cy');
  });

  it('says before a merge what becomes whose and who goes', () => {
    expect(mergeQuestion('Bbo', 'Bob', 4)).toBe("Bbo's 4 games and balances become Bob's. Bbo goes from the list; games keep the name they were played under, and Bbo typed again is Bob.");
    expect(mergeQuestion('Bbo', 'Bob', 0)).toBe("Bbo has played no games here; any balance of Bbo's becomes Bob's. Bbo goes from the list; games keep the name they were played under, and Bbo typed again is Bob.");
    expect([0, 1, 2].map(gamesText)).toEqual(['no games', '1 game', '2 games']);
  });
});

describe('a game named in a refused merge', () => {
  it('by its name and the day it started', () => {
    const started = new Date(2026, 11, 3, 20).getTime();
    const said = gameStartedOn({ game: 'big-roll-5000', createdAt: started });
    expect(said).toBe(`5000 (Big Roll), started ${new Date(started).toLocaleDateString(undefined, { day: 'numeric', month: 'short' })}`);
  });
});
