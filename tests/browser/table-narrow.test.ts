import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launch, layoutProblems, serve, type BrowserSession, type StaticServer } from './harness.ts';
import { move, padRoll, startGame } from './table-helpers.ts';

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

/** How far the slate reaches past its box (the part a player would have to scroll sideways to). */
async function slateOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const wrap = document.querySelector('.slate-wrap');
    return wrap ? wrap.scrollWidth - wrap.clientWidth : Number.NaN;
  });
}

async function home(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByTestId('new-game').waitFor();
}

/** The slate on a phone held upright: every column in view, without sideways scrolling. */
describe('the slate on a small phone', () => {
  it('5000 with four-figure scores and a long name fits 320 px', async () => {
    const { page } = session;
    await page.setViewportSize({ width: 320, height: 640 });
    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cyrilla Wolfeschlegelsteinhausen']);
    await padRoll(page, ['1', '1', '1', '2', '3']);
    await padRoll(page, ['1', '3']);
    await move(page, 'Bank 1200 (0 → 1200)');
    expect(await page.getByTestId('slate-row').first().locator('td').allTextContents()).toEqual(['1200', 'on the slate', '0', '+1200']);
    expect(await slateOverflow(page)).toBe(0);
    expect(await layoutProblems(page)).toEqual([]);
    await home(page);
  });

  it("War's five columns fit 320 px", async () => {
    const { page } = session;
    await startGame(page, 'war', ['Ann', 'Bob']);
    expect(await page.locator('[data-testid="slate"] thead th').count()).toBe(5);
    expect(await slateOverflow(page)).toBe(0);
    await home(page);
  });

  it("Detective's long column names fit 390 px", async () => {
    const { page } = session;
    await page.setViewportSize({ width: 390, height: 844 });
    await startGame(page, 'detective', ['Ann', 'Bob', 'Cy']);
    // who starts: the highest of two dice each
    await padRoll(page, ['6', '6']);
    await padRoll(page, ['1', '2']);
    await padRoll(page, ['1', '3']);
    expect(await page.locator('[data-testid="slate"] thead th').allTextContents()).toContain('Opportunity (4 alike)');
    expect(await slateOverflow(page)).toBe(0);
    await home(page);
  });
});
