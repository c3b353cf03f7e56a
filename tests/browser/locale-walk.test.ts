/**
 * The app on phones set to other languages and regions (Chromium's `locale` and `timezoneId`): a
 * game of 5000 begun by the pad, then Home, History, Players and the game's log. Its words are
 * English, so every date and time is too, in the region's ways (format.ts, `dateLocale`): day
 * before month and a 24-hour clock in Berlin, Latin digits in Cairo beside the Latin scores,
 * never "07.12.2026" or "٠٧‏/١٢‏/٢٠٢٦، ٦:٢٤ م" in an English line. The CSV and the JSON transcript
 * say times the same on every phone (a spreadsheet's "2026-12-07 17:30:05", ISO times in UTC);
 * the CSV parts its fields as the region's spreadsheets do (";" where numbers take a decimal comma).
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appSession } from './harness.ts';
import { padRoll, startGame, tapBack } from './table-helpers.ts';

const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
/** "7 Dec 2026, 16:24": day first, a 24-hour clock. */
const DAY_FIRST_24 = new RegExp(`^\\d{1,2} ${MONTH} \\d{4}, \\d{2}:\\d{2}$`);
/** "7 Dec 2026, 4:24 pm". */
const DAY_FIRST_12 = new RegExp(`^\\d{1,2} ${MONTH} \\d{4}, \\d{1,2}:\\d{2}\\s[ap]m$`);
/** "Dec 7, 2026, 16:24". */
const MONTH_FIRST_24 = new RegExp(`^${MONTH} \\d{1,2}, \\d{4}, \\d{1,2}:\\d{2}$`);
/** "Dec 7, 2026, 4:24 PM". */
const MONTH_FIRST_12 = new RegExp(`^${MONTH} \\d{1,2}, \\d{4}, \\d{1,2}:\\d{2}\\s[AP]M$`);

const PHONES = [
  { locale: 'de-DE', csv: ';', timezoneId: 'Europe/Berlin', date: DAY_FIRST_24, time: /^\d{2}:\d{2}:\d{2}$/ },
  { locale: 'fr-FR', csv: ';', timezoneId: 'Europe/Paris', date: DAY_FIRST_24, time: /^\d{2}:\d{2}:\d{2}$/ },
  // Intl knows no "en-TR" or "en-EG": international English, the phone's own clock
  { locale: 'tr-TR', csv: ';', timezoneId: 'Europe/Istanbul', date: DAY_FIRST_24, time: /^\d{2}:\d{2}:\d{2}$/ },
  { locale: 'ar-EG', csv: ',', timezoneId: 'Africa/Cairo', date: DAY_FIRST_12, time: /^\d{1,2}:\d{2}:\d{2}\s[ap]m$/ },
  { locale: 'hi-IN', csv: ',', timezoneId: 'Asia/Kolkata', date: DAY_FIRST_12, time: /^\d{1,2}:\d{2}:\d{2}\s[ap]m$/ },
  { locale: 'ja-JP', csv: ',', timezoneId: 'Asia/Tokyo', date: MONTH_FIRST_24, time: /^\d{1,2}:\d{2}:\d{2}$/ },
  { locale: 'en-GB', csv: ',', timezoneId: 'Europe/London', date: DAY_FIRST_24, time: /^\d{2}:\d{2}:\d{2}$/ },
  { locale: 'en-US', csv: ',', timezoneId: 'America/New_York', date: MONTH_FIRST_12, time: /^\d{1,2}:\d{2}:\d{2}\s[AP]M$/ },
] as const;

async function download(page: Page, testId: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return readFile(await file.path(), 'utf8');
}

for (const phone of PHONES) {
  describe(`a phone set to ${phone.locale} (${phone.timezoneId})`, () => {
    const app = appSession({ locale: phone.locale, timezoneId: phone.timezoneId });

    it('says every date and time in English, in the region’s ways, with Latin digits', async () => {
      const { page } = app.session;
      await startGame(page, 'five-thousand', ['Ann', 'Bob'], 5);
      await padRoll(page, ['1', '2', '3', '4', '5']);
      // the pot and the slate: plain Latin numbers, as everywhere
      expect(await page.getByTestId('pot').textContent()).toBe('10');

      await page.getByTestId('open-log').click();
      await page.getByTestId('game-log').waitFor();
      const started = await page.locator('dt', { hasText: /^Started$/ }).locator('xpath=following-sibling::dd[1]').textContent();
      expect(started?.trim()).toMatch(phone.date);
      expect((await page.locator('[data-testid="log-step"] .time').first().textContent())?.trim()).toMatch(phone.time);
      // the exports say times the same on every phone: a spreadsheet's date and time, plain numbers; ISO times (UTC);
      // the CSV's fields parted as the region's spreadsheets part them (a German Excel puts a "," file in one column)
      const csv = (await download(page, 'export-csv')).replace(/^\uFEFF/, '').split('\r\n');
      const sep = phone.csv;
      expect(csv[0]).toBe(['#', 'time', 'player', 'action', 'dice', 'Ann score', 'Bob score', 'after'].join(sep));
      expect(csv[1]).toMatch(new RegExp(`^1${sep}\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}${sep}Ann${sep}[^\u0660-\u0669${sep}]*${sep}1 2 3 4 5${sep}0${sep}0${sep}`));
      const transcript = JSON.parse(await download(page, 'export-json')) as { times: string[]; options: { ante: number } };
      expect(transcript.times[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(transcript.options.ante).toBe(5);
      await tapBack(page);
      await page.getByTestId('headline').waitFor();
      await tapBack(page);

      // Home's game in progress and History's: "In progress · 7 Dec 2026, 16:24 · 1 move"
      const summary = page.getByTestId('game-summary').first();
      const [status, date, moves] = ((await summary.textContent()) ?? '').split(' · ');
      expect([status, moves]).toEqual(['In progress', '1 move']);
      expect(date).toMatch(phone.date);
      await page.getByRole('button', { name: 'History' }).click();
      await page.getByTestId('history-count').waitFor();
      expect((await page.getByTestId('game-summary').first().textContent())?.split(' · ')[1]).toBe(date);
      await page.getByRole('button', { name: 'Back' }).click();

      await page.getByRole('button', { name: 'Players' }).click();
      const player = page.getByTestId('player').first();
      await player.waitFor();
      expect((await player.textContent())?.match(/last played (.*?)\s*Rename/)?.[1]).toBe(date);
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByTestId('new-game').waitFor();
      expect(app.session.errors).toEqual([]);
    });
  });
}

describe('a phone set to Turkish: names typed in its lower case', () => {
  const app = appSession({ locale: 'tr-TR', timezoneId: 'Europe/Istanbul' });

  it('"ışıl" and "ilker" typed in New game offer Işıl and İlker, who played before', async () => {
    const { page } = app.session;
    await startGame(page, 'five-thousand', ['İlker', 'Işıl']);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('new-game').click();
    await page.getByTestId('player-name').fill('ışıl');
    await page.getByRole('button', { name: '+ Işıl' }).waitFor();
    await page.getByTestId('player-name').fill('ilker');
    await page.getByRole('button', { name: '+ İlker' }).waitFor();
    expect(app.session.errors).toEqual([]);
  });
});

describe('the ante typed on a German or Arabic keyboard', () => {
  const app = appSession({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });

  /** The ante typed key by key, as a phone's keyboard enters it, and Start tapped. */
  async function typeAnteAndStart(typed: string): Promise<void> {
    const { page } = app.session;
    const ante = page.getByTestId('ante');
    await ante.fill('');
    await ante.focus();
    await page.keyboard.type(typed);
    await page.getByTestId('start-game').click();
  }

  it('"0,50" or "1.000" is refused, not read as an ante of 50 or 1; "٥" is 5', async () => {
    const { page } = app.session;
    await page.getByTestId('new-game').click();
    for (const name of ['Ann', 'Bob']) {
      await page.getByTestId('player-name').fill(name);
      await page.getByTestId('add-player').click();
    }
    for (const typed of ['0,50', '2,5', '1.000']) {
      await typeAnteAndStart(typed);
      expect(await page.getByTestId('start-problem').textContent()).toBe('Ante per player: enter a whole number between 0 and 1000000.');
      expect(await page.getByTestId('headline').count()).toBe(0);
    }
    await typeAnteAndStart('٥');
    await page.getByTestId('headline').waitFor();
    expect(await page.getByTestId('pot').textContent()).toBe('10');
    expect(app.session.errors).toEqual([]);
  });
});

describe('the dice pad typed on an Arabic keyboard', () => {
  const app = appSession({ locale: 'ar-EG', timezoneId: 'Africa/Cairo' });

  it('Eastern Arabic digits ١–٦ enter dice as 1–6 do', async () => {
    const { page } = app.session;
    await startGame(page, 'five-thousand', ['سارة', 'Bob']);
    const one = page.getByTestId('dice-pad').locator('button[data-face="1"]');
    await one.focus();
    // keyboard.type sends a letter off the US layout as text alone, without the keydown a keyboard sends
    for (const key of '١٢٣٤٥') await one.dispatchEvent('keydown', { key, bubbles: true, cancelable: true });
    await page.getByTestId('dice-pad-done').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('camera-read').waitFor();
    expect(await page.getByTestId('camera-read').textContent()).toBe('1 2 3 4 5');
    expect(app.session.errors).toEqual([]);
  });
});

describe('speech on a phone set to German', () => {
  const app = appSession({ locale: 'de-DE', timezoneId: 'Europe/Berlin', open: false });

  it('says the English words in English, not in the phone’s German voice', async () => {
    const { page } = app.session;
    // records each utterance's text and language, in place of the browser's voice
    await page.addInitScript(`
      window.__spoken = [];
      window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; this.lang = ''; } };
      Object.defineProperty(window, 'speechSynthesis', { configurable: true, value: { speak: (u) => window.__spoken.push([u.text, u.lang]), cancel: () => {} } });
    `);
    await page.goto(app.server.url);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('speech').check();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await startGame(page, 'five-thousand', ['Ann', 'Bob']);
    await padRoll(page, ['1', '1', '1', '2', '3']);
    const spoken = (await page.evaluate('window.__spoken')) as [string, string][];
    expect(spoken.length).toBeGreaterThan(0);
    for (const [text, lang] of spoken) expect([text, lang]).toEqual([text, 'en']);
    expect(app.session.errors).toEqual([]);
  });
});
