/**
 * A browser that will not let Rollcall save (site data blocked, an older Firefox private window,
 * a webview without IndexedDB): the app still opens, says calmly on every screen that nothing is
 * saved and how to change that, and a game of 5000 is played by the dice pad in memory. Three
 * cases patch IndexedDB before the app loads; one is Chromium itself with the site's cookies and
 * data blocked in its profile, which refuses `indexedDB.open` with an error event.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM, launch, layoutProblems, serve, type StaticServer } from './harness.ts';
import { headline, padRoll, pot, scores, startGame } from './table-helpers.ts';

let server: StaticServer;

beforeAll(async () => {
  server = await serve(inject('distDir'));
});

afterAll(async () => {
  await server?.stop();
});

/** The app opened in a browser whose pages run `script` first; `play`, then no page error. */
async function inBrowserWith(script: string, play: (page: Page) => Promise<void>): Promise<void> {
  const session = await launch();
  try {
    await session.page.addInitScript({ content: script });
    await session.page.goto(server.url);
    await play(session.page);
    expect(session.errors).toEqual([]);
  } finally {
    await session.close();
  }
}

/** Said on the screen: not saving, why, and the way out. */
async function saysNothingIsSaved(page: Page, reason: string): Promise<void> {
  const notice = page.getByTestId('unsaved-notice');
  await notice.waitFor();
  // heard by a screen reader, whose focus is on the screen's heading below the notice
  expect(await page.getByTestId('announcer').textContent()).toBe(
    'Not saving. This browser won’t let Rollcall save: closing or reloading this page loses its games.',
  );
  expect(await page.getByRole('complementary', { name: 'Not saving' }).count()).toBe(1);
  // one short line, so that at the table the dice pad stays in view on a small phone
  expect(await notice.locator('summary').textContent()).toBe('Not saving. Closing or reloading this page loses its games.');
  expect(await page.getByTestId('unsaved-reason').textContent()).toBe(`Why: ${reason}`);
  await notice.locator('summary').click();
  expect(await notice.textContent()).toMatch(/allow this site to store data .* or leave private browsing/);
}

/** A game of 5000 for three with an ante of 2, a roll entered on the pad: the slate and pot work, the notice stays. */
async function playsFiveThousand(page: Page): Promise<void> {
  await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
  expect(await pot(page)).toBe(6);
  expect(await page.getByTestId('unsaved-notice').isVisible()).toBe(true);
  expect(await layoutProblems(page)).toEqual([]);
  await page.getByTestId('dice-pad').locator('.slot').first().waitFor(); // no camera here: the pad opens
  await padRoll(page, ['1', '1', '5', '2', '3'], '1 1 5 2 3');
  expect(await headline(page)).toMatch(/^Ann rolled 1 1 2 3 5 = 250/);
  expect(await page.getByTestId('turn-total').textContent()).toBe('250');
  expect(await scores(page)).toEqual({ Ann: 0, Bob: 0, Cy: 0 });
}

describe('a browser that will not let Rollcall save', () => {
  it('without IndexedDB (a webview): the notice, then a game of 5000 by the pad', async () => {
    await inBrowserWith('Object.defineProperty(window, "indexedDB", { value: undefined, configurable: true });', async (page) => {
      await saysNothingIsSaved(page, 'This browser has no IndexedDB, where web pages save data.');
      // no game yet: a reload asks nothing (a dialog would be dismissed, and the reload never end)
      await page.reload();
      await page.getByTestId('unsaved-notice').waitFor();
      await playsFiveThousand(page);
    });
  });

  it('whose indexedDB.open throws (Firefox with site data blocked: SecurityError)', async () => {
    const throws = `IDBFactory.prototype.open = function () { throw new DOMException('The operation is insecure.', 'SecurityError'); };`;
    await inBrowserWith(throws, async (page) => {
      await saysNothingIsSaved(page, 'The operation is insecure.');
      await playsFiveThousand(page);
    });
  });

  it("whose open fails with an error event (an older Firefox's private window: InvalidStateError)", async () => {
    // a real request that fails: its upgrade aborted before the app's runs, its error the browser's
    const fails = `const open = IDBFactory.prototype.open;
      IDBFactory.prototype.open = function (name, version) {
        const request = open.call(this, name, version);
        Object.defineProperty(request, 'error', { get: () => new DOMException('A mutation operation was attempted on a database that did not allow mutations.', 'InvalidStateError') });
        request.addEventListener('upgradeneeded', (event) => { event.stopImmediatePropagation(); request.transaction.abort(); });
        return request;
      };`;
    await inBrowserWith(fails, async (page) => {
      await saysNothingIsSaved(page, 'A mutation operation was attempted on a database that did not allow mutations.');
      await playsFiveThousand(page);
    });
  });

  it('whose upgrade ran and then failed (a disk error at its commit): says it cannot open, not a broken store in memory', async () => {
    // the app's migration runs through idb on the browser's IndexedDB, then the open fails
    const failsAfterUpgrade = `const open = IDBFactory.prototype.open;
      IDBFactory.prototype.open = function (name, version) {
        const request = open.call(this, name, version);
        request.addEventListener('success', (event) => {
          event.stopImmediatePropagation();
          request.result.close();
          Object.defineProperty(request, 'error', { get: () => new DOMException('Internal error committing the upgrade.', 'UnknownError') });
          request.dispatchEvent(new Event('error'));
        });
        return request;
      };
      IDBFactory.prototype.databases = async () => [];`;
    const session = await launch();
    try {
      await session.page.addInitScript({ content: failsAfterUpgrade });
      await session.page.goto(server.url);
      const fatal = session.page.getByRole('alert').filter({ hasText: 'Rollcall cannot start' });
      await fatal.waitFor();
      expect(await fatal.locator('p').first().textContent()).toBe('Rollcall could not open its saved games (Internal error committing the upgrade.).');
      expect(await session.page.getByTestId('unsaved-notice').count()).toBe(0);
    } finally {
      await session.close();
    }
  });

  it("Chromium with the site's cookies and data blocked: a game, Settings says so, a reload starts afresh", async () => {
    const profile = await mkdtemp(join(tmpdir(), 'rollcall-blocked-'));
    await mkdir(join(profile, 'Default'));
    // what "Don't allow sites to save data on your device" writes
    await writeFile(join(profile, 'Default', 'Preferences'), JSON.stringify({ profile: { default_content_setting_values: { cookies: 2 } } }));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      viewport: { width: 412, height: 860 },
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      page.setDefaultTimeout(10_000);
      const errors: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(msg.text());
      });
      page.on('pageerror', (err) => errors.push(String(err)));
      await page.goto(server.url);
      await saysNothingIsSaved(page, 'The user denied permission to access the database.');
      await playsFiveThousand(page);
      await page.goBack();
      await page.getByRole('button', { name: 'Settings' }).click();
      expect(await page.getByTestId('storage-unsaved').textContent()).toBe(
        'This browser won’t let Rollcall save: the games are kept only while this page is open. Save a backup to keep them.',
      );
      await page.goBack();
      await page.getByTestId('game-list').locator('li').first().waitFor();
      expect(await page.getByTestId('game-list').locator('li').count()).toBe(1);
      // a game in the page: leaving asks first (a pull to refresh, a tap on reload)
      const asked: string[] = [];
      page.once('dialog', (dialog) => {
        asked.push(dialog.type());
        void dialog.accept();
      });
      // what the notice warned of: a reload, once accepted, keeps nothing
      await page.reload();
      expect(asked).toEqual(['beforeunload']);
      await page.getByTestId('unsaved-notice').waitFor();
      await page.getByText('No game in progress.').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }
  });
});
