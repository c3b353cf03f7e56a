import { EchoTapFilter } from './echoTap.ts';

/**
 * Navigation: plain Svelte state, one screen at a time, mirrored into the browser history so the
 * back button (Android's included) moves between screens and a reload reopens the same screen.
 */
export type Screen =
  | { name: 'home' }
  | { name: 'new-game' }
  | { name: 'game'; gameId: string }
  /** `fixing`: opened from the table to fix an earlier roll (the latest rolls in view; a saved fix goes back to the table). */
  | { name: 'log'; gameId: string; fixing?: boolean }
  | { name: 'history' }
  | { name: 'kits' }
  /** Known players: rename one, or merge two records of one person. */
  | { name: 'players' }
  | { name: 'teach'; setId: string }
  | { name: 'new-kit' }
  | { name: 'settings' }
  | { name: 'camera-check' };

const HOME: Screen = { name: 'home' };
const NAMES = new Set<Screen['name']>(['home', 'new-game', 'game', 'log', 'history', 'kits', 'players', 'teach', 'new-kit', 'settings', 'camera-check']);

function isScreen(value: unknown): value is Screen {
  if (typeof value !== 'object' || value === null) return false;
  const { name, gameId, setId } = value as { name?: unknown; gameId?: unknown; setId?: unknown };
  if (typeof name !== 'string' || !NAMES.has(name as Screen['name'])) return false;
  if (name === 'teach') return typeof setId === 'string';
  return (name !== 'game' && name !== 'log') || typeof gameId === 'string';
}

/**
 * One visit to a screen, taken before a slow write (`nav.here()`): the write may move the player
 * on only from that visit (`replaceFrom`, `backFrom`). Opaque: compare only through `nav`.
 */
export type Visit = number & { readonly visit: unique symbol };

class Navigation {
  screen = $state<Screen>(HOME);
  /** Counts screen changes: each go, replace and Back (or Forward) starts a new visit. */
  private visit = 0;
  /** How many screens deep we are within this visit (0 on Home). */
  private depth = 0;
  /** A history.back() asked for that has not landed yet. */
  private goingBack = false;
  private goingBackTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the screen last changed (`performance.now()`): the change an echo tap on Back follows. */
  private changedAt = Number.NEGATIVE_INFINITY;
  /**
   * A double tap on Back: its second tap comes after the first one's back has landed, on the Back
   * of the screen gone back to (at the same spot on every screen), and would go back again. Dropped
   * as an echo (echoTap.ts). Every click in the page passes one capture listener (`init`): a tap on
   * Back goes through this filter, any other tap makes it forget, so only a Back right after a Back
   * can be its echo (Back, Dice kits, Back, however fast, goes back twice).
   */
  private backTaps = new EchoTapFilter();

  /** Restores the screen of the current history entry (a reload reopens where the player was). */
  init(): void {
    const state: unknown = history.state;
    const saved = typeof state === 'object' && state !== null ? (state as { screen?: unknown; depth?: unknown }) : {};
    this.screen = isScreen(saved.screen) ? saved.screen : HOME;
    this.depth = typeof saved.depth === 'number' ? saved.depth : 0;
    this.changed();
    history.replaceState({ screen: $state.snapshot(this.screen), depth: this.depth }, '');
    addEventListener('popstate', (event: PopStateEvent) => {
      this.goingBack = false;
      const next = event.state as { screen?: unknown; depth?: unknown } | null;
      this.screen = next && isScreen(next.screen) ? next.screen : HOME;
      this.depth = next && typeof next.depth === 'number' ? next.depth : 0;
      this.changed();
    });
    // heard before any button's own handler (capture, on the window): an echo never reaches Back's
    addEventListener(
      'click',
      (event: MouseEvent) => {
        const onBack = event.target instanceof Element && event.target.closest('[data-nav-back]') !== null;
        if (!onBack) this.backTaps.forget();
        else if (this.backTaps.isEcho(event, this.changedAt)) {
          event.stopPropagation();
          event.preventDefault();
        }
      },
      { capture: true },
    );
  }

  /** A new visit: each go, replace and Back (or Forward) starts one. */
  private changed(): void {
    this.visit++;
    this.changedAt = performance.now();
  }

  go(screen: Screen): void {
    this.goingBack = false;
    this.depth++;
    history.pushState({ screen, depth: this.depth }, '');
    this.changed();
    this.screen = screen;
  }

  /** Replaces the current screen (after starting a game, the new-game form is not "back"). */
  replace(screen: Screen): void {
    this.goingBack = false;
    history.replaceState({ screen, depth: this.depth }, '');
    this.changed();
    this.screen = screen;
  }

  back(): void {
    // history.back() lands later (popstate): a second tap before it lands (a double tap on Back)
    // would go back a screen more, and from the first screen past Home, out of the app
    if (this.goingBack) return;
    if (this.depth > 0) {
      this.goingBack = true;
      history.back();
      // Back never stays dead should the browser drop that navigation; a tap a second later is meant.
      clearTimeout(this.goingBackTimer);
      this.goingBackTimer = setTimeout(() => (this.goingBack = false), 1000);
    } else this.replace(HOME);
  }

  /** This visit, taken before a write that moves on once it lands (see `replaceFrom`). */
  here(): Visit {
    return this.visit as Visit;
  }

  /** The player is still on the visit taken: no other screen since, and no Back on its way. */
  stillAt(visit: Visit): boolean {
    return visit === this.visit && !this.goingBack;
  }

  /**
   * `replace`, only if the player is still where the write began. A write can wait seconds (behind
   * a backup import in another transaction, on a phone): a player who went Back or elsewhere
   * meanwhile stays where they went, never yanked away. False: nothing moved; the caller says
   * where the work it kept can be found instead.
   */
  replaceFrom(visit: Visit, screen: Screen): boolean {
    if (!this.stillAt(visit)) return false;
    this.replace(screen);
    return true;
  }

  /** `go`, only if the player is still where the write began (as `replaceFrom`). */
  goFrom(visit: Visit, screen: Screen): boolean {
    if (!this.stillAt(visit)) return false;
    this.go(screen);
    return true;
  }

  /** `back`, only if the player is still where the write began: a Back tapped meanwhile already left it, and a second would go a screen too far. */
  backFrom(visit: Visit): boolean {
    if (!this.stillAt(visit)) return false;
    this.back();
    return true;
  }
}

export const nav = new Navigation();
