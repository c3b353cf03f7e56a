/**
 * npm run replay -- FILE.json     prints the final state of a transcript as JSON
 * npm run replay -- --list        one line per game: id, name, options
 *
 * Exit codes: 0 replayed; 1 an illegal action (its index and the rule it breaks);
 * 2 unreadable or malformed JSON, an unknown game or option, bad usage.
 */
import { readFileSync } from 'node:fs';
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

function fail(code: number, message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--list') {
  for (const game of GAMES) {
    process.stdout.write(`${game.id}\t${game.name}\t${optionSpecs(game).map(describeOption).join(', ')}\n`);
  }
  process.exit(0);
}
const file = args[0];
if (args.length !== 1 || file === undefined || file.startsWith('--')) {
  fail(2, 'Usage: npm run replay -- FILE.json | --list');
}

let text = '';
try {
  text = readFileSync(file, 'utf8');
} catch (error) {
  fail(2, `Cannot read ${file}: ${(error as Error).message}`);
}
let json: unknown;
try {
  json = JSON.parse(text);
} catch (error) {
  fail(2, `${file} is not valid JSON: ${(error as Error).message}`);
}

try {
  const state = replay(parseTranscript(json));
  process.stdout.write(`${JSON.stringify(summarize(state), null, 2)}\n`);
} catch (error) {
  if (error instanceof ReplayError) {
    fail(
      1,
      `${file}: action ${error.index} ${JSON.stringify(error.action)} is not allowed: ${error.ruleError.message} [${error.ruleError.code}]`,
    );
  }
  if (error instanceof SetupError) fail(2, `${file}: ${error.message}`);
  throw error;
}
