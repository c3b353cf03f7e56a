import type { MatchView, SlateRow } from '../lib/rules/index.ts';

/**
 * What the slate shows beside a player's name: badges for whose turn it is and who won, and the
 * game's own note for the row, less what a badge already says (several games note "winner", and
 * Hi-Low "to play", which the badges show anyway: the row would say it twice; Big Roll's
 * "winner: five 1s" is "five 1s" beside the winner badge).
 */
export function rowMarks(view: Pick<MatchView, 'current' | 'winners'>, row: Pick<SlateRow, 'player' | 'note'>): { badges: string[]; note: string | null } {
  const badges: string[] = [];
  if (view.current === row.player) badges.push('to play');
  if (view.winners?.includes(row.player)) badges.push('winner');
  if (row.note === null) return { badges, note: null };
  const said = badges.find((badge) => row.note!.trim().toLowerCase() === badge || row.note!.toLowerCase().startsWith(`${badge}: `));
  const note = said === undefined ? row.note : row.note.slice(said.length + 1).trim() || null;
  return { badges, note };
}
