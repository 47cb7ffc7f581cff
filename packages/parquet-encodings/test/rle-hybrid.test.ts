import { ByteWriter, isParquetError } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  decodeBitPacked,
  decodeRleHybrid,
  decodeRleHybridPrefixed,
  encodeBitPacked,
  encodeRleHybrid,
  encodeRleHybridPrefixed,
  rleHybridAllEqual,
} from '../src/index.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes = (h: string) => new Uint8Array(Buffer.from(h.replace(/\s+/g, ''), 'hex'));

function expectCode(f: () => unknown, code: string, needOffset = true) {
  try {
    f();
  } catch (e) {
    expect(isParquetError(e), String(e)).toBe(true);
    expect((e as { code: string }).code).toBe(code);
    if (needOffset) expect(typeof (e as { offset?: number }).offset).toBe('number');
    return;
  }
  throw new Error(`expected ParquetError ${code}`);
}

function enc(values: number[], bw: number): Uint8Array {
  const w = new ByteWriter(16);
  encodeRleHybrid(Int32Array.from(values), 0, values.length, bw, w);
  return w.finish().slice();
}

describe('RLE / bit-packing hybrid: hand-computed vectors', () => {
  test('bit-packed run from Encodings.md: 0..7 at width 3', () => {
    // header (1 group << 1) | 1 = 0x03, then 10001000 11000110 11111010
    const src = bytes('03 88 c6 fa');
    const out = new Int32Array(8);
    expect(decodeRleHybrid(src, 0, src.length, 3, out, 0, 8)).toBe(4);
    expect([...out]).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(hex(enc([0, 1, 2, 3, 4, 5, 6, 7], 3))).toBe('0388c6fa');
  });

  test('RLE run: 100 × 5 at width 3, and 300 × 0x1234 at width 13', () => {
    // header 100 << 1 = 200 = varint c8 01, value 1 byte
    expect(hex(enc(new Array(100).fill(5), 3))).toBe('c80105');
    const out = new Int32Array(100);
    expect(decodeRleHybrid(bytes('c80105'), 0, 3, 3, out, 0, 100)).toBe(3);
    expect(out.every((v) => v === 5)).toBe(true);
    // 300 << 1 = 600 = 0x258 -> d8 04; value 2 bytes little endian 34 12
    expect(hex(enc(new Array(300).fill(0x1234), 13))).toBe('d8043412');
  });

  test('mixed: 3 distinct then a long run borrows padding from the run', () => {
    // [1,2,3] + 13 × 4 at width 3: bit-packed 8 values (1,2,3,4,4,4,4,4) then RLE 8 × 4
    const v = [1, 2, 3, ...new Array(13).fill(4)];
    // group bits LSB first: 1=001 2=010 3=011 4=100 ... -> bytes d1 48 92 ; rle 8<<1=0x10, 04
    expect(hex(enc(v, 3))).toBe('03d14892' + '1004');
    const out = new Int32Array(16);
    const src = bytes('03d148921004');
    decodeRleHybrid(src, 0, src.length, 3, out, 0, 16);
    expect([...out]).toEqual(v);
  });

  test('width 0 and width 32', () => {
    expect(hex(enc(new Array(10).fill(0), 0))).toBe('14');
    const out = new Int32Array(10).fill(9);
    expect(decodeRleHybrid(bytes('14'), 0, 1, 0, out, 0, 10)).toBe(1);
    expect([...out]).toEqual(new Array(10).fill(0));
    // bit-packed width 0: 1 group, no bytes
    expect(decodeRleHybrid(bytes('03'), 0, 1, 0, out, 0, 8)).toBe(1);
    const v = [-1, 0x7fffffff, -0x80000000, 1];
    const b = enc(v, 32);
    expect(hex(b)).toBe('03' + 'ffffffff' + 'ffffff7f' + '00000080' + '01000000' + '00'.repeat(16));
    const o32 = new Int32Array(4);
    decodeRleHybrid(b, 0, b.length, 32, o32, 0, 4);
    expect([...o32]).toEqual(v);
  });

  test('length prefix', () => {
    const w = new ByteWriter(4);
    encodeRleHybridPrefixed(Int32Array.from(new Array(100).fill(5)), 0, 100, 3, w);
    expect(hex(w.finish())).toBe('03000000c80105');
    const out = new Int32Array(100);
    expect(decodeRleHybridPrefixed(w.finish(), 0, w.pos, 3, out, 0, 100)).toBe(7);
    expect(out[99]).toBe(5);
  });

  test('last bit-packed run without its padding bytes is accepted', () => {
    // 3 values at width 8 in a run declared as 1 group (8 bytes) but only 3 bytes present
    const src = bytes('03 0a 0b 0c');
    const out = new Int32Array(3);
    expect(decodeRleHybrid(src, 0, src.length, 8, out, 0, 3)).toBe(4);
    expect([...out]).toEqual([10, 11, 12]);
  });
});

describe('RLE / bit-packing hybrid: round trip', () => {
  test.each(Array.from({ length: 33 }, (_, w) => w))('width %i', (bw) => {
    const max = bw === 32 ? 0xffffffff : 2 ** bw - 1;
    const value = fc.oneof(
      fc.constantFrom(0, max),
      fc.integer({ min: 0, max }),
    );
    const runs = fc.array(fc.tuple(value, fc.integer({ min: 1, max: 40 })), { maxLength: 20 });
    fc.assert(
      fc.property(runs, fc.integer({ min: 0, max: 5 }), (rs, lead) => {
        const vals: number[] = [];
        for (const [v, n] of rs) for (let k = 0; k < n; k++) vals.push(v | 0);
        const arr = Int32Array.from(vals);
        const w = new ByteWriter(8);
        for (let k = 0; k < lead; k++) w.u8(0xee);
        encodeRleHybrid(arr, 0, arr.length, bw, w);
        const buf = w.finish();
        const out = new Int32Array(arr.length + 2);
        const end = decodeRleHybrid(buf, lead, buf.length, bw, out, 1, arr.length);
        expect(end).toBe(arr.length === 0 ? lead : buf.length);
        expect(out.subarray(1, 1 + arr.length)).toEqual(arr);
      }),
      { numRuns: 40 },
    );
  });

  test('long run of 100000 values is one RLE run', () => {
    const arr = new Int32Array(100000).fill(3);
    const w = new ByteWriter(16);
    encodeRleHybrid(arr, 0, arr.length, 2, w);
    const b = w.finish();
    expect(hex(b)).toBe('c09a0c03'); // varint(100000 << 1) = c0 9a 0c, then the value byte
    const out = new Int32Array(100000);
    decodeRleHybrid(b, 0, b.length, 2, out, 0, 100000);
    expect(out.every((v) => v === 3)).toBe(true);
  });
});

describe('RLE / bit-packing hybrid: bad input', () => {
  test('truncated, zero runs, bit widths, over-long headers', () => {
    const out = new Int32Array(16);
    expectCode(() => decodeRleHybrid(bytes('c801'), 0, 2, 3, out, 0, 16), 'ENCODING_TRUNCATED');
    expectCode(() => decodeRleHybrid(bytes('1005'), 0, 2, 3, out, 0, 16), 'ENCODING_TRUNCATED');
    expectCode(() => decodeRleHybrid(bytes('0588c6'), 0, 3, 3, out, 0, 16), 'ENCODING_TRUNCATED');
    expectCode(() => decodeRleHybrid(bytes('0005'), 0, 2, 3, out, 0, 1), 'ENCODING_CORRUPT');
    expectCode(() => decodeRleHybrid(bytes('01'), 0, 1, 3, out, 0, 1), 'ENCODING_CORRUPT');
    expectCode(() => decodeRleHybrid(bytes('0201'), 0, 2, 33, out, 0, 1), 'ENCODING_BIT_WIDTH');
    expectCode(() => decodeRleHybrid(bytes('ffffffffff01'), 0, 6, 3, out, 0, 1), 'VARINT_TOO_LONG');
    expectCode(() => decodeRleHybrid(bytes('0201'), 0, 2, 3, out, 10, 10), 'ENCODING_ARGUMENT');
    expectCode(() => decodeRleHybridPrefixed(bytes('ff000000 0201'), 0, 6, 3, out, 0, 1), 'ENCODING_TRUNCATED');
    // a huge bit-packed run header against a tiny buffer: error, no allocation
    expectCode(() => decodeRleHybrid(bytes('ffffffff0f00'), 0, 6, 32, out, 0, 16), 'ENCODING_TRUNCATED');
    expectCode(() => enc([8], 3), 'ENCODING_CORRUPT', false);
    expectCode(() => enc([-1], 31), 'ENCODING_CORRUPT', false);
  });

  test('random garbage never escapes as a non-ParquetError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 64 }), (src, bw, n) => {
        const out = new Int32Array(n);
        try {
          decodeRleHybrid(src, 0, src.length, bw, out, 0, n);
        } catch (e) {
          expect(isParquetError(e), String(e)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('BIT_PACKED (deprecated, MSB first)', () => {
  test('Encodings.md example: 0..7 at width 3', () => {
    const w = new ByteWriter(4);
    encodeBitPacked(Int32Array.from([0, 1, 2, 3, 4, 5, 6, 7]), 0, 8, 3, w);
    // 000 001 010 011 100 101 110 111 -> 00000101 00111001 01110111
    expect(hex(w.finish())).toBe('053977');
    const out = new Int32Array(8);
    expect(decodeBitPacked(bytes('053977'), 0, 3, 3, out, 0, 8)).toBe(3);
    expect([...out]).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  test.each([0, 1, 5, 8, 13, 31, 32])('round trip width %i', (bw) => {
    const max = bw === 32 ? 0xffffffff : 2 ** bw - 1;
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(0, max), fc.integer({ min: 0, max })), { maxLength: 50 }), (vals) => {
        const arr = Int32Array.from(vals.map((v) => v | 0));
        const w = new ByteWriter(8);
        encodeBitPacked(arr, 0, arr.length, bw, w);
        expect(w.pos).toBe(Math.ceil((arr.length * bw) / 8));
        const out = new Int32Array(arr.length);
        decodeBitPacked(w.finish(), 0, w.pos, bw, out, 0, arr.length);
        expect(out).toEqual(arr);
      }),
      { numRuns: 30 },
    );
  });

  test('truncated and bad width', () => {
    const out = new Int32Array(8);
    expectCode(() => decodeBitPacked(bytes('0539'), 0, 2, 3, out, 0, 8), 'ENCODING_TRUNCATED');
    expectCode(() => decodeBitPacked(bytes('0539'), 0, 2, 40, out, 0, 8), 'ENCODING_BIT_WIDTH');
  });
});

describe('generated bit-packing kernels vs a bit-by-bit reference', () => {
  test.each(Array.from({ length: 33 }, (_, w) => w))('width %i', async (bw) => {
    const { UNPACK } = await import('../src/bit-pack-kernels.js');
    const { PACK } = await import('../src/bit-pack-encode-kernels.js');
    const src = Uint8Array.from({ length: bw * 3 }, (_, i) => (i * 37 + bw * 11 + 5) & 0xff);
    const out = new Int32Array(24);
    UNPACK[bw]!(src, 0, out, 0, 3);
    for (let i = 0; i < 24; i++) {
      let v = 0;
      for (let b = 0; b < bw; b++) {
        const bit = i * bw + b;
        if ((src[bit >> 3]! >> (bit & 7)) & 1) v += 2 ** b;
      }
      expect(out[i]! >>> 0, `value ${i}`).toBe(v);
    }
    const back = new Uint8Array(bw * 3);
    PACK[bw]!(out, 0, back, 0, 3);
    expect(hex(back)).toBe(hex(src));
  });
});

test('RLE repeated value wider than the bit width is corrupt', () => {
  const out = new Int32Array(4);
  expectCode(() => decodeRleHybrid(bytes('0808'), 0, 2, 3, out, 0, 4), 'ENCODING_CORRUPT');
});

describe('rleHybridAllEqual (run headers only)', () => {
  test('hand-built streams', () => {
    // RLE run of 100 x value 1 (header 200 = c8 01), bit width 1
    expect(rleHybridAllEqual(bytes('c801 01'), 0, 3, 1, 100, 1)).toBe(true);
    expect(rleHybridAllEqual(bytes('c801 01'), 0, 3, 1, 101, 1)).toBe(false); // too short
    expect(rleHybridAllEqual(bytes('c801 00'), 0, 3, 1, 100, 1)).toBe(false); // other value
    // two runs: 3 x 2 then 5 x 2, bit width 2
    expect(rleHybridAllEqual(bytes('06 02 0a 02'), 0, 4, 2, 8, 2)).toBe(true);
    // a bit-packed run answers false without decoding
    expect(rleHybridAllEqual(bytes('03 ff'), 0, 2, 1, 8, 1)).toBe(false);
    // 2-byte value (bit width 9): 4 x 300 (0x012c little-endian)
    expect(rleHybridAllEqual(bytes('08 2c01'), 0, 3, 9, 4, 300)).toBe(true);
    // truncated value, zero run, runaway varint, bad width
    expect(rleHybridAllEqual(bytes('08 2c'), 0, 2, 9, 4, 300)).toBe(false);
    expect(rleHybridAllEqual(bytes('00 01'), 0, 2, 1, 1, 1)).toBe(false);
    expect(rleHybridAllEqual(bytes('ffffffffffff01'), 0, 7, 1, 1, 1)).toBe(false);
    expect(rleHybridAllEqual(bytes('c801 01'), 0, 3, 0, 100, 0)).toBe(false);
  });
  test('true only when decoding gives all equal values; true for encoded constant runs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 300 }), fc.boolean(), (bw, raw, constant) => {
        const values = constant ? raw.map(() => (raw[0] ?? 0) % (1 << bw)) : raw.map((v) => v % (1 << bw));
        const b = enc(values, bw);
        const target = values[0] ?? 0;
        const all = rleHybridAllEqual(b, 0, b.length, bw, values.length, target);
        if (all) {
          const out = new Int32Array(values.length);
          decodeRleHybrid(b, 0, b.length, bw, out, 0, values.length);
          expect(out.every((v) => v === target)).toBe(true);
        }
        // our encoder writes a constant stream of 8 or more values as RLE runs
        if (values.length >= 8 && values.every((v) => v === target)) expect(all).toBe(true);
      }),
    );
  });
  test('random bytes never throw, and a true answer is what decoding gives', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), fc.integer({ min: 1, max: 32 }), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 3 }), (b, bw, n, v) => {
        if (!rleHybridAllEqual(b, 0, b.length, bw, n, v)) return;
        const out = new Int32Array(n);
        decodeRleHybrid(b, 0, b.length, bw, out, 0, n);
        expect(out.every((x) => x === v)).toBe(true);
      }),
    );
  });
});
