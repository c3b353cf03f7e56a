import { describe, expect, it } from 'vitest';
import { appSession, layoutProblems } from './harness.ts';
import { headline, move, padEnter, padRoll, pot, scores, startGame } from './table-helpers.ts';

const app = appSession({ open: false });

/** The symbol games by the dice pad (no camera here): Corellian Spike symbols for Point Five, Face Off faces. */
describe('Point Five with Corellian Spike dice', () => {
  it('throws one symbol at a time onto the board, calls, and busts on a repeat', async () => {
    const { page } = app.session;
    await page.goto(app.server.url);
    await startGame(page, 'point-five', ['Ann', 'Bob']);
    expect(await pot(page)).toBe(2); // the sheet plays for a pot: ante 1
    // symbol games start camera-first too; without a camera the pad opens once the camera reports absent
    await page.getByTestId('dice-pad').waitFor();
    const faces = await page.getByTestId('dice-pad').locator('button[data-face]').allTextContents();
    expect(faces.map((f) => f.trim())).toEqual(['Circle (1)', 'Triangle (2)', 'Square (3)', 'Diamond (4)', 'Star (5)', 'Burst (6)']);

    await padRoll(page, ['star'], 'Star (5)'); // the read names the symbol, as the log does (not the 5 actions write)
    expect(await headline(page)).toBe('Ann threw Star (5): call for 3 or throw again.');
    await move(page, 'Call for 3');
    expect(await scores(page)).toEqual({ Ann: 3, Bob: 0 });

    await padRoll(page, ['burst'], 'Burst (6)');
    // the board stays on the table: the next throw is one die, the board's dice kept
    expect(await page.locator('.kept .die').evaluateAll((dice) => dice.map((d) => d.getAttribute('title')))).toEqual(['Burst (6)']);
    // the kit's art, with the symbol's name under it
    expect(await page.locator('.kept .die img').count()).toBe(1);
    await page.getByTestId('dice-pad').locator('button[data-face="circle"]').focus();
    await page.keyboard.type('2'); // digits enter symbols by value
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('camera-read').textContent()).toBe('Triangle (2)');
    await page.getByTestId('confirm-roll').click();
    await page.getByTestId('camera-read').waitFor({ state: 'detached' });
    expect(await headline(page)).toBe('Bob threw Triangle (2): call for 2 or throw again.');
    expect(await page.getByLabel("This turn's board").locator('li.filled').count()).toBe(2);
    await move(page, 'Call for 2');
    expect(await scores(page)).toEqual({ Ann: 3, Bob: 2 });

    await padRoll(page, ['square'], 'Square (3)');
    await padRoll(page, ['square'], 'Square (3)');
    expect(await headline(page)).toMatch(/bust/i);
    expect(await scores(page)).toEqual({ Ann: 3, Bob: 2 });
    expect(await page.getByTestId('current-player').textContent()).toBe('Bob to play');
    // beside whose turn it is, no word of the engine's ("turn"): the headline says it all here
    expect(await page.locator('.meta').innerText()).not.toMatch(/\bturn\b/);
    expect(await page.getByTestId('phase').count()).toBe(0);
    expect(await layoutProblems(page)).toEqual([]);

    // the log names the symbols as the table does: "Star (5)", not "5"
    await page.getByTestId('open-log').click();
    await page.getByTestId('game-log').waitFor();
    expect(await page.getByTestId('log-action').allTextContents()).toEqual([
      'rolled Star (5)',
      'Call for 3',
      'rolled Burst (6)',
      'rolled Triangle (2)',
      'Call for 2',
      'rolled Square (3)',
      'rolled Square (3)',
    ]);
  });
});

describe('Star Wars Face Off: a villain’s bluff caught by a challenge', () => {
  it('keeps the secret re-roll off the table until the reveal', async () => {
    // A page of its own: going to the same address again would reload the last screen.
    const page = await app.session.context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(app.server.url);
    await startGame(page, 'face-off', ['Ann', 'Bob'], 2);
    expect(await pot(page)).toBe(4);
    await page.getByTestId('dice-pad').locator('button[data-face="vader"]').focus();
    await page.keyboard.type('vvlhh'); // letters: Vader, Vader, Luke, Han, Han
    await page.keyboard.press('Enter');
    // the read names the faces (not the ids 'vader vader luke han han')
    expect(await page.getByTestId('camera-read').textContent()).toBe('Darth Vader, Darth Vader, Luke Skywalker, Han Solo, Han Solo');
    await page.getByTestId('confirm-roll').click();
    await page.getByTestId('camera-read').waitFor({ state: 'detached' });
    expect(await page.getByTestId('phase').textContent()).toBe('choosing Hero or Villain');
    await move(page, 'Go Villain');
    expect(await page.getByTestId('phase').textContent()).toBe('Go Villain');

    // the villain puts Luke and both Hans in the cup, in view of the table
    await page.getByTestId('choose-dice-open').click();
    const choose = page.getByTestId('choose-dice');
    await choose.locator('button[data-token="luke"]').click();
    await choose.locator('button[data-token="han"]').nth(0).click();
    await choose.locator('button[data-token="han"]').nth(1).click();
    // a fourth die by mistake: the button says why it cannot be tapped, and a tap takes it back
    await choose.locator('button[data-token="vader"]').nth(0).click();
    expect(await page.getByTestId('choose-dice-confirm').textContent()).toMatch(/^\s*Too many: at most 3 dice\s*$/);
    expect(await page.getByTestId('choose-dice-confirm').isDisabled()).toBe(true);
    await choose.locator('button[data-token="vader"]').nth(0).click();
    expect(await page.getByTestId('choose-dice-confirm').textContent()).toMatch(/^\s*Confirm 3 dice\s*$/);
    await page.getByTestId('choose-dice-confirm').click();
    await page.getByTestId('secret-roll').waitFor();
    // the table offers no pad for a secret roll: the phone goes to Ann first
    expect(await page.getByTestId('dice-pad').count()).toBe(0);

    await page.getByTestId('pass-phone').click();
    expect(await page.getByTestId('private-screen').getByRole('heading').textContent()).toBe('Only Ann should look');
    await page.getByTestId('private-unlock').click();
    await padEnter(page, ['luke', 'stormtrooper', 'r2d2']);
    expect(await page.getByTestId('roll-preview').textContent()).toBe('Ann re-rolled 3 dice in secret and peeked. Ann: declare a villain combo.');
    await page.getByTestId('confirm-roll').click();
    await page.getByTestId('secret-dice').waitFor();
    expect(await page.getByTestId('secret-dice').innerText()).toMatch(/Luke Skywalker\s+Stormtrooper\s+R2-D2/);
    expect(await page.getByTestId('claims-that-hold').textContent()).toBe('Your dice back no villain combo: any claim is a bluff.');
    await page.getByRole('button', { name: 'Declare 4 of Any Villain (75)' }).click();

    // back at the table: the claim, three dice under the cup, and nothing of what they show
    await page.getByTestId('headline').waitFor();
    expect(await headline(page)).toBe('Ann declares 4 of Any Villain (75). Bob: challenge or pass?');
    expect(await page.getByTestId('current-player').textContent()).toBe('Bob to play');
    expect(await page.getByTestId('phase').textContent()).toBe('chance to challenge');
    const tableText = async () => `${await page.locator('main').innerText()} ${await page.getByTestId('announcer').textContent()}`;
    expect(await tableText()).not.toMatch(/Stormtrooper|R2-D2/);
    // a reload does not open the private screen again
    await page.reload();
    await page.getByTestId('headline').waitFor();
    expect(await headline(page)).toBe('Ann declares 4 of Any Villain (75). Bob: challenge or pass?');
    expect(await page.getByTestId('private-screen').count()).toBe(0);
    expect(await tableText()).not.toMatch(/Stormtrooper|R2-D2/);
    // the log hides the secret dice while the game goes on
    await page.getByTestId('open-log').click();
    await page.getByTestId('game-log').waitFor();
    expect(await page.getByTestId('log-action').nth(3).textContent()).toBe('re-rolled 3 dice in secret');
    // and its exports, which would write them, wait for the end of the game
    expect(await page.getByTestId('export-json').isDisabled()).toBe(true);
    expect(await page.getByTestId('export-csv').isDisabled()).toBe(true);
    expect(await page.getByTestId('exports-wait').textContent()).toBe('The log holds a secret re-roll the other players have not seen: it can be exported once the game is over.');
    // and names the faces as the table does, the dice put in the cup too (not "luke han han")
    expect(await page.getByTestId('log-action').nth(0).textContent()).toBe('rolled Darth Vader, Darth Vader, Luke Skywalker, Han Solo, Han Solo');
    expect(await page.getByTestId('log-action').nth(2).textContent()).toBe('Put 1 to 3 dice in the cup for a secret re-roll: Luke Skywalker, Han Solo, Han Solo');
    expect(await page.locator('main').innerText()).not.toMatch(/Stormtrooper|R2-D2/);
    await page.goBack();
    await page.getByTestId('headline').waitFor();

    await move(page, 'Bob challenges');
    expect(await headline(page)).toBe('Bob challenges! Ann: show your dice.');
    // shown wrongly: refused, nothing changes
    await padEnter(page, ['luke', 'luke', 'r2d2']);
    expect(await page.getByTestId('camera-read').textContent()).toBe('Luke Skywalker, Luke Skywalker, R2-D2');
    await page.getByTestId('confirm-roll').click();
    expect(await page.getByTestId('rule-error').textContent()).toMatch(/^The dice shown \(Luke Skywalker, Luke Skywalker, R2-D2\) are not the dice recorded for Ann's secret re-roll/);
    // a wrong reveal never names the dice recorded (the dice pad names every face, so not the whole page): the table would learn them, and could undo the challenge
    expect(`${await page.getByTestId('rule-error').textContent()} ${await page.getByTestId('announcer').textContent()}`).not.toMatch(/Stormtrooper/);
    expect(await scores(page)).toEqual({ Ann: 0, Bob: 0 });
    await padRoll(page, ['r2d2', 'stormtrooper', 'luke'], 'R2-D2, Stormtrooper, Luke Skywalker');
    expect(await headline(page)).toMatch(/^Bob challenges; the dice show .*: Ann was bluffing! Bob takes the 75 for 4 of Any Villain\. Bob's turn/);
    expect(await scores(page)).toEqual({ Ann: 0, Bob: 75 });
    expect(await layoutProblems(page)).toEqual([]);
  });

  it('saves no backup while a game in play holds a secret re-roll', async () => {
    // the app opened afresh, at Home
    const page = await app.session.context.newPage();
    await page.goto(app.server.url);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('backup-export').click();
    expect(await page.getByTestId('backup-message').textContent()).toBe(
      'Not saved: the game of Star Wars Face Off with Ann and Bob holds a secret re-roll the other players have not seen. Save the backup once that game is over.',
    );
    await page.close();
  });
});
