/**
 * The empty container of each column's values for a run of null slots ({@link emptyColumnarValues}), for readers
 * that give a column one form in every batch (parquet-dataset). In the package's main entry only, not in `/columnar`:
 * it converts through the JSON-capable value mapping, and a reader's columnar part that imported it from `/columnar`
 * made every columnar read load the JSON mapping (esbuild places every module an entry reaches in its chunks, used
 * or not).
 * @module
 */
import type { ByteArrays, ColumnValues } from '@parquetry/parquet-encodings';
import type { BooleanBits, ColumnDescriptor } from '@parquetry/parquet-levels';
import { Type } from '@parquetry/thrift-compact';
import { hasColumnarForm, integerKind, type ColumnarValueOptions, type IntegerArray } from './columnar-values.js';
import { convertValues } from './convert.js';
import type { ValueOptions } from './to-js.js';

/**
 * Options of {@link emptyColumnarValues}: those of a reader's columnar read that choose a column's value form (the
 * value mapping, the raw forms of {@link ColumnarValueOptions}, and the binary form).
 */
export interface ColumnarFormOptions extends ValueOptions, ColumnarValueOptions {
  /**
   * BYTE_ARRAY columns other than DECIMAL: `'vector'` (default) one offsets + bytes pair, as {@link chunkByteArrays}
   * gives them (a `BinaryVector` once assembled); `'values'` the value mapping's array.
   */
  binary?: 'vector' | 'values';
}

/** Value containers a columnar read gives a leaf column (see {@link emptyColumnarValues}). */
export type ColumnarValuesForm = ByteArrays | BooleanBits | IntegerArray | ArrayLike<unknown>;

/**
 * The values a reader's columnar read gives a leaf column for `slots` slots that are all null: the same container it
 * gives the column under `options` (so that a column a file lacks, or a constant column, has one form in every batch
 * whichever file it comes from), with nothing in it.
 *
 * The choice, in the order a columnar read makes it: a BYTE_ARRAY column other than DECIMAL under `binary: 'vector'`
 * is offsets + bytes ({@link chunkByteArrays}), under `values: 'json'` too; a column {@link hasColumnarForm} takes
 * is packed bits ({@link chunkBooleanBits}) or the typed array of its INTEGER width ({@link chunkIntegers}), unless
 * `values` is `'json'` (the reader's JSON conversion starts from the value mapping's forms); any other column is the
 * array `convertValues` makes under the value mapping (a typed array such as `Int32Array`, `BigInt64Array`,
 * `BigUint64Array` or `Float64Array`, or a plain array).
 * @param column - the leaf column.
 * @param slots - the number of slots.
 * @param options - the read's options (value mapping, raw forms, binary form).
 * @returns `slots + 1` zero offsets and no bytes; ⌈slots / 8⌉ zero bytes of bits with `count` = `slots`; a zeroed
 *   typed array of `slots` elements; or a plain array of `slots` nulls, as a columnar read spreads an all-null
 *   column over its slots.
 */
export function emptyColumnarValues(column: ColumnDescriptor, slots: number, options: ColumnarFormOptions): ColumnarValuesForm {
  const t = column.type;
  if (t === Type.BYTE_ARRAY && options.binary !== 'values' && !column.node.logicalType?.DECIMAL) {
    return { offsets: new Int32Array(slots + 1), data: new Uint8Array(0) };
  }
  // under `values: 'json'` a columnar read asks for no raw form: the JSON conversion starts from the value mapping's
  if (options.values !== 'json' && hasColumnarForm(column, options)) {
    if (t === Type.BOOLEAN) return { bits: new Uint8Array((slots + 7) >> 3), count: slots };
    const kind = integerKind(column)!;
    switch (kind.bits) {
      case 8: return kind.signed ? new Int8Array(slots) : new Uint8Array(slots);
      case 16: return kind.signed ? new Int16Array(slots) : new Uint16Array(slots);
      default: return kind.signed ? new Int32Array(slots) : new Uint32Array(slots);
    }
  }
  // the value mapping's container: what it makes of no values
  const none = convertValues(noValues(column), column, options);
  if (ArrayBuffer.isView(none)) return new (none.constructor as new (n: number) => ArrayLike<unknown>)(slots);
  return new Array<unknown>(slots).fill(null);
}

/** No decoded values of a column's physical type. */
function noValues(column: ColumnDescriptor): ColumnValues {
  switch (column.type) {
    case Type.BOOLEAN: return new Uint8Array(0);
    case Type.INT32: return new Int32Array(0);
    case Type.INT64: return new BigInt64Array(0);
    case Type.FLOAT: return new Float32Array(0);
    case Type.DOUBLE: return new Float64Array(0);
    case Type.BYTE_ARRAY: return { offsets: new Int32Array(1), data: new Uint8Array(0) };
    case Type.INT96: return { width: 12, data: new Uint8Array(0) };
    default: return { width: column.typeLength ?? 0, data: new Uint8Array(0) };
  }
}
