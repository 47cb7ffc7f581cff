/**
 * The sort order of a leaf column, which decides how its statistics compare values, and the `ColumnOrder` a writer
 * records for it in `FileMetaData.column_orders`.
 *
 * Spec: parquet.thrift `ColumnOrder` (the list of sort orders per logical and physical type, and the floating-point
 * rules), https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift, and the "Sort Order"
 * paragraph of each type in https://github.com/apache/parquet-format/blob/master/LogicalTypes.md.
 * @module
 */
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { ConvertedType, Type, type ColumnOrder } from '@parquetry/thrift-compact';

/**
 * How the values of a column are ordered for min/max statistics:
 * - `'signed'`: signed integers (INT32/INT64, also DATE, TIME, TIMESTAMP, signed INTEGER, DECIMAL on INT32/INT64);
 * - `'unsigned'`: unsigned integers (unsigned INTEGER / `UINT_*` on INT32/INT64), or unsigned lexicographic bytes
 *   (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY, also STRING, ENUM, JSON, BSON, UUID);
 * - `'float'`: FLOAT and DOUBLE by numeric value (NaN excluded, -0 equal to +0);
 * - `'float16'`: FLOAT16 (FIXED_LEN_BYTE_ARRAY(2), little-endian IEEE half) by numeric value;
 * - `'decimal-bytes'`: DECIMAL on BYTE_ARRAY/FIXED_LEN_BYTE_ARRAY, by the value of the big-endian two's complement
 *   unscaled integer (lengths may differ);
 * - `'boolean'`: false before true;
 * - `'undefined'`: no order, so no min/max (INT96, INTERVAL, GEOMETRY, GEOGRAPHY, VARIANT, UNKNOWN, lists and maps,
 *   logical types this library does not know, and annotations placed on a physical type they do not allow).
 */
export type SortOrder = 'signed' | 'unsigned' | 'float' | 'float16' | 'decimal-bytes' | 'boolean' | 'undefined';

const isInt = (t: Type) => t === Type.INT32 || t === Type.INT64;
const isBytes = (t: Type) => t === Type.BYTE_ARRAY || t === Type.FIXED_LEN_BYTE_ARRAY;

/**
 * The sort order of a leaf column, from its logical type (or its legacy `converted_type`) and physical type.
 * @param column - the leaf column.
 * @returns the order its statistics use; `'undefined'` when min/max must not be written.
 */
export function sortOrderOf(column: ColumnDescriptor): SortOrder {
  const t = column.type;
  const lt = column.node.logicalType;
  if (lt) {
    if (lt.STRING || lt.ENUM || lt.JSON || lt.BSON) return t === Type.BYTE_ARRAY ? 'unsigned' : 'undefined';
    if (lt.UUID) return t === Type.FIXED_LEN_BYTE_ARRAY ? 'unsigned' : 'undefined';
    if (lt.INTEGER) return isInt(t) ? (lt.INTEGER.isSigned ? 'signed' : 'unsigned') : 'undefined';
    if (lt.DECIMAL) return isInt(t) ? 'signed' : isBytes(t) ? 'decimal-bytes' : 'undefined';
    if (lt.DATE || lt.TIME || lt.TIMESTAMP) return isInt(t) ? 'signed' : 'undefined';
    if (lt.FLOAT16) return t === Type.FIXED_LEN_BYTE_ARRAY && column.typeLength === 2 ? 'float16' : 'undefined';
    // UNKNOWN (always null), MAP, LIST, VARIANT, GEOMETRY, GEOGRAPHY, FILE and members added after this library
    return 'undefined';
  }
  const ct = column.node.element.converted_type;
  if (ct !== undefined) {
    // a converted type without a LogicalType equivalent: INTERVAL, MAP_KEY_VALUE, unknown values, or DECIMAL
    // missing its precision (still a decimal for ordering purposes)
    if (ct === ConvertedType.DECIMAL) return isInt(t) ? 'signed' : isBytes(t) ? 'decimal-bytes' : 'undefined';
    return 'undefined';
  }
  switch (t) {
    case Type.BOOLEAN:
      return 'boolean';
    case Type.INT32:
    case Type.INT64:
      return 'signed';
    case Type.FLOAT:
    case Type.DOUBLE:
      return 'float';
    case Type.BYTE_ARRAY:
    case Type.FIXED_LEN_BYTE_ARRAY:
      return 'unsigned';
    default:
      return 'undefined'; // INT96 (TYPE_ORDER makes readers ignore its statistics), unknown physical types
  }
}

/**
 * The `ColumnOrder` to record for a leaf column: `TYPE_ORDER` for every column.
 *
 * `IEEE_754_TOTAL_ORDER` exists in the model and parquet.thrift recommends it for floating-point columns, but a
 * reader that does not know a `ColumnOrder` member must ignore the column's min/max, and most deployed readers
 * predate it; under `TYPE_ORDER` with the NaN/±0 rules this package applies (NaN never a bound, `nan_count`
 * always written, a zero min written as -0 and a zero max as +0) every reader can use the statistics. Columns
 * whose order is `'undefined'` get `TYPE_ORDER` too: they simply carry no min/max. (INT96 could use
 * `INT96_TIMESTAMP_ORDER`, but this package writes no INT96 bounds.)
 * @param column - the leaf column (every column gets the same order; the parameter keeps the call site per column).
 * @returns `{ TYPE_ORDER: {} }`.
 */
export function columnOrderOf(column: ColumnDescriptor): ColumnOrder {
  return { TYPE_ORDER: {} };
}
