/**
 * Comparing two physical values of a column in the column's sort order: the order its statistics use and the one
 * a `SortingColumn` declares (parquet.thrift `SortingColumn`: "the sort order of the column", which is its
 * `ColumnOrder`; for `TYPE_ORDER`, the order each type's "Sort Order" paragraph in LogicalTypes.md gives).
 *
 * A writer checking that rows are sorted compares what it writes, not the JavaScript values it was given: a DECIMAL
 * given as strings orders by its numeric value ('9.00' before '10.00'), a UUID by its bytes whatever the case of its
 * hex digits, an unsigned INT32 above 2^31 above every smaller one, and a TIMESTAMP given once as a `Date` and once
 * as a `bigint` compares as the same kind of value.
 * @module
 */
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import type { ByteArrays, ColumnValues, FixedLenByteArrays } from '@parquetry/parquet-encodings';
import { Type } from '@parquetry/thrift-compact';
import { sortOrderOf } from './sort-order.js';
import { compareDecimal, compareUnsigned, halfKey } from './statistics-builder.js';

/**
 * Compares value `i` of `a` with value `j` of `b` (both the physical values of one column, as `fromJsValues` or a
 * decoder gives them).
 * @returns negative, zero or positive; `NaN` when the two cannot be ordered (a NaN floating-point value: the spec
 *   leaves NaN out of every order).
 */
export type ValueComparator = (a: ColumnValues, i: number, b: ColumnValues, j: number) => number;

const sign = (x: number | bigint, y: number | bigint): number => (x < y ? -1 : x > y ? 1 : 0);

/** FLOAT16 bits: NaN when the exponent is all ones and the fraction is not zero. */
const isHalfNaN = (h: number): boolean => (h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0;

/** A comparator of byte-array values (variable or fixed length) by `compare` over their bytes. */
function bytesComparator(compare: typeof compareUnsigned): ValueComparator {
  // value i: offsets[i]..offsets[i + 1] of variable-length values, i·width..(i + 1)·width of fixed-length ones
  const start = (v: ByteArrays | FixedLenByteArrays, i: number): number => ('offsets' in v ? v.offsets[i]! : i * v.width);
  return (a, i, b, j) => {
    const x = a as ByteArrays | FixedLenByteArrays;
    const y = b as ByteArrays | FixedLenByteArrays;
    return compare(x.data, start(x, i), start(x, i + 1), y.data, start(y, j), start(y, j + 1));
  };
}

/**
 * The comparator of a leaf column's values in its sort order ({@link sortOrderOf}).
 * @param column - the leaf column.
 * @returns the comparator, or `undefined` for a column without an order (INT96, INTERVAL, GEOMETRY, GEOGRAPHY,
 *   VARIANT, UNKNOWN, …): such a column cannot be declared sorted.
 */
export function valueComparator(column: ColumnDescriptor): ValueComparator | undefined {
  const order = sortOrderOf(column);
  const t = column.type;
  switch (order) {
    case 'boolean':
      return (a, i, b, j) => (a as Uint8Array)[i]! - (b as Uint8Array)[j]!;
    case 'signed':
      return (a, i, b, j) => sign((a as Int32Array | BigInt64Array)[i]!, (b as Int32Array | BigInt64Array)[j]!);
    case 'unsigned':
      if (t === Type.INT32) return (a, i, b, j) => sign((a as Int32Array)[i]! >>> 0, (b as Int32Array)[j]! >>> 0);
      if (t === Type.INT64) return (a, i, b, j) => sign(BigInt.asUintN(64, (a as BigInt64Array)[i]!), BigInt.asUintN(64, (b as BigInt64Array)[j]!));
      return bytesComparator(compareUnsigned);
    case 'decimal-bytes':
      return bytesComparator(compareDecimal);
    case 'float':
      return (a, i, b, j) => {
        const x = (a as Float32Array | Float64Array)[i]!;
        const y = (b as Float32Array | Float64Array)[j]!;
        // -0 and +0 are equal (neither is below the other)
        return x !== x || y !== y ? NaN : sign(x, y);
      };
    case 'float16':
      return (a, i, b, j) => {
        const x = a as FixedLenByteArrays;
        const y = b as FixedLenByteArrays;
        const hx = x.data[2 * i]! | (x.data[2 * i + 1]! << 8);
        const hy = y.data[2 * j]! | (y.data[2 * j + 1]! << 8);
        if (isHalfNaN(hx) || isHalfNaN(hy)) return NaN;
        // -0 and +0 are equal
        if ((hx & 0x7fff) === 0 && (hy & 0x7fff) === 0) return 0;
        return halfKey(hx) - halfKey(hy);
      };
    default:
      return undefined;
  }
}
