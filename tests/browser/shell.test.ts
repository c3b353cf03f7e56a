import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import 'fake-indexeddb/auto'; // the store runs in Node too: it makes a backup for the page to import
import { openStore } from '../../src/lib/store/index.ts';
import { exportBackupJson } from '../../src/lib/store/backup.ts';
import { appSession, layoutProblems, watchErrors } from './harness.ts';
import { startGame } from './table-helpers.ts';
import { storedRecords } from './monkey.ts';

const app = appSession({ open: false });

/** A new phone's Settings (a browser context of its own), where `play` imports a backup; closed after. */
async function onNewPhonesSettings(play: (page: Page) => Promise<void>): Promise<void> {
  const other = await app.session.browser.newContext({ viewport: { width: 412, height: 860 } });
  try {
    const page = await other.newPage();
    await page.goto(app.server.url);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('backup-export').waitFor();
    await play(page);
  } finally {
    await other.close();
  }
}

/** A backup of one evening, Friday, still open: Ann won Ben's ante of 4 (made in Node, under `name`). */
async function eveningBackup(name: string): Promise<string> {
  const store = await openStore({ name });
  const ann = await store.addPlayer('Ann');
  const ben = await store.addPlayer('Ben');
  const friday = await store.startSession('Friday');
  const options = { ante: 4, startingPlayer: 'first-listed' };
  const game = await store.createGame({ game: 'big-roll-5000', players: [ann, ben].map(({ id, name }) => ({ id, name })), options, ante: 4, dice: { kitId: 'standard', taughtSetId: null }, sessionId: friday.id });
  await store.appendAction(game.id, { type: 'roll', dice: [1, 1, 1, 1, 1] }); // Big Roll: five 1s win at once
  await store.finishGame(game.id, { winners: [ann.id], payouts: { [ann.id]: 4, [ben.id]: -4 } });
  const backup = await exportBackupJson(store);
  store.close();
  return backup;
}

/** 150 games of 40 actions each, made in Node (under `name`): enough writes for the page to show its count. */
async function largeBackup(name: string): Promise<string> {
  const store = await openStore({ name });
  const players = await Promise.all(['Ann', 'Ben', 'Cy'].map((player) => store.addPlayer(player)));
  const seats = players.map(({ id, name: player }) => ({ id, name: player }));
  for (let g = 0; g < 150; g++) {
    const game = await store.createGame({ game: 'big-roll-5000', players: seats, options: { ante: 0, startingPlayer: 'first-listed' }, dice: { kitId: 'standard', taughtSetId: null } });
    for (let a = 0; a < 40; a++) await store.appendAction(game.id, { type: 'roll', dice: [2, 3, 4, 6, 6] }); // nothing scores: the turn passes
  }
  const backup = await exportBackupJson(store);
  store.close();
  return backup;
}

/** From now on, a write to the page's IndexedDB `store` fails as on a full disk; every other store works on. */
async function failPuts(page: Page, store: string): Promise<void> {
  await page.evaluate((name) => {
    const proto = IDBObjectStore.prototype as { put: IDBObjectStore['put'] };
    const realPut = proto.put;
    proto.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.name === name) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return realPut.apply(this, args);
    };
  }, store);
}

describe('app shell', () => {
  it('loads Home with the new-game button, the live region and no errors', async () => {
    const { page, errors } = app.session;
    await page.goto(app.server.url);
    await page.getByTestId('new-game').waitFor();
    expect(await page.title()).toBe('Rollcall');
    expect(await page.locator('h1').textContent()).toBe('Rollcall');
    expect(await page.getByTestId('announcer').getAttribute('aria-live')).toBe('polite');
    expect(await page.locator('link[rel="manifest"]').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('serves a manifest with name, icons (maskable too) and standalone display', async () => {
    const { page } = app.session;
    const manifest = (await page.evaluate(async () => (await fetch('/manifest.webmanifest')).json())) as {
      name: string;
      short_name: string;
      display: string;
      start_url: string;
      icons: { src: string; sizes: string; purpose: string }[];
    };
    expect(manifest.short_name).toBe('Rollcall');
    expect(manifest.display).toBe('standalone');
    expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '192x192 maskable', '512x512 maskable']);
    for (const icon of manifest.icons) {
      const status = await page.evaluate(async (src) => (await fetch(src)).status, icon.src);
      expect(status).toBe(200);
    }
  });

  it('has touch targets of at least 44 px and no sideways scrolling on Home', async () => {
    expect(await layoutProblems(app.session.page)).toEqual([]);
  });

  it('starts a game from the new-game screen, keeps it across a reload, and lists it', async () => {
    const { page } = app.session;
    await page.getByTestId('new-game').click();
    await page.getByTestId('game-select').selectOption('tug');
    for (const name of ['Ann', 'Ben', 'Cy']) {
      await page.getByTestId('player-name').fill(name);
      await page.getByTestId('add-player').click();
    }
    await page.getByTestId('start-game').click();
    expect(await page.getByRole('alert').textContent()).toMatch(/5-Dice Tug is for 2 players; 3 given/);
    await page.getByRole('button', { name: 'Remove Cy' }).click();
    await page.getByRole('button', { name: 'Remove Ben' }).click();
    await page.getByRole('button', { name: 'Remove Ann' }).click();
    await page.getByTestId('game-select').selectOption('five-thousand');
    for (const name of ['Ann', 'Ben', 'Cy']) {
      await page.getByTestId('player-name').fill(name);
      await page.getByTestId('add-player').click();
    }
    // the same name again, typed otherwise: refused with the name as seated
    await page.getByTestId('player-name').fill(' ann');
    await page.getByTestId('add-player').click();
    expect(await page.getByRole('alert').textContent()).toBe('Ann is already playing.');
    // no name at all: said beside the field, nobody seated
    await page.getByTestId('player-name').fill('  ');
    await page.getByTestId('add-player').click();
    expect(await page.getByTestId('seat-problem').textContent()).toBe('Type the player’s name first, then tap Add player.');
    expect(await page.getByTestId('seat').count()).toBe(3);
    await page.getByTestId('player-name').fill('');
    expect(await page.getByTestId('seat-problem').count()).toBe(0);
    // a seated name changed to another player's: said at once; cleared: said on Start, nothing started
    const ben = page.getByRole('textbox', { name: 'Player 2 name' });
    await ben.fill('ANN');
    await ben.blur();
    expect(await page.getByTestId('seat-problem').textContent()).toBe('Ann is playing twice (players 1 and 2): give each player a different name.');
    await ben.fill('');
    await ben.blur();
    await page.getByTestId('start-game').click();
    expect(await page.getByTestId('seat-problem').textContent()).toBe('Player 2 needs a name.');
    await ben.fill('Ben');
    await ben.blur();
    expect(await page.getByTestId('seat-problem').count()).toBe(0);
    await page.getByTestId('ante').fill('2');
    expect(await layoutProblems(page)).toEqual([]);
    await page.getByTestId('start-game').click();
    await page.getByRole('heading', { level: 1, name: '5000 (bumps and gifts)' }).waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: '5000 (bumps and gifts)' }).waitFor();
    await page.getByTestId('slate').waitFor();
    expect(await page.getByTestId('slate-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-player')))).toEqual(['Ann', 'Ben', 'Cy']);
    await page.goBack();
    await page.getByTestId('game-list').locator('li').first().waitFor();
    expect(await page.getByTestId('game-list').locator('li').count()).toBe(1);
  });

  it('refuses a corrupt backup with a clear message and keeps the games', async () => {
    const { page } = app.session;
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('backup-export').waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await page.getByTestId('backup-file').setInputFiles({ name: 'backup.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"rollcall-backup","version":1,"games":[{"id":') });
    const message = page.getByTestId('backup-message');
    await message.waitFor();
    expect(await message.textContent()).toMatch(/not a Rollcall backup.*Nothing was changed/);
    await page.getByTestId('backup-file').setInputFiles({ name: 'backup.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ format: 'rollcall-backup', version: 1, games: 'lots' })) });
    await page.getByTestId('backup-message').getByText(/This backup is damaged/).waitFor();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByTestId('game-list').locator('li').first().waitFor();
    expect(await page.getByTestId('game-list').locator('li').count()).toBe(1);
  });

  it('saves a backup that another device imports', async () => {
    const { page, browser } = app.session;
    await page.goto(app.server.url);
    await page.getByRole('button', { name: 'Settings' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('backup-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^rollcall-backup-\d{4}-\d{2}-\d{2}\.json$/);
    const text = await readFile(await download.path());
    await page.getByRole('button', { name: 'Back', exact: true }).click();

    const other = await browser.newContext({ viewport: { width: 412, height: 860 } });
    try {
      const fresh = await other.newPage();
      await fresh.goto(app.server.url);
      await fresh.getByTestId('new-game').waitFor();
      expect(await fresh.getByTestId('game-list').count()).toBe(0);
      await fresh.getByRole('button', { name: 'Settings' }).click();
      await fresh.getByTestId('backup-file').setInputFiles({ name: 'backup.json', mimeType: 'application/json', buffer: text });
      expect(await fresh.getByTestId('backup-message').textContent()).toBe('Imported 1 game.');
      await fresh.getByRole('button', { name: 'Back', exact: true }).click();
      await fresh.getByTestId('game-list').waitFor();
      expect(await fresh.getByTestId('game-list').textContent()).toContain('Ann, Ben, Cy');
    } finally {
      await other.close();
    }
  });

  it('shows the open session’s balances on Home (a backup made in Node, imported by the page)', async () => {
    const backup = await eveningBackup('ledger-fixture');

    await onNewPhonesSettings(async (page) => {
      await page.getByTestId('backup-file').setInputFiles({ name: 'b.json', mimeType: 'application/json', buffer: Buffer.from(backup) });
      expect(await page.getByTestId('backup-message').textContent()).toBe('Imported 1 game.');
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      const ledger = page.getByTestId('ledger');
      await ledger.waitFor();
      expect((await ledger.innerText()).replace(/\s+/g, ' ').trim()).toBe('Ann +4 Ben -4');
      expect(await page.getByRole('heading', { name: 'Recently finished' }).count()).toBe(1);
      expect(await page.getByTestId('game-summary').first().textContent()).toMatch(/^Finished · .+ · 1 move · Won by Ann$/);
      // settled up at the table: the evening ends in two taps, and Home's balances go with it
      await page.getByTestId('end-evening').click();
      expect(await page.getByRole('alert').textContent()).toMatch(/^Settled up\? Ending the evening clears these balances/);
      await page.getByRole('button', { name: 'Keep playing' }).click();
      expect(await ledger.isVisible()).toBe(true);
      await page.getByTestId('end-evening').click();
      await page.getByTestId('end-evening-confirm').click();
      await ledger.waitFor({ state: 'detached' });
      expect(await page.getByTestId('announcer').textContent()).toBe('Friday ended: Ann +4, Ben -4. The next game starts new balances.');
      await page.reload();
      await page.getByRole('heading', { name: 'Recently finished' }).waitFor(); // Home has loaded its lists
      expect(await page.getByTestId('ledger').count()).toBe(0);
    });
  });

  it('ends the evening once on a double tap of "End the evening", with no error', async () => {
    const backup = await eveningBackup('ledger-double-tap-fixture');
    await onNewPhonesSettings(async (page) => {
      const errors = watchErrors(page);
      await page.getByTestId('backup-file').setInputFiles({ name: 'b.json', mimeType: 'application/json', buffer: Buffer.from(backup) });
      expect(await page.getByTestId('backup-message').textContent()).toBe('Imported 1 game.');
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await page.getByTestId('end-evening').click();
      await page.getByTestId('end-evening-confirm').dblclick();
      await page.getByTestId('ledger').waitFor({ state: 'detached' });
      await page.waitForTimeout(300); // the second tap's work, had it gone on, done
      expect(errors).toEqual([]);
      expect(await page.getByTestId('announcer').textContent()).toBe('Friday ended: Ann +4, Ben -4. The next game starts new balances.');
    });
  });

  it('opens the first game even when the note that storage was asked for cannot be kept (the device full)', async () => {
    const other = await app.session.browser.newContext({ viewport: { width: 412, height: 860 } });
    try {
      const page = await other.newPage();
      const errors = watchErrors(page);
      await page.goto(app.server.url);
      await page.getByTestId('new-game').waitFor();
      // the settings' write fails as on a full disk; the game's own writes go through
      await failPuts(page, 'settings');
      await startGame(page, 'five-thousand', ['Ann', 'Ben']);
      expect(await page.locator('main').getAttribute('data-screen')).toBe('game');
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await page.getByTestId('game-list').waitFor();
      expect(await page.locator('[data-testid="game-list"] > li').count()).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('says so when the evening cannot be ended (the device full), and keeps the balances', async () => {
    const backup = await eveningBackup('ledger-full-disk-fixture');
    await onNewPhonesSettings(async (page) => {
      const errors = watchErrors(page);
      await page.getByTestId('backup-file').setInputFiles({ name: 'b.json', mimeType: 'application/json', buffer: Buffer.from(backup) });
      expect(await page.getByTestId('backup-message').textContent()).toBe('Imported 1 game.');
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await page.getByTestId('ledger').waitFor();
      // the session's write fails as on a full disk
      await failPuts(page, 'sessions');
      await page.getByTestId('end-evening').click();
      await page.getByTestId('end-evening-confirm').click();
      await page.getByTestId('end-evening-problem').waitFor();
      expect(await page.getByTestId('end-evening-problem').textContent()).toBe('The device is out of storage space, so this was not saved. Free some space and try again.');
      expect(await page.getByTestId('end-evening-problem').getAttribute('role')).toBe('alert');
      expect((await page.getByTestId('ledger').innerText()).replace(/\s+/g, ' ').trim()).toBe('Ann +4 Ben -4');
      expect(await page.getByTestId('end-evening-confirm').isEnabled()).toBe(true);
      expect(errors).toEqual([]);
    });
  });

  it('a setting the device has no room to keep is said so in its section, and changes nothing', async () => {
    await onNewPhonesSettings(async (page) => {
      const errors = watchErrors(page);
      await failPuts(page, 'settings');
      const full = 'The device is out of storage space, so this was not saved. Free some space and try again.';
      await page.getByLabel('Dark').click(); // not check(): the radio does not stay checked
      const notKept = page.getByTestId('setting-not-kept');
      await notKept.waitFor();
      expect(await notKept.textContent()).toBe(full);
      expect(await notKept.getAttribute('role')).toBe('alert');
      // the theme as it stands: still the device's, its radio checked again
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
      expect(await page.getByLabel('Same as the device').isChecked()).toBe(true);
      expect(await page.getByLabel('Dark').isChecked()).toBe(false);
      await page.getByTestId('speech').click();
      await page.locator('section[aria-labelledby="speech"]').getByTestId('setting-not-kept').waitFor();
      expect(await page.getByTestId('speech').isChecked()).toBe(false);
      // said once, where the last change was made
      expect(await page.getByTestId('setting-not-kept').count()).toBe(1);
      expect(errors).toEqual([]);
    });
  });

  it('says how far a large backup’s import has got, then what came in', async () => {
    const backup = await largeBackup('large-backup-fixture');

    await onNewPhonesSettings(async (page) => {
      // every text the progress line shows, and the Announcer says, as the page shows them
      await page.evaluate(() => {
        const seen = { progress: [] as string[], heard: [] as string[] };
        (window as unknown as { seen: typeof seen }).seen = seen;
        const note = (texts: string[], selector: string): void => {
          const text = document.querySelector(selector)?.textContent;
          if (text && texts.at(-1) !== text) texts.push(text);
        };
        new MutationObserver(() => {
          note(seen.progress, '[data-testid="backup-progress"]');
          note(seen.heard, '[data-testid="announcer"]');
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      // a phone's speed (the check replays 6,000 actions): it must not hold the page meanwhile
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.getByTestId('backup-file').setInputFiles({ name: 'b.json', mimeType: 'application/json', buffer: Buffer.from(backup) });
      await page.getByTestId('backup-message').waitFor({ timeout: 60_000 });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      expect(await page.getByTestId('backup-message').textContent()).toBe('Imported 150 games.');
      expect(await page.getByTestId('backup-progress').count()).toBe(0);
      const { progress, heard } = await page.evaluate(() => (window as unknown as { seen: { progress: string[]; heard: string[] } }).seen);
      expect(progress[0]).toBe('Checking the backup…');
      const countsOf = (stage: RegExp): number[] => progress.map((text) => stage.exec(text)?.[1]).filter((n) => n !== undefined).map(Number);
      const increasing = (counts: number[]): boolean => counts.every((n, i) => Number.isInteger(n) && n <= 150 && (i === 0 || n > counts[i - 1]!));
      // the check let the page draw between its slices (the page showed nothing new until its end before)
      const checked = countsOf(/^Checking the games: (\d+) of 150…$/);
      expect(checked.length).toBeGreaterThan(1);
      expect(increasing(checked)).toBe(true);
      const written = countsOf(/^Importing the games: (\d+) of 150…$/);
      expect(progress).toEqual(['Checking the backup…', ...checked.map((n) => `Checking the games: ${n} of 150…`), ...written.map((n) => `Importing the games: ${n} of 150…`)]);
      expect(written.length).toBeGreaterThan(1);
      expect(increasing(written)).toBe(true);
      expect(written.at(-1)).toBe(150); // the games all in, the rest written after them
      // heard once as it starts (the figures are for the eye), and once as it ends
      expect(heard).toEqual(['Importing the backup…', 'Imported 150 games.']);
    });
  });

  it('goes on with an import when the player leaves Settings: every screen says how far, and how it went', async () => {
    const backup = await largeBackup('large-backup-leave');
    await onNewPhonesSettings(async (page) => {
      const errors = watchErrors(page);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.getByTestId('backup-file').setInputFiles({ name: 'b.json', mimeType: 'application/json', buffer: Buffer.from(backup) });
      await page.getByTestId('backup-progress').waitFor();
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      // Home says the import goes on, and what a game started meanwhile waits for
      const notice = page.getByTestId('backup-notice');
      expect(await notice.textContent()).toMatch(/^Importing a backup\. (Checking|Importing) the .*New games and rolls are saved once it is in\.$/);
      // Settings opened again shows the same import, and no second one can start
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.getByTestId('backup-progress').waitFor();
      expect(await page.getByTestId('backup-export').isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Import a backup…' }).isDisabled()).toBe(true);
      expect(await page.getByTestId('backup-notice').count()).toBe(0); // Settings says it itself
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      // a game started meanwhile is made once the import lets it write
      await startGame(page, 'big-roll-5000', ['Dee', 'Eve']);
      await notice.getByText('Imported 150 games.').waitFor({ timeout: 60_000 });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await notice.getByRole('button', { name: 'OK' }).click();
      expect(await notice.count()).toBe(0);
      // seen: Settings does not show it again
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.getByTestId('backup-export').waitFor();
      expect(await page.getByTestId('backup-message').count()).toBe(0);
      expect(await page.getByTestId('backup-export').isDisabled()).toBe(false);
      const { games } = await storedRecords(page, ['games']);
      expect(games).toHaveLength(151);
      expect(errors).toEqual([]);
    });
  });

  it('applies and keeps the dark theme', async () => {
    const { page } = app.session;
    await page.goto(app.server.url);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Dark').check();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    const colours = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(colours).toBe('rgb(16, 24, 38)');
  });

  it('shows the stored settle time after a reload on Settings, and a nudge moves on from it', async () => {
    const { page } = app.session;
    await page.goto(app.server.url);
    const slider = page.getByTestId('settle-time');
    // the app reopens on the screen it was left on: Settings, or Home with its way there
    const settingsButton = page.getByRole('button', { name: 'Settings' });
    await slider.or(settingsButton).first().waitFor();
    if (await settingsButton.isVisible()) await settingsButton.click();
    const shown = page.locator('label[for="settle"] strong');
    await slider.fill('1.5');
    await page.waitForFunction(() => document.querySelector('label[for="settle"] strong')?.textContent === '1.5 s');
    // reopened on Settings: the settings load after the screen opens, and the slider follows them
    await page.reload();
    await page.waitForFunction(() => document.querySelector('label[for="settle"] strong')?.textContent === '1.5 s');
    expect(await slider.inputValue()).toBe('1.5');
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    expect(await shown.textContent()).toBe('1.6 s');
    // written before the page goes (a reload at once could outrun the write on a busy machine)
    await page.waitForFunction(
      () =>
        new Promise<boolean>((resolve) => {
          const open = indexedDB.open('rollcall');
          open.onerror = () => resolve(false);
          open.onsuccess = () => {
            const all = open.result.transaction('settings').objectStore('settings').getAll();
            all.onsuccess = () => {
              resolve((all.result as Array<{ settleMs?: number }>).some((s) => s.settleMs === 1600));
              open.result.close();
            };
            all.onerror = () => resolve(false);
          };
        }),
    );
    await page.reload();
    await page.waitForFunction(() => document.querySelector('label[for="settle"] strong')?.textContent === '1.6 s');
  });
});
