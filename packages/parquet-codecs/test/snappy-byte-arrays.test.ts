// snappyByteArrays: PLAIN BYTE_ARRAY values split into offsets and bytes by the SNAPPY decompression kernel (the
// SNAPPY codecs' non-enumerable byteArrays, which the reader's chunk decoder uses for pages of SNAPPY chunks). The
// values are built by hand here; anything truncated or out of range gives undefined, so that the caller's own
// decoder gives the error.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CompressionCodec, snappyCodec, snappyDecoder } from '@parquetry/parquet-codecs';
import { setSnappyDecoder, snappyByteArrays, snappyWasmAvailable } from '../src/snappy.js';
import { same } from './inputs.js';

beforeAll(async () => {
  expect(await snappyWasmAvailable()).toBe(true);
});
afterAll(() => setSnappyDecoder('auto'));

/** PLAIN BYTE_ARRAY bytes of `values` after `lead` bytes, then `tail` bytes (4-byte little-endian length, then the bytes). */
function plainPage(values: Uint8Array[], lead: number, tail: number): Uint8Array {
  const out: number[] = new Array<number>(lead).fill(0xab);
  for (const v of values) out.push(v.length & 0xff, (v.length >> 8) & 0xff, (v.length >> 16) & 0xff, v.length >>> 24, ...v);
  for (let i = 0; i < tail; i++) out.push(0xcd);
  return Uint8Array.from(out);
}

describe('snappyByteArrays', () => {
  test('offsets from 0 and the bytes of every value, at any length (word moves, copies, the last values)', () => {
    const value = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 28, max: 36 }), fc.integer({ min: 60, max: 300 })).chain((n) => fc.uint8Array({ minLength: n, maxLength: n }));
    fc.assert(
      fc.property(fc.array(value, { maxLength: 40 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 3 }), (values, lead, tail, shift) => {
        const bytes = plainPage(values, lead, tail);
        // the page at an odd offset of its buffer
        const page = new Uint8Array(bytes.length + shift).subarray(shift);
        page.set(bytes);
        const got = snappyByteArrays(page, lead, page.length - tail, values.length)!;
        expect(got).toBeDefined();
        expect(got.offsets.length).toBe(values.length + 1);
        expect(got.offsets[0]).toBe(0);
        expect(got.data.length).toBe(values.reduce((n, v) => n + v.length, 0));
        values.forEach((v, i) => expect(same(got.data.subarray(got.offsets[i]!, got.offsets[i + 1]!), v)).toBe(true));
        // new arrays: the page is left as it was
        expect(same(page, bytes)).toBe(true);
        expect(got.data.buffer).not.toBe(page.buffer);
      }),
      { numRuns: 300 },
    );
  });

  test('undefined for truncated values, a range outside the page, and the TypeScript mode', () => {
    const values = [new TextEncoder().encode('abc'), new Uint8Array(50).fill(7)];
    const page = plainPage(values, 0, 0);
    expect(snappyByteArrays(page, 0, page.length, 2)!.offsets).toEqual(Int32Array.of(0, 3, 53));
    expect(snappyByteArrays(page, 0, page.length, 3)).toBeUndefined();
    expect(snappyByteArrays(page, 0, page.length - 1, 2)).toBeUndefined();
    expect(snappyByteArrays(page, 0, 5, 1)).toBeUndefined();
    expect(snappyByteArrays(page, 0, page.length + 1, 2)).toBeUndefined();
    expect(snappyByteArrays(page, 3, 2, 0)).toBeUndefined();
    expect(snappyByteArrays(page, 0, 0, 0)!.offsets).toEqual(Int32Array.of(0));
    // a length of 2^31 and more
    expect(snappyByteArrays(Uint8Array.of(0, 0, 0, 0x80, 1, 2), 0, 6, 1)).toBeUndefined();
    setSnappyDecoder('ts');
    try {
      expect(snappyByteArrays(page, 0, page.length, 2)).toBeUndefined();
    } finally {
      setSnappyDecoder('auto');
    }
  });

  test('large pages grow the kernel memory; the SNAPPY codecs carry it, not enumerable', () => {
    const values = Array.from({ length: 20000 }, (_, i) => new TextEncoder().encode(`value number ${i} `.repeat(1 + (i % 5))));
    const page = plainPage(values, 0, 0);
    const got = snappyByteArrays(page, 0, page.length, values.length)!;
    expect(got.offsets[values.length]).toBe(page.length - 4 * values.length);
    expect(same(got.data.subarray(got.offsets[19999]!, got.offsets[20000]!), values[19999]!)).toBe(true);
    for (const codec of [snappyCodec, snappyDecoder]) {
      expect(codec.codec).toBe(CompressionCodec.SNAPPY);
      expect((codec as typeof codec & { byteArrays: unknown }).byteArrays).toBe(snappyByteArrays);
      expect(Object.keys(codec)).toEqual(['codec', 'decompress', 'compress']);
      expect('byteArrays' in { ...codec }).toBe(false);
    }
  });
});
