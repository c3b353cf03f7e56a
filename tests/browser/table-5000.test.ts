import { describe, expect, it } from 'vitest';
import { appSession, layoutProblems } from './harness.ts';
import { headline, move, padEnter, padRoll, pot, scores, startGame } from './table-helpers.ts';

const app = appSession();

/** A whole game of 5000 by the dice pad: three players, an ante of 2, played to Ann's win. */
describe('5000 at the table', () => {
  it('starts with three players and the ante in the pot', async () => {
    const { page } = app.session;
    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('5000 (bumps and gifts)');
    expect(await headline(page)).toBe("Ann's turn: roll 5 dice (needs 500 in one turn to get on the slate).");
    expect(await scores(page)).toEqual({ Ann: 0, Bob: 0, Cy: 0 });
    expect(await pot(page)).toBe(6);
    expect(await layoutProblems(page)).toEqual([]);
    // a screen reader hears what each empty slot of the pad is, not "?"
    await page.getByTestId('dice-pad').waitFor();
    expect(await page.getByTestId('dice-pad').locator('.slots').ariaSnapshot()).toContain('Die 5: empty');
  });

  it('reads a roll from the pad, previews what it is worth, and confirms it in one tap', async () => {
    const { page } = app.session;
    await padEnter(page, ['1', '1', '4', '5', '6']);
    expect(await page.getByTestId('camera-read').textContent()).toBe('1 1 4 5 6');
    expect(await page.getByTestId('roll-preview').textContent()).toBe('Ann rolled 1 1 4 5 6 = 250 (1 1 5 set aside). Roll 2 dice — turn total 250, must reach 500 to enter');
    // nothing is written before the tap
    expect(await headline(page)).toMatch(/^Ann's turn: roll 5 dice/);
    await page.getByTestId('confirm-roll').click();
    await page.getByTestId('camera-read').waitFor({ state: 'detached' });
    expect(await headline(page)).toBe('Ann rolled 1 1 4 5 6 = 250 (1 1 5 set aside). Roll 2 dice — turn total 250, must reach 500 to enter');
    // a screen reader reads it where focus goes (and it is said aloud when speech is on); the
    // aria-live region is left for what focus does not read, so nothing is read twice
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('headline');
    expect(await page.getByTestId('turn-total').textContent()).toBe('250');
    // the pad now asks for the 2 dice re-rolled
    expect(await page.getByTestId('dice-pad').locator('.slot').count()).toBe(2);
  });

  it('resumes exactly where play was after a reload mid-turn', async () => {
    const { page } = app.session;
    const before = await headline(page);
    await page.reload();
    await page.getByTestId('headline').waitFor();
    expect(await headline(page)).toBe(before);
    expect(await page.getByTestId('turn-total').textContent()).toBe('250');
    // the table reopens camera-first; this headless browser has no camera, so the pad opens once
    // the camera reports it is absent (asynchronously): wait for it rather than race it
    await page.getByTestId('dice-pad').locator('.slot').first().waitFor();
    expect(await page.getByTestId('dice-pad').locator('.slot').count()).toBe(2);
    expect(await pot(page)).toBe(6);
    // asked for again, the camera is still absent: the table says it tried, and the pad stays
    expect(await page.getByTestId('camera-note').textContent()).toBe('No camera was found on this device. Enter the dice by hand with the dice pad.');
    await page.getByTestId('camera-toggle').click();
    await page.getByTestId('camera-note').getByText(/^Tried again\. No camera was found/).waitFor();
    expect(await page.getByTestId('announcer').textContent()).toBe('Tried again. No camera was found on this device. Enter the dice by hand with the dice pad.');
    expect(await page.getByTestId('dice-pad').locator('.slot').count()).toBe(2);
  });

  it('corrects a misread die with a tap, and enters rolls by keyboard', async () => {
    const { page } = app.session;
    await padEnter(page, ['6', '3']);
    // the camera (or a slip on the pad) said 6; the die shows 1
    await page.getByRole('button', { name: 'Die 1: 6. Correct it' }).click();
    await page.locator('button[data-fix-face="1"]').click();
    expect(await page.getByTestId('camera-read').textContent()).toBe('1 3');
    expect(await page.getByTestId('roll-preview').textContent()).toMatch(/^Ann rolled 1 3 = 100/);
    await page.getByTestId('confirm-roll').click();
    await page.getByTestId('camera-read').waitFor({ state: 'detached' });
    // keyboard: digits fill the pad, Enter submits it, Enter again confirms (focus moves to Confirm)
    await page.getByTestId('dice-pad').locator('button[data-face="5"]').focus();
    await page.keyboard.type('5');
    await page.keyboard.press('Enter');
    await page.getByTestId('camera-read').waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('confirm-roll');
    await page.keyboard.press('Enter');
    await page.getByTestId('camera-read').waitFor({ state: 'detached' });
    expect(await headline(page)).toMatch(/All five dice scored: roll all 5 again — turn total 400/);
    // Confirm is gone with its roll: focus goes on from where the game now stands, not the page's top
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('headline');
    await padRoll(page, ['2', '2', '2', '3', '6']);
    await move(page, 'Bank 600 (0 → 600)');
    expect(await scores(page)).toEqual({ Ann: 600, Bob: 0, Cy: 0 });
    // the headline read where focus went, the scores through the aria-live region
    expect(await page.getByTestId('announcer').textContent()).toBe('Scores: Ann 600.');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('headline');
    expect(await headline(page)).toMatch(/^Ann banks 600: 0 → 600, on the slate\. Bob's turn/);
  });

  it('undo drops the last action', async () => {
    const { page } = app.session;
    await padRoll(page, ['2', '3', '4', '6', '6']);
    expect(await headline(page)).toMatch(/^Bob rolled 2 3 4 6 6: nothing scores — bust\. Cy's turn/);
    await page.getByTestId('undo').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="headline"]')?.textContent?.startsWith('Ann banks 600'));
    expect(await page.getByTestId('current-player').textContent()).toBe('Bob to play');
    // what was taken back is said on the table, until the game moves on
    expect(await page.getByTestId('undone').textContent()).toBe('Undone: Bob rolled 2 3 4 6 6.');
    await padRoll(page, ['2', '3', '4', '6', '6']);
    expect(await page.getByTestId('current-player').textContent()).toBe('Cy to play');
    expect(await page.getByTestId('undone').count()).toBe(0);
  });

  it('an illegal roll shows its message and changes nothing', async () => {
    const { page } = app.session;
    await padRoll(page, ['2', '3', '5', '5', '5']);
    const before = { headline: await headline(page), scores: await scores(page), pot: await pot(page) };
    // the whole table entered, but a kept 5 now shows 6
    await page.getByLabel(/Enter the kept dice too/).check();
    await padEnter(page, ['5', '5', '6', '2', '4']);
    const message = 'The kept dice (5 5 5) are not all on the table as they were: seen 5 5 6 2 4.';
    expect(await page.getByTestId('roll-preview').textContent()).toBe(message);
    await page.getByTestId('confirm-roll').click();
    expect(await page.getByTestId('rule-error').textContent()).toBe(message);
    expect({ headline: await headline(page), scores: await scores(page), pot: await pot(page) }).toEqual(before);
    // the die mended, the refusal no longer applies and goes
    await page.getByRole('button', { name: 'Die 3: 6. Correct it' }).click();
    await page.locator('button[data-fix-face="5"]').click();
    expect(await page.getByTestId('rule-error').count()).toBe(0);
    // a count that does not fit says how the table should look
    await padEnter(page, ['5', '5', '5', '2', '4']);
    await page.getByRole('button', { name: /Die 5: 4/ }).click();
    await page.getByRole('button', { name: 'No die here' }).click();
    expect(await page.getByTestId('roll-preview').textContent()).toBe('4 dice seen, 2 were re-rolled and 3 kept.');
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.getByLabel(/Enter the kept dice too/).uncheck();
    expect(await headline(page)).toBe(before.headline);
    await move(page, 'Bank 500 (0 → 500)');
    expect(await page.getByTestId('rule-error').count()).toBe(0);
    expect(await scores(page)).toEqual({ Ann: 600, Bob: 0, Cy: 500 });
  });

  it('plays to the winner: the pot is paid out and the session ledger adds it up', async () => {
    const { page } = app.session;
    await padRoll(page, ['1', '1', '1', '1', '1']);
    await move(page, 'Bank 4400 (600 → 5000: reaches 5000)');
    const over = page.getByTestId('game-over');
    await over.waitFor();
    expect(await over.getByRole('heading').textContent()).toBe('Ann wins!');
    expect(await page.getByTestId('payout').textContent()).toBe('Ann takes 6 from the pot of 6.');
    // a screen reader hears who takes the pot too, not only the score
    expect(await page.getByTestId('announcer').textContent()).toBe('Scores: Ann 5000. Ann takes 6 from the pot of 6.');
    expect(await pot(page)).toBe(0);
    expect(await scores(page)).toEqual({ Ann: 5000, Bob: 0, Cy: 500 });
    await page.getByTestId('session-ledger').waitFor();
    const ledger = await page.getByTestId('session-ledger').locator('tbody tr').evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-player'), r.querySelector('[data-testid="net"]')?.textContent]));
    expect(ledger).toEqual([
      ['Ann', '+4'],
      ['Bob', '-2'],
      ['Cy', '-2'],
    ]);
    expect(await layoutProblems(page)).toEqual([]);
  });

  it('undoing the end of the game asks first, then reopens it and takes the payout back', async () => {
    const { page } = app.session;
    await page.getByTestId('undo').click();
    expect(await page.getByTestId('game-over').count()).toBe(1);
    // the question takes the Undo button's place, and focus goes to its answer
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('undo-confirm');
    await page.getByTestId('undo-confirm').click();
    await page.getByTestId('game-over').waitFor({ state: 'detached' });
    expect(await pot(page)).toBe(6);
    expect(await headline(page)).toMatch(/Roll all 5 again or bank — turn total 4400 \(600 → 5000\)|All five dice scored/);
    await move(page, 'Bank 4400 (600 → 5000: reaches 5000)');
    await page.getByTestId('game-over').waitFor();
    // Home shows the session's balances from the ledger: the game counts once
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('ledger').waitFor();
    expect((await page.getByTestId('ledger').innerText()).replace(/\s+/g, ' ').trim()).toBe('Ann +4 Bob -2 Cy -2');
  });

  it('plays again with the same players', async () => {
    const { page } = app.session;
    await page.getByRole('button', { name: /^View: 5000/ }).first().click();
    await page.getByTestId('play-again').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="headline"]')?.textContent?.startsWith("Ann's turn: roll 5 dice"));
    expect(await page.getByTestId('game-over').count()).toBe(0);
    expect(await scores(page)).toEqual({ Ann: 0, Bob: 0, Cy: 0 });
    expect(await pot(page)).toBe(6);
  });

  it('a game still in play when the evening is settled pays into the new balances, not the settled ones', async () => {
    const { page } = app.session;
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('ledger').waitFor();
    await page.getByTestId('end-evening').click();
    expect(await page.getByRole('alert').textContent()).toBe('Settled up? Ending the evening clears these balances from Home; the game still in play counts in the new balances.');
    await page.getByTestId('end-evening-confirm').click();
    await page.getByTestId('ledger').waitFor({ state: 'detached' });
    expect(await page.getByTestId('announcer').textContent()).toMatch(/ ended: Ann \+4, Bob -2, Cy -2\. The game still in play counts in the new balances\.$/);
    await page.getByRole('button', { name: /^Resume: 5000/ }).click();
    await page.getByTestId('dice-pad').locator('.slot').first().waitFor();
    await padRoll(page, ['1', '1', '1', '1', '1']);
    await padRoll(page, ['6', '6', '6', '2', '3']);
    await move(page, 'Bank 5000 (0 → 5000: reaches 5000)');
    await page.getByTestId('game-over').waitFor();
    // the settled game is not counted again: this game alone
    expect(await page.getByTestId('session-ledger').locator('caption').textContent()).toMatch(/: 1 game$/);
    const net = await page.getByTestId('session-ledger').getByTestId('net').allTextContents();
    expect(net).toEqual(['+4', '-2', '-2']);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('ledger').waitFor();
    expect((await page.getByTestId('ledger').innerText()).replace(/\s+/g, ' ').trim()).toBe('Ann +4 Bob -2 Cy -2');
  });
});

describe('a game played without stakes', () => {
  it('ends with no pot, no Paid/Won/Net of zeros, and no balances to settle on Home; New game then opens on it', async () => {
    // a store of its own: no evening with money in it
    const context = await app.session.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    try {
      await page.goto(app.server.url);
      // a first visit: New game offers 5000
      await page.getByTestId('new-game').click();
      await page.waitForFunction(() => document.querySelector<HTMLSelectElement>('[data-testid="game-select"]')?.value === 'five-thousand');
      await page.getByRole('button', { name: 'Back' }).click();
      await startGame(page, 'big-roll-5000', ['Ann', 'Bob'], 0);
      expect(await page.getByTestId('pot').count()).toBe(0);
      await padRoll(page, ['6']); // the roll-off: Ann starts
      await padRoll(page, ['2']);
      await padRoll(page, ['1', '1', '1', '1', '1']); // five 1s win at once
      await page.getByTestId('game-over').waitFor();
      expect(await page.getByRole('heading', { name: 'Ann wins!' }).count()).toBe(1);
      expect(await page.getByTestId('session-ledger').count()).toBe(0);
      expect(await page.getByTestId('payout').count()).toBe(0);
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByRole('heading', { name: 'Recently finished' }).waitFor();
      expect(await page.getByTestId('ledger').count()).toBe(0);
      // the next game: New game opens on the game last played, as it was played (no ante)
      await page.getByTestId('new-game').click();
      await page.waitForFunction(() => document.querySelector<HTMLSelectElement>('[data-testid="game-select"]')?.value === 'big-roll-5000');
      expect(await page.getByTestId('ante').inputValue()).toBe('0');
      // a game and ante chosen before the store answers stay chosen: another tab holds the games
      // store in a write for a while, so New game learns the last game played only after the picks
      await page.getByRole('button', { name: 'Back' }).click();
      const other = await context.newPage();
      await other.goto(`${app.server.url}/favicon.svg`);
      await other.evaluate(
        () =>
          new Promise<void>((resolve) => {
            const open = indexedDB.open('rollcall');
            open.onsuccess = () => {
              const store = open.result.transaction('games', 'readwrite').objectStore('games');
              const until = Date.now() + 2_500;
              const hold = (): void => {
                if (Date.now() < until) store.count().onsuccess = hold;
              };
              hold();
              resolve();
            };
          }),
      );
      await page.getByTestId('new-game').click();
      await page.getByTestId('game-select').selectOption('five-thousand');
      await page.getByTestId('ante').fill('3');
      await page.waitForTimeout(3_000);
      expect(await page.getByTestId('game-select').inputValue()).toBe('five-thousand');
      expect(await page.getByTestId('ante').inputValue()).toBe('3');
      await other.close();
    } finally {
      await context.close();
    }
  });

  it("counts a player once in the evening's ledger after their name was set right between games", async () => {
    const context = await app.session.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const winAsFirst = async () => {
      await page.getByTestId('dice-pad').locator('.slot').first().waitFor();
      await padRoll(page, ['1', '1', '1', '1', '1']);
      await padRoll(page, ['6', '6', '6', '2', '3']);
      await move(page, 'Bank 5000 (0 → 5000: reaches 5000)');
      await page.getByTestId('game-over').waitFor();
    };
    try {
      await page.goto(app.server.url);
      await startGame(page, 'five-thousand', ['ann', 'Bob'], 1);
      await winAsFirst();
      await page.getByRole('button', { name: 'Back' }).click();
      // the next game: Ann's name set right on her seat (the same player, renamed)
      await page.getByTestId('new-game').click();
      await page.getByRole('button', { name: '+ ann' }).click();
      await page.getByRole('button', { name: '+ Bob' }).click();
      await page.getByLabel('Player 1 name').fill('Ann');
      await page.getByLabel('Player 1 name').blur();
      await page.getByTestId('start-game').click();
      await page.getByTestId('headline').waitFor();
      await winAsFirst();
      // the evening's ledger is read after the game over shows (and evaluateAll does not wait)
      await page.getByTestId('session-ledger').waitFor();
      const rows = await page.getByTestId('session-ledger').locator('tbody tr').evaluateAll((trs) => trs.map((r) => [r.getAttribute('data-player'), r.querySelector('[data-testid="net"]')?.textContent]));
      expect(rows).toEqual([
        ['Ann', '+2'],
        ['Bob', '-2'],
      ]);
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByTestId('ledger').waitFor();
      expect((await page.getByTestId('ledger').innerText()).replace(/\s+/g, ' ').trim()).toBe('Ann +2 Bob -2');
      // the first game, played again: under the name set right, not the one it was played under
      await page.getByRole('button', { name: /^View: 5000 .* with ann, Bob/ }).click();
      await page.getByTestId('game-over').waitFor();
      expect(await page.getByTestId('play-again').textContent()).toBe('Play again with Ann, Bob');
      await page.getByTestId('play-again').click();
      await page.getByTestId('game-over').waitFor({ state: 'detached' });
      // the new game is saved, then its slate drawn: read once it shows (CI once read no rows)
      await page.getByTestId('slate-row').first().waitFor();
      expect(Object.keys(await scores(page))).toEqual(['Ann', 'Bob']);
    } finally {
      await context.close();
    }
  });
});
