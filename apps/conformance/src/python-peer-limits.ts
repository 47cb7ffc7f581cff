/**
 * Known limitations of the two Python peers that have their own Parquet implementation, polars (polars-parquet, in
 * Rust) and fastparquet (Python/numba): the files, columns and values they cannot read, or read differently from
 * what the file holds, each with a predicate that accepts only that peer's actual error message or exact wrong
 * value (as src/peer-limits.ts does for the other peers), so that the writer-interop test can require every
 * disagreement to be explained and every entry here to still be needed.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/LogicalTypes.md (the value each annotation denotes)
 * and https://github.com/apache/parquet-format/blob/master/Encodings.md.
 * @module
 */
import type { Disagreement, PeerLimit } from './peer-limits.js';
import type { SchemaHint } from './peers.js';

/**
 * A disagreement on a file Parquetry wrote, with the file's data page version (some fastparquet failures are
 * specific to data page V2).
 */
export interface PythonPeerDisagreement extends Disagreement {
  /** The data page version the writer was asked for. */
  pageVersion?: 1 | 2;
}

const pageVersion = (d: Disagreement) => (d as PythonPeerDisagreement).pageVersion;

/** The leaf hints under a hint, depth-first. */
function leaves(h: SchemaHint | null): SchemaHint[] {
  if (!h) return [];
  if (h.children.length === 0) return [h];
  return h.children.flatMap(leaves);
}

/** The message of a `{ columnError }` or `{ fileError }` actual value ('' otherwise). */
function errorOf(a: unknown): string {
  if (typeof a !== 'object' || a === null) return '';
  if ('columnError' in a) return String((a as { columnError: unknown }).columnError);
  if ('fileError' in a) return String((a as { fileError: unknown }).fileError);
  return '';
}

const logicalIs = (re: RegExp) => (h: SchemaHint) => re.test(h.logical ?? '');
const isGeo = logicalIs(/^(Geometry|Geography)/i);
const isDecimal = (h: SchemaHint) => h.converted === 'DECIMAL' || /^decimal/i.test(h.logical ?? '');
const isMap = (h: SchemaHint | null) => h !== null && (h.converted === 'MAP' || h.converted === 'MAP_KEY_VALUE' || /^Map/i.test(h.logical ?? ''));
const isList = (h: SchemaHint | null) => h !== null && (h.converted === 'LIST' || /^List/i.test(h.logical ?? ''));
const any = (h: SchemaHint | null, p: (h: SchemaHint) => boolean) => leaves(h).some(p);

/** A whole-file or whole-column error with this message, on a column (or file) holding a leaf `has` accepts. */
function errorCase(d: Disagreement, message: RegExp, has: (h: SchemaHint) => boolean = () => true): boolean {
  return d.field === undefined && d.row === -1 && message.test(errorOf(d.actual)) && leaves(d.hint).some(has);
}

/** Whether the writer was asked for this encoding / codec where the disagreement is (the file for `*`). */
const askedEncoding = (d: Disagreement, e: string) => d.asked?.encodings.includes(e) ?? false;
const askedCodec = (d: Disagreement, c: string) => d.asked?.codecs.includes(c) ?? false;

/** Whether the two values are equal or `check` accepts them, descending through arrays/objects of the same shape. */
function cellwise(expected: unknown, actual: unknown, check: (e: unknown, a: unknown) => boolean): boolean {
  if (JSON.stringify(expected) === JSON.stringify(actual) || check(expected, actual)) return true;
  if (Array.isArray(expected) && Array.isArray(actual)) return expected.length === actual.length && expected.every((e, i) => cellwise(e, actual[i], check));
  if (expected && actual && typeof expected === 'object' && typeof actual === 'object' && !Array.isArray(expected) && !Array.isArray(actual)) {
    const ek = Object.keys(expected);
    if (ek.join() === Object.keys(actual).join()) return ek.every((k) => cellwise((expected as Record<string, unknown>)[k], (actual as Record<string, unknown>)[k], check));
  }
  return false;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (BigInt). */
function daysFromCivil(y: bigint, m: bigint, d: bigint): bigint {
  const yy = m <= 2n ? y - 1n : y;
  const era = (yy >= 0n ? yy : yy - 399n) / 400n;
  const yoe = yy - era * 400n;
  const doy = (153n * (m > 2n ? m - 3n : m + 9n) + 2n) / 5n + d - 1n;
  return era * 146097n + yoe * 365n + yoe / 4n - yoe / 100n + doy - 719468n;
}

/** Nanoseconds since the epoch of a canonical timestamp (or of a canonical date, at midnight). */
function nanosOf(s: unknown): bigint | undefined {
  if (typeof s !== 'string') return undefined;
  const m = /^([+-]?\d{4,})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d):(\d\d)\.(\d{3}|\d{6}|\d{9})Z?)?$/.exec(s);
  if (!m) return undefined;
  const days = daysFromCivil(BigInt(m[1]!), BigInt(m[2]!), BigInt(m[3]!));
  const secs = days * 86400n + BigInt(m[4] ?? 0) * 3600n + BigInt(m[5] ?? 0) * 60n + BigInt(m[6] ?? 0);
  return secs * 1000000000n + BigInt((m[7] ?? '0').padEnd(9, '0'));
}

const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
const outsideI64 = (ns: bigint | undefined) => ns !== undefined && (ns > I64_MAX || ns < I64_MIN);

/** The double nearest an exact decimal string, within 4 units in the last place of the peer's double. */
function nearDouble(exact: unknown, a: unknown): boolean {
  if (typeof exact !== 'string' || typeof a !== 'number' || !/^-?\d+(\.\d+)?$/.test(exact)) return false;
  const x = Number(exact);
  return a === x || Math.abs(a - x) <= 4 * Number.EPSILON * Math.abs(x);
}

/** Whether the peer's binary value is the expected FIXED_LEN_BYTE_ARRAY value with its trailing zero bytes dropped. */
function withoutTrailingZeros(e: unknown, a: unknown, h: SchemaHint): boolean {
  if (typeof a !== 'string' || typeof e !== 'string') return false;
  if (isDecimal(h) && /^-?\d+(\.\d+)?$/.test(e) && /^-?\d+(\.\d+)?$/.test(a)) {
    const unscaled = (s: string) => BigInt(s.replace('.', ''));
    const ue = unscaled(e);
    const ua = unscaled(a);
    for (let k = 1n; k <= 32n; k++) if (ue === ua * 256n ** k) return true;
    return false;
  }
  const hex = (s: string) => (/^bin:/.test(s) ? s.slice(4) : /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(s) ? s.replace(/-/g, '') : undefined);
  const he = hex(e);
  const ha = a.startsWith('bin:') ? a.slice(4) : undefined;
  return he !== undefined && ha !== undefined && he.length > ha.length && he.startsWith(ha) && /^(00)+$/.test(he.slice(ha.length));
}

const DAY_NS = 86400000000000n;
const floorDiv = (a: bigint, b: bigint) => (a % b < 0n ? a / b - 1n : a / b);

const utf8 = new TextEncoder();
const binOfText = (s: string) => 'bin:' + [...utf8.encode(s)].map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * fastparquet reads only flat shapes: top-level values, structs of them and lists of them. A MAP, a LIST of
 * groups or of lists, and such fields of a struct come back null in every row (a MAP whose values are lists: as
 * the list of its keys); and a null struct comes back as a struct of null fields.
 */
function fastparquetShape(e: unknown, a: unknown, h: SchemaHint | null): boolean {
  if (JSON.stringify(e) === JSON.stringify(a)) return true;
  if (h === null) return false;
  const rep = h.children[0] ?? null;
  const deepList = isList(h) && rep !== null && (rep.children.length === 1 ? (rep.children[0]?.children.length ?? 0) > 0 : rep.children.length > 1);
  if (isMap(h)) {
    if (a === null) return true;
    const valueHint = rep?.children[1] ?? null;
    return Array.isArray(e) && valueHint !== null && isList(valueHint) && JSON.stringify((e as { key: unknown }[]).map((x) => x.key)) === JSON.stringify(a);
  }
  if (deepList) return a === null;
  if (h.physical === null && !isList(h) && h.children.length > 0) {
    if (a === null || typeof a !== 'object' || Array.isArray(a)) return false;
    const ao = a as Record<string, unknown>;
    // a null struct: its fields null (a FLOAT/DOUBLE field NaN, fastparquet's null there)
    if (e === null) return h.children.every((c) => ao[c.name] === null || ((c.physical === 'FLOAT' || c.physical === 'DOUBLE') && ao[c.name] === 'NaN') || fastparquetShape(null, ao[c.name] ?? null, c));
    if (typeof e !== 'object' || Array.isArray(e)) return false;
    const eo = e as Record<string, unknown>;
    return h.children.every((c) => JSON.stringify(eo[c.name]) === JSON.stringify(ao[c.name]) || fastparquetShape(eo[c.name] ?? null, ao[c.name] ?? null, c));
  }
  return false;
}

/** Limitations of polars and fastparquet. */
export const PYTHON_PEER_LIMITS: readonly PeerLimit[] = [
  // ---- polars 1.44 (polars-parquet)
  {
    id: 'polars-geo-footer',
    peer: 'polars',
    what: 'a file with a GEOMETRY or GEOGRAPHY column cannot be opened at all: "LogicalType union has no variant set"',
    reason: "polars-parquet's Thrift LogicalType union predates GEOMETRY/GEOGRAPHY (parquet-format 2.11) and rejects a union member it does not know instead of skipping it",
    explains: (d) => d.column === '*' && errorCase(d, /LogicalType union has no variant set/, isGeo),
  },
  {
    id: 'polars-interval',
    peer: 'polars',
    what: 'a file with an INTERVAL column cannot be read: a Rust panic "could not import from `month_day_millisecond_interval` type"',
    reason: 'polars has no data type for the Arrow interval it maps INTERVAL to (only behind POLARS_IMPORT_INTERVAL_AS_STRUCT, unstable)',
    explains: (d) => errorCase(d, /could not import from `month_day_millisecond_interval` type/, (h) => h.converted === 'INTERVAL'),
  },
  {
    id: 'polars-decimal-over-38',
    peer: 'polars',
    what: 'DECIMAL of precision over 38 cannot be read: "value has too many bytes for Decimal128" (or "precision must be between 1 and 38")',
    reason: "polars' Decimal is 128-bit",
    explains: (d) => errorCase(d, /value has too many bytes for Decimal128|precision must be between 1 and 38/, isDecimal),
  },
  {
    id: 'polars-decimal-wide-fixed',
    peer: 'polars',
    what: 'a DECIMAL in a FIXED_LEN_BYTE_ARRAY wider than 16 bytes (DECIMAL(20,20) in 20 bytes) cannot be read: "can\'t decode Decimal128 type from Fixed Size Byte Array of len 20"',
    reason: 'polars-parquet decodes a fixed-size DECIMAL into 16 bytes without sign-extending or narrowing a wider one (the format allows any width that holds the precision)',
    explains: (d) => errorCase(d, /can't decode Decimal128 type from Fixed Size Byte Array of len (1[7-9]|[2-9]\d)/, isDecimal),
  },
  {
    id: 'polars-flba-bss-delta',
    peer: 'polars',
    what: 'FIXED_LEN_BYTE_ARRAY columns in BYTE_STREAM_SPLIT or DELTA_BYTE_ARRAY pages cannot be read: "Decoding FixedLenByteArray(n) \\"ByteStreamSplit\\"|\\"DeltaByteArray\\"-encoded … pages not yet supported"',
    reason: 'polars-parquet implements those two encodings for other physical types only',
    explains: (d) =>
      errorCase(d, /Decoding FixedLenByteArray\(\d+\) "(ByteStreamSplit|DeltaByteArray)"-encoded (required|optional) parquet pages not yet supported/, (h) => h.physical === 'FIXED_LEN_BYTE_ARRAY') &&
      (askedEncoding(d, 'BYTE_STREAM_SPLIT') || askedEncoding(d, 'DELTA_BYTE_ARRAY')),
  },
  {
    id: 'polars-json-enum-binary',
    peer: 'polars',
    what: 'JSON and ENUM values come back as binary (the UTF-8 bytes), not as strings',
    reason: 'polars maps only the STRING annotation (and UTF8) to its String type',
    explains: (d) =>
      d.field === undefined && any(d.hint, (h) => h.converted === 'JSON' || h.converted === 'ENUM' || /^(Json|Enum)/i.test(h.logical ?? '')) && cellwise(d.expected, d.actual, (e, a) => typeof e === 'string' && a === binOfText(e)),
  },
  {
    id: 'polars-int96-saturates',
    peer: 'polars',
    what: 'INT96 timestamps outside 1677-09-21 … 2262-04-11 come back as 2262-04-11T23:47:16.854775807 (the largest int64 nanosecond), below the range as well',
    reason: 'polars converts INT96 to int64 nanoseconds with a saturating conversion that maps every overflow to the maximum',
    explains: (d) =>
      d.field === undefined && any(d.hint, (h) => h.physical === 'INT96') && cellwise(d.expected, d.actual, (e, a) => outsideI64(nanosOf(e)) && a === '2262-04-11T23:47:16.854775807'),
  },
  {
    id: 'polars-alp',
    peer: 'polars',
    what: 'a file with ALP pages cannot be read: a Rust panic "OutOfSpec(\\"Thrift out of range\\")" (the Encoding enum value 10 in the footer)',
    reason: 'polars-parquet rejects an Encoding it does not know while reading the footer, and panics instead of erring',
    explains: (d) => d.column === '*' && askedEncoding(d, 'ALP') && errorCase(d, /Thrift out of range/),
  },
  {
    id: 'polars-lzo',
    peer: 'polars',
    what: 'LZO-compressed columns cannot be read: "Compression Lzo is not supported"',
    reason: 'polars-parquet has no LZO codec',
    explains: (d) => askedCodec(d, 'LZO') && errorCase(d, /Compression Lzo is not supported/),
  },
  // ---- fastparquet 2026.9
  {
    id: 'fastparquet-geography-footer',
    peer: 'fastparquet',
    what: "a file with a GEOGRAPHY column cannot be opened: \"'NoneType' object is not iterable\" (its footer parser leaves the row groups unparsed), or, depending on memory, a segmentation fault while parsing the footer",
    reason: "fastparquet's compiled Thrift parser (\"Corrupted thrift data\" on stderr) loses its place at the GEOGRAPHY logical type (parquet-format 2.11) and reads on past it",
    explains: (d) => d.column === '*' && errorCase(d, /'NoneType' object is not iterable|^fastparquet: exited with SIGSEGV$/, logicalIs(/^Geography/i)),
  },
  {
    id: 'fastparquet-bson',
    peer: 'fastparquet',
    what: 'BSON columns cannot be read without the bson module: "BSON not found"',
    reason: 'fastparquet decodes the BSON converted type into Python objects with the optional bson package',
    explains: (d) => errorCase(d, /BSON not found/, (h) => h.converted === 'BSON'),
  },
  {
    id: 'fastparquet-nested',
    peer: 'fastparquet',
    what: 'MAP columns, LISTs of groups or of lists (and such struct fields) come back null in every row, a MAP whose values are lists as the list of its keys; a null struct comes back as a struct of nulls',
    reason: 'fastparquet assembles only flat shapes (a value, a struct of values flattened into dotted columns, a list of values)',
    explains: (d) => d.field === undefined && d.row >= 0 && fastparquetShape(d.expected, d.actual, d.hint),
  },
  {
    id: 'fastparquet-float-null-nan',
    peer: 'fastparquet',
    what: 'a null FLOAT or DOUBLE comes back as NaN',
    reason: 'fastparquet returns a float column as a numpy float array, where a null is NaN',
    explains: (d) => d.field === undefined && any(d.hint, (h) => h.physical === 'FLOAT' || h.physical === 'DOUBLE') && cellwise(d.expected, d.actual, (e, a) => e === null && a === 'NaN'),
  },
  {
    id: 'fastparquet-decimal-double',
    peer: 'fastparquet',
    what: 'DECIMAL values outside lists come back as float64 (within a few ulps of the exact value; large ones rounded)',
    reason: 'fastparquet converts DECIMAL columns to numpy float64',
    explains: (d) => d.field === undefined && any(d.hint, isDecimal) && cellwise(d.expected, d.actual, nearDouble),
  },
  {
    id: 'fastparquet-int96-wraps',
    peer: 'fastparquet',
    what: 'INT96 timestamps outside 1677-09-21 … 2262-04-11 wrap around (int64 nanoseconds)',
    reason: 'fastparquet converts INT96 to datetime64[ns] with wrapping 64-bit arithmetic',
    explains: (d) =>
      d.field === undefined &&
      any(d.hint, (h) => h.physical === 'INT96') &&
      cellwise(d.expected, d.actual, (e, a) => {
        const ns = nanosOf(e);
        return ns !== undefined && outsideI64(ns) && nanosOf(a) === BigInt.asIntN(64, ns);
      }),
  },
  {
    id: 'fastparquet-json-parsed',
    peer: 'fastparquet',
    what: 'JSON values outside lists come back parsed into Python objects ("null" as a null), not as the JSON text',
    reason: 'fastparquet decodes the JSON converted type with a JSON parser',
    explains: (d) =>
      d.field === undefined &&
      any(d.hint, (h) => h.converted === 'JSON') &&
      cellwise(d.expected, d.actual, (e, a) => {
        if (typeof e !== 'string') return false;
        if (e === 'null') return a === null;
        return typeof a === 'object' && a !== null && 'json' in a && JSON.stringify((a as { json: unknown }).json) === JSON.stringify(JSON.parse(e));
      }),
  },
  {
    id: 'fastparquet-enum-binary',
    peer: 'fastparquet',
    what: 'ENUM values come back as binary (the UTF-8 bytes)',
    reason: 'fastparquet converts only UTF8 and JSON byte arrays to str',
    explains: (d) => d.field === undefined && any(d.hint, (h) => h.converted === 'ENUM') && cellwise(d.expected, d.actual, (e, a) => typeof e === 'string' && a === binOfText(e)),
  },
  {
    id: 'fastparquet-flba-trailing-zeros',
    peer: 'fastparquet',
    what: 'FIXED_LEN_BYTE_ARRAY values (fixed binary, and DECIMAL inside lists) lose their trailing zero bytes ("bin:000000" comes back "bin:", 7.0000000000 as 0.0273437500)',
    reason: "fastparquet holds FIXED_LEN_BYTE_ARRAY values in numpy's fixed-width bytes dtype, which strips trailing NUL bytes",
    explains: (d) =>
      d.field === undefined &&
      leaves(d.hint).some((h) => h.physical === 'FIXED_LEN_BYTE_ARRAY') &&
      cellwise(d.expected, d.actual, (e, a) => leaves(d.hint).some((h) => h.physical === 'FIXED_LEN_BYTE_ARRAY' && withoutTrailingZeros(e, a, h))),
  },
  {
    id: 'fastparquet-date-wraps',
    peer: 'fastparquet',
    what: 'DATE values outside 1677-09-21 … 2262-04-11 (0001-01-01, 9999-12-31) wrap around',
    reason: 'fastparquet converts DATE to datetime64[ns], whose int64 nanoseconds overflow',
    explains: (d) =>
      d.field === undefined &&
      any(d.hint, (h) => h.converted === 'DATE') &&
      cellwise(d.expected, d.actual, (e, a) => {
        const ns = nanosOf(e);
        return typeof e === 'string' && e.length === 10 && outsideI64(ns) && nanosOf(a) === floorDiv(BigInt.asIntN(64, ns!), DAY_NS) * DAY_NS;
      }),
  },
  {
    id: 'fastparquet-list-empty-null',
    peer: 'fastparquet',
    what: 'an empty list, and a list of one null or one empty string, comes back null',
    reason: 'fastparquet assembles a list column into Python lists and takes a list whose one element is empty or null for a missing list',
    explains: (d) =>
      d.field === undefined && d.row >= 0 && isList(d.hint) && d.actual === null && Array.isArray(d.expected) && (d.expected.length === 0 || (d.expected.length === 1 && (d.expected[0] === null || d.expected[0] === ''))),
  },
  {
    id: 'fastparquet-lz4-hadoop',
    peer: 'fastparquet',
    what: 'LZ4 (the deprecated Hadoop-framed codec 5) columns cannot be read: "DecompressionError: Decompression failed. Input invalid or too long?"',
    reason: 'fastparquet decompresses codec LZ4 as a raw LZ4 block, without the Hadoop frame',
    explains: (d) => askedCodec(d, 'LZ4') && errorCase(d, /^DecompressionError: Decompression failed\. Input invalid or too long\?$/),
  },
  {
    id: 'fastparquet-lzo',
    peer: 'fastparquet',
    what: 'LZO columns cannot be read: "Decompression \'LZO\' not available"',
    reason: 'fastparquet has no LZO codec',
    explains: (d) => askedCodec(d, 'LZO') && errorCase(d, /Decompression 'LZO' not available/),
  },
  {
    id: 'fastparquet-encodings',
    peer: 'fastparquet',
    what: 'DELTA_LENGTH_BYTE_ARRAY (6), DELTA_BYTE_ARRAY (7), BYTE_STREAM_SPLIT (9) and ALP (10) pages cannot be read: "NotImplementedError: Encoding n" (data page V1)',
    reason: 'fastparquet implements PLAIN, dictionary, RLE and DELTA_BINARY_PACKED only',
    explains: (d) => {
      const m = /^NotImplementedError: Encoding (6|7|9|10)$/.exec(errorOf(d.actual));
      const name = m ? { '6': 'DELTA_LENGTH_BYTE_ARRAY', '7': 'DELTA_BYTE_ARRAY', '9': 'BYTE_STREAM_SPLIT', '10': 'ALP' }[m[1] as '6' | '7' | '9' | '10'] : undefined;
      return name !== undefined && askedEncoding(d, name) && errorCase(d, /./);
    },
  },
  {
    id: 'fastparquet-v2-pages',
    peer: 'fastparquet',
    what: 'many data page V2 columns cannot be read: encodings other than PLAIN/dictionary ("NotImplementedError: " without a message), DELTA_BINARY_PACKED with nulls ("null delta-int not implemented"), nested or dictionary-fallback chunks (numpy shape errors: "boolean index did not match indexed array", "operands could not be broadcast together", "NumPy boolean array indexing assignment cannot assign", "Cannot change data-type for array of references", "cannot perform __mul__ with this index type")',
    reason: "fastparquet's V2 page path handles only flat PLAIN/dictionary pages without the V1 path's fallbacks",
    explains: (d) =>
      pageVersion(d) === 2 &&
      errorCase(
        d,
        /^(NotImplementedError: $|AssertionError: null delta-int not implemented|IndexError: boolean index did not match indexed array|ValueError: operands could not be broadcast together|ValueError: NumPy boolean array indexing assignment cannot assign|TypeError: Cannot change data-type for array of references|TypeError: cannot perform __mul__ with this index type)/,
      ),
  },
  {
    id: 'fastparquet-delta-crash',
    peer: 'fastparquet',
    what: 'some INT64 DELTA_BINARY_PACKED columns (64-bit extremes) crash the process: SIGSEGV',
    reason: "fastparquet's compiled delta decoder writes out of bounds for 64-bit-wide miniblocks",
    explains: (d) => askedEncoding(d, 'DELTA_BINARY_PACKED') && errorCase(d, /exited with SIGSEGV while reading column/, (h) => h.physical === 'INT64'),
  },
  {
    id: 'fastparquet-delta-wrong-values',
    peer: 'fastparquet',
    what: 'DELTA_BINARY_PACKED columns holding wide values (32-bit extremes, random 64-bit values) come back with wrong values of the right type',
    reason: "fastparquet's delta decoder accumulates in too narrow an integer for miniblocks of large bit widths",
    explains: (d) =>
      d.field === undefined && d.row >= 0 && askedEncoding(d, 'DELTA_BINARY_PACKED') && cellwise(d.expected, d.actual, (e, a) => (typeof e === 'string' || typeof e === 'number') && (typeof a === 'string' || typeof a === 'number')),
  },
  {
    id: 'fastparquet-rle-boolean',
    peer: 'fastparquet',
    what: 'BOOLEAN columns in RLE pages (data page V1) come back with wrong booleans',
    reason: 'fastparquet decodes RLE-encoded BOOLEAN values as if bit-packed without the 4-byte length prefix (Encodings.md: RLE for booleans in data pages carries the length)',
    explains: (d) =>
      d.field === undefined && d.row >= 0 && askedEncoding(d, 'RLE') && any(d.hint, (h) => h.physical === 'BOOLEAN') && cellwise(d.expected, d.actual, (e, a) => typeof e === 'boolean' && typeof a === 'boolean'),
  },
  {
    id: 'fastparquet-interval',
    peer: 'fastparquet',
    what: 'INTERVAL columns outside lists cannot be read: numpy shape errors ("could not broadcast input array from shape (n,3)", "boolean array indexing assignment requires a 0 or 1-dimensional input")',
    reason: 'fastparquet converts INTERVAL into an (n, 3) array that does not fit its one-dimensional column',
    explains: (d) => errorCase(d, /could not broadcast input array from shape \(\d+,3\)|NumPy boolean array indexing assignment requires a 0 or 1-dimensional input/, (h) => h.converted === 'INTERVAL'),
  },
  {
    id: 'fastparquet-dict-fallback-strings',
    peer: 'fastparquet',
    what: 'string values of the pages after a dictionary fallback (a chunk of dictionary pages, then PLAIN pages) come back null',
    reason: "fastparquet's object-array assembly loses BYTE_ARRAY values decoded from PLAIN pages that follow dictionary pages in one chunk",
    explains: (d) =>
      d.field === undefined &&
      d.row >= 0 &&
      askedEncoding(d, 'dict') &&
      any(d.hint, (h) => h.physical === 'BYTE_ARRAY') &&
      cellwise(d.expected, d.actual, (e, a) => typeof e === 'string' && a === null),
  },
  {
    id: 'fastparquet-string-list-null',
    peer: 'fastparquet',
    what: 'LISTs of strings come back null (every row of a list column of UTF8 strings; pyarrow-written ones too)',
    reason: "fastparquet's list assembly of UTF8 byte arrays yields no lists (seen with pyarrow's own list<string> files as well)",
    explains: (d) =>
      d.field === undefined &&
      d.row >= 0 &&
      isList(d.hint) &&
      any(d.hint, (h) => h.converted === 'UTF8') &&
      d.actual === null &&
      Array.isArray(d.expected),
  },
];
