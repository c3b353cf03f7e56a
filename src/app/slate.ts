import type { MatchView, SlateRow } from '../lib/rules/index.ts';

/**
 * What the slate shows beside a player's name: badges for whose turn it is and who won, and the
 * game's own note for the row, unless a badge already says it (several games note "winner", and
 * Hi-Low "to play", which the badges show anyway: the row would say it twice).
 */
export function rowMarks(view: Pick<MatchView, 'current' | 'winners'>, row: Pick<SlateRow, 'player' | 'note'>): { badges: string[]; note: string | null } {
  const badges: string[] = [];
  if (view.current === row.player) badges.push('to play');
  if (view.winners?.includes(row.player)) badges.push('winner');
  const note = row.note !== null && badges.includes(row.note.trim().toLowerCase()) ? null : row.note;
  return { badges, note };
}
