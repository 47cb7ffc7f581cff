/**
 * Physical values → JavaScript values, per logical type. The default mapping never loses data:
 *
 * | Parquet | JavaScript (default) | option |
 * | --- | --- | --- |
 * | BOOLEAN | `boolean` | |
 * | INT32, INTEGER(8/16/32, signed or not), TIME(MILLIS) | `number` (unsigned reinterpreted) | |
 * | DATE | `number` — days since 1970-01-01 | `dates: 'date'` → `Date` |
 * | INT64, INTEGER(64) | `bigint` (UINT_64 unsigned) | `int64: 'number'` (lossy past 2^53) |
 * | TIMESTAMP (any unit), TIME(MICROS/NANOS) | `bigint` count in the column's unit since the epoch / midnight | `timestamps: 'date'` → `Date` (millisecond precision) |
 * | INT96 | `bigint` nanoseconds since the epoch (any range) | `timestamps: 'date'` |
 * | DECIMAL (INT32, INT64, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY) | exact decimal `string`, e.g. `"-12.340"` | `decimals: 'number'` |
 * | FLOAT, DOUBLE, FLOAT16 | `number` | |
 * | STRING, ENUM, JSON | `string` | |
 * | UUID | `string` 8-4-4-4-12 | |
 * | INTERVAL | `{ months, days, millis }` | |
 * | BSON, GEOMETRY, GEOGRAPHY (WKB), unannotated binary | `Uint8Array` | |
 *
 * `values: 'json'` replaces this mapping with a JSON-safe one (json.ts): nothing `JSON.stringify` throws on, nothing
 * lost. That option is {@link convertValues}'s (convert.ts, which imports json.ts); this module holds the mapping above
 * alone ({@link convertNativeValues}, {@link convertNativeChunk}) and imports no JSON code, so that a reader's initial
 * load, which converts with the default mapping only (a `values: 'json'` read converts its rows afterwards, in a lazy
 * part), holds none. A string of more than {@link MAX_STRING_LENGTH} bytes of UTF-8 is `VALUE_TOO_LARGE` in every runtime, found
 * from its length before decoding (Chromium's TextDecoder returns `""` for text longer than a string may be, without
 * an error; Node's refuses any input of more bytes than that).
 *
 * @module
 */
import type { ColumnValues } from '@parquetry/parquet-encodings';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import type { DecodedChunk } from './column-chunk.js';
import { ParquetError, Type, type LogicalType } from '@parquetry/thrift-compact';

/**
 * The longest string this library creates, and the most bytes of UTF-8 it decodes into one string: V8's limit,
 * 2^29 − 24 UTF-16 code units (Chromium and Node; Node's decoder also refuses more input bytes than that). Firefox
 * and Safari allow longer strings; one limit in every runtime makes a file read the same everywhere.
 */
export const MAX_STRING_LENGTH = 0x1fffffe8;

/** Value-mapping options (all default to the exact form). */
export interface ValueOptions {
  /** INT64 without a timestamp/time/decimal annotation: `'bigint'` (default, exact) or `'number'` (lossy past 2^53). */
  int64?: 'bigint' | 'number';
  /** TIMESTAMP, INT96: `'bigint'` count in the column's unit (default, exact) or `'date'` (`Date`, milliseconds). */
  timestamps?: 'bigint' | 'date';
  /** DATE: `'number'` days since the epoch (default) or `'date'` (`Date` at UTC midnight). */
  dates?: 'number' | 'date';
  /** DECIMAL: `'string'` exact (default) or `'number'` (nearest double). */
  decimals?: 'string' | 'number';
  /** STRING, ENUM, JSON: `'string'` (default) or `'bytes'` (the UTF-8 bytes as `Uint8Array`, e.g. for values over 512 MiB). */
  strings?: 'string' | 'bytes';
  /**
   * `'native'` (default): the mapping above, refined by the other options. `'json'`: a JSON-safe mapping for printing
   * or serialising (`JSON.stringify` never throws on it): INT64 as a number when safe else a decimal string,
   * timestamps as ISO-8601 strings with the column's full precision (`Z` only when `isAdjustedToUTC`), DATE as
   * `YYYY-MM-DD`, TIME as `HH:MM:SS.fff…`, INT96 as ISO-8601, binary as base64, NaN/±Infinity as strings; `int64`,
   * `timestamps`, `dates` and `strings` are then ignored (`decimals` still applies). The reader also turns maps
   * into plain objects (or `{ key, value }` arrays) and VARIANT values into JSON values under this option.
   */
  values?: 'native' | 'json';
}

/** An INTERVAL value. */
export interface Interval {
  /** Months. */
  months: number;
  /** Days. */
  days: number;
  /** Milliseconds. */
  millis: number;
}

const utf8 = /*#__PURE__*/ new TextDecoder('utf-8', { ignoreBOM: true }); // a leading U+FEFF is part of the value
const JULIAN_EPOCH = 2440588n;
const NANOS_PER_DAY = 86400000000000n;

/**
 * Decodes UTF-8 bytes, with a fast path for short ASCII strings (TextDecoder has a high per-call cost).
 * @param b - the bytes.
 * @param start - first byte.
 * @param end - end (exclusive).
 * @returns the string.
 */
export function decodeUtf8(b: Uint8Array, start: number, end: number): string {
  const n = end - start;
  if (n <= 48) {
    // ASCII: one fromCharCode call builds one flat string (no concatenation chain, no decoder call)
    for (let i = start; i < end; i++) if (b[i]! >= 0x80) return utf8.decode(b.subarray(start, end));
    return String.fromCharCode.apply(null, b.subarray(start, end) as unknown as number[]);
  }
  // found by length before decoding, the same in every runtime: Node's decoder refuses input of more bytes than a
  // string's limit (even multi-byte text that would fit), and Chromium's returns "" for text that does not fit
  if (n > MAX_STRING_LENGTH) throw tooLong(n);
  let s: string;
  try {
    s = utf8.decode(b.subarray(start, end));
  } catch (e) {
    throw tooLong(n, e);
  }
  // non-empty UTF-8 never decodes to "" (a runtime that cannot make the string might return it)
  if (s.length === 0) throw tooLong(n);
  return s;
}

function tooLong(bytes: number, cause?: unknown): ParquetError {
  return new ParquetError(
    'VALUE_TOO_LARGE',
    `parquet-column: a string of ${bytes} bytes of UTF-8 is longer than this library decodes into a JavaScript string (at most ${MAX_STRING_LENGTH} bytes); read it with the option strings: 'bytes'`,
    undefined,
    cause === undefined ? undefined : { cause },
  );
}

function isAscii(b: Uint8Array, start: number, end: number): boolean {
  let acc = 0;
  for (let i = start; i < end; i++) acc |= b[i]!;
  return acc < 0x80;
}

/**
 * Formats an unscaled integer as an exact decimal string.
 * @param unscaled - the unscaled value.
 * @param scale - digits after the point.
 * @returns e.g. `"-12.340"`.
 */
export function formatDecimal(unscaled: bigint, scale: number): string {
  if (scale <= 0) return (scale === 0 ? unscaled : unscaled * 10n ** BigInt(-scale)).toString();
  const neg = unscaled < 0n;
  let digits = (neg ? -unscaled : unscaled).toString();
  if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
  const s = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  return neg ? `-${s}` : s;
}

/**
 * Reads a big-endian two's-complement integer.
 * @param b - bytes.
 * @param start - first byte.
 * @param end - end (exclusive).
 * @returns the value.
 */
export function bigEndianSigned(b: Uint8Array, start: number, end: number): bigint {
  if (end <= start) return 0n;
  let v = 0n;
  let i = start;
  // 6 bytes at a time keeps the number exact before moving to BigInt
  for (; i + 6 <= end; i += 6) v = (v << 48n) | BigInt(b[i]! * 0x10000000000 + b[i + 1]! * 0x100000000 + ((b[i + 2]! << 24) >>> 0) + (b[i + 3]! << 16) + (b[i + 4]! << 8) + b[i + 5]!);
  for (; i < end; i++) v = (v << 8n) | BigInt(b[i]!);
  const bits = BigInt((end - start) * 8);
  return b[start]! & 0x80 ? v - (1n << bits) : v;
}

/**
 * The value of an IEEE 754 half-precision number (FLOAT16's two little-endian bytes as one 16-bit word).
 * @param bits - the 16 bits.
 * @returns the number (NaN, ±Infinity, ±0 and subnormals included).
 * @internal
 */
export function float16(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

function uuid(b: Uint8Array, o: number): string {
  let s = '';
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) s += '-';
    s += (b[o + i]! < 16 ? '0' : '') + b[o + i]!.toString(16);
  }
  return s;
}

function unitOf(lt: LogicalType | undefined): 'ms' | 'us' | 'ns' | undefined {
  const u = lt?.TIMESTAMP?.unit ?? lt?.TIME?.unit;
  if (!u) return undefined;
  return u.MILLIS ? 'ms' : u.MICROS ? 'us' : 'ns';
}

function toDate(v: bigint, unit: 'ms' | 'us' | 'ns', column: ColumnDescriptor): Date {
  const ms = unit === 'ms' ? v : unit === 'us' ? v / 1000n - (v % 1000n < 0n ? 1n : 0n) : v / 1000000n - (v % 1000000n < 0n ? 1n : 0n);
  return dateOf(Number(ms), column);
}

/** A `Date` of `ms` milliseconds since the epoch; out of `Date`'s range (±8.64e15 ms) a typed error, not an Invalid Date. */
function dateOf(ms: number, column: ColumnDescriptor): Date {
  if (ms > 8.64e15 || ms < -8.64e15) {
    throw new ParquetError('VALUE_OUT_OF_RANGE', `parquet-column: column '${column.pathString}': ${ms} ms from the epoch is outside the range of a JavaScript Date (±8.64e15 ms); read it without timestamps/dates: 'date'`);
  }
  return new Date(ms);
}

/**
 * A conversion of one column's physical values ({@link convertNativeValues}, or `convertValues`, which also does the
 * JSON-safe mapping).
 */
export type ValuesConverter = (values: ColumnValues, column: ColumnDescriptor, options: ValueOptions) => ArrayLike<unknown>;

/**
 * The error of a native conversion asked for the JSON-safe mapping (which `convertValues` does).
 * @param what - the function.
 * @returns ParquetError `INVALID_OPTION`.
 */
function jsonRefused(what: string): ParquetError {
  return new ParquetError('INVALID_OPTION', `parquet-column: ${what} does the default mapping only; convert with convertValues / convertChunk for values: 'json'`);
}

/**
 * Converts a column's non-null physical values to JavaScript values with the default mapping (the table above,
 * refined by the options), as {@link convertValues} does without `values: 'json'`. This module imports no JSON code:
 * a reader's initial load converts with this and loads the JSON-safe mapping only for a `values: 'json'` read.
 * @param values - physical values as decoded.
 * @param column - the leaf column (physical and logical type).
 * @param options - value mapping; `values` must not be `'json'`.
 * @returns one JavaScript value per physical value.
 * @throws ParquetError `INVALID_OPTION` for `values: 'json'`.
 */
export function convertNativeValues(values: ColumnValues, column: ColumnDescriptor, options: ValueOptions = {}): ArrayLike<unknown> {
  if (options.values === 'json') throw jsonRefused('convertNativeValues');
  const lt = column.node.logicalType;
  const t = column.type;
  switch (t) {
    case Type.BOOLEAN: {
      const v = values as Uint8Array;
      const out = new Array<boolean>(v.length);
      for (let i = 0; i < v.length; i++) out[i] = v[i] !== 0;
      return out;
    }
    case Type.INT32: {
      const v = values as Int32Array;
      if (lt?.DECIMAL) {
        const out = new Array<unknown>(v.length);
        const scale = lt.DECIMAL.scale;
        for (let i = 0; i < v.length; i++) out[i] = options.decimals === 'number' ? v[i]! / 10 ** scale : formatDecimal(BigInt(v[i]!), scale);
        return out;
      }
      if (lt?.INTEGER && !lt.INTEGER.isSigned) {
        const out = new Float64Array(v.length);
        for (let i = 0; i < v.length; i++) out[i] = v[i]! >>> 0;
        return out;
      }
      if (lt?.DATE && options.dates === 'date') {
        const out = new Array<Date>(v.length);
        for (let i = 0; i < v.length; i++) out[i] = dateOf(v[i]! * 86400000, column);
        return out;
      }
      return v;
    }
    case Type.INT64: {
      const v = values as BigInt64Array;
      if (lt?.DECIMAL) {
        const out = new Array<unknown>(v.length);
        const scale = lt.DECIMAL.scale;
        for (let i = 0; i < v.length; i++) out[i] = options.decimals === 'number' ? Number(v[i]!) / 10 ** scale : formatDecimal(v[i]!, scale);
        return out;
      }
      if (lt?.TIMESTAMP) {
        if (options.timestamps === 'date') {
          const unit = unitOf(lt)!;
          const out = new Array<Date>(v.length);
          for (let i = 0; i < v.length; i++) out[i] = toDate(v[i]!, unit, column);
          return out;
        }
        return v;
      }
      if (lt?.TIME) return v;
      if (lt?.INTEGER && !lt.INTEGER.isSigned) {
        const u = new BigUint64Array(v.buffer, v.byteOffset, v.length);
        return options.int64 === 'number' ? Float64Array.from(u, Number) : u;
      }
      return options.int64 === 'number' ? Float64Array.from(v, Number) : v;
    }
    case Type.INT96: {
      const { data } = values as { width: number; data: Uint8Array };
      const n = data.length / 12;
      const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) {
        // nanoseconds of the day as a signed 64-bit integer, as parquet-java and Arrow read it
        const nanos = dv.getBigInt64(i * 12, true);
        const day = BigInt(dv.getInt32(i * 12 + 8, true));
        const ns = (day - JULIAN_EPOCH) * NANOS_PER_DAY + nanos;
        out[i] = options.timestamps === 'date' ? toDate(ns, 'ns', column) : ns;
      }
      return out;
    }
    case Type.FLOAT:
    case Type.DOUBLE:
      return values as Float32Array | Float64Array;
    case Type.BYTE_ARRAY: {
      const { offsets, data } = values as { offsets: Int32Array; data: Uint8Array };
      const n = offsets.length - 1;
      const out = new Array<unknown>(n);
      if ((lt?.STRING || lt?.ENUM || lt?.JSON) && options.strings !== 'bytes') {
        let i = 0;
        try {
          const base = offsets[0]!;
          const last = offsets[n]!;
          if (n > 16 && last - base <= MAX_STRING_LENGTH && isAscii(data, base, last)) {
            // ASCII: decode the whole run once and slice it (V8 keeps slices as views of the one string)
            const all = utf8.decode(data.subarray(base, last));
            for (; i < n; i++) out[i] = all.substring(offsets[i]! - base, offsets[i + 1]! - base);
          } else {
            for (; i < n; i++) out[i] = decodeUtf8(data, offsets[i]!, offsets[i + 1]!);
          }
        } catch (e) {
          // longer than MAX_STRING_LENGTH bytes (found before decoding), or a runtime's own limit
          throw new ParquetError(
            'VALUE_TOO_LARGE',
            `parquet-column: column '${column.pathString}': value ${i} is ${offsets[i + 1]! - offsets[i]!} bytes of UTF-8, too long for a JavaScript string (at most ${MAX_STRING_LENGTH} bytes are decoded; read it with the option strings: 'bytes')`,
            undefined,
            { cause: e },
          );
        }
      } else if (lt?.DECIMAL) {
        const scale = lt.DECIMAL.scale;
        for (let i = 0; i < n; i++) {
          const s = formatDecimal(bigEndianSigned(data, offsets[i]!, offsets[i + 1]!), scale);
          out[i] = options.decimals === 'number' ? Number(s) : s;
        }
      } else {
        for (let i = 0; i < n; i++) out[i] = data.subarray(offsets[i]!, offsets[i + 1]!);
      }
      return out;
    }
    case Type.FIXED_LEN_BYTE_ARRAY: {
      const { width, data } = values as { width: number; data: Uint8Array };
      const n = width === 0 ? 0 : data.length / width;
      const out = new Array<unknown>(n);
      if (lt?.DECIMAL) {
        const scale = lt.DECIMAL.scale;
        for (let i = 0; i < n; i++) {
          const s = formatDecimal(bigEndianSigned(data, i * width, (i + 1) * width), scale);
          out[i] = options.decimals === 'number' ? Number(s) : s;
        }
      } else if (lt?.UUID && width === 16) {
        for (let i = 0; i < n; i++) out[i] = uuid(data, i * 16);
      } else if (lt?.FLOAT16 && width === 2) {
        for (let i = 0; i < n; i++) out[i] = float16(data[i * 2]! | (data[i * 2 + 1]! << 8));
      } else if (column.node.element.converted_type === 21 /* INTERVAL */ && width === 12) {
        const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
        for (let i = 0; i < n; i++) out[i] = { months: dv.getUint32(i * 12, true), days: dv.getUint32(i * 12 + 4, true), millis: dv.getUint32(i * 12 + 8, true) } satisfies Interval;
      } else if (lt?.STRING || lt?.ENUM || lt?.JSON) {
        for (let i = 0; i < n; i++) out[i] = decodeUtf8(data, i * width, (i + 1) * width);
      } else {
        for (let i = 0; i < n; i++) out[i] = data.subarray(i * width, (i + 1) * width);
      }
      return out;
    }
    default:
      return [];
  }
}

type AnyArray = ArrayLike<unknown> & { length: number };
type TypedArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array | BigInt64Array | BigUint64Array;

/**
 * Gathers `dict[idx[i]]` into `out` from `at`, moving 4- and 8-byte values as 32-bit words (no BigInt per value, no
 * NaN canonicalisation). The indices must already be checked against the dictionary size.
 */
function gatherTyped(dict: TypedArray, idx: Int32Array, out: TypedArray, at: number): void {
  const n = idx.length;
  const w = dict.BYTES_PER_ELEMENT;
  if (w === 8 || w === 4) {
    const d = new Int32Array(dict.buffer, dict.byteOffset, (dict.length * w) >> 2);
    const o = new Int32Array(out.buffer, out.byteOffset + at * w, (n * w) >> 2);
    if (w === 8) {
      for (let i = 0; i < n; i++) {
        const j = idx[i]! << 1;
        o[2 * i] = d[j]!;
        o[2 * i + 1] = d[j + 1]!;
      }
    } else {
      for (let i = 0; i < n; i++) o[i] = d[idx[i]!]!;
    }
    return;
  }
  const d = dict as Uint8Array;
  const o = out as Uint8Array;
  for (let i = 0; i < n; i++) o[at + i] = d[idx[i]!]!;
}

/**
 * Converts a decoded chunk's non-null values to JavaScript values with the default mapping, converting each
 * dictionary entry once, as {@link convertChunk} does without `values: 'json'` (see {@link convertNativeValues}).
 * @param chunk - the decoded chunk.
 * @param column - its column.
 * @param options - value mapping; `values` must not be `'json'`.
 * @param dictionary - the chunk's dictionary already converted with the same options (by a caller converting one
 *   chunk a batch at a time); converted here when absent.
 * @returns one JavaScript value per non-null value.
 * @throws ParquetError `INVALID_OPTION` for `values: 'json'`.
 */
export function convertNativeChunk(chunk: DecodedChunk, column: ColumnDescriptor, options: ValueOptions = {}, dictionary?: ArrayLike<unknown>): ArrayLike<unknown> {
  if (options.values === 'json') throw jsonRefused('convertNativeChunk');
  return convertChunkWith(convertNativeValues, chunk, column, options, dictionary);
}

/**
 * Converts a decoded chunk's non-null values with a values conversion, converting each dictionary entry once.
 * @param convert - the conversion of one run of physical values.
 * @param chunk - the decoded chunk.
 * @param column - its column.
 * @param options - value mapping.
 * @param dictionary - the chunk's dictionary already converted with `convert` and the same options; converted here
 *   when absent.
 * @returns one JavaScript value per non-null value.
 * @internal
 */
export function convertChunkWith(convert: ValuesConverter, chunk: DecodedChunk, column: ColumnDescriptor, options: ValueOptions, dictionary: ArrayLike<unknown> | undefined): ArrayLike<unknown> {
  const segs = chunk.segments;
  if (segs.length === 1 && segs[0]!.values) return convert(segs[0]!.values, column, options);
  const dict = chunk.dictionary ? ((dictionary ?? convert(chunk.dictionary, column, options)) as AnyArray) : undefined;
  const parts: AnyArray[] = segs.map((s) => (s.indices ? s.indices : (convert(s.values!, column, options) as AnyArray)));
  // keep a typed array when every part (and the dictionary) converts to the same typed-array kind
  const proto = dict ?? parts.find((_, i) => !segs[i]!.indices);
  const typed = proto !== undefined && ArrayBuffer.isView(proto) && parts.every((p, i) => segs[i]!.indices || p.constructor === proto.constructor);
  const n = chunk.numValues;
  const out: { [i: number]: unknown; length: number } = typed ? new (proto.constructor as new (n: number) => AnyArray)(n) as unknown as { [i: number]: unknown; length: number } : new Array<unknown>(n);
  let k = 0;
  for (let s = 0; s < segs.length; s++) {
    const p = parts[s]!;
    if (segs[s]!.indices && typed && dict === (chunk.dictionary as unknown)) {
      // the values are the physical dictionary entries themselves (numbers, bigints): gather them straight into
      // the output (indices were checked when the page was decoded)
      gatherTyped(dict as unknown as TypedArray, p as Int32Array, out as unknown as TypedArray, k);
      k += p.length;
    } else if (segs[s]!.indices) {
      const idx = p as Int32Array;
      for (let i = 0; i < idx.length; i++) out[k++] = dict![idx[i]!];
    } else if (typed) {
      // same typed-array kind: one bulk copy
      (out as unknown as Int32Array).set(p as unknown as Int32Array, k);
      k += p.length;
    } else {
      for (let i = 0; i < p.length; i++) out[k++] = p[i];
    }
  }
  return out as ArrayLike<unknown>;
}
