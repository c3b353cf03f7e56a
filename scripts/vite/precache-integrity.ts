import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The precache entries that get a subresource-integrity hash: the app's own JavaScript and CSS,
 * which the build names by their content (`assets/<name>-<hash>.js`, unrevisioned). Not
 * index.html (a host may add to a page, and its revision already changes with it), not the
 * models (the reader checks and heals them, precache-heal.ts) and not onnxruntime's `.wasm.gz`:
 * a host that sends it with `Content-Encoding: gzip` has the browser inflate it, and SRI is
 * checked on the body as delivered, so that install would fail on every visit.
 */
export const INTEGRITY_CHECKED = /^assets\/[^?#]+\.(js|mjs|css)$/;

/**
 * `entries` with a `sha384-` integrity for each of the app's own scripts and style sheets
 * (`INTEGRITY_CHECKED`), hashed from the built file in `dir` (the folder Workbox globbed), for
 * `injectManifest.manifestTransforms`. Workbox's install asks for such an entry with that
 * integrity, so a copy that is not the file built (cut off, an error page or a proxy's answer
 * with status 200) fails the install instead of being served cache-first from then on; the
 * next visit tries the install again (workbox-precaching PrecacheController `install`).
 */
export function withIntegrity<E extends { url: string }>(entries: E[], dir: string): (E & { integrity?: string })[] {
  return entries.map((entry) => {
    if (!INTEGRITY_CHECKED.test(entry.url)) return entry;
    const digest = createHash('sha384').update(readFileSync(join(dir, entry.url))).digest('base64');
    return { ...entry, integrity: `sha384-${digest}` };
  });
}
