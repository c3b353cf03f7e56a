/**
 * A kit of the players' own, made on this phone and not taught yet, chosen for a game of pip dice
 * (faces 1 to 6, valued so: dice with a logo on the 1). New game says it "cannot be read until
 * taught"; the table's camera line must say the same, from the start: it said "Reading Standard
 * dice as taught." while loading, then "Reading Logo dice by the printed faces." (it has none).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openAppWithCamera, ROOT, type AppWithCamera } from './harness.ts';
import { makeOwnPipKit, tapBack } from './table-helpers.ts';

let app: AppWithCamera;

beforeAll(async () => {
  app = await openAppWithCamera(inject('distDir'), readFileSync(path.join(ROOT, 'tests/fixtures/symbol-photos/face-off-teach/luke-1.jpg')));
  await app.session.page.setViewportSize({ width: 390, height: 844 });
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('an own kit not taught yet, at the table', () => {
  it('the camera line never says it reads the dice as taught or by printed faces', async () => {
    const { page, errors } = app.session;
    await page.goto(app.server.url);
    await makeOwnPipKit(page, 'Logo dice');
    await tapBack(page);
    await page.getByRole('heading', { name: 'Dice kits' }).waitFor();
    await tapBack(page);

    await page.getByTestId('new-game').click();
    await page.getByTestId('game-select').selectOption('five-thousand');
    await page.getByTestId('dice-select').selectOption({ label: 'Logo dice' });
    expect(await page.getByTestId('dice-note').textContent()).toBe('not taught yet: its faces cannot be read until taught');
    // every text the camera line shows, from the table's first frame
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { readsSeen: string[] }).readsSeen = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="camera-reads"]')?.textContent ?? null;
        if (text !== null && seen.at(-1) !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    for (const name of ['Ann', 'Bob']) {
      await page.getByTestId('player-name').fill(name);
      await page.getByTestId('add-player').click();
    }
    await page.getByTestId('start-game').click();
    await page.locator('[data-testid="table-camera"][data-reader="ready"]').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('camera-reads').textContent()).toBe('Logo dice: not taught yet, and no printed faces to read by.');
    expect(await page.evaluate(() => (window as unknown as { readsSeen: string[] }).readsSeen)).toEqual([
      'Loading your dice set…',
      'Logo dice: not taught yet, and no printed faces to read by.',
    ]);
    expect(errors).toEqual([]);
  }, 120_000);
});
