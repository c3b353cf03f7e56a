import { describe, expect, it } from 'vitest';
import { appSession } from './harness.ts';
import { padRoll, startGame } from './table-helpers.ts';

const app = appSession();

/** The throws for who starts come before the game: its figures (round, target) show once it has begun. */
describe('the throws for who starts', () => {
  it('Dominoes shows the throws, not a round or a target it does not have yet', async () => {
    const { page } = app.session;
    await startGame(page, 'dominoes', ['Ann', 'Bob']);
    const details = page.getByTestId('game-details');
    expect(await details.innerText()).not.toMatch(/Round|first to|String/);
    await padRoll(page, ['6', '5']);
    expect(await details.innerText()).toMatch(/Ann threw 6 5/);
    expect(await details.innerText()).not.toMatch(/first to/);
    await padRoll(page, ['1', '2']);
    // Ann starts the string: the game's own figures now
    expect((await details.innerText()).replace(/\s+/g, ' ')).toMatch(/Round 1 · first to \d+/);
    await page.getByRole('button', { name: 'Back' }).click();
  });

  it('Tug says its target only once the game has begun', async () => {
    const { page } = app.session;
    await startGame(page, 'tug', ['Ann', 'Bob']);
    const details = page.getByTestId('game-details');
    expect(await details.innerText()).not.toMatch(/First to/);
    await padRoll(page, ['6', '5']);
    await padRoll(page, ['1', '2']);
    expect((await details.innerText()).replace(/\s+/g, ' ')).toMatch(/First to \d+/);
  });
});
