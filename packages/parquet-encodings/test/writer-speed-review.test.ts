// Review of this round's encoder speed changes, against models written here from Encodings.md:
// - RLE/bit-packing hybrid: a naive spec decoder reads back what encodeRleHybrid writes (widths 0-32, runs around 8
//   and its multiples, values at the width's maximum); the bytes equal a naive per-value encoder of the documented
//   strategy (runs of 8+ equal values RLE, bit-packed groups before them padded to a multiple of 8 by borrowing from
//   the run); a value that does not fit the width is ENCODING_CORRUPT naming its index.
// - PLAIN BOOLEAN: the bytes equal a naive LSB-first bit packing, for any batch split and across pages.
// - BYTE_ARRAY dictionary (word hashing of 4-12 byte values): entries are distinct, every index gathers back its
//   input bytes, equal inputs share an index — small alphabets, zero bytes, values that are prefixes of each other,
//   values differing only in a middle or last byte, more entries than the first table holds.
import { ByteWriter, Encoding, Type } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createValueEncoder, decodeRleHybrid, DictionaryEncoder, encodeRleHybrid, type ByteArrays } from '../src/index.js';
import { byteArrays, expectCode } from './util.js';

// ---------- RLE hybrid ----------

/** ULEB128 at `p`: [value, next position]. */
function uleb(b: Uint8Array, p: number): [number, number] {
  let v = 0;
  let shift = 0;
  for (;;) {
    const x = b[p++]!;
    v += (x & 0x7f) * 2 ** shift;
    if ((x & 0x80) === 0) return [v, p];
    shift += 7;
  }
}

/** Encodings.md's grammar, value by value: bit-packed runs LSB first, RLE runs little-endian in ceil(w/8) bytes. */
function naiveDecode(b: Uint8Array, width: number, count: number): number[] {
  const out: number[] = [];
  let p = 0;
  while (out.length < count) {
    const [h, q] = uleb(b, p);
    p = q;
    if (h % 2 === 1) {
      const groups = Math.floor(h / 2);
      for (let k = 0; k < groups * 8; k++) {
        let v = 0;
        for (let bit = 0; bit < width; bit++) {
          const at = k * width + bit;
          if ((b[p + (at >> 3)]! >> (at & 7)) & 1) v += 2 ** bit;
        }
        out.push(v);
      }
      p += groups * width;
    } else {
      const run = h / 2;
      let v = 0;
      for (let k = 0; k < Math.ceil(width / 8); k++) v += b[p + k]! * 2 ** (8 * k);
      p += Math.ceil(width / 8);
      for (let k = 0; k < run; k++) out.push(v);
    }
  }
  expect(p).toBe(b.length);
  return out.slice(0, count);
}

function ulebBytes(v: number): number[] {
  const out: number[] = [];
  while (v > 0x7f) {
    out.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

/** The documented strategy, one value at a time (unsigned values as numbers). */
function naiveEncode(values: number[], width: number): number[] {
  const out: number[] = [];
  const packed = (from: number, to: number) => {
    const groups = Math.ceil((to - from) / 8);
    out.push(...ulebBytes(groups * 2 + 1));
    const bytes = new Array<number>(groups * width).fill(0);
    for (let k = 0; k < groups * 8; k++) {
      const v = from + k < to ? values[from + k]! : 0;
      for (let bit = 0; bit < width; bit++) if (Math.floor(v / 2 ** bit) % 2 === 1) bytes[(k * width + bit) >> 3]! |= 1 << ((k * width + bit) & 7);
    }
    out.push(...bytes);
  };
  let pend = 0;
  let i = 0;
  while (i < values.length) {
    let j = i + 1;
    while (j < values.length && values[j] === values[i]) j++;
    if (j - i >= 8) {
      const pad = (8 - ((i - pend) % 8)) % 8;
      const k = i + pad;
      if (j - k >= 8) {
        if (k > pend) packed(pend, k);
        out.push(...ulebBytes((j - k) * 2));
        for (let b = 0; b < Math.ceil(width / 8); b++) out.push(Math.floor(values[i]! / 2 ** (8 * b)) % 256);
        pend = j;
      }
    }
    i = j;
  }
  if (pend < values.length) packed(pend, values.length);
  return out;
}

/** Values of `width` bits in runs whose lengths cluster around 8 and its multiples. */
const rleCase = fc.integer({ min: 0, max: 32 }).chain((width) => {
  const max = width === 32 ? 0xffffffff : 2 ** width - 1;
  const value = fc.oneof(fc.constant(0), fc.constant(max), fc.integer({ min: 0, max }));
  const runLen = fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constantFrom(7, 8, 9, 15, 16, 17, 24, 63, 64, 65), fc.integer({ min: 1, max: 40 }));
  return fc.record({ width: fc.constant(width), runs: fc.array(fc.tuple(value, runLen), { minLength: 0, maxLength: 25, size: 'max' }), lead: fc.nat({ max: 9 }) });
});

describe('RLE hybrid encoder against the spec', () => {
  test('property: naive spec decoding gives the input back, our decoder too, and the bytes equal the naive strategy encoder', () => {
    fc.assert(
      fc.property(rleCase, ({ width, runs, lead }) => {
        const values = runs.flatMap(([v, n]) => new Array<number>(n).fill(v));
        // a few values before `start` that must not be read
        const arr = new Int32Array(lead + values.length).fill(-1);
        values.forEach((v, i) => (arr[lead + i] = v | 0));
        const w = new ByteWriter(16);
        encodeRleHybrid(arr, lead, values.length, width, w);
        const bytes = w.finish().slice();
        if (values.length === 0) {
          expect(bytes.length).toBe(0);
          return;
        }
        expect(naiveDecode(bytes, width, values.length)).toEqual(values);
        expect(Array.from(bytes)).toEqual(naiveEncode(values, width));
        const out = new Int32Array(values.length);
        decodeRleHybrid(bytes, 0, bytes.length, width, out, 0, values.length);
        expect(Array.from(out, (x) => x >>> 0)).toEqual(values);
      }),
      { numRuns: 1500 },
    );
  });

  test('a value outside the width is ENCODING_CORRUPT naming its index, wherever it sits in a run', () => {
    for (const width of [0, 1, 2, 3, 7, 8, 16, 31]) {
      for (const at of [0, 5, 7, 8, 15, 16, 30]) {
        const arr = new Int32Array(31).fill(width === 0 ? 0 : 1);
        arr[at] = width === 31 ? -1 : 2 ** width;
        try {
          encodeRleHybrid(arr, 0, arr.length, width, new ByteWriter(8));
          expect.unreachable(`width ${width}, bad value at ${at}: no error`);
        } catch (e) {
          expect((e as { code?: string }).code).toBe('ENCODING_CORRUPT');
          expect((e as Error).message).toContain(`at index ${at}`);
        }
        // a negative value too
        arr[at] = -1;
        if (width < 32) expectCode(() => encodeRleHybrid(arr, 0, arr.length, width, new ByteWriter(8)), 'ENCODING_CORRUPT', false);
      }
    }
  });
});

// ---------- PLAIN BOOLEAN ----------

describe('PLAIN BOOLEAN bit packing', () => {
  test('property: bytes equal naive LSB-first packing, for any batch split, page after page', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.boolean(), { maxLength: 70, size: 'max' }), { minLength: 1, maxLength: 3 }), fc.array(fc.nat({ max: 70 }), { maxLength: 5 }), (pages, cuts) => {
        const enc = createValueEncoder(Encoding.PLAIN, { type: Type.BOOLEAN });
        for (const page of pages) {
          const v = Uint8Array.from(page, (b) => (b ? 1 : 0));
          const points = [...new Set([0, ...cuts.map((c) => c % (v.length + 1)), v.length])].sort((x, y) => x - y);
          for (let k = 1; k < points.length; k++) enc.put(v, points[k - 1]!, points[k]!);
          const w = new ByteWriter(4);
          enc.flush(w);
          const expected = new Array<number>(Math.ceil(page.length / 8)).fill(0);
          page.forEach((b, i) => {
            if (b) expected[i >> 3]! |= 1 << (i & 7);
          });
          expect(Array.from(w.finish())).toEqual(expected);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

// ---------- BYTE_ARRAY dictionary ----------

function checkDictionary(items: Uint8Array[], cuts: number[], dataOffset = 0): void {
  const d = new DictionaryEncoder({ type: Type.BYTE_ARRAY });
  const packed = byteArrays(items);
  // the bytes at an odd offset of a larger buffer (words read through a view of the data, not of its buffer)
  const host = new Uint8Array(packed.data.length + dataOffset + 3).fill(0xee);
  host.set(packed.data, dataOffset);
  const values: ByteArrays = { offsets: packed.offsets, data: host.subarray(dataOffset, dataOffset + packed.data.length) };
  const n = items.length;
  const points = [...new Set([0, ...cuts.map((c) => c % (n + 1)), n])].sort((x, y) => x - y);
  const idx = new Int32Array(n);
  for (let k = 1; k < points.length; k++) d.put(values, points[k - 1]!, points[k]!, idx, points[k - 1]!);
  // the reference: a Map from the bytes' hex to the first index seen
  const key = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('') + '/' + b.length;
  const first = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const k = key(items[i]!);
    const seen = first.get(k);
    if (seen === undefined) first.set(k, idx[i]!);
    else expect(idx[i], `value ${i} (${k}) got another index than its first occurrence`).toBe(seen);
  }
  expect(d.size).toBe(first.size);
  const g = d.gather(idx, n) as ByteArrays;
  for (let i = 0; i < n; i++) expect(key(g.data.subarray(g.offsets[i]!, g.offsets[i + 1]!))).toBe(key(items[i]!));
}

describe('BYTE_ARRAY dictionary with word hashing', () => {
  test('property: small alphabets and lengths 0-16 (zero bytes, shared prefixes): equal values share an index, gathered values are the input', () => {
    const item = fc.array(fc.constantFrom(0, 1, 0x61, 0xff), { minLength: 0, maxLength: 16 }).map((a) => Uint8Array.from(a));
    fc.assert(fc.property(fc.array(item, { minLength: 1, maxLength: 300, size: 'max' }), fc.array(fc.nat({ max: 300 }), { maxLength: 4 }), fc.nat({ max: 7 }), (items, cuts, off) => checkDictionary(items, cuts, off)), { numRuns: 400 });
  });

  test('values of 4-12 bytes differing in one byte only (first, middle, last), and values that are prefixes of each other', () => {
    const items: Uint8Array[] = [];
    for (let len = 0; len <= 13; len++) {
      const base = new Uint8Array(len).fill(0x41);
      items.push(base);
      for (let at = 0; at < len; at++) {
        const v = base.slice();
        v[at] = 0x42;
        items.push(v);
        const z = base.slice();
        z[at] = 0;
        items.push(z);
      }
    }
    // all zero values of every length (words all 0 — what an entry of another length stores in the word arrays)
    for (let len = 0; len <= 13; len++) items.push(new Uint8Array(len));
    // twice, shuffled the second time
    const again = [...items].reverse();
    checkDictionary([...items, ...again], [7, 100, 333]);
  });

  test('thousands of distinct 4-12 byte values (the table grows past its first 1024 slots), then repeated', () => {
    const items: Uint8Array[] = [];
    for (let i = 0; i < 6000; i++) {
      const len = 4 + (i % 9);
      const v = new Uint8Array(len);
      // the distinguishing counter in the middle bytes only for the longer values
      new DataView(v.buffer).setUint16(len >= 10 ? 5 : len - 2, i >> 3);
      v[0] = i & 7;
      items.push(v);
    }
    checkDictionary([...items, ...items.slice(0, 3000).reverse()], [1, 1025, 4000, 7000]);
  });
});
