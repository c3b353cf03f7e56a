import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launch, layoutProblems, ROOT, serve, type BrowserSession, type StaticServer } from './harness.ts';
import { move, padRoll, startGame, tapBack } from './table-helpers.ts';

let server: StaticServer;
let session: BrowserSession;
let dir: string;

beforeAll(async () => {
  server = await serve(inject('distDir'));
  session = await launch();
  dir = await mkdtemp(join(tmpdir(), 'rollcall-transcripts-'));
});

afterAll(async () => {
  await session?.close();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function download(page: Page, testId: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
}

/** Each step of the log as read: what was done and the headline after it (not its Fix button). */
async function logLines(page: Page): Promise<string[]> {
  await page.getByTestId('game-log').waitFor();
  return page.getByTestId('log-step').evaluateAll((steps) =>
    steps.map((s) =>
      [...s.querySelectorAll<HTMLElement>(':scope > p')]
        .map((p) => p.innerText)
        .join(' ')
        .replace(/\d{1,2}:\d{2}(:\d{2})?(\s?[AP]M)?/, '')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
}

describe('transcripts', () => {
  let exported = '';
  let lines: string[] = [];

  it('exports a game as a JSON transcript that the replay CLI reads, and as CSV', async () => {
    const { page } = session;
    await page.goto(server.url);
    await startGame(page, 'five-thousand', ['Ann', 'Bob'], 3);
    await padRoll(page, ['1', '1', '4', '5', '6']);
    await padRoll(page, ['1', '3']);
    await padRoll(page, ['5']);
    await padRoll(page, ['2', '2', '2', '3', '6']);
    await move(page, 'Bank 600 (0 → 600)');
    await padRoll(page, ['2', '3', '4', '6', '6']);
    await page.getByTestId('open-log').click();
    lines = await logLines(page);
    expect(lines[0]).toBe('Ann rolled 1 1 4 5 6 Ann rolled 1 1 4 5 6 = 250 (1 1 5 set aside). Roll 2 dice — turn total 250, must reach 500 to enter');
    expect(lines[4]).toMatch(/^Ann Bank 600 \(0 → 600\) Ann banks 600: 0 → 600, on the slate\. Bob's turn/);
    expect(lines).toHaveLength(6);
    expect(await layoutProblems(page)).toEqual([]);

    const json = await download(page, 'export-json');
    expect(json.name).toMatch(/^rollcall-five-thousand-\d{4}-\d{2}-\d{2}-Ann-Bob\.json$/);
    const transcript = JSON.parse(json.text) as { game: string; players: string[]; options: Record<string, unknown>; actions: unknown[]; times: string[] };
    // when each move was made, so that an import keeps the log's times
    expect(transcript.times).toHaveLength(6);
    expect(transcript.times.every((t) => Math.abs(Date.parse(t) - Date.now()) < 10 * 60_000)).toBe(true);
    expect(transcript).toMatchObject({ game: 'five-thousand', players: ['Ann', 'Bob'], options: { ante: 3, entryScore: 500 } });
    expect(transcript.actions).toEqual([
      { type: 'roll', dice: [1, 1, 4, 5, 6] },
      { type: 'roll', dice: [1, 3] },
      { type: 'roll', dice: [5] },
      { type: 'roll', dice: [2, 2, 2, 3, 6] },
      { type: 'bank' },
      { type: 'roll', dice: [2, 3, 4, 6, 6] },
    ]);
    exported = json.text;
    const file = join(dir, json.name);
    await writeFile(file, json.text);
    const summary = JSON.parse(execFileSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'replay.ts'), file], { encoding: 'utf8', cwd: ROOT, env: { ...process.env, INIT_CWD: ROOT } })) as Record<string, unknown>;
    expect(summary).toMatchObject({ scores: { Ann: 600, Bob: 0 }, pot: 6, current: 'Ann', actions: 6 });

    const csv = await download(page, 'export-csv');
    // UTF-8 with a byte-order mark, so that Excel shows "→" and accented names as written
    expect(csv.text.startsWith('\uFEFF')).toBe(true);
    const rows = csv.text.slice(1).trimEnd().split('\r\n');
    expect(rows[0]).toBe('#,time,player,action,dice,Ann score,Bob score,after');
    expect(rows[5]).toMatch(/^5,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},Ann,Bank 600 \(0 → 600\),,600,0,/);
    expect(rows).toHaveLength(7);
  });

  it('imports the transcript on another device: the same log, the same export', async () => {
    const other = await session.browser.newContext({ viewport: { width: 412, height: 860 } });
    try {
      const page = await other.newPage();
      await page.goto(server.url);
      await page.getByRole('button', { name: 'History' }).click();
      await page.getByTestId('import-transcript').setInputFiles({ name: 't.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
      expect(await page.getByTestId('import-message').textContent()).toBe('Imported 5000 (bumps and gifts) with Ann, Bob (6 moves).');
      expect(await page.getByTestId('announcer').textContent()).toBe('Imported 5000 (bumps and gifts) with Ann, Bob (6 moves).');
      // the same file again: refused, and the game is listed once
      await page.getByTestId('import-transcript').setInputFiles({ name: 't.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
      await page.getByTestId('import-message').getByText(/^This game is already on this device/).waitFor();
      expect(await page.getByRole('button', { name: /^Log: 5000 \(bumps and gifts\) with Ann, Bob, / }).count()).toBe(1);
      await page.getByRole('button', { name: /^Log: 5000 \(bumps and gifts\) with Ann, Bob, / }).click();
      expect(await logLines(page)).toEqual(lines);
      // the same file, times to the millisecond included: each move at the time it was made on the first device, not when it arrived here
      expect((await download(page, 'export-json')).text).toBe(exported);
      // and play goes on from where the transcript ends
      await page.getByTestId('open-table').click();
      await page.getByTestId('headline').waitFor();
      expect(await page.getByTestId('current-player').textContent()).toBe('Ann to play');
    } finally {
      await other.close();
    }
  });

  it('a game played long ago, imported today, is listed in History by when it was played', async () => {
    const other = await session.browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await other.newPage();
      await page.goto(server.url);
      await page.getByRole('button', { name: 'History' }).click();
      const fiveOnes = JSON.parse(await readFile(join(ROOT, 'tests/transcripts/big-roll-5000/five-ones-win.json'), 'utf8')) as { actions: unknown[] };
      const times = fiveOnes.actions.map((_, i) => new Date(Date.UTC(2023, 0, 5, 20, 15 + i)).toISOString());
      await page.getByTestId('import-transcript').setInputFiles({ name: 'old.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ ...fiveOnes, times })) });
      expect(await page.getByTestId('import-message').textContent()).toBe('Imported 5000 (Big Roll) with Ann, Bob, Cy (4 moves).');
      const summary = (await page.getByTestId('game-summary').textContent()) ?? '';
      const ended = await page.evaluate((t) => new Date(t).getFullYear(), times.at(-1)!);
      // when it ended, as its log says; not today, when it arrived
      expect(summary).toMatch(new RegExp(`^Finished · .*${ended}.* · 4 moves · Won by Bob$`));
      expect(summary).not.toContain(String(new Date().getFullYear()));
      expect(await page.getByRole('button', { name: /^Log: 5000 \(Big Roll\) with Ann, Bob, Cy, / }).getAttribute('aria-label')).toContain(String(ended));
    } finally {
      await other.close();
    }
  });

  it('refuses a bad transcript with a message, and changes nothing', async () => {
    const { page } = session;
    // from the first test's log: back to its table, then Home
    await tapBack(page);
    await page.getByTestId('headline').waitFor();
    await tapBack(page);
    await page.getByRole('button', { name: 'History' }).click();
    await page.getByTestId('game-list').waitFor();
    const games = await page.getByTestId('game-list').locator('li').count();
    const bad = { game: 'five-thousand', players: ['Ann', 'Bob'], options: {}, actions: [{ type: 'roll', dice: [1, 1, 4, 5, 6] }, { type: 'bank' }] };
    await page.getByTestId('import-transcript').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
    expect(await page.getByTestId('import-message').textContent()).toBe(
      'Action 2 of this transcript is not allowed: You need 500 in one turn to get on the slate (250 so far): roll again. Nothing was imported.',
    );
    await page.getByTestId('import-transcript').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"game": "five-thousand", "players": ') });
    await page.getByTestId('import-message').getByText(/not valid JSON/).waitFor();
    expect(await page.getByTestId('game-list').locator('li').count()).toBe(games);
  });
});
