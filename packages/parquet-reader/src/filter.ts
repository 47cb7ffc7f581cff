/**
 * Row filters: comparisons, IN, IS [NOT] NULL, AND/OR/NOT on leaf columns. A filter first skips row groups whose
 * statistics prove that no row can match (the {@link RowGroupPruner} list is where page-index, bloom-filter and
 * dictionary pruning plug in), then is evaluated exactly on each row read.
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';
import { compareDecimals, compareValues } from '@parquetry/parquet-column/filter-values';
import type { ColumnStatistics } from '@parquetry/parquet-column/read';
import { leafKey } from './scan.js';

export { leafKey };

/** A comparison operator. */
export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=';

/**
 * A filter's leaf column: a dotted path (`'a.b'`: field `b` of struct `a`, or a top-level field named `a.b` when the
 * schema has one and no struct path `a.b`), or a path array naming the field at each level (`['a.b']`: the top-level
 * field `a.b`; `['a', 'b']`: field `b` of struct `a`). A dotted path that could mean two columns (a field `a.b` beside
 * field `b` of a struct `a`) is `AMBIGUOUS_COLUMN`; the path array says which.
 */
export type FilterColumn = string | readonly string[];

/** A filter expression over leaf columns (a column inside a list cannot be filtered). */
export type Filter =
  | { /** Leaf column: a dotted path or a path array ({@link FilterColumn}). */ column: FilterColumn; /** Operator. */ op: CompareOp; /** Value, in the column's JS type. */ value: unknown }
  | { /** Leaf column: a dotted path or a path array ({@link FilterColumn}). */ column: FilterColumn; /** Membership. */ op: 'in'; /** Candidate values. */ values: readonly unknown[] }
  | { /** Leaf column: a dotted path or a path array ({@link FilterColumn}). */ column: FilterColumn; /** Null test. */ op: 'is null' | 'is not null' }
  | { /** All must hold. */ and: readonly Filter[] }
  | { /** Any must hold. */ or: readonly Filter[] }
  | { /** Must not hold. */ not: Filter };

/** What a pruner knows: the statistics of a column in one row group, by the column as the filter names it. */
export type StatisticsLookup = (column: FilterColumn) => ColumnStatistics | undefined;

/** Answers "can any row of this row group match?"; false prunes the row group. */
export type RowGroupPruner = (filter: Filter, stats: StatisticsLookup, decimals?: ReadonlySet<string>) => boolean;

/** Every leaf column a filter mentions, as it names them (a path array once per array object). */
export function filterColumns(f: Filter, out: Set<FilterColumn> = new Set()): Set<FilterColumn> {
  if ('and' in f) f.and.forEach((g) => filterColumns(g, out));
  else if ('or' in f) f.or.forEach((g) => filterColumns(g, out));
  else if ('not' in f) filterColumns(f.not, out);
  else out.add(f.column);
  return out;
}

/**
 * The key of a filter's column in a `decimals` set (and in the maps a read keeps of its filter columns): a dotted path
 * as it is; a path array by its names joined with dots, or as its JSON text when a name has a dot (`'["a.b"]'`, so
 * that it is not the key of field `b` of a struct `a`).
 * @param column - the column as the filter names it.
 * @returns its key.
 */
export function columnKey(column: FilterColumn): string {
  return typeof column === 'string' ? column : leafKey(column);
}

/** Compares with decimal semantics for the columns in `decimals`, else {@link compareValues}. */
function cmp(column: FilterColumn, decimals: ReadonlySet<string> | undefined, a: unknown, b: unknown): number {
  return decimals?.has(columnKey(column)) ? compareDecimals(a, b) : compareValues(a, b);
}

/**
 * The built-in pruner: min/max bounds and null counts. `decimals` holds the DECIMAL columns compared as decimals, by
 * dotted path (a path array whose names have dots: by its JSON text).
 */
export const statisticsPruner: RowGroupPruner = (filter, stats, decimals) => mayMatch(filter, stats, decimals);

function mayMatch(f: Filter, stats: StatisticsLookup, decimals: ReadonlySet<string> | undefined): boolean {
  if ('and' in f) return f.and.every((g) => mayMatch(g, stats, decimals));
  if ('or' in f) return f.or.some((g) => mayMatch(g, stats, decimals));
  if ('not' in f) return true; // bounds cannot refute a negation in general
  const s = stats(f.column);
  if (!s) return true;
  const allNull = s.nullCount !== undefined && s.nullCount === s.numValues;
  if (f.op === 'is null') return s.nullCount === undefined || s.nullCount > 0;
  if (f.op === 'is not null') return !allNull;
  if (allNull) return false; // comparisons never match null
  const { min, max } = s;
  const compareValues = (a: unknown, b: unknown) => cmp(f.column, decimals, a, b);
  const lo = (v: unknown) => (min === undefined ? true : compareValues(v, min) >= 0 || Number.isNaN(compareValues(v, min)));
  const hi = (v: unknown) => (max === undefined ? true : compareValues(v, max) <= 0 || Number.isNaN(compareValues(v, max)));
  switch (f.op) {
    case '=':
      return lo(f.value) && hi(f.value);
    case 'in':
      return f.values.some((v) => lo(v) && hi(v));
    case '<':
      return min === undefined || !(compareValues(min, f.value) >= 0);
    case '<=':
      return min === undefined || !(compareValues(min, f.value) > 0);
    case '>':
      return max === undefined || !(compareValues(max, f.value) <= 0);
    case '>=':
      return max === undefined || !(compareValues(max, f.value) < 0);
    case '!=':
      // NaN != v holds, and bounds leave NaN out: only a chunk known to hold no NaN (nanCount 0) can be refuted
      return !(s.minExact && s.maxExact && compareValues(min, f.value) === 0 && compareValues(max, f.value) === 0 && s.nullCount === 0 && s.nanCount === 0);
  }
}

function getPath(row: Record<string, unknown>, path: readonly string[]): unknown {
  let v: unknown = row;
  for (const p of path) {
    if (v === null || v === undefined) return null;
    if (Array.isArray(v)) throw new ParquetError('FILTER_UNSUPPORTED', `parquet-reader: cannot filter on '${columnKey(path)}': it is inside a list`);
    v = Object.hasOwn(v, p) ? (v as Record<string, unknown>)[p] : undefined;
  }
  return v === undefined ? null : v;
}

/**
 * Evaluates a filter on one row (SQL semantics: a comparison with null is unknown, and so is its `not`; a row
 * matches when the filter is true).
 * @param f - the filter: a dotted column path is a path of nested objects (split at every dot), a path array names
 *   the property at each level (`['a.b']`: the row's property `a.b`).
 * @param row - the row object.
 * @param decimals - DECIMAL columns (compared exactly as decimals), by dotted path (a path array whose names have
 *   dots: by its JSON text).
 * @returns whether the row matches.
 */
export function matchRow(f: Filter, row: Record<string, unknown>, decimals?: ReadonlySet<string>): boolean {
  return matchWith(f, (column) => (typeof column !== 'string' ? getPath(row, column) : column.includes('.') ? getPath(row, column.split('.')) : (Object.hasOwn(row, column) ? row[column] : null) ?? null), decimals);
}

/**
 * Evaluates a filter on one row given as a lookup of its leaf column values (SQL semantics: a comparison with null
 * is unknown, `not` of unknown is unknown, `and`/`or` follow three-valued logic; a row matches when the filter is
 * true, so `not (a = 1)` does not match a row where `a` is null, as `a != 1` does not).
 * @param f - the filter.
 * @param get - the row's value of a leaf column (as the filter names it); `null` for a null value.
 * @param decimals - keys of DECIMAL columns ({@link columnKey}; compared exactly as decimals).
 * @returns whether the row matches.
 */
export function matchWith(f: Filter, get: (column: FilterColumn) => unknown, decimals?: ReadonlySet<string>): boolean {
  return truth(f, get, decimals) === TRUE;
}

/** Three-valued logic as numbers: `and` is the minimum, `or` the maximum, `not` is `TRUE - x`. */
export const FALSE = 0;
/** Unknown: a comparison with null. */
export const UNKNOWN = 1;
/** True. */
export const TRUE = 2;

/**
 * The SQL truth value of a filter on one row.
 * @param f - the filter.
 * @param get - the row's value of a leaf column; `null` for a null value.
 * @param decimals - paths of DECIMAL columns.
 * @returns {@link FALSE}, {@link UNKNOWN} or {@link TRUE}.
 */
export function truth(f: Filter, get: (column: FilterColumn) => unknown, decimals?: ReadonlySet<string>): number {
  if ('and' in f) {
    let t = TRUE;
    for (const g of f.and) if ((t = Math.min(t, truth(g, get, decimals))) === FALSE) break;
    return t;
  }
  if ('or' in f) {
    let t = FALSE;
    for (const g of f.or) if ((t = Math.max(t, truth(g, get, decimals))) === TRUE) break;
    return t;
  }
  if ('not' in f) return TRUE - truth(f.not, get, decimals);
  const v = get(f.column) ?? null;
  if (f.op === 'is null') return v === null ? TRUE : FALSE;
  if (f.op === 'is not null') return v !== null ? TRUE : FALSE;
  if (v === null) return UNKNOWN;
  if (f.op === 'in') return member(f, v, decimals);
  return satisfies(f.op, cmp(f.column, decimals, v, (f as { value: unknown }).value)) ? TRUE : FALSE;
}

/** An `in` filter. */
type InFilter = Extract<Filter, { op: 'in' }>;

/**
 * The key under which a value is found in an `in` list's set, equal for two values exactly when `compareValues` finds
 * them equal: a number or bigint by its numeric value (a safe integer or a fraction as a number, a larger integer as
 * a bigint: `5n` and `5`, `-0` and `0` meet), a string or boolean as itself; undefined for NaN (equal to nothing)
 * and for values compared otherwise (byte arrays, dates), which stay in a list.
 */
function memberKey(v: unknown): unknown {
  switch (typeof v) {
    case 'number':
      return v !== v ? undefined : Number.isInteger(v) && !Number.isSafeInteger(v) ? BigInt(v) : v;
    case 'bigint':
      return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
    case 'string':
    case 'boolean':
      return v;
    default:
      return undefined;
  }
}

/** Per `in` filter: its values by {@link memberKey}, and those without a key. */
const memberSets = new WeakMap<InFilter, { keys: Set<unknown>; rest: unknown[] }>();

/**
 * The truth value of `v in f.values` for a non-null `v`: one set lookup (a list of thousands of values costs no more
 * per row than one), the values without a key compared one by one; DECIMAL columns compare every value as a decimal.
 * @param f - the `in` filter.
 * @param v - the row's value (not null).
 * @param decimals - keys of DECIMAL columns.
 * @returns {@link TRUE} or {@link FALSE}.
 */
export function member(f: InFilter, v: unknown, decimals: ReadonlySet<string> | undefined): number {
  if (decimals !== undefined && decimals.size > 0 && decimals.has(columnKey(f.column))) {
    for (const x of f.values) if (compareDecimals(v, x) === 0) return TRUE;
    return FALSE;
  }
  let m = memberSets.get(f);
  if (m === undefined) {
    m = { keys: new Set(), rest: [] };
    for (const x of f.values) {
      const k = memberKey(x);
      if (k !== undefined) m.keys.add(k);
      else if (!(typeof x === 'number')) m.rest.push(x); // NaN equals nothing
    }
    memberSets.set(f, m);
  }
  const k = memberKey(v);
  if (k !== undefined) return m.keys.has(k) ? TRUE : FALSE;
  for (const x of m.rest) if (compareValues(v, x) === 0) return TRUE;
  return FALSE;
}

/**
 * Whether a comparison result satisfies an operator: `c` is negative, zero or positive as the value is below, equal
 * to or above the bound, NaN when they cannot be ordered (then only `!=` holds).
 * @param op - the operator.
 * @param c - the comparison result.
 */
export function satisfies(op: CompareOp, c: number): boolean {
  if (c !== c) return op === '!=';
  switch (op) {
    case '=':
      return c === 0;
    case '!=':
      return c !== 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
  }
}
