import { SetupError } from './errors.ts';
import type { GameDefinition, OptionSpec, Options, OptionValue } from './types.ts';

/** The options every game has, in front of its own. */
function coreOptionSpecs(game: GameDefinition): OptionSpec[] {
  const startChoices =
    game.start.rollOffDice > 0
      ? [
          {
            value: 'roll-off',
            label: `Roll-off: each player throws ${game.start.rollOffDice === 1 ? 'one die' : `${game.start.rollOffDice} dice`}, highest starts (ties throw again)`,
          },
          { value: 'first-listed', label: 'The first listed player starts' },
        ]
      : [
          { value: 'first-listed', label: 'The first listed player starts' },
          { value: 'roll-off', label: 'Roll-off: each player throws one die, highest starts (ties throw again)' },
        ];
  return [
    {
      key: 'ante',
      kind: 'number',
      label: 'Ante per player',
      description: 'What each player pays into the pot when the game starts; the winner takes the pot.',
      default: game.defaultAnte,
      min: 0,
      max: 1_000_000,
      integer: true,
    },
    {
      key: 'startingPlayer',
      kind: 'choice',
      label: 'Who starts',
      description: 'How the first player is chosen.',
      default: game.start.defaultRule,
      choices: startChoices,
    },
  ];
}

/** All option specs of a game: the core ones, then the game's own. */
export function optionSpecs(game: GameDefinition): OptionSpec[] {
  return [...coreOptionSpecs(game), ...game.options];
}

function checkValue(spec: OptionSpec, value: OptionValue): OptionValue {
  switch (spec.kind) {
    case 'boolean':
      if (typeof value !== 'boolean') throw new SetupError(`Option "${spec.key}" must be true or false.`);
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new SetupError(`Option "${spec.key}" must be a number.`);
      }
      if (spec.integer && !Number.isInteger(value)) throw new SetupError(`Option "${spec.key}" must be a whole number.`);
      if (value < spec.min || value > spec.max) {
        throw new SetupError(`Option "${spec.key}" must be between ${spec.min} and ${spec.max}.`);
      }
      return value;
    case 'choice':
      if (typeof value !== 'string' || !spec.choices.some((c) => c.value === value)) {
        throw new SetupError(
          `Option "${spec.key}" must be one of: ${spec.choices.map((c) => c.value).join(', ')}.`,
        );
      }
      return value;
  }
}

/**
 * The complete options of a match: every option of the game with the given value or its
 * default. Unknown keys and invalid values are refused with a SetupError.
 */
export function resolveOptions(game: GameDefinition, given: Record<string, unknown> = {}): Options {
  const specs = optionSpecs(game);
  const known = new Set(specs.map((s) => s.key));
  for (const key of Object.keys(given)) {
    if (!known.has(key)) {
      throw new SetupError(
        `Unknown option "${key}" for ${game.name}. Options: ${specs.map((s) => s.key).join(', ')}.`,
      );
    }
  }
  const options: Options = {};
  for (const spec of specs) {
    const value = given[spec.key];
    options[spec.key] =
      value === undefined ? spec.default : checkValue(spec, value as OptionValue);
  }
  return options;
}

/** Typed readers for a game's own options (resolved options always hold every key). */
export function booleanOption(options: Readonly<Options>, key: string): boolean {
  const value = options[key];
  if (typeof value !== 'boolean') throw new Error(`Option "${key}" is not a resolved boolean.`);
  return value;
}
export function numberOption(options: Readonly<Options>, key: string): number {
  const value = options[key];
  if (typeof value !== 'number') throw new Error(`Option "${key}" is not a resolved number.`);
  return value;
}
export function choiceOption<T extends string>(options: Readonly<Options>, key: string): T {
  const value = options[key];
  if (typeof value !== 'string') throw new Error(`Option "${key}" is not a resolved choice.`);
  return value as T;
}
