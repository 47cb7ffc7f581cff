/**
 * Datasets in local directories with every codec preset: `@parquetry/parquet-dataset/node`'s `openDataset` and
 * `writeDataset` (a directory path, a list of local paths and URLs, or a store) without having to pass `codecs`.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (each file; `file_path` in summaries).
 * @module
 */
import { datasetOptionRules, writeDatasetOptionRules, type Dataset, type DatasetData, type DatasetInput, type DatasetOptions, type DatasetStore, type WritableDatasetStore, type WriteDatasetOptions, type WriteDatasetResult } from '@parquetry/parquet-dataset';
import { openDataset as openWith, writeDataset as writeWith } from '@parquetry/parquet-dataset/node';
import { checkOptions } from '@parquetry/thrift-compact/check-options';
import { readCodecs, writerCodecs } from '../presets.js';

/**
 * Opens a dataset (a directory, local paths, URLs, or a store) with every codec preset.
 * @param input - a directory path, the files, or a store.
 * @param options - as `@parquetry/parquet-dataset`'s `openDataset`; `codecs` defaults to every codec.
 * @returns the dataset.
 * @throws ParquetError `INVALID_ARGUMENT` for an option it does not take (naming the nearest one and its list) or a
 *   value outside its set, before any file is looked at; and as `@parquetry/parquet-dataset/node`'s `openDataset`.
 */
export async function openDataset(input: string | DatasetStore | readonly (string | DatasetInput)[], options: DatasetOptions = {}): Promise<Dataset> {
  checkOptions(options, datasetOptionRules, 'parquetry: openDataset');
  return openWith(input, { ...options, codecs: options.codecs ?? readCodecs() });
}

/**
 * Writes a dataset into a local directory (or a writable store) with every codec preset.
 * @param data - rows or columns (partition columns included).
 * @param target - a directory path, or a writable store.
 * @param options - as `@parquetry/parquet-dataset`'s `writeDataset`; `codecs` defaults to every codec.
 * @returns the files written.
 * @throws ParquetError `INVALID_OPTION` for an option it does not take (naming the nearest one and its list) or a value
 *   outside its set, before any codec is loaded; and as `@parquetry/parquet-dataset/node`'s `writeDataset`.
 */
export async function writeDataset(data: DatasetData, target: string | WritableDatasetStore, options: WriteDatasetOptions = {}): Promise<WriteDatasetResult> {
  checkOptions(options, writeDatasetOptionRules, 'parquetry: writeDataset', 'INVALID_OPTION');
  return writeWith(data, target, { ...options, codecs: await writerCodecs(options.codecs, options) });
}
