// countEqual (the chunk decoder's count of levels equal to a max, 4 levels a word): against a plain loop, for byte
// levels at every alignment of the array and of the range, every max 0..255, and levels drawn near the max.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { countEqual } from '../src/chunk-decoder.js';

describe('countEqual', () => {
  test('the plain count, at any alignment, range and max', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 255 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 90 }),
        fc.integer({ min: 0, max: 7 }),
        fc.nat(),
        fc.nat(),
        (max, picks, shift, a, b) => {
          // levels of max, max ± 1, max ^ 0x80 (a byte differing only in its top bit), and 0 or 255
          const pool = [max, (max + 1) & 0xff, (max + 255) & 0xff, max ^ 0x80];
          const buf = new Uint8Array(picks.length + shift + 5).fill(max);
          const levels = buf.subarray(shift, shift + picks.length);
          picks.forEach((p, i) => (levels[i] = pool[p]!));
          const from = picks.length === 0 ? 0 : a % (picks.length + 1);
          const to = from + (picks.length === 0 ? 0 : b % (picks.length - from + 1));
          let want = 0;
          for (let i = from; i < to; i++) if (levels[i] === max) want++;
          expect(countEqual(levels, from, to, max)).toBe(want);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('long runs of every byte value', () => {
    const levels = new Uint8Array(4099);
    for (let i = 0; i < levels.length; i++) levels[i] = (i * 37) & 0xff;
    for (let max = 0; max < 256; max++) {
      for (const [from, to] of [[0, 4099], [1, 4098], [3, 4096], [5, 9]] as const) {
        let want = 0;
        for (let i = from; i < to; i++) if (levels[i] === max) want++;
        expect(countEqual(levels, from, to, max)).toBe(want);
      }
    }
  });
});
