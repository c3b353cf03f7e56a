/**
 * The app with two years of game nights in it (`bigHistory`, scripts/lib/big-history.ts), for
 * `npm run bench -- --only big-history` (scripts/bench.ts): the backup imported through Settings
 * as a player restoring a phone would, then, on a slow phone (CPU throttled through CDP), the
 * screens a player opens: Home after a reload (and before the import, on an empty store), History, History scrolled, an old game's log, a
 * new game of 5000 started and a roll entered, and a backup saved; and the page's JS heap.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { PHONE_VIEWPORT, tap } from './bench-app.ts';

export interface HistoryRun {
  /** Import of the backup file: file chosen → "Imported N games" on screen (ms), and the file's size. */
  importMs: number;
  importBytes: number;
  /** The main thread's long tasks (over 50 ms) while the import ran (ms each): the page held that long, no frame drawn, no tap answered. */
  importLongTasksMs: number[];
  /** Reloads onto Home before the import, the store empty (ms): what the history adds to Home. */
  homeEmptyMs: number[];
  /** The rounds' figures (ms), one per round. */
  homeMs: number[];
  historyMs: number[];
  /** History's list items on screen once it opened. */
  historyItems: number;
  /** History scrolled by the wheel: the frames' intervals (ms), all rounds together; long tasks (ms). */
  scrollFramesMs: number[];
  scrollLongTasksMs: number[];
  /** History's "Show more" (where it has one): tap → the next page painted. */
  showMoreMs: number[];
  logMs: number[];
  /** Actions in the log opened. */
  logSteps: number;
  newGameFormMs: number[];
  tableMs: number[];
  proposalMs: number[];
  confirmMs: number[];
  exportMs: number[];
  /** The main thread's long tasks while the backup was saved (ms each), all rounds together. */
  exportLongTasksMs: number[];
  exportBytes: number;
  /** The page's JS heap after a garbage collection (bytes): on Home, on History, on the log. */
  heap: { home: number[]; history: number[]; log: number[] };
}

/**
 * Put in the page before the app (a string, so no bundler helper reaches it): the time stamp of
 * the last click, and `__benchArm(key, selector, absent?, textNot?)`, which records when the page
 * first matches (the selector there, or gone; its text not `textNot`) and when the frame after
 * that was produced, in `__bench[key]`; and a rAF and long-task log while `__bench.frames` is set.
 */
const IN_PAGE = `
(() => {
  const bench = { lastTap: 0, frames: null, longTasks: null };
  window.__bench = bench;
  addEventListener('click', (e) => { bench.lastTap = e.timeStamp; }, true);
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (bench.longTasks) bench.longTasks.push(e.duration); }).observe({ type: 'longtask' });
  const tick = (t) => { if (bench.frames) bench.frames.push(t); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  window.__benchArm = (key, selector, absent, textNot) => {
    const w = { appeared: null, painted: null };
    bench[key] = w;
    const check = () => {
      if (w.appeared !== null) return true;
      const el = document.querySelector(selector);
      if (absent ? el !== null : el === null) return false;
      if (textNot !== undefined && el !== null && el.textContent === textNot) return false;
      w.appeared = performance.now();
      requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = () => { w.painted = performance.now(); }; c.port2.postMessage(null); });
      return true;
    };
    if (check()) return;
    const mo = new MutationObserver(() => { if (check()) mo.disconnect(); });
    mo.observe(document, { childList: true, subtree: true, characterData: true });
  };
  // a reload onto Home: timed from the navigation's start
  if (history.state?.screen?.name === 'home') window.__benchArm('load', '#active-heading');
})();
`;

interface Waited {
  appeared: number | null;
  painted: number | null;
}

/** Starts watching for `selector` (see IN_PAGE). */
async function arm(page: Page, key: string, selector: string, options: { absent?: boolean; textNot?: string } = {}): Promise<void> {
  await page.evaluate(([k, s, a, t]) => (window as unknown as { __benchArm: (...x: unknown[]) => void }).__benchArm(k, s, a, t ?? undefined), [key, selector, options.absent ?? false, options.textNot ?? null] as const);
}

/** The frame painted after `key` matched, in the page's clock (ms). */
async function painted(page: Page, key: string, timeout = 300_000): Promise<number> {
  const handle = await page.waitForFunction((k) => (window as unknown as { __bench: Record<string, Waited> }).__bench[k]?.painted ?? null, key, { timeout, polling: 50 });
  return (await handle.jsonValue()) as number;
}

/** The last click's event time stamp (the input, queueing included), in the page's clock. */
const lastTap = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { __bench: { lastTap: number } }).__bench.lastTap);

/** Taps, and the time from the tap's event to the frame after `selector` matched (ms). */
async function tapUntil(page: Page, selector: string, nth: number, until: string, options: { absent?: boolean; textNot?: string } = {}): Promise<number> {
  const key = `w${Math.random()}`;
  await arm(page, key, until, options);
  await tap(page, selector, nth);
  const end = await painted(page, key);
  return end - (await lastTap(page));
}

/** Starts recording the main thread's long tasks (IN_PAGE's observer). */
async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __bench: { longTasks: number[] | null } }).__bench.longTasks = [];
  });
}

/** The long tasks recorded since `watchLongTasks` (ms each); the recording stops. */
function takeLongTasks(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const b = (window as unknown as { __bench: { longTasks: number[] | null } }).__bench;
    const tasks = b.longTasks ?? [];
    b.longTasks = null;
    return tasks;
  });
}

async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  return usedSize;
}

/** Opens `screen` by a reload (a player coming back to the app where they were). */
async function reloadOnto(page: Page, screen: object): Promise<void> {
  await page.evaluate((s) => history.replaceState({ screen: s, depth: 0 }, ''), screen);
  await page.reload();
}

/** History's own list (Home has one too): the list after its filters, or within a box after them. */
const HISTORY_ITEMS = 'fieldset ~ [data-testid="game-list"] > li, fieldset ~ * [data-testid="game-list"] > li';

/**
 * The built app at `url` in a fresh context: `backupText` imported through Settings (unthrottled:
 * setup as much as a figure), then `rounds` rounds, CPU throttled `throttle`×, of: a reload onto
 * Home; History; History scrolled (`scrollSteps` wheel turns of 800 px, 100 ms apart); the log of
 * History's game number `logIndex` (newest first); a reload onto Home, New game, 5000 for three
 * known players with an ante of 5, a roll entered on the dice pad and confirmed; a backup saved.
 */
export async function measureBigHistory(
  browser: Browser,
  url: string,
  backupFile: string,
  options: { rounds: number; throttle: number; scrollSteps: number; logIndex: number },
): Promise<HistoryRun> {
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT, deviceScaleFactor: 1, acceptDownloads: true });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(300_000);
    await page.addInitScript(IN_PAGE);
    const cdp = await context.newCDPSession(page);
    await page.goto(url);
    await page.getByTestId('new-game').waitFor();
    const homeEmptyMs: number[] = [];
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: options.throttle });
    for (let round = 0; round < options.rounds; round++) {
      await reloadOnto(page, { name: 'home' });
      homeEmptyMs.push(await painted(page, 'load'));
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await reloadOnto(page, { name: 'settings' });
    const importBytes = (await readFile(backupFile)).byteLength;
    const importStart = performance.now();
    await watchLongTasks(page);
    await page.getByTestId('backup-file').setInputFiles(backupFile);
    await page.getByTestId('backup-message').waitFor({ timeout: 600_000 });
    const importMs = performance.now() - importStart;
    const importLongTasksMs = await takeLongTasks(page);
    const said = (await page.getByTestId('backup-message').textContent()) ?? '';
    if (!/^Imported \d+ games/.test(said)) throw new Error(`big-history: the import said "${said}"`);

    await cdp.send('Emulation.setCPUThrottlingRate', { rate: options.throttle });
    const run: HistoryRun = {
      importMs, importBytes, importLongTasksMs, homeEmptyMs, homeMs: [], historyMs: [], historyItems: 0, scrollFramesMs: [], scrollLongTasksMs: [], showMoreMs: [], logMs: [], logSteps: 0,
      newGameFormMs: [], tableMs: [], proposalMs: [], confirmMs: [], exportMs: [], exportLongTasksMs: [], exportBytes: 0, heap: { home: [], history: [], log: [] },
    };
    for (let round = 0; round < options.rounds; round++) {
      await reloadOnto(page, { name: 'home' });
      run.homeMs.push(await painted(page, 'load'));
      run.heap.home.push(await heapAfterGc(cdp));

      run.historyMs.push(await tapUntil(page, 'nav[aria-label="More"] button', 0, HISTORY_ITEMS));
      run.historyItems = await page.locator(HISTORY_ITEMS).count();
      run.heap.history.push(await heapAfterGc(cdp));

      // the wheel, as a thumb's flicks: frames and long tasks meanwhile
      await page.mouse.move(PHONE_VIEWPORT.width / 2, PHONE_VIEWPORT.height / 2);
      await page.evaluate(() => {
        const b = (window as unknown as { __bench: { frames: number[] | null; longTasks: number[] | null } }).__bench;
        b.frames = [];
        b.longTasks = [];
      });
      for (let i = 0; i < options.scrollSteps; i++) {
        await page.mouse.wheel(0, 800);
        await page.waitForTimeout(100);
      }
      await page.waitForTimeout(500);
      const scrolled = await page.evaluate(() => {
        const b = (window as unknown as { __bench: { frames: number[] | null; longTasks: number[] | null } }).__bench;
        const out = { frames: b.frames ?? [], longTasks: b.longTasks ?? [] };
        b.frames = null;
        b.longTasks = null;
        return out;
      });
      run.scrollFramesMs.push(...scrolled.frames.slice(1).map((t, i) => t - scrolled.frames[i]!));
      run.scrollLongTasksMs.push(...scrolled.longTasks);
      if ((await page.getByTestId('history-more').count()) > 0) {
        const shown = await page.locator(HISTORY_ITEMS).count();
        run.showMoreMs.push(await tapUntil(page, '[data-testid="history-more"]', 0, `[data-testid="game-list"] > li:nth-child(${shown + 1})`));
      }
      await page.evaluate(() => scrollTo(0, 0));

      run.logMs.push(await tapUntil(page, HISTORY_ITEMS.split(', ').map((s) => `${s} button`).join(', '), options.logIndex, '[data-testid="game-log"]'));
      run.logSteps = await page.getByTestId('log-step').count();
      run.heap.log.push(await heapAfterGc(cdp));

      await reloadOnto(page, { name: 'home' });
      await painted(page, 'load');
      run.newGameFormMs.push(await tapUntil(page, '[data-testid="new-game"]', 0, '[aria-label="Players from earlier games"] button'));
      await page.getByTestId('game-select').selectOption('five-thousand');
      for (let seat = 0; seat < 3; seat++) await tap(page, '[aria-label="Players from earlier games"] button', 0);
      await page.getByTestId('ante').fill('5');
      run.tableMs.push(await tapUntil(page, '[data-testid="start-game"]', 0, '[data-testid="dice-pad"] button[data-face="5"]'));
      const done = page.getByTestId('dice-pad-done');
      while (await done.isDisabled()) await tap(page, '[data-testid="dice-pad"] button[data-face="5"]');
      run.proposalMs.push(await tapUntil(page, '[data-testid="dice-pad-done"]', 0, '[data-testid="confirm-roll"]'));
      const before = (await page.getByTestId('headline').textContent()) ?? '';
      run.confirmMs.push(await tapUntil(page, '[data-testid="confirm-roll"]', 0, '[data-testid="headline"]', { textNot: before }));

      await reloadOnto(page, { name: 'settings' });
      await page.getByTestId('backup-export').waitFor();
      const download = page.waitForEvent('download', { timeout: 600_000 });
      const exportStart = performance.now();
      await watchLongTasks(page);
      await tap(page, '[data-testid="backup-export"]');
      const saved = await download;
      run.exportMs.push(performance.now() - exportStart);
      run.exportLongTasksMs.push(...(await takeLongTasks(page)));
      const path = await saved.path();
      run.exportBytes = (await readFile(path)).byteLength;
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await cdp.detach();
    return run;
  } finally {
    await context.close();
  }
}
