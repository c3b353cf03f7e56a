/**
 * A text sent out of the app for the group's chat: by the phone's share sheet where there is one
 * (Android, iPhone), else copied to the clipboard (a laptop's browser), else shown for the player
 * to copy by hand (a page not allowed the clipboard).
 */

/** What became of the text: `shown` when neither the share sheet nor the clipboard took it. */
export type ShareOutcome = 'shared' | 'cancelled' | 'copied' | 'shown';

/** The parts of `navigator` sharing uses (a test gives its own). */
export interface ShareTargets {
  share?: (data: ShareData) => Promise<void>;
  canShare?: (data: ShareData) => boolean;
  clipboard?: Pick<Clipboard, 'writeText'>;
}

export async function shareText(data: { title: string; text: string }, targets: ShareTargets = navigator): Promise<ShareOutcome> {
  if (typeof targets.share === 'function' && (typeof targets.canShare !== 'function' || targets.canShare(data))) {
    try {
      await targets.share(data);
      return 'shared';
    } catch (err) {
      // the player closed the share sheet: nothing to say; any other refusal falls back to copying
      if (err instanceof DOMException && err.name === 'AbortError') return 'cancelled';
    }
  }
  if (typeof targets.clipboard?.writeText === 'function') {
    try {
      await targets.clipboard.writeText(data.text);
      return 'copied';
    } catch {
      // not allowed (no focus, a permission refused): shown instead
    }
  }
  return 'shown';
}
