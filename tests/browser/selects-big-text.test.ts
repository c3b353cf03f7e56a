/**
 * The selects of Settings (the camera), Players (a merge's "Same person as…") and the camera check
 * ("Read as") at 320 px with the text at 200%: each chosen option whole, drawn wrapped by a
 * SelectFace, where a select's one line read "Rear camer…", "Alexandra Pa…", "Corellian Sp…".
 *
 * Chromium's fake camera calls itself "fake_device_0" and no switch names it otherwise: the page's
 * enumerateDevices gives that same camera a long name, as a phone's "camera2 1, facing back" or a
 * laptop's USB webcam has.
 */
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { addTestStyles, fakeCameraFile, launch, layoutProblems, serve, type BrowserSession, type StaticServer } from './harness.ts';
import { audit } from './axe-audit.ts';
import { selectShows } from './select-shows.ts';
import { backupFile, restoreBackup } from './table-helpers.ts';
import type { BackupFile } from '../../src/lib/store/backup.ts';

const LONG_CAMERA = 'USB2.0 HD UVC WebCam (13d3:56ff), facing the table from the back';
const LONG_NAMES = ['Alexandra Papadopoulou-Smith', 'Alexandra Papadopoulou-Jones'];
/** The longest built-in dice kit's name. */
const LONG_KIT = 'Corellian Spike dice (symbols valued 1–6)';

let server: StaticServer;
let camera: { path: string; cleanup: () => Promise<void> };
let session: BrowserSession;

beforeAll(async () => {
  server = await serve(inject('distDir'));
  const picture = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#1d5c3a' } }).png().toBuffer();
  camera = await fakeCameraFile(picture, 640, 480);
  session = await launch({ camera: camera.path });
  await session.context.addInitScript((label: string) => {
    const list = navigator.mediaDevices.enumerateDevices.bind(navigator.mediaDevices);
    navigator.mediaDevices.enumerateDevices = async () =>
      (await list()).map((d) => (d.kind === 'videoinput' ? ({ deviceId: d.deviceId, groupId: d.groupId, kind: d.kind, label, toJSON: () => ({}) } as MediaDeviceInfo) : d));
  }, LONG_CAMERA);
  await session.page.setViewportSize({ width: 320, height: 568 });
  await session.page.goto(server.url);
  await addTestStyles(session.page, 'html { font-size: 200% !important; }');
});

/** Each walk ends on Home, whatever the test left open. */
afterEach(async () => {
  const { page } = session;
  while (!(await page.getByTestId('new-game').isVisible())) await page.getByRole('button', { name: 'Back', exact: true }).click();
});

afterAll(async () => {
  await session?.close();
  await camera?.cleanup();
  await server?.stop();
});

function twoLongNames(): BackupFile {
  const at = Date.now() - 3600_000;
  return backupFile({
    players: LONG_NAMES.map((name, i) => ({ id: `p-${i}`, name, createdAt: at, lastPlayedAt: at })),
  });
}

describe('selects at 320 px, 200% text', () => {
  it("Settings' camera shows its long name whole, and the automatic one", async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'Settings' }).click();
    const select = page.getByTestId('camera-select');
    await select.locator('option', { hasText: LONG_CAMERA }).waitFor({ state: 'attached' });
    expect(await selectShows(page, '#camera')).toBe('Rear camera (automatic)');
    await select.selectOption({ label: LONG_CAMERA });
    await expect.poll(() => selectShows(page, '#camera')).toBe(LONG_CAMERA);
    expect(await layoutProblems(page)).toEqual([]);
    await audit(page, "Settings, the camera's long name drawn by a face");
    // kept: shown again on a return to Settings
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect.poll(() => selectShows(page, '#camera')).toBe(LONG_CAMERA);
    await select.selectOption('');
    await expect.poll(() => selectShows(page, '#camera')).toBe('Rear camera (automatic)');
  });

  it("the camera check's kit shows whole", async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('camera-check').click();
    const select = page.getByTestId('check-kit');
    await select.selectOption({ label: LONG_KIT });
    expect(await selectShows(page, '[data-testid="check-kit"]')).toBe(LONG_KIT);
    expect(await layoutProblems(page)).toEqual([]);
    await audit(page, "the camera check, its kit's long name drawn by a face");
  });

  it("Players' merge shows the chosen long name whole, also while the question is asked", async () => {
    const { page } = session;
    await restoreBackup(page, twoLongNames());
    await page.getByRole('button', { name: 'Players' }).click();
    await page.getByTestId('player').filter({ hasText: LONG_NAMES[0]! }).getByTestId('merge-player').click();
    expect(await selectShows(page, '#merge-into')).toBe('Choose…');
    await page.getByTestId('merge-into').selectOption({ label: LONG_NAMES[1]! });
    expect(await selectShows(page, '#merge-into')).toBe(LONG_NAMES[1]);
    expect(await layoutProblems(page)).toEqual([]);
    await audit(page, "Players, a merge's long name drawn by a face");
    await page.getByTestId('merge-ask').click();
    await page.getByTestId('merge-question').waitFor();
    expect(await selectShows(page, '#merge-into')).toBe(LONG_NAMES[1]);
    // the choice is disabled while the question stands, and its face looks it (as a native select greys itself)
    expect(await page.locator('#merge-into').isDisabled()).toBe(true);
    const faceEdge = () => page.locator('.select-face:has(#merge-into) [data-testid="select-shown"]').evaluate((face) => getComputedStyle(face).borderTopStyle);
    expect(await faceEdge()).toBe('dashed');
    await audit(page, "Players, a merge's question under the chosen long name");
  });
});
