import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { appSession, fakeCameraFile, launch, ROOT, watchErrors, type BrowserSession } from './harness.ts';
import { startGame } from './table-helpers.ts';
import { commonUse, controls, monkeyFailure, mulberry32, offered, pageProblem, PHONE_BACK, settle, tap, useControl, type Control, type Walk } from './monkey.ts';

const app = appSession({ open: false });

/**
 * A seeded monkey at the table: a player tapping whatever the table offers, sense or nonsense, in
 * every game, on a phone held upright. After each tap the table must still hold together: no
 * error in the page, nothing off the screen, no control left disabled, a refusal that changes
 * nothing, the pot whole, and (every few taps) the same table after a reload as before it, since
 * the state shown live must be the one replayed from the stored log.
 *
 * The same monkey also plays with the camera on, a fake one showing five dice (the fixture photo
 * table-camera.test.ts reads), so that reads proposed while the player taps race the taps.
 *
 * CI runs a short walk per game, and with the camera two games. A longer hunt, or the replay of a
 * failure (its message names the seed):
 * MONKEY_SEEDS=7,8 MONKEY_STEPS=400 MONKEY_CAMERA_GAMES=five-thousand,tug npx vitest run --project browser tests/browser/table-monkey.test.ts
 */
const STEPS = Number(process.env.MONKEY_STEPS ?? 20);
const SEEDS = (process.env.MONKEY_SEEDS ?? '20261206').split(',').map(Number);
/** A reload every so many steps: each one costs the app's start, so not after every tap. */
const RELOAD_EVERY = 5;
const ANTE = 2;
/** The games the camera monkey plays: the product's own path and one that throws a die at a time. */
const CAMERA_GAMES = (process.env.MONKEY_CAMERA_GAMES ?? 'five-thousand,hi-low').split(',');
const CAMERA_PHOTO = join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg');

/** Each game with as many players as it takes (Tug and War are for two). */
const TABLES: { game: string; players: string[] }[] = [
  { game: 'point-five', players: ['Ann', 'Bob', 'Cy'] },
  { game: 'five-thousand', players: ['Ann', 'Bob', 'Cy'] },
  { game: 'big-roll-5000', players: ['Ann', 'Bob', 'Cy'] },
  { game: 'face-off', players: ['Ann', 'Bob', 'Cy'] },
  { game: 'detective', players: ['Ann', 'Bob', 'Cy'] },
  { game: 'dominoes', players: ['Ann', 'Bob'] },
  { game: 'hi-low', players: ['Ann', 'Bob'] },
  { game: 'tug', players: ['Ann', 'Bob'] },
  { game: 'war', players: ['Ann', 'Bob'] },
];

/**
 * Controls the monkey leaves alone, and why: each leaves the app or ends the game for good.
 * - the photo buttons open the phone's camera or file picker, outside the page (table-photo.test.ts);
 * - the exports download a file (the log's own tests);
 * - abandoning and deleting close or remove the game for good, behind a question the monkey may
 *   still open and answer "keep" (table-mistakes.test.ts confirms them): with the game gone or
 *   closed there is nothing left to tap at.
 */
const SKIPPED_TEST_IDS = new Set(['roll-photo-take', 'roll-photo-pick', 'export-json', 'export-csv', 'abandon-confirm']);
const SKIPPED_NAMES = new Set(['Delete for good']);

/**
 * Every visible, enabled control on the screen but those skipped. On Home only the game lists count
 * (Resume, View): the other screens from there (settings, kits, a new game) are the screens
 * monkey's (screens-monkey.test.ts).
 */
async function tableControls(page: Page): Promise<Control[]> {
  const all = await controls(page, { inputs: 'checkboxes', homeGameListOnly: true });
  return all.filter((c) => !(c.testId !== null && SKIPPED_TEST_IDS.has(c.testId)) && !SKIPPED_NAMES.has(c.name));
}

/** What the table shows of the game (null off the table or on a private screen). */
interface TableShown {
  headline: string;
  current: string | null;
  phase: string | null;
  pot: string;
  slate: string;
  details: string;
  over: string | null;
}

/** The page as the checks see it, read in one go (each round trip to the page costs a little). */
interface Seen {
  table: TableShown | null;
  refusal: string | null;
  scores: string[];
  payout: string | null;
  /** Controls disabled with nothing to wait for, or at odds with what they say. */
  stuck: string[];
}

/** Controls disabled only while an action is written (`busy`): once the page settled, never. */
const BUSY_ONLY = ['move', 'undo', 'undo-confirm', 'choose-dice-open', 'abandon', 'play-again'];

async function look(page: Page): Promise<Seen> {
  return page.evaluate((busyOnly) => {
    const text = (testId: string): string | null => {
      const el = document.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
      return el ? el.innerText.trim() : null;
    };
    const headline = text('headline');
    const over = document.querySelector<HTMLElement>('[data-testid="game-over"]');
    const table =
      headline === null
        ? null
        : {
            headline,
            current: text('current-player'),
            phase: text('phase'),
            pot: text('pot') ?? '',
            slate: text('slate') ?? '',
            details: text('game-details') ?? '',
            // the heading and payout: the session ledger below them loads on its own time
            over: over ? `${over.querySelector('h2')?.textContent ?? ''} ${text('payout') ?? ''}`.trim() : null,
          };
    const stuck: string[] = [];
    for (const id of busyOnly) {
      for (const el of document.querySelectorAll<HTMLButtonElement>(`[data-testid="${id}"]`)) {
        if (el.disabled) stuck.push(`${id} "${el.textContent?.trim()}" disabled with nothing being written`);
      }
    }
    for (const pad of document.querySelectorAll('[data-testid="dice-pad"]')) {
      const slots = pad.querySelectorAll('.slot').length;
      const filled = pad.querySelectorAll('.slot.filled').length;
      const faces = [...pad.querySelectorAll<HTMLButtonElement>('button[data-face]')];
      const done = pad.querySelector<HTMLButtonElement>('[data-testid="dice-pad-done"]');
      const full = filled === slots;
      if (slots === 0) stuck.push('a dice pad for no dice');
      if (faces.some((f) => f.disabled !== full)) stuck.push(`pad faces ${full ? 'enabled' : 'disabled'} with ${filled} of ${slots} dice in`);
      if (done && done.disabled === full) stuck.push(`pad's done ${full ? 'disabled' : 'enabled'} with ${filled} of ${slots} dice in`);
    }
    for (const confirm of document.querySelectorAll<HTMLButtonElement>('[data-testid="choose-dice-confirm"]')) {
      const ready = /^Confirm \d/.test(confirm.textContent?.trim() ?? '');
      if (confirm.disabled === ready) stuck.push(`choose-dice confirm "${confirm.textContent?.trim()}" ${ready ? 'disabled' : 'enabled'}`);
    }
    return {
      table,
      refusal: text('rule-error'),
      scores: [...document.querySelectorAll('[data-testid="slate-row"] [data-testid="score"]')].map((s) => s.textContent ?? ''),
      payout: text('payout'),
      stuck,
    };
  }, BUSY_ONLY);
}

/** The chips: while the game is on, every ante is in the pot; at its end the pot went to the winners. */
function chipProblems(seen: Seen, players: number): string[] {
  const table = seen.table;
  if (!table) return [];
  const paidIn = ANTE * players;
  const pot = Number(table.pot);
  if (table.pot === '' || !Number.isInteger(pot) || pot < 0) return [`pot "${table.pot}"`];
  if (seen.scores.some((s) => s.trim() === '' || !Number.isFinite(Number(s)))) return [`scores ${JSON.stringify(seen.scores)}`];
  if (table.over === null) return pot === paidIn ? [] : [`pot ${pot} in play, ${paidIn} paid in`];
  const payout = seen.payout ?? '';
  const paidOut = /The pot was empty/.test(payout) ? 0 : Number(/from the pot of (\d+)/.exec(payout)?.[1] ?? Number.NaN);
  return pot + paidOut === paidIn ? [] : [`game over: pot ${pot} + paid out ${paidOut} ≠ ${paidIn} paid in ("${payout}")`];
}

/**
 * `seed`: the run's (MONKEY_SEEDS replays it); each game walks its own stream of it. With the
 * camera the monkey leaves it on (turning it off would end the race this walk is for), and now and
 * then waits for the dice to be read before it taps, as a player looking at them would.
 */
async function walk(page: Page, errors: string[], seed: number, game: number, camera: boolean): Promise<void> {
  const table = TABLES[game]!;
  const random = mulberry32(seed + game * 7919);
  // what was tapped, for the trail a failure prints
  const trail: string[] = [];
  const fail = (step: number, what: string): never => {
    throw monkeyFailure(`MONKEY_SEEDS=${seed} MONKEY_STEPS=${STEPS}`, `${table.game}${camera ? ' with the camera' : ''}`, step, what, trail);
  };
  const run: Walk = { page, errors, trail, fail, vanished: 0 };
  let before = await look(page);
  for (let step = 1; step <= STEPS; step++) {
    if (camera && random() < 0.5) {
      await page.getByTestId('camera-read').waitFor({ timeout: 3000 }).catch(() => undefined);
      await settle(page);
    }
    const options = await offered(page, async () => (await tableControls(page)).filter((c) => !(camera && c.testId === 'camera-toggle')));
    if (options.length === 0) fail(step, `nothing to tap at ${page.url()}: "${await page.evaluate(() => document.body.innerText.slice(0, 300))}"`);
    // the phone's own back button too, off Home (from Home it leaves the app, as it should)
    const onHome = (await page.getByTestId('new-game').count()) > 0;
    const choices = onHome ? options : [...options, PHONE_BACK];
    const picked = choices[Math.floor(random() * choices.length)]!;
    // now and then a double tap: the second lands on whatever the first put under the finger
    const double = random() < 0.1;
    const target = page.locator(`[data-monkey="${picked.index}"]`);
    // the table offers buttons and checkboxes: the phone's Back is the one use shared with the screens
    const used = await useControl(run, step, '', picked, commonUse(run, picked, random, [], 0) ?? ((say) => tap(target, double, say)));
    if (!used) {
      step--;
      continue;
    }
    await settle(page);
    const problem = await pageProblem(page, errors);
    if (problem) fail(step, problem);
    const after = await look(page);
    if (after.stuck.length > 0) fail(step, after.stuck.join('; '));
    // a refusal said now: the table is as it was
    if (after.table && before.table && after.refusal !== null && after.refusal !== before.refusal && JSON.stringify(after.table) !== JSON.stringify(before.table)) {
      fail(step, `refused ("${after.refusal}") but the table changed:\n${JSON.stringify(before.table)}\n→ ${JSON.stringify(after.table)}`);
    }
    const chips = chipProblems(after, table.players.length);
    if (chips.length > 0) fail(step, chips.join('; '));
    if (after.table && step % RELOAD_EVERY === 0) {
      trail.push(`${step}: reload`);
      await page.reload();
      await page
        .getByTestId('headline')
        .waitFor()
        .catch(async () => fail(step, `no table after the reload, at ${page.url()}: "${await page.evaluate(() => document.body.innerText.slice(0, 400))}"`));
      await settle(page);
      const reloaded = await look(page);
      if (JSON.stringify(reloaded.table) !== JSON.stringify(after.table)) fail(step, `the reload shows another table:\n${JSON.stringify(after.table)}\n→ ${JSON.stringify(reloaded.table)}`);
      before = reloaded;
    } else before = after;
  }
}

/** One game's walk on a phone held upright, in a context of its own so that it starts from an empty store. */
async function playFresh(browser: Browser, seed: number, g: number, camera: boolean): Promise<void> {
  const table = TABLES[g]!;
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 1 });
  if (camera) await context.grantPermissions(['camera']);
  const page = await context.newPage();
  const errors = watchErrors(page);
  try {
    await page.goto(app.server.url);
    await startGame(page, table.game, table.players, ANTE);
    if (camera) await page.locator('[data-testid="camera-view"][data-state="live"]').waitFor({ timeout: 30_000 });
    await settle(page);
    await walk(page, errors, seed, g, camera);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}

describe('a monkey at the table', () => {
  for (const seed of SEEDS) {
    TABLES.forEach((table, g) => {
      it(`${table.game}: ${STEPS} random taps (seed ${seed})`, { timeout: 60_000 + STEPS * 1500 }, async () => {
        await playFresh(app.session.browser, seed, g, false);
      });
    });
  }
});

describe('a monkey at the table, the camera reading five dice', () => {
  let cameraBrowser: BrowserSession;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const camera = await fakeCameraFile(readFileSync(CAMERA_PHOTO), 640, 480);
    cleanup = camera.cleanup;
    cameraBrowser = await launch({ camera: camera.path });
  });

  afterAll(async () => {
    await cameraBrowser?.close();
    await cleanup?.();
  });

  for (const seed of SEEDS) {
    for (const game of CAMERA_GAMES) {
      const g = TABLES.findIndex((t) => t.game === game);
      it(`${game} with the camera: ${STEPS} random taps (seed ${seed})`, { timeout: 90_000 + STEPS * 2000 }, async () => {
        expect(g, `MONKEY_CAMERA_GAMES names ${game}, which is not one of the tables`).toBeGreaterThanOrEqual(0);
        await playFresh(cameraBrowser.browser, seed, g, true);
      });
    }
  }
});
