/**
 * Row ranges within a row group: the rows a filter may match according to the page index, combined across the
 * filter's columns (intersection for AND, union for OR), and the pages of a column that hold some of them.
 * Spec: https://github.com/apache/parquet-format/blob/master/PageIndex.md (pages are located by
 * `PageLocation.first_row_index`, in top-level rows). The set operations and the pages holding masked rows, which
 * only page-index pruning uses, are in `row-range-ops.ts` (a lazy chunk with it).
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
