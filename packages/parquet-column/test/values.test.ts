/**
 * Column-chunk value assembly: byte arrays of several pages and dictionary pages into one offsets + bytes pair.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { concatValues } from '../src/values.js';
import { chunkByteArrays } from '../src/columnar-values.js';
import { typedError } from './helpers.js';

const enc = new TextEncoder();
function byteArrays(values: string[], lead = 0): { offsets: Int32Array; data: Uint8Array } {
  const parts = values.map((v) => enc.encode(v));
  const offsets = new Int32Array(parts.length + 1);
  const data = new Uint8Array(lead + parts.reduce((a, p) => a + p.length, 0));
  let at = lead;
  offsets[0] = lead;
  parts.forEach((p, i) => {
    data.set(p, at);
    at += p.length;
    offsets[i + 1] = at;
  });
  return { offsets, data };
}
const strings = (v: { offsets: Int32Array; data: Uint8Array }) =>
  Array.from({ length: v.offsets.length - 1 }, (_, i) => new TextDecoder().decode(v.data.subarray(v.offsets[i]!, v.offsets[i + 1]!)));

describe('chunkByteArrays', () => {
  test('plain pages and dictionary pages, in order, into one buffer', () => {
    const dict = byteArrays(['', 'a', 'category-15', 'a string longer than sixty-four bytes, copied with one set() call.....']);
    const got = chunkByteArrays(
      [{ values: byteArrays(['x', 'yz'], 3) }, { indices: Int32Array.from([2, 0, 3, 1, 2]) }, { values: byteArrays(['', 'last']) }],
      dict,
      9,
    );
    expect(strings(got)).toEqual(['x', 'yz', 'category-15', '', 'a string longer than sixty-four bytes, copied with one set() call.....', 'a', 'category-15', '', 'last']);
    expect(got.offsets[0]).toBe(0);
    expect(got.data.length).toBe(got.offsets[9]);
  });
  test('a single plain page is returned without a copy', () => {
    const page = byteArrays(['p', 'q'], 5);
    expect(chunkByteArrays([{ values: page }], undefined, 2)).toBe(page);
  });
  test('more bytes than 32-bit offsets address is VALUE_TOO_LARGE, before anything is allocated', async () => {
    // two pages each claiming 1.5 GiB (only the offsets are read to size the result)
    const claim = (n: number) => ({ offsets: Int32Array.from([0, n]), data: new Uint8Array(0) });
    const big = 1.5 * 2 ** 30;
    const e = await typedError(async () => chunkByteArrays([{ values: claim(big) }, { values: claim(big) }], undefined, 2, "row group 0, column 's'"));
    expect(e.code).toBe('VALUE_TOO_LARGE');
    expect(e.message).toMatch(/row group 0, column 's' holds 3221225472 bytes/);
    const e2 = await typedError(async () => concatValues([claim(big), claim(big)], claim(0)));
    expect(e2.code).toBe('VALUE_TOO_LARGE');
  });
  test('dictionaries of short entries (copied as padded words) and long ones, pages of indices and plain pages mixed', () => {
    // entries up to 16 bytes take the padded-word gather, a dictionary with a longer entry the general one
    // (lengths drawn uniformly: fast-check's arrays favour short ones)
    const bytesOf = (max: number) => fc.integer({ min: 0, max }).chain((n) => fc.uint8Array({ minLength: n, maxLength: n }));
    const entry = fc.oneof(bytesOf(16), bytesOf(80));
    const dictionary = fc.oneof(fc.array(bytesOf(16), { minLength: 1, maxLength: 40 }), fc.array(entry, { minLength: 1, maxLength: 40 }));
    const dictAndSegments = dictionary.chain((entries) =>
      fc.tuple(
        fc.constant(entries),
        fc.array(fc.oneof(fc.array(fc.nat(entries.length - 1), { maxLength: 60 }).map((ix) => ({ ix })), fc.array(entry, { maxLength: 10 }).map((vals) => ({ vals }))), { minLength: 2, maxLength: 5 }),
        fc.nat(7),
      ),
    );
    fc.assert(
      fc.property(dictAndSegments, ([entries, parts, lead]) => {
        const toArrays = (vals: Uint8Array[], at: number) => {
          const offsets = new Int32Array(vals.length + 1);
          const data = new Uint8Array(at + vals.reduce((a, v) => a + v.length, 0));
          offsets[0] = at;
          vals.forEach((v, i) => {
            data.set(v, offsets[i]!);
            offsets[i + 1] = offsets[i]! + v.length;
          });
          return { offsets, data };
        };
        const expected: Uint8Array[] = [];
        const segments = parts.map((p) => {
          if ('ix' in p) {
            for (const j of p.ix) expected.push(entries[j]!);
            return { indices: Int32Array.from(p.ix) };
          }
          expected.push(...p.vals);
          return { values: toArrays(p.vals, lead) };
        });
        const got = chunkByteArrays(segments, toArrays(entries, lead), expected.length);
        expect(got.offsets.length).toBe(expected.length + 1);
        expect(got.offsets[0]).toBe(0);
        expect(got.data.length).toBe(got.offsets[expected.length]);
        for (let i = 0; i < expected.length; i++) expect(got.data.subarray(got.offsets[i]!, got.offsets[i + 1]!)).toEqual(expected[i]);
      }),
      { numRuns: 300 },
    );
  });
  test('pages of indices only, dictionaries whose longest entry is 0 to 16 bytes (copied as 1 to 4 words a value)', () => {
    const dictAndPages = fc.integer({ min: 0, max: 16 }).chain((longest) =>
      fc.array(fc.integer({ min: 0, max: longest }).chain((n) => fc.uint8Array({ minLength: n, maxLength: n })), { minLength: 1, maxLength: 20 }).chain((entries) =>
        fc.tuple(fc.constant(entries), fc.array(fc.array(fc.nat(entries.length - 1), { maxLength: 50 }), { minLength: 1, maxLength: 4 })),
      ),
    );
    fc.assert(
      fc.property(dictAndPages, ([entries, pages]) => {
        const dict = { offsets: new Int32Array(entries.length + 1), data: new Uint8Array(entries.reduce((a, v) => a + v.length, 0)) };
        entries.forEach((v, i) => {
          dict.data.set(v, dict.offsets[i]!);
          dict.offsets[i + 1] = dict.offsets[i]! + v.length;
        });
        const expected = pages.flat().map((j) => entries[j]!);
        const got = chunkByteArrays(pages.map((ix) => ({ indices: Int32Array.from(ix) })), dict, expected.length);
        expect(got.offsets.length).toBe(expected.length + 1);
        expect(got.data.length).toBe(got.offsets[expected.length]);
        for (let i = 0; i < expected.length; i++) expect(got.data.subarray(got.offsets[i]!, got.offsets[i + 1]!)).toEqual(expected[i]);
      }),
      { numRuns: 400 },
    );
  });
});
