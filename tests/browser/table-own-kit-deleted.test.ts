/**
 * A game of pip dice read with the players' own kit (faces 1 to 6, valued so: dice with a logo on
 * the 1), taught, whose set is deleted in Dice kits while the game is in play. The delete question
 * says the game will read plain pips instead; back at the table, the camera line says the same
 * (`lostSetNote`, `readInsteadOfSet`), and the camera reads pips. It once said "the printed faces
 * are read instead": standard dice have none.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { openAppWithCamera, ROOT, type AppWithCamera } from './harness.ts';
import { makeOwnPipKit, tapBack } from './table-helpers.ts';

let app: AppWithCamera;

beforeAll(async () => {
  // five pip dice in view (read "2 3 3 3 6", table-camera-after-pad.test)
  app = await openAppWithCamera(inject('distDir'), readFileSync(path.join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg')), 640, 480);
  await app.session.page.setViewportSize({ width: 390, height: 844 });
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('an own kit of pip dice deleted while its game is in play', () => {
  it('the table says plain pips are read instead, and reads them', async () => {
    const { page, errors } = app.session;
    await page.goto(app.server.url);
    // an own kit standing in for standard dice, one view of its 1 taught (a logo where the pip was)
    await makeOwnPipKit(page, 'Logo dice');
    const logo = await sharp(path.join(ROOT, 'tests/fixtures/symbol-photos/face-off-teach/luke-1.jpg')).png().toBuffer();
    await page.getByTestId('photo-files').setInputFiles([{ name: 'logo-1.png', mimeType: 'image/png', buffer: logo }]);
    await page.getByTestId('teach-message').getByText(/^Added a view of 1\./).waitFor({ timeout: 60_000 });
    await tapBack(page);
    await page.getByRole('heading', { name: 'Dice kits' }).waitFor();
    await tapBack(page);

    // a game of 5000 read with it
    await page.getByTestId('new-game').click();
    await page.getByTestId('game-select').selectOption('five-thousand');
    await page.getByTestId('dice-select').selectOption({ label: 'Logo dice' });
    for (const name of ['Ann', 'Bob']) {
      await page.getByTestId('player-name').fill(name);
      await page.getByTestId('add-player').click();
    }
    await page.getByTestId('start-game').click();
    const camera = page.locator('[data-testid="table-camera"][data-reader="ready"]');
    await camera.waitFor({ timeout: 90_000 });
    expect(await page.getByTestId('camera-reads').textContent()).not.toMatch(/no longer on this device/);

    // the set deleted in Dice kits: the question says what the game reads instead
    await page.goto('about:blank');
    await page.goto(app.server.url);
    await page.getByRole('button', { name: 'Dice kits' }).click();
    await page.getByRole('button', { name: 'Delete… Logo dice', exact: true }).click();
    expect(await page.getByTestId('own-kits').getByRole('alert').textContent()).toBe(
      'Delete Logo dice? Its 1 taught view goes for good. The game of 5000 (bumps and gifts) with Ann, Bob in play reads with it: it will read plain pips instead.',
    );
    await page.getByRole('button', { name: 'Delete Logo dice', exact: true }).click();
    await page.getByTestId('kits-message').filter({ hasText: 'Deleted Logo dice.' }).waitFor();
    await page.getByRole('button', { name: 'Back', exact: true }).click();

    // back at the table: said as the question said it, and pips are read
    await page.getByRole('button', { name: /^Resume: 5000 \(bumps and gifts\) with Ann, Bob,/ }).click();
    await camera.waitFor({ timeout: 90_000 });
    expect(await page.getByTestId('camera-reads').textContent()).toBe('The taught dice of this game are no longer on this device: plain pips are read instead.');
    expect(await page.getByTestId('table-camera').getAttribute('data-reads')).toBe('pips');
    const read = page.getByTestId('camera-read');
    await read.waitFor({ timeout: 60_000 });
    expect(await read.getAttribute('data-source')).toBe('camera');
    expect(await read.textContent()).toBe('6 3 3 3 2');
    expect(errors).toEqual([]);
  }, 240_000);
});
