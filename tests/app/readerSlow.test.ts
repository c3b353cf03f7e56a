import { afterEach, describe, expect, it, vi } from 'vitest';
import { READER_SLOW_MS, readerSlowSentence, watchReaderSlow, type ReaderSlow } from '../../src/app/readerSlow.ts';

describe('a dice reader slow to start, as the table and the Camera check say it', () => {
  afterEach(() => vi.useRealTimers());

  it('is said to be still starting after READER_SLOW_MS where no first visit downloads it (no service worker here), not before nor once stopped', () => {
    vi.useFakeTimers();
    const heard: ReaderSlow[] = [];
    watchReaderSlow((slow) => heard.push(slow));
    vi.advanceTimersByTime(READER_SLOW_MS - 1);
    expect(heard).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(heard).toEqual([{ firstVisit: false }]);
    expect(readerSlowSentence({ firstVisit: false }, true)).toBe('Still starting the dice reader…');

    const stopped: ReaderSlow[] = [];
    const stop = watchReaderSlow((slow) => stopped.push(slow));
    stop();
    vi.advanceTimersByTime(READER_SLOW_MS);
    expect(stopped).toEqual([]);
  });

  it('says how much of what the first read needs has downloaded on a first visit, and still starting once all of it has', () => {
    const sizes = __FIRST_READ_BYTES__.pips;
    const files = Object.keys(sizes);
    const total = Object.values(sizes).reduce((sum, bytes) => sum + bytes, 0);
    const megabytes = (Math.round(total / 1e5) / 10).toFixed(1);
    expect(readerSlowSentence({ firstVisit: true, downloads: null }, true)).toBe(`Downloading the dice reader (${megabytes}\u00a0MB, on a first visit only)…`);
    const first = files[0]!;
    const oneLanded = [{ file: first, bytes: sizes[first]!, inflated: false, done: true }];
    expect(readerSlowSentence({ firstVisit: true, downloads: oneLanded }, true)).toMatch(new RegExp(`^Downloading the dice reader: \\d+\\.\\d of ${megabytes}\u00a0MB \\(on a first visit only\\)…$`));
    const allLanded = files.map((file) => ({ file, bytes: sizes[file]!, inflated: false, done: true }));
    expect(readerSlowSentence({ firstVisit: true, downloads: allLanded }, true)).toBe('Still starting the dice reader…');
    // a symbol kit's first read needs the face model and the symbol detector as well
    expect(readerSlowSentence({ firstVisit: true, downloads: allLanded }, false)).toMatch(/^Downloading the dice reader: /);
  });
});
