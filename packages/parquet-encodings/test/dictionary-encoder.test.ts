// DictionaryEncoder: values put in random batches intern to the same entries and indices as buildDictionary (a
// Map-based reference), entries + indices reproduce the input bit for bit, size/byteSize/flushDictionary match
// encodePlain(entries()), and the dictionary page + RLE_DICTIONARY indices decode back through the registry decoders.
import { ByteWriter, Encoding, Type } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  applyDictionary,
  buildDictionary,
  decodeDictionaryPage,
  decodeValues,
  DictionaryEncoder,
  encodePlain,
  valueCount,
  type ColumnDescriptor,
  type ColumnValues,
} from '../src/index.js';
import { byteArrays, byteArrayValues, expectCode, expectSameValues, fixed, fixedValues, float32s, float64s, hex, int32s, int64s, utf8 } from './util.js';

const col = (type: number, typeLength?: number): ColumnDescriptor => (typeLength === undefined ? { type: type as Type } : { type: type as Type, typeLength });

/** Puts `values` in batches cut at `cuts`; returns the indices. */
function intern(d: DictionaryEncoder, values: ColumnValues, cuts: number[], outPad = 0): Int32Array {
  const n = valueCount(values);
  const points = [...new Set([0, ...cuts.map((c) => c % (n + 1)), n])].sort((x, y) => x - y);
  const out = new Int32Array(n + outPad).fill(-7);
  for (let k = 1; k < points.length; k++) d.put(values, points[k - 1]!, points[k]!, out, outPad + points[k - 1]!);
  return out.subarray(outPad);
}

function plainBytes(values: ColumnValues, column: ColumnDescriptor): Uint8Array {
  const w = new ByteWriter(16);
  encodePlain(values, column, w);
  return w.finish().slice();
}

/** Every check on one column chunk's values. */
function check(values: ColumnValues, column: ColumnDescriptor, cuts: number[]): void {
  const d = new DictionaryEncoder(column);
  const indices = intern(d, values, cuts, cuts.length % 3);
  const entries = d.entries();
  // the same dictionary and indices as the Map-based reference
  const ref = buildDictionary(values);
  expectSameValues(entries, ref.dictionary);
  expect(Array.from(indices)).toEqual(Array.from(ref.indices));
  // entries + indices reproduce the input exactly
  expectSameValues(applyDictionary(entries, indices), values);
  // size, byteSize and the dictionary page body are those of PLAIN(entries)
  const plain = plainBytes(entries, column);
  expect(d.size).toBe(valueCount(entries));
  expect(d.byteSize).toBe(plain.length);
  const w = new ByteWriter(8);
  d.flushDictionary(w);
  expect(hex(w.finish())).toBe(hex(plain));
  // dictionary page + data page round trip through the decoders
  const page = decodeDictionaryPage(w.finish(), 0, w.pos, d.size, column);
  const iw = new ByteWriter(8);
  DictionaryEncoder.encodeIndices(indices, 0, indices.length, d.size, iw);
  const r = decodeValues(Encoding.RLE_DICTIONARY, iw.finish(), 0, iw.pos, indices.length, column, page.values);
  expectSameValues(r.values, values);
  // gather: the values of any index list, without the whole dictionary (reverse order, repeats)
  const some = Int32Array.from(Array.from(indices).reverse());
  expectSameValues(d.gather(some, some.length), applyDictionary(entries, some));
  if (column.type === Type.BYTE_ARRAY) {
    const e = entries as { offsets: Int32Array };
    for (let k = 0; k < d.size; k++) expect(d.valueLength(k)).toBe(e.offsets[k + 1]! - e.offsets[k]!);
  }
}

const cutsArb = fc.array(fc.nat(2000), { maxLength: 8 });
const repeated = <T>(arb: fc.Arbitrary<T>) => fc.tuple(arb, arb); // two draws concatenated: many repeats

describe('DictionaryEncoder: properties', () => {
  const concat32 = (a: Int32Array, b: Int32Array) => Int32Array.from([...a, ...a, ...b]);
  test('INT32', () => fc.assert(fc.property(repeated(int32s()), cutsArb, ([a, b], cuts) => check(concat32(a, b), col(Type.INT32), cuts)), { numRuns: 100 }));
  test('INT64', () =>
    fc.assert(fc.property(repeated(int64s()), cutsArb, ([a, b], cuts) => check(BigInt64Array.from([...a, ...a, ...b]), col(Type.INT64), cuts)), { numRuns: 100 }));
  test('FLOAT (every NaN payload, ±0 distinct)', () =>
    fc.assert(
      fc.property(repeated(float32s()), cutsArb, ([a, b], cuts) => {
        const bits = concat32(new Int32Array(a.buffer), new Int32Array(b.buffer));
        check(new Float32Array(bits.buffer), col(Type.FLOAT), cuts);
      }),
      { numRuns: 100 },
    ));
  test('DOUBLE (every NaN payload, ±0 distinct)', () =>
    fc.assert(
      fc.property(repeated(float64s()), cutsArb, ([a, b], cuts) => {
        const bits = BigInt64Array.from([...new BigInt64Array(a.buffer), ...new BigInt64Array(a.buffer), ...new BigInt64Array(b.buffer)]);
        check(new Float64Array(bits.buffer), col(Type.DOUBLE), cuts);
      }),
      { numRuns: 100 },
    ));
  const joinBytes = (parts: { offsets: Int32Array; data: Uint8Array }[]) =>
    byteArrays(parts.flatMap((p) => Array.from({ length: p.offsets.length - 1 }, (_, i) => p.data.subarray(p.offsets[i]!, p.offsets[i + 1]!))));
  test('BYTE_ARRAY (empty, short, 70 000-byte values)', () =>
    fc.assert(fc.property(repeated(byteArrayValues()), cutsArb, ([a, b], cuts) => check(joinBytes([a, a, b]), col(Type.BYTE_ARRAY), cuts)), { numRuns: 60 }));
  for (const [type, width] of [[Type.FIXED_LEN_BYTE_ARRAY, 1], [Type.FIXED_LEN_BYTE_ARRAY, 3], [Type.FIXED_LEN_BYTE_ARRAY, 16], [Type.INT96, 12]] as const) {
    test(`${type === Type.INT96 ? 'INT96' : 'FIXED_LEN_BYTE_ARRAY'}(${width})`, () =>
      fc.assert(
        fc.property(repeated(fixedValues(width, 150)), cutsArb, ([a, b], cuts) => {
          const data = Uint8Array.from([...a.data, ...a.data, ...b.data]);
          check({ width, data }, type === Type.INT96 ? col(type) : col(type, width), cuts);
        }),
        { numRuns: 80 },
      ));
  }
});

describe('DictionaryEncoder: table growth and hostile keys', () => {
  const N = 100_000;
  test('INT32: 100 000 distinct values with equal low or high halves, interleaved with repeats', () => {
    const values = new Int32Array(2 * N);
    for (let i = 0; i < N; i++) {
      values[2 * i] = (i << 16) | 0x1234; // equal low 16 bits
      values[2 * i + 1] = (i % 50) << 16; // repeats
    }
    check(values, col(Type.INT32), [7, 5000, 77_777]);
  });
  test('DOUBLE: integral doubles (low word 0), -0 / 0, NaN payloads', () => {
    const values = Float64Array.from({ length: N }, (_, i) => i - 500);
    const w = new Int32Array(values.buffer);
    w[1] = 0x80000000 | 0; // -0 at 0 (0 is at 500)
    w[3] = 0x7ff80000;
    w[5] = 0x7ff80000;
    w[4] = 1; // two NaNs, different payloads
    check(values, col(Type.DOUBLE), [3, 60_000]);
    const d = new DictionaryEncoder(col(Type.DOUBLE));
    intern(d, values, []);
    expect(d.size).toBe(N);
  });
  test('INT64: 100 000 values differing only in the high word', () => {
    const values = BigInt64Array.from({ length: N }, (_, i) => BigInt(i % 70_000) << 32n);
    check(values, col(Type.INT64), [1, 2, 3, 50_000]);
  });
  test('BYTE_ARRAY: 100 000 distinct strings sharing long prefixes, then all again', () => {
    const items = Array.from({ length: N }, (_, i) => utf8(`a long shared prefix of this column ${i}`));
    items.push(...items.slice(0, 1000), new Uint8Array(0));
    check(byteArrays(items), col(Type.BYTE_ARRAY), [10, 99_999, 100_500]);
  });
  test('BYTE_ARRAY and FLBA(6): 300 000 distinct keys (≈10 full 32-bit hash collisions expected: byte compare matters)', () => {
    const M = 300_000;
    const items = Array.from({ length: M }, (_, i) => Uint8Array.of(i & 0xff, (i >> 8) & 0xff, i >> 16, 0x61, 0x62, i % 7));
    check(byteArrays(items), col(Type.BYTE_ARRAY), [150_000]);
    check(fixed(items, 6), col(Type.FIXED_LEN_BYTE_ARRAY, 6), [150_000]);
  });
  test('FIXED_LEN_BYTE_ARRAY(16): 100 000 distinct values differing in one byte position each', () => {
    const items = Array.from({ length: N }, (_, i) => {
      const v = new Uint8Array(16);
      v[i % 16] = 1 + (i >> 4) % 255;
      v[(i >> 12) % 16] = v[(i >> 12) % 16]! ^ 0x80;
      return v;
    });
    check(fixed(items, 16), col(Type.FIXED_LEN_BYTE_ARRAY, 16), [4096]);
  });
  test('BYTE_ARRAY: lengths 0–13 differing in one byte at each position (word-wise compare, overlapping last word), bytes at an unaligned offset', () => {
    const items: Uint8Array[] = [];
    for (let len = 0; len <= 13; len++) {
      items.push(new Uint8Array(len).fill(0x61));
      for (let j = 0; j < len; j++) {
        const v = new Uint8Array(len).fill(0x61);
        v[j] = 0x62;
        items.push(v);
      }
    }
    items.push(...items.slice().reverse(), ...items);
    const { offsets, data } = byteArrays(items);
    const big = new Uint8Array(data.length + 9).fill(0x61);
    big.set(data, 3);
    check({ offsets, data: big.subarray(3, 3 + data.length) }, col(Type.BYTE_ARRAY), [7, 50]);
    // 14 lengths: 1 + len distinct values each
    const d = new DictionaryEncoder(col(Type.BYTE_ARRAY));
    d.put({ offsets, data: big.subarray(3, 3 + data.length) }, 0, items.length, new Int32Array(items.length), 0);
    expect(d.size).toBe(14 + (13 * 14) / 2);
  });
  test('dictionary spans batches: indices handed out stay valid, byteSize grows by exactly the new entries', () => {
    const d = new DictionaryEncoder(col(Type.BYTE_ARRAY));
    const out = new Int32Array(3);
    d.put(byteArrays([utf8('x'), utf8(''), utf8('x')]), 0, 3, out, 0);
    expect(Array.from(out)).toEqual([0, 1, 0]);
    expect([d.size, d.byteSize]).toEqual([2, 4 + 1 + 4]);
    d.put(byteArrays([utf8('yz'), utf8('x'), utf8('')]), 0, 3, out, 0);
    expect(Array.from(out)).toEqual([2, 0, 1]);
    expect([d.size, d.byteSize]).toEqual([3, 9 + 4 + 2]);
    const w = new ByteWriter();
    d.flushDictionary(w);
    expect(hex(w.finish())).toBe('0100000078' + '00000000' + '02000000797a');
  });
});

describe('DictionaryEncoder.encodeIndices', () => {
  test('hand-computed bytes; bit width at least 1', () => {
    const cases: [number[], number, string][] = [
      [[0, 0, 0], 1, '01' + '03' + '00'], // one entry: width 1 (not 0), one bit-packed group
      [[], 0, '01'],
      [[1, 0, 1, 1], 2, '01' + '03' + '0d'],
      [[2, 2, 2, 2, 2, 2, 2, 2, 2, 2], 3, '02' + '14' + '02'], // width of 2; RLE run of 10 (header 20)
      [[999], 1000, '0a' + '03' + 'e703' + '00'.repeat(8)], // width 10: one group of 8 values = 10 bytes
    ];
    for (const [idx, size, expected] of cases) {
      const w = new ByteWriter();
      DictionaryEncoder.encodeIndices(Int32Array.from(idx), 0, idx.length, size, w);
      expect(hex(w.finish())).toBe(expected);
    }
    expect([1, 2, 3, 4, 5, 1024, 1025].map(DictionaryEncoder.indexBitWidth)).toEqual([1, 1, 2, 2, 3, 10, 11]);
  });
  test('a sub-range', () => {
    const w = new ByteWriter();
    DictionaryEncoder.encodeIndices(Int32Array.of(9, 1, 0, 9), 1, 2, 2, w);
    expect(hex(w.finish())).toBe('01' + '03' + '01');
  });
  test('bad indices or ranges', () => {
    const w = new ByteWriter();
    expectCode(() => DictionaryEncoder.encodeIndices(Int32Array.of(0, 2), 0, 2, 2, w), 'DICTIONARY_INDEX', false);
    expectCode(() => DictionaryEncoder.encodeIndices(Int32Array.of(-1), 0, 1, 2, w), 'DICTIONARY_INDEX', false);
    expectCode(() => DictionaryEncoder.encodeIndices(Int32Array.of(0), 0, 2, 2, w), 'ENCODING_ARGUMENT', false);
    expectCode(() => DictionaryEncoder.encodeIndices(Int32Array.of(0), 0, 1, -1, w), 'ENCODING_ARGUMENT', false);
    expect(w.pos).toBe(0);
  });
});

describe('DictionaryEncoder: bad input', () => {
  test('gather refuses an index outside the dictionary', () => {
    const d = new DictionaryEncoder(col(Type.INT32));
    d.put(Int32Array.of(5, 6), 0, 2, new Int32Array(2), 0);
    expectCode(() => d.gather(Int32Array.of(0, 2), 2), 'ENCODING_ARGUMENT', false);
    expectCode(() => d.gather(Int32Array.of(-1), 1), 'ENCODING_ARGUMENT', false);
  });

  test('BOOLEAN and FLBA without a length are refused', () => {
    expectCode(() => new DictionaryEncoder(col(Type.BOOLEAN)), 'ENCODING_UNSUPPORTED', false);
    expectCode(() => new DictionaryEncoder(col(Type.FIXED_LEN_BYTE_ARRAY)), 'ENCODING_ARGUMENT', false);
  });
  test('wrong form, range or output: ENCODING_ARGUMENT, nothing interned', () => {
    const d = new DictionaryEncoder(col(Type.INT32));
    const out = new Int32Array(4);
    expectCode(() => d.put(new Float32Array(4), 0, 4, out, 0), 'ENCODING_ARGUMENT', false);
    expectCode(() => d.put(new Int32Array(4), 0, 5, out, 0), 'ENCODING_ARGUMENT', false);
    expectCode(() => d.put(new Int32Array(4), 0, 4, out, 1), 'ENCODING_ARGUMENT', false);
    expectCode(() => d.put(new Int32Array(4), 0, 4, new Uint32Array(4) as unknown as Int32Array, 0), 'ENCODING_ARGUMENT', false);
    expect(d.size).toBe(0);
    const f = new DictionaryEncoder(col(Type.FIXED_LEN_BYTE_ARRAY, 4));
    expectCode(() => f.put({ width: 2, data: new Uint8Array(8) }, 0, 4, out, 0), 'ENCODING_ARGUMENT', false);
    const b = new DictionaryEncoder(col(Type.BYTE_ARRAY));
    expectCode(() => b.put({ offsets: Int32Array.of(0, 3, 1), data: new Uint8Array(3) }, 0, 2, out, 0), 'ENCODING_ARGUMENT', false);
    expect([b.size, b.byteSize]).toEqual([0, 0]);
  });
});
