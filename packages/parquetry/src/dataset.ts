/**
 * Datasets of many Parquet files (`@parquetry/parquet-dataset`) with every codec preset: hive partitions, schema
 * evolution, `_metadata` summaries, pruning by partition values and footer statistics.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (each file; `file_path` in summaries).
 * @module
 */
import {
  datasetOptionRules,
  writeDatasetOptionRules,
  openDataset as openWith,
  writeDataset as writeWith,
  type Dataset,
  type DatasetData,
  type DatasetInput,
  type DatasetOptions,
  type DatasetStore,
  type WritableDatasetStore,
  type WriteDatasetOptions,
  type WriteDatasetResult,
} from '@parquetry/parquet-dataset';
import { checkOptions } from '@parquetry/thrift-compact/check-options';
import { readCodecs, writerCodecs } from './presets.js';

/**
 * Opens a dataset with every codec preset ({@link readCodecs}, loaded on first use): `@parquetry/parquet-dataset`'s `openDataset` without
 * having to pass `codecs`.
 * @param input - a store (`memoryStore`, `urlStore`), or the files (URLs, or `{ path, source }`).
 * @param options - partitioning, schema, summary, concurrency and reader options; `codecs` defaults to every codec.
 * @returns the dataset.
 * @throws ParquetError `INVALID_ARGUMENT` for an option it does not take (naming the nearest one and its list) or a
 *   value outside its set, before the store is listed; and as `@parquetry/parquet-dataset`'s `openDataset`
 *   (`NO_FILES`, `SCHEMA_MISMATCH`, …).
 */
export async function openDataset(input: DatasetStore | readonly DatasetInput[], options: DatasetOptions = {}): Promise<Dataset> {
  checkOptions(options, datasetOptionRules, 'parquetry: openDataset');
  return openWith(input, { ...options, codecs: options.codecs ?? readCodecs() });
}

/**
 * Writes a dataset with every codec preset: `@parquetry/parquet-dataset`'s `writeDataset` without having to pass
 * `codecs` for the compression chosen.
 * @param data - rows or columns (partition columns included).
 * @param store - where the files go (`memoryStore`, or `parquetry/node`'s `writeDataset` for a directory).
 * @param options - partitioning, rolling, summary and writer options; `codecs` defaults to every codec.
 * @returns the files written.
 * @throws ParquetError `INVALID_OPTION` for an option it does not take (naming the nearest one and its list) or a value
 *   outside its set, before any codec is loaded; and as `@parquetry/parquet-dataset`'s `writeDataset`.
 */
export async function writeDataset(data: DatasetData, store: WritableDatasetStore, options: WriteDatasetOptions = {}): Promise<WriteDatasetResult> {
  checkOptions(options, writeDatasetOptionRules, 'parquetry: writeDataset', 'INVALID_OPTION');
  return writeWith(data, store, { ...options, codecs: await writerCodecs(options.codecs, options) });
}
