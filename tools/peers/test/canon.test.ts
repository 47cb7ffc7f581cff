// Hand-computed examples for the canonical value form (tools/peers/canon.mjs).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  arrowRows,
  bigEndianSigned,
  canonBinary,
  canonInt,
  canonInterval,
  canonNumber,
  canonRows,
  decodeVariantBin,
  digest,
  float16ToNumber,
  formatDate,
  formatDecimal,
  formatInt96,
  formatTime,
  formatTimestamp,
  formatUuid,
  fromDuckDB,
  hintTreeFromDuckDBSchema,
  leafKind,
  listElement,
  rescale,
} from '../canon.mjs';

describe('scalars', () => {
  test('numbers: -0, NaN, infinities', () => {
    expect(Object.is(canonNumber(-0), 0)).toBe(true);
    expect(canonNumber(1.5)).toBe(1.5);
    expect(canonNumber(NaN)).toBe('NaN');
    expect(canonNumber(Infinity)).toBe('Infinity');
    expect(canonNumber(-Infinity)).toBe('-Infinity');
  });
  test('integers of any width', () => {
    expect(canonInt(42n)).toBe(42);
    expect(canonInt(-(2n ** 53n) + 1n)).toBe(-9007199254740991);
    expect(canonInt(2n ** 53n)).toBe('9007199254740992');
    expect(canonInt(18446744073709551615n)).toBe('18446744073709551615');
    expect(canonInt(-9223372036854775808n)).toBe('-9223372036854775808');
  });
  test('binary as lowercase hex', () => {
    expect(canonBinary(new Uint8Array([0, 0x0f, 0xab, 0xff]))).toBe('bin:000fabff');
    expect(canonBinary(new Uint8Array(0))).toBe('bin:');
  });
  test('decimals: exact, exactly `scale` fractional digits', () => {
    expect(formatDecimal(-12340n, 3)).toBe('-12.340');
    expect(formatDecimal(5n, 4)).toBe('0.0005');
    expect(formatDecimal(-5n, 2)).toBe('-0.05');
    expect(formatDecimal(0n, 2)).toBe('0.00');
    expect(formatDecimal(123n, 0)).toBe('123');
    expect(formatDecimal(10n ** 40n + 1n, 2)).toBe('100000000000000000000000000000000000000.01');
    // big-endian two's complement (FIXED_LEN_BYTE_ARRAY/BYTE_ARRAY decimals): 0xff85 = -123
    expect(formatDecimal(bigEndianSigned(new Uint8Array([0xff, 0x85])), 2)).toBe('-1.23');
    expect(bigEndianSigned(new Uint8Array([0x00, 0x80]))).toBe(128n);
  });
  test('dates: proleptic Gregorian, signed years outside 0000-9999', () => {
    expect(formatDate(0)).toBe('1970-01-01');
    expect(formatDate(-1)).toBe('1969-12-31');
    expect(formatDate(19723)).toBe('2024-01-01'); // 54 years: 54*365 + 13 leap days
    expect(formatDate(11016)).toBe('2000-02-29');
    expect(formatDate(-719528)).toBe('0000-01-01'); // 1970 years back, proleptic (year 0 is a leap year)
    expect(formatDate(-719529)).toBe('-0001-12-31');
    expect(formatDate(2932897)).toBe('+10000-01-01'); // 9999-12-31 is day 2932896
  });
  test('times: 3/6/9 fractional digits per unit', () => {
    expect(formatTime(0, 'millis')).toBe('00:00:00.000');
    expect(formatTime(3723004, 'millis')).toBe('01:02:03.004');
    expect(formatTime(86399999999n, 'micros')).toBe('23:59:59.999999');
    expect(formatTime(45296000000001n, 'nanos')).toBe('12:34:56.000000001');
  });
  test('timestamps from epoch counts, Z only when adjusted to UTC', () => {
    expect(formatTimestamp(0n, 'millis', true)).toBe('1970-01-01T00:00:00.000Z');
    expect(formatTimestamp(-1n, 'micros', false)).toBe('1969-12-31T23:59:59.999999');
    expect(formatTimestamp(1704141296123456789n, 'nanos', true)).toBe('2024-01-01T20:34:56.123456789Z');
    expect(formatTimestamp(253402300800000n, 'millis', false)).toBe('+10000-01-01T00:00:00.000');
  });
  test('INT96: nanos of day then Julian day, 9 digits, no Z', () => {
    // Julian day 2440588 is 1970-01-01; 1 ns past midnight
    const b = new Uint8Array(12);
    const dv = new DataView(b.buffer);
    dv.setBigInt64(0, 1n, true);
    dv.setInt32(8, 2440588, true);
    expect(formatInt96(b)).toBe('1970-01-01T00:00:00.000000001');
    // a value outside the 64-bit nanosecond range: Julian day of 9999-12-31 (5373484), 03:00
    dv.setBigInt64(0, 3n * 3600n * 1_000_000_000n, true);
    dv.setInt32(8, 5373484, true);
    expect(formatInt96(b)).toBe('9999-12-31T03:00:00.000000000');
  });
  test('rescale only when exact', () => {
    expect(rescale(1500n, 'millis', 'nanos')).toBe(1500000000n);
    expect(rescale(1500000n, 'micros', 'millis')).toBe(1500n);
    expect(rescale(1500001n, 'micros', 'millis')).toBe(null);
  });
  test('uuid, float16, interval', () => {
    const u = new Uint8Array([0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00]);
    expect(formatUuid(u)).toBe('123e4567-e89b-12d3-a456-426614174000');
    expect(formatUuid(0x123e4567e89b12d3a456426614174000n)).toBe('123e4567-e89b-12d3-a456-426614174000');
    expect(float16ToNumber(0x3c00)).toBe(1);
    expect(float16ToNumber(0xc000)).toBe(-2);
    expect(float16ToNumber(0x0001)).toBe(2 ** -24);
    expect(float16ToNumber(0x7bff)).toBe(65504);
    expect(float16ToNumber(0x7c00)).toBe(Infinity);
    expect(Number.isNaN(float16ToNumber(0x7e00))).toBe(true);
    expect(canonInterval(new Uint8Array([1, 0, 0, 0, 2, 0, 0, 0, 0xe8, 3, 0, 0]))).toEqual({ months: 1, days: 2, millis: 1000 });
  });
});

describe('variant (VariantEncoding.md)', () => {
  test('metadata with dictionary, object with fields sorted, short string, null', () => {
    // metadata: header 0x11 (version 1, sorted), 1-byte offsets, 2 keys "a","b"
    // value: object header (basic 2, 1-byte ids and offsets) with 2 fields: a -> null, b -> short string "hi"
    const bytes = new Uint8Array([0x11, 2, 0, 1, 2, 0x61, 0x62, 0x02, 2, 0, 1, 0, 1, 4, 0x00, 0x09, 0x68, 0x69]);
    expect(decodeVariantBin(bytes)).toEqual({ a: null, b: 'hi' });
  });
  test('primitives: int8, decimal4, date, timestamp, array', () => {
    const meta = [0x01, 0, 0];
    expect(decodeVariantBin(new Uint8Array([...meta, 3 << 2, 0xfe]))).toBe(-2);
    expect(decodeVariantBin(new Uint8Array([...meta, 8 << 2, 2, 0x39, 0x30, 0, 0]))).toBe('123.45');
    expect(decodeVariantBin(new Uint8Array([...meta, 11 << 2, 1, 0, 0, 0]))).toBe('1970-01-02');
    expect(decodeVariantBin(new Uint8Array([...meta, 12 << 2, 1, 0, 0, 0, 0, 0, 0, 0]))).toBe('1970-01-01T00:00:00.000001Z');
    expect(decodeVariantBin(new Uint8Array([...meta, 13 << 2, 1, 0, 0, 0, 0, 0, 0, 0]))).toBe('1970-01-01T00:00:00.000001');
    // array (basic 3, 1-byte offsets) of [true, false]
    expect(decodeVariantBin(new Uint8Array([...meta, 0x03, 2, 0, 1, 2, 1 << 2, 2 << 2]))).toEqual([true, false]);
  });
});

describe('schema hints', () => {
  const tree = hintTreeFromDuckDBSchema([
    { name: 'schema', num_children: 3 },
    { name: 'ts', type: 'INT64', repetition_type: 'OPTIONAL', num_children: 0, logical_type: 'TimestampType(isAdjustedToUTC=0, unit=TimeUnit(MILLIS=MilliSeconds()))' },
    { name: 'old', type: 'INT96', repetition_type: 'OPTIONAL', num_children: 0 },
    { name: 'l', repetition_type: 'OPTIONAL', num_children: 1, converted_type: 'LIST' },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', type: 'INT64', repetition_type: 'OPTIONAL', num_children: 0, converted_type: 'TIMESTAMP_MICROS' },
  ]);
  test('leaf kinds', () => {
    expect(leafKind(tree.children[0])).toEqual({ kind: 'timestamp', unit: 'millis', utc: false });
    expect(leafKind(tree.children[1])).toEqual({ kind: 'int96' });
    expect(leafKind(listElement(tree.children[2]))).toEqual({ kind: 'timestamp', unit: 'micros', utc: true });
  });
  test('DuckDB values formatted by the Parquet column, not by DuckDB type', () => {
    // fake DuckDB value objects: only the class name and fields matter
    class DuckDBTimestampValue {
      constructor(readonly micros: bigint) {}
    }
    class DuckDBListValue {
      constructor(readonly items: unknown[]) {}
    }
    class DuckDBDecimalValue {
      constructor(readonly value: bigint, readonly width: number, readonly scale: number) {}
    }
    expect(fromDuckDB(new DuckDBTimestampValue(1500n * 1000n), tree.children[0])).toBe('1970-01-01T00:00:01.500');
    expect(fromDuckDB(new DuckDBTimestampValue(1n), tree.children[1])).toBe('1970-01-01T00:00:00.000001000');
    expect(fromDuckDB(new DuckDBListValue([new DuckDBTimestampValue(0n), null]), tree.children[2])).toEqual(['1970-01-01T00:00:00.000000Z', null]);
    expect(fromDuckDB(new DuckDBDecimalValue(-1n, 5, 3))).toBe('-0.001');
    expect(fromDuckDB(123n)).toBe(123);
  });
});

describe('rows and digest', () => {
  test('canonRows is JSON in row key order; digest is its sha256', () => {
    const rows = [{ b: 1, a: 'x' }, { b: null, a: [1, 2] }];
    expect(canonRows(rows)).toBe('[{"b":1,"a":"x"},{"b":null,"a":[1,2]}]');
    expect(digest(rows)).toBe(createHash('sha256').update('[{"b":1,"a":"x"},{"b":null,"a":[1,2]}]').digest('hex'));
  });
  test('arrow table rows from raw buffers (timestamps and int64 kept exact)', async () => {
    const { Table, makeData, makeVector, TimestampNanosecond, Int64 } = await import('apache-arrow');
    const ts = makeData({ type: new TimestampNanosecond(), length: 2, nullCount: 1, nullBitmap: new Uint8Array([1]), data: new BigInt64Array([1704141296123456789n, 0n]) });
    const n = makeData({ type: new Int64(), length: 2, nullCount: 0, data: new BigInt64Array([2n ** 60n, -1n]) });
    const t = new Table({ ts: makeVector(ts), n: makeVector(n) });
    expect(arrowRows(t)).toEqual([
      { ts: '2024-01-01T20:34:56.123456789', n: '1152921504606846976' },
      { ts: null, n: -1 },
    ]);
  });
});

// The upstream variant/ directory holds raw Variant values with a (lossy) JSON rendering of each in
// data_dictionary.json: decimals and floats as JSON numbers, binary as base64, timestamps with offsets. The decoder
// must agree with it up to those renderings.
const VARIANT_DIR = fileURLToPath(new URL('../../../../shared/parquet-testing/variant/', import.meta.url));
const HAVE_VARIANT = existsSync(VARIANT_DIR);
if (!HAVE_VARIANT) console.log(`tools/peers: ${VARIANT_DIR} is absent; skipping the upstream variant decoding check`);

/** epoch nanoseconds of "YYYY-MM-DD[T ]HH:MM:SS[.f][Z|±HH:MM]" (the zone shifts to UTC). */
function tsNanos(s: string): bigint | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/.exec(s);
  if (!m) return null;
  const days = BigInt(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 86400000);
  let secs = days * 86400n + BigInt(Number(m[4]) * 3600 + Number(m[5]) * 60 + Number(m[6]));
  const z = m[8];
  if (z && z !== 'Z') secs -= BigInt((z[0] === '-' ? -1 : 1) * (Number(z.slice(1, 3)) * 3600 + Number(z.slice(4, 6)) * 60));
  return secs * 1_000_000_000n + BigInt((m[7] ?? '').padEnd(9, '0'));
}

function sameAsRendering(canon: unknown, json: unknown): boolean {
  if (json === null || typeof json === 'boolean') return canon === json;
  if (typeof json === 'number') {
    if (typeof canon === 'number') return canon === json || Math.fround(json) === canon;
    if (typeof canon === 'string') return Math.abs(Number(canon) - json) <= Math.abs(json) * 1e-15;
    return false;
  }
  if (typeof json === 'string') {
    if (typeof canon !== 'string') return false;
    if (canon.startsWith('bin:')) return canon.slice(4) === Buffer.from(json, 'base64').toString('hex');
    if (canon === json) return true;
    const a = tsNanos(canon);
    const b = tsNanos(json);
    if (a !== null && b !== null) return a === b;
    return /^\d{2}:\d{2}:\d{2}:\d+$/.test(json) && canon === json.replace(/:(\d+)$/, '.$1');
  }
  if (Array.isArray(json)) return Array.isArray(canon) && canon.length === json.length && json.every((x, i) => sameAsRendering(canon[i], x));
  if (typeof json === 'object') {
    if (typeof canon !== 'object' || canon === null || Array.isArray(canon)) return false;
    const c = canon as Record<string, unknown>;
    const j = json as Record<string, unknown>;
    return Object.keys(c).join() === Object.keys(j).sort().join() && Object.keys(j).every((k) => sameAsRendering(c[k], j[k]));
  }
  return false;
}

describe('variant decoder against upstream variant/ (data_dictionary.json)', () => {
  test.skipIf(!HAVE_VARIANT)('every value decodes to its upstream rendering', () => {
    // the upstream file has a trailing comma before its closing brace
    const dict = JSON.parse(readFileSync(join(VARIANT_DIR, 'data_dictionary.json'), 'utf8').replace(/,\s*}\s*$/, '}')) as Record<string, unknown>;
    let n = 0;
    for (const [name, want] of Object.entries(dict)) {
      const meta = readFileSync(join(VARIANT_DIR, `${name}.metadata`));
      const value = readFileSync(join(VARIANT_DIR, `${name}.value`));
      const got = decodeVariantBin(new Uint8Array(Buffer.concat([meta, value])));
      expect(sameAsRendering(got, want), `${name}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`).toBe(true);
      n++;
    }
    expect(n).toBeGreaterThanOrEqual(28);
  });
});
