/**
 * Every unpack kernel (UNPACK as loaded: unrolled for 0–8, the shared loop for the others; UNPACK once the kernels of
 * bit-pack-mid-kernels.ts are installed; UNPACK_UNROLLED, those with the kernels of bit-pack-wide-kernels.ts, which
 * DELTA_BINARY_PACKED's bit-util.ts uses) against a bit-by-bit reading of the LSB-first packing
 * (Encodings.md, RLE / bit-packing hybrid): random bytes, group counts and offsets in src and out, src ending exactly
 * at the last group (the shared loop reads whole 32-bit words), and nothing written outside the groups' values.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { UNPACK, installUnpack } from '../src/bit-pack-kernels.js';
import { UNPACK_MID } from '../src/bit-pack-mid-kernels.js';
import { UNPACK_WIDE } from '../src/bit-pack-wide-kernels.js';

// the table as a reader's initial load has it, then with the unrolled kernels of widths 9–17, 24 and 32 put in
const UNPACK_LOADED = [...UNPACK];
installUnpack(UNPACK_MID);
const UNPACK_INSTALLED = [...UNPACK];
const UNPACK_UNROLLED = UNPACK_INSTALLED.map((k, w) => UNPACK_WIDE[w] ?? k);

function reference(src: Uint8Array, p: number, w: number, n: number): number[] {
  const vals: number[] = [];
  for (let i = 0; i < n; i++) {
    let v = 0;
    for (let b = 0; b < w; b++) {
      const bit = i * w + b;
      if ((src[p + (bit >> 3)]! >> (bit & 7)) & 1) v += 2 ** b;
    }
    vals.push(v | 0);
  }
  return vals;
}

const TABLES = { UNPACK_LOADED, UNPACK_INSTALLED, UNPACK_UNROLLED };

test('installUnpack puts in the unrolled kernels of widths 9–17, 24 and 32, and only those', () => {
  const mid = [9, 10, 11, 12, 13, 14, 15, 16, 17, 24, 32];
  for (let w = 0; w <= 32; w++) {
    if (mid.includes(w)) {
      expect(UNPACK_INSTALLED[w], `width ${w}`).toBe(UNPACK_MID[w]);
      expect(UNPACK_LOADED[w], `width ${w}`).not.toBe(UNPACK_MID[w]);
      expect(UNPACK_WIDE[w], `width ${w}`).toBeUndefined();
    } else {
      expect(UNPACK_MID[w], `width ${w}`).toBeUndefined();
      expect(UNPACK_INSTALLED[w], `width ${w}`).toBe(UNPACK_LOADED[w]);
      // every width is unrolled in one of the three modules
      expect(w <= 8 || UNPACK_WIDE[w] !== undefined, `width ${w}`).toBe(true);
    }
  }
});

describe.each(['UNPACK_LOADED', 'UNPACK_INSTALLED', 'UNPACK_UNROLLED'] as const)('%s', (table) => {
  const kernels = TABLES[table];
  test('one kernel per width 0-32', () => {
    expect(kernels.length).toBe(33);
  });

  test.each(Array.from({ length: 33 }, (_, w) => w))('width %i: random groups and offsets', (w) => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (p, groups, o, s) => {
        let x = s;
        const src = Uint8Array.from({ length: p + groups * w }, () => ((x = (x * 1103515245 + 12345) >>> 0) >>> 24));
        const out = new Int32Array(o + groups * 8 + 3).fill(-7);
        kernels[w]!(src, p, out, o, groups);
        expect([...out.subarray(o, o + groups * 8)]).toEqual(reference(src, p, w, groups * 8));
        expect([...out.subarray(0, o), ...out.subarray(o + groups * 8)].every((v) => v === -7)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  test('all-ones groups give the width maximum (the shared loop masks across its 32-bit words)', () => {
    for (let w = 1; w <= 32; w++) {
      const out = new Int32Array(16);
      kernels[w]!(new Uint8Array(2 * w).fill(0xff), 0, out, 0, 2);
      expect([...out].every((v) => v >>> 0 === 2 ** w - 1), `width ${w}`).toBe(true);
    }
  });
});
