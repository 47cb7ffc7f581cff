/**
 * PLAIN BYTE_ARRAY decoding copies short values by unaligned 4-byte words that may run past a value's end (into the
 * next value's room, or the page's bytes after it): values of every length class (byte loop, words, bulk copy) at
 * every alignment of the page and of the destination, with the page ending right after the last value, decode to
 * the bytes written by hand here; every cut of the page is ENCODING_TRUNCATED. Values made of 8-byte words that read
 * as NaN (quiet, signalling, any payload and sign) keep their bytes: such words are not moved as doubles.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { decodePlainByteArray, decodePlainByteArrayInto } from '../src/index.js';

/** The PLAIN bytes of `values` after `lead` filler bytes, built byte by byte (little-endian lengths). */
function page(values: Uint8Array[], lead: number, tail: number): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < lead; i++) out.push(0xee);
  for (const v of values) {
    out.push(v.length & 0xff, (v.length >> 8) & 0xff, (v.length >> 16) & 0xff, v.length >>> 24);
    for (const b of v) out.push(b);
  }
  for (let i = 0; i < tail; i++) out.push(0xdd);
  return Uint8Array.from(out);
}

// lengths drawn uniformly (fast-check's arrays favour short ones): bytes, words, words up to 64, bulk copies
const value = fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 60, max: 90 })).chain((n) => fc.uint8Array({ minLength: n, maxLength: n }));

describe('PLAIN BYTE_ARRAY word copies', () => {
  test('every length and alignment decodes to the values written', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 30 }), fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 7 }), (values, lead, shift, before) => {
        // the page in a buffer at an odd byte offset, ending exactly after its last value
        const bytes = page(values, lead, 0);
        const buf = new Uint8Array(bytes.length + shift);
        buf.set(bytes, shift);
        const src = buf.subarray(shift);
        const got = decodePlainByteArray(src, lead, src.length, values.length);
        expect(got.pos).toBe(src.length);
        expect(got.values.offsets.length).toBe(values.length + 1);
        for (let i = 0; i < values.length; i++) expect(got.values.data.subarray(got.values.offsets[i]!, got.values.offsets[i + 1]!)).toEqual(values[i]);
        // into a caller's arrays after `before` bytes already there, the destination exactly as large as required
        const cap = src.length - lead - 4 * values.length;
        const data = new Uint8Array(before + cap).fill(0x77, 0, before);
        const offsets = new Int32Array(values.length + 2);
        offsets[1] = before;
        decodePlainByteArrayInto(src, lead, src.length, values.length, offsets, 1, data);
        expect(Array.from(data.subarray(0, before))).toEqual(new Array<number>(before).fill(0x77));
        for (let i = 0; i < values.length; i++) expect(data.subarray(offsets[i + 1]!, offsets[i + 2]!)).toEqual(values[i]);
      }),
      { numRuns: 300 },
    );
  });

  test('words that read as NaN keep their bytes', () => {
    // little-endian doubles with every exponent bit set and a non-zero mantissa, cut at any length, among other bytes
    const nanWord = fc.tuple(fc.integer({ min: 0, max: 0xfffff }), fc.nat({ max: 0xffffffff }), fc.boolean()).filter(([hi, lo]) => hi !== 0 || lo !== 0).map(([hi, lo, neg]) => {
      const b = new Uint8Array(8);
      const dv = new DataView(b.buffer);
      dv.setUint32(0, lo, true);
      dv.setUint32(4, ((neg ? 0x80000000 : 0) | 0x7ff00000 | hi) >>> 0, true);
      return b;
    });
    const nanValue = fc.tuple(fc.array(fc.oneof(nanWord, fc.uint8Array({ minLength: 8, maxLength: 8 })), { minLength: 1, maxLength: 8 }), fc.nat({ max: 7 })).map(([words, cut]) => {
      const v = new Uint8Array(words.length * 8);
      words.forEach((w, i) => v.set(w, i * 8));
      return v.subarray(0, Math.max(0, v.length - cut));
    });
    fc.assert(
      fc.property(fc.array(nanValue, { maxLength: 20 }), fc.integer({ min: 0, max: 7 }), fc.integer({ min: 8, max: 16 }), (values, lead, tail) => {
        // a tail after the values: every value takes the word loops
        const bytes = page(values, lead, tail);
        const got = decodePlainByteArray(bytes, lead, bytes.length - tail, values.length);
        for (let i = 0; i < values.length; i++) expect(got.values.data.subarray(got.values.offsets[i]!, got.values.offsets[i + 1]!)).toEqual(values[i]);
      }),
      { numRuns: 300 },
    );
    // one signalling NaN by hand: 0x7ff0000000000001 and 0xfff4000000000000
    const v = Uint8Array.of(1, 0, 0, 0, 0, 0, 0xf0, 0x7f, 0, 0, 0, 0, 0, 0, 0xf4, 0xff);
    const bytes = page([v, v], 0, 16);
    const got = decodePlainByteArray(bytes, 0, bytes.length - 16, 2);
    expect(Array.from(got.values.data)).toEqual([...v, ...v]);
  });

  test('a page cut anywhere is ENCODING_TRUNCATED', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 5 }), fc.nat(), (values, lead, at) => {
        const bytes = page(values, lead, 0);
        const end = lead + (at % (bytes.length - lead));
        let err: unknown;
        try {
          decodePlainByteArray(bytes.slice(0, end), lead, end, values.length);
        } catch (e) {
          err = e;
        }
        expect(err).toMatchObject({ name: 'ParquetError', code: 'ENCODING_TRUNCATED' });
      }),
      { numRuns: 300 },
    );
  });
});
