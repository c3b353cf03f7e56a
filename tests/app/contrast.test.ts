/**
 * WCAG AA contrast of the colour pairs app.css uses, in both themes: text 4.5:1, controls'
 * edges and large accents 3:1. Reads the custom properties straight from app.css.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';

const css = readFileSync(new URL('../../src/app.css', import.meta.url), 'utf8');

function themeVars(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  const block = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries([...block.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})/gi)].map((m) => [m[1]!, m[2]!]));
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const light = themeVars(':root');
const dark = themeVars(":root[data-theme='dark']");
const systemDark = themeVars(":root:not([data-theme='light'])");

describe.each([
  ['light', light],
  ['dark', dark],
])('%s theme contrast', (_name, v) => {
  it.each([
    ['text', 'bg'],
    ['text', 'surface'],
    ['text', 'surface-2'],
    ['muted', 'bg'],
    ['muted', 'surface'],
    ['placeholder', 'surface'],
    ['danger', 'surface'],
    ['danger', 'bg'],
    ['ok', 'surface'],
    ['accent-text', 'accent'],
  ])('%s on %s is at least 4.5:1', (fg, bg) => {
    expect(contrast(v[fg]!, v[bg]!)).toBeGreaterThanOrEqual(4.5);
  });

  it.each([
    ['border', 'surface'],
    ['border', 'bg'],
    ['focus', 'bg'],
    ['focus', 'surface'],
  ])('%s on %s is at least 3:1', (fg, bg) => {
    expect(contrast(v[fg]!, v[bg]!)).toBeGreaterThanOrEqual(3);
  });
});

it('the system dark theme uses the same colours as the chosen dark theme', () => {
  expect(systemDark).toEqual(dark);
});
