/**
 * One whole game of 5000, three players and an ante of 2, played to the winner and the payout
 * with some rolls read by the camera and the rest tapped on the dice pad. A fake camera streams a
 * real photograph of five dice (the matteop65 val image table-camera.test.ts reads). Ann's first
 * roll, and Bob's after the camera is turned back on, are the camera's: each proposal must be what
 * the app's own library reads from the very same frame in Node (the shipped detector on
 * onnxruntime-node, computed in beforeAll); the player corrects each die it read wrongly to the
 * labelled face (as at a real table) and confirms in one tap. Between and after them the camera is
 * off and the dice pad plays the game out. Every roll the game goes on from is the labelled or
 * tapped dice, so the game is the same whatever the model reads; each step is checked against
 * the same game played in Node.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeCameraFile, launch, layoutProblems, ROOT, serve, type BrowserSession, type StaticServer } from './harness.ts';
import { headline, move, padRoll, pot, scores, startGame } from './table-helpers.ts';
import { createNodeDetector } from '../../scripts/lib/node-vision.ts';
import { imageToY4m, y4mToRgba } from '../../scripts/y4m.ts';
import { applyAction, createMatch, viewMatch, type Action, type MatchState } from '../../src/lib/rules/index.ts';
import { previewRoll } from '../../src/app/play.ts';

const PHOTOS = join(ROOT, 'tests/fixtures/dice-photos/matteop65-val-sample');
const PHOTO = 'valid_80.jpg';
const PLAYERS = ['Ann', 'Bob', 'Cy'];

let server: StaticServer;
let session: BrowserSession;
let camera: { path: string; cleanup: () => Promise<void> };
/** The labelled faces, left to right (as the table lists a read). */
let truth: number[];
/** What the app's library reads from the camera's frame in Node, left to right: a value, or null for a die it cannot read. */
let nodeRead: Array<number | null>;

const centreX = (b: { x: number; w: number }) => b.x + b.w / 2;

beforeAll(async () => {
  server = await serve(inject('distDir'));
  const labels = JSON.parse(readFileSync(join(PHOTOS, 'labels.json'), 'utf8')) as {
    images: { file: string; dice: { x: number; y: number; w: number; h: number; value: number }[] }[];
  };
  truth = [...labels.images.find((i) => i.file === PHOTO)!.dice].sort((a, b) => centreX(a) - centreX(b)).map((d) => d.value);
  // the frame as the fake camera streams it (640×480, 4:2:0), read by the shipped detector in Node
  const y4m = await imageToY4m(readFileSync(join(PHOTOS, PHOTO)), { width: 640, height: 480 });
  const detector = await createNodeDetector({ threads: 1 });
  const { dice } = await detector.detect(y4mToRgba(y4m));
  await detector.release();
  nodeRead = [...dice].sort((a, b) => centreX(a.box) - centreX(b.box)).map((d) => d.value);
  console.log(`5000 camera and pad, Node reads ${nodeRead.map((v) => v ?? '?').join(' ')} (labels ${truth.join(' ')})`);
  camera = await fakeCameraFile(readFileSync(join(PHOTOS, PHOTO)), 640, 480);
  session = await launch({ camera: camera.path });
  await session.page.goto(server.url);
}, 120_000);

afterAll(async () => {
  await session?.close();
  await server?.stop();
  await camera?.cleanup();
});

/** The same game in Node, action by action: what the table must show. */
let mirror: MatchState;
function mirrorAct(action: Action): void {
  mirror = applyAction(mirror, action);
}
const mirrorScores = () => Object.fromEntries(viewMatch(mirror, null).slate.rows.map((r) => [r.name, r.score]));

describe('a game of 5000 read by camera and by the dice pad', () => {
  it('plays from a camera read, by the pad to the winner: scores, pot, payout and ledger', async () => {
    const { page, errors } = session;
    await startGame(page, 'five-thousand', PLAYERS, 2);
    mirror = createMatch({ game: 'five-thousand', players: PLAYERS, options: { ante: 2 } });
    expect(await pot(page)).toBe(6);
    expect(await page.getByTestId('dice-pad').count()).toBe(0); // camera-first, the pad folded away

    /**
     * A roll read by the camera: its proposal is what the library reads in Node; a die read
     * wrongly is corrected to what it shows, a ? filled in; then one tap confirms it.
     */
    const cameraRoll = async () => {
      const read = page.getByTestId('camera-read');
      await read.waitFor({ timeout: 60_000 });
      expect(await read.getAttribute('data-source')).toBe('camera');
      expect(await read.textContent()).toBe(nodeRead.filter((v) => v !== null).join(' '));
      expect(await page.getByTestId('unread-die').count()).toBe(nodeRead.filter((v) => v === null).length);
      for (const [i, value] of nodeRead.entries()) {
        if (value === truth[i]) continue;
        if (value === null) await page.getByTestId('unread-die').first().click();
        else await page.getByRole('button', { name: new RegExp(`^Die ${i + 1}: \\d\\. Correct it$`) }).click();
        await page.locator(`button[data-fix-face="${truth[i]}"]`).click();
      }
      expect(await read.textContent()).toBe(truth.join(' '));
      const preview = previewRoll(mirror, truth);
      if (!preview.ok) throw new Error(`the rules refuse ${truth.join(' ')}: ${preview.message}`);
      expect(await page.getByTestId('roll-preview').textContent()).toBe(preview.headline);
      await page.getByTestId('confirm-roll').click();
      await read.waitFor({ state: 'detached' });
      mirrorAct(preview.action);
      expect(await headline(page)).toBe(preview.headline);
      return preview.headline;
    };

    // Ann's first roll, by the camera
    expect(await cameraRoll()).toMatch(/^Ann rolled 2 3 3 3 6 = 300 \(3 3 3 set aside\)\. Roll 2 dice/);

    // the camera goes off: the pad takes over for the rest of the game
    await page.getByTestId('camera-toggle').click();
    expect(await page.getByTestId('table-camera').count()).toBe(0);
    await page.getByTestId('dice-pad').waitFor();

    /** A roll tapped on the pad (only the dice thrown), checked against the Node game. */
    const pad = async (faces: number[]) => {
      const preview = previewRoll(mirror, faces);
      if (!preview.ok) throw new Error(`the rules refuse ${faces.join(' ')}: ${preview.message}`);
      await padRoll(page, faces.map(String));
      mirrorAct(preview.action);
      expect(await headline(page)).toBe(viewMatch(mirror, null).headline);
    };
    /** Banks the turn, by the label the rules give the move. */
    const bank = async () => {
      const bankMove = viewMatch(mirror, null).legal.find((m) => m.kind === 'action' && m.action.type === 'bank');
      if (!bankMove || bankMove.kind !== 'action') throw new Error(`no bank now: ${viewMatch(mirror, null).headline}`);
      await move(page, bankMove.label);
      mirrorAct(bankMove.action);
      expect(await scores(page)).toEqual(mirrorScores());
    };

    // Ann goes on from the camera's roll by the pad: 1 1 on the two dice left, 500 this turn, banked
    await pad([1, 1]);
    expect(await page.getByTestId('turn-total').textContent()).toBe('500');
    await bank();
    expect(await scores(page)).toEqual({ Ann: 500, Bob: 0, Cy: 0 });
    // Bob turns the camera back on; the dice lie as the camera last read them (the fake camera's
    // picture never changes), so they are not proposed by themselves: "Read again" reads them
    await page.getByTestId('camera-toggle').click();
    expect(await page.getByTestId('dice-pad').count()).toBe(0);
    await page.getByTestId('camera-status').getByText('These dice were read already: waiting for the throw.').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('camera-read').count()).toBe(0);
    await page.getByTestId('read-again').click();
    expect(await cameraRoll()).toMatch(/^Bob rolled 2 3 3 3 6 = 300 \(3 3 3 set aside\)\. Roll 2 dice/);
    // the camera off again, Bob throws 2 and 6 on the pad and busts; Cy busts
    await page.getByTestId('camera-toggle').click();
    await page.getByTestId('dice-pad').waitFor();
    await pad([2, 6]);
    expect(await page.getByTestId('current-player').textContent()).toBe('Cy to play');
    await pad([2, 3, 4, 6, 6]);
    expect(await page.getByTestId('current-player').textContent()).toBe('Ann to play');
    expect(await scores(page)).toEqual({ Ann: 500, Bob: 0, Cy: 0 });
    expect(await pot(page)).toBe(6);
    // Ann: five 1s (4400, all five scored, all five again), then a 1 (100), and banks to exactly 5000
    await pad([1, 1, 1, 1, 1]);
    await pad([1, 2, 3, 4, 6]);
    expect(viewMatch(mirror, null).legal.some((m) => m.kind === 'action' && m.label.endsWith('reaches 5000)'))).toBe(true);
    await bank();

    const over = page.getByTestId('game-over');
    await over.waitFor();
    expect(mirror.phase).toBe('over');
    expect(await over.getByRole('heading').textContent()).toBe('Ann wins!');
    expect(await scores(page)).toEqual({ Ann: 5000, Bob: 0, Cy: 0 });
    expect(await page.getByTestId('payout').textContent()).toMatch(/^\s*Ann takes 6 from the pot of 6\.\s*$/);
    expect(await pot(page)).toBe(0);
    await page.getByTestId('session-ledger').waitFor();
    const ledger = await page
      .getByTestId('session-ledger')
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-player'), r.querySelector('[data-testid="net"]')?.textContent]));
    expect(ledger).toEqual([
      ['Ann', '+4'],
      ['Bob', '-2'],
      ['Cy', '-2'],
    ]);

    // the log: Ann's and Bob's first rolls came from the camera (as corrected), the rest from the pad
    await page.getByTestId('open-log').click();
    await page.getByTestId('game-log').waitFor();
    const rolls = (await page.getByTestId('log-action').allTextContents()).filter((s) => s.startsWith('rolled '));
    expect(rolls).toEqual([truth, [1, 1], truth, [2, 6], [2, 3, 4, 6, 6], [1, 1, 1, 1, 1], [1, 2, 3, 4, 6]].map((d) => `rolled ${d.join(' ')}`));
    expect(await layoutProblems(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 180_000);
});
