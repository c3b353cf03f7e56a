/**
 * Saving and importing a backup, run here rather than in Settings: a large backup takes seconds,
 * and a player who leaves Settings meanwhile must neither lose word of it nor be able to start a
 * second one from a fresh Settings screen. Every screen sees what it is doing (the shell shows it
 * off Settings), and a game started meanwhile waits for the import's writes with a word why.
 */
import { data } from './db.svelte.ts';
import { nav } from './nav.svelte.ts';
import { announce } from './announce.svelte.ts';
import { backupFileName, downloadText, isolated } from './format.ts';
import { holdsSecretDice, logSteps } from './play.ts';
import { headerOf } from './table.svelte.ts';
import { gameName } from './games.ts';
import { wrongFileIn } from './file-kinds.ts';
import { BackupError } from '../lib/store/index.ts';
import { andList, type Action } from '../lib/rules/index.ts';
// a type only: the backup module itself is loaded when a save or an import starts
import type { ImportMode } from '../lib/store/backup.ts';

export type { ImportMode };

/** How the last save or import went, for the player. */
export interface BackupOutcome {
  job: 'save' | 'import';
  ok: boolean;
  text: string;
}

class BackupJob {
  /** A save or an import is running; a second cannot start until it ends. */
  busy = $state(false);
  /** What a running import is doing ("Importing the games: 3 of 40…"); empty otherwise. */
  importStatus = $state('');
  /** How the last one went; null until one ends, and while one runs. */
  outcome = $state<BackupOutcome | null>(null);
  /** The outcome came while the player was away from Settings: the shell shows it until seen. */
  outcomeUnseen = $state(false);

  /**
   * Success is heard through the Announcer (a status paragraph that appears already filled is not
   * reliably read out); a failure is shown as an alert, which always is.
   */
  private end(outcome: BackupOutcome): void {
    this.outcome = outcome;
    this.outcomeUnseen = !onSettings();
    if (outcome.ok) announce(outcome.text, { speak: false });
  }

  /** The outcome has been seen (Settings showed it, or the player closed the shell's notice). */
  seen(): void {
    this.outcomeUnseen = false;
  }

  async save(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.outcome = null;
    try {
      const { exportBackupBlob } = await import('../lib/store/backup.ts');
      const store = await data.store();
      // a backup writes every die of every log: not while a game in play hides a secret re-roll
      for (const game of await store.listGames('active')) {
        const { actions } = await store.loadGame(game.id);
        if (holdsSecretDice(game.status, logSteps(headerOf(game), actions as Action[]).steps)) {
          this.end({
            job: 'save',
            ok: false,
            text: `Not saved: the game of ${gameName(game.game)} with ${andList(game.players.map((p) => isolated(p.name)))} holds a secret re-roll the other players have not seen. Save the backup once that game is over.`,
          });
          return;
        }
      }
      downloadText(backupFileName(), await exportBackupBlob(store));
      this.end({ job: 'save', ok: true, text: 'Backup saved to your downloads.' });
    } catch (err) {
      this.end({ job: 'save', ok: false, text: `The backup could not be made: ${err instanceof Error ? err.message : String(err)}` });
    } finally {
      this.busy = false;
    }
  }

  async import(file: File, mode: ImportMode): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.outcome = null;
    this.importStatus = 'Checking the backup…';
    // heard once: the figures that follow are for the eye
    announce('Importing the backup…', { speak: false });
    try {
      const { importBackupText } = await import('../lib/store/backup.ts');
      const text = await file.text();
      const summary = await importBackupText(await data.store(), text, mode, ({ stage, games, of }) => {
        this.importStatus = stage === 'checking' ? `Checking the games: ${games} of ${of}…` : `Importing the games: ${games} of ${of}…`;
      });
      await data.load();
      const games = summary.games.added === 1 ? '1 game' : `${summary.games.added} games`;
      const skipped = summary.games.skipped > 0 ? ` (${summary.games.skipped} already here, kept as they are)` : '';
      this.end({ job: 'import', ok: true, text: `Imported ${games}${skipped}.` });
    } catch (err) {
      // not a backup: when it is a transcript or a kit file, said so and where it goes (read again
      // only here, so a real backup is parsed once)
      const wrongFile = err instanceof BackupError && err.code === 'foreign' ? wrongFileIn(await file.text(), 'backup') : null;
      const said = wrongFile === null ? (err instanceof Error ? err.message : String(err)) : `${wrongFile} Nothing was changed.`;
      this.end({ job: 'import', ok: false, text: said });
    } finally {
      this.busy = false;
      this.importStatus = '';
    }
  }
}

function onSettings(): boolean {
  return nav.screen.name === 'settings';
}

export const backupJob = new BackupJob();
