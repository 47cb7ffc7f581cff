/**
 * `@parquetry/parquet-column/decode` — what a reader needs to decode and convert a column chunk with the default
 * value mapping: chunk and page decoding, {@link convertNativeValues} / {@link convertNativeChunk} (the mapping of
 * `convertValues` without `values: 'json'`) and read limits. `/read` is this with the JSON-safe mapping
 * (`convertValues`, `convertChunk`, `jsonValues`, …), read-side statistics (`columnStatistics`) and sort orders
 * (`sortOrderOf`, which the statistics' trust rules use); this entry reaches none of them, so that a reader's initial
 * load importing it holds none of them (esbuild places every module its entry can reach, used or not by it, in the
 * initial load once any lazy chunk uses it): a reader loads them in lazy parts, for a `values: 'json'` read, its
 * `statistics()` and its pruning stages.
 *
 * @packageDocumentation
 */
export { convertNativeValues, convertNativeChunk, decodeUtf8, formatDecimal, bigEndianSigned, MAX_STRING_LENGTH, type ValueOptions, type Interval } from './to-js.js';
export { decodeColumnChunk, chunkValues, type ValueSegment, type DecodedChunk, type ChunkDecodeOptions } from './column-chunk.js';
export { ChunkDecoder } from './chunk-decoder.js';
export { PageReader, PageModule, DEFAULT_MAX_PAGE_VALUES, type ChunkLocation, type PageDecrypt, type PageReaderOptions, type ReadPage } from './page-reader.js';
export { concatValues, physicalLength, MAX_BINARY_BYTES } from './values.js';
export { ReadBudget, defaultLimits, checkLimits, DEFAULT_MIN_ROWS, DEFAULT_MIN_VALUES, DEFAULT_MIN_BYTES, DEFAULT_ROWS_PER_BYTE, DEFAULT_VALUES_PER_BYTE, DEFAULT_BYTES_PER_BYTE, type ReadLimits } from './budget.js';
