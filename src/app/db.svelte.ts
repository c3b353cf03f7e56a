/**
 * The app's single connection to the store, and the settings every screen reads.
 */
import { DEFAULT_SETTINGS, openStore, StoreError, type RollcallStore, type Settings } from '../lib/store/index.ts';
import { announcer } from './announce.svelte.ts';
import { applyTheme } from './theme.ts';

class AppData {
  settings = $state<Settings>({ ...DEFAULT_SETTINGS });
  /** Set when the store cannot be opened; the shell shows it instead of the screens. */
  fatal = $state<string | null>(null);
  /**
   * Why nothing is saved (the browser refused its storage, in its words): the store runs in
   * memory and the shell says so on every screen; null while saving works, or before the store opens.
   */
  unsaved = $state<string | null>(null);
  /** A newer version of Rollcall opened in another tab; this one must reload. */
  outdated = $state(false);
  /**
   * Counts games made after the player left the screen that made them (Start or Play again landing
   * late): Home, opened meanwhile, lists its games again so the new one shows in In progress.
   */
  gamesMadeElsewhere = $state(0);
  private opening: Promise<RollcallStore> | null = null;

  store(): Promise<RollcallStore> {
    this.opening ??= openStore({ onVersionChange: () => (this.outdated = true) }).then(
      (store) => {
        this.unsaved = store.unsaved;
        return store;
      },
      (err: unknown) => {
        this.fatal = err instanceof StoreError ? err.message : `Rollcall could not open its saved games: ${String(err)}`;
        this.opening = null;
        throw err;
      },
    );
    return this.opening;
  }

  async load(): Promise<void> {
    const store = await this.store();
    this.use(await store.getSettings());
  }

  async updateSettings(patch: Partial<Settings>): Promise<void> {
    const store = await this.store();
    this.use(await store.updateSettings(patch));
  }

  private use(settings: Settings): void {
    this.settings = settings;
    announcer.speech = settings.speech;
    applyTheme(settings.theme);
  }
}

export const data = new AppData();
