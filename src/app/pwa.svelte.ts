/**
 * The service worker's registration, the update prompt and the offer to install: when a new
 * version has been downloaded, `pwa.needRefresh` turns true and the shell offers to reload into
 * it. Nothing is reloaded behind the player's back in the middle of a game. Home offers to
 * install the app (`installOffer`) where the browser lets a page ask, or says how on an iPhone.
 */
import { registerSW } from 'virtual:pwa-register';

/** Chromium's deferred install prompt (`beforeinstallprompt`; not in the DOM's typings). */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform?: string }>;
}

/**
 * How this browser installs the app: `prompt`, a button that opens the browser's own install
 * dialog; `share-menu`, Safari's Share → Add to Home Screen (no page may ask there); null when it
 * runs installed, or the browser offers nothing (its own menu may still install it).
 */
export type InstallOffer = { how: 'prompt' } | { how: 'share-menu'; device: 'iPhone' | 'iPad' } | null;

/** The app already runs from the home screen (installed). */
function runsInstalled(): boolean {
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || matchMedia('(display-mode: standalone)').matches;
}

/** Safari on an iPhone or iPad, where installing is Share → Add to Home Screen; null elsewhere. */
function appleDeviceInSafari(): 'iPhone' | 'iPad' | null {
  const ua = navigator.userAgent;
  // iPadOS says it is a Mac, with a touch screen
  const iPad = /iPad/.test(ua) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
  const apple = iPad || /iPhone|iPod/.test(ua);
  // other iOS browsers (CriOS, FxiOS, EdgiOS, OPiOS) install from their own menus, each its own way
  if (!apple || !/Safari/.test(ua) || /CriOS|FxiOS|EdgiOS|OPiOS/.test(ua)) return null;
  return iPad ? 'iPad' : 'iPhone';
}

class PwaState {
  needRefresh = $state(false);
  offlineReady = $state(false);
  /** How this browser can install the app now (Settings offers it whatever Home was told). */
  installWay = $state<InstallOffer>(null);
  private installDeclined = $state(false);
  /** What Home offers: the way, until the player says "Not now". */
  installOffer = $derived(this.installDeclined ? null : this.installWay);
  private update: ((reload?: boolean) => Promise<void>) | null = null;
  private deferredPrompt: InstallPromptEvent | null = null;

  register(): void {
    this.listenForInstall();
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

  /** Listens from the start: the browser says the app can be installed once, maybe before Home shows. */
  private listenForInstall(): void {
    if (typeof window === 'undefined') return;
    if (runsInstalled()) return;
    const device = appleDeviceInSafari();
    if (device) this.installWay = { how: 'share-menu', device };
    window.addEventListener('beforeinstallprompt', (event) => {
      // the page's button instead of the browser's mini-infobar over the table
      event.preventDefault();
      this.deferredPrompt = event as InstallPromptEvent;
      this.installWay = { how: 'prompt' };
    });
    window.addEventListener('appinstalled', () => {
      this.deferredPrompt = null;
      this.installWay = null;
    });
  }

  /** Opens the browser's install dialog; a prompt can be shown once, so the offer goes either way. */
  async install(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
    const prompt = this.deferredPrompt;
    this.deferredPrompt = null;
    this.installWay = null;
    if (!prompt) return 'unavailable';
    try {
      await prompt.prompt();
      return (await prompt.userChoice).outcome;
    } catch {
      return 'unavailable'; // the browser would not show it (its menu still installs)
    }
  }

  /** "Not now": Home's offer stays hidden until the app is opened again (Settings and the browser's menu still install). */
  declineInstall(): void {
    this.installDeclined = true;
  }
}

export const pwa = new PwaState();
