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
  /** Top-level column (rows), column path (statistics), or `*` when the peer could not read the file at all. */
  column: string;
  /** Row index, or -1 for a whole column / a statistics entry. */
  row: number;
  /** For statistics: which field (`min`, `max`, `nullCount`, …); undefined for rows. */
  field?: string;
  /** The expected canonical value (undefined: absent). */
  expected: unknown;
  /** The peer's canonical value (undefined: absent; `{ columnError }` / `{ fileError }` when it could not read the column / file). */
  actual: unknown;
  /** The Parquet schema hint of the column (top-level field for rows, leaf for statistics, the root for `*`). */
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

/** Repeated nodes on the deepest path under a hint. */
function nestedRepeated(h: SchemaHint | null): number {
  if (!h) return 0;
  const own = h.repetition === 'REPEATED' ? 1 : 0;
  return own + Math.max(0, ...h.children.map(nestedRepeated));
}

/** The message of a `{ columnError }` actual value ('' otherwise). */
function columnError(a: unknown): string {
  return typeof a === 'object' && a !== null && 'columnError' in a ? String((a as { columnError: unknown }).columnError) : '';
}

/** The message of a `{ fileError }` actual value ('' otherwise). */
function fileError(a: unknown): string {
  return typeof a === 'object' && a !== null && 'fileError' in a ? String((a as { fileError: unknown }).fileError) : '';
}

/** Nanoseconds since the epoch of a canonical timestamp ("YYYY-MM-DDTHH:MM:SS.fffffffff[Z]", years 0000-9999). */
function timestampNanos(s: string): bigint | undefined {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{9})Z?$/.exec(s);
  if (!m) return undefined;
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  d.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), 0);
  return BigInt(d.getTime()) * 1000000n + BigInt(m[7] ?? '0');
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
    explains: (d) => d.row === -1 && d.hint?.converted === 'INTERVAL' && /interval not supported/.test(columnError(d.actual)),
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
    what: 'parquet_metadata() shows an infinite FLOAT/DOUBLE/FLOAT16 bound (min -Infinity or max Infinity) as NULL',
    reason: "DuckDB's parquet_metadata renders the decoded bound through its float-to-string cast, which gives NULL for infinities",
    explains: (d) => (d.field === 'min' || d.field === 'max') && d.actual === undefined && (d.expected === 'Infinity' || d.expected === '-Infinity'),
  },
  {
    id: 'duckdb-stats-timestamp-infinity',
    peer: 'duckdb',
    what: "parquet_metadata() shows TIMESTAMP bounds of ±(2^63 - 1) nanoseconds as 'infinity' / '-infinity'",
    reason: 'DuckDB reserves the extreme int64 timestamps for its infinite timestamps',
    explains: (d) =>
      (d.field === 'min' || d.field === 'max') &&
      ((d.actual === 'infinity' && d.expected === '2262-04-11T23:47:16.854775807') || (d.actual === '-infinity' && d.expected === '1677-09-21T00:12:43.145224193')),
  },
  {
    id: 'duckdb-nanos-utc-as-micros',
    peer: 'duckdb',
    what: 'TIMESTAMP(NANOS, isAdjustedToUTC=true) and INT96 are read as microsecond timestamps: the last three fractional digits become 000',
    reason: "DuckDB's TIMESTAMP WITH TIME ZONE (and its INT96 conversion) has microsecond precision; only TIMESTAMP_NS keeps nanoseconds",
    explains: (d) =>
      (d.hint?.physical === 'INT96' || /^Timestamp.*(NANOS=N|unit=NANOS)/.test(d.hint?.logical ?? '')) &&
      cellwise(d.expected, d.actual, (e, a) => typeof e === 'string' && typeof a === 'string' && /\.\d{9}Z?$/.test(e) && a === e.replace(/\d{3}(Z?)$/, '000$1')),
  },
  {
    id: 'duckdb-decimal-over-38-as-double',
    peer: 'duckdb',
    what: 'DECIMAL with precision above 38 is read as DOUBLE, not always correctly rounded (rows: a number; statistics: its text, e.g. "1500000000000.0")',
    reason: "DuckDB's DECIMAL stops at precision 38; it divides the unscaled value by 10^scale in floating point",
    explains: (d) =>
      isDecimalHint(d.hint) &&
      cellwise(d.expected, d.actual, (e, a) => {
        if (typeof e !== 'string') return false;
        // a DOUBLE, not a DECIMAL: rows give a number; statistics print it without the column's scale digits
        const isDouble = typeof a === 'number' || (typeof a === 'string' && (a.split('.')[1] ?? '').length !== (e.split('.')[1] ?? '').length);
        const x = Number(a);
        const y = Number(e);
        return isDouble && Number.isFinite(x) && Math.abs(x - y) <= Math.abs(y) * 2 ** -50;
      }),
  },
  {
    id: 'duckdb-bss-not-float',
    peer: 'duckdb',
    what: 'BYTE_STREAM_SPLIT columns other than FLOAT/DOUBLE (INT32, INT64, FIXED_LEN_BYTE_ARRAY: FLOAT16, DECIMAL, fixed binary) cannot be read',
    reason: 'DuckDB 1.5 implements BYTE_STREAM_SPLIT for FLOAT and DOUBLE only ("BYTE_STREAM_SPLIT encoding is only supported for FLOAT or DOUBLE data")',
    explains: (d) =>
      d.row === -1 &&
      d.field === undefined &&
      d.hint !== null &&
      d.hint.physical !== 'FLOAT' &&
      d.hint.physical !== 'DOUBLE' &&
      /BYTE_STREAM_SPLIT encoding is only supported for FLOAT or DOUBLE/.test(columnError(d.actual)),
  },
  {
    id: 'hyparquet-map-key-order',
    peer: 'hyparquet',
    what: 'a MAP becomes a JS object: integer-like keys come back in ascending order instead of file order (keys are restored to numbers by the key type)',
    reason: 'hyparquet 1.33 assembles maps into plain objects, whose integer-like property names JS orders first, ascending',
    explains: (d) =>
      d.field === undefined &&
      cellwise(d.expected, d.actual, (e, a) => {
        if (!Array.isArray(e) || !Array.isArray(a) || e.length !== a.length) return false;
        const obj: Record<string, unknown> = {};
        for (const x of e as { key: unknown; value: unknown }[]) obj[String(x.key)] = x;
        return JSON.stringify(Object.values(obj)) === JSON.stringify(a) && JSON.stringify(e) !== JSON.stringify(a);
      }),
  },
  {
    id: 'hyparquet-v2-list-of-struct-of-list',
    peer: 'hyparquet',
    what: 'a list<struct<…, list<…>>> column in data page V2 with several pages per chunk, or without dictionary, fails ("Offset is outside the bounds of the DataView", "Invalid typed array length")',
    reason: 'hyparquet 1.33 mis-slices the levels of nested repeated columns in V2 pages (DuckDB, pyarrow, parquet-wasm and Parquetry read the same files)',
    explains: (d) =>
      d.row === -1 &&
      d.field === undefined &&
      nestedRepeated(d.hint) >= 2 &&
      /Offset is outside the bounds of the DataView|Invalid typed array length/.test(columnError(d.actual)),
  },
  {
    id: 'parquet-wasm-delta-int32-wide',
    peer: 'parquet-wasm',
    what: "a file with a DELTA_BINARY_PACKED INT32 column whose min_delta does not fit 32 bits (DuckDB's V2 writer computes INT32 deltas in 64 bits) cannot be read at all (\"'min_delta' too large\"; parquet-wasm 0.8 reads every column whatever the projection)",
    reason: 'arrow-rs requires INT32 deltas to fit the 32-bit type instead of wrapping them',
    explains: (d) => d.column === '*' && leaves(d.hint).some((h) => h.physical === 'INT32') && /'min_delta' too large/.test(fileError(d.actual)),
  },
  {
    id: 'pyarrow-delta-int32-wide',
    peer: 'pyarrow',
    what: "a DELTA_BINARY_PACKED INT32 column whose min_delta or bit width exceeds 32 bits (DuckDB's V2 writer) cannot be read (\"InitBlock EOF\")",
    reason: 'Arrow C++ decodes INT32 delta blocks with 32-bit widths only',
    explains: (d) => d.row === -1 && d.field === undefined && d.hint?.physical === 'INT32' && /InitBlock EOF/.test(columnError(d.actual)),
  },
  {
    id: 'pyarrow-int96-out-of-range',
    peer: 'pyarrow',
    what: 'INT96 timestamps outside 1677-09-21 … 2262-04-11 wrap around (Arrow reads INT96 as int64 nanoseconds)',
    reason: 'pyarrow 25 reads INT96 into timestamp[ns] by default (coerce_int96_timestamp_unit unset); the 64-bit count overflows',
    explains: (d) =>
      d.hint?.physical === 'INT96' &&
      cellwise(d.expected, d.actual, (e, a) => {
        const ns = typeof e === 'string' ? timestampNanos(e) : undefined;
        return ns !== undefined && (ns >= 1n << 63n || ns < -(1n << 63n)) && typeof a === 'string' && timestampNanos(a) === BigInt.asIntN(64, ns);
      }),
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
