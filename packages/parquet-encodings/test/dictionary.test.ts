import { ByteWriter, Type } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  applyDictionary,
  decodeDictionaryValues,
  buildDictionary,
  decodeDictionaryIndices,
  decodeDictionaryPage,
  decodeValues,
  encodeDictionaryIndices,
  encodeDictionaryPage,
  type ColumnDescriptor,
  type ColumnValues,
} from '../src/index.js';
import { byteArrays, byteArrayValues, bytes, expectCode, expectSameValues, fixedValues, float32s, float64s, hex, int32s, int64s, onlyParquetErrors, utf8 } from './util.js';

function roundTrip(values: ColumnValues, column: ColumnDescriptor): void {
  const { dictionary, indices } = buildDictionary(values);
  const dw = new ByteWriter();
  encodeDictionaryPage(dictionary, column, dw);
  const dictCount = dictionary instanceof Object && 'offsets' in dictionary ? dictionary.offsets.length - 1 : 'width' in dictionary ? dictionary.data.length / dictionary.width : dictionary.length;
  const dict = decodeDictionaryPage(dw.finish(), 0, dw.pos, dictCount, column);
  expect(dict.pos).toBe(dw.pos);
  for (const enc of [2, 8]) {
    const w = new ByteWriter();
    encodeDictionaryIndices(indices, 0, indices.length, w);
    const r = decodeValues(enc, w.finish(), 0, w.pos, indices.length, column, dict.values);
    expect(r.pos).toBe(indices.length === 0 ? 0 : w.pos);
    expectSameValues(r.values, values);
  }
}

describe('dictionary: hand-computed vectors', () => {
  test('index page: bit width byte + hybrid', () => {
    // dictionary [a, bb]; indices 1,0,1,1 -> bit width 1, one bit-packed group: 0b00001101
    const w = new ByteWriter();
    encodeDictionaryIndices(Int32Array.of(1, 0, 1, 1), 0, 4, w);
    expect(hex(w.finish())).toBe('01030d');
    const dict = byteArrays([utf8('a'), utf8('bb')]);
    const r = decodeValues(8, bytes('01030d'), 0, 3, 4, { type: Type.BYTE_ARRAY }, dict);
    expect(r.values).toEqual(byteArrays(['bb', 'a', 'bb', 'bb'].map(utf8)));
    // 10 × index 2 at width 2: RLE run 10<<1 = 0x14, value 02
    const w2 = new ByteWriter();
    encodeDictionaryIndices(new Int32Array(10).fill(2), 0, 10, w2);
    expect(hex(w2.finish())).toBe('021402');
  });
});

describe('dictionary: round trip', () => {
  test('INT32', () => fc.assert(fc.property(int32s().map((a) => a.map((x) => x % 7)), (v) => roundTrip(v, { type: Type.INT32 })), { numRuns: 30 }));
  test('INT32 random', () => fc.assert(fc.property(int32s(), (v) => roundTrip(v, { type: Type.INT32 })), { numRuns: 30 }));
  test('INT64', () => fc.assert(fc.property(int64s(), (v) => roundTrip(v, { type: Type.INT64 })), { numRuns: 30 }));
  test('INT96', () => fc.assert(fc.property(fixedValues(12), (v) => roundTrip(v, { type: Type.INT96 })), { numRuns: 30 }));
  test('FLOAT (NaN payloads, -0 distinct)', () => fc.assert(fc.property(float32s(), (v) => roundTrip(v, { type: Type.FLOAT })), { numRuns: 30 }));
  test('DOUBLE', () => fc.assert(fc.property(float64s(), (v) => roundTrip(v, { type: Type.DOUBLE })), { numRuns: 30 }));
  test('BYTE_ARRAY', () => fc.assert(fc.property(byteArrayValues(), (v) => roundTrip(v, { type: Type.BYTE_ARRAY })), { numRuns: 30 }));
  test('FIXED_LEN_BYTE_ARRAY', () => fc.assert(fc.property(fixedValues(3), (v) => roundTrip(v, { type: Type.FIXED_LEN_BYTE_ARRAY, typeLength: 3 })), { numRuns: 30 }));
});

describe('dictionary: bad input', () => {
  test('index out of range, bad width, missing dictionary', () => {
    const dict = Int32Array.of(10, 20);
    expectCode(() => decodeValues(8, bytes('030405'), 0, 3, 2, { type: Type.INT32 }, dict), 'DICTIONARY_INDEX');
    expectCode(() => applyDictionary(dict, Int32Array.of(-1), 1, 0), 'DICTIONARY_INDEX');
    expectCode(() => decodeValues(8, bytes('210201'), 0, 3, 1, { type: Type.INT32 }, dict), 'ENCODING_BIT_WIDTH');
    expectCode(() => decodeValues(8, bytes('010201'), 0, 3, 1, { type: Type.INT32 }), 'ENCODING_ARGUMENT');
    expectCode(() => decodeDictionaryIndices(bytes(''), 0, 0, new Int32Array(1), 0, 1), 'ENCODING_TRUNCATED');
    expectCode(() => decodeValues(8, bytes('01'), 0, 1, 2 ** 30, { type: Type.INT32 }, dict), 'ENCODING_TRUNCATED');
  });
  test('garbage never escapes as a non-ParquetError', () => {
    const dict = byteArrays([utf8('x'), utf8('yy'), utf8('zzz')]);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 30 }), fc.integer({ min: 0, max: 50 }), (src, n) => onlyParquetErrors(() => decodeValues(8, src, 0, src.length, n, { type: Type.BYTE_ARRAY }, dict))),
      { numRuns: 300 },
    );
  });
});

describe('decodeDictionaryValues (indices checked and gathered in one pass)', () => {
  const dicts = {
    int32: Int32Array.from([5, -7, 2147483647, -2147483648]),
    float: new Float32Array([1.5, -0, NaN, Infinity]),
    double: new Float64Array([0.1, -0, NaN, -Infinity]),
    int64: BigInt64Array.from([1n, -1n, 9223372036854775807n, -9223372036854775808n]),
  };
  test('equals decodeDictionaryIndices + applyDictionary, bit for bit, for every numeric type', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 200 }), fc.constantFrom(...Object.keys(dicts)), (ix, kind) => {
        const dict = dicts[kind as keyof typeof dicts];
        const w = new ByteWriter(16);
        encodeDictionaryIndices(Int32Array.from(ix), 0, ix.length, w);
        const b = w.finish();
        const got = decodeDictionaryValues(b, 0, b.length, ix.length, dict);
        const idx = new Int32Array(ix.length);
        decodeDictionaryIndices(b, 0, b.length, idx, 0, ix.length);
        const want = applyDictionary(dict, idx);
        expect(got.constructor).toBe(dict.constructor);
        expect(hex(new Uint8Array(got.buffer, got.byteOffset, got.byteLength))).toBe(hex(new Uint8Array((want as Int32Array).buffer, (want as Int32Array).byteOffset, (want as Int32Array).byteLength)));
      }),
    );
  });
  test('an index outside the dictionary is DICTIONARY_INDEX, also after a larger page filled the reused buffer', () => {
    const w = new ByteWriter(16);
    encodeDictionaryIndices(Int32Array.from([0, 1, 4, 2]), 0, 4, w);
    const b = w.finish();
    const big = new ByteWriter(16);
    encodeDictionaryIndices(new Int32Array(5000).fill(3), 0, 5000, big);
    const bb = big.finish();
    expect(decodeDictionaryValues(bb, 0, bb.length, 5000, dicts.int32).every((v) => v === -2147483648)).toBe(true);
    expectCode(() => decodeDictionaryValues(b, 0, b.length, 4, dicts.int32, 100), 'DICTIONARY_INDEX');
    expectCode(() => decodeDictionaryValues(b, 0, b.length, 4, dicts.int64, 100), 'DICTIONARY_INDEX');
    expectCode(() => decodeDictionaryValues(b, 0, 0, 4, dicts.double), 'ENCODING_TRUNCATED');
  });
});
