import { ByteWriter, Type } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decodePlain, decodePlainInt32, decodePlainInt64, decodeValues, encodePlain, encodeValues, type ColumnDescriptor, type ColumnValues } from '../src/index.js';
import { booleans, byteArrays, byteArrayValues, bytes, expectCode, expectSameValues, fixedValues, float32s, float64s, hex, int32s, int64s, onlyParquetErrors, utf8 } from './util.js';

function roundTrip(values: ColumnValues, column: ColumnDescriptor, count: number, lead = 0): void {
  const w = new ByteWriter(8);
  for (let i = 0; i < lead; i++) w.u8(0xaa);
  encodePlain(values, column, w);
  const buf = w.finish().slice();
  const r = decodePlain(buf, lead, buf.length, count, column);
  expect(r.pos).toBe(buf.length);
  expectSameValues(r.values, values);
}

describe('PLAIN: hand-computed vectors', () => {
  test('every physical type', () => {
    const enc = (v: ColumnValues, c: ColumnDescriptor) => {
      const w = new ByteWriter(4);
      encodePlain(v, c, w);
      return hex(w.finish());
    };
    // BOOLEAN LSB first: 1,0,1,1,0,0,0,0, 1 -> 0b00001101, 0b00000001
    expect(enc(Uint8Array.of(1, 0, 1, 1, 0, 0, 0, 0, 1), { type: Type.BOOLEAN })).toBe('0d01');
    expect(enc(Int32Array.of(1, -2), { type: Type.INT32 })).toBe('01000000feffffff');
    expect(enc(BigInt64Array.of(-(2n ** 63n), 258n), { type: Type.INT64 })).toBe('0000000000000080' + '0201000000000000');
    expect(enc(Float32Array.of(1, -0), { type: Type.FLOAT })).toBe('0000803f00000080');
    expect(enc(Float64Array.of(-2), { type: Type.DOUBLE })).toBe('00000000000000c0');
    expect(enc(byteArrays([utf8('ab'), utf8('')]), { type: Type.BYTE_ARRAY })).toBe('020000006162' + '00000000');
    expect(enc({ width: 2, data: bytes('01020304') }, { type: Type.FIXED_LEN_BYTE_ARRAY, typeLength: 2 })).toBe('01020304');
    const d = decodePlain(bytes('020000006162 00000000 03000000 78797a'), 0, 17, 3, { type: Type.BYTE_ARRAY });
    expect(d.pos).toBe(17);
    expect(d.values).toEqual({ offsets: Int32Array.of(0, 2, 2, 5), data: utf8('abxyz') });
  });

  test('zero-copy views when aligned, copies otherwise', () => {
    const buf = new Uint8Array(24);
    buf.set(bytes('0100000002000000'), 8);
    const a = decodePlainInt32(buf, 8, 24, 2);
    expect(a.buffer).toBe(buf.buffer);
    expect([...a]).toEqual([1, 2]);
    const u = decodePlainInt32(buf, 9, 24, 2);
    expect(u.buffer).not.toBe(buf.buffer);
    expect([...u]).toEqual([0x02000000, 0]);
    const b = decodePlainInt64(buf, 8, 24, 1);
    expect(b.buffer).toBe(buf.buffer);
    expect(b[0]).toBe(0x200000001n);
  });
});

describe('PLAIN: round trip every physical type', () => {
  const lead = fc.integer({ min: 0, max: 7 });
  test('BOOLEAN', () => fc.assert(fc.property(booleans(), lead, (v, l) => roundTrip(v, { type: Type.BOOLEAN }, v.length, l)), { numRuns: 50 }));
  test('INT32', () => fc.assert(fc.property(int32s(), lead, (v, l) => roundTrip(v, { type: Type.INT32 }, v.length, l)), { numRuns: 50 }));
  test('INT64', () => fc.assert(fc.property(int64s(), lead, (v, l) => roundTrip(v, { type: Type.INT64 }, v.length, l)), { numRuns: 50 }));
  test('INT96', () => fc.assert(fc.property(fixedValues(12), lead, (v, l) => roundTrip(v, { type: Type.INT96 }, v.data.length / 12, l)), { numRuns: 50 }));
  test('FLOAT', () => fc.assert(fc.property(float32s(), lead, (v, l) => roundTrip(v, { type: Type.FLOAT }, v.length, l)), { numRuns: 50 }));
  test('DOUBLE', () => fc.assert(fc.property(float64s(), lead, (v, l) => roundTrip(v, { type: Type.DOUBLE }, v.length, l)), { numRuns: 50 }));
  test('BYTE_ARRAY', () => fc.assert(fc.property(byteArrayValues(), lead, (v, l) => roundTrip(v, { type: Type.BYTE_ARRAY }, v.offsets.length - 1, l)), { numRuns: 30 }));
  test('FIXED_LEN_BYTE_ARRAY', () =>
    fc.assert(fc.property(fc.integer({ min: 1, max: 33 }).chain((w) => fixedValues(w).map((v) => [w, v] as const)), lead, ([w, v], l) => roundTrip(v, { type: Type.FIXED_LEN_BYTE_ARRAY, typeLength: w }, v.data.length / w, l)), { numRuns: 50 }));
  test('registry: decodeValues / encodeValues', () => {
    const w = new ByteWriter();
    encodeValues(0, Int32Array.of(5, 6), { type: Type.INT32 }, w);
    expect([...(decodeValues(0, w.finish(), 0, 8, 2, { type: Type.INT32 }).values as Int32Array)]).toEqual([5, 6]);
    expectCode(() => decodeValues(99, w.finish(), 0, 8, 2, { type: Type.INT32 }), 'ENCODING_UNSUPPORTED', false);
    expectCode(() => decodeValues(8, w.finish(), 0, 8, 2, { type: Type.BOOLEAN }), 'ENCODING_UNSUPPORTED', false);
  });
});

describe('PLAIN: bad input', () => {
  test('truncated and huge counts', () => {
    expectCode(() => decodePlain(bytes('0100'), 0, 2, 1, { type: Type.INT32 }), 'ENCODING_TRUNCATED');
    expectCode(() => decodePlain(bytes('01'), 0, 1, 2 ** 40, { type: Type.INT64 }), 'ENCODING_TRUNCATED');
    expectCode(() => decodePlain(bytes('01'), 0, 1, 2 ** 31, { type: Type.BYTE_ARRAY }), 'ENCODING_TRUNCATED');
    expectCode(() => decodePlain(bytes('ffffff7f61'), 0, 5, 1, { type: Type.BYTE_ARRAY }), 'ENCODING_TRUNCATED');
    expectCode(() => decodePlain(bytes('01'), 0, 1, 9, { type: Type.BOOLEAN }), 'ENCODING_TRUNCATED');
    expectCode(() => decodePlain(bytes('01'), 0, 1, 1, { type: Type.FIXED_LEN_BYTE_ARRAY }), 'ENCODING_ARGUMENT');
    expectCode(() => decodePlain(bytes('01'), 0, 1, -1, { type: Type.INT32 }), 'ENCODING_ARGUMENT');
  });
  test('garbage never escapes as a non-ParquetError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 20 }), (src, t, n) =>
        onlyParquetErrors(() => decodePlain(src, 0, src.length, n, { type: t as Type, typeLength: 3 })),
      ),
      { numRuns: 300 },
    );
  });
});
