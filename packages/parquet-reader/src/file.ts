/**
 * `openParquet`: the entry point. Reads the footer once, then decodes only the row groups and columns asked for.
 * @module
 */
import type { CodecMap } from '@parquetry/parquet-codecs';
import { assembleColumnar, assembleRecords, buildSchemaTree, type ColumnData, type ColumnDescriptor, type Field, type SchemaTree, type StructVector, type BinaryVector } from '@parquetry/parquet-levels';
import type { FileDecryptionProperties, FileDecryptor } from '@parquetry/parquet-crypto';
import { ParquetError, Type, decodeThrift, readColumnMetaData, type ColumnChunk, type ColumnMetaData, type FileMetaData, type RowGroup } from '@parquetry/thrift-compact';
import { decodeColumnChunk, type DecodedChunk, convertChunk, type ValueOptions, columnStatistics, type ColumnStatistics, chunkByteArrays } from '@parquetry/parquet-column';
import { filterColumns, matchRow, statisticsPruner, type Filter, type RowGroupPruner } from './filter.js';
import { keepRows, selectRows } from './select.js';
import { DEFAULT_TAIL_GUESS, decodePlainFooter, readRawFooter } from './footer.js';
import { bufferSource, readRanges, type ByteRange, type ByteSource } from './source.js';
import { variantRowTransform } from './variant.js';
import { iterateBatches, type BatchOptions, type ColumnBatch, type RowBatch } from './batches.js';

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
   * Keys for encrypted files (footer key, column keys, a key retriever for a KMS, the AAD prefix). The
   * decryption code (`@parquetry/parquet-crypto`) is loaded only when a file is encrypted.
   */
  decryption?: FileDecryptionProperties;
}

/** Options of the reading methods. */
export interface ReadOptions extends ValueOptions {
  /** Columns to read, as dotted paths or path arrays; a group path selects all its leaves (default: all). */
  columns?: readonly (string | readonly string[])[];
  /** Row groups to read, by ordinal (default: all). */
  rowGroups?: readonly number[];
  /** First row to return, counted over the whole file (default 0). */
  rowStart?: number;
  /** Row after the last one to return (default: all). */
  rowEnd?: number;
  /** Maps as `Map` objects (default) or plain objects keyed by the stringified key. */
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
   * Only rows matching this filter. Row groups whose statistics prove no row can match are not read;
   * the rest are filtered exactly. Filter columns need not be in `columns`.
   */
  filter?: Filter;
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
   * Reads rows as plain objects keyed by top-level field name.
   * @param options - projection, row groups, row range, value mapping.
   */
  readRows(options?: ReadOptions): Promise<Record<string, unknown>[]>;
  /**
   * Reads one row group in columnar form (Arrow-style vectors: typed arrays or values per slot, validity, list
   * offsets, and BYTE_ARRAY columns as {@link BinaryVector} offsets + bytes unless `binary: 'values'`). VARIANT
   * columns stay in their stored form (the `metadata`/`value` binaries and any shredded columns). `filter`,
   * `rowStart` and `rowEnd` keep only the matching rows of this row group (the filter's columns must have one value
   * per row: not inside a list or map).
   * @param rowGroup - the row group ordinal.
   * @param options - projection, value mapping, filter and row range.
   * @throws ParquetError `FILTER_UNSUPPORTED` for a filter on a column inside a list or map, as well as the reading errors.
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
   * them. Projection, row groups, row range, value mapping and `filter` (exact, per batch; batches without a match
   * are skipped) work as in those methods.
   * @param options - batch size (or a byte budget sized from SizeStatistics), form, and the reading options.
   * @returns the batches, in file order.
   * @throws ParquetError `INVALID_ARGUMENT`, `FILTER_UNSUPPORTED` (columnar filter on a column inside a list),
   *   `ROW_COUNT_MISMATCH`, and the reading errors.
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
   * Statistics of one column chunk, decoded to the column's value type with the trust rules of
   * {@link columnStatistics} (undefined when the chunk has none).
   * @param rowGroup - row group ordinal.
   * @param column - leaf column index or dotted path.
   * @param options - value mapping for the bounds.
   */
  statistics(rowGroup: number, column: number | string, options?: ReadOptions): ColumnStatistics | undefined;
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
 * @throws ParquetError `NOT_PARQUET`, `CORRUPT_FOOTER`, `INVALID_SCHEMA`, `ENCRYPTED_FOOTER`.
 */
export async function openParquet(input: ByteSource | Uint8Array | ArrayBuffer, options: OpenOptions = {}): Promise<ParquetFile> {
  const source = input instanceof Uint8Array || input instanceof ArrayBuffer ? bufferSource(input) : input;
  const raw = await readRawFooter(source, options.tailGuess ?? DEFAULT_TAIL_GUESS);
  if (raw.magic === 'PARE') {
    if (!options.decryption) {
      throw new ParquetError('KEY_MISSING', 'parquet-reader: the footer is encrypted ("PARE"); pass `decryption` keys to read it', raw.offset);
    }
    const crypto = await import('@parquetry/parquet-crypto');
    const opened = await crypto.openEncryptedFooter(raw.bytes, options.decryption, raw.offset);
    return new File(source, opened.fileMetaData, raw.offset, options, opened.decryptor);
  }
  const { metadata } = decodePlainFooter(raw);
  if (metadata.encryption_algorithm) {
    // plaintext footer of an encrypted file: verify its signature when the footer key is known
    const crypto = await import('@parquetry/parquet-crypto');
    const opened = await crypto.openSignedFooter(raw.bytes, options.decryption ?? {}, raw.offset);
    return new File(source, opened.fileMetaData, raw.offset, options, opened.decryptor);
  }
  return new File(source, metadata, raw.offset, options);
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

/** One byte per row of a decoded chunk, 1 for rows `first` to `last` (exclusive). */
function rowRange(chunk: DecodedChunk, first: number, last: number): { keep: Uint8Array; count: number } {
  let rows = chunk.numLevels;
  if (chunk.rep) {
    rows = 0;
    for (let i = 0; i < chunk.numLevels; i++) if (chunk.rep[i] === 0) rows++;
  }
  const keep = new Uint8Array(rows);
  const from = Math.min(first, rows);
  const to = Math.max(from, Math.min(last, rows));
  keep.fill(1, from, to);
  return { keep, count: to - from };
}

/** Row-group pruners tried in order; page-index, bloom and dictionary pruning add themselves here. */
const PRUNERS: readonly RowGroupPruner[] = [statisticsPruner];

class File implements ParquetFile {
  readonly schema: SchemaTree;
  readonly numRows: number;
  constructor(
    readonly source: ByteSource,
    readonly metadata: FileMetaData,
    private readonly footerOffset: number,
    private readonly options: OpenOptions,
    private readonly decryptor?: FileDecryptor,
  ) {
    this.schema = buildSchemaTree(metadata.schema);
    this.numRows = metadata.num_rows;
    this.parquetMr816 = writtenBeforeParquet816Fix(metadata.created_by);
    this.variants = variantRowTransform(this.schema);
  }

  private readonly variants: ((rows: Record<string, unknown>[]) => void) | undefined;

  private readonly parquetMr816: boolean;

  private selectColumns(columns: ReadOptions['columns']): boolean[] {
    const all = this.schema.columns;
    if (!columns) return all.map(() => true);
    const wanted = columns.map((c) => (typeof c === 'string' ? c.split('.') : [...c]));
    const sel = all.map((col) => wanted.some((w) => w.length <= col.path.length && w.every((p, i) => col.path[i] === p)));
    for (const w of wanted) {
      if (!all.some((col) => w.length <= col.path.length && w.every((p, i) => col.path[i] === p))) {
        throw new ParquetError('UNKNOWN_COLUMN', `parquet-reader: no column '${w.join('.')}' in the schema`);
      }
    }
    return sel;
  }

  private rowGroup(i: number): RowGroup {
    const rg = this.metadata.row_groups[i];
    if (!rg) throw new ParquetError('OUT_OF_RANGE', `parquet-reader: row group ${i} does not exist (the file has ${this.metadata.row_groups.length})`);
    return rg;
  }

  /** The chunk's metadata, decrypting `encrypted_column_metadata` when the column is encrypted. */
  private async chunkMeta(rg: number, col: ColumnDescriptor, cc: ColumnChunk): Promise<ColumnMetaData> {
    if (cc.encrypted_column_metadata && cc.crypto_metadata && this.decryptor) {
      const dec = this.columnDecryptor(rg, col, cc);
      const plain = await dec.decrypt(1 /* COLUMN_META_DATA */, 0, cc.encrypted_column_metadata);
      return decodeThrift(readColumnMetaData, plain).value;
    }
    if (!cc.meta_data) throw new ParquetError('MISSING_METADATA', `parquet-reader: row group ${rg}, column '${col.pathString}' has no ColumnMetaData`);
    return cc.meta_data;
  }

  private columnDecryptor(rg: number, col: ColumnDescriptor, cc: ColumnChunk) {
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

  private async decodeChunks(rg: number, sel: readonly boolean[]): Promise<(DecodedChunk | undefined)[]> {
    const group = this.rowGroup(rg);
    const cols = this.schema.columns;
    if (group.columns.length !== cols.length) {
      throw new ParquetError('CORRUPT_METADATA', `parquet-reader: row group ${rg} has ${group.columns.length} column chunks, the schema has ${cols.length} leaf columns`);
    }
    const idx = cols.map((_, i) => i).filter((i) => sel[i]);
    if (group.num_rows === 0) {
      // an empty row group (pyarrow writes one into a zero-row file, its chunks at offset 0 with no bytes): no pages
      const empty = (c: ColumnDescriptor): DecodedChunk => ({
        def: c.maxDef > 0 ? new Int32Array(0) : undefined,
        rep: c.maxRep > 0 ? new Int32Array(0) : undefined,
        numLevels: 0,
        dictionary: undefined,
        segments: [],
        numValues: 0,
        pages: 0,
      });
      return cols.map((c, i) => (sel[i] ? empty(c) : undefined));
    }
    const metas = await Promise.all(idx.map((i) => this.chunkMeta(rg, cols[i]!, group.columns[i]!)));
    const ranges = idx.map((i, k) => this.chunkRange(rg, cols[i]!, metas[k]!));
    const bytes = await readRanges(this.source, ranges);
    const out: (DecodedChunk | undefined)[] = new Array(cols.length);
    for (let k = 0; k < idx.length; k++) {
      const i = idx[k]!;
      const col = cols[i]!;
      const cc = group.columns[i]!;
      let decrypt: ((module: number, page: number, b: Uint8Array) => Promise<Uint8Array>) | undefined;
      if (cc.crypto_metadata && this.decryptor) {
        const dec = this.columnDecryptor(rg, col, cc);
        decrypt = (module, page, b) => dec.decrypt(module as 2, page, b);
      }
      out[i] = await decodeColumnChunk(bytes[k]!, col, metas[k]!, { rowGroup: rg, path: col.pathString, offset: ranges[k]!.start }, { ...this.options, decrypt });
    }
    return out;
  }

  readColumnChunk(rowGroup: number, column: number): Promise<DecodedChunk> {
    const sel = this.schema.columns.map((_, i) => i === column);
    if (!this.schema.columns[column]) return Promise.reject(new ParquetError('OUT_OF_RANGE', `parquet-reader: column ${column} does not exist`));
    return this.decodeChunks(rowGroup, sel).then((c) => c[column]!);
  }

  private toColumnData(chunks: (DecodedChunk | undefined)[], options: ReadOptions, binaryVectors = false, rowGroup = -1): (ColumnData | undefined)[] {
    return chunks.map((c, i) => {
      if (c === undefined) return undefined;
      const col = this.schema.columns[i]!;
      const values =
        binaryVectors && col.type === Type.BYTE_ARRAY && !col.node.logicalType?.DECIMAL
          ? chunkByteArrays(c.segments, c.dictionary, c.numValues, `row group ${rowGroup}, column '${col.pathString}'`)
          : convertChunk(c, col, options);
      return { def: c.def, rep: c.rep, numLevels: c.numLevels, values };
    });
  }

  async readRows(options: ReadOptions = {}): Promise<Record<string, unknown>[]> {
    const parts: Record<string, unknown>[][] = [];
    let n = 0;
    for await (const { rows } of this.iterateRowGroups(options)) {
      parts.push(rows);
      n += rows.length;
    }
    if (parts.length === 1) return parts[0]!;
    const out = new Array<Record<string, unknown>>(n);
    let k = 0;
    for (const rows of parts) for (let i = 0; i < rows.length; i++) out[k++] = rows[i]!;
    return out;
  }

  private leafIndex(path: string): number {
    const i = this.schema.columns.findIndex((c) => c.pathString === path);
    if (i < 0) throw new ParquetError('UNKNOWN_COLUMN', `parquet-reader: no leaf column '${path}' in the schema`);
    return i;
  }

  statistics(rowGroup: number, column: number | string, options: ReadOptions = {}): ColumnStatistics | undefined {
    const i = typeof column === 'number' ? column : this.leafIndex(column);
    const col = this.schema.columns[i];
    if (!col) throw new ParquetError('OUT_OF_RANGE', `parquet-reader: column ${column} does not exist`);
    const md = this.rowGroup(rowGroup).columns[i]?.meta_data;
    return md ? columnStatistics(this.metadata, col, md, options) : undefined;
  }

  /** The filter's leaf columns and which of them compare as exact decimals. */
  private filterPlan(filter: Filter | undefined, options: ReadOptions): { filterIdx: number[]; decimals: Set<string> } {
    const filterIdx: number[] = [];
    const decimals = new Set<string>();
    for (const c of filter ? filterColumns(filter) : []) {
      const i = this.leafIndex(c);
      filterIdx.push(i);
      if (this.schema.columns[i]!.node.logicalType?.DECIMAL && options.decimals !== 'number') decimals.add(c);
    }
    return { filterIdx, decimals };
  }

  /**
   * The selected chunks of one row group holding only the rows the filter and the row range keep: the filter's
   * (row-aligned) columns, or for a row range alone the first selected column, are decoded first; the others after.
   * @param start - the row group's first row in the file.
   * @param skipIfNone - return undefined, without fetching the other columns, when no row is kept.
   */
  private async keptChunks(
    rowGroup: number,
    start: number,
    sel: readonly boolean[],
    filter: Filter | undefined,
    filterIdx: readonly number[],
    decimals: ReadonlySet<string>,
    options: ReadOptions,
    skipIfNone: boolean,
  ): Promise<(DecodedChunk | undefined)[] | undefined> {
    const cols = this.schema.columns;
    const first = Math.max(0, (options.rowStart ?? 0) - start);
    const last = Math.max(0, Math.min((options.rowEnd ?? Infinity) - start, Number.MAX_SAFE_INTEGER));
    const probe = filterIdx.length > 0 ? filterIdx : [sel.indexOf(true)];
    const pchunks = await this.decodeChunks(rowGroup, cols.map((_, i) => probe.includes(i)));
    const { keep, count } = filter
      ? selectRows(filter, new Map(filterIdx.map((i) => [cols[i]!.pathString, { column: cols[i]!, chunk: pchunks[i]! }])), options, decimals, first, last)
      : rowRange(pchunks[probe[0]!]!, first, last);
    if (count === 0 && skipIfNone) return undefined;
    const rest = sel.map((s, i) => s && pchunks[i] === undefined);
    const others = rest.some(Boolean) ? await this.decodeChunks(rowGroup, rest) : [];
    return sel.map((s, i) => (s ? keepRows((pchunks[i] ?? others[i])!, cols[i]!, keep) : undefined));
  }

  /** Whether a leaf has one level per row (no repetition, not inside a VARIANT), so a filter can run on its chunk. */
  private rowAligned(i: number): boolean {
    const col = this.schema.columns[i]!;
    if (col.maxRep !== 0) return false;
    let f: Field | undefined = this.schema.field;
    for (const name of col.path) {
      if (f?.kind !== 'struct') return f?.kind === 'leaf';
      f = f.fields.find((c) => c.name === name);
      if (!f || f.node.logicalType?.VARIANT) return false;
    }
    return f?.kind === 'leaf';
  }

  async *iterateRowGroups(options: ReadOptions = {}): AsyncGenerator<{ rowGroup: number; rows: Record<string, unknown>[] }> {
    const filter = options.filter;
    const outSel = this.selectColumns(options.columns);
    const sel = [...outSel];
    const requestedTop = options.columns ? new Set(this.schema.columns.filter((_, i) => outSel[i]).map((c) => c.path[0]!)) : undefined;
    const { filterIdx, decimals } = this.filterPlan(filter, options);
    for (const i of filterIdx) sel[i] = true;
    // filter columns with one level per row: evaluate the filter on them first, then keep only matching rows
    const filterFirst = filter !== undefined && filterIdx.every((i) => this.rowAligned(i));
    const groups = options.rowGroups ?? this.metadata.row_groups.map((_, i) => i);
    const rowStart = options.rowStart ?? 0;
    const rowEnd = options.rowEnd ?? Infinity;
    const maps = options.maps ?? 'map';
    // row offsets of each row group, from the footer (used only to skip groups outside the row range)
    const firstRow: number[] = [];
    let acc = 0;
    for (const rg of this.metadata.row_groups) {
      firstRow.push(acc);
      acc += rg.num_rows;
    }
    for (const g of groups) {
      const group = this.rowGroup(g);
      const start = firstRow[g]!;
      if (options.rowStart !== undefined || options.rowEnd !== undefined) {
        if (start >= rowEnd || start + group.num_rows <= rowStart) continue;
      }
      if (filter) {
        const lookup = (c: string) => this.statistics(g, c, options);
        if (!PRUNERS.every((p) => p(filter, lookup, decimals))) continue;
      }
      if (filterFirst) {
        // no row matches: the other columns are never fetched
        const chunks = await this.keptChunks(g, start, outSel, filter, filterIdx, decimals, options, true);
        if (chunks === undefined) continue;
        const rows = assembleRecords(this.schema, this.toColumnData(chunks, options), { maps });
        if (options.variants !== 'raw') this.variants?.(rows);
        yield { rowGroup: g, rows };
        continue;
      }
      const chunks = await this.decodeChunks(g, sel);
      let rows = assembleRecords(this.schema, this.toColumnData(chunks, options), { maps });
      if (options.variants !== 'raw') this.variants?.(rows);
      if (options.rowStart !== undefined || options.rowEnd !== undefined) rows = rows.slice(Math.max(0, rowStart - start), Math.max(0, rowEnd - start));
      if (filter) {
        rows = rows.filter((r) => matchRow(filter, r, decimals));
        if (requestedTop) for (const r of rows) for (const k of Object.keys(r)) if (!requestedTop.has(k)) delete r[k];
      }
      yield { rowGroup: g, rows };
    }
  }

  iterateBatches(options?: BatchOptions & { form?: 'rows' }): AsyncGenerator<RowBatch>;
  iterateBatches(options: BatchOptions & { form: 'columns' }): AsyncGenerator<ColumnBatch>;
  iterateBatches(options: BatchOptions = {}): AsyncGenerator<RowBatch | ColumnBatch> {
    // the batch reader (batches.ts) gets this file's internals as closures
    return iterateBatches(
      {
        schema: this.schema,
        metadata: this.metadata,
        source: this.source,
        options: this.options,
        variants: this.variants,
        selectColumns: (c) => this.selectColumns(c),
        rowGroup: (g) => this.rowGroup(g),
        chunkMeta: (g, col, cc) => this.chunkMeta(g, col, cc),
        chunkRange: (g, col, md) => this.chunkRange(g, col, md),
        pageDecrypt: (g, col, cc) => {
          if (!cc.crypto_metadata || !this.decryptor) return undefined;
          const dec = this.columnDecryptor(g, col, cc);
          return (module, page, b) => dec.decrypt(module as 2, page, b);
        },
        filterPlan: (f, o) => this.filterPlan(f, o),
        rowAligned: (i) => this.rowAligned(i),
        mayMatch: (g, f, decimals, o) => PRUNERS.every((p) => p(f, (c) => this.statistics(g, c, o), decimals)),
      },
      options,
    );
  }

  async readRowGroupColumns(rowGroup: number, options: ReadOptions = {}): Promise<StructVector> {
    const sel = this.selectColumns(options.columns);
    const filter = options.filter;
    const ranged = options.rowStart !== undefined || options.rowEnd !== undefined;
    if (!filter && (!ranged || !sel.includes(true))) {
      const chunks = await this.decodeChunks(rowGroup, sel);
      return assembleColumnar(this.schema, this.toColumnData(chunks, options, options.binary !== 'values', rowGroup));
    }
    const { filterIdx, decimals } = this.filterPlan(filter, options);
    for (const i of filterIdx) {
      if (!this.rowAligned(i)) {
        throw new ParquetError('FILTER_UNSUPPORTED', `parquet-reader: a columnar read cannot filter on '${this.schema.columns[i]!.pathString}': it has more than one value per row (read rows instead)`);
      }
    }
    let start = 0;
    for (let g = 0; g < rowGroup; g++) start += this.rowGroup(g).num_rows;
    const chunks = (await this.keptChunks(rowGroup, start, sel, filter, filterIdx, decimals, options, false))!;
    return assembleColumnar(this.schema, this.toColumnData(chunks, options, options.binary !== 'values', rowGroup));
  }
}
