import { ByteWriter, Type } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decodeValues, encodeValues, type ColumnDescriptor, type ColumnValues } from '../src/index.js';
import { bytes, expectCode, expectSameValues, fixedValues, float32s, float64s, hex, int32s, int64s, onlyParquetErrors } from './util.js';

function roundTrip(v: ColumnValues, col: ColumnDescriptor, count: number, lead: number): void {
  const w = new ByteWriter(4);
  for (let i = 0; i < lead; i++) w.u8(9);
  encodeValues(9, v, col, w);
  const r = decodeValues(9, w.finish(), lead, w.pos, count, col);
  expect(r.pos).toBe(w.pos);
  expectSameValues(r.values, v);
}

describe('BYTE_STREAM_SPLIT', () => {
  test('hand-computed: FLOAT 1.0, -0 and FLBA(3)', () => {
    // 1.0f = 00 00 80 3f, -0f = 00 00 00 80 -> streams: [00 00] [00 00] [80 00] [3f 80]
    const w = new ByteWriter();
    encodeValues(9, Float32Array.of(1, -0), { type: Type.FLOAT }, w);
    expect(hex(w.finish())).toBe('0000' + '0000' + '8000' + '3f80');
    const r = decodeValues(9, bytes('00000000 8000 3f80'), 0, 8, 2, { type: Type.FLOAT });
    expect(Object.is((r.values as Float32Array)[1], -0)).toBe(true);
    const f = decodeValues(9, bytes('0a0b 1a1b 2a2b'), 0, 6, 2, { type: Type.FIXED_LEN_BYTE_ARRAY, typeLength: 3 });
    expect(f.values).toEqual({ width: 3, data: bytes('0a1a2a 0b1b2b') });
  });
  const lead = fc.integer({ min: 0, max: 7 });
  test('FLOAT', () => fc.assert(fc.property(float32s(), lead, (v, l) => roundTrip(v, { type: Type.FLOAT }, v.length, l)), { numRuns: 40 }));
  test('DOUBLE', () => fc.assert(fc.property(float64s(), lead, (v, l) => roundTrip(v, { type: Type.DOUBLE }, v.length, l)), { numRuns: 40 }));
  test('INT32', () => fc.assert(fc.property(int32s(), lead, (v, l) => roundTrip(v, { type: Type.INT32 }, v.length, l)), { numRuns: 40 }));
  test('INT64', () => fc.assert(fc.property(int64s(), lead, (v, l) => roundTrip(v, { type: Type.INT64 }, v.length, l)), { numRuns: 40 }));
  test('FIXED_LEN_BYTE_ARRAY', () =>
    fc.assert(fc.property(fc.integer({ min: 1, max: 17 }).chain((wd) => fixedValues(wd).map((v) => [wd, v] as const)), lead, ([wd, v], l) => roundTrip(v, { type: Type.FIXED_LEN_BYTE_ARRAY, typeLength: wd }, v.data.length / wd, l)), { numRuns: 40 }));
  test('bad input', () => {
    expectCode(() => decodeValues(9, bytes('000000'), 0, 3, 1, { type: Type.FLOAT }), 'ENCODING_TRUNCATED');
    expectCode(() => decodeValues(9, bytes('00'), 0, 1, 2 ** 40, { type: Type.DOUBLE }), 'ENCODING_TRUNCATED');
    expectCode(() => decodeValues(9, bytes('00'), 0, 1, 1, { type: Type.FIXED_LEN_BYTE_ARRAY }), 'ENCODING_ARGUMENT');
    expectCode(() => decodeValues(9, bytes('00'), 0, 1, 1, { type: Type.BYTE_ARRAY }), 'ENCODING_UNSUPPORTED', false);
    fc.assert(fc.property(fc.uint8Array({ maxLength: 40 }), fc.integer({ min: 0, max: 20 }), (s, n) => onlyParquetErrors(() => decodeValues(9, s, 0, s.length, n, { type: Type.DOUBLE }))), { numRuns: 200 });
  });
});
