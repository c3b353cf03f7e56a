/**
 * The service worker's registration and the update prompt: when a new version has been
 * downloaded, `pwa.needRefresh` turns true and the shell offers to reload into it. Nothing is
 * reloaded behind the player's back in the middle of a game.
 */
import { registerSW } from 'virtual:pwa-register';

class PwaState {
  needRefresh = $state(false);
  offlineReady = $state(false);
  private update: ((reload?: boolean) => Promise<void>) | null = null;

  register(): void {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
    this.update = registerSW({
      immediate: true,
      onNeedRefresh: () => (this.needRefresh = true),
      onOfflineReady: () => (this.offlineReady = true),
      onRegisteredSW: (_url, registration) => {
        // Look for a new version every hour while the app stays open (a long evening of games).
        if (registration) setInterval(() => void registration.update().catch(() => undefined), 60 * 60 * 1000);
      },
    });
  }

  /** Activates the waiting version; the page reloads into it. */
  async applyUpdate(): Promise<void> {
    // workbox-window reloads on its own only when the page already had a service worker when
    // it loaded; on a first visit that stays open until an update arrives, reload here.
    navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
    await this.update?.(true);
  }

  dismiss(): void {
    this.needRefresh = false;
  }
}

export const pwa = new PwaState();
