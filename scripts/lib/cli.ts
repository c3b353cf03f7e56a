/**
 * How every command-line script in scripts/ starts and ends, the one way:
 *
 *   const USAGE = 'usage: npm run NAME -- [--json] ...';
 *   async function main(): Promise<number | void> {
 *     const { values } = parseArgs({ args: process.argv.slice(2), options: { ..., help: { type: 'boolean', short: 'h' } } });
 *     if (values.help) throw new UsageError(USAGE);
 *     ...
 *   }
 *   runCli('NAME', import.meta.url, main);
 *
 * `runCli` runs `main` only when the file is the entry point (`npx tsx scripts/NAME.ts`), so
 * tests and other scripts can import what it exports. A `UsageError` (a problem the user can
 * fix: `--help`, a bad option or path) or one of `parseArgs`' own errors (an unknown option, a
 * missing value) prints `NAME: message` (one line for parseArgs' errors), no stack, and exits 2; any other error is printed whole
 * and exits 1. A number returned by `main` is the exit code; nothing returned lets the process
 * end by itself (code 0).
 *
 * This file imports nothing heavy: `--help` answers before any model or browser is loaded.
 */
import { pathToFileURL } from 'node:url';

/** A problem the user can fix (bad option, bad path, bad file): printed as one line, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A `UsageError`, or node's `parseArgs` refusing the command line (`ERR_PARSE_ARGS_*`). */
export function isUsageError(e: unknown): e is Error {
  if (e instanceof UsageError) return true;
  const code = (e as { code?: unknown } | null)?.code;
  return e instanceof Error && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

/** Whether the module at `moduleUrl` (its `import.meta.url`) is the script node was started with. */
export function isEntryPoint(moduleUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && moduleUrl === pathToFileURL(entry).href;
}

/** Runs a script's `main` when its file is the entry point; see the top of this file. */
export function runCli(name: string, moduleUrl: string, main: () => Promise<number | void>): void {
  if (!isEntryPoint(moduleUrl)) return;
  main().then(
    (code) => {
      if (typeof code === 'number') process.exit(code);
    },
    (e: unknown) => {
      if (isUsageError(e)) {
        // parseArgs' own message names the option but not the command line: point to it
        console.error(`${name}: ${e.message}${e instanceof UsageError ? '' : ` (${name} --help gives the usage)`}`);
        process.exit(2);
      }
      console.error(e);
      process.exit(1);
    },
  );
}
