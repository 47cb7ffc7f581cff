/**
 * Filters over a dataset: the reader's {@link Filter} expressions, evaluated in part before a file is read. A
 * comparison on a partition column, or on a column the file does not have (null there), has one value for the
 * whole file: it is decided up front and the rest of the filter (the residual) goes to the reader, whose pruning
 * pipeline then works on it as on any filter. The semantics are the reader's (`matchRow`): a comparison with null
 * is false, `not` negates.
 * @module
 */
import type { Filter } from '@parquetry/parquet-reader';
import { matchRow } from '@parquetry/parquet-reader/filters';

/** A filter decided for a whole file (`true`: every row matches, `false`: none) or the part left to decide per row. */
export type Residual = boolean | Filter;

/**
 * Evaluates what a filter says given the values some columns have for a whole file.
 * @param f - the filter.
 * @param known - the file-wide value of a column's top-level field (`{ value }`), or undefined when it varies by row.
 * @returns `true` / `false` when decided, else the residual filter over the other columns.
 */
export function partialFilter(f: Filter, known: (top: string) => { value: unknown } | undefined): Residual {
  if ('and' in f) {
    const rest: Filter[] = [];
    for (const g of f.and) {
      const r = partialFilter(g, known);
      if (r === false) return false;
      if (r !== true) rest.push(r);
    }
    return rest.length === 0 ? true : rest.length === 1 ? rest[0]! : { and: rest };
  }
  if ('or' in f) {
    const rest: Filter[] = [];
    for (const g of f.or) {
      const r = partialFilter(g, known);
      if (r === true) return true;
      if (r !== false) rest.push(r);
    }
    return rest.length === 0 ? false : rest.length === 1 ? rest[0]! : { or: rest };
  }
  if ('not' in f) {
    const r = partialFilter(f.not, known);
    return typeof r === 'boolean' ? !r : { not: r };
  }
  const top = topOf(f.column);
  const k = known(top);
  if (k === undefined) return f;
  return matchRow(f, { [top]: k.value });
}

/**
 * The top-level field of a dotted column path.
 * @param column - the path.
 * @returns its first segment.
 */
export function topOf(column: string): string {
  const dot = column.indexOf('.');
  return dot < 0 ? column : column.slice(0, dot);
}
