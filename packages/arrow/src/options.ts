/**
 * The options each entry point of the package takes, checked before anything is read or written: a misspelt name or
 * a value outside its set is a `ParquetError` naming the option, the nearest known name and the entry point's own
 * list (`checkOptions` of `@parquetry/thrift-compact/check-options`). Each rule is taken from the table of the
 * package the option is passed to (the reader's, the dataset's, the writer's), so that the two cannot drift.
 * @module
 */
import type { OptionRule, OptionRules } from '@parquetry/thrift-compact';
import { batchOptionRules } from '@parquetry/parquet-reader';
import { writerOptionRules } from '@parquetry/parquet-writer';
import { datasetBatchOptionRules, writeDatasetOptionRules } from '@parquetry/parquet-dataset';

/** The rules of `names` in `rules`. */
function pick(rules: OptionRules, ...names: string[]): OptionRules {
  return Object.fromEntries(names.map((n) => [n, rules[n]!]));
}

/** `rules` without the options named in `drop`. */
function without(rules: OptionRules, ...drop: string[]): OptionRules {
  return Object.fromEntries(Object.entries(rules).filter(([name]) => !drop.includes(name)));
}

/** `dictionary`: every BYTE_ARRAY leaf, none, or the columns listed. */
const dictionary: OptionRule = (v) => (typeof v === 'boolean' || Array.isArray(v) ? undefined : 'true, false or an array of column paths');

/** An Arrow `Schema` (by shape: another copy of `apache-arrow` makes another class). */
const arrowSchema: OptionRule = (v) => (typeof v === 'object' && v !== null && Array.isArray((v as { fields?: unknown }).fields) ? undefined : 'an Arrow Schema');

/** `arrowSchemaOf` (`ArrowSchemaOptions`). */
export const SCHEMA_RULES: OptionRules = { ...pick(batchOptionRules, 'columns'), dictionary, arrowSchema: 'boolean' };

/** `readArrowTable` and `readArrowBatches` (`ArrowReadOptions`): the reader's options they pass on. */
export const READ_RULES: OptionRules = { ...SCHEMA_RULES, ...pick(batchOptionRules, 'rowGroups', 'rowStart', 'rowEnd', 'filter', 'prune', 'onScan', 'batchSize', 'batchBytes') };

/** `arrowSchemaOfDataset`. */
export const DATASET_SCHEMA_RULES: OptionRules = { ...pick(datasetBatchOptionRules, 'columns'), dictionary, arrowSchema: 'boolean' };

/** `readDatasetArrowTable` and `readDatasetArrowBatches` (`ArrowDatasetReadOptions`): the dataset's options they pass on. */
export const DATASET_READ_RULES: OptionRules = { ...DATASET_SCHEMA_RULES, ...pick(datasetBatchOptionRules, 'filter', 'prune', 'batchSize', 'onScan') };

/** `writeArrowTable` (`ArrowWriteOptions`): the writer's but `schema` (an Arrow schema here), `infer` and `append`. */
export const WRITE_RULES: OptionRules = { ...without(writerOptionRules, 'infer', 'append'), arrowSchema: 'boolean', schema: arrowSchema };

/** `writeArrowDataset` (`ArrowDatasetWriteOptions`): the dataset writer's but `schema` (an Arrow schema here) and `infer`. */
export const DATASET_WRITE_RULES: OptionRules = { ...without(writeDatasetOptionRules, 'infer'), arrowSchema: 'boolean', schema: arrowSchema };
