import { describe, expect, it } from 'vitest';
import { ScreenWakeLock } from '../../src/app/wakeLock.ts';

class FakeSentinel extends EventTarget {
  released = false;
  readonly type = 'screen';
  onrelease = null;
  async release(): Promise<void> {
    this.released = true;
  }
}

class FakeDocument extends EventTarget {
  visibilityState: DocumentVisibilityState = 'visible';
  set(v: DocumentVisibilityState): void {
    this.visibilityState = v;
    this.dispatchEvent(new Event('visibilitychange'));
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('screen wake lock', () => {
  it('takes the lock, takes it again after the page comes back, and lets it go', async () => {
    const sentinels: FakeSentinel[] = [];
    const api = { request: async () => (sentinels.push(new FakeSentinel()), sentinels.at(-1) as unknown as WakeLockSentinel) };
    const doc = new FakeDocument();
    const lock = new ScreenWakeLock(api, doc);
    expect(await lock.acquire()).toBe(true);
    expect(lock.held).toBe(true);
    // the browser releases a wake lock when the page is hidden
    sentinels[0]!.released = true;
    doc.set('hidden');
    doc.set('visible');
    await tick();
    expect(sentinels).toHaveLength(2);
    expect(lock.held).toBe(true);
    await lock.release();
    expect(sentinels[1]!.released).toBe(true);
    doc.set('visible');
    await tick();
    expect(sentinels).toHaveLength(2);
  });

  it('lets go of a lock granted after the screen was left (the table closed while the browser was granting it)', async () => {
    const sentinel = new FakeSentinel();
    let grant: (s: WakeLockSentinel) => void = () => undefined;
    const api = { request: () => new Promise<WakeLockSentinel>((resolve) => (grant = resolve)) };
    const lock = new ScreenWakeLock(api, new FakeDocument());
    const acquired = lock.acquire();
    await lock.release();
    grant(sentinel as unknown as WakeLockSentinel);
    expect(await acquired).toBe(false);
    expect(lock.held).toBe(false);
    expect(sentinel.released).toBe(true);
  });

  it('is quietly absent where the API is missing or refuses', async () => {
    expect(await new ScreenWakeLock(undefined, new FakeDocument()).acquire()).toBe(false);
    const refusing = { request: async (): Promise<WakeLockSentinel> => Promise.reject(new Error('NotAllowedError')) };
    expect(await new ScreenWakeLock(refusing, new FakeDocument()).acquire()).toBe(false);
  });
});
