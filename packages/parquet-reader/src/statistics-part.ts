/**
 * Column-chunk statistics as a lazy part of the reader (`loadStatistics` in optional.ts): `@parquetry/parquet-column`'s
 * `columnStatistics`, which decodes a chunk's bounds with the value mapping asked for (the JSON-safe one too), for
 * `ParquetFile.statistics`. Re-exported from a module of the reader's own so that the `import()` target reaches what
 * the other lazy parts reach (see optional.ts, `Chunk grouping`); the reader's initial load imports parquet-column's
 * `/decode`, which holds neither the statistics nor the JSON-safe mapping.
 * @module
 */
// bundle layout only (no value used): see optional.ts, `Chunk grouping`
import './file.js';
export { columnStatistics } from '@parquetry/parquet-column/read';
