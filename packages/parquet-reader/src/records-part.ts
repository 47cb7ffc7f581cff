/**
 * Nested record assembly as a lazy part of the reader (`loadRecords` in optional.ts): `@parquetry/parquet-levels`'s
 * records entry, re-exported from a module of the reader's own so that the `import()` target reaches what the other
 * lazy parts reach (see optional.ts, `Chunk grouping`).
 * @module
 */
// bundle layout only (no value used): see optional.ts, `Chunk grouping`
import './file.js';
import '@parquetry/parquet-column/decode';
export { assembleRecords } from '@parquetry/parquet-levels/records';
