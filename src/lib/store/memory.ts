/**
 * An IndexedDB kept in memory, for a browser that refuses the real one (site data blocked, an
 * older Firefox private window, a webview without it): fake-indexeddb's, so the one store runs
 * unchanged and a slate lasts as long as the page. `openStore` imports this module only after a
 * refusal, so a browser that stores data never downloads it.
 */
import * as fake from 'fake-indexeddb';

/** The IndexedDB classes a page has, each put in place with fake-indexeddb's. */
const CLASSES = [
  'IDBCursor',
  'IDBCursorWithValue',
  'IDBDatabase',
  'IDBFactory',
  'IDBIndex',
  'IDBKeyRange',
  'IDBObjectStore',
  'IDBOpenDBRequest',
  'IDBRequest',
  'IDBTransaction',
  'IDBVersionChangeEvent',
] as const;

/**
 * Puts a fresh, empty in-memory IndexedDB where the page's own is looked for. All of its classes,
 * not only `indexedDB`: `idb` tells its objects apart by `instanceof` the global classes, and the
 * store's key ranges are `IDBKeyRange`s, so real and in-memory classes must never mix.
 */
export function useMemoryIndexedDB(): void {
  // fake-indexeddb copies every value with structuredClone (Chrome 98, Safari 15.4, Firefox 94)
  if (typeof structuredClone !== 'function') throw new Error('this browser is too old to keep one in memory');
  // a factory of its own: in Node, where tests already run on fake-indexeddb's shared one, the
  // store in memory must not see their databases
  const globals = { indexedDB: new fake.IDBFactory(), ...Object.fromEntries(CLASSES.map((name) => [name, fake[name]])) };
  for (const [name, value] of Object.entries(globals)) {
    // writable and configurable, as the page's own are (`indexedDB` is a getter there)
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  }
}
