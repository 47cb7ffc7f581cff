/**
 * JavaScript values → physical values, per logical type: the inverse of the reader's value mapping (`convertValues`
 * in `to-js.ts`), so that every value the reader returns writes back to the same physical value. Implements the
 * physical types of https://github.com/apache/parquet-format/blob/master/README.md#types and the logical types of
 * https://github.com/apache/parquet-format/blob/master/LogicalTypes.md (INT96 as parquet-java and Arrow lay it out).
 *
 * | Parquet | accepted JavaScript values | written as |
 * | --- | --- | --- |
 * | BOOLEAN | `boolean`; a `Uint8Array` of 0/1 as the whole input | 0/1 byte |
 * | INT32, INTEGER(8/16/32, signed) | integer `number` or `bigint` in the type's range | int32 |
 * | TIME(MILLIS) | integer `number` or `bigint` of milliseconds since midnight, 0..86399999 (a time of day, as Arrow's time32) | int32 |
 * | INTEGER(8/16/32, unsigned) | integer `number` or `bigint` in 0..2^n-1 | int32, two's complement |
 * | DATE | integer `number`/`bigint` days since 1970-01-01, or a valid `Date` (floored to its UTC day: the time of day is dropped) | int32 days |
 * | INT64, INTEGER(64) | `bigint` in range, or a safe-integer `number` (\|v\| ≤ 2^53-1) | int64 |
 * | TIME(MICROS/NANOS) | `bigint` or integer `number` of units since midnight, 0 ≤ v < one day (86400·10^6 µs, 86400·10^9 ns; as Arrow's time64) | int64 |
 * | INTEGER(64, unsigned) | `bigint` 0..2^64-1, or a safe-integer `number` ≥ 0 | int64, two's complement |
 * | TIMESTAMP (any unit) | `bigint` / safe-integer `number` count in the column's unit, or a valid `Date` (milliseconds scaled to the unit) | int64 |
 * | INT96 | `bigint` nanoseconds since the epoch, or a valid `Date` | canonical: nanoseconds of the day (0..86399999999999, int64 LE) + Julian day (int32 LE) |
 * | DECIMAL (INT32, INT64, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY) | exact decimal `string` (`[+-]digits[.digits][e[+-]digits]`), `bigint` (the value itself), or a finite `number` (its shortest decimal form, `String(v)`) | unscaled integer; BYTE_ARRAY: minimal big-endian two's complement (at least one byte); FLBA: sign-extended to the width |
 * | FLOAT | `number` (rounded to the nearest float32; a finite value that rounds to ±Infinity is an error) | float32 |
 * | DOUBLE | `number` | float64 |
 * | FLOAT16 (FLBA(2)) | `number` (round to nearest, ties to even; NaN → 0x7e00; a finite value that rounds to ±Infinity is an error) | IEEE half, LE |
 * | STRING, ENUM, JSON (BYTE_ARRAY) | `string` (UTF-8; lone surrogates → U+FFFD, or an error under `strictUtf8`), a `Uint8Array` taken as the bytes, or all the values as one `{ offsets, data }` (bytes: each value must be well-formed UTF-8 on its own); JSON's syntax is not checked (the caller gives JSON text: see the writer's `field.json`) | bytes |
 * | STRING, ENUM, JSON (FLBA) | as above, exactly `typeLength` UTF-8 bytes | bytes |
 * | unannotated BYTE_ARRAY | `Uint8Array`, or a `string` (written as UTF-8); or all the values as one `{ offsets, data }` | bytes |
 * | BSON, GEOMETRY, GEOGRAPHY, other BYTE_ARRAY | `Uint8Array` only; or all the values as one `{ offsets, data }` | bytes |
 * | UUID (FLBA(16)) | `string` 8-4-4-4-12 hex digits (either case), or a 16-byte `Uint8Array` | 16 bytes |
 * | INTERVAL (FLBA(12)) | `{ months, days, millis }` (each an integer 0..2^32-1), or a 12-byte `Uint8Array` | 3 × uint32 LE |
 * | other FIXED_LEN_BYTE_ARRAY | `Uint8Array` of exactly `typeLength` bytes | bytes |
 *
 * Typed arrays pass through without a per-value step and without a copy when they already hold the physical values
 * (the result is then a view of the input): `Int32Array` for signed INT32 columns (range-checked for 8/16-bit
 * INTEGER), `Uint32Array` for INTEGER(32, unsigned), `BigInt64Array` for signed INT64 columns, `BigUint64Array` for
 * INTEGER(64, unsigned), `Float32Array` for FLOAT, `Float64Array` for DOUBLE, `Uint8Array` of 0/1 for BOOLEAN. Any
 * other typed array is read value by value like an array (e.g. a `Float64Array` for INT64 or INTEGER(32, unsigned),
 * as the reader returns with `int64: 'number'` or for UINT_32).
 *
 * @module
 */
import type { ByteArrays, ColumnValues, FixedLenByteArrays } from '@parquetry/parquet-encodings';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { ParquetError, Type, type LogicalType } from '@parquetry/thrift-compact';
import { MAX_BINARY_BYTES } from './values.js';
import { utf8ErrorAt } from './utf8.js';

/** Options of {@link fromJsValues}. */
export interface FromJsOptions {
  /**
   * Reject JavaScript strings that are not well-formed UTF-16 (a lone surrogate) in text columns instead of writing
   * U+FFFD for it (default false). Bytes given for a STRING, ENUM or JSON column (a `Uint8Array`, or `{ offsets, data }`)
   * are checked for UTF-8 whatever this says.
   */
  strictUtf8?: boolean;
}

type RowOf = ((valueIndex: number) => number) | undefined;

const TWO32 = 4294967296;
const MS_PER_DAY = 86400000;
const JULIAN_EPOCH_DAY = 2440588;
const NANOS_PER_DAY = 86400000000000n;
const MICROS_PER_DAY = 86400000000n;
/** Days since the epoch whose Julian day number fits in an int32. */
const INT96_DAY_MIN = -2147483648n - BigInt(JULIAN_EPOCH_DAY);
const INT96_DAY_MAX = 2147483647n - BigInt(JULIAN_EPOCH_DAY);
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const U64_MAX = 2n ** 64n - 1n;
const SAFE_MIN = BigInt(Number.MIN_SAFE_INTEGER);
const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);
/** Largest |precision| or |scale| accepted for DECIMAL (10^p is computed once per call). */
const MAX_DECIMAL_DIGITS = 10000;
/** Exact powers of ten as doubles (10^0..10^22). */
const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);

// Index of the low and high 32-bit word of an int64 in an Int32Array alias (platform byte order, as BigInt64Array).
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
const LO = LITTLE_ENDIAN ? 0 : 1;
const HI = LITTLE_ENDIAN ? 1 : 0;

const utf8 = /*#__PURE__*/ new TextEncoder();

// ---------------------------------------------------------------------------------------------------------------
// errors

function describe(v: unknown): string {
  try {
    switch (typeof v) {
      case 'string':
        return v.length > 40 ? `${JSON.stringify(v.slice(0, 40))}… (${v.length} chars)` : JSON.stringify(v);
      case 'number':
        return `number ${Object.is(v, -0) ? '-0' : String(v)}`;
      case 'bigint':
        return `bigint ${v}n`;
      case 'boolean':
        return `boolean ${v}`;
      case 'undefined':
        return 'undefined';
      case 'symbol':
        return v.toString();
      case 'function':
        return 'a function';
      default: {
        if (v === null) return 'null';
        if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'an invalid Date' : `Date ${v.toISOString()}`;
        if (ArrayBuffer.isView(v)) {
          const len = (v as { length?: unknown }).length;
          return `${v.constructor.name}(${typeof len === 'number' ? len : `${v.byteLength} bytes`})`;
        }
        if (Array.isArray(v)) return `an array of ${v.length}`;
        const name = (Object.getPrototypeOf(v) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
        return typeof name === 'string' && name !== '' && name !== 'Object' ? `a ${name}` : 'an object';
      }
    }
  } catch {
    return 'an unprintable value';
  }
}

function invalid(column: ColumnDescriptor, i: number, rowOf: RowOf, expected: string, v: unknown, detail?: string): ParquetError {
  const where = rowOf ? `row ${rowOf(i)}` : `value ${i}`;
  return new ParquetError(
    'INVALID_VALUE',
    `parquet-column: column '${column.pathString}': ${where}: expected ${expected}, got ${describe(v)}${detail ? ` (${detail})` : ''}`,
  );
}

function schemaError(column: ColumnDescriptor, what: string): ParquetError {
  return new ParquetError('INVALID_SCHEMA', `parquet-column: column '${column.pathString}': ${what}`);
}

// ---------------------------------------------------------------------------------------------------------------
// entry point

/**
 * Converts non-null JavaScript values to the column's physical values (the inverse of `convertValues`; see the
 * module table for what each column type accepts).
 * @param values - an array (or typed array) of JavaScript values, none of them null; for a BYTE_ARRAY column also
 *   the values' physical bytes as one `{ offsets, data }` (value `i` is `data[offsets[i]..offsets[i + 1])`, the
 *   offsets non-decreasing and within `data`), returned as is (sliced to the range) once text is checked for UTF-8.
 * @param start - first value index to convert.
 * @param end - end of the range (exclusive).
 * @param column - the leaf column (physical type, type length, logical/converted type).
 * @param options - conversion options.
 * @param rowOf - maps a value index (into `values`) to its row number; used only to name the row in errors
 *   (without it, errors name the value index).
 * @returns the physical values of `values[start..end)`: `Uint8Array` (BOOLEAN), `Int32Array`, `BigInt64Array`,
 *   `Float32Array`, `Float64Array`, `{ offsets, data }` (BYTE_ARRAY, one buffer for all bytes; `data` may be a view
 *   of a larger buffer) or `{ width, data }` (INT96, FIXED_LEN_BYTE_ARRAY). A typed-array input that already holds
 *   the physical values is returned as a view, without a copy.
 * @throws ParquetError `INVALID_VALUE` for a value of the wrong JavaScript type, out of range, not an integer for an
 *   integer column, a decimal that does not fit, a byte array of the wrong length, an invalid UUID string, bytes that
 *   are not well-formed UTF-8 for a STRING, ENUM or JSON column (each value on its own), or a lone surrogate under
 *   `strictUtf8`; `INVALID_ARGUMENT` for a bad range or `{ offsets, data }` for another column; `INVALID_SCHEMA` for a column
 *   this cannot write (unknown physical type, FIXED_LEN_BYTE_ARRAY without a length, DECIMAL precision < 1 or
 *   precision/scale beyond 10000); `VALUE_TOO_LARGE` when byte arrays exceed 2^31-1 bytes in total.
 */
export function fromJsValues(
  values: ArrayLike<unknown> | ByteArrays,
  start: number,
  end: number,
  column: ColumnDescriptor,
  options?: FromJsOptions,
  rowOf?: (valueIndex: number) => number,
): ColumnValues {
  if (isByteArrays(values)) return binaryValues(values, start, end, column, rowOf);
  const length = typeof values === 'object' && values !== null ? (values as { length?: unknown }).length : undefined;
  if (typeof length !== 'number') {
    throw new ParquetError('INVALID_ARGUMENT', `parquet-column: column '${column.pathString}': expected an array of values, got ${describe(values)}`);
  }
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end > length) {
    throw new ParquetError('INVALID_ARGUMENT', `parquet-column: column '${column.pathString}': value range ${start}..${end} is not inside 0..${length}`);
  }
  const lt = column.node.logicalType;
  const strict = options?.strictUtf8 === true;
  switch (column.type) {
    case Type.BOOLEAN:
      return booleans(values, start, end, column, rowOf);
    case Type.INT32:
      return lt?.DECIMAL ? decimalsInt32(values, start, end, column, rowOf, decimalSpec(column, lt)) : int32s(values, start, end, column, rowOf, lt);
    case Type.INT64:
      return lt?.DECIMAL ? decimalsInt64(values, start, end, column, rowOf, decimalSpec(column, lt)) : int64s(values, start, end, column, rowOf, lt);
    case Type.INT96:
      return int96s(values, start, end, column, rowOf);
    case Type.FLOAT:
      return floats(values, start, end, column, rowOf);
    case Type.DOUBLE:
      return doubles(values, start, end, column, rowOf);
    case Type.BYTE_ARRAY:
      return lt?.DECIMAL ? decimalsBinary(values, start, end, column, rowOf, decimalSpec(column, lt)) : byteArrays(values, start, end, column, rowOf, lt, strict);
    case Type.FIXED_LEN_BYTE_ARRAY:
      return fixed(values, start, end, column, rowOf, lt, strict);
    default:
      throw schemaError(column, `unknown physical type ${String(column.type)}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// BOOLEAN, INT32, INT64, INT96, FLOAT, DOUBLE

function booleans(values: ArrayLike<unknown>, start: number, end: number, column: ColumnDescriptor, rowOf: RowOf): Uint8Array {
  if (values instanceof Uint8Array) {
    for (let i = start; i < end; i++) if (values[i]! > 1) throw invalid(column, i, rowOf, 'a boolean (0 or 1 in a Uint8Array)', values[i]);
    return values.subarray(start, end);
  }
  const out = new Uint8Array(end - start);
  for (let i = start; i < end; i++) {
    const v = values[i];
    if (v === true) out[i - start] = 1;
    else if (v !== false) throw invalid(column, i, rowOf, 'a boolean', v);
  }
  return out;
}

function int32s(values: ArrayLike<unknown>, start: number, end: number, column: ColumnDescriptor, rowOf: RowOf, lt: LogicalType | undefined): Int32Array {
  const int = lt?.INTEGER;
  const unsigned = int !== undefined && !int.isSigned;
  const bits = int && int.bitWidth > 0 && int.bitWidth < 32 ? int.bitWidth : 32;
  // TIME(MILLIS) is a time of day: 0..86399999 ms after midnight (LogicalTypes.md; Arrow's time32 range)
  const time = lt?.TIME !== undefined;
  const lo = unsigned || time ? 0 : -(2 ** (bits - 1));
  const hi = time ? MS_PER_DAY - 1 : unsigned ? 2 ** bits - 1 : 2 ** (bits - 1) - 1;
  const date = lt?.DATE !== undefined;
  const n = end - start;
  if (values instanceof Int32Array && !unsigned) {
    if (bits < 32 || time) for (let i = start; i < end; i++) if (values[i]! < lo || values[i]! > hi) throw invalid(column, i, rowOf, expectedInt32(lo, hi, date, time), values[i]);
    return values.subarray(start, end);
  }
  if (values instanceof Uint32Array && unsigned && bits === 32) return new Int32Array(values.buffer, values.byteOffset + start * 4, n);
  const out = new Int32Array(n);
  for (let i = start; i < end; i++) {
    const v = values[i];
    if (typeof v === 'number') {
      if (!(Number.isInteger(v) && v >= lo && v <= hi)) throw invalid(column, i, rowOf, expectedInt32(lo, hi, date, time), v);
      out[i - start] = v;
    } else if (typeof v === 'bigint') {
      if (!(v >= lo && v <= hi)) throw invalid(column, i, rowOf, expectedInt32(lo, hi, date, time), v);
      out[i - start] = Number(v);
    } else if (date && v instanceof Date) {
      const ms = v.getTime();
      if (ms !== ms) throw invalid(column, i, rowOf, expectedInt32(lo, hi, date, time), v);
      out[i - start] = Math.floor(ms / MS_PER_DAY);
    } else {
      throw invalid(column, i, rowOf, expectedInt32(lo, hi, date, time), v);
    }
  }
  return out;
}

function expectedInt32(lo: number, hi: number, date: boolean, time: boolean): string {
  if (time) return `an integer number or bigint of milliseconds since midnight in ${lo}..${hi} (a time of day)`;
  return date ? `an integer number or bigint of days in ${lo}..${hi}, or a valid Date` : `an integer number or bigint in ${lo}..${hi}`;
}

/**
 * Writes `a * mul` (a safe integer times 1, 1000 or 10^6) as an int64 into two words of `words` at `w`; false when
 * the product is outside the int64 range. Exact without BigInt: `a = ah * 2^32 + al`, `al * mul < 2^53`.
 */
function putInt64(words: Int32Array, w: number, a: number, mul: number): boolean {
  const ah = Math.floor(a / TWO32);
  const p = (a - ah * TWO32) * mul;
  const carry = Math.floor(p / TWO32);
  const hi = ah * mul + carry;
  if (hi < -2147483648 || hi > 2147483647) return false;
  words[w + LO] = p - carry * TWO32;
  words[w + HI] = hi;
  return true;
}

function unitMultiplier(lt: LogicalType | undefined): number {
  const u = lt?.TIMESTAMP?.unit;
  if (!u) return 0;
  return u.MILLIS ? 1 : u.MICROS ? 1000 : 1000000;
}

function int64s(values: ArrayLike<unknown>, start: number, end: number, column: ColumnDescriptor, rowOf: RowOf, lt: LogicalType | undefined): BigInt64Array {
  const unsigned = lt?.INTEGER !== undefined && !lt.INTEGER.isSigned;
  const dateMul = unitMultiplier(lt); // 0: Dates not accepted
  const n = end - start;
  const time = lt?.TIME;
  if (time !== undefined) return times(values, start, end, column, rowOf, time.unit.NANOS ? NANOS_PER_DAY : time.unit.MICROS ? MICROS_PER_DAY : BigInt(MS_PER_DAY));
  if (values instanceof BigInt64Array && !unsigned) return values.subarray(start, end);
  if (values instanceof BigUint64Array && unsigned) return new BigInt64Array(values.buffer, values.byteOffset + start * 8, n);
  const out = new BigInt64Array(n);
  const words = new Int32Array(out.buffer, 0, n * 2);
  for (let i = start; i < end; i++) {
    const v = values[i];
    const k = i - start;
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v) || (unsigned && v < 0)) throw invalid(column, i, rowOf, expectedInt64(unsigned, dateMul), v);
      putInt64(words, 2 * k, v, 1);
    } else if (typeof v === 'bigint') {
      if (unsigned ? v < 0n || v > U64_MAX : v < I64_MIN || v > I64_MAX) throw invalid(column, i, rowOf, expectedInt64(unsigned, dateMul), v);
      out[k] = v;
    } else if (dateMul !== 0 && v instanceof Date) {
      const ms = v.getTime();
      if (ms !== ms || !putInt64(words, 2 * k, ms, dateMul)) throw invalid(column, i, rowOf, expectedInt64(unsigned, dateMul), v, ms === ms ? 'outside the int64 range in the column unit' : undefined);
    } else {
      throw invalid(column, i, rowOf, expectedInt64(unsigned, dateMul), v);
    }
  }
  return out;
}

/**
 * TIME(MICROS/NANOS) in an INT64 column: a time of day, `0 <= v < perDay` units after midnight (LogicalTypes.md,
 * "TIME"; Arrow's time64 has the same range). A `BigInt64Array` in range is returned as a view.
 */
function times(values: ArrayLike<unknown>, start: number, end: number, column: ColumnDescriptor, rowOf: RowOf, perDay: bigint): BigInt64Array {
  const hi = Number(perDay) - 1; // below 2^53 for every unit
  const expected = `a bigint or integer number of ${perDay === NANOS_PER_DAY ? 'nanoseconds' : 'microseconds'} since midnight in 0..${hi} (a time of day)`;
  if (values instanceof BigInt64Array) {
    for (let i = start; i < end; i++) if (values[i]! < 0n || values[i]! >= perDay) throw invalid(column, i, rowOf, expected, values[i]);
    return values.subarray(start, end);
  }
  const out = new BigInt64Array(end - start);
  const words = new Int32Array(out.buffer, 0, (end - start) * 2);
  for (let i = start; i < end; i++) {
    const v = values[i];
    if (typeof v === 'number') {
      if (!(Number.isInteger(v) && v >= 0 && v <= hi)) throw invalid(column, i, rowOf, expected, v);
      putInt64(words, 2 * (i - start), v, 1);
    } else if (typeof v === 'bigint') {
      if (v < 0n || v >= perDay) throw invalid(column, i, rowOf, expected, v);
      out[i - start] = v;
    } else {
      throw invalid(column, i, rowOf, expected, v);
    }
  }
  return out;
}

function expectedInt64(unsigned: boolean, dateMul: number): string {
  const ints = unsigned ? 'a bigint in 0..2^64-1 or a safe-integer number ≥ 0' : 'a bigint in -2^63..2^63-1 or a safe-integer number';
  return dateMul !== 0 ? `${ints} (count in the column's unit since the epoch), or a valid Date` : ints;
}

function int96s(values: ArrayLike<unknown>, start: number, end: number, column: ColumnDescriptor, rowOf: RowOf): FixedLenByteArrays {
  const n = end - start;
  const data = new Uint8Array(n * 12);
  const dv = new DataView(data.buffer);
  const expected = 'a bigint of nanoseconds since the epoch or a valid Date';
  for (let i = start; i < end; i++) {
    const v = values[i];
    const o = (i - start) * 12;
    let nanos: number;
    let day: number;
    if (typeof v === 'bigint') {
      let q = v / NANOS_PER_DAY;
      let r = v % NANOS_PER_DAY;
      if (r < 0n) {
        r += NANOS_PER_DAY;
        q -= 1n;
      }
      if (q < INT96_DAY_MIN || q > INT96_DAY_MAX) {
        throw invalid(column, i, rowOf, expected, v, 'its Julian day does not fit in 32 bits');
      }
      day = Number(q) + JULIAN_EPOCH_DAY;
      nanos = Number(r);
    } else if (v instanceof Date) {
      const ms = v.getTime();
      if (ms !== ms) throw invalid(column, i, rowOf, expected, v);
      const d = Math.floor(ms / MS_PER_DAY);
      day = d + JULIAN_EPOCH_DAY;
      nanos = (ms - d * MS_PER_DAY) * 1000000;
    } else {
      throw invalid(column, i, rowOf, expected, v);
    }
    const nh = Math.floor(nanos / TWO32);
    dv.setUint32(o, nanos - nh * TWO32, true);
    dv.setUint32(o + 4, nh, true);
    dv.setInt32(o + 8, day, true);
  }
  return { width: 12, data };
}

function floats(values: ArrayLike<unknown>, start: number, end: number, column: ColumnDescriptor, rowOf: RowOf): Float32Array {
  if (values instanceof Float32Array) return values.subarray(start, end);
  const out = new Float32Array(end - start);
  for (let i = start; i < end; i++) {
    const v = values[i];
    if (typeof v !== 'number') throw invalid(column, i, rowOf, 'a number', v);
    const f = Math.fround(v);
    if ((f === Infinity || f === -Infinity) && v !== f) throw invalid(column, i, rowOf, 'a number within the FLOAT range (±3.4028235e38)', v);
    out[i - start] = f;
  }
  return out;
}

function doubles(values: ArrayLike<unknown>, start: number, end: number, column: ColumnDescriptor, rowOf: RowOf): Float64Array {
  if (values instanceof Float64Array) return values.subarray(start, end);
  const out = new Float64Array(end - start);
  for (let i = start; i < end; i++) {
    const v = values[i];
    if (typeof v !== 'number') throw invalid(column, i, rowOf, 'a number', v);
    out[i - start] = v;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// FLOAT16

const f64 = new Float64Array(1);
const f64words = new Uint32Array(f64.buffer);

function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  return d > 0.5 || (d === 0.5 && (f & 1) === 1) ? f + 1 : f;
}

/**
 * IEEE 754 binary16 bits of a number, rounded to nearest, ties to even; -1 when a finite number rounds to ±Infinity.
 * @param v - the number.
 * @returns the 16 bits, or -1 on overflow.
 */
function toFloat16(v: number): number {
  if (v !== v) return 0x7e00;
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a === Infinity) return sign | 0x7c00;
  if (a < 2 ** -14) return sign | roundHalfEven(a * 2 ** 24); // subnormal (1024 carries into the smallest normal)
  f64[0] = a;
  const e = (f64words[HI]! >>> 20) - 1023; // a is a normal double here
  const m = roundHalfEven(a * 2 ** (10 - e)); // 1024..2048; 2048 carries into the exponent
  const bits = ((e + 15) << 10) + (m - 1024);
  return bits >= 0x7c00 ? -1 : sign | bits;
}

// ---------------------------------------------------------------------------------------------------------------
// DECIMAL

interface DecimalSpec {
  readonly scale: number;
  readonly precision: number;
  /** 10^|scale| */
  readonly pow: bigint;
  /** 10^precision */
  readonly limit: bigint;
  readonly expected: string;
}

function decimalSpec(column: ColumnDescriptor, lt: LogicalType): DecimalSpec {
  const { scale, precision } = lt.DECIMAL!;
  if (!Number.isInteger(precision) || precision < 1 || precision > MAX_DECIMAL_DIGITS || !Number.isInteger(scale) || Math.abs(scale) > MAX_DECIMAL_DIGITS) {
    throw schemaError(column, `DECIMAL(${precision}, ${scale}) cannot be written (precision must be 1..${MAX_DECIMAL_DIGITS}, |scale| at most ${MAX_DECIMAL_DIGITS})`);
  }
  return {
    scale,
    precision,
    pow: 10n ** BigInt(Math.abs(scale)),
    limit: 10n ** BigInt(precision),
    expected: `a decimal string, bigint or number with at most ${precision} digits and ${scale} fractional digits`,
  };
}

// The result of toUnscaled (read right after each call; nothing runs in between).
let decN = 0;
let decB = 0n;
let decWhy = '';

const NUM = 0;
const BIG = 1;
const BAD = -1;

/**
 * Parses an exact decimal string into its unscaled integer at `spec.scale`.
 * @returns NUM (in decN, a safe integer), BIG (in decB) or BAD (reason in decWhy).
 */
function parseDecimal(s: string, spec: DecimalSpec): number {
  const len = s.length;
  let i = 0;
  let neg = false;
  let c = len > 0 ? s.charCodeAt(0) : 0;
  if (c === 45 /* - */ || c === 43 /* + */) {
    neg = c === 45;
    i = 1;
  }
  const intStart = i;
  while (i < len && (c = s.charCodeAt(i)) >= 48 && c <= 57) i++;
  const intLen = i - intStart;
  let fracStart = i;
  if (i < len && s.charCodeAt(i) === 46 /* . */) {
    fracStart = ++i;
    while (i < len && (c = s.charCodeAt(i)) >= 48 && c <= 57) i++;
  }
  const fracLen = i - fracStart;
  let exp = 0;
  if (intLen + fracLen > 0 && i < len && ((c = s.charCodeAt(i)) === 101 || c === 69) /* e E */) {
    i++;
    let expNeg = false;
    if (i < len && ((c = s.charCodeAt(i)) === 45 || c === 43)) {
      expNeg = c === 45;
      i++;
    }
    const expStart = i;
    while (i < len && (c = s.charCodeAt(i)) >= 48 && c <= 57) {
      if (exp < 1e9) exp = exp * 10 + (c - 48);
      i++;
    }
    if (i === expStart) i = -1;
    if (expNeg) exp = -exp;
  }
  if (intLen + fracLen === 0 || i !== len) {
    decWhy = 'not a decimal number';
    return BAD;
  }
  // digit j of the digit string (integer then fraction digits) is at s[at(j)]
  const total = intLen + fracLen;
  const shift = exp - fracLen + spec.scale; // unscaled = digits * 10^shift
  let kept = total;
  if (shift < 0) {
    // the last -shift digits are dropped: they must be zeros
    kept = total + shift;
    for (let j = Math.max(kept, 0); j < total; j++) {
      if (s.charCodeAt(j < intLen ? intStart + j : fracStart + j - intLen) !== 48) {
        decWhy = `more than ${spec.scale} fractional digits`;
        return BAD;
      }
    }
  }
  let first = 0;
  while (first < kept && s.charCodeAt(first < intLen ? intStart + first : fracStart + first - intLen) === 48) first++;
  const sig = kept - first;
  if (sig <= 0) {
    decN = 0;
    return NUM;
  }
  const digits = sig + (shift > 0 ? shift : 0);
  if (digits > spec.precision) {
    decWhy = `${digits} digits, more than the precision ${spec.precision}`;
    return BAD;
  }
  if (digits <= 15) {
    let v = 0;
    for (let j = first; j < kept; j++) v = v * 10 + (s.charCodeAt(j < intLen ? intStart + j : fracStart + j - intLen) - 48);
    if (shift > 0) v *= POW10[shift]!;
    decN = neg ? -v : v;
    return NUM;
  }
  const from = first < intLen ? intStart + first : fracStart + first - intLen;
  let str = first < intLen ? s.slice(from, intStart + Math.min(kept, intLen)) + (kept > intLen ? s.slice(fracStart, fracStart + kept - intLen) : '') : s.slice(from, fracStart + kept - intLen);
  if (shift > 0) str += '0'.repeat(shift);
  const b = BigInt(str);
  decB = neg ? -b : b;
  return BIG;
}

/**
 * The unscaled integer of a JavaScript decimal value.
 * @returns NUM (decN), BIG (decB) or BAD (decWhy; '' for a value of the wrong type).
 */
function toUnscaled(v: unknown, spec: DecimalSpec): number {
  if (typeof v === 'string') return parseDecimal(v, spec);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) {
      decWhy = '';
      return BAD;
    }
    const scale = spec.scale;
    if (Number.isInteger(v) && scale >= 0 && scale <= 22) {
      const u = v * POW10[scale]!; // exact when the product is a safe integer
      if (Number.isSafeInteger(u)) {
        if (spec.precision <= 15 && Math.abs(u) >= POW10[spec.precision]!) {
          decWhy = `more digits than the precision ${spec.precision}`;
          return BAD;
        }
        decN = u + 0; // -0 → 0
        return NUM;
      }
    }
    return parseDecimal(String(v), spec);
  }
  if (typeof v === 'bigint') {
    let u: bigint;
    if (spec.scale >= 0) u = v * spec.pow;
    else if (v % spec.pow === 0n) u = v / spec.pow;
    else {
      decWhy = `not a multiple of 10^${-spec.scale}`;
      return BAD;
    }
    if (u >= spec.limit || u <= -spec.limit) {
      decWhy = `more digits than the precision ${spec.precision}`;
      return BAD;
    }
    if (u >= SAFE_MIN && u <= SAFE_MAX) {
      decN = Number(u);
      return NUM;
    }
    decB = u;
    return BIG;
  }
  decWhy = '';
  return BAD;
}

function decimalsInt32(values: ArrayLike<unknown>, start: number, end: number, column: ColumnDescriptor, rowOf: RowOf, spec: DecimalSpec): Int32Array {
  const out = new Int32Array(end - start);
  for (let i = start; i < end; i++) {
    const v = values[i];
    const kind = toUnscaled(v, spec);
    if (kind === BAD) throw invalid(column, i, rowOf, spec.expected, v, decWhy || undefined);
    if (kind === BIG || decN < -2147483648 || decN > 2147483647) throw invalid(column, i, rowOf, spec.expected, v, 'its unscaled value does not fit in INT32');
    out[i - start] = decN;
  }
  return out;
}

function decimalsInt64(values: ArrayLike<unknown>, start: number, end: number, column: ColumnDescriptor, rowOf: RowOf, spec: DecimalSpec): BigInt64Array {
  const n = end - start;
  const out = new BigInt64Array(n);
  const words = new Int32Array(out.buffer, 0, n * 2);
  for (let i = start; i < end; i++) {
    const v = values[i];
    const kind = toUnscaled(v, spec);
    if (kind === NUM) putInt64(words, 2 * (i - start), decN, 1);
    else if (kind === BIG && decB >= I64_MIN && decB <= I64_MAX) out[i - start] = decB;
    else throw invalid(column, i, rowOf, spec.expected, v, kind === BAD ? decWhy || undefined : 'its unscaled value does not fit in INT64');
  }
  return out;
}

/** Writes a safe integer as `width` big-endian two's-complement bytes (sign-extended; the caller checked it fits). */
function putSignedBE(data: Uint8Array, pos: number, width: number, v: number): void {
  let hi = Math.floor(v / TWO32);
  let lo = v - hi * TWO32;
  let p = pos + width - 1;
  for (let b = 0; b < 4 && p >= pos; b++, p--) {
    data[p] = lo & 255;
    lo = lo >>> 8;
  }
  for (; p >= pos; p--) {
    data[p] = hi & 255;
    hi >>= 8; // arithmetic: ends at 0 or -1, the sign fill
  }
}

/** Writes a bigint as `width` big-endian two's-complement bytes (sign-extended; the caller checked it fits). */
function putSignedBEBig(data: Uint8Array, pos: number, width: number, v: bigint): void {
  let x = v;
  let p = pos + width - 1;
  while (p >= pos) {
    let w = Number(BigInt.asUintN(32, x));
    x >>= 32n;
    for (let b = 0; b < 4 && p >= pos; b++, p--) {
      data[p] = w & 255;
      w >>>= 8;
    }
  }
}

/** Fewest bytes that hold a safe integer in two's complement (at least 1). */
function minBytes(v: number): number {
  const x = v < 0 ? -v - 1 : v;
  if (x < 128) return 1;
  const bits = x < TWO32 ? 32 - Math.clz32(x) : 64 - Math.clz32(Math.floor(x / TWO32));
  return (bits >> 3) + 1;
}

/** Fewest bytes that hold a bigint in two's complement (at least 1). */
function minBytesBig(v: bigint): number {
  const hex = (v < 0n ? -v - 1n : v).toString(16);
  const bits = (hex.length - 1) * 4 + (32 - Math.clz32(parseInt(hex[0]!, 16)));
  return (bits >> 3) + 1;
}

function decimalsBinary(values: ArrayLike<unknown>, start: number, end: number, column: ColumnDescriptor, rowOf: RowOf, spec: DecimalSpec): ByteArrays {
  const n = end - start;
  const offsets = new Int32Array(n + 1);
  // bytes for 10^precision - 1, plus the sign bit
  const maxBytes = Math.ceil((spec.precision * Math.log2(10) + 1) / 8);
  let data = allocate(Math.min(n * Math.min(maxBytes, 8) + 16, MAX_BINARY_BYTES), column);
  let at = 0;
  for (let i = start; i < end; i++) {
    const v = values[i];
    const kind = toUnscaled(v, spec);
    if (kind === BAD) throw invalid(column, i, rowOf, spec.expected, v, decWhy || undefined);
    const len = kind === NUM ? minBytes(decN) : minBytesBig(decB);
    if (at + len > data.length) data = grow(data, at, at + len, column);
    if (kind === NUM) putSignedBE(data, at, len, decN);
    else putSignedBEBig(data, at, len, decB);
    at += len;
    offsets[i - start + 1] = at;
  }
  return { offsets, data: data.subarray(0, at) };
}

// ---------------------------------------------------------------------------------------------------------------
// BYTE_ARRAY

function allocate(bytes: number, column: ColumnDescriptor): Uint8Array {
  try {
    return new Uint8Array(bytes);
  } catch (e) {
    throw new ParquetError('VALUE_TOO_LARGE', `parquet-column: column '${column.pathString}': cannot allocate ${bytes} bytes for the values`, undefined, { cause: e });
  }
}

function tooLarge(column: ColumnDescriptor, bytes: number): ParquetError {
  return new ParquetError(
    'VALUE_TOO_LARGE',
    `parquet-column: column '${column.pathString}': the values hold more than ${MAX_BINARY_BYTES} bytes (${bytes} needed), more than 32-bit offsets address; write them in smaller batches`,
  );
}

/**
 * A larger copy of `data` holding at least `need` bytes (and `hint` when larger, else 1.5 times as many), or
 * MAX_BINARY_BYTES when that is less (the caller checks).
 */
function grow(data: Uint8Array, used: number, need: number, column: ColumnDescriptor, hint = 0): Uint8Array {
  if (used >= MAX_BINARY_BYTES) throw tooLarge(column, need);
  const size = Math.min(Math.max(need, hint > 0 ? hint : Math.floor(data.length * 1.5), 1024), MAX_BINARY_BYTES);
  const out = allocate(size, column);
  out.set(data.subarray(0, used));
  return out;
}

/**
 * Encodes `s[j..]` as UTF-8 into `data` at `p` (room for 3 bytes per remaining UTF-16 unit is there).
 * @returns the new end, or `-1 - index` of a lone surrogate when `strict`.
 */
function utf8Tail(s: string, j: number, data: Uint8Array, p: number, strict: boolean): number {
  const len = s.length;
  for (; j < len; j++) {
    const c = s.charCodeAt(j);
    if (c < 0x80) data[p++] = c;
    else if (c < 0x800) {
      data[p++] = 0xc0 | (c >> 6);
      data[p++] = 0x80 | (c & 63);
    } else if (c < 0xd800 || c > 0xdfff) {
      data[p++] = 0xe0 | (c >> 12);
      data[p++] = 0x80 | ((c >> 6) & 63);
      data[p++] = 0x80 | (c & 63);
    } else {
      const d = c <= 0xdbff && j + 1 < len ? s.charCodeAt(j + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        data[p++] = 0xf0 | (cp >> 18);
        data[p++] = 0x80 | ((cp >> 12) & 63);
        data[p++] = 0x80 | ((cp >> 6) & 63);
        data[p++] = 0x80 | (cp & 63);
        j++;
      } else {
        if (strict) return -1 - j;
        data[p++] = 0xef; // U+FFFD
        data[p++] = 0xbf;
        data[p++] = 0xbd;
      }
    }
  }
  return p;
}

/** `String.prototype.isWellFormed` (ES2024) where the engine has it. */
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** Strings joined for one TextEncoder call (a short string: young generation, no large-object page). */
const ASCII_RUN = 512;

/** {@link putUtf8}'s result when `data` has too little room. */
const NO_ROOM = -0x80000000;

/**
 * Encodes a string as UTF-8 into `data` at `p` (room for one byte per UTF-16 unit must be there): ASCII char by char
 * (no allocation, no call: TextEncoder has a high per-call cost), the rest of a long non-ASCII string through
 * TextEncoder.encodeInto, short ones char by char.
 * @returns the new end; `-1 - index` of a lone surrogate when `strict`; NO_ROOM when the bytes may not fit.
 */
function putUtf8(s: string, data: Uint8Array, p: number, strict: boolean): number {
  const len = s.length;
  let j = 0;
  for (; j < len; j++) {
    const c = s.charCodeAt(j);
    if (c >= 0x80) break;
    data[p + j] = c;
  }
  if (j === len) return p + len;
  if (len - j >= 64 && (!strict || (isWellFormed !== undefined && isWellFormed.call(s)))) {
    // rewrites the ASCII prefix too (the same bytes)
    const r = utf8.encodeInto(s, data.subarray(p));
    return r.read === len ? p + r.written : NO_ROOM;
  }
  if (p + j + (len - j) * 3 > data.length) return NO_ROOM;
  return utf8Tail(s, j, data, p + j, strict);
}

/** Index of the first lone surrogate in `s`, or -1. */
function loneSurrogate(s: string): number {
  for (let j = 0; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c < 0xd800 || c > 0xdfff) continue;
    const d = c <= 0xdbff && j + 1 < s.length ? s.charCodeAt(j + 1) : 0;
    if (d < 0xdc00 || d > 0xdfff) return j;
    j++;
  }
  return -1;
}

/**
 * Index of the first byte ≥ 0x80 in `d[from..to)`, or `to`: four aligned 32-bit words at a time (`words` views all of
 * `d.buffer` from byte 0), bytes at the unaligned ends.
 */
function nonAsciiAt(d: Uint8Array, words: Int32Array, from: number, to: number): number {
  const base = d.byteOffset;
  let i = from;
  for (; i < to && ((base + i) & 3) !== 0; i++) if (d[i]! >= 0x80) return i;
  if (i >= to) return to;
  let w = (base + i) >> 2; // base + i is word-aligned here
  const wEnd = (base + to) >> 2;
  for (; w + 4 <= wEnd; w += 4) if (((words[w]! | words[w + 1]! | words[w + 2]! | words[w + 3]!) & 0x80808080) !== 0) break;
  for (; w < wEnd; w++) if ((words[w]! & 0x80808080) !== 0) break;
  for (i = (w << 2) - base; i < to; i++) if (d[i]! >= 0x80) return i;
  return to;
}

/** Whether `v` is `{ offsets: Int32Array, data: Uint8Array }` rather than an array of values. */
function isByteArrays(v: unknown): v is ByteArrays {
  return typeof v === 'object' && v !== null && !ArrayBuffer.isView(v) && !Array.isArray(v) &&
    (v as ByteArrays).offsets instanceof Int32Array && (v as ByteArrays).data instanceof Uint8Array;
}

/**
 * Values `[start, end)` of `{ offsets, data }` for a BYTE_ARRAY column, as they are; for a STRING, ENUM or JSON column
 * each value must be well-formed UTF-8 on its own (a sequence cut between two values is invalid in both). ASCII needs
 * no per-value work: the bytes are scanned a word at a time, and only a value holding a byte ≥ 0x80 is decoded, within
 * its own bounds, without allocating.
 */
function binaryValues(values: ByteArrays, start: number, end: number, column: ColumnDescriptor, rowOf: RowOf): ByteArrays {
  const { offsets, data } = values;
  const n = offsets.length - 1;
  if (column.type !== Type.BYTE_ARRAY) {
    throw new ParquetError('INVALID_ARGUMENT', `parquet-column: column '${column.pathString}': { offsets, data } values are for BYTE_ARRAY columns`);
  }
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end > n) {
    throw new ParquetError('INVALID_ARGUMENT', `parquet-column: column '${column.pathString}': value range ${start}..${end} is not inside 0..${Math.max(n, 0)}`);
  }
  const out = start === 0 && end === n ? values : { offsets: offsets.subarray(start, end + 1), data };
  const lt = column.node.logicalType;
  if (start === end || !(lt?.STRING || lt?.ENUM || lt?.JSON)) return out;
  const lo = offsets[start]!;
  const hi = offsets[end]!;
  if (!(lo >= 0 && lo <= hi && hi <= data.length)) {
    throw new ParquetError('INVALID_ARGUMENT', `parquet-column: column '${column.pathString}': offsets ${lo}..${hi} are not within the ${data.length} bytes of data`);
  }
  const words = new Int32Array(data.buffer, 0, data.buffer.byteLength >> 2);
  let k = start;
  for (let p = nonAsciiAt(data, words, lo, hi); p < hi; p = nonAsciiAt(data, words, offsets[k]!, hi)) {
    while (offsets[k + 1]! <= p) k++; // the value holding byte p
    const a = offsets[k]!;
    const b = offsets[k + 1]!;
    if (a > b) throw new ParquetError('INVALID_ARGUMENT', `parquet-column: column '${column.pathString}': offsets decrease at value ${k}`);
    const bad = utf8ErrorAt(data, p, b);
    if (bad >= 0) throw invalid(column, k, rowOf, 'a value of well-formed UTF-8', data.subarray(a, b), `invalid UTF-8 at byte ${bad - a}: ${hexAround(data, a, b, bad)}`);
    k++;
  }
  return out;
}

/** Up to 8 bytes of `d[a..b)` from `at - 2`, in hex, for messages. */
function hexAround(d: Uint8Array, a: number, b: number, at: number): string {
  const from = Math.max(a, at - 2);
  const to = Math.min(b, at + 6);
  let s = from > a ? '… ' : '';
  for (let i = from; i < to; i++) s += (i > from ? ' ' : '') + (i === at ? '[' : '') + d[i]!.toString(16).padStart(2, '0') + (i === at ? ']' : '');
  return s + (to < b ? ' …' : '');
}

function copyBytes(src: Uint8Array, data: Uint8Array, at: number): void {
  const len = src.length;
  if (len < 32) for (let b = 0; b < len; b++) data[at + b] = src[b]!;
  else data.set(src, at);
}

/** Bytes all values will take, projected from the bytes per UTF-16 unit so far, with 1/8 to spare. */
function projected(bytes: number, unitsDone: number, unitsTotal: number): number {
  const perUnit = unitsDone > 0 ? Math.max(bytes / unitsDone, 1) : 1;
  return Math.ceil(bytes + (unitsTotal - unitsDone) * perUnit * 1.125) + 64;
}

function byteArrays(values: ArrayLike<unknown>, start: number, end: number, column: ColumnDescriptor, rowOf: RowOf, lt: LogicalType | undefined, strict: boolean): ByteArrays {
  const text = lt?.STRING !== undefined || lt?.ENUM !== undefined || lt?.JSON !== undefined;
  // strings: text columns and unannotated binary; BSON, GEOMETRY, GEOGRAPHY and other annotations take bytes only
  const strings = text || lt === undefined;
  const expected = text ? 'a string or a Uint8Array of UTF-8' : strings ? 'a Uint8Array or a string' : 'a Uint8Array';
  const n = end - start;
  const offsets = new Int32Array(n + 1);
  // UTF-16 units and bytes: the exact size for ASCII strings and byte arrays; a little slack for some non-ASCII, and
  // a growth step sized by the bytes per unit so far for more
  let size = 0;
  let allStrings = strings && Array.isArray(values);
  for (let i = start; i < end; i++) {
    const v = values[i];
    if (typeof v === 'string') size += v.length;
    else if (v instanceof Uint8Array) {
      size += v.length;
      allStrings = false;
    } else allStrings = false;
  }
  let data = allocate(Math.min(size + (size >> 4) + 64, MAX_BINARY_BYTES), column);
  let at = 0;
  let units = 0;
  // strings only: a run of them joined into one string goes through one TextEncoder call (the whole run is ASCII when
  // as many bytes come out as UTF-16 units went in); a run with other characters takes the way value by value
  let ascii = allStrings && size <= data.length ? start : end;
  for (let i = start; i < end; i++) {
    if (i === ascii) {
      const stop = Math.min(end, i + ASCII_RUN);
      const run = (values as readonly string[]).slice(i, stop).join('');
      const r = utf8.encodeInto(run, data.subarray(at));
      if (r.read === run.length && r.written === run.length) {
        for (; i < stop; i++) {
          at += (values[i] as string).length;
          offsets[i - start + 1] = at;
        }
        units += run.length;
        ascii = stop;
        i--;
        continue;
      }
      ascii = stop; // the next run tries again
    }
    const v = values[i];
    if (typeof v === 'string' && strings) {
      const len = v.length;
      if (at + len > data.length) {
        if (at + len > MAX_BINARY_BYTES) throw tooLarge(column, at + len); // at least one byte per UTF-16 unit
        data = grow(data, at, at + len, column, projected(at, units, size));
      }
      let r = putUtf8(v, data, at, strict);
      if (r === NO_ROOM) {
        data = grow(data, at, at + len * 3, column, projected(at, units, size));
        r = putUtf8(v, data, at, strict);
        if (r === NO_ROOM) {
          // only next to MAX_BINARY_BYTES: the exact bytes decide
          const b = utf8.encode(v);
          if (at + b.length > data.length) throw tooLarge(column, at + b.length);
          const bad = strict ? loneSurrogate(v) : -1;
          if (bad >= 0) r = -1 - bad;
          else {
            data.set(b, at);
            r = at + b.length;
          }
        }
      }
      if (r < 0) throw invalid(column, i, rowOf, `${expected} (valid UTF-16)`, v, `lone surrogate at index ${-1 - r}`);
      at = r;
      units += len;
    } else if (v instanceof Uint8Array) {
      if (text) {
        let j = 0;
        const len = v.length;
        while (j < len && v[j]! < 0x80) j++;
        const bad = j < len ? utf8ErrorAt(v, j, len) : -1;
        if (bad >= 0) throw invalid(column, i, rowOf, `${expected} (well-formed UTF-8)`, v, `invalid UTF-8 at byte ${bad}: ${hexAround(v, 0, len, bad)}`);
      }
      const need = at + v.length;
      if (need > data.length) {
        if (need > MAX_BINARY_BYTES) throw tooLarge(column, need);
        data = grow(data, at, need, column, projected(at, units, size));
      }
      copyBytes(v, data, at);
      at = need;
      units += v.length;
    } else {
      throw invalid(column, i, rowOf, expected, v);
    }
    offsets[i - start + 1] = at;
  }
  return { offsets, data: data.subarray(0, at) };
}

// ---------------------------------------------------------------------------------------------------------------
// FIXED_LEN_BYTE_ARRAY

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 0x20;
  return l >= 97 && l <= 102 ? l - 87 : -1;
}

/** Parses an 8-4-4-4-12 UUID string into 16 bytes at `o`; false when it is not one. */
function putUuid(s: string, data: Uint8Array, o: number): boolean {
  if (s.length !== 36) return false;
  let p = 0;
  for (let b = 0; b < 16; b++) {
    if (b === 4 || b === 6 || b === 8 || b === 10) {
      if (s.charCodeAt(p) !== 45) return false;
      p++;
    }
    const h = hexDigit(s.charCodeAt(p));
    const l = hexDigit(s.charCodeAt(p + 1));
    if (h < 0 || l < 0) return false;
    data[o + b] = (h << 4) | l;
    p += 2;
  }
  return true;
}

function isUint32(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= 4294967295;
}

let scratch = new Uint8Array(256);

function fixed(values: ArrayLike<unknown>, start: number, end: number, column: ColumnDescriptor, rowOf: RowOf, lt: LogicalType | undefined, strict: boolean): FixedLenByteArrays {
  const width = column.typeLength;
  if (width === undefined || !Number.isInteger(width) || width < 0) throw schemaError(column, `FIXED_LEN_BYTE_ARRAY without a valid type_length (${String(width)})`);
  const n = end - start;
  const data = allocate(n * width, column);
  // the same tests, in the same order, as the reader's mapping
  if (lt?.DECIMAL) {
    const spec = decimalSpec(column, lt);
    // two's-complement range of `width` bytes, as numbers (exact up to 6 bytes) and as bigints
    const limN = width <= 6 ? 2 ** (8 * width - 1) : Infinity;
    const limB = 1n << BigInt(Math.max(8 * width - 1, 0));
    for (let i = start; i < end; i++) {
      const v = values[i];
      const kind = toUnscaled(v, spec);
      if (kind === BAD) throw invalid(column, i, rowOf, spec.expected, v, decWhy || undefined);
      const fits = width > 0 && (kind === NUM ? decN >= -limN && decN < limN : decB >= -limB && decB < limB);
      if (!fits) throw invalid(column, i, rowOf, spec.expected, v, `its unscaled value does not fit in ${width} bytes`);
      if (kind === NUM) putSignedBE(data, (i - start) * width, width, decN);
      else putSignedBEBig(data, (i - start) * width, width, decB);
    }
  } else if (lt?.UUID && width === 16) {
    for (let i = start; i < end; i++) {
      const v = values[i];
      const o = (i - start) * 16;
      if (typeof v === 'string') {
        if (!putUuid(v, data, o)) throw invalid(column, i, rowOf, 'a UUID string (8-4-4-4-12 hex digits) or a 16-byte Uint8Array', v);
      } else if (v instanceof Uint8Array && v.length === 16) {
        data.set(v, o);
      } else {
        throw invalid(column, i, rowOf, 'a UUID string (8-4-4-4-12 hex digits) or a 16-byte Uint8Array', v);
      }
    }
  } else if (lt?.FLOAT16 && width === 2) {
    for (let i = start; i < end; i++) {
      const v = values[i];
      const bits = typeof v === 'number' ? toFloat16(v) : -2;
      if (bits < 0) throw invalid(column, i, rowOf, bits === -1 ? 'a number within the FLOAT16 range (±65504)' : 'a number', v);
      data[(i - start) * 2] = bits & 255;
      data[(i - start) * 2 + 1] = bits >> 8;
    }
  } else if (column.node.element.converted_type === 21 /* INTERVAL */ && width === 12) {
    const expected = 'an interval { months, days, millis } (integers 0..2^32-1) or a 12-byte Uint8Array';
    for (let i = start; i < end; i++) {
      const v = values[i];
      const o = (i - start) * 12;
      if (v instanceof Uint8Array) {
        if (v.length !== 12) throw invalid(column, i, rowOf, expected, v);
        data.set(v, o);
        continue;
      }
      if (typeof v !== 'object' || v === null) throw invalid(column, i, rowOf, expected, v);
      const { months, days, millis } = v as { months?: unknown; days?: unknown; millis?: unknown };
      if (!isUint32(months) || !isUint32(days) || !isUint32(millis)) throw invalid(column, i, rowOf, expected, v);
      putUint32LE(data, o, months);
      putUint32LE(data, o + 4, days);
      putUint32LE(data, o + 8, millis);
    }
  } else {
    const text = lt?.STRING !== undefined || lt?.ENUM !== undefined || lt?.JSON !== undefined;
    const expected = text ? `a string of ${width} UTF-8 bytes or a Uint8Array of ${width} bytes` : `a Uint8Array of ${width} bytes`;
    for (let i = start; i < end; i++) {
      const v = values[i];
      const o = (i - start) * width;
      if (v instanceof Uint8Array && v.length === width) {
        const bad = text ? utf8ErrorAt(v, 0, width) : -1;
        if (bad >= 0) throw invalid(column, i, rowOf, expected, v, `invalid UTF-8 at byte ${bad}: ${hexAround(v, 0, width, bad)}`);
        copyBytes(v, data, o);
      } else if (text && typeof v === 'string') {
        if (v.length > width) throw invalid(column, i, rowOf, expected, v); // at least one byte per UTF-16 unit
        if (scratch.length < v.length * 3) scratch = new Uint8Array(v.length * 3);
        const r = putUtf8(v, scratch, 0, strict);
        if (r < 0) throw invalid(column, i, rowOf, expected, v, `lone surrogate at index ${-1 - r}`);
        if (r !== width) throw invalid(column, i, rowOf, expected, v, `${r} UTF-8 bytes`);
        data.set(scratch.subarray(0, width), o);
      } else {
        throw invalid(column, i, rowOf, expected, v);
      }
    }
  }
  return { width, data };
}

function putUint32LE(data: Uint8Array, o: number, v: number): void {
  data[o] = v & 255;
  data[o + 1] = (v >>> 8) & 255;
  data[o + 2] = (v >>> 16) & 255;
  data[o + 3] = v >>> 24;
}
