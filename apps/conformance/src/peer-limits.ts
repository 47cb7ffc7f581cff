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
  /**
   * For files Parquetry wrote: the value encodings and codecs the writer was asked to use for the column (for the
   * whole file when `column` is `*`), by parquet.thrift name ("ALP", "LZO", …), so a limitation about an encoding or
   * codec applies only where it was used.
   */
  asked?: { encodings: readonly string[]; codecs: readonly string[] };
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

/** Days since 1970-01-01 of a proleptic Gregorian date, any year (the civil-to-days conversion, in BigInt). */
function daysFromCivil(y: bigint, m: bigint, d: bigint): bigint {
  const yy = m <= 2n ? y - 1n : y;
  const era = (yy >= 0n ? yy : yy - 399n) / 400n; // BigInt division truncates: floor for negative years
  const yoe = yy - era * 400n;
  const doy = (153n * (m > 2n ? m - 3n : m + 9n) + 2n) / 5n + d - 1n;
  return era * 146097n + yoe * 365n + yoe / 4n - yoe / 100n + doy - 719468n;
}

/**
 * Nanoseconds since the epoch of a canonical timestamp ("YYYY-MM-DDTHH:MM:SS.fff[fff[fff]][Z]"; years of any
 * width with a sign outside 0000-9999, as canon.mjs prints them).
 */
function timestampNanos(s: string): bigint | undefined {
  const m = /^([+-]?\d{4,})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{3}|\d{6}|\d{9})Z?$/.exec(s);
  if (!m) return undefined;
  const days = daysFromCivil(BigInt(m[1]!), BigInt(m[2]!), BigInt(m[3]!));
  const secs = days * 86400n + BigInt(m[4]!) * 3600n + BigInt(m[5]!) * 60n + BigInt(m[6]!);
  return secs * 1000000000n + BigInt(m[7]!.padEnd(9, '0'));
}

const I64_MAX = (1n << 63n) - 1n;

/** Whether a timestamp bound or value lies where DuckDB keeps its infinities: at ±(2^63-1) ns, or at or beyond ±(2^63-1) µs. */
function atDuckdbInfinity(e: unknown, sign: 1 | -1): boolean {
  const ns = typeof e === 'string' ? timestampNanos(e) : undefined;
  if (ns === undefined) return false;
  const x = sign === 1 ? ns : -ns;
  return x === I64_MAX || x >= I64_MAX * 1000n;
}

const utf8Encoder = new TextEncoder();
/** canon.mjs's binary form of a string's UTF-8 bytes. */
function binOfText(s: string): string {
  let out = 'bin:';
  for (const b of utf8Encoder.encode(s)) out += b.toString(16).padStart(2, '0');
  return out;
}

/** A hint's MAP / LIST annotation. */
const isMapHint = (h: SchemaHint | null) => h !== null && (h.converted === 'MAP' || h.converted === 'MAP_KEY_VALUE' || /^Map/i.test(h.logical ?? ''));
const isListHint = (h: SchemaHint | null) => h !== null && (h.converted === 'LIST' || /^List/i.test(h.logical ?? ''));

/**
 * A canonical value with every MAP's entries in the order hyparquet gives them (a JS object's: integer-like keys
 * first, ascending, then the others in file order; a repeated key keeps its first position and last value), by the
 * hint (3-level LIST and MAP layouts).
 */
function hyparquetMapOrder(v: unknown, h: SchemaHint | null): unknown {
  if (v === null || h === null) return v;
  if (isMapHint(h) && Array.isArray(v)) {
    const kv = h.children[0] ?? null;
    const valueHint = kv?.children[1] ?? null;
    const obj: Record<string, unknown> = {};
    for (const x of v as { key: unknown; value: unknown }[]) obj[String(x.key)] = { key: x.key, value: hyparquetMapOrder(x.value, valueHint) };
    return Object.values(obj);
  }
  if (isListHint(h) && Array.isArray(v)) {
    const rep = h.children[0] ?? null;
    const el = rep !== null && rep.children.length === 1 ? (rep.children[0] ?? null) : rep;
    return v.map((x) => hyparquetMapOrder(x, el));
  }
  if (typeof v === 'object' && !Array.isArray(v) && h.children.length > 0) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) o[k] = hyparquetMapOrder(x, h.children.find((c) => c.name === k) ?? null);
    return o;
  }
  return v;
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
    explains: (d) => d.row === -1 && leaves(d.hint).some((h) => h.converted === 'INTERVAL') && /interval not supported/.test(columnError(d.actual)),
  },
  {
    id: 'parquet-wasm-interval-months',
    peer: 'parquet-wasm',
    what: 'INTERVAL is read as Arrow Interval(DayTime): the months field is dropped (months 0) and days and millis are signed 32-bit (above 2^31 - 1 they come back negative)',
    reason: 'arrow-rs maps the Parquet INTERVAL converted type to IntervalDayTime, which has no months and holds days and milliseconds as i32',
    explains: (d) =>
      d.field === undefined &&
      leaves(d.hint).some((h) => h.converted === 'INTERVAL') &&
      cellwise(d.expected, d.actual, (e, a) => {
        const x = e as { months?: number; days?: number; millis?: number } | null;
        const y = a as { months?: number; days?: number; millis?: number } | null;
        if (!x || !y || typeof x.months !== 'number' || typeof x.days !== 'number' || typeof x.millis !== 'number') return false;
        const lost = x.months !== 0 || x.days > 0x7fffffff || x.millis > 0x7fffffff;
        return lost && y.months === 0 && y.days === (x.days | 0) && y.millis === (x.millis | 0);
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
    what: "parquet_metadata() shows TIMESTAMP bounds of ±(2^63 - 1) nanoseconds, and bounds at or beyond ±(2^63 - 1) microseconds (any unit), as 'infinity' / '-infinity'",
    reason: 'DuckDB reserves the extreme int64 timestamps for its infinite timestamps, and clamps what its microsecond TIMESTAMP cannot hold to them',
    explains: (d) =>
      (d.field === 'min' || d.field === 'max') && ((d.actual === 'infinity' && atDuckdbInfinity(d.expected, 1)) || (d.actual === '-infinity' && atDuckdbInfinity(d.expected, -1))),
  },
  {
    id: 'duckdb-nanos-utc-as-micros',
    peer: 'duckdb',
    what: 'TIMESTAMP(NANOS, isAdjustedToUTC=true) and INT96 are read as microsecond timestamps: the nanoseconds are cut to whole microseconds (toward zero for TIMESTAMP, so 1969-12-31T23:59:59.999999999 becomes 1970-01-01T00:00:00; down for INT96, whose nanoseconds of the day are never negative)',
    reason: "DuckDB's TIMESTAMP WITH TIME ZONE (and its INT96 conversion) has microsecond precision and divides the nanosecond count by 1000 with integer (truncating) division; only TIMESTAMP_NS keeps nanoseconds",
    explains: (d) =>
      leaves(d.hint).some((h) => h.physical === 'INT96' || /^Timestamp.*(NANOS=N|unit=NANOS)/.test(h.logical ?? '')) &&
      cellwise(d.expected, d.actual, (e, a) => {
        if (typeof e !== 'string' || typeof a !== 'string' || !/\.\d{9}Z?$/.test(e) || !/000Z?$/.test(a) || e.endsWith('Z') !== a.endsWith('Z')) return false;
        const ns = timestampNanos(e);
        const got = timestampNanos(a);
        if (ns === undefined || got === undefined || got === ns) return false;
        const toward0 = (ns / 1000n) * 1000n;
        const down = ns < 0n && ns % 1000n !== 0n ? toward0 - 1000n : toward0;
        return got === toward0 || got === down;
      }),
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
    what: 'a MAP becomes a JS object: integer-like keys come back in ascending order instead of file order (keys are restored to numbers by the key type); the values may differ besides by another hyparquet limitation',
    reason: 'hyparquet 1.33 assembles maps into plain objects, whose integer-like property names JS orders first, ascending',
    explains: (d) => {
      if (d.field !== undefined) return false;
      const reordered = hyparquetMapOrder(d.expected, d.hint);
      if (JSON.stringify(reordered) === JSON.stringify(d.expected)) return false;
      if (JSON.stringify(reordered) === JSON.stringify(d.actual)) return true;
      const rest = { ...d, expected: reordered };
      return [...PEER_LIMITS, ...WRITER_CORPUS_LIMITS].some((l) => l.peer === 'hyparquet' && l.id !== 'hyparquet-map-key-order' && l.explains(rest));
    },
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
      leaves(d.hint).some((h) => h.physical === 'INT96') &&
      cellwise(d.expected, d.actual, (e, a) => {
        const ns = typeof e === 'string' ? timestampNanos(e) : undefined;
        return ns !== undefined && (ns >= 1n << 63n || ns < -(1n << 63n)) && typeof a === 'string' && timestampNanos(a) === BigInt.asIntN(64, ns);
      }),
  },
];

/**
 * Limitations seen only on files written by Parquetry's writer (the writer interop corpus, test/writer-interop.test.ts):
 * types, encodings and codecs neither DuckDB nor pyarrow write. Kept apart from {@link PEER_LIMITS}, whose entries
 * the DuckDB/pyarrow-written files must each exercise.
 */
export const WRITER_CORPUS_LIMITS: readonly PeerLimit[] = [
  // ---- every peer: codecs and encodings it does not implement
  {
    id: 'duckdb-lz4-hadoop',
    peer: 'duckdb',
    what: 'columns compressed with LZ4 (codec 5, the deprecated Hadoop-framed LZ4) cannot be read (\'Unsupported compression codec "LZ4"\')',
    reason: 'DuckDB 1.5 reads LZ4_RAW only',
    explains: (d) => d.row === -1 && d.field === undefined && !!d.asked?.codecs.includes('LZ4') && /Unsupported compression codec "LZ4"/.test(columnError(d.actual)),
  },
  {
    id: 'duckdb-lzo',
    peer: 'duckdb',
    what: 'columns compressed with LZO cannot be read (\'Unsupported compression codec "LZO"\')',
    reason: 'DuckDB 1.5 has no LZO decompressor',
    explains: (d) => d.row === -1 && d.field === undefined && !!d.asked?.codecs.includes('LZO') && /Unsupported compression codec "LZO"/.test(columnError(d.actual) || fileError(d.actual)),
  },
  {
    id: 'parquet-wasm-lzo',
    peer: 'parquet-wasm',
    what: 'a file with any LZO column cannot be read at all ("The codec type LZO is not supported yet"; parquet-wasm 0.8 reads every column whatever the projection)',
    reason: 'arrow-rs has no LZO decompressor',
    explains: (d) => d.column === '*' && !!d.asked?.codecs.includes('LZO') && /The codec type LZO is not supported yet/.test(fileError(d.actual)),
  },
  {
    id: 'pyarrow-lzo',
    peer: 'pyarrow',
    what: 'columns compressed with LZO cannot be read ("LZO compression ... is currently not supported by the C++ implementation")',
    reason: 'Arrow C++ does not build an LZO codec',
    explains: (d) =>
      d.row === -1 &&
      d.field === undefined &&
      !!d.asked?.codecs.includes('LZO') &&
      /While LZO compression is supported by the Parquet format in general, it is currently not supported/.test(columnError(d.actual) || fileError(d.actual)),
  },
  {
    id: 'hyparquet-lzo',
    peer: 'hyparquet',
    what: 'columns compressed with LZO cannot be read ("parquet unsupported compression codec: LZO")',
    reason: 'neither hyparquet 1.33 nor hyparquet-compressors 1.1 implement LZO',
    explains: (d) => d.row === -1 && d.field === undefined && !!d.asked?.codecs.includes('LZO') && /unsupported compression codec: LZO/.test(columnError(d.actual) || fileError(d.actual)),
  },
  {
    id: 'duckdb-alp',
    peer: 'duckdb',
    what: 'a file with an ALP-encoded (FLOAT/DOUBLE) column cannot be read at all: the footer is rejected ("TProtocolException: Invalid data")',
    reason: "DuckDB 1.5's Thrift decoder rejects the encoding number 10 (ALP, added to parquet.thrift after its release) in ColumnMetaData.encodings",
    explains: (d) => d.column === '*' && !!d.asked?.encodings.includes('ALP') && /TProtocolException: Invalid data/.test(fileError(d.actual)),
  },
  {
    id: 'parquet-wasm-alp',
    peer: 'parquet-wasm',
    what: 'a file with an ALP-encoded column cannot be read at all ("Unexpected Encoding 10")',
    reason: 'arrow-rs in parquet-wasm 0.8 predates ALP and rejects unknown encodings in the footer',
    explains: (d) => d.column === '*' && !!d.asked?.encodings.includes('ALP') && /Unexpected Encoding 10/.test(fileError(d.actual)),
  },
  {
    id: 'pyarrow-alp',
    peer: 'pyarrow',
    what: 'ALP-encoded FLOAT/DOUBLE columns cannot be read ("Unknown encoding type"; the whole file when every column is ALP)',
    reason: 'Arrow C++ in pyarrow 25 has no ALP decoder',
    explains: (d) =>
      d.row === -1 && d.field === undefined && !!d.asked?.encodings.includes('ALP') && /Unknown encoding type/.test(columnError(d.actual) || fileError(d.actual)),
  },
  {
    id: 'duckdb-dlba-decimal',
    peer: 'duckdb',
    what: 'DELTA_LENGTH_BYTE_ARRAY pages of a DECIMAL on BYTE_ARRAY cannot be read ("only supported for string/blob data")',
    reason: 'DuckDB 1.5 decodes DELTA_LENGTH_BYTE_ARRAY only into VARCHAR/BLOB columns (Encodings.md allows it for every BYTE_ARRAY)',
    explains: (d) =>
      d.row === -1 &&
      d.field === undefined &&
      !!d.asked?.encodings.includes('DELTA_LENGTH_BYTE_ARRAY') &&
      leaves(d.hint).some((h) => isDecimalHint(h) && h.physical === 'BYTE_ARRAY') &&
      /Delta Length Byte Array encoding is only supported for string\/blob data/.test(columnError(d.actual)),
  },
  // ---- types
  {
    id: 'duckdb-bson',
    peer: 'duckdb',
    what: 'a file with a BSON column cannot be read at all ("Unsupported converted type (20)")',
    reason: 'DuckDB 1.5 maps no type to the BSON converted type and fails while binding the schema',
    explains: (d) => d.column === '*' && leaves(d.hint).some((h) => h.converted === 'BSON') && /Unsupported converted type \(20\)/.test(fileError(d.actual)),
  },
  {
    id: 'hyparquet-bson',
    peer: 'hyparquet',
    what: 'BSON columns cannot be read ("parquet bson not supported")',
    reason: 'hyparquet 1.33 throws for the BSON converted type',
    explains: (d) => d.row === -1 && d.field === undefined && /parquet bson not supported/.test(columnError(d.actual) || fileError(d.actual)),
  },
  {
    id: 'pyarrow-enum-binary',
    peer: 'pyarrow',
    what: 'ENUM columns come back as binary (the UTF-8 bytes of the value)',
    reason: 'Arrow C++ maps the ENUM annotation to binary, not string',
    explains: (d) => d.field === undefined && leaves(d.hint).some((h) => h.converted === 'ENUM') && cellwise(d.expected, d.actual, (e, a) => typeof e === 'string' && a === binOfText(e)),
  },
  {
    id: 'hyparquet-enum-binary',
    peer: 'hyparquet',
    what: 'ENUM columns come back as binary (the UTF-8 bytes of the value)',
    reason: 'hyparquet 1.33 turns ENUM into text only with its utf8 option, which also turns every unannotated BYTE_ARRAY into text; the harness reads with utf8: false so binaries stay exact',
    explains: (d) => d.field === undefined && leaves(d.hint).some((h) => h.converted === 'ENUM') && cellwise(d.expected, d.actual, (e, a) => typeof e === 'string' && a === binOfText(e)),
  },
  {
    id: 'parquet-wasm-enum-binary',
    peer: 'parquet-wasm',
    what: 'ENUM columns come back as binary (the UTF-8 bytes of the value)',
    reason: 'arrow-rs maps the ENUM annotation to Binary, not Utf8',
    explains: (d) => d.field === undefined && leaves(d.hint).some((h) => h.converted === 'ENUM') && cellwise(d.expected, d.actual, (e, a) => typeof e === 'string' && a === binOfText(e)),
  },
  {
    id: 'pyarrow-decimal-fixed-over-16-bytes',
    peer: 'pyarrow',
    what: 'a DECIMAL of precision <= 38 on a FIXED_LEN_BYTE_ARRAY longer than 16 bytes cannot be read ("Decimal128::FromBigEndian was 20, but must be between 1 and 16")',
    reason: 'Arrow C++ reads precision <= 38 into Decimal128 and requires the stored width to fit it (LogicalTypes.md only bounds the precision by the width, not the width by the precision)',
    explains: (d) =>
      d.row === -1 && d.field === undefined && leaves(d.hint).some((h) => isDecimalHint(h) && h.physical === 'FIXED_LEN_BYTE_ARRAY') && /Decimal128::FromBigEndian was \d+, but must be between 1 and 16/.test(columnError(d.actual)),
  },
  {
    id: 'duckdb-decimal-over-38-binary',
    peer: 'duckdb',
    what: 'DECIMAL with precision above 38 on BYTE_ARRAY (minimal big-endian bytes) is read as a wrong DOUBLE (e.g. 0.000000000001 as 72057.59403792793: the bytes are taken as the top of an 8-byte integer); rows and statistics',
    reason: "DuckDB 1.5 reads precision > 38 as DOUBLE and its conversion of variable-length big-endian bytes is wrong for lengths other than 8 (pyarrow, parquet-wasm and Parquetry read the same values exactly)",
    explains: (d) => {
      const leaf = d.field === undefined ? leaves(d.hint).find((h) => isDecimalHint(h) && h.physical === 'BYTE_ARRAY') : d.hint;
      if (!leaf || !isDecimalHint(leaf) || leaf.physical !== 'BYTE_ARRAY') return false;
      const scale = leaf.scale ?? 0;
      // rows: a JS number (a DOUBLE); statistics: a DOUBLE's text, not a decimal with the column's scale digits
      const isDouble = (a: unknown) => typeof a === 'number' || (typeof a === 'string' && !new RegExp(`^-?\\d*\\.\\d{${scale}}$`).test(a) && Number.isFinite(Number(a)));
      return cellwise(d.expected, d.actual, (e, a) => typeof e === 'string' && /^-?\d+\.?\d*$/.test(e) && isDouble(a));
    },
  },
  {
    id: 'duckdb-stats-decimal-leading-zero',
    peer: 'duckdb',
    what: 'parquet_metadata() prints DECIMAL bounds between -1 and 1 without the 0 before the point (".999999999")',
    reason: "DuckDB's decimal-to-text of statistics omits the integer digit when it is zero",
    explains: (d) => (d.field === 'min' || d.field === 'max') && typeof d.expected === 'string' && /^-?0\./.test(d.expected) && d.actual === d.expected.replace(/^(-?)0\./, '$1.'),
  },
  {
    id: 'duckdb-interval-signed',
    peer: 'duckdb',
    what: 'INTERVAL months and days above 2^31 - 1 come back negative (4294967295 as -1); milliseconds stay exact',
    reason: "DuckDB's INTERVAL holds months and days as signed 32-bit integers; Parquet's are unsigned (LogicalTypes.md INTERVAL)",
    explains: (d) =>
      d.field === undefined &&
      leaves(d.hint).some((h) => h.converted === 'INTERVAL') &&
      cellwise(d.expected, d.actual, (e, a) => {
        const x = e as { months?: number; days?: number; millis?: number } | null;
        const y = a as { months?: number; days?: number; millis?: number } | null;
        return !!x && !!y && typeof x.months === 'number' && typeof x.days === 'number' && (x.months > 0x7fffffff || x.days > 0x7fffffff) && y.months === (x.months | 0) && y.days === (x.days | 0) && y.millis === x.millis;
      }),
  },
  {
    id: 'duckdb-time-nanos-utc-as-micros',
    peer: 'duckdb',
    what: 'TIME(NANOS, isAdjustedToUTC=true) is read as TIME WITH TIME ZONE: the last three fractional digits become 000 (rows and statistics)',
    reason: "DuckDB's TIME WITH TIME ZONE has microsecond precision; only a local TIME_NS keeps nanoseconds",
    explains: (d) => {
      const leaf = d.field === undefined ? leaves(d.hint) : d.hint ? [d.hint] : [];
      return (
        leaf.some((h) => /^TimeType\(isAdjustedToUTC=1, unit=NANOS\)/.test(h.logical ?? '')) &&
        cellwise(d.expected, d.actual, (e, a) => typeof e === 'string' && typeof a === 'string' && /^\d\d:\d\d:\d\d\.\d{9}$/.test(e) && a === e.replace(/\d{3}$/, '000'))
      );
    },
  },
  {
    id: 'duckdb-nested-timetz',
    peer: 'duckdb',
    what: 'TIME(isAdjustedToUTC=true) inside a struct, list or map cannot be compared: the column comes back as an error of the harness ("canon: unsupported DuckDB value class DuckDBTimeTZValue")',
    reason: 'DuckDB reads a UTC TIME as TIME WITH TIME ZONE; peer-child.mjs casts it to TIME only for top-level columns and canon.mjs has no converter for a nested TIMETZ value (a gap of the harness, not of the file)',
    explains: (d) =>
      d.row === -1 && d.field === undefined && leaves(d.hint).some((h) => /^TimeType\(isAdjustedToUTC=1/.test(h.logical ?? '')) && /unsupported DuckDB value class DuckDBTimeTZValue/.test(columnError(d.actual)),
  },
  {
    id: 'duckdb-timestamp-infinity',
    peer: 'duckdb',
    what: 'TIMESTAMP values DuckDB cannot hold in its microsecond TIMESTAMP (MILLIS beyond ±(2^63 - 1) µs) and TIMESTAMP(NANOS, UTC) of ±(2^63 - 1) ns come back as its ±infinity (±(2^63 - 1) µs)',
    reason: 'DuckDB converts those units to microseconds and maps overflows and the int64 extremes to its infinite timestamps',
    explains: (d) =>
      d.field === undefined &&
      leaves(d.hint).some((h) => /^Timestamp/.test(h.logical ?? '')) &&
      cellwise(d.expected, d.actual, (e, a) => {
        const ns = typeof a === 'string' ? timestampNanos(a) : undefined;
        return (ns === I64_MAX * 1000n && atDuckdbInfinity(e, 1)) || (ns === -I64_MAX * 1000n && atDuckdbInfinity(e, -1));
      }),
  },
  {
    id: 'parquet-wasm-int96-out-of-range',
    peer: 'parquet-wasm',
    what: 'INT96 timestamps outside 1677-09-21 … 2262-04-11 wrap around (arrow-rs reads INT96 as int64 nanoseconds)',
    reason: 'arrow-rs converts INT96 to Timestamp(Nanosecond) with wrapping 64-bit arithmetic',
    explains: (d) =>
      leaves(d.hint).some((h) => h.physical === 'INT96') &&
      cellwise(d.expected, d.actual, (e, a) => {
        const ns = typeof e === 'string' ? timestampNanos(e) : undefined;
        return ns !== undefined && (ns >= 1n << 63n || ns < -(1n << 63n)) && typeof a === 'string' && timestampNanos(a) === BigInt.asIntN(64, ns);
      }),
  },
  {
    id: 'pyarrow-int96-julian-day-zero',
    peer: 'pyarrow',
    what: 'an INT96 of Julian day 0 (-4713-11-24, whatever its nanoseconds of the day) comes back as the epoch, 1970-01-01T00:00:00',
    reason: 'Arrow C++ returns 0 for Julian day 0 instead of converting it (Julian day 1 is converted, wrapping as any out-of-range INT96)',
    explains: (d) =>
      leaves(d.hint).some((h) => h.physical === 'INT96') &&
      cellwise(d.expected, d.actual, (e, a) => typeof e === 'string' && e.startsWith('-4713-11-24T') && a === '1970-01-01T00:00:00.000000000'),
  },
];

/**
 * The limitation that explains a disagreement, if any.
 * @param d - the disagreement.
 * @param limits - the limitations to search (default {@link PEER_LIMITS}).
 * @returns the first matching limitation of `d.peer`, or undefined.
 */
export function explain(d: Disagreement, limits: readonly PeerLimit[] = PEER_LIMITS): PeerLimit | undefined {
  return limits.find((l) => l.peer === d.peer && l.explains(d));
}
