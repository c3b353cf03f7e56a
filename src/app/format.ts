/** Small formatting helpers shared by the screens. */

/** How a phone's clock is read: Intl's hour cycles. */
type HourCycle = NonNullable<Intl.DateTimeFormatOptions['hourCycle']>;

/**
 * THE rule for every date and time the app says: in its own language, English, with the phone's
 * region's ways. "4 Dec 2026, 21:40" on a phone set to German in Germany ("en-DE": day before
 * month, a 24-hour clock), "Dec 4, 2026, 9:40 PM" in the US, never "04.12.2026" or "٠٤‏/١٢‏/٢٠٢٦"
 * with "م" for PM in an English sentence beside Latin scores. Where Intl knows no English of the
 * region (Turkey, Egypt: it would fall back to US English), international English ("en-001", day
 * before month). Either way the clock is the phone's own, 24-hour or not. `phone`: the phone's
 * locale, as Intl's default resolves it.
 */
export function dateLocale(phone: string): { locale: string; hourCycle: HourCycle | undefined } {
  const region = new Intl.Locale(phone).maximize().region;
  const wanted = region === undefined ? 'en' : `en-${region}`;
  const locale = new Intl.DateTimeFormat(wanted).resolvedOptions().locale === wanted ? wanted : 'en-001';
  return { locale, hourCycle: new Intl.DateTimeFormat(phone, { hour: 'numeric' }).resolvedOptions().hourCycle };
}

/** The formatters of this file, all in `dateLocale` (each also with its zone's name), and the phone's UTC offset (minutes) and language when they were made. */
interface Formatters {
  dateTime: Intl.DateTimeFormat;
  time: Intl.DateTimeFormat;
  /** The zone's short name at a moment ("CEST", "GMT+2"), read from its parts. */
  zone: Intl.DateTimeFormat;
  /** A day: "4 Dec 2026". */
  day: Intl.DateTimeFormat;
  /** A day of this year or so: "4 Dec". */
  dayMonth: Intl.DateTimeFormat;
}
let kept: (Formatters & { offset: number; language: string }) | undefined;

/**
 * The kept formatters. One of each, kept: `toLocaleString` with options builds a new one every
 * time, and History writes two dates per game (a two-year history of 600 games spent about 90 ms
 * there on formatters alone), a game's log a time per action. A formatter keeps the zone it was
 * made in, and an app left open on a phone carried to another zone would say its dates in the
 * old one: new ones are made when the phone's offset now is not the one they were made at (or
 * its language, set anew in the phone's settings).
 */
function formatters(): Formatters {
  const offset = new Date().getTimezoneOffset();
  const language = typeof navigator === 'undefined' ? '' : navigator.language;
  if (kept?.offset !== offset || kept.language !== language) {
    const { locale, hourCycle } = dateLocale(new Intl.DateTimeFormat().resolvedOptions().locale);
    kept = {
      dateTime: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', hourCycle }),
      // the options `toLocaleTimeString()` takes when given none (ECMA-402's ToDateTimeOptions)
      time: new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle }),
      zone: new Intl.DateTimeFormat(locale, { hour: 'numeric', timeZoneName: 'short', hourCycle }),
      day: new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }),
      dayMonth: new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' }),
      offset,
      language,
    };
  }
  return kept;
}

/**
 * "6 Dec 2025, 21:40" (`dateLocale`) in the phone's zone; `zoned` (`offsetsDiffer`) adds the
 * zone's name: "25 Oct 2026, 02:40 CEST", then "02:20 CET" an hour later by the sun.
 */
export function formatDateTime(ms: number, zoned = false): string {
  return withZone(formatters().dateTime.format(ms), ms, zoned);
}

/** "21:40:05" (`dateLocale`) in the phone's zone: a log's times; `zoned`: with its zone's name. */
export function formatTime(ms: number, zoned = false): string {
  return withZone(formatters().time.format(ms), ms, zoned);
}

/** "3 Dec" (`dateLocale`): the day of a game a sentence names. */
export function formatDayMonth(ms: number): string {
  return formatters().dayMonth.format(ms);
}

/** `text` (the moment `ms` said without its zone) and, when `zoned`, the zone's short name after it: said the same way either way. */
function withZone(text: string, ms: number, zoned: boolean): string {
  const zone = zoned ? formatters().zone.formatToParts(ms).find((part) => part.type === 'timeZoneName')?.value : undefined;
  return zone ? `${text} ${zone}` : text;
}

/**
 * Whether the phone's clock was on more than one UTC offset over these moments: a game played
 * across a daylight-saving night, where 02:50 comes before 02:10 (the clocks went back at 03:00)
 * and a game seems to end before it began. Its times are then said with their zones.
 */
export function offsetsDiffer(times: readonly number[]): boolean {
  return new Set(times.map((t) => new Date(t).getTimezoneOffset())).size > 1;
}

/**
 * An evening's name, by the day it began: "6 Dec 2026" (`dateLocale`), as History dates its games
 * (a numeric "12/6/2026" reads as June 12th to half the world). Kept with the evening, so it is
 * English on every phone, as the screens that show it are.
 */
export function eveningName(at: Date = new Date()): string {
  return formatters().day.format(at);
}

/** The zero of each run of digits a phone's keyboard may type besides 0–9: Arabic-Indic, Persian, Devanagari, Bengali, full-width. */
const DIGIT_ZEROS = [0x0660, 0x06f0, 0x0966, 0x09e6, 0xff10];

/**
 * A whole number as typed in a field ("5", " 12 ", or "٥" on an Arabic keyboard), else null:
 * "0,50", "2.5" or a German "1.000" are not guessed at. A `type="number"` field does guess, and
 * by the browser's rules: Chromium drops the comma of "0,50" and reads 50, reads "1.000" as 1.
 */
export function typedWholeNumber(text: string): number | null {
  const digits = text.trim().replace(/\p{Nd}/gu, (digit) => {
    const code = digit.codePointAt(0)!;
    const zero = DIGIT_ZEROS.find((z) => code >= z && code <= z + 9);
    return zero === undefined ? digit : String(code - zero);
  });
  return /^[0-9]+$/.test(digits) ? Number(digits) : null;
}

/**
 * An error's message said on screen before another sentence: a full stop added where it has no
 * closing punctuation of its own (a browser's "OffscreenCanvas is not defined").
 */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  return trimmed === '' || /[.!?…]["'”’)]*$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GB`;
}

/** Saves text (or a Blob made of it) as a file through a download link (works offline, no dependency). */
export function downloadText(fileName: string, text: string | Blob, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // long enough for a slow phone to start saving a large file (a backup with pictures)
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The day of `date` on this phone's calendar, `2025-01-05`: for file names. Not toISOString's
 * day, which is UTC's (a game at 08:30 in Auckland would be filed under the day before).
 */
export function localDay(date: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/** A moment on this phone's clock as spreadsheets read a date and time: `2025-01-05 20:15:03`. */
export function spreadsheetTime(ms: number): string {
  const date = new Date(ms);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${localDay(date)} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/**
 * Words as a part of a file name: letters with their accents and vowel signs (`\p{M}`: "प्रिया"
 * keeps its signs) and digits, everything else dropped.
 */
export function fileNamePart(text: string): string {
  return text.replace(/[^\p{L}\p{M}\p{N}]+/gu, '');
}

/** The file name a backup is saved under, e.g. `rollcall-backup-2025-06-01.json` (the phone's day). */
export function backupFileName(now: Date = new Date()): string {
  return `rollcall-backup-${localDay(now)}.json`;
}

/** A letter of a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko…). */
const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;

/**
 * A name as a list on screen shows it: one with right-to-left letters isolated (U+2068 … U+2069),
 * so that "سارة, ليلى, Bob" keeps its turn order instead of the two Arabic names swapping places
 * with their comma. Other names are left as they are. For the screen and the screen reader only:
 * the rules' words, transcripts, CSV and file names stay plain text.
 */
export function isolated(name: string): string {
  return RIGHT_TO_LEFT.test(name) ? `\u2068${name}\u2069` : name;
}

/** "Ann, Bob, Cy": names in a row on screen, each `isolated`. */
export function nameList(names: readonly string[]): string {
  return names.map(isolated).join(', ');
}

/**
 * The game over screen's button: "Play again with Ann, Bob, Cy" for a small table, "Play again
 * with the same 20 players" past four, where the names (all in the ledger above) would make the
 * button a paragraph that a phone's screen cuts.
 */
export function playAgainText(names: readonly string[]): string {
  return names.length <= 4 ? `Play again with ${nameList(names)}` : `Play again with the same ${names.length} players`;
}

/** "1 die", "5 dice": a count of dice, as every screen says it. */
export function diceText(count: number): string {
  return count === 1 ? '1 die' : `${count} dice`;
}

/**
 * "12 moves": how long a game's log is, as History and an import say it. Each is a roll or a
 * choice at the table (a log step); "actions" is the store's word, not the players'.
 */
export function movesText(count: number): string {
  return `${count} ${count === 1 ? 'move' : 'moves'}`;
}
