/**
 * Screenshots of the main screens, phone portrait and tablet landscape, light and dark, to look
 * at what a player sees: `npm run screenshots -- OUT_DIR` (default /tmp/rollcall-shots).
 * Builds the app and drives Chromium through the browser-test harness.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp, launch, serve } from '../tests/browser/harness.ts';

const out = process.argv[2] ?? '/tmp/rollcall-shots';
mkdirSync(out, { recursive: true });
const dist = await buildApp();
const server = await serve(dist);
const session = await launch();
const { page } = session;
const shot = (name: string) => page.screenshot({ path: join(out, `${name}.png`), fullPage: true });
try {
  await page.goto(server.url);
  await page.getByTestId('new-game').click();
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
  console.log(`screenshots in ${out}`);
  if (session.errors.length > 0) console.error('page errors:', session.errors);
} finally {
  await session.close();
  await server.stop();
  rmSync(dist, { recursive: true, force: true });
}
