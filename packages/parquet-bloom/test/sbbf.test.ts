import { describe, expect, test } from 'vitest';
import { isParquetError } from '@parquetry/thrift-compact';
import { BLOOM_DEFAULT_MAX_BYTES, SplitBlockBloomFilter, expectedFpp, optimalNumBytes } from '../src/sbbf.js';
import { occupancyFpp, prng, u32 } from './helpers.js';

const SALT = [0x47b6137bn, 0x44974d91n, 0x8824ad5bn, 0xa2b7289dn, 0x705495c7n, 0x2df1424bn, 0x9efc4947n, 0x5c6bfb31n];
const M32 = 0xffffffffn;

/** BloomFilter.md pseudocode, transcribed with BigInt: filter_insert over u32 words. */
function specInsert(words: Uint32Array, h: bigint): void {
  const z = BigInt(words.length / 8);
  const i = Number(((h >> 32n) * z) >> 32n);
  const x = h & M32;
  for (let j = 0; j < 8; j++) {
    const y = (x * SALT[j]!) & M32;
    words[8 * i + j]! |= 1 << Number(y >> 27n);
  }
}

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

describe('SplitBlockBloomFilter', () => {
  test('insertHash sets exactly the bits of the spec pseudocode (BigInt transcription)', () => {
    const rnd = prng(1);
    for (const numBytes of [32, 64, 1024, 1 << 20]) {
      const f = new SplitBlockBloomFilter(numBytes);
      const ref = new Uint32Array(numBytes / 4);
      for (let n = 0; n < 3000; n++) {
        const lo = u32(rnd);
        const hi = u32(rnd);
        f.insertHash(lo, hi);
        specInsert(ref, (BigInt(hi) << 32n) | BigInt(lo));
      }
      let diff = 0;
      for (let i = 0; i < ref.length; i++) if (ref[i] !== f.words[i]) diff++;
      expect(diff).toBe(0);
      expect(ref.some((w) => w !== 0)).toBe(true);
    }
  });

  test('a single insert sets one bit in each of the eight words of one block', () => {
    const f = new SplitBlockBloomFilter(256); // 8 blocks
    f.insertHash(0x12345678, 0xa0000000); // block = (0xa0000000 * 8) >> 32 = 5
    for (let b = 0; b < 8; b++) {
      for (let w = 0; w < 8; w++) {
        const v = f.words[8 * b + w]!;
        if (b === 5) expect(v !== 0 && (v & (v - 1)) === 0).toBe(true);
        else expect(v).toBe(0);
      }
    }
    // word 0: (0x12345678 * 0x47b6137b) mod 2^32 = 0x62e073a8, >> 27 = 12
    expect(f.words[40]).toBe(1 << 12);
    expect(f.mightContainHash(0x12345678, 0xa0000000)).toBe(true);
    expect(f.mightContainHash(0x12345678, 0x00000000)).toBe(false);
  });

  test('no false negatives for any value type', () => {
    const rnd = prng(2);
    const f = SplitBlockBloomFilter.forNdv(5000, 0.01);
    const ints: number[] = [];
    for (let i = 0; i < 1000; i++) ints.push(u32(rnd) | 0);
    for (const v of ints) f.insertInt32(v);
    for (const v of ints) f.insertInt64(v, ~v);
    for (const v of ints) f.insertDouble(v / 7);
    for (const v of ints) f.insertFloat(v / 3);
    for (const v of ints) f.insertBigInt64(BigInt(v) * 1000003n);
    const s = new TextEncoder().encode('x'.repeat(100));
    for (let i = 0; i < 100; i++) f.insertBytes(s, i, 100 - i);
    f.insertBoolean(true);
    let misses = 0;
    for (const v of ints) {
      if (!f.mightContainInt32(v)) misses++;
      if (!f.mightContainInt64(v, ~v)) misses++;
      if (!f.mightContainDouble(v / 7)) misses++;
      if (!f.mightContainFloat(v / 3)) misses++;
      if (!f.mightContainBigInt64(BigInt(v) * 1000003n)) misses++;
    }
    for (let i = 0; i < 100; i++) if (!f.mightContainBytes(s, i, 100 - i)) misses++;
    expect(misses).toBe(0);
    expect(f.mightContainBoolean(true)).toBe(true);
  });

  test('bulk inserts set the same bits as one-at-a-time inserts', () => {
    const rnd = prng(3);
    const n = 2000;
    const i32 = new Int32Array(n).map(() => u32(rnd) | 0);
    const i64 = new BigInt64Array(n).map(() => BigInt.asIntN(64, (BigInt(u32(rnd)) << 32n) | BigInt(u32(rnd))));
    const f32 = new Float32Array(n).map(() => (rnd() - 0.5) * 1e6);
    const f64 = new Float64Array(n).map(() => (rnd() - 0.5) * 1e12);
    f32[0] = Number.NaN;
    f64[1] = -0;
    const strs = Array.from({ length: n }, (_, i) => `v${i}-${u32(rnd).toString(36)}`);
    const enc = new TextEncoder();
    const parts = strs.map((s) => enc.encode(s));
    const offsets = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i]! + parts[i]!.length;
    const data = new Uint8Array(offsets[n]!);
    parts.forEach((p, i) => data.set(p, offsets[i]!));
    const fixed = new Uint8Array(n * 12).map(() => u32(rnd) & 255);

    const a = new SplitBlockBloomFilter(8192);
    const b = new SplitBlockBloomFilter(8192);
    a.insertInt32Values(i32, 10, 1500);
    for (let i = 10; i < 1500; i++) b.insertInt32(i32[i]!);
    a.insertInt64Values(i64);
    for (const v of i64) b.insertBigInt64(v);
    a.insertFloatValues(f32);
    for (const v of f32) b.insertFloat(v);
    a.insertDoubleValues(f64);
    for (const v of f64) b.insertDouble(v);
    a.insertByteArrayValues(offsets, data);
    for (let i = 0; i < n; i++) b.insertBytes(data, offsets[i]!, offsets[i + 1]! - offsets[i]!);
    a.insertFixedLenValues(fixed, 12);
    for (let i = 0; i < n; i++) b.insertBytes(fixed, 12 * i, 12);
    expect(a.words).toEqual(b.words);
  });

  test('fromBitset copies and bitset() exposes little-endian words', () => {
    const f = SplitBlockBloomFilter.forNdv(100, 0.01);
    for (let i = 0; i < 100; i++) f.insertInt32(i);
    const bytes = f.bitset().slice();
    const dv = new DataView(bytes.buffer);
    for (let i = 0; i < f.words.length; i++) expect(dv.getUint32(4 * i, true)).toBe(f.words[i]);
    const g = SplitBlockBloomFilter.fromBitset(bytes);
    expect(g.words).toEqual(f.words);
    bytes[0] = bytes[0]! ^ 0xff;
    expect(g.words[0]).toBe(f.words[0]); // a copy
  });

  test('sizes that are not a power of two in [32, 2^30] are rejected', () => {
    for (const n of [0, 16, 31, 48, 100, 1000, 2 ** 31, Number.NaN, -32, 32.5]) {
      expectCode(() => new SplitBlockBloomFilter(n), 'BLOOM_BAD_SIZE');
    }
    expectCode(() => SplitBlockBloomFilter.fromBitset(new Uint8Array(96)), 'BLOOM_BAD_SIZE');
    expectCode(() => new SplitBlockBloomFilter(64).insertBytes(new Uint8Array(4), 2, 3), 'BLOOM_INVALID_ARGUMENT');
    expectCode(() => new SplitBlockBloomFilter(64).insertByteArrayValues(new Int32Array([0, 5, 3]), new Uint8Array(8)), 'BLOOM_INVALID_ARGUMENT');
    expectCode(() => new SplitBlockBloomFilter(64).insertFixedLenValues(new Uint8Array(8), 0), 'BLOOM_INVALID_ARGUMENT');
  });
});

describe('sizing', () => {
  test('expectedFpp reproduces the numbers of BloomFilter.md "Sizing an SBBF"', () => {
    // 1024 blocks: 26,214 values ~1.26 %, 52,428 ~18 %, 13,107 ~0.04 %
    expect(expectedFpp(32768, 26214)).toBeCloseTo(0.0126, 3);
    expect(expectedFpp(32768, 52428)).toBeGreaterThan(0.17);
    expect(expectedFpp(32768, 52428)).toBeLessThan(0.19);
    expect(expectedFpp(32768, 13107)).toBeGreaterThan(0.0003);
    expect(expectedFpp(32768, 13107)).toBeLessThan(0.0005);
    // The table: bits of space per insert vs false positive probability.
    for (const [bits, fpp] of [[6.0, 0.1], [10.5, 0.01], [16.9, 0.001], [26.4, 0.0001], [41, 0.00001]] as const) {
      const ndv = Math.round((1 << 23) / bits); // 1 MiB filter
      const got = expectedFpp(1 << 20, ndv);
      expect(got / fpp).toBeGreaterThan(0.75);
      expect(got / fpp).toBeLessThan(1.33);
    }
    expect(expectedFpp(32, 0)).toBe(0);
  });

  test('optimalNumBytes: power of two, spec minimum, default and custom maximum, target met', () => {
    expect(optimalNumBytes(0, 0.01)).toBe(32);
    expect(optimalNumBytes(1, 0.01)).toBe(32);
    expect(optimalNumBytes(1e12, 0.01)).toBe(BLOOM_DEFAULT_MAX_BYTES);
    expect(optimalNumBytes(1e6, 0.01, 1024)).toBe(1024);
    for (const fpp of [0.2, 0.1, 0.05, 0.01, 0.001, 0.0001]) {
      for (const ndv of [1, 10, 100, 999, 3000, 12345, 1e5, 1e6]) {
        const n = optimalNumBytes(ndv, fpp);
        expect(n & (n - 1)).toBe(0);
        expect(expectedFpp(n, ndv)).toBeLessThanOrEqual(fpp);
        if (n > 32) expect(expectedFpp(n / 2, ndv)).toBeGreaterThan(fpp); // the smallest that meets it
      }
    }
    for (const [ndv, fpp, max] of [[-1, 0.01, 1024], [Number.NaN, 0.01, 1024], [10, 0, 1024], [10, 1, 1024], [10, 0.01, 1000], [10, 0.01, 16]] as const) {
      expectCode(() => optimalNumBytes(ndv, fpp, max), 'BLOOM_INVALID_ARGUMENT');
    }
  });

  test('measured false-positive rates stay within the target for several (NDV, FPP)', () => {
    const rnd = prng(4);
    const probes = 200_000;
    for (const [ndv, fpp] of [[1000, 0.1], [5000, 0.05], [20000, 0.01], [50000, 0.001], [3000, 0.0001], [100000, 0.01]] as const) {
      const f = SplitBlockBloomFilter.forNdv(ndv, fpp);
      // Inserted: hi word even; probed: hi word odd, so no probe was inserted.
      for (let i = 0; i < ndv; i++) f.insertInt64(u32(rnd), (u32(rnd) & ~1) | 0);
      let fp = 0;
      for (let i = 0; i < probes; i++) if (f.mightContainInt64(u32(rnd), u32(rnd) | 1)) fp++;
      const rate = fp / probes;
      const sigma = Math.sqrt((fpp * (1 - fpp)) / probes);
      expect(rate, `ndv ${ndv} fpp ${fpp}: measured ${rate} with ${f.numBytes} bytes`).toBeLessThanOrEqual(fpp + 4 * sigma);
      // and the rate is what this filter's bits predict (probe noise only)
      const e = occupancyFpp(f.words);
      expect(Math.abs(rate - e)).toBeLessThanOrEqual(5 * Math.sqrt((e * (1 - e)) / probes) + 3 / probes);
      // and near what the sizing model predicted (the realized block loads vary around it)
      expect(e / expectedFpp(f.numBytes, ndv)).toBeGreaterThan(0.7);
      expect(e / expectedFpp(f.numBytes, ndv)).toBeLessThan(1.3);
    }
  });
});
