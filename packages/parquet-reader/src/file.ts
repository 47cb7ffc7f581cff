/**
 * `openParquet`: the entry point. Reads the footer once, then decodes only the row groups and columns asked for.
 * @module
 */
import type { CodecMap } from '@parquetry/parquet-codecs';
import { assembleFlatRecords, buildSchemaTree, checkDecimals, type ColumnData, type ColumnDescriptor, type Field, type SchemaNode, type SchemaTree, type StructVector, type BinaryVector } from '@parquetry/parquet-levels/read';
import type { SplitBlockBloomFilter } from '@parquetry/parquet-bloom';
import type { FileDecryptionProperties, FileDecryptor } from '@parquetry/parquet-crypto';
import type { PageIndex } from './chunk-index.js';
import { ParquetError, type ColumnChunk, type ColumnMetaData, type FileMetaData, type RowGroup } from '@parquetry/thrift-compact';
import { type DecodedChunk, convertNativeChunk, type ValueOptions } from '@parquetry/parquet-column/decode';
import type { ColumnStatistics } from '@parquetry/parquet-column/read';
import type { ColumnarValueOptions } from '@parquetry/parquet-column/columnar';
import { ReadBudget, checkLimits, defaultLimits, type ReadLimits } from '@parquetry/parquet-column/decode';
import type { Filter } from './filter.js';
import { DEFAULT_TAIL_GUESS, checkLeadingMagic, decodePlainFooter, readRawFooter } from './footer.js';
import { bufferSource, type ByteRange, type ByteSource } from './source.js';
import { Scan, type PruneOptions, type ScanContext, type ScanPlan } from './pipeline.js';
import type { PrunedScan } from './pruned-scan.js';
import { CountingSource, addScanStats, emptyScanStats, type ScanStats } from './scan.js';
import type { BatchOptions, ColumnBatch, RowBatch } from './batches.js';
import { loadBatchReader, loadBloomStage, loadChunkIndex, loadColumnar, loadDottedNames, loadDecryption, loadRecords, loadFilterCheck, loadJson, loadPruning, loadRareDecoders, loadStatistics, loadVariant } from './optional.js';
import { checkReadOptions, OPEN_RULES, READ_RULES } from './read-options.js';

/** Options of {@link openParquet}. */
export interface OpenOptions {
  /** Codecs by CompressionCodec number (the `parquetry` package presets all of them). */
  codecs?: CodecMap;
  /** Bytes read from the end of the file by the first request (default 64 KiB). */
  tailGuess?: number;
  /** Verify page CRC32 checksums when pages carry them (default true). */
  verifyChecksums?: boolean;
  /** Largest number of values one page may claim (default 2^26): a bound on allocations from untrusted headers. */
  maxPageValues?: number;
  /**
   * What each read of the file may materialise: `maxRows` rows assembled, `maxValues` values (levels: values and
   * nulls) decoded, `maxBytes` bytes of decompressed pages and decoded level and value arrays; beyond them a read
   * fails with `LIMIT_EXCEEDED` before it allocates. Defaults scale with the file: the larger of 2^20 rows and 4 rows
   * per byte of file, of 2^23 values and 16 per byte, of 128 MiB and 64 bytes per byte — so a file under 1 MB never
   * makes a read allocate much more than 128 MiB unless the limits are raised (`Infinity` lifts one). Readers that
   * stream (`iterateRowGroups`, `iterateBatches`) charge one row group at a time; `readRows` the whole read. A
   * read's own `limits` override these. Whatever the limits, a file's pages are checked against its metadata (the
   * chunks' `num_values`, the row groups' `num_rows`): no page can claim more than its chunk states.
   */
  limits?: ReadLimits;
  /**
   * Keys for encrypted files (footer key, column keys, a key retriever for a KMS, the AAD prefix). The
   * decryption code (`@parquetry/parquet-crypto`) is loaded only when a file is encrypted. Chunks whose
   * ColumnMetaData is encrypted are decrypted when the file opens (the key retriever is asked once per column key;
   * see {@link ParquetFile.columnMetaData}).
   */
  decryption?: FileDecryptionProperties;
}

/** Options of the reading methods. */
export interface ReadOptions extends ValueOptions, ColumnarValueOptions {
  /**
   * Columns to read, as dotted paths or path arrays; a group path selects all its leaves (default: all). A dotted
   * path also finds a field whose own name has dots; one that names two columns (a field `a.b` beside field `b` of a
   * struct `a`) is `AMBIGUOUS_COLUMN`, and the path array says which.
   *
   * The list also sets the output order of the top-level fields, as pyarrow's `ParquetFile.read(columns=…)` and SQL's
   * `SELECT s, id` do: rows' keys ({@link ParquetFile.readRows}, {@link ParquetFile.iterateRowGroups}, row batches)
   * and the root vector's children ({@link ParquetFile.readRowGroupColumns}, column batches) come in the order of each
   * field's first mention. A nested path (`s.b`) places its top-level field `s` where it is first mentioned; the
   * fields inside a struct keep their schema order (`['s.b', 'id', 's.a']` gives `s` with `a` then `b`, then `id`).
   * A path given twice, or a field mentioned again, is read once, at its first place. Without `columns`, fields come
   * in schema order. A filter column not in `columns` is not returned.
   */
  columns?: readonly (string | readonly string[])[];
  /** Row groups to read, by ordinal (default: all). */
  rowGroups?: readonly number[];
  /** First row to return, counted over the whole file (default 0). */
  rowStart?: number;
  /** Row after the last one to return (default: all). */
  rowEnd?: number;
  /**
   * Maps as `Map` objects (default) or plain objects keyed by the stringified key (under `values: 'json'`, plain
   * objects when the keys allow, else arrays of `{ key, value }`).
   */
  maps?: 'map' | 'object';
  /**
   * VARIANT columns: `'decode'` (default) returns each variant's value; `'raw'` leaves the assembled
   * `{ metadata, value, typed_value }` groups as stored (binary variant plus shredded columns).
   */
  variants?: 'decode' | 'raw';
  /**
   * BYTE_ARRAY columns in {@link ParquetFile.readRowGroupColumns} (DECIMAL excepted): `'vector'` (default) keeps them
   * in Arrow's binary layout, a {@link BinaryVector} of offsets and bytes (UTF-8 for STRING, ENUM and JSON), without
   * a JavaScript value per slot; `'values'` converts them as {@link ParquetFile.readRows} does (strings, `Uint8Array`).
   */
  binary?: 'vector' | 'values';
  /**
   * Only rows matching this filter, evaluated exactly; the pruning pipeline skips what cannot match (see `prune`).
   * Filter columns need not be in `columns`; they must have one value per row (not inside a list, map or VARIANT).
   * The filter is checked before anything is read: an unknown operator or column, or a value of the wrong type for
   * its column, is `FILTER_INVALID`; `Date`s, ISO-8601 strings and numbers are accepted where they convert exactly
   * (timestamps, dates, times, INT64; see filter-check.ts). A filter's column is a dotted path or an array of field
   * names (`FilterColumn`): the array says which column where a name has a dot and a dotted path names two.
   */
  filter?: Filter;
  /**
   * The pruning stages a filtered (or row-ranged) read uses: row-group statistics, dictionaries and bloom filters
   * (for `=`/`in`), and the page index. Each is on by default; `false` turns them all off, `{ pageIndex: false }`
   * one of them. Pruning never changes the result, only what is fetched and decoded.
   */
  prune?: boolean | PruneOptions;
  /** This read's limits (see {@link OpenOptions.limits}), each overriding the file's. */
  limits?: ReadLimits;
  /**
   * Called once when the read ends (for {@link ParquetFile.iterateRowGroups} and {@link ParquetFile.iterateBatches}:
   * when the iteration ends, fails, or is left early) with its {@link ScanStats}: bytes and requests by kind, row
   * groups and pages read and skipped (and why), rows decoded and returned.
   */
  onScan?: (stats: ScanStats) => void;
}

/** An opened Parquet file. */
export interface ParquetFile {
  /** The decoded footer. */
  readonly metadata: FileMetaData;
  /** The schema tree: fields, leaf columns with their paths and max levels. */
  readonly schema: SchemaTree;
  /** Total rows according to the footer. */
  readonly numRows: number;
  /** The byte source. */
  readonly source: ByteSource;
  /**
   * Reads rows as plain objects keyed by top-level field name (in the order `columns` gives them, see
   * {@link ReadOptions.columns}; else schema order).
   * @param options - projection, row groups, row range, value mapping.
   */
  readRows(options?: ReadOptions): Promise<Record<string, unknown>[]>;
  /**
   * Reads one row group in columnar form (Arrow-style vectors: typed arrays or values per slot, validity, list
   * offsets, and BYTE_ARRAY columns as {@link BinaryVector} offsets + bytes unless `binary: 'values'`; BOOLEAN
   * columns as packed bits under `booleans: 'bits'` and INTEGER(8/16/32) ones as typed arrays of their width under
   * `integers: 'typed'`, see {@link ColumnarValueOptions}). VARIANT
   * columns stay in their stored form (the `metadata`/`value` binaries and any shredded columns). `filter`,
   * `rowStart` and `rowEnd` keep only the matching rows of this row group (the filter's columns must have one value
   * per row: not inside a list or map).
   * @param rowGroup - the row group ordinal.
   * @param options - projection, value mapping, filter and row range.
   * @throws ParquetError `FILTER_INVALID` (a filter with an unknown operator or column, or a value of the wrong type),
   *   `FILTER_UNSUPPORTED` for a filter on a column inside a list or map, `INVALID_ARGUMENT` (`columns` not an array),
   *   as well as the reading errors.
   */
  readRowGroupColumns(rowGroup: number, options?: ReadOptions): Promise<StructVector>;
  /**
   * Iterates over row groups, yielding each one's rows: memory stays bounded by one row group.
   * @param options - projection, row groups, value mapping.
   */
  iterateRowGroups(options?: ReadOptions): AsyncGenerator<{ rowGroup: number; rows: Record<string, unknown>[] }>;
  /**
   * Iterates over batches of `batchSize` rows (default 10,000) below the row group, decoding page by page: only one
   * batch's values (plus the pages it spans) are decoded and converted at a time, so memory stays bounded by a batch
   * rather than a row group. Batches never span row groups and never split a record. `form: 'rows'` (default) yields
   * `{ rowGroup, rowStart, rowEnd, rows }` with rows as {@link ParquetFile.readRows} returns them; `form: 'columns'`
   * yields `{ rowGroup, rowStart, rowEnd, columns }` with vectors as {@link ParquetFile.readRowGroupColumns} returns
   * them. Projection, row groups, row range, value mapping, `filter`, `prune` and `onScan` work as in those methods:
   * the batches of a filtered read, concatenated, are exactly what `readRows` returns, fetched through the same
   * pruning pipeline (row-group statistics, dictionaries, bloom filters, and the page index: only the pages holding
   * the kept rows are fetched and decoded, batches are formed from the kept rows, the filter is evaluated per batch
   * and batches without a match are skipped).
   * @param options - batch size (or a byte budget sized from SizeStatistics), form, and the reading options.
   * @returns the batches, in file order.
   * @throws ParquetError `INVALID_ARGUMENT`, `FILTER_INVALID` (see {@link ReadOptions.filter}), `FILTER_UNSUPPORTED`
   *   (a filter on a column inside a list, map or VARIANT),
   *   `ROW_COUNT_MISMATCH` (also for an offset index whose pages prove to hold other rows than it says after some of
   *   them were returned, which `readRows` reads whole instead), and the reading errors.
   */
  iterateBatches(options?: BatchOptions & { form?: 'rows' }): AsyncGenerator<RowBatch>;
  /**
   * Iterates over batches of Arrow-shaped vectors (see the rows form above).
   * @param options - `form: 'columns'`, batch size, and the reading options.
   * @returns the batches, in file order.
   * @throws ParquetError as the rows form.
   */
  iterateBatches(options: BatchOptions & { form: 'columns' }): AsyncGenerator<ColumnBatch>;
  /**
   * Statistics of one column chunk, decoded to the column's value type with the trust rules of `columnStatistics`
   * (`@parquetry/parquet-reader/values`), from the decrypted metadata when the chunk's metadata is encrypted (see
   * {@link ParquetFile.columnMetaData}). Asynchronous: the statistics decoding (and, for `values: 'json'`, the
   * JSON-safe mapping) is a part of the reader loaded the first time it is needed, so that a bundle which never asks
   * for statistics does not load it.
   * @param rowGroup - row group ordinal.
   * @param column - leaf column index or dotted path.
   * @param options - value mapping for the bounds.
   * @returns the statistics, or undefined when the chunk has none.
   * @throws ParquetError (as a rejected promise) `OUT_OF_RANGE`, `UNKNOWN_COLUMN`, `PART_UNAVAILABLE` (the part could
   *   not be loaded; a later call tries again), and for a chunk whose metadata is encrypted and cannot be decrypted
   *   `KEY_MISSING`, `DECRYPTION_FAILED`, `KEY_RETRIEVAL_FAILED`, `INVALID_KEY` or `CORRUPT_METADATA`.
   */
  statistics(rowGroup: number, column: number | string, options?: ReadOptions): Promise<ColumnStatistics | undefined>;
  /**
   * The ColumnMetaData of one column chunk: the footer's `meta_data`, or — when the chunk's metadata is encrypted
   * (`encrypted_column_metadata`: a column with its own key, or any encrypted column under a plaintext footer,
   * whose `meta_data` is then a copy stripped of its statistics) — the decrypted metadata. {@link openParquet}
   * decrypts every chunk's metadata that its keys open once, when the file is opened, so this, `statistics` and
   * every read (row-group statistics, page index and bloom filter pruning) use the same decrypted metadata. A chunk
   * whose metadata cannot be decrypted (its column key not given, a wrong key, tampered bytes) throws the
   * decryption error here, from `statistics` and from any read of that column, never the stripped copy.
   * @param rowGroup - row group ordinal.
   * @param column - leaf column index or dotted path.
   * @returns the chunk's metadata.
   * @throws ParquetError `OUT_OF_RANGE` (no such row group or column), `UNKNOWN_COLUMN`, `MISSING_METADATA` (the
   *   chunk has no metadata), and for encrypted metadata `KEY_MISSING` (no key for the column),
   *   `DECRYPTION_FAILED` (a wrong key or tampered metadata), `KEY_RETRIEVAL_FAILED`, `INVALID_KEY`,
   *   `CORRUPT_METADATA` (the decrypted bytes are not a ColumnMetaData).
   */
  columnMetaData(rowGroup: number, column: number | string): ColumnMetaData;
  /**
   * A column chunk's page index as the file stores it (PageIndex.md): the OffsetIndex (each page's offset, size and
   * first row) and the ColumnIndex (each page's bounds as PLAIN bytes, null pages, null counts, boundary order),
   * decrypted (module types 7 and 6) when the column is encrypted and its key was given. Reads use the page index on
   * their own (filters, row ranges), checked against the chunk; this is for inspecting it, as the CLI's `pages`
   * command does, and returns what the file says unchecked.
   * @param rowGroup - row group ordinal.
   * @param column - leaf column index or dotted path.
   * @returns the structures, or undefined when the chunk has no OffsetIndex.
   * @throws ParquetError `OUT_OF_RANGE`, `UNKNOWN_COLUMN`, `CORRUPT_PAGE_INDEX` (a structure outside the data region
   *   or that does not decode), the source's errors, and for an encrypted column `KEY_MISSING`, `DECRYPTION_FAILED`.
   */
  pageIndex(rowGroup: number, column: number | string): Promise<PageIndex | undefined>;
  /**
   * A column chunk's split-block bloom filter (BloomFilter.md), read whole and decrypted (module types 8 and 9) when
   * the column is encrypted and its key was given, to probe values with as DuckDB's `parquet_bloom_probe` does. A
   * filtered read probes bloom filters on its own (reading only the blocks its values hash to); this is for probing
   * by hand. Needs `@parquetry/parquet-bloom`.
   * @param rowGroup - row group ordinal.
   * @param column - leaf column index or dotted path.
   * @returns the filter, or undefined when the chunk has none.
   * @throws ParquetError `OUT_OF_RANGE`, `UNKNOWN_COLUMN`, `BLOOM_BAD_OFFSET` (outside the data region),
   *   `CORRUPT_BLOOM` and the `parquet-bloom` codes for a malformed filter, `DEPENDENCY_MISSING` (parquet-bloom not
   *   installed), the source's errors, and for an encrypted column the codes of {@link ParquetFile.columnMetaData}.
   */
  bloomFilter(rowGroup: number, column: number | string): Promise<SplitBlockBloomFilter | undefined>;
  /**
   * What every read of this file cost so far, the footer included: the sum of the reads' {@link ScanStats}, with
   * bytes and requests as counted at the byte source since the file was opened (`bytes.footer`, `requests.footer`
   * are the footer's; reads still running are counted too).
   * @returns a snapshot (later reads do not change it).
   */
  scanStats(): ScanStats;
  /**
   * Decodes one column chunk to levels and physical values (the lowest-level read).
   * @param rowGroup - row group ordinal.
   * @param column - leaf column index.
   */
  readColumnChunk(rowGroup: number, column: number): Promise<DecodedChunk>;
}

/**
 * Opens a Parquet file: reads and decodes its footer (one request when the footer fits the tail guess).
 * @param input - a {@link ByteSource}, or the whole file as bytes.
 * @param options - codecs, checksum verification, limits.
 * @returns the opened file.
 * @throws ParquetError `NOT_PARQUET` (also for a leading magic other than the trailing one, checked whenever the
 *   file's head is in hand without a request: bytes given, a source holding its head, a tail read reaching it),
 *   `CORRUPT_FOOTER`, `INVALID_SCHEMA` (also a DECIMAL whose precision or scale breaks LogicalTypes.md's rules:
 *   `checkDecimals` of `@parquetry/parquet-levels`), `ENCRYPTED_FOOTER`, `CORRUPT_METADATA` (a row group whose
 *   column chunks are not one per leaf column), `ROW_COUNT_MISMATCH` (the row groups' `num_rows` do not add up to
 *   the file's), `INVALID_ARGUMENT` (an unknown option or a value outside its set, bad `limits`), `PLAINTEXT_FILE` (an
 *   unencrypted file opened with `decryption`, unless `decryption.allowPlaintextFiles`).
 */
export async function openParquet(input: ByteSource | Uint8Array | ArrayBuffer, options: OpenOptions = {}): Promise<ParquetFile> {
  await checkReadOptions(options, OPEN_RULES, 'parquet-reader: openParquet');
  checkLimits(options.limits);
  const inMemory = input instanceof Uint8Array || input instanceof ArrayBuffer;
  const io = new CountingSource(inMemory ? bufferSource(input) : input);
  const raw = await readRawFooter(io.as('footer'), options.tailGuess ?? DEFAULT_TAIL_GUESS);
  // the leading magic, when the head costs no request (else a damaged head shows in the first page's header)
  const head = inMemory ? new Uint8Array(input instanceof Uint8Array ? input.subarray(0, 4) : input.slice(0, 4)) : (raw.head ?? (io.source.heldFrom === 0 ? await io.as('footer').read(0, 4) : undefined));
  if (head !== undefined) checkLeadingMagic(head, raw.magic);
  // an encrypted footer ("PARE"), or a plaintext footer of an encrypted file (its signature verified when the footer
  // key is known): decrypt.ts opens it, loaded with the decryption
  const metadata = raw.magic === 'PARE' ? undefined : decodePlainFooter(raw).metadata;
  if (!metadata || metadata.encryption_algorithm) {
    if (!metadata && !options.decryption) {
      throw new ParquetError('KEY_MISSING', 'parquet-reader: the footer is encrypted ("PARE"); pass `decryption` keys to read it', raw.offset);
    }
    return ready((await loadDecryption()).openEncrypted(raw, options, (md, decryptor) => new File(io, md, raw.offset, options, decryptor)) as Promise<File>);
  }
  if (options.decryption && options.decryption.allowPlaintextFiles !== true) {
    throw new ParquetError('PLAINTEXT_FILE', 'parquet-reader: the file is not encrypted, but `decryption` was given: an unencrypted file is refused, as it is not authenticated; set `decryption.allowPlaintextFiles` to read unencrypted files too', raw.offset);
  }
  return ready(new File(io, metadata, raw.offset, options));
}

/** A file whose field names have dots: the part that resolves dotted paths (dotted-names.ts), loaded at open. */
async function ready(opening: File | Promise<File>): Promise<File> {
  const file = await opening;
  if (file.schema.columns.some((c) => c.path.some((p) => p.includes('.')))) file.dotted = await loadDottedNames();
  return file;
}

/**
 * Whether `created_by` names parquet-mr older than 1.2.9 (or without a version), whose column chunk sizes leave out
 * the dictionary page header (PARQUET-816 / IMPALA-694).
 * @param createdBy - the footer's created_by.
 */
function writtenBeforeParquet816Fix(createdBy: string | undefined): boolean {
  const m = /^parquet-mr(?: version (\d+)\.(\d+)\.(\d+))?/.exec(createdBy ?? '');
  if (!m) return false;
  if (m[1] === undefined) return true;
  const v = [Number(m[1]), Number(m[2]), Number(m[3])];
  return v[0]! < 1 || (v[0] === 1 && (v[1]! < 2 || (v[1] === 2 && v[2]! < 9)));
}

/**
 * Checks that each row group has one column chunk per leaf column (once, here: every read, filtered or not, and
 * every per-chunk method then finds its chunk), and that the row groups' `num_rows` add up to the file's; returns the
 * file's row count.
 *
 * parquet-rs 0.x (the corpus's `repeated_no_annotation.parquet`, "parquet-rs version 0.3.0") wrote 0 as the file's
 * `num_rows` whatever its row groups held. The reference readers (parquet-java, arrow-rs, Arrow C++) read a file by
 * its row groups' counts and never compare the file's; for that writer this reader does the same — the file then has
 * the rows its row groups hold — and for every other file a disagreement is an error, since one of the counts is
 * wrong and rows would be lost or invented.
 * @returns the file's rows.
 * @throws ParquetError `CORRUPT_METADATA` for a count that is not a non-negative safe integer or a row group with
 *   the wrong number of column chunks, `ROW_COUNT_MISMATCH` naming both counts.
 */
function checkRowGroups(metadata: FileMetaData, ncols: number): number {
  let sum = 0;
  metadata.row_groups.forEach((rg, g) => {
    if (rg.columns.length !== ncols) {
      throw new ParquetError('CORRUPT_METADATA', `parquet-reader: row group ${g} has ${rg.columns.length} column chunks, the schema has ${ncols} leaf columns`);
    }
    if (!(Number.isSafeInteger(rg.num_rows) && rg.num_rows >= 0)) {
      throw new ParquetError('CORRUPT_METADATA', `parquet-reader: row group ${g} says it has ${rg.num_rows} rows`);
    }
    sum += rg.num_rows;
  });
  if (sum === metadata.num_rows) return sum;
  if (metadata.num_rows === 0 && /^parquet-rs version 0\./.test(metadata.created_by ?? '')) return sum;
  throw new ParquetError(
    'ROW_COUNT_MISMATCH',
    `parquet-reader: the footer says the file has ${metadata.num_rows} rows, its ${metadata.row_groups.length} row groups hold ${Number.isSafeInteger(sum) ? sum : 'more than 2^53'}`,
  );
}

/** Throws `MISSING_METADATA` for a chunk without ColumnMetaData. */
function noMetadata(rowGroup: number, col: ColumnDescriptor): never {
  throw new ParquetError('MISSING_METADATA', `parquet-reader: row group ${rowGroup}, column '${col.pathString}' has no ColumnMetaData`);
}

/** Whether a schema node is or holds a VARIANT group. */
function hasVariant(n: SchemaNode): boolean {
  return n.logicalType?.VARIANT !== undefined || n.children.some(hasVariant);
}

/**
 * The opened file. Its members that the lazy parts use (columnar-part.ts, batch-reader.ts, decrypt.ts: the methods
 * only some reads or files need, loaded with them) are internal rather than private.
 * @internal
 */
export class File implements ParquetFile {
  readonly schema: SchemaTree;
  readonly numRows: number;
  readonly source: ByteSource;
  constructor(
    private readonly io: CountingSource,
    readonly metadata: FileMetaData,
    private readonly footerOffset: number,
    private readonly options: OpenOptions,
    readonly decryptor?: FileDecryptor,
  ) {
    this.source = io.source;
    this.schema = buildSchemaTree(metadata.schema);
    checkDecimals(this.schema);
    this.numRows = checkRowGroups(metadata, this.schema.columns.length);
    this.parquetMr816 = writtenBeforeParquet816Fix(metadata.created_by);
    this.hasVariants = hasVariant(this.schema.field.node);
  }

  /** Dotted paths' resolution, for a schema whose field names have dots (else a path splits at every dot). */
  dotted: typeof import('./dotted-names.js') | undefined;

  /** Whether the schema has a VARIANT column (whose decoding is then loaded by the first read). */
  private readonly hasVariants: boolean;
  private variantRows: Promise<((rows: Record<string, unknown>[]) => void) | undefined> | undefined;

  /** The VARIANT row transform (undefined without VARIANT columns), built by the first read that needs it. */
  variants(): Promise<((rows: Record<string, unknown>[]) => void) | undefined> {
    if (!this.hasVariants) return Promise.resolve(undefined);
    return (this.variantRows ??= loadVariant().then((m) => m.variantRowTransform(this.schema)));
  }

  /** The JSON-safe row conversions (VARIANT values decoded, or raw), built when first asked for. */
  private readonly jsonRows: ({ f: ((rows: Record<string, unknown>[]) => void) | undefined } | undefined)[] = [undefined, undefined];

  async jsonTransform(variantsDecoded: boolean): Promise<((rows: Record<string, unknown>[]) => void) | undefined> {
    const k = variantsDecoded ? 1 : 0;
    const { jsonRowTransform } = await loadJson();
    return (this.jsonRows[k] ??= { f: jsonRowTransform(this.schema, variantsDecoded) }).f;
  }

  /**
   * Checks a read's options before anything is read: `columns` must be an array, the filter is validated and its
   * values converted to its columns' types; under `values: 'json'` the read runs with the default mapping (so the
   * filter compares native values) and its result is converted afterwards.
   */
  async prepare<O extends ReadOptions>(options: O, what: string, rules = READ_RULES): Promise<{ options: O; json: boolean }> {
    await checkReadOptions(options, rules, `parquet-reader: options of ${what}`);
    const columns: unknown = options.columns;
    if (columns !== undefined && !(Array.isArray(columns) && columns.every((c: unknown) => typeof c === 'string' || (Array.isArray(c) && c.every((p) => typeof p === 'string'))))) {
      (await loadFilterCheck()).checkColumnsOption(columns);
    }
    const json = options.values === 'json';
    let o = options;
    if (json) {
      // the default mapping (decimals as asked), maps as Map: the JSON conversion decides their final form
      // (and the columnar raw forms: the JSON conversion takes the value mapping's forms)
      const { values: _values, int64: _int64, timestamps: _timestamps, dates: _dates, strings: _strings, maps: _maps, booleans: _booleans, integers: _integers, ...rest } = options;
      o = rest as O;
    }
    if (options.filter !== undefined) o = { ...o, filter: (await loadFilterCheck()).checkReadFilter(options.filter, this.schema, o, what) };
    return { options: o, json };
  }

  private readonly parquetMr816: boolean;

  /**
   * A read's projection: the leaf columns it selects, and the schema it assembles with — the file's without
   * `columns`, else a view of it whose root lists the fields read in the order of their first mention (a nested path
   * places its top-level field; a field mentioned again counts once), so that the assembly builds rows' keys and the
   * root vector's children in that order at no cost per row (each field reads only its own columns, so their order
   * is free; the assembly prunes the root to the fields read anyway).
   * @throws ParquetError `UNKNOWN_COLUMN` for a path that names no column, `AMBIGUOUS_COLUMN` (dotted-names.ts).
   */
  project(columns: ReadOptions['columns']): { sel: boolean[]; schema: SchemaTree } {
    const schema = this.schema;
    const all = schema.columns;
    if (!columns) return { sel: all.map(() => true), schema };
    // a column at `w` (a path array), or under it
    const under = (w: readonly string[], col: ColumnDescriptor) => w.length <= col.path.length && w.every((p, i) => col.path[i] === p);
    const wanted = columns.map((c) => (typeof c !== 'string' ? [...c] : this.dotted ? this.dotted.fieldPath(all, c) : c.split('.')));
    for (const w of wanted) {
      if (!all.some((col) => under(w, col))) throw new ParquetError('UNKNOWN_COLUMN', `parquet-reader: no column '${w.join('.')}' in the schema`);
    }
    // the fields read, at their first mention (a Set keeps the order of first insertion; one path's fields, the
    // schema's order)
    const fields = new Set<Field>();
    for (const w of wanted) for (const f of schema.field.fields) if (f.leaves.some((c) => under(w, all[c]!))) fields.add(f);
    return { sel: all.map((col) => wanted.some((w) => under(w, col))), schema: { ...schema, field: { ...schema.field, fields: [...fields] } } };
  }

  rowGroup(i: number): RowGroup {
    const rg = this.metadata.row_groups[i];
    if (!rg) throw new ParquetError('OUT_OF_RANGE', `parquet-reader: row group ${i} does not exist (the file has ${this.metadata.row_groups.length})`);
    return rg;
  }

  /**
   * The decrypted metadata of the chunks whose ColumnMetaData is encrypted, by row group and column: the value, or
   * the error that kept it unread. Filled by decrypt.ts when the file is opened.
   */
  readonly encryptedMeta: ({ md: ColumnMetaData; error?: undefined } | { md?: undefined; error: ParquetError } | undefined)[][] = [];

  /**
   * A chunk's metadata: decrypted when encrypted (see {@link ParquetFile.columnMetaData}); undefined for a chunk
   * without any.
   * @throws ParquetError the error that kept an encrypted chunk's metadata unread.
   */
  private metaOf(g: number, i: number): ColumnMetaData | undefined {
    const cc = this.rowGroup(g).columns[i];
    const known = this.encryptedMeta[g]?.[i];
    if (known?.error) {
      const e = known.error;
      throw new ParquetError(e.code, e.message, e.offset, { cause: e });
    }
    if (known) return known.md;
    return cc?.meta_data;
  }

  /**
   * The chunk's metadata for a read: as {@link File.metaOf}; a chunk whose decryption failed when the file was opened
   * is tried again (a key retriever's failure may have been transient).
   */
  private async chunkMeta(rg: number, col: ColumnDescriptor, cc: ColumnChunk): Promise<ColumnMetaData> {
    const known = this.encryptedMeta[rg]?.[col.index];
    if (known?.error) {
      const md = await (await loadDecryption()).decryptMeta(this, rg, col.index, cc);
      (this.encryptedMeta[rg] ??= [])[col.index] = { md };
      return md;
    }
    return this.metaOf(rg, col.index) ?? noMetadata(rg, col);
  }

  columnDecryptor(rg: number, col: ColumnDescriptor, cc: ColumnChunk) {
    const ordinal = this.metadata.row_groups[rg]?.ordinal ?? rg;
    return this.decryptor!.columnDecryptor(ordinal, col.index, cc.crypto_metadata!, col.path);
  }

  private chunkRange(rg: number, col: ColumnDescriptor, md: ColumnMetaData): ByteRange {
    let start = md.data_page_offset;
    const dict = md.dictionary_page_offset;
    // some writers store 0 for "no dictionary"; a dictionary page always precedes the data pages;
    // an empty chunk may have data_page_offset 0 and only a dictionary page
    if (dict !== undefined && dict >= 4 && (dict < start || start < 4)) start = dict;
    let end = start + md.total_compressed_size;
    // PARQUET-816: parquet-mr up to 1.2.8 left the dictionary page header out of total_compressed_size; read up to
    // 100 bytes more (the largest dictionary page header), as Arrow does. The page loop stops at num_values.
    // (such files may not even set dictionary_page_offset, so this applies to every chunk)
    if (this.parquetMr816) end = Math.min(end + 100, this.footerOffset);
    if (!(start >= 4 && md.total_compressed_size >= 0 && end <= this.footerOffset)) {
      throw new ParquetError(
        'CORRUPT_METADATA',
        `parquet-reader: row group ${rg}, column '${col.pathString}': chunk bytes [${start}, ${end}) fall outside the data region [4, ${this.footerOffset})`,
        start,
      );
    }
    return { start, end };
  }

  /** What the pruning pipeline needs of this file. */
  scanContext(): ScanContext {
    const cols = this.schema.columns;
    return (this.context ??= {
      schema: this.schema,
      metadata: this.metadata,
      io: this.io,
      footerOffset: this.footerOffset,
      oddChunkSizes: this.parquetMr816,
      // the rare decoders from a part of the reader's own, not parquet-encodings' import(): see optional.ts
      decodeOptions: { ...this.options, loadRareDecoders },
      chunkMeta: (g, i) => this.chunkMeta(g, cols[i]!, this.rowGroup(g).columns[i]!),
      chunkRange: (g, i, md) => this.chunkRange(g, cols[i]!, md),
      loadBloomStage,
      decrypt: (g, i) => {
        const cc = this.rowGroup(g).columns[i]!;
        if (!cc.crypto_metadata || !this.decryptor) return undefined;
        const dec = this.columnDecryptor(g, cols[i]!, cc);
        return (module, page, b) => dec.decrypt(module as 2, page, b);
      },
    });
  }

  private context: ScanContext | undefined;

  /** A read's plan: its columns, filter, value mapping and pruning stages. */
  plan(options: ReadOptions, outSel: readonly boolean[] = [], filter?: Filter, filterIdx: readonly number[] = [], decimals: ReadonlySet<string> = new Set()): ScanPlan {
    checkLimits(options.limits);
    const budget = new ReadBudget(defaultLimits(this.source.byteLength, { ...this.options.limits, ...options.limits }));
    return { outSel, filter, filterIdx, decimals, options, prune: options.prune, budget };
  }

  /** A read of whole row groups (no filter, no row range): no pruning stage. */
  newScan(options: ReadOptions, outSel: readonly boolean[] = []): Scan {
    return new Scan(this.scanContext(), this.plan(options, outSel));
  }

  /** A filtered or row-ranged read: the pruning stages, loaded the first time. */
  async prunedScan(options: ReadOptions, outSel: readonly boolean[], filter: Filter | undefined, filterIdx: readonly number[], decimals: ReadonlySet<string>): Promise<PrunedScan> {
    const { PrunedScan } = await loadPruning();
    return new PrunedScan(this.scanContext(), this.plan(options, outSel, filter, filterIdx, decimals));
  }

  /** Ends a read: adds its statistics to the file's and hands them to `onScan`. */
  endScan(scan: Scan, options: ReadOptions): void {
    addScanStats(this.totals, scan.stats);
    options.onScan?.(scan.stats);
  }

  private readonly totals = emptyScanStats();

  scanStats(): ScanStats {
    const s = addScanStats(emptyScanStats(), this.totals);
    // bytes and requests as counted at the source: the footer, and every read (also those still running)
    s.bytes = { ...this.io.totals.bytes };
    s.requests = { ...this.io.totals.requests };
    return s;
  }

  decodeChunks(rg: number, sel: readonly boolean[], scan?: Scan): Promise<(DecodedChunk | undefined)[]> {
    this.rowGroup(rg);
    return (scan ?? this.newScan({})).wholeChunks(rg, sel);
  }

  async readColumnChunk(rowGroup: number, column: number): Promise<DecodedChunk> {
    this.leaf(column);
    return (await this.decodeChunks(rowGroup, this.schema.columns.map((_, i) => i === column)))[column]!;
  }

  private toColumnData(chunks: (DecodedChunk | undefined)[], options: ReadOptions): (ColumnData | undefined)[] {
    return chunks.map((c, i) => c && { def: c.def, rep: c.rep, numLevels: c.numLevels, values: convertNativeChunk(c, this.schema.columns[i]!, options) });
  }

  /**
   * Rows from the columns' data: flat reads here, nested ones by the record assembly, loaded the first time.
   * @param schema - the read's schema ({@link File.project}).
   */
  private async records(schema: SchemaTree, data: (ColumnData | undefined)[], maps: 'map' | 'object'): Promise<Record<string, unknown>[]> {
    return assembleFlatRecords(schema, data, { maps }) ?? (await loadRecords()).assembleRecords(schema, data, { maps });
  }

  async readRows(options: ReadOptions = {}): Promise<Record<string, unknown>[]> {
    const parts: Record<string, unknown>[][] = [];
    let n = 0;
    // one budget for the whole read: every row group's rows are kept
    for await (const { rows } of this.rowGroupRows(options, false)) {
      parts.push(rows);
      n += rows.length;
    }
    if (parts.length === 1) return parts[0]!;
    const out = new Array<Record<string, unknown>>(n);
    let k = 0;
    for (const rows of parts) for (let i = 0; i < rows.length; i++) out[k++] = rows[i]!;
    return out;
  }

  leafIndex(path: string): number {
    const cols = this.schema.columns;
    const i = cols.findIndex((c) => c.pathString === path);
    if (i < 0) throw new ParquetError('UNKNOWN_COLUMN', `parquet-reader: no leaf column '${path}' in the schema`);
    this.dotted?.checkLeaf(cols, i, path);
    return i;
  }

  /**
   * A leaf column by index or dotted path.
   * @throws ParquetError `OUT_OF_RANGE`, `UNKNOWN_COLUMN`.
   */
  private leaf(column: number | string): ColumnDescriptor {
    const col = this.schema.columns[typeof column === 'number' ? column : this.leafIndex(column)];
    if (!col) throw new ParquetError('OUT_OF_RANGE', `parquet-reader: column ${column} does not exist`);
    return col;
  }

  async statistics(rowGroup: number, column: number | string, options: ReadOptions = {}): Promise<ColumnStatistics | undefined> {
    await checkReadOptions(options, READ_RULES, 'parquet-reader: statistics');
    const col = this.leaf(column);
    const md = this.metaOf(rowGroup, col.index);
    // decoded in a lazy part (with the JSON-safe mapping when asked): the initial load holds neither
    return md && (await loadStatistics()).columnStatistics(this.metadata, col, md, options);
  }

  columnMetaData(rowGroup: number, column: number | string): ColumnMetaData {
    const col = this.leaf(column);
    return this.metaOf(rowGroup, col.index) ?? noMetadata(rowGroup, col);
  }

  async pageIndex(rowGroup: number, column: number | string): Promise<PageIndex | undefined> {
    const col = this.leaf(column);
    this.rowGroup(rowGroup);
    return (await loadChunkIndex()).readChunkPageIndex(this.scanContext(), rowGroup, col.index);
  }

  async bloomFilter(rowGroup: number, column: number | string): Promise<SplitBlockBloomFilter | undefined> {
    const col = this.leaf(column);
    this.rowGroup(rowGroup);
    return (await loadBloomStage()).readChunkBloomFilter(this.scanContext(), rowGroup, col.index);
  }

  /**
   * The filter's leaf columns and which of them compare as exact decimals, after refusing (`FILTER_UNSUPPORTED`) a
   * filter column without one value per row (filter-check.ts, which a filtered read has loaded already); none
   * without a filter.
   */
  async filterPlan(filter: Filter | undefined, options: ReadOptions, what: string): Promise<{ filterIdx: number[]; decimals: Set<string> }> {
    return filter === undefined ? { filterIdx: [], decimals: new Set() } : (await loadFilterCheck()).readFilterPlan(this, filter, options, what);
  }

  iterateRowGroups(options: ReadOptions = {}): AsyncGenerator<{ rowGroup: number; rows: Record<string, unknown>[] }> {
    return this.rowGroupRows(options, true);
  }

  /** The rows of each row group; `streaming`: the budget is charged one row group at a time. */
  private async *rowGroupRows(options: ReadOptions, streaming: boolean): AsyncGenerator<{ rowGroup: number; rows: Record<string, unknown>[] }> {
    const prep = await this.prepare(options, 'a read');
    options = prep.options;
    const json = prep.json ? await this.jsonTransform(options.variants !== 'raw') : undefined;
    const variants = options.variants !== 'raw' ? await this.variants() : undefined;
    const filter = options.filter;
    const { sel: outSel, schema } = this.project(options.columns);
    const { filterIdx, decimals } = await this.filterPlan(filter, options, 'a read');
    const groups = options.rowGroups ?? this.metadata.row_groups.map((_, i) => i);
    const maps = options.maps ?? 'map';
    const anyColumn = outSel.includes(true);
    const ranged = options.rowStart !== undefined || options.rowEnd !== undefined;
    const scan = filter || ranged ? await this.prunedScan(options, outSel, filter, filterIdx, decimals) : this.newScan(options, outSel);
    try {
      for (const g of groups) {
        this.rowGroup(g);
        if (streaming) scan.releaseBudget();
        const range = scan.rowRange(g, options.rowStart, options.rowEnd);
        if (range === undefined) continue;
        const { cut, first, last } = range;
        let rows: Record<string, unknown>[];
        if (filter || (cut && anyColumn)) {
          // the pipeline: prune, decode the filter columns' kept pages, evaluate, then only the matching rows of the rest
          const chunks = await (scan as PrunedScan).rowGroup(g, first, last, true);
          if (chunks === undefined) continue;
          rows = await this.records(schema, this.toColumnData(chunks, options), maps);
        } else {
          const chunks = await this.decodeChunks(g, outSel, scan);
          rows = await this.records(schema, this.toColumnData(chunks, options), maps);
          if (cut) rows = rows.slice(first, last);
        }
        variants?.(rows);
        json?.(rows);
        scan.returned(rows.length);
        yield { rowGroup: g, rows };
      }
    } finally {
      this.endScan(scan, options);
    }
  }

  iterateBatches(options?: BatchOptions & { form?: 'rows' }): AsyncGenerator<RowBatch>;
  iterateBatches(options: BatchOptions & { form: 'columns' }): AsyncGenerator<ColumnBatch>;
  iterateBatches(options: BatchOptions = {}): AsyncGenerator<RowBatch | ColumnBatch> {
    return this.batches(options);
  }

  /** The batches (batch-reader.ts, which loads the pruning stages for a filtered or row-ranged read). */
  private async *batches(options: BatchOptions): AsyncGenerator<RowBatch | ColumnBatch> {
    const { fileBatches } = await loadBatchReader();
    yield* fileBatches(this, options);
  }

  /**
   * Columnar reads are columnar-part.ts's, loaded with the columnar assembly before the chunks are decoded: the SNAPPY
   * kernel's import is awaited by the page reader before large pages (parquet-codecs' prepareCodec), so a file in
   * memory decodes with it whatever was imported first.
   */
  async readRowGroupColumns(rowGroup: number, options: ReadOptions = {}): Promise<StructVector> {
    return (await loadColumnar()).readRowGroupColumns(this, rowGroup, options);
  }
}
