import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ByteReader, ByteWriter, int64ToBigInt, isParquetError } from '@parquetry/thrift-compact';

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return isParquetError(e) ? e.code : `not a ParquetError: ${String(e)}`;
  }
  return undefined;
};

describe('varints', () => {
  test('ULEB128 bytes by hand', () => {
    const w = new ByteWriter();
    w.uleb32(0);
    w.uleb32(1);
    w.uleb32(127);
    w.uleb32(128);
    w.uleb32(300);
    w.uleb32(0xffffffff);
    expect([...w.finish()]).toEqual([0, 1, 0x7f, 0x80, 0x01, 0xac, 0x02, 0xff, 0xff, 0xff, 0xff, 0x0f]);
    const r = new ByteReader(w.finish());
    expect([r.uleb32(), r.uleb32(), r.uleb32(), r.uleb32(), r.uleb32(), r.uleb32()]).toEqual([0, 1, 127, 128, 300, 0xffffffff]);
  });

  test('zigzag by hand: 0, -1, 1, -2, 2147483647, -2147483648', () => {
    const w = new ByteWriter();
    for (const v of [0, -1, 1, -2, 2147483647, -2147483648]) w.zigzag32(v);
    expect([...w.finish().subarray(0, 4)]).toEqual([0, 1, 2, 3]);
    const r = new ByteReader(w.finish());
    expect([0, 1, 2, 3, 4, 5].map(() => r.zigzag32())).toEqual([0, -1, 1, -2, 2147483647, -2147483648]);
  });

  test('64-bit zigzag round trip over the whole int64 range', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (v) => {
        const w = new ByteWriter(16);
        const u = BigInt.asUintN(64, v);
        w.zigzag64(Number(u & 0xffffffffn), Number(u >> 32n));
        const r = new ByteReader(w.finish());
        r.zigzag64();
        expect(int64ToBigInt(r.lo, r.hi)).toBe(v);
        expect(r.remaining).toBe(0);
      }),
    );
  });

  test('safe-number i64 round trip and range check', () => {
    fc.assert(
      fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (v) => {
        const w = new ByteWriter(4);
        w.zigzag64Number(v);
        expect(new ByteReader(w.finish()).zigzag64Number()).toBe(v);
      }),
    );
    const w = new ByteWriter();
    w.zigzag64(0, 0x00400000); // 2^54
    expect(codeOf(() => new ByteReader(w.finish()).zigzag64Number())).toBe('INT64_NOT_SAFE');
  });

  test('over-long and truncated varints are typed errors with offsets', () => {
    expect(codeOf(() => new ByteReader(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0x01])).uleb32())).toBe('VARINT_TOO_LONG');
    expect(codeOf(() => new ByteReader(new Uint8Array(11).fill(0x80)).uleb64())).toBe('VARINT_TOO_LONG');
    expect(codeOf(() => new ByteReader(new Uint8Array([0x80, 0x80])).uleb32())).toBe('EOF');
    expect(codeOf(() => new ByteReader(new Uint8Array([0x80, 0x80])).uleb64())).toBe('EOF');
    expect(codeOf(() => new ByteReader(new Uint8Array(3)).f64())).toBe('EOF');
    expect(codeOf(() => new ByteReader(new Uint8Array(3)).view(4))).toBe('EOF');
    try {
      new ByteReader(new Uint8Array([1, 2, 0x80]), 0, 3, 1000).view(3);
      new ByteReader(new Uint8Array([0x80]), 0, 1, 1000).uleb32();
    } catch (e) {
      expect(isParquetError(e) && e.offset).toBe(1001);
    }
  });
});

describe('ByteWriter', () => {
  test('grows past its initial capacity and keeps earlier bytes', () => {
    const w = new ByteWriter(16);
    for (let i = 0; i < 1000; i++) w.u8(i & 0xff);
    w.f64(1.5);
    w.i32le(-2);
    const out = w.finish();
    expect(out.length).toBe(1012);
    expect(out[999]).toBe(999 & 0xff);
    const r = new ByteReader(out, 1000);
    expect(r.f64()).toBe(1.5);
    expect(r.i32le()).toBe(-2);
  });
});
