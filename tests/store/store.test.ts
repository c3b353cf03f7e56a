import { describe, expect, it } from 'vitest';
import { openStore, SAME_EVENING_MS, SETTLED_GAME_CLOSED, StoreError, storageFullMessage, unusedName, withLogChange } from '../../src/lib/store/index.ts';
import { ALICE, BOB, CARA, expectStoreError, storesClosedAfterEach } from './helpers.ts';

const store = storesClosedAfterEach();

const newGame = { game: 'five-thousand', players: [ALICE, BOB], ante: 5, dice: { kitId: 'standard', taughtSetId: null } };

describe('games and the action log', () => {
  it('creates a game with its header', async () => {
    const s = await store();
    const g = await s.createGame({ ...newGame, options: { target: 5000 } });
    expect(g).toMatchObject({ game: 'five-thousand', players: [ALICE, BOB], ante: 5, status: 'active', actionCount: 0, options: { target: 5000 } });
    expect(await s.getGame(g.id)).toEqual(g);
    expect(await s.listGames('active')).toEqual([g]);
  });

  it('appends actions in order and reads the log back', async () => {
    const s = await store();
    const g = await s.createGame(newGame);
    const first = await s.appendAction(g.id, { type: 'roll', dice: [1, 5, 3, 3, 2] });
    const second = await s.appendAction(g.id, { type: 'bank' });
    expect([first.seq, second.seq]).toEqual([0, 1]);
    const { game, actions } = await s.loadGame(g.id);
    expect(actions).toEqual([{ type: 'roll', dice: [1, 5, 3, 3, 2] }, { type: 'bank' }]);
    expect(game.actionCount).toBe(2);
    expect((await s.actionRecords(g.id)).map((r) => r.seq)).toEqual([0, 1]);
  });

  it('has the action committed when appendAction resolves: a second connection sees it', async () => {
    const s = await store();
    const g = await s.createGame(newGame);
    await s.appendAction(g.id, { type: 'roll', dice: [6, 6, 6, 2, 3] });
    const other = await openStore({ name: s.db.name });
    try {
      expect((await other.loadGame(g.id)).actions).toEqual([{ type: 'roll', dice: [6, 6, 6, 2, 3] }]);
    } finally {
      other.close();
    }
  });

  it('keeps the logs of different games apart', async () => {
    const s = await store();
    const a = await s.createGame(newGame);
    const b = await s.createGame({ ...newGame, game: 'war' });
    await s.appendAction(a.id, { type: 'a1' });
    await s.appendAction(b.id, { type: 'b1' });
    await s.appendAction(a.id, { type: 'a2' });
    expect((await s.loadGame(a.id)).actions.map((x) => x.type)).toEqual(['a1', 'a2']);
    expect((await s.loadGame(b.id)).actions.map((x) => x.type)).toEqual(['b1']);
  });

  it('refuses actions that are not plain JSON objects with a type, writing nothing', async () => {
    const s = await store();
    const g = await s.createGame(newGame);
    await expectStoreError(s.appendAction(g.id, { type: '' }), 'invalid-input');
    await expectStoreError(s.appendAction(g.id, { type: 'roll', dice: [1, Number.NaN] }), 'invalid-input');
    await expectStoreError(s.appendAction(g.id, { type: 'roll', when: new Date() }), 'invalid-input');
    await expectStoreError(s.appendAction(g.id, { type: 'roll', x: undefined }), 'invalid-input');
    await expectStoreError(s.appendAction(g.id, [] as unknown as { type: string }), 'invalid-input');
    expect((await s.loadGame(g.id)).actions).toEqual([]);
    expect((await s.getGame(g.id))?.actionCount).toBe(0);
  });

  it('turns a full disk into a clear refusal that writes nothing', async () => {
    const s = await store();
    const g = await s.createGame(newGame);
    const proto = IDBObjectStore.prototype as { add: IDBObjectStore['add'] };
    const realAdd = proto.add;
    proto.add = function () {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    try {
      const err = await expectStoreError(s.appendAction(g.id, { type: 'roll', dice: [2] }), 'storage-full');
      expect(err.message).toMatch(/out of storage space/);
    } finally {
      proto.add = realAdd;
    }
    expect((await s.loadGame(g.id)).actions).toEqual([]);
    expect((await s.appendAction(g.id, { type: 'roll', dice: [2] })).seq).toBe(0);
  });

  it('says a delete refused on a full disk deleted nothing, not that it was not saved: every delete, one wording', async () => {
    expect(storageFullMessage('save')).toBe('The device is out of storage space, so this was not saved. Free some space and try again.');
    expect(storageFullMessage('delete')).toBe('The device is out of storage space, so nothing was deleted. Free some space and try again.');
    const s = await store();
    const g = await s.createGame(newGame);
    const player = await s.addPlayer('Dee');
    const set = await s.createTaughtSet('face-off', 'Our dice');
    const face = await s.addTaughtFace(set.id, 'vader', new Blob([new Uint8Array([1])], { type: 'image/png' }));
    const proto = IDBObjectStore.prototype as { delete: IDBObjectStore['delete'] };
    const realDelete = proto.delete;
    proto.delete = function () {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    try {
      for (const refused of [() => s.deleteGame(g.id), () => s.deletePlayer(player.id), () => s.deleteTaughtSet(set.id), () => s.deleteTaughtFace(face.id)]) {
        expect((await expectStoreError(refused(), 'storage-full')).message).toBe(storageFullMessage('delete'));
      }
    } finally {
      proto.delete = realDelete;
    }
    // nothing was deleted, as said
    expect(await s.getGame(g.id)).toBeDefined();
    expect((await s.listPlayers()).map((p) => p.id)).toContain(player.id);
    expect((await s.listTaughtFaces(set.id)).map((f) => f.id)).toEqual([face.id]);
  });

  it('refuses an append to an unknown game', async () => {
    const s = await store();
    await expectStoreError(s.appendAction('nope', { type: 'roll' }), 'not-found');
  });

  it('refuses a stale append (double tap, second tab) and writes it once only', async () => {
    const s = await store();
    const g = await s.createGame(newGame);
    const results = await Promise.allSettled([
      s.appendAction(g.id, { type: 'roll', dice: [1] }, { expectedCount: 0 }),
      s.appendAction(g.id, { type: 'roll', dice: [1] }, { expectedCount: 0 }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((rejected.reason as StoreError).code).toBe('stale-log');
    expect((await s.loadGame(g.id)).actions).toHaveLength(1);
  });

  it('undo drops the last action only', async () => {
    const s = await store();
    const g = await s.createGame(newGame);
    await s.appendAction(g.id, { type: 'roll', dice: [1, 1, 1, 2, 3] });
    await s.appendAction(g.id, { type: 'keep', dice: [1, 1, 1] });
    const removed = await s.undoLastAction(g.id);
    expect(removed.action).toEqual({ type: 'keep', dice: [1, 1, 1] });
    expect(removed.seq).toBe(1);
    expect((await s.loadGame(g.id)).actions).toEqual([{ type: 'roll', dice: [1, 1, 1, 2, 3] }]);
    // the next append reuses the freed sequence number
    expect((await s.appendAction(g.id, { type: 'bank' })).seq).toBe(1);
    await s.undoLastAction(g.id);
    await s.undoLastAction(g.id);
    await expectStoreError(s.undoLastAction(g.id), 'nothing-to-undo');
    expect((await s.getGame(g.id))?.actionCount).toBe(0);
  });

  it('refuses a write onto a log undone and written again since, though its length is the same (a second tab)', async () => {
    const s = await store();
    const g = await s.createGame(newGame);
    await s.appendAction(g.id, { type: 'roll', dice: [1, 1, 1, 5, 5] });
    // the second tab loaded the game here: one action, revision 1
    const seen = (await s.getGame(g.id))!;
    expect(seen.logRevision).toBe(1);
    const stale = { expectedCount: seen.actionCount, expectedRevision: seen.logRevision };
    // the first tab undoes the roll and writes the dice really thrown
    await s.undoLastAction(g.id, stale);
    await s.appendAction(g.id, { type: 'roll', dice: [2, 3, 4, 6, 6] }, { expectedCount: 0, expectedRevision: 2 });
    expect((await s.getGame(g.id))?.logRevision).toBe(3);
    await expectStoreError(s.appendAction(g.id, { type: 'bank' }, stale), 'stale-log');
    await expectStoreError(s.undoLastAction(g.id, stale), 'stale-log');
    expect((await s.loadGame(g.id)).actions).toEqual([{ type: 'roll', dice: [2, 3, 4, 6, 6] }]);
    // a screen that made a change knows the header it leaves
    expect(withLogChange(seen, 1)).toMatchObject({ actionCount: 2, logRevision: 2 });
  });

  it('reads a game stored before revisions were kept as revision 0', async () => {
    const s = await store();
    const g = await s.createGame(newGame);
    const { logRevision: _none, ...old } = (await s.getGame(g.id))!;
    await s.db.put('games', old);
    await s.appendAction(g.id, { type: 'roll', dice: [1] }, { expectedCount: 0, expectedRevision: 0 });
    expect((await s.getGame(g.id))?.logRevision).toBe(1);
  });

  it('writes the log again from a fixed roll: the tail in place, keeping each action\'s time, the rest dropped, all in one transaction', async () => {
    const s = await store();
    const g = await s.createGame(newGame);
    for (const action of [{ type: 'roll', dice: [1, 1, 1, 2, 3] }, { type: 'bank' }, { type: 'roll', dice: [2, 2, 3, 4, 6] }, { type: 'roll', dice: [5, 5, 5, 2, 3] }, { type: 'bank' }]) {
      await s.appendAction(g.id, action);
    }
    const before = await s.actionRecords(g.id);
    const seen = (await s.getGame(g.id))!;
    const expect5 = { expectedCount: 5, expectedRevision: seen.logRevision };
    const fixed = await s.rewriteLog(g.id, 2, [{ type: 'roll', dice: [2, 2, 2, 4, 6] }], expect5);
    expect(fixed).toMatchObject({ actionCount: 3, logRevision: seen.logRevision! + 1, status: 'active' });
    const after = await s.actionRecords(g.id);
    expect(after.map((r) => r.action)).toEqual([{ type: 'roll', dice: [1, 1, 1, 2, 3] }, { type: 'bank' }, { type: 'roll', dice: [2, 2, 2, 4, 6] }]);
    expect(after.map((r) => r.at)).toEqual(before.slice(0, 3).map((r) => r.at));
    // the screen that loaded the log before the fix can no longer write onto it
    await expectStoreError(s.appendAction(g.id, { type: 'bank' }, expect5), 'stale-log');
    await expectStoreError(s.rewriteLog(g.id, 0, [{ type: 'roll', dice: [1] }], expect5), 'stale-log');
    expect((await s.appendAction(g.id, { type: 'bank' })).seq).toBe(3);
  });

  it('a rewrite refuses a tail longer than the log, an abandoned game, and an action that is not JSON, writing nothing; it finishes, refinishes and reopens a game with its ledger line', async () => {
    const s = await store();
    const session = await s.startSession('Friday');
    const g = await s.createGame({ ...newGame, sessionId: session.id });
    await s.appendAction(g.id, { type: 'roll', dice: [1, 1, 1, 2, 3] });
    await expectStoreError(s.rewriteLog(g.id, 1, [{ type: 'bank' }]), 'invalid-input');
    await expectStoreError(s.rewriteLog(g.id, 0, []), 'invalid-input');
    await expectStoreError(s.rewriteLog(g.id, 0, [{ type: 'roll', dice: [Number.NaN] }]), 'invalid-input');
    expect((await s.loadGame(g.id)).actions).toEqual([{ type: 'roll', dice: [1, 1, 1, 2, 3] }]);
    // a fix that ends the game writes its result and ledger line with it
    const result = { winners: [ALICE.id], payouts: { [ALICE.id]: 5, [BOB.id]: -5 } };
    const done = await s.rewriteLog(g.id, 0, [{ type: 'roll', dice: [1, 1, 1, 1, 1] }], undefined, result);
    expect(done).toMatchObject({ status: 'finished', result, actionCount: 1 });
    expect(await s.sessionBalances(session.id)).toEqual({ [ALICE.id]: 5, [BOB.id]: -5 });
    // fixed again after it ended, still ending: the new result replaces the old, at the time it ended
    const other = { winners: [BOB.id], payouts: { [ALICE.id]: -5, [BOB.id]: 5 } };
    const again = await s.rewriteLog(g.id, 0, [{ type: 'roll', dice: [6, 6, 6, 6, 6] }], undefined, other);
    expect(again).toMatchObject({ status: 'finished', result: other, finishedAt: done.finishedAt, updatedAt: done.finishedAt });
    expect(await s.sessionBalances(session.id)).toEqual({ [ALICE.id]: -5, [BOB.id]: 5 });
    // once its evening is settled up, its result stands: neither a fix nor Undo changes it
    const sameEvening = await s.db.get('sessions', session.id);
    await s.db.put('sessions', { ...sameEvening!, endedAt: 1 });
    await expect(s.rewriteLog(g.id, 0, [{ type: 'roll', dice: [2, 2, 3, 4, 6] }])).rejects.toThrow(SETTLED_GAME_CLOSED);
    await expect(s.undoLastAction(g.id)).rejects.toThrow(SETTLED_GAME_CLOSED);
    await expectStoreError(s.undoLastAction(g.id), 'game-closed');
    expect(await s.sessionBalances(session.id)).toEqual({ [ALICE.id]: -5, [BOB.id]: 5 });
    expect(await s.loadGame(g.id)).toMatchObject({ game: { status: 'finished', actionCount: 1, result: other } });
    await s.db.put('sessions', sameEvening!);
    // fixed so that it no longer ends: reopened, its payout taken back
    const reopened = await s.rewriteLog(g.id, 0, [{ type: 'roll', dice: [2, 2, 3, 4, 6] }]);
    expect(reopened).toMatchObject({ status: 'active', result: null, finishedAt: null });
    expect(await s.sessionBalances(session.id)).toEqual({});
    await s.abandonGame(g.id);
    await expectStoreError(s.rewriteLog(g.id, 0, [{ type: 'roll', dice: [1, 1, 1, 1, 1] }]), 'game-closed');
  });

  it('undo refuses a stale expectation', async () => {
    const s = await store();
    const g = await s.createGame(newGame);
    await s.appendAction(g.id, { type: 'roll' });
    await expectStoreError(s.undoLastAction(g.id, { expectedCount: 2 }), 'stale-log');
    expect((await s.loadGame(g.id)).actions).toHaveLength(1);
  });

  it('finishing writes the result and the ledger line together; undo reopens and removes it', async () => {
    const s = await store();
    const session = await s.startSession('Friday');
    const g = await s.createGame({ ...newGame, sessionId: session.id });
    await s.appendAction(g.id, { type: 'roll', dice: [1, 1, 1, 1, 1] });
    const done = await s.finishGame(g.id, { winners: [ALICE.id], payouts: { [ALICE.id]: 5, [BOB.id]: -5 } });
    expect(done.status).toBe('finished');
    expect(await s.sessionBalances(session.id)).toEqual({ [ALICE.id]: 5, [BOB.id]: -5 });
    await expectStoreError(s.appendAction(g.id, { type: 'roll' }), 'game-closed');
    await expectStoreError(s.finishGame(g.id, { winners: [], payouts: {} }), 'game-closed');

    await s.undoLastAction(g.id);
    const reopened = await s.getGame(g.id);
    expect(reopened).toMatchObject({ status: 'active', finishedAt: null, result: null, actionCount: 0 });
    expect(await s.sessionBalances(session.id)).toEqual({});
  });

  it('an action that ends the game is written with its result and ledger line, all or nothing', async () => {
    const s = await store();
    const session = await s.startSession('Friday');
    const g = await s.createGame({ ...newGame, sessionId: session.id });
    const result = { winners: [ALICE.id], payouts: { [ALICE.id]: 5, [BOB.id]: -5 } };
    // the ledger line cannot be written (the disk is full just then): the action is not written either
    const proto = IDBObjectStore.prototype as { add: IDBObjectStore['add'] };
    const realAdd = proto.add;
    proto.add = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['add']>) {
      if (this.name === 'ledger') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return realAdd.apply(this, args);
    };
    try {
      await expectStoreError(s.appendAction(g.id, { type: 'roll', dice: [1, 1, 1, 1, 1] }, { expectedCount: 0 }, result), 'storage-full');
    } finally {
      proto.add = realAdd;
    }
    expect(await s.getGame(g.id)).toMatchObject({ status: 'active', actionCount: 0, result: null });
    expect((await s.loadGame(g.id)).actions).toEqual([]);
    expect(await s.sessionBalances(session.id)).toEqual({});
    // and with room: the action, the finished game and the ledger line, at once
    await s.appendAction(g.id, { type: 'roll', dice: [1, 1, 1, 1, 1] }, { expectedCount: 0 }, result);
    expect(await s.getGame(g.id)).toMatchObject({ status: 'finished', actionCount: 1, result });
    expect(await s.sessionBalances(session.id)).toEqual({ [ALICE.id]: 5, [BOB.id]: -5 });
    await expectStoreError(s.appendAction(g.id, { type: 'roll' }), 'game-closed');
    // a result naming a stranger writes nothing, the action included
    const h = await s.createGame(newGame);
    await expectStoreError(s.appendAction(h.id, { type: 'roll' }, undefined, { winners: [CARA.id], payouts: {} }), 'invalid-input');
    expect(await s.getGame(h.id)).toMatchObject({ status: 'active', actionCount: 0 });
  });

  it('refuses a result naming strangers, writing nothing', async () => {
    const s = await store();
    const g = await s.createGame(newGame);
    await expectStoreError(s.finishGame(g.id, { winners: [CARA.id], payouts: {} }), 'invalid-input');
    await expectStoreError(s.finishGame(g.id, { winners: [ALICE.id], payouts: { [CARA.id]: 3 } }), 'invalid-input');
    expect((await s.getGame(g.id))?.status).toBe('active');
  });

  it('sums balances across the games of a session and settle-ups', async () => {
    const s = await store();
    const session = await s.startSession('Friday');
    const other = await s.startSession('Saturday');
    const g1 = await s.createGame({ ...newGame, sessionId: session.id });
    const g2 = await s.createGame({ ...newGame, players: [ALICE, BOB, CARA], sessionId: session.id });
    const g3 = await s.createGame({ ...newGame, sessionId: other.id });
    await s.finishGame(g1.id, { winners: [BOB.id], payouts: { [ALICE.id]: -5, [BOB.id]: 5 } });
    await s.finishGame(g2.id, { winners: [CARA.id], payouts: { [ALICE.id]: -5, [BOB.id]: -5, [CARA.id]: 10 } });
    await s.finishGame(g3.id, { winners: [ALICE.id], payouts: { [ALICE.id]: 100, [BOB.id]: -100 } });
    await s.addLedgerEntry({ sessionId: session.id, deltas: { [ALICE.id]: 10, [CARA.id]: -10 }, note: 'Alice paid Cara' });
    expect(await s.sessionBalances(session.id)).toEqual({ [ALICE.id]: 0, [BOB.id]: 0, [CARA.id]: 0 });
    expect((await s.ledgerForSession(session.id)).map((l) => l.note)).toEqual(['', '', 'Alice paid Cara']);
    expect((await s.currentSession())?.id).toBe(other.id);
    await s.endSession(other.id);
    expect((await s.currentSession())?.id).toBe(session.id);
  });

  it('a new game joins the evening still at the table, and starts a new one after a long break', async () => {
    const HOUR = 60 * 60 * 1000;
    let clock = Date.UTC(2026, 2, 7, 20);
    const s = await store({ now: () => clock });
    const friday = await s.sessionForNewGame('Friday');
    expect(friday).toMatchObject({ name: 'Friday', endedAt: null });
    const g = await s.createGame({ ...newGame, sessionId: friday.id });
    clock += 3 * HOUR;
    await s.finishGame(g.id, { winners: [ALICE.id], payouts: { [ALICE.id]: 5, [BOB.id]: -5 } });
    const finishedAt = clock;
    // past midnight, half an hour after the last game: the same evening
    clock += HOUR / 2;
    expect((await s.sessionForNewGame('Saturday')).id).toBe(friday.id);
    // a week later: Friday is over (ended at its last game), and its balances stay with it
    clock += 7 * 24 * HOUR;
    const next = await s.sessionForNewGame('Next Friday');
    expect(next.id).not.toBe(friday.id);
    expect((await s.listSessions()).find((x) => x.id === friday.id)?.endedAt).toBe(finishedAt);
    expect((await s.currentSession())?.id).toBe(next.id);
    expect(await s.sessionBalances(next.id)).toEqual({});
    expect(await s.sessionBalances(friday.id)).toEqual({ [ALICE.id]: 5, [BOB.id]: -5 });
    // a settle-up counts as the table still being there
    await s.addLedgerEntry({ sessionId: next.id, deltas: {}, note: 'counted the chips' });
    clock += SAME_EVENING_MS - 1;
    expect((await s.sessionForNewGame('later')).id).toBe(next.id);
  });

  it('a game still in play when its evening ends counts in the next balances, not the settled ones', async () => {
    const HOUR = 60 * 60 * 1000;
    let clock = Date.UTC(2026, 2, 7, 20);
    const s = await store({ now: () => clock });
    // the players settle up with a game left open at the table, and finish it afterwards
    const friday = await s.sessionForNewGame('Friday');
    const done = await s.createGame({ ...newGame, sessionId: friday.id });
    await s.finishGame(done.id, { winners: [ALICE.id], payouts: { [ALICE.id]: 5, [BOB.id]: -5 } });
    const left = await s.createGame({ ...newGame, players: [BOB, CARA], sessionId: friday.id });
    clock += HOUR;
    await s.endSession(friday.id, 'Friday, later');
    const after = await s.currentSession();
    expect(after).toMatchObject({ name: 'Friday, later', endedAt: null });
    expect((await s.getGame(left.id))?.sessionId).toBe(after?.id);
    await s.finishGame(left.id, { winners: [CARA.id], payouts: { [BOB.id]: -5, [CARA.id]: 5 } });
    expect(await s.sessionBalances(friday.id)).toEqual({ [ALICE.id]: 5, [BOB.id]: -5 });
    expect(await s.sessionBalances(after!.id)).toEqual({ [BOB.id]: -5, [CARA.id]: 5 });
    // the next game joins the balances that game opened
    expect((await s.sessionForNewGame('Saturday')).id).toBe(after!.id);
    // an evening ended with nothing left in play opens nothing
    await s.endSession(after!.id);
    expect(await s.currentSession()).toBeUndefined();
    // a table that broke up for a week with a game left open: that game goes on in the new evening
    const stale = await s.createGame({ ...newGame, sessionId: (await s.sessionForNewGame('Sunday')).id });
    clock += 7 * 24 * HOUR;
    const next = await s.sessionForNewGame('Next Friday');
    expect((await s.getGame(stale.id))?.sessionId).toBe(next.id);
  });

  it('a game played on after a break longer than an evening goes on in a new one; the old one ends at its last activity', async () => {
    const HOUR = 60 * 60 * 1000;
    let clock = Date.UTC(2026, 2, 6, 20);
    const s = await store({ now: () => clock });
    const friday = await s.sessionForNewGame('Friday');
    const won = await s.createGame({ ...newGame, sessionId: friday.id });
    await s.finishGame(won.id, { winners: [ALICE.id], payouts: { [ALICE.id]: 5, [BOB.id]: -5 } });
    const left = await s.createGame({ ...newGame, sessionId: friday.id });
    clock += HOUR;
    await s.appendAction(left.id, { type: 'roll' });
    const lastMove = clock;
    // within the evening (past midnight): nothing moves
    clock += SAME_EVENING_MS;
    expect(await s.eveningForPlay(left.id, 'Saturday')).toBeNull();
    expect((await s.getGame(left.id))?.sessionId).toBe(friday.id);
    // the next morning, a minute past: Friday ends at the last move, the game goes on in Saturday's evening
    clock = lastMove + SAME_EVENING_MS + 60_000;
    const saturday = await s.eveningForPlay(left.id, 'Saturday');
    expect(saturday).toMatchObject({ name: 'Saturday', endedAt: null });
    expect((await s.getSession(friday.id))?.endedAt).toBe(lastMove);
    expect((await s.getGame(left.id))?.sessionId).toBe(saturday!.id);
    await s.appendAction(left.id, { type: 'bank' });
    await s.finishGame(left.id, { winners: [BOB.id], payouts: { [ALICE.id]: -5, [BOB.id]: 5 } });
    expect(await s.sessionBalances(friday.id)).toEqual({ [ALICE.id]: 5, [BOB.id]: -5 });
    expect(await s.sessionBalances(saturday!.id)).toEqual({ [ALICE.id]: -5, [BOB.id]: 5 });
    // and the next game joins Saturday's
    expect((await s.sessionForNewGame('Saturday, later')).id).toBe(saturday!.id);
    // a game over, its roll fixed a week later: its evening is left as it is
    clock += 7 * 24 * HOUR;
    expect(await s.eveningForPlay(left.id, 'Next Saturday')).toBeNull();
    expect((await s.getSession(saturday!.id))?.endedAt).toBeNull();
  });

  it('a clock set a day ahead, then put right, ends the evening stamped in that future rather than keeping it open until then', async () => {
    const HOUR = 60 * 60 * 1000;
    const right = Date.UTC(2026, 2, 6, 20);
    let clock = right + 24 * HOUR;
    const s = await store({ now: () => clock });
    const wrongDay = await s.sessionForNewGame('Saturday');
    const won = await s.createGame({ ...newGame, sessionId: wrongDay.id });
    await s.finishGame(won.id, { winners: [ALICE.id], payouts: { [ALICE.id]: 5, [BOB.id]: -5 } });
    const left = await s.createGame({ ...newGame, sessionId: wrongDay.id });
    await s.appendAction(left.id, { type: 'roll' });
    const lastWrong = clock;
    // put back an hour (a wrong zone's hour, say): still the same evening
    clock -= HOUR;
    expect((await s.sessionForNewGame('Saturday, later')).id).toBe(wrongDay.id);
    expect(await s.eveningForPlay(left.id, 'Saturday, later')).toBeNull();
    // put right, a day back: the next game starts tonight's evening; the wrong one ends at its last move, its debts kept
    clock = right;
    const tonight = await s.sessionForNewGame('Friday');
    expect(tonight.id).not.toBe(wrongDay.id);
    expect(await s.getSession(wrongDay.id)).toMatchObject({ endedAt: lastWrong, endedBy: 'break' });
    expect(await s.sessionBalances(wrongDay.id)).toEqual({ [ALICE.id]: 5, [BOB.id]: -5 });
    // the game left in play goes on tonight, as of now: the next game joins tonight's evening, not a third
    expect(await s.getGame(left.id)).toMatchObject({ sessionId: tonight.id, updatedAt: right });
    clock += HOUR;
    expect((await s.sessionForNewGame('Friday, later')).id).toBe(tonight.id);
  });

  it('a game in play stamped a day ahead, played on once the clock is right, goes on in a new evening', async () => {
    const HOUR = 60 * 60 * 1000;
    const right = Date.UTC(2026, 2, 6, 20);
    let clock = right + 24 * HOUR;
    const s = await store({ now: () => clock });
    const wrongDay = await s.sessionForNewGame('Saturday');
    const left = await s.createGame({ ...newGame, sessionId: wrongDay.id });
    await s.appendAction(left.id, { type: 'roll' });
    clock = right;
    const tonight = await s.eveningForPlay(left.id, 'Friday');
    expect(tonight).toMatchObject({ name: 'Friday', endedAt: null });
    expect((await s.getSession(wrongDay.id))?.endedBy).toBe('break');
    expect((await s.getGame(left.id))?.sessionId).toBe(tonight!.id);
    expect(await s.eveningForPlay(left.id, 'Friday')).toBeNull();
  });

  it('an evening ended by the break, never settled up, is said until the players settle it or carry it on', async () => {
    const HOUR = 60 * 60 * 1000;
    let clock = Date.UTC(2026, 11, 5, 20);
    const s = await store({ now: () => clock });
    // Friday: Alice wins 6 from Bob; nobody ends the evening
    const friday = await s.sessionForNewGame('Dec 5, 2026');
    const g = await s.createGame({ ...newGame, sessionId: friday.id });
    await s.finishGame(g.id, { winners: [ALICE.id], payouts: { [ALICE.id]: 6, [BOB.id]: -6 } });
    // still the same evening: nothing to say yet
    expect((await s.sessionForNewGame('ignored')).id).toBe(friday.id);
    expect(await s.unsettledEvenings()).toEqual([]);
    // a week later the next game ends Friday by the break: its debts are said, not dropped
    clock += 7 * 24 * HOUR;
    const tonight = await s.sessionForNewGame('Dec 12, 2026');
    expect(await s.getSession(friday.id)).toMatchObject({ endedBy: 'break' });
    expect(await s.unsettledEvenings()).toEqual([{ session: expect.objectContaining({ id: friday.id, name: 'Dec 5, 2026' }), balances: { [ALICE.id]: 6, [BOB.id]: -6 } }]);
    // carried on into tonight: one line of them, once (a second tap carries nothing more)
    expect((await s.carryEvening(friday.id, 'unused')).id).toBe(tonight.id);
    expect((await s.carryEvening(friday.id, 'unused')).id).toBe(tonight.id);
    expect(await s.sessionBalances(tonight.id)).toEqual({ [ALICE.id]: 6, [BOB.id]: -6 });
    expect((await s.ledgerForSession(tonight.id)).map((l) => l.note)).toEqual(['Carried on from Dec 5, 2026']);
    // Friday keeps its balances as played, marked carried into tonight's, and is no longer said
    expect(await s.sessionBalances(friday.id)).toEqual({ [ALICE.id]: 6, [BOB.id]: -6 });
    expect(await s.getSession(friday.id)).toMatchObject({ endedBy: 'carried', carriedInto: tonight.id });
    expect(await s.unsettledEvenings()).toEqual([]);
    // tonight ended on Home: settled up
    await s.endSession(tonight.id);
    expect(await s.getSession(tonight.id)).toMatchObject({ endedBy: 'settled' });

    // another evening, a game left in play and played on the next week: ended by the break too
    clock += 7 * 24 * HOUR;
    const third = await s.sessionForNewGame('Dec 19, 2026');
    const won = await s.createGame({ ...newGame, sessionId: third.id });
    await s.finishGame(won.id, { winners: [BOB.id], payouts: { [ALICE.id]: -2, [BOB.id]: 2 } });
    const left = await s.createGame({ ...newGame, sessionId: third.id });
    clock += 7 * 24 * HOUR;
    const fourth = await s.eveningForPlay(left.id, 'Dec 26, 2026');
    expect(fourth).not.toBeNull();
    expect(await s.getSession(third.id)).toMatchObject({ endedBy: 'break' });
    expect((await s.unsettledEvenings()).map((e) => e.session.id)).toEqual([third.id]);
    // marked settled up: no longer said, its balances as they were, nothing carried
    await expect(s.settleEvening(fourth!.id)).rejects.toMatchObject({ code: 'invalid-input' });
    expect(await s.settleEvening(third.id)).toMatchObject({ endedBy: 'settled' });
    expect(await s.unsettledEvenings()).toEqual([]);
    expect(await s.sessionBalances(third.id)).toEqual({ [ALICE.id]: -2, [BOB.id]: 2 });
    // carrying a settled evening carries nothing, nor says it was carried anywhere
    await s.carryEvening(third.id, 'unused');
    expect(await s.sessionBalances(fourth!.id)).toEqual({});
    expect(await s.getSession(third.id)).not.toHaveProperty('carriedInto');
  });

  it('evenings are read a page at a time, the latest first, each with its games and balances; an empty one is left out', async () => {
    const DAY = 24 * 60 * 60 * 1000;
    let clock = Date.UTC(2026, 10, 6, 20);
    const s = await store({ now: () => clock });
    // five Fridays, a game each (Alice wins k from Bob on the k-th); the third's game deleted: nothing to say of it
    const fridays = [];
    for (let k = 1; k <= 5; k++) {
      const friday = await s.sessionForNewGame(`Friday ${k}`);
      const g = await s.createGame({ ...newGame, sessionId: friday.id });
      await s.finishGame(g.id, { winners: [ALICE.id], payouts: { [ALICE.id]: k, [BOB.id]: -k } });
      if (k === 3) await s.deleteGame(g.id);
      fridays.push({ friday, g });
      clock += 7 * DAY;
    }
    await s.settleEvening(fridays[0]!.friday.id);
    const first = await s.eveningsPage({ limit: 2 });
    expect(first.evenings.map((e) => e.session.name)).toEqual(['Friday 5', 'Friday 4']);
    expect(first.more).toBe(true);
    expect(first.evenings[0]).toEqual({ session: expect.objectContaining({ endedAt: null }), games: [expect.objectContaining({ id: fridays[4]!.g.id })], balances: { [ALICE.id]: 5, [BOB.id]: -5 } });
    expect(first.evenings[1]!.session.endedBy).toBe('break');
    // the next page skips the empty Friday 3, and says no more follow once the last is read
    const second = await s.eveningsPage({ limit: 2, after: first.evenings[1]!.session });
    expect(second.evenings.map((e) => [e.session.name, e.session.endedBy])).toEqual([
      ['Friday 2', 'break'],
      ['Friday 1', 'settled'],
    ]);
    expect(second.more).toBe(false);
    // the empty Friday 3 skipped after Friday 4 too, and nothing more offered after Friday 1
    expect((await s.eveningsPage({ limit: 1, after: fridays[3]!.friday })).evenings.map((e) => e.session.name)).toEqual(['Friday 2']);
    expect((await s.eveningsPage({ limit: 3 })).evenings.map((e) => e.session.name)).toEqual(['Friday 5', 'Friday 4', 'Friday 2']);
    expect(await s.eveningsPage({ limit: 5, after: fridays[0]!.friday })).toEqual({ evenings: [], more: false });
  });

  it('the total of every evening: how many, and what each won or lost in games, a carried balance counted once', async () => {
    const DAY = 24 * 60 * 60 * 1000;
    let clock = Date.UTC(2026, 10, 6, 20);
    const s = await store({ now: () => clock });
    expect(await s.eveningsTotal()).toEqual({ evenings: 0, won: {} });
    // Friday 1: Alice wins 6 from Bob, never settled; carried on into Friday 2, where Bob wins 2 back
    const first = await s.sessionForNewGame('Friday 1');
    const won = await s.createGame({ ...newGame, sessionId: first.id });
    await s.finishGame(won.id, { winners: [ALICE.id], payouts: { [ALICE.id]: 6, [BOB.id]: -6 } });
    clock += 7 * DAY;
    const second = await s.sessionForNewGame('Friday 2');
    await s.carryEvening(first.id, 'unused');
    const back = await s.createGame({ ...newGame, sessionId: second.id });
    await s.finishGame(back.id, { winners: [BOB.id], payouts: { [ALICE.id]: -2, [BOB.id]: 2 } });
    expect(await s.sessionBalances(second.id)).toEqual({ [ALICE.id]: 4, [BOB.id]: -4 });
    // Friday 3: its only game deleted, nothing to say of it (not listed, not counted)
    clock += 7 * DAY;
    const third = await s.sessionForNewGame('Friday 3');
    await s.deleteGame((await s.createGame({ ...newGame, sessionId: third.id })).id);
    // Friday 4: a game still in play, nothing won yet: an evening all the same
    clock += 7 * DAY;
    await s.createGame({ ...newGame, players: [ALICE, CARA], sessionId: (await s.sessionForNewGame('Friday 4')).id });
    // a game of no evening is not one of the evenings'
    const alone = await s.createGame(newGame);
    await s.finishGame(alone.id, { winners: [BOB.id], payouts: { [ALICE.id]: -9, [BOB.id]: 9 } });

    const listed = (await s.eveningsPage({ limit: 10 })).evenings;
    expect(listed.map((e) => e.session.name)).toEqual(['Friday 4', 'Friday 2', 'Friday 1']);
    // the evenings' balances added up would count Friday 1's 6 twice (Alice +10)
    expect(await s.eveningsTotal()).toEqual({ evenings: 3, won: { [ALICE.id]: 4, [BOB.id]: -4 } });
  });

  describe('a game deleted from an evening carried on', () => {
    const DAY = 24 * 60 * 60 * 1000;
    type S = Awaited<ReturnType<typeof store>>;
    /** An evening named `name` at `clock`, with one finished game per payout (Alice's win, Bob's loss). */
    async function evening(s: S, name: string, wins: number[]): Promise<{ id: string; games: string[] }> {
      const session = await s.sessionForNewGame(name);
      const games = [];
      for (const win of wins) {
        const g = await s.createGame({ ...newGame, sessionId: session.id });
        await s.finishGame(g.id, { winners: [win >= 0 ? ALICE.id : BOB.id], payouts: { [ALICE.id]: win, [BOB.id]: -win } });
        games.push(g.id);
      }
      return { id: session.id, games };
    }
    /** `id`'s evening ended by the next game's (a week on, named `name`) and carried on into it. */
    async function carry(s: S, id: string, name: string) {
      await s.sessionForNewGame(name);
      return s.carryEvening(id, name);
    }
    const notes = async (s: S, id: string) => (await s.ledgerForSession(id)).map((l) => [l.note, l.deltas]);
    /** A phone on Friday 4 December 2026, 20:00 (`clock.t`): First Friday's two games (Alice +6, +4), carried on a week later into Second Friday. */
    async function firstFridayCarried() {
      const clock = { t: Date.UTC(2026, 11, 4, 20) };
      const s = await store({ now: () => clock.t });
      const first = await evening(s, 'First Friday', [6, 4]);
      clock.t += 7 * DAY;
      const second = await carry(s, first.id, 'Second Friday');
      return { clock, s, first, second };
    }

    it('takes its money off the line carried into tonight, and the line goes once nothing is owed', async () => {
      let clock = Date.UTC(2026, 11, 4, 20);
      const s = await store({ now: () => clock });
      const friday = await evening(s, 'Friday', [6, 4]);
      const unpaid = await s.createGame({ ...newGame, sessionId: friday.id });
      await s.abandonGame(unpaid.id);
      clock += 7 * DAY;
      const tonight = await carry(s, friday.id, 'Tonight');
      clock += 60_000;
      await evening(s, 'Tonight', [1]);
      expect(await s.sessionBalances(tonight.id)).toEqual({ [ALICE.id]: 11, [BOB.id]: -11 });
      // a game that paid nothing: nothing else changes
      await s.deleteGame(unpaid.id);
      expect(await s.sessionBalances(tonight.id)).toEqual({ [ALICE.id]: 11, [BOB.id]: -11 });
      // Friday's 6 comes off what was carried on from it, in the same line
      await s.deleteGame(friday.games[0]!);
      expect(await s.sessionBalances(friday.id)).toEqual({ [ALICE.id]: 4, [BOB.id]: -4 });
      expect(await notes(s, tonight.id)).toEqual([
        ['Carried on from Friday', { [ALICE.id]: 4, [BOB.id]: -4 }],
        ['', { [ALICE.id]: 1, [BOB.id]: -1 }],
      ]);
      // its last game deleted: nothing is carried on from Friday any more
      await s.deleteGame(friday.games[1]!);
      expect(await notes(s, tonight.id)).toEqual([['', { [ALICE.id]: 1, [BOB.id]: -1 }]]);
      expect(await s.getSession(friday.id)).toMatchObject({ endedBy: 'carried', carriedInto: tonight.id });
    });

    it('keeps the carried line to its evening’s balances as they add up, an ante of 0.1 too', async () => {
      let clock = Date.UTC(2026, 11, 4, 20);
      const s = await store({ now: () => clock });
      // 0.1 + 0.2 adds up to 0.30000000000000004: taking 0.2 back off would leave 0.10000000000000003
      const friday = await evening(s, 'Friday', [0.1, 0.2]);
      clock += 7 * DAY;
      const tonight = await carry(s, friday.id, 'Tonight');
      await s.deleteGame(friday.games[1]!);
      expect(await notes(s, tonight.id)).toEqual([['Carried on from Friday', await s.sessionBalances(friday.id)]]);
      await s.deleteGame(friday.games[0]!);
      expect(await notes(s, tonight.id)).toEqual([]);
    });

    it('follows a chain of carries: each evening’s carried line comes to its balances after the delete', async () => {
      const { clock, s, first, second } = await firstFridayCarried();
      clock.t += 60_000;
      await evening(s, 'Second Friday', [-3]);
      clock.t += 7 * DAY;
      const third = await carry(s, second.id, 'Third Friday');
      expect(await s.getSession(second.id)).toMatchObject({ endedBy: 'carried', carriedInto: third.id });
      expect(await s.sessionBalances(third.id)).toEqual({ [ALICE.id]: 7, [BOB.id]: -7 });
      await s.deleteGame(first.games[0]!);
      expect(await notes(s, second.id)).toEqual([
        ['Carried on from First Friday', { [ALICE.id]: 4, [BOB.id]: -4 }],
        ['', { [ALICE.id]: -3, [BOB.id]: 3 }],
      ]);
      expect(await notes(s, third.id)).toEqual([['Carried on from Second Friday', { [ALICE.id]: 1, [BOB.id]: -1 }]]);
      // the second's balances net to nothing: no line carried on from it
      await s.deleteGame(first.games[1]!);
      expect(await notes(s, second.id)).toEqual([['', { [ALICE.id]: -3, [BOB.id]: 3 }]]);
      expect(await notes(s, third.id)).toEqual([['Carried on from Second Friday', { [ALICE.id]: -3, [BOB.id]: 3 }]]);
    });

    it('an evening whose balances netted to nothing when carried gets a line once a delete leaves money owed', async () => {
      let clock = Date.UTC(2026, 11, 4, 20);
      const s = await store({ now: () => clock });
      const friday = await evening(s, 'Friday', [5, -5]);
      clock += 7 * DAY;
      const tonight = await carry(s, friday.id, 'Tonight');
      expect(await notes(s, tonight.id)).toEqual([]);
      await s.deleteGame(friday.games[1]!);
      expect(await notes(s, tonight.id)).toEqual([['Carried on from Friday', { [ALICE.id]: 5, [BOB.id]: -5 }]]);
    });

    it('leaves what was carried on as it was where the players settled it up: that money changed hands', async () => {
      // carried into an evening the players then settled up (End the evening)
      const { clock, s, first, second } = await firstFridayCarried();
      await s.endSession(second.id);
      expect(await s.whereCarried(first.games[0]!)).toEqual({ evening: expect.objectContaining({ id: second.id }), changes: false });
      await s.deleteGame(first.games[0]!);
      expect(await notes(s, second.id)).toEqual([['Carried on from First Friday', { [ALICE.id]: 10, [BOB.id]: -10 }]]);
      // a chain that ends in an evening settled up (Settled up said of it later): no link of it changes
      clock.t += 7 * DAY;
      const a = await evening(s, 'A', [2]);
      clock.t += 7 * DAY;
      const b = await carry(s, a.id, 'B');
      clock.t += 7 * DAY;
      const c = await carry(s, b.id, 'C');
      clock.t += 7 * DAY;
      await s.sessionForNewGame('D');
      expect(await s.getSession(c.id)).toMatchObject({ endedBy: 'break' });
      await s.settleEvening(c.id);
      await s.deleteGame(a.games[0]!);
      expect(await notes(s, b.id)).toEqual([['Carried on from A', { [ALICE.id]: 2, [BOB.id]: -2 }]]);
      expect(await notes(s, c.id)).toEqual([['Carried on from B', { [ALICE.id]: 2, [BOB.id]: -2 }]]);
    });

    it('changes an evening ended by the break, never settled, that it was carried into: Home then says what is still owed', async () => {
      const { clock, s, first, second } = await firstFridayCarried();
      clock.t += 7 * DAY;
      await s.sessionForNewGame('Third Friday');
      expect(await s.whereCarried(first.games[0]!)).toEqual({ evening: expect.objectContaining({ id: second.id, endedBy: 'break' }), changes: true });
      await s.deleteGame(first.games[0]!);
      expect(await s.unsettledEvenings()).toEqual([{ session: expect.objectContaining({ id: second.id }), balances: { [ALICE.id]: 4, [BOB.id]: -4 } }]);
    });

    it('changes nothing elsewhere when the game’s evening was not carried on', async () => {
      let clock = Date.UTC(2026, 11, 4, 20);
      const s = await store({ now: () => clock });
      const friday = await evening(s, 'Friday', [6, 4]);
      clock += 7 * DAY;
      const tonight = await evening(s, 'Tonight', [1]);
      expect(await s.getSession(friday.id)).toMatchObject({ endedBy: 'break' });
      // tonight's own line (a settle-up between players) is no carried line
      await s.addLedgerEntry({ sessionId: tonight.id, deltas: { [ALICE.id]: 6, [BOB.id]: -6 }, note: 'Carried on from Friday' });
      expect(await s.whereCarried(friday.games[0]!)).toBeNull();
      await s.deleteGame(friday.games[0]!);
      expect(await s.sessionBalances(friday.id)).toEqual({ [ALICE.id]: 4, [BOB.id]: -4 });
      expect(await s.sessionBalances(tonight.id)).toEqual({ [ALICE.id]: 7, [BOB.id]: -7 });
      // nor for a game of tonight's, still open
      expect(await s.whereCarried(tonight.games[0]!)).toBeNull();
      await s.deleteGame(tonight.games[0]!);
      expect(await s.sessionBalances(tonight.id)).toEqual({ [ALICE.id]: 6, [BOB.id]: -6 });
    });
  });

  it('an evening ended by the break with nobody owed anything is not said', async () => {
    let clock = Date.UTC(2026, 11, 5, 20);
    const s = await store({ now: () => clock });
    const friday = await s.sessionForNewGame('Friday');
    const g = await s.createGame({ ...newGame, sessionId: friday.id });
    await s.finishGame(g.id, { winners: [ALICE.id], payouts: { [ALICE.id]: 0, [BOB.id]: 0 } });
    clock += 7 * 24 * 60 * 60 * 1000;
    await s.sessionForNewGame('Next Friday');
    expect(await s.getSession(friday.id)).toMatchObject({ endedBy: 'break' });
    expect(await s.unsettledEvenings()).toEqual([]);
  });

  it('players last played when their game ended: one from 21:00 to 01:30 on the day after', async () => {
    const HOUR = 60 * 60 * 1000;
    let clock = Date.UTC(2026, 2, 6, 21);
    const s = await store({ now: () => clock });
    const g = await s.createGame(newGame);
    clock += 4.5 * HOUR;
    await s.appendAction(g.id, { type: 'roll' }, undefined, { winners: [ALICE.id], payouts: { [ALICE.id]: 5, [BOB.id]: -5 } });
    expect((await s.listPlayers()).map((p) => p.lastPlayedAt)).toEqual([clock, clock]);
    // undone and won again with the clock stepped back an hour: they played at the later time
    const later = clock;
    await s.undoLastAction(g.id);
    clock -= HOUR;
    await s.finishGame(g.id, { winners: [BOB.id], payouts: { [ALICE.id]: -5, [BOB.id]: 5 } });
    expect((await s.listPlayers()).map((p) => p.lastPlayedAt)).toEqual([later, later]);
  });

  it('abandons and deletes games', async () => {
    const s = await store();
    const g = await s.createGame(newGame);
    await s.appendAction(g.id, { type: 'roll' });
    await s.abandonGame(g.id);
    expect((await s.listGames('abandoned')).map((x) => x.id)).toEqual([g.id]);
    await expectStoreError(s.undoLastAction(g.id), 'game-closed');
    await s.deleteGame(g.id);
    expect(await s.getGame(g.id)).toBeUndefined();
    expect(await s.actionRecords(g.id)).toEqual([]);
    await expectStoreError(s.deleteGame(g.id), 'not-found');
  });

  it('validates a new game', async () => {
    const s = await store();
    await expectStoreError(s.createGame({ ...newGame, players: [] }), 'invalid-input');
    await expectStoreError(s.createGame({ ...newGame, players: [ALICE, ALICE] }), 'invalid-input');
    await expectStoreError(s.createGame({ ...newGame, players: [ALICE, { id: 'x', name: ' alice ' }] }), 'invalid-input');
    await expectStoreError(s.createGame({ ...newGame, ante: -1 }), 'invalid-input');
    await expectStoreError(s.createGame({ ...newGame, options: { f: () => 1 } as never }), 'invalid-input');
    await expectStoreError(s.createGame({ ...newGame, sessionId: 'gone' }), 'not-found');
    expect(await s.listGames()).toEqual([]);
  });

  it('lists games most recently played first', async () => {
    const s = await store();
    const a = await s.createGame(newGame);
    const b = await s.createGame(newGame);
    expect((await s.listGames()).map((g) => g.id)).toEqual([b.id, a.id]);
    await s.appendAction(a.id, { type: 'roll' });
    expect((await s.listGames()).map((g) => g.id)).toEqual([a.id, b.id]);
  });

  it('pages through games the latest first, by status too, games of the same millisecond neither lost nor repeated', async () => {
    // a clock that stands still now and then: games written at the same millisecond
    let t = 1_000;
    const s = await store({ now: () => (t += t % 3 === 0 ? 0 : 1) });
    for (let i = 0; i < 23; i++) {
      const g = await s.createGame(newGame);
      if (i % 3 === 1) await s.abandonGame(g.id);
      else if (i % 3 === 2) await s.finishGame(g.id, { winners: [ALICE.id], payouts: { [ALICE.id]: 5, [BOB.id]: -5 } });
      if (i % 4 === 0) t++;
    }
    const latestFirst = (games: { id: string; updatedAt: number }[]): string[] =>
      [...games].sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1)).map((g) => g.id);
    for (const status of [undefined, 'active', 'finished', 'abandoned'] as const) {
      const paged: string[] = [];
      let after: { id: string; updatedAt: number } | undefined;
      for (;;) {
        const page = await s.gamesPage({ limit: 4, status, after });
        paged.push(...page.games.map((g) => g.id));
        expect(page.games.every((g) => status === undefined || g.status === status)).toBe(true);
        if (!page.more) break;
        expect(page.games).toHaveLength(4);
        after = page.games.at(-1);
      }
      const all = await s.listGames(status);
      expect(paged).toEqual(latestFirst(all));
      expect(await s.countGames(status)).toBe(all.length);
    }
    expect(new Set((await s.listGames()).map((g) => g.updatedAt)).size).toBeLessThan(23);
  });

  it("lists a session's games, the first played first, by status too", async () => {
    const s = await store();
    const tonight = await s.startSession('Tonight');
    const other = await s.startSession('Another night');
    const first = await s.createGame({ ...newGame, sessionId: tonight.id });
    await s.createGame({ ...newGame, sessionId: other.id });
    const second = await s.createGame({ ...newGame, sessionId: tonight.id });
    const open = await s.createGame({ ...newGame, sessionId: tonight.id });
    await s.finishGame(second.id, { winners: [BOB.id], payouts: {} });
    await s.finishGame(first.id, { winners: [ALICE.id], payouts: {} });
    // finished in the other order: the one finished last is the latest
    expect((await s.sessionGames(tonight.id, 'finished')).map((g) => g.id)).toEqual([second.id, first.id]);
    expect((await s.sessionGames(tonight.id)).map((g) => g.id)).toEqual([open.id, second.id, first.id]);
    expect(await s.getSession(other.id)).toEqual(other);
  });
});

describe('importing a whole game', () => {
  it('writes the game, its log, new players and its ledger line in one go, reusing known players', async () => {
    const s = await store();
    const alice = await s.addPlayer('Alice');
    const session = await s.startSession('Friday');
    const log = [{ type: 'roll', dice: [5] }, { type: 'roll', dice: [2, 3] }];
    const g = await s.importGame({
      game: 'war',
      playerNames: ['alice', 'Dan'],
      options: { ante: 3 },
      ante: 3,
      dice: { kitId: 'standard', taughtSetId: null },
      sessionId: session.id,
      actions: log,
      result: { winners: [1], payouts: [-3, 3] },
    });
    expect(g).toMatchObject({ status: 'finished', actionCount: 2 });
    expect(g.players[0]).toEqual({ id: alice.id, name: 'alice' });
    const dan = (await s.listPlayers()).find((p) => p.name === 'Dan');
    expect(dan).toBeDefined();
    expect(g.result).toEqual({ winners: [dan!.id], payouts: { [alice.id]: -3, [dan!.id]: 3 } });
    expect((await s.loadGame(g.id)).actions).toEqual([{ type: 'roll', dice: [5] }, { type: 'roll', dice: [2, 3] }]);
    expect(await s.sessionBalances(session.id)).toEqual({ [alice.id]: -3, [dan!.id]: 3 });
    // the imported log goes on like any other: undo reopens it and drops its ledger line
    await s.undoLastAction(g.id);
    expect(await s.sessionBalances(session.id)).toEqual({});
  });

  it("keeps the log's times when the file gives them: each move's, and when the game began and ended", async () => {
    const s = await store();
    const times = [Date.UTC(2023, 0, 5, 20, 15), Date.UTC(2023, 0, 5, 20, 16)];
    const input = { game: 'war', playerNames: ['Ann', 'Ben'], options: { ante: 1 }, ante: 1, dice: { kitId: 'standard', taughtSetId: null }, actions: [{ type: 'roll', dice: [5] }, { type: 'roll', dice: [2] }], result: { winners: [0], payouts: [1, -1] } };
    await expectStoreError(s.importGame({ ...input, times: times.slice(1) }), 'invalid-input');
    await expectStoreError(s.importGame({ ...input, times: [times[0]!, Number.NaN] }), 'invalid-input');
    expect(await s.listGames()).toEqual([]);
    const g = await s.importGame({ ...input, times });
    expect(g).toMatchObject({ createdAt: times[0], finishedAt: times[1], status: 'finished' });
    expect((await s.actionRecords(g.id)).map((r) => r.at)).toEqual(times);
    // arrived now: the latest change on this device, listed first
    expect(g.updatedAt).toBeGreaterThan(times[1]!);
    // its players last played then, not now (Players, and New game's suggestions, by who played last)
    expect((await s.listPlayers()).map((p) => p.lastPlayedAt)).toEqual([times[1], times[1]]);
    const cy = await s.addPlayer('Cy');
    const tonight = await s.createGame({ game: 'war', players: [{ id: cy.id, name: cy.name }], dice: { kitId: 'standard', taughtSetId: null } });
    await s.importGame({ ...input, playerNames: ['Cy', 'Ann'], times });
    expect((await s.listPlayers()).map((p) => [p.name, p.lastPlayedAt])).toEqual([['Cy', tonight.createdAt], ['Ann', times[1]], ['Ben', times[1]]]);
  });

  it('a game in play brought here joins the evening open on this device (its end pays into it); a game over, and a refused import, do not', async () => {
    const s = await store();
    const base = { game: 'war', playerNames: ['Ann', 'Ben'], options: { ante: 1 }, ante: 1, dice: { kitId: 'standard', taughtSetId: null }, joinEvening: 'Friday' };
    const won = [{ type: 'roll', dice: [5] }, { type: 'roll', dice: [2] }];
    const begun = [{ type: 'roll', dice: [4] }];
    const over = await s.importGame({ ...base, actions: won, result: { winners: [0], payouts: [1, -1] } });
    expect(over.sessionId).toBeNull();
    expect(await s.listSessions()).toEqual([]);
    // no evening open: one is started, as New game would
    const inPlay = await s.importGame({ ...base, actions: begun, result: null });
    const [friday] = await s.listSessions();
    expect(friday).toMatchObject({ name: 'Friday', endedAt: null });
    expect(inPlay.sessionId).toBe(friday!.id);
    await expectStoreError(s.importGame({ ...base, actions: begun, result: null }), 'already-here');
    expect(await s.listSessions()).toHaveLength(1);
    // finished here, it pays into that evening
    await s.appendAction(inPlay.id, { type: 'roll', dice: [3] }, undefined, { winners: [inPlay.players[0]!.id], payouts: { [inPlay.players[0]!.id]: 1, [inPlay.players[1]!.id]: -1 } });
    expect(await s.sessionBalances(friday!.id)).toEqual({ [inPlay.players[0]!.id]: 1, [inPlay.players[1]!.id]: -1 });
  });

  it('an unfinished game is active; a refused import writes nothing, players included', async () => {
    const s = await store();
    const g = await s.importGame({ game: 'war', playerNames: ['Ann', 'Ben'], dice: { kitId: 'standard', taughtSetId: null }, actions: [], result: null });
    expect(g.status).toBe('active');
    const badLog = [{ type: 'roll', dice: [Number.NaN] }];
    await expectStoreError(
      s.importGame({ game: 'war', playerNames: ['Cy', 'Dee'], dice: { kitId: 'standard', taughtSetId: null }, actions: badLog, result: null }),
      'invalid-input',
    );
    await expectStoreError(
      s.importGame({ game: 'war', playerNames: ['Cy', 'Dee'], dice: { kitId: 'standard', taughtSetId: null }, sessionId: 'gone', actions: [], result: null }),
      'not-found',
    );
    expect((await s.listPlayers()).map((p) => p.name).sort()).toEqual(['Ann', 'Ben']);
    expect(await s.listGames()).toHaveLength(1);
  });

  it('refuses a game already here (the same file imported twice), and takes one that differs', async () => {
    const s = await store();
    const game = { game: 'war', playerNames: ['Ann', 'Ben'], options: { ante: 0 }, dice: { kitId: 'standard', taughtSetId: null }, actions: [{ type: 'roll', dice: [5] }], result: null };
    await s.importGame(game);
    const err = await expectStoreError(s.importGame({ ...game, playerNames: ['ann', 'BEN'] }), 'already-here');
    expect(err.message).toBe('This game is already on this device: the same players, options and every action. Nothing was imported.');
    expect(await s.listGames()).toHaveLength(1);
    const anotherLog = [{ type: 'roll', dice: [4] }];
    await s.importGame({ ...game, actions: anotherLog });
    await s.importGame({ ...game, playerNames: ['Ben', 'Ann'] });
    await s.importGame({ ...game, options: { ante: 1 } });
    expect(await s.listGames()).toHaveLength(4);
  });
});

describe('players', () => {
  it('adds, renames and refuses duplicate names', async () => {
    const s = await store();
    const alice = await s.addPlayer('  Alice ');
    expect(alice.name).toBe('Alice');
    await expectStoreError(s.addPlayer('alice'), 'name-taken');
    await expectStoreError(s.addPlayer('   '), 'invalid-input');
    const bob = await s.addPlayer('Bob');
    await expectStoreError(s.renamePlayer(bob.id, 'ALICE'), 'name-taken');
    expect((await s.renamePlayer(alice.id, 'alice')).name).toBe('alice');
    expect((await s.renamePlayer(bob.id, 'Robert')).name).toBe('Robert');
    expect((await s.listPlayers()).map((p) => p.name)).toEqual(['alice', 'Robert']);
    // spaces a page shows as one do not make another name
    await s.addPlayer('Ann Lee');
    await expectStoreError(s.addPlayer('ann   lee'), 'name-taken');
    // a name too long says how long it is
    await expect(s.addPlayer('x'.repeat(41))).rejects.toThrow('Names are at most 40 characters ("xxxxxxxxxxxxxxxxxxxx…" has 41).');
  });

  it('lists those who played most recently first; games keep the name played under', async () => {
    const s = await store();
    const alice = await s.addPlayer('Alice');
    const bob = await s.addPlayer('Bob');
    await s.addPlayer('Cara');
    const g = await s.createGame({ ...newGame, players: [{ id: bob.id, name: bob.name }] });
    expect((await s.listPlayers()).map((p) => p.name)).toEqual(['Bob', 'Alice', 'Cara']);
    await s.renamePlayer(bob.id, 'Robert');
    expect((await s.getGame(g.id))?.players).toEqual([{ id: bob.id, name: 'Bob' }]);
    await s.deletePlayer(alice.id);
    expect((await s.listPlayers()).map((p) => p.name)).toEqual(['Robert', 'Cara']);
  });
});

describe('taught sets and faces', () => {
  it('stores example images as Blobs per set, and deletes a set with its faces', async () => {
    const s = await store();
    const set = await s.createTaughtSet('face-off', 'My Face Off dice');
    const other = await s.createTaughtSet('corellian-spike', 'Spike');
    const png = new Blob([new Uint8Array([137, 80, 78, 71, 1, 2, 3])], { type: 'image/png' });
    const face = await s.addTaughtFace(set.id, 'vader', png);
    await s.addTaughtFace(set.id, 'luke', png, { vector: [0.6, 0.8], model: 'face-embed@1' });
    await s.addTaughtFace(other.id, 'star', png);
    const faces = await s.listTaughtFaces(set.id);
    expect(faces.map((f) => f.faceId)).toEqual(['vader', 'luke']);
    const stored = faces[0]!.image;
    expect(stored).toBeInstanceOf(Blob);
    expect(stored.type).toBe('image/png');
    expect([...new Uint8Array(await stored.arrayBuffer())]).toEqual([137, 80, 78, 71, 1, 2, 3]);
    await s.setFaceEmbedding(face.id, [1, 0], 'face-embed@1');
    expect((await s.listTaughtFaces(set.id))[0]).toMatchObject({ embedding: [1, 0], embeddingModel: 'face-embed@1' });
    expect((await s.listTaughtSets('face-off')).map((x) => x.id)).toEqual([set.id]);
    await s.deleteTaughtSet(set.id);
    expect(await s.listTaughtFaces(set.id)).toEqual([]);
    expect(await s.listTaughtFaces(other.id)).toHaveLength(1);
  });

  it('keeps dice set names apart: a name taken is refused, an imported set is numbered', async () => {
    const s = await store();
    const ours = await s.createTaughtSet('face-off', 'Our dice');
    await expectStoreError(s.createTaughtSet('corellian-spike', 'our  DICE'), 'name-taken');
    const spike = await s.createTaughtSet('corellian-spike', 'Spike');
    await expect(s.renameTaughtSet(spike.id, 'Our dice')).rejects.toThrow('There is already a dice set called Our dice.');
    expect((await s.renameTaughtSet(ours.id, 'OUR DICE')).name).toBe('OUR DICE'); // its own name, written otherwise
    const imported = await s.importTaughtSet({ kitId: 'face-off', name: 'Our dice' }, []);
    expect(imported.name).toBe('Our dice 2');
    expect((await s.importTaughtSet({ kitId: 'face-off', name: 'Our dice' }, [])).name).toBe('Our dice 3');
    expect((await s.listTaughtSets()).map((x) => x.name).sort()).toEqual(['OUR DICE', 'Our dice 2', 'Our dice 3', 'Spike']);
  });

  it('numbers a name taken within 40 characters', () => {
    expect(unusedName('Spike', ['Our dice'])).toBe('Spike');
    expect(unusedName('Spike', ['spike', 'Spike 2'])).toBe('Spike 3');
    const long = 'x'.repeat(40);
    expect(unusedName(long, [long])).toBe(`${'x'.repeat(36)} 2`);
  });

  it('refuses a face without a picture or for an unknown set', async () => {
    const s = await store();
    const set = await s.createTaughtSet('face-off', 'Mine');
    await expectStoreError(s.addTaughtFace(set.id, 'vader', new Blob([])), 'invalid-input');
    await expectStoreError(s.addTaughtFace('nope', 'vader', new Blob([new Uint8Array([1])])), 'not-found');
    await expectStoreError(s.addTaughtFace(set.id, 'vader', new Blob([new Uint8Array([1])]), { vector: [Number.NaN], model: 'm' }), 'invalid-input');
    expect(await s.listTaughtFaces(set.id)).toEqual([]);
  });
});

describe('settings', () => {
  it('starts from defaults and keeps changes', async () => {
    const s = await store();
    expect(await s.getSettings()).toEqual({ theme: 'system', speech: false, settleMs: 600, cameraId: null, persistAsked: false });
    await s.updateSettings({ theme: 'dark', settleMs: 900 });
    await s.updateSettings({ speech: true });
    expect(await s.getSettings()).toMatchObject({ theme: 'dark', settleMs: 900, speech: true });
    await expectStoreError(s.updateSettings({ settleMs: 0 }), 'invalid-input');
    expect((await s.getSettings()).settleMs).toBe(900);
  });
});
