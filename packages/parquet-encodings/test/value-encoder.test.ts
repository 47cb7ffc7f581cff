// Streaming value encoders: for every encoding × type, values put in random batches (separate arrays, non-zero
// starts, byte-array offsets not starting at 0) and flushed equal the one-shot encoder's bytes on the concatenation,
// decode back with the registry decoders, and estimatedSize() matches the one-shot size after every batch.
import { ByteWriter, Encoding, Type } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createValueEncoder, decodeValues, encodeValues, valueCount, type ByteArrays, type ColumnDescriptor, type FixedLenByteArrays, type ColumnValues, type ValueEncoder } from '../src/index.js';
import { byteArrays, byteArrayValues, booleans, expectCode, expectSameValues, fixedValues, float32s, float64s, hex, int32s, int64s, utf8 } from './util.js';

const col = (type: number, typeLength?: number): ColumnDescriptor => (typeLength === undefined ? { type: type as Type } : { type: type as Type, typeLength });

/** Values [a, b) of `v` as a standalone array. */
function slice(v: ColumnValues, a: number, b: number): ColumnValues {
  if ('offsets' in v) {
    const offsets = v.offsets.slice(a, b + 1).map((o) => o - v.offsets[a]!);
    return { offsets, data: v.data.slice(v.offsets[a]!, v.offsets[b]!) };
  }
  if ('width' in v) return { width: v.width, data: v.data.slice(a * v.width, b * v.width) };
  return v.slice(a, b);
}

/**
 * Values [a, b) of `v` embedded in a larger array: `pad` junk values before (and 2 after), so a batch is put as
 * `put(batch, pad, pad + (b - a))`; byte-array offsets start at 5 + the junk bytes.
 */
function embedded(v: ColumnValues, a: number, b: number, pad: number): ColumnValues {
  const s = slice(v, a, b);
  if ('offsets' in s) {
    const junk = byteArrays(Array.from({ length: pad }, (_, i) => utf8('junk'.repeat(i))));
    const base = 5 + junk.data.length;
    const data = new Uint8Array(base + s.data.length + 3).fill(0xee);
    data.set(junk.data, 5);
    data.set(s.data, base);
    const n = b - a;
    const offsets = new Int32Array(pad + n + 1 + 2);
    for (let i = 0; i <= pad; i++) offsets[i] = 5 + junk.offsets[i]!;
    for (let i = 0; i <= n; i++) offsets[pad + i] = base + s.offsets[i]!;
    offsets[pad + n + 1] = base + s.data.length + 1;
    offsets[pad + n + 2] = base + s.data.length + 3;
    return { offsets, data };
  }
  if ('width' in s) {
    const data = new Uint8Array((pad + (b - a) + 2) * s.width).fill(0xab);
    data.set(s.data, pad * s.width);
    return { width: s.width, data };
  }
  const T = s.constructor as new (n: number) => Exclude<ColumnValues, ByteArrays | FixedLenByteArrays>;
  const out = new T(pad + (b - a) + 2);
  new Uint8Array(out.buffer).fill(0x5a);
  new Uint8Array(out.buffer).set(new Uint8Array(s.buffer, s.byteOffset, s.byteLength), pad * s.BYTES_PER_ELEMENT);
  return out;
}

function oneShot(encoding: number, values: ColumnValues, column: ColumnDescriptor): Uint8Array {
  const w = new ByteWriter(16);
  encodeValues(encoding, values, column, w);
  return w.finish().slice();
}

/** Feeds `values` in batches cut at `cuts`; checks count and estimatedSize after each; returns the flushed bytes. */
function feed(enc: ValueEncoder, encoding: number, column: ColumnDescriptor, values: ColumnValues, cuts: number[], exact: boolean): Uint8Array {
  const n = valueCount(values);
  const points = [...new Set([0, ...cuts.map((c) => c % (n + 1)), n])].sort((x, y) => x - y);
  for (let k = 1; k < points.length; k++) {
    const a = points[k - 1]!;
    const b = points[k]!;
    const pad = k % 3;
    enc.put(embedded(values, a, b, pad), pad, pad + b - a);
    expect(enc.count).toBe(b);
    const real = oneShot(encoding, slice(values, 0, b), column).length;
    if (exact) expect(enc.estimatedSize()).toBe(real);
    else expect(real).toBeLessThanOrEqual(2.5 * enc.estimatedSize());
  }
  const w = new ByteWriter(8);
  w.u8(0x77); // flush appends after existing bytes
  enc.flush(w);
  expect(enc.count).toBe(0);
  expect(w.buf[0]).toBe(0x77);
  return w.finish().slice(1);
}

interface Case {
  name: string;
  encoding: number;
  column: ColumnDescriptor;
  values: fc.Arbitrary<ColumnValues>;
  exact: boolean;
}

const runs = fc
  .array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 40 })), { maxLength: 30 })
  .map((rs) => Uint8Array.from(rs.flatMap(([b, n]) => Array<number>(n).fill(b ? 1 : 0))));
const smallSteps = fc.array(fc.integer({ min: -3, max: 50 }), { maxLength: 700 }).map((d) => {
  let v = 1000;
  return Int32Array.from(d, (x) => (v += x));
});
const prefixed = fc
  .array(fc.tuple(fc.constantFrom('', 'a', 'ab', 'abc', 'abd', 'abcdefgh'), fc.uint8Array({ maxLength: 6 })), { maxLength: 300 })
  .map((a) => byteArrays(a.map(([p, s]) => Uint8Array.from([...utf8(p), ...s]))));
const decimals = (n: number) => fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { minLength: n, maxLength: n }).map((a) => Float64Array.from(a, (x) => x / 100));
const decimals32 = (n: number) => fc.array(fc.integer({ min: -100_000, max: 100_000 }), { minLength: n, maxLength: n }).map((a) => Float32Array.from(a, (x) => x / 10));

const CASES: Case[] = [
  { name: 'PLAIN BOOLEAN', encoding: Encoding.PLAIN, column: col(Type.BOOLEAN), values: booleans(), exact: true },
  { name: 'PLAIN INT32', encoding: Encoding.PLAIN, column: col(Type.INT32), values: int32s(), exact: true },
  { name: 'PLAIN INT64', encoding: Encoding.PLAIN, column: col(Type.INT64), values: int64s(), exact: true },
  { name: 'PLAIN INT96', encoding: Encoding.PLAIN, column: col(Type.INT96), values: fixedValues(12), exact: true },
  { name: 'PLAIN FLOAT', encoding: Encoding.PLAIN, column: col(Type.FLOAT), values: float32s(), exact: true },
  { name: 'PLAIN DOUBLE', encoding: Encoding.PLAIN, column: col(Type.DOUBLE), values: float64s(), exact: true },
  { name: 'PLAIN BYTE_ARRAY', encoding: Encoding.PLAIN, column: col(Type.BYTE_ARRAY), values: byteArrayValues(), exact: true },
  { name: 'PLAIN FLBA(1)', encoding: Encoding.PLAIN, column: col(Type.FIXED_LEN_BYTE_ARRAY, 1), values: fixedValues(1), exact: true },
  { name: 'PLAIN FLBA(16)', encoding: Encoding.PLAIN, column: col(Type.FIXED_LEN_BYTE_ARRAY, 16), values: fixedValues(16), exact: true },
  { name: 'RLE BOOLEAN (random)', encoding: Encoding.RLE, column: col(Type.BOOLEAN), values: booleans(), exact: true },
  { name: 'RLE BOOLEAN (runs)', encoding: Encoding.RLE, column: col(Type.BOOLEAN), values: runs, exact: true },
  { name: 'DELTA_BINARY_PACKED INT32', encoding: Encoding.DELTA_BINARY_PACKED, column: col(Type.INT32), values: int32s(400), exact: true },
  { name: 'DELTA_BINARY_PACKED INT32 (small steps)', encoding: Encoding.DELTA_BINARY_PACKED, column: col(Type.INT32), values: smallSteps, exact: true },
  { name: 'DELTA_BINARY_PACKED INT64', encoding: Encoding.DELTA_BINARY_PACKED, column: col(Type.INT64), values: int64s(400), exact: true },
  { name: 'DELTA_BINARY_PACKED INT64 (small steps)', encoding: Encoding.DELTA_BINARY_PACKED, column: col(Type.INT64), values: smallSteps.map((v) => BigInt64Array.from(v, (x) => BigInt(x) * 3_000_000_000n)), exact: true },
  { name: 'DELTA_LENGTH_BYTE_ARRAY', encoding: Encoding.DELTA_LENGTH_BYTE_ARRAY, column: col(Type.BYTE_ARRAY), values: byteArrayValues(300), exact: true },
  { name: 'DELTA_BYTE_ARRAY', encoding: Encoding.DELTA_BYTE_ARRAY, column: col(Type.BYTE_ARRAY), values: byteArrayValues(300), exact: true },
  { name: 'DELTA_BYTE_ARRAY (shared prefixes)', encoding: Encoding.DELTA_BYTE_ARRAY, column: col(Type.BYTE_ARRAY), values: prefixed, exact: true },
  { name: 'DELTA_BYTE_ARRAY FLBA(4)', encoding: Encoding.DELTA_BYTE_ARRAY, column: col(Type.FIXED_LEN_BYTE_ARRAY, 4), values: fixedValues(4, 300), exact: true },
  { name: 'DELTA_BYTE_ARRAY FLBA(16)', encoding: Encoding.DELTA_BYTE_ARRAY, column: col(Type.FIXED_LEN_BYTE_ARRAY, 16), values: fixedValues(16), exact: true },
  { name: 'BYTE_STREAM_SPLIT FLOAT', encoding: Encoding.BYTE_STREAM_SPLIT, column: col(Type.FLOAT), values: float32s(), exact: true },
  { name: 'BYTE_STREAM_SPLIT DOUBLE', encoding: Encoding.BYTE_STREAM_SPLIT, column: col(Type.DOUBLE), values: float64s(), exact: true },
  { name: 'BYTE_STREAM_SPLIT INT32', encoding: Encoding.BYTE_STREAM_SPLIT, column: col(Type.INT32), values: int32s(), exact: true },
  { name: 'BYTE_STREAM_SPLIT INT64', encoding: Encoding.BYTE_STREAM_SPLIT, column: col(Type.INT64), values: int64s(), exact: true },
  { name: 'BYTE_STREAM_SPLIT FLBA(3)', encoding: Encoding.BYTE_STREAM_SPLIT, column: col(Type.FIXED_LEN_BYTE_ARRAY, 3), values: fixedValues(3), exact: true },
  { name: 'ALP FLOAT', encoding: Encoding.ALP, column: col(Type.FLOAT), values: float32s(300), exact: false },
  { name: 'ALP DOUBLE', encoding: Encoding.ALP, column: col(Type.DOUBLE), values: float64s(300), exact: false },
  { name: 'ALP DOUBLE (3 vectors of decimals)', encoding: Encoding.ALP, column: col(Type.DOUBLE), values: fc.integer({ min: 1025, max: 3100 }).chain(decimals), exact: false },
  { name: 'ALP FLOAT (2 vectors of decimals)', encoding: Encoding.ALP, column: col(Type.FLOAT), values: fc.integer({ min: 1000, max: 2100 }).chain(decimals32), exact: false },
];

const cutsArb = fc.array(fc.nat(4000), { maxLength: 8 });

describe('streaming encoders equal the one-shot encoders', () => {
  for (const c of CASES) {
    const numRuns = c.encoding === Encoding.ALP ? 15 : 60;
    test(c.name, () => {
      fc.assert(
        fc.property(c.values, c.values, cutsArb, cutsArb, (page1, page2, cuts1, cuts2) => {
          const enc = createValueEncoder(c.encoding, c.column);
          expect(enc.encoding).toBe(c.encoding);
          // two pages in a row through one encoder: each equals the one-shot bytes and decodes alone
          for (const [values, cuts] of [[page1, cuts1], [page2, cuts2]] as const) {
            const bytes = feed(enc, c.encoding, c.column, values, cuts, c.exact);
            const expected = oneShot(c.encoding, values, c.column);
            expect(hex(bytes)).toBe(hex(expected));
            const n = valueCount(values);
            const r = decodeValues(c.encoding, bytes, 0, bytes.length, n, c.column);
            expectSameValues(r.values, values);
            expect(r.pos).toBe(bytes.length);
          }
          expect(enc.estimatedSize()).toBe(oneShot(c.encoding, slice(page1, 0, 0), c.column).length);
        }),
        { numRuns },
      );
    });
  }
});

describe('ALP estimate', () => {
  test('exact at vector boundaries, within one vector otherwise', () => {
    for (const type of [Type.FLOAT, Type.DOUBLE]) {
      const n = 20_000;
      const values = type === Type.FLOAT ? Float32Array.from({ length: n }, (_, i) => Math.round(Math.sin(i) * 1e4) / 100) : Float64Array.from({ length: n }, (_, i) => Math.round(Math.sin(i) * 1e6) / 1000);
      const enc = createValueEncoder(Encoding.ALP, col(type));
      for (let a = 0; a < n; a += 1000) {
        enc.put(values, a, Math.min(n, a + 1000));
        const real = oneShot(Encoding.ALP, values.slice(0, enc.count), col(type)).length;
        if (enc.count % 1024 === 0) expect(enc.estimatedSize()).toBe(real);
        expect(Math.abs(enc.estimatedSize() - real)).toBeLessThanOrEqual(1024 * (type === Type.FLOAT ? 10 : 18));
        if (enc.count > 4096) expect(Math.abs(enc.estimatedSize() - real) / real).toBeLessThan(0.02);
      }
      const w = new ByteWriter();
      enc.flush(w);
      expect(hex(w.finish())).toBe(hex(oneShot(Encoding.ALP, values, col(type))));
    }
  });
});

describe('hand-computed bytes', () => {
  test('RLE BOOLEAN: 4-byte length, bit-packed head padded from an RLE run', () => {
    // 1,0 then a run of thirteen 1s: 2 pending + 6 borrowed would leave an RLE run of 7, too short, so all 15
    // values are one bit-packed run: header 2*2+1 = 5, bytes 0b11111101 0b01111111
    const enc = createValueEncoder(Encoding.RLE, col(Type.BOOLEAN));
    enc.put(Uint8Array.of(1, 0, 1), 0, 3);
    enc.put(new Uint8Array(12).fill(1), 0, 12);
    expect(enc.estimatedSize()).toBe(7);
    const w = new ByteWriter();
    enc.flush(w);
    expect(hex(w.finish())).toBe('03000000' + '05fd7f');
    // 1,0 then twenty-one 1s: bit-packed group of 8 (0xfd), then an RLE run of 15 ones: header 30 = 0x1e, value 01
    enc.put(Uint8Array.of(1, 0, 1), 0, 3);
    enc.put(new Uint8Array(20).fill(1), 0, 20);
    const w2 = new ByteWriter();
    enc.flush(w2);
    expect(hex(w2.finish())).toBe('04000000' + '03fd' + '1e01');
  });
  test('PLAIN BOOLEAN packs LSB first across batches', () => {
    const enc = createValueEncoder(Encoding.PLAIN, col(Type.BOOLEAN));
    enc.put(Uint8Array.of(1, 0, 0), 0, 3);
    enc.put(Uint8Array.of(9, 1, 0, 0, 0, 0, 1), 1, 7); // 1,0,0,0,0,1
    const w = new ByteWriter();
    enc.flush(w);
    expect(hex(w.finish())).toBe('0901'); // bits 0 and 3 | bit 8
  });
  test('DELTA_BINARY_PACKED INT32 header and one block', () => {
    const enc = createValueEncoder(Encoding.DELTA_BINARY_PACKED, col(Type.INT32));
    enc.put(Int32Array.of(7, 5), 0, 2);
    enc.put(Int32Array.of(3, 4), 0, 2);
    // header 128 (80 01), 4 miniblocks (04), 4 values (04), first 7 zigzag (0e); block: min delta -2 (03),
    // widths 2,0,0,0 (u = 0,0,3 → 2 bits), 32 values × 2 bits = 8 bytes: 0b110000 = 0x30 then zeros
    expect(enc.estimatedSize()).toBe(5 + 1 + 4 + 8);
    const w = new ByteWriter();
    enc.flush(w);
    expect(hex(w.finish())).toBe('800104040e' + '03' + '02000000' + '30' + '00'.repeat(7));
  });
});

describe('take: the page without a copy', () => {
  test('PLAIN INT32 and BYTE_ARRAY give the bytes flush writes (hand-computed), then start a new page', () => {
    const i32 = createValueEncoder(Encoding.PLAIN, col(Type.INT32));
    i32.put(Int32Array.of(1, -2, 3), 1, 3);
    expect(hex(i32.take!()!)).toBe('feffffff' + '03000000');
    expect(i32.count).toBe(0);
    i32.put(Int32Array.of(258), 0, 1);
    expect(hex(i32.take!()!)).toBe('02010000');
    const ba = createValueEncoder(Encoding.PLAIN, col(Type.BYTE_ARRAY));
    ba.put(byteArrays([utf8('ab'), utf8(''), utf8('xyz')]), 0, 3);
    expect(hex(ba.take!()!)).toBe('02000000' + '6162' + '00000000' + '03000000' + '78797a');
    expect(ba.estimatedSize()).toBe(0);
    ba.put(byteArrays([utf8('q')]), 0, 1);
    const w = new ByteWriter();
    ba.flush(w);
    expect(hex(w.finish())).toBe('01000000' + '71');
  });
  test('encoders that cannot give their page whole keep it for flush', () => {
    const bss = createValueEncoder(Encoding.BYTE_STREAM_SPLIT, col(Type.INT32));
    bss.put(Int32Array.of(0x04030201), 0, 1);
    expect(bss.take?.()).toBeUndefined();
    const w = new ByteWriter();
    bss.flush(w);
    expect(hex(w.finish())).toBe('01020304');
  });
});

describe('bad input', () => {
  test('unsupported encoding or type: ENCODING_UNSUPPORTED', () => {
    expectCode(() => createValueEncoder(Encoding.RLE, col(Type.INT32)), 'ENCODING_UNSUPPORTED', false);
    expectCode(() => createValueEncoder(Encoding.RLE_DICTIONARY, col(Type.INT32)), 'ENCODING_UNSUPPORTED', false);
    expectCode(() => createValueEncoder(Encoding.DELTA_BINARY_PACKED, col(Type.DOUBLE)), 'ENCODING_UNSUPPORTED', false);
    expectCode(() => createValueEncoder(Encoding.DELTA_LENGTH_BYTE_ARRAY, col(Type.FIXED_LEN_BYTE_ARRAY, 4)), 'ENCODING_UNSUPPORTED', false);
    expectCode(() => createValueEncoder(Encoding.BYTE_STREAM_SPLIT, col(Type.BYTE_ARRAY)), 'ENCODING_UNSUPPORTED', false);
    expectCode(() => createValueEncoder(Encoding.ALP, col(Type.INT64)), 'ENCODING_UNSUPPORTED', false);
    expectCode(() => createValueEncoder(99, col(Type.INT32)), 'ENCODING_UNSUPPORTED', false);
    expectCode(() => createValueEncoder(Encoding.PLAIN, col(42)), 'ENCODING_UNSUPPORTED', false);
    expectCode(() => createValueEncoder(Encoding.PLAIN, col(Type.FIXED_LEN_BYTE_ARRAY)), 'ENCODING_ARGUMENT', false);
  });
  test('wrong form, width or range: ENCODING_ARGUMENT, encoder unchanged', () => {
    for (const c of CASES) {
      const enc = createValueEncoder(c.encoding, c.column);
      const wrong: ColumnValues = c.column.type === Type.INT32 ? new Float32Array(4) : new Int32Array(4);
      expectCode(() => enc.put(wrong, 0, 1), 'ENCODING_ARGUMENT', false);
      expectCode(() => enc.put(null as unknown as ColumnValues, 0, 1), 'ENCODING_ARGUMENT', false);
      expect(enc.count).toBe(0);
    }
    const plain = createValueEncoder(Encoding.PLAIN, col(Type.INT32));
    expectCode(() => plain.put(new Int32Array(3), 2, 4), 'ENCODING_ARGUMENT', false);
    expectCode(() => plain.put(new Int32Array(3), 2, 1), 'ENCODING_ARGUMENT', false);
    expectCode(() => plain.put(new Int32Array(3), 0.5, 1), 'ENCODING_ARGUMENT', false);
    const flba = createValueEncoder(Encoding.PLAIN, col(Type.FIXED_LEN_BYTE_ARRAY, 4));
    expectCode(() => flba.put({ width: 3, data: new Uint8Array(9) }, 0, 3), 'ENCODING_ARGUMENT', false);
    for (const e of [Encoding.PLAIN, Encoding.DELTA_LENGTH_BYTE_ARRAY, Encoding.DELTA_BYTE_ARRAY]) {
      const ba = createValueEncoder(e, col(Type.BYTE_ARRAY));
      const bad: ByteArrays = { offsets: Int32Array.of(0, 6, 2, 8), data: new Uint8Array(8) };
      expectCode(() => ba.put(bad, 0, 3), 'ENCODING_ARGUMENT', false);
      expectCode(() => ba.put({ offsets: Int32Array.of(0, 9), data: new Uint8Array(8) }, 0, 1), 'ENCODING_ARGUMENT', false);
      expectCode(() => ba.put({ offsets: Int32Array.of(-1, 2), data: new Uint8Array(8) }, 0, 1), 'ENCODING_ARGUMENT', false);
      ba.put(bad, 0, 1); // the valid first value alone is fine
      expect(ba.count).toBe(1);
    }
  });
});
