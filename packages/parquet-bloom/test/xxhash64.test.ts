import { describe, expect, test } from 'vitest';
import xxhash from 'xxhash-wasm';
import { isParquetError } from '@parquetry/thrift-compact';
import { xxhash64, xxhash64Double, xxhash64Float, xxhash64Int32, xxhash64Int64 } from '../src/xxhash64.js';

const api = await xxhash();
const oracle = (u8: Uint8Array): bigint => api.h64Raw(u8, 0n);
const out = new Uint32Array(2);
const ours = (src: Uint8Array, pos = 0, len = src.length - pos): bigint => {
  xxhash64(src, pos, len, out);
  return (BigInt(out[1]!) << 32n) | BigInt(out[0]!);
};
const asBig = (o: Uint32Array): bigint => (BigInt(o[1]!) << 32n) | BigInt(o[0]!);

/** mulberry32: a tiny seeded PRNG so failures reproduce. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('xxhash64 (seed 0)', () => {
  test('published reference vectors', () => {
    const enc = new TextEncoder();
    expect(ours(new Uint8Array(0))).toBe(0xef46db3751d8e999n);
    expect(ours(enc.encode('a'))).toBe(0xd24ec4f1a98c6e5bn);
    expect(ours(enc.encode('abc'))).toBe(0x44bc2cf5ad770999n);
    expect(ours(enc.encode('Nobody inspects the spammish repetition'))).toBe(0xfbcea83c8a378bf1n);
    expect(ours(new Uint8Array([0]))).toBe(0xe934a84adb052768n);
    // xxhsum's sanity buffer: byteGen = PRIME32_1; buf[i] = byteGen >> 24; byteGen *= byteGen (mod 2^32).
    const sanity = new Uint8Array(101);
    let g = 2654435761;
    for (let i = 0; i < sanity.length; i++) {
      sanity[i] = g >>> 24;
      g = Math.imul(g, g) >>> 0;
    }
    expect(ours(sanity, 0, 1)).toBe(0x4fce394cc88952d8n);
    expect(ours(sanity, 0, 14)).toBe(0xcffa8db881bc3a3dn);
    expect(ours(sanity, 0, 101)).toBe(0x0eab543384f878adn);
  });

  test('agrees with xxhash-wasm on random inputs of every length 0..1024, at odd offsets', () => {
    const rnd = prng(0xb100f);
    const buf = new Uint8Array(1024 + 16);
    let mismatches = 0;
    for (let len = 0; len <= 1024; len++) {
      for (let rep = 0; rep < 3; rep++) {
        const pos = (rnd() * 16) | 0;
        for (let i = 0; i < len; i++) buf[pos + i] = (rnd() * 256) | 0;
        if (ours(buf, pos, len) !== oracle(buf.slice(pos, pos + len))) mismatches++;
      }
    }
    expect(mismatches).toBe(0);
  });

  test('all-0xff and all-zero inputs (carry paths) agree with xxhash-wasm', () => {
    for (const fill of [0x00, 0xff, 0x80, 0x7f]) {
      for (const len of [1, 3, 4, 7, 8, 9, 31, 32, 33, 63, 64, 65, 100, 1000]) {
        const b = new Uint8Array(len).fill(fill);
        expect(ours(b)).toBe(oracle(b));
      }
    }
  });

  test('fixed-width fast paths equal hashing the PLAIN bytes', () => {
    const rnd = prng(7);
    const b4 = new Uint8Array(4);
    const b8 = new Uint8Array(8);
    const dv4 = new DataView(b4.buffer);
    const dv8 = new DataView(b8.buffer);
    const specials = [0, -1, 1, 0x7fffffff, -0x80000000, 0x12345678];
    let bad = 0;
    const check = (ok: boolean): void => {
      if (!ok) bad++;
    };
    for (let i = 0; i < 2000; i++) {
      const v = i < specials.length ? specials[i]! : ((rnd() * 4294967296) | 0);
      dv4.setInt32(0, v, true);
      xxhash64Int32(v, out);
      check(asBig(out) === oracle(b4));

      const lo = (rnd() * 4294967296) >>> 0;
      const hi = i === 0 ? 0 : i === 1 ? -1 : (rnd() * 4294967296) | 0;
      dv8.setUint32(0, lo, true);
      dv8.setInt32(4, hi, true);
      xxhash64Int64(lo, hi, out);
      check(asBig(out) === oracle(b8));

      const d = i === 0 ? -0 : i === 1 ? Number.NaN : (rnd() - 0.5) * 1e12;
      dv8.setFloat64(0, d, true);
      xxhash64Double(d, out);
      check(asBig(out) === oracle(b8));

      dv4.setFloat32(0, d, true);
      xxhash64Float(d, out);
      check(asBig(out) === oracle(b4));
    }
    expect(bad).toBe(0);
  });

  test('a range outside the buffer is a ParquetError, not garbage', () => {
    for (const [pos, len] of [[-1, 2], [0, 11], [10, 1], [5, -1]] as const) {
      let err: unknown;
      try {
        xxhash64(new Uint8Array(10), pos, len, out);
      } catch (e) {
        err = e;
      }
      expect(isParquetError(err) && err.code === 'BLOOM_INVALID_ARGUMENT').toBe(true);
    }
  });
});
