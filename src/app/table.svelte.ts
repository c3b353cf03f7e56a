/**
 * One game at the table: its record and log from the store, its state replayed from the log,
 * and the two ways it changes — an action appended (checked by the rules first, written before
 * it is shown) and undo (the last action dropped). Every screen of a game goes through this.
 */
import { resultOfGame, SETTLED_GAME_CLOSED, StoreError, tableStillAt, withLogChange, type CarriedChange, type GameRecord, type LogExpectation, type SessionEnding } from '../lib/store/index.ts';
import { matchResult, tryAction, viewMatch, type Action, type MatchState, type MatchView } from '../lib/rules/index.ts';
import { data } from './db.svelte.ts';
import { readProblem } from './readProblem.ts';
import { announce } from './announce.svelte.ts';
import { brokenLog, payoutSentence, replayLog, undoneText, type GameHeader, type Replayed } from './play.ts';
import { eveningName, isolated } from './format.ts';

export function headerOf(record: GameRecord): GameHeader {
  return { game: record.game, players: record.players.map((p) => p.name), options: record.options };
}

/** "Ann 600, Cy 500": the scores that changed between two views. */
function scoreChanges(before: MatchView, after: MatchView): string {
  const was = new Map(before.slate.rows.map((r) => [r.player, r.score]));
  return after.slate.rows
    .filter((r) => was.get(r.player) !== r.score)
    .map((r) => `${r.name} ${r.score}`)
    .join(', ');
}

/**
 * A finished game whose evening was settled up: its result stands, so neither the table nor the
 * log offers to undo or fix it (the store would refuse, `SETTLED_GAME_CLOSED`).
 */
export async function settledUp(game: GameRecord): Promise<boolean> {
  return (await eveningEnded(game)) !== null;
}

/**
 * How a finished game's evening ended (`SessionRecord.endedBy`; `ended` for one ended before that
 * was kept), or null while it is open (and for a game not finished, or of no evening).
 */
export async function eveningEnded(game: GameRecord): Promise<SessionEnding | 'ended' | null> {
  if (game.status !== 'finished' || game.sessionId === null) return null;
  const session = await (await data.store()).getSession(game.sessionId);
  return session?.endedAt != null ? (session.endedBy ?? 'ended') : null;
}

/**
 * What deleting a finished game takes with it, as its question says: "the balances" of an evening
 * still open; of an ended one, what became of its balances (a delete still takes the game's line).
 * Of an evening carried on, `carried` (`whereCarried`) says where its money went: its line there
 * changes with the delete (tonight's balances, or an evening's still owed), or stays as it was where
 * that evening was settled up; null where the store cannot say (carried before it kept where).
 */
export function deletedFrom(ending: SessionEnding | 'ended' | null, carried: CarriedChange | null = null): string {
  if (ending === null) return 'from the balances too';
  if (ending === 'break') return 'from its evening’s balances too, never settled up (Home says what is still owed)';
  if (ending === 'carried') {
    if (carried === null) return 'from its evening’s totals too; what was carried on into a later evening stays as it was';
    if (!carried.changes) return `from its evening’s totals too; what was carried on into ${isolated(carried.evening.name)}’s stays as it was: that evening was settled up`;
    return `from its evening’s totals too, and its money comes off ${carriedInto(carried)}`;
  }
  return 'from its settled evening’s totals too';
}

/** Where a delete's money came off, said after it ("Game deleted. Its money came off …"); null where no balances carried on changed. */
export function deletedCarried(carried: CarriedChange | null): string | null {
  return carried?.changes ? `Its money came off ${carriedInto(carried)}.` : null;
}

/** "the balances carried on into tonight’s": the evening where a delete's money comes off (Home's, or one never settled up). */
function carriedInto(carried: CarriedChange): string {
  const { evening } = carried;
  if (evening.endedAt === null) return 'the balances carried on into tonight’s';
  const unsettled = evening.endedBy === 'break' ? ', never settled up (Home says what is still owed)' : '';
  return `the balances carried on into ${isolated(evening.name)}’s${unsettled}`;
}

/**
 * Before a game in play is played on (a move, an undo, a fix): after a break longer than an evening
 * (`tableStillAt`, a game left in play overnight or forgotten for a week) its old evening ends
 * at its last activity and the game goes on in a new one, as a new game would start one
 * (`eveningForPlay`). Asked of the store only when this game itself has been still that long:
 * otherwise its evening was active within it.
 */
export async function eveningAfterBreak(record: GameRecord): Promise<void> {
  if (record.status !== 'active' || record.sessionId === null || tableStillAt(record.updatedAt, Date.now())) return;
  await (await data.store()).eveningForPlay(record.id, eveningName());
}

/**
 * A fix saved on the log opened from the table ("Fixed: Ann rolled 1 1 1 5 5."), for the table to
 * show once it is back, as it shows what Undo took back. By game, with the log revision the fix
 * wrote; taken when the table loads. A player who went Back while the fix's write waited finds it
 * too: the table is mounted afresh on Back, and its read waits for the fix's earlier write.
 */
const fixesToShow = new Map<string, { text: string; revision: number }>();

export function showFixAtTable(gameId: string, text: string, revision: number): void {
  fixesToShow.set(gameId, { text, revision });
}

export class TableGame {
  record = $state.raw<GameRecord | null>(null);
  actions = $state.raw<Action[]>([]);
  state = $state.raw<MatchState | null>(null);
  /** The table's view: what everyone may see. Private views are asked for where needed. */
  readonly view = $derived(this.state ? viewMatch(this.state, null) : null);
  /** The stored log could not be replayed past this action. */
  stoppedAt = $state.raw<Replayed['stoppedAt']>(null);
  /** The last refusal (a rule or the store), shown until the next action. */
  problem = $state<string | null>(null);
  /** What the last Undo took back ("Bob rolled 2 2"), said on the table until the next change. */
  undone = $state<string | null>(null);
  /** The roll just fixed on the log ("Fixed: Ann rolled 1 1 1 5 5."), said on the table until the next change. */
  fixed = $state<string | null>(null);
  /** The game could not be opened at all. */
  loadError = $state<string | null>(null);
  /** The game is not on this device (deleted here or in another tab). */
  missing = $state(false);
  /**
   * A finished game whose evening was settled up: its result stands, so neither Undo nor a fix is
   * offered (`SETTLED_GAME_CLOSED`). Read at each load: an evening settled while the table was
   * open (Home in another tab) is learnt from the store's refusal, which loads the game again.
   */
  settled = $state(false);
  busy = $state(false);
  /** `performance.now()` when the table last showed a change (an echo tap is measured from it). */
  changedAt = Number.NEGATIVE_INFINITY;

  constructor(readonly gameId: string) {}

  async load(): Promise<void> {
    try {
      const store = await data.store();
      const { game, actions } = await store.loadGame(this.gameId);
      const replayed = replayLog(headerOf(game), actions as Action[]);
      // The last action ended the game but its result is not written: a log kept by a version of
      // Rollcall that wrote the result apart from the action, and closed between the two.
      const record = replayed.stoppedAt ? game : await this.recordResult(game, replayed.state);
      this.settled = await settledUp(record);
      this.record = record;
      this.actions = actions as Action[];
      this.state = replayed.state;
      this.stoppedAt = replayed.stoppedAt;
      this.loadError = null;
      this.undone = null;
      // only on the log as the fix left it: a fix landed while the player was elsewhere is old
      // news once the game was played on (another tab)
      const fix = fixesToShow.get(this.gameId);
      fixesToShow.delete(this.gameId);
      this.fixed = fix?.revision === (record.logRevision ?? 0) ? fix.text : null;
      this.changedAt = performance.now();
    } catch (err) {
      this.loadError = err instanceof Error ? err.message : String(err);
      this.missing = err instanceof StoreError && err.code === 'not-found';
    }
  }

  /** Writes the result of a game its log has ended, if not written yet; returns the record. */
  private async recordResult(record: GameRecord, state: MatchState): Promise<GameRecord> {
    const result = matchResult(state);
    if (record.status !== 'active' || !result) return record;
    const store = await data.store();
    return store.finishGame(record.id, resultOfGame(record.players, record.ante, result));
  }

  /**
   * Appends one action: the rules check it first (a refusal shows its message and changes
   * nothing), then the store writes it, and only then does the screen change.
   * `quiet`: announce on screen readers only (a private screen: nothing is spoken aloud).
   * `alreadySpoken`: the headline said aloud with the roll's proposal, not said again.
   * `headlineFocused`: the screen focuses the headline once the action is shown, so a screen
   * reader reads it there; the announcement gives it only what else changed.
   */
  async act(action: Action, options: { quiet?: boolean; alreadySpoken?: string | null; headlineFocused?: boolean } = {}): Promise<boolean> {
    const state = this.state;
    const record = this.record;
    if (!state || !record || this.busy) return false;
    if (record.status !== 'active') {
      this.refuse(record.status === 'finished' ? 'The game is over; undo the last action to go on playing.' : 'This game was abandoned; its log can no longer change.');
      return false;
    }
    if (this.stoppedAt) {
      // The stored log breaks before its end: an action appended after it would be lost on the
      // next load, which replays only up to the break.
      this.refuse(brokenLog(this.stoppedAt, this.actions.length).refusal);
      return false;
    }
    const next = tryAction(state, action);
    if (!next.ok) {
      this.refuse(next.error.message);
      return false;
    }
    this.busy = true;
    try {
      const store = await data.store();
      // An action that ends the game is written with its result and ledger line, all or nothing.
      const result = matchResult(next.state);
      await eveningAfterBreak(record);
      await store.appendAction(record.id, action, this.expectation(record), result ? resultOfGame(record.players, record.ante, result) : undefined);
      const updated = (await store.getGame(record.id)) ?? withLogChange(record, 1);
      const before = viewMatch(state, null);
      this.record = updated;
      this.actions = [...this.actions, action];
      this.state = next.state;
      this.problem = null;
      this.undone = null;
      this.fixed = null;
      const after = viewMatch(next.state, null);
      const changes = scoreChanges(before, after);
      // A confirmed roll's headline was said aloud with its proposal: say only what is new.
      const saidBefore = options.alreadySpoken === after.headline;
      const spoken = saidBefore ? (changes ? `Scores: ${changes}.` : null) : undefined;
      // the end of a game played for a pot says who takes what
      const payout = payoutSentence(after);
      const withPayout = (text: string): string => (payout ? `${text} ${payout}`.trim() : text);
      announce(withPayout(changes ? `${after.headline} Scores: ${changes}.` : after.headline), {
        speak: !options.quiet && (spoken !== null || payout !== null),
        spoken: spoken === undefined ? undefined : withPayout(spoken ?? ''),
        screenReader: options.headlineFocused ? withPayout(changes ? `Scores: ${changes}.` : '') : undefined,
      });
      this.changedAt = performance.now();
      return true;
    } catch (err) {
      await this.storeProblem(err, 'Nothing was added here.');
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** Drops the last action (reopening a finished game). `headlineFocused`: as for `act`. */
  async undo(options: { headlineFocused?: boolean } = {}): Promise<boolean> {
    const record = this.record;
    if (!record || this.busy || this.actions.length === 0) return false;
    this.busy = true;
    try {
      const store = await data.store();
      await eveningAfterBreak(record);
      await store.undoLastAction(record.id, this.expectation(record));
      const actions = this.actions.slice(0, -1);
      const replayed = replayLog(headerOf(record), actions);
      const undone = this.actions[this.actions.length - 1];
      this.actions = actions;
      this.state = replayed.state;
      this.stoppedAt = replayed.stoppedAt;
      this.record = (await store.getGame(record.id)) ?? record;
      this.problem = null;
      this.changedAt = performance.now();
      // a secret re-roll undone keeps its dice hidden (undoneText)
      this.undone = undone && !replayed.stoppedAt ? undoneText(replayed.state, undone) : null;
      this.fixed = null;
      const said = this.undone ? `Undone: ${this.undone}.` : 'Last action undone.';
      announce(`${said} ${viewMatch(replayed.state, null).headline}`, { screenReader: options.headlineFocused ? said : undefined });
      return true;
    } catch (err) {
      await this.storeProblem(err, 'Nothing was undone here.');
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** The log as this screen shows it: the store refuses a write onto any other. */
  private expectation(record: GameRecord): LogExpectation {
    return { expectedCount: this.actions.length, expectedRevision: record.logRevision ?? 0 };
  }

  /**
   * Shows the game as stored if another tab changed it since it was loaded (called when the
   * page comes back into view): a phone's second tab must not show old scores or the old pot.
   */
  async refreshIfChanged(): Promise<void> {
    const record = this.record;
    if (!record || this.busy) return;
    let stored: GameRecord | undefined;
    try {
      stored = await (await data.store()).getGame(record.id);
    } catch (err) {
      // the table stays as it was (another tab opened a newer Rollcall, or the browser closed the
      // saved games): said where a refusal is, so old scores are not taken for the latest
      if (!this.busy) this.refuse(readProblem(err, 'The game as saved now'));
      return;
    }
    if (!stored) return;
    const changed =
      stored.actionCount !== record.actionCount || (stored.logRevision ?? 0) !== (record.logRevision ?? 0) || stored.status !== record.status;
    if (changed && !this.busy) await this.load();
  }

  /** Forgets the last refusal (the player moved on). */
  clearProblem(): void {
    this.problem = null;
  }

  /**
   * A refusal: shown, and announced at once (the announcer, not the paragraph shown, tells screen
   * readers: one voice, and the same refusal twice is said twice); nothing changed.
   */
  refuse(message: string): void {
    this.problem = message;
    announce(message, { politeness: 'assertive' });
  }

  /** A write the store refused; `unchanged`: what did not happen ("Nothing was added here."). */
  private async storeProblem(err: unknown, unchanged: string): Promise<void> {
    if (err instanceof StoreError && err.message === SETTLED_GAME_CLOSED) {
      // The evening was settled up since this table opened: nothing of the game changed, so not
      // "changed in another tab". Loaded again, the table says so in Undo's place, as the log does.
      await this.load();
      this.problem = null;
      announce(SETTLED_GAME_CLOSED, { politeness: 'assertive' });
      return;
    }
    if (err instanceof StoreError && (err.code === 'stale-log' || err.code === 'game-closed')) {
      // Another tab moved the game on, or ended or abandoned it: show the log as it is now.
      await this.load();
      this.refuse(`This game changed in another tab; the table now shows the latest state. ${unchanged}`);
      return;
    }
    this.refuse(err instanceof StoreError ? err.message : `Not saved: ${String(err)}`);
  }
}
