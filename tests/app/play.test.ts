import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createMatch, matchResult, replay, summarize, viewMatch, type Action } from '../../src/lib/rules/index.ts';
import {
  brokenLog,
  csvOf,
  csvSeparator,
  holdsSecretDice,
  logSteps,
  payoutSentence,
  resultText,
  abandonQuestion,
  eveningLedger,
  previewRoll,
  readTranscript,
  replayLog,
  resolvedHeader,
  secretRoller,
  seatsWithSecrets,
  openingSetup,
  undoneText,
  fixRoll,
  fixSummary,
  showsPot,
  TranscriptImportError,
  transcriptOf,
} from '../../src/app/play.ts';
import { BUILT_IN_KITS, faceLabel } from '../../src/lib/dice/index.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const fiveThousand = { game: 'five-thousand', players: ['Ann', 'Bob', 'Cy'], options: { ante: 2 } };
const villainBluff: Action[] = [
  { type: 'roll', dice: ['vader', 'vader', 'luke', 'han', 'han'] },
  { type: 'go-villain' },
  { type: 'reroll', dice: ['luke', 'han', 'han'] },
  { type: 'roll', dice: ['luke', 'stormtrooper', 'r2d2'] },
  { type: 'declare', combo: 'four-of-a-villain' },
  { type: 'challenge' },
];
const faceOff = { game: 'face-off', players: ['Ann', 'Bob'], options: {} };

function played(header: typeof fiveThousand | typeof faceOff, actions: Action[]) {
  const { state, stoppedAt } = replayLog(header, actions);
  expect(stoppedAt).toBeNull();
  return state;
}

describe('replaying a stored log', () => {
  it('folds the log, and stops at an action the rules refuse, keeping the state before it', () => {
    const log: Action[] = [{ type: 'roll', dice: [1, 1, 4, 5, 6] }, { type: 'bank' }, { type: 'roll', dice: [1, 3] }];
    const { state, stoppedAt } = replayLog(fiveThousand, log);
    expect(stoppedAt).toEqual({ index: 1, message: expect.stringMatching(/500 in one turn/) });
    expect(state.actionCount).toBe(1);
  });

  it('says where a log stops making sense and how many undos play on from there', () => {
    const log: Action[] = [{ type: 'roll', dice: [1, 1, 4, 5, 6] }, { type: 'bank' }, { type: 'roll', dice: [1, 3] }, { type: 'roll', dice: [5] }];
    const { stoppedAt } = replayLog(fiveThousand, log);
    const { notice, refusal } = brokenLog(stoppedAt!, log.length);
    // one sentence per thought, no "(….)." doubled stops; three actions from the break on
    expect(notice).toMatch(/^This game's log stops making sense at action 2 of 4: [^.]*500 in one turn[^.]*\. The table shows the game up to there\. To play on from here, undo 3 times: that drops action 2 and the 2 after it\.$/);
    expect(refusal).toBe('Nothing can be added after action 2, where the log stops making sense: undo 3 times first.');
    expect(brokenLog({ index: 3, message: 'Refused.' }, 4).notice).toMatch(/: Refused\. .* undo once: that drops action 4\.$/);
  });

    it('resolves every option of a new game, so the log replays the same later', () => {
    const header = resolvedHeader(fiveThousand);
    expect(header.options).toMatchObject({ ante: 2, startingPlayer: 'first-listed', entryScore: 500, threeOnes: '1100' });
    expect(summarize(createMatch(header))).toEqual(summarize(createMatch(fiveThousand)));
  });

  it('gives the result the store keeps: winners and each seat’s gain or loss', () => {
    const tie = replay(JSON.parse(readFileSync(resolve(ROOT, 'tests/transcripts/big-roll-5000/final-round-tie.json'), 'utf8')));
    expect(tie.phase).toBe('over');
    // Ann and Bob share a pot of 9 (ante 3): 5 and 4
    expect(matchResult(tie)).toEqual({ winners: [0, 1], payouts: [2, 1, -3] });
    expect(matchResult(createMatch(fiveThousand))).toBeNull();
  });
});

describe('a game stored under names that now read as one', () => {
  it('still replays, opens and lists its steps; only a new game is refused', () => {
    // José typed two ways: two names before names compared by nameKey, one name now
    const header = { game: 'war', players: ['Jos\u00e9', 'Jose\u0301'], options: {} };
    expect(() => createMatch(header)).toThrow(/same name/);
    expect(replayLog(header, []).stoppedAt).toBeNull();
    expect(logSteps(header, []).stoppedAt).toBeNull();
  });
});

describe('the payout at the end', () => {
  it('says who takes what from the pot, and nothing for a game without an ante or not over', () => {
    const bigRoll = (ante: number, actions: Action[]) =>
      viewMatch(replayLog({ game: 'big-roll-5000', players: ['Ann', 'Bob', 'Cy'], options: { ante, startingPlayer: 'first-listed' } }, actions).state, null);
    // five 1s win Big Roll at once
    expect(payoutSentence(bigRoll(5, [{ type: 'roll', dice: [1, 1, 1, 1, 1] }]))).toBe('Ann takes 15 from the pot of 15.');
    expect(payoutSentence(bigRoll(0, [{ type: 'roll', dice: [1, 1, 1, 1, 1] }]))).toBeNull();
    expect(payoutSentence(bigRoll(5, []))).toBeNull();
  });
});

describe('the result shared at the end', () => {
  const wonByAnn = (ante: number, players = ['Ann', 'Bob', 'Cy']) =>
    viewMatch(replayLog({ game: 'big-roll-5000', players, options: { ante, startingPlayer: 'first-listed' } }, [{ type: 'roll', dice: [1, 1, 1, 1, 1] }]).state, null);

  it('says the game, when it ended, the winner, each seat in order with its score, the pot and the evening so far', () => {
    const view = wonByAnn(2);
    const evening = { name: 'Dec 7, 2026', games: 2, balances: [{ player: 'Ann', net: 4 }, { player: 'Bob', net: -2 }, { player: 'Cy', net: -2 }] };
    expect(resultText({ game: '5000 (Big Roll)', endedAt: 'Dec 7, 2026, 9:40 PM', heading: 'Ann wins!', view, names: view.players, evening })).toBe(
      ['5000 (Big Roll), Dec 7, 2026, 9:40 PM', 'Ann wins!', 'Points: Ann 5000, Bob 0, Cy 0', 'Ann takes 6 from the pot of 6.', 'Dec 7, 2026 (2 games): Ann +4, Bob -2, Cy -2'].join('\n'),
    );
  });

  it('names seats as the screen does, keeps a right-to-left name in its place, and leaves out a pot and balances not played for', () => {
    const view = wonByAnn(0, ['Ann', 'سارة']);
    const text = resultText({ game: '5000 (Big Roll)', endedAt: 'today', heading: 'Ann wins!', view, names: ['Ann', 'سارة'], evening: null });
    expect(text).toBe(['5000 (Big Roll), today', 'Ann wins!', 'Points: Ann 5000, \u2068سارة\u2069 0'].join('\n'));
    const renamed = resultText({ game: '5000 (Big Roll)', endedAt: 'today', heading: 'Bob (as Bbo) wins!', view: wonByAnn(0, ['Bbo', 'Cy']), names: ['Bob (as Bbo)', 'Cy'], evening: null });
    expect(renamed.split('\n')[2]).toBe('Points: Bob (as Bbo) 5000, Cy 0');
  });
});

describe("the evening's ledger at the end of a game", () => {
  it('counts each player once by who they are, under their name now, though a game was played under another spelling', () => {
    const ann = { id: 'p-ann', name: 'ann' };
    const bob = { id: 'p-bob', name: 'Bob' };
    const games = [
      // the first game with Ann's name typed in lower case; she set it right for the second
      { ante: 5, players: [ann, bob], result: { payouts: { 'p-ann': 5, 'p-bob': -5 } } },
      { ante: 5, players: [{ ...ann, name: 'Ann' }, bob], result: { payouts: { 'p-ann': -5, 'p-bob': 5 } } },
      { ante: 2, players: [{ ...ann, name: 'Ann' }, bob], result: { payouts: { 'p-ann': 2, 'p-bob': -2 } } },
    ];
    expect(eveningLedger(games, new Map([['p-ann', 'Ann'], ['p-bob', 'Bob']]))).toEqual([
      { player: 'Ann', paid: 12, won: 14, net: 2, games: 3 },
      { player: 'Bob', paid: 12, won: 10, net: -2, games: 3 },
    ]);
    // a player no longer on this device keeps the name of their last game
    expect(eveningLedger(games, new Map([['p-bob', 'Bob']])).map((e) => e.player)).toEqual(['Ann', 'Bob']);
  });
});

describe('abandoning a game', () => {
  it('says what becomes of the pot: nobody wins it, each player takes their ante back, the balances stay', () => {
    expect(abandonQuestion({ ante: 5, players: 2 })).toBe(
      'Abandon this game? Nobody wins the pot of 10: each player takes back their 5, and the balances stay as they are. The game stays in the history, but it can never be played on or undone.',
    );
    expect(abandonQuestion({ ante: 0, players: 4 })).toBe('Abandon this game? It stays in the history, but it can never be played on or undone.');
  });
});

describe('the pot on the table', () => {
  it('shows where the game is played for one: an ante, or a sheet that plays for a pot', () => {
    const view = (game: string, options: Record<string, unknown>, actions: Action[] = []) =>
      viewMatch(replayLog({ game, players: ['Ann', 'Bob'], options: { startingPlayer: 'first-listed', ...options } }, actions).state, null);
    // no ante: the pot stays 0 all game, and "Pot 0" says nothing
    expect(showsPot(view('five-thousand', { ante: 0 }))).toBe(false);
    expect(showsPot(view('war', {}))).toBe(false);
    expect(showsPot(view('five-thousand', { ante: 2 }))).toBe(true);
    // paid out at the end it is 0, and says so
    const won = view('big-roll-5000', { ante: 5 }, [{ type: 'roll', dice: [1, 1, 1, 1, 1] }]);
    expect(won.pot).toBe(0);
    expect(showsPot(won)).toBe(true);
    // Point Five's sheet plays for a pot ("six symbols win the pot"): its default ante shows it,
    // but played without one its pot can only ever be 0
    expect(showsPot(view('point-five', {}))).toBe(true);
    expect(showsPot(view('point-five', { ante: 0 }))).toBe(false);
  });
});

describe('a proposed roll', () => {
  const afterFirst = played(fiveThousand, [{ type: 'roll', dice: [1, 1, 4, 5, 6] }]);

  it('previews the next headline with the dice thrown picked out of the whole table', () => {
    expect(previewRoll(afterFirst, [1, 3])).toMatchObject({ ok: true, thrown: [1, 3], action: { type: 'roll', dice: [1, 3] }, headline: expect.stringMatching(/^Ann rolled 1 3 = 100/) });
    expect(previewRoll(afterFirst, [1, 5, 1, 3, 2])).toMatchObject({ ok: true, thrown: [3, 2] });
  });

  it('says what is wrong, and the state is untouched', () => {
    expect(previewRoll(afterFirst, [1, 5, 1, 3])).toEqual({ ok: false, message: '4 dice seen, 2 were re-rolled and 3 kept.' });
    expect(previewRoll(afterFirst, [6, 6, 6, 3, 2])).toEqual({ ok: false, message: expect.stringMatching(/kept dice \(1 1 5\) are not all on the table/) });
    expect(previewRoll(afterFirst, [7, 1])).toEqual({ ok: false, message: expect.stringMatching(/7 is not a face/) });
    expect(afterFirst.actionCount).toBe(1);
  });
});

describe('what is private', () => {
  it('finds the villain’s secret re-roll before it is entered, and no one else’s roll', () => {
    expect(secretRoller(played(faceOff, villainBluff.slice(0, 3)))).toBe(0);
    expect(secretRoller(createMatch(faceOff))).toBeNull();
    expect(secretRoller(played(faceOff, [villainBluff[0]!, { type: 'go-hero' }, { type: 'reroll', dice: ['luke'] }]))).toBeNull();
    expect(secretRoller(createMatch(fiveThousand))).toBeNull();
  });

  it('knows who may look at hidden dice, until they are revealed', () => {
    expect(seatsWithSecrets(played(faceOff, villainBluff.slice(0, 3)))).toEqual([]);
    expect(seatsWithSecrets(played(faceOff, villainBluff.slice(0, 4)))).toEqual([0]);
    expect(seatsWithSecrets(played(faceOff, villainBluff.slice(0, 5)))).toEqual([0]);
    const revealed = played(faceOff, [...villainBluff, { type: 'roll', dice: ['r2d2', 'luke', 'stormtrooper'] }]);
    expect(seatsWithSecrets(revealed)).toEqual([]);
    expect(viewMatch(revealed).headline).toMatch(/bluffing! Bob takes the 75/);
  });
});

describe('the log step by step', () => {
  it('names each action as the table offered it, with the headline and scores after it', () => {
    const { steps, stoppedAt } = logSteps(fiveThousand, [
      { type: 'roll', dice: [1, 1, 4, 5, 6] },
      { type: 'roll', dice: [1, 3] },
      { type: 'roll', dice: [5] },
      { type: 'roll', dice: [2, 2, 2, 3, 6] },
      { type: 'bank' },
    ]);
    expect(stoppedAt).toBeNull();
    expect(steps.map((s) => [s.player, s.text])).toEqual([
      ['Ann', 'rolled 1 1 4 5 6'],
      ['Ann', 'rolled 1 3'],
      ['Ann', 'rolled 5'],
      ['Ann', 'rolled 2 2 2 3 6'],
      ['Ann', 'Bank 600 (0 → 600)'],
    ]);
    expect(steps[4]).toMatchObject({ dice: '', scores: [600, 0, 0], headline: expect.stringMatching(/^Ann banks 600/) });
  });

  it('marks the secret re-roll, names Face Off dice by their faces, and the challenger as the one who acted', () => {
    const { steps } = logSteps(faceOff, villainBluff);
    expect(steps.map((s) => s.secret)).toEqual([false, false, false, true, false, false]);
    // the secret re-roll's dice counted, not its faces: "re-rolled 3 dice in secret"
    expect(steps[3]!.diceCount).toBe(3);
    // by the faces' names, as the table names them, comma-separated (names have spaces)
    expect(steps[0]!.text).toBe('rolled Darth Vader, Darth Vader, Luke Skywalker, Han Solo, Han Solo');
    expect(steps[2]!.text).toBe('Put 1 to 3 dice in the cup for a secret re-roll: Luke Skywalker, Han Solo, Han Solo');
    expect(steps[2]!.dice).toBe('luke han han'); // the CSV's dice column: as written in the action
    expect(steps[3]!.headline).not.toMatch(/Luke|Stormtrooper|R2-D2/);
    expect(steps[4]!.text).toBe('Declare 4 of Any Villain (75)');
    expect(steps[5]).toMatchObject({ player: 'Bob', text: 'Bob challenges' });
  });

  it('holds secret dice while a game with a secret re-roll is in play; not once it is over, nor a game without one', () => {
    const { steps } = logSteps(faceOff, villainBluff);
    expect(holdsSecretDice('active', steps)).toBe(true);
    expect(holdsSecretDice('active', steps.slice(0, 3))).toBe(false);
    expect(holdsSecretDice('finished', steps)).toBe(false);
    expect(holdsSecretDice('abandoned', steps)).toBe(false);
  });

  it('names Point Five symbols as the table does ("Star (5)"), in the roll-off too; pips stay numbers', () => {
    const pointFive = { game: 'point-five', players: ['Ann', 'Bob'], options: { startingPlayer: 'roll-off' } };
    const { steps, stoppedAt } = logSteps(pointFive, [
      { type: 'roll', dice: [2] },
      { type: 'roll', dice: [6] },
      { type: 'roll', dice: [5] },
      { type: 'roll', dice: [1] },
      { type: 'call' },
    ]);
    expect(stoppedAt).toBeNull();
    const kit = BUILT_IN_KITS['corellian-spike']!;
    expect(steps.map((s) => [s.player, s.text])).toEqual([
      ['Ann', 'rolled Triangle (2)'],
      ['Bob', 'rolled Burst (6)'],
      ['Bob', `rolled ${faceLabel(kit, 5)}`],
      ['Bob', 'rolled Circle (1)'],
      ['Bob', 'Call for 1'],
    ]);
    expect(steps[2]!.text).toBe('rolled Star (5)');
    expect(steps[1]!.dice).toBe('6');
    // Face Off's roll-off is thrown with standard dice: numbers
    const faceOffRollOff = logSteps({ ...faceOff, options: { startingPlayer: 'roll-off' } }, [{ type: 'roll', dice: [4] }]);
    expect(faceOffRollOff.steps.map((s) => s.text)).toEqual(['rolled 4']);
  });

  it('exports CSV for spreadsheets: one row per action, quoted where needed, formulas defused', () => {
    const header = { game: 'five-thousand', players: ['Ann, the first', '=HYPERLINK("x")'], options: {} };
    const { steps } = logSteps(header, [{ type: 'roll', dice: [2, 3, 4, 6, 6] }]);
    // when the roll was made, on this phone's clock, as a spreadsheet reads a date and time
    const at = new Date(2026, 11, 5, 20, 15, 3).getTime();
    const lines = csvOf(header.players, steps, [at]).split('\r\n');
    expect(lines[0]).toBe(`#,time,player,action,dice,"Ann, the first score","'=HYPERLINK(""x"") score",after`);
    expect(lines[1]).toMatch(/^1,2026-12-05 20:15:03,"Ann, the first",rolled 2 3 4 6 6,2 3 4 6 6,0,0,"?'?Ann, the first rolled 2 3 4 6 6/);
    expect(lines).toHaveLength(3);
  });

  it("parts fields as a spreadsheet in the phone's language expects: ';' where numbers take a decimal comma", () => {
    for (const language of ['de-DE', 'fr-FR', 'pt-BR', 'nl-NL', 'ru-RU']) expect(csvSeparator(language), language).toBe(';');
    for (const language of ['en-US', 'en-GB', 'ja-JP', 'zh-CN', 'he-IL']) expect(csvSeparator(language), language).toBe(',');
    // no language, or one Intl does not take: the usual comma, not an error at the export button
    expect(csvSeparator('')).toMatch(/^[,;]$/);
    expect(csvSeparator('not a language!')).toBe(',');
    const header = { game: 'five-thousand', players: ['Ann, the first', 'Bob; Jr.'], options: {} };
    const { steps } = logSteps(header, [{ type: 'roll', dice: [2, 3, 4, 6, 6] }]);
    const lines = csvOf(header.players, steps, [new Date(2026, 11, 5, 20, 15, 3).getTime()], ';').split('\r\n');
    // a comma is plain text in a ';' file; a ';' in a name is quoted
    expect(lines[0]).toBe('#;time;player;action;dice;Ann, the first score;"Bob; Jr. score";after');
    expect(lines[1]).toMatch(/^1;2026-12-05 20:15:03;Ann, the first;rolled 2 3 4 6 6;2 3 4 6 6;0;0;/);
  });

  it('gives a game played across the night the clocks go back a UTC offset column, and no other game one', () => {
    const zoneBefore = process.env.TZ;
    try {
      // Berlin, 25 October 2026: 03:00 CEST becomes 02:00 CET, and 02:50 comes twice
      process.env.TZ = 'Europe/Berlin';
      const header = { game: 'five-thousand', players: ['Ann', 'Bob'], options: {} };
      const { steps } = logSteps(header, [{ type: 'roll', dice: [2, 3, 4, 6, 6] }, { type: 'roll', dice: [2, 3, 4, 6, 6] }, { type: 'roll', dice: [2, 3, 4, 6, 6] }]);
      const across = csvOf(header.players, steps, [Date.UTC(2026, 9, 25, 0, 50), Date.UTC(2026, 9, 25, 1, 10), Date.UTC(2026, 9, 25, 1, 50)]).split('\r\n');
      expect(across[0]).toBe('#,time,UTC offset,player,action,dice,Ann score,Bob score,after');
      expect(across.slice(1, 4).map((line) => line.split(',').slice(1, 3).join(' '))).toEqual(['2026-10-25 02:50:00 UTC+02:00', '2026-10-25 02:10:00 UTC+01:00', '2026-10-25 02:50:00 UTC+01:00']);
      const evening = csvOf(header.players, steps, [Date.UTC(2026, 9, 24, 18, 0), Date.UTC(2026, 9, 24, 18, 5), Date.UTC(2026, 9, 24, 18, 9)]).split('\r\n');
      expect(evening[0]).toBe('#,time,player,action,dice,Ann score,Bob score,after');
    } finally {
      if (zoneBefore === undefined) delete process.env.TZ;
      else process.env.TZ = zoneBefore;
    }
  });
});

describe('transcripts', () => {
  it('exports what the replay CLI and the import read, and imports it back', () => {
    const log: Action[] = [{ type: 'roll', dice: [1, 1, 4, 5, 6] }];
    const text = JSON.stringify(transcriptOf(resolvedHeader(fiveThousand), log));
    const { transcript, state } = readTranscript(text);
    expect(transcript.players).toEqual(['Ann', 'Bob', 'Cy']);
    expect(summarize(state)).toEqual(summarize(played(fiveThousand, log)));
    expect(transcript.times).toBeUndefined();
  });

  it("carries the log's times when given, so an import keeps when each move was made", () => {
    const log: Action[] = [{ type: 'roll', dice: [1, 1, 1, 2, 6] }, { type: 'bank' }];
    const exported = transcriptOf(resolvedHeader(fiveThousand), log, [Date.UTC(2026, 11, 5, 20, 15), Date.UTC(2026, 11, 5, 20, 16, 3, 250)]);
    expect(exported.times).toEqual(['2026-12-05T20:15:00.000Z', '2026-12-05T20:16:03.250Z']);
    expect(readTranscript(JSON.stringify(exported)).transcript.times).toEqual(['2026-12-05T20:15:00.000Z', '2026-12-05T20:16:03.250Z']);
    // written by hand with a zone, or without seconds: still a time
    expect(readTranscript(JSON.stringify({ ...exported, times: ['2026-12-05T21:15+01:00', '2026-12-05T21:16:03+01:00'] })).transcript.times).toHaveLength(2);
  });

  it('refuses a bad file with a message naming the problem', () => {
    const refusal = (text: string) => {
      try {
        readTranscript(text);
      } catch (err) {
        expect(err).toBeInstanceOf(TranscriptImportError);
        return (err as Error).message;
      }
      throw new Error('expected a refusal');
    };
    expect(refusal('{"game":')).toMatch(/not valid JSON/);
    expect(refusal('[]')).toMatch(/must be a JSON object/);
    expect(refusal('{"game":"yahtzee","players":["A","B"]}')).toMatch(/Unknown game "yahtzee"/);
    expect(refusal('{"game":"war","players":["A"]}')).toMatch(/for 2 players; 1 given/);
    const oneRoll = { game: 'five-thousand', players: ['A', 'B'], actions: [{ type: 'roll', dice: [1, 1, 4, 5, 6] }] };
    const timesRefused = 'Transcript: "times" must give one time per action (1), each an ISO 8601 date and time such as "2026-12-07T20:15:00.000Z". Nothing was imported.';
    expect(refusal(JSON.stringify({ ...oneRoll, times: [] }))).toBe(timesRefused);
    expect(refusal(JSON.stringify({ ...oneRoll, times: ['yesterday'] }))).toBe(timesRefused);
    expect(refusal(JSON.stringify({ ...oneRoll, times: ['2026-13-45T25:00:00Z'] }))).toBe(timesRefused);
    expect(refusal(JSON.stringify({ ...oneRoll, times: [1765000000000] }))).toBe(timesRefused);
    expect(refusal(JSON.stringify({ game: 'five-thousand', players: ['A', 'B'], actions: [{ type: 'roll', dice: [1, 1, 4, 5, 6] }, { type: 'roll', dice: [1, 2, 3] }] }))).toMatch(
      /^Action 2 of this transcript is not allowed: 3 dice thrown, 2 expected\. Nothing was imported\.$/,
    );
  });
});

describe('openingSetup: what New game opens on', () => {
  it('5000 at its defaults on a first visit', () => {
    const setup = openingSetup(undefined);
    expect(setup.game).toBe('five-thousand');
    expect(setup.options.ante).toBe(0);
  });

  it('the game last played, with its ante and variations', () => {
    const setup = openingSetup({ game: 'big-roll-5000', options: { ante: 3, fiveOnes: 'points' } });
    expect(setup).toEqual({ game: 'big-roll-5000', options: expect.objectContaining({ ante: 3, fiveOnes: 'points' }) });
  });

  it("the sheet's defaults where the stored options no longer fit, and 5000 for a game it does not know", () => {
    const defaults = openingSetup({ game: 'big-roll-5000', options: {} }).options;
    expect(openingSetup({ game: 'big-roll-5000', options: { ante: 3, gone: true } })).toEqual({ game: 'big-roll-5000', options: defaults });
    expect(openingSetup({ game: 'big-roll-5000', options: { ante: -4 } })).toEqual({ game: 'big-roll-5000', options: defaults });
    expect(openingSetup({ game: 'yahtzee', options: { ante: 3 } }).game).toBe('five-thousand');
  });
});

describe('undoneText: what Undo took back, said on the table', () => {
  it('a roll with its dice, a move by its label, each with who made it', () => {
    const start = played(fiveThousand, []);
    expect(undoneText(start, { type: 'roll', dice: [1, 1, 4, 5, 6] })).toBe('Ann rolled 1 1 4 5 6');
    const rolled = played(fiveThousand, [{ type: 'roll', dice: [1, 1, 1, 5, 5] }]);
    const bank = viewMatch(rolled, null).legal.find((m) => m.kind === 'action' && m.action.type === 'bank');
    expect(bank?.kind).toBe('action');
    if (bank?.kind !== 'action') return;
    expect(undoneText(rolled, bank.action)).toBe(`Ann's move, ${bank.label}`);
  });

  it('a secret re-roll keeps its dice hidden', () => {
    const before = played(faceOff, villainBluff.slice(0, 3));
    expect(undoneText(before, villainBluff[3]!)).toBe('Ann re-rolled 3 dice in secret');
  });
});

describe('fixRoll: a roll entered again with the dice it really showed', () => {
  const log: Action[] = [
    { type: 'roll', dice: [1, 1, 1, 2, 3] },
    { type: 'bank' },
    { type: 'roll', dice: [2, 2, 3, 4, 6] },
    { type: 'roll', dice: [5, 5, 5, 2, 3] },
    { type: 'bank' },
  ];

  it('keeps every later move that the same player still makes, and says how the scores change', () => {
    const fix = fixRoll(fiveThousand, log, 0, [1, 1, 1, 5, 5]);
    expect(fix.actions).toEqual([{ type: 'roll', dice: [1, 1, 1, 5, 5] }, ...log.slice(1)]);
    expect(fix).toMatchObject({ kept: 4, dropped: 0, droppedBecause: null });
    expect(fix.scores).toEqual({ before: [1100, 0, 500], after: [1200, 0, 500] });
    expect(replayLog(fiveThousand, fix.actions).state).toEqual(fix.state);
    expect(fixSummary(fix)).toEqual({ scores: 'Scores: Ann 1100 → 1200.', moves: 'The 4 moves after it stand.', headline: viewMatch(fix.state, null).headline, end: null, saved: 'Scores: Ann 1100 → 1200.' });
    expect(fixSummary(fix, true).end).toBe('The game is reopened, and its payout taken back, as Undo of its end would.');
    // a bust that stays a bust
    expect(fixSummary(fixRoll(fiveThousand, log, 2, [2, 2, 3, 4, 4]))).toMatchObject({ scores: 'No score changes.', moves: 'The 2 moves after it stand.' });
  });

  it('takes back the moves from the first one another player would now make', () => {
    // Bob's bust becomes 200 with two dice to throw: the next roll of five was Cy's, and must not become Bob's
    const fix = fixRoll(fiveThousand, log, 2, [2, 2, 2, 4, 6]);
    expect(fix.actions).toEqual([...log.slice(0, 2), { type: 'roll', dice: [2, 2, 2, 4, 6] }]);
    expect(fix).toMatchObject({ kept: 0, dropped: 2 });
    expect(fix.droppedBecause).toBe("after the fix it is Bob's move, not Cy's");
    expect(fix.scores.after).toEqual([1100, 0, 0]);
    expect(viewMatch(fix.state, null).current).toBe(1);
    expect(fixSummary(fix)).toMatchObject({
      scores: 'Scores: Cy 500 → 0.',
      moves: "The last 2 moves are taken back, as Undo would: after the fix it is Bob's move, not Cy's.",
    });
    expect(fixSummary(fixRoll(fiveThousand, log.slice(0, 4), 3, [5, 5, 5, 2, 2])).moves).toBe('It was the last move.');
  });

  it('keeps a throw for who starts out of play, and a throw of play out of the roll-off', () => {
    const pointFive = { game: 'point-five', players: ['Ann', 'Bob'], options: { startingPlayer: 'roll-off' } };
    // a tie, thrown again: Ann 5, Bob 2, and Ann starts with a Triangle
    const played: Action[] = [{ type: 'roll', dice: [3] }, { type: 'roll', dice: [3] }, { type: 'roll', dice: [5] }, { type: 'roll', dice: [2] }, { type: 'roll', dice: [2] }];
    // Ann's first throw was a 6: she starts at once, and her throw again (5) was never one of the game
    const settled = fixRoll(pointFive, played, 0, [6]);
    expect(settled).toMatchObject({ kept: 1, dropped: 3, droppedBecause: 'after the fix who starts is settled, and that was a throw for who starts' });
    expect(viewMatch(settled.state, null).headline).toMatch(/^Ann throws highest, Burst \(6\)/);
    // Bob's throw again was a 5, not a 2: still a tie, and Ann's Triangle was never thrown for who starts
    const tied = fixRoll(pointFive, played, 3, [5]);
    expect(tied).toMatchObject({ kept: 0, dropped: 1, droppedBecause: 'after the fix who starts is still being thrown for, and that was a throw of the game' });
  });

  it('refuses, changing nothing, dice that do not fit the roll, the dice already written, and a move that is not a roll', () => {
    const fails = (index: number, dice: number[]): string => {
      try {
        fixRoll(fiveThousand, log, index, dice);
      } catch (err) {
        return (err as Error).message;
      }
      return 'no error';
    };
    expect(fails(0, [1, 1, 1, 2])).toBe('4 dice thrown, 5 expected.');
    expect(fails(0, [3, 2, 1, 1, 1])).toBe('These are the dice already written: nothing to fix.');
    expect(fails(1, [1, 1, 1, 2, 3])).toBe('Only a roll of the dice can be fixed.');
    expect(fails(9, [1, 1, 1, 2, 3])).toBe('Only a roll of the dice can be fixed.');
    expect(log[0]).toEqual({ type: 'roll', dice: [1, 1, 1, 2, 3] });
  });

  it('takes back the moves from the first one the rules no longer take, saying the rule', () => {
    // Ann's first throw scored two dice, not one: three are left to throw, not four
    const fix = fixRoll(fiveThousand, [{ type: 'roll', dice: [5, 2, 3, 3, 6] }, { type: 'roll', dice: [5, 2, 3, 4] }], 0, [5, 5, 3, 3, 6]);
    expect(fix).toMatchObject({ kept: 0, dropped: 1, droppedBecause: 'the rules no longer take the next one', rulesSaid: '4 dice thrown, 3 expected.' });
    // their words quoted whole, after the sentence that says what is taken back
    expect(fixSummary(fix).moves).toBe('The last move is taken back, as Undo would: the rules no longer take the next one. The rules say: “4 dice thrown, 3 expected.”');
  });

  it('takes back every later move when the fixed roll ends the game', () => {
    const bigRoll = { game: 'big-roll-5000', players: ['Ann', 'Bob', 'Cy'], options: { startingPlayer: 'first-listed', ante: 2 } };
    const played: Action[] = [{ type: 'roll', dice: [1, 1, 1, 1, 3] }, { type: 'bank' }, { type: 'roll', dice: [1, 1, 1, 5, 5] }];
    const fix = fixRoll(bigRoll, played, 0, [1, 1, 1, 1, 1]);
    expect(fix).toMatchObject({ kept: 0, dropped: 2, droppedBecause: 'the fixed roll ends the game' });
    expect(matchResult(fix.state)?.winners).toEqual([0]);
    // a game in play that the fix ends: said, with who takes the pot, before it is saved
    expect(fixSummary(fix).end).toBe('The fix ends the game. Ann takes 6 from the pot of 6.');
    expect(fixSummary(fixRoll({ ...bigRoll, options: { startingPlayer: 'first-listed' } }, played, 0, [1, 1, 1, 1, 1])).end).toBe('The fix ends the game.');
    // a game that had ended: its new payout said too (the winner may change)
    expect(fixSummary(fix, true).end).toBe('The game still ends, and its payout is worked out again. Ann takes 6 from the pot of 6.');
  });

  it('refuses a secret re-roll, whose dice the table never saw', () => {
    const secret = logSteps(faceOff, villainBluff).steps.findIndex((s) => s.secret);
    expect(secret).toBeGreaterThan(0);
    expect(() => fixRoll(faceOff, villainBluff, secret, ['luke', 'luke'])).toThrow('A secret re-roll cannot be fixed');
  });
});
