/**
 * axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules run on a page as it is now, in the light colour
 * scheme and then its colours in the dark one: the audit of accessibility.test.ts, and of any walk
 * that reaches a screen that suite does not (an evening never settled up, say).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { AxeResults, RunOptions } from 'axe-core';
import { addTestStyles, ROOT } from './harness.ts';

// evaluated through the DevTools protocol, which the page's Content-Security-Policy does not
// govern: a <script> element (addScriptTag) would be refused, as an attacker's would
const AXE = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
const WCAG: RunOptions = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
  // Label in name (WCAG 2.5.3): a speech user says what the button shows. axe calls the rule
  // experimental and leaves it off unless asked.
  rules: { 'label-content-name-mismatch': { enabled: true } },
  resultTypes: ['violations'],
};
/** The dark scheme changes colours only: its pass runs the one rule colours can break. */
export const COLOURS: RunOptions = { runOnly: { type: 'rule', values: ['color-contrast'] }, resultTypes: ['violations'] };

/** axe's violations on the page as it is now, one line per element: "rule-id: selector — why". */
export async function violations(page: Page, options: RunOptions = WCAG): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  return page.evaluate(async (options) => {
    const { axe } = window as unknown as { axe: { run(context: Document, options: RunOptions): Promise<AxeResults> } };
    const result = await axe.run(document, options);
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`));
  }, options);
}

/**
 * axe reads no colour through a background image, so it would leave every cell of the slate "to
 * review", unchecked: the slate's box draws its scroll hint with gradients (a shadow at the edge
 * it scrolls to, only where it scrolls), and its sticky names column a 1 px rule. While axe runs
 * they are taken away, and it checks the slate's text against the colour it sits on (--bg,
 * --surface-2 on the current row); the shadow's strip at the edge goes unchecked.
 */
const SLATE_WITHOUT_GRADIENTS = '.slate-wrap, .slate th { background-image: none !important; }';

/**
 * The screen as it is now, in the light scheme and then the dark one. Soft: a screen's findings
 * are reported and the walk goes on, so that one run lists every screen's.
 */
export async function audit(page: Page, screen: string): Promise<void> {
  const removeGradientRule = await addTestStyles(page, SLATE_WITHOUT_GRADIENTS);
  try {
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await violations(page);
    expect.soft(light, `${screen}:\n${light.join('\n')}\n`).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await violations(page, COLOURS);
    expect.soft(dark, `${screen}, dark:\n${dark.join('\n')}\n`).toEqual([]);
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
    await removeGradientRule();
  }
}
