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
   * shorter text instead (what the table has not already said). `screenReader`: the words the
   * screen reader gets instead of `text` (what focus has not already read out); empty, none.
   */
  say(text: string, options: AnnounceOptions = {}): void {
    const forReader = options.screenReader ?? text;
    if (forReader !== '') {
      const message = { id: this.nextId++, text: forReader };
      if (options.politeness === 'assertive') this.assertive = message;
      else this.polite = message;
    }
    if (this.speech && options.speak !== false) speak(options.spoken ?? text);
  }
}

function speak(text: string): void {
  if (typeof speechSynthesis === 'undefined' || typeof SpeechSynthesisUtterance === 'undefined') return;
  // A new read replaces what is still being said about the last one.
  speechSynthesis.cancel();
  const utterance = new SpeechSynthesisUtterance(text);
  // the app's words are English (the page's lang): unset, Chromium picks the voice of the browser's
  // own language, and a German phone reads "Ann rolled 1 1 1" in German
  utterance.lang = document.documentElement.lang || 'en';
  speechSynthesis.speak(utterance);
}

export const speechAvailable = typeof speechSynthesis !== 'undefined';

export const announcer = new Announcer();

export interface AnnounceOptions {
  politeness?: Politeness;
  speak?: boolean;
  spoken?: string;
  screenReader?: string;
}

export function announce(text: string, options?: AnnounceOptions): void {
  announcer.say(text, options);
}
