/**
 * A write that failed after the player left the screen that asked for it (Start, Play again, a
 * fix, a new set or kit, a game's delete refused late: `nav.stillAt` false). That screen, and the
 * line it would have said it on, are gone: the shell shows it on the screen the player is on now
 * until they close it, and the Announcer says it, as it says such a write's success ("… It is in
 * Home's In progress.").
 */
import { announce } from './announce.svelte.ts';

class LeftBehind {
  /** What did not happen, and why; null once the player closed it. */
  text = $state<string | null>(null);

  say(text: string): void {
    this.text = text;
    announce(text, { politeness: 'assertive' });
  }

  seen(): void {
    this.text = null;
  }
}

export const leftBehind = new LeftBehind();
