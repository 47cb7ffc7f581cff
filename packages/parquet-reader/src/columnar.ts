/**
 * `@parquetry/parquet-reader/columnar` — the raw, Arrow-layout value forms of a decoded chunk
 * ({@link columnarValues}: packed booleans, INTEGER(8/16/32) typed arrays), for code that decodes chunks itself with
 * `decodeColumnChunk`. A read's `booleans: 'bits'` and `integers: 'typed'` options need none of this (the reader
 * loads its columnar assembly when a columnar read runs); this subpath keeps these functions out of the main entry,
 * so that a browser bundle of the reader which never reads columns does not load them.
 *
 * ```ts
 * import { decodeColumnChunk } from '@parquetry/parquet-reader';
 * import { columnarValues } from '@parquetry/parquet-reader/columnar';
 * const bits = columnarValues(chunk, column, { booleans: 'bits' }); // BooleanBits for a BOOLEAN column
 * ```
 *
 * @packageDocumentation
 */
export { columnarValues, hasColumnarForm, type ColumnarValueOptions, type IntegerArray } from '@parquetry/parquet-column/columnar';
