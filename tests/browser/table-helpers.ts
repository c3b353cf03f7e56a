/** What a player does at the table, for the browser tests: start a game, enter rolls, read the slate (and restore a backup). */
import { expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ECHO_TAP_MS } from '../../src/app/echoTap.ts';
import type { BackupFile } from '../../src/lib/store/backup.ts';

/**
 * Big Roll 5000, ante 2 (tests/transcripts/big-roll-5000/five-ones-win.json): the second seat
 * throws five ones and takes the pot of 6 (+4; the others −2). Its options and actions, for the
 * games a test writes into a backup.
 */
export const FIVE_ONES = JSON.parse(readFileSync(join(import.meta.dirname, '../transcripts/big-roll-5000/five-ones-win.json'), 'utf8')) as {
  options: BackupFile['games'][number]['options'];
  actions: BackupFile['games'][number]['actions'][number]['action'][];
};

/** From Home: New game, the game chosen, its players added in order and the ante set; not started yet. */
export async function setUpGame(page: Page, game: string, players: string[], ante?: number): Promise<void> {
  await page.getByTestId('new-game').click();
  await page.getByTestId('game-select').selectOption(game);
  for (const name of players) {
    await page.getByTestId('player-name').fill(name);
    await page.getByTestId('add-player').click();
  }
  if (ante !== undefined) await page.getByTestId('ante').fill(String(ante));
}

export async function startGame(page: Page, game: string, players: string[], ante?: number): Promise<void> {
  await setUpGame(page, game, players, ante);
  await page.getByTestId('start-game').click();
  await page.getByTestId('headline').waitFor();
}

/** From Home: a game of Big Roll 5000 (Ann and Bob, this ante), won by Ann's five 1s: its game over, "Play again" offered. */
export async function gameWonByAnn(page: Page, ante = 0): Promise<void> {
  await setUpGame(page, 'big-roll-5000', ['Ann', 'Bob'], ante);
  await page.getByTestId('start-game').click();
  await page.getByTestId('headline').waitFor();
  await padRoll(page, ['6']); // the roll-off: Ann starts
  await padRoll(page, ['2']);
  await padRoll(page, ['1', '1', '1', '1', '1']); // five 1s win at once
  await page.getByTestId('play-again').waitFor();
}

/** From Home: Settings, `backup` (a backup file's JSON) restored, back on Home; returns what the import said. */
export async function restoreBackup(page: Page, backup: unknown): Promise<string> {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByTestId('backup-file').setInputFiles({ name: 'backup.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(backup)) });
  await page.getByTestId('backup-message').waitFor();
  const said = (await page.getByTestId('backup-message').textContent()) ?? '';
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page.getByTestId('new-game').waitFor();
  return said;
}

/**
 * A backup file for `restoreBackup`, holding only `parts` over an empty device: the header
 * (format, version 3, exported now; import checks the format and version only),
 * no games, players, sessions, ledger or taught dice, and default settings with the storage
 * question already asked. So a test's fixture says what it is about, not what every file must hold.
 */
export function backupFile(parts: Partial<BackupFile> = {}): BackupFile {
  return {
    format: 'rollcall-backup',
    version: 3,
    exportedAt: new Date().toISOString(),
    games: [],
    players: [],
    sessions: [],
    ledger: [],
    taughtSets: [],
    taughtFaces: [],
    settings: { theme: 'system', speech: false, settleMs: 600, cameraId: null, persistAsked: true },
    ...parts,
  };
}

export async function headline(page: Page): Promise<string> {
  return (await page.getByTestId('headline').textContent()) ?? '';
}

/**
 * Taps the faces on the dice pad (by face id) and submits them as the proposed roll. A tap that
 * lands where the last one did, within ECHO_TAP_MS of it and after the game changed (a face under
 * the move just tapped), is dropped as a double tap's echo (echoTap.ts), faster than a player
 * taps: then it is tapped again, as a player would.
 *
 * A tap the pad takes has filled its slot when the click returns (the pad adds it in the tap's
 * handler: 152 taps of 152 here), so an empty slot then is a dropped tap. Only such a tap waits
 * out the echo window before it is tapped again. (Waiting ECHO_TAP_MS for every slot instead took
 * a busy machine's slow answer for a drop, and entered the die twice.)
 */
export async function padEnter(page: Page, faces: string[]): Promise<void> {
  const pad = page.getByTestId('dice-pad');
  const filledPast = (n: number) => document.querySelectorAll('[data-testid="dice-pad"] .slot.filled').length > n;
  for (const [i, face] of faces.entries()) {
    const button = pad.locator(`button[data-face="${face}"]`);
    await button.click();
    if (await page.evaluate(filledPast, i)) continue;
    const late = await page.waitForFunction(filledPast, i, { timeout: ECHO_TAP_MS }).then(
      () => true,
      () => false,
    );
    if (late) continue;
    await button.click(); // past the echo window: this tap is taken
    await page.waitForFunction(filledPast, i);
  }
  await page.getByTestId('dice-pad-done').click();
  await page.getByTestId('camera-read').waitFor();
}

/**
 * Waits out a double tap's echo window on Back: a tap on Back within ECHO_TAP_MS of a tap on Back
 * before it, at the same spot (Back's is the same on every screen), once the screen changed, is
 * dropped as the second tap of a double tap (nav.svelte.ts). A test tapping Back twice on purpose
 * waits for the screen the first went back to, then for this. Any other tap in between ends the
 * double tap, so this waits only when the last tap heard was on Back. Timed in the page (a timer
 * there can wake a fraction of a millisecond early, so it loops on the clock), from a listener on
 * every click that this installs the first time, so the taps before that one are not known.
 */
export async function waitOutBackEcho(page: Page): Promise<void> {
  await page.evaluate(async (echoMs) => {
    const w = window as unknown as { lastBackTapAt?: number | null };
    if (w.lastBackTapAt === undefined) {
      w.lastBackTapAt = null;
      // after the app's own listener (nav's), so never earlier than the tap it timed
      addEventListener('click', (event) => (w.lastBackTapAt = event.target instanceof Element && event.target.closest('[data-nav-back]') ? performance.now() : null), { capture: true });
    }
    const last = w.lastBackTapAt;
    if (last === null) return;
    while (performance.now() - last < echoMs) await new Promise((resolve) => setTimeout(resolve, echoMs - (performance.now() - last)));
  }, ECHO_TAP_MS);
}

/** Taps the screen's Back, as a player does, never as the echo of a Back just tapped (`waitOutBackEcho`). */
export async function tapBack(page: Page): Promise<void> {
  await waitOutBackEcho(page);
  await page.getByRole('button', { name: 'Back', exact: true }).click();
}

/** Adds a die the proposal lacks by hand ('+ die', then its face) and confirms the roll as it stands. */
export async function addDieAndConfirm(page: Page, face: string): Promise<void> {
  await page.getByRole('button', { name: /add a die the read missed/i }).click();
  await page.locator(`[data-fix-face="${face}"]`).click();
  await page.getByTestId('confirm-roll').click();
}

/**
 * Enters a roll on the pad, checks the proposal reads as expected (the dice as players name
 * them, describeDice: "1 1 4 5 6" for pips, so the face ids joined by spaces by default; symbol
 * kits pass the names, "Star (5)", "Luke Skywalker, Han Solo"), and confirms it; resolves once
 * the table moved on.
 */
export async function padRoll(page: Page, faces: string[], read = faces.join(' ')): Promise<void> {
  const before = await headline(page);
  await padEnter(page, faces);
  expect(await page.getByTestId('camera-read').textContent()).toBe(read);
  await page.getByTestId('confirm-roll').click();
  await page.getByTestId('camera-read').waitFor({ state: 'detached' });
  await page.waitForFunction((h) => document.querySelector('[data-testid="headline"]')?.textContent !== h, before);
}

/** Taps one of the game's moves by its label and waits for the table to move on. */
export async function move(page: Page, label: string | RegExp): Promise<void> {
  const before = await headline(page);
  await page.getByRole('button', { name: label }).click();
  await page.waitForFunction((h) => document.querySelector('[data-testid="headline"]')?.textContent !== h, before);
}

/** Every player's score on the slate, by name. */
export async function scores(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('[data-testid="slate-row"]')].map((row) => [
        row.getAttribute('data-player') ?? '',
        Number(row.querySelector('[data-testid="score"]')?.textContent),
      ]),
    ),
  );
}

export async function pot(page: Page): Promise<number> {
  return Number(await page.getByTestId('pot').textContent());
}

/** Waits for the camera's proposal at the table (the reader loads first) and returns its faces. */
export async function cameraRead(page: Page, timeout = 45_000): Promise<string[]> {
  const read = page.getByTestId('camera-read');
  await read.waitFor({ timeout });
  expect(await read.getAttribute('data-source')).toBe('camera');
  return ((await read.textContent()) ?? '').split(' ');
}

/**
 * Makes an own dice kit of six faces "1"…"6" worth 1…6 (a die that stands in for standard
 * dice) from Home through Dice kits → New kit, and waits for its Teach screen to be ready.
 */
export async function makeOwnPipKit(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Dice kits' }).click();
  await page.getByTestId('new-kit').click();
  await page.getByTestId('kit-name').fill(name);
  for (let i = 0; i < 6; i++) {
    await page.getByTestId('face-label').nth(i).fill(String(i + 1));
    await page.getByTestId('face-value').nth(i).fill(String(i + 1));
  }
  await page.getByTestId('create-kit').click();
  await page.locator('[data-testid="teach"][data-phase="ready"]').waitFor({ timeout: 60_000 });
}
