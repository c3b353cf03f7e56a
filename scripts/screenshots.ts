/**
 * Screenshots of the main screens, phone portrait and tablet landscape, light and dark, to look
 * at what a player sees: `npm run screenshots -- OUT_DIR` (default /tmp/rollcall-shots).
 * Builds the app and drives Chromium through the browser-test harness.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { buildApp, fakeCameraFile, launch, serve } from '../tests/browser/harness.ts';
import { HelpRequest, runCli, UsageError } from './lib/cli.ts';

const USAGE = 'usage: npm run screenshots -- [OUT_DIR]   (default /tmp/rollcall-shots)';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ args: process.argv.slice(2), allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
  if (values.help) throw new HelpRequest(USAGE);
  if (positionals.length > 1) throw new UsageError(USAGE);
  const out = positionals[0] ?? '/tmp/rollcall-shots';
  mkdirSync(out, { recursive: true });
  const dist = await buildApp();
  const server = await serve(dist);
  const session = await launch();
  const { page } = session;
  const shot = (name: string) => page.screenshot({ path: join(out, `${name}.png`), fullPage: true });
  try {
    await page.goto(server.url);
    // a new visitor's Home as a phone's Chromium shows it: the browser has said the app can be installed
    // (headless Chromium never does, so the page gets the event a phone gives it)
    // (a string: tsx would wrap a function's inner functions in a helper the page lacks)
    await page.evaluate(`window.dispatchEvent(Object.assign(new Event('beforeinstallprompt', { cancelable: true }), { prompt: () => Promise.resolve(), userChoice: Promise.resolve({ outcome: 'dismissed' }) }))`);
    await page.getByTestId('install-offer').waitFor();
    await shot('home-first-visit');
    await page.getByRole('button', { name: 'Not now' }).click();
    await page.getByTestId('new-game').click();
    await page.getByTestId('game-select').selectOption('five-thousand');
    for (const name of ['Ann', 'Ben', 'Cy']) {
      await page.getByTestId('player-name').fill(name);
      await page.getByTestId('add-player').click();
    }
    await shot('new-game');
    await page.getByTestId('start-game').click();
    await page.getByRole('heading', { level: 1 }).filter({ hasText: '5000' }).waitFor();
    await shot('game');
    await page.goBack();
    await page.getByTestId('game-list').waitFor();
    await shot('home');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Dark').check();
    await shot('settings-dark');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.setViewportSize({ width: 1180, height: 820 });
    await page.getByTestId('game-list').waitFor();
    await shot('home-tablet-dark');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('camera-check').click();
    await page.getByTestId('use-dice-pad').click();
    await shot('dice-pad-tablet-dark');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByRole('button', { name: 'Dice kits' }).click();
    await shot('kits-tablet-dark');

    // The camera check with a fake camera showing five dice (a matteop65 val fixture, licence beside it), read and drawn.
    const picture = await sharp(join(import.meta.dirname, '..', 'tests', 'fixtures', 'dice-photos', 'matteop65-val-sample', 'valid_80.jpg')).resize(640, 480).png().toBuffer();
    const camera = await fakeCameraFile(picture);
    const withCamera = await launch({ camera: camera.path });
    try {
      await withCamera.page.goto(server.url);
      await withCamera.page.getByRole('button', { name: 'Settings' }).click();
      await withCamera.page.getByTestId('camera-check').click();
      await withCamera.page.getByTestId('check-read').getByText('I see', { exact: false }).waitFor({ timeout: 45_000 });
      await withCamera.page.screenshot({ path: join(out, 'camera-check.png'), fullPage: true });
    } finally {
      await withCamera.close();
      await camera.cleanup();
    }
    console.log(`screenshots in ${out}`);
    if (session.errors.length > 0) console.error('page errors:', session.errors);
  } finally {
    await session.close();
    await server.stop();
    rmSync(dist, { recursive: true, force: true });
  }
}

runCli('screenshots', import.meta.url, main);
