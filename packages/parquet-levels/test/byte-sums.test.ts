// presentBits and countPresent (columnar assembly's byte counts, 4 bytes per aligned word): against plain loops, at
// every alignment of the array and every length, for bytes of 0 and 1 and for any byte.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { countPresent, presentBits } from '../src/columnar.js';

const plainSum = (b: Uint8Array, n: number): number => {
  let s = 0;
  for (let i = 0; i < n; i++) s += b[i]!;
  return s;
};

describe('byte sums of columnar assembly', () => {
  test('presentBits: the count of 1s when every byte is 0 or 1, else -1; countPresent: the byte sum', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 0, max: 1 }) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 255 }) }), { maxLength: 80 }),
        fc.integer({ min: 0, max: 7 }),
        fc.nat(),
        (bytes, shift, cut) => {
          const buf = new Uint8Array(bytes.length + shift + 6).fill(0xff);
          const b = buf.subarray(shift, shift + bytes.length);
          b.set(bytes);
          const n = bytes.length === 0 ? 0 : cut % (bytes.length + 1);
          const head = bytes.slice(0, n);
          expect(presentBits(b, n)).toBe(head.every((x) => x <= 1) ? plainSum(b, n) : -1);
          expect(countPresent(b, n)).toBe(plainSum(b, n));
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('long arrays of 0s and 1s, and one stray byte anywhere', () => {
    const b = new Uint8Array(1 << 12);
    for (let i = 0; i < b.length; i++) b[i] = (i * 7) % 3 === 0 ? 1 : 0;
    const ones = plainSum(b, b.length);
    expect(presentBits(b, b.length)).toBe(ones);
    expect(presentBits(b.subarray(1), b.length - 1)).toBe(plainSum(b.subarray(1), b.length - 1));
    for (const at of [0, 1, 2, 3, 4, 1000, 4093, 4095]) {
      for (const v of [2, 3, 0x80, 0xff]) {
        const c = b.slice();
        c[at] = v;
        expect(presentBits(c, c.length)).toBe(-1);
        expect(countPresent(c, c.length)).toBe(ones - b[at]! + v);
      }
    }
  });
});
