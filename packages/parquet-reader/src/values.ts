/**
 * `@parquetry/parquet-reader/values` — the value mapping and statistics decoding outside a read, for code that decodes
 * chunks itself (`decodeColumnChunk`) or reads statistics from metadata it holds: {@link convertValues},
 * {@link convertChunk} (physical → JavaScript values, `values: 'json'` included) and {@link columnStatistics} (a
 * chunk's statistics with the trust rules). A read needs none of this; `ParquetFile.statistics` loads the
 * statistics decoding on its first call. This subpath keeps them and the JSON-safe mapping out of the main entry, so
 * that a browser bundle of the reader which never asks for them does not load them.
 *
 * ```ts
 * import { columnStatistics, convertValues } from '@parquetry/parquet-reader/values';
 * const stats = columnStatistics(file.metadata, file.schema.columns[0]!, file.columnMetaData(0, 0), { values: 'json' });
 * const values = convertValues(chunk.segments[0]!.values!, file.schema.columns[0]!, { values: 'json' });
 * ```
 *
 * @packageDocumentation
 */
export { convertValues, convertChunk, columnStatistics, type ColumnStatistics, type ValueOptions } from '@parquetry/parquet-column/read';
