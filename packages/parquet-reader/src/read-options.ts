/**
 * The options the reader's entry points take, checked before anything is read: a misspelt name or a value outside
 * its set is `INVALID_ARGUMENT` naming it (see `checkOptions` of `@parquetry/thrift-compact`).
 * @module
 */
import { findOptionProblem, type OptionRules } from '@parquetry/thrift-compact';
import { loadFilterCheck } from './optional.js';

/**
 * Checks an options object (see `checkOptions` of `@parquetry/thrift-compact`); the message is built by a lazy part
 * (filter-check.ts), loaded only when an option is wrong.
 * @param options - the caller's options.
 * @param rules - the known options.
 * @param where - names the function, with the package prefix.
 * @param code - the error code.
 * @throws ParquetError `code` for an unknown option or a value its rule rejects.
 */
export async function checkReadOptions(options: unknown, rules: OptionRules, where: string, code = 'INVALID_ARGUMENT'): Promise<void> {
  const problem = findOptionProblem(options, rules);
  if (problem !== undefined) throw (await loadFilterCheck()).optionsError(problem, rules, where, code);
}

const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The limits' names (their values are checked by parquet-column's `checkLimits`, which names the limit). */
const LIMIT_RULES: OptionRules = { maxRows: 'any', maxValues: 'any', maxBytes: 'any' };
/** What `limits` takes, when `v` is not that. */
function limitsExpected(v: unknown): string | undefined {
  return isObject(v) && findOptionProblem(v, LIMIT_RULES) === undefined ? undefined : 'an object of { maxRows, maxValues, maxBytes }';
}

/** `prune`: `true`/`false`, or which stages. */
const PRUNE_RULES: OptionRules = { statistics: 'boolean', dictionary: 'boolean', bloom: 'boolean', pageIndex: 'boolean' };

/** Options of the reading methods (`ReadOptions`: projection, ranges, filter, pruning, limits, value mapping). */
export const READ_RULES: OptionRules = {
  columns: 'any',
  rowGroups: 'array',
  rowStart: 'count',
  rowEnd: 'count',
  maps: ['map', 'object'],
  variants: ['decode', 'raw'],
  binary: ['vector', 'values'],
  filter: 'any',
  prune: (v) => (typeof v === 'boolean' || (isObject(v) && findOptionProblem(v, PRUNE_RULES) === undefined) ? undefined : 'true, false or an object of { statistics, dictionary, bloom, pageIndex }, each true or false'),
  limits: limitsExpected,
  onScan: 'function',
  int64: ['bigint', 'number'],
  timestamps: ['bigint', 'date'],
  dates: ['number', 'date'],
  decimals: ['string', 'number'],
  strings: ['string', 'bytes'],
  values: ['native', 'json'],
  booleans: ['values', 'bits'],
  integers: ['number', 'typed'],
};

/** Options of `iterateBatches`: the reading options and the batch size and form (the sizes are checked by the batch reader). */
export const BATCH_RULES: OptionRules = { ...READ_RULES, batchSize: 'any', batchBytes: 'any', form: ['rows', 'columns'] };

/** Options of `openParquet`. */
export const OPEN_RULES: OptionRules = {
  codecs: 'object',
  tailGuess: 'positive',
  verifyChecksums: 'boolean',
  maxPageValues: 'positive',
  limits: limitsExpected,
  decryption: 'object',
};
