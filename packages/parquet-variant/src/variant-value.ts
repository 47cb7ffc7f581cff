/**
 * The JavaScript value mapping of a Variant and the tagged types it uses where a plain JS value
 * would lose the Variant type. Implements the type table of
 * https://github.com/apache/parquet-format/blob/master/VariantEncoding.md#encoding-types.
 *
 * @module
 */

/** A Variant `date` (type ID 11): days since 1970-01-01. */
export interface VariantDate {
  /** Tag. */
  readonly type: 'date';
  /** Signed days since the Unix epoch (int32). */
  readonly days: number;
}

/** A Variant timestamp (type IDs 12, 13, 18, 19). */
export interface VariantTimestamp {
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
  /** Tag. */
  readonly type: 'time';
  /** Always `'us'` (microseconds). */
  readonly unit: 'us';
  /** Microseconds since midnight (int64). */
  readonly value: bigint;
}

/** A Variant `uuid` (type ID 20). */
export interface VariantUuid {
  /** Tag. */
  readonly type: 'uuid';
  /** Canonical lowercase `8-4-4-4-12` hex form. */
  readonly value: string;
}

/** A Variant decimal (type IDs 8, 9, 10). */
export interface VariantDecimal {
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

/**
 * Tells a tagged Variant value from a plain object by its exact shape (the `type` tag, exactly the
 * tag's keys, and values of the right JS types). A Variant object that happens to have exactly
 * that shape is indistinguishable; see the README.
 * @param v - any value.
 * @returns the value as a tagged type, or undefined when it is not one.
 */
export function asTagged(v: unknown): VariantTagged | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array) return undefined;
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
