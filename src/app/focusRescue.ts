/**
 * Focus never falls to the page for a keyboard or screen-reader player. Screens replace the
 * control just used (a chooser opens where its button was, a view deleted takes its Delete button
 * with it, a form gives way to the row it edited) or disable it while they work; the browser then
 * drops focus to <body>, and the next Tab starts again from the top of the page. Screens that
 * know better move focus themselves (the table's headline after a move); where none did, focus
 * goes to the nearest part of the screen still there: its first control, heading or headline.
 * Pointer taps are left alone (a phone's focus is not the player's place on the screen).
 */

/** How long a control disabled while it works is waited for, before focus goes elsewhere. */
const DISABLED_WAIT_MS = 2000;

/** What can take focus, in the order the screen shows it: its headline and headings too. */
const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]',
].join(', ');

function lostFocus(): boolean {
  const at = document.activeElement;
  return at === null || at === document.body || !at.isConnected;
}

/** The first element in `scope` that can take focus and is shown. */
function firstFocusable(scope: HTMLElement): HTMLElement | null {
  for (const el of scope.querySelectorAll<HTMLElement>(FOCUSABLE)) {
    if (el.closest('[inert], [hidden], [aria-hidden="true"]')) continue;
    if (el.getClientRects().length === 0) continue;
    return el;
  }
  return null;
}

/** Watches `root` (the app's <main>) and brings lost focus back into it; returns the stop. */
export function rescueFocus(root: HTMLElement): () => void {
  let byKeyboard = false;
  /** The element focused last, and its ancestors up to `root`, nearest first. */
  let last: HTMLElement[] = [];
  let pending = 0;

  const onKeydown = (): void => {
    byKeyboard = true;
  };
  const onPointerdown = (): void => {
    byKeyboard = false;
  };
  const onFocusin = (event: FocusEvent): void => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || !root.contains(target)) return;
    const chain: HTMLElement[] = [];
    for (let el: HTMLElement | null = target; el && el !== root; el = el.parentElement) chain.push(el);
    last = [...chain, root];
  };

  /** When focus was first seen lost from a control still there but disabled (it works). */
  let disabledSince: number | null = null;

  const rescue = (): void => {
    pending = 0;
    if (!byKeyboard || last.length === 0 || !lostFocus()) {
      disabledSince = null;
      return;
    }
    const used = last[0]!;
    // still on the screen and shown (a control hidden with its card counts as gone)
    if (used.isConnected && used.getClientRects().length > 0) {
      // only disabled while it works (Save a backup, Start): it gets focus back once it is done,
      // rather than the player finding themselves on another control; one left disabled for
      // good gives way to the rest of the screen after a while
      if (!used.matches(':disabled')) {
        disabledSince = null;
        used.focus();
        return;
      }
      disabledSince ??= performance.now();
      if (performance.now() - disabledSince < DISABLED_WAIT_MS) {
        pending = window.setTimeout(rescue, 200);
        return;
      }
    }
    disabledSince = null;
    // the nearest ancestor of what had focus that the screen still shows
    for (const scope of last.slice(1)) {
      if (!scope.isConnected) continue;
      const target = firstFocusable(scope);
      if (target) {
        target.focus();
        return;
      }
    }
  };
  const observer = new MutationObserver(() => {
    // Looked at a moment later: after the screen's own focus moves (`await tick(); x.focus()`) and
    // after the browser has dropped focus from a control just disabled or removed.
    if (pending === 0 && byKeyboard) pending = window.setTimeout(rescue, 50);
  });
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'] });
  document.addEventListener('keydown', onKeydown, true);
  document.addEventListener('pointerdown', onPointerdown, true);
  document.addEventListener('focusin', onFocusin);
  return () => {
    observer.disconnect();
    if (pending) clearTimeout(pending);
    document.removeEventListener('keydown', onKeydown, true);
    document.removeEventListener('pointerdown', onPointerdown, true);
    document.removeEventListener('focusin', onFocusin);
  };
}
