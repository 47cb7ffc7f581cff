/**
 * `@parquetry/parquet-column/read` — the read side of the column layer alone: value mapping, chunk decoding, page
 * reading, read-side statistics and sort orders. The same functions as the package's main entry, without the writer's
 * parts (`fromJsValues`, page writing, statistics and index building) and without the value ordering of filters
 * (`compareValues`, `compareDecimals`: the main entry), so that a reader importing this entry never makes a bundler
 * reach them: esbuild places every module its entry can reach, used or not by it, in the initial load once any lazy
 * chunk uses it.
 *
 * @packageDocumentation
 */
export { convertValues, convertChunk, decodeUtf8, formatDecimal, bigEndianSigned, type ValueOptions, type Interval } from './to-js.js';
export { jsonValues, jsonConverter, jsonBaseOptions, formatTimestamp, formatDate, formatTime, toBase64, daysFromCivil, MAX_STRING_LENGTH, type TimeUnit } from './json.js';
export { columnStatistics, type ColumnStatistics } from './statistics.js';
export { decodeColumnChunk, chunkValues, type ValueSegment, type DecodedChunk, type ChunkDecodeOptions } from './column-chunk.js';
export { ChunkDecoder } from './chunk-decoder.js';
export { PageReader, PageModule, DEFAULT_MAX_PAGE_VALUES, type ChunkLocation, type PageDecrypt, type PageReaderOptions, type ReadPage } from './page-reader.js';
export { concatValues, physicalLength, MAX_BINARY_BYTES } from './values.js';
export { sortOrderOf, columnOrderOf, type SortOrder } from './sort-order.js';
export { ReadBudget, defaultLimits, checkLimits, DEFAULT_MIN_ROWS, DEFAULT_MIN_VALUES, DEFAULT_MIN_BYTES, DEFAULT_ROWS_PER_BYTE, DEFAULT_VALUES_PER_BYTE, DEFAULT_BYTES_PER_BYTE, type ReadLimits } from './budget.js';
