/**
 * Rollcall's three kinds of file (a game transcript, a backup, a dice kit) sit side by side in the
 * phone's downloads. Picked on the wrong screen, each is refused by what it is, with where it goes,
 * and nothing changes.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appSession, ROOT } from './harness.ts';
import { bigHistory } from '../../scripts/lib/big-history.ts';

const app = appSession();
const json = (name: string, text: string) => ({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
const transcript = json('rollcall-big-roll-5000-2026-12-06-Ann-Bob.json', readFileSync(join(ROOT, 'tests/transcripts/big-roll-5000/five-ones-win.json'), 'utf8'));
const backup = json('rollcall-backup-2026-12-06.json', JSON.stringify(bigHistory({ games: 2, sessions: 1, seed: 1 }).backup));

async function open(screen: string): Promise<void> {
  const { page } = app;
  while (!(await page.getByTestId('new-game').isVisible())) await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page.getByRole('button', { name: screen, exact: true }).click();
}

describe('a Rollcall file picked on the wrong screen', () => {
  it('History: a backup is not a transcript', async () => {
    const { page } = app;
    await page.getByTestId('new-game').waitFor();
    await open('History');
    await page.getByTestId('import-transcript').setInputFiles(backup);
    await page.getByTestId('import-message').waitFor();
    expect(await page.getByTestId('import-message').textContent()).toBe('This file is a Rollcall backup, not a game transcript: import it in Settings, under Backup. Nothing was imported.');
    await page.getByTestId('history-empty').waitFor();
  });

  it('Settings: a transcript is not a backup', async () => {
    const { page } = app;
    await open('Settings');
    await page.getByTestId('backup-file').setInputFiles(transcript);
    await page.getByTestId('backup-message').waitFor();
    expect(await page.getByTestId('backup-message').textContent()).toBe('This file is a game transcript, not a backup: import it in History, under Import a game. Nothing was changed.');
  });

  it('Dice kits: a backup is not a kit file', async () => {
    const { page } = app;
    await open('Dice kits');
    await page.getByTestId('import-kit').setInputFiles(backup);
    await page.getByTestId('kits-message').waitFor();
    expect(await page.getByTestId('kits-message').textContent()).toBe('This file is a Rollcall backup, not a kit file: import it in Settings, under Backup. Nothing was changed.');
    await open('History');
    await page.getByTestId('history-empty').waitFor();
  });
});
