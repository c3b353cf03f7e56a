/** Helpers for the CLI tests: run an npm-script's TypeScript entry with tsx, capture output. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const TEST_MODEL = path.join(REPO, 'tests/fixtures/test-model/test-model.onnx');
const TSX = path.join(REPO, 'node_modules/.bin/tsx');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(script: string, args: string[], env: Record<string, string> = {}): CliRun {
  const r = spawnSync(TSX, [path.join(REPO, script), ...args], {
    cwd: REPO,
    encoding: 'utf8',
    // as if `npm run` were typed in the repo's root (scripts read relative paths from INIT_CWD)
    env: { ...process.env, INIT_CWD: REPO, ...env },
    timeout: 300_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
