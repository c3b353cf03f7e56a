/**
 * The table's questions to the rules engine, as plain functions (no DOM, no store), so that they
 * are tested in Node: replaying a stored log, what a proposed roll would do, what is private to
 * one player, the log step by step, and transcripts in and out (JSON and CSV).
 *
 * The app never scores anything itself: every figure here comes from the engine's views.
 */
import {
  applyAction,
  createMatch,
  formatDice,
  expectRoll,
  gameById,
  isGameId,
  parseTranscript,
  potAfterAntes,
  replay,
  ReplayError,
  resolveOptions,
  RuleError,
  sessionLedger,
  SetupError,
  thrownDiceFromTable,
  tryAction,
  viewMatch,
  type Action,
  type DieToken,
  type PlayerBalance,
  type MatchState,
  type MatchView,
  type Options,
  type PlayerIndex,
  type Transcript,
} from '../lib/rules/index.ts';
import { BUILT_IN_KITS, describeDice, tokenForFace, type DiceKit } from '../lib/dice/index.ts';
import { isolated, offsetsDiffer, spreadsheetTime } from './format.ts';
import { eveningText } from './balances.ts';
import { rollcallFileKind, wrongFileMessage } from './file-kinds.ts';

/**
 * How the pot was paid out at the end of a game played for one: "Ann takes 15 from the pot of
 * 15.", "The pot was empty."; null for a game without an ante, or not over. `names`: each seat's
 * name as the screen says it (the game over card's "Bob (as Bbo)"), by default as played.
 */
export function payoutSentence(view: Pick<MatchView, 'ante' | 'payouts' | 'players'>, names: readonly string[] = view.players): string | null {
  if (view.ante <= 0 || !view.payouts) return null;
  const paid = view.payouts.reduce((a, b) => a + b, 0);
  if (paid === 0) return 'The pot was empty.';
  const takers = names
    .map((name, seat) => ({ name, amount: view.payouts?.[seat] ?? 0 }))
    .filter((p) => p.amount > 0)
    .map((p) => `${isolated(p.name)} takes ${p.amount}`);
  return `${takers.join(', ')} from the pot of ${paid}.`;
}

/**
 * A finished game said as text, for the group's chat (the game over's Share): the game and when it
 * ended, the heading, each seat's score as the slate counts it (in seat order: some games count
 * points against), the payout, and the evening's balances so far when it was played for stakes.
 * `names`: each seat's name as the screen says it.
 */
export function resultText(result: {
  game: string;
  endedAt: string;
  heading: string;
  view: Pick<MatchView, 'slate' | 'ante' | 'payouts' | 'players'>;
  names: readonly string[];
  evening: { name: string; games: number; balances: readonly Pick<PlayerBalance, 'player' | 'net'>[] } | null;
}): string {
  const { view, names } = result;
  const scores = view.slate.rows.map((row) => `${isolated(names[row.player] ?? row.name)} ${row.score}`).join(', ');
  const lines = [`${result.game}, ${result.endedAt}`, result.heading, `${view.slate.scoreLabel}: ${scores}`];
  const payout = payoutSentence(view, names);
  if (payout) lines.push(payout);
  const { evening } = result;
  if (evening && evening.balances.length > 0) {
    lines.push(eveningText(evening.name, evening.balances.map((b) => ({ name: b.player, amount: b.net })), evening.games));
  }
  return lines.join('\n');
}

/**
 * The Paid/Won/Net of an evening's finished games, one row per player: counted by the player's
 * id, not the name a game was played under (a name set right between two games, "ann" then "Ann",
 * is one player, as on Home's balances), and shown under their name now (`names`), else the name
 * of their last game here.
 */
export function eveningLedger(
  games: readonly { ante: number; players: readonly { id: string; name: string }[]; result: { payouts: Readonly<Record<string, number>> } | null }[],
  names: ReadonlyMap<string, string>,
): PlayerBalance[] {
  const lastName = new Map<string, string>();
  for (const game of games) for (const p of game.players) lastName.set(p.id, p.name);
  // A finished game's result keeps each player's gain or loss; what they won is that plus the ante.
  const money = games.map((g) => ({
    players: g.players.map((p) => p.id),
    ante: g.ante,
    payouts: g.players.map((p) => (g.result?.payouts[p.id] ?? 0) + g.ante),
  }));
  return sessionLedger(money).map((entry) => ({ ...entry, player: names.get(entry.player) ?? lastName.get(entry.player) ?? entry.player }));
}

/**
 * The question before a game is abandoned. Abandoning writes no ledger line, so every ante goes
 * back to who put it in: with a pot, say so, or the players are left asking who has the money.
 */
export function abandonQuestion(game: { ante: number; players: number }): string {
  const closed = 'can never be played on or undone.';
  if (game.ante <= 0) return `Abandon this game? It stays in the history, but it ${closed}`;
  const pot = potAfterAntes(game.players, game.ante);
  return `Abandon this game? Nobody wins the pot of ${pot}: each player takes back their ${game.ante}, and the balances stay as they are. The game stays in the history, but it ${closed}`;
}

/**
 * Whether the table shows the pot: only in a game played with an ante. Antes are all a pot ever
 * holds, so without one it is 0 from the first roll to the last (Point Five's too, whose sheet
 * plays for it), and "Pot 0" says nothing.
 */
export function showsPot(view: MatchView): boolean {
  return view.ante > 0;
}

/** The game New game offers a first-time player: the best known of the nine, and the README's quick start. */
const FIRST_GAME = 'five-thousand';

/**
 * What New game opens on: the game last played, with the ante and variations it was played with
 * (a table mostly plays its game again), else FIRST_GAME at its sheet's defaults. Options stored
 * that no longer fit the game (an older version's) give way to the sheet's defaults.
 */
export function openingSetup(last: { game: string; options: Record<string, unknown> } | undefined): { game: string; options: Options } {
  const game = gameById(last && isGameId(last.game) ? last.game : FIRST_GAME);
  if (last?.game === game.id) {
    try {
      return { game: game.id, options: resolveOptions(game, last.options) };
    } catch (err) {
      if (!(err instanceof SetupError)) throw err;
    }
  }
  return { game: game.id, options: resolveOptions(game) };
}

/** What a game record holds that the rules need: the transcript header. */
export interface GameHeader {
  game: string;
  players: readonly string[];
  options: Record<string, unknown>;
}

export interface Replayed {
  state: MatchState;
  /** Set when the stored log could not be replayed to its end (the rules changed, a damaged log). */
  stoppedAt: { index: number; message: string } | null;
}

/** The state of a stored game: its log folded from the start. */
export function replayLog(header: GameHeader, actions: readonly Action[]): Replayed {
  // a stored game: its names were checked when it began (createMatch's namesAsPlayed)
  let state = createMatch(header, { namesAsPlayed: true });
  for (const [index, action] of actions.entries()) {
    const next = tryAction(state, action);
    if (!next.ok) return { state, stoppedAt: { index, message: next.error.message } };
    state = next.state;
  }
  return { state, stoppedAt: null };
}

/**
 * What the table says of a log that stops making sense (`replayLog`'s `stoppedAt`, with the
 * stored log's length): where, why, and how to play on. Nothing can be added after the break —
 * a reload would replay only up to it, and the new actions would be lost — so the actions from
 * the break on must be undone first (undo drops the last stored action, one at a time).
 */
export function brokenLog(stoppedAt: NonNullable<Replayed['stoppedAt']>, stored: number): { notice: string; refusal: string } {
  const after = stored - stoppedAt.index;
  const why = stoppedAt.message.trim().replace(/[.!]+$/, '');
  const undos = after === 1 ? 'undo once' : `undo ${after} times`;
  const drops = after === 1 ? `action ${stoppedAt.index + 1}` : `action ${stoppedAt.index + 1} and the ${after - 1} after it`;
  return {
    notice: `This game's log stops making sense at action ${stoppedAt.index + 1} of ${stored}: ${why}. The table shows the game up to there. To play on from here, ${undos}: that drops ${drops}.`,
    refusal: `Nothing can be added after action ${stoppedAt.index + 1}, where the log stops making sense: ${undos} first.`,
  };
}

// ── proposed rolls ────────────────────────────────────────────────────────────────────────

export type Preview =
  /** The roll is accepted: `action` would be appended and `headline` would be the next headline. */
  | { ok: true; thrown: DieToken[]; action: Action; headline: string }
  /** Refused: the message says why; nothing would change. */
  | { ok: false; message: string };

/**
 * What a proposed roll would do: `seen` is every die the camera or the pad saw (only the dice
 * thrown, or the whole table with the kept dice); the rules pick out the dice thrown and apply
 * the roll to a copy of the state. `viewer` null: the table's headline; a seat: that player's.
 */
export function previewRoll(state: MatchState, seen: readonly DieToken[], viewer: PlayerIndex | null = null): Preview {
  const expect = expectRoll(state);
  if (!expect) return { ok: false, message: 'No roll is expected now.' };
  let thrown: DieToken[];
  try {
    thrown = thrownDiceFromTable(expect, seen);
  } catch (error) {
    if (error instanceof RuleError) return { ok: false, message: error.message };
    throw error;
  }
  const action: Action = { type: 'roll', dice: thrown };
  const next = tryAction(state, action);
  if (!next.ok) return { ok: false, message: next.error.message };
  return { ok: true, thrown, action, headline: viewMatch(next.state, viewer).headline };
}

/** The same plain JSON: two views (what one player sees that the table does not), a move's action and a logged one. */
function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The seat that must look alone before the awaited roll is entered — a Face Off villain's secret
 * re-roll — or null. Found without knowing the game: the roll is secret when, after it, the
 * roller's own view shows what the table's does not.
 */
export function secretRoller(state: MatchState): PlayerIndex | null {
  const expect = expectRoll(state);
  if (!expect) return null;
  const kit = BUILT_IN_KITS[expect.kit];
  const face = kit?.faces[0];
  if (!kit || !face) return null;
  const probe = tryAction(state, { type: 'roll', dice: new Array<DieToken>(expect.count).fill(tokenForFace(kit, face)) });
  if (!probe.ok) return null;
  return sameJson(viewMatch(probe.state, null), viewMatch(probe.state, expect.player)) ? null : expect.player;
}

/** The seats who may look at something hidden from the table now (a villain's secret dice). */
export function seatsWithSecrets(state: MatchState): PlayerIndex[] {
  if (state.phase === 'over') return [];
  const table = viewMatch(state, null);
  return state.players.map((_, seat) => seat).filter((seat) => !sameJson(table, viewMatch(state, seat)));
}

// ── the log, step by step ─────────────────────────────────────────────────────────────────

export interface LogStep {
  index: number;
  /** Who acted (the player whose move it was), or null. */
  player: string | null;
  /**
   * What was done, in words: the legal move's label, or "rolled 1 1 4 5 6"; dice named as the
   * table names them ("rolled Star (5)", "…: Luke Skywalker, Han Solo").
   */
  text: string;
  action: Action;
  /** The dice of the action (its `dice`, or its `die`) as written in it, "5" or "luke han": the CSV's dice column. */
  dice: string;
  /** How many dice the action carries (a secret re-roll is said as "re-rolled 2 dice in secret"). */
  diceCount: number;
  /** The table's headline after the action. */
  headline: string;
  /** The main slate figure per seat after the action. */
  scores: number[];
  /** A roll the table never saw (a secret re-roll): its dice are hidden unless asked for. */
  secret: boolean;
  /** The kit of the dice the action names: the roll awaited (a roll-off may throw standard dice), else the game's. */
  kitId: string;
}

/** The dice an action carries (its `dice`, or its one `die`), as tokens. */
function diceOf(action: Action): DieToken[] {
  const dice = action.dice;
  if (Array.isArray(dice)) return dice.filter((d): d is DieToken => typeof d === 'number' || typeof d === 'string');
  if (typeof action.die === 'number' || typeof action.die === 'string') return [action.die];
  return [];
}

/** The action's dice as the table names them (`describeDice`); as written when the kit is unknown. */
function diceWords(action: Action, kit: DiceKit | undefined): string {
  const dice = action.dice;
  if (!Array.isArray(dice)) return formatDice(diceOf(action));
  return kit ? describeDice(kit, dice as DieToken[]) : formatDice(diceOf(action));
}

/**
 * Words for one action, taken from what the table offered before it. `kitId`: the dice the
 * action names (the roll awaited, else the game's own).
 */
function describeAction(before: MatchView, action: Action, kitId: string | null): string {
  const kit = kitId ? BUILT_IN_KITS[kitId] : undefined;
  if (action.type === 'roll' && Array.isArray(action.dice)) return `rolled ${diceWords(action, kit)}`;
  for (const move of before.legal) {
    if (move.kind === 'action' && sameJson(move.action, action)) return move.label;
    if (move.kind === 'choose-dice' && move.actionType === action.type) return `${move.label}: ${diceWords(action, kit)}`;
  }
  const rest = Object.entries(action).filter(([key]) => key !== 'type');
  return rest.length === 0 ? action.type : `${action.type} ${rest.map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(', ')}`;
}

/** A roll the table never saw (a secret re-roll): the table's view after it holds dice hidden. */
function isSecretRoll(action: Action, after: MatchView): boolean {
  return action.type === 'roll' && typeof after.details.hiddenDice === 'number' && after.details.hiddenDice > 0;
}

/**
 * What Undo took back, for the table to say: "Bob rolled 2 2", "Ann's move, Bank 600 (0 → 600)".
 * `before`: the game as it stands again, the undone action's state before it. A roll the table
 * never saw (a secret re-roll) keeps its dice hidden: "Bob re-rolled 2 dice in secret".
 */
export function undoneText(before: MatchState, action: Action): string {
  const view = viewMatch(before, null);
  const player = view.current === null ? null : (before.players[view.current] ?? null);
  const next = tryAction(before, action);
  const dice = diceOf(action).length;
  const text = next.ok && isSecretRoll(action, viewMatch(next.state, null)) ? `re-rolled ${dice} ${dice === 1 ? 'die' : 'dice'} in secret` : describeAction(view, action, view.expect?.kit ?? gameById(before.game).kit);
  // a roll reads on from the name ("Bob rolled 2 2"); a move's label stands after it
  return player === null ? text : action.type === 'roll' ? `${isolated(player)} ${text}` : `${isolated(player)}'s move, ${text}`;
}

/**
 * Replays a log step by step: each action with who made it, its words, and the headline and
 * scores after it. Stops at the first action the rules refuse (the steps before it are kept).
 */
export function logSteps(header: GameHeader, actions: readonly Action[]): { steps: LogStep[]; stoppedAt: Replayed['stoppedAt'] } {
  let state = createMatch(header, { namesAsPlayed: true });
  const gameKit = gameById(state.game).kit;
  const steps: LogStep[] = [];
  for (const [index, action] of actions.entries()) {
    const before = viewMatch(state, null);
    // a roll is thrown with the dice awaited (a roll-off may use standard dice); chosen dice are the game's
    const kitId = before.expect?.kit ?? gameKit;
    const next = tryAction(state, action);
    if (!next.ok) return { steps, stoppedAt: { index, message: next.error.message } };
    state = next.state;
    const after = viewMatch(state, null);
    const player = before.current === null ? null : (state.players[before.current] ?? null);
    const secret = isSecretRoll(action, after);
    steps.push({
      index,
      player,
      text: describeAction(before, action, kitId),
      action,
      dice: formatDice(diceOf(action)),
      diceCount: diceOf(action).length,
      headline: after.headline,
      scores: slateScores(state, after),
      secret,
      kitId,
    });
  }
  return { steps, stoppedAt: null };
}

/** Each seat's main slate figure in a view of `state`. */
function slateScores(state: MatchState, view: MatchView): number[] {
  return state.players.map((_, seat) => view.slate.rows.find((r) => r.player === seat)?.score ?? 0);
}

/** A roll of the log entered with other dice (`fixRoll`): the log it makes, and what changes. */
export interface RollFix {
  /** The log with the roll fixed, then the moves after it that still stand. */
  actions: Action[];
  /** How many moves after the fixed roll stand. */
  kept: number;
  /** How many moves, the last ones, the fix takes back: from the first that no longer fits on. */
  dropped: number;
  /** Why the first move taken back no longer fits, for players ("after the fix it is Ann's turn, not Bob's"). */
  droppedBecause: string | null;
  /** When the rules refused that move: their own words, one or more sentences ("4 dice thrown, 3 expected."). */
  rulesSaid: string | null;
  /** Each seat's main slate figure with the log as it is, and with the fix. */
  scores: { before: number[]; after: number[] };
  /** The game after the fixed log: its headline, and its result when the fix ends it. */
  state: MatchState;
}

/**
 * A roll misread or mistapped and noticed moves later ("that 6 was a 5"): the log with roll
 * `index` thrown as `dice`, and the moves after it replayed on top. A later move stands only if
 * the rules take it, the same player makes it and in the same phase: a fix that hands the turn to
 * someone else must not give them the next player's dice, and a throw for who starts must not
 * become a throw of the game, nor the other way round. From the first move that fails, the rest
 * is taken back, as that many Undos would. Throws a RuleError, and changes nothing, when step
 * `index` is not a roll the table saw, the dice do not fit it, or they are the dice already written.
 */
export function fixRoll(header: GameHeader, actions: readonly Action[], index: number, dice: readonly DieToken[]): RollFix {
  let state = createMatch(header, { namesAsPlayed: true });
  // who made each move as the log stands, and in which phase (a throw for who starts, or play)
  const actors: (PlayerIndex | null)[] = [];
  const phases: MatchState['phase'][] = [];
  let beforeRoll: MatchState | null = null;
  let afterRoll: MatchState | null = null;
  for (const [i, action] of actions.entries()) {
    if (i === index) beforeRoll = state;
    actors.push(viewMatch(state, null).current);
    phases.push(state.phase);
    const next = tryAction(state, action);
    if (!next.ok) throw new RuleError('bad-fix', `This game's log stops making sense at action ${i + 1}: undo back to there first.`);
    state = next.state;
    if (i === index) afterRoll = state;
  }
  const roll = actions[index];
  if (!beforeRoll || !afterRoll || roll?.type !== 'roll' || !Array.isArray(roll.dice)) throw new RuleError('bad-fix', 'Only a roll of the dice can be fixed.');
  if (isSecretRoll(roll, viewMatch(afterRoll, null))) throw new RuleError('bad-fix', 'A secret re-roll cannot be fixed: the table never saw its dice.');
  const fixedRoll: Action = { ...roll, dice: [...dice] };
  const sorted = (tokens: readonly unknown[]): string[] => tokens.map((t) => JSON.stringify(t)).sort();
  if (sameJson(sorted(dice), sorted(roll.dice))) throw new RuleError('bad-fix', 'These are the dice already written: nothing to fix.');
  const before = slateScores(state, viewMatch(state, null));
  let fixed = applyAction(beforeRoll, fixedRoll);
  const kept: Action[] = [];
  let droppedBecause: string | null = null;
  let rulesSaid: string | null = null;
  for (let i = index + 1; i < actions.length; i++) {
    const action = actions[i]!;
    const actor = actors[i] ?? null;
    const now = viewMatch(fixed, null).current;
    if (fixed.phase === 'over') {
      droppedBecause = 'the fixed roll ends the game';
      break;
    }
    // a throw for who starts is no throw of the game, nor the other way round, by the same player or not
    if (phases[i] !== fixed.phase) {
      droppedBecause = fixed.phase === 'roll-off' ? 'after the fix who starts is still being thrown for, and that was a throw of the game' : 'after the fix who starts is settled, and that was a throw for who starts';
      break;
    }
    if (now !== actor) {
      droppedBecause = `after the fix it is ${playerText(fixed, now)}'s move, not ${playerText(fixed, actor)}'s`;
      break;
    }
    const next = tryAction(fixed, action);
    if (!next.ok) {
      droppedBecause = 'the rules no longer take the next one';
      // the rule's own words are sentences of their own ("No roll is expected now. …"), quoted whole
      rulesSaid = /[.!?]$/.test(next.error.message.trim()) ? next.error.message.trim() : `${next.error.message.trim()}.`;
      break;
    }
    fixed = next.state;
    kept.push(action);
  }
  return {
    actions: [...actions.slice(0, index), fixedRoll, ...kept],
    kept: kept.length,
    dropped: actions.length - index - 1 - kept.length,
    droppedBecause,
    rulesSaid,
    scores: { before, after: slateScores(fixed, viewMatch(fixed, null)) },
    state: fixed,
  };
}

/**
 * What a fix would do, said before it is saved: the scores it changes ("Ann 1100 → 1200"), what
 * becomes of the moves after the roll, where the table then stands, and what becomes of the
 * game's end: reopened, for a game that had ended (`ended`), or, whether it had or not, the end
 * the fix makes and its payout (money changes hands: it is said before, not found after).
 */
export function fixSummary(fix: RollFix, ended = false): { scores: string; moves: string; headline: string; end: string | null; saved: string } {
  const view = viewMatch(fix.state, null);
  const changed = fix.state.players
    .map((name, seat) => ({ name, was: fix.scores.before[seat] ?? 0, now: fix.scores.after[seat] ?? 0 }))
    .filter((p) => p.was !== p.now)
    .map((p) => `${isolated(p.name)} ${p.was} → ${p.now}`);
  const kept = fix.kept === 0 ? '' : fix.kept === 1 ? 'The move after it stands. ' : `The ${fix.kept} moves after it stand. `;
  const dropped =
    fix.dropped === 0
      ? fix.kept === 0
        ? 'It was the last move.'
        : ''
      : `${fix.dropped === 1 ? 'The last move is' : `The last ${fix.dropped} moves are`} taken back, as Undo would: ${fix.droppedBecause ?? 'they no longer fit'}.${fix.rulesSaid ? ` The rules say: “${fix.rulesSaid}”` : ''}`;
  const scores = changed.length === 0 ? 'No score changes.' : `Scores: ${changed.join(', ')}.`;
  const moves = `${kept}${dropped}`.trim();
  return {
    scores,
    moves,
    /** Once saved, only what changed: the scores, the moves taken back. */
    saved: [changed.length > 0 ? scores : '', fix.dropped > 0 ? moves : ''].filter(Boolean).join(' '),
    headline: view.headline,
    end: fixEndText(view, fix.state.phase === 'over', ended),
  };
}

/** What a fix makes of the game's end (`view`, `over`: after the fix; `ended`: before it), or null when it had none and has none. */
function fixEndText(view: MatchView, over: boolean, ended: boolean): string | null {
  const stakes = view.ante > 0;
  if (over) {
    const end = ended ? `The game still ends${stakes ? ', and its payout is worked out again' : ''}.` : 'The fix ends the game.';
    return [end, payoutSentence(view)].filter(Boolean).join(' ');
  }
  return ended ? `The game is reopened${stakes ? ', and its payout taken back' : ''}, as Undo of its end would.` : null;
}

function playerText(state: MatchState, seat: PlayerIndex | null): string {
  return seat === null ? 'nobody' : isolated(state.players[seat] ?? '?');
}

/**
 * Whether a game still in play holds a roll the table never saw (a villain's secret re-roll,
 * `LogStep.secret`). The log hides such dice until the game is over, so nothing else that shows
 * or writes out the log (its exports, a backup) may give them away before then either.
 */
export function holdsSecretDice(status: 'active' | 'finished' | 'abandoned', steps: readonly LogStep[]): boolean {
  return status === 'active' && steps.some((s) => s.secret);
}

// ── transcripts ───────────────────────────────────────────────────────────────────────────

/** The game as a transcript: what `npm run replay` and the app's import read; `times` (ms), when each action was written. */
export function transcriptOf(header: GameHeader, actions: readonly Action[], times?: readonly number[]): Transcript {
  const transcript: Transcript = { game: header.game, players: [...header.players], options: { ...header.options }, actions: actions.map((a) => ({ ...a })) };
  return times ? { ...transcript, times: times.map((t) => new Date(t).toISOString()) } : transcript;
}

/**
 * The field separator a spreadsheet on a phone in `language` ("de-DE") expects: ";" where numbers
 * are written with a decimal comma (Germany, France, Brazil…), as Excel's list separator is there;
 * a "," file opened in such an Excel puts every row in one column. "," everywhere else.
 */
export function csvSeparator(language: string): ',' | ';' {
  let decimal: string | undefined;
  try {
    decimal = new Intl.NumberFormat(language || undefined).formatToParts(1.5).find((part) => part.type === 'decimal')?.value;
  } catch {
    return ','; // a language tag Intl does not take
  }
  return decimal === ',' ? ';' : ',';
}

/** One CSV field: quoted when needed; text that a spreadsheet would run as a formula is defused. */
function csvField(value: string | number, separator: ',' | ';'): string {
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /["\n\r]/.test(text) || text.includes(separator) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** "UTC+02:00": a time's offset from UTC on this phone (text: a bare "+02:00" is a formula to a spreadsheet). */
function utcOffset(ms: number): string {
  const minutes = -new Date(ms).getTimezoneOffset();
  const two = (n: number): string => String(n).padStart(2, '0');
  return `UTC${minutes < 0 ? '-' : '+'}${two(Math.floor(Math.abs(minutes) / 60))}:${two(Math.abs(minutes) % 60)}`;
}

/**
 * The log as CSV for spreadsheets: one row per action, when it was made (`times`, ms) and every
 * player's score after it, fields parted by `separator` (`csvSeparator`). A game played across a
 * daylight-saving change (`offsetsDiffer`) gets a "UTC offset" column beside the time, as its
 * log shows the zones: 02:50 then 02:10 is otherwise a game going backwards.
 */
export function csvOf(players: readonly string[], steps: readonly LogStep[], times: readonly number[], separator: ',' | ';' = ','): string {
  const zoned = offsetsDiffer(times);
  const head = ['#', 'time', ...(zoned ? ['UTC offset'] : []), 'player', 'action', 'dice', ...players.map((p) => `${p} score`), 'after'];
  const rows = steps.map((s) => {
    const at = times[s.index];
    const when = at === undefined ? [''] : [spreadsheetTime(at)];
    if (zoned) when.push(at === undefined ? '' : utcOffset(at));
    return [s.index + 1, ...when, s.player ?? '', s.text, s.dice, ...s.scores, s.headline];
  });
  return [head, ...rows].map((row) => row.map((field) => csvField(field, separator)).join(separator)).join('\r\n') + '\r\n';
}

export class TranscriptImportError extends Error {
  override name = 'TranscriptImportError';
}

/**
 * Reads a transcript file: JSON, the right shape, a known game with valid players and options,
 * and every action legal. Any problem is a TranscriptImportError whose message says what and
 * where; nothing is written by this function.
 */
export function readTranscript(text: string): { transcript: Transcript; state: MatchState } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TranscriptImportError('This file is not a transcript: it is not valid JSON. Nothing was imported.');
  }
  const kind = rollcallFileKind(json);
  if (kind !== null && kind !== 'transcript') throw new TranscriptImportError(`${wrongFileMessage(kind, 'transcript')} Nothing was imported.`);
  try {
    const transcript = parseTranscript(json);
    const state = replay(transcript);
    return { transcript, state };
  } catch (error) {
    if (error instanceof ReplayError) {
      throw new TranscriptImportError(`Action ${error.index + 1} of this transcript is not allowed: ${error.ruleError.message} Nothing was imported.`);
    }
    if (error instanceof SetupError) throw new TranscriptImportError(`${error.message} Nothing was imported.`);
    // anything else a strange file sets off (it should not happen): said plainly, nothing kept
    throw new TranscriptImportError(`This transcript could not be read (${error instanceof Error ? error.message : String(error)}). Nothing was imported.`);
  }
}

/** The options a new game records: every option resolved, so the log replays the same later. */
export function resolvedHeader(header: GameHeader): GameHeader {
  const state = createMatch(header);
  return { game: state.game, players: state.players, options: { ...state.options } };
}
