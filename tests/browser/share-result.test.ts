/**
 * The game over's Share: the result as text for the group's chat, by the phone's share sheet
 * where the browser has one, else copied, else shown to copy by hand. A game of Big Roll 5000
 * for Ann and Bob with an ante of 2, won by Ann's five 1s. The browser's share sheet and clipboard
 * are stood in for (headless Chromium has no share sheet, and its clipboard reads hang): what the
 * app handed them is what is checked.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ECHO_TAP_MS } from '../../src/app/echoTap.ts';
import { appSession } from './harness.ts';
import { gameWonByAnn } from './table-helpers.ts';

const app = appSession({ open: false });

/** What the page handed the share sheet and the clipboard. */
interface Handed {
  shared: ShareData[];
  copied: string[];
}

/** A page whose browser has a share sheet, only a clipboard, or a clipboard that refuses (`neither`). */
async function openPage(how: 'share-sheet' | 'clipboard' | 'neither'): Promise<Page> {
  const context = await app.session.browser.newContext({ viewport: { width: 360, height: 740 } });
  await context.addInitScript((kind: string) => {
    const handed: Handed = { shared: [], copied: [] };
    Object.assign(window, { handed });
    const share = kind === 'share-sheet' ? (data: ShareData) => (handed.shared.push(data), Promise.resolve()) : undefined;
    Object.defineProperty(Navigator.prototype, 'share', { value: share, configurable: true });
    Object.defineProperty(Navigator.prototype, 'canShare', { value: undefined, configurable: true });
    const writeText =
      kind === 'neither' ? () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')) : (text: string) => (handed.copied.push(text), Promise.resolve());
    Object.defineProperty(Navigator.prototype, 'clipboard', { value: { writeText }, configurable: true });
  }, how);
  const page = await context.newPage();
  await page.goto(app.server.url);
  await page.getByTestId('new-game').waitFor();
  return page;
}

/** Ann's win, then Share tapped (after a double tap's time: the tap that won may have been where Share now is). */
async function shareAnnsWin(page: Page): Promise<void> {
  await gameWonByAnn(page, 2);
  await page.getByTestId('session-ledger').waitFor();
  await page.waitForTimeout(ECHO_TAP_MS);
  await page.getByTestId('share-result').click();
}

const handed = (page: Page): Promise<Handed> => page.evaluate(() => (window as unknown as { handed: Handed }).handed);

/** The lines of the result after the first (the game's name and when it ended). */
function linesOf(text: string): string[] {
  const [first, ...rest] = text.split('\n');
  expect(first).toMatch(/^5000 \(Big Roll\), .*\d/);
  return rest;
}

const RESULT = ['Ann wins!', 'Points: Ann 5000, Bob 0', 'Ann takes 4 from the pot of 4.'];

describe('Share the result', () => {
  it("by the phone's share sheet: the game, its scores, the pot and the evening's balances", async () => {
    const page = await openPage('share-sheet');
    try {
      await shareAnnsWin(page);
      await expect.poll(async () => (await handed(page)).shared.length, { timeout: 10_000 }).toBe(1);
      const { shared, copied } = await handed(page);
      expect(shared[0]?.title).toBe('5000 (Big Roll): Ann wins!');
      const lines = linesOf(shared[0]?.text ?? '');
      expect(lines.slice(0, 3)).toEqual(RESULT);
      expect(lines[3]).toMatch(/^.+ \(1 game\): Ann \+2, Bob -2$/);
      expect(lines).toHaveLength(4);
      expect(copied).toEqual([]);
      // the share sheet shows what it did: nothing more is said here
      expect(await page.getByTestId('share-said').count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });

  it('copied where there is no share sheet, and said so', async () => {
    const page = await openPage('clipboard');
    try {
      await shareAnnsWin(page);
      await page.getByTestId('share-said').waitFor({ timeout: 10_000 });
      expect(await page.getByTestId('share-said').textContent()).toBe('Copied: paste it into your group’s chat.');
      const { copied } = await handed(page);
      expect(copied).toHaveLength(1);
      expect(linesOf(copied[0] ?? '').slice(0, 3)).toEqual(RESULT);
    } finally {
      await page.context().close();
    }
  });

  it('shown to copy by hand where the browser would neither share nor copy', async () => {
    const page = await openPage('neither');
    try {
      await shareAnnsWin(page);
      await page.getByTestId('share-said').waitFor({ timeout: 10_000 });
      expect(await page.getByTestId('share-said').textContent()).toBe('This browser would neither share nor copy it: select the text below and copy it.');
      expect(linesOf(await page.getByTestId('shared-text').inputValue()).slice(0, 3)).toEqual(RESULT);
      // the game over stands as it was: Play again is still there
      await page.getByTestId('play-again').waitFor();
    } finally {
      await page.context().close();
    }
  });

  it("Home's balances tonight and History's evenings share their balances too", async () => {
    const page = await openPage('share-sheet');
    try {
      await gameWonByAnn(page, 2);
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await page.getByTestId('ledger').waitFor();
      await page.getByTestId('share-balances').click();
      await page.getByRole('button', { name: 'History' }).click();
      await page.getByRole('radio', { name: 'Evenings' }).check();
      await page.getByTestId('evening-balances').waitFor();
      await page.getByTestId('share-balances').click();
      await expect.poll(async () => (await handed(page)).shared.length, { timeout: 10_000 }).toBe(2);
      const [home, history] = (await handed(page)).shared;
      // tonight's evening is named by its day; History counts its games
      expect(home?.text).toMatch(/^(.+): Ann \+2, Bob -2$/);
      const evening = /^(.+): Ann/.exec(home?.text ?? '')?.[1] ?? '';
      expect(home?.title).toBe(`Balances · ${evening}`);
      expect(history?.text).toBe(`${evening} (1 game): Ann +2, Bob -2`);
    } finally {
      await page.context().close();
    }
  });
});
