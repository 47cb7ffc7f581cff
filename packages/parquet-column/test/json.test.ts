/**
 * The JSON-safe value mapping (`values: 'json'`) and the string length limit: timestamps, dates and times against
 * `Date.prototype.toISOString` (an independent ISO-8601 formatter) with the sub-millisecond digits appended by hand,
 * base64 against Node's `Buffer`, INT64 at the safe-integer boundaries, and VALUE_TOO_LARGE for UTF-8 one byte past
 * V8's string limit (and not at it; Node's own decoder refuses the same inputs).
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { buildSchemaTree, type ColumnDescriptor } from '@parquetry/parquet-levels';
import { ConvertedType, FieldRepetitionType, Type, type LogicalType, type SchemaElement } from '@parquetry/thrift-compact';
import { convertValues } from '../src/convert.js';
import { MAX_STRING_LENGTH, convertNativeChunk, convertNativeValues, decodeUtf8 } from '../src/to-js.js';
import { convertChunk } from '../src/convert.js';
import { daysFromCivil, formatDate, formatTime, formatTimestamp, jsonValues, toBase64 } from '../src/json.js';
import { typedError } from './helpers.js';

function leaf(type: Type, extra: Partial<SchemaElement> = {}): ColumnDescriptor {
  return buildSchemaTree([
    { name: 'schema', num_children: 1 },
    { name: 'v', repetition_type: FieldRepetitionType.REQUIRED, type, ...extra },
  ]).columns[0]!;
}
const lt = (type: Type, logicalType: LogicalType, extra: Partial<SchemaElement> = {}) => leaf(type, { logicalType, ...extra });
const unit = (u: 'ms' | 'us' | 'ns') => (u === 'ms' ? { MILLIS: {} } : u === 'us' ? { MICROS: {} } : { NANOS: {} });
const json = (values: Parameters<typeof convertValues>[0], column: ColumnDescriptor) => Array.from(convertValues(values, column, { values: 'json' }));

/** Date's own ISO form of a millisecond instant, without the `Z`. */
const iso = (ms: number) => new Date(ms).toISOString().slice(0, -1);
const MS_RANGE = 8.64e15;

describe('timestamps, dates and times as ISO-8601', () => {
  test('property: every unit agrees with Date.toISOString plus the sub-millisecond digits', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MS_RANGE, max: MS_RANGE }), fc.integer({ min: 0, max: 999999 }), fc.boolean(), (ms, sub, utc) => {
        const z = utc ? 'Z' : '';
        expect(formatTimestamp(BigInt(ms), 'ms', utc)).toBe(iso(ms) + z);
        const micro = Math.floor(sub / 1000);
        expect(formatTimestamp(BigInt(ms) * 1000n + BigInt(micro), 'us', utc)).toBe(iso(ms) + String(micro).padStart(3, '0') + z);
        expect(formatTimestamp(BigInt(ms) * 1000000n + BigInt(sub), 'ns', utc)).toBe(iso(ms) + String(sub).padStart(6, '0') + z);
      }),
      { numRuns: 2000 },
    );
  });

  test('property: DATE agrees with Date, and daysFromCivil inverts it', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e8, max: 1e8 }), (days) => {
        const s = formatDate(days);
        expect(s).toBe(new Date(days * 86400000).toISOString().slice(0, s.length));
        const m = /^([+-]?\d+)-(\d\d)-(\d\d)$/.exec(s)!;
        expect(daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3]))).toBe(days);
      }),
      { numRuns: 2000 },
    );
  });

  test('by hand: epoch, leap days, BC years, the int64 extremes', () => {
    expect(formatTimestamp(0n, 'ns', true)).toBe('1970-01-01T00:00:00.000000000Z');
    expect(formatTimestamp(-1n, 'us', false)).toBe('1969-12-31T23:59:59.999999');
    expect(formatDate(daysFromCivil(2000, 2, 29))).toBe('2000-02-29');
    expect(formatDate(daysFromCivil(0, 1, 1))).toBe('0000-01-01');
    expect(formatDate(daysFromCivil(-1, 12, 31))).toBe('-000001-12-31');
    expect(formatDate(daysFromCivil(10000, 1, 1))).toBe('+010000-01-01');
    // 2^63 - 1 nanoseconds: 2262-04-11T23:47:16.854775807; milliseconds: a year far beyond Date's range
    expect(formatTimestamp(2n ** 63n - 1n, 'ns', true)).toBe('2262-04-11T23:47:16.854775807Z');
    expect(formatTimestamp(-(2n ** 63n), 'ns', false)).toBe('1677-09-21T00:12:43.145224192');
    expect(formatTimestamp(2n ** 63n - 1n, 'ms', false)).toBe('+292278994-08-17T07:12:55.807');
    expect(formatTime(0n, 'ns')).toBe('00:00:00.000000000');
    expect(formatTime(86399999, 'ms')).toBe('23:59:59.999');
    expect(formatTime(45296789012n, 'us')).toBe('12:34:56.789012');
  });

  test('columns: TIMESTAMP per unit and zone, INT96, DATE, TIME', () => {
    for (const u of ['ms', 'us', 'ns'] as const) {
      const per = u === 'ms' ? 1n : u === 'us' ? 1000n : 1000000n;
      const v = BigInt64Array.of(1709209845123n * per);
      const digits = u === 'ms' ? '123' : u === 'us' ? '123000' : '123000000';
      expect(json(v, lt(Type.INT64, { TIMESTAMP: { isAdjustedToUTC: true, unit: unit(u) } }))).toEqual([`2024-02-29T12:30:45.${digits}Z`]);
      expect(json(v, lt(Type.INT64, { TIMESTAMP: { isAdjustedToUTC: false, unit: unit(u) } }))).toEqual([`2024-02-29T12:30:45.${digits}`]);
    }
    // legacy TIMESTAMP_MILLIS is UTC-adjusted
    expect(json(BigInt64Array.of(0n), leaf(Type.INT64, { converted_type: ConvertedType.TIMESTAMP_MILLIS }))).toEqual(['1970-01-01T00:00:00.000Z']);
    // INT96: nanoseconds of the day (int64 LE) then the Julian day (int32 LE); 2440588 is 1970-01-01
    const int96 = new Uint8Array(12);
    new DataView(int96.buffer).setBigInt64(0, 3723000000001n, true);
    new DataView(int96.buffer).setInt32(8, 2440589, true);
    expect(json({ width: 12, data: int96 }, leaf(Type.INT96))).toEqual(['1970-01-02T01:02:03.000000001']);
    expect(json(Int32Array.of(19782, -1), lt(Type.INT32, { DATE: {} }))).toEqual(['2024-02-29', '1969-12-31']);
    expect(json(Int32Array.of(3723004), lt(Type.INT32, { TIME: { isAdjustedToUTC: false, unit: unit('ms') } }))).toEqual(['01:02:03.004']);
    expect(json(BigInt64Array.of(3723000000005n), lt(Type.INT64, { TIME: { isAdjustedToUTC: true, unit: unit('ns') } }))).toEqual(['01:02:03.000000005']);
  });
});

describe('other types', () => {
  test('INT64 as a number exactly while safe, else as its decimal text; UINT_64 unsigned', () => {
    const max = BigInt(Number.MAX_SAFE_INTEGER);
    const v = BigInt64Array.of(max, max + 1n, -max, -max - 1n, 0n, -(2n ** 63n));
    expect(json(v, leaf(Type.INT64))).toEqual([Number.MAX_SAFE_INTEGER, '9007199254740992', -Number.MAX_SAFE_INTEGER, '-9007199254740992', 0, '-9223372036854775808']);
    expect(json(BigInt64Array.of(-1n), lt(Type.INT64, { INTEGER: { bitWidth: 64, isSigned: false } }))).toEqual(['18446744073709551615']);
    expect(JSON.stringify(json(v, leaf(Type.INT64)))).toBe('[9007199254740991,"9007199254740992",-9007199254740991,"-9007199254740992",0,"-9223372036854775808"]');
  });

  test('NaN and ±Infinity as strings; finite doubles keep their typed array', () => {
    const d = Float64Array.of(1.5, NaN, Infinity, -Infinity, -0);
    expect(json(d, leaf(Type.DOUBLE))).toEqual([1.5, 'NaN', 'Infinity', '-Infinity', -0]);
    const finite = Float64Array.of(1, 2);
    expect(convertValues(finite, leaf(Type.DOUBLE), { values: 'json' })).toBe(finite);
    // FLOAT16 0x7c00 is +Infinity, 0x3c00 is 1
    expect(json({ width: 2, data: Uint8Array.of(0x00, 0x7c, 0x00, 0x3c) }, lt(Type.FIXED_LEN_BYTE_ARRAY, { FLOAT16: {} }, { type_length: 2 }))).toEqual(['Infinity', 1]);
  });

  test('binary as base64 (against Buffer); strings, UUIDs, decimals and intervals as in the default mapping', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) => {
        expect(toBase64(b)).toBe(Buffer.from(b).toString('base64'));
      }),
    );
    const bytes = new TextEncoder().encode('héllo');
    const ba = { offsets: Int32Array.of(0, 3, bytes.length), data: bytes };
    expect(json(ba, leaf(Type.BYTE_ARRAY))).toEqual([Buffer.from(bytes.subarray(0, 3)).toString('base64'), Buffer.from(bytes.subarray(3)).toString('base64')]);
    expect(json(ba, lt(Type.BYTE_ARRAY, { STRING: {} }))).toEqual(['h\u00e9', 'llo']);
    const u = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
    expect(json({ width: 16, data: u }, lt(Type.FIXED_LEN_BYTE_ARRAY, { UUID: {} }, { type_length: 16 }))).toEqual(['00112233-4455-6677-8899-aabbccddeeff']);
    expect(json({ width: 16, data: u }, leaf(Type.FIXED_LEN_BYTE_ARRAY, { type_length: 16 }))).toEqual([Buffer.from(u).toString('base64')]);
    expect(json(BigInt64Array.of(-1234n), lt(Type.INT64, { DECIMAL: { precision: 10, scale: 2 } }))).toEqual(['-12.34']);
    expect(convertValues(BigInt64Array.of(-1234n), lt(Type.INT64, { DECIMAL: { precision: 10, scale: 2 } }), { values: 'json', decimals: 'number' })).toEqual([-12.34]);
    expect(json(Int32Array.of(7), leaf(Type.INT32))).toEqual([7]);
  });

  test('the other options do not apply under json (timestamps stay ISO, INT64 stays exact)', () => {
    const col = lt(Type.INT64, { TIMESTAMP: { isAdjustedToUTC: true, unit: unit('us') } });
    expect(Array.from(convertValues(BigInt64Array.of(1n), col, { values: 'json', timestamps: 'date' }))).toEqual(['1970-01-01T00:00:00.000001Z']);
    expect(Array.from(convertValues(BigInt64Array.of(2n ** 60n), leaf(Type.INT64), { values: 'json', int64: 'number' }))).toEqual(['1152921504606846976']);
    // nulls (of a columnar slot) pass through
    expect(Array.from(jsonValues([null, 1n], leaf(Type.INT64)))).toEqual([null, 1]);
  });

  test('the native conversions (no JSON code) equal convertValues without json, and refuse values: json', async () => {
    const col = lt(Type.INT64, { TIMESTAMP: { isAdjustedToUTC: true, unit: unit('ms') } });
    const v = BigInt64Array.of(0n, 86400000n);
    expect(convertNativeValues(v, col, { timestamps: 'date' })).toEqual(convertValues(v, col, { timestamps: 'date' }));
    expect((await typedError(() => convertNativeValues(v, col, { values: 'json' }))).code).toBe('INVALID_OPTION');
    // a chunk of a dictionary and its indices, then plain values: each mapping converts the dictionary once
    const chunk = { segments: [{ indices: Int32Array.of(1, 0, 1) }, { values: BigInt64Array.of(5n) }], dictionary: v, numValues: 4 } as unknown as Parameters<typeof convertChunk>[0];
    expect(Array.from(convertChunk(chunk, col, { values: 'json' }))).toEqual(['1970-01-02T00:00:00.000Z', '1970-01-01T00:00:00.000Z', '1970-01-02T00:00:00.000Z', '1970-01-01T00:00:00.005Z']);
    expect(Array.from(convertNativeChunk(chunk, col))).toEqual([86400000n, 0n, 86400000n, 5n]);
    expect((await typedError(() => convertNativeChunk(chunk, col, { values: 'json' }))).code).toBe('INVALID_OPTION');
  });
});

describe('strings longer than a JavaScript string may be', () => {
  test('at the limit a string decodes; one byte more is VALUE_TOO_LARGE before any decoding', async () => {
    const b = new Uint8Array(MAX_STRING_LENGTH + 1).fill(0x61);
    expect(decodeUtf8(b, 0, MAX_STRING_LENGTH).length).toBe(MAX_STRING_LENGTH);
    const e = await typedError(() => decodeUtf8(b, 0, MAX_STRING_LENGTH + 1));
    expect(e.code).toBe('VALUE_TOO_LARGE');
    expect(e.message).toContain(`a string of ${MAX_STRING_LENGTH + 1} bytes of UTF-8 is longer than`);
    // through convertValues the message names the column and the value
    const col = lt(Type.BYTE_ARRAY, { STRING: {} });
    const e2 = await typedError(() => convertValues({ offsets: Int32Array.of(0, 1, MAX_STRING_LENGTH + 2), data: new Uint8Array(b.buffer, 0, MAX_STRING_LENGTH + 1) }, col));
    expect(e2.code).toBe('VALUE_TOO_LARGE');
    expect(e2.message).toMatch(/column 'v': value 1 is 536870889 bytes of UTF-8/);
  });

  test('the limit is on bytes, the same in every runtime: multi-byte text of more bytes is refused too', async () => {
    // 3-byte characters: fewer UTF-16 code units than the limit, but more bytes (Node's own decoder refuses it)
    const n = Math.ceil((MAX_STRING_LENGTH + 1) / 3) * 3;
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i += 3) b.set([0xe2, 0x82, 0xac], i); // U+20AC
    expect((await typedError(() => decodeUtf8(b, 0, n))).code).toBe('VALUE_TOO_LARGE');
    let raw: unknown;
    try {
      new TextDecoder().decode(b);
    } catch (e) {
      raw = e;
    }
    expect(raw, 'Node refuses the input itself').toBeInstanceOf(Error);
    expect(decodeUtf8(b, 0, 6)).toBe('\u20ac\u20ac');
  });
});
