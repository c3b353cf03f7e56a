/**
 * Every command-line script in scripts/ starts and ends the one way (scripts/lib/cli.ts `runCli`):
 * `--help` and `-h` print its usage on stdout and exit 0, before any heavy work; an unknown
 * option is one line `NAME: message`, no stack, exit 2; output piped on is never cut short.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isUsageError, UsageError } from '../../scripts/lib/cli.ts';

const root = new URL('../../', import.meta.url).pathname;
const tsx = join(root, 'node_modules', '.bin', 'tsx');

const SCRIPTS = [
  'bench',
  'choose-blur-hint',
  'choose-die-face-rule',
  'choose-face-crop',
  'choose-symbol-rule',
  'choose-unsure-read',
  'dump-reads',
  'eval',
  'eval-live',
  'eval-symbol-sets',
  'kit-art-png',
  'make-icons',
  'make-symbol-eval',
  'read-dice',
  'replay',
  'screenshots',
  'y4m',
];

/** What a script's usage names: `npm run NAME` when package.json runs the script, else its path. */
function command(script: string): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const npm = Object.entries(pkg.scripts).find(([, cmd]) => cmd === `tsx scripts/${script}.ts`)?.[0];
  return npm ? `npm run ${npm}` : `scripts/${script}.ts`;
}

type Run = { script: string; args: string[]; code: number; stdout: string; stderr: string };

function run(script: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    // as if `npm run` were typed in the repo's root (runCli works in INIT_CWD)
    execFile(tsx, [join(root, 'scripts', `${script}.ts`), ...args], { cwd: root, timeout: 60_000, env: { ...process.env, INIT_CWD: root } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ script, args, code, stdout, stderr });
    });
  });
}

/** Runs the jobs a few at a time (each is a tsx start, about half a second of CPU). */
async function pooled<T>(jobs: Array<() => Promise<T>>, width = Math.max(2, Math.min(6, cpus().length))): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return out;
}

describe('command-line scripts', () => {
  it('lists every script in scripts/', () => {
    const found = readdirSync(join(root, 'scripts')).filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\.ts$/, ''));
    expect(SCRIPTS).toEqual([...found].sort());
  });

  it('each takes -h for --help and starts through runCli', () => {
    for (const s of SCRIPTS) {
      const source = readFileSync(join(root, 'scripts', `${s}.ts`), 'utf8');
      expect(source, s).toMatch(/help: \{ type: 'boolean', short: 'h' \}/);
      expect(source, s).toContain(`runCli('${s}', import.meta.url, main);`);
    }
  });

  it('--help gives the usage (stdout, exit 0); an unknown option one line, no stack (exit 2)', { timeout: 120_000 }, async () => {
    // -h is checked on one script here (a tsx start each), on every script by its source above
    const runs = await pooled([...SCRIPTS.flatMap((s) => [() => run(s, ['--help']), () => run(s, ['--no-such-option'])]), () => run('replay', ['-h'])]);
    const h = runs.find((r) => r.args[0] === '-h')!;
    expect(h.code).toBe(0);
    expect(h.stdout).toBe(runs.find((r) => r.script === 'replay' && r.args[0] === '--help')!.stdout);
    for (const s of SCRIPTS) {
      const [help, bad] = runs.filter((r) => r.script === s && r.args[0] !== '-h');
      expect(help!.code, `${s} --help: ${help!.stderr}`).toBe(0);
      expect(help!.stderr, `${s} --help`).toBe('');
      expect(help!.stdout, `${s} --help`).toMatch(/^usage: /);
      expect(help!.stdout, `${s} --help`).toContain(command(s));

      expect(bad!.code, `${s} --no-such-option: ${bad!.stderr}`).toBe(2);
      expect(bad!.stdout, `${s} --no-such-option`).toBe('');
      expect(bad!.stderr.trimEnd().split('\n'), `${s} --no-such-option`).toHaveLength(1);
      expect(bad!.stderr, `${s} --no-such-option`).toMatch(new RegExp(`^${s}: .*--no-such-option.*--help`));
    }
  });

  it('writes all its output into a pipe before it exits (200 KiB of --json, where 64 KiB came through before)', { timeout: 60_000 }, async () => {
    const r = await new Promise<Run>((done) => {
      execFile(tsx, [join(root, 'tests', 'scripts', 'fixtures', 'big-output.ts')], { cwd: root, timeout: 60_000, maxBuffer: 4 << 20 }, (error, stdout, stderr) => {
        done({ script: 'big-output', args: [], code: error ? -1 : 0, stdout, stderr });
      });
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(20_000);
  });

  it('works in the folder npm run was typed in (INIT_CWD), so the paths a user gives are theirs', { timeout: 60_000 }, async () => {
    const where = (env: Record<string, string | undefined>) =>
      new Promise<string>((done) => {
        execFile(tsx, [join(root, 'tests', 'scripts', 'fixtures', 'where.ts')], { cwd: root, env: { ...process.env, ...env } }, (_error, stdout) => done(stdout.trim()));
      });
    expect(await where({ INIT_CWD: tmpdir() })).toBe(realpathSync(tmpdir()));
    expect(await where({ INIT_CWD: root })).toBe(realpathSync(root).replace(/\/$/, ''));
  });
});

describe('choose-die-face-rule', () => {
  it('refuses a val split as a selection set (exit 2), before reading any photo', { timeout: 60_000 }, async () => {
    const r = await run('choose-die-face-rule', ['--also', 'cache/pip-eval/pips-1', '--also', '../shared/data/dice-photos/epanemu-val/']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^choose-die-face-rule: \.\.\/shared\/data\/dice-photos\/epanemu-val\/: rules are never chosen on a val split\n/);
  });

  it('chooses one rule alone only where it can: --only weak-dice, nothing else (exit 2)', { timeout: 60_000 }, async () => {
    const r = await run('choose-die-face-rule', ['--only', 'first-pass']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^choose-die-face-rule: --only: first-pass\? \(weak-dice is the one rule chosen alone\)\n/);
  });
});

describe('make-symbol-eval', () => {
  it('numbers pip sets only: --first without --pips is refused (exit 2), before a browser starts', { timeout: 60_000 }, async () => {
    const r = await run('make-symbol-eval', ['--first', '25']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^make-symbol-eval: --first numbers pip sets only \(npm run make-pip-eval\)\n/);
  });

  it('sizes pip rolls by --dice MIN-MAX: a range upside down, or --dice without --pips, is refused (exit 2)', { timeout: 60_000 }, async () => {
    const [upside, symbols] = await Promise.all([run('make-symbol-eval', ['--pips', '--dice', '24-13']), run('make-symbol-eval', ['--dice', '13-24'])]);
    for (const r of [upside, symbols]) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect(upside.stderr).toMatch(/^make-symbol-eval: --dice must be MIN-MAX with 1 ≤ MIN ≤ MAX ≤ 40, got "24-13"\n/);
    expect(symbols.stderr).toMatch(/^make-symbol-eval: --dice sizes pip rolls only \(npm run make-pip-eval\)\n/);
  });
});

describe('isUsageError', () => {
  it("is a UsageError or parseArgs' refusal, nothing else", () => {
    let parseError: unknown;
    try {
      parseArgs({ args: ['--nope'], options: {} });
    } catch (e) {
      parseError = e;
    }
    expect(isUsageError(parseError)).toBe(true);
    expect(isUsageError(new UsageError('bad path'))).toBe(true);
    expect(isUsageError(new TypeError('x is undefined'))).toBe(false);
    expect(isUsageError(Object.assign(new Error('gone'), { code: 'ENOENT' }))).toBe(false);
    expect(isUsageError(null)).toBe(false);
    expect(isUsageError('ERR_PARSE_ARGS_UNKNOWN_OPTION')).toBe(false);
  });
});
