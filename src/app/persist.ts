/**
 * Persistent storage: by default a browser may evict a site's IndexedDB under storage
 * pressure. Rollcall asks to be kept once there is something worth keeping (when the first game
 * starts, or when the player asks in Settings), not on first load, when browsers that prompt
 * would prompt for no visible reason.
 */
import { data } from './db.svelte.ts';

export type PersistState = 'persisted' | 'not-persisted' | 'unsupported';

function storageManager(): StorageManager | undefined {
  return typeof navigator !== 'undefined' && navigator.storage && typeof navigator.storage.persist === 'function' ? navigator.storage : undefined;
}

export async function persistState(): Promise<PersistState> {
  const storage = storageManager();
  if (!storage) return 'unsupported';
  return (await storage.persisted()) ? 'persisted' : 'not-persisted';
}

/** Asks the browser to keep Rollcall's data; resolves to the state after asking. */
export async function requestPersistence(): Promise<PersistState> {
  const storage = storageManager();
  if (!storage) return 'unsupported';
  if (await storage.persisted()) return 'persisted';
  return (await storage.persist().catch(() => false)) ? 'persisted' : 'not-persisted';
}

/**
 * Asks the browser to keep Rollcall's data and notes in the settings that it was asked
 * (`persistAsked`: New game asks by itself once, at the first game). The note is a nicety: one
 * the store cannot keep (a full disk) only means asking again later, never a refusal.
 */
export async function askToKeepData(): Promise<PersistState> {
  const state = await requestPersistence();
  await data.updateSettings({ persistAsked: true }).catch(() => undefined);
  return state;
}

export interface StorageUse {
  usedBytes: number;
  quotaBytes: number;
}

export async function storageUse(): Promise<StorageUse | null> {
  const storage = storageManager();
  if (!storage || typeof storage.estimate !== 'function') return null;
  const { usage, quota } = await storage.estimate();
  return { usedBytes: usage ?? 0, quotaBytes: quota ?? 0 };
}
