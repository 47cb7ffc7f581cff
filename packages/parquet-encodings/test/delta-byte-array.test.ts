import { ByteWriter, Type } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decodeDeltaByteArray, decodeDeltaLengthByteArray, decodeValues, encodeDeltaByteArray, encodeDeltaLengthByteArray, encodeValues } from '../src/index.js';
import { byteArrays, byteArrayValues, bytes, expectCode, expectSameValues, fixedValues, hex, onlyParquetErrors, utf8 } from './util.js';

const words = byteArrays(['axis', 'axle', 'babble', 'babyhood'].map(utf8));
const Z10 = '00'.repeat(10);
// prefix lengths 0,2,0,3: first 0; deltas 2,-2,3 -> min -2 (zigzag 03), relative 4,0,5 at width 3 -> 44 01
const PREFIX = `8001 04 04 00 03 03000000 4401${Z10}`;
// suffix lengths 4,2,6,5: first zigzag(4) = 08; deltas -2,4,-1 -> min -2, relative 0,6,1 at width 3 -> 70 00
const SUFFIX_LENGTHS = `8001 04 04 08 03 03000000 7000${Z10}`;

describe('DELTA_LENGTH_BYTE_ARRAY / DELTA_BYTE_ARRAY: hand-computed vectors (Encodings.md examples)', () => {
  test('DELTA_BYTE_ARRAY axis, axle, babble, babyhood', () => {
    const expected = PREFIX + SUFFIX_LENGTHS + hex(utf8('axisleb' + 'abbleyhood'));
    const w = new ByteWriter();
    encodeDeltaByteArray(words, w);
    expect(hex(w.finish())).toBe(hex(bytes(expected)));
    const r = decodeDeltaByteArray(bytes(expected), 0, w.pos, 4);
    expect(r.pos).toBe(w.pos);
    expectSameValues(r.values, words);
  });

  test('DELTA_LENGTH_BYTE_ARRAY Hello, World, Foobar, ABCDEF: lengths 5,5,6,6 then the data', () => {
    // first zigzag(5) = 0a; deltas 0,1,0 -> min 0, relative 0,1,0 at width 1 -> 02
    const expected = `8001 04 04 0a 00 01000000 02000000` + hex(utf8('HelloWorldFoobarABCDEF'));
    const v = byteArrays(['Hello', 'World', 'Foobar', 'ABCDEF'].map(utf8));
    const w = new ByteWriter();
    encodeDeltaLengthByteArray(v, w);
    expect(hex(w.finish())).toBe(hex(bytes(expected)));
    const src = bytes(expected);
    const r = decodeDeltaLengthByteArray(src, 0, src.length, 4);
    expect(r.pos).toBe(src.length);
    expect(r.values.data.buffer).toBe(src.buffer); // zero-copy
    expectSameValues(r.values, v);
  });
});

describe('DELTA_* byte arrays: round trip', () => {
  test('DELTA_LENGTH_BYTE_ARRAY BYTE_ARRAY', () =>
    fc.assert(
      fc.property(byteArrayValues(), (v) => {
        const w = new ByteWriter();
        encodeValues(6, v, { type: Type.BYTE_ARRAY }, w);
        const r = decodeValues(6, w.finish(), 0, w.pos, v.offsets.length - 1, { type: Type.BYTE_ARRAY });
        expect(r.pos).toBe(w.pos);
        expectSameValues(r.values, v);
      }),
      { numRuns: 40 },
    ));
  test('DELTA_BYTE_ARRAY BYTE_ARRAY (shared prefixes)', () =>
    fc.assert(
      fc.property(fc.oneof(byteArrayValues(), fc.array(fc.constantFrom('', 'a', 'ab', 'abc', 'abd', 'b', 'ba'), { maxLength: 50 }).map((a) => byteArrays(a.sort().map(utf8)))), (v) => {
        const w = new ByteWriter();
        encodeValues(7, v, { type: Type.BYTE_ARRAY }, w);
        const r = decodeValues(7, w.finish(), 0, w.pos, v.offsets.length - 1, { type: Type.BYTE_ARRAY });
        expect(r.pos).toBe(w.pos);
        expectSameValues(r.values, v);
      }),
      { numRuns: 40 },
    ));
  test('DELTA_BYTE_ARRAY FIXED_LEN_BYTE_ARRAY', () =>
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }).chain((wd) => fixedValues(wd).map((v) => [wd, v] as const)), ([wd, v]) => {
        const w = new ByteWriter();
        const col = { type: Type.FIXED_LEN_BYTE_ARRAY, typeLength: wd };
        encodeValues(7, v, col, w);
        const r = decodeValues(7, w.finish(), 0, w.pos, v.data.length / wd, col);
        expect(r.pos).toBe(w.pos);
        expectSameValues(r.values, v);
      }),
      { numRuns: 40 },
    ));
});

describe('DELTA_* byte arrays: bad input', () => {
  test('prefix longer than the previous value, negative lengths, truncated data, wrong FLBA width', () => {
    // prefixes [1]: first value cannot share a prefix
    const badPrefix = bytes(`8001 04 01 02` + `8001 04 01 02` + '61');
    expectCode(() => decodeDeltaByteArray(badPrefix, 0, badPrefix.length, 1), 'ENCODING_CORRUPT');
    // lengths [-1]
    expectCode(() => decodeDeltaLengthByteArray(bytes('8001 04 01 01'), 0, 5, 1), 'ENCODING_CORRUPT');
    // lengths [5] but 2 bytes of data
    expectCode(() => decodeDeltaLengthByteArray(bytes('8001 04 01 0a 6162'), 0, 7, 1), 'ENCODING_TRUNCATED');
    const w = new ByteWriter();
    encodeDeltaByteArray(words, w);
    expectCode(() => decodeValues(7, w.finish(), 0, w.pos, 4, { type: Type.FIXED_LEN_BYTE_ARRAY, typeLength: 4 }), 'ENCODING_CORRUPT');
  });
  test('quadratic blow-up is refused before allocating', () => {
    // one 100-byte value then 50 values each sharing all 100 bytes: refused with maxBytes 1000
    const v = byteArrays(Array.from({ length: 51 }, () => new Uint8Array(100).fill(7)));
    const w = new ByteWriter();
    encodeDeltaByteArray(v, w);
    expectCode(() => decodeDeltaByteArray(w.finish(), 0, w.pos, 51, 1000), 'ENCODING_CORRUPT');
  });
  test('garbage never escapes as a non-ParquetError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 60 }), fc.integer({ min: 0, max: 40 }), fc.boolean(), (src, n, dba) => {
        const s = Uint8Array.from([0x80, 0x01, 0x04, n, ...src]);
        onlyParquetErrors(() => decodeValues(dba ? 7 : 6, s, 0, s.length, n, { type: Type.BYTE_ARRAY }));
      }),
      { numRuns: 400 },
    );
  });
});
