/**
 * Operations on row ranges (`row-ranges.ts`) that only page-index pruning and filtered batches use — intersection,
 * union, counting, a row mask, the pages holding masked rows — apart from the parts every scan runs, so that they
 * load with the pruning chunks.
 * @module
 */
import type { RowRanges } from './row-ranges.js';

/**
 * Intersection of two sets of ranges.
 * @param a - ranges.
 * @param b - ranges.
 * @returns rows in both.
 */
export function intersectRanges(a: RowRanges, b: RowRanges): RowRanges {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const s = Math.max(a[i]!, b[j]!);
    const e = Math.min(a[i + 1]!, b[j + 1]!);
    if (s < e) out.push(s, e);
    if (a[i + 1]! < b[j + 1]!) i += 2;
    else j += 2;
  }
  return out;
}

/**
 * Union of two sets of ranges.
 * @param a - ranges.
 * @param b - ranges.
 * @returns rows in either.
 */
export function unionRanges(a: RowRanges, b: RowRanges): RowRanges {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let s: number;
    let e: number;
    if (j >= b.length || (i < a.length && a[i]! <= b[j]!)) {
      s = a[i]!;
      e = a[i + 1]!;
      i += 2;
    } else {
      s = b[j]!;
      e = b[j + 1]!;
      j += 2;
    }
    const n = out.length;
    if (n > 0 && s <= out[n - 1]!) out[n - 1] = Math.max(out[n - 1]!, e);
    else out.push(s, e);
  }
  return out;
}

/**
 * Number of rows in a set of ranges.
 * @param r - the ranges.
 * @returns the row count.
 */
export function countRows(r: RowRanges): number {
  let n = 0;
  for (let i = 0; i < r.length; i += 2) n += r[i + 1]! - r[i]!;
  return n;
}

/**
 * One byte per row of a row group, 1 for the rows in `r`.
 * @param r - the ranges.
 * @param n - rows in the row group.
 * @returns the row mask.
 */
export function rangesMask(r: RowRanges, n: number): Uint8Array {
  const m = new Uint8Array(n);
  for (let i = 0; i < r.length; i += 2) m.fill(1, Math.min(r[i]!, n), Math.min(r[i + 1]!, n));
  return m;
}

/**
 * The pages (by ordinal) holding at least one row of a row mask. Page `i` holds rows `[firstRows[i],
 * firstRows[i + 1])`, the last page up to `numRows`.
 * @param firstRows - each page's first row, ascending from 0.
 * @param numRows - rows in the row group.
 * @param mask - one byte per row.
 * @returns the ordinals of the pages to read, ascending.
 */
export function pagesHolding(firstRows: readonly number[], numRows: number, mask: Uint8Array): number[] {
  const out: number[] = [];
  for (let p = 0; p < firstRows.length; p++) {
    const end = p + 1 < firstRows.length ? firstRows[p + 1]! : numRows;
    for (let r = firstRows[p]!; r < end; r++) {
      if (mask[r] === 1) {
        out.push(p);
        break;
      }
    }
  }
  return out;
}

/**
 * The part of a row mask that falls in the given pages, in row order: the mask of the rows those pages decode to.
 * @param firstRows - each page's first row.
 * @param numRows - rows in the row group.
 * @param pages - the pages decoded, ascending.
 * @param mask - one byte per row of the row group.
 * @returns one byte per decoded row.
 */
export function maskOfPages(firstRows: readonly number[], numRows: number, pages: readonly number[], mask: Uint8Array): Uint8Array {
  let n = 0;
  for (const p of pages) n += (p + 1 < firstRows.length ? firstRows[p + 1]! : numRows) - firstRows[p]!;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of pages) {
    const s = firstRows[p]!;
    const e = p + 1 < firstRows.length ? firstRows[p + 1]! : numRows;
    out.set(mask.subarray(s, e), at);
    at += e - s;
  }
  return out;
}
