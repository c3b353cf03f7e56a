import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appSession, lastControlClearance } from './harness.ts';
import { DB_VERSION } from '../../src/lib/store/index.ts';
import { headline, move, padEnter, padRoll, scores, startGame } from './table-helpers.ts';

const app = appSession();

/** The same game open in a second tab (the app opened again from the home screen). */
async function openSecondTab(): Promise<Page> {
  const page = await app.session.context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(app.server.url);
  await page.getByRole('button', { name: /^Resume: 5000 \(Big Roll\)/ }).click();
  await page.getByTestId('headline').waitFor();
  return page;
}

/** The page comes back into view, as when a player switches back to its tab. */
async function bringBack(page: Page): Promise<void> {
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
}

describe('one game in two tabs', () => {
  // 120 s: in headless Chromium the tab not in front is slow to answer the helpers' waits (tab A's
  // two rolls after tab B opened took 10–14 s each here; the test took 36–41 s, against 60 s)
  it('a tab showing a roll undone elsewhere cannot write onto the new log, and shows it', { timeout: 120_000 }, async () => {
    const tabA = app.session.page;
    await startGame(tabA, 'big-roll-5000', ['Ann', 'Bob']);
    await padRoll(tabA, ['3']);
    await padRoll(tabA, ['5']);
    await padRoll(tabA, ['1', '1', '1', '5', '5']);
    const tabB = await openSecondTab();
    expect(await headline(tabB)).toBe(await headline(tabA));
    // tab A: the roll was misread; undone and entered as thrown (a bust: Ann's turn)
    await tabA.getByTestId('undo').click();
    await padRoll(tabA, ['2', '3', '4', '6', '6']);
    const now = await headline(tabA);
    // tab B still shows Bob's 1100: passing there is refused, nothing is written, and it shows the log as stored
    await tabB.getByRole('button', { name: /^Pass with 1100/ }).click();
    await tabB.getByTestId('rule-error').waitFor();
    expect(await tabB.getByTestId('rule-error').textContent()).toBe('This game changed in another tab; the table now shows the latest state. Nothing was added here.');
    expect(await headline(tabB)).toBe(now);
    expect(await scores(tabB)).toEqual({ Ann: 0, Bob: 0 });
    await tabA.reload();
    await tabA.getByTestId('headline').waitFor();
    expect(await headline(tabA)).toBe(now);
    expect(await tabA.getByTestId('broken-log').count()).toBe(0);

    // tab A plays on; tab B, brought back into view, shows it without a tap
    await padRoll(tabA, ['1', '1', '1', '1', '3']);
    await move(tabA, /^Pass with 2000/);
    await bringBack(tabB);
    await tabB.waitForFunction(() => document.querySelector('[data-testid="slate-row"][data-player="Ann"] [data-testid="score"]')?.textContent === '2000');
    expect(await headline(tabB)).toBe(await headline(tabA));
    await tabB.close();
  });

  it('a newer Rollcall opened in another tab stops this one saving, and its banner leaves the last control in reach', async () => {
    const page = await app.session.context.newPage();
    await page.setViewportSize({ width: 390, height: 480 });
    await page.goto(app.server.url);
    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 5);
    await padRoll(page, ['1', '1', '4', '5', '6']);
    const newer = await app.session.context.newPage();
    await newer.goto(`${app.server.url}/favicon.svg`);
    await newer.evaluate(
      (version) =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('rollcall', version);
          open.onsuccess = () => resolve();
          open.onerror = () => reject(open.error);
        }),
      DB_VERSION + 1,
    );
    const banner = page.getByTestId('outdated');
    await banner.waitFor();
    // Home and History can no longer read the games, and show none: the banner says why, and that they are safe
    expect(await banner.locator('p').textContent()).toBe('Rollcall was updated in another tab. Reload to go on: this page can no longer show or save your games, which are safe.');
    // scrolled to the page's foot, Undo (the last control) lies clear above the banner (polled: App
    // makes the room once a ResizeObserver tells it the banner's height, a frame or more after it shows)
    await expect.poll(() => lastControlClearance(page, '[data-testid="outdated"]')).toBeGreaterThanOrEqual(0);
    // a roll confirmed now is refused in words a player can act on (it was the browser's
    // "InvalidStateError: Failed to execute 'transaction' on 'IDBDatabase'…"), and the table stays as it was
    const before = await headline(page);
    await padEnter(page, ['1', '5']);
    await page.getByTestId('confirm-roll').click();
    await page.getByTestId('rule-error').waitFor();
    expect(await page.getByTestId('rule-error').textContent()).toBe(
      'Not saved: this page can no longer reach the saved games (a newer Rollcall opened in another tab, or the browser closed them). Reload the page to play on; everything saved before is safe.',
    );
    expect(await headline(page)).toBe(before);
    await newer.close();
    await page.close();
  });
});
