/**
 * `@parquetry/parquet-column/write` — the write side of the column layer alone: JavaScript values to physical
 * columns, page writing, statistics, size statistics, geospatial statistics and column index building, ordering.
 * The same functions as the package's main entry, without chunk decoding and page reading, so that a writer importing
 * this entry never makes a bundler reach the read side (whose rare value decoders are loaded with `import()`: a
 * bundle that reaches that `import()` keeps those decoders, and puts them in the initial load when it also reaches
 * the encodings' main entry).
 *
 * @packageDocumentation
 */
export { fromJsValues, type FromJsOptions } from './from-js.js';
export { compareValues, compareDecimals } from './compare.js';
export { dataPageV1, dataPageV2, dictionaryPage, pageHeaderBytes, encryptedPageParts, type PageWriterOptions, type WrittenPage, type DataPageV1Input, type DataPageV2Input, type PageEncrypt } from './page-writer.js';
export { buildColumnIndex, compareBounds, type PageIndexEntry } from './column-index.js';
export { concatValues, physicalLength, MAX_BINARY_BYTES } from './values.js';
export { sortOrderOf, columnOrderOf, type SortOrder } from './sort-order.js';
export { valueComparator, type ValueComparator } from './value-order.js';
export { StatisticsBuilder, truncateLowerBound, truncateUpperBound, DEFAULT_TRUNCATE_LENGTH, type StatisticsOptions, type TruncatedBound } from './statistics-builder.js';
export { SizeStatisticsBuilder } from './size-statistics.js';
export { GeospatialStatisticsBuilder, MAX_WKB_DEPTH } from './geospatial.js';
