/**
 * An evening's balances as the screens show and say them: one row per player, named as they are
 * called today, the most owed first. Home (tonight's, evenings never settled up) and History's
 * evenings read them the same way.
 */

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
