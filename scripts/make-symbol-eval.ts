/**
 * npm run make-symbol-eval -- [--out DIR] [--sets N] [--rolls N] [--teach N]
 *
 * Builds the symbol-dice evaluation set with a renderer the face embedder never trained on:
 * three.js (WebGL) in headless Chromium, with its own tables, lights and symbol families
 * (scripts/symbol-eval/scene.js). Writes, under DIR (default cache/symbol-eval, git-ignored):
 *
 *   <set>/kit/kit.json, <set>/kit/examples/<faceId>/*.png   a kit taught with N photos per face
 *   <set>/rolls/labels.json + *.png                          rolls of five dice, labelled with `face`
 *   <set>/art/<faceId>.png                                   the set's faces as drawn (for the record)
 *   <set>/teach-boxes.json                                   the die's box in each teach photo
 *
 * Sets: `emblems-*` and `glyphs-*` are symbol sets never used in training (procedural canvas
 * emblems; Liberation-font glyphs — training drew DejaVu); `corellian-spike` and `face-off`
 * put the shipped kit art on the dice ("dice that look like the art").
 *
 * npm run make-pip-eval (this script with --pips) [-- --out DIR] [--sets N] [--rolls N] [--first N] [--dice MIN-MAX] [--near F]
 *
 * The same renderer paints standard pip dice for the standard reader, which learnt from photos
 * and dicegen's renders only: under DIR (default cache/pip-eval) `pips-<n>/labels.json` + *.png,
 * rolls of 1–12 dice in three dice styles per set (body and pip colours, round, square or ring
 * pips, a big red 1 or a logo on the 1 as some makers print), opposite faces summing to 7, dice
 * apart or touching, at phone-like sizes. `npm run eval -- cache/pip-eval/pips-*` measures them.
 * `--first N` starts at `pips-N` (set n is seeded by n): once sets 1–24 have chosen a rule,
 * `--first 25 --sets 24` makes 24 fresh ones to check it on. `--dice 13-24` makes crowds instead:
 * rolls of 13–24 dice dropped packed, many touching, small in the frame (`--first 201` keeps their
 * seeds apart from the other sets'). `--near F` brings the camera F times as far (0.2–1): close-ups,
 * as a player holding the phone close to a few dice takes them (the camera still backs off until
 * every die is wholly in the picture).
 *
 * Everything is seeded: the same command writes the same set.
 */
import { chromium, type Page } from 'playwright-core';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parseKitText } from '../src/lib/dice/validate.ts';
import { HelpRequest, runCli, UsageError } from './lib/cli.ts';

const USAGE = `usage: npm run make-symbol-eval -- [--out DIR] [--sets N] [--rolls N] [--teach N]   (DIR default cache/symbol-eval)
       npm run make-pip-eval [-- --out DIR] [--sets N] [--rolls N] [--first N] [--dice MIN-MAX] [--near F]   (this script with --pips; DIR default cache/pip-eval; dice 1-12)`;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const THREE_DIR = path.join(ROOT, 'node_modules/three');
const SCENE_JS = path.join(ROOT, 'scripts/symbol-eval/scene.js');
const ORIGIN = 'http://symbol-eval.local';

const PAGE = `<!doctype html><html><head><meta charset="utf-8">
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
</head><body style="margin:0"><script type="module">
import * as scene from '/scene.js'; window.sceneApi = scene; window.sceneReady = true;
</script></body></html>`;

interface Die {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface SetPlan {
  name: string;
  family: 'emblems' | 'glyphs' | 'art';
  seed: number;
  kitId?: string;
}

const round1 = (v: number): number => Math.round(v * 10) / 10;
const SIZES: Array<[number, number]> = [
  [640, 480],
  [800, 600],
  [480, 640],
  [720, 720],
];
// pip dice are read from phone frames: larger pictures, both ways round
const PIP_SIZES: Array<[number, number]> = [
  [1280, 720],
  [960, 720],
  [720, 1280],
  [1024, 1024],
];

/** A seeded stream of numbers in [0, 1) for choosing a roll (the page's scene has its own). */
function rollRandom(seed: number): () => number {
  let x = seed * 2654435761;
  return (): number => {
    x = (x ^ (x >>> 13)) * 1274126177;
    x = x ^ (x >>> 16);
    return (x >>> 0) / 4294967296;
  };
}

type Render = (seed: number, dice: number[], size: [number, number], extra?: { standard?: boolean; styles?: number[]; minGap?: number; spread?: number; near?: number }) => Promise<{ png: Buffer; boxes: Die[] }>;

function renderIn(page: Page): Render {
  return async (seed, dice, size, extra = {}) => {
    const result = await page.evaluate(
      ([spec]) => {
        const win = window as unknown as { sceneApi: { renderScene: (spec: unknown, t: unknown) => { dataUrl: string; boxes: Die[] } }; textures: unknown };
        return win.sceneApi.renderScene(spec, win.textures);
      },
      [{ seed, dice, width: size[0], height: size[1], ...extra }] as const,
    );
    return { png: Buffer.from(result.dataUrl.split(',')[1]!, 'base64'), boxes: result.boxes };
  };
}

/**
 * Pip-dice sets: rolls of `dice` standard dice (1–12 unless given), labelled with `value`. Rolls of
 * more than 12 are crowds: dropped packed (on a table area about 0.9·√n gaps wide each way of its
 * centre), as a handful of dice poured out lie, so many touch.
 */
async function makePipSets(page: Page, out: string, first: number, nSets: number, nRolls: number, dice: readonly [number, number] = [1, 12], near = 1): Promise<void> {
  const render = renderIn(page);
  for (let n = first; n < first + nSets; n++) {
    const name = `pips-${n}`;
    const dir = path.join(out, name);
    const setSeed = 4000 + n;
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const styles = await page.evaluate((seed) => {
      const w = window as unknown as { sceneApi: Record<string, (...a: unknown[]) => unknown>; textures: unknown };
      const set = w.sceneApi.pipSet!(seed) as Array<{ description: string }>;
      w.textures = w.sceneApi.pipTextures!(set);
      return set.map((style) => style.description);
    }, setSeed);
    const images: Array<{ file: string; width: number; height: number; dice: Array<Die & { value: number }> }> = [];
    for (let i = 1; i <= nRolls; i++) {
      const seed = setSeed * 10_000 + i;
      const next = rollRandom(seed);
      const count = dice[0] + Math.floor(next() * (dice[1] - dice[0] + 1));
      const faces = Array.from({ length: count }, () => Math.floor(next() * 6));
      const diceStyles = faces.map(() => Math.floor(next() * styles.length));
      const size = PIP_SIZES[i % PIP_SIZES.length]!;
      // half the rolls let dice touch (centres 1.45 sides apart: cubes at any turn cannot meet inside)
      const minGap = next() < 0.5 ? 1.45 : 1.65;
      const crowd = count > 12 ? { spread: 0.9 * minGap * Math.sqrt(count) } : {};
      const { png, boxes } = await render(seed, faces, size, { standard: true, styles: diceStyles, minGap, ...crowd, ...(near !== 1 ? { near } : {}) });
      const file = `roll-${String(i).padStart(3, '0')}.png`;
      await writeFile(path.join(dir, file), png);
      images.push({ file, width: size[0], height: size[1], dice: boxes.map((b, j) => ({ x: round1(b.x), y: round1(b.y), w: round1(b.w), h: round1(b.h), value: faces[j]! + 1 })) });
    }
    const labels = {
      source: 'rollcall scripts/make-symbol-eval.ts --pips (three.js, headless Chromium)',
      license: 'generated by the project',
      box_style: 'whole-die',
      notes: [`pip dice, seed ${setSeed}, styles: ${styles.join('; ')}`, 'boxes: the projected die mesh, clamped to the image'],
      images,
    };
    await writeFile(path.join(dir, 'labels.json'), JSON.stringify(labels, null, 1) + '\n');
    console.log(`${name}: ${nRolls} rolls of ${dice[0]}–${dice[1]} pip dice, ${images.reduce((a, im) => a + im.dice.length, 0)} dice → ${dir}`);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      out: { type: 'string' },
      sets: { type: 'string', default: '6' },
      rolls: { type: 'string', default: '20' },
      teach: { type: 'string', default: '5' },
      pips: { type: 'boolean', default: false },
      first: { type: 'string', default: '1' },
      dice: { type: 'string', default: '1-12' },
      near: { type: 'string', default: '1' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) throw new HelpRequest(USAGE);
  const out = path.resolve(values.out ?? path.join(ROOT, values.pips ? 'cache/pip-eval' : 'cache/symbol-eval'));
  const nSets = Number(values.sets);
  const nRolls = Number(values.rolls);
  const nTeach = Number(values.teach);
  const first = Number(values.first);
  if (![nSets, nRolls, nTeach, first].every((n) => Number.isInteger(n) && n > 0)) throw new UsageError(`--sets, --rolls, --teach and --first must be positive integers\n${USAGE}`);
  if (first !== 1 && !values.pips) throw new UsageError(`--first numbers pip sets only (npm run make-pip-eval)\n${USAGE}`);
  const diceRange = /^(\d+)-(\d+)$/.exec(values.dice);
  const dice = diceRange ? ([Number(diceRange[1]), Number(diceRange[2])] as const) : null;
  if (!dice || dice[0] < 1 || dice[0] > dice[1] || dice[1] > 40) throw new UsageError(`--dice must be MIN-MAX with 1 ≤ MIN ≤ MAX ≤ 40, got ${JSON.stringify(values.dice)}\n${USAGE}`);
  if (values.dice !== '1-12' && !values.pips) throw new UsageError(`--dice sizes pip rolls only (npm run make-pip-eval)\n${USAGE}`);
  const near = Number(values.near);
  if (!(near >= 0.2 && near <= 1)) throw new UsageError(`--near must be a number from 0.2 to 1, got ${JSON.stringify(values.near)}\n${USAGE}`);
  if (near !== 1 && !values.pips) throw new UsageError(`--near brings the camera closer to pip rolls only (npm run make-pip-eval)\n${USAGE}`);

  const plans: SetPlan[] = [];
  for (let i = 1; i <= nSets; i++) plans.push({ name: `emblems-${i}`, family: 'emblems', seed: 1000 + i });
  for (let i = 1; i <= nSets; i++) plans.push({ name: `glyphs-${i}`, family: 'glyphs', seed: 2000 + i });
  plans.push({ name: 'corellian-spike', family: 'art', seed: 3001, kitId: 'corellian-spike' });
  plans.push({ name: 'face-off', family: 'art', seed: 3002, kitId: 'face-off' });

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.route(`${ORIGIN}/**`, async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/' || url.pathname === '/index.html') return route.fulfill({ contentType: 'text/html', body: PAGE });
      if (url.pathname === '/scene.js') return route.fulfill({ contentType: 'text/javascript', body: await readFile(SCENE_JS, 'utf8') });
      if (url.pathname.startsWith('/three/')) {
        const file = path.join(THREE_DIR, path.normalize(url.pathname.slice('/three/'.length)));
        if (file.startsWith(THREE_DIR) && existsSync(file)) return route.fulfill({ contentType: 'text/javascript', body: await readFile(file, 'utf8') });
      }
      return route.fulfill({ status: 404, body: 'not found' });
    });
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => (window as unknown as { sceneReady?: boolean }).sceneReady === true);
    if (values.pips) {
      await makePipSets(page, out, first, nSets, nRolls, dice, near);
      return;
    }

    for (const plan of plans) {
      const dir = path.join(out, plan.name);
      await rm(dir, { recursive: true, force: true });
      await mkdir(path.join(dir, 'rolls'), { recursive: true });
      await mkdir(path.join(dir, 'art'), { recursive: true });

      let faces: Array<{ id: string; label: string; value: number | null; group: string | null }>;
      let kitId: string;
      let kitName: string;
      let artUrls: string[] | null = null;
      if (plan.family === 'art') {
        const kitDir = path.join(ROOT, 'src/lib/dice/kits', plan.kitId!);
        const kit = parseKitText(await readFile(path.join(kitDir, 'kit.json'), 'utf8'));
        faces = kit.faces;
        kitId = `${kit.id}-taught`;
        kitName = `${kit.name}, taught from renders`;
        artUrls = await Promise.all(
          kit.faces.map(async (f) => `data:image/svg+xml;base64,${(await readFile(path.join(kitDir, 'faces', `${f.id}.svg`))).toString('base64')}`),
        );
      } else {
        faces = await page.evaluate(
          ([family, seed]) => {
            const api = (window as unknown as { sceneApi: { symbolSet: (f: string, s: number) => { faces: Array<{ id: string; label: string }> } } }).sceneApi;
            return api.symbolSet(family as string, seed as number).faces.map((f) => ({ id: f.id, label: f.label, value: null, group: null }));
          },
          [plan.family, plan.seed] as const,
        );
        kitId = `eval-${plan.name}`;
        kitName = `Evaluation set ${plan.name}`;
      }

      // set up the face textures once per set, in the page
      const art: string[] = await page.evaluate(
        async ([family, seed, urls]) => {
          const w = window as unknown as { sceneApi: Record<string, (...a: unknown[]) => unknown>; textures: unknown };
          const api = w.sceneApi;
          if (family === 'art') {
            w.textures = await api.artTextures!(urls, '#f5f1e8');
            return urls as string[];
          }
          const set = api.symbolSet!(family, seed);
          w.textures = api.setTextures!(set);
          return api.setArt!(set) as string[];
        },
        [plan.family, plan.seed, artUrls] as const,
      );
      for (const [i, f] of faces.entries()) {
        const url = art[i]!;
        const ext = url.startsWith('data:image/svg') ? 'svg' : 'png';
        await writeFile(path.join(dir, 'art', `${f.id}.${ext}`), Buffer.from(url.split(',')[1]!, 'base64'));
      }

      const render = renderIn(page);

      // the taught kit: nTeach photos of one die per face
      const kitDir = path.join(dir, 'kit');
      await mkdir(kitDir, { recursive: true });
      await writeFile(path.join(kitDir, 'kit.json'), JSON.stringify({ id: kitId, name: kitName, faces }, null, 2) + '\n');
      let seed = plan.seed * 10_000;
      const teachBoxes: Record<string, Die> = {};
      for (const [fi, f] of faces.entries()) {
        const exDir = path.join(kitDir, 'examples', f.id);
        await mkdir(exDir, { recursive: true });
        for (let t = 1; t <= nTeach; t++) {
          const { png, boxes } = await render(seed++, [fi], SIZES[(seed + t) % SIZES.length]!);
          await writeFile(path.join(exDir, `${t}.png`), png);
          teachBoxes[`${f.id}/${t}.png`] = boxes[0]!;
        }
      }
      // where the die is in each teach photo, for measuring the face reader apart from the detector
      await writeFile(path.join(dir, 'teach-boxes.json'), JSON.stringify(teachBoxes, null, 1) + '\n');

      // rolls of five dice
      const images: Array<{ file: string; width: number; height: number; dice: Array<Die & { face: string; value?: number }> }> = [];
      for (let i = 1; i <= nRolls; i++) {
        const s = seed++;
        const next = rollRandom(s);
        const dice = Array.from({ length: 5 }, () => Math.floor(next() * faces.length));
        const size = SIZES[i % SIZES.length]!;
        const { png, boxes } = await render(s, dice, size);
        const file = `roll-${String(i).padStart(3, '0')}.png`;
        await writeFile(path.join(dir, 'rolls', file), png);
        images.push({
          file,
          width: size[0],
          height: size[1],
          dice: boxes.map((b, j) => {
            const face = faces[dice[j]!]!;
            return { x: round1(b.x), y: round1(b.y), w: round1(b.w), h: round1(b.h), face: face.id, ...(face.value !== null ? { value: face.value } : {}) };
          }),
        });
      }
      const labels = {
        source: 'rollcall scripts/make-symbol-eval.ts (three.js, headless Chromium)',
        license: 'generated by the project',
        box_style: 'whole-die',
        kit: kitId.replace(/-taught$/, ''),
        notes: [`family ${plan.family}, seed ${plan.seed}`, 'boxes: the projected die mesh, clamped to the image'],
        images,
      };
      await writeFile(path.join(dir, 'rolls', 'labels.json'), JSON.stringify(labels, null, 1) + '\n');
      console.log(`${plan.name}: ${faces.length} faces × ${nTeach} teach photos, ${nRolls} rolls of 5 → ${dir}`);
    }
  } finally {
    await browser.close();
  }
}

runCli('make-symbol-eval', import.meta.url, main);
