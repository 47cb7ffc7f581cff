/**
 * The options each entry point of the package takes, checked before anything is listed, fetched or written: a
 * misspelt name or a value outside its set is a `ParquetError` naming the option, the nearest known name and the
 * entry point's own list (`checkOptions` of `@parquetry/thrift-compact/check-options`). The lists are built from the
 * reader's and the writer's own tables (`openOptionRules`, `readOptionRules`, `batchOptionRules`, `writerOptionRules`),
 * so that an option added there is taken here too.
 * @module
 */
import type { OptionRule, OptionRules } from '@parquetry/thrift-compact';
import { batchOptionRules, openOptionRules, readOptionRules } from '@parquetry/parquet-reader';
import { writerOptionRules } from '@parquetry/parquet-writer';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `rules` without the options named in `drop`. */
function without(rules: OptionRules, ...drop: string[]): OptionRules {
  return Object.fromEntries(Object.entries(rules).filter(([name]) => !drop.includes(name)));
}

const PARTITION_TYPES = ['int32', 'int64', 'double', 'boolean', 'date', 'string'];

/** `partitioning`: `'hive'`, `false`, or `{ types }` with a partition type per key. */
const partitioning: OptionRule = (v) => {
  const takes = `'hive', false or { types } (a type per key: ${PARTITION_TYPES.join(', ')})`;
  if (v === 'hive' || v === false) return undefined;
  if (!isObject(v) || Object.keys(v).some((k) => k !== 'types') || !isObject(v.types)) return takes;
  return Object.values(v.types).every((t) => PARTITION_TYPES.includes(t as string)) ? undefined : takes;
};

/** `schema`: `'union'`, `'first'`, a `SchemaElement` list or a reader schema tree. */
const schema: OptionRule = (v) => (v === 'union' || v === 'first' || Array.isArray(v) || (isObject(v) && Array.isArray(v.elements)) ? undefined : "'union', 'first', a SchemaElement list or a schema tree");

/** Rows per batch: an integer ≥ 1, or `Infinity` (a batch per row group). */
const batchSize: OptionRule = (v) => (v === Infinity || (Number.isSafeInteger(v) && (v as number) >= 1) ? undefined : 'an integer ≥ 1 or Infinity');

/**
 * Options of `openDataset` (`DatasetOptions`): the reader's `openParquet` options (`openOptionRules` of
 * `@parquetry/parquet-reader`) and `partitioning`, `schema`, `summary`, `concurrency`.
 */
export const datasetOptionRules: OptionRules = {
  ...openOptionRules,
  partitioning,
  schema,
  summary: 'boolean',
  concurrency: 'positive',
};

/**
 * Options of a dataset's `readRows` and `iterateRowGroups` (`DatasetReadOptions`): the reader's reading options
 * (`readOptionRules` of `@parquetry/parquet-reader`) but `rowGroups` (row groups are a file's; `rowStart`/`rowEnd`
 * are counted over the dataset).
 */
export const datasetReadOptionRules: OptionRules = without(readOptionRules, 'rowGroups');

/**
 * Options of a dataset's `iterateBatches` (`DatasetBatchOptions`): {@link datasetReadOptionRules}, `batchSize` and
 * `form` (from `batchOptionRules` of `@parquetry/parquet-reader`; its `batchBytes` is not taken).
 */
export const datasetBatchOptionRules: OptionRules = { ...without(batchOptionRules, 'rowGroups', 'batchBytes'), batchSize };

/**
 * Options of `writeDataset` (`WriteDatasetOptions`): the writer's options (`writerOptionRules` of
 * `@parquetry/parquet-writer`) but `append` and `encryption`, and `partitionBy`, `maxRowsPerFile`, `maxBytesPerFile`,
 * `summary`, `basename`, `existing`.
 */
export const writeDatasetOptionRules: OptionRules = {
  ...without(writerOptionRules, 'append', 'encryption'),
  partitionBy: (v) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? undefined : 'an array of top-level column names'),
  maxRowsPerFile: 'positive',
  maxBytesPerFile: 'positive',
  summary: 'boolean',
  basename: 'string',
  existing: ['error', 'add'],
};
