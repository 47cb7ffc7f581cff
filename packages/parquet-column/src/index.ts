/**
 * `@parquetry/parquet-column` — the column layer the reader and the writer share, so that every rule about pages,
 * values and statistics exists once and is tested from both directions:
 *
 * - Values: {@link convertValues} / {@link convertChunk} (physical → JavaScript, per logical type; `values: 'json'`
 *   for the JSON-safe mapping of {@link jsonValues}; {@link convertNativeValues} / {@link convertNativeChunk}: the
 *   default mapping alone, without the JSON code) and {@link fromJsValues} (JavaScript → physical, the inverse).
 * - Chunks: {@link decodeColumnChunk} (a column chunk's pages → levels and values) and {@link ChunkDecoder} (the same
 *   a batch of records at a time, page by page).
 * - Statistics: {@link columnStatistics} (read side, with the trust rules).
 * - Ordering: {@link compareValues}, {@link compareDecimals}, {@link compareStrings}.
 *
 * @packageDocumentation
 */
export { convertNativeValues, convertNativeChunk, decodeUtf8, formatDecimal, bigEndianSigned, MAX_STRING_LENGTH, type ValueOptions, type Interval } from './to-js.js';
export { convertValues, convertChunk } from './convert.js';
export { jsonValues, jsonConverter, jsonBaseOptions, formatTimestamp, formatDate, formatTime, toBase64, daysFromCivil, type TimeUnit } from './json.js';
export { fromJsValues, type FromJsOptions } from './from-js.js';
export { columnStatistics, type ColumnStatistics } from './statistics.js';
export { compareValues, compareDecimals, compareStrings } from './compare.js';
export { chunkValues, type ValueSegment, type DecodedChunk, type ChunkDecodeOptions } from './column-chunk.js';
export { decodeColumnChunk, ChunkDecoder } from './with-rare-decoders.js';
export { ReadBudget, defaultLimits, checkLimits, DEFAULT_MIN_ROWS, DEFAULT_MIN_VALUES, DEFAULT_MIN_BYTES, DEFAULT_ROWS_PER_BYTE, DEFAULT_VALUES_PER_BYTE, DEFAULT_BYTES_PER_BYTE, type ReadLimits } from './budget.js';
export { dataPageV1, dataPageV2, dictionaryPage, pageHeaderBytes, encryptedPageParts, type PageWriterOptions, type WrittenPage, type DataPageV1Input, type DataPageV2Input, type PageEncrypt } from './page-writer.js';
export { buildColumnIndex, compareBounds, type PageIndexEntry } from './column-index.js';
export { PageReader, PageModule, DEFAULT_MAX_PAGE_VALUES, type ChunkLocation, type PageDecrypt, type PageReaderOptions, type ReadPage } from './page-reader.js';
export { concatValues, physicalLength, MAX_BINARY_BYTES } from './values.js';
export * from './columnar.js';
export { emptyColumnarValues, type ColumnarFormOptions, type ColumnarValuesForm } from './columnar-empty.js';
export { sortOrderOf, columnOrderOf, type SortOrder } from './sort-order.js';
export { valueComparator, type ValueComparator } from './value-order.js';
export { StatisticsBuilder, truncateLowerBound, truncateUpperBound, DEFAULT_TRUNCATE_LENGTH, type StatisticsOptions, type TruncatedBound } from './statistics-builder.js';
export { SizeStatisticsBuilder } from './size-statistics.js';
export { GeospatialStatisticsBuilder, MAX_WKB_DEPTH } from './geospatial.js';
