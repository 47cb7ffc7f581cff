/**
 * Filters over a dataset: the reader's {@link Filter} expressions, evaluated in part before a file is read. A
 * comparison on a partition column, or on a column the file does not have (null there), has one value for the
 * whole file: it is decided up front and the rest of the filter (the residual) goes to the reader, whose pruning
 * pipeline then works on it as on any filter. The semantics are the reader's (`matchRow`, SQL's three-valued
 * logic): a comparison with null is unknown, and so is its `not`; a row matches where the filter is true.
 * @module
 */
import type { Filter, FilterColumn } from '@parquetry/parquet-reader';
import { matchRow } from '@parquetry/parquet-reader/filters';

/** A filter decided for a whole file (`true`: every row matches, `false`: none) or the part left to decide per row. */
export type Residual = boolean | Filter;

/**
 * Evaluates what a filter says given the values some columns have for a whole file.
 * @param f - the filter.
 * @param known - the file-wide value of a column's top-level field (`{ value }`), or undefined when it varies by row.
 * @param negated - decide where `f` is false instead of where it is true (under a `not`: with SQL's three-valued
 *   logic a comparison with null is neither, so "not true" and "false" differ).
 * @returns `true` / `false` when decided, else the residual filter over the other columns: a row matches it exactly
 *   where `f` is true (`negated`: false).
 */
export function partialFilter(f: Filter, known: (top: string) => { value: unknown } | undefined, negated = false): Residual {
  if ('and' in f || 'or' in f) {
    // true where every part holds (and, or a negated or) or where one does (or, or a negated and)
    const every = 'and' in f !== negated;
    const rest: Filter[] = [];
    for (const g of 'and' in f ? f.and : f.or) {
      const r = partialFilter(g, known, negated);
      if (typeof r !== 'boolean') rest.push(r);
      else if (r !== every) return r;
    }
    return rest.length === 0 ? every : rest.length === 1 ? rest[0]! : every ? { and: rest } : { or: rest };
  }
  if ('not' in f) return partialFilter(f.not, known, !negated);
  const top = topOf(f.column);
  const k = known(top);
  // the reader's `not` holds where its operand is false
  if (k === undefined) return negated ? { not: f } : f;
  return matchRow(negated ? { not: f } : f, { [top]: k.value });
}

/**
 * The top-level field of a filter's column: the first name of a path array, the first segment of a dotted path.
 * @param column - the column (a dotted path, or a path array: `['a.b']` is the top-level field `a.b`).
 * @returns its top-level field's name.
 */
export function topOf(column: FilterColumn): string {
  if (typeof column !== 'string') return column[0] ?? '';
  const dot = column.indexOf('.');
  return dot < 0 ? column : column.slice(0, dot);
}
