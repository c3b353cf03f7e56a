/**
 * Announcements: reads and score changes go to a global aria-live region (screen readers) and,
 * when the player turned speech on, are spoken aloud with speechSynthesis.
 */
export type Politeness = 'polite' | 'assertive';

interface Message {
  id: number;
  text: string;
}

class Announcer {
  polite = $state<Message | null>(null);
  assertive = $state<Message | null>(null);
  speech = $state(false);
  private nextId = 1;

  /**
   * Announces `text`; `speak: false` keeps it to the screen reader, and `spoken` says aloud a
   * shorter text instead (what the table has not already said).
   */
  say(text: string, options: { politeness?: Politeness; speak?: boolean; spoken?: string } = {}): void {
    const message = { id: this.nextId++, text };
    if (options.politeness === 'assertive') this.assertive = message;
    else this.polite = message;
    if (this.speech && options.speak !== false) speak(options.spoken ?? text);
  }
}

function speak(text: string): void {
  if (typeof speechSynthesis === 'undefined' || typeof SpeechSynthesisUtterance === 'undefined') return;
  // A new read replaces what is still being said about the last one.
  speechSynthesis.cancel();
  speechSynthesis.speak(new SpeechSynthesisUtterance(text));
}

export const speechAvailable = typeof speechSynthesis !== 'undefined';

export const announcer = new Announcer();

export function announce(text: string, options?: { politeness?: Politeness; speak?: boolean; spoken?: string }): void {
  announcer.say(text, options);
}
