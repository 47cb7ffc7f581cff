/**
 * Reading below a row group: batches of a chosen number of rows, decoded page by page. Each selected column chunk
 * of a row group is fetched as before (one coalesced request per row group), then decoded by a
 * {@link ChunkDecoder} that hands out whole records a batch at a time, so only one batch's levels and values (plus
 * the pages it spans and the chunk's dictionary) are decoded, converted and assembled at a time. A record never
 * splits between batches: a nested record ends where the next one starts at repetition level 0
 * (https://github.com/apache/parquet-format/blob/master/README.md#nested-encoding). SizeStatistics
 * (https://github.com/apache/parquet-format/blob/master/README.md, `SizeStatistics` in parquet.thrift) size
 * batches by bytes when `batchBytes` is given.
 *
 * @module
 */
import type { ByteRange } from './source.js';
import { assembleColumnar, assembleRecords, validateColumnLevels, type ColumnData, type ColumnDescriptor, type SchemaTree, type StructVector, type BinaryValues } from '@parquetry/parquet-levels';
import { ChunkDecoder, chunkByteArrays, convertChunk, convertValues, type DecodedChunk, type PageDecrypt, type ValueOptions } from '@parquetry/parquet-column';
import { ParquetError, Type, type ColumnChunk, type ColumnMetaData, type FileMetaData, type RowGroup } from '@parquetry/thrift-compact';
import type { OpenOptions, ReadOptions } from './file.js';
import type { Filter } from './filter.js';
import { filterMask, type MaskColumn } from './filter-mask.js';
import { keepRows } from './select.js';

/** Rows per batch when `batchSize` is not given. */
export const DEFAULT_BATCH_SIZE = 10_000;

/** Options of {@link ParquetFile.iterateBatches}. */
export interface BatchOptions extends ReadOptions {
  /** Rows per batch (default {@link DEFAULT_BATCH_SIZE}); the last batch of a row group may hold fewer. */
  batchSize?: number;
  /**
   * A budget of decoded bytes per batch: a row group's batches then hold at most `batchBytes` divided by its
   * estimated bytes per row (never more than `batchSize`, at least one row). The estimate comes from the chunks'
   * SizeStatistics (`unencoded_byte_array_data_bytes`, definition level histograms) where the file has them, from
   * the physical widths, null counts and uncompressed sizes otherwise.
   */
  batchBytes?: number;
  /**
   * `'rows'` (default): each batch's rows as objects, as {@link ParquetFile.readRows} returns them; `'columns'`: each
   * batch as Arrow-shaped vectors, as {@link ParquetFile.readRowGroupColumns} returns them.
   */
  form?: 'rows' | 'columns';
}

/** Where a batch is. */
export interface BatchBase {
  /** The row group the batch comes from (a batch never spans row groups). */
  rowGroup: number;
  /** The first row the batch covers, counted over the whole file. */
  rowStart: number;
  /**
   * The row after the last one the batch covers. Without a filter the batch holds rows `rowStart` to `rowEnd`; with
   * one, only those of them that match.
   */
  rowEnd: number;
}

/** A batch of rows ({@link BatchOptions.form} `'rows'`). */
export interface RowBatch extends BatchBase {
  /** The rows, as objects keyed by top-level field name. */
  rows: Record<string, unknown>[];
}

/** A batch of Arrow-shaped vectors ({@link BatchOptions.form} `'columns'`). */
export interface ColumnBatch extends BatchBase {
  /** The root struct vector: one slot per row, one child per field read. */
  columns: StructVector;
}

/**
 * What batch iteration needs from an opened file (the file builds it; not part of the public API).
 * @internal
 */
export interface BatchHost {
  /** The schema tree. */
  readonly schema: SchemaTree;
  /** The decoded footer. */
  readonly metadata: FileMetaData;
  /** The open options (codecs, checksums, limits). */
  readonly options: OpenOptions;
  /** The VARIANT row transform, when the schema has VARIANT columns. */
  readonly variants: ((rows: Record<string, unknown>[]) => void) | undefined;
  /** Leaf columns selected by a projection. */
  selectColumns(columns: ReadOptions['columns']): boolean[];
  /** A row group's metadata (throws `OUT_OF_RANGE`). */
  rowGroup(g: number): RowGroup;
  /** A chunk's ColumnMetaData (decrypted when encrypted). */
  chunkMeta(g: number, column: ColumnDescriptor, chunk: ColumnChunk): Promise<ColumnMetaData>;
  /** Fetches byte ranges (merging nearby ones into one request), in the order given. */
  fetchRanges(ranges: readonly ByteRange[]): Promise<Uint8Array[]>;
  /** A chunk's byte range (checked). */
  chunkRange(g: number, column: ColumnDescriptor, meta: ColumnMetaData): ByteRange;
  /** A chunk's page decryption, when it is encrypted. */
  pageDecrypt(g: number, column: ColumnDescriptor, chunk: ColumnChunk): PageDecrypt | undefined;
  /** A filter's leaf columns and its exactly compared decimal columns. */
  filterPlan(filter: Filter | undefined, options: ReadOptions): { filterIdx: number[]; decimals: Set<string> };
  /** Refuses (`FILTER_UNSUPPORTED`) a filter on a leaf without one value per row: inside a list, map or VARIANT. */
  checkFilterColumns(filterIdx: readonly number[], what: string): void;
  /** Whether some row of a row group may match a filter (false: the pruners skip it). */
  mayMatch(g: number, filter: Filter, decimals: ReadonlySet<string>, options: ReadOptions): boolean;
}

/** Fixed width in bytes of a value of a physical type (0 for BYTE_ARRAY). */
function widthOf(column: ColumnDescriptor): number {
  switch (column.type) {
    case Type.BOOLEAN:
      return 1;
    case Type.INT32:
    case Type.FLOAT:
      return 4;
    case Type.INT64:
    case Type.DOUBLE:
      return 8;
    case Type.INT96:
      return 12;
    case Type.FIXED_LEN_BYTE_ARRAY:
      return column.typeLength ?? 0;
    default:
      return 0;
  }
}

/**
 * Estimated decoded bytes per row of a row group's selected chunks: levels (4 bytes each), fixed-width values, and
 * byte arrays from SizeStatistics' `unencoded_byte_array_data_bytes` plus their offsets (the uncompressed chunk size
 * when the file has no SizeStatistics). Non-null counts come from the definition level histogram, else the null
 * count.
 */
function bytesPerRow(columns: readonly ColumnDescriptor[], metas: readonly ColumnMetaData[], numRows: number): number {
  let bytes = 0;
  for (let k = 0; k < columns.length; k++) {
    const col = columns[k]!;
    const md = metas[k]!;
    const levels = md.num_values;
    bytes += levels * ((col.maxDef > 0 ? 4 : 0) + (col.maxRep > 0 ? 4 : 0));
    const hist = md.size_statistics?.definition_level_histogram;
    const nonNull = hist !== undefined && hist.length === col.maxDef + 1 ? hist[col.maxDef]! : Math.max(0, levels - (md.statistics?.null_count ?? 0));
    if (col.type === Type.BYTE_ARRAY) {
      const data = md.size_statistics?.unencoded_byte_array_data_bytes;
      bytes += data !== undefined ? data + 4 * nonNull : md.total_uncompressed_size;
    } else bytes += widthOf(col) * nonNull;
  }
  return numRows > 0 ? bytes / numRows : 0;
}

/**
 * Opens one row group's selected chunks for decoding: fetches their byte ranges (one coalesced request) and builds a
 * {@link ChunkDecoder} per chunk.
 * @returns decoders by leaf index (undefined for leaves not selected) and the chunks' metadata, in `idx` order.
 */
async function openChunks(host: BatchHost, g: number, idx: readonly number[]): Promise<{ decoders: (ChunkDecoder | undefined)[]; metas: ColumnMetaData[] }> {
  const group = host.rowGroup(g);
  const cols = host.schema.columns;
  if (group.columns.length !== cols.length) {
    throw new ParquetError('CORRUPT_METADATA', `parquet-reader: row group ${g} has ${group.columns.length} column chunks, the schema has ${cols.length} leaf columns`);
  }
  const metas = await Promise.all(idx.map((i) => host.chunkMeta(g, cols[i]!, group.columns[i]!)));
  const ranges = idx.map((i, k) => host.chunkRange(g, cols[i]!, metas[k]!));
  const bytes = await host.fetchRanges(ranges);
  const decoders: (ChunkDecoder | undefined)[] = new Array(cols.length);
  const { codecs, verifyChecksums, maxPageValues } = host.options;
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k]!;
    const col = cols[i]!;
    decoders[i] = new ChunkDecoder(bytes[k]!, col, metas[k]!, { rowGroup: g, path: col.pathString, offset: ranges[k]!.start }, {
      codecs,
      verifyChecksums,
      maxPageValues,
      decrypt: host.pageDecrypt(g, col, group.columns[i]!),
    });
  }
  return { decoders, metas };
}

function checkCount(name: string, v: number | undefined): void {
  if (v !== undefined && !(v === Infinity || (Number.isSafeInteger(v) && v >= 1))) {
    throw new ParquetError('INVALID_ARGUMENT', `parquet-reader: ${name} must be a positive integer, got ${String(v)}`);
  }
}

/**
 * Iterates over a file's rows in batches (the implementation of {@link ParquetFile.iterateBatches}).
 * @param host - the opened file's internals.
 * @param options - batch size and form, projection, row groups, row range, value mapping, filter.
 * @returns the batches, in file order.
 * @throws ParquetError `INVALID_ARGUMENT` for a bad `batchSize`/`batchBytes`, `FILTER_UNSUPPORTED` for a filter on
 *   a column inside a list, map or VARIANT (as the other reads), `ROW_COUNT_MISMATCH` when the chunks of a row group disagree on their
 *   rows, and every reading error (located at the row group, column, page and file offset).
 */
export async function* iterateBatches(host: BatchHost, options: BatchOptions): AsyncGenerator<RowBatch | ColumnBatch> {
  checkCount('batchSize', options.batchSize);
  checkCount('batchBytes', options.batchBytes);
  const form = options.form ?? 'rows';
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const cols = host.schema.columns;
  const filter = options.filter;
  const outSel = host.selectColumns(options.columns);
  const sel = [...outSel];
  const { filterIdx, decimals } = host.filterPlan(filter, options);
  for (const i of filterIdx) sel[i] = true;
  // filter columns have one level per row: the filter runs on their levels and values before anything is assembled
  host.checkFilterColumns(filterIdx, form === 'columns' ? 'a columnar read' : 'a read');
  const idx = cols.map((_, i) => i).filter((i) => sel[i]);
  const outIdx = idx.filter((i) => outSel[i]);
  const groups = options.rowGroups ?? host.metadata.row_groups.map((_, i) => i);
  const rowStart = options.rowStart ?? 0;
  const rowEnd = options.rowEnd ?? Infinity;
  const maps = options.maps ?? 'map';
  const binaryVectors = form === 'columns' && options.binary !== 'values';
  const firstRow: number[] = [];
  let acc = 0;
  for (const rg of host.metadata.row_groups) {
    firstRow.push(acc);
    acc += rg.num_rows;
  }
  if (idx.length === 0) return;

  for (const g of groups) {
    const group = host.rowGroup(g);
    const start = firstRow[g]!;
    if (group.num_rows === 0 || start >= rowEnd || start + group.num_rows <= rowStart) continue;
    if (filter && !host.mayMatch(g, filter, decimals, options)) continue;
    const { decoders, metas } = await openChunks(host, g, idx);
    let size = batchSize;
    if (options.batchBytes !== undefined) {
      const perRow = bytesPerRow(idx.map((i) => cols[i]!), metas, group.num_rows);
      if (perRow > 0) size = Math.max(1, Math.min(batchSize, Math.floor(options.batchBytes / perRow)));
    }
    // dictionaries converted once per chunk, not once per batch
    const dictionaries: (ArrayLike<unknown> | undefined)[] = new Array(cols.length);
    const toJs = (i: number, c: DecodedChunk, o: ValueOptions): ArrayLike<unknown> => {
      let dict: ArrayLike<unknown> | undefined;
      if (c.dictionary !== undefined && c.segments.some((s) => s.indices)) dict = dictionaries[i] ??= convertValues(c.dictionary, cols[i]!, o);
      return convertChunk(c, cols[i]!, o, dict);
    };
    const outValues = (i: number, c: DecodedChunk): ArrayLike<unknown> | BinaryValues => {
      const col = cols[i]!;
      return binaryVectors && col.type === Type.BYTE_ARRAY && !col.node.logicalType?.DECIMAL
        ? chunkByteArrays(c.segments, c.dictionary, c.numValues, `row group ${g}, column '${col.pathString}'`)
        : toJs(i, c, options);
    };

    let pos = start;
    if (rowStart > start) {
      // rows before the range: decoded (their pages must be read to find where the range starts), never copied
      const want = rowStart - start;
      let skipped = -1;
      for (const i of idx) {
        const n = await decoders[i]!.skip(want);
        if (skipped >= 0 && n !== skipped) throw rowMismatch(g, cols[idx[0]!]!, skipped, cols[i]!, n, pos);
        skipped = n;
      }
      pos += skipped;
    }
    while (pos < rowEnd) {
      const want = Math.min(size, rowEnd - pos);
      const chunks: (DecodedChunk | undefined)[] = new Array(cols.length);
      let rows = -1;
      for (const i of idx) {
        const d = decoders[i]!;
        chunks[i] = await d.take(want);
        if (rows >= 0 && d.lastRows !== rows) throw rowMismatch(g, cols[idx[0]!]!, rows, cols[i]!, d.lastRows, pos);
        rows = d.lastRows;
      }
      if (rows <= 0) break;
      const batchStart = pos;
      pos += rows;
      const base = { rowGroup: g, rowStart: batchStart, rowEnd: pos };
      const data: (ColumnData | undefined)[] = new Array(cols.length);
      if (filter) {
        // evaluate the filter on this batch's filter columns, then keep only the matching rows of every column
        const masked = new Map<string, MaskColumn>();
        const converted: (ArrayLike<unknown> | undefined)[] = new Array(cols.length);
        for (const i of filterIdx) {
          const col = cols[i]!;
          const c = chunks[i]!;
          const values = toJs(i, c, options);
          const n = validateColumnLevels(col, { def: c.def, numLevels: c.numLevels, values });
          if (n !== rows) throw rowMismatch(g, cols[idx[0]!]!, rows, col, n, batchStart);
          converted[i] = values;
          masked.set(col.pathString, { values, def: c.def, maxDef: col.maxDef });
        }
        const keep = filterMask(filter, masked, rows, decimals);
        let count = 0;
        for (let r = 0; r < rows; r++) count += keep[r]!;
        if (count === 0) continue;
        for (const i of outIdx) {
          const c = chunks[i]!;
          const kept = keepRows(c, cols[i]!, keep);
          // an unchanged filter column keeps its converted values
          const values = kept === c && converted[i] !== undefined && !(binaryVectors && cols[i]!.type === Type.BYTE_ARRAY) ? converted[i]! : outValues(i, kept);
          data[i] = { def: kept.def, rep: kept.rep, numLevels: kept.numLevels, values };
        }
        if (form === 'columns') {
          yield { ...base, columns: assembleColumnar(host.schema, data) };
          continue;
        }
        const out = assembleRecords(host.schema, data, { maps });
        if (options.variants !== 'raw') host.variants?.(out);
        yield { ...base, rows: out };
        continue;
      }
      for (const i of idx) {
        const c = chunks[i]!;
        data[i] = { def: c.def, rep: c.rep, numLevels: c.numLevels, values: outValues(i, c) };
      }
      if (form === 'columns') {
        yield { ...base, columns: assembleColumnar(host.schema, data) };
        continue;
      }
      const out = assembleRecords(host.schema, data, { maps });
      if (options.variants !== 'raw') host.variants?.(out);
      yield { ...base, rows: out };
    }
  }
}

function rowMismatch(g: number, a: ColumnDescriptor, na: number, b: ColumnDescriptor, nb: number, row: number): ParquetError {
  return new ParquetError(
    'ROW_COUNT_MISMATCH',
    `parquet-reader: row group ${g}, from row ${row}: column '${a.pathString}' has ${na} rows where column '${b.pathString}' has ${nb}`,
  );
}
