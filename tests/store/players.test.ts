/**
 * Players set right: a rename, and two records of one person merged ("Bbo" typed one night, "Bob"
 * the next) with their games, results and ledger lines, all in one transaction or not at all.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { resultOfGame, RollcallStore as Store, StoreError, type JsonObject, type RollcallStore } from '../../src/lib/store/index.ts';
import { matchResult, replay, type Action } from '../../src/lib/rules/index.ts';
import { expectStoreError, storesClosedAfterEach } from './helpers.ts';

const store = storesClosedAfterEach();

async function refusal(p: Promise<unknown>, code: StoreError['code']): Promise<string> {
  return (await expectStoreError(p, code)).message;
}

/** Big Roll 5000 with an ante of 2: the second seat throws five ones and takes the pot of 6 (+4; the others −2). */
const FIVE_ONES = JSON.parse(readFileSync(resolve(import.meta.dirname, '../transcripts/big-roll-5000/five-ones-win.json'), 'utf8')) as { options: JsonObject; actions: Action[] };
const DICE = { kitId: 'standard', taughtSetId: null };

/** The five-ones game for three players by name, imported finished into `sessionId`, as the table would have written it. */
async function fiveOnesFor(s: RollcallStore, sessionId: string, names: [string, string, string]) {
  const result = matchResult(replay({ game: 'big-roll-5000', players: names, options: FIVE_ONES.options, actions: FIVE_ONES.actions }));
  return s.importGame({ game: 'big-roll-5000', playerNames: names, options: FIVE_ONES.options, ante: 2, dice: DICE, sessionId, actions: FIVE_ONES.actions, result });
}

/** Everything the store holds that a merge could touch, to check that a refusal changed none of it. */
async function everything(s: RollcallStore, sessionId: string) {
  return { players: await s.listPlayers(), games: await s.listGames(), ledger: await s.ledgerForSession(sessionId) };
}

const idOf = async (s: RollcallStore, name: string): Promise<string> => (await s.listPlayers()).find((p) => p.name === name)!.id;

describe('merging two records of one person', () => {
  it("gives every game, result and ledger line of Bbo's to Bob, keeps the names played under, and sums the evening's balances as one", async () => {
    const s = await store();
    const evening = await s.startSession('Friday');
    const first = await fiveOnesFor(s, evening.id, ['Ann', 'Bbo', 'Cy']);
    const second = await fiveOnesFor(s, evening.id, ['Ann', 'Bob', 'Cy']);
    const [ann, bbo, bob, cy] = await Promise.all(['Ann', 'Bbo', 'Bob', 'Cy'].map((n) => idOf(s, n)));
    await s.addLedgerEntry({ sessionId: evening.id, deltas: { [bbo!]: -1, [bob!]: 1, [ann!]: 0 }, note: 'Bbo paid Bob' });
    expect(await s.sessionBalances(evening.id)).toEqual({ [ann!]: -4, [bbo!]: 3, [bob!]: 5, [cy!]: -4 });
    expect((await s.playerSummaries()).map((p) => [p.player.name, p.games])).toEqual(
      expect.arrayContaining([['Bbo', 1], ['Bob', 1], ['Ann', 2], ['Cy', 2]]),
    );

    const merged = await s.mergePlayers(bbo!, bob!);
    expect(merged).toMatchObject({ player: { id: bob, name: 'Bob' }, games: 1, ledgerLines: 2 });

    // one row on Home's balances: both wins, and the settle-up between the two nets out
    expect(await s.sessionBalances(evening.id)).toEqual({ [ann!]: -4, [bob!]: 8, [cy!]: -4 });
    expect((await s.listPlayers()).map((p) => p.name).sort()).toEqual(['Ann', 'Bob', 'Cy']);
    expect((await s.playerSummaries()).find((p) => p.player.id === bob)?.games).toBe(2);
    const game = (await s.getGame(first.id))!;
    // the seat keeps the name it was played under: the log reads as it was played
    expect(game.players).toEqual([{ id: ann, name: 'Ann' }, { id: bob, name: 'Bbo' }, { id: cy, name: 'Cy' }]);
    expect(game.result).toEqual({ winners: [bob], payouts: { [ann!]: -2, [bob!]: 4, [cy!]: -2 } });
    // a table open elsewhere holding Bbo's id sees the game changed; a merge is no game played, so History's order stays
    expect(game.logRevision).toBe((first.logRevision ?? 0) + 1);
    expect(game.updatedAt).toBe(first.updatedAt);
    // Bob's own game is untouched
    expect(await s.getGame(second.id)).toEqual(second);
    // Bob keeps the name he was known by: typed again, it is Bob's (see 'the names a player was known by')
    expect((await s.listPlayers()).find((p) => p.id === bob)?.aliases).toEqual(['Bbo']);
  });

  it('refuses, changing nothing, an unknown player, a player merged with themselves, and two who sat in one game', async () => {
    const s = await store();
    const evening = await s.startSession('Friday');
    const together = await fiveOnesFor(s, evening.id, ['Ann', 'Bbo', 'Bob']);
    await fiveOnesFor(s, evening.id, ['Ann', 'Bbo', 'Cy']);
    const [bbo, bob] = await Promise.all(['Bbo', 'Bob'].map((n) => idOf(s, n)));
    const before = await everything(s, evening.id);

    expect(await refusal(s.mergePlayers('nobody', bob!), 'not-found')).toBe('That player is not on this device.');
    expect(await refusal(s.mergePlayers(bbo!, 'nobody'), 'not-found')).toBe('That player is not on this device.');
    expect(await refusal(s.mergePlayers(bob!, bob!), 'invalid-input')).toBe('Bob is already that player: choose someone else to merge with.');
    const day = new Date(together.createdAt).toISOString().slice(0, 10);
    expect(await refusal(s.mergePlayers(bbo!, bob!), 'played-together')).toBe(
      `Bob and Bbo played in the same game of big-roll-5000, started ${day}: they are two people, so they cannot be merged.`,
    );
    // the app names the game in its own words
    expect(await refusal(s.mergePlayers(bob!, bbo!, (g) => `${g.game === 'big-roll-5000' ? '5000' : '?'}, started 3 Dec`), 'played-together')).toBe(
      'Bbo and Bob played in the same game of 5000, started 3 Dec: they are two people, so they cannot be merged.',
    );
    expect(await everything(s, evening.id)).toEqual(before);
  });

  it('leaves a game in play playable: its next move and its end are written under the kept player, and a write from before the merge is refused as stale', async () => {
    const s = await store();
    const evening = await s.startSession('Friday');
    // the five-ones game one throw short of its end
    const game = await s.importGame({
      game: 'big-roll-5000',
      playerNames: ['Ann', 'Bbo', 'Cy'],
      options: FIVE_ONES.options,
      ante: 2,
      dice: DICE,
      sessionId: evening.id,
      actions: FIVE_ONES.actions.slice(0, -1),
      result: null,
    });
    await s.addPlayer('Bob');
    const [ann, bbo, bob, cy] = await Promise.all(['Ann', 'Bbo', 'Bob', 'Cy'].map((n) => idOf(s, n)));
    const seenBefore = { expectedCount: game.actionCount, expectedRevision: game.logRevision ?? 0 };

    await s.mergePlayers(bbo!, bob!);

    // a table that loaded the game before the merge (another tab) may not write its old ids
    await refusal(s.appendAction(game.id, FIVE_ONES.actions.at(-1)!, seenBefore), 'stale-log');
    // loaded again, the game replays under the names played and ends with the kept player's win
    const { game: header, actions } = await s.loadGame(game.id);
    expect(header.status).toBe('active');
    const last = FIVE_ONES.actions.at(-1)!;
    const state = replay({ game: header.game, players: header.players.map((p) => p.name), options: header.options, actions: [...(actions as Action[]), last] }, { namesAsPlayed: true });
    const result = matchResult(state)!;
    expect(result.winners).toEqual([1]);
    await s.appendAction(game.id, last, { expectedCount: header.actionCount, expectedRevision: header.logRevision ?? 0 }, resultOfGame(header.players, header.ante, result));
    expect(await s.getGame(game.id)).toMatchObject({ status: 'finished', result: { winners: [bob] } });
    expect(await s.sessionBalances(evening.id)).toEqual({ [ann!]: -2, [bob!]: 4, [cy!]: -2 });
  });

  it('keeps the earlier start and the later last game of the two', async () => {
    const s = await store();
    const bob = await s.addPlayer('Bob');
    const bbo = await s.addPlayer('Bbo');
    await s.createGame({ game: 'war', players: [{ id: bbo.id, name: 'Bbo' }, { id: 'p-x', name: 'Xi' }], dice: DICE });
    const lastPlayed = (await s.listPlayers()).find((p) => p.id === bbo.id)!.lastPlayedAt;
    const kept = (await s.mergePlayers(bbo.id, bob.id)).player;
    expect(kept).toEqual({ ...bob, aliases: ['Bbo'], lastPlayedAt: lastPlayed });
  });
});

describe('a game seating a player no longer here', () => {
  it('is refused, the player named, and nothing is written: a New game left open across a merge seats no ghost', async () => {
    const s = await store();
    const bob = await s.addPlayer('Bob');
    const bbo = await s.addPlayer('Bbo');
    const evening = await s.startSession('Friday');
    await s.mergePlayers(bbo.id, bob.id);
    // the store's own createGame (helpers' stand-in for New game would add the id again)
    const seats = [{ id: bob.id, name: 'Bob' }, { id: bbo.id, name: 'Bbo' }];
    expect(await refusal(Store.prototype.createGame.call(s, { game: 'war', players: seats, dice: DICE, sessionId: evening.id }), 'not-found')).toBe(
      'Bbo is no longer on this device (merged into another player, or changed in another tab), so the game was not started.',
    );
    expect(await s.listGames()).toEqual([]);
    expect(await s.listPlayers()).toEqual([{ ...bob, aliases: ['Bbo'] }]);
    // the same seats with the kept player start the game
    const game = await Store.prototype.createGame.call(s, { game: 'war', players: [{ id: bob.id, name: 'Bob' }], dice: DICE, sessionId: evening.id });
    expect(game.players).toEqual([{ id: bob.id, name: 'Bob' }]);
  });
});

describe('renaming a player', () => {
  it('refuses a name another player has, suggesting a merge, and changes nothing', async () => {
    const s = await store();
    const bbo = await s.addPlayer('Bbo');
    await s.addPlayer('Bob');
    expect(await refusal(s.renamePlayer(bbo.id, ' bob '), 'name-taken')).toBe('There is already a player called Bob. If Bbo is Bob, merge them instead: "Same person as…".');
    expect((await s.listPlayers()).map((p) => p.name).sort()).toEqual(['Bbo', 'Bob']);
    // a name set right in case only is the same player's
    expect((await s.renamePlayer(bbo.id, 'BBO')).name).toBe('BBO');
  });
});

describe('the names a player was known by', () => {
  /** A transcript of a war game between `names`, imported as New game's import would (no result). */
  const warBetween = (s: RollcallStore, names: string[]) => s.importGame({ game: 'war', playerNames: names, options: {}, ante: 0, dice: DICE, actions: [], result: null });
  const names = async (s: RollcallStore) => (await s.listPlayers()).map((p) => [p.name, p.aliases ?? []]).sort();

  it('a merge keeps the name merged away, and the names it was known by, on the player kept', async () => {
    const s = await store();
    const robert = await s.addPlayer('Robert');
    const bob = await s.addPlayer('Bob');
    const bbo = await s.addPlayer('Bbo');
    await s.mergePlayers(bbo.id, bob.id);
    await s.mergePlayers(bob.id, robert.id);
    expect(await names(s)).toEqual([['Robert', ['Bob', 'Bbo']]]);
  });

  it('a transcript that seats a name merged away seats the player kept, under the name played', async () => {
    const s = await store();
    const bob = await s.addPlayer('Bob');
    const bbo = await s.addPlayer('Bbo');
    await s.mergePlayers(bbo.id, bob.id);
    const game = await warBetween(s, [' BBO ', 'Ann']);
    expect(game.players[0]).toEqual({ id: bob.id, name: 'BBO' });
    expect(await names(s)).toEqual([['Ann', []], ['Bob', ['Bbo']]]);
  });

  it('a transcript that seats Bob and Bbo side by side: Bbo is someone else, and no longer a name of Bob’s', async () => {
    const s = await store();
    const bob = await s.addPlayer('Bob');
    const bbo = await s.addPlayer('Bbo');
    await s.mergePlayers(bbo.id, bob.id);
    const game = await warBetween(s, ['Bbo', 'Bob']);
    expect(game.players[1]).toEqual({ id: bob.id, name: 'Bob' });
    expect(game.players[0]!.id).not.toBe(bob.id);
    expect(await names(s)).toEqual([['Bbo', []], ['Bob', []]]);
  });

  it('a new player may not take a name someone was known by, unless they are someone else (apart), which frees it', async () => {
    const s = await store();
    const bob = await s.addPlayer('Bob');
    const bbo = await s.addPlayer('Bbo');
    await s.mergePlayers(bbo.id, bob.id);
    expect(await refusal(s.addPlayer('bbo'), 'name-taken')).toBe('Bbo is a name Bob was known by: Bob plays when it is typed.');
    expect(await names(s)).toEqual([['Bob', ['Bbo']]]);
    const other = await s.addPlayer('bbo', { apart: true });
    expect(await names(s)).toEqual([['Bob', []], ['bbo', []]]);
    expect((await warBetween(s, ['Bbo', 'Bob'])).players.map((p) => p.id)).toEqual([other.id, bob.id]);
  });

  it('a rename keeps the old name; renamed back, the name is theirs again; a case fix is no other name', async () => {
    const s = await store();
    const bob = await s.addPlayer('Bob');
    await s.renamePlayer(bob.id, 'Robert');
    expect(await names(s)).toEqual([['Robert', ['Bob']]]);
    expect((await warBetween(s, ['bob', 'Ann'])).players[0]).toEqual({ id: bob.id, name: 'bob' });
    await s.renamePlayer(bob.id, 'Bob');
    expect((await s.listPlayers()).find((p) => p.id === bob.id)?.aliases).toEqual(['Robert']);
    await s.renamePlayer(bob.id, 'BOB');
    expect((await s.listPlayers()).find((p) => p.id === bob.id)?.aliases).toEqual(['Robert']);
  });

  it('refuses to rename another player to a name someone was known by, and changes nothing', async () => {
    const s = await store();
    const bob = await s.addPlayer('Bob');
    const bbo = await s.addPlayer('Bbo');
    const ann = await s.addPlayer('Ann');
    await s.mergePlayers(bbo.id, bob.id);
    expect(await refusal(s.renamePlayer(ann.id, 'BBO'), 'name-taken')).toBe(
      'Bbo is a name Bob was known by. If Ann is Bob, merge them instead: "Same person as…"; if not, forget Bbo on Bob first.',
    );
    expect(await names(s)).toEqual([['Ann', []], ['Bob', ['Bbo']]]);
  });

  it('a name forgotten no longer finds the player and is free again', async () => {
    const s = await store();
    const bob = await s.addPlayer('Bob');
    const bbo = await s.addPlayer('Bbo');
    await s.mergePlayers(bbo.id, bob.id);
    expect(await refusal(s.forgetName(bob.id, 'Rob'), 'not-found')).toBe('Bob is not known by the name Rob.');
    expect(await refusal(s.forgetName('nobody', 'Bbo'), 'not-found')).toBe('That player is not on this device.');
    expect(await s.forgetName(bob.id, ' bbo ')).toEqual({ ...bob });
    expect((await s.addPlayer('Bbo')).name).toBe('Bbo');
  });

  it('a player kept before players had other names is found by name and merged into as before (no migration)', async () => {
    const s = await store();
    await s.db.put('players', { id: 'p-old', name: 'Old', nameKey: 'old', createdAt: 1, lastPlayedAt: null });
    const new1 = await s.addPlayer('Olde');
    await s.mergePlayers(new1.id, 'p-old');
    expect(await names(s)).toEqual([['Old', ['Olde']]]);
    expect((await warBetween(s, ['old', 'olde'])).players.map((p) => p.id)).toEqual(['p-old', expect.not.stringMatching(/^p-old$/)]);
  });
});
