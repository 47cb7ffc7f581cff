/**
 * The decoders of DELTA_*, BYTE_STREAM_SPLIT and ALP pages as a lazy part of the reader (`loadRareDecoders` in
 * optional.ts, the chunk decoders' `loadRareDecoders` option): `@parquetry/parquet-encodings/rare-decoders`,
 * re-exported from a module of the reader's own so that the `import()` target reaches what the other lazy parts
 * reach (see optional.ts, `Chunk grouping`).
 * @module
 */
// bundle layout only (no value used): see optional.ts, `Chunk grouping`
import './file.js';
export { RARE_DECODERS, UNPACK_MID } from '@parquetry/parquet-encodings/rare-decoders';
