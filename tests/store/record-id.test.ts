/**
 * New records' ids where `crypto.randomUUID` is missing: a page over plain http (no secure
 * context) or Safari before 15.4 must still start games (store.ts `newRecordId`).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newRecordId } from '../../src/lib/store/store.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => vi.unstubAllGlobals());

describe('a new record id', () => {
  it('is a random version 4 UUID, from getRandomValues where randomUUID is missing', () => {
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: (a: Uint8Array<ArrayBuffer>) => real.getRandomValues(a) });
    const ids = new Set(Array.from({ length: 200 }, () => newRecordId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(UUID_V4);
  });

  it('is randomUUID where the browser has it', () => {
    expect(newRecordId()).toMatch(UUID_V4);
  });
});
