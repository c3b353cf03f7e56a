/**
 * The replay CLI as a player or CI script meets it: `npm run replay -- FILE.json` prints the
 * final state and exits 0; an illegal action exits 1 naming its index and rule; malformed JSON,
 * an unknown game or option exits 2; `--list` names every game with its options.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GAMES } from '../../src/lib/rules/index.ts';

const root = new URL('../../', import.meta.url).pathname;
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const dir = mkdtempSync(join(tmpdir(), 'rollcall-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Run = { code: number; stdout: string; stderr: string };

function replayCli(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(tsx, [join(root, 'scripts', 'replay.ts'), ...args], { cwd: root, env: { ...process.env, INIT_CWD: root } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const game = {
  game: 'point-five',
  players: ['Ann', 'Bob'],
  options: { ante: 2 },
  actions: [
    { type: 'roll', dice: [5] },
    { type: 'call' },
  ],
};

describe('npm run replay', () => {
  it('exit codes, output and messages', { timeout: 60_000 }, async () => {
    const [ok, illegal, malformed, unknownGame, unknownOption, badValue, list, usage, missing] = await Promise.all([
      replayCli(file('ok.json', game)),
      replayCli(file('illegal.json', { ...game, actions: [...game.actions, { type: 'call' }] })),
      replayCli(file('malformed.json', '{ "game": "point-five", ')),
      replayCli(file('unknown-game.json', { ...game, game: 'yahtzee' })),
      replayCli(file('unknown-option.json', { ...game, options: { jokers: true } })),
      replayCli(file('bad-value.json', { ...game, options: { targetScore: 'lots' } })),
      replayCli('--list'),
      replayCli(),
      replayCli(join(dir, 'no-such-file.json')),
    ]);

    expect(ok.code).toBe(0);
    const summary = JSON.parse(ok.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ game: 'point-five', scores: { Ann: 3, Bob: 0 }, current: 'Bob', pot: 4 });

    expect(illegal.code).toBe(1);
    expect(illegal.stderr).toMatch(/action 2 .*Throw the die before calling.*\[nothing-to-call\]/);
    expect(illegal.stdout).toBe('');

    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/not valid JSON/);
    expect(unknownGame.code).toBe(2);
    expect(unknownGame.stderr).toMatch(/Unknown game "yahtzee"/);
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toMatch(/Unknown option "jokers"/);
    expect(badValue.code).toBe(2);
    expect(badValue.stderr).toMatch(/"targetScore" must be a number/);
    expect(usage.code).toBe(2);
    expect(missing.code).toBe(2);

    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines.map((l) => l.split('\t')[0])).toEqual(GAMES.map((g) => g.id));
    expect(lines[0]).toMatch(/ante=1 .*startingPlayer=first-listed .*targetScore=100/);
  });
});
