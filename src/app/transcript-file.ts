/**
 * A transcript file brought into History: read and replayed by the rules first (`readTranscript`),
 * then written as one game in ONE transaction (`importGame`). A refusal is a
 * `TranscriptImportError` or the store's `StoreError`; either way nothing was written.
 */
import { gameById, matchResult, type Transcript } from '../lib/rules/index.ts';
import type { GameRecord, RollcallStore } from '../lib/store/index.ts';
import { readTranscript } from './play.ts';
import { eveningName } from './format.ts';

export async function importTranscriptText(store: RollcallStore, text: string): Promise<{ game: GameRecord; transcript: Transcript }> {
  const { transcript, state } = readTranscript(text);
  const game = await store.importGame({
    game: state.game,
    playerNames: transcript.players,
    options: { ...state.options },
    ante: state.ante,
    dice: { kitId: gameById(state.game).kit, taughtSetId: null },
    // A game over is not part of tonight's evening: someone else's game must not move our
    // balances. A game in play is brought here to be played on, so it joins the evening, as a
    // game started here does: its end pays into tonight's balances.
    sessionId: null,
    joinEvening: eveningName(),
    actions: transcript.actions,
    times: transcript.times?.map((t) => Date.parse(t)),
    result: matchResult(state),
  });
  return { game, transcript };
}
