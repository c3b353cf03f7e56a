import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// Code and docs cite the model card and its record by file and section title,
// e.g. (models/record/standard-dice.md, "Branded ones among pip dice"). When a section moves or
// is renamed, the citation must follow it: every cited title must be found in the cited file.

const ROOT = join(import.meta.dirname, '..', '..');
const TEXT = /\.(ts|svelte|py|md|json|sh|mjs)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'cache', 'runs', '__pycache__', 'dist']);
// Where citations may stand: code, tests, docs, the training scripts, the record, and the files of
// models/ itself (the card, the sidecars).
const SCANNED = [
  'src', 'scripts', 'tests', 'docs', 'models/training', 'models/record', 'README.md',
  ...readdirSync(join(ROOT, 'models')).map((name) => `models/${name}`).filter((path) => statSync(join(ROOT, path)).isFile()),
];
// A cited file, then optionally a section title in quotes (a title may run over a comment's line break).
const CITATION = /models\/(MODEL_CARD|record\/[a-z-]+)\.md`?\)?(,?\s*(?:section\s*)?\(?\s*["“]([^"”]+)["”])?/g;

interface Citation {
  file: string;
  target: string;
  title: string | null;
}

function textFiles(path: string): string[] {
  const full = join(ROOT, path);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return TEXT.test(path) ? [path] : [];
  if (SKIPPED_DIRS.has(path.split('/').pop()!)) return [];
  return readdirSync(full).flatMap((name) => textFiles(join(path, name)));
}

function citations(file: string, text: string): Citation[] {
  return [...text.matchAll(CITATION)].map((m) => ({
    file,
    target: `models/${m[1]}.md`,
    title: m[3] ? m[3].replace(/\s*\n\s*(?:\*|\/\/|#)?\s*/g, ' ').trim() : null,
  }));
}

function broken(cited: readonly Citation[], read: (target: string) => string | null): string[] {
  return cited.flatMap((c) => {
    const body = read(c.target);
    if (body === null) return [`${c.file}: ${c.target} does not exist`];
    if (c.title && !body.replace(/\s+/g, ' ').includes(c.title)) return [`${c.file}: "${c.title}" is not in ${c.target}`];
    return [];
  });
}

const readTarget = (target: string): string | null => (existsSync(join(ROOT, target)) ? readFileSync(join(ROOT, target), 'utf8') : null);

describe('citations of the model card and its record', () => {
  // This file's own examples of broken citations are left out.
  const files = SCANNED.flatMap(textFiles).filter((f) => f !== 'tests/docs/model-card-references.test.ts');
  const cited = files.flatMap((f) => citations(f, readFileSync(join(ROOT, f), 'utf8')));

  it('finds the citations in code and docs', () => {
    expect(cited.filter((c) => c.title).length).toBeGreaterThan(40);
    expect(new Set(cited.map((c) => c.target))).toEqual(
      new Set(['models/MODEL_CARD.md', 'models/record/standard-dice.md', 'models/record/at-the-table.md', 'models/record/symbol-dice.md']),
    );
  });

  it('every cited file exists and holds the cited section', () => {
    expect(broken(cited, readTarget)).toEqual([]);
  });

  it('reports a title its file does not hold, and a file that does not exist', () => {
    const text = '// read so (models/record/standard-dice.md, "A rule\n * nobody wrote"); see models/record/nowhere.md.';
    expect(broken(citations('x.ts', text), readTarget)).toEqual([
      'x.ts: "A rule nobody wrote" is not in models/record/standard-dice.md',
      'x.ts: models/record/nowhere.md does not exist',
    ]);
  });

  it('keeps the markers model_card.py rewrites the detector part between', () => {
    const card = readTarget('models/MODEL_CARD.md') ?? '';
    const begin = card.indexOf('<!-- detector:begin (models/training/model_card.py rewrites this part) -->');
    expect(begin).toBeGreaterThan(0);
    expect(card.indexOf('<!-- detector:end -->')).toBeGreaterThan(begin);
  });
});
