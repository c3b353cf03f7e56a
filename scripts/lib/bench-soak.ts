/**
 * A game night compressed, for `npm run bench -- --only soak` (scripts/bench.ts): is the app as
 * good at the end of an evening as at its start? The built app plays 5000 for three with an ante
 * for `minutes`, the fake camera reading dice thrown and settling all along; rolls are taken from
 * the camera when it proposes one the rules accept and tapped on the dice pad otherwise, turns are
 * banked, undo is used, the first game is drawn out to a long log (busts, small banks) before it
 * is finished, then games are played to their end and new ones started; on the way the camera is
 * turned off and on, the table left for the log and come back to (its reader closed and started
 * again), and the page hidden and shown (its camera released and opened again).
 *
 * Every `sampleSeconds`, garbage collected first (HeapProfiler.collectGarbage, in the page and in
 * each worker) so that what is counted is what is kept: the page's JS heap, DOM nodes and event
 * listeners (Performance.getMetrics), the workers alive and their heaps (Runtime.getHeapUsage
 * through the browser's CDP session), the renderers' resident memory (/proc), the ImageBitmaps
 * the page made that are still open (neither closed nor transferred), and a window of taps on the
 * dice pad (tap → next paint, CPU throttled as table-taps does). Between samples: frames read a
 * second, each read's round trip, and each action's tap → the headline painted, against the
 * length of the game's log. The trend (first against last fifth, least-squares slope an hour)
 * is what shows a leak as a number.
 *
 * The driver keeps the same game in Node (the rules engine, as the browser tests do) to choose
 * rolls the rules accept and to know each move's label; should it lose step with the page (a
 * tap that did not land), it replays the page's own stored log.
 */
import { readFileSync } from 'node:fs';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { PHONE_VIEWPORT } from './bench-app.ts';
import { applyAction, createMatch, expectRoll, tryAction, viewMatch, type Action, type MatchState } from '../../src/lib/rules/index.ts';
import { previewRoll } from '../../src/app/play.ts';
import { DB_NAME } from '../../src/lib/store/schema.ts';
import { random as seeded } from './random.ts';

export interface SoakOptions {
  minutes: number;
  sampleSeconds: number;
  players: readonly string[];
  ante: number;
  /** Actions the first game is drawn out to before it is played to its end. */
  longGameActions: number;
  /** CPU throttling during the tap windows (a mid-range phone). */
  throttle: number;
  tapsPerSample: number;
  seed: number;
}

export interface SoakSample {
  /** Seconds since the evening began. */
  t: number;
  pageHeapMb: number;
  nodes: number;
  listeners: number;
  /** Dedicated workers alive (the dice reader's; one while a table is open). */
  workers: number;
  /** The workers' JS heaps summed (MB), after their GC. */
  workerHeapMb: number;
  /** Resident memory of the renderer processes summed (MB): native memory too (bitmaps, wasm, media). */
  rendererRssMb: number;
  /** ImageBitmaps the page made that are open (neither closed nor transferred) after GC. */
  openBitmaps: number;
  /** Pad taps → next paint over this sample's tap window (median, ms), CPU throttled. */
  tapMs: number | null;
  /** Frames read a second since the last sample, and their round trips' median (ms). */
  framesPerSecond: number;
  readMs: number | null;
  /** Actions in the game at the table now. */
  logLength: number;
}

export interface SoakResult {
  samples: SoakSample[];
  /** Each action's tap (Confirm roll, a move, Undo) → the headline changed and painted, with the log's length before it. */
  acts: { logLength: number; ms: number }[];
  counts: { actions: number; cameraRolls: number; padRolls: number; banks: number; undos: number; games: number; cameraToggles: number; tableLeft: number; hidden: number; resyncs: number };
  seconds: number;
}

/**
 * Run in the page before the app (as a string: tsx would wrap named functions in a helper the
 * page lacks). Counts ImageBitmaps made and still open, times each read's round trip by its
 * worker's request id, and times taps: on the dice pad (→ next paint) and on what appends an
 * action (→ the headline changed and painted).
 */
const PAGE_PROBES = `(() => {
  const probe = { bitmaps: [], made: 0, trips: [], reads: 0, padTaps: [], measuringTaps: false, acts: [] };
  window.__soak = probe;
  const make = window.createImageBitmap.bind(window);
  window.createImageBitmap = (...args) => make(...args).then((b) => { probe.made++; probe.bitmaps.push(new WeakRef(b)); if (probe.bitmaps.length > 4096) probe.bitmaps = probe.bitmaps.filter((r) => { const x = r.deref(); return x && x.width > 0; }); return b; });
  probe.openBitmaps = () => { probe.bitmaps = probe.bitmaps.filter((r) => { const x = r.deref(); return x && x.width > 0; }); return probe.bitmaps.length; };
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(url, options) {
      super(url, options);
      const sent = new Map();
      this.__sent = sent;
      this.addEventListener('message', (e) => {
        const d = e.data;
        if (d && d.type === 'result' && sent.has(d.id)) { probe.trips.push(performance.now() - sent.get(d.id)); probe.reads++; }
        if (d && typeof d.id === 'number') sent.delete(d.id);
      });
    }
    postMessage(message, transfer) {
      if (message && message.type === 'read') this.__sent.set(message.id, performance.now());
      return super.postMessage(message, transfer);
    }
  };
  const afterPaint = (done) => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = () => done(performance.now()); c.port2.postMessage(null); });
  const headline = () => document.querySelector('[data-testid="headline"]')?.textContent ?? null;
  window.addEventListener('click', (event) => {
    if (!(event.target instanceof Element)) return;
    const at = event.timeStamp;
    if (probe.measuringTaps && event.target.closest('[data-testid="dice-pad"]')) afterPaint((t) => probe.padTaps.push(t - at));
    if (event.target.closest('[data-testid="confirm-roll"], [data-testid="move"], [data-testid="undo"]')) {
      const before = headline();
      const poll = () => requestAnimationFrame(() => {
        if (headline() !== before) { const c = new MessageChannel(); c.port1.onmessage = () => probe.acts.push(performance.now() - at); c.port2.postMessage(null); }
        else if (performance.now() - at < 10000) poll();
      });
      poll();
    }
  }, true);
  // The page put in the background and back, as a phone does: what the app reads is document.visibilityState and its event.
  let hidden = false;
  Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get() { return hidden ? 'hidden' : 'visible'; } });
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get() { return hidden; } });
  probe.setHidden = (h) => { hidden = h; document.dispatchEvent(new Event('visibilitychange')); };
})();`;

interface PageProbe {
  made: number;
  trips: number[];
  reads: number;
  padTaps: number[];
  measuringTaps: boolean;
  acts: number[];
  openBitmaps(): number;
  setHidden(hidden: boolean): void;
}

/**
 * The page's workers through the browser's CDP session (playwright's page sessions do not reach
 * them): attached one by one, their messages sent and answered through Target.sendMessageToTarget.
 */
class WorkerSessions {
  private nextId = 1;
  private readonly waiting = new Map<number, (result: unknown) => void>();
  private readonly attached = new Map<string, string>();

  constructor(private readonly browserCdp: CDPSession) {
    browserCdp.on('Target.receivedMessageFromTarget', (e: { message: string }) => {
      const reply = JSON.parse(e.message) as { id?: number; result?: unknown; error?: unknown };
      if (reply.id === undefined) return;
      this.waiting.get(reply.id)?.(reply.result ?? null);
      this.waiting.delete(reply.id);
    });
    browserCdp.on('Target.detachedFromTarget', (e: { sessionId: string }) => {
      for (const [target, session] of this.attached) if (session === e.sessionId) this.attached.delete(target);
    });
  }

  /** The dedicated workers alive now (service workers apart). */
  async workers(): Promise<string[]> {
    const { targetInfos } = (await this.browserCdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string }[] };
    return targetInfos.filter((t) => t.type === 'worker').map((t) => t.targetId);
  }

  async call<T>(targetId: string, method: string, params: object = {}): Promise<T | null> {
    let sessionId = this.attached.get(targetId);
    if (!sessionId) {
      sessionId = ((await this.browserCdp.send('Target.attachToTarget', { targetId, flatten: false })) as { sessionId: string }).sessionId;
      this.attached.set(targetId, sessionId);
    }
    const id = this.nextId++;
    const answer = new Promise<unknown>((resolve) => {
      this.waiting.set(id, resolve);
      // a worker gone meanwhile answers nothing
      setTimeout(() => {
        if (this.waiting.delete(id)) resolve(null);
      }, 10_000);
    });
    await this.browserCdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    return (await answer) as T | null;
  }
}

/** Resident memory (MB) of the browser's renderer processes, from /proc (Linux). */
async function rendererRss(browserCdp: CDPSession): Promise<number> {
  const { processInfo } = (await browserCdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
  let kb = 0;
  for (const p of processInfo.filter((p) => p.type === 'renderer')) {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p.id}/status`, 'utf8'));
      kb += m ? Number(m[1]) : 0;
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}

const median = (v: readonly number[]): number | null => {
  if (v.length === 0) return null;
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** A 5000 turn's points so far, from the rules' state (the family's `turn.total`). */
function turnTotal(state: MatchState): number {
  return (state.play as { turn?: { total?: number } } | undefined)?.turn?.total ?? 0;
}

/** Each multiset of `n` dice (252 for five). */
function diceSets(n: number, from = 1): number[][] {
  if (n === 0) return [[]];
  const out: number[][] = [];
  for (let d = from; d <= 6; d++) for (const rest of diceSets(n - 1, d)) out.push([d, ...rest]);
  return out;
}

/**
 * A roll that takes the player nearest 5000 without passing it (5000 is reached exactly: points
 * past it are given away or lost, and banking short of it may bump a player, for ever).
 */
export function finishingRoll(state: MatchState, n: number): number[] {
  let best: { dice: number[]; total: number } | null = null;
  for (const dice of diceSets(n)) {
    const next = tryAction(state, { type: 'roll', dice });
    if (!next.ok) continue;
    const view = viewMatch(state, null);
    const score = view.slate.rows.find((r) => r.player === view.current)?.score ?? 0;
    const total = score + turnTotal(next.state);
    // a bust starts the turn again: worth nothing
    if (turnTotal(next.state) === 0 || total > 5000) continue;
    if (!best || total > best.total) best = { dice, total };
  }
  return best?.dice ?? Array.from({ length: n }, () => 1);
}

/**
 * Plays the evening and samples it. `url`: the built app; the browser was launched with the fake
 * camera. The page's own errors fail the run.
 */
export async function soakEvening(browser: Browser, url: string, options: SoakOptions): Promise<SoakResult> {
  const random = seeded(options.seed);
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT, deviceScaleFactor: 1 });
  await context.grantPermissions(['camera']);
  const browserCdp = await browser.newBrowserCDPSession();
  const workerSessions = new WorkerSessions(browserCdp);
  const errors: string[] = [];
  try {
    const page = await context.newPage();
    // a tap that cannot land soon will not land: look again rather than wait
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.addInitScript({ content: PAGE_PROBES });
    await page.goto(url);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');

    const counts: SoakResult['counts'] = { actions: 0, cameraRolls: 0, padRolls: 0, banks: 0, undos: 0, games: 1, cameraToggles: 0, tableLeft: 0, hidden: 0, resyncs: 0 };
    const acts: SoakResult['acts'] = [];
    const samples: SoakSample[] = [];

    // ── the game, as the page keeps it, kept in Node too ──────────────────────────────────
    await page.getByTestId('new-game').click();
    await page.getByTestId('game-select').selectOption('five-thousand');
    for (const name of options.players) {
      await page.getByTestId('player-name').fill(name);
      await page.getByTestId('add-player').click();
    }
    await page.getByTestId('ante').fill(String(options.ante));
    await page.getByTestId('start-game').click();
    await page.getByTestId('headline').waitFor();
    const fresh = (): MatchState => createMatch({ game: 'five-thousand', players: [...options.players], options: { ante: options.ante } });
    /** The game's states, one a action: undo pops one. */
    let states: MatchState[] = [fresh()];
    const now = (): MatchState => states[states.length - 1]!;
    const headline = async (): Promise<string> => (await page.getByTestId('headline').textContent({ timeout: 30_000 })) ?? '';

    /** The page's stored log replayed: when the driver has lost step with the page. */
    const resync = async (): Promise<void> => {
      counts.resyncs++;
      // (a string: tsx would wrap the helpers of a function in one the page lacks)
      const stored = (await page.evaluate(`(async () => {
        const gameId = history.state?.screen?.gameId;
        if (!gameId) return null;
        const db = await new Promise((ok, fail) => { const r = indexedDB.open(${JSON.stringify(DB_NAME)}); r.onsuccess = () => ok(r.result); r.onerror = () => fail(r.error); });
        const tx = db.transaction(['games', 'actions'], 'readonly');
        const get = (req) => new Promise((ok, fail) => { req.onsuccess = () => ok(req.result); req.onerror = () => fail(req.error); });
        const game = await get(tx.objectStore('games').get(gameId));
        const records = await get(tx.objectStore('actions').getAll(IDBKeyRange.bound([gameId, 0], [gameId, Infinity])));
        db.close();
        return { game, actions: records.map((r) => r.action) };
      })()`)) as { game: { players: { name: string }[]; options: Record<string, string | number | boolean> }; actions: Action[] } | null;
      if (!stored) throw new Error('soak: no game at the table to resync with');
      const header = { game: 'five-thousand' as const, players: stored.game.players.map((p) => p.name), options: stored.game.options };
      // every state along the log, so that undo can go on popping
      const all: MatchState[] = [createMatch(header, { namesAsPlayed: true })];
      for (const action of stored.actions) {
        const next = tryAction(all[all.length - 1]!, action);
        if (!next.ok) break;
        all.push(next.state);
      }
      states = all;
    };

    /** After a tap that changes the game: the page's headline moved on to the mirror's, else resync. */
    const settled = async (before: string): Promise<void> => {
      try {
        await page.waitForFunction((h) => document.querySelector('[data-testid="headline"]')?.textContent !== h, before, { timeout: 15_000, polling: 50 });
      } catch {
        // the tap did not change the game (a refusal, a double tap dropped)
      }
      if ((await headline()) !== viewMatch(now(), null).headline) await resync();
    };
    const actLogLength = async (logLength: number): Promise<void> => {
      const latest = await page.evaluate(() => (window as unknown as { __soak: PageProbe }).__soak.acts.splice(0));
      for (const ms of latest) acts.push({ logLength, ms });
    };

    // ── what a player does ─────────────────────────────────────────────────────────────────
    const visible = async (testId: string): Promise<boolean> => (await page.getByTestId(testId).count()) > 0;
    /** Dice for `n` thrown: a bust (nothing scores: 2, 3, 4, 6 at most twice each) or some that score. */
    const rollFor = (n: number, kind: 'bust' | 'score' | 'ones'): number[] => {
      if (kind === 'ones') return Array.from({ length: n }, () => 1);
      if (kind === 'bust') {
        const bag = [2, 2, 3, 3, 4, 4, 6, 6];
        return Array.from({ length: n }, () => bag.splice(Math.floor(random() * bag.length), 1)[0]!);
      }
      const dice = Array.from({ length: n }, () => 1 + Math.floor(random() * 6));
      if (!dice.some((d) => d === 1 || d === 5)) dice[0] = random() < 0.5 ? 1 : 5;
      return dice;
    };
    const openPad = async (): Promise<void> => {
      if (await visible('dice-pad')) return;
      await page.getByTestId('dice-pad-toggle').click();
      await page.getByTestId('dice-pad').waitFor();
    };

    /**
     * One move of the evening. `mode`: `long` draws the game out (busts, small banks kept under
     * 4000), `play` plays it, `finish` ends it (ones, banked). Returns what it did.
     */
    const move = async (mode: 'long' | 'play' | 'finish'): Promise<void> => {
      const state = now();
      if (await visible('game-over')) {
        // now and then the end undone (a mistake), then played out again
        if (random() < 0.25 && (await visible('undo'))) {
          const before = await headline();
          await page.getByTestId('undo').click();
          await page.getByTestId('undo-confirm').click();
          states.pop();
          counts.undos++;
          await settled(before);
          return;
        }
        await page.getByTestId('play-again').click();
        await page.waitForFunction(() => document.querySelector('[data-testid="game-over"]') === null, undefined, { timeout: 30_000 });
        await page.getByTestId('headline').waitFor();
        states = [fresh()];
        counts.games++;
        if ((await headline()) !== viewMatch(now(), null).headline) await resync();
        return;
      }
      const proposal = page.getByTestId('camera-read');
      if ((await proposal.count()) > 0) {
        const source = await proposal.getAttribute('data-source');
        const seen = ((await proposal.textContent()) ?? '').split(' ').filter(Boolean).map(Number);
        const unread = await page.getByTestId('unread-die').count();
        const preview = previewRoll(state, seen);
        if (unread === 0 && preview.ok) {
          const before = await headline();
          const logLength = states.length - 1;
          await page.getByTestId('confirm-roll').click();
          states.push(applyAction(state, preview.action));
          counts.actions++;
          if (source === 'camera') counts.cameraRolls++;
          else counts.padRolls++;
          await settled(before);
          await actLogLength(logLength);
        } else {
          await page.getByRole('button', { name: 'Discard' }).click();
        }
        return;
      }
      const view = viewMatch(state, null);
      const bank = view.legal.find((m) => m.kind === 'action' && m.action.type === 'bank');
      const current = view.current === null ? null : view.slate.rows.find((r) => r.player === view.current);
      const high = (current?.score ?? 0) + turnTotal(state) >= 4000;
      // ending a game banks only what reaches 5000: banking 4400 lands on another's 4400 and bumps them, for ever
      const reaches = (current?.score ?? 0) + turnTotal(state) >= 5000;
      const wantBank = bank && ((mode === 'finish' && reaches) || (mode === 'play' && random() < 0.45) || (mode === 'long' && !high && random() < 0.3));
      if (bank && bank.kind === 'action' && wantBank) {
        const before = await headline();
        const logLength = states.length - 1;
        await page.getByRole('button', { name: bank.label, exact: true }).click();
        states.push(applyAction(state, bank.action));
        counts.actions++;
        counts.banks++;
        await settled(before);
        await actLogLength(logLength);
        return;
      }
      if (states.length > 1 && random() < 0.05 && (await visible('undo'))) {
        const before = await headline();
        const logLength = states.length - 1;
        await page.getByTestId('undo').click();
        states.pop();
        counts.undos++;
        await settled(before);
        await actLogLength(logLength);
        return;
      }
      const expect = expectRoll(state);
      if (!expect) throw new Error(`soak: nothing to do at "${view.headline}"`);
      const kind = mode === 'finish' ? 'ones' : mode === 'long' ? (high || random() < 0.6 ? 'bust' : 'score') : random() < 0.3 ? 'bust' : 'score';
      const dice = mode === 'finish' ? finishingRoll(state, expect.count) : rollFor(expect.count, kind);
      await openPad();
      const pad = page.getByTestId('dice-pad');
      // a proposal came meanwhile (the camera's), or dice were left tapped in: start clean
      if ((await proposal.count()) > 0) return;
      const clear = pad.getByRole('button', { name: 'Clear' });
      if (await clear.isEnabled()) await clear.click();
      for (const d of dice) await pad.locator(`button[data-face="${d}"]`).click();
      await page.getByTestId('dice-pad-done').click();
      await proposal.waitFor({ timeout: 10_000 }).catch(() => undefined);
    };

    // ── the evening's interruptions ────────────────────────────────────────────────────────
    const toggleCamera = async (): Promise<void> => {
      const toggle = page.getByTestId('camera-toggle');
      if ((await toggle.count()) === 0) return;
      await toggle.click(); // off
      await page.waitForTimeout(500);
      await toggle.click(); // on again: a new camera session
      counts.cameraToggles++;
    };
    const leaveTable = async (): Promise<void> => {
      await page.getByTestId('open-log').click();
      await page.getByTestId('game-log').waitFor();
      await page.waitForTimeout(500);
      await page.goBack();
      await page.getByTestId('headline').waitFor();
      counts.tableLeft++;
    };
    const background = async (): Promise<void> => {
      await page.evaluate(() => (window as unknown as { __soak: PageProbe }).__soak.setHidden(true));
      await page.waitForTimeout(1500);
      await page.evaluate(() => (window as unknown as { __soak: PageProbe }).__soak.setHidden(false));
      counts.hidden++;
    };

    // ── a sample ───────────────────────────────────────────────────────────────────────────
    let lastSampleAt = performance.now();
    let tapsDue = false;
    let lastReads = 0;
    const started = performance.now();
    const tapWindow = async (): Promise<number | null> => {
      // only with a roll awaited, no proposal up and the pad open: a die in, out again
      if (!expectRoll(now()) || (await visible('camera-read')) || (await visible('game-over'))) return null;
      await openPad();
      const pad = page.getByTestId('dice-pad');
      const clear = pad.getByRole('button', { name: 'Clear' });
      if (await clear.isEnabled()) await clear.click();
      await pad.locator('button[data-face="2"]').click();
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: options.throttle });
      await page.evaluate(() => {
        const p = (window as unknown as { __soak: PageProbe }).__soak;
        p.padTaps = [];
        p.measuringTaps = true;
      });
      try {
        for (let i = 0; i < options.tapsPerSample; i++) {
          await page.waitForTimeout(300);
          if ((await visible('camera-read'))) break;
          if (i % 2 === 0) await pad.locator('button[data-face="3"]').click({ timeout: 5000 });
          else await pad.locator('.slot.filled').nth(1).click({ timeout: 5000 });
        }
        await page.waitForTimeout(300);
      } catch {
        // a proposal moved the pad meanwhile: the taps so far count
      } finally {
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      }
      const taps = await page.evaluate(() => {
        const p = (window as unknown as { __soak: PageProbe }).__soak;
        p.measuringTaps = false;
        return p.padTaps.splice(0);
      });
      if ((await clear.count()) > 0 && (await clear.isEnabled())) await clear.click();
      return median(taps);
    };
    const sample = async (): Promise<void> => {
      await cdp.send('HeapProfiler.collectGarbage');
      const workerIds = await workerSessions.workers();
      let workerHeap = 0;
      for (const id of workerIds) {
        await workerSessions.call(id, 'HeapProfiler.collectGarbage');
        const usage = await workerSessions.call<{ usedSize: number }>(id, 'Runtime.getHeapUsage');
        workerHeap += usage?.usedSize ?? 0;
      }
      await cdp.send('HeapProfiler.collectGarbage');
      const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
      const metric = (name: string): number => metrics.find((m) => m.name === name)?.value ?? 0;
      const page1 = await page.evaluate(() => {
        const p = (window as unknown as { __soak: PageProbe }).__soak;
        return { open: p.openBitmaps(), reads: p.reads, trips: p.trips.splice(0) };
      });
      const at = performance.now();
      const framesPerSecond = (page1.reads - lastReads) / ((at - lastSampleAt) / 1000);
      lastReads = page1.reads;
      lastSampleAt = at;
      // the taps wait for a moment with a roll awaited and no proposal up (tapsDue)
      const tapMs = await tapWindow();
      tapsDue = tapMs === null;
      samples.push({
        t: (at - started) / 1000,
        pageHeapMb: metric('JSHeapUsedSize') / 1024 / 1024,
        nodes: metric('Nodes'),
        listeners: metric('JSEventListeners'),
        workers: workerIds.length,
        workerHeapMb: workerHeap / 1024 / 1024,
        rendererRssMb: await rendererRss(browserCdp),
        openBitmaps: page1.open,
        tapMs,
        framesPerSecond,
        readMs: median(page1.trips),
        logLength: states.length - 1,
      });
    };

    // ── the evening ────────────────────────────────────────────────────────────────────────
    await page.locator('[data-testid="table-camera"][data-reader="ready"]').waitFor({ timeout: 120_000 });
    await page.waitForTimeout(3000);
    lastReads = await page.evaluate(() => (window as unknown as { __soak: PageProbe }).__soak.reads);
    lastSampleAt = performance.now();
    await sample();
    const endAt = started + options.minutes * 60_000;
    let nextSample = performance.now() + options.sampleSeconds * 1000;
    let steps = 0;
    let mode: 'long' | 'play' | 'finish' = 'long';
    let firstGame = true;
    while (performance.now() < endAt) {
      const log = states.length - 1;
      if (firstGame && mode === 'long' && (log >= options.longGameActions || performance.now() - started > options.minutes * 60_000 * 0.6)) mode = 'finish';
      if (!firstGame) mode = log >= 40 ? 'finish' : 'play';
      const games = counts.games;
      try {
        await move(mode);
      } catch (error) {
        if (errors.length) break;
        // a tap that missed (the screen moved under it): look again
        const said = error instanceof Error ? error.message.split('\n').filter((l) => !/^\s*$/.test(l)).slice(0, 3).join(' / ') : String(error);
        console.error(`soak: ${said} (at "${viewMatch(now(), null).headline}")`);
        await page.getByRole('button', { name: 'Discard' }).click({ timeout: 2000 }).catch(() => undefined);
        await resync().catch(() => undefined);
      }
      if (counts.games > games) firstGame = false;
      steps++;
      if (steps % 45 === 0) await toggleCamera();
      if (steps % 70 === 0) await leaveTable();
      if (steps % 55 === 0) await background();
      if (performance.now() >= nextSample) {
        await sample();
        nextSample = performance.now() + options.sampleSeconds * 1000;
      } else if (tapsDue) {
        const tapMs = await tapWindow();
        if (tapMs !== null) {
          samples[samples.length - 1]!.tapMs = tapMs;
          tapsDue = false;
        }
      }
    }
    await sample();
    if (errors.length) throw new Error(`soak: the page failed: ${errors.join('; ')}`);
    return { samples, acts, counts, seconds: (performance.now() - started) / 1000 };
  } finally {
    await browserCdp.detach().catch(() => undefined);
    await context.close();
  }
}

/** Least-squares slope of `y` against `x`. */
export function slope(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  if (n < 2) return 0;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (x[i]! - mx) * (y[i]! - my);
    den += (x[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** A series' median over the first and last fifth of the samples (at least one each), and its slope an hour: over all of them, and over their second half. */
export function trend(samples: readonly SoakSample[], pick: (s: SoakSample) => number | null): { first: number; last: number; perHour: number; perHourLate: number } | null {
  const points = samples.flatMap((s) => {
    const v = pick(s);
    return v === null || !Number.isFinite(v) ? [] : [{ t: s.t, v }];
  });
  if (points.length < 2) return null;
  const fifth = Math.max(1, Math.floor(points.length / 5));
  return {
    first: median(points.slice(0, fifth).map((p) => p.v))!,
    last: median(points.slice(-fifth).map((p) => p.v))!,
    perHour: slope(points.map((p) => p.t / 3600), points.map((p) => p.v)),
    // the second half alone: a figure that grows while the page warms up and then stays (memory
    // the allocator keeps) is no leak; one still growing there is
    perHourLate: slope(points.slice(points.length >> 1).map((p) => p.t / 3600), points.slice(points.length >> 1).map((p) => p.v)),
  };
}
