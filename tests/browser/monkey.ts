/**
 * What the seeded monkeys share (table-monkey.test.ts at the table, screens-monkey.test.ts on the
 * screens around it, camera-screens-monkey.test.ts on those with a camera): the seeded random
 * numbers, the discovery of what a player could tap or type into now, the wait for the page to
 * settle, the checks after every step, and a failure that says how to replay it.
 */
import type { Locator, Page } from 'playwright-core';
import { random } from '../../scripts/lib/random.ts';
import { layoutProblems } from './harness.ts';

/** mulberry32 (scripts/lib/random.ts): a small PRNG whose whole state is the seed, so a walk replays from it. */
export const mulberry32 = random;

/** One of `list`, picked by `random`. */
export function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

/**
 * A control a player could use now: its index among the page's tagged ones, what it says, and what
 * kind of thing it is (`button`, `select`, `summary`, `label` for a label standing in for a file
 * input, or an input's type: `checkbox`, `radio`, `text`, `number`, `range`…). `set`: the
 * `data-set-id` of the taught set it belongs to, if any.
 */
export interface Control {
  index: number;
  testId: string | null;
  name: string;
  kind: string;
  set: string | null;
}

/** The phone's back button (the browser's history), beside the app's own controls. */
export const PHONE_BACK: Control = { index: -1, testId: null, name: "the phone's back button", kind: 'back', set: null };

export interface ControlsOptions {
  /** Inputs offered: only checkboxes (the table's), or every kind a player can type into or pick. */
  inputs: 'checkboxes' | 'all';
  /** On Home, only the game lists' buttons (Resume, View): the table monkey's scope. */
  homeGameListOnly?: boolean;
}

/**
 * Every visible, enabled control on the screen, tagged with `data-monkey` so the one picked can be
 * found again (a file input hidden inside a label that looks like a button counts as that label).
 */
export async function controls(page: Page, options: ControlsOptions): Promise<Control[]> {
  return page.evaluate(({ inputs, homeGameListOnly }) => {
    for (const el of document.querySelectorAll('[data-monkey]')) el.removeAttribute('data-monkey');
    const home = document.querySelector('[data-testid="new-game"]') !== null;
    const found: { index: number; testId: string | null; name: string; kind: string; set: string | null }[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('button, select, input, summary, label.button')) {
      if (el.closest('.visually-hidden') || !el.checkVisibility()) continue;
      if ((el instanceof HTMLButtonElement || el instanceof HTMLInputElement || el instanceof HTMLSelectElement) && el.disabled) continue;
      if (el instanceof HTMLLabelElement && (el.querySelector('input') as HTMLInputElement | null)?.disabled !== false) continue;
      if ((el.tagName === 'SUMMARY' || el instanceof HTMLLabelElement) && inputs === 'checkboxes') continue;
      if (el instanceof HTMLInputElement && inputs === 'checkboxes' && el.type !== 'checkbox') continue;
      if (home && homeGameListOnly && !el.closest('[data-testid="game-list"]')) continue;
      const index = found.length;
      el.setAttribute('data-monkey', String(index));
      const kind = el instanceof HTMLInputElement ? el.type : el instanceof HTMLLabelElement ? 'label' : el.tagName.toLowerCase();
      const name =
        el.getAttribute('aria-label') ??
        (el instanceof HTMLInputElement || el instanceof HTMLSelectElement ? (el.labels?.[0]?.textContent ?? el.getAttribute('placeholder')) : null) ??
        el.closest('label')?.textContent ??
        el.textContent ??
        '';
      const testId = el.getAttribute('data-testid') ?? el.querySelector('input')?.getAttribute('data-testid') ?? null;
      found.push({ index, testId, name: name.replace(/\s+/g, ' ').trim(), kind, set: el.closest('[data-set-id]')?.getAttribute('data-set-id') ?? null });
    }
    return found;
  }, { inputs: options.inputs, homeGameListOnly: options.homeGameListOnly ?? false });
}

/** What every step must leave: no error in the page, and nothing laid out wrong. Null when so. */
export async function pageProblem(page: Page, errors: readonly string[]): Promise<string | null> {
  if (errors.length > 0) return `errors in the page: ${errors.join(' | ')}`;
  const layout = await layoutProblems(page);
  return layout.length > 0 ? `layout: ${layout.join('; ')}` : null;
}

/** The records of `stores`, read straight from the app's IndexedDB in one transaction (what the monkeys check the screens against). */
export async function storedRecords(page: Page, stores: readonly string[]): Promise<Record<string, unknown[]>> {
  return page.evaluate(
    (names) =>
      new Promise<Record<string, unknown[]>>((resolve, reject) => {
        const open = indexedDB.open('rollcall');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(names, 'readonly');
          const requests = names.map((name) => tx.objectStore(name).getAll());
          tx.oncomplete = () => {
            db.close();
            resolve(Object.fromEntries(names.map((name, k) => [name, requests[k]!.result as unknown[]])));
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    [...stores],
  );
}

/**
 * Waits until the page stops changing (an action is written to the store before it shows). What
 * counts is the text shown and which controls are enabled, less the camera's
 * picture and boxes, which a live camera redraws at every read.
 */
export async function settle(page: Page): Promise<void> {
  let last = '';
  for (let i = 0; i < 100; i++) {
    const now = await page.evaluate(() => {
      const picture = document.querySelector<HTMLElement>('[data-testid="camera-view"]')?.innerText ?? '';
      const enabled = [...document.querySelectorAll('button, input, select')].map((b) => ((b as HTMLButtonElement).disabled ? '0' : '1')).join('');
      return `${enabled}|${document.body.innerText.replace(picture, '')}`;
    });
    if (now === last) return;
    last = now;
    await page.waitForTimeout(30);
  }
  throw new Error('the page kept changing for 3 s');
}

/**
 * A monkey's failure: what went wrong, where, how to replay it (`replay`: the environment that
 * repeats the walk, e.g. `MONKEY_SEEDS=7 MONKEY_STEPS=400`), and the trail of the last steps.
 */
export function monkeyFailure(replay: string, where: string, step: number, what: string, trail: string[]): Error {
  return new Error(`monkey (${replay}, ${where}, step ${step}): ${what}\nlast steps:\n  ${trail.slice(-25).join('\n  ')}`);
}

/** A walk in progress: its page, the page's errors, the trail of steps a failure prints, and how it fails. */
export interface Walk {
  page: Page;
  errors: readonly string[];
  trail: string[];
  fail: (step: number, what: string) => never;
  /** Steps in a row whose control left the page before it was used. */
  vanished: number;
}

/** What `list` offers, given a moment when it offers nothing yet (a screen that loads its lists after it shows, as Home does). */
export async function offered(page: Page, list: () => Promise<Control[]>): Promise<Control[]> {
  let options = await list();
  for (let wait = 0; options.length === 0 && wait < 20; wait++) {
    await page.waitForTimeout(100);
    options = await list();
  }
  return options;
}

/** The screen shown: main's `data-screen`. */
export function screenShown(page: Page): Promise<string> {
  return page.evaluate(() => document.querySelector('main')?.getAttribute('data-screen') ?? '');
}

/** A reload (a pull to refresh) must bring the same screen back, with no error in the page. */
export async function reloadStep(walk: Walk, step: number): Promise<void> {
  const { page } = walk;
  const before = await screenShown(page);
  walk.trail.push(`${step}: reload on ${before}`);
  await page.reload();
  await page
    .locator('main h1')
    .first()
    .waitFor()
    .catch(async () => walk.fail(step, `no screen after the reload, at ${page.url()}: "${await page.evaluate(() => document.body.innerText.slice(0, 400))}"`));
  await settle(page);
  const after = await screenShown(page);
  if (after !== before) walk.fail(step, `the reload went from ${before} to ${after}`);
  if (walk.errors.length > 0) walk.fail(step, `errors in the page: ${walk.errors.join(' | ')}`);
}

/**
 * Uses `picked` by `use`, which names what it does through `say` before it does it (the trail says
 * it, and `screen`, the screen it was on, if given). True when it
 * was used; false when the control left the page first (a screen that had not finished opening took
 * it away), and the walk takes the step again, at what is there now (five times in a row at most).
 * Anything else that stops the use fails the walk, with where the control stood.
 */
export async function useControl(
  walk: Walk,
  step: number,
  screen: string,
  picked: Control,
  use: (say: (did: string) => void) => Promise<void>,
): Promise<boolean> {
  const { page } = walk;
  let did = '';
  const line = (name: string): string => `${step}: ${screen ? `on ${screen}, ` : ''}${did} ${picked.kind} ${picked.testId ?? ''} "${name}"`;
  try {
    await use((said) => (did = said));
    walk.trail.push(line(picked.name.slice(0, 60)));
  } catch (err) {
    const where = await page.evaluate((index) => {
      const el = document.querySelector(`[data-monkey="${index}"]`);
      if (!el) return null;
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return JSON.stringify({ box: [r.x, r.y, r.width, r.height], visible: el.checkVisibility(), disabled: (el as HTMLButtonElement).disabled, hit: hit?.outerHTML.slice(0, 160), scrollY });
    }, picked.index);
    if (where === null && walk.vanished < 5) {
      walk.vanished++;
      walk.trail.push(`${step}: (${picked.name} went before the ${did})`);
      return false;
    }
    walk.trail.push(line(picked.name));
    walk.fail(step, `that did not go through: ${String(err)}${where ? `\n${where}` : ''}`);
  }
  walk.vanished = 0;
  return true;
}

/**
 * The uses every screen monkey makes alike: the phone's Back, an option picked at random, or a text
 * from `texts` typed (then Enter, at `enterChance`, or the finger leaving the field, as a field that
 * saves on change saves then). Null for a control of another kind.
 */
export function commonUse(walk: Walk, picked: Control, random: () => number, texts: readonly string[], enterChance: number): ((say: (did: string) => void) => Promise<void>) | null {
  const { page } = walk;
  const target = page.locator(`[data-monkey="${picked.index}"]`);
  if (picked === PHONE_BACK) {
    return async (say) => {
      say('phone back');
      await page.goBack();
    };
  }
  if (picked.kind === 'select') {
    return async (say) => {
      const count = await target.locator('option').count();
      const index = Math.floor(random() * count);
      say(`choose option ${index}`);
      await target.selectOption({ index }, { timeout: 5000 });
    };
  }
  if (picked.kind === 'text' || picked.kind === 'search') {
    return async (say) => {
      const value = pick(random, texts);
      const enter = random() < enterChance;
      say(`type ${JSON.stringify(value.length > 40 ? `${value.slice(0, 20)}…(${value.length})` : value)}${enter ? ' and Enter' : ''}`);
      await target.fill(value, { timeout: 5000 });
      if (enter) await target.press('Enter');
      else await target.blur();
    };
  }
  return null;
}

/** A tap on `target`, or a double tap (the second lands on whatever the first put under the finger). */
export async function tap(target: Locator, double: boolean, say: (did: string) => void): Promise<void> {
  say(double ? 'double-tap' : 'tap');
  if (double) await target.dblclick({ timeout: 5000 });
  else await target.click({ timeout: 5000 });
}
