/** Asking the browser to keep Rollcall's data (src/app/persist.ts), in Node: no StorageManager here. */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { data } from '../../src/app/db.svelte.ts';
import { askToKeepData } from '../../src/app/persist.ts';

describe('askToKeepData', () => {
  it('asks, and notes in the settings that it asked', async () => {
    const store = await data.store();
    expect((await store.getSettings()).persistAsked).toBe(false);
    expect(await askToKeepData()).toBe('unsupported');
    expect((await store.getSettings()).persistAsked).toBe(true);
  });
});
