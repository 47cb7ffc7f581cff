/**
 * Write-side statistics: an accumulator the writer feeds the physical values of a column page by page, giving the
 * thrift `Statistics` of each page and (by {@link StatisticsBuilder.merge}) of the column chunk.
 *
 * Rules implemented (parquet.thrift `Statistics` and `ColumnOrder`,
 * https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift, and the sort orders of
 * https://github.com/apache/parquet-format/blob/master/LogicalTypes.md):
 * - min/max follow the column's {@link SortOrder} (see {@link sortOrderOf}); columns whose order is undefined get
 *   no min/max, only `null_count`;
 * - FLOAT, DOUBLE and FLOAT16 (`TYPE_ORDER`): NaN is never a bound, `nan_count` is always written, min/max are
 *   omitted when every non-null value is NaN, a zero min is written as -0.0 and a zero max as +0.0;
 * - BYTE_ARRAY bounds (unsigned order only: never DECIMAL, never FIXED_LEN_BYTE_ARRAY) longer than the truncation
 *   length are truncated, on a character boundary for STRING/ENUM/JSON, with `is_min_value_exact` /
 *   `is_max_value_exact` saying whether they were;
 * - `null_count` is always written, `distinct_count` never;
 * - the deprecated `min`/`max` carry the same bytes for BOOLEAN, INT32, INT64, FLOAT and DOUBLE columns whose
 *   order is signed (not unsigned integers), for readers older than `min_value`/`max_value`.
 *
 * Peers differ on the deprecated fields: arrow-rs writes them whenever its sort order is "signed" (which there
 * includes DECIMAL on byte arrays and FLOAT16, but not BOOLEAN); parquet-java writes them for BOOLEAN, signed
 * integers, FLOAT/DOUBLE and FLOAT16 (and for any column when min equals max), not for DECIMAL. parquet.thrift
 * defines the deprecated fields as "determined by signed comparison", which old readers applied to byte arrays as
 * signed byte-wise comparison (PARQUET-251), an order that neither the numeric order of a DECIMAL nor that of a
 * little-endian FLOAT16 follows; so they are written only for the non-byte-array physical types with a signed
 * order, the same set the read side ({@link columnStatistics}) trusts them for.
 * @module
 */
import type { ByteArrays, ColumnValues, FixedLenByteArrays } from '@parquetry/parquet-encodings';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { ParquetError, Type, TypeNames, type Statistics } from '@parquetry/thrift-compact';
import { sortOrderOf, type SortOrder } from './sort-order.js';
import { utf8ErrorAt } from './utf8.js';
// for {@link} in the documentation only
import type { columnStatistics } from './statistics.js';

/** Default length in bytes past which BYTE_ARRAY bounds are truncated (the value arrow-rs and parquet-java use). */
export const DEFAULT_TRUNCATE_LENGTH = 64;

/** Options of a {@link StatisticsBuilder}. */
export interface StatisticsOptions {
  /**
   * BYTE_ARRAY bounds longer than this many bytes are truncated in {@link StatisticsBuilder.toThrift} (default
   * {@link DEFAULT_TRUNCATE_LENGTH}; `Infinity` never truncates). A positive integer or `Infinity`.
   */
  truncateLength?: number;
}

/** A bound after truncation: its bytes, and whether they are the exact value (not truncated). */
export interface TruncatedBound {
  /** The bound's bytes (the input itself when not truncated). */
  bytes: Uint8Array;
  /** True when `bytes` is the untruncated value. */
  exact: boolean;
}

// Accumulator kinds: one update loop each.
const K_NONE = 0;
const K_BOOL = 1;
const K_I32 = 2;
const K_U32 = 3;
const K_I64 = 4;
const K_U64 = 5;
const K_F32 = 6;
const K_F64 = 7;
const K_F16 = 8;
const K_BYTES = 9;
const K_BYTES_DEC = 10;
const K_FIXED = 11;
const K_FIXED_DEC = 12;

// Word positions of an INT64 seen as two 32-bit words (typed arrays use the platform's byte order).
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
const LO = LITTLE_ENDIAN ? 0 : 1;
const HI = LITTLE_ENDIAN ? 1 : 0;
const EMPTY = new Uint8Array(0);
/** The int32 sign bit: `x ^ SIGN` maps unsigned 32-bit order onto signed. */
const SIGN = 0x80000000 | 0;

function kindOf(type: Type, order: SortOrder): number {
  switch (order) {
    case 'boolean':
      return type === Type.BOOLEAN ? K_BOOL : K_NONE;
    case 'signed':
      return type === Type.INT32 ? K_I32 : type === Type.INT64 ? K_I64 : K_NONE;
    case 'float':
      return type === Type.FLOAT ? K_F32 : type === Type.DOUBLE ? K_F64 : K_NONE;
    case 'float16':
      return K_F16;
    case 'unsigned':
      return type === Type.INT32 ? K_U32 : type === Type.INT64 ? K_U64 : type === Type.BYTE_ARRAY ? K_BYTES : type === Type.FIXED_LEN_BYTE_ARRAY ? K_FIXED : K_NONE;
    case 'decimal-bytes':
      return type === Type.BYTE_ARRAY ? K_BYTES_DEC : K_FIXED_DEC;
    default:
      return K_NONE;
  }
}

/** Unsigned lexicographic comparison of `a[as, ae)` and `b[bs, be)`. */
export function compareUnsigned(a: Uint8Array, as: number, ae: number, b: Uint8Array, bs: number, be: number): number {
  const la = ae - as;
  const lb = be - bs;
  const n = la < lb ? la : lb;
  for (let k = 0; k < n; k++) {
    const x = a[as + k]!;
    const y = b[bs + k]!;
    if (x !== y) return x - y;
  }
  return la - lb;
}

/**
 * The first 4 bytes of `d[s, e)` as a big-endian unsigned word, zero-padded when shorter: a value whose first word is
 * greater (smaller) than this key is greater (smaller) than the bytes, in the unsigned byte-wise order.
 */
function prefixKey(d: Uint8Array, s: number, e: number): number {
  let k = 0;
  for (let j = 0; j < 4; j++) k = k * 256 + (s + j < e ? d[s + j]! : 0);
  return k;
}

/**
 * Numeric comparison of two big-endian two's complement integers `a[as, ae)` and `b[bs, be)` of any lengths (the
 * shorter is sign-extended; an empty array is 0).
 */
export function compareDecimal(a: Uint8Array, as: number, ae: number, b: Uint8Array, bs: number, be: number): number {
  const la = ae - as;
  const lb = be - bs;
  const na = la > 0 && a[as]! >= 0x80;
  const nb = lb > 0 && b[bs]! >= 0x80;
  if (na !== nb) return na ? -1 : 1;
  const ext = na ? 0xff : 0;
  const n = la > lb ? la : lb;
  const pa = n - la;
  const pb = n - lb;
  for (let k = 0; k < n; k++) {
    const x = k < pa ? ext : a[as + k - pa]!;
    const y = k < pb ? ext : b[bs + k - pb]!;
    if (x !== y) return x - y;
  }
  return 0;
}

/** FLOAT16 bits → an integer key ordered like the values (-0 just below +0); NaN must be excluded first. */
export const halfKey = (h: number) => (h & 0x8000 ? h ^ 0xffff : h | 0x8000);
/** Inverse of {@link halfKey}. */
const keyHalf = (k: number) => (k & 0x8000 ? k & 0x7fff : k ^ 0xffff);

function formName(v: unknown): string {
  if (v === null || typeof v !== 'object') return typeof v;
  if (ArrayBuffer.isView(v)) return v.constructor.name;
  if ('offsets' in v) return '{offsets, data}';
  if ('width' in v) return '{width, data}';
  return 'object';
}

function isByteArrays(v: ColumnValues): v is ByteArrays {
  return typeof v === 'object' && 'offsets' in v && v.offsets instanceof Int32Array && v.data instanceof Uint8Array;
}

function isFixed(v: ColumnValues): v is FixedLenByteArrays {
  return typeof v === 'object' && 'width' in v && typeof v.width === 'number' && v.data instanceof Uint8Array;
}

/**
 * Accumulates the statistics of one column: feed it the non-null physical values of a page with
 * {@link StatisticsBuilder.update} and the page's null count with {@link StatisticsBuilder.addNulls}; read the page's
 * thrift `Statistics` with {@link StatisticsBuilder.toThrift}, {@link StatisticsBuilder.merge} it into the chunk's
 * builder and {@link StatisticsBuilder.reset} it for the next page.
 *
 * Bounds are kept as numbers (INT64 as two 32-bit words) or as a copied byte buffer: nothing is allocated per value.
 */
export class StatisticsBuilder {
  /** The column. */
  readonly column: ColumnDescriptor;
  /** The column's sort order. */
  readonly sortOrder: SortOrder;
  /** Truncation length of BYTE_ARRAY bounds in {@link StatisticsBuilder.toThrift}. */
  readonly truncateLength: number;
  private readonly kind: number;
  private readonly utf8: boolean;
  private nulls = 0;
  private nans = 0;
  private count = 0;
  /** Whether some value gave a bound (non-NaN, order defined). */
  private bounded = false;
  // Numeric bounds: the value (INT64: the high word, signed or unsigned as the order says) and the INT64 low word.
  // FLOAT16 bounds are halfKey() keys. The sentinels ±Infinity make the first value win without a branch.
  private minA = Infinity;
  private minB = 0;
  private maxA = -Infinity;
  private maxB = 0;
  // Byte-array bounds: a copy of the value in a reused buffer.
  private minBuf: Uint8Array = EMPTY;
  private minLen = 0;
  private maxBuf: Uint8Array = EMPTY;
  private maxLen = 0;

  /**
   * @param column - the leaf column.
   * @param options - truncation of byte-array bounds.
   * @throws ParquetError `INVALID_ARGUMENT` when `truncateLength` is not a positive integer or `Infinity`.
   */
  constructor(column: ColumnDescriptor, options: StatisticsOptions = {}) {
    this.column = column;
    this.sortOrder = sortOrderOf(column);
    this.kind = kindOf(column.type, this.sortOrder);
    const t = options.truncateLength ?? DEFAULT_TRUNCATE_LENGTH;
    if (!(t === Infinity || (Number.isInteger(t) && t >= 1))) {
      throw new ParquetError('INVALID_ARGUMENT', `parquet-column: statistics of column '${column.pathString}': truncateLength must be a positive integer or Infinity, got ${String(t)}`);
    }
    this.truncateLength = t;
    const lt = column.node.logicalType;
    this.utf8 = !!(lt && (lt.STRING || lt.ENUM || lt.JSON));
  }

  /** Number of nulls added. */
  get nullCount(): number {
    return this.nulls;
  }

  /** Number of NaN values seen (FLOAT, DOUBLE, FLOAT16 columns; 0 for others). */
  get nanCount(): number {
    return this.nans;
  }

  /** Number of non-null values seen (NaN included). */
  get valueCount(): number {
    return this.count;
  }

  /** Whether there were non-null values and every one was NaN (floating-point columns). */
  get allNaN(): boolean {
    return this.nans > 0 && this.nans === this.count;
  }

  /**
   * Adds the non-null values `values[start, end)` (physical form of the column's type, see `ColumnValues`).
   * @param values - the values.
   * @param start - first value.
   * @param end - end (exclusive).
   * @throws ParquetError `INVALID_ARGUMENT` when the form does not match the column's physical type (or a
   *   FIXED_LEN_BYTE_ARRAY width differs from the column's, or byte-array offsets decrease); `OUT_OF_RANGE` when
   *   `[start, end)` is not inside the values.
   */
  update(values: ColumnValues, start: number, end: number): void {
    switch (this.kind) {
      case K_BOOL:
        if (!(values instanceof Uint8Array)) throw this.formError(values, 'a Uint8Array of 0/1');
        this.checkRange(start, end, values.length);
        this.updateBoolean(values, start, end);
        break;
      case K_I32:
      case K_U32:
        if (!(values instanceof Int32Array)) throw this.formError(values, 'an Int32Array');
        this.checkRange(start, end, values.length);
        this.updateInt32(values, start, end, this.kind === K_I32 ? 0 : SIGN);
        break;
      case K_I64:
      case K_U64:
        if (!(values instanceof BigInt64Array)) throw this.formError(values, 'a BigInt64Array');
        this.checkRange(start, end, values.length);
        this.updateInt64(new Int32Array(values.buffer, values.byteOffset, values.length * 2), start, end, this.kind === K_I64 ? 0 : SIGN);
        break;
      case K_F32:
        if (!(values instanceof Float32Array)) throw this.formError(values, 'a Float32Array');
        this.checkRange(start, end, values.length);
        this.updateFloat(values, start, end);
        break;
      case K_F64:
        if (!(values instanceof Float64Array)) throw this.formError(values, 'a Float64Array');
        this.checkRange(start, end, values.length);
        this.updateFloat(values, start, end);
        break;
      case K_F16:
        this.checkFixed(values, start, end);
        this.updateFloat16((values as FixedLenByteArrays).data, start, end);
        break;
      case K_BYTES:
      case K_BYTES_DEC:
        this.checkByteArrays(values, start, end);
        if (this.kind === K_BYTES) this.updateBytes(values as ByteArrays, start, end);
        else this.updateDecimalBytes(values as ByteArrays, start, end);
        break;
      case K_FIXED:
      case K_FIXED_DEC:
        this.checkFixed(values, start, end);
        this.updateFixed((values as FixedLenByteArrays).data, (values as FixedLenByteArrays).width, start, end, this.kind === K_FIXED_DEC);
        break;
      default:
        this.checkRange(start, end, this.lengthOf(values));
        this.count += end - start;
    }
  }

  /**
   * Adds `count` nulls.
   * @param count - a non-negative integer.
   * @throws ParquetError `INVALID_ARGUMENT` when `count` is not a non-negative integer.
   */
  addNulls(count: number): void {
    if (!(Number.isInteger(count) && count >= 0)) {
      throw new ParquetError('INVALID_ARGUMENT', `parquet-column: statistics of column '${this.column.pathString}': null count must be a non-negative integer, got ${String(count)}`);
    }
    this.nulls += count;
  }

  /**
   * Adds the statistics of `other` (e.g. a page's into the chunk's).
   * @param other - a builder of the same column (same physical type and sort order).
   * @throws ParquetError `INVALID_ARGUMENT` when `other` orders its values differently, or is this builder.
   */
  merge(other: StatisticsBuilder): void {
    if (other === this || other.kind !== this.kind || other.column.type !== this.column.type) {
      throw new ParquetError(
        'INVALID_ARGUMENT',
        `parquet-column: statistics of column '${this.column.pathString}' (${TypeNames[this.column.type] ?? this.column.type}, ${this.sortOrder}) cannot merge ${other === this ? 'themselves' : `those of '${other.column.pathString}' (${TypeNames[other.column.type] ?? other.column.type}, ${other.sortOrder})`}`,
      );
    }
    this.nulls += other.nulls;
    this.nans += other.nans;
    this.count += other.count;
    if (!other.bounded) return;
    const k = this.kind;
    if (k === K_BYTES || k === K_FIXED || k === K_BYTES_DEC || k === K_FIXED_DEC) {
      const cmp = k === K_BYTES || k === K_FIXED ? compareUnsigned : compareDecimal;
      if (!this.bounded || cmp(other.minBuf, 0, other.minLen, this.minBuf, 0, this.minLen) < 0) this.setMin(other.minBuf, 0, other.minLen);
      if (!this.bounded || cmp(other.maxBuf, 0, other.maxLen, this.maxBuf, 0, this.maxLen) > 0) this.setMax(other.maxBuf, 0, other.maxLen);
    } else {
      this.addNumeric(other.minA, other.minB, other.maxA, other.maxB);
    }
    this.bounded = true;
  }

  /** Forgets everything added (buffers are kept for reuse). */
  reset(): void {
    this.nulls = this.nans = this.count = 0;
    this.bounded = false;
    this.minA = Infinity;
    this.maxA = -Infinity;
    this.minB = this.maxB = 0;
    this.minLen = this.maxLen = 0;
  }

  /**
   * The lower bound as PLAIN bytes (byte arrays: the bytes without a length prefix), untruncated, with a zero
   * floating-point min as -0.0 — for the page index, which truncates on its own terms.
   * @returns a new array, or undefined when there is no bound (no non-null non-NaN value, or undefined order).
   */
  minBytes(): Uint8Array | undefined {
    return this.bounded ? this.boundBytes(true) : undefined;
  }

  /**
   * The upper bound as PLAIN bytes, untruncated, with a zero floating-point max as +0.0.
   * @returns a new array, or undefined when there is no bound.
   */
  maxBytes(): Uint8Array | undefined {
    return this.bounded ? this.boundBytes(false) : undefined;
  }

  /**
   * The thrift `Statistics`: `null_count`; `nan_count` for FLOAT/DOUBLE/FLOAT16; when there is a bound,
   * `min_value`/`max_value` (BYTE_ARRAY bounds truncated to {@link StatisticsBuilder.truncateLength}) with
   * `is_min_value_exact`/`is_max_value_exact`, and the deprecated `min`/`max` for signed numeric columns.
   * @returns a new object (byte arrays are not shared with the builder).
   */
  toThrift(): Statistics {
    const s: Statistics = { null_count: this.nulls };
    const k = this.kind;
    if (k === K_F32 || k === K_F64 || k === K_F16) s.nan_count = this.nans;
    if (!this.bounded) return s;
    let min = this.boundBytes(true);
    let max = this.boundBytes(false);
    let minExact = true;
    let maxExact = true;
    if (k === K_BYTES && this.truncateLength < Infinity) {
      const lo = truncateLowerBound(min, this.truncateLength, this.utf8);
      const hi = truncateUpperBound(max, this.truncateLength, this.utf8);
      min = lo.bytes;
      max = hi.bytes;
      minExact = lo.exact;
      maxExact = hi.exact;
    }
    s.max_value = max;
    s.min_value = min;
    s.is_max_value_exact = maxExact;
    s.is_min_value_exact = minExact;
    if (k === K_BOOL || k === K_I32 || k === K_I64 || k === K_F32 || k === K_F64) {
      s.max = max;
      s.min = min;
    }
    return s;
  }

  // ---- update loops, one per kind ----

  private updateBoolean(v: Uint8Array, start: number, end: number): void {
    let any0 = false;
    let any1 = false;
    for (let i = start; i < end; i++) {
      if (v[i] === 0) any0 = true;
      else any1 = true;
      if (any0 && any1) break;
    }
    this.count += end - start;
    if (end === start) return;
    const lo = any0 ? 0 : 1;
    const hi = any1 ? 1 : 0;
    if (lo < this.minA) this.minA = lo;
    if (hi > this.maxA) this.maxA = hi;
    this.bounded = true;
  }

  /**
   * INT32, signed (`flip` 0) or unsigned (`flip` = sign bit: `x ^ flip` orders uint32 as int32, so the loop stays
   * on int32 values).
   */
  private updateInt32(v: Int32Array, start: number, end: number, flip: number): void {
    this.count += end - start;
    if (end === start) return;
    let mn = v[start]! ^ flip;
    let mx = mn;
    for (let i = start + 1; i < end; i++) {
      const x = v[i]! ^ flip;
      if (x < mn) mn = x;
      else if (x > mx) mx = x;
    }
    // back to the value: int32, or uint32 for the unsigned order
    if (flip === 0) this.addNumeric(mn, 0, mx, 0);
    else this.addNumeric((mn ^ flip) >>> 0, 0, (mx ^ flip) >>> 0, 0);
  }

  /**
   * INT64 through its Int32Array alias `w`: the high word (signed, or unsigned with `flip` = sign bit) decides
   * unless it ties with a bound, and only then the low word (unsigned, compared as `lo ^ sign bit`) is read.
   */
  private updateInt64(w: Int32Array, start: number, end: number, flip: number): void {
    this.count += end - start;
    if (end === start) return;
    let mnH = w[2 * start + HI]! ^ flip;
    let mnL = w[2 * start + LO]! ^ SIGN;
    let mxH = mnH;
    let mxL = mnL;
    for (let i = start + 1; i < end; i++) {
      const h = w[2 * i + HI]! ^ flip;
      if (h < mnH) {
        mnH = h;
        mnL = w[2 * i + LO]! ^ SIGN;
      } else if (h > mxH) {
        mxH = h;
        mxL = w[2 * i + LO]! ^ SIGN;
      } else if (h === mnH || h === mxH) {
        const l = w[2 * i + LO]! ^ SIGN;
        if (h === mnH && l < mnL) mnL = l;
        if (h === mxH && l > mxL) mxL = l;
      }
    }
    const hiMin = flip === 0 ? mnH : (mnH ^ flip) >>> 0;
    const hiMax = flip === 0 ? mxH : (mxH ^ flip) >>> 0;
    this.addNumeric(hiMin, (mnL ^ SIGN) >>> 0, hiMax, (mxL ^ SIGN) >>> 0);
  }

  /** Widens the numeric bounds to include [(minA, minB), (maxA, maxB)] (INT64: high word, then low word). */
  private addNumeric(minA: number, minB: number, maxA: number, maxB: number): void {
    if (minA < this.minA || (minA === this.minA && minB < this.minB)) {
      this.minA = minA;
      this.minB = minB;
    }
    if (maxA > this.maxA || (maxA === this.maxA && maxB > this.maxB)) {
      this.maxA = maxA;
      this.maxB = maxB;
    }
    this.bounded = true;
  }

  /** FLOAT or DOUBLE by value, NaN counted and skipped. */
  private updateFloat(v: Float32Array | Float64Array, start: number, end: number): void {
    let mn = this.minA;
    let mx = this.maxA;
    let nan = 0;
    for (let i = start; i < end; i++) {
      const x = v[i]!;
      if (x !== x) {
        nan++;
        continue;
      }
      if (x < mn) mn = x;
      if (x > mx) mx = x;
    }
    this.minA = mn;
    this.maxA = mx;
    this.nans += nan;
    this.count += end - start;
    if (end - start > nan) this.bounded = true;
  }

  /** FLOAT16 (2 bytes little-endian per value) by value through {@link halfKey}, NaN counted and skipped. */
  private updateFloat16(d: Uint8Array, start: number, end: number): void {
    let mn = this.minA;
    let mx = this.maxA;
    let nan = 0;
    for (let i = start; i < end; i++) {
      const h = d[2 * i]! | (d[2 * i + 1]! << 8);
      if ((h & 0x7fff) > 0x7c00) {
        nan++;
        continue;
      }
      const key = halfKey(h);
      if (key < mn) mn = key;
      if (key > mx) mx = key;
    }
    this.minA = mn;
    this.maxA = mx;
    this.nans += nan;
    this.count += end - start;
    if (end - start > nan) this.bounded = true;
  }

  /** BYTE_ARRAY, unsigned byte-wise: the page's bounds are found in place, then copied once. */
  private updateBytes(v: ByteArrays, start: number, end: number): void {
    this.count += end - start;
    if (end === start) return;
    const off = v.offsets;
    const d = v.data;
    let mis = off[start]!;
    let mie = off[start + 1]!;
    if (mie < mis) throw this.offsetError(start);
    let mas = mis;
    let mae = mie;
    // the first 4 bytes of the page's bounds as big-endian words (zero-padded): a value of 4 or more bytes whose first
    // word lies strictly between them lies strictly between the bounds, without a byte comparison
    const dv = new DataView(d.buffer, d.byteOffset, d.byteLength);
    let minKey = prefixKey(d, mis, mie);
    let maxKey = prefixKey(d, mas, mae);
    for (let i = start + 1; i < end; i++) {
      const s = off[i]!;
      const e = off[i + 1]!;
      if (e < s) throw this.offsetError(i);
      // (e within the data: offsets past it throw offsetError below, where they come back down to the checked end)
      if (e - s >= 4 && e <= d.length) {
        const k = dv.getUint32(s, false);
        if (k > minKey && k < maxKey) continue;
      }
      if (compareUnsigned(d, s, e, d, mis, mie) < 0) {
        mis = s;
        mie = e;
        minKey = prefixKey(d, s, e);
      } else if (compareUnsigned(d, s, e, d, mas, mae) > 0) {
        mas = s;
        mae = e;
        maxKey = prefixKey(d, s, e);
      }
    }
    if (!this.bounded || compareUnsigned(d, mis, mie, this.minBuf, 0, this.minLen) < 0) this.setMin(d, mis, mie);
    if (!this.bounded || compareUnsigned(d, mas, mae, this.maxBuf, 0, this.maxLen) > 0) this.setMax(d, mas, mae);
    this.bounded = true;
  }

  /** DECIMAL on BYTE_ARRAY: big-endian two's complement of varying length. */
  private updateDecimalBytes(v: ByteArrays, start: number, end: number): void {
    this.count += end - start;
    if (end === start) return;
    const off = v.offsets;
    const d = v.data;
    let mis = off[start]!;
    let mie = off[start + 1]!;
    if (mie < mis) throw this.offsetError(start);
    let mas = mis;
    let mae = mie;
    for (let i = start + 1; i < end; i++) {
      const s = off[i]!;
      const e = off[i + 1]!;
      if (e < s) throw this.offsetError(i);
      if (compareDecimal(d, s, e, d, mis, mie) < 0) {
        mis = s;
        mie = e;
      } else if (compareDecimal(d, s, e, d, mas, mae) > 0) {
        mas = s;
        mae = e;
      }
    }
    if (!this.bounded || compareDecimal(d, mis, mie, this.minBuf, 0, this.minLen) < 0) this.setMin(d, mis, mie);
    if (!this.bounded || compareDecimal(d, mas, mae, this.maxBuf, 0, this.maxLen) > 0) this.setMax(d, mas, mae);
    this.bounded = true;
  }

  /** FIXED_LEN_BYTE_ARRAY, unsigned byte-wise or (DECIMAL) as signed big-endian integers of one width. */
  private updateFixed(d: Uint8Array, w: number, start: number, end: number, decimal: boolean): void {
    this.count += end - start;
    if (end === start) return;
    let mi = start * w;
    let ma = mi;
    if (decimal) {
      for (let s = mi + w, e = end * w; s < e; s += w) {
        if (compareDecimal(d, s, s + w, d, mi, mi + w) < 0) mi = s;
        else if (compareDecimal(d, s, s + w, d, ma, ma + w) > 0) ma = s;
      }
    } else {
      for (let s = mi + w, e = end * w; s < e; s += w) {
        if (compareUnsigned(d, s, s + w, d, mi, mi + w) < 0) mi = s;
        else if (compareUnsigned(d, s, s + w, d, ma, ma + w) > 0) ma = s;
      }
    }
    const cmp = decimal ? compareDecimal : compareUnsigned;
    if (!this.bounded || cmp(d, mi, mi + w, this.minBuf, 0, this.minLen) < 0) this.setMin(d, mi, mi + w);
    if (!this.bounded || cmp(d, ma, ma + w, this.maxBuf, 0, this.maxLen) > 0) this.setMax(d, ma, ma + w);
    this.bounded = true;
  }

  // ---- helpers ----

  private setMin(d: Uint8Array, s: number, e: number): void {
    const n = e - s;
    if (this.minBuf.length < n) this.minBuf = new Uint8Array(Math.max(n, 2 * this.minBuf.length, 16));
    this.minBuf.set(d.subarray(s, e));
    this.minLen = n;
  }

  private setMax(d: Uint8Array, s: number, e: number): void {
    const n = e - s;
    if (this.maxBuf.length < n) this.maxBuf = new Uint8Array(Math.max(n, 2 * this.maxBuf.length, 16));
    this.maxBuf.set(d.subarray(s, e));
    this.maxLen = n;
  }

  /** PLAIN bytes of the min (`lower`) or max bound; only called when bounded. */
  private boundBytes(lower: boolean): Uint8Array {
    const a = lower ? this.minA : this.maxA;
    switch (this.kind) {
      case K_BOOL:
        return Uint8Array.of(a);
      case K_I32:
      case K_U32: {
        const out = new Uint8Array(4);
        new DataView(out.buffer).setUint32(0, a >>> 0, true);
        return out;
      }
      case K_I64:
      case K_U64: {
        const out = new Uint8Array(8);
        const view = new DataView(out.buffer);
        view.setUint32(0, lower ? this.minB : this.maxB, true);
        view.setUint32(4, a >>> 0, true);
        return out;
      }
      case K_F32: {
        const out = new Uint8Array(4);
        // TYPE_ORDER rule: a zero min is written as -0.0, a zero max as +0.0
        new DataView(out.buffer).setFloat32(0, a === 0 ? (lower ? -0 : 0) : a, true);
        return out;
      }
      case K_F64: {
        const out = new Uint8Array(8);
        new DataView(out.buffer).setFloat64(0, a === 0 ? (lower ? -0 : 0) : a, true);
        return out;
      }
      case K_F16: {
        let h = keyHalf(a);
        if ((h & 0x7fff) === 0) h = lower ? 0x8000 : 0;
        return Uint8Array.of(h & 0xff, h >>> 8);
      }
      default:
        return lower ? this.minBuf.slice(0, this.minLen) : this.maxBuf.slice(0, this.maxLen);
    }
  }

  private where(): string {
    return `parquet-column: statistics of column '${this.column.pathString}' (${TypeNames[this.column.type] ?? this.column.type})`;
  }

  private formError(values: unknown, expected: string): ParquetError {
    return new ParquetError('INVALID_ARGUMENT', `${this.where()}: expected ${expected}, got ${formName(values)}`);
  }

  private offsetError(i: number): ParquetError {
    return new ParquetError('INVALID_ARGUMENT', `${this.where()}: byte-array offsets decrease at value ${i}`);
  }

  private checkRange(start: number, end: number, length: number): void {
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= length)) {
      throw new ParquetError('OUT_OF_RANGE', `${this.where()}: value range [${String(start)}, ${String(end)}) is not inside the ${length} values given`);
    }
  }

  private checkFixed(values: ColumnValues, start: number, end: number): void {
    if (!isFixed(values)) throw this.formError(values, '{width, data}');
    const w = this.column.typeLength ?? values.width;
    if (values.width !== w || !(w >= 1)) throw this.formError(values, `values of width ${w} (got width ${values.width})`);
    this.checkRange(start, end, Math.floor(values.data.length / w));
  }

  private checkByteArrays(values: ColumnValues, start: number, end: number): void {
    if (!isByteArrays(values)) throw this.formError(values, '{offsets: Int32Array, data: Uint8Array}');
    this.checkRange(start, end, values.offsets.length - 1);
    if (end > start) {
      const s = values.offsets[start]!;
      const e = values.offsets[end]!;
      if (s < 0 || e > values.data.length || e < s) {
        throw new ParquetError('INVALID_ARGUMENT', `${this.where()}: offsets of values [${start}, ${end}) span bytes [${s}, ${e}), outside the ${values.data.length} data bytes`);
      }
    }
  }

  private lengthOf(values: ColumnValues): number {
    if (ArrayBuffer.isView(values)) return values.length;
    if (isByteArrays(values)) return values.offsets.length - 1;
    if (isFixed(values) && values.width > 0) return Math.floor(values.data.length / values.width);
    throw this.formError(values, 'column values');
  }
}

// ---- truncation ----

/** Whether `b[s, e)` is well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF). */
function isUtf8(b: Uint8Array, s: number, e: number): boolean {
  return utf8ErrorAt(b, s, e) < 0;
}

/** Largest character boundary `<= length` in `b` (which is longer than `length`). */
function utf8Cut(b: Uint8Array, length: number): number {
  let cut = length;
  while (cut > 0 && (b[cut]! & 0xc0) === 0x80) cut--;
  return cut;
}

/**
 * Truncates a lower bound to at most `length` bytes: its prefix, cut on a character boundary when `utf8` and the
 * prefix is well-formed UTF-8 (a prefix is never greater than the value byte-wise).
 * @param bytes - the exact lower bound.
 * @param length - the maximum length (a positive integer, or `Infinity`).
 * @param utf8 - whether the column holds UTF-8 text (STRING, ENUM, JSON).
 * @returns the bound, `exact` when it was not truncated.
 */
export function truncateLowerBound(bytes: Uint8Array, length: number, utf8: boolean): TruncatedBound {
  if (bytes.length <= length) return { bytes, exact: true };
  if (utf8) {
    const cut = utf8Cut(bytes, length);
    if (isUtf8(bytes, 0, cut)) return { bytes: bytes.slice(0, cut), exact: false };
  }
  return { bytes: bytes.slice(0, length), exact: false };
}

/**
 * Truncates an upper bound to at most `length` bytes: a prefix whose last byte (for `utf8`, last character) is
 * incremented, so that it is greater than every value the exact bound is not less than; trailing bytes (characters)
 * that cannot be incremented are dropped. UTF-8 results stay well-formed (U+D7FF steps to U+E000; U+10FFFF cannot
 * be incremented). When no such prefix exists (e.g. a prefix of only 0xFF bytes) the exact bound is kept.
 * @param bytes - the exact upper bound.
 * @param length - the maximum length (a positive integer, or `Infinity`).
 * @param utf8 - whether the column holds UTF-8 text (STRING, ENUM, JSON); a prefix that is not well-formed UTF-8 is
 *   treated as bytes.
 * @returns the bound, `exact` when it is the untruncated value.
 */
export function truncateUpperBound(bytes: Uint8Array, length: number, utf8: boolean): TruncatedBound {
  if (bytes.length <= length) return { bytes, exact: true };
  if (utf8) {
    const cut = utf8Cut(bytes, length);
    if (isUtf8(bytes, 0, cut)) {
      let end = cut;
      while (end > 0) {
        let st = end - 1;
        while (st > 0 && (bytes[st]! & 0xc0) === 0x80) st--;
        const cp = decodeCodePoint(bytes, st, end);
        const next = cp === 0xd7ff ? 0xe000 : cp + 1;
        if (next <= 0x10ffff) {
          const n = next < 0x80 ? 1 : next < 0x800 ? 2 : next < 0x10000 ? 3 : 4;
          if (st + n <= length) {
            const out = new Uint8Array(st + n);
            out.set(bytes.subarray(0, st));
            encodeCodePoint(next, out, st);
            return { bytes: out, exact: false };
          }
        }
        end = st;
      }
      return { bytes, exact: true };
    }
  }
  for (let k = length - 1; k >= 0; k--) {
    if (bytes[k] !== 0xff) {
      const out = bytes.slice(0, k + 1);
      out[k]!++;
      return { bytes: out, exact: false };
    }
  }
  return { bytes, exact: true };
}

/** The code point of the well-formed character `b[s, e)`. */
function decodeCodePoint(b: Uint8Array, s: number, e: number): number {
  const c = b[s]!;
  const n = e - s;
  if (n === 1) return c;
  let cp = c & (n === 2 ? 0x1f : n === 3 ? 0x0f : 0x07);
  for (let i = s + 1; i < e; i++) cp = (cp << 6) | (b[i]! & 0x3f);
  return cp;
}

/** Writes the UTF-8 encoding of `cp` (not a surrogate) at `out[at]`. */
function encodeCodePoint(cp: number, out: Uint8Array, at: number): void {
  if (cp < 0x80) out[at] = cp;
  else if (cp < 0x800) {
    out[at] = 0xc0 | (cp >> 6);
    out[at + 1] = 0x80 | (cp & 0x3f);
  } else if (cp < 0x10000) {
    out[at] = 0xe0 | (cp >> 12);
    out[at + 1] = 0x80 | ((cp >> 6) & 0x3f);
    out[at + 2] = 0x80 | (cp & 0x3f);
  } else {
    out[at] = 0xf0 | (cp >> 18);
    out[at + 1] = 0x80 | ((cp >> 12) & 0x3f);
    out[at + 2] = 0x80 | ((cp >> 6) & 0x3f);
    out[at + 3] = 0x80 | (cp & 0x3f);
  }
}
