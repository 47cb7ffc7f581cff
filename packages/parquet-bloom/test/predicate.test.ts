import { describe, expect, test } from 'vitest';
import xxhash from 'xxhash-wasm';
import { isParquetError, Type } from '@parquetry/thrift-compact';
import { bloomInsert, bloomMightContain, bloomMightContainAny, hashValue, type BloomValue } from '../src/predicate.js';
import { SplitBlockBloomFilter } from '../src/sbbf.js';

const api = await xxhash();
const out = new Uint32Array(2);
const hashOf = (type: Type, v: BloomValue, len?: number): bigint => {
  hashValue(type, v, out, len);
  return (BigInt(out[1]!) << 32n) | BigInt(out[0]!);
};
/** PLAIN bytes built with DataView, hashed by xxhash-wasm: the independent expectation. */
const plain = (n: number, fill: (dv: DataView) => void): bigint => {
  const b = new Uint8Array(n);
  fill(new DataView(b.buffer));
  return api.h64Raw(b, 0n);
};

function expectCode(fn: () => unknown, code: string): void {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(isParquetError(err), `expected ParquetError ${code}, got ${String(err)}`).toBe(true);
  expect((err as { code: string }).code).toBe(code);
}

describe('hashValue hashes the PLAIN bytes of each physical type', () => {
  test('INT32 (signed, unsigned range, bigint)', () => {
    for (const v of [0, 1, -1, 2147483647, -2147483648, 123456]) expect(hashOf(Type.INT32, v)).toBe(plain(4, (d) => d.setInt32(0, v, true)));
    expect(hashOf(Type.INT32, 0xffffffff)).toBe(plain(4, (d) => d.setUint32(0, 0xffffffff, true)));
    expect(hashOf(Type.INT32, -5n)).toBe(plain(4, (d) => d.setInt32(0, -5, true)));
  });
  test('INT64 (bigint, negative, unsigned range, safe-integer number)', () => {
    for (const v of [0n, -1n, 9223372036854775807n, -9223372036854775808n, 1234567890123n]) {
      expect(hashOf(Type.INT64, v)).toBe(plain(8, (d) => d.setBigInt64(0, v, true)));
    }
    expect(hashOf(Type.INT64, 18446744073709551615n)).toBe(plain(8, (d) => d.setBigUint64(0, 18446744073709551615n, true)));
    for (const v of [0, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, -4294967296, 4294967297]) {
      expect(hashOf(Type.INT64, v)).toBe(plain(8, (d) => d.setBigInt64(0, BigInt(v), true)));
    }
  });
  test('FLOAT and DOUBLE (IEEE 754 little-endian, -0 distinct from 0)', () => {
    for (const v of [0, -0, 1.5, -3.25e10, Number.POSITIVE_INFINITY, 0.1]) {
      expect(hashOf(Type.FLOAT, v)).toBe(plain(4, (d) => d.setFloat32(0, v, true)));
      expect(hashOf(Type.DOUBLE, v)).toBe(plain(8, (d) => d.setFloat64(0, v, true)));
    }
    expect(hashOf(Type.DOUBLE, 0)).not.toBe(hashOf(Type.DOUBLE, -0));
  });
  test('BYTE_ARRAY without the length prefix, strings as UTF-8; FIXED_LEN_BYTE_ARRAY; INT96; BOOLEAN', () => {
    const s = 'héllo ✓';
    const u = new TextEncoder().encode(s);
    expect(hashOf(Type.BYTE_ARRAY, s)).toBe(api.h64Raw(u, 0n));
    expect(hashOf(Type.BYTE_ARRAY, u)).toBe(api.h64Raw(u, 0n));
    expect(hashOf(Type.BYTE_ARRAY, '')).toBe(0xef46db3751d8e999n);
    const fixed = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
    expect(hashOf(Type.FIXED_LEN_BYTE_ARRAY, fixed, 16)).toBe(api.h64Raw(fixed, 0n));
    expect(hashOf(Type.INT96, fixed.subarray(0, 12))).toBe(api.h64Raw(fixed.subarray(0, 12), 0n));
    expect(hashOf(Type.BOOLEAN, true)).toBe(api.h64Raw(new Uint8Array([1]), 0n));
    expect(hashOf(Type.BOOLEAN, false)).toBe(api.h64Raw(new Uint8Array([0]), 0n));
  });
  test('values that do not fit the type -> BLOOM_VALUE_TYPE', () => {
    const bad: [Type, BloomValue, number?][] = [
      [Type.INT32, 1.5],
      [Type.INT32, 2 ** 32],
      [Type.INT32, 'x'],
      [Type.INT32, 1n << 40n],
      [Type.INT64, 2 ** 60],
      [Type.INT64, 1n << 64n],
      [Type.INT64, true],
      [Type.FLOAT, 1n],
      [Type.DOUBLE, 'x'],
      [Type.BOOLEAN, 1],
      [Type.INT96, new Uint8Array(11)],
      [Type.BYTE_ARRAY, 5],
      [Type.FIXED_LEN_BYTE_ARRAY, new Uint8Array(3), 4],
      [99 as Type, 1],
    ];
    for (const [t, v, len] of bad) expectCode(() => hashValue(t, v, out, len), 'BLOOM_VALUE_TYPE');
  });
});

describe('reader and writer API', () => {
  test('equality and IN predicates: inserted values are "maybe", an all-absent IN list is "absent"', () => {
    const f = SplitBlockBloomFilter.forNdv(1000, 0.001);
    for (let i = 0; i < 1000; i++) bloomInsert(f, Type.INT64, BigInt(i) * 7919n);
    for (let i = 0; i < 1000; i++) expect(bloomMightContain(f, Type.INT64, i * 7919)).toBe(true);
    expect(bloomMightContainAny(f, Type.INT64, [1n, 2n, 7919n * 500n])).toBe(true);
    let absent = 0;
    for (let i = 0; i < 2000; i++) if (!bloomMightContainAny(f, Type.INT64, [BigInt(-1 - i), BigInt(-100000 - i)])) absent++;
    expect(absent).toBeGreaterThan(1980);
    expect(bloomMightContainAny(f, Type.INT64, [])).toBe(false);
  });
});
