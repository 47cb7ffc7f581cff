/**
 * `@parquetry/parquet-dataset` — datasets of many Parquet files read and written as one table.
 *
 * ```ts
 * import { openDataset, urlStore } from '@parquetry/parquet-dataset';
 * const ds = await openDataset(urlStore('https://example.com/sales/'), { codecs });   // one request with a _metadata
 * const rows = await ds.readRows({ filter: { column: 'year', op: '=', value: 2024 }, onScan: console.log });
 * ```
 *
 * - {@link openDataset}: files from a store's listing, a `_metadata` summary or a list; hive partition columns
 *   ({@link parseHivePath}); one schema under documented evolution rules ({@link unifySchemas}); partition pruning
 *   before any fetch, file pruning by footer statistics, then the reader's pipeline; {@link DatasetScanStats}.
 * - {@link writeDataset}: rows or columns into `key=value/` folders, files rolled by rows or bytes, optional
 *   `_metadata` / `_common_metadata` summaries ({@link buildSummary}, {@link encodeSummary}).
 * - Stores: {@link memoryStore}, {@link urlStore}; a local directory in `@parquetry/parquet-dataset/node`.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (files; `file_path` in summaries).
 * @packageDocumentation
 */
export {
  openDataset,
  emptyDatasetStats,
  addDatasetStats,
  type Dataset,
  type DatasetOptions,
  type DatasetFile,
  type DatasetInput,
  type DatasetReadOptions,
  type DatasetBatchOptions,
  type DatasetRowBatch,
  type DatasetColumnBatch,
  type DatasetScanStats,
  type FetchCounts,
  type Partitioning,
  type SummaryIgnored,
} from './dataset.js';
export { memoryStore, urlStore, type DatasetStore, type WritableDatasetStore, type MemoryStore, type StoreEntry, type UrlStoreOptions } from './store.js';
export { HIVE_NULL, parseHivePath, inferPartitionType, partitionValue, jsonPartitionValue, formatPartitionValue, partitionFormatOf, formatDate, partitionElement, type PartitionFormat, type PartitionType, type PartitionSegment, type PartitionField } from './hive.js';
export { unifySchemas, mapColumns, describeType, withPartitions, type ColumnMapping, type Widening } from './schema.js';
export { partialFilter, topOf, type Residual } from './filter.js';
export { METADATA_FILE, COMMON_METADATA_FILE, encodeSummary, decodeSummary, summaryFiles, fileMetadataOf, dataEndOf, minFileSizeOf, footerServedSource, buildSummary, commonMetadata } from './summary.js';
export { nullVector, constantVector, widenVector, type VectorOptions } from './vectors.js';
export { mapLimit, orderedAhead } from './pool.js';
export { datasetOptionRules, datasetReadOptionRules, datasetBatchOptionRules, writeDatasetOptionRules } from './options.js';
export { writeDataset, type WriteDatasetOptions, type WriteDatasetResult, type WrittenFile, type DatasetData, type ColumnBatches } from './write.js';
export { takeVector, slotValue } from './take.js';
// the reader's own sums, re-exported: a dataset read's `reads` adds each file's ScanStats
export { emptyScanStats, addScanStats } from '@parquetry/parquet-reader';
