import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, serve, type BrowserSession, type StaticServer } from './harness.ts';
import { startGame } from './table-helpers.ts';

let server: StaticServer;
let session: BrowserSession;

beforeAll(async () => {
  server = await serve(inject('distDir'));
  session = await launch();
  await session.page.goto(server.url);
});

afterAll(async () => {
  await session?.close();
  await server?.stop();
});

/** Taps a player can get wrong, and logs that went wrong: nothing is lost without being asked. */
describe('mistakes at the table', () => {
  it('abandoning a game asks first: one stray tap changes nothing', async () => {
    const { page } = session;
    await startGame(page, 'war', ['Ann', 'Bob']);
    await page.getByTestId('open-log').click();
    await page.getByTestId('abandon').click();
    expect(await page.getByRole('alert').textContent()).toMatch(/can never be played on or undone/);
    await page.getByRole('button', { name: 'Keep playing' }).click();
    expect(await page.getByTestId('abandon-confirm').count()).toBe(0);
    await page.getByTestId('open-table').click();
    // still in play: the pad opens once the table finds no camera here
    await page.getByTestId('dice-pad').waitFor();
    // asked, and confirmed: the game is closed for good
    await page.getByTestId('open-log').click();
    await page.getByTestId('abandon').click();
    await page.getByTestId('abandon-confirm').click();
    await page.getByText('Abandoned', { exact: true }).waitFor();
    expect(await page.getByTestId('open-table').count()).toBe(0);
    while (!(await page.getByTestId('new-game').isVisible())) await page.getByRole('button', { name: 'Back', exact: true }).click();
  });
});
