/**
 * The bench's and the browser tests' long history (scripts/lib/big-history.ts) is a backup the
 * app accepts: every log replays, every result and ledger line is its log's (parseBackup checks
 * all of it), and it is the same for the same seed.
 */
import { describe, expect, it } from 'vitest';
import { bigHistory } from '../../scripts/lib/big-history.ts';
import { parseBackup } from '../../src/lib/store/backup.ts';

describe('a long history made for the bench', () => {
  it('is a valid backup of finished games over the evenings asked for, the last evening open', () => {
    const { backup, stats } = bigHistory({ games: 24, players: 6, sessions: 12, seed: 3 });
    expect(() => parseBackup(JSON.stringify(backup))).not.toThrow();
    expect(backup.games).toHaveLength(24);
    expect(backup.games.every((g) => g.status === 'finished' && g.result !== null)).toBe(true);
    expect(backup.players).toHaveLength(6);
    expect(backup.sessions.map((s) => s.endedAt === null)).toEqual([...Array(11).fill(false), true]);
    expect(new Set(backup.games.map((g) => g.updatedAt)).size).toBe(24);
    expect(stats.actions).toBe(backup.games.reduce((n, g) => n + g.actions.length, 0));
    expect(stats.actionsPerGame.max).toBeLessThanOrEqual(450);
    expect(JSON.stringify(bigHistory({ games: 24, players: 6, sessions: 12, seed: 3 }).backup)).toBe(JSON.stringify(backup));
  });
});
