/**
 * Column-chunk statistics decoded to the column's value type, with the trust rules:
 * - `min_value`/`max_value` are used when present and the column has a sort order (`sortOrderOf`: not INT96,
 *   INTERVAL, GEOMETRY, GEOGRAPHY, VARIANT, unknown logical types), under the column's ColumnOrder `TYPE_ORDER` or
 *   `IEEE_754_TOTAL_ORDER`, or with no `column_orders` at all (parquet.thrift calls them undefined then, but every
 *   writer that writes `min_value` orders it by type: parquet-rs 49 wrote such files); an INT96 column's only under
 *   `INT96_TIMESTAMP_ORDER`; an order member this library does not know leaves them unused;
 * - the deprecated `min`/`max` are used only where they were defined with the same order as today's:
 *   signed comparison of BOOLEAN, INT32, INT64, FLOAT and DOUBLE columns whose logical type sorts signed
 *   (not unsigned integers); never for BYTE_ARRAY/FIXED_LEN_BYTE_ARRAY (PARQUET-251: old writers compared
 *   bytes as signed) nor INT96;
 * - a string bound (STRING, ENUM, JSON) that is not valid UTF-8 (a writer that truncates by bytes cuts a character
 *   in two) is never decoded lossily, which would misplace it (`ab\xE2` as `ab\uFFFD` sorts above `ab€`): a min is
 *   cut back to its valid prefix (still a lower bound, no longer exact), a max is dropped;
 * - a NaN bound makes the bounds unusable, and so does a min above the max (a writer that compared wrongly: Polars
 *   1.44 orders FIXED_LEN_BYTE_ARRAY decimals as unsigned bytes); an absent `null_count` is unknown, not 0;
 * - truncated bounds (`is_min_value_exact` false) are still valid bounds, but not values.
 *
 * Spec: parquet.thrift `Statistics`, `ColumnOrder`; LogicalTypes.md sort orders.
 * @module
 */
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { decodePlain, type ColumnValues } from '@parquetry/parquet-encodings/read';
import { ConvertedType, Type, type ColumnMetaData, type FileMetaData, type Statistics } from '@parquetry/thrift-compact';
import { compareDecimals, compareValues } from './compare.js';
import { convertValues } from './convert.js';
import { sortOrderOf } from './sort-order.js';
import type { ValueOptions } from './to-js.js';
import { utf8ErrorAt } from './utf8.js';

/** Decoded statistics of one column chunk. */
export interface ColumnStatistics {
  /** Lower bound of the non-null values (undefined when unknown or untrusted). */
  min: unknown;
  /** Upper bound of the non-null values. */
  max: unknown;
  /** Whether `min` is an actual value (false: a truncated bound). */
  minExact: boolean;
  /** Whether `max` is an actual value. */
  maxExact: boolean;
  /** Null count, when the writer recorded it. */
  nullCount: number | undefined;
  /** Distinct count, when recorded. */
  distinctCount: number | undefined;
  /** NaN count of floating-point columns, when recorded. */
  nanCount: number | undefined;
  /** Number of values (including nulls) in the chunk. */
  numValues: number;
}

function decodeOne(bytes: Uint8Array, column: ColumnDescriptor, options: ValueOptions): unknown {
  let values: ColumnValues;
  if (column.type === Type.BYTE_ARRAY) values = { offsets: Int32Array.of(0, bytes.length), data: bytes };
  else if (column.type === Type.FIXED_LEN_BYTE_ARRAY) {
    if (bytes.length !== column.typeLength) return undefined;
    values = { width: bytes.length, data: bytes };
  } else {
    try {
      const d = column.typeLength === undefined ? { type: column.type } : { type: column.type, typeLength: column.typeLength };
      values = decodePlain(bytes, 0, bytes.length, 1, d).values;
    } catch {
      return undefined; // a malformed bound is no bound
    }
  }
  const out = convertValues(values, column, options);
  return out[0];
}

function signedOrder(column: ColumnDescriptor): boolean {
  const t = column.type;
  if (t === Type.BYTE_ARRAY || t === Type.FIXED_LEN_BYTE_ARRAY || t === Type.INT96) return false;
  const o = sortOrderOf(column);
  return o === 'signed' || o === 'float' || o === 'boolean';
}

const isNaNValue = (v: unknown) => typeof v === 'number' && Number.isNaN(v);

/** STRING, ENUM and JSON columns: their values (and bounds) are text. */
function isText(column: ColumnDescriptor): boolean {
  const lt = column.node.logicalType;
  if (lt) return lt.STRING !== undefined || lt.ENUM !== undefined || lt.JSON !== undefined;
  const ct = column.node.element.converted_type;
  return ct === ConvertedType.UTF8 || ct === ConvertedType.ENUM || ct === ConvertedType.JSON;
}

/** DECIMAL columns: bounds compare by value (their JS form may be a decimal string). */
function isDecimal(column: ColumnDescriptor): boolean {
  return column.node.logicalType?.DECIMAL !== undefined || column.node.element.converted_type === ConvertedType.DECIMAL;
}

/**
 * Decodes a chunk's statistics with the trust rules above.
 * @param meta - the file metadata (column orders).
 * @param column - the leaf column.
 * @param chunk - the chunk's ColumnMetaData.
 * @param options - value mapping (the bounds use the same JS types as the values).
 * @returns the statistics, or undefined when the chunk has none.
 */
export function columnStatistics(meta: FileMetaData, column: ColumnDescriptor, chunk: ColumnMetaData, options: ValueOptions = {}): ColumnStatistics | undefined {
  const s: Statistics | undefined = chunk.statistics;
  if (!s) return undefined;
  const order = meta.column_orders?.[column.index];
  let minB: Uint8Array | undefined;
  let maxB: Uint8Array | undefined;
  let minExact = false;
  let maxExact = false;
  if (s.min_value !== undefined || s.max_value !== undefined) {
    // min_value/max_value follow the column order; an unknown order member means we cannot interpret them, and a
    // column without a sort order has no bounds (INT96: only under INT96_TIMESTAMP_ORDER)
    const int96 = column.type === Type.INT96;
    const usable = int96 ? order?.INT96_TIMESTAMP_ORDER !== undefined : (!order || order.TYPE_ORDER || order.IEEE_754_TOTAL_ORDER) && sortOrderOf(column) !== 'undefined';
    if (usable) {
      minB = s.min_value;
      maxB = s.max_value;
      minExact = s.is_min_value_exact ?? true;
      maxExact = s.is_max_value_exact ?? true;
    }
  } else if (signedOrder(column)) {
    minB = s.min;
    maxB = s.max;
    minExact = maxExact = true;
  }
  if (column.type === Type.BYTE_ARRAY && (minB !== undefined || maxB !== undefined) && isText(column)) {
    if (minB !== undefined) {
      const bad = utf8ErrorAt(minB, 0, minB.length);
      if (bad >= 0) {
        minB = minB.subarray(0, bad);
        minExact = false;
      }
    }
    if (maxB !== undefined && utf8ErrorAt(maxB, 0, maxB.length) >= 0) maxB = undefined;
  }
  let min = minB === undefined ? undefined : decodeOne(minB, column, options);
  let max = maxB === undefined ? undefined : decodeOne(maxB, column, options);
  if (isNaNValue(min) || isNaNValue(max)) min = max = undefined;
  if (min !== undefined && max !== undefined && (isDecimal(column) ? compareDecimals(min, max) : compareValues(min, max)) > 0) min = max = undefined;
  if (min === undefined) minExact = false;
  if (max === undefined) maxExact = false;
  return {
    min,
    max,
    minExact,
    maxExact,
    nullCount: s.null_count,
    distinctCount: s.distinct_count,
    nanCount: s.nan_count,
    numValues: chunk.num_values,
  };
}
