/**
 * fromJsValues: JavaScript → physical values, checked as the inverse of the reader's convertValues (to-js), against
 * byte vectors computed by hand from the spec, against TextEncoder/TextDecoder for UTF-8, and against independent
 * encoders written here (big-endian two's complement with BigInt, IEEE half by nearest-neighbour search).
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { buildSchemaTree, type ColumnDescriptor } from '@parquetry/parquet-levels';
import type { ColumnValues } from '@parquetry/parquet-encodings';
import { ConvertedType, FieldRepetitionType, Type, type LogicalType, type SchemaElement } from '@parquetry/thrift-compact';
import { fromJsValues, type FromJsOptions } from '../src/from-js.js';
import { convertValues } from '../src/convert.js';
import type { ValueOptions } from '../src/to-js.js';
import { typedError } from './helpers.js';

// ---------------------------------------------------------------------------------------------------------------
// helpers

/** A required leaf `a.b` (inside a required group `a`) with the given physical type and annotations. */
function leaf(type: Type, extra: Partial<SchemaElement> = {}): ColumnDescriptor {
  const tree = buildSchemaTree([
    { name: 'schema', num_children: 1 },
    { name: 'a', repetition_type: FieldRepetitionType.REQUIRED, num_children: 1 },
    { name: 'b', repetition_type: FieldRepetitionType.REQUIRED, type, ...extra },
  ]);
  return tree.columns[0]!;
}
const lt = (type: Type, logicalType: LogicalType, extra: Partial<SchemaElement> = {}) => leaf(type, { logicalType, ...extra });
const MILLIS = { MILLIS: {} };
const MICROS = { MICROS: {} };
const NANOS = { NANOS: {} };
const int = (bitWidth: number, isSigned: boolean) => lt(Type.INT32, { INTEGER: { bitWidth, isSigned } });
const dec = (type: Type, precision: number, scale: number, typeLength?: number) =>
  lt(type, { DECIMAL: { precision, scale } }, typeLength === undefined ? {} : { type_length: typeLength });
const flba = (typeLength: number, logicalType?: LogicalType, extra: Partial<SchemaElement> = {}) =>
  leaf(Type.FIXED_LEN_BYTE_ARRAY, { type_length: typeLength, ...(logicalType ? { logicalType } : {}), ...extra });

const from = (values: ArrayLike<unknown>, column: ColumnDescriptor, options?: FromJsOptions) => fromJsValues(values, 0, values.length, column, options);
const toJs = (values: ColumnValues, column: ColumnDescriptor, options?: ValueOptions) => Array.from(convertValues(values, column, options));

/** A physical value array as comparable plain data (bytes for typed arrays; offsets rebased at 0). */
function plain(v: ColumnValues): unknown {
  if ('offsets' in v) {
    const base = v.offsets[0]!;
    return { offsets: Array.from(v.offsets, (o) => o - base), data: Array.from(v.data.subarray(base, v.offsets[v.offsets.length - 1]!)) };
  }
  if ('width' in v) return { width: v.width, data: Array.from(v.data) };
  return { kind: v.constructor.name, bytes: Array.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) };
}
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(' ');
const enc = new TextEncoder();

function byteArrays(parts: Uint8Array[]): { offsets: Int32Array; data: Uint8Array } {
  const offsets = new Int32Array(parts.length + 1);
  let n = 0;
  parts.forEach((p, i) => (offsets[i + 1] = n += p.length));
  const data = new Uint8Array(n);
  parts.forEach((p, i) => data.set(p, offsets[i]!));
  return { offsets, data };
}
function fixedBytes(parts: Uint8Array[], width: number): { width: number; data: Uint8Array } {
  const data = new Uint8Array(parts.length * width);
  parts.forEach((p, i) => data.set(p, i * width));
  return { width, data };
}

/** Independent big-endian two's complement of `u` in `width` bytes (BigInt, byte by byte). */
function twosComplementBE(u: bigint, width: number): Uint8Array {
  const out = new Uint8Array(width);
  let x = BigInt.asUintN(width * 8, u);
  for (let i = width - 1; i >= 0; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}
/** Fewest bytes holding `u` in two's complement, by search. */
function minimalWidth(u: bigint): number {
  let w = 1;
  while (!(u >= -(1n << BigInt(8 * w - 1)) && u < 1n << BigInt(8 * w - 1))) w++;
  return w;
}
/** Largest precision whose every value fits in `width` bytes. */
const maxPrecision = (width: number) => (2n ** BigInt(8 * width - 1) - 1n).toString().length - 1;

/** Decimal string of `u * 10^-scale`, written here independently of formatDecimal. */
function decimalString(u: bigint, scale: number): string {
  const neg = u < 0n;
  const digits = (neg ? -u : u).toString().padStart(scale + 1, '0');
  const s = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return neg ? `-${s}` : s;
}

const int32Arb = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const int64Arb = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const safeArb = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const RUNS = { numRuns: 200 };
/** Any UTF-16 code unit, biased towards surrogates (fast-check's 'binary' unit only makes well-formed strings). */
const utf16Unit = fc.oneof(fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '😀', 'é', 'a'));
const utf16 = (constraints: { minLength?: number; maxLength?: number } = {}) => fc.string({ unit: utf16Unit, ...constraints });

// ---------------------------------------------------------------------------------------------------------------
// vectors computed by hand from the spec

describe('hand-computed vectors', () => {
  test('DECIMAL(9, 2) 1.23 as FIXED_LEN_BYTE_ARRAY(4) is 00 00 00 7b; -1.23 is ff ff ff 85', () => {
    const c = dec(Type.FIXED_LEN_BYTE_ARRAY, 9, 2, 4);
    expect(plain(from(['1.23', '-1.23', 1.23, 0], c))).toEqual({ width: 4, data: [0, 0, 0, 0x7b, 0xff, 0xff, 0xff, 0x85, 0, 0, 0, 0x7b, 0, 0, 0, 0] });
  });
  test('DECIMAL as BYTE_ARRAY: minimal big-endian two\'s complement (-1 = ff, 0 = 00, 128 = 00 80, -129 = ff 7f)', () => {
    const c = dec(Type.BYTE_ARRAY, 20, 0);
    const got = from(['-1', '0', '127', '128', '-128', '-129', '32767', '32768', -(2n ** 63n)], c) as { offsets: Int32Array; data: Uint8Array };
    expect(Array.from(got.offsets)).toEqual([0, 1, 2, 3, 5, 6, 8, 10, 13, 21]);
    expect(hex(got.data)).toBe('ff 00 7f 00 80 80 ff 7f 7f ff 00 80 00 80 00 00 00 00 00 00 00');
  });
  test('INT96 of 1970-01-01T00:00:00.000000001Z is nanos 1 (int64 LE) + Julian day 2440588 = 0x00253d8c (int32 LE)', () => {
    const c = leaf(Type.INT96);
    const got = from([1n, new Date(0), -1n, new Date(-1)], c) as { width: number; data: Uint8Array };
    expect(got.width).toBe(12);
    expect(hex(got.data.subarray(0, 12))).toBe('01 00 00 00 00 00 00 00 8c 3d 25 00');
    expect(hex(got.data.subarray(12, 24))).toBe('00 00 00 00 00 00 00 00 8c 3d 25 00');
    // one nanosecond before the epoch: 86399999999999 ns (0x4e94914effff) into the previous day 2440587
    expect(hex(got.data.subarray(24, 36))).toBe('ff ff 4e 91 94 4e 00 00 8b 3d 25 00');
    // one millisecond before: 86399999000000 ns into the previous day
    expect(hex(got.data.subarray(36, 48))).toBe(hex(int96Bytes(86399999000000n, 2440587)));
  });
  test('FLOAT16 (IEEE binary16, little-endian): 1 = 3c00, -2 = c000, 65504 = 7bff, 2^-24 = 0001', () => {
    const c = flba(2, { FLOAT16: {} });
    const got = from([1, -2, 65504, 2 ** -24, 0, -0, Infinity, -Infinity, NaN, 65519.99, 2 ** -25, 2 ** -25 * 3, 1 + 2 ** -11, 1 + 3 * 2 ** -11], c) as { data: Uint8Array };
    const bits = Array.from({ length: got.data.length / 2 }, (_, i) => got.data[2 * i]! | (got.data[2 * i + 1]! << 8));
    // 2^-25 ties to even (0); 3·2^-25 ties up to 2 ulps (0002); 1 + 2^-11 ties to even 1.0; 1 + 3·2^-11 ties up to 3c02
    expect(bits).toEqual([0x3c00, 0xc000, 0x7bff, 0x0001, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7bff, 0x0000, 0x0002, 0x3c00, 0x3c02]);
    expect(Array.from(got.data.subarray(0, 8))).toEqual([0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b, 0x01, 0x00]);
  });
  test('UUID string (either case) is its 16 bytes in order; INTERVAL is three uint32 LE', () => {
    const u = from(['00112233-4455-6677-8899-AaBbCcDdEeFf'], flba(16, { UUID: {} })) as { data: Uint8Array };
    expect(hex(u.data)).toBe('00 11 22 33 44 55 66 77 88 99 aa bb cc dd ee ff');
    const iv = from([{ months: 1, days: 0x01020304, millis: 0xffffffff }], flba(12, undefined, { converted_type: ConvertedType.INTERVAL })) as { data: Uint8Array };
    expect(hex(iv.data)).toBe('01 00 00 00 04 03 02 01 ff ff ff ff');
  });
  test('INT64 from numbers moves through 32-bit words: -1, ±(2^53-1), 2^32', () => {
    const got = from([-1, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 32, -(2 ** 32), -0], leaf(Type.INT64)) as BigInt64Array;
    expect(Array.from(got)).toEqual([-1n, 2n ** 53n - 1n, -(2n ** 53n - 1n), 2n ** 32n, -(2n ** 32n), 0n]);
  });
  test('TIMESTAMP from Date: milliseconds scaled to the unit', () => {
    const d = new Date('2024-02-29T12:34:56.789Z');
    const ms = BigInt(d.getTime());
    for (const [unit, mul] of [[MILLIS, 1n], [MICROS, 1000n], [NANOS, 1000000n]] as const) {
      const got = from([d, new Date(-1)], lt(Type.INT64, { TIMESTAMP: { isAdjustedToUTC: true, unit } })) as BigInt64Array;
      expect(Array.from(got)).toEqual([ms * mul, -mul]);
    }
  });
  test('UINT_32 2^32-1 and UINT_8 255 store as two\'s complement (-1, 255)', () => {
    expect(Array.from(from([2 ** 32 - 1, 2147483648n], int(32, false)) as Int32Array)).toEqual([-1, -2147483648]);
    expect(Array.from(from([255, 0], int(8, false)) as Int32Array)).toEqual([255, 0]);
  });
  test('UTF-8: ASCII, 2-, 3- and 4-byte sequences, lone surrogates → ef bf bd', () => {
    const got = from(['a', 'é', '€', '😀', '\ud800x', 'x\udc00', ''], lt(Type.BYTE_ARRAY, { STRING: {} })) as { offsets: Int32Array; data: Uint8Array };
    expect(Array.from(got.offsets)).toEqual([0, 1, 3, 6, 10, 14, 18, 18]);
    expect(hex(got.data)).toBe('61 c3 a9 e2 82 ac f0 9f 98 80 ef bf bd 78 78 ef bf bd');
  });
});

function int96Bytes(nanos: bigint, day: number): Uint8Array {
  const b = new Uint8Array(12);
  const dv = new DataView(b.buffer);
  dv.setBigInt64(0, nanos, true);
  dv.setInt32(8, day, true);
  return b;
}

// ---------------------------------------------------------------------------------------------------------------
// round trips per type

describe('round trips: physical → convertValues → fromJsValues is the identity, JS → physical → JS is canonical', () => {
  test('BOOLEAN (arrays of booleans, and a Uint8Array of 0/1 returned as a view)', () => {
    const c = leaf(Type.BOOLEAN);
    fc.assert(fc.property(fc.array(fc.boolean()), (bs) => {
      const phys = Uint8Array.from(bs, Number);
      expect(plain(from(toJs(phys, c), c))).toEqual(plain(phys));
      expect(toJs(from(bs, c), c)).toEqual(bs);
    }), RUNS);
    const raw = Uint8Array.of(9, 1, 0, 1, 9);
    const view = fromJsValues(raw, 1, 4, c) as Uint8Array;
    expect(view.buffer).toBe(raw.buffer);
    expect(Array.from(view)).toEqual([1, 0, 1]);
  });

  test('INT32 plain, INTEGER(8/16/32) signed and unsigned, TIME(MILLIS): typed and array inputs, numbers and bigints', () => {
    const kinds: [ColumnDescriptor, number, number][] = [
      [leaf(Type.INT32), -(2 ** 31), 2 ** 31 - 1],
      [int(8, true), -128, 127], [int(16, true), -32768, 32767], [int(32, true), -(2 ** 31), 2 ** 31 - 1],
      [int(8, false), 0, 255], [int(16, false), 0, 65535], [int(32, false), 0, 2 ** 32 - 1],
      // a time of day: [0, 24 h) as Arrow's time32('ms')
      [lt(Type.INT32, { TIME: { isAdjustedToUTC: true, unit: MILLIS } }), 0, 86_399_999],
      [leaf(Type.INT32, { converted_type: ConvertedType.UINT_16 }), 0, 65535],
    ];
    for (const [c, min, max] of kinds) {
      fc.assert(fc.property(fc.array(fc.integer({ min, max })), fc.boolean(), (js, asBig) => {
        const phys = Int32Array.from(js, (v) => v | 0);
        // physical → JS → physical, from the reader's own output (Int32Array, or Float64Array for unsigned)
        expect(plain(from(convertValues(phys, c), c))).toEqual(plain(phys));
        // JS (numbers or bigints, in a plain array) → physical → JS
        const input = asBig ? js.map(BigInt) : js;
        expect(Array.from(convertValues(from(input, c), c))).toEqual(js);
      }), { numRuns: 60 });
      // out of range by one on either side
      for (const bad of [min - 1, max + 1, 0.5]) expect((await_(() => from([bad], c)))).toBe('INVALID_VALUE');
    }
  });

  test('Int32Array input for a signed column is returned as a view; Uint32Array for UINT_32 is reinterpreted without a copy', () => {
    const a = Int32Array.of(5, -6, 7, 8);
    const got = fromJsValues(a, 1, 3, leaf(Type.INT32)) as Int32Array;
    expect(got.buffer).toBe(a.buffer);
    expect(Array.from(got)).toEqual([-6, 7]);
    const u = Uint32Array.of(1, 2 ** 32 - 1, 2 ** 31);
    const gu = fromJsValues(u, 1, 3, int(32, false)) as Int32Array;
    expect(gu).toBeInstanceOf(Int32Array);
    expect(gu.buffer).toBe(u.buffer);
    expect(Array.from(gu)).toEqual([-1, -(2 ** 31)]);
    // 8-bit column: checked, still a view
    const small = Int32Array.of(-128, 127);
    expect((fromJsValues(small, 0, 2, int(8, true)) as Int32Array).buffer).toBe(small.buffer);
    expect(await_(() => fromJsValues(Int32Array.of(1, 128), 0, 2, int(8, true)))).toBe('INVALID_VALUE');
  });

  test('DATE: days (number/bigint) or a Date floored to its UTC day', () => {
    const c = lt(Type.INT32, { DATE: {} });
    const days = fc.integer({ min: -100_000_000, max: 99_999_999 }); // Dates reach ±10^8 days
    fc.assert(fc.property(fc.array(days), fc.array(fc.integer({ min: 0, max: 86_399_999 })), (ds, tods) => {
      const phys = Int32Array.from(ds);
      expect(plain(from(convertValues(phys, c, { dates: 'date' }), c))).toEqual(plain(phys));
      expect(plain(from(convertValues(phys, c), c))).toEqual(plain(phys));
      // any time of the day floors to the day (also before 1970)
      const dates = ds.map((d, i) => new Date(d * 86_400_000 + (tods[i] ?? 0)));
      expect(Array.from(from(dates, c) as Int32Array)).toEqual(ds);
    }), RUNS);
  });

  test('INT64 plain / INTEGER(64): bigint, BigInt64Array view, safe numbers and Float64Array', () => {
    const cols = [leaf(Type.INT64), lt(Type.INT64, { INTEGER: { bitWidth: 64, isSigned: true } })];
    for (const c of cols) {
      fc.assert(fc.property(fc.array(int64Arb), fc.array(safeArb), (big, safe) => {
        const phys = BigInt64Array.from(big);
        const js = convertValues(phys, c);
        expect(plain(from(js, c))).toEqual(plain(phys));
        expect(plain(from(Array.from(js), c))).toEqual(plain(phys));
        // numbers: the reader's int64: 'number' form (exact in the safe range)
        const physSafe = BigInt64Array.from(safe, BigInt);
        const asNumbers = convertValues(physSafe, c, { int64: 'number' });
        expect(plain(from(asNumbers, c))).toEqual(plain(physSafe));
        expect(plain(from(safe, c))).toEqual(plain(physSafe));
      }), { numRuns: 100 });
    }
    const a = BigInt64Array.of(1n, 2n, 3n);
    expect((fromJsValues(a, 1, 3, leaf(Type.INT64)) as BigInt64Array).buffer).toBe(a.buffer);
  });

  test('TIME(MICROS, NANOS): a time of day in [0, 24 h), from bigints, numbers and BigInt64Array (view); out of range is INVALID_VALUE', () => {
    for (const [unit, perDay] of [[MICROS, 86_400_000_000n], [NANOS, 86_400_000_000_000n]] as const) {
      const c = lt(Type.INT64, { TIME: { isAdjustedToUTC: false, unit } });
      fc.assert(fc.property(fc.array(fc.bigInt({ min: 0n, max: perDay - 1n })), (big) => {
        const phys = BigInt64Array.from(big);
        const js = convertValues(phys, c);
        expect(plain(from(js, c))).toEqual(plain(phys));
        expect(plain(from(Array.from(js), c))).toEqual(plain(phys));
        expect(plain(from(Array.from(big, Number), c))).toEqual(plain(phys)); // below 2^53: exact as numbers
      }), { numRuns: 50 });
      const view = BigInt64Array.of(0n, perDay - 1n);
      expect((fromJsValues(view, 0, 2, c) as BigInt64Array).buffer).toBe(view.buffer);
      for (const bad of [-1n, perDay, -1, Number(perDay), 0.5, BigInt64Array.of(perDay)]) {
        expect(await_(() => (bad instanceof BigInt64Array ? fromJsValues(bad, 0, 1, c) : from([bad], c)))).toBe('INVALID_VALUE');
      }
      expect(() => fromJsValues([0n, perDay], 0, 2, c, undefined, (k) => 40 + k)).toThrow(new RegExp(`row 41: expected .*since midnight in 0\\.\\.${perDay - 1n} \\(a time of day\\), got bigint ${perDay}n`));
    }
    const ms = lt(Type.INT32, { TIME: { isAdjustedToUTC: true, unit: MILLIS } });
    expect(() => from([-1], ms)).toThrow(/expected an integer number or bigint of milliseconds since midnight in 0\.\.86399999 \(a time of day\), got number -1/);
    expect(await_(() => fromJsValues(Int32Array.of(86_400_000), 0, 1, ms))).toBe('INVALID_VALUE');
  });

  test('UINT_64: bigint 0..2^64-1, BigUint64Array reinterpreted, safe numbers', () => {
    const c = lt(Type.INT64, { INTEGER: { bitWidth: 64, isSigned: false } });
    fc.assert(fc.property(fc.array(int64Arb), (big) => {
      const phys = BigInt64Array.from(big);
      const js = convertValues(phys, c); // BigUint64Array
      expect(js).toBeInstanceOf(BigUint64Array);
      const back = from(js, c);
      expect(plain(back)).toEqual(plain(phys));
      expect((back as BigInt64Array).buffer).toBe((js as BigUint64Array).buffer);
      expect(plain(from(Array.from(js), c))).toEqual(plain(phys));
    }), RUNS);
    expect(Array.from(from([2 ** 53 - 1, 2n ** 64n - 1n], c) as BigInt64Array)).toEqual([2n ** 53n - 1n, -1n]);
    for (const bad of [-1, -1n, 2n ** 64n]) expect(await_(() => from([bad], c))).toBe('INVALID_VALUE');
  });

  test('TIMESTAMP (MILLIS, MICROS, NANOS): counts, and Dates converted to the unit', () => {
    // Dates a NANOS timestamp holds: 1677-09-21T00:12:43.146Z .. 2262-04-11T23:47:16.854Z
    const nanoDates = fc.integer({ min: -9223372036854, max: 9223372036854 }).map((ms) => new Date(ms));
    const anyDate = fc.integer({ min: -8.64e15, max: 8.64e15 }).map((ms) => new Date(ms));
    for (const [unit, dates] of [[MILLIS, anyDate], [MICROS, anyDate], [NANOS, nanoDates]] as const) {
      const c = lt(Type.INT64, { TIMESTAMP: { isAdjustedToUTC: true, unit } });
      fc.assert(fc.property(fc.array(int64Arb), fc.array(dates), (big, ds) => {
        const phys = BigInt64Array.from(big);
        expect(plain(from(convertValues(phys, c), c))).toEqual(plain(phys));
        // Date → count → Date is exact (Dates carry milliseconds)
        expect(toJs(from(ds, c), c, { timestamps: 'date' })).toEqual(ds);
      }), { numRuns: 100 });
    }
    const ns = lt(Type.INT64, { TIMESTAMP: { isAdjustedToUTC: true, unit: NANOS } });
    expect(await_(() => from([new Date('2262-04-12T00:00:00Z')], ns))).toBe('INVALID_VALUE');
    expect(await_(() => from([new Date('1677-09-21T00:00:00Z')], ns))).toBe('INVALID_VALUE');
  });

  test('INT96: canonical physical values round-trip; bigint nanos and Dates (negative, far) convert back exactly', () => {
    const c = leaf(Type.INT96);
    const canonical = fc.record({ day: int32Arb, nanos: fc.bigInt({ min: 0n, max: 86_399_999_999_999n }) });
    fc.assert(fc.property(fc.array(canonical), fc.array(fc.integer({ min: -8.64e15, max: 8.64e15 })), (vs, ms) => {
      const phys = fixedBytes(vs.map((v) => int96Bytes(v.nanos, v.day)), 12);
      const js = toJs(phys, c);
      expect(plain(from(js, c))).toEqual(plain(phys));
      const dates = ms.map((m) => new Date(m));
      expect(toJs(from(dates, c), c, { timestamps: 'date' })).toEqual(dates);
      expect(toJs(from(dates, c), c)).toEqual(ms.map((m) => BigInt(m) * 1_000_000n));
    }), RUNS);
    // the Julian day must fit in 32 bits
    const last = (2147483647n - 2440588n) * 86_400_000_000_000n + 86_399_999_999_999n;
    expect(toJs(from([last], c), c)).toEqual([last]);
    expect(await_(() => from([last + 1n], c))).toBe('INVALID_VALUE');
  });

  test('FLOAT and DOUBLE: typed arrays as views (bits kept), arrays of numbers', () => {
    const f = leaf(Type.FLOAT);
    const d = leaf(Type.DOUBLE);
    fc.assert(fc.property(fc.array(fc.float()), fc.array(fc.double()), (fs, ds) => {
      const pf = Float32Array.from(fs);
      const pd = Float64Array.from(ds);
      expect(plain(from(convertValues(pf, f), f))).toEqual(plain(pf));
      expect(plain(from(convertValues(pd, d), d))).toEqual(plain(pd));
      // plain arrays: value-equal (NaN payloads are not kept through JS numbers)
      expect(Array.from(from(fs, f) as Float32Array)).toEqual(fs);
      expect(Array.from(from(ds, d) as Float64Array)).toEqual(ds);
      expect(Array.from(from(Float32Array.from(fs), d) as Float64Array)).toEqual(fs);
    }), RUNS);
    // doubles round to the nearest float32; finite values past its range are an error
    expect(Array.from(from([0.1, 3.4028235e38, -Infinity], f) as Float32Array)).toEqual([Math.fround(0.1), 3.4028234663852886e38, -Infinity]);
    // FLT_MAX + half an ulp ties to even, which is 2^128 = Infinity
    for (const big of [1e39, 3.4028235677973366e38, -3.4028235677973366e38]) expect(await_(() => from([big], f))).toBe('INVALID_VALUE');
  });

  test('FLOAT16: all 65,536 bit patterns round-trip (NaNs to the canonical 7e00)', () => {
    const c = flba(2, { FLOAT16: {} });
    const all = new Uint8Array(2 * 65536);
    for (let b = 0; b < 65536; b++) {
      all[2 * b] = b & 255;
      all[2 * b + 1] = b >> 8;
    }
    const js = toJs({ width: 2, data: all }, c);
    const back = (from(js, c) as { data: Uint8Array }).data;
    let mismatches = 0;
    for (let b = 0; b < 65536; b++) {
      const isNaN = (b & 0x7c00) === 0x7c00 && (b & 0x3ff) !== 0;
      const got = back[2 * b]! | (back[2 * b + 1]! << 8);
      if (got !== (isNaN ? 0x7e00 : b)) mismatches++;
    }
    expect(mismatches).toBe(0);
  });

  test('FLOAT16 of any double is the nearest half (ties to the even mantissa); past 65520 is an error', () => {
    const c = flba(2, { FLOAT16: {} });
    const half = (bits: number) => toJs({ width: 2, data: Uint8Array.of(bits & 255, bits >> 8) }, c)[0] as number;
    fc.assert(fc.property(fc.double({ min: -65519.99, max: 65519.99, noNaN: true }), (x) => {
      const d = (from([x], c) as { data: Uint8Array }).data;
      const bits = d[0]! | (d[1]! << 8);
      const y = half(bits);
      // no neighbour is closer; on a tie the chosen mantissa is even
      for (const nb of [bits - 1, bits + 1]) {
        if ((nb & 0x7fff) > 0x7bff || nb < 0) continue;
        const z = half(nb);
        expect(Math.abs(x - y)).toBeLessThanOrEqual(Math.abs(x - z));
        if (Math.abs(x - y) === Math.abs(x - z) && x !== 0) expect(bits & 1).toBe(0);
      }
      expect(Object.is(Math.sign(y), Math.sign(x)) || y === 0).toBe(true);
    }), { numRuns: 2000 });
    expect(await_(() => from([65520], c))).toBe('INVALID_VALUE');
    expect(await_(() => from([-1e10], c))).toBe('INVALID_VALUE');
  });

  test('STRING/ENUM/JSON: UTF-8 as TextEncoder writes it (astral, lone surrogates, empty, long), Uint8Array as given', () => {
    for (const logicalType of [{ STRING: {} }, { ENUM: {} }, { JSON: {} }] as LogicalType[]) {
      const c = lt(Type.BYTE_ARRAY, logicalType);
      const str = fc.oneof(fc.string({ unit: 'binary' }), utf16(), fc.string({ unit: 'grapheme', maxLength: 100 }), utf16({ minLength: 64, maxLength: 300 }), fc.constant(''));
      fc.assert(fc.property(fc.array(str), (ss) => {
        const got = from(ss, c);
        const expected = byteArrays(ss.map((s) => enc.encode(s)));
        expect(plain(got)).toEqual(plain(expected));
        // well-formed strings come back as themselves
        const wellFormed = ss.map((s) => new TextDecoder().decode(enc.encode(s)));
        expect(toJs(from(wellFormed, c), c)).toEqual(wellFormed);
        // and the reader's bytes form goes back unchanged
        expect(plain(from(toJs(expected, c, { strings: 'bytes' }), c))).toEqual(plain(expected));
      }), { numRuns: 150 });
    }
  });

  test('the byte buffer grows past its first estimate (3-byte and 4-byte characters, long strings, byte arrays mixed in)', () => {
    const c = leaf(Type.BYTE_ARRAY);
    const vs: (string | Uint8Array)[] = [];
    for (let i = 0; i < 3000; i++) {
      if (i % 7 === 0) vs.push(Uint8Array.from({ length: i % 50 }, (_, k) => (k * 31 + i) & 255));
      else if (i % 5 === 0) vs.push('€'.repeat(i % 200) + 'a');
      else if (i % 3 === 0) vs.push('a'.repeat(i % 90) + '😀'.repeat(i % 70));
      else vs.push(`row ${i}`);
    }
    for (const strictUtf8 of [false, true]) {
      const got = from(vs, c, { strictUtf8 });
      expect(plain(got)).toEqual(plain(byteArrays(vs.map((v) => (typeof v === 'string' ? enc.encode(v) : v)))));
    }
  });

  test('ASCII strings after a non-ASCII one that used up the first estimate\'s slack', () => {
    const c = lt(Type.BYTE_ARRAY, { STRING: {} });
    const vs = ['€'.repeat(1000), ...Array.from({ length: 300 }, (_, i) => `ascii ${i}`.padEnd(10, '.'))];
    expect(plain(from(vs, c))).toEqual(plain(byteArrays(vs.map((v) => enc.encode(v)))));
  });

  test('lone surrogates (under strictUtf8) and invalid UTF-8 bytes (always) are rejected exactly when TextEncoder/TextDecoder(fatal) would', () => {
    const c = lt(Type.BYTE_ARRAY, { STRING: {} });
    const fatal = new TextDecoder('utf-8', { fatal: true });
    fc.assert(fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 120 }), utf16({ maxLength: 120 }), utf16({ minLength: 64, maxLength: 300 })), (s) => {
      const wellFormed = !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
      const r = await_(() => from([s], c, { strictUtf8: true }));
      expect(r).toBe(wellFormed ? 'ok' : 'INVALID_VALUE');
    }), { numRuns: 1000 });
    const bytes = fc.oneof(fc.uint8Array({ maxLength: 8 }), utf16({ maxLength: 8 }).map((s) => enc.encode(s)));
    fc.assert(fc.property(bytes, (b) => {
      let valid = true;
      try {
        fatal.decode(b);
      } catch {
        valid = false;
      }
      expect(await_(() => from([b], c, { strictUtf8: true }))).toBe(valid ? 'ok' : 'INVALID_VALUE');
      // bytes for a text column are checked by default too (strictUtf8 is about JavaScript strings' lone surrogates)
      expect(await_(() => from([b], c))).toBe(valid ? 'ok' : 'INVALID_VALUE');
    }), { numRuns: 3000 });
    // the edges of Unicode Table 3-7
    for (const [b, ok] of [[[0xc2, 0x80], true], [[0xc1, 0xbf], false], [[0xe0, 0xa0, 0x80], true], [[0xe0, 0x9f, 0xbf], false], [[0xed, 0x9f, 0xbf], true], [[0xed, 0xa0, 0x80], false], [[0xf0, 0x90, 0x80, 0x80], true], [[0xf0, 0x8f, 0xbf, 0xbf], false], [[0xf4, 0x8f, 0xbf, 0xbf], true], [[0xf4, 0x90, 0x80, 0x80], false], [[0xe2, 0x82], false]] as const) {
      expect(await_(() => from([Uint8Array.from(b)], c, { strictUtf8: true }))).toBe(ok ? 'ok' : 'INVALID_VALUE');
    }
  });

  test('binary BYTE_ARRAY (unannotated, BSON, GEOMETRY, GEOGRAPHY): Uint8Array; unannotated also takes a string', () => {
    const cols = [leaf(Type.BYTE_ARRAY), lt(Type.BYTE_ARRAY, { BSON: {} }), lt(Type.BYTE_ARRAY, { GEOMETRY: {} }), lt(Type.BYTE_ARRAY, { GEOGRAPHY: {} })];
    for (const c of cols) {
      fc.assert(fc.property(fc.array(fc.uint8Array({ maxLength: 80 })), (bs) => {
        const phys = byteArrays(bs);
        expect(plain(from(toJs(phys, c), c))).toEqual(plain(phys));
      }), { numRuns: 60 });
    }
    expect(plain(from(['é'], cols[0]!))).toEqual(plain(byteArrays([enc.encode('é')])));
    for (const c of cols.slice(1)) expect(await_(() => from(['x'], c))).toBe('INVALID_VALUE');
  });

  test('UUID: bytes → string → bytes; upper-case strings and 16-byte arrays', () => {
    const c = flba(16, { UUID: {} });
    fc.assert(fc.property(fc.array(fc.uint8Array({ minLength: 16, maxLength: 16 })), (us) => {
      const phys = fixedBytes(us, 16);
      const js = toJs(phys, c) as string[];
      expect(plain(from(js, c))).toEqual(plain(phys));
      expect(plain(from(js.map((s) => s.toUpperCase()), c))).toEqual(plain(phys));
      expect(plain(from(us, c))).toEqual(plain(phys));
    }), RUNS);
    for (const bad of ['00112233-4455-6677-8899-aabbccddeef', '00112233445566778899aabbccddeeff', '0011223g-4455-6677-8899-aabbccddeeff', '00112233-4455-6677-8899_aabbccddeeff', new Uint8Array(15)]) {
      expect(await_(() => from([bad], c))).toBe('INVALID_VALUE');
    }
  });

  test('INTERVAL: { months, days, millis } and 12-byte arrays', () => {
    const c = flba(12, undefined, { converted_type: ConvertedType.INTERVAL });
    const u32 = fc.integer({ min: 0, max: 2 ** 32 - 1 });
    fc.assert(fc.property(fc.array(fc.record({ months: u32, days: u32, millis: u32 })), (ivs) => {
      const phys = from(ivs, c);
      expect(toJs(phys, c)).toEqual(ivs);
      expect(plain(from(toJs(phys, c), c))).toEqual(plain(phys));
      const bytes = Array.from({ length: ivs.length }, (_, i) => (phys as { data: Uint8Array }).data.slice(i * 12, i * 12 + 12));
      expect(plain(from(bytes, c))).toEqual(plain(phys));
    }), RUNS);
    for (const bad of [{ months: -1, days: 0, millis: 0 }, { months: 0, days: 2 ** 32, millis: 0 }, { months: 0, days: 0 }, { months: 0.5, days: 0, millis: 0 }, new Uint8Array(11), 5]) {
      expect(await_(() => from([bad], c))).toBe('INVALID_VALUE');
    }
  });

  test('other FIXED_LEN_BYTE_ARRAY: exactly typeLength bytes; STRING on FLBA: exactly typeLength UTF-8 bytes', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 20 }).chain((w) => fc.tuple(fc.constant(w), fc.array(fc.uint8Array({ minLength: w, maxLength: w })))), ([w, bs]) => {
      const c = flba(w);
      const phys = fixedBytes(bs, w);
      expect(plain(from(toJs(phys, c), c))).toEqual(plain(phys));
    }), RUNS);
    const s = flba(4, { STRING: {} });
    expect(toJs(from(['abcd', 'éé', '€a', '😀', enc.encode('wxyz')], s), s)).toEqual(['abcd', 'éé', '€a', '😀', 'wxyz']);
    for (const bad of ['abc', 'abcde', 'é€', '\ud800a', new Uint8Array(3)]) expect(await_(() => from([bad], s, { strictUtf8: true }))).toBe('INVALID_VALUE');
    expect(await_(() => from([new Uint8Array(3)], flba(4)))).toBe('INVALID_VALUE');
  });
});

// ---------------------------------------------------------------------------------------------------------------
// DECIMAL

describe('DECIMAL on INT32, INT64, FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY', () => {
  type Form = { name: string; maxP: number; column: (p: number, s: number) => ColumnDescriptor; phys: (us: bigint[]) => ColumnValues };
  const forms: Form[] = [
    { name: 'INT32', maxP: 9, column: (p, s) => dec(Type.INT32, p, s), phys: (us) => Int32Array.from(us, Number) },
    { name: 'INT64', maxP: 18, column: (p, s) => dec(Type.INT64, p, s), phys: (us) => BigInt64Array.from(us) },
    { name: 'BYTE_ARRAY', maxP: 60, column: (p, s) => dec(Type.BYTE_ARRAY, p, s), phys: (us) => byteArrays(us.map((u) => twosComplementBE(u, minimalWidth(u)))) },
    ...[1, 2, 3, 5, 8, 9, 12, 16, 20].map((w): Form => ({
      name: `FIXED_LEN_BYTE_ARRAY(${w})`,
      maxP: maxPrecision(w),
      column: (p, s) => dec(Type.FIXED_LEN_BYTE_ARRAY, p, s, w),
      phys: (us) => fixedBytes(us.map((u) => twosComplementBE(u, w)), w),
    })),
  ];
  const caseOf = (maxP: number) =>
    fc.integer({ min: 1, max: maxP }).chain((p) =>
      fc.tuple(fc.constant(p), fc.integer({ min: 0, max: p }), fc.array(fc.bigInt({ min: 1n - 10n ** BigInt(p), max: 10n ** BigInt(p) - 1n }), { maxLength: 20 })),
    );

  for (const form of forms) {
    test(`${form.name}: random precision/scale; strings, bigints and numbers in every accepted spelling`, () => {
      fc.assert(fc.property(caseOf(form.maxP), ([p, scale, us]) => {
        const c = form.column(p, scale);
        const phys = form.phys(us);
        const canonical = us.map((u) => decimalString(u, scale));
        const js = toJs(phys, c);
        expect(js).toEqual(canonical);
        expect(plain(from(js, c))).toEqual(plain(phys));
        // the same values spelt otherwise
        const pow = 10n ** BigInt(scale);
        const spellings: unknown[][] = [
          canonical.map((s) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s)), // 1.50 → 1.5, 2.00 → 2
          canonical.map((s) => (s.startsWith('-') ? `-00${s.slice(1)}` : `+0${s}`)),
          canonical.map((s) => (s.includes('.') ? `${s}000` : `${s}.000`)),
          us.map((u) => `${u}e-${scale}`),
          us.map((u) => `${u * 10n}E${-scale - 1}`),
        ];
        if (us.every((u) => u % pow === 0n)) spellings.push(us.map((u) => u / pow));
        if (p <= 15) spellings.push(canonical.map(Number));
        for (const sp of spellings) expect(plain(from(sp, c))).toEqual(plain(phys));
        // one more non-zero fractional digit, or one more digit than the precision
        const u0 = us[0] ?? 7n;
        const s0 = decimalString(u0, scale);
        expect(await_(() => from([s0.includes('.') ? `${s0}1` : `${s0}.1`], c))).toBe('INVALID_VALUE');
        expect(await_(() => from([decimalString(10n ** BigInt(p), scale)], c))).toBe('INVALID_VALUE');
        expect(await_(() => from([decimalString(-(10n ** BigInt(p)), scale)], c))).toBe('INVALID_VALUE');
      }), { numRuns: 150 });
    });
  }

  test('values past the physical width (with a precision larger than it holds) are INVALID_VALUE', () => {
    expect(await_(() => from(['2147483647', '-2147483648'], dec(Type.INT32, 10, 0)))).toBe('ok');
    expect(await_(() => from(['2147483648'], dec(Type.INT32, 10, 0)))).toBe('INVALID_VALUE');
    expect(await_(() => from([2n ** 63n - 1n, -(2n ** 63n)], dec(Type.INT64, 19, 0)))).toBe('ok');
    expect(await_(() => from([2n ** 63n], dec(Type.INT64, 19, 0)))).toBe('INVALID_VALUE');
    expect(await_(() => from(['32767', '-32768'], dec(Type.FIXED_LEN_BYTE_ARRAY, 9, 0, 2)))).toBe('ok');
    expect(await_(() => from(['32768'], dec(Type.FIXED_LEN_BYTE_ARRAY, 9, 0, 2)))).toBe('INVALID_VALUE');
    expect(await_(() => from(['-32769'], dec(Type.FIXED_LEN_BYTE_ARRAY, 9, 0, 2)))).toBe('INVALID_VALUE');
    expect(await_(() => from([2n ** 71n], dec(Type.FIXED_LEN_BYTE_ARRAY, 30, 0, 9)))).toBe('INVALID_VALUE');
  });

  test('parsing: exponents, signs, zeros; malformed strings and non-finite numbers are rejected', () => {
    const c = dec(Type.INT64, 18, 2);
    const ok: [unknown, bigint][] = [['1e3', 100000n], ['1.5E1', 1500n], ['-0.000', 0n], ['1.', 100n], ['.5', 50n], ['1234.00e-2', 1234n], ['0e999999999999', 0n], ['123e-2', 123n], [1e15, 100000000000000000n], [-0, 0n], [0.07, 7n], [5n, 500n], ['00000000000000000000000001', 100n], ['1.230000000000000000000', 123n]];
    for (const [v, u] of ok) expect(Array.from(from([v], c) as BigInt64Array), String(v)).toEqual([u]);
    for (const v of ['', ' 1', '1 ', '.', 'e5', '1e', '1e+', '--1', '+-1', '1.2.3', '0x10', 'NaN', 'Infinity', '1,5', '1_000', '1e99999999999', '0.001', '12.3400e-2', NaN, Infinity, -Infinity, 0.1 + 0.2, 1e16, null, true, {}, new Date(0)]) {
      expect(await_(() => from([v], c)), String(v)).toBe('INVALID_VALUE');
    }
    // beyond 15 digits the parse goes through BigInt
    const wide = dec(Type.BYTE_ARRAY, 38, 10);
    const s = '-1234567890123456789012345678.0123456789';
    expect(toJs(from([s, '99999999999999999999999999999999999999e-10'], wide), wide)).toEqual([s, '9999999999999999999999999999.9999999999']);
  });

  test('negative scale (readers accept it): multiples of 10^-scale', () => {
    const c = dec(Type.INT32, 5, -2);
    expect(Array.from(from(['12300', 12300n, 12300, '1.23e4'], c) as Int32Array)).toEqual([123, 123, 123, 123]);
    expect(toJs(Int32Array.of(123), c)).toEqual(['12300']);
    for (const v of ['12345', 12345n, 12345, '0.5']) expect(await_(() => from([v], c))).toBe('INVALID_VALUE');
  });

  test('the reader\'s decimals: \'number\' form goes back exactly for precision ≤ 15', () => {
    fc.assert(fc.property(caseOf(15), ([p, scale, us]) => {
      const c = dec(Type.INT64, p, scale);
      const phys = BigInt64Array.from(us);
      expect(plain(from(convertValues(phys, c, { decimals: 'number' }), c))).toEqual(plain(phys));
    }), RUNS);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// errors

describe('errors', () => {
  const rowOf = (i: number) => i + 15;
  const cases: [string, ColumnDescriptor, unknown, unknown, RegExp][] = [
    ['BOOLEAN', leaf(Type.BOOLEAN), true, 1, /expected a boolean, got number 1/],
    ['INT32', leaf(Type.INT32), 1, 1.5, /expected an integer number or bigint in -2147483648\.\.2147483647, got number 1\.5/],
    ['INT32 range', leaf(Type.INT32), 1, 2 ** 31, /got number 2147483648/],
    ['INT32 string', leaf(Type.INT32), 1, '1', /got "1"/],
    ['INT8', int(8, true), 1, 128n, /in -128\.\.127, got bigint 128n/],
    ['UINT16', int(16, false), 1, -1, /in 0\.\.65535, got number -1/],
    ['DATE', lt(Type.INT32, { DATE: {} }), new Date(0), new Date(NaN), /or a valid Date, got an invalid Date/],
    ['INT64 unsafe', leaf(Type.INT64), 1n, 2 ** 53, /safe-integer number, got number 9007199254740992/],
    ['INT64 range', leaf(Type.INT64), 1n, 2n ** 63n, /got bigint 9223372036854775808n/],
    ['INT64 Date', leaf(Type.INT64), 1n, new Date(0), /got Date 1970-01-01T00:00:00\.000Z/],
    ['TIMESTAMP', lt(Type.INT64, { TIMESTAMP: { isAdjustedToUTC: true, unit: MILLIS } }), 1n, 'now', /or a valid Date, got "now"/],
    ['INT96', leaf(Type.INT96), 1n, 5, /nanoseconds since the epoch or a valid Date, got number 5/],
    ['FLOAT', leaf(Type.FLOAT), 1, 1n, /expected a number, got bigint 1n/],
    ['DOUBLE', leaf(Type.DOUBLE), 1, null, /expected a number, got null/],
    ['DECIMAL', dec(Type.INT32, 4, 2), '1', '1.234', /at most 4 digits and 2 fractional digits.*got "1\.234" \(more than 2 fractional digits\)/],
    ['DECIMAL precision', dec(Type.INT32, 4, 2), '1', '100', /got "100" \(5 digits, more than the precision 4\)/],
    ['STRING', lt(Type.BYTE_ARRAY, { STRING: {} }), 'a', 5, /expected a string or a Uint8Array of UTF-8, got number 5/],
    ['STRING strict', lt(Type.BYTE_ARRAY, { STRING: {} }), 'a', 'x\ud800', /valid UTF-16.*lone surrogate at index 1/],
    ['BSON', lt(Type.BYTE_ARRAY, { BSON: {} }), new Uint8Array(1), [1, 2], /expected a Uint8Array, got an array of 2/],
    ['UUID', flba(16, { UUID: {} }), '00112233-4455-6677-8899-aabbccddeeff', '{00112233-4455-6677-8899-aabbccddeeff}', /expected a UUID string/],
    ['INTERVAL', flba(12, undefined, { converted_type: ConvertedType.INTERVAL }), { months: 0, days: 0, millis: 0 }, { months: 1 }, /expected an interval.*got an object/],
    ['FLBA', flba(3), new Uint8Array(3), new Uint16Array(3), /Uint8Array of 3 bytes, got Uint16Array\(3\)/],
    ['FLOAT16', flba(2, { FLOAT16: {} }), 1, 70000, /FLOAT16 range.*got number 70000/],
    ['symbol', leaf(Type.INT32), 1, Symbol('s'), /got Symbol\(s\)/],
  ];
  for (const [name, c, good, bad, re] of cases) {
    test(`${name}: INVALID_VALUE naming the column and the row`, () => {
      let msg = '';
      try {
        fromJsValues([good, good, bad], 0, 3, c, { strictUtf8: true }, rowOf);
      } catch (e) {
        expect((e as { name: string }).name).toBe('ParquetError');
        expect((e as { code: string }).code).toBe('INVALID_VALUE');
        msg = (e as Error).message;
      }
      expect(msg).toMatch(/^parquet-column: column 'a\.b': row 17: expected /);
      expect(msg).toMatch(re);
      // without rowOf: the value index
      expect(() => fromJsValues([bad], 0, 1, c, { strictUtf8: true })).toThrow(/column 'a\.b': value 0: expected/);
    });
  }

  test('any JavaScript value gives a result or INVALID_VALUE, never another error, for every column kind', () => {
    const cols = [
      leaf(Type.BOOLEAN), leaf(Type.INT32), int(8, false), lt(Type.INT32, { DATE: {} }), dec(Type.INT32, 9, 2), leaf(Type.INT64),
      lt(Type.INT64, { INTEGER: { bitWidth: 64, isSigned: false } }), lt(Type.INT64, { TIMESTAMP: { isAdjustedToUTC: true, unit: NANOS } }),
      dec(Type.INT64, 18, 3), leaf(Type.INT96), leaf(Type.FLOAT), leaf(Type.DOUBLE), lt(Type.BYTE_ARRAY, { STRING: {} }), leaf(Type.BYTE_ARRAY),
      dec(Type.BYTE_ARRAY, 30, 5), flba(16, { UUID: {} }), flba(2, { FLOAT16: {} }), flba(12, undefined, { converted_type: ConvertedType.INTERVAL }),
      dec(Type.FIXED_LEN_BYTE_ARRAY, 5, 1, 3), flba(4, { STRING: {} }), flba(5),
    ];
    fc.assert(fc.property(fc.array(fc.oneof(fc.anything({ withBigInt: true, withDate: true, withTypedArray: true, withNullPrototype: true, withBoxedValues: true, withSparseArray: true }), fc.double(), fc.bigInt(), utf16())), fc.boolean(), (vs, strictUtf8) => {
      for (const c of cols) expect(['ok', 'INVALID_VALUE']).toContain(await_(() => fromJsValues(vs, 0, vs.length, c, { strictUtf8 })));
    }), { numRuns: 300 });
  });

  test('bad ranges are INVALID_ARGUMENT; columns that cannot be written are INVALID_SCHEMA', () => {
    const c = leaf(Type.INT32);
    for (const [s, e] of [[-1, 0], [0, 4], [2, 1], [0.5, 1], [NaN, 1]] as const) expect(await_(() => fromJsValues([1, 2, 3], s, e, c))).toBe('INVALID_ARGUMENT');
    expect(await_(() => fromJsValues(null as unknown as unknown[], 0, 0, c))).toBe('INVALID_ARGUMENT');
    expect(await_(() => fromJsValues([1], 0, 1, { ...flba(4), typeLength: undefined }))).toBe('INVALID_SCHEMA');
    expect(await_(() => fromJsValues([1], 0, 1, { ...c, type: 9 as Type }))).toBe('INVALID_SCHEMA');
    expect(await_(() => from(['1'], dec(Type.INT32, 0, 0)))).toBe('INVALID_SCHEMA');
    expect(await_(() => from(['1'], dec(Type.BYTE_ARRAY, 1e9, 0)))).toBe('INVALID_SCHEMA');
  });

  test('a sub-range converts only that range (rowOf gets the index into values)', () => {
    const c = lt(Type.BYTE_ARRAY, { STRING: {} });
    expect(toJs(fromJsValues(['x', 'ab', 'cd', 5], 1, 3, c), c)).toEqual(['ab', 'cd']);
    const seen: number[] = [];
    expect(await_(() => fromJsValues(['x', 'ab', 'cd', 5], 1, 4, c, {}, (i) => (seen.push(i), i)))).toBe('INVALID_VALUE');
    expect(seen).toEqual([3]);
    expect(Array.from(fromJsValues([1, 2, 3, 4], 2, 4, leaf(Type.INT64)) as BigInt64Array)).toEqual([3n, 4n]);
  });
});

/** 'ok', or the ParquetError code thrown (anything else is rethrown). */
function await_(f: () => unknown): string {
  try {
    f();
    return 'ok';
  } catch (e) {
    const err = e as { name?: string; code?: unknown };
    if (err?.name === 'ParquetError' && typeof err.code === 'string') return err.code;
    throw e;
  }
}
