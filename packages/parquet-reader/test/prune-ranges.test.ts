/**
 * Row ranges against a bitmap model (one byte per row, computed in the test): intersection, union, counts, masks,
 * the pages holding masked rows and the mask of decoded pages; and hand-computed cases.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { allRows, type RowRanges } from '../src/row-ranges.js';
import { countRows, intersectRanges, maskOfPages, pagesHolding, rangesMask, unionRanges } from '../src/row-range-ops.js';

const N = 60;
/** Sorted, disjoint, non-adjacent ranges from a random bitmap. */
const rangesArb = fc.array(fc.boolean(), { minLength: N, maxLength: N }).map((bits) => {
  const out: number[] = [];
  for (let r = 0; r < N; r++) {
    if (!bits[r]) continue;
    if (out.length > 0 && out[out.length - 1] === r) out[out.length - 1] = r + 1;
    else out.push(r, r + 1);
  }
  return out as RowRanges;
});
const bitmap = (r: RowRanges) => Array.from({ length: N }, (_, i) => r.some((_, k) => k % 2 === 0 && i >= r[k]! && i < r[k + 1]!));

describe('row ranges', () => {
  test('by hand', () => {
    expect(intersectRanges([0, 10, 20, 30], [5, 25])).toEqual([5, 10, 20, 25]);
    expect(unionRanges([0, 10, 20, 30], [10, 12, 29, 40])).toEqual([0, 12, 20, 40]);
    expect(countRows([0, 10, 20, 30])).toBe(20);
    expect(allRows(0)).toEqual([]);
    // pages of 10 rows; rows 15 and 41 kept: pages 1 and 4
    const firstRows = [0, 10, 20, 30, 40];
    const mask = rangesMask([15, 16, 41, 42], 45);
    expect(pagesHolding(firstRows, 45, mask)).toEqual([1, 4]);
    expect(Array.from(maskOfPages(firstRows, 45, [1, 4], mask))).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0]);
  });

  test('intersection, union and counts agree with bitmaps; results stay sorted, disjoint and non-adjacent', () => {
    fc.assert(
      fc.property(rangesArb, rangesArb, (a, b) => {
        const ba = bitmap(a);
        const bb = bitmap(b);
        const i = intersectRanges(a, b);
        const u = unionRanges(a, b);
        expect(bitmap(i)).toEqual(ba.map((x, k) => x && bb[k]));
        expect(bitmap(u)).toEqual(ba.map((x, k) => x || bb[k]));
        for (const r of [i, u]) for (let k = 2; k < r.length; k += 2) expect(r[k]!).toBeGreaterThan(r[k - 1]!);
        expect(countRows(u)).toBe(ba.filter((x, k) => x || bb[k]).length);
        expect(Array.from(rangesMask(a, N))).toEqual(ba.map(Number));
      }),
    );
  });

  test('pages holding masked rows, and the mask of the rows those pages decode to', () => {
    fc.assert(
      fc.property(rangesArb, fc.uniqueArray(fc.integer({ min: 1, max: N - 1 }), { maxLength: 12 }), (r, cuts) => {
        const firstRows = [0, ...cuts.sort((x, y) => x - y)];
        const mask = rangesMask(r, N);
        const pages = pagesHolding(firstRows, N, mask);
        const end = (p: number) => (p + 1 < firstRows.length ? firstRows[p + 1]! : N);
        for (let p = 0; p < firstRows.length; p++) {
          const holds = Array.from(mask.subarray(firstRows[p]!, end(p))).some((x) => x === 1);
          expect(pages.includes(p)).toBe(holds);
        }
        const decoded: number[] = [];
        for (const p of pages) for (let row = firstRows[p]!; row < end(p); row++) decoded.push(mask[row]!);
        expect(Array.from(maskOfPages(firstRows, N, pages, mask))).toEqual(decoded);
      }),
    );
  });
});
