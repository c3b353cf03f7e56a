import { describe, expect, it } from 'vitest';
import { appSession } from './harness.ts';
import { headline, move, padEnter, startGame } from './table-helpers.ts';

const app = appSession();

/** Records what would be said aloud, in place of the browser's voice. */
const RECORD_SPEECH = `
  window.__spoken = [];
  class RecordedUtterance { constructor(text) { this.text = text; } }
  window.SpeechSynthesisUtterance = RecordedUtterance;
  Object.defineProperty(window, 'speechSynthesis', { configurable: true, value: { speak: (u) => window.__spoken.push(u.text), cancel: () => {} } });
`;

const spoken = (page: import('playwright-core').Page): Promise<string[]> => page.evaluate('window.__spoken') as Promise<string[]>;

/** Speech at the table: each roll said once, as proposed; its confirmation adds only what is new. */
describe('speech at the table', () => {
  it('says a roll once, and a bank with its scores', async () => {
    const { page } = app.session;
    await page.addInitScript(RECORD_SPEECH);
    await page.goto(app.server.url);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('speech').check();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await startGame(page, 'five-thousand', ['Ann', 'Bob']);
    await page.evaluate('window.__spoken.length = 0');
    await padEnter(page, ['1', '1', '1', '2', '3']);
    const proposed = await spoken(page);
    expect(proposed).toHaveLength(1);
    expect(proposed[0]).toMatch(/^Entered 1, 1, 1, 2, 3\. Ann rolled 1 1 1 2 3 = 1100/);
    const before = await headline(page);
    await page.getByTestId('confirm-roll').click();
    await page.waitForFunction((h) => document.querySelector('[data-testid="headline"]')?.textContent !== h, before);
    // confirmed as proposed: nothing new to say aloud (screen readers still get the headline: focus goes to it)
    expect(await spoken(page)).toEqual(proposed);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('headline');
    await move(page, /^Bank 1100/);
    const said = await spoken(page);
    expect(said).toHaveLength(2);
    expect(said[1]).toMatch(/^Ann banks 1100: .* Scores: Ann 1100\.$/);
  });
});
