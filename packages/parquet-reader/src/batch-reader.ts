/**
 * Reading below a row group: batches of a chosen number of rows, decoded page by page, through the read's pruning
 * pipeline (pipeline.ts). Row groups are skipped by statistics, dictionaries and bloom filters; with the page index
 * (https://github.com/apache/parquet-format/blob/master/PageIndex.md) only the pages holding the rows the filter may
 * match (or the row range) are fetched, and batches are formed from those rows. Each column's fetched pages are
 * decoded by a {@link ChunkDecoder} per run of pages that hands out whole records a batch at a time, so only one
 * batch's levels and values (plus the pages it spans and the chunk's dictionary) are decoded, converted and
 * assembled at a time. A record never splits between batches: a nested record ends where the next one starts at
 * repetition level 0 (https://github.com/apache/parquet-format/blob/master/README.md#nested-encoding).
 * SizeStatistics (https://github.com/apache/parquet-format/blob/master/README.md, `SizeStatistics` in
 * parquet.thrift) size batches by bytes when `batchBytes` is given.
 *
 * @module
 */
// bundle layout only (no value used): see optional.ts, `Chunk grouping`
import './file.js';
import { assembleFlatRecords, type ColumnData, type ColumnDescriptor, type SchemaTree } from '@parquetry/parquet-levels/read';
import { convertNativeChunk, convertNativeValues, type DecodedChunk } from '@parquetry/parquet-column/decode';
import { chunkByteArrays, columnarValues, hasColumnarForm } from '@parquetry/parquet-column/columnar';
import { ParquetError, Type, type ColumnMetaData, type FileMetaData, type RowGroup } from '@parquetry/thrift-compact';
import { BATCH_RULES } from './read-options.js';
import { BatchScan } from './batch-scan.js';
import { ColumnCursor, ReplayRowGroup } from './cursor.js';
import type { File, ParquetFile, ReadOptions } from './file.js';
import type { Filter } from './filter.js';
import type { FetchedColumn, KeptRows } from './pipeline.js';
import type { PrunedScan } from './pruned-scan.js';
import { DEFAULT_BATCH_SIZE, type BatchBase, type BatchOptions, type ColumnBatch, type RowBatch } from './batches.js';
import { lazyPart, loadColumnar, loadJson, loadPruning, loadRecords } from './optional.js';

/**
 * Loads the filtered batches (batch-filter.ts: the filter's evaluation and row selection), for a read with a filter.
 * @returns the batch-filter module; rejects with ParquetError `PART_UNAVAILABLE` when it cannot be loaded.
 */
const loadBatchFilter: () => Promise<typeof import('./batch-filter.js')> = /*#__PURE__*/ lazyPart(() => import('./batch-filter.js'), 'the filtered batches (batch-filter)');

/**
 * What batch iteration needs from an opened file (the file builds it; not part of the public API).
 * @internal
 */
export interface BatchHost {
  /** The schema tree the batches are assembled with (the file's, its root's fields in the read's order). */
  readonly schema: SchemaTree;
  /** The decoded footer. */
  readonly metadata: FileMetaData;
  /** The VARIANT row transform, when the schema has VARIANT columns. */
  readonly variants: ((rows: Record<string, unknown>[]) => void) | undefined;
  /** Leaf columns selected by a projection. */
  selectColumns(columns: ReadOptions['columns']): boolean[];
  /** A row group's metadata (throws `OUT_OF_RANGE`). */
  rowGroup(g: number): RowGroup;
  /**
   * A filter's leaf columns and its exactly compared decimal columns, after refusing (`FILTER_UNSUPPORTED`) a filter
   * on a leaf without one value per row: inside a list, map or VARIANT (`what` names the read in that message).
   */
  filterPlan(filter: Filter | undefined, options: ReadOptions, what: string): Promise<{ filterIdx: number[]; decimals: Set<string> }>;
  /**
   * A read's scan (columns returned, filter, its columns and decimals, the read's options): with `pruned`, the
   * pruning pipeline (loaded the first time); without, a {@link BatchScan} of whole row groups.
   */
  newScan(options: ReadOptions, outSel: readonly boolean[], filter: Filter | undefined, filterIdx: readonly number[], decimals: ReadonlySet<string>, pruned: boolean): Promise<BatchScan>;
  /** Ends a read: adds its statistics to the file's and hands them to `onScan`. */
  endScan(scan: BatchScan, options: ReadOptions): void;
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


function checkCount(name: string, v: number | undefined): void {
  if (v !== undefined && !(v === Infinity || (Number.isSafeInteger(v) && v >= 1))) {
    throw new ParquetError('INVALID_ARGUMENT', `parquet-reader: ${name} must be a positive integer, got ${String(v)}`);
  }
}

/**
 * Counts what cursors decoded.
 * @param cursors - the cursors of a row group.
 * @param count - whether to count their pages (false for a second pass over pages already counted).
 * @returns the most rows any of them decoded.
 * @internal
 */
export function finishAll(cursors: readonly ColumnCursor[], count = true): number {
  let rows = 0;
  for (const c of cursors) rows = Math.max(rows, c.finish(count));
  return rows;
}

/**
 * Converts and assembles a read's batches (dictionaries converted once per row group, not once per batch). Nested
 * record assembly and columnar assembly are loaded at the first batch that needs them (after its pages are decoded).
 * @internal
 */
export class Assembler {
  /** Leaf columns in the schema. */
  readonly width: number;
  /** The row group being read. */
  g = -1;
  /** The leaf columns. */
  readonly cols: readonly ColumnDescriptor[];
  private dictionaries: (ArrayLike<unknown> | undefined)[] = [];
  private readonly binaryVectors: boolean;
  /** Charges the read's budget for bytes about to be allocated (set once the read's scan exists). */
  charge: ((bytes: number, where: string) => void) | undefined;

  constructor(
    private readonly host: BatchHost,
    private readonly options: BatchOptions,
    private readonly form: 'rows' | 'columns',
  ) {
    this.cols = host.schema.columns;
    this.width = this.cols.length;
    this.binaryVectors = form === 'columns' && options.binary !== 'values';
  }

  /** Starts a row group. */
  rowGroup(g: number): void {
    this.g = g;
    this.dictionaries = new Array(this.cols.length);
  }

  /** A chunk's values as JavaScript values. */
  values(i: number, c: DecodedChunk): ArrayLike<unknown> {
    let dict: ArrayLike<unknown> | undefined;
    if (c.dictionary !== undefined && c.segments.some((s) => s.indices)) dict = this.dictionaries[i] ??= convertNativeValues(c.dictionary, this.cols[i]!, this.options);
    return convertNativeChunk(c, this.cols[i]!, this.options, dict);
  }

  /**
   * A chunk's values as the batch returns them (in the columns form: byte arrays as binary vectors, and the raw
   * forms of `booleans` / `integers` when asked for).
   */
  private output(i: number, c: DecodedChunk): ColumnData['values'] {
    const col = this.cols[i]!;
    if (this.binaryVectors && col.type === Type.BYTE_ARRAY && !col.node.logicalType?.DECIMAL) {
      const where = `row group ${this.g}, column '${col.pathString}'`;
      return chunkByteArrays(c.segments, c.dictionary, c.numValues, where, this.charge && ((b) => this.charge!(b, `${where}: the batch's values as one byte vector`)));
    }
    return (this.form === 'columns' ? columnarValues(c, col, this.options) : undefined) ?? this.values(i, c);
  }

  /** Whether the batch returns column `i` in another form than its converted values (which a filter column reuses). */
  private ownForm(i: number): boolean {
    const col = this.cols[i]!;
    return (this.binaryVectors && col.type === Type.BYTE_ARRAY) || (this.form === 'columns' && hasColumnarForm(col, this.options));
  }

  /**
   * A batch of some columns' chunks.
   * @param base - where the batch is.
   * @param idx - the columns returned.
   * @param chunks - their chunks, by leaf ordinal.
   * @param keep - keeps the rows of a chunk that the batch returns (undefined: every row).
   * @param converted - values already converted (of chunks every row of which is kept).
   * @returns the batch.
   */
  async batch(
    base: BatchBase,
    idx: readonly number[],
    chunks: readonly (DecodedChunk | undefined)[],
    keep?: (c: DecodedChunk, col: ColumnDescriptor) => DecodedChunk,
    converted?: readonly (ArrayLike<unknown> | undefined)[],
  ): Promise<RowBatch | ColumnBatch> {
    const data: (ColumnData | undefined)[] = new Array(this.cols.length);
    for (const i of idx) {
      const c = chunks[i]!;
      const kept = keep ? keep(c, this.cols[i]!) : c;
      // an unchanged filter column keeps its converted values
      const done = kept === c && !this.ownForm(i) ? converted?.[i] : undefined;
      data[i] = { def: kept.def, rep: kept.rep, numLevels: kept.numLevels, values: done ?? this.output(i, kept) };
    }
    const schema = this.host.schema;
    if (this.form === 'columns') return { ...base, columns: (await loadColumnar()).assembleColumnar(schema, data) };
    const maps = this.options.maps ?? 'map';
    // rows of top-level leaves without the nested assembly (as readRows)
    const rows = assembleFlatRecords(schema, data, { maps }) ?? (await loadRecords()).assembleRecords(schema, data, { maps });
    if (this.options.variants !== 'raw') this.host.variants?.(rows);
    return { ...base, rows };
  }
}

/**
 * {@link ParquetFile.iterateBatches} of an opened file: the read's options checked, the batches of
 * {@link iterateBatches} through the file's pruning pipeline, mapped to JSON-safe values under `values: 'json'`.
 * @param file - the file.
 * @param options - batch size and form, and the reading options.
 * @returns the batches, in file order.
 * @throws ParquetError as {@link ParquetFile.iterateBatches}.
 */
export async function* fileBatches(file: File, options: BatchOptions): AsyncGenerator<RowBatch | ColumnBatch> {
  const prep = await file.prepare(options, options.form === 'columns' ? 'a columnar read' : 'a read', BATCH_RULES);
  const o = prep.options;
  const variants = o.variants !== 'raw' && o.form !== 'columns' ? await file.variants() : undefined;
  // the batch reader gets the file's internals as closures
  const inner = iterateBatches(
    {
      // the assembly's schema: the root's fields in the order `columns` gives them
      schema: file.project(o.columns).schema,
      metadata: file.metadata,
      variants,
      selectColumns: (c) => file.project(c).sel,
      rowGroup: (g) => file.rowGroup(g),
      filterPlan: (f, fo, what) => file.filterPlan(f, fo, what),
      newScan: async (so, outSel, f, filterIdx, decimals, pruned) => {
        const plan = file.plan(so, outSel, f, filterIdx, decimals);
        return pruned ? new (await loadPruning()).PrunedScan(file.scanContext(), plan) : new BatchScan(file.scanContext(), plan);
      },
      endScan: (scan, so) => file.endScan(scan, so),
    },
    o,
  );
  if (!prep.json) return yield* inner;
  const json = await file.jsonTransform(o.variants !== 'raw');
  const { jsonVector } = await loadJson();
  for await (const b of inner) {
    if ('rows' in b) json?.(b.rows);
    else b.columns = jsonVector(b.columns, file.schema);
    yield b;
  }
}

/**
 * Rows in a batch.
 * @internal
 */
export const batchLength = (b: RowBatch | ColumnBatch): number => ('rows' in b ? b.rows.length : b.columns.length);

/**
 * Iterates over a file's rows in batches (the implementation of {@link ParquetFile.iterateBatches}), through the
 * read's pruning pipeline: row groups skipped by statistics, dictionaries and bloom filters, and with the page index
 * only the pages holding the kept rows fetched and decoded. With a filter, a row group's filter columns are decoded
 * batch by batch first (their matches recorded, one byte per row), then the other columns fetch only the pages
 * holding a match, and the batches are decoded again with them (the filter columns' pages from the bytes already
 * fetched), as {@link ParquetFile.readRows} reads them; memory holds one batch of values, not a row group's.
 * @param host - the opened file's internals.
 * @param options - batch size and form, projection, row groups, row range, value mapping, filter, pruning stages.
 * @returns the batches, in file order.
 * @throws ParquetError `INVALID_ARGUMENT` for a bad `batchSize`/`batchBytes`, `FILTER_UNSUPPORTED` for a filter on
 *   a column inside a list, map or VARIANT (as the other reads), `ROW_COUNT_MISMATCH` when the chunks of a row group
 *   disagree on their rows (or an offset index proves wrong after rows it located were returned), and every reading
 *   error (located at the row group, column, page and file offset).
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
  // filter columns have one level per row: the filter runs on their levels and values before anything is assembled
  const { filterIdx, decimals } = await host.filterPlan(filter, options, form === 'columns' ? 'a columnar read' : 'a read');
  for (const i of filterIdx) sel[i] = true;
  const idx = cols.map((_, i) => i).filter((i) => sel[i]);
  const outIdx = idx.filter((i) => outSel[i]);
  const groups = options.rowGroups ?? host.metadata.row_groups.map((_, i) => i);
  // the pruning stages (and the filter's evaluation) load only for a read that uses them
  const ranged = options.rowStart !== undefined || options.rowEnd !== undefined;
  const [scan, filtered] = await Promise.all([host.newScan(options, outSel, filter, filterIdx, decimals, filter !== undefined || ranged), filter ? loadBatchFilter() : undefined]);
  const out = new Assembler(host, options, form);
  out.charge = (bytes, where) => scan.chargeBytes(bytes, where, false);
  // without a filter the limits hold per batch (a filter's columns are decoded for the whole row group first)
  if (!filter) scan.perBatch = true;
  try {
    if (idx.length === 0) return;
    for (const g of groups) {
      const group = host.rowGroup(g);
      const range = scan.rowRange(g, options.rowStart, options.rowEnd);
      if (range === undefined) continue;
      const { start, cut, first, last } = range;
      // the budget holds one row group's pages and batches at a time: what earlier row groups charged is handed out
      scan.releaseBudget();
      // a cut row group is one of a ranged read: its scan is a PrunedScan
      const kept = filter || cut ? await (scan as PrunedScan).planRowGroup(g, first, last) : scan.wholeRowGroup(g);
      if (kept === undefined || kept.count === 0) continue;
      let size = batchSize;
      if (options.batchBytes !== undefined) {
        const metas = await Promise.all(idx.map((i) => scan.chunkMeta(g, i)));
        const perRow = bytesPerRow(idx.map((i) => cols[i]!), metas, group.num_rows);
        if (perRow > 0) size = Math.max(1, Math.min(batchSize, Math.floor(options.batchBytes / perRow)));
      }
      out.rowGroup(g);
      const at: RowGroupAt = { g, start, kept, size };
      if (filtered) yield* filtered.filteredBatches(scan, out, at, filter!, filterIdx, decimals, outIdx, PARTS);
      else yield* plainBatches(scan, out, at, idx);
    }
  } finally {
    host.endScan(scan, options);
  }
}

/**
 * A row group being read: its ordinal, first row in the file, kept rows and batch size.
 * @internal
 */
export interface RowGroupAt {
  g: number;
  start: number;
  kept: KeptRows;
  size: number;
}

/** Batches of a row group read without a filter: every kept row (a row range, or every row). */
async function* plainBatches(scan: BatchScan, out: Assembler, { g, start, kept, size }: RowGroupAt, idx: readonly number[]): AsyncGenerator<RowBatch | ColumnBatch> {
  const fetched = await scan.fetchColumns(g, idx, kept.mask, kept.indexes);
  const cursors = fetched.map((f) => new ColumnCursor(scan, g, f, kept.numRows, false));
  const chunks: (DecodedChunk | undefined)[] = new Array(out.width);
  try {
    // every row of the chunks (even past num_rows, as the whole read), or the row range
    let pos = kept.ranges[0]!;
    const end = kept.mask === undefined ? Infinity : kept.ranges[1]!;
    const pieces = [0, 0];
    while (pos < end) {
      pieces[0] = pos;
      pieces[1] = pos + Math.min(size, end - pos);
      let rows = -1;
      for (let k = 0; k < cursors.length; k++) {
        const c = cursors[k]!;
        chunks[idx[k]!] = await c.take(pieces);
        if (rows >= 0 && c.rows !== rows) throw rowMismatch(g, cursors[0]!.column, rows, c.column, c.rows, start + pos);
        rows = c.rows;
      }
      if (rows <= 0) break;
      scan.chargeBatchRows(g, rows);
      const batch = await out.batch({ rowGroup: g, rowStart: start + pos, rowEnd: start + pos + rows }, idx, chunks);
      pos += rows;
      scan.returned(batchLength(batch));
      yield batch;
      // handed out: what the batch charged is the caller's now
      scan.releaseBudget();
    }
    for (const c of cursors) await c.close();
  } finally {
    scan.rowsDecoded(finishAll(cursors));
  }
}

/**
 * The error for columns of a row group that disagree on their rows.
 * @internal
 */
export function rowMismatch(g: number, a: ColumnDescriptor, na: number, b: ColumnDescriptor, nb: number, row: number): ParquetError {
  return new ParquetError(
    'ROW_COUNT_MISMATCH',
    `parquet-reader: row group ${g}, from row ${row}: column '${a.pathString}' has ${na} rows where column '${b.pathString}' has ${nb}`,
  );
}

/**
 * What the filtered batches (batch-filter.ts) use of the batch reader, handed to them at run time: batch-filter.ts
 * imports no module of the batch reader's, since a module both `import()` targets reach would be a chunk of its own,
 * one more file for every batch read (see optional.ts, `Chunk grouping`).
 * @internal
 */
export interface BatchParts {
  /** Opens a column cursor (see {@link ColumnCursor}'s constructor). */
  cursor(scan: BatchScan, g: number, f: FetchedColumn, numRows: number, replay: boolean): ColumnCursor;
  /** Whether an error asks to read the row group again ({@link ReplayRowGroup}). */
  isReplay(e: unknown): boolean;
  /** {@link finishAll}. */
  finishAll: typeof finishAll;
  /** {@link rowMismatch}. */
  rowMismatch: typeof rowMismatch;
  /** {@link batchLength}. */
  batchLength: typeof batchLength;
}

const PARTS: BatchParts = {
  cursor: (scan, g, f, numRows, replay) => new ColumnCursor(scan, g, f, numRows, replay),
  isReplay: (e) => e instanceof ReplayRowGroup,
  finishAll,
  rowMismatch,
  batchLength,
};
