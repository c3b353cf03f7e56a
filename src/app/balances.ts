/**
 * An evening's balances as the screens show and say them: one row per player, named as they are
 * called today, the most owed first. Home (tonight's, evenings never settled up) and History's
 * evenings read them the same way.
 */
import { isolated } from './format.ts';

export interface BalanceRow {
  id: string;
  name: string;
  amount: number;
}

/** A session's balances by player id (`sessionBalances`) as rows, named by `namesNow` (`listPlayers`). */
export function balanceRows(amounts: Record<string, number>, namesNow: ReadonlyMap<string, string>): BalanceRow[] {
  return Object.entries(amounts)
    .map(([id, amount]) => ({ id, name: namesNow.get(id) ?? 'Someone', amount }))
    .sort((a, b) => b.amount - a.amount);
}

/** "Ann +6, Bob -6", as the balances show them. */
export function balancesSaid(rows: readonly Pick<BalanceRow, 'name' | 'amount'>[]): string {
  return rows.map(({ name, amount }) => `${name} ${amount > 0 ? '+' : ''}${amount}`).join(', ');
}

/**
 * An evening's balances as a line of text for the group's chat (Share): "Dec 7, 2026 (2 games):
 * Ann +4, Bob -2". A right-to-left name keeps its place in the line (`isolated`).
 */
export function eveningText(name: string, rows: readonly Pick<BalanceRow, 'name' | 'amount'>[], games?: number): string {
  const count = games === undefined ? '' : ` (${games} ${games === 1 ? 'game' : 'games'})`;
  return `${name}${count}: ${balancesSaid(rows.map((row) => ({ ...row, name: isolated(row.name) })))}`;
}
