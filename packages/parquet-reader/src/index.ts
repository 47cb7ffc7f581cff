/**
 * `@parquetry/parquet-reader` — read Parquet files from any byte source.
 *
 * ```ts
 * import { openParquet } from '@parquetry/parquet-reader';
 * const file = await openParquet(bytes, { codecs });
 * const rows = await file.readRows({ columns: ['id', 'name'] });
 * ```
 *
 * - {@link openParquet}: reads the footer (one request when it fits the tail guess) and returns a {@link ParquetFile}.
 * - Byte sources: {@link bufferSource}, {@link fetchSource} (HTTP range requests), and `fileSource` in the
 *   Node-only `@parquetry/parquet-reader/node` subpath.
 * - Values follow a documented mapping that never loses data by default (see {@link ValueOptions}).
 * - Filters are options of the reading methods ({@link Filter}); evaluating one yourself (`matchRow`,
 *   `filterColumns`, `statisticsPruner`) and ordering values (`compareValues`, `compareDecimals`) is the
 *   `@parquetry/parquet-reader/filters` subpath, so that a reader which never filters does not load them.
 * - Converting values outside a read (`convertValues`, `convertChunk`) and decoding statistics
 *   (`columnStatistics`) is the `@parquetry/parquet-reader/values` subpath: they include the JSON-safe mapping,
 *   which a read loads only for `values: 'json'` ({@link ParquetFile.statistics} loads them on its first call).
 *
 * @packageDocumentation
 */
export { openParquet, type OpenOptions, type ReadOptions, type ParquetFile } from './file.js';
// the options each entry point takes, for packages that take them too (a dataset's reads) and check their own lists
export { OPEN_RULES as openOptionRules, READ_RULES as readOptionRules, BATCH_RULES as batchOptionRules } from './read-options.js';
export type { PageIndex } from './chunk-index.js';
export { DEFAULT_BATCH_SIZE, type BatchOptions, type BatchBase, type RowBatch, type ColumnBatch } from './batches.js';
export { bufferSource, blobSource, fetchSource, readRanges, FETCH_RULES as fetchOptionRules, type ByteSource, type ByteRange, type FetchSourceOptions, type HttpSource } from './source.js';
export { readRawFooter, decodePlainFooter, decodeCryptoFooter, DEFAULT_TAIL_GUESS, type RawFooter } from './footer.js';
export { chunkValues, type ValueSegment, type DecodedChunk, type ChunkDecodeOptions, type ChunkLocation } from '@parquetry/parquet-column/decode';
export { decodeColumnChunk } from './decode-chunk.js';
export { decodeUtf8, formatDecimal, bigEndianSigned, type ValueOptions, type Interval } from '@parquetry/parquet-column/decode';
// types only (erased): the main entry reaches neither the statistics nor the JSON-safe mapping (see ./values.ts)
export type { ColumnStatistics } from '@parquetry/parquet-column/read';
export type { ColumnarValueOptions, IntegerArray } from '@parquetry/parquet-column/columnar';
export type { Filter, FilterColumn, CompareOp, RowGroupPruner, StatisticsLookup } from './filter.js';
export type { PruneOptions } from './pipeline.js';
export type { ScanStats, KindCounts, ReadKind, RowGroupSkips, ColumnScan } from './scan.js';
export { emptyScanStats, addScanStats } from './scan.js';
export type { ColumnarVector, StructVector, LeafVector, BinaryVector, ListVector, MapVector, VectorBase } from '@parquetry/parquet-levels';
