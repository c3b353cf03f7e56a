/**
 * npm run replay -- FILE.json     prints the final state of a transcript as JSON
 * npm run replay -- --list        one line per game: id, name, options
 *
 * Exit codes: 0 replayed; 1 an illegal action (its index and the rule it breaks);
 * 2 unreadable or malformed JSON, an unknown game or option, bad usage.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  GAMES,
  optionSpecs,
  parseTranscript,
  replay,
  ReplayError,
  SetupError,
  summarize,
  type OptionSpec,
} from '../src/lib/rules/index.ts';
import { HelpRequest, runCli, UsageError } from './lib/cli.ts';

const USAGE = `usage: npm run replay -- FILE.json     prints the final state of a transcript as JSON
       npm run replay -- --list        one line per game: id, name, options`;

function describeOption(spec: OptionSpec): string {
  switch (spec.kind) {
    case 'boolean':
      return `${spec.key}=${spec.default} (true|false)`;
    case 'number':
      return `${spec.key}=${spec.default} (${spec.min}..${spec.max})`;
    case 'choice':
      return `${spec.key}=${spec.default} (${spec.choices.map((c) => c.value).join('|')})`;
  }
}

/** The exit code: 0 listed, 1 an illegal action; nothing (0) when replayed. */
async function main(): Promise<number | void> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { list: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) throw new HelpRequest(USAGE);
  if (values.list) {
    if (positionals.length) throw new UsageError(USAGE);
    for (const game of GAMES) {
      process.stdout.write(`${game.id}\t${game.name}\t${optionSpecs(game).map(describeOption).join(', ')}\n`);
    }
    return 0;
  }
  const [file, ...rest] = positionals;
  if (file === undefined || rest.length) throw new UsageError(USAGE);

  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
  }

  try {
    const state = replay(parseTranscript(json));
    process.stdout.write(`${JSON.stringify(summarize(state), null, 2)}\n`);
  } catch (error) {
    if (error instanceof ReplayError) {
      process.stderr.write(
        `${file}: action ${error.index} ${JSON.stringify(error.action)} is not allowed: ${error.ruleError.message} [${error.ruleError.code}]\n`,
      );
      return 1;
    }
    if (error instanceof SetupError) throw new UsageError(`${file}: ${error.message}`);
    throw error;
  }
}

runCli('replay', import.meta.url, main);
