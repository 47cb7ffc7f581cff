/**
 * Columnar assembly as a lazy part of the reader (`loadColumnar` in optional.ts): `@parquetry/parquet-levels`'s
 * columnar entry, re-exported from a module of the reader's own so that the `import()` target reaches what the other
 * lazy parts reach (see optional.ts, `Chunk grouping`).
 * @module
 */
// bundle layout only (no value used): see optional.ts, `Chunk grouping`
import './file.js';
import '@parquetry/parquet-column';
export { assembleColumnar } from '@parquetry/parquet-levels/columnar';
