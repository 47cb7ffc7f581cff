/**
 * Known limitations of the peer readers: the places where a peer's canonical rows or statistics legitimately differ
 * from the value the file holds. Each entry says which peer, which values, why, and a predicate that accepts ONLY
 * that difference (the exact wrong value the limitation produces), so a test can require every disagreement to be
 * explained and every entry to still be needed.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/LogicalTypes.md (the value each annotation denotes;
 * the peers fall short of it in the ways listed here).
 * @module
 */
import type { PeerName, SchemaHint } from './peers.js';

/** One cell where a peer's value differs from the expected (Parquetry's, cross-checked by the other peers). */
export interface Disagreement {
  /** The peer. */
  peer: PeerName;
  /** Top-level column (rows) or column path (statistics). */
  column: string;
  /** Row index, or -1 for a whole column / a statistics entry. */
  row: number;
  /** For statistics: which field (`min`, `max`, `nullCount`, …); undefined for rows. */
  field?: string;
  /** The expected canonical value (undefined: absent). */
  expected: unknown;
  /** The peer's canonical value (undefined: absent; `{ columnError }` when the peer could not read the column). */
  actual: unknown;
  /** The Parquet schema hint of the column (top-level field for rows, leaf for statistics). */
  hint: SchemaHint | null;
}

/** A known limitation of one peer. */
export interface PeerLimit {
  /** Stable identifier. */
  id: string;
  /** The peer. */
  peer: PeerName;
  /** Which values are affected and what the peer returns instead. */
  what: string;
  /** Why (the peer's type system or design). */
  reason: string;
  /**
   * Whether this limitation explains a disagreement: true only for the exact wrong value it produces.
   * @param d - the disagreement.
   * @returns whether it is explained.
   */
  explains(d: Disagreement): boolean;
}

/** The leaf hints under a hint, depth-first. */
function leaves(h: SchemaHint | null): SchemaHint[] {
  if (!h) return [];
  if (h.children.length === 0) return [h];
  return h.children.flatMap(leaves);
}

const isDecimalHint = (h: SchemaHint | null) => h !== null && (h.converted === 'DECIMAL' || /^decimal/i.test(h.logical ?? ''));

/**
 * What hyparquet makes of a DECIMAL: the unscaled integer divided by 10^scale as a JS number, then printed with
 * `scale` digits (peer-child.mjs).
 */
function viaDouble(exact: string, scale: number): string {
  const neg = exact.startsWith('-');
  const digits = exact.replace(/^-/, '').replace('.', '');
  const unscaled = Number(BigInt(digits)) * (neg ? -1 : 1);
  const s = (unscaled / 10 ** scale).toFixed(scale);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** Whether the two values are equal or `check` accepts them, descending through arrays/objects of the same shape. */
function cellwise(expected: unknown, actual: unknown, check: (e: unknown, a: unknown) => boolean): boolean {
  if (JSON.stringify(expected) === JSON.stringify(actual) || check(expected, actual)) return true;
  if (Array.isArray(expected) && Array.isArray(actual)) return expected.length === actual.length && expected.every((e, i) => cellwise(e, actual[i], check));
  if (expected && actual && typeof expected === 'object' && typeof actual === 'object' && !Array.isArray(expected) && !Array.isArray(actual)) {
    const ek = Object.keys(expected);
    const ak = Object.keys(actual);
    if (ek.length === ak.length && ek.every((k, i) => k === ak[i]))
      return ek.every((k) => cellwise((expected as Record<string, unknown>)[k], (actual as Record<string, unknown>)[k], check));
  }
  return false;
}

/** Every known peer limitation (the tests require each to be exercised and every disagreement to match one). */
export const PEER_LIMITS: readonly PeerLimit[] = [
  {
    id: 'hyparquet-decimal-double',
    peer: 'hyparquet',
    what: 'DECIMAL values come back as JS numbers (unscaled / 10^scale): exact only up to 15-16 significant digits; DECIMAL(18,3) and DECIMAL(38,10) extremes are rounded',
    reason: 'hyparquet 1.33 converts DECIMAL to number in convert.js and offers no parser hook for it',
    explains: (d) =>
      d.field === undefined &&
      leaves(d.hint).some(isDecimalHint) &&
      cellwise(d.expected, d.actual, (e, a) => typeof e === 'string' && /^-?\d+(\.\d+)?$/.test(e) && a === viaDouble(e, e.split('.')[1]?.length ?? 0)),
  },
  {
    id: 'hyparquet-interval',
    peer: 'hyparquet',
    what: 'INTERVAL columns cannot be read ("parquet interval not supported"); the other columns are read one by one',
    reason: 'hyparquet 1.33 throws for the INTERVAL converted type',
    explains: (d) =>
      d.row === -1 &&
      d.hint?.converted === 'INTERVAL' &&
      typeof d.actual === 'object' &&
      d.actual !== null &&
      /interval not supported/.test(String((d.actual as { columnError?: unknown }).columnError)),
  },
  {
    id: 'parquet-wasm-interval-months',
    peer: 'parquet-wasm',
    what: 'INTERVAL is read as Arrow Interval(DayTime): the months field is dropped (months 0, days and millis kept)',
    reason: 'arrow-rs maps the Parquet INTERVAL converted type to IntervalDayTime, which has no months',
    explains: (d) =>
      d.field === undefined &&
      d.hint?.converted === 'INTERVAL' &&
      cellwise(d.expected, d.actual, (e, a) => {
        const x = e as { months?: number; days?: number; millis?: number } | null;
        const y = a as { months?: number; days?: number; millis?: number } | null;
        return !!x && !!y && x.months !== 0 && y.months === 0 && y.days === x.days && y.millis === x.millis;
      }),
  },
  {
    id: 'duckdb-stats-infinite-bound',
    peer: 'duckdb',
    what: 'parquet_metadata() shows an infinite FLOAT/DOUBLE bound (min -Infinity or max Infinity) as NULL',
    reason: "DuckDB's parquet_metadata renders the decoded bound through its float-to-string cast, which gives NULL for infinities",
    explains: (d) => (d.field === 'min' || d.field === 'max') && d.actual === undefined && (d.expected === 'Infinity' || d.expected === '-Infinity'),
  },
];

/**
 * The limitation that explains a disagreement, if any.
 * @param d - the disagreement.
 * @returns the first matching limitation of `d.peer`, or undefined.
 */
export function explain(d: Disagreement): PeerLimit | undefined {
  return PEER_LIMITS.find((l) => l.peer === d.peer && l.explains(d));
}
