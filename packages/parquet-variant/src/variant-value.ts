/**
 * The JavaScript value mapping of a Variant and the typed values it uses where a plain JS value
 * would lose the Variant type. Implements the type table of
 * https://github.com/apache/parquet-format/blob/master/VariantEncoding.md#encoding-types.
 *
 * Typed values (dates, timestamps, times, UUIDs, decimals) are objects such as `{ type: 'date', days }` that carry
 * a brand, {@link VARIANT_TYPED}, on their prototype: the decoder makes them and so do the factories
 * ({@link variantDate}, {@link variantTimestamp}, {@link variantTime}, {@link variantUuid}, {@link variantDecimal}).
 * A plain object is always a Variant object, whatever its keys, so `{ type: 'decimal', value: '1' }` read from JSON
 * stays an object of two keys. The brand is not an own enumerable key: `JSON.stringify`, `console.log` and
 * `toEqual` see the same shape as before, and a copy that keeps only own properties (`structuredClone`, `{ ...v }`,
 * `JSON.parse(JSON.stringify(v))`) is a plain object, written back as a Variant object.
 *
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';

/**
 * The brand of typed Variant values: `v[VARIANT_TYPED] === true` (inherited from their prototype) marks a typed
 * value; every other object is a Variant object. It is `Symbol.for('@parquetry/parquet-variant.typed')`, so two
 * installed copies of this package agree on it.
 */
export const VARIANT_TYPED: unique symbol = /*#__PURE__*/ Symbol.for('@parquetry/parquet-variant.typed');

/**
 * The prototype of every typed value: `Object.prototype` plus the non-enumerable brand. A prototype instead of an own
 * property keeps creating a value as cheap as an object literal (one `defineProperty` per value costs ~20x that).
 */
const TYPED_PROTO: object = /*#__PURE__*/ Object.create(Object.prototype, { [VARIANT_TYPED]: { value: true } }) as object;

/** A Variant `date` (type ID 11): days since 1970-01-01. */
export interface VariantDate {
  /** The brand (inherited, not enumerable): see {@link VARIANT_TYPED}. */
  readonly [VARIANT_TYPED]: true;
  /** Tag. */
  readonly type: 'date';
  /** Signed days since the Unix epoch (int32). */
  readonly days: number;
}

/** A Variant timestamp (type IDs 12, 13, 18, 19). */
export interface VariantTimestamp {
  /** The brand (inherited, not enumerable): see {@link VARIANT_TYPED}. */
  readonly [VARIANT_TYPED]: true;
  /** Tag. */
  readonly type: 'timestamp';
  /** `'us'` for microseconds (IDs 12, 13), `'ns'` for nanoseconds (IDs 18, 19). */
  readonly unit: 'us' | 'ns';
  /** True for the UTC-adjusted types (IDs 12, 18), false for "without time zone" (IDs 13, 19). */
  readonly utc: boolean;
  /** Signed count of `unit` since the Unix epoch (int64). */
  readonly value: bigint;
}

/** A Variant `time without time zone` (type ID 17). */
export interface VariantTime {
  /** The brand (inherited, not enumerable): see {@link VARIANT_TYPED}. */
  readonly [VARIANT_TYPED]: true;
  /** Tag. */
  readonly type: 'time';
  /** Always `'us'` (microseconds). */
  readonly unit: 'us';
  /** Microseconds since midnight (int64). */
  readonly value: bigint;
}

/** A Variant `uuid` (type ID 20). */
export interface VariantUuid {
  /** The brand (inherited, not enumerable): see {@link VARIANT_TYPED}. */
  readonly [VARIANT_TYPED]: true;
  /** Tag. */
  readonly type: 'uuid';
  /** Canonical lowercase `8-4-4-4-12` hex form. */
  readonly value: string;
}

/** A Variant decimal (type IDs 8, 9, 10). */
export interface VariantDecimal {
  /** The brand (inherited, not enumerable): see {@link VARIANT_TYPED}. */
  readonly [VARIANT_TYPED]: true;
  /** Tag. */
  readonly type: 'decimal';
  /** Exact decimal text with exactly `scale` fractional digits, e.g. `"-12.340"` (no `.` when scale is 0). */
  readonly value: string;
}

/** A Variant object: keys in stored order (sorted by UTF-8 bytes per the spec). */
export interface VariantObject {
  [key: string]: VariantValue;
}

/**
 * A decoded Variant as a JavaScript value. The mapping (lossless):
 * - null → `null`; boolean true/false → `boolean`
 * - int8, int16, int32 → `number`; int64 → `number` when a safe integer, else `bigint`
 * - float, double → `number`
 * - decimal4/8/16 → {@link VariantDecimal}
 * - date → {@link VariantDate}; timestamps → {@link VariantTimestamp}; time → {@link VariantTime}
 * - uuid → {@link VariantUuid}; binary → `Uint8Array`; string and short string → `string`
 * - object → plain object ({@link VariantObject}); array → array.
 *
 * The five typed values are branded ({@link VARIANT_TYPED}): make them with {@link variantDate},
 * {@link variantTimestamp}, {@link variantTime}, {@link variantUuid} and {@link variantDecimal}, or take them from the
 * decoder. An object literal of the same shape is a Variant object.
 */
export type VariantValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Uint8Array
  | VariantDate
  | VariantTimestamp
  | VariantTime
  | VariantUuid
  | VariantDecimal
  | VariantValue[]
  | VariantObject;

/** Any of the tagged (non-plain) Variant types. */
export type VariantTagged = VariantDate | VariantTimestamp | VariantTime | VariantUuid | VariantDecimal;

/** Primitive type IDs of VariantEncoding.md ("Variant primitive types"). */
export const VariantPrimitive = {
  NULL: 0,
  TRUE: 1,
  FALSE: 2,
  INT8: 3,
  INT16: 4,
  INT32: 5,
  INT64: 6,
  DOUBLE: 7,
  DECIMAL4: 8,
  DECIMAL8: 9,
  DECIMAL16: 10,
  DATE: 11,
  TIMESTAMP_MICROS: 12,
  TIMESTAMP_NTZ_MICROS: 13,
  FLOAT: 14,
  BINARY: 15,
  STRING: 16,
  TIME_NTZ_MICROS: 17,
  TIMESTAMP_NANOS: 18,
  TIMESTAMP_NTZ_NANOS: 19,
  UUID: 20,
} as const;
/** A primitive type ID. */
export type VariantPrimitive = (typeof VariantPrimitive)[keyof typeof VariantPrimitive];

/** Basic types of VariantEncoding.md ("Variant basic types"). */
export const VariantBasicType = { PRIMITIVE: 0, SHORT_STRING: 1, OBJECT: 2, ARRAY: 3 } as const;
/** A basic type ID. */
export type VariantBasicType = (typeof VariantBasicType)[keyof typeof VariantBasicType];

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DECIMAL_RE = /^-?\d+(\.\d+)?$/;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/**
 * Whether a value carries the typed-value brand ({@link VARIANT_TYPED}), whatever its keys.
 * @param v - any value.
 * @returns true for a value made by the decoder or a factory (or a copy that kept its prototype).
 */
export function isVariantTyped(v: unknown): boolean {
  return typeof v === 'object' && v !== null && (v as { [VARIANT_TYPED]?: unknown })[VARIANT_TYPED] === true;
}

/**
 * The typed value a value is, if any: a branded object ({@link VARIANT_TYPED}) with a tag and exactly that tag's keys
 * holding values of the right JS types. A plain object is never a typed value, whatever its shape.
 * @param v - any value.
 * @returns the value as a typed value, or undefined when it is not one (unbranded, or branded but reshaped).
 */
export function asTagged(v: unknown): VariantTagged | undefined {
  if (!isVariantTyped(v)) return undefined;
  const o = v as Record<string, unknown>;
  const tag = o['type'];
  if (typeof tag !== 'string' || !Object.hasOwn(o, 'type')) return undefined;
  const keys = Object.keys(o);
  switch (tag) {
    case 'date':
      return keys.length === 2 && Number.isInteger(o['days']) ? (o as unknown as VariantDate) : undefined;
    case 'timestamp':
      return keys.length === 4 &&
        (o['unit'] === 'us' || o['unit'] === 'ns') &&
        typeof o['utc'] === 'boolean' &&
        typeof o['value'] === 'bigint'
        ? (o as unknown as VariantTimestamp)
        : undefined;
    case 'time':
      return keys.length === 3 && o['unit'] === 'us' && typeof o['value'] === 'bigint' ? (o as unknown as VariantTime) : undefined;
    case 'uuid':
      return keys.length === 2 && typeof o['value'] === 'string' && UUID_RE.test(o['value'])
        ? (o as unknown as VariantUuid)
        : undefined;
    case 'decimal':
      return keys.length === 2 && typeof o['value'] === 'string' && DECIMAL_RE.test(o['value'])
        ? (o as unknown as VariantDecimal)
        : undefined;
    default:
      return undefined;
  }
}

// Internal constructors (no checks): the decoder and the shredding merge call them with values they have checked.
// Properties are assigned in the order of the public shape, so the objects print and compare as before.

/** @internal A branded date. */
export function makeDate(days: number): VariantDate {
  const o = Object.create(TYPED_PROTO) as { type: 'date'; days: number };
  o.type = 'date';
  o.days = days;
  return o as VariantDate;
}

/** @internal A branded timestamp. */
export function makeTimestamp(unit: 'us' | 'ns', utc: boolean, value: bigint): VariantTimestamp {
  const o = Object.create(TYPED_PROTO) as { type: 'timestamp'; unit: 'us' | 'ns'; utc: boolean; value: bigint };
  o.type = 'timestamp';
  o.unit = unit;
  o.utc = utc;
  o.value = value;
  return o as VariantTimestamp;
}

/** @internal A branded time. */
export function makeTime(value: bigint): VariantTime {
  const o = Object.create(TYPED_PROTO) as { type: 'time'; unit: 'us'; value: bigint };
  o.type = 'time';
  o.unit = 'us';
  o.value = value;
  return o as VariantTime;
}

/** @internal A branded UUID (`value` lowercase 8-4-4-4-12). */
export function makeUuid(value: string): VariantUuid {
  const o = Object.create(TYPED_PROTO) as { type: 'uuid'; value: string };
  o.type = 'uuid';
  o.value = value;
  return o as VariantUuid;
}

/** @internal A branded decimal (`value` as {@link VariantDecimal} describes). */
export function makeDecimal(value: string): VariantDecimal {
  const o = Object.create(TYPED_PROTO) as { type: 'decimal'; value: string };
  o.type = 'decimal';
  o.value = value;
  return o as VariantDecimal;
}

function badArgument(what: string): ParquetError {
  return new ParquetError('INVALID_ARGUMENT', `parquet-variant: ${what}`);
}

function shown(v: unknown): string {
  return typeof v === 'bigint' ? `${v}n` : typeof v === 'string' ? JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v) : String(v);
}

function int64Of(fn: string, v: bigint | number): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v !== 'bigint' || v < INT64_MIN || v > INT64_MAX) throw badArgument(`${fn}: value must be an int64 bigint (or a safe integer), got ${shown(v)}`);
  return v;
}

/**
 * A Variant `date` (type ID 11).
 * @param days - signed days since 1970-01-01, an int32.
 * @returns the typed value `{ type: 'date', days }`.
 * @throws ParquetError `INVALID_ARGUMENT` when `days` is not an integer in int32 range.
 */
export function variantDate(days: number): VariantDate {
  if (!Number.isInteger(days) || days < -2147483648 || days > 2147483647) throw badArgument(`variantDate: days must be an int32 integer, got ${shown(days)}`);
  return makeDate(days);
}

/**
 * A Variant timestamp: type ID 12 (`'us'`, UTC), 13 (`'us'`, no time zone), 18 (`'ns'`, UTC) or 19 (`'ns'`, no time zone).
 * @param value - signed count of `unit` since the Unix epoch: an int64 `bigint`, or a safe integer `number`.
 * @param unit - `'us'` (default) or `'ns'`.
 * @param utc - true (default) for the UTC-adjusted types, false for "without time zone".
 * @returns the typed value `{ type: 'timestamp', unit, utc, value }` (`value` a bigint).
 * @throws ParquetError `INVALID_ARGUMENT` for a value outside int64, a unit other than `'us'`/`'ns'`, a non-boolean `utc`.
 */
export function variantTimestamp(value: bigint | number, unit: 'us' | 'ns' = 'us', utc = true): VariantTimestamp {
  if (unit !== 'us' && unit !== 'ns') throw badArgument(`variantTimestamp: unit must be 'us' or 'ns', got ${shown(unit)}`);
  if (typeof utc !== 'boolean') throw badArgument(`variantTimestamp: utc must be a boolean, got ${shown(utc)}`);
  return makeTimestamp(unit, utc, int64Of('variantTimestamp', value));
}

/**
 * A Variant `time without time zone` in microseconds (type ID 17).
 * @param value - microseconds since midnight: an int64 `bigint`, or a safe integer `number`.
 * @returns the typed value `{ type: 'time', unit: 'us', value }` (`value` a bigint).
 * @throws ParquetError `INVALID_ARGUMENT` for a value outside int64.
 */
export function variantTime(value: bigint | number): VariantTime {
  return makeTime(int64Of('variantTime', value));
}

/**
 * A Variant `uuid` (type ID 20).
 * @param text - the 8-4-4-4-12 hex form, either case.
 * @returns the typed value `{ type: 'uuid', value }`, `value` in lowercase (as the decoder gives it).
 * @throws ParquetError `INVALID_ARGUMENT` when `text` is not in the 8-4-4-4-12 hex form.
 */
export function variantUuid(text: string): VariantUuid {
  const value = typeof text === 'string' ? text.toLowerCase() : text;
  if (typeof value !== 'string' || !UUID_RE.test(value)) throw badArgument(`variantUuid: expected 8-4-4-4-12 hex digits, got ${shown(text)}`);
  return makeUuid(value);
}

/**
 * A Variant decimal (type IDs 8, 9, 10: the encoder takes the smallest width that holds its precision). The scale is
 * the number of fractional digits written, so `'12.50'` is scale 2 and `'12.5'` scale 1.
 * @param text - exact decimal text: an optional `-`, digits, and optionally `.` and more digits (at most 38 digits in
 *   all and at most 38 after the point, checked when encoded).
 * @returns the typed value `{ type: 'decimal', value: text }`.
 * @throws ParquetError `INVALID_ARGUMENT` when `text` is not of that form (no exponent, no `+`, no bare `.5`).
 */
export function variantDecimal(text: string): VariantDecimal {
  if (typeof text !== 'string' || !DECIMAL_RE.test(text)) throw badArgument(`variantDecimal: expected decimal text such as '-12.340', got ${shown(text)}`);
  return makeDecimal(text);
}

/**
 * Formats an unscaled integer with `scale` fractional digits, exactly.
 * @param unscaled - the unscaled value.
 * @param scale - number of fractional digits (≥ 0).
 * @returns e.g. `formatDecimal(-12340n, 3)` → `"-12.340"`.
 */
export function formatDecimal(unscaled: bigint | number, scale: number): string {
  const neg = unscaled < 0;
  let digits = (neg ? -BigInt(unscaled) : BigInt(unscaled)).toString();
  if (scale === 0) return neg ? '-' + digits : digits;
  if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
  const cut = digits.length - scale;
  return (neg ? '-' : '') + digits.slice(0, cut) + '.' + digits.slice(cut);
}

/**
 * Compares two strings by their UTF-8 bytes (= by code point), the key order of Variant objects.
 * @param a - first key.
 * @param b - second key.
 * @returns negative, zero or positive.
 */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (0xD800-0xDFFF) encode code points above 0xFFFF, which sort after every BMP unit.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
