/**
 * Row filters: comparisons, IN, IS [NOT] NULL, AND/OR/NOT on leaf columns. A filter first skips row groups whose
 * statistics prove that no row can match (the {@link RowGroupPruner} list is where page-index, bloom-filter and
 * dictionary pruning plug in), then is evaluated exactly on each row read.
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';
import type { ColumnStatistics } from './statistics.js';

/** A comparison operator. */
export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=';

/** A filter expression over leaf columns (dotted paths; a column inside a list cannot be filtered). */
export type Filter =
  | { /** Leaf column path. */ column: string; /** Operator. */ op: CompareOp; /** Value, in the column's JS type. */ value: unknown }
  | { /** Leaf column path. */ column: string; /** Membership. */ op: 'in'; /** Candidate values. */ values: readonly unknown[] }
  | { /** Leaf column path. */ column: string; /** Null test. */ op: 'is null' | 'is not null' }
  | { /** All must hold. */ and: readonly Filter[] }
  | { /** Any must hold. */ or: readonly Filter[] }
  | { /** Must not hold. */ not: Filter };

/** What a pruner knows: the statistics of a column in one row group, by column path. */
export type StatisticsLookup = (column: string) => ColumnStatistics | undefined;

/** Answers "can any row of this row group match?"; false prunes the row group. */
export type RowGroupPruner = (filter: Filter, stats: StatisticsLookup, decimals?: ReadonlySet<string>) => boolean;

/** Every leaf column path a filter mentions. */
export function filterColumns(f: Filter, out: Set<string> = new Set()): Set<string> {
  if ('and' in f) f.and.forEach((g) => filterColumns(g, out));
  else if ('or' in f) f.or.forEach((g) => filterColumns(g, out));
  else if ('not' in f) filterColumns(f.not, out);
  else out.add(f.column);
  return out;
}

/**
 * Orders two values of one column (numbers, bigints, strings, booleans, byte arrays).
 * @returns negative, zero or positive; NaN when they cannot be ordered.
 */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
      if (typeof a === 'number' && !Number.isInteger(a)) return a - Number(b);
      if (typeof b === 'number' && !Number.isInteger(b)) return Number(a) - b;
      const x = BigInt(a);
      const y = BigInt(b);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    return NaN;
  }
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : a === b ? 0 : NaN;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  }
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  return NaN;
}

const DECIMAL_RE = /^([+-]?)(\d*)(?:\.(\d*))?$/;

function parseDecimal(v: unknown): { neg: boolean; int: string; frac: string } | undefined {
  const text = typeof v === 'string' ? v : typeof v === 'bigint' ? v.toString() : typeof v === 'number' && Number.isFinite(v) ? decimalText(v) : undefined;
  const m = text === undefined ? null : DECIMAL_RE.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  return { neg: m[1] === '-', int: m[2]!.replace(/^0+/, ''), frac: (m[3] ?? '').replace(/0+$/, '') };
}

function decimalText(n: number): string {
  const s = String(n);
  if (!/e/i.test(s)) return s;
  // exponent form: write all digits out (exact for the double's shortest representation)
  const [mant, expS] = s.toLowerCase().split('e') as [string, string];
  const exp = Number(expS);
  const neg = mant.startsWith('-');
  const [i, f = ''] = mant.replace('-', '').split('.') as [string, string?];
  const digits = i + f;
  const point = i.length + exp;
  const body = point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : point >= digits.length ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (neg ? '-' : '') + body;
}

/**
 * Compares two exact decimal values given as decimal strings, bigints or numbers (a number stands for its
 * shortest decimal representation).
 * @returns negative, zero or positive; NaN when either is not a decimal.
 */
export function compareDecimals(a: unknown, b: unknown): number {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (!x || !y) return NaN;
  const xz = x.int === '' && x.frac === '';
  const yz = y.int === '' && y.frac === '';
  const sx = xz ? 0 : x.neg ? -1 : 1;
  const sy = yz ? 0 : y.neg ? -1 : 1;
  if (sx !== sy) return sx - sy;
  if (sx === 0) return 0;
  let mag = x.int.length - y.int.length;
  if (mag === 0) mag = x.int < y.int ? -1 : x.int > y.int ? 1 : 0;
  if (mag === 0) {
    const n = Math.max(x.frac.length, y.frac.length);
    const fx = x.frac.padEnd(n, '0');
    const fy = y.frac.padEnd(n, '0');
    mag = fx < fy ? -1 : fx > fy ? 1 : 0;
  }
  return sx * Math.sign(mag);
}

/** Compares with decimal semantics for the columns in `decimals`, else {@link compareValues}. */
function cmp(column: string, decimals: ReadonlySet<string> | undefined, a: unknown, b: unknown): number {
  return decimals?.has(column) ? compareDecimals(a, b) : compareValues(a, b);
}

/** The built-in pruner: min/max bounds and null counts. */
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
      return !(s.minExact && s.maxExact && compareValues(min, f.value) === 0 && compareValues(max, f.value) === 0 && s.nullCount === 0);
  }
}

function getPath(row: Record<string, unknown>, path: readonly string[]): unknown {
  let v: unknown = row;
  for (const p of path) {
    if (v === null || v === undefined) return null;
    if (Array.isArray(v)) throw new ParquetError('FILTER_UNSUPPORTED', `parquet-reader: cannot filter on '${path.join('.')}': it is inside a list`);
    v = (v as Record<string, unknown>)[p];
  }
  return v === undefined ? null : v;
}

/**
 * Evaluates a filter on one row (SQL semantics: a comparison with null is false).
 * @param f - the filter.
 * @param row - the row object.
 * @param decimals - paths of DECIMAL columns (compared exactly as decimals).
 * @returns whether the row matches.
 */
export function matchRow(f: Filter, row: Record<string, unknown>, decimals?: ReadonlySet<string>): boolean {
  return matchWith(f, (column) => (column.includes('.') ? getPath(row, column.split('.')) : (Object.hasOwn(row, column) ? row[column] : null) ?? null), decimals);
}

/**
 * Evaluates a filter on one row given as a lookup of its leaf column values (SQL semantics: a comparison with null
 * is false).
 * @param f - the filter.
 * @param get - the row's value of a leaf column (dotted path); `null` for a null value.
 * @param decimals - paths of DECIMAL columns (compared exactly as decimals).
 * @returns whether the row matches.
 */
export function matchWith(f: Filter, get: (column: string) => unknown, decimals?: ReadonlySet<string>): boolean {
  if ('and' in f) {
    for (const g of f.and) if (!matchWith(g, get, decimals)) return false;
    return true;
  }
  if ('or' in f) {
    for (const g of f.or) if (matchWith(g, get, decimals)) return true;
    return false;
  }
  if ('not' in f) return !matchWith(f.not, get, decimals);
  const v = get(f.column) ?? null;
  if (f.op === 'is null') return v === null;
  if (f.op === 'is not null') return v !== null;
  if (v === null) return false;
  if (f.op === 'in') {
    for (const x of f.values) if (cmp(f.column, decimals, v, x) === 0) return true;
    return false;
  }
  return satisfies(f.op, cmp(f.column, decimals, v, (f as { value: unknown }).value));
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
