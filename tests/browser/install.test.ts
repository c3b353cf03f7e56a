import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appSession, browserOffersInstall, layoutProblems } from './harness.ts';

const promptsShown = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { promptsShown?: number }).promptsShown ?? 0);

const app = appSession();

describe('installing the app', () => {
  it('offers nothing until the browser says the app can be installed', async () => {
    const { page } = app;
    await page.getByTestId('new-game').waitFor();
    expect(await page.getByTestId('install-offer').count()).toBe(0);
  });

  it('offers an Install button that opens the browser’s install dialog, once', async () => {
    const { page } = app;
    await browserOffersInstall(page, 'accepted');
    expect(await page.evaluate(() => (window as unknown as { installEventCancelled: boolean }).installEventCancelled)).toBe(true);
    const offer = page.getByTestId('install-offer');
    await offer.waitFor();
    expect(await offer.textContent()).toMatch(/Install Rollcall.*keeps score with no connection/);
    expect(await layoutProblems(page)).toEqual([]);
    await page.getByTestId('install').click();
    await offer.waitFor({ state: 'detached' });
    expect(await promptsShown(page)).toBe(1);
    // the browser says it is installed: nothing more is offered
    await page.evaluate(() => window.dispatchEvent(new Event('appinstalled')));
    expect(await page.getByTestId('install-offer').count()).toBe(0);
  });

  it('hides the offer on Not now, even when the browser offers again, until the app is opened again; Settings still offers it', async () => {
    const { page } = app;
    await browserOffersInstall(page, 'dismissed');
    await page.getByTestId('install-offer').waitFor();
    await page.getByRole('button', { name: 'Not now' }).click();
    expect(await page.getByTestId('install-offer').count()).toBe(0);
    await browserOffersInstall(page, 'dismissed');
    expect(await page.getByTestId('install-offer').count()).toBe(0);
    // Settings still offers it, for a player who said Not now and changed their mind
    await page.getByRole('button', { name: 'Settings' }).click();
    const inSettings = page.getByTestId('settings-install');
    const shownBefore = await promptsShown(page);
    await inSettings.getByRole('button', { name: 'Install' }).click();
    await inSettings.waitFor({ state: 'detached' });
    expect(await promptsShown(page)).toBe(shownBefore + 1);
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByTestId('new-game').waitFor();
    await page.reload();
    await page.getByTestId('new-game').waitFor();
    await browserOffersInstall(page, 'dismissed');
    await page.getByTestId('install-offer').waitFor();
    expect(await promptsShown(page)).toBe(0);
  });

  it('says how on an iPhone, whose Safari lets no page ask', async () => {
    const { browser } = app.session;
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    });
    try {
      const page = await context.newPage();
      await page.goto(app.server.url);
      const offer = page.getByTestId('install-offer');
      await offer.waitFor();
      expect(await offer.textContent()).toMatch(/on this iPhone: tap Share.*Add to Home Screen/);
      expect(await page.getByTestId('install').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('offers nothing when it already runs from the home screen', async () => {
    const { browser } = app.session;
    const context = await browser.newContext({ viewport: { width: 412, height: 860 } });
    try {
      const page = await context.newPage();
      // an installed app's window: display-mode standalone (no emulation for it in Playwright)
      await page.addInitScript(() => {
        const original = window.matchMedia.bind(window);
        window.matchMedia = (query: string) => (query.includes('display-mode: standalone') ? ({ ...original(query), matches: true, media: query } as MediaQueryList) : original(query));
      });
      await page.goto(app.server.url);
      await page.getByTestId('new-game').waitFor();
      await browserOffersInstall(page, 'accepted');
      expect(await page.getByTestId('install-offer').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
