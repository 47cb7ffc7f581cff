/**
 * `@parquetry/parquet-column/read` — the read side of the column layer alone: value mapping, chunk decoding, page
 * reading, read-side statistics and sort orders. The same functions as the package's main entry, without the writer's
 * parts (`fromJsValues`, page writing, statistics and index building) and without the value ordering of filters
 * (`compareValues`, `compareDecimals`: the main entry), so that a reader importing this entry never makes a bundler
 * reach them: esbuild places every module its entry can reach, used or not by it, in the initial load once any lazy
 * chunk uses it.
 *
 * `/decode` is the part of this entry without the JSON-safe mapping and statistics: what a reader's initial load
 * imports.
 *
 * @packageDocumentation
 */
export * from './decode.js';
export { convertValues, convertChunk } from './convert.js';
export { jsonValues, jsonConverter, jsonBaseOptions, formatTimestamp, formatDate, formatTime, toBase64, daysFromCivil, type TimeUnit } from './json.js';
export { columnStatistics, type ColumnStatistics } from './statistics.js';
export { sortOrderOf, columnOrderOf, type SortOrder } from './sort-order.js';
