/**
 * `@parquetry/thrift-compact/check-options`: checking an options object and the messages of its errors (what each
 * rule takes, the nearest known name of a misspelt one). A subpath of its own, not re-exported by the main entry, so
 * that a bundle that only finds problems (`findOptionProblem`) loads the messages lazily, when an option is wrong.
 *
 * ```ts
 * import { checkOptions } from '@parquetry/thrift-compact/check-options';
 * checkOptions({ pageSise: 10 }, { pageSize: 'positive' }, 'my-lib: write', 'INVALID_OPTION');
 * // throws: my-lib: write: unknown option 'pageSise' (did you mean 'pageSize'?); it takes pageSize
 * ```
 * @module
 */
import { ParquetError } from './errors.js';
import { findOptionProblem, type OptionProblem, type OptionRules } from './options.js';

const TAKES: Record<string, string> = {
  boolean: 'true or false',
  string: 'a string',
  function: 'a function',
  object: 'an object',
  array: 'an array',
  count: 'an integer ≥ 0',
  positive: 'an integer ≥ 1',
  limit: 'a number > 0 (Infinity for no limit)',
};

/**
 * Checks an options object: every own key must be a known option and every value other than `undefined` must pass
 * its rule.
 * @param options - the caller's options (`undefined` passes).
 * @param rules - the known options.
 * @param where - names the function in messages, with the package prefix (`parquet-reader: readRows`).
 * @param code - the error code (default `INVALID_ARGUMENT`; the writer's options use `INVALID_OPTION`).
 * @throws ParquetError `code` for options that are not an object, an unknown option (naming the nearest known one),
 *   or a value its rule rejects (naming what it takes and what was given).
 */
export function checkOptions(options: unknown, rules: OptionRules, where: string, code = 'INVALID_ARGUMENT'): void {
  const problem = findOptionProblem(options, rules);
  if (problem !== undefined) throw optionsError(problem, rules, where, code);
}

/**
 * The error of an options problem.
 * @param problem - what {@link findOptionProblem} found.
 * @param rules - the known options.
 * @param where - names the function, with the package prefix (`parquet-reader: openParquet`).
 * @param code - the error code (default `INVALID_ARGUMENT`).
 * @returns a ParquetError naming the option, what it takes and what was given (or the nearest known name).
 */
export function optionsError(problem: OptionProblem, rules: OptionRules, where: string, code = 'INVALID_ARGUMENT'): ParquetError {
  const { name, value } = problem;
  if (name === undefined) return new ParquetError(code, `${where}: options must be an object, got ${describeValue(value)}`);
  const names = Object.keys(rules);
  if (problem.unknown === true) {
    const near = nearestName(name, names);
    return new ParquetError(code, `${where}: unknown option '${name}'${near === undefined ? '' : ` (did you mean '${near}'?)`}; it takes ${names.join(', ')}`);
  }
  const rule = rules[name]!;
  const expected = problem.expected ?? (Array.isArray(rule) ? `one of ${rule.map((v) => (typeof v === 'string' ? `'${v}'` : String(v))).join(', ')}` : TAKES[rule as string]);
  return new ParquetError(code, `${where}: option '${name}' must be ${expected}, got ${describeValue(value)}`);
}

/**
 * A value as a message shows it: strings quoted, short, objects by kind.
 * @param v - the value.
 * @returns its description.
 */
export function describeValue(v: unknown): string {
  if (typeof v === 'string') return `'${v.length > 40 ? `${v.slice(0, 40)}…` : v}'`;
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'function') return 'a function';
  if (Array.isArray(v)) return 'an array';
  if (v !== null && typeof v === 'object') return v instanceof Date ? 'a Date' : 'an object';
  return String(v);
}

/**
 * The known name nearest to a misspelt one: the fewest edits (insertions, deletions, substitutions, case ignored), at
 * most a third of the name's length (and 1 for short names); a known name that contains it or that it contains (3
 * characters or more) is near at any distance and wins over one edit.
 * @param name - the misspelt name.
 * @param known - the names to choose from.
 * @returns the nearest name, or `undefined` when none is near.
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestScore = Math.max(1, Math.floor(lower.length / 3)) + 0.5;
  for (const k of known) {
    const kl = k.toLowerCase();
    const d = editDistance(lower, kl);
    // one holding the other (dataPageSize / pageSize, bloom / bloomFilter) is near whatever the lengths
    const score = Math.min(lower.length, kl.length) >= 3 && (kl.includes(lower) || lower.includes(kl)) ? Math.min(d, 1) - 0.25 : d;
    if (score < bestScore) {
      bestScore = score;
      best = k;
    }
  }
  return best;
}

/**
 * Levenshtein distance.
 * @param a - one string.
 * @param b - the other.
 * @returns the fewest single-character insertions, deletions and substitutions turning `a` into `b`.
 */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}
