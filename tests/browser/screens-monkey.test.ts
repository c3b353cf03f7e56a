import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, FileChooser, Page } from 'playwright-core';
import { appSession, watchErrors } from './harness.ts';
import { bigHistory } from '../../scripts/lib/big-history.ts';
import { MAX_FACES, MIN_FACES } from '../../src/lib/dice/index.ts';
import { commonUse, controls, monkeyFailure, mulberry32, offered, pageProblem, PHONE_BACK, pick, reloadStep, settle, storedRecords, tap, useControl, type Control, type Walk } from './monkey.ts';

const app = appSession({ open: false });

/**
 * A seeded monkey on the screens around the table: Home, New game, History, Settings, Dice kits,
 * New kit and Camera check (this browser has no camera). It taps whatever is offered, types nasty
 * names and odd numbers into the fields, picks options, ticks boxes, feeds the file pickers broken
 * files (and a real backup), uses the phone's Back and reloads now and then. After each step: no
 * error in the page, nothing off the screen or too small to tap, no control left disabled with
 * nothing going on; after each reload the same screen again, and whatever the monkey made (a game
 * started, a kit made) really in the store and shown (Home lists every game in progress, Dice kits
 * every taught set).
 *
 * The store starts with a history of finished games (more than History shows at once, so that
 * "Show more" is offered), restored from a backup through Settings.
 *
 * CI runs one short walk. A longer hunt, or the replay of a failure (its message names the seed):
 * MONKEY_SEEDS=7,8 MONKEY_STEPS=300 npx vitest run --project browser tests/browser/screens-monkey.test.ts
 */
const STEPS = Number(process.env.MONKEY_STEPS ?? 120);
const SEEDS = (process.env.MONKEY_SEEDS ?? '20261207').split(',').map(Number);
/** The chance of a reload before a step: each one costs the app's start, so not every time. */
const RELOAD_CHANCE = 0.08;
/** Finished games in the store at the start: History shows 50 at a time. */
const HISTORY_GAMES = 56;

/** What a player (or a cat on the phone) types into a text field. */
const NASTY_TEXT = [
  '',
  ' ',
  '  \t  ',
  'Ann',
  'ann ',
  '  ANN',
  'Bob',
  'Cy',
  'Zoë',
  'Zoe\u0308',
  '<b>Bold</b>',
  '<img src=x onerror=alert(1)>',
  '"; DROP TABLE players; --',
  '{{name}} ${name}',
  'שרה',
  'مريم الأحمد',
  '\u202Egnol\u202C',
  'Ann\u200B',
  '👩‍👩‍👧‍👦',
  '🎲🎲🎲',
  'W'.repeat(40),
  'Alexandria Constantinople-Featherstonehaugh the Third',
  'x'.repeat(300),
  '0',
  '-1',
  '1.5',
  'NaN',
  'null',
  '1e309',
];

/** What goes into a number field (letters are typed, as a number field takes no fill of them). */
const ODD_NUMBERS = ['-1', '1.5', '99999', '', 'abc', '0', '2', '1e3', '-0', '0.1', '10', '007', '1e309', 'e'];

/** Files fed to the file pickers: every one broken but the backup the store started from. */
const FILES: { name: string; text: string | Buffer }[] = [
  { name: 'empty.json', text: '' },
  { name: 'cut-short.json', text: '{"format":"rollcall-backup","version":2,"games":[' },
  { name: 'null.json', text: 'null' },
  { name: 'list.json', text: '[]' },
  { name: 'object.json', text: '{}' },
  { name: 'too-new.json', text: '{"format":"rollcall-backup","version":999,"games":[]}' },
  { name: 'transcript-ish.json', text: '{"format":"rollcall-transcript","version":1,"game":{"game":"war"},"actions":[{}]}' },
  { name: 'kit-ish.json', text: '{"format":"rollcall-kit","version":1,"kit":{"id":"x","faces":[]},"photos":[]}' },
  { name: 'photo.json', text: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xfe]) },
  { name: 'backup.json', text: '' /* the history's backup, filled in beforeAll */ },
];

/**
 * What the monkey leaves alone, and why:
 * - the table, the game log and teaching (the table monkey's, and teaching needs a camera): there
 *   it only goes back;
 * - replacing everything with a backup that holds games: it removes, for good, the games the
 *   monkey started (which it checks stay in the store); a broken file is fed instead, which must
 *   change nothing.
 */
const ONLY_BACK_ON = new Set(['game', 'log', 'teach']);
/** A game's button in a list of games (Home's, History's). */
const GAME_IN_LIST = /^(Resume|View|Log): /;

const { backup } = bigHistory({ games: HISTORY_GAMES, sessions: 8, seed: 11 });

/** The store as read straight from IndexedDB: every game (id, status, players' names) and taught set. */
interface Stored {
  games: { id: string; status: string; players: string[] }[];
  sets: string[];
}

async function stored(page: Page): Promise<Stored> {
  const { games, taughtSets } = await storedRecords(page, ['games', 'taughtSets']);
  return {
    games: (games as { id: string; status: string; players: { name: string }[] }[]).map((g) => ({ id: g.id, status: g.status, players: g.players.map((p) => p.name) })),
    sets: (taughtSets as { id: string }[]).map((set) => set.id),
  };
}

/** The screen shown (main's data-screen), and the history entry's own (gameId, setId). */
async function where(page: Page): Promise<{ screen: string; gameId: string | null; setId: string | null }> {
  return page.evaluate(() => {
    const state = history.state as { screen?: { gameId?: string; setId?: string } } | null;
    return {
      screen: document.querySelector('main')?.getAttribute('data-screen') ?? '',
      gameId: state?.screen?.gameId ?? null,
      setId: state?.screen?.setId ?? null,
    };
  });
}

/** Controls disabled with nothing going on, or at odds with where they stand. */
async function stuck(page: Page): Promise<string[]> {
  return page.evaluate(
    ({ minFaces, maxFaces }) => {
      const found: string[] = [];
      // disabled only while something is written or read (busy): once the page settled, never
      for (const id of ['start-game', 'backup-export', 'create-kit', 'history-more', 'import-kit', 'new-game', 'new-kit', 'camera-check']) {
        for (const el of document.querySelectorAll<HTMLButtonElement | HTMLInputElement>(`[data-testid="${id}"]`)) {
          if (el.disabled) found.push(`${id} disabled with nothing going on`);
        }
      }
      for (const el of document.querySelectorAll<HTMLButtonElement>('button')) {
        const text = el.textContent?.trim() ?? '';
        if (el.disabled && /^(Import a backup…|Import a transcript…|Back)$/.test(el.getAttribute('aria-label') ?? text)) found.push(`"${text}" disabled with nothing going on`);
      }
      // New game's seats: up is off only for the first, down only for the last
      const seats = [...document.querySelectorAll('[data-testid="seat"]')];
      seats.forEach((seat, i) => {
        const up = seat.querySelector<HTMLButtonElement>('[data-move="-1"]');
        const down = seat.querySelector<HTMLButtonElement>('[data-move="1"]');
        if (up && up.disabled !== (i === 0)) found.push(`seat ${i + 1} of ${seats.length}: up ${up.disabled ? 'disabled' : 'enabled'}`);
        if (down && down.disabled !== (i === seats.length - 1)) found.push(`seat ${i + 1} of ${seats.length}: down ${down.disabled ? 'disabled' : 'enabled'}`);
      });
      // New kit's faces: remove is off only at the fewest faces, add only at the most
      const faces = document.querySelectorAll('[data-testid="face-label"]').length;
      if (faces > 0) {
        for (const remove of document.querySelectorAll<HTMLButtonElement>('button[aria-label^="Remove face"]')) {
          if (remove.disabled !== faces <= minFaces) found.push(`${remove.getAttribute('aria-label')} ${remove.disabled ? 'disabled' : 'enabled'} with ${faces} faces`);
        }
        const add = [...document.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.trim() === 'Add a face');
        if (add && add.disabled !== faces >= maxFaces) found.push(`Add a face ${add.disabled ? 'disabled' : 'enabled'} with ${faces} faces`);
      }
      return found;
    },
    { minFaces: MIN_FACES, maxFaces: MAX_FACES },
  );
}

/** The seats' names as typed, on New game (for what the started game must hold). */
async function seatNames(page: Page): Promise<string[]> {
  return page.evaluate(() => [...document.querySelectorAll<HTMLInputElement>('[data-testid="seat"] input')].map((i) => i.value));
}

async function walk(page: Page, errors: string[], seed: number, files: string[]): Promise<void> {
  const random = mulberry32(seed);
  const trail: string[] = [];
  const fail = (step: number, what: string): never => {
    throw monkeyFailure(`MONKEY_SEEDS=${seed} MONKEY_STEPS=${STEPS}`, 'the screens', step, what, trail);
  };
  const run: Walk = { page, errors, trail, fail, vanished: 0 };
  /** What the monkey made: the games it started and the taught sets it made, by id. */
  const games = new Set<string>();
  const sets = new Set<string>();
  /** The file the next file picker gets (picked before each step, so the walk replays). */
  let nextFile = 0;
  page.on('filechooser', (chooser: FileChooser) => {
    void (async () => {
      let file = nextFile;
      // replacing everything with the history's backup would remove the games the monkey started
      const replacing = await page.evaluate(() => document.querySelector<HTMLInputElement>('input[name="import-mode"][value="replace"]')?.checked === true);
      if (replacing && FILES[file]!.name === 'backup.json') file = 0;
      trail.push(`   (file picker given ${FILES[file]!.name})`);
      await chooser.setFiles(files[file]!);
    })().catch(() => undefined);
  });

  /** The store holds what the monkey made, and the screen shows it (after a reload). */
  const checkStore = async (step: number): Promise<void> => {
    const now = await stored(page);
    const ids = new Set(now.games.map((g) => g.id));
    for (const id of games) if (!ids.has(id)) fail(step, `game ${id}, started by the monkey, is not in the store`);
    for (const id of sets) if (!now.sets.includes(id)) fail(step, `taught set ${id}, made by the monkey, is not in the store`);
    const at = await where(page);
    if (at.screen === 'home') {
      const active = now.games.filter((g) => g.status === 'active').length;
      await page.getByRole('heading', { name: 'In progress' }).waitFor();
      const shown = await page.locator('section[aria-labelledby="active-heading"] [data-testid="game-list"] > li').count();
      if (shown !== active) fail(step, `Home lists ${shown} games in progress, the store holds ${active}`);
    }
    if (at.screen === 'kits') {
      await page.getByTestId('own-kits').waitFor();
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="taught-set"]').length >= n, sets.size).catch(() => undefined);
      const shown = await page.evaluate(() => [...document.querySelectorAll('[data-testid="taught-set"]')].map((s) => s.getAttribute('data-set-id')));
      for (const id of now.sets) if (!shown.includes(id)) fail(step, `taught set ${id} is in the store but not on Dice kits (${JSON.stringify(shown)})`);
    }
  };

  /** Steps taken on each screen, said at the end (what a walk reached). */
  const visits: Record<string, number> = {};
  for (let step = 1; step <= STEPS; step++) {
    nextFile = Math.floor(random() * FILES.length);
    if (random() < RELOAD_CHANCE) {
      await reloadStep(run, step);
      await checkStore(step);
      continue;
    }
    const at = await where(page);
    visits[at.screen] = (visits[at.screen] ?? 0) + 1;
    let options = await offered(page, () => controls(page, { inputs: 'all' }));
    if (ONLY_BACK_ON.has(at.screen)) options = options.filter((c) => c.name === 'Back' || /^Back to the dice kits$/.test(c.name));
    const choices: Control[] = at.screen === 'home' ? options : [...options, PHONE_BACK];
    if (choices.length === 0) fail(step, `nothing to use on ${at.screen}: "${await page.evaluate(() => document.body.innerText.slice(0, 300))}"`);
    // a list of games (History's 50) counts as one control, else the walk would hardly leave it
    const listed = choices.filter((c) => GAME_IN_LIST.test(c.name));
    const slots: (Control | Control[])[] = [...choices.filter((c) => !GAME_IN_LIST.test(c.name)), ...(listed.length > 0 ? [listed] : [])];
    const slot = pick(random, slots);
    const picked = Array.isArray(slot) ? pick(random, slot) : slot;
    const target = page.locator(`[data-monkey="${picked.index}"]`);
    const seatsBefore = picked.testId === 'start-game' ? await seatNames(page) : [];
    const used = await useControl(
      run,
      step,
      at.screen,
      picked,
      commonUse(run, picked, random, NASTY_TEXT, 0.4) ??
        (async (say) => {
          if (picked.kind === 'number') {
            const value = pick(random, ODD_NUMBERS);
            say(`type ${JSON.stringify(value)}`);
            if (value === '' || Number.isFinite(Number(value))) await target.fill(value, { timeout: 5000 });
            else {
              await target.fill('', { timeout: 5000 });
              await target.pressSequentially(value, { timeout: 5000 });
            }
            if (random() < 0.3) await target.press('Enter');
          } else if (picked.kind === 'range') {
            const value = (0.3 + Math.floor(random() * 18) / 10).toFixed(1);
            say(`slide to ${value}`);
            await target.fill(value, { timeout: 5000 });
          } else await tap(target, random() < 0.1, say);
        }),
    );
    if (!used) {
      step--;
      continue;
    }
    await settle(page);
    const problem = await pageProblem(page, errors);
    if (problem) fail(step, problem);
    // a control off while something runs unseen (a backup being written) is given time to finish
    let stuckNow = await stuck(page);
    for (let wait = 0; stuckNow.length > 0 && wait < 50; wait++) {
      await page.waitForTimeout(100);
      stuckNow = await stuck(page);
    }
    if (stuckNow.length > 0) fail(step, stuckNow.join('; '));
    await settle(page);
    const now = await where(page);
    if (!(await page.locator('main h1').count()) && !(await page.locator('main [role="status"]').count())) fail(step, `no heading on ${now.screen}`);
    // a game started: in the store with the names as typed
    if (at.screen === 'new-game' && now.screen === 'game' && now.gameId) {
      games.add(now.gameId);
      const game = (await stored(page)).games.find((g) => g.id === now.gameId);
      if (!game) fail(step, `the game started (${now.gameId}) is not in the store`);
      // the store keeps a name trimmed and composed (NFC: "Zoe" and a combining diaeresis is "Zoë")
      const typed = seatsBefore.map((n) => n.trim().normalize('NFC'));
      if (JSON.stringify(game!.players) !== JSON.stringify(typed)) fail(step, `the game started with ${JSON.stringify(game!.players)}, the seats said ${JSON.stringify(typed)}`);
    }
    // a taught set made (a new kit, or teaching a kit): in the store
    if (now.screen === 'teach' && at.screen !== 'teach' && now.setId) {
      sets.add(now.setId);
      if (!(await stored(page)).sets.includes(now.setId)) fail(step, `the taught set made (${now.setId}) is not in the store`);
    }
    // a taught set deleted on purpose: "Delete <name>" after "Delete…" (a double tap on "Delete…"
    // cannot reach it: the question stands between)
    if (picked.set && /^Delete (?!…)/.test(picked.name) && at.screen === 'kits') sets.delete(picked.set);
  }
  await checkStore(STEPS);
  console.log(`screens monkey, seed ${seed}: steps by screen ${JSON.stringify(visits)}; ${games.size} games started, ${sets.size} taught sets kept`);
}

async function walkFresh(browser: Browser, seed: number, files: string[]): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = watchErrors(page);
  try {
    await page.goto(app.server.url);
    // the history, restored from its backup through Settings
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('backup-file').setInputFiles(files[FILES.findIndex((f) => f.name === 'backup.json')]!);
    await page.getByTestId('backup-message').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('backup-message').textContent()).toBe(`Imported ${HISTORY_GAMES} games.`);
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByTestId('new-game').waitFor();
    await settle(page);
    await walk(page, errors, seed, files);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}

describe('a monkey on the screens around the table', () => {
  let dir: string;
  const files: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rollcall-monkey-'));
    for (const file of FILES) {
      const path = join(dir, file.name);
      await writeFile(path, file.name === 'backup.json' ? JSON.stringify(backup) : file.text);
      files.push(path);
    }
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  for (const seed of SEEDS) {
    it(`${STEPS} random steps (seed ${seed})`, { timeout: 90_000 + STEPS * 1500 }, async () => {
      await walkFresh(app.session.browser, seed, files);
    });
  }
});
