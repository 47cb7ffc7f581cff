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
import { assembleColumnar, assembleRecords, validateColumnLevels, type ColumnData, type ColumnDescriptor, type SchemaTree } from '@parquetry/parquet-levels';
import { chunkByteArrays, columnarValues, convertChunk, convertValues, hasColumnarForm, type DecodedChunk } from '@parquetry/parquet-column/read';
import { ParquetError, Type, type ColumnMetaData, type FileMetaData, type RowGroup } from '@parquetry/thrift-compact';
import { ColumnCursor, ReplayRowGroup } from './cursor.js';
import type { File, ParquetFile, ReadOptions } from './file.js';
import type { Filter } from './filter.js';
import { filterMask, type MaskColumn } from './filter-mask.js';
import type { KeptRows } from './pipeline.js';
import type { PrunedScan as Scan } from './pruned-scan.js';
import { DEFAULT_BATCH_SIZE, type BatchBase, type BatchOptions, type ColumnBatch, type RowBatch } from './batches.js';
import type { RowRanges } from './row-ranges.js';
import { countRows, intersectRanges } from './row-range-ops.js';
import { keepRows } from './select.js';
import { loadJson, loadPruning } from './optional.js';

/**
 * What batch iteration needs from an opened file (the file builds it; not part of the public API).
 * @internal
 */
export interface BatchHost {
  /** The schema tree. */
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
  /** A read's pruning pipeline (columns returned, filter, its columns and decimals, the read's options). */
  newScan(options: ReadOptions, outSel: readonly boolean[], filter: Filter | undefined, filterIdx: readonly number[], decimals: ReadonlySet<string>): Scan;
  /** Ends a read: adds its statistics to the file's and hands them to `onScan`. */
  endScan(scan: Scan, options: ReadOptions): void;
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

/** The kept rows cut into batches of `size` rows: each batch as ranges of rows of the row group. */
function* batchRanges(ranges: RowRanges, size: number): Generator<number[]> {
  let j = 0;
  let r = ranges[0] ?? 0;
  while (j < ranges.length) {
    const pieces: number[] = [];
    let need = size;
    while (need > 0 && j < ranges.length) {
      const e = ranges[j + 1]!;
      const n = Math.min(need, e - r);
      pieces.push(r, r + n);
      r += n;
      need -= n;
      if (r === e) {
        j += 2;
        r = ranges[j] ?? 0;
      }
    }
    yield pieces;
  }
}

/** One byte per row of `pieces`, from a mask of the row group's rows; and how many are 1. */
function gather(mask: Uint8Array, pieces: RowRanges): { keep: Uint8Array; count: number } {
  const keep = new Uint8Array(countRows(pieces));
  let k = 0;
  let count = 0;
  for (let j = 0; j < pieces.length; j += 2) {
    const part = mask.subarray(pieces[j]!, pieces[j + 1]!);
    keep.set(part, k);
    k += part.length;
  }
  for (let i = 0; i < keep.length; i++) count += keep[i]!;
  return { keep, count };
}

/** Counts what cursors decoded; returns the most rows any of them decoded. */
function finishAll(cursors: readonly ColumnCursor[], count = true): number {
  let rows = 0;
  for (const c of cursors) rows = Math.max(rows, c.finish(count));
  return rows;
}

/** Converts and assembles a read's batches (dictionaries converted once per row group, not once per batch). */
class Assembler {
  /** Leaf columns in the schema. */
  readonly width: number;
  private dictionaries: (ArrayLike<unknown> | undefined)[] = [];
  private g = -1;
  private readonly cols: readonly ColumnDescriptor[];
  private readonly binaryVectors: boolean;

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
    if (c.dictionary !== undefined && c.segments.some((s) => s.indices)) dict = this.dictionaries[i] ??= convertValues(c.dictionary, this.cols[i]!, this.options);
    return convertChunk(c, this.cols[i]!, this.options, dict);
  }

  /**
   * A chunk's values as the batch returns them (in the columns form: byte arrays as binary vectors, and the raw
   * forms of `booleans` / `integers` when asked for).
   */
  private output(i: number, c: DecodedChunk): ColumnData['values'] {
    const col = this.cols[i]!;
    if (this.binaryVectors && col.type === Type.BYTE_ARRAY && !col.node.logicalType?.DECIMAL) {
      return chunkByteArrays(c.segments, c.dictionary, c.numValues, `row group ${this.g}, column '${col.pathString}'`);
    }
    return (this.form === 'columns' ? columnarValues(c, col, this.options) : undefined) ?? this.values(i, c);
  }

  /** Whether the batch returns column `i` in another form than its converted values (which a filter column reuses). */
  private ownForm(i: number): boolean {
    const col = this.cols[i]!;
    return (this.binaryVectors && col.type === Type.BYTE_ARRAY) || (this.form === 'columns' && hasColumnarForm(col, this.options));
  }

  /**
   * Evaluates the filter on a batch of the filter columns.
   * @returns one byte per row (1: a match), their count, and the filter columns' converted values.
   */
  evaluate(filter: Filter, filterIdx: readonly number[], decimals: ReadonlySet<string>, chunks: readonly (DecodedChunk | undefined)[], rows: number, row: number): { keep: Uint8Array; count: number; converted: (ArrayLike<unknown> | undefined)[] } {
    const masked = new Map<string, MaskColumn>();
    const converted: (ArrayLike<unknown> | undefined)[] = new Array(this.cols.length);
    for (const i of filterIdx) {
      const col = this.cols[i]!;
      const c = chunks[i]!;
      const values = this.values(i, c);
      const n = validateColumnLevels(col, { def: c.def, numLevels: c.numLevels, values });
      if (n !== rows) throw rowMismatch(this.g, this.cols[filterIdx[0]!]!, rows, col, n, row);
      converted[i] = values;
      masked.set(col.pathString, { values, def: c.def, maxDef: col.maxDef });
    }
    const keep = filterMask(filter, masked, rows, decimals);
    let count = 0;
    for (let r = 0; r < rows; r++) count += keep[r]!;
    return { keep, count, converted };
  }

  /**
   * A batch of some columns' chunks.
   * @param base - where the batch is.
   * @param idx - the columns returned.
   * @param chunks - their chunks, by leaf ordinal.
   * @param keep - the rows to keep (undefined: every row).
   * @param converted - values already converted (of chunks every row of which is kept).
   */
  batch(base: BatchBase, idx: readonly number[], chunks: readonly (DecodedChunk | undefined)[], keep?: Uint8Array, converted?: readonly (ArrayLike<unknown> | undefined)[]): RowBatch | ColumnBatch {
    const data: (ColumnData | undefined)[] = new Array(this.cols.length);
    for (const i of idx) {
      const c = chunks[i]!;
      const kept = keep ? keepRows(c, this.cols[i]!, keep) : c;
      // an unchanged filter column keeps its converted values
      const done = kept === c && !this.ownForm(i) ? converted?.[i] : undefined;
      data[i] = { def: kept.def, rep: kept.rep, numLevels: kept.numLevels, values: done ?? this.output(i, kept) };
    }
    if (this.form === 'columns') return { ...base, columns: assembleColumnar(this.host.schema, data) };
    const rows = assembleRecords(this.host.schema, data, { maps: this.options.maps ?? 'map' });
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
  const prep = await file.prepare(options, options.form === 'columns' ? 'a columnar read' : 'a read');
  const o = prep.options;
  const [{ PrunedScan }, variants] = await Promise.all([loadPruning(), o.variants !== 'raw' && o.form !== 'columns' ? file.variants() : undefined]);
  // the batch reader gets the file's internals as closures
  const inner = iterateBatches(
    {
      schema: file.schema,
      metadata: file.metadata,
      variants,
      selectColumns: (c) => file.selectColumns(c),
      rowGroup: (g) => file.rowGroup(g),
      filterPlan: (f, fo, what) => file.filterPlan(f, fo, what),
      newScan: (so, outSel, f, filterIdx, decimals) => new PrunedScan(file.scanContext(), file.plan(so, outSel, f, filterIdx, decimals)),
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

/** Rows in a batch. */
const batchLength = (b: RowBatch | ColumnBatch): number => ('rows' in b ? b.rows.length : b.columns.length);

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
  const scan = host.newScan(options, outSel, filter, filterIdx, decimals);
  const out = new Assembler(host, options, form);
  try {
    if (idx.length === 0) return;
    for (const g of groups) {
      const group = host.rowGroup(g);
      const range = scan.rowRange(g, options.rowStart, options.rowEnd);
      if (range === undefined) continue;
      const { start, cut, first, last } = range;
      // the budget holds one row group's pages and batches at a time: what earlier row groups charged is handed out
      scan.releaseBudget();
      const kept = filter || cut ? await scan.planRowGroup(g, first, last) : scan.wholeRowGroup(g);
      if (kept === undefined || kept.count === 0) continue;
      let size = batchSize;
      if (options.batchBytes !== undefined) {
        const metas = await Promise.all(idx.map((i) => scan.chunkMeta(g, i)));
        const perRow = bytesPerRow(idx.map((i) => cols[i]!), metas, group.num_rows);
        if (perRow > 0) size = Math.max(1, Math.min(batchSize, Math.floor(options.batchBytes / perRow)));
      }
      out.rowGroup(g);
      const at: RowGroupAt = { g, start, kept, size };
      if (filter) yield* filteredBatches(scan, out, at, filter, filterIdx, decimals, outIdx);
      else yield* plainBatches(scan, out, at, idx);
    }
  } finally {
    host.endScan(scan, options);
  }
}

/** A row group being read: its ordinal, first row in the file, kept rows and batch size. */
interface RowGroupAt {
  g: number;
  start: number;
  kept: KeptRows;
  size: number;
}

/** Batches of a row group read without a filter: every kept row (a row range, or every row). */
async function* plainBatches(scan: Scan, out: Assembler, { g, start, kept, size }: RowGroupAt, idx: readonly number[]): AsyncGenerator<RowBatch | ColumnBatch> {
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
      const batch = out.batch({ rowGroup: g, rowStart: start + pos, rowEnd: start + pos + rows }, idx, chunks);
      pos += rows;
      scan.returned(batchLength(batch));
      yield batch;
    }
    for (const c of cursors) await c.close();
  } finally {
    scan.rowsDecoded(finishAll(cursors));
  }
}

/**
 * Batches of a row group read with a filter. When every column returned is a filter column, one pass: each batch's
 * filter columns decoded, the filter evaluated, the matches returned. Otherwise two: the filter columns first (the
 * matches recorded, a byte per row), then only the pages of the other columns holding a match are fetched, and the
 * batches with a match decoded again with them.
 */
async function* filteredBatches(
  scan: Scan,
  out: Assembler,
  { g, start, kept, size }: RowGroupAt,
  filter: Filter,
  filterIdx: readonly number[],
  decimals: ReadonlySet<string>,
  outIdx: readonly number[],
): AsyncGenerator<RowBatch | ColumnBatch> {
  const numRows = kept.numRows;
  const rest = outIdx.filter((i) => !filterIdx.includes(i));
  const probe = await scan.fetchColumns(g, filterIdx, kept.mask, kept.indexes);
  const chunks: (DecodedChunk | undefined)[] = new Array(out.width);
  /** Takes a batch of the filter columns. */
  const takeFilter = async (cursors: readonly ColumnCursor[], pieces: RowRanges, rows: number): Promise<void> => {
    for (let k = 0; k < cursors.length; k++) {
      const c = cursors[k]!;
      chunks[filterIdx[k]!] = await c.take(pieces);
      if (c.rows !== rows) throw rowMismatch(g, cursors[0]!.column, rows, c.column, c.rows, start + pieces[0]!);
    }
  };
  if (rest.length === 0) {
    const cursors = probe.map((f) => new ColumnCursor(scan, g, f, numRows, false));
    try {
      for (const pieces of batchRanges(kept.ranges, size)) {
        const rows = countRows(pieces);
        await takeFilter(cursors, pieces, rows);
        const { keep, count, converted } = out.evaluate(filter, filterIdx, decimals, chunks, rows, start + pieces[0]!);
        if (count === 0) continue;
        const batch = out.batch({ rowGroup: g, rowStart: start + pieces[0]!, rowEnd: start + pieces[pieces.length - 1]! }, outIdx, chunks, count === rows ? undefined : keep, converted);
        scan.returned(batchLength(batch));
        yield batch;
      }
      for (const c of cursors) await c.close();
    } finally {
      scan.rowsDecoded(finishAll(cursors));
    }
    return;
  }

  // pass 1: the matches, as rows of the row group
  let matches = new Uint8Array(0);
  let counts: number[] = [];
  let total = 0;
  let rowsDecoded = 0;
  for (;;) {
    const cursors = probe.map((f) => new ColumnCursor(scan, g, f, numRows, true));
    try {
      matches = new Uint8Array(numRows);
      counts = [];
      total = 0;
      for (const pieces of batchRanges(kept.ranges, size)) {
        const rows = countRows(pieces);
        await takeFilter(cursors, pieces, rows);
        const { keep, count } = out.evaluate(filter, filterIdx, decimals, chunks, rows, start + pieces[0]!);
        counts.push(count);
        total += count;
        if (count === 0) continue;
        let k = 0;
        for (let j = 0; j < pieces.length; j += 2) {
          const n = pieces[j + 1]! - pieces[j]!;
          matches.set(keep.subarray(k, k + n), pieces[j]!);
          k += n;
        }
      }
      for (const c of cursors) await c.close();
      break;
    } catch (e) {
      // a page index found wrong: the column now reads its whole chunk, and the row group starts again
      if (!(e instanceof ReplayRowGroup)) throw e;
    } finally {
      rowsDecoded = Math.max(rowsDecoded, finishAll(cursors));
    }
  }
  chunks.fill(undefined);
  if (total === 0) {
    scan.rowsDecoded(rowsDecoded);
    return;
  }

  // pass 2: the other columns' pages holding a match, and the batches that have one
  const others = await scan.fetchColumns(g, rest, total === kept.count ? kept.mask : matches, kept.indexes);
  const again = outIdx.filter((i) => filterIdx.includes(i)).map((i) => new ColumnCursor(scan, g, probe[filterIdx.indexOf(i)]!, numRows, false));
  const fresh = others.map((f) => new ColumnCursor(scan, g, f, numRows, false));
  const cursors = [...again, ...fresh];
  try {
    let b = 0;
    for (const pieces of batchRanges(kept.ranges, size)) {
      if (counts[b++] === 0) continue;
      for (const c of cursors) {
        // the column's rows of this batch: those in its fetched pages (every match is)
        const own = c.coverage.length === 2 && c.coverage[0] === 0 && c.coverage[1] === numRows ? pieces : intersectRanges(pieces, c.coverage);
        const chunk = await c.take(own);
        const want = countRows(own);
        if (c.rows !== want) {
          throw new ParquetError('ROW_COUNT_MISMATCH', `parquet-reader: row group ${g}, from row ${start + own[0]!}: column '${c.column.pathString}' has ${c.rows} rows where the filter columns have ${want}`);
        }
        const { keep, count } = gather(matches, own);
        chunks[c.column.index] = count === want ? chunk : keepRows(chunk, c.column, keep);
      }
      const batch = out.batch({ rowGroup: g, rowStart: start + pieces[0]!, rowEnd: start + pieces[pieces.length - 1]! }, outIdx, chunks);
      scan.returned(batchLength(batch));
      yield batch;
    }
    for (const c of fresh) await c.close();
  } finally {
    finishAll(again, false);
    scan.rowsDecoded(Math.max(rowsDecoded, finishAll(fresh)));
  }
}

function rowMismatch(g: number, a: ColumnDescriptor, na: number, b: ColumnDescriptor, nb: number, row: number): ParquetError {
  return new ParquetError(
    'ROW_COUNT_MISMATCH',
    `parquet-reader: row group ${g}, from row ${row}: column '${a.pathString}' has ${na} rows where column '${b.pathString}' has ${nb}`,
  );
}
