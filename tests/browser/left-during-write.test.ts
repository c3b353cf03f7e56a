/**
 * A write that waits (behind a backup import in another transaction, seconds on a phone) and a
 * player who goes Back meanwhile: when the write lands, the player stays where they went. Starting
 * a game, making a kit (or a set to teach) and Play again keep what they made and say where it
 * is, not jump to it; the log's Delete and a saved fix do not go back once more (a screen too
 * far). A Start, Play again, fix, new set, new kit or delete refused once the player has left says
 * so where they are. The wait is a readwrite transaction the test holds open on the store the write
 * needs, from the page itself.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appSession } from './harness.ts';
import { gameWonByAnn, padRoll, setUpGame } from './table-helpers.ts';

const app = appSession({ open: false });

/** A fresh store in a page of its own, on Home. */
async function openPage(): Promise<Page> {
  const context = await app.session.browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(app.server.url);
  await page.getByTestId('new-game').waitFor();
  return page;
}

/** Holds `stores` in a readwrite transaction (kept busy) until `release()`: the app's writes to them wait. */
async function hold(page: Page, stores: string[]): Promise<() => Promise<void>> {
  await page.evaluate(
    (names) =>
      new Promise<void>((resolve, reject) => {
        const flags = globalThis as { heldWrite?: boolean };
        flags.heldWrite = true;
        const open = indexedDB.open('rollcall');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(names, 'readwrite');
          const store = tx.objectStore(names[0]!);
          const busy = (): void => {
            if (flags.heldWrite) store.count().onsuccess = busy;
          };
          busy();
          tx.oncomplete = () => open.result.close();
          resolve();
        };
      }),
    stores,
  );
  return async () => {
    await page.evaluate(() => ((globalThis as { heldWrite?: boolean }).heldWrite = false));
  };
}

const screen = (page: Page) => page.locator('main').getAttribute('data-screen');

/** Holds the games store as `hold` does; let go, it plays every game on first (as another tab would): a fix waiting is refused as stale. */
async function holdAndPlayOn(page: Page): Promise<() => Promise<void>> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const flags = globalThis as { heldWrite?: boolean };
        flags.heldWrite = true;
        const open = indexedDB.open('rollcall');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(['games'], 'readwrite');
          const store = tx.objectStore('games');
          const busy = (): void => {
            if (flags.heldWrite) store.count().onsuccess = busy;
            else {
              store.getAll().onsuccess = (event) => {
                for (const game of (event.target as IDBRequest<{ logRevision?: number }[]>).result) store.put({ ...game, logRevision: (game.logRevision ?? 0) + 1 });
              };
            }
          };
          busy();
          tx.oncomplete = () => open.result.close();
          resolve();
        };
      }),
  );
  return async () => {
    await page.evaluate(() => ((globalThis as { heldWrite?: boolean }).heldWrite = false));
  };
}

/** The page's connection closes for games' writes from now on (as when another tab opens a newer Rollcall): a new game is refused. */
async function refuseGameWrites(page: Page): Promise<void> {
  await page.evaluate(() => {
    const proto = IDBDatabase.prototype;
    const real = proto.transaction;
    proto.transaction = function (this: IDBDatabase, names: string | string[], mode?: IDBTransactionMode, options?: IDBTransactionOptions) {
      const wanted = typeof names === 'string' ? [names] : [...names];
      if (mode === 'readwrite' && wanted.includes('games')) throw new DOMException('The database connection is closing.', 'InvalidStateError');
      return real.call(this, names, mode, options);
    } as IDBDatabase['transaction'];
  });
}

/**
 * From now on, `method` (add, delete) on the page's IndexedDB `store` fails as on a full disk: a
 * write whose transaction was made before (waiting on a held store) is refused once let through.
 */
async function fillDisk(page: Page, store: string, method: 'add' | 'delete'): Promise<void> {
  await page.evaluate(
    ([name, key]) => {
      const proto = IDBObjectStore.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
      const real = proto[key]!;
      proto[key] = function (this: IDBObjectStore, ...args: unknown[]) {
        if (this.name === name) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        return real.apply(this, args);
      };
    },
    [store, method] as const,
  );
}

/** The write waiting on a held store, Back tapped to `leftFor`, then refused as on a full disk once let through: what was shown and said there. */
async function refusedOnFullDisk(page: Page, release: () => Promise<void>, leftFor: string, store: string, method: 'add' | 'delete'): Promise<{ shown: string; said: string }> {
  await page.waitForTimeout(300); // the write is waiting on the held store
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page.waitForFunction((name) => document.querySelector('main')?.getAttribute('data-screen') === name, leftFor);
  await fillDisk(page, store, method);
  await release();
  await page.getByTestId('left-behind').waitFor();
  const shown = (await page.getByTestId('left-behind').locator('p').textContent()) ?? '';
  const said = (await page.locator('[aria-live="assertive"]').textContent()) ?? '';
  expect(await screen(page)).toBe(leftFor);
  return { shown, said };
}

const NOT_SAVED = 'Not saved: this page can no longer reach the saved games (a newer Rollcall opened in another tab, or the browser closed them). Reload the page to play on; everything saved before is safe.';

/** The write waiting (its evening's session held), Back tapped, then refused once let through: what Home showed and said. */
async function refusedAfterBack(page: Page, release: () => Promise<void>): Promise<{ shown: string; said: string }> {
  await page.waitForTimeout(300); // the write is waiting on the held store
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('main')?.getAttribute('data-screen') === 'home');
  await refuseGameWrites(page);
  await release();
  await page.getByTestId('left-behind').waitFor();
  const shown = (await page.getByTestId('left-behind').locator('p').textContent()) ?? '';
  const said = (await page.locator('[aria-live="assertive"]').textContent()) ?? '';
  expect(await screen(page)).toBe('home');
  // closed, it is gone
  await page.getByTestId('left-behind').getByRole('button', { name: 'OK' }).click();
  await page.getByTestId('left-behind').waitFor({ state: 'detached' });
  return { shown, said };
}

/** The write waiting, Back tapped, then the write let through: what the app said once it landed. */
async function backDuringWrite(page: Page, release: () => Promise<void>, landed: string, leftFor: string): Promise<string> {
  await page.waitForTimeout(300); // the write is waiting on the held store
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page.waitForFunction((name) => document.querySelector('main')?.getAttribute('data-screen') === name, leftFor);
  await release();
  await page.waitForFunction((text) => document.querySelector('[data-testid="announcer"]')?.textContent?.includes(text), landed);
  await page.waitForTimeout(500); // a jump (or a second Back) would have landed by now
  return (await page.getByTestId('announcer').textContent()) ?? '';
}

/** A game of Big Roll 5000 with Ann and Bob started, its log opened from History and "Delete game…" asked, not yet answered. */
async function deleteAskedFromHistory(page: Page): Promise<void> {
  await setUpGame(page, 'big-roll-5000', ['Ann', 'Bob']);
  await page.getByTestId('start-game').click();
  await page.getByTestId('headline').waitFor();
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page.getByRole('button', { name: 'History' }).click();
  await page.getByRole('button', { name: /^Log: 5000 \(Big Roll\) with Ann, Bob/ }).click();
  await page.getByRole('button', { name: 'Delete game…' }).click();
}

/** From Home: Dice kits, New kit, "Rune dice" with its six faces named, not yet made. */
async function runeKitFilledIn(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Dice kits' }).click();
  await page.getByTestId('new-kit').click();
  await page.getByTestId('kit-name').fill('Rune dice');
  for (const [i, label] of ['Sun', 'Moon', 'Star', 'Tree', 'Wave', 'Fire'].entries()) await page.getByTestId('face-label').nth(i).fill(label);
}

/** A game of 5000 where Ann rolled 1 1 1 2 3, its log open from the table with the roll fixed to 1 1 1 5 5, not yet saved. */
async function fixReadyToSave(page: Page): Promise<void> {
  await setUpGame(page, 'five-thousand', ['Ann', 'Bob'], 0);
  await page.getByTestId('start-game').click();
  await page.getByTestId('headline').waitFor();
  await padRoll(page, ['1', '1', '1', '2', '3']);
  await page.getByTestId('fix-a-roll').click();
  await page.getByTestId('fix-roll').first().click();
  const panel = page.getByTestId('fix-panel');
  for (const face of ['1', '1', '1', '5', '5']) await panel.locator(`button[data-face="${face}"]`).click();
  await panel.getByTestId('dice-pad-done').click();
  await page.getByTestId('fix-save').waitFor();
}

describe('Back tapped while a write waits', () => {
  it('New game: Start, then Back to Home: Home stays, the game is in In progress, and that is said', async () => {
    const page = await openPage();
    try {
      await setUpGame(page, 'big-roll-5000', ['Ann', 'Bob']);
      const release = await hold(page, ['games']);
      await page.getByTestId('start-game').click();
      const said = await backDuringWrite(page, release, 'started with Ann, Bob', 'home');
      expect(await screen(page)).toBe('home');
      expect(said).toBe("5000 (Big Roll) started with Ann, Bob. It is in Home's In progress.");
      await page.getByRole('heading', { name: 'In progress' }).waitFor();
      await page.getByRole('button', { name: /^Resume: 5000 \(Big Roll\) with Ann, Bob/ }).waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('New kit: Make the kit, then Back to Kits: Kits stays, the kit is kept to teach, and that is said', async () => {
    const page = await openPage();
    try {
      await runeKitFilledIn(page);
      const release = await hold(page, ['taughtSets']);
      await page.getByTestId('create-kit').click();
      const said = await backDuringWrite(page, release, 'Rune dice made.', 'kits');
      expect(await screen(page)).toBe('kits');
      expect(said).toBe('Rune dice made. Teach its faces from Kits.');
      // kept: Kits opened again lists it, to teach
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await page.getByRole('button', { name: 'Dice kits' }).click();
      await page.getByRole('button', { name: 'Teach Rune dice' }).waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('Teach Rollcall your dice on Kits, then Back to Home: Home stays, the set is kept to teach, and that is said', async () => {
    const page = await openPage();
    try {
      await page.getByRole('button', { name: 'Dice kits' }).click();
      const release = await hold(page, ['taughtSets']);
      await page.locator('[data-kit-id="face-off"]').getByTestId('teach-kit').click();
      const said = await backDuringWrite(page, release, 'made. Teach its faces from Kits.', 'home');
      expect(await screen(page)).toBe('home');
      expect(said).toMatch(/^.+ made\. Teach its faces from Kits\.$/);
    } finally {
      await page.context().close();
    }
  });

  it('Play again, then Back to Home: Home stays, the new game is in In progress, and that is said', async () => {
    const page = await openPage();
    try {
      await gameWonByAnn(page);
      const release = await hold(page, ['games']);
      await page.getByTestId('play-again').click();
      const said = await backDuringWrite(page, release, 'New game of', 'home');
      expect(await screen(page)).toBe('home');
      expect(said).toBe("New game of 5000 (Big Roll) with Ann, Bob. It is in Home's In progress.");
      await page.getByRole('heading', { name: 'In progress' }).waitFor();
      await page.getByRole('button', { name: /^Resume: 5000 \(Big Roll\) with Ann, Bob/ }).waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('New game: Start, then Back to Home, and the game refused: Home says it was not started, and why', async () => {
    const page = await openPage();
    try {
      await setUpGame(page, 'big-roll-5000', ['Ann', 'Bob']);
      const release = await hold(page, ['sessions']);
      await page.getByTestId('start-game').click();
      const { shown, said } = await refusedAfterBack(page, release);
      const expected = `5000 (Big Roll) with Ann, Bob was not started. ${NOT_SAVED}`;
      expect(shown).toBe(expected);
      expect(said).toBe(expected);
    } finally {
      await page.context().close();
    }
  });

  it('Play again, then Back to Home, and the game refused: Home says it was not started, and why', async () => {
    const page = await openPage();
    try {
      await gameWonByAnn(page);
      const release = await hold(page, ['sessions']);
      await page.getByTestId('play-again').click();
      const { shown, said } = await refusedAfterBack(page, release);
      const expected = `The new game of 5000 (Big Roll) with Ann, Bob was not started. ${NOT_SAVED}`;
      expect(shown).toBe(expected);
      expect(said).toBe(expected);
    } finally {
      await page.context().close();
    }
  });

  it('a fix saved on the log opened from the table, then Back to the table, and the fix refused: the table says it was not fixed, and why', async () => {
    const page = await openPage();
    try {
      await fixReadyToSave(page);
      const release = await holdAndPlayOn(page);
      await page.getByTestId('fix-save').click();
      await page.waitForTimeout(300); // the write is waiting on the held store
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await page.waitForFunction(() => document.querySelector('main')?.getAttribute('data-screen') === 'game');
      await release();
      await page.getByTestId('left-behind').waitFor();
      const expected = "Ann's roll was not fixed to 1 1 1 5 5. This game changed in another tab, so nothing was fixed: the game is shown as it is now. Fix the roll again if it is still wrong.";
      expect(await page.getByTestId('left-behind').locator('p').textContent()).toBe(expected);
      expect(await page.locator('[aria-live="assertive"]').textContent()).toBe(expected);
      expect(await screen(page)).toBe('game');
      await page.getByTestId('headline').waitFor();
      expect(await page.getByTestId('headline').textContent()).toContain('Ann rolled 1 1 1 2 3 =');
      expect(await page.getByTestId('fixed').count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });

  it('Delete on a log opened from History, then Back to History: History stays (no second Back to Home)', async () => {
    const page = await openPage();
    try {
      await deleteAskedFromHistory(page);
      const release = await hold(page, ['games']);
      await page.getByRole('button', { name: 'Delete for good' }).click();
      const said = await backDuringWrite(page, release, 'Game deleted.', 'history');
      expect(await screen(page)).toBe('history');
      expect(said).toBe('Game deleted.');
    } finally {
      await page.context().close();
    }
  });

  it('a fix saved on the log opened from the table, then Back to the table: the table stays (no second Back to Home), the fix said and shown', async () => {
    const page = await openPage();
    try {
      await fixReadyToSave(page);
      const release = await hold(page, ['games']);
      await page.getByTestId('fix-save').click();
      const said = await backDuringWrite(page, release, 'Fixed: Ann rolled 1 1 1 5 5.', 'game');
      expect(await screen(page)).toBe('game');
      expect(said).toContain('Fixed: Ann rolled 1 1 1 5 5.');
      // shown on the table too, as when the log goes back to it, with the slate as fixed
      await page.getByTestId('fixed').waitFor();
      expect(await page.getByTestId('fixed').textContent()).toBe(said);
      expect(await page.getByTestId('headline').textContent()).toContain('Ann rolled 1 1 1 5 5 =');
    } finally {
      await page.context().close();
    }
  });

  it('Teach Rollcall your dice on Kits, then Back to Home, and the set refused: Home says it was not made, and why', async () => {
    const page = await openPage();
    try {
      await page.getByRole('button', { name: 'Dice kits' }).click();
      const release = await hold(page, ['taughtSets']);
      await page.locator('[data-kit-id="face-off"]').getByTestId('teach-kit').click();
      const { shown, said } = await refusedOnFullDisk(page, release, 'home', 'taughtSets', 'add');
      expect(shown).toMatch(/^My .+ was not made\. The device is out of storage space, so this was not saved\. Free some space and try again\.$/);
      expect(said).toBe(shown);
    } finally {
      await page.context().close();
    }
  });

  it('New kit: Make the kit, then Back to Kits, and the kit refused: Kits says it was not made, and why', async () => {
    const page = await openPage();
    try {
      await runeKitFilledIn(page);
      const release = await hold(page, ['taughtSets']);
      await page.getByTestId('create-kit').click();
      const { shown, said } = await refusedOnFullDisk(page, release, 'kits', 'taughtSets', 'add');
      const expected = 'Rune dice was not made. The device is out of storage space, so this was not saved. Free some space and try again.';
      expect(shown).toBe(expected);
      expect(said).toBe(expected);
      expect(await page.getByRole('button', { name: 'Teach Rune dice' }).count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });

  it('Delete on a log opened from History, then Back to History, and the delete refused: History says which game was not deleted, and why, once', async () => {
    const page = await openPage();
    try {
      await deleteAskedFromHistory(page);
      const release = await hold(page, ['games']);
      await page.getByRole('button', { name: 'Delete for good' }).click();
      const { shown, said } = await refusedOnFullDisk(page, release, 'history', 'games', 'delete');
      const expected = 'Deleting 5000 (Big Roll) with Ann, Bob was refused. The device is out of storage space, so nothing was deleted. Free some space and try again.';
      expect(shown).toBe(expected);
      expect(said).toBe(expected);
      // kept: History still lists it
      await page.getByRole('button', { name: /^Log: 5000 \(Big Roll\) with Ann, Bob/ }).waitFor();
    } finally {
      await page.context().close();
    }
  });
});
