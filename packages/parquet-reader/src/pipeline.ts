/**
 * The pruning pipeline of one read, row group by row group, conservative at every step (a pruned read returns
 * exactly what the unpruned read returns):
 *
 * 1. row-group statistics (min/max, null counts; from the decrypted metadata of encrypted columns);
 * 2. dictionaries, for `=`/`in` on chunks whose data pages are all dictionary-encoded (only the dictionary page is
 *    fetched, and reused for the data pages) — unless the chunk's bloom filter is smaller than its dictionary page;
 * 3. bloom filters, for `=`/`in` on chunks that have one;
 * 4. the page index (https://github.com/apache/parquet-format/blob/master/PageIndex.md): the rows each comparison
 *    may match from the pages' bounds and null counts, intersected for AND and united for OR; the filter columns
 *    decode only the pages holding those rows, the filter runs on them, and every other column then decodes only
 *    the pages holding matching rows (nested columns too: their pages start at top-level rows);
 * 5. exact evaluation, on the filter columns' values.
 *
 * Rows outside the kept ranges are trimmed from every column before evaluation, so skipped pages never change a
 * result. Indexes, dictionaries and bloom filters are fetched lazily — only for the row groups that reach their
 * stage, only for the columns that need them, only when the stage could prune — with ranges coalesced, and are
 * decrypted when their column is encrypted (Encryption.md module types 3/5, 6, 7, 8, 9).
 *
 * This module holds what every read needs (the {@link Scan}: fetching and decoding whole chunks, the statistics);
 * stages 1 to 4 are {@link PrunedScan}'s (pruned-scan.ts), loaded with `import()` only by a filtered or row-ranged
 * read, so that a bundle reading whole row groups holds none of them.
 * @module
 */
import { ChunkDecoder, type ChunkDecodeOptions, type DecodedChunk, type ValueOptions } from '@parquetry/parquet-column/decode';
import type { ReadBudget } from '@parquetry/parquet-column/decode';
import type { ColumnValues } from '@parquetry/parquet-encodings';
import type { ColumnDescriptor, SchemaTree } from '@parquetry/parquet-levels';
import { ParquetError, type ColumnMetaData, type FileMetaData, type RowGroup } from '@parquetry/thrift-compact';
import type { Filter } from './filter.js';
import type { ChunkPageIndex } from './page-index.js';
import { allRows, type RowRanges } from './row-ranges.js';
import { columnScan, emptyScanStats, leafKey, type CountingSource, type KindRange, type RowGroupSkips, type ScanStats } from './scan.js';
import type { ByteRange } from './source.js';

/** Which pruning stages a read uses (each defaults to on). */
export interface PruneOptions {
  /** Skip row groups by their statistics (default true). */
  statistics?: boolean;
  /** Skip row groups by their dictionaries, for `=`/`in` (default true). */
  dictionary?: boolean;
  /** Skip row groups by their bloom filters, for `=`/`in` (default true). */
  bloom?: boolean;
  /** Skip pages (and row groups) by the page index, for filters and row ranges (default true). */
  pageIndex?: boolean;
}

/** What the pipeline needs of an opened file. */
export interface ScanContext {
  /** The schema. */
  readonly schema: SchemaTree;
  /** The footer. */
  readonly metadata: FileMetaData;
  /** The counting byte source. */
  readonly io: CountingSource;
  /** Where the footer starts. */
  readonly footerOffset: number;
  /** Whether chunk sizes may leave out the dictionary page header (PARQUET-816): then no dictionary is read alone. */
  readonly oddChunkSizes: boolean;
  /** Codecs, checksum verification, page limits. */
  readonly decodeOptions: ChunkDecodeOptions;
  /**
   * The metadata of a column chunk (decrypted when the column's metadata is encrypted).
   * @param rowGroup - row group ordinal.
   * @param column - leaf column ordinal.
   */
  chunkMeta(rowGroup: number, column: number): Promise<ColumnMetaData>;
  /**
   * The checked byte range of a column chunk.
   * @param rowGroup - row group ordinal.
   * @param column - leaf column ordinal.
   * @param md - its metadata.
   */
  chunkRange(rowGroup: number, column: number, md: ColumnMetaData): ByteRange;
  /**
   * Decrypts one module of an encrypted column chunk; undefined for a plaintext column.
   * @param rowGroup - row group ordinal.
   * @param column - leaf column ordinal.
   */
  decrypt(rowGroup: number, column: number): ((module: number, page: number, bytes: Uint8Array) => Promise<Uint8Array>) | undefined;
  /**
   * Loads the bloom-filter stage (optional.ts's loader, handed over so that the pruned scan does not import
   * optional.ts: a module shared by the initial load and a lazy chunk becomes a chunk of its own in esbuild's
   * splitting, one more file to load and gzip apart).
   * @throws ParquetError `DEPENDENCY_MISSING` when `@parquetry/parquet-bloom` is not installed (as a rejected promise).
   */
  loadBloomStage(): Promise<typeof import('./bloom-stage.js')>;
}

/** One read's plan: columns, filter, value mapping and stages. */
export interface ScanPlan {
  /** Columns to return. */
  readonly outSel: readonly boolean[];
  /** The filter. */
  readonly filter: Filter | undefined;
  /** Its leaf columns (each with one value per row). */
  readonly filterIdx: readonly number[];
  /** DECIMAL filter columns compared as decimals. */
  readonly decimals: ReadonlySet<string>;
  /** Value mapping. */
  readonly options: ValueOptions;
  /** The stages: the read's `prune` option (a {@link PrunedScan} resolves it, the only scan that prunes). */
  readonly prune: boolean | PruneOptions | undefined;
  /**
   * What the read may materialise (rows, values, bytes): charged before each allocation, `LIMIT_EXCEEDED` beyond
   * (undefined: no limit).
   */
  readonly budget?: ReadBudget | undefined;
}

/**
 * An empty decoded chunk of a column (no levels, no values).
 * @param c - the column.
 * @returns the chunk.
 */
export function emptyChunk(c: ColumnDescriptor): DecodedChunk {
  return { def: c.maxDef > 0 ? new Uint8Array(0) : undefined, rep: c.maxRep > 0 ? new Uint8Array(0) : undefined, numLevels: 0, dictionary: undefined, segments: [], numValues: 0, pages: 0 };
}

/** Largest gap bridged by one request when whole chunks are read. */
const CHUNK_GAP = 65536;
/** Largest gap bridged by one request when some chunks are read page by page. */
const PAGE_GAP = 8192;

/** A dictionary decoded on its own (by the dictionary stage), reused for the data pages. */
export interface CachedDictionary {
  /** The dictionary page's values. */
  values: ColumnValues;
  /** Where the data pages start. */
  dataStart: number;
}

/** Consecutive pages of a column chunk fetched in one piece (or the whole chunk). */
export interface PageRun {
  /** Their bytes. */
  bytes: Uint8Array;
  /** File offset of the first byte. */
  at: number;
  /** Ordinal of the first data page (0 for a whole chunk). */
  firstPage: number;
  /** Ordinal of the last data page (-1 for a whole chunk: every page). */
  lastPage: number;
}

/** One column of a row group as fetched: the whole chunk, or the pages of it the page index keeps. */
export interface FetchedColumn {
  /** Leaf column ordinal. */
  readonly col: number;
  /** The chunk's metadata. */
  readonly md: ColumnMetaData;
  /** The chunk's byte range. */
  readonly range: ByteRange;
  /** Ordinals of the pages fetched (undefined: the whole chunk). */
  pages: number[] | undefined;
  /** The chunk's page index, when pages were chosen by it. */
  readonly index: ChunkPageIndex | undefined;
  /** The dictionary decoded by the dictionary stage, when the fetch starts after its page. */
  dict: CachedDictionary | undefined;
  /** The dictionary page, fetched on its own ahead of the kept pages. */
  dictBytes: Uint8Array | undefined;
  /** The fetched runs of pages, in order (one, the whole chunk, when `pages` is undefined). */
  runs: PageRun[];
}

/** Where a column's fetched ranges are in one fetch: its dictionary page's (or -1), then each run's. */
export interface FetchSlots {
  /** The dictionary page's range (-1: none). */
  dict: number;
  /** Each run's range and pages. */
  runs: { slot: number; firstPage: number; lastPage: number }[];
}

/** The kept pages of a column, decoded: the chunk, one byte per row of it (1 for a masked row), pages skipped. */
export interface KeptChunk {
  /** The pages' levels and values. */
  chunk: DecodedChunk;
  /** The read's row mask over the pages' rows. */
  mask: Uint8Array;
  /** Data pages left out. */
  skipped: number;
}

/** What one read decoded of one column chunk, for its statistics. */
export interface ChunkDecoded {
  /** Data pages the page index let the read skip. */
  pagesSkipped: number;
  /** Data pages decoded. */
  pages: number;
  /** Level entries decoded. */
  levels: number;
}

/**
 * The rows of a row group that the pruning stages keep (stages 1 to 4), within the read's row range.
 */
export interface KeptRows {
  /** Rows in the row group. */
  numRows: number;
  /** The kept rows. */
  ranges: RowRanges;
  /** One byte per row of the row group, 1 for a kept row (undefined when every row is kept). */
  mask: Uint8Array | undefined;
  /** Number of kept rows. */
  count: number;
  /** Page indexes read, by leaf column ordinal. */
  indexes: Map<number, ChunkPageIndex> | undefined;
}

/**
 * One read: its statistics, the metadata and dictionaries it decoded, and whole row groups; a filtered or row-ranged
 * read is a {@link PrunedScan}, which adds the pruning stages.
 */
export class Scan {
  /** What this read fetched, decoded, skipped and returned. */
  readonly stats: ScanStats = emptyScanStats();
  private readonly metas = new Map<number, Promise<ColumnMetaData>>();
  /** Dictionaries decoded by the dictionary stage, by `rowGroup * columns + column`. */
  protected readonly dicts = new Map<number, CachedDictionary>();
  /** Leaf columns of the file. */
  protected readonly ncols: number;

  /**
   * @param ctx - the file.
   * @param plan - the read's plan.
   */
  constructor(
    protected readonly ctx: ScanContext,
    protected readonly plan: ScanPlan,
  ) {
    this.ncols = ctx.schema.columns.length;
  }

  /**
   * A column chunk's metadata (decrypted when encrypted), decoded once per read.
   * @param g - row group ordinal.
   * @param col - leaf column ordinal.
   * @returns its ColumnMetaData.
   * @throws ParquetError `MISSING_METADATA`, and the decryption codes.
   */
  chunkMeta(g: number, col: number): Promise<ColumnMetaData> {
    const key = g * this.ncols + col;
    let m = this.metas.get(key);
    if (m === undefined) {
      m = this.ctx.chunkMeta(g, col);
      this.metas.set(key, m);
    }
    return m;
  }

  /**
   * Counts a skipped row group.
   * @param reason - why it is skipped.
   * @returns undefined.
   */
  protected skip(reason: keyof RowGroupSkips): undefined {
    this.stats.rowGroups.skipped[reason]++;
    return undefined;
  }

  private firstRows: number[] | undefined;

  /**
   * Where a row group stands against a read's row range: outside it (counted as skipped), or its rows in it.
   * @param g - row group ordinal.
   * @param rowStart - the read's first row, counted over the file (undefined: 0).
   * @param rowEnd - the row after its last (undefined: the end of the file).
   * @returns undefined for a row group outside the range; else its first row in the file, whether the range cuts it,
   *   and the range's first row and the row after its last, as rows of the row group (`last` may pass its end).
   */
  rowRange(g: number, rowStart: number | undefined, rowEnd: number | undefined): { start: number; cut: boolean; first: number; last: number } | undefined {
    if (this.firstRows === undefined) {
      this.firstRows = [];
      let acc = 0;
      for (const rg of this.ctx.metadata.row_groups) {
        this.firstRows.push(acc);
        acc += rg.num_rows;
      }
    }
    const start = this.firstRows[g]!;
    const numRows = this.group(g).num_rows;
    const ranged = rowStart !== undefined || rowEnd !== undefined;
    const from = rowStart ?? 0;
    const to = rowEnd ?? Infinity;
    if (ranged && (start >= to || start + numRows <= from)) {
      this.stats.rowGroups.total++;
      return this.skip('rowRange');
    }
    const cut = ranged && (start < from || start + numRows > to);
    return { start, cut, first: Math.max(0, from - start), last: Math.max(0, Math.min(to - start, Number.MAX_SAFE_INTEGER)) };
  }

  /**
   * Counts a row group read whole (a read with neither filter nor row range): every row is kept, no stage runs.
   * @param g - row group ordinal.
   * @returns its rows, all kept.
   */
  wholeRowGroup(g: number): KeptRows {
    const numRows = this.group(g).num_rows;
    this.chargeRows(g, numRows);
    this.stats.rowGroups.total++;
    this.stats.rowGroups.read++;
    return { numRows, ranges: allRows(numRows), mask: undefined, count: numRows, indexes: undefined };
  }

  /**
   * Decodes whole column chunks of one row group (reads with neither filter nor row range).
   * @param g - row group ordinal.
   * @param sel - the columns to decode.
   * @returns the decoded chunks (undefined for columns not selected).
   * @throws ParquetError as {@link Scan.rowGroup}.
   */
  async wholeChunks(g: number, sel: readonly boolean[]): Promise<(DecodedChunk | undefined)[]> {
    const cols = this.ctx.schema.columns;
    const idx = cols.map((_, i) => i).filter((i) => sel[i]);
    const { numRows } = this.wholeRowGroup(g);
    // an empty row group (pyarrow writes one into a zero-row file, its chunks at offset 0 with no bytes): no pages
    if (numRows === 0) return cols.map((c, i) => (sel[i] ? emptyChunk(c) : undefined));
    const decoded = await this.decodeColumns(g, idx, undefined, undefined);
    this.stats.rowsDecoded += numRows;
    return cols.map((_, i) => decoded.get(i));
  }

  /**
   * A row group of the file.
   * @param g - its ordinal.
   * @returns its metadata.
   */
  protected group(g: number): RowGroup {
    return this.ctx.metadata.row_groups[g]!;
  }

  /**
   * Fetches some columns of a row group in one coalesced fetch: whole chunks, or with a row mask and page indexes
   * only the pages holding masked rows (and the dictionary page ahead of them).
   * @param g - row group ordinal.
   * @param idx - the columns.
   * @param mask - one byte per row of the row group (undefined: every row).
   * @param indexes - page indexes by column.
   * @returns each column's fetched bytes, in `idx` order.
   * @throws ParquetError `CORRUPT_METADATA` (chunks outside the data region; a row group with the wrong number of
   *   column chunks is refused when the file is opened), and the source's errors.
   */
  async fetchColumns(g: number, idx: readonly number[], mask: Uint8Array | undefined, indexes: Map<number, ChunkPageIndex> | undefined): Promise<FetchedColumn[]> {
    const cols = this.ctx.schema.columns;
    const group = this.group(g);
    const numRows = group.num_rows;
    const metas = await Promise.all(idx.map((i) => this.chunkMeta(g, i)));
    const ranges: KindRange[] = [];
    // per column: the fetched range of its dictionary page (or -1), then of each run
    const slots: FetchSlots[] = [];
    const out: FetchedColumn[] = [];
    for (let k = 0; k < idx.length; k++) {
      const col = idx[k]!;
      const md = metas[k]!;
      const range = this.ctx.chunkRange(g, col, md);
      const index = mask ? indexes?.get(col) : undefined;
      const cached = this.dicts.get(g * this.ncols + col);
      const slot: FetchSlots = { dict: -1, runs: [] };
      const pages = index && this.keptPages(numRows, range, mask!, index, cached, ranges, slot);
      let dict = pages && cached;
      if (pages === undefined) {
        // a dictionary decoded by the dictionary stage is not fetched again
        const start = cached && cached.dataStart > range.start && cached.dataStart <= range.end ? cached.dataStart : range.start;
        if (start !== range.start) dict = cached;
        slot.runs.push({ slot: ranges.push({ start, end: range.end, kind: 'data' }) - 1, firstPage: 0, lastPage: -1 });
      }
      slots.push(slot);
      out.push({ col, md, range, pages, index, dict, dictBytes: undefined, runs: [] });
    }
    // whole chunks merge across gaps up to 64 KiB; page reads only across small holes (8 KiB, Arrow's hole limit),
    // so that skipped pages are not fetched anyway
    const paged = out.some((p) => p.pages !== undefined);
    const bytes = await this.ctx.io.fetch(ranges, this.stats, paged ? PAGE_GAP : CHUNK_GAP);
    for (let k = 0; k < out.length; k++) {
      const f = out[k]!;
      const s = slots[k]!;
      if (s.dict >= 0) f.dictBytes = bytes[s.dict]!;
      f.runs = s.runs.map((r) => ({ bytes: bytes[r.slot]!, at: ranges[r.slot]!.start, firstPage: r.firstPage, lastPage: r.lastPage }));
    }
    return out;
  }

  /**
   * The pages of a column to fetch when a row mask and the column's page index leave some out (only a
   * {@link PrunedScan} fetches so): their runs (and the dictionary page ahead of them, unless `cached`) are added to
   * `ranges` and `slot`.
   * @returns the kept pages' ordinals; undefined: the whole chunk is fetched.
   */
  protected keptPages(_numRows: number, _range: ByteRange, _mask: Uint8Array, _index: ChunkPageIndex, _cached: CachedDictionary | undefined, _ranges: KindRange[], _slot: FetchSlots): number[] | undefined {
    return undefined;
  }

  /**
   * Where a column chunk's bytes are, for error messages.
   * @param g - row group ordinal.
   * @param col - leaf column ordinal.
   * @param offset - file offset.
   * @returns the location.
   */
  protected where(g: number, col: number, offset: number): { rowGroup: number; path: string; offset: number } {
    return { rowGroup: g, path: this.ctx.schema.columns[col]!.pathString, offset };
  }

  /**
   * A decoder of one fetched run of pages.
   * @param g - row group ordinal.
   * @param f - the fetched column.
   * @param run - one of its runs.
   * @param dictionary - for a run of kept pages, the chunk's dictionary ({@link Scan.runDictionary}).
   * @param masked - whether only some of the rows will be kept (numeric dictionary indices are then kept as indices,
   *   so that only the kept rows' values are looked up).
   * @returns the decoder (nothing decoded yet).
   */
  openRun(g: number, f: FetchedColumn, run: PageRun, dictionary: ColumnValues | undefined, masked = false): ChunkDecoder {
    const col = this.ctx.schema.columns[f.col]!;
    const whole = run.lastPage < 0;
    return new ChunkDecoder(run.bytes, col, f.md, this.where(g, f.col, run.at), {
      ...this.ctx.decodeOptions,
      decrypt: this.ctx.decrypt(g, f.col),
      dictionary: whole ? f.dict?.values : dictionary,
      firstDataPage: whole ? undefined : run.firstPage,
      // a whole chunk is checked against its metadata: its num_values levels, the row group's num_rows records (a
      // run of kept pages is checked against the offset index by its caller instead)
      numRows: whole ? this.group(g).num_rows : undefined,
      budget: this.plan.budget,
      keepIndices: masked,
    });
  }

  /**
   * Charges the read's budget for rows about to be decoded and assembled.
   * @param g - row group ordinal.
   * @param rows - the rows.
   * @throws ParquetError `LIMIT_EXCEEDED` beyond the read's `maxRows`.
   */
  chargeRows(g: number, rows: number): void {
    if (this.perBatch) return;
    this.plan.budget?.chargeRows(rows, `row group ${g}`);
  }

  /**
   * Charges the rows of one batch of an unfiltered batch read ({@link Scan.perBatch}), let go with the rest of what the
   * batch charged once it is handed out.
   * @param g - row group ordinal.
   * @param rows - the batch's rows.
   * @throws ParquetError `LIMIT_EXCEEDED` beyond the read's `maxRows`.
   */
  chargeBatchRows(g: number, rows: number): void {
    this.plan.budget?.chargeRows(rows, `row group ${g}`);
  }

  /**
   * An unfiltered batch read: a row group's rows are not charged when it is planned but batch by batch
   * ({@link Scan.chargeBatchRows}), and the batch reader lets go of what each batch charged once it is handed out, so that one row group
   * of 20 million well-compressed rows streams through within the limits. (The pages a batch leaves partly read, and
   * the row group's dictionaries, are then no longer counted: at most a page per column beyond the batch.)
   */
  perBatch = false;

  /**
   * Charges the read's budget for bytes about to be allocated outside the decoders (byte arrays gathered from a
   * dictionary into one vector).
   * @param bytes - the bytes.
   * @param where - what is being built, for the message.
   * @param held - whether the read keeps them until it ends (a row group's vectors); false for a batch handed out at
   *   once, which must fit beside what the read holds but is not counted after.
   * @throws ParquetError `LIMIT_EXCEEDED` beyond the read's `maxBytes`.
   */
  chargeBytes(bytes: number, where: string, held = true): void {
    const b = this.plan.budget;
    if (b === undefined) return;
    b.charge(0, bytes, where);
    if (!held) b.bytes -= bytes;
  }

  /** Lets go of what the read charged so far: a streaming read handed out a row group (or its batches). */
  releaseBudget(): void {
    this.plan.budget?.reset();
  }

  /**
   * Counts what a read decoded of one column chunk.
   * @param col - leaf column ordinal.
   * @param d - pages skipped and decoded, levels decoded.
   */
  countChunk(col: number, d: ChunkDecoded): void {
    const scan = columnScan(this.stats, leafKey(this.ctx.schema.columns[col]!.path));
    scan.chunks++;
    scan.pagesSkipped += d.pagesSkipped;
    this.stats.pages.skipped += d.pagesSkipped;
    scan.pagesRead += d.pages;
    this.stats.pages.read += d.pages;
    this.stats.valuesDecoded += d.levels;
  }

  /**
   * Fetches and decodes some columns of a row group: whole chunks, or with a row mask and page indexes only the
   * pages holding masked rows; every chunk is then trimmed to the masked rows.
   * @param g - row group ordinal.
   * @param idx - the columns.
   * @param mask - one byte per row of the row group (undefined: every row).
   * @param indexes - page indexes by column.
   * @param rows - receives the rows each column decoded.
   * @returns the chunks, holding only the masked rows.
   */
  protected async decodeColumns(g: number, idx: readonly number[], mask: Uint8Array | undefined, indexes: Map<number, ChunkPageIndex> | undefined, rows?: Map<number, number>): Promise<Map<number, DecodedChunk>> {
    const cols = this.ctx.schema.columns;
    const numRows = this.group(g).num_rows;
    const fetched = await this.fetchColumns(g, idx, mask, indexes);
    const out = new Map<number, DecodedChunk>();
    await Promise.all(
      fetched.map(async (p) => {
        const col = cols[p.col]!;
        const kept = p.pages && (await this.decodeKept(g, p, mask!));
        // whole chunk (or a page index that did not match the pages: read everything, as without one)
        const chunk = kept?.chunk ?? (await this.openRun(g, p, p.runs[0]!, undefined, mask !== undefined).take(Infinity));
        const chunkMask = kept ? kept.mask : mask;
        this.countChunk(p.col, { pagesSkipped: kept?.skipped ?? 0, pages: chunk.pages, levels: chunk.numLevels });
        rows?.set(p.col, kept ? kept.mask.length : numRows);
        out.set(p.col, chunkMask ? this.keepRows(chunk, col, chunkMask) : chunk);
      }),
    );
    return out;
  }

  /**
   * Decodes the kept pages of a column fetched page by page (only a {@link PrunedScan} fetches so).
   * @param _g - row group ordinal.
   * @param _p - the fetched column.
   * @param _mask - one byte per row of the row group.
   * @returns the chunk of the kept pages, the mask of its rows and the pages skipped; undefined: the whole chunk
   *   (fetched now) is decoded instead.
   */
  protected decodeKept(_g: number, _p: FetchedColumn, _mask: Uint8Array): Promise<KeptChunk | undefined> {
    return Promise.resolve(undefined);
  }

  /**
   * Keeps the masked rows of a chunk (only a {@link PrunedScan} reads with a row mask).
   * @param _chunk - the chunk.
   * @param _col - its column.
   * @param _mask - one byte per row.
   * @returns never.
   * @throws ParquetError `INTERNAL`: a row mask reached a read without the pruning stages.
   */
  protected keepRows(_chunk: DecodedChunk, _col: ColumnDescriptor, _mask: Uint8Array): DecodedChunk {
    throw new ParquetError('INTERNAL', 'parquet-reader: a row mask reached a read without the pruning stages (a defect)');
  }

  /**
   * Finishes the read: records the rows returned.
   * @param rows - rows returned.
   */
  returned(rows: number): void {
    this.stats.rowsReturned += rows;
  }
}
