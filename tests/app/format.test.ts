import { describe, expect, it } from 'vitest';
import { backupFileName, fileNamePart, localDay } from '../../src/app/format.ts';

describe('file names', () => {
  it("file a game under the phone's own day, not UTC's", () => {
    // 08:30 on 5 January on this machine's clock, whatever its time zone
    expect(localDay(new Date(2025, 0, 5, 8, 30))).toBe('2025-01-05');
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
