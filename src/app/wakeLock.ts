/**
 * Keeps the screen on while the table screen is open (the phone lies on a stand for a whole
 * game). The browser drops a wake lock whenever the page is hidden, so it is taken again when
 * the page comes back. Where the Wake Lock API is missing or refused, the screen simply may
 * sleep: never an error.
 */
type WakeLockLike = { request(type: 'screen'): Promise<WakeLockSentinel> };
type DocumentLike = Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;

export class ScreenWakeLock {
  private sentinel: WakeLockSentinel | null = null;
  private wanted = false;
  private readonly onVisibility = () => {
    if (this.wanted && this.doc?.visibilityState === 'visible') void this.take();
  };

  constructor(
    private readonly api: WakeLockLike | undefined = typeof navigator !== 'undefined' && 'wakeLock' in navigator ? navigator.wakeLock : undefined,
    private readonly doc: DocumentLike | undefined = typeof document === 'undefined' ? undefined : document,
  ) {}

  get supported(): boolean {
    return this.api !== undefined;
  }

  get held(): boolean {
    return this.sentinel !== null && !this.sentinel.released;
  }

  async acquire(): Promise<boolean> {
    this.wanted = true;
    this.doc?.addEventListener('visibilitychange', this.onVisibility);
    return this.take();
  }

  async release(): Promise<void> {
    this.wanted = false;
    this.doc?.removeEventListener('visibilitychange', this.onVisibility);
    const sentinel = this.sentinel;
    this.sentinel = null;
    await sentinel?.release().catch(() => undefined);
  }

  private async take(): Promise<boolean> {
    if (!this.api || this.held) return this.held;
    try {
      const sentinel = await this.api.request('screen');
      // released while the browser was granting it (the table left at once): let it go now, or
      // the screen would stay on after the table has gone
      if (!this.wanted) {
        await sentinel.release().catch(() => undefined);
        return false;
      }
      this.sentinel = sentinel;
      return true;
    } catch {
      return false;
    }
  }
}

/** Svelte action: `<section use:keepScreenOn>` holds a wake lock while the element is mounted. */
export function keepScreenOn(_node: HTMLElement): { destroy(): void } {
  const lock = new ScreenWakeLock();
  void lock.acquire();
  return { destroy: () => void lock.release() };
}
