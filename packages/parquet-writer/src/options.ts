/**
 * Writer options and their resolution into per-column settings. Defaults are those of the reference writers
 * (parquet-java, arrow-rs, Arrow C++): data page V1, 1 MiB / 20,000-row pages, row groups of 1,048,576 rows or
 * 128 MiB, dictionary pages up to 1 MiB with fallback, SNAPPY, statistics with 64-byte bounds, page CRC32.
 * @module
 */
import { builtinCodecs, CompressionCodec, type CodecMap } from '@parquetry/parquet-codecs';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { Encoding, ParquetError, type OptionRules } from '@parquetry/thrift-compact';
import { checkOptions, describeValue, editDistance } from '@parquetry/thrift-compact/check-options';
import type { ColumnWriterOptions } from './column-writer.js';
import type { ContentDefinedChunking } from './cdc.js';
import type { BloomFilterOptions } from './bloom.js';
import { INFER_RULES } from './schema-infer.js';

/** A compression codec by name (parquet.thrift `CompressionCodec`). */
export type CompressionName = 'UNCOMPRESSED' | 'SNAPPY' | 'GZIP' | 'LZO' | 'BROTLI' | 'LZ4' | 'ZSTD' | 'LZ4_RAW';

/** A value encoding by name (parquet.thrift `Encoding`), for pages that are not dictionary-encoded. */
export type EncodingName = 'PLAIN' | 'RLE' | 'DELTA_BINARY_PACKED' | 'DELTA_LENGTH_BYTE_ARRAY' | 'DELTA_BYTE_ARRAY' | 'BYTE_STREAM_SPLIT' | 'ALP';

/** Options of one column (or of every leaf under a group path). */
export interface ColumnOptions {
  /**
   * Encoding of pages that are not dictionary-encoded (default PLAIN). Other readers may refuse some: DuckDB 1.5
   * cannot open a file with an `ALP` column (a preview encoding; pyarrow refuses the column) and refuses
   * `BYTE_STREAM_SPLIT` on anything but FLOAT and DOUBLE (see the package README).
   */
  encoding?: EncodingName;
  /** Start chunks with dictionary encoding (default true; BOOLEAN never). */
  dictionary?: boolean;
  /** Compression of this column's chunks (default: the file's). */
  compression?: CompressionName;
  /** Compute statistics (default true). */
  statistics?: boolean;
  /** Column-chunk key/value metadata (`ColumnMetaData.key_value_metadata`), in every row group. */
  keyValueMetadata?: Readonly<Record<string, string>>;
  /**
   * A split-block bloom filter per column chunk (default off): `true` sizes it for the chunk's distinct values at
   * fpp 0.01 (at most 1 MiB); or give `{ ndv, fpp, maxBytes }`. Readers use it to skip row groups for `=`/`in`.
   */
  bloomFilter?: boolean | BloomFilterOptions;
}

/** Options shared by {@link writeParquet} and the streaming writer. */
export interface WriteOptions extends Omit<ColumnOptions, 'keyValueMetadata'> {
  /** Codecs by CompressionCodec number, added to the built-in ones (SNAPPY, LZ4, LZ4_RAW, LZO). */
  codecs?: CodecMap;
  /** Data page version (default 1, as every reference writer). */
  pageVersion?: 1 | 2;
  /** Target data page size in bytes, before compression (default 1 MiB). */
  pageSize?: number;
  /** Most rows in a data page (default 20,000). */
  pageRows?: number;
  /** Dictionary page byte limit before falling back (default 1 MiB). */
  dictionaryPageSize?: number;
  /** Most rows in a row group (default 1,048,576). */
  rowGroupRows?: number;
  /**
   * Row group byte limit, of compressed pages (default 128 MiB): a row group is closed once its buffered pages reach
   * it, checked every few rows (as many as the bytes left hold at the size rows have had so far), so it ends within
   * a few rows of the limit however wide the rows are.
   */
  rowGroupBytes?: number;
  /** Also write each page's statistics into its page header (default false). */
  pageStatistics?: boolean;
  /**
   * Write the page index (default true): an OffsetIndex for every column chunk and a ColumnIndex wherever the spec
   * allows one (not for columns without a sort order, nor for a chunk with an all-NaN page). Readers use it to skip
   * pages.
   */
  pageIndex?: boolean;
  /** Byte-array statistics bounds longer than this are truncated (default 64). */
  truncateLength?: number;
  /** Write a CRC32 of each page (default true). */
  checksum?: boolean;
  /**
   * Per-column options by dotted column path (or a group path for every leaf under it; the longer path wins). A path
   * that names no column or group of the schema is an `UNKNOWN_COLUMN` error. Where a field name has dots, a dotted
   * key may name two fields (a top-level `a.b` and the `b` of a struct `a`): that is `AMBIGUOUS_COLUMN`, and a key
   * written as a JSON array of names (`'["a.b"]'`, `'["a","b"]'`) names one exactly.
   */
  columns?: Readonly<Record<string, ColumnOptions>>;
  /** Footer key/value metadata (`columns[path].keyValueMetadata` sets a column chunk's). */
  keyValueMetadata?: Readonly<Record<string, string>>;
  /**
   * The writer's name in the footer (default `parquetry version X.Y.Z (build parquetry-js)`; when appending, the
   * file's own: readers apply their workarounds for a writer's known defects by it, to every row group).
   */
  createdBy?: string;
  /** The declared sort order of every row group (`sorting_columns`), by leaf column path. */
  sortingColumns?: readonly SortingColumnSpec[];
  /**
   * Check, while writing rows or columns, that each row group really is sorted as `sortingColumns` declares (default
   * false): a row out of order is a `NOT_SORTED` error naming the column, the row and both values. Values compare as
   * they are written, in the column's Parquet sort order (the one its statistics use): a DECIMAL by its numeric value
   * whether given as a string, number or bigint, a UUID or other bytes unsigned byte by byte, a string by code point,
   * an unsigned INTEGER as unsigned, -0 equal to +0; NaN cannot be ordered (`NOT_SORTED`). Sort columns must not be
   * inside a list or map, and must have a sort order (not INT96, INTERVAL, VARIANT, GEOMETRY or GEOGRAPHY):
   * `INVALID_OPTION` otherwise.
   */
  checkSorting?: boolean;
  /**
   * Reject JavaScript strings that are not well-formed UTF-16 (a lone surrogate) in STRING, ENUM and JSON columns
   * instead of writing U+FFFD for each (default false). Bytes given for those columns (a `Uint8Array` value, or a
   * binary vector in `writeColumns`) are always checked, whatever this says: a value that is not well-formed UTF-8 on
   * its own is `INVALID_VALUE` naming the column and the row.
   */
  strictUtf8?: boolean;
  /**
   * What the rows hold for a VARIANT column (default `'decode'`): `'decode'`, each value is a decoded Variant value
   * (as the reader's default `variants: 'decode'` returns it: null, booleans, numbers, bigints, strings, binaries,
   * arrays, plain objects, the branded typed values of `@parquetry/parquet-variant`), encoded and shredded by the
   * writer; `'raw'`, each value is its stored group `{ metadata, value, typed_value }` (as the reader's
   * `variants: 'raw'` returns it), written as it is. The two are never guessed from the value: a Variant object with
   * keys `metadata` and `value` holding binaries is an object under `'decode'`, and under `'raw'` a value that is not
   * a stored group is `INVALID_VALUE`. `writeColumns` takes the stored form's leaf columns whatever this says.
   */
  variants?: 'decode' | 'raw';
  /**
   * Content-defined page boundaries (off by default): pages end where a rolling hash of the values says, between
   * `minChunkSize` (256 KiB) and `maxChunkSize` (1 MiB) of value bytes, always on a record boundary, instead of at
   * `pageRows`/`pageSize` — so a small edit changes few pages and content-addressed storage dedupes the rest.
   */
  contentDefinedChunking?: boolean | ContentDefinedChunking;
}

/** One sort key of `sortingColumns`. */
export interface SortingColumnSpec {
  /**
   * Leaf column path: dotted (`'a.b'`), or an array of field names (`['a.b']`, `['a', 'b']`; also as JSON text) for
   * a schema where a dotted path names two fields.
   */
  column: string | readonly string[];
  /** Descending order (default ascending). */
  descending?: boolean;
  /** Nulls before the other values (default after). */
  nullsFirst?: boolean;
}

/** This package's version, written into `created_by`. */
export const VERSION = '0.0.0';

/** The default `created_by`, in the form readers parse (`<name> version <x.y.z> (build <b>)`). */
export const CREATED_BY = `parquetry version ${VERSION} (build parquetry-js)`;

const CODEC_BY_NAME: Record<CompressionName, CompressionCodec> = {
  UNCOMPRESSED: CompressionCodec.UNCOMPRESSED,
  SNAPPY: CompressionCodec.SNAPPY,
  GZIP: CompressionCodec.GZIP,
  LZO: CompressionCodec.LZO,
  BROTLI: CompressionCodec.BROTLI,
  LZ4: CompressionCodec.LZ4,
  ZSTD: CompressionCodec.ZSTD,
  LZ4_RAW: CompressionCodec.LZ4_RAW,
};

const ENCODING_BY_NAME: Record<EncodingName, Encoding> = {
  PLAIN: Encoding.PLAIN,
  RLE: Encoding.RLE,
  DELTA_BINARY_PACKED: Encoding.DELTA_BINARY_PACKED,
  DELTA_LENGTH_BYTE_ARRAY: Encoding.DELTA_LENGTH_BYTE_ARRAY,
  DELTA_BYTE_ARRAY: Encoding.DELTA_BYTE_ARRAY,
  BYTE_STREAM_SPLIT: Encoding.BYTE_STREAM_SPLIT,
  ALP: Encoding.ALP,
};

function positive(name: string, v: number | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  if (!(Number.isInteger(v) && v > 0)) throw new ParquetError('INVALID_OPTION', `parquet-writer: option ${name} must be a positive integer, got ${describeValue(v)}`);
  return v;
}

/**
 * The codec number of a compression name.
 * @param name - the name.
 * @returns the CompressionCodec number.
 * @throws ParquetError `INVALID_OPTION` for an unknown name.
 */
export function codecOf(name: CompressionName): CompressionCodec {
  const c = CODEC_BY_NAME[name];
  if (c === undefined) throw new ParquetError('INVALID_OPTION', `parquet-writer: unknown compression '${String(name)}' (expected one of ${Object.keys(CODEC_BY_NAME).join(', ')})`);
  return c;
}

/** Options resolved once for a file. */
export interface ResolvedOptions {
  /** Codecs. */
  codecs: CodecMap;
  /** Rows per row group. */
  rowGroupRows: number;
  /** Bytes per row group. */
  rowGroupBytes: number;
  /** Per-leaf column writer options. */
  column: (c: ColumnDescriptor) => ColumnWriterOptions;
  /** Footer metadata. */
  keyValueMetadata: { key: string; value: string }[] | undefined;
  /** `created_by`. */
  createdBy: string;
  /** Data page version. */
  pageVersion: 1 | 2;
  /** Strict UTF-8. */
  strictUtf8: boolean;
  /** VARIANT values in rows are stored groups (`variants: 'raw'`). */
  rawVariants: boolean;
  /** Write the page index. */
  pageIndex: boolean;
  /**
   * Checks that every path of the `columns` option names a column of the schema: a leaf, or a group (every leaf under
   * it). Call it once the schema is known.
   * @param columns - the schema's leaf columns.
   * @throws ParquetError `UNKNOWN_COLUMN` naming the path and the nearest column path.
   */
  checkColumns: (columns: readonly ColumnDescriptor[]) => void;
}

/**
 * A path given as a JSON array of field names (`'["a.b"]'`, `'["a","b"]'`), which names a field exactly even when a
 * name has dots in it; undefined for any other string (a dotted path).
 */
export function jsonPath(name: string): readonly string[] | undefined {
  if (!name.startsWith('[')) return undefined;
  try {
    const v: unknown = JSON.parse(name);
    return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The field paths a `columns` key or sort column names: the path given as an array (or JSON array text) itself, a
 * dotted string every field path whose names joined with dots are that string — so `'a.b'` names a top-level field
 * `a.b` as well as the field `b` of a struct `a` (two paths: ambiguous, and the caller says so).
 */
export function namedPaths(name: string | readonly string[], columns: readonly ColumnDescriptor[]): string[][] {
  const given = typeof name === 'string' ? jsonPath(name) : name;
  const found = new Map<string, string[]>();
  for (const c of columns) {
    for (let k = 1; k <= c.path.length; k++) {
      const p = c.path.slice(0, k);
      if (given ? p.length === given.length && p.every((x, i) => x === given[i]) : p.join('.') === name) found.set(JSON.stringify(p), p);
    }
  }
  return [...found.values()];
}

/** Whether the `columns` key `name` (a dotted path, or a JSON array of names) names leaf `c` or a group above it. */
function covers(name: string, c: ColumnDescriptor): boolean {
  const given = jsonPath(name);
  if (given) return given.length <= c.path.length && given.every((x, i) => c.path[i] === x);
  let joined = '';
  for (let k = 0; k < c.path.length; k++) {
    joined = k === 0 ? c.path[0]! : `${joined}.${c.path[k]!}`;
    if (joined === name) return true;
    if (joined.length >= name.length) return false;
  }
  return false;
}

/** The error for a path that names two fields. */
export function ambiguousPath(what: string, name: string, paths: readonly (readonly string[])[]): ParquetError {
  const shown = paths.map((p) => JSON.stringify(p));
  return new ParquetError('AMBIGUOUS_COLUMN', `parquet-writer: ${what} '${name}' names ${paths.length} fields (${shown.join(', ')}: a field name has a dot in it); give the path as a JSON array of names, ${shown.map((x) => `'${x}'`).join(' or ')}`);
}

/** Whether the segments of `path` appear in order in `candidate` (`tags.element` in `tags.list.element`). */
function segmentsWithin(path: readonly string[], candidate: readonly string[]): boolean {
  let i = 0;
  for (const s of candidate) if (i < path.length && s === path[i]) i++;
  return i === path.length;
}

/**
 * The path among `candidates` nearest to `path`: equal but for case first, then the shortest that holds its
 * segments in order (a list or map path without its `list` / `key_value` level), then the fewest edits (ties: the
 * shorter, then the first).
 */
export function nearestPath(path: string, candidates: readonly string[]): string | undefined {
  const lower = path.toLowerCase();
  const sameButCase = candidates.find((c) => c.toLowerCase() === lower);
  if (sameButCase !== undefined) return sameButCase;
  const segs = lower.split('.');
  const within = candidates.filter((c) => segmentsWithin(segs, c.toLowerCase().split('.')));
  if (within.length > 0) return within.reduce((a, b) => (b.length < a.length ? b : a));
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestD || (d === bestD && best !== undefined && c.length < best.length)) {
      best = c;
      bestD = d;
    }
  }
  return best;
}

/**
 * Throws for a path of the `columns` option that names no leaf or group of the schema (a typo would otherwise
 * silently leave the column with the file's options).
 */
function checkColumnPaths(paths: readonly { name: string }[], columns: readonly ColumnDescriptor[]): void {
  for (const { name } of paths) {
    const named = namedPaths(name, columns);
    if (named.length > 1) throw ambiguousPath('columns option', name, named);
    if (named.length === 1) continue;
    // every column and group path, as the option takes them
    const candidates = new Set<string>();
    for (const c of columns) for (let k = 1; k <= c.path.length; k++) candidates.add(c.path.slice(0, k).join('.'));
    const near = nearestPath(name, [...candidates]);
    throw new ParquetError(
      'UNKNOWN_COLUMN',
      `parquet-writer: columns option: '${name}' is not a column or group of the schema${near === undefined ? '' : ` (nearest: '${near}')`}; ` +
        'paths are dotted, as path_in_schema: a top-level name, a.b for a struct member, a.list.element for list elements, m.key_value.key / m.key_value.value',
    );
  }
}

/** `true`/`false` or an object of options checked by `rules`. */
function flagOr(rules: OptionRules, where: string, takes: string): (v: unknown) => string | undefined {
  return (v) => {
    if (typeof v === 'boolean') return undefined;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return `true, false or an object of { ${takes} }`;
    checkOptions(v, rules, where, 'INVALID_OPTION');
    return undefined;
  };
}

const BLOOM_RULES: OptionRules = {
  ndv: 'positive',
  fpp: (v) => (typeof v === 'number' && v > 0 && v < 1 ? undefined : 'a false-positive probability between 0 and 1 (exclusive)'),
  // the split-block filter's size is a power of two of 32-byte blocks (BloomFilter.md)
  maxBytes: (v) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 32 && (v & (v - 1)) === 0 ? undefined : 'a power of two of at least 32 (bytes: the filter is made of 32-byte blocks, a power of two of them)'),
};
/** Key/value metadata: an object of strings (thrift `KeyValue.value` is a string; nothing is coerced). */
function keyValueRule(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'an object of string values';
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'string') return `an object of string values (its key '${k}' has ${describeValue(x)})`;
  }
  return undefined;
}
const COLUMN_RULES: OptionRules = {
  encoding: 'any',
  dictionary: 'boolean',
  compression: (v) => (typeof v === 'string' ? undefined : 'a codec name (SNAPPY, ZSTD, GZIP, UNCOMPRESSED, …)'),
  statistics: 'boolean',
  keyValueMetadata: keyValueRule,
  bloomFilter: flagOr(BLOOM_RULES, 'parquet-writer: option bloomFilter', 'ndv, fpp, maxBytes'),
};
const SORT_RULES: OptionRules = {
  column: (v) => (typeof v === 'string' || (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string')) ? undefined : 'a dotted path or an array of field names'),
  descending: 'boolean',
  nullsFirst: 'boolean',
};
/**
 * Every option of the writer (`WriterOptions`) with the check of its value's kind, as `createWriter`, `writeParquet`
 * and `appendParquet` check them (`checkOptions` of `@parquetry/thrift-compact/check-options`); the numbers are
 * checked with their ranges when the options are resolved. Packages that pass the writer's options on (a dataset
 * writer) build their own list from it.
 */
export const WRITER_RULES: OptionRules = {
  ...COLUMN_RULES,
  codecs: 'object',
  pageVersion: 'any',
  pageSize: 'any',
  pageRows: 'any',
  dictionaryPageSize: 'any',
  rowGroupRows: 'any',
  rowGroupBytes: 'any',
  pageStatistics: 'boolean',
  pageIndex: 'boolean',
  truncateLength: 'any',
  checksum: 'boolean',
  columns: (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'an object of column options by dotted path';
    for (const [path, opts] of Object.entries(v)) checkOptions(opts, COLUMN_RULES, `parquet-writer: columns option '${path}'`, 'INVALID_OPTION');
    return undefined;
  },
  createdBy: 'string',
  sortingColumns: (v) => {
    if (!Array.isArray(v)) return 'an array of { column, descending, nullsFirst }';
    v.forEach((c: unknown, i) => checkOptions(c, SORT_RULES, `parquet-writer: sortingColumns[${i}]`, 'INVALID_OPTION'));
    return undefined;
  },
  checkSorting: 'boolean',
  strictUtf8: 'boolean',
  variants: (v) => (v === 'decode' || v === 'raw' ? undefined : "'decode' or 'raw'"),
  contentDefinedChunking: flagOr({ minChunkSize: 'positive', maxChunkSize: 'positive' }, 'parquet-writer: option contentDefinedChunking', 'minChunkSize, maxChunkSize'),
  schema: 'any',
  infer: (v) => {
    checkOptions(v, INFER_RULES, 'parquet-writer: option infer', 'INVALID_OPTION');
    return undefined;
  },
  encryption: 'object',
  append: 'object',
};

/**
 * Checks the writer's options object: an unknown option (at any level: `columns`, `bloomFilter`,
 * `contentDefinedChunking`, `sortingColumns`, `infer`) or a value of the wrong kind is `INVALID_OPTION` naming it
 * (and the nearest known name), instead of being ignored.
 * @param o - the caller's options.
 * @throws ParquetError `INVALID_OPTION`.
 */
export function checkWriterOptions(o: unknown): void {
  checkOptions(o, WRITER_RULES, 'parquet-writer: options', 'INVALID_OPTION');
  const w = o as (WriteOptions & { append?: unknown }) | undefined;
  if (w === undefined) return;
  if (w.checkSorting === true && !(w.sortingColumns && w.sortingColumns.length > 0)) {
    throw new ParquetError('INVALID_OPTION', 'parquet-writer: options: checkSorting checks the order sortingColumns declares, and no sortingColumns are given');
  }
  const cdc = w.contentDefinedChunking;
  if (typeof cdc === 'object' && cdc.minChunkSize !== undefined && cdc.maxChunkSize !== undefined && cdc.minChunkSize >= cdc.maxChunkSize) {
    throw new ParquetError('INVALID_OPTION', `parquet-writer: options: contentDefinedChunking minChunkSize (${cdc.minChunkSize}) must be less than maxChunkSize (${cdc.maxChunkSize})`);
  }
  if (w.codecs !== undefined) {
    for (const [k, c] of Object.entries(w.codecs)) {
      if (c === null || typeof c !== 'object' || (c as { compress?: unknown }).compress !== undefined && typeof (c as { compress?: unknown }).compress !== 'function') {
        throw new ParquetError('INVALID_OPTION', `parquet-writer: options: codecs[${k}] must be a codec object (with a compress method to write with it), got ${describeValue(c)}`);
      }
    }
  }
  if (w.append !== undefined) checkAppendTarget(w.append);
}

/** An `append` target must be what `appendTarget` or `appendFileSink` gives: the file's metadata and where its data ends. */
function checkAppendTarget(a: unknown): void {
  const t = a as { metadata?: { schema?: unknown; row_groups?: unknown; num_rows?: unknown }; dataEnd?: unknown };
  const md = t.metadata;
  const ok = md !== null && typeof md === 'object' && Array.isArray(md.schema) && md.schema.length > 0 && Array.isArray(md.row_groups) && typeof md.num_rows === 'number' && typeof t.dataEnd === 'number' && Number.isSafeInteger(t.dataEnd) && t.dataEnd >= 4;
  if (!ok) throw new ParquetError('INVALID_OPTION', 'parquet-writer: options: append must be the target appendTarget(bytes) or appendFileSink(path).append gives ({ metadata, dataEnd } of the existing file)');
}

/**
 * Resolves options with their defaults.
 * @param o - the caller's options.
 * @returns resolved options.
 * @throws ParquetError `INVALID_OPTION` for an out-of-range or unknown option value.
 */
export function resolveOptions(o: WriteOptions): ResolvedOptions {
  const codecs: CodecMap = { ...builtinCodecs(), ...o.codecs };
  const pageVersion = o.pageVersion ?? 1;
  if (pageVersion !== 1 && pageVersion !== 2) throw new ParquetError('INVALID_OPTION', `parquet-writer: pageVersion must be 1 or 2, got ${String(pageVersion)}`);
  const base = {
    pageSize: positive('pageSize', o.pageSize, 1 << 20),
    pageRows: positive('pageRows', o.pageRows, 20_000),
    dictionaryPageSize: positive('dictionaryPageSize', o.dictionaryPageSize, 1 << 20),
    truncateLength: o.truncateLength === undefined ? 64 : o.truncateLength === Infinity ? Infinity : positive('truncateLength', o.truncateLength, 64),
  };
  // by dotted path or JSON array of names: a key applies to the leaf of that path and to every leaf under it; a
  // longer (more specific) key wins
  const perColumn = Object.entries(o.columns ?? {})
    .map(([name, opts]) => ({ name, opts, depth: jsonPath(name)?.length ?? name.split('.').length }))
    .sort((a, b) => a.depth - b.depth || a.name.length - b.name.length);
  const checkEncoding = (e: EncodingName | undefined): Encoding => {
    if (e === undefined) return Encoding.PLAIN;
    const n = ENCODING_BY_NAME[e];
    if (n === undefined) throw new ParquetError('INVALID_OPTION', `parquet-writer: unknown encoding '${String(e)}' (expected one of ${Object.keys(ENCODING_BY_NAME).join(', ')})`);
    return n;
  };
  const column = (c: ColumnDescriptor): ColumnWriterOptions => {
    const { keyValueMetadata: _file, columns: _columns, ...defaults } = o;
    let merged: ColumnOptions = defaults;
    for (const { name, opts } of perColumn) if (covers(name, c)) merged = { ...merged, ...opts };
    return {
      codec: codecOf(merged.compression ?? 'SNAPPY'),
      codecs,
      checksum: o.checksum ?? true,
      pageVersion,
      encoding: checkEncoding(merged.encoding),
      dictionary: merged.dictionary ?? true,
      statistics: merged.statistics ?? true,
      pageStatistics: o.pageStatistics ?? false,
      pageIndex: o.pageIndex ?? true,
      keyValueMetadata: merged.keyValueMetadata ? Object.entries(merged.keyValueMetadata).map(([key, value]) => ({ key, value })) : undefined,
      bloomFilter: merged.bloomFilter ? (merged.bloomFilter === true ? {} : merged.bloomFilter) : undefined,
      ...base,
      ...(o.contentDefinedChunking ? { contentDefinedChunking: o.contentDefinedChunking === true ? {} : o.contentDefinedChunking } : {}),
    };
  };
  return {
    codecs,
    rowGroupRows: positive('rowGroupRows', o.rowGroupRows, 1_048_576),
    rowGroupBytes: positive('rowGroupBytes', o.rowGroupBytes, 128 << 20),
    column,
    keyValueMetadata: o.keyValueMetadata ? Object.entries(o.keyValueMetadata).map(([key, value]) => ({ key, value })) : undefined,
    createdBy: o.createdBy ?? CREATED_BY,
    pageVersion,
    strictUtf8: o.strictUtf8 ?? false,
    rawVariants: o.variants === 'raw',
    pageIndex: o.pageIndex ?? true,
    checkColumns: (columns) => checkColumnPaths(perColumn, columns),
  };
}
