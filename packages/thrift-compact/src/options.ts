/**
 * Checking an options object against the names and values a function takes, shared by every package's public
 * entry points: a misspelt option name (`limt`, `dataPageSize`) or a value outside its set (`timestamps: 'Date'`) is
 * a `ParquetError` naming the option, what it takes and the nearest known name, instead of being ignored.
 * @module
 */
/**
 * How one option's value is checked (`undefined` always passes, as an absent option):
 * - an array: the values it may take (`['bigint', 'date']`);
 * - `'boolean'`, `'string'`, `'function'`, `'object'` (a non-null, non-array object), `'array'`;
 * - `'count'`: an integer ≥ 0; `'positive'`: an integer ≥ 1; `'limit'`: a number > 0, `Infinity` included;
 * - `'any'`: not checked here (the caller checks it);
 * - a function: returns what the option takes (for the message) when the value is wrong, `undefined` when right.
 */
export type OptionRule =
  | readonly (string | number | boolean)[]
  | 'boolean'
  | 'string'
  | 'function'
  | 'object'
  | 'array'
  | 'count'
  | 'positive'
  | 'limit'
  | 'any'
  | ((value: unknown) => string | undefined);

/** The options a function takes: each name with its rule. */
export type OptionRules = Readonly<Record<string, OptionRule>>;

const KINDS: Record<string, (v: unknown) => boolean> = {
  boolean: (v) => typeof v === 'boolean',
  string: (v) => typeof v === 'string',
  function: (v) => typeof v === 'function',
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  array: (v) => Array.isArray(v),
  count: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  positive: (v) => Number.isSafeInteger(v) && (v as number) >= 1,
  limit: (v) => typeof v === 'number' && v > 0,
  any: () => true,
};

/**
 * What is wrong with an options object (see {@link findOptionProblem}): not an object (`name` undefined), an unknown
 * option (`unknown`), or a value its rule rejects (`expected`: what a function rule said it takes).
 */
export interface OptionProblem {
  /** The option at fault; undefined when the options are not an object. */
  readonly name?: string;
  /** The name is not an option. */
  readonly unknown?: boolean;
  /** The value given (the options themselves when they are not an object). */
  readonly value: unknown;
  /** What a function rule said the option takes. */
  readonly expected?: string;
}

/**
 * Finds the first problem of an options object without building a message (the message is
 * `optionsError`'s, in a module of its own so that a bundle may load it only on an error).
 * @param options - the caller's options (`undefined` passes).
 * @param rules - the known options.
 * @returns the problem, or `undefined` when the options are right.
 */
export function findOptionProblem(options: unknown, rules: OptionRules): OptionProblem | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return { value: options };
  for (const name of Object.keys(options)) {
    const value = (options as Record<string, unknown>)[name];
    const rule = Object.prototype.hasOwnProperty.call(rules, name) ? rules[name] : undefined;
    if (rule === undefined) return { name, unknown: true, value };
    if (value === undefined) continue;
    if (typeof rule === 'function') {
      const expected = rule(value);
      if (expected !== undefined) return { name, value, expected };
    } else if (typeof rule === 'string' ? !KINDS[rule]!(value) : !rule.includes(value as string)) return { name, value };
  }
  return undefined;
}
