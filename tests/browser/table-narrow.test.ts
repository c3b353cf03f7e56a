import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addTestStyles, appSession, layoutProblems } from './harness.ts';
import { move, padEnter, padRoll, startGame, tapBack } from './table-helpers.ts';

const app = appSession();

/** A game of Detective for three, past the roll-off (the highest of two dice each starts), its slate showing. */
async function startDetective(page: Page): Promise<void> {
  await startGame(page, 'detective', ['Ann', 'Bob', 'Cy']);
  await padRoll(page, ['6', '6']);
  await padRoll(page, ['1', '2']);
  await padRoll(page, ['1', '3']);
  expect(await page.locator('[data-testid="slate"] thead th').allTextContents()).toContain('Opportunity (4 alike)');
}

/** How far the slate reaches past its box (the part a player would have to scroll sideways to). */
async function slateOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const wrap = document.querySelector('.slate-wrap');
    return wrap ? wrap.scrollWidth - wrap.clientWidth : Number.NaN;
  });
}

/** Back one screen, to the one showing `testId`. */
async function back(page: Page, testId: string): Promise<void> {
  await tapBack(page);
  await page.getByTestId(testId).first().waitFor();
}

async function home(page: Page): Promise<void> {
  await back(page, 'new-game');
}

/** The slate on a phone held upright: every column in view, without sideways scrolling. */
describe('the slate on a small phone', () => {
  it('5000 with four-figure scores and a long name fits 320 px', async () => {
    const { page } = app.session;
    await page.setViewportSize({ width: 320, height: 640 });
    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cyrilla Wolfeschlegelsteinhausen']);
    await padRoll(page, ['1', '1', '1', '2', '3']);
    await padRoll(page, ['1', '3']);
    await move(page, 'Bank 1200 (0 → 1200)');
    expect(await page.getByTestId('slate-row').first().locator('td').allTextContents()).toEqual(['1200', 'on the slate', '0', '+1200']);
    expect(await slateOverflow(page)).toBe(0);
    expect(await layoutProblems(page)).toEqual([]);
    await home(page);
  });

  it("War's five columns fit 320 px", async () => {
    const { page } = app.session;
    await startGame(page, 'war', ['Ann', 'Bob']);
    expect(await page.locator('[data-testid="slate"] thead th').count()).toBe(5);
    expect(await slateOverflow(page)).toBe(0);
    // nothing to scroll: no tab stop, no region
    expect(await page.locator('.slate-wrap').getAttribute('tabindex')).toBeNull();
    expect(await page.getByRole('region', { name: 'Slate, scrolls sideways' }).count()).toBe(0);
    await home(page);
  });

  it("Face Off's named faces sit two to a row on a villain's private pad at 320 px", async () => {
    const { page } = app.session;
    await page.setViewportSize({ width: 320, height: 640 });
    await startGame(page, 'face-off', ['Ann', 'Bob']);
    await padRoll(page, ['vader', 'vader', 'luke', 'han', 'han'], 'Darth Vader, Darth Vader, Luke Skywalker, Han Solo, Han Solo');
    await move(page, 'Go Villain');
    await page.getByTestId('choose-dice-open').click();
    await page.getByTestId('choose-dice').locator('button[data-token="luke"]').click();
    await page.getByTestId('choose-dice-confirm').click();
    await page.getByTestId('pass-phone').click();
    await page.getByTestId('private-unlock').click();
    // the private screen is a card inside the page: its pad is the narrowest the app shows
    const lefts = await page.getByTestId('private-screen').getByTestId('dice-pad').locator('button[data-face]').evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().left)));
    expect(lefts).toHaveLength(6);
    expect(new Set(lefts).size).toBe(2);
    expect(await layoutProblems(page)).toEqual([]);
    await page.getByTestId('private-hide').click();
    await home(page);
  });

  it("Detective's long column names fit 390 px", async () => {
    const { page } = app.session;
    await page.setViewportSize({ width: 390, height: 844 });
    await startDetective(page);
    expect(await slateOverflow(page)).toBe(0);
    await home(page);
  });

  it("Detective at 320 px scrolls sideways under the players' names, which stay in view", async () => {
    const { page } = app.session;
    await page.setViewportSize({ width: 320, height: 640 });
    await startDetective(page);
    // too wide for 320 px: the slate scrolls, the page does not
    expect(await slateOverflow(page)).toBeGreaterThan(0);
    expect(await layoutProblems(page)).toEqual([]);
    // the hint that it scrolls: a shadow fixed to the right edge, under a cover that ends with the table
    expect(await page.locator('.slate-wrap').evaluate((wrap) => getComputedStyle(wrap).backgroundAttachment)).toBe('local, scroll');
    const before = await page.getByTestId('score').first().boundingBox();
    await page.getByTestId('slate').scrollIntoViewIfNeeded();
    await page.locator('.slate-wrap').evaluate((wrap) => wrap.scrollTo({ left: wrap.scrollWidth }));
    await page.waitForFunction(() => {
      const wrap = document.querySelector('.slate-wrap');
      return wrap !== null && wrap.scrollLeft > 0 && wrap.scrollLeft >= wrap.scrollWidth - wrap.clientWidth - 1;
    });
    // the scores moved left, under the names ...
    const after = await page.getByTestId('score').first().boundingBox();
    expect(after!.x).toBeLessThan(before!.x);
    // ... and every player's name (and the header's "Player") is still where it was, on top and opaque
    const names = await page.evaluate(() => {
      const wrap = document.querySelector('.slate-wrap')!.getBoundingClientRect();
      return [...document.querySelectorAll('[data-testid="slate"] tr > th:first-child')].map((th) => {
        const box = th.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + 4, box.top + box.height / 2);
        return {
          text: (th.querySelector('.name') ?? th).textContent,
          inView: box.left >= wrap.left - 0.5 && box.right <= wrap.right,
          onTop: hit !== null && th.contains(hit),
          background: getComputedStyle(th).backgroundColor,
        };
      });
    });
    expect(names.map((n) => n.text)).toEqual(['Player', 'Ann', 'Bob', 'Cy']);
    for (const n of names) {
      expect(n, `${n.text}'s cell`).toMatchObject({ inView: true, onTop: true });
      expect(n.background, `${n.text}'s cell is opaque`).toMatch(/^rgb\(/);
    }
    expect(await layoutProblems(page)).toEqual([]);
    // by keyboard: Tab reaches the slate, named for what it is, and the arrow keys scroll it back
    const region = page.getByRole('region', { name: 'Slate, scrolls sideways' });
    expect(await region.getAttribute('tabindex')).toBe('0');
    await region.focus();
    const end = await region.evaluate((wrap) => wrap.scrollLeft);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((end) => document.querySelector('.slate-wrap')!.scrollLeft < end, end);
    await home(page);
  });

  it("Detective's evidence grid breaks a long name rather than widen the page at 320 px", async () => {
    const { page } = app.session;
    await page.setViewportSize({ width: 320, height: 640 });
    await startGame(page, 'detective', ['Ann', 'Maria-Magdalena Wolfeschlegelsteinhausen']);
    await padRoll(page, ['6', '6']);
    await padRoll(page, ['1', '2']);
    await page.getByText('Evidence by suspect 1–6', { exact: false }).waitFor();
    // the grid's Player column would not break "Wolfeschlegelsteinhausen": the page was 333 px wide
    expect(await layoutProblems(page)).toEqual([]);
    await home(page);
  });

  it('a name of 40 letters without a space wraps on Home, History, the log, Teach and the kits at 320 px: every button stays on the screen', async () => {
    const { page } = app.session;
    await page.setViewportSize({ width: 320, height: 640 });
    const long = 'Wolfeschlegelsteinhausenbergerdorffvoral'; // 40 letters, the longest name a player may have
    await startGame(page, 'war', [long, 'Bob']);
    await padRoll(page, ['3']);
    await page.getByTestId('open-log').click();
    await page.getByTestId('game-log').waitFor();
    expect(await page.getByTestId('log-step').first().textContent()).toContain(long);
    expect(await layoutProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Back' }).click();
    await home(page);
    expect(await layoutProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'History' }).click();
    await page.getByTestId('game-list').first().waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await home(page);
    // a dice set of that name: its Teach screen (the name in the title) and the kits' list
    await page.getByRole('button', { name: 'Dice kits' }).click();
    await page.locator('[data-kit-id="face-off"]').getByTestId('teach-kit').click();
    await page.locator('[data-testid="teach"][data-phase="ready"]').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.locator('#set-name').fill(long);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1 }).getByText(`Teach: ${long}`).waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await back(page, 'taught-set');
    expect(await layoutProblems(page)).toEqual([]);
    await home(page);
  });
});

describe('the end of a big game on a small phone', () => {
  it("Big Roll for six with long names: the ledger and Play again stay on a 320 px screen, and at 200% text on a 360 px one the ledger scrolls in its box, not the page; Home's balances too", async () => {
    const { page } = app.session;
    await page.setViewportSize({ width: 320, height: 568 });
    const names = ['Maximilian', 'Anne-Sophie', 'Guðrún', 'Нина', 'José María', 'Maria-Magdalena Wolfeschlegelsteinhausen'];
    await startGame(page, 'big-roll-5000', names, 1);
    // the roll-off, one die each: Maximilian's 6 starts, and throws five 1s
    for (const face of ['6', '5', '4', '3', '2', '2']) await padRoll(page, [face]);
    await padRoll(page, ['1', '1', '1', '1', '1']);
    await page.getByTestId('session-ledger').waitFor();
    const playAgain = page.getByTestId('play-again');
    expect(await playAgain.textContent()).toBe('Play again with the same 6 players');
    // the ledger's Net column on the screen (the long name pushed it 18 px past a 320 px screen)
    expect(await layoutProblems(page)).toEqual([]);
    const cut = () => playAgain.evaluate((b) => b.scrollHeight > b.clientHeight + 1 || b.scrollWidth > b.clientWidth + 1);
    expect(await cut()).toBe(false);
    await page.setViewportSize({ width: 360, height: 640 });
    const undo = await addTestStyles(page, 'html { font-size: 200% !important; }');
    expect(await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth)).toBeLessThanOrEqual(360);
    // too wide for the card there: the ledger scrolls in its own box, which Tab reaches
    expect(await page.getByRole('region', { name: 'Ledger, scrolls sideways' }).getAttribute('tabindex')).toBe('0');
    expect(await cut()).toBe(false);
    // and Home's balances for the evening, the long name beside its -1
    await home(page);
    await page.getByTestId('ledger').waitFor();
    expect(await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth)).toBeLessThanOrEqual(360);
    await undo();
  });
});

describe('New game on a small phone', () => {
  it('a table of eight: each seat shows its whole name at 320 px, a long one with its buttons under it; beside it from 360 px', async () => {
    const { page } = app.session;
    await page.setViewportSize({ width: 320, height: 568 });
    // a player of an earlier game with a 40-letter name, offered again under the list
    const long = 'Wolfeschlegelsteinhausenbergerdorffvorax';
    await startGame(page, 'war', [long, 'Bob']);
    await home(page);
    await page.getByTestId('new-game').click();
    await page.getByRole('button', { name: `+ ${long}` }).waitFor();
    await page.getByTestId('game-select').selectOption('five-thousand');
    const names = ['Maximilian', 'Anne-Sophie', 'Guðrún', 'Нина', 'José María', 'Bartholomew', 'Bartholomäus', 'Marie-Charlotte'];
    for (const name of names) {
      await page.getByTestId('player-name').fill(name);
      await page.getByTestId('add-player').click();
    }
    const seats = page.getByTestId('seat');
    expect(await seats.count()).toBe(8);
    // "Barthol" and "Barthol" before: the two could not be told apart to move either
    const cut = () => seats.locator('input').evaluateAll((inputs) => inputs.filter((i) => i.scrollWidth > i.clientWidth).map((i) => (i as HTMLInputElement).value));
    expect(await cut()).toEqual([]);
    expect(await layoutProblems(page)).toEqual([]);
    const rowHeight = async () => (await seats.first().boundingBox())!.height;
    expect(await rowHeight()).toBeGreaterThan(80);
    // from 360 px the seat keeps one row: its name ten letters and more
    await page.setViewportSize({ width: 360, height: 640 });
    expect(await rowHeight()).toBeLessThan(60);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('new-game').waitFor();
  });

  it('at 360 px a name too long to show beside its buttons takes its row, the buttons under it; a short one keeps one row', async () => {
    const { page } = app.session;
    await page.setViewportSize({ width: 360, height: 640 });
    await page.getByTestId('new-game').click();
    const names = ['Ann', 'Alexandra Papadopoulou', 'Alexandra Papadopoulos', 'Maximilian'];
    for (const name of names) {
      await page.getByTestId('player-name').fill(name);
      await page.getByTestId('add-player').click();
    }
    const seats = page.getByTestId('seat');
    // both read "Alexandra Pa" beside their buttons: which to move, or take off, was a guess
    const cut = () => seats.locator('input').evaluateAll((inputs) => inputs.filter((i) => i.scrollWidth > i.clientWidth).map((i) => (i as HTMLInputElement).value));
    expect(await cut()).toEqual([]);
    const heights = await seats.evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));
    expect(heights.map((h) => (h < 60 ? 'one row' : 'two rows'))).toEqual(['one row', 'two rows', 'two rows', 'one row']);
    expect(await layoutProblems(page)).toEqual([]);
    // a name typed longer in its seat takes its row once changed
    await page.getByLabel('Player 1 name').fill('Ann-Kathrin Zimmermann');
    await page.getByLabel('Player 1 name').blur();
    expect(await cut()).toEqual([]);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('new-game').waitFor();
  });
});

describe('the table on a small phone', () => {
  it('the pad in rows of three; five dice read, five on the table and four kept each share one line at 360 px; the camera toggle, off, lines up at the left', async () => {
    const { page } = app.session;
    // many Android phones: 360 px wide, 328 of them inside the page's margins
    await page.setViewportSize({ width: 360, height: 740 });
    await startGame(page, 'five-thousand', ['Ann', 'Bob']);
    // the pad's six faces in two rows of three, 1 2 3 over 4 5 6 (not four and a lonely two)
    await page.getByTestId('dice-pad').locator('button[data-face]').first().waitFor();
    const faceTops = await page.getByTestId('dice-pad').locator('button[data-face]').evaluateAll((faces) => faces.map((f) => Math.round(f.getBoundingClientRect().top)));
    expect(faceTops.map((t) => t - faceTops[0]!).map(Math.sign)).toEqual([0, 0, 0, 1, 1, 1]);
    // the proposal's dice, each a button to correct it, inside the card's own margins
    await padEnter(page, ['1', '1', '2', '3', '5']);
    const read = page.locator('.proposal .die-button');
    expect(await read.count()).toBe(5);
    const readTops = await read.evaluateAll((boxes) => boxes.map((b) => Math.round(b.getBoundingClientRect().top)));
    expect(new Set(readTops).size, `read tops ${readTops.join(', ')}`).toBe(1);
    expect(Math.min(...(await read.evaluateAll((boxes) => boxes.map((b) => b.getBoundingClientRect().width))))).toBeGreaterThanOrEqual(44);
    await page.getByTestId('confirm-roll').click();
    await page.getByTestId('camera-read').waitFor({ state: 'detached' });
    const dice = page.locator('.on-table .die');
    expect(await dice.count()).toBe(5);
    const tops = await dice.evaluateAll((boxes) => boxes.map((b) => Math.round(b.getBoundingClientRect().top)));
    expect(new Set(tops).size, `tops ${tops.join(', ')}`).toBe(1);
    expect(await layoutProblems(page)).toEqual([]);
    // 1 1 5 5 score and stay on the table, the 3 is thrown again: "Stay on the table:", their longer label
    await page.getByTestId('undo').click();
    await padRoll(page, ['1', '1', '3', '5', '5']);
    const kept = page.locator('.kept .die');
    expect(await kept.count()).toBe(4);
    const keptTops = await kept.evaluateAll((boxes) => boxes.map((b) => Math.round(b.getBoundingClientRect().top)));
    expect(new Set(keptTops).size, `kept tops ${keptTops.join(', ')}`).toBe(1);
    expect(await layoutProblems(page)).toEqual([]);
    // the camera off, the way back to it lines up with the buttons around it, at the left
    const lefts = await Promise.all([page.getByTestId('camera-toggle'), page.getByRole('button', { name: 'Photo of the dice' })].map(async (b) => Math.round((await b.boundingBox())!.x)));
    expect(lefts[0], `camera toggle at ${lefts[0]}, the photo button at ${lefts[1]}`).toBe(lefts[1]);
    await home(page);
  });
});

/** The table on a phone held sideways: short and wide, the slate beside the dice, not screens below them. */
describe('the table on a phone held sideways', () => {
  it('at 740 × 360 the slate sits beside the dice pad, starting on the first screen', async () => {
    const { page } = app.session;
    await page.setViewportSize({ width: 740, height: 360 });
    await startGame(page, 'five-thousand', ['Ann', 'Bob', 'Cy'], 2);
    await padRoll(page, ['1', '1', '1', '2', '3']);
    await padRoll(page, ['1', '3']);
    await move(page, 'Bank 1200 (0 → 1200)');
    await page.evaluate(() => window.scrollTo(0, 0));
    const pad = (await page.getByTestId('dice-pad').boundingBox())!;
    const slate = (await page.getByTestId('slate').boundingBox())!;
    const firstRow = (await page.getByTestId('slate-row').first().boundingBox())!;
    expect(slate.x, 'the slate is right of the pad').toBeGreaterThanOrEqual(pad.x + pad.width);
    expect(firstRow.y + firstRow.height, "the slate's first row is on the first screen").toBeLessThanOrEqual(360);
    expect(await slateOverflow(page)).toBe(0);
    expect(await layoutProblems(page)).toEqual([]);
    // a tablet held sideways: the pad has room for its six faces in one row
    await page.setViewportSize({ width: 1024, height: 768 });
    const faceTops = await page.getByTestId('dice-pad').locator('button[data-face]').evaluateAll((faces) => faces.map((f) => Math.round(f.getBoundingClientRect().top)));
    expect(new Set(faceTops).size, `face tops ${faceTops.join(', ')}`).toBe(1);
    await home(page);
  });
});

describe('Teach on a small phone', () => {
  it("Face Off's face names break only between words at 360 px (Stormtrooper went to a second line as 'er')", async () => {
    const { page } = app.session;
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('about:blank');
    await page.goto(app.server.url);
    await page.getByRole('button', { name: 'Dice kits' }).click();
    await page.locator('[data-kit-id="face-off"]').getByTestId('teach-kit').click();
    await page.locator('[data-testid="teach"][data-phase="ready"]').waitFor({ timeout: 60_000 });
    // each word of each face's name lies on one line
    const split = await page.locator('.face .label').evaluateAll((labels) =>
      labels.flatMap((label) => {
        const text = label.firstChild!;
        const words = [...text.textContent!.matchAll(/\S+/g)];
        return words.flatMap((word) => {
          const range = document.createRange();
          range.setStart(text, word.index);
          range.setEnd(text, word.index + word[0].length);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1 ? [word[0]] : [];
        });
      }),
    );
    expect(split).toEqual([]);
    expect(await layoutProblems(page)).toEqual([]);
  });
});
