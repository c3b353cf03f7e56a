/**
 * axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules on every screen a player meets, at a phone's
 * size (360 × 740): Home, New game, the table mid-game (the dice pad, a proposed roll, a refusal,
 * the camera on, refused, and a photo that is not one), the log, History, Settings, the kits,
 * teaching, the camera check, the symbol-dice games (a villain's private screen among them), the
 * 5-dice games, finished games, a long history (History's pages, a long log), Players (a rename refused, a merge asked), and the app with nowhere to save. Each screen is checked in the
 * light colour scheme, then its colours again in the dark one.
 *
 * A screen's violations are listed as "rule-id: selector — what to fix"; the list must be empty.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import {
  browserOffersInstall,
  contrastRatio,
  fakeCameraFile,
  launch,
  openAppWithCamera,
  ROOT,
  serve,
  type AppWithCamera,
  type BrowserSession,
  type StaticServer,
} from './harness.ts';
import { addDieAndConfirm, move, padEnter, padRoll, startGame } from './table-helpers.ts';
import { bigHistory } from '../../scripts/lib/big-history.ts';
import { audit, COLOURS, violations } from './axe-audit.ts';

const PHONE = { width: 360, height: 740 };
const PHOTO = readFileSync(join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg'));

/** The contrast of a field's placeholder on the field, which axe leaves unchecked. */
async function placeholderContrast(field: Locator): Promise<number> {
  const [text, background] = await field.evaluate((el) => [getComputedStyle(el, '::placeholder').color, getComputedStyle(el).backgroundColor]);
  return contrastRatio(text!, background!);
}

/** Back to Home, its lists loaded. */
async function home(page: Page): Promise<void> {
  while (!(await page.getByTestId('new-game').isVisible())) await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page.getByRole('heading', { name: 'In progress' }).waitFor();
}

describe('axe at a phone size, without a camera', () => {
  let server: StaticServer;
  let session: BrowserSession;
  let page: Page;

  beforeAll(async () => {
    server = await serve(inject('distDir'));
    session = await launch();
    page = session.page;
    await page.setViewportSize(PHONE);
    await page.goto(server.url);
    await page.getByTestId('new-game').waitFor();
  });

  afterAll(async () => {
    await session?.close();
    await server?.stop();
  });

  it('Home on a first visit, the install offer, an empty History, a backup refused', async () => {
    await page.getByRole('heading', { name: 'In progress' }).waitFor();
    await audit(page, 'home (first visit)');
    await browserOffersInstall(page);
    await page.getByTestId('install-offer').waitFor();
    await audit(page, 'home (install offered)');
    await page.getByRole('button', { name: 'History' }).click();
    await page.getByTestId('history-empty').waitFor();
    await audit(page, 'history (empty)');
    await home(page);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('backup-file').setInputFiles({ name: 'backup.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"rollcall-backup","version":1,"games":[{"id":') });
    await page.getByTestId('backup-message').waitFor();
    await audit(page, 'settings (a backup refused)');
  });

  it('New game: 5000 for three players with an ante, and a name refused', async () => {
    await home(page);
    await page.getByTestId('new-game').click();
    await page.getByTestId('game-select').selectOption('five-thousand');
    for (const name of ['Ann', 'Bob', 'Cy']) {
      await page.getByTestId('player-name').fill(name);
      await page.getByTestId('add-player').click();
    }
    await page.getByTestId('ante').fill('2');
    await audit(page, 'new game');
    await page.getByTestId('player-name').fill('ann');
    await page.getByTestId('add-player').click();
    await page.getByRole('alert').waitFor();
    await audit(page, 'new game (a name refused)');
    await page.getByTestId('player-name').fill('');
    // "Name", the new player's field's only visible label, is read in either scheme
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect.soft(await placeholderContrast(page.getByTestId('player-name')), `the placeholder "Name", ${scheme}`).toBeGreaterThanOrEqual(4.5);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('the table of 5000: the dice pad, the slate, a proposed roll, a roll refused; its log', async () => {
    await page.getByTestId('start-game').click();
    await page.getByTestId('dice-pad').waitFor();
    await audit(page, 'table 5000 (no camera, dice pad)');
    await padRoll(page, ['1', '1', '4', '5', '6']);
    await padRoll(page, ['1', '3']);
    await padRoll(page, ['5']);
    await padRoll(page, ['2', '2', '2', '3', '6']);
    await move(page, /^Bank 600/);
    await page.getByTestId('dice-pad').locator('button[data-face="1"]').click();
    await audit(page, 'table 5000 (a score on the slate, a die tapped)');
    await page.getByTestId('dice-pad').locator('button[data-face="1"]').click();
    await page.getByTestId('dice-pad').locator('button[data-face="4"]').click();
    await page.getByTestId('dice-pad').locator('button[data-face="5"]').click();
    await page.getByTestId('dice-pad').locator('button[data-face="6"]').click();
    await page.getByTestId('dice-pad-done').click();
    await page.getByTestId('camera-read').waitFor();
    await audit(page, 'table 5000 (a roll proposed)');
    await page.getByRole('button', { name: /^Die 1: 1\. Correct it$/ }).click();
    await audit(page, 'table 5000 (a die being corrected)');
    await page.locator('button[data-fix-face="1"]').click();
    await page.getByTestId('confirm-roll').click();
    await page.getByTestId('camera-read').waitFor({ state: 'detached' });
    // three dice where two are asked for: the rules refuse it
    await padEnter(page, ['2', '2']);
    await addDieAndConfirm(page, '3');
    await page.getByTestId('rule-error').waitFor();
    await audit(page, 'table 5000 (a roll refused)');

    await page.getByTestId('open-log').click();
    await page.getByTestId('game-log').waitFor();
    await audit(page, 'log');
    await page.getByRole('button', { name: 'Delete game…' }).click();
    await page.getByRole('alert').waitFor();
    await audit(page, 'log (delete asked)');
    await page.getByRole('button', { name: 'Keep it' }).click();
    // fixing the first roll: the pad, the dice already written refused, other dice checked
    await page.getByTestId('fix-roll').first().click();
    const fix = page.getByTestId('fix-panel');
    await audit(page, 'log (a roll being fixed)');
    const enter = async (faces: string[]) => {
      for (const face of faces) await fix.locator(`button[data-face="${face}"]`).click();
      await fix.getByTestId('dice-pad-done').click();
    };
    await enter(['1', '1', '4', '5', '6']);
    await fix.getByTestId('fix-problem').waitFor();
    await audit(page, 'log (a fix refused)');
    await enter(['1', '1', '1', '5', '6']);
    await fix.getByTestId('fix-check').waitFor();
    await audit(page, 'log (a fix checked)');
    await fix.getByRole('button', { name: 'Cancel' }).click();
  });

  it("Point Five, and Face Off to a villain's private screen", async () => {
    await home(page);
    await startGame(page, 'point-five', ['Ann', 'Bob']);
    await padRoll(page, ['star'], 'Star (5)');
    await move(page, 'Call for 3');
    await padRoll(page, ['burst'], 'Burst (6)');
    await audit(page, 'table point-five (a board)');

    await home(page);
    await startGame(page, 'face-off', ['Ann', 'Bob']);
    await page.getByTestId('dice-pad').waitFor();
    await audit(page, 'table face-off (dice pad)');
    await padRoll(page, ['vader', 'vader', 'luke', 'han', 'han'], 'Darth Vader, Darth Vader, Luke Skywalker, Han Solo, Han Solo');
    await move(page, 'Go Villain');
    await page.getByTestId('choose-dice-open').click();
    const choose = page.getByTestId('choose-dice');
    await choose.locator('button[data-token="luke"]').click();
    await audit(page, 'table face-off (choosing dice)');
    await choose.locator('button[data-token="han"]').nth(0).click();
    await page.getByTestId('choose-dice-confirm').click();
    await page.getByTestId('secret-roll').waitFor();
    await audit(page, 'table face-off (a secret re-roll)');
    await page.getByTestId('pass-phone').click();
    await page.getByTestId('private-unlock').waitFor();
    await audit(page, 'table face-off (private screen, closed)');
    await page.getByTestId('private-unlock').click();
    await padEnter(page, ['luke', 'stormtrooper']);
    await page.getByTestId('confirm-roll').click();
    await page.getByTestId('secret-dice').waitFor();
    await audit(page, 'table face-off (private screen, declaring)');
  });

  it("5-Dice War, Detective's slate wider than the phone, and two finished games", async () => {
    await home(page);
    await startGame(page, 'war', ['Ann', 'Bob']);
    await page.getByTestId('dice-pad').waitFor();
    await audit(page, 'table war');

    await home(page);
    await startGame(page, 'detective', ['Ann', 'Bob', 'Cy']);
    await padRoll(page, ['6', '6']);
    await padRoll(page, ['1', '2']);
    await padRoll(page, ['1', '3']);
    // the slate outgrows the screen with this roll; it becomes a region Tab reaches once a
    // ResizeObserver tells Slate so, a frame or more later: audited before, it is a scrolling box
    // no key reaches (axe's scrollable-region-focusable, with ResizeObserver callbacks 2 s late)
    await page.getByRole('region', { name: 'Slate, scrolls sideways' }).waitFor();
    await audit(page, 'table detective (the slate scrolls sideways)');

    // a game won at the table: the payout and the evening's balances
    await home(page);
    await startGame(page, 'big-roll-5000', ['Ann', 'Bob'], 2);
    await padRoll(page, ['6']); // the roll-off: Ann starts
    await padRoll(page, ['2']);
    await padRoll(page, ['1', '1', '1', '1', '1']); // five 1s win at once
    await page.getByTestId('game-over').waitFor();
    await audit(page, 'table big-roll-5000 (won)');
    await page.getByTestId('undo').click();
    await page.getByTestId('undo-confirm').waitFor();
    await audit(page, 'table big-roll-5000 (won, undo asked)');
    await page.getByRole('button', { name: 'Keep it' }).click();

    // a finished game imported from a transcript, its log and final slate
    await home(page);
    await page.getByRole('button', { name: 'History' }).click();
    await page.getByTestId('import-transcript').setInputFiles({ name: 'tug.json', mimeType: 'application/json', buffer: readFileSync(join(ROOT, 'tests/transcripts/tug/sheet-game-to-five.json')) });
    await page.getByTestId('import-message').waitFor();
    await audit(page, 'history (a game imported)');
    await page.getByRole('button', { name: /^Log: 5-Dice Tug/ }).click();
    await page.getByTestId('game-log').waitFor();
    await audit(page, 'log (a finished game)');
    await page.getByRole('button', { name: 'Final slate' }).click();
    await page.getByTestId('game-over').waitFor();
    await audit(page, 'table tug (finished)');
  });

  it('Home with games and balances, Settings, Kits, New kit, a kit of our own', async () => {
    await home(page);
    await page.getByTestId('ledger').waitFor();
    await audit(page, 'home (games and balances)');
    await page.getByTestId('end-evening').click();
    await page.getByTestId('end-evening-confirm').waitFor();
    await audit(page, 'home (ending the evening asked)');
    await page.getByRole('button', { name: 'Keep playing' }).click();

    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('backup-export').waitFor();
    await audit(page, 'settings');
    await home(page);
    await page.getByRole('button', { name: 'Dice kits' }).click();
    await page.getByTestId('new-kit').waitFor();
    await audit(page, 'kits');
    await page.getByTestId('new-kit').click();
    await page.getByTestId('new-kit-form').waitFor();
    await audit(page, 'new kit');
    await page.getByTestId('kit-name').fill('Rune dice');
    await page.getByTestId('create-kit').click();
    await page.getByTestId('new-kit-problem').waitFor();
    await audit(page, 'new kit (refused)');
    for (const [i, label] of ['Sun', 'Moon', 'Star', 'Tree', 'Wave', 'Fire'].entries()) await page.getByTestId('face-label').nth(i).fill(label);
    await page.getByTestId('create-kit').click();
    // made, it opens on Teach (checked with a camera, below), and back here lists it
    await page.getByTestId('teach').waitFor();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByTestId('own-kits').getByTestId('taught-set').waitFor();
    await audit(page, 'kits (a kit of our own)');
    await page.getByRole('button', { name: 'Delete… Rune dice' }).click();
    await page.getByRole('button', { name: 'Delete Rune dice' }).waitFor();
    await audit(page, 'kits (delete asked)');
  });

  it('History of a long history, a page and the next shown, and a long log', async () => {
    await home(page);
    await page.getByRole('button', { name: 'Settings' }).click();
    // 60 finished games restored from a backup (random play through the rules): more than History's page
    const { backup } = bigHistory({ games: 60, sessions: 20, seed: 11 });
    await page.getByTestId('backup-file').setInputFiles({ name: 'backup.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(backup)) });
    await page.getByTestId('backup-message').getByText('Imported 60 games.').waitFor({ timeout: 60_000 });
    await home(page);
    await page.getByRole('button', { name: 'History' }).click();
    await page.getByTestId('history-more').waitFor();
    await audit(page, 'history (a long history, its first page)');
    await page.getByTestId('history-more').click();
    await page.getByTestId('history-count').getByText(/^Showing (\d+) of \1 games\.$/).waitFor();
    await audit(page, 'history (the next page shown)');
    const longest = [...backup.games].sort((a, b) => b.actionCount - a.actionCount)[0]!;
    await page.locator(`[data-game-id="${longest.id}"] button`).click();
    await page.getByTestId('game-log').waitFor();
    await audit(page, `log (${longest.actionCount} actions)`);
  });

  it('the audit finds a violation put there, in either scheme', async () => {
    await page.evaluate(() => document.querySelector('main')?.append(Object.assign(document.createElement('button'), { id: 'axe-bait' })));
    expect(await violations(page)).toEqual([expect.stringMatching(/^button-name: #axe-bait — /)]);
    // a dark grey word on the button's surface: readable in the light scheme, not in the dark one
    await page.evaluate(() => {
      const bait = document.getElementById('axe-bait')!;
      bait.textContent = 'Grey';
      bait.style.color = '#333';
    });
    expect(await violations(page)).toEqual([]);
    // a name that does not hold the word the button shows (the experimental rule turned on)
    await page.evaluate(() => document.getElementById('axe-bait')?.setAttribute('aria-label', 'Stone'));
    expect(await violations(page)).toEqual([expect.stringMatching(/^label-content-name-mismatch: #axe-bait — /)]);
    await page.evaluate(() => document.getElementById('axe-bait')?.removeAttribute('aria-label'));
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await violations(page, COLOURS)).toEqual([expect.stringMatching(/^color-contrast: #axe-bait — /)]);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(() => document.getElementById('axe-bait')?.remove());
  });

  it('Players: the list, a rename refused, and a merge asked', async () => {
    // its own players, whatever the cases before left: a game of War for Bbo and Dee started
    await home(page);
    await startGame(page, 'war', ['Bbo', 'Dee']);
    await home(page);
    await page.getByRole('button', { name: 'Players' }).click();
    const bbo = page.getByTestId('player').filter({ has: page.getByTestId('player-name').getByText('Bbo', { exact: true }) });
    await bbo.waitFor();
    await audit(page, 'players');
    await bbo.getByTestId('rename-player').click();
    await page.getByTestId('rename-field').fill('dee');
    await page.getByTestId('rename-save').click();
    await bbo.getByTestId('player-message').waitFor();
    await audit(page, 'players (a rename refused)');
    await bbo.getByRole('button', { name: 'Cancel' }).click();
    await bbo.getByTestId('merge-player').click();
    await page.getByTestId('merge-into').selectOption({ label: 'Dee' });
    await page.getByTestId('merge-ask').click();
    await page.getByTestId('merge-question').waitFor();
    await audit(page, 'players (a merge asked)');
    await bbo.getByRole('button', { name: 'Keep them apart' }).click();
  });
});

describe('axe at a phone size, with a camera', () => {
  let app: AppWithCamera;

  beforeAll(async () => {
    app = await openAppWithCamera(inject('distDir'), PHOTO, 640, 480);
    await app.session.page.setViewportSize(PHONE);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('the table of 5000 with the camera on, and its read proposed', async () => {
    const { page } = app.session;
    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
    await page.getByTestId('table-camera').waitFor();
    await audit(page, 'table 5000 (camera on)');
    await page.getByTestId('camera-read').waitFor({ timeout: 45_000 });
    await audit(page, 'table 5000 (camera read proposed)');
  });

  it('teaching a kit with the camera, and the camera check', async () => {
    const { page } = app.session;
    await home(page);
    await page.getByRole('button', { name: 'Dice kits' }).click();
    await page.locator('[data-kit-id="face-off"]').getByTestId('teach-kit').click();
    await page.locator('[data-testid="teach"][data-phase="ready"]').waitFor({ timeout: 45_000 });
    await page.locator('[data-testid="camera-view"][data-state="live"]').waitFor();
    await audit(page, 'teach (camera on)');
    await home(page);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('camera-check').click();
    await page.waitForFunction(() => /^(I see|No dice)/.test(document.querySelector('[data-testid="check-read"]')?.textContent?.trim() ?? ''), null, { timeout: 45_000 });
    await audit(page, 'camera check (reading)');
  });
});

describe('axe at a phone size, the camera refused and nowhere to save', () => {
  let server: StaticServer;
  let session: BrowserSession;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    server = await serve(inject('distDir'));
    const camera = await fakeCameraFile(PHOTO);
    cleanup = camera.cleanup;
    session = await launch({ camera: camera.path, cameraPermission: 'deny' });
    await session.page.setViewportSize(PHONE);
  });

  afterAll(async () => {
    await session?.close();
    await server?.stop();
    await cleanup?.();
  });

  it('the table with the camera refused, a photo that is not one, and the camera check refused', async () => {
    const { page } = session;
    await page.goto(server.url);
    await startGame(page, 'five-thousand', ['Ann', 'Bob']);
    await page.getByTestId('camera-problem').waitFor();
    await page.getByTestId('dice-pad').waitFor();
    await audit(page, 'table 5000 (camera refused)');
    await page.getByTestId('roll-photo-file').setInputFiles({ name: 'roll.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a photo at all') });
    await page.getByTestId('roll-photo-problem').waitFor();
    await audit(page, 'table 5000 (a photo that is not one)');
    await home(page);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('camera-check').click();
    await page.getByTestId('camera-problem').waitFor();
    await audit(page, 'camera check (camera refused)');
  });

  it('a browser that will not let Rollcall save: the notice on Home and at the table', async () => {
    const page = await session.context.newPage();
    await page.setViewportSize(PHONE);
    await page.addInitScript({ content: 'Object.defineProperty(window, "indexedDB", { value: undefined, configurable: true });' });
    await page.goto(server.url);
    await page.getByTestId('unsaved-notice').locator('summary').click();
    await page.getByTestId('unsaved-reason').waitFor();
    await audit(page, 'home (not saving)');
    await startGame(page, 'war', ['Ann', 'Bob']);
    await page.getByTestId('dice-pad').waitFor();
    await audit(page, 'table war (not saving)');
    await page.close();
  });
});
