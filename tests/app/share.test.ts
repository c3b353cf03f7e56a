import { describe, expect, it } from 'vitest';
import { shareText, type ShareTargets } from '../../src/app/share.ts';
import { eveningText } from '../../src/app/balances.ts';

const DATA = { title: '5000: Ann wins!', text: 'Ann wins!' };

/** A browser's share sheet and clipboard, each doing as told, recording what they were handed. */
function targets(share: 'ok' | 'closed' | 'refused' | 'none', clipboard: 'ok' | 'refused' | 'none', canShare = true) {
  const handed = { shared: [] as ShareData[], copied: [] as string[] };
  const t: ShareTargets = {};
  if (share !== 'none') {
    t.share = (data) => {
      handed.shared.push(data);
      if (share === 'closed') return Promise.reject(new DOMException('Share canceled', 'AbortError'));
      if (share === 'refused') return Promise.reject(new DOMException('Must be handling a user gesture', 'NotAllowedError'));
      return Promise.resolve();
    };
    t.canShare = () => canShare;
  }
  if (clipboard !== 'none') {
    t.clipboard = {
      writeText: (text) => (clipboard === 'ok' ? (handed.copied.push(text), Promise.resolve()) : Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'))),
    };
  }
  return { t, handed };
}

describe('sharing a text', () => {
  it("goes by the share sheet where there is one, and copies nothing", async () => {
    const { t, handed } = targets('ok', 'ok');
    expect(await shareText(DATA, t)).toBe('shared');
    expect(handed).toEqual({ shared: [DATA], copied: [] });
  });

  it('does nothing more when the player closes the share sheet', async () => {
    const { t, handed } = targets('closed', 'ok');
    expect(await shareText(DATA, t)).toBe('cancelled');
    expect(handed.copied).toEqual([]);
  });

  it('copies where the share sheet refuses or cannot take the text, or there is none', async () => {
    for (const [share, canShare] of [['refused', true], ['ok', false], ['none', true]] as const) {
      const { t, handed } = targets(share, 'ok', canShare);
      expect(await shareText(DATA, t)).toBe('copied');
      expect(handed.copied).toEqual([DATA.text]);
    }
  });

  it('is left to be shown where neither takes it', async () => {
    expect(await shareText(DATA, targets('none', 'refused').t)).toBe('shown');
    expect(await shareText(DATA, targets('refused', 'none').t)).toBe('shown');
    expect(await shareText(DATA, {})).toBe('shown');
  });
});

describe("an evening's balances as text", () => {
  it('names the evening, counts its games when known, and keeps a right-to-left name in its place', () => {
    const rows = [
      { name: 'Ann', amount: 4 },
      { name: 'سارة', amount: 0 },
      { name: 'Bob', amount: -4 },
    ];
    expect(eveningText('Dec 7, 2026', rows, 2)).toBe('Dec 7, 2026 (2 games): Ann +4, \u2068سارة\u2069 0, Bob -4');
    expect(eveningText('Dec 7, 2026', rows.slice(0, 1), 1)).toBe('Dec 7, 2026 (1 game): Ann +4');
    expect(eveningText('Last Friday', rows.slice(2))).toBe('Last Friday: Bob -4');
  });
});
