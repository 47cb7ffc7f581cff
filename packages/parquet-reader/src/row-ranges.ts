/**
 * Row ranges within a row group: the rows a filter may match according to the page index, combined across the
 * filter's columns (intersection for AND, union for OR), and the pages of a column that hold some of them.
 * Spec: https://github.com/apache/parquet-format/blob/master/PageIndex.md (pages are located by
 * `PageLocation.first_row_index`, in top-level rows). The set operations, which only page-index pruning uses, are in
 * `row-range-ops.ts` (a lazy chunk with it).
 * @module
 */

/**
 * Sorted, disjoint, non-adjacent half-open ranges `[start, end)` of rows, flattened: `[s0, e0, s1, e1, …]`.
 */
export type RowRanges = readonly number[];

/**
 * The ranges `[0, n)` (empty when `n` is 0).
 * @param n - the number of rows.
 * @returns the ranges.
 */
export function allRows(n: number): RowRanges {
  return n > 0 ? [0, n] : [];
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
