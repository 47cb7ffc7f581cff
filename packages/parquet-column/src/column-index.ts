/**
 * The page index of a column chunk, write side: the ColumnIndex (per page: null page flag, bounds in the column's
 * sort order, null and NaN counts, level histograms, and the order of the bounds across pages) and the comparison
 * of PLAIN-encoded bounds it needs. The OffsetIndex (page locations) is laid out by the writer.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/PageIndex.md and parquet.thrift `ColumnIndex`
 * ("null_pages", "min_values"/"max_values" — for a null page an empty byte array —, "boundary_order", "null_counts",
 * the level histograms "concatenated" page after page, "nan_counts"). Writers must not write a ColumnIndex for a
 * chunk when a page's bounds cannot be represented — a page whose non-null values are all NaN under TYPE_DEFINED_ORDER
 * — nor for a column whose sort order is undefined.
 *
 * @module
 */
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { BoundaryOrder, Type, type ColumnIndex } from '@parquetry/thrift-compact';
import { sortOrderOf, type SortOrder } from './sort-order.js';
import { truncateLowerBound, truncateUpperBound } from './statistics-builder.js';
import { float16 } from './to-js.js';

/** What the ColumnIndex needs of one data page. */
export interface PageIndexEntry {
  /** Non-null values in the page. */
  valueCount: number;
  /** Null level entries in the page. */
  nullCount: number;
  /** NaN values in the page (floating-point columns). */
  nanCount: number;
  /** Untruncated lower bound, PLAIN-encoded (undefined without one). */
  min: Uint8Array | undefined;
  /** Untruncated upper bound, PLAIN-encoded. */
  max: Uint8Array | undefined;
  /** Definition level histogram of the page (length maxDef + 1), when the column has definition levels. */
  defHistogram?: readonly number[] | undefined;
  /** Repetition level histogram of the page (length maxRep + 1), when the column has repetition levels. */
  repHistogram?: readonly number[] | undefined;
}

const f32 = /*#__PURE__*/ new Float32Array(1);
const f32b = /*#__PURE__*/ new Uint8Array(f32.buffer);
const f64 = /*#__PURE__*/ new Float64Array(1);
const f64b = /*#__PURE__*/ new Uint8Array(f64.buffer);

function unsignedBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Big-endian two's complement integers of any lengths. */
function decimalBytes(a: Uint8Array, b: Uint8Array): number {
  const na = a.length > 0 && a[0]! & 0x80 ? -1 : 1;
  const nb = b.length > 0 && b[0]! & 0x80 ? -1 : 1;
  if (a.length === 0 && b.length === 0) return 0;
  if (na !== nb) return na - nb;
  // same sign: sign-extend the shorter to the longer length, then compare as unsigned
  const n = Math.max(a.length, b.length);
  const ext = na < 0 ? 0xff : 0;
  for (let i = 0; i < n; i++) {
    const x = i < n - a.length ? ext : a[i - (n - a.length)]!;
    const y = i < n - b.length ? ext : b[i - (n - b.length)]!;
    if (x !== y) return x - y;
  }
  return 0;
}

function little(b: Uint8Array, signed: boolean): bigint {
  let v = 0n;
  for (let i = b.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]!);
  return signed && b.length > 0 && b[b.length - 1]! & 0x80 ? v - (1n << BigInt(8 * b.length)) : v;
}

/**
 * Compares two PLAIN-encoded bounds of a column in its sort order (cold path: one call per page boundary).
 * @param order - the column's sort order ({@link sortOrderOf}).
 * @param type - the physical type.
 * @param a - a bound.
 * @param b - another bound of the same column.
 * @returns negative, zero or positive.
 */
export function compareBounds(order: SortOrder, type: Type, a: Uint8Array, b: Uint8Array): number {
  switch (order) {
    case 'boolean':
      return (a[0] ?? 0) - (b[0] ?? 0);
    case 'signed':
    case 'unsigned': {
      if (type === Type.INT32 || type === Type.INT64) {
        const x = little(a, order === 'signed');
        const y = little(b, order === 'signed');
        return x < y ? -1 : x > y ? 1 : 0;
      }
      return unsignedBytes(a, b);
    }
    case 'float': {
      let x: number;
      let y: number;
      if (type === Type.FLOAT) {
        f32b.set(a.subarray(0, 4));
        x = f32[0]!;
        f32b.set(b.subarray(0, 4));
        y = f32[0]!;
      } else {
        f64b.set(a.subarray(0, 8));
        x = f64[0]!;
        f64b.set(b.subarray(0, 8));
        y = f64[0]!;
      }
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 'float16': {
      const x = float16(a[0]! | (a[1]! << 8));
      const y = float16(b[0]! | (b[1]! << 8));
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 'decimal-bytes':
      return decimalBytes(a, b);
    default:
      return 0;
  }
}

/** Whether byte-array bounds of this column are truncated (text and binary BYTE_ARRAY; never decimals or FLBA). */
function truncatable(column: ColumnDescriptor, order: SortOrder): boolean {
  return column.type === Type.BYTE_ARRAY && order === 'unsigned';
}

function isText(column: ColumnDescriptor): boolean {
  const lt = column.node.logicalType;
  return lt?.STRING !== undefined || lt?.ENUM !== undefined || lt?.JSON !== undefined;
}

/**
 * Builds the ColumnIndex of one column chunk from its data pages.
 * @param column - the leaf column.
 * @param pages - the data pages in order.
 * @param truncateLength - byte-array bounds longer than this are truncated as statistics are (default 64).
 * @returns the ColumnIndex, or undefined when the spec says not to write one (undefined sort order, a page whose
 *   non-null values have no bound, e.g. all NaN).
 */
export function buildColumnIndex(column: ColumnDescriptor, pages: readonly PageIndexEntry[], truncateLength = 64): ColumnIndex | undefined {
  const order = sortOrderOf(column);
  if (order === 'undefined' || pages.length === 0) return undefined;
  const trunc = truncatable(column, order) && truncateLength !== Infinity;
  const utf8 = isText(column);
  const nullPages: boolean[] = [];
  const mins: Uint8Array[] = [];
  const maxs: Uint8Array[] = [];
  const nullCounts: number[] = [];
  const nanCounts: number[] = [];
  const defH: number[] = [];
  const repH: number[] = [];
  const float = order === 'float' || order === 'float16';
  for (const p of pages) {
    const nullPage = p.valueCount === 0;
    if (!nullPage && (p.min === undefined || p.max === undefined)) return undefined;
    nullPages.push(nullPage);
    if (nullPage) {
      mins.push(new Uint8Array(0));
      maxs.push(new Uint8Array(0));
    } else if (trunc) {
      mins.push(truncateLowerBound(p.min!, truncateLength, utf8).bytes);
      maxs.push(truncateUpperBound(p.max!, truncateLength, utf8).bytes);
    } else {
      mins.push(p.min!);
      maxs.push(p.max!);
    }
    nullCounts.push(p.nullCount);
    nanCounts.push(p.nanCount);
    if (p.defHistogram) defH.push(...p.defHistogram);
    if (p.repHistogram) repH.push(...p.repHistogram);
  }
  let ascending = true;
  let descending = true;
  let prev = -1;
  for (let i = 0; i < pages.length && (ascending || descending); i++) {
    if (nullPages[i]) continue;
    if (prev >= 0) {
      const cmin = compareBounds(order, column.type, mins[prev]!, mins[i]!);
      const cmax = compareBounds(order, column.type, maxs[prev]!, maxs[i]!);
      if (cmin > 0 || cmax > 0) ascending = false;
      if (cmin < 0 || cmax < 0) descending = false;
    }
    prev = i;
  }
  const boundary = ascending ? BoundaryOrder.ASCENDING : descending ? BoundaryOrder.DESCENDING : BoundaryOrder.UNORDERED;
  return {
    null_pages: nullPages,
    min_values: mins,
    max_values: maxs,
    boundary_order: boundary,
    null_counts: nullCounts,
    ...(repH.length > 0 ? { repetition_level_histograms: repH } : {}),
    ...(defH.length > 0 ? { definition_level_histograms: defH } : {}),
    ...(float ? { nan_counts: nanCounts } : {}),
  };
}
