import { afterAll, describe, expect, it } from 'vitest';

// A phone in Auckland (UTC+13 in January): its morning is the day before in UTC, so a day taken
// from UTC (toISOString) would be wrong here whatever zone the machine running the tests is in.
const zoneBefore = process.env.TZ;
process.env.TZ = 'Pacific/Auckland';
afterAll(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});
import { asSentence, backupFileName, dateLocale, diceText, fileNamePart, formatDateTime, formatTime, localDay, movesText, nameList, offsetsDiffer, playAgainText, typedWholeNumber } from '../../src/app/format.ts';

describe('dates on screen', () => {
  it("a time reads as toLocaleString says it on an en-US phone (Node's), in the phone's zone", () => {
    // the formatter is made once and kept: it must say what toLocaleString says, every time
    // (other regions: dateLocale below)
    for (const ms of [Date.UTC(2025, 0, 4, 20, 30), Date.UTC(2025, 6, 1, 12, 0), 0]) {
      expect(formatDateTime(ms)).toBe(new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }));
    }
    // 20:30 UTC on 4 January is half past nine the next morning in Auckland
    expect(formatDateTime(Date.UTC(2025, 0, 4, 20, 30))).toMatch(/\b0?9[:.]30\b/);
  });

  it("a log's time reads as toLocaleTimeString says it on an en-US phone, in the phone's zone, wherever the phone goes", () => {
    const ms = Date.UTC(2025, 0, 4, 20, 30, 5);
    for (const t of [ms, Date.UTC(2025, 6, 1, 12, 0, 59), 0]) expect(formatTime(t)).toBe(new Date(t).toLocaleTimeString());
    expect(formatTime(ms)).toMatch(/\b0?9[:.]30[:.]05\b/);
    try {
      process.env.TZ = 'Europe/London';
      expect(formatTime(ms)).toBe(new Date(ms).toLocaleTimeString());
      expect(formatTime(ms)).toMatch(/\b(0?8|20)[:.]30[:.]05\b/);
    } finally {
      process.env.TZ = 'Pacific/Auckland';
    }
  });

  it('follows the phone to another zone: the kept formatter does not say the old one', () => {
    const ms = Date.UTC(2025, 0, 4, 20, 30);
    expect(formatDateTime(ms)).toMatch(/\b0?9[:.]30\b/);
    try {
      // the app left open on a phone flown from Auckland to London
      process.env.TZ = 'Europe/London';
      expect(formatDateTime(ms)).toBe(new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }));
      expect(formatDateTime(ms)).toMatch(/\b(0?8|20)[:.]30\b/); // 20:30 in London
    } finally {
      process.env.TZ = 'Pacific/Auckland';
    }
    expect(formatDateTime(ms)).toMatch(/\b0?9[:.]30\b/);
  });
});

describe("the one locale of dates: English, in the phone's region's ways", () => {
  const said = (phone: string): string => {
    const { locale, hourCycle } = dateLocale(phone);
    return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', hourCycle, timeZone: 'UTC' }).format(Date.UTC(2026, 11, 4, 20, 40));
  };
  it('says English words and Latin digits, day before month and a 24-hour clock where the region does', () => {
    expect(said('de-DE')).toBe('4 Dec 2026, 20:40');
    expect(said('fr-FR')).toBe('4 Dec 2026, 20:40');
    expect(said('en-GB')).toBe('4 Dec 2026, 20:40');
    expect(said('en-US')).toMatch(/^Dec 4, 2026, 8:40\sPM$/);
    expect(said('hi-IN')).toMatch(/^4 Dec 2026, 8:40\spm$/);
  });
  it("where Intl knows no English of the region, international English with the phone's own clock", () => {
    expect(dateLocale('tr-TR')).toEqual({ locale: 'en-001', hourCycle: 'h23' });
    expect(said('tr-TR')).toBe('4 Dec 2026, 20:40');
    expect(dateLocale('ar-EG')).toEqual({ locale: 'en-001', hourCycle: 'h12' });
    expect(said('ar-EG')).toMatch(/^4 Dec 2026, 8:40\s?pm$/);
  });
});

describe('a whole number typed in a field', () => {
  it('reads digits, from any keyboard; refuses a decimal comma or point and a thousands separator rather than guess', () => {
    expect(typedWholeNumber('5')).toBe(5);
    expect(typedWholeNumber(' 12 ')).toBe(12);
    expect(typedWholeNumber('0')).toBe(0);
    expect(typedWholeNumber('\u0665')).toBe(5); // Arabic-Indic ٥
    expect(typedWholeNumber('\u06f1\u06f0')).toBe(10); // Persian ۱۰
    expect(typedWholeNumber('\u0968\u0966')).toBe(20); // Devanagari २०
    expect(typedWholeNumber('\uff13')).toBe(3); // full-width ３
    for (const text of ['', ' ', '0,50', '2,5', '2.5', '1.000', '1,000', '-1', '5e3', '+5', 'five', '\u0e51']) expect(typedWholeNumber(text)).toBeNull();
  });
});

describe('the night the clocks go back', () => {
  it("a game's times across it say their zones, said as they are without", () => {
    try {
      // Berlin, 25 October 2026: 03:00 CEST becomes 02:00 CET
      process.env.TZ = 'Europe/Berlin';
      const before = Date.UTC(2026, 9, 25, 0, 50);
      const after = Date.UTC(2026, 9, 25, 1, 10);
      expect(offsetsDiffer([before, after])).toBe(true);
      expect(offsetsDiffer([Date.UTC(2026, 9, 24, 19), before])).toBe(false);
      expect(offsetsDiffer([])).toBe(false);
      expect(formatTime(before, true)).toMatch(new RegExp(`^${formatTime(before)} \\S+`));
      // 02:50 twice that night, an hour apart: told apart by their zones
      const again = Date.UTC(2026, 9, 25, 1, 50);
      expect(formatTime(again)).toBe(formatTime(before));
      expect(formatTime(again, true)).not.toBe(formatTime(before, true));
      expect(formatTime(before, true)).toMatch(/\b0?2[:.]50[:.]00\b/);
      expect(formatDateTime(after, true).startsWith(`${formatDateTime(after)} `)).toBe(true);
      expect(formatTime(after)).toBe(new Date(after).toLocaleTimeString());
    } finally {
      process.env.TZ = 'Pacific/Auckland';
    }
  });
});

describe('file names', () => {
  it("file a game under the phone's own day, not UTC's", () => {
    const morning = new Date(2025, 0, 5, 8, 30);
    expect(morning.toISOString().slice(0, 10)).toBe('2025-01-04');
    expect(localDay(morning)).toBe('2025-01-05');
    expect(localDay(new Date(2025, 11, 31, 23, 59))).toBe('2025-12-31');
    expect(backupFileName(new Date(2025, 0, 5, 0, 30))).toBe('rollcall-backup-2025-01-05.json');
  });

  it('keep every letter of a name with its accents and vowel signs, and drop the rest', () => {
    expect(fileNamePart('प्रिया')).toBe('प्रिया');
    expect(fileNamePart('José (host)')).toBe('Joséhost');
    expect(fileNamePart('سارة 2')).toBe('سارة2');
    expect(fileNamePart('Ann/../Bob')).toBe('AnnBob');
  });
});

describe('names in a row on screen', () => {
  it('isolates a right-to-left name, so a list keeps its order on screen; other names stay as they are', () => {
    const [sara, layla] = ['سارة', 'ליילה'];
    expect(nameList([sara, layla, 'Bob'])).toBe(`\u2068${sara}\u2069, \u2068${layla}\u2069, Bob`);
    expect(nameList(['José', 'प्रिया', 'Ann'])).toBe('José, प्रिया, Ann');
  });

  it('play again names a table of up to four, and counts a bigger one instead of listing twenty names', () => {
    expect(playAgainText(['Ann', 'Bob'])).toBe('Play again with Ann, Bob');
    expect(playAgainText(['Ann', 'Bob', 'Cy', 'Dee'])).toBe('Play again with Ann, Bob, Cy, Dee');
    const twenty = Array.from({ length: 20 }, (_, i) => `Player ${i + 1}`);
    expect(playAgainText(twenty)).toBe('Play again with the same 20 players');
  });
});

describe('an error said before another sentence', () => {
  it('ends with a full stop, added only where it has no closing punctuation', () => {
    expect(asSentence('OffscreenCanvas is not defined')).toBe('OffscreenCanvas is not defined.');
    expect(asSentence('These dice cannot be read as Point Five dice.')).toBe('These dice cannot be read as Point Five dice.');
    expect(asSentence('Is it on?')).toBe('Is it on?');
    expect(asSentence('It said "stop."')).toBe('It said "stop."');
    expect(asSentence('(no reply in 60 s)')).toBe('(no reply in 60 s).');
    expect(asSentence('  spaced out  ')).toBe('spaced out.');
  });
});

describe('diceText', () => {
  it('counts dice as the screens say them', () => {
    expect(diceText(1)).toBe('1 die');
    expect(diceText(0)).toBe('0 dice');
    expect(diceText(5)).toBe('5 dice');
  });
});

describe('movesText', () => {
  it("says a game's length in moves, the players' word, one move alone", () => {
    expect(movesText(1)).toBe('1 move');
    expect(movesText(0)).toBe('0 moves');
    expect(movesText(23)).toBe('23 moves');
  });
});
