/**
 * How responsive the table stays to taps on the dice pad while the camera reads dice, on a slow
 * phone (CPU throttled through CDP), for `npm run bench -- --only table-taps` (scripts/bench.ts):
 * the main thread's long tasks over a fixed window, and each tap's delay to the next frame
 * painted, with the camera reading and with it off (the pad alone, the baseline).
 */
import type { Browser, CDPSession, Page } from 'playwright-core';
import { PHONE_VIEWPORT, recordFramesRead, startFiveThousand, tap } from './bench-app.ts';

/** What one window of taps measured. */
export interface TapWindow {
  /** Each tap's delay (ms): the click's event timestamp (the input, queueing included) → the next frame produced after its handlers. */
  tapToPaintMs: number[];
  /** Main-thread long tasks (over 50 ms) that started in the window: their durations (ms). */
  longTasksMs: number[];
  /** The interactions the browser's Event Timing reported at 16 ms or more (their longest event each, ms; durations come rounded to 8 ms). */
  slowInteractionsMs: number[];
  /** The window's length (ms), first tap → last tap painted. */
  windowMs: number;
  /** Frames sent to the dice reader's worker in the window (none with the camera off). */
  framesRead: number;
  /** After the taps, a traced window with no taps: the main thread's busy time (its tasks summed, ms) over `ms`, and the frames read meanwhile. */
  busy: { ms: number; busyMs: number; framesRead: number };
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  args?: { name?: string };
}

/**
 * The page's main thread traced for `ms` (Chromium's `toplevel` tasks): the time its tasks took, summed.
 * The renderer's main thread is the busiest `CrRendererMain` (the page's; another is a spare renderer).
 */
async function mainThreadBusy(cdp: CDPSession, page: Page, ms: number): Promise<number> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e: { value: object[] }) => events.push(...(e.value as TraceEvent[])));
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['toplevel', '__metadata'] }, transferMode: 'ReportEvents' });
  await page.waitForTimeout(ms);
  const complete = new Promise<void>((ok) => cdp.once('Tracing.tracingComplete', () => ok()));
  await cdp.send('Tracing.end');
  await complete;
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const busy = new Map<string, number>();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && mains.has(thread)) busy.set(thread, (busy.get(thread) ?? 0) + (e.dur ?? 0) / 1000);
  }
  return Math.max(0, ...busy.values());
}

interface PagePerf {
  measuring: boolean;
  longTasks: { start: number; duration: number }[];
  events: { start: number; duration: number; interactionId: number }[];
  taps: { at: number; painted: number }[];
}

/** Run in the page before the app: observers of long tasks, Event Timing, and a probe on each tap on the dice pad. */
function recordTaps(): void {
  // (No named inner functions: tsx would wrap them in a helper the page lacks.)
  const perf: PagePerf = { measuring: false, longTasks: [], events: [], taps: [] };
  (window as unknown as { __perf: PagePerf }).__perf = perf;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (perf.measuring) perf.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: false });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as PerformanceEventTiming[]) if (perf.measuring && e.interactionId > 0) perf.events.push({ start: e.startTime, duration: e.duration, interactionId: e.interactionId });
  }).observe({ type: 'event', durationThreshold: 16, buffered: false } as PerformanceObserverInit);
  // capture phase on window: before the app's own (delegated) handlers, so the frame waited for is the one after them
  window.addEventListener(
    'click',
    (event) => {
      if (!perf.measuring || !(event.target instanceof Element) || !event.target.closest('[data-testid="dice-pad"]')) return;
      const at = event.timeStamp;
      requestAnimationFrame(() => {
        // a task queued from the animation frame runs once that frame has been produced
        const channel = new MessageChannel();
        channel.port1.onmessage = () => perf.taps.push({ at, painted: performance.now() });
        channel.port2.postMessage(null);
      });
    },
    true,
  );
}

/**
 * A 5000 table of `players` in the built app at `url`, the browser's fake camera playing dice
 * thrown and settling. With `camera`, once its reader reads frames, the dice pad is opened
 * beside it; without, the camera is turned off (the pad opens). One die is tapped in first (so
 * the camera proposes nothing over the pad meanwhile, as at a table), the CPU is throttled
 * `throttle`×, and after `settleMs` the window: `taps` taps every `spacingMs`, adding a die and
 * taking it out in turn. Then, the taps done, the main thread traced for `traceMs`.
 */
export async function measureTableTaps(
  browser: Browser,
  url: string,
  options: { camera: boolean; players: readonly string[]; throttle: number; taps: number; spacingMs: number; settleMs: number; traceMs: number },
): Promise<TapWindow> {
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT, deviceScaleFactor: 1 });
  await context.grantPermissions(['camera']);
  try {
    const page = await context.newPage();
    await page.addInitScript(recordTaps);
    await page.addInitScript(recordFramesRead);
    await page.goto(url);
    await startFiveThousand(page, options.players);
    if (options.camera) {
      await page.locator('[data-testid="table-camera"][data-reader="ready"]').waitFor({ timeout: 120_000 });
      // reading: the status speaks of the dice in view
      await page.getByTestId('camera-status').getByText(/I see|No dice in view/).waitFor({ timeout: 60_000 });
      await tap(page, '[data-testid="dice-pad-toggle"]');
    } else {
      await tap(page, '[data-testid="camera-toggle"]');
    }
    await page.getByTestId('dice-pad').waitFor();
    await tap(page, '[data-testid="dice-pad"] button[data-face="1"]');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: options.throttle });
    await page.waitForTimeout(options.settleMs);
    const framesBefore = await page.evaluate(() => (window as unknown as { __framesRead: number[] }).__framesRead.length);
    const start = await page.evaluate(() => {
      (window as unknown as { __perf: PagePerf }).__perf.measuring = true;
      return performance.now();
    });
    const wallStart = Date.now();
    for (let i = 0; i < options.taps; i++) {
      const wait = wallStart + i * options.spacingMs - Date.now();
      if (wait > 0) await page.waitForTimeout(wait);
      // a second die in, then out again: the pad never fills, and one die always stays tapped in
      if (i % 2 === 0) await tap(page, '[data-testid="dice-pad"] button[data-face="2"]');
      else await tap(page, '[data-testid="dice-pad"] .slot.filled', 1);
    }
    await page.waitForFunction((n) => (window as unknown as { __perf: PagePerf }).__perf.taps.length >= n, options.taps, { timeout: 60_000, polling: 100 });
    const perf = await page.evaluate(() => {
      const p = (window as unknown as { __perf: PagePerf }).__perf;
      p.measuring = false;
      return { ...p, end: performance.now(), framesRead: (window as unknown as { __framesRead: number[] }).__framesRead.length };
    });
    const framesBeforeTrace = perf.framesRead;
    const busyMs = await mainThreadBusy(cdp, page, options.traceMs);
    const framesTraced = (await page.evaluate(() => (window as unknown as { __framesRead: number[] }).__framesRead.length)) - framesBeforeTrace;
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await cdp.detach();
    const slowest = new Map<number, number>();
    for (const e of perf.events) slowest.set(e.interactionId, Math.max(slowest.get(e.interactionId) ?? 0, e.duration));
    return {
      tapToPaintMs: perf.taps.map((t) => t.painted - t.at),
      longTasksMs: perf.longTasks.filter((t) => t.start >= start).map((t) => t.duration),
      slowInteractionsMs: [...slowest.values()],
      windowMs: perf.end - start,
      framesRead: perf.framesRead - framesBefore,
      busy: { ms: options.traceMs, busyMs, framesRead: framesTraced },
    };
  } finally {
    await context.close();
  }
}
