/**
 * The JSON-safe value mapping (`values: 'json'` in {@link ValueOptions}): every value becomes something
 * `JSON.stringify` writes without throwing and without losing data, for people who print or serialise rows.
 *
 * | Parquet (LogicalTypes.md, https://github.com/apache/parquet-format/blob/master/LogicalTypes.md) | JSON-safe value |
 * | --- | --- |
 * | INT64, INTEGER(64), UINT_64 | `number` when a safe integer, else its decimal `string` |
 * | TIMESTAMP (any unit) | ISO-8601 `string` with the unit's digits (`.123`, `.123456`, `.123456789`); `Z` only when `isAdjustedToUTC` |
 * | INT96 | ISO-8601 `string` with nanoseconds, no `Z` (the type says nothing of a time zone) |
 * | DATE | `"YYYY-MM-DD"` |
 * | TIME (any unit) | `"HH:MM:SS.fff"` with the unit's digits |
 * | FLOAT, DOUBLE, FLOAT16 | `number`; NaN and ±Infinity as `"NaN"`, `"Infinity"`, `"-Infinity"` |
 * | BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY without a text, decimal, UUID or FLOAT16 annotation (BSON, GEOMETRY, …) | base64 `string` |
 * | everything else | as the default mapping (strings, UUID strings, exact decimal strings, booleans, INT32 numbers, INTERVAL objects) |
 *
 * Years outside 0000–9999 are written with a sign and at least six digits (ISO-8601 expanded years, as
 * `Date.prototype.toISOString` does). Dates are proleptic Gregorian.
 * @module
 */
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { ParquetError, Type } from '@parquetry/thrift-compact';
import { MAX_STRING_LENGTH, type ValueOptions } from './to-js.js';

/** A time unit of TIMESTAMP and TIME. */
export type TimeUnit = 'ms' | 'us' | 'ns';

const PER_SECOND = { ms: 1000, us: 1000000, ns: 1000000000 } as const;
const PER_SECOND_N = { ms: 1000n, us: 1000000n, ns: 1000000000n } as const;
const DIGITS = { ms: 3, us: 6, ns: 9 } as const;

/**
 * Days since 1970-01-01 of a proleptic Gregorian date.
 * @param y - year (0 is 1 BC).
 * @param m - month, 1 to 12.
 * @param d - day of the month.
 * @returns the day number (negative before the epoch).
 */
export function daysFromCivil(y: number, m: number, d: number): number {
  // the year is counted from March so that the leap day ends it; eras of 400 years repeat exactly
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Year, month and day of a day number (the inverse of {@link daysFromCivil}); written into `out`. */
function civilFromDays(days: number, out: Int32Array | number[]): void {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  out[0] = yoe + era * 400 + (m <= 2 ? 1 : 0);
  out[1] = m;
  out[2] = d;
}

const ymd = [0, 0, 0];

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

function year(y: number): string {
  if (y >= 0 && y <= 9999) return String(y).padStart(4, '0');
  return (y < 0 ? '-' : '+') + String(Math.abs(y)).padStart(6, '0');
}

/**
 * Formats a day number as an ISO-8601 date.
 * @param days - days since 1970-01-01 (DATE's value).
 * @returns `"YYYY-MM-DD"` (an expanded year outside 0000–9999).
 */
export function formatDate(days: number): string {
  civilFromDays(days, ymd);
  return `${year(ymd[0]!)}-${pad2(ymd[1]!)}-${pad2(ymd[2]!)}`;
}

/** `HH:MM:SS` of a second of the day (hours past 23 kept, for out-of-range TIME values). */
function clock(sod: number): string {
  const h = Math.floor(sod / 3600);
  const m = Math.floor((sod - h * 3600) / 60);
  return `${pad2(h)}:${pad2(m)}:${pad2(sod - h * 3600 - m * 60)}`;
}

/** Whole days, the second of the day and the fraction in `unit` of a count, floored (none of them negative but days). */
function split(count: bigint | number, unit: TimeUnit): { days: number; sod: number; frac: number } {
  const n = typeof count === 'number' ? count : Number(count);
  if (Number.isSafeInteger(n)) {
    const per = PER_SECOND[unit];
    let secs = Math.floor(n / per);
    let frac = n - secs * per;
    // the division is rounded: correct the quotient by one where it rounded across an integer
    if (frac < 0) {
      secs -= 1;
      frac += per;
    } else if (frac >= per) {
      secs += 1;
      frac -= per;
    }
    const days = Math.floor(secs / 86400);
    return { days, sod: secs - days * 86400, frac };
  }
  // past 2^53 (nanosecond timestamps of today, millisecond ones near the int64 ends): seconds may not be exact as
  // a number, days and the second of the day are
  const c = BigInt(count);
  const per = PER_SECOND_N[unit];
  let secs = c / per;
  let frac = c - secs * per;
  if (frac < 0n) {
    secs -= 1n;
    frac += per;
  }
  let days = secs / 86400n;
  let sod = secs - days * 86400n;
  if (sod < 0n) {
    days -= 1n;
    sod += 86400n;
  }
  return { days: Number(days), sod: Number(sod), frac: Number(frac) };
}

/**
 * Formats a TIMESTAMP (or INT96) value as an ISO-8601 date-time with the unit's full precision.
 * @param count - the stored count of `unit` since 1970-01-01T00:00:00.
 * @param unit - the column's unit.
 * @param utc - the column's `isAdjustedToUTC`: appends `Z`.
 * @returns e.g. `"2024-02-29T12:34:56.123456Z"`.
 */
export function formatTimestamp(count: bigint | number, unit: TimeUnit, utc: boolean): string {
  const { days, sod, frac } = split(count, unit);
  return `${formatDate(days)}T${clock(sod)}.${String(frac).padStart(DIGITS[unit], '0')}${utc ? 'Z' : ''}`;
}

/**
 * Formats a TIME value as `HH:MM:SS` and the unit's fractional digits.
 * @param count - the stored count of `unit` since midnight.
 * @param unit - the column's unit.
 * @returns e.g. `"23:59:59.999999"` (a negative or too large stored value keeps its sign and hours).
 */
export function formatTime(count: bigint | number, unit: TimeUnit): string {
  const neg = typeof count === 'bigint' ? count < 0n : count < 0;
  const abs = typeof count === 'bigint' ? (neg ? -count : count) : Math.abs(count);
  const { days, sod, frac } = split(abs, unit);
  return `${neg ? '-' : ''}${clock(days * 86400 + sod)}.${String(frac).padStart(DIGITS[unit], '0')}`;
}

const B64 = /*#__PURE__*/ new TextEncoder().encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
const ascii = /*#__PURE__*/ new TextDecoder('utf-8');

/**
 * Encodes bytes as base64 (RFC 4648, with padding).
 * @param b - the bytes.
 * @returns the base64 text.
 * @throws ParquetError `VALUE_TOO_LARGE` when the text would be longer than {@link MAX_STRING_LENGTH}.
 */
export function toBase64(b: Uint8Array): string {
  const n = b.length;
  const len = Math.ceil(n / 3) * 4;
  if (len > MAX_STRING_LENGTH) {
    throw new ParquetError('VALUE_TOO_LARGE', `parquet-column: ${n} bytes are ${len} characters of base64, more than a JavaScript string can hold (${MAX_STRING_LENGTH})`);
  }
  const out = new Uint8Array(len);
  let o = 0;
  let i = 0;
  for (; i + 3 <= n; i += 3) {
    const v = (b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!;
    out[o++] = B64[v >>> 18]!;
    out[o++] = B64[(v >>> 12) & 63]!;
    out[o++] = B64[(v >>> 6) & 63]!;
    out[o++] = B64[v & 63]!;
  }
  if (i < n) {
    const v = (b[i]! << 16) | (i + 1 < n ? b[i + 1]! << 8 : 0);
    out[o++] = B64[v >>> 18]!;
    out[o++] = B64[(v >>> 12) & 63]!;
    out[o++] = i + 1 < n ? B64[(v >>> 6) & 63]! : 61;
    out[o++] = 61;
  }
  return ascii.decode(out);
}

/** The unit of a TIMESTAMP or TIME annotation. */
function unitOf(u: { MILLIS?: object; MICROS?: object; NANOS?: object }): TimeUnit {
  return u.MILLIS ? 'ms' : u.MICROS ? 'us' : 'ns';
}

const finiteOr = (v: unknown): unknown => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v);
const int64 = (v: unknown): unknown => {
  const n = Number(v as bigint);
  return Number.isSafeInteger(n) ? n : String(v);
};
/**
 * The base64 conversion of one column's binary values. A dictionary entry reaches every row that holds it as the same
 * `Uint8Array`: the text of one of 64 bytes or more is made once and shared (a 64 KiB entry in 2^20 rows was 2^20
 * texts, 91 GB, and V8 died out of memory), kept only while the array lives.
 */
function bytesConverter(): (v: unknown) => unknown {
  const memo = new WeakMap<Uint8Array, string>();
  return (v) => {
    if (!(v instanceof Uint8Array)) return v;
    if (v.length < 64) return toBase64(v);
    let t = memo.get(v);
    if (t === undefined) memo.set(v, (t = toBase64(v)));
    return t;
  };
}

/**
 * The JSON-safe conversion of one column's values, from the default mapping of {@link convertValues} (bigint
 * counts for INT64 timestamps and times, day numbers for DATE, `Uint8Array` for binary; `decimals` as given).
 * @param column - the leaf column.
 * @returns the conversion of one non-null value, or undefined when the default mapping is already JSON-safe.
 */
export function jsonConverter(column: ColumnDescriptor): ((v: unknown) => unknown) | undefined {
  const lt = column.node.logicalType;
  if (lt?.DECIMAL) return undefined;
  switch (column.type) {
    case Type.INT32:
      if (lt?.DATE) return (v) => formatDate(v as number);
      if (lt?.TIME) {
        const unit = unitOf(lt.TIME.unit);
        return (v) => formatTime(v as number, unit);
      }
      return undefined;
    case Type.INT64:
      if (lt?.TIMESTAMP) {
        const unit = unitOf(lt.TIMESTAMP.unit);
        const utc = lt.TIMESTAMP.isAdjustedToUTC;
        return (v) => formatTimestamp(v as bigint, unit, utc);
      }
      if (lt?.TIME) {
        const unit = unitOf(lt.TIME.unit);
        return (v) => formatTime(v as bigint, unit);
      }
      return int64;
    case Type.INT96:
      return (v) => formatTimestamp(v as bigint, 'ns', false);
    case Type.FLOAT:
    case Type.DOUBLE:
      return finiteOr;
    case Type.BYTE_ARRAY:
      return lt?.STRING || lt?.ENUM || lt?.JSON ? undefined : bytesConverter();
    case Type.FIXED_LEN_BYTE_ARRAY:
      if (lt?.FLOAT16) return finiteOr;
      // UUID strings, INTERVAL objects and text stay; other widths and types are bytes
      return bytesConverter();
    default:
      return undefined;
  }
}

/**
 * Converts one column's values from the default mapping to the JSON-safe mapping.
 * @param values - values as {@link convertValues} returns them without `values: 'json'`.
 * @param column - the leaf column.
 * @returns the JSON-safe values (the same array when nothing changes, e.g. INT32 or finite doubles).
 * @throws ParquetError `VALUE_TOO_LARGE` for a binary value whose base64 text is too long for a string.
 */
export function jsonValues(values: ArrayLike<unknown>, column: ColumnDescriptor): ArrayLike<unknown> {
  const conv = jsonConverter(column);
  if (conv === undefined) return values;
  if (values instanceof Float64Array || values instanceof Float32Array) {
    let finite = true;
    for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) finite = false;
    if (finite) return values;
  }
  const n = values.length;
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    out[i] = v === null || v === undefined ? v : conv(v);
  }
  return out;
}

/**
 * The options {@link convertValues} uses under `values: 'json'` before the JSON-safe conversion: the default mapping
 * with the caller's `decimals` (the other options do not apply to the JSON mapping).
 * @param options - the caller's options.
 * @returns the default mapping's options.
 */
export function jsonBaseOptions(options: ValueOptions): ValueOptions {
  return options.decimals === undefined ? {} : { decimals: options.decimals };
}
