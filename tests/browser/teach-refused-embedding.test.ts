/**
 * Teach, opened on a set whose photo was embedded by another face model: the photo is embedded
 * again and stored. That write refused (a full disk here) is the store's refusal, said in the
 * store's words with what was kept, not "The dice reader could not start".
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import sharp from 'sharp';
import { appSession, ROOT } from './harness.ts';

const app = appSession();
const PHOTO = path.join(ROOT, 'tests/fixtures/symbol-photos/face-off-teach/luke-1.jpg');

describe('Teach, a photo brought up to the face model refused by the store', () => {
  it('says the store refused it, and that the photos are kept', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Dice kits' }).click();
    await page.locator('[data-kit-id="face-off"]').getByTestId('teach-kit').click();
    await page.locator('[data-testid="teach"][data-phase="ready"]').waitFor({ timeout: 60_000 });
    const name = (await page.getByRole('heading', { level: 1 }).textContent())!.replace(/^Teach: /, '');
    const buffer = await sharp(PHOTO).png().toBuffer();
    await page.getByTestId('photo-files').setInputFiles([{ name: 'luke-1.png', mimeType: 'image/png', buffer }]);
    await page.getByTestId('teach-message').getByText(/^Added/).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByTestId('own-kits').waitFor();
    // the photo's embedding is another model's now, and a put to taughtFaces fails as on a full disk
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('rollcall');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const tx = open.result.transaction(['taughtFaces'], 'readwrite');
            const store = tx.objectStore('taughtFaces');
            store.getAll().onsuccess = (event) => {
              for (const face of (event.target as IDBRequest<{ embeddingModel?: string }[]>).result) store.put({ ...face, embeddingModel: 'an older face model' });
            };
            tx.oncomplete = () => {
              open.result.close();
              const proto = IDBObjectStore.prototype as { put: IDBObjectStore['put'] };
              const real = proto.put;
              proto.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
                if (this.name === 'taughtFaces') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
                return real.apply(this, args);
              };
              resolve();
            };
          };
        }),
    );
    await page.getByRole('button', { name: `Teach ${name}`, exact: true }).click();
    await page.locator('[data-testid="teach"][data-phase="error"]').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('teach-status').textContent()).toBe(
      "This set's photos could not be brought up to date for this dice reader, so teaching cannot start; the photos are kept. The device is out of storage space, so this was not saved. Free some space and try again.",
    );
  });
});
