/**
 * How every command-line script in scripts/ starts and ends, the one way:
 *
 *   const USAGE = 'usage: npm run NAME -- [--json] ...';
 *   async function main(): Promise<number | void> {
 *     const { values } = parseArgs({ args: process.argv.slice(2), options: { ..., help: { type: 'boolean', short: 'h' } } });
 *     if (values.help) throw new HelpRequest(USAGE);
 *     ...
 *   }
 *   runCli('NAME', import.meta.url, main);
 *
 * `runCli` runs `main` only when the file is the entry point (`npx tsx scripts/NAME.ts`), so
 * tests and other scripts can import what it exports. A `HelpRequest` prints the usage to stdout
 * and exits 0. A `UsageError` (a problem the user can fix: a bad option or path) or one of `parseArgs`' own errors (an unknown option, a
 * missing value) prints `NAME: message` (one line for parseArgs' errors), no stack, and exits 2; any other error is printed whole
 * and exits 1. A number returned by `main` is the exit code; nothing returned lets the process
 * end by itself (code 0). Every exit waits for stdout and stderr to be written out first. A
 * script runs in the folder `npm run` was typed in (INIT_CWD), so relative paths are the user's.
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

/** The usage asked for with `--help`: printed to stdout, exit code 0 (not a usage error). */
export class HelpRequest extends Error {
  override name = 'HelpRequest';
}

/** Resolves once everything written to `stream` so far has been handed to the OS. */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((done) => stream.write('', () => done()));
}

/**
 * Exits with `code` once stdout and stderr are written out: `process.exit` straight after a large
 * `console.log` into a pipe (`--json | jq`) drops what the pipe had not taken yet (64 KiB).
 */
async function exitWhenWritten(code: number): Promise<never> {
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
}

/** Runs a script's `main` when its file is the entry point; see the top of this file. */
export function runCli(name: string, moduleUrl: string, main: () => Promise<number | void>): void {
  if (!isEntryPoint(moduleUrl)) return;
  // `npm run` starts every script in the package's root and says in INIT_CWD where it was typed:
  // the paths a user gives are theirs, so every script works from there (its own files are found
  // from REPO_ROOT, never from the working folder)
  const typedIn = process.env.INIT_CWD;
  if (typedIn && typedIn !== process.cwd()) process.chdir(typedIn);
  main().then(
    (code) => {
      if (typeof code === 'number') void exitWhenWritten(code);
    },
    (e: unknown) => {
      if (e instanceof HelpRequest) {
        console.log(e.message);
        void exitWhenWritten(0);
        return;
      }
      if (isUsageError(e)) {
        // parseArgs' own message names the option but not the command line: point to it
        console.error(`${name}: ${e.message}${e instanceof UsageError ? '' : ` (${name} --help gives the usage)`}`);
        void exitWhenWritten(2);
        return;
      }
      console.error(e);
      void exitWhenWritten(1);
    },
  );
}
