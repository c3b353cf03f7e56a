/**
 * Finding a player by a name: THE one way New game, Play again, a transcript's import and a
 * backup's find who a typed or stored name is. A name is a player's name now, or one of the
 * names they were known by before (`PlayerRecord.aliases`: merged into them, or renamed from),
 * so "Bbo" typed the night after Bbo was merged into Bob seats Bob, not a second Bob.
 */
import { nameKey } from '../dice/names.ts';
import type { PlayerRecord } from './types.ts';

/** A player found by a name: `alias` is the other name they were found by ("Bbo"), null when it is their name now. */
export interface NamedPlayer {
  player: PlayerRecord;
  alias: string | null;
}

/** The names a player was known by before (none on records kept before they were). */
export function aliasesOf(player: Pick<PlayerRecord, 'aliases'>): readonly string[] {
  return player.aliases ?? [];
}

/**
 * The player `name` is among `players`: the one whose name it is (by `nameKey`), else the one who
 * was known by it. Names come first: a name is never also another player's other name (the store
 * keeps it so), but a player is found by their own name whatever an old record holds.
 */
export function playerNamed(players: readonly PlayerRecord[], name: string): NamedPlayer | undefined {
  const key = nameKey(name);
  if (key === '') return undefined;
  const named = players.find((p) => nameKey(p.name) === key);
  if (named) return { player: named, alias: null };
  for (const player of players) {
    const alias = aliasesOf(player).find((a) => nameKey(a) === key);
    if (alias !== undefined) return { player, alias };
  }
  return undefined;
}

/**
 * A player's other names as kept: each once (by `nameKey`, the first written kept), never the
 * name they have now, the latest last.
 */
export function aliasList(names: readonly string[], nameNow: string): string[] {
  const seen = new Set([nameKey(nameNow)]);
  const list: string[] = [];
  for (const name of names) {
    const key = nameKey(name);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    list.push(name);
  }
  return list;
}

/** `player` with `aliases` as its other names: the field left out when there are none. */
export function withAliases(player: PlayerRecord, aliases: readonly string[]): PlayerRecord {
  const { aliases: _old, ...rest } = player;
  const list = aliasList(aliases, player.name);
  return list.length > 0 ? { ...rest, aliases: list } : rest;
}

/** A name as a search sees it: `nameKey`, without accents ("jose" finds José, as a phone's contacts do). */
function searchKey(name: string): string {
  return nameKey(name).normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
}

/**
 * Whether `player` is one a player typing `typed` may mean: their name, or a name they were known
 * by, holds it, whatever its case or accents. Everyone matches nothing typed.
 */
export function playerMatches(player: Pick<PlayerRecord, 'name' | 'aliases'>, typed: string): boolean {
  const key = searchKey(typed);
  return [player.name, ...aliasesOf(player)].some((name) => searchKey(name).includes(key));
}

/**
 * The one player `name` is spelled like, accents aside ("Zoe" typed on a keyboard without "ë",
 * for Zoë): by their name or a name they were known by. Undefined when none is, or when several
 * are (then the player must say which). Only New game asks it, and says what it found: the store
 * and its files find players by `playerNamed` alone, since Zoe and Zoë may be two people.
 */
export function playerSpelledAlike(players: readonly PlayerRecord[], name: string): PlayerRecord | undefined {
  const key = searchKey(name);
  if (key === '') return undefined;
  const alike = players.filter((p) => [p.name, ...aliasesOf(p)].some((n) => searchKey(n) === key));
  return alike.length === 1 ? alike[0] : undefined;
}
