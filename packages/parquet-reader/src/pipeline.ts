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
 * @module
 */
import type { BloomValue } from '@parquetry/parquet-bloom';
import { ChunkDecoder, columnStatistics, decodeColumnChunk, type ChunkDecodeOptions, type ColumnStatistics, type DecodedChunk, type ValueOptions, type ValueSegment } from '@parquetry/parquet-column';
import type { ColumnValues } from '@parquetry/parquet-encodings';
import type { ColumnDescriptor, SchemaTree } from '@parquetry/parquet-levels';
import { ParquetError, Type, isParquetError, type ColumnMetaData, type FileMetaData, type RowGroup } from '@parquetry/thrift-compact';
import { statisticsPruner, type Filter, type RowGroupPruner, type StatisticsLookup } from './filter.js';
import { filterRowRanges, readPageIndexes, type ChunkPageIndex, type FilterColumnIndex, type IndexRequest } from './page-index.js';
import { allPagesDictionaryEncoded, dictionaryMayContain, dictionaryValues, equalityLeaves, mayMatchWith, type LeafFilter } from './prune.js';
import type { BloomProbe } from './bloom-stage.js';
import { loadBloomStage } from './optional.js';
import { allRows, countRows, intersectRanges, maskOfPages, pagesHolding, rangesMask, type RowRanges } from './row-ranges.js';
import { columnScan, emptyScanStats, type CountingSource, type KindRange, type RowGroupSkips, type ScanStats } from './scan.js';
import { keepRows, selectRows } from './select.js';
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

/** Row-group pruners tried in order by the statistics stage (the other stages need I/O and run after it). */
export const PRUNERS: readonly RowGroupPruner[] = [statisticsPruner];

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
  /** The stages. */
  readonly prune: Required<PruneOptions>;
}

/**
 * Resolves the `prune` read option.
 * @param p - `false` (no pruning), `true`/undefined (every stage) or per-stage switches.
 * @returns every stage's switch.
 */
export function pruneOptions(p: boolean | PruneOptions | undefined): Required<PruneOptions> {
  if (p === false) return { statistics: false, dictionary: false, bloom: false, pageIndex: false };
  const o = p === true || p === undefined ? {} : p;
  return { statistics: o.statistics ?? true, dictionary: o.dictionary ?? true, bloom: o.bloom ?? true, pageIndex: o.pageIndex ?? true };
}

const isFloating = (c: ColumnDescriptor) => c.type === Type.FLOAT || c.type === Type.DOUBLE || (c.type === Type.FIXED_LEN_BYTE_ARRAY && c.node.logicalType?.FLOAT16 !== undefined);

/**
 * An empty decoded chunk of a column (no levels, no values).
 * @param c - the column.
 * @returns the chunk.
 */
export function emptyChunk(c: ColumnDescriptor): DecodedChunk {
  return { def: c.maxDef > 0 ? new Int32Array(0) : undefined, rep: c.maxRep > 0 ? new Int32Array(0) : undefined, numLevels: 0, dictionary: undefined, segments: [], numValues: 0, pages: 0 };
}

/** Rows of a decoded chunk (levels at repetition level 0), or -1 when it does not start a row. */
function chunkRows(c: DecodedChunk): number {
  if (!c.rep) return c.numLevels;
  if (c.numLevels > 0 && c.rep[0] !== 0) return -1;
  let n = 0;
  for (let i = 0; i < c.numLevels; i++) if (c.rep[i] === 0) n++;
  return n;
}

/**
 * Concatenates chunks decoded from runs of pages of one column, in row order (sharing one dictionary).
 * @param parts - the chunks (at least one).
 * @param column - their column.
 * @returns one chunk holding their levels and values, in order (the only part itself when there is one).
 */
export function concatChunks(parts: readonly DecodedChunk[], column: ColumnDescriptor): DecodedChunk {
  if (parts.length === 1) return parts[0]!;
  let numLevels = 0;
  let numValues = 0;
  let pages = 0;
  const segments: ValueSegment[] = [];
  for (const p of parts) {
    numLevels += p.numLevels;
    numValues += p.numValues;
    pages += p.pages;
    for (const s of p.segments) segments.push(s);
  }
  let def: Int32Array | undefined;
  if (column.maxDef > 0 && parts.some((p) => p.def !== undefined)) {
    def = new Int32Array(numLevels);
    let at = 0;
    for (const p of parts) {
      if (p.def) def.set(p.def.subarray(0, p.numLevels), at);
      else def.fill(column.maxDef, at, at + p.numLevels);
      at += p.numLevels;
    }
  }
  let rep: Int32Array | undefined;
  if (column.maxRep > 0) {
    rep = new Int32Array(numLevels);
    let at = 0;
    for (const p of parts) {
      rep.set(p.rep!.subarray(0, p.numLevels), at);
      at += p.numLevels;
    }
  }
  return { def, rep, numLevels, dictionary: parts[0]!.dictionary, segments, numValues, pages };
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

/** One read: its statistics, the metadata and dictionaries it decoded, and the row-group pipeline. */
export class Scan {
  /** What this read fetched, decoded, skipped and returned. */
  readonly stats: ScanStats = emptyScanStats();
  private readonly metas = new Map<number, Promise<ColumnMetaData>>();
  private readonly dicts = new Map<number, CachedDictionary>();
  private readonly ncols: number;

  /**
   * @param ctx - the file.
   * @param plan - the read's plan.
   */
  constructor(
    private readonly ctx: ScanContext,
    private readonly plan: ScanPlan,
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
   * A leaf column of the file.
   * @param i - its ordinal.
   * @returns its descriptor.
   */
  column(i: number): ColumnDescriptor {
    return this.ctx.schema.columns[i]!;
  }

  private skip(reason: keyof RowGroupSkips): undefined {
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

  private group(g: number): RowGroup {
    return this.ctx.metadata.row_groups[g]!;
  }

  /**
   * Stages 1 to 4 on one row group: whether it is skipped (and why, counted in the statistics), and otherwise the
   * rows the filter may match within the row range, with the page indexes read on the way.
   * @param g - row group ordinal.
   * @param first - first row of the row group the row range keeps.
   * @param last - row after the last one it keeps.
   * @returns the kept rows, or undefined when no row is kept (a skipped or empty row group).
   * @throws ParquetError `CORRUPT_METADATA`, `BLOOM_BAD_OFFSET`, the codec and decryption codes (`DECRYPTION_FAILED`
   *   for a tampered index, bloom filter or dictionary page).
   */
  async planRowGroup(g: number, first: number, last: number): Promise<KeptRows | undefined> {
    const { outSel, filter, filterIdx, options, prune, decimals } = this.plan;
    const cols = this.ctx.schema.columns;
    const group = this.group(g);
    const numRows = group.num_rows;
    this.stats.rowGroups.total++;
    if (numRows === 0) {
      this.stats.rowGroups.read++;
      return undefined;
    }
    last = Math.min(last, numRows);
    if (first >= last) return this.skip('rowRange');
    if (filter) {
      const skipped = await this.pruneRowGroup(g, filter);
      if (skipped) return this.skip(skipped);
    }
    // the page index: rows the filter may match, within the row range
    let ranges = first === 0 && last === numRows ? allRows(numRows) : [first, last];
    let indexes: Map<number, ChunkPageIndex> | undefined;
    if (prune.pageIndex && (filter !== undefined || ranges[0] !== 0 || ranges[1] !== numRows)) {
      const requests: IndexRequest[] = [];
      for (let i = 0; i < cols.length; i++) {
        if (!outSel[i] && !filterIdx.includes(i)) continue;
        const cc = group.columns[i]!;
        if (cc.offset_index_offset === undefined) continue;
        const md = await this.chunkMeta(g, i);
        const dec = this.ctx.decrypt(g, i);
        requests.push({ column: i, chunk: cc, range: this.ctx.chunkRange(g, i, md), withColumnIndex: filter !== undefined && filterIdx.includes(i), flat: cols[i]!.maxRep === 0, decrypt: dec && ((m, b) => dec(m, 0, b)) });
      }
      if (requests.length > 0) {
        indexes = await readPageIndexes(this.ctx.io, this.stats, requests, numRows, this.ctx.footerOffset);
        if (filter) {
          const withCi = new Map<string, FilterColumnIndex>();
          for (const i of filterIdx) {
            const index = indexes.get(i);
            if (index?.columnIndex) withCi.set(cols[i]!.pathString, { column: cols[i]!, md: await this.chunkMeta(g, i), index: index as FilterColumnIndex['index'] });
          }
          if (withCi.size > 0) ranges = intersectRanges(ranges, filterRowRanges(filter, withCi, this.ctx.metadata, numRows, options, decimals));
          if (ranges.length === 0) return this.skip('pageIndex');
        }
      }
    }
    this.stats.rowGroups.read++;
    const mask = ranges.length === 2 && ranges[0] === 0 && ranges[1] === numRows ? undefined : rangesMask(ranges, numRows);
    return { numRows, ranges, mask, count: countRows(ranges), indexes };
  }

  /**
   * Runs the pipeline on one row group: the selected chunks holding only the rows the filter and the row range keep.
   * @param g - row group ordinal.
   * @param first - first row of the row group the row range keeps.
   * @param last - row after the last one it keeps.
   * @param skipIfNone - return undefined when no row is kept (else chunks with no rows).
   * @returns the chunks of the selected columns (undefined elsewhere), or undefined when the row group is skipped.
   * @throws ParquetError `CORRUPT_METADATA`, `CORRUPT_PAGE`, `ROW_COUNT_MISMATCH`, `INVALID_LEVELS`, the codec and
   *   decryption codes (`DECRYPTION_FAILED` for a tampered page, index or bloom filter), `BLOOM_BAD_OFFSET`.
   */
  async rowGroup(g: number, first: number, last: number, skipIfNone: boolean): Promise<(DecodedChunk | undefined)[] | undefined> {
    const { outSel, filter, filterIdx, options, decimals } = this.plan;
    const cols = this.ctx.schema.columns;
    const none = (): (DecodedChunk | undefined)[] | undefined => (skipIfNone ? undefined : cols.map((c, i) => (outSel[i] ? emptyChunk(c) : undefined)));
    const kept = await this.planRowGroup(g, first, last);
    if (kept === undefined) return none();
    const { numRows, ranges, mask: b0, count: n0, indexes } = kept;
    const probe = filter ? filterIdx : cols.map((_, i) => i).filter((i) => outSel[i]);
    let rowsDecoded = 0;
    const track = (m: Map<number, DecodedChunk>, rows: Map<number, number>) => {
      for (const r of rows.values()) rowsDecoded = Math.max(rowsDecoded, r);
      return m;
    };
    const probeRows = new Map<number, number>();
    const pchunks = track(await this.decodeColumns(g, probe, b0, indexes, probeRows), probeRows);
    let keep: Uint8Array | undefined;
    let b1 = b0;
    if (filter) {
      const sel = selectRows(filter, new Map(filterIdx.map((i) => [cols[i]!.pathString, { column: cols[i]!, chunk: pchunks.get(i)! }])), options, decimals, 0, n0);
      if (sel.count === 0) {
        this.stats.rowsDecoded += rowsDecoded;
        return none();
      }
      keep = sel.keep;
      if (sel.count < n0) {
        // the matching rows, as rows of the row group
        b1 = new Uint8Array(numRows);
        let k = 0;
        for (let j = 0; j < ranges.length; j += 2) {
          for (let r = ranges[j]!; r < ranges[j + 1]!; r++) b1[r] = keep[k++]!;
        }
      }
    }
    const rest = cols.map((_, i) => i).filter((i) => outSel[i] && !pchunks.has(i));
    const otherRows = new Map<number, number>();
    const others = rest.length > 0 ? track(await this.decodeColumns(g, rest, b1, indexes, otherRows), otherRows) : new Map<number, DecodedChunk>();
    this.stats.rowsDecoded += rowsDecoded;
    return cols.map((c, i) => {
      if (!outSel[i]) return undefined;
      const p = pchunks.get(i);
      if (p !== undefined) return keep ? keepRows(p, c, keep) : p;
      return others.get(i)!;
    });
  }

  /** Stages 1–3: the reason the row group is skipped, or undefined when it must be read. */
  private async pruneRowGroup(g: number, filter: Filter): Promise<keyof RowGroupSkips | undefined> {
    const { decimals, options, prune } = this.plan;
    const cols = this.ctx.schema.columns;
    const colOf = new Map(cols.map((c) => [c.pathString, c]));
    let known: (l: LeafFilter) => boolean = () => true;
    if (prune.statistics) {
      // from the chunk metadata, decrypted when the column's is encrypted
      const byPath = new Map<string, ColumnStatistics | undefined>();
      for (const i of this.plan.filterIdx) {
        const col = cols[i]!;
        const s = columnStatistics(this.ctx.metadata, col, await this.chunkMeta(g, i), options);
        // a column that cannot hold NaN has none (`!=` may then use its bounds)
        if (s && !isFloating(col) && s.nanCount === undefined) s.nanCount = 0;
        byPath.set(col.pathString, s);
      }
      const lookup: StatisticsLookup = (c) => byPath.get(c);
      if (!PRUNERS.every((p) => p(filter, lookup, decimals))) return 'statistics';
      known = (l) => statisticsPruner(l, lookup, decimals);
    }
    const leaves = equalityLeaves(filter);
    if (leaves.length === 0) return undefined;
    const checked = new Set<number>(); // columns whose dictionary decided their comparisons
    if (prune.dictionary && !this.ctx.oddChunkSizes) {
      const candidates: LeafFilter[] = [];
      const dictCols = new Map<number, ColumnMetaData>();
      for (const l of leaves) {
        const col = colOf.get(l.column)!;
        const md = await this.chunkMeta(g, col.index);
        const dictAt = md.dictionary_page_offset;
        if (dictAt === undefined || !(dictAt >= 4 && dictAt < md.data_page_offset) || !allPagesDictionaryEncoded(md)) continue;
        if (this.ctx.chunkRange(g, col.index, md).start !== dictAt) continue;
        // a bloom filter smaller than the dictionary page answers for less: the bloom stage decides this one
        const bloomBytes = md.bloom_filter_offset === undefined ? undefined : md.bloom_filter_length;
        if (prune.bloom && bloomBytes !== undefined && bloomBytes < md.data_page_offset - dictAt && (await loadBloomStage()).bloomProbeValues(l, col, options, decimals) !== undefined) continue;
        candidates.push(l);
        dictCols.set(col.index, md);
      }
      const before = known;
      if (candidates.length > 0 && !mayMatchWith(filter, (l) => !candidates.includes(l) && before(l))) {
        const ids = [...dictCols.keys()].filter((i) => !this.dicts.has(g * this.ncols + i));
        const ranges: KindRange[] = ids.map((i) => ({ start: dictCols.get(i)!.dictionary_page_offset!, end: dictCols.get(i)!.data_page_offset, kind: 'dictionary' }));
        const bytes = ranges.length > 0 ? await this.ctx.io.fetch(ranges, this.stats) : [];
        for (let k = 0; k < ids.length; k++) {
          const i = ids[k]!;
          const md = dictCols.get(i)!;
          const dec = this.ctx.decrypt(g, i);
          const chunk = await decodeColumnChunk(bytes[k]!, cols[i]!, md, { rowGroup: g, path: cols[i]!.pathString, offset: ranges[k]!.start }, { ...this.ctx.decodeOptions, decrypt: dec });
          if (chunk.numLevels === 0 && chunk.dictionary !== undefined) this.dicts.set(g * this.ncols + i, { values: chunk.dictionary, dataStart: md.data_page_offset });
        }
        const converted = new Map<string, ArrayLike<unknown>>();
        for (const i of dictCols.keys()) {
          const d = this.dicts.get(g * this.ncols + i);
          if (d === undefined) continue;
          converted.set(cols[i]!.pathString, dictionaryValues(d.values, cols[i]!, options));
          checked.add(i);
        }
        known = (l) => before(l) && (l.op !== '=' && l.op !== 'in' ? true : !converted.has(l.column) || dictionaryMayContain(l, converted.get(l.column)!, decimals));
        if (!mayMatchWith(filter, known)) return 'dictionary';
      }
    }
    if (prune.bloom) {
      const probes = new Map<LeafFilter, BloomValue[]>();
      const bloomCols = new Map<number, ColumnMetaData>();
      for (const l of leaves) {
        const col = colOf.get(l.column)!;
        if (checked.has(col.index)) continue;
        const md = await this.chunkMeta(g, col.index);
        if (md.bloom_filter_offset === undefined) continue;
        const values = (await loadBloomStage()).bloomProbeValues(l, col, options, decimals);
        if (values === undefined) continue;
        probes.set(l, values);
        bloomCols.set(col.index, md);
      }
      const before = known;
      if (probes.size > 0 && !mayMatchWith(filter, (l) => !probes.has(l) && before(l))) {
        const ids = [...bloomCols.keys()];
        const valuesOf = new Map<number, BloomValue[]>();
        for (const [l, values] of probes) {
          const i = colOf.get(l.column)!.index;
          valuesOf.set(i, [...(valuesOf.get(i) ?? []), ...values!]);
        }
        const filters = await (await loadBloomStage()).readBloomFilters(
          this.ctx.io,
          this.stats,
          ids.map((i) => {
            const dec = this.ctx.decrypt(g, i);
            return { md: bloomCols.get(i)!, column: cols[i]!, values: valuesOf.get(i)!, decrypt: dec && ((m: 8 | 9, b: Uint8Array) => dec(m, 0, b)) };
          }),
          this.ctx.footerOffset,
        );
        const byPath = new Map<string, BloomProbe>();
        ids.forEach((i, k) => filters[k] && byPath.set(cols[i]!.pathString, filters[k]));
        known = (l) => {
          if (!before(l)) return false;
          const values = probes.get(l);
          const bf = byPath.get(l.column);
          return values === undefined || bf === undefined || bf.mayContain(values);
        };
        if (!mayMatchWith(filter, known)) return 'bloom';
      }
    }
    return undefined;
  }

  /**
   * Fetches some columns of a row group in one coalesced fetch: whole chunks, or with a row mask and page indexes
   * only the pages holding masked rows (and the dictionary page ahead of them).
   * @param g - row group ordinal.
   * @param idx - the columns.
   * @param mask - one byte per row of the row group (undefined: every row).
   * @param indexes - page indexes by column.
   * @returns each column's fetched bytes, in `idx` order.
   * @throws ParquetError `CORRUPT_METADATA` (chunks outside the data region, a row group with the wrong number of
   *   column chunks), and the source's errors.
   */
  async fetchColumns(g: number, idx: readonly number[], mask: Uint8Array | undefined, indexes: Map<number, ChunkPageIndex> | undefined): Promise<FetchedColumn[]> {
    const cols = this.ctx.schema.columns;
    const group = this.group(g);
    const numRows = group.num_rows;
    if (group.columns.length !== cols.length) {
      throw new ParquetError('CORRUPT_METADATA', `parquet-reader: row group ${g} has ${group.columns.length} column chunks, the schema has ${cols.length} leaf columns`);
    }
    const metas = await Promise.all(idx.map((i) => this.chunkMeta(g, i)));
    const ranges: KindRange[] = [];
    // per column: the fetched range of its dictionary page (or -1), then of each run
    const slots: { dict: number; runs: { slot: number; firstPage: number; lastPage: number }[] }[] = [];
    const out: FetchedColumn[] = [];
    for (let k = 0; k < idx.length; k++) {
      const col = idx[k]!;
      const md = metas[k]!;
      const range = this.ctx.chunkRange(g, col, md);
      const index = mask ? indexes?.get(col) : undefined;
      const cached = this.dicts.get(g * this.ncols + col);
      let pages = index ? pagesHolding(index.firstRows, numRows, mask!) : undefined;
      if (pages && pages.length === index!.pages.length) pages = undefined;
      const slot: (typeof slots)[number] = { dict: -1, runs: [] };
      let dict: CachedDictionary | undefined;
      if (pages === undefined) {
        // a dictionary decoded by the dictionary stage is not fetched again
        const start = cached && cached.dataStart > range.start && cached.dataStart <= range.end ? cached.dataStart : range.start;
        if (start !== range.start) dict = cached;
        slot.runs.push({ slot: ranges.push({ start, end: range.end, kind: 'data' }) - 1, firstPage: 0, lastPage: -1 });
      } else {
        const locs = index!.pages;
        dict = cached;
        if (!cached && range.start < locs[0]!.start) slot.dict = ranges.push({ start: range.start, end: locs[0]!.start, kind: 'dictionary' }) - 1;
        for (let j = 0; j < pages.length; ) {
          let e = j;
          while (e + 1 < pages.length && pages[e + 1] === pages[e]! + 1) e++;
          slot.runs.push({ slot: ranges.push({ start: locs[pages[j]!]!.start, end: locs[pages[e]!]!.end, kind: 'data' }) - 1, firstPage: pages[j]!, lastPage: pages[e]! });
          j = e + 1;
        }
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
   * Turns a column fetched page by page into its whole chunk (fetched now): for a page index that does not match the
   * pages it locates, the chunk is read as without one.
   * @param f - the fetched column, changed in place.
   * @throws ParquetError from the source.
   */
  async fetchWhole(f: FetchedColumn): Promise<void> {
    const [bytes] = (await this.ctx.io.fetch([{ start: f.range.start, end: f.range.end, kind: 'data' }], this.stats)) as [Uint8Array];
    f.pages = undefined;
    f.dict = undefined;
    f.dictBytes = undefined;
    f.runs = [{ bytes, at: f.range.start, firstPage: 0, lastPage: -1 }];
  }

  private where(g: number, col: number, offset: number): { rowGroup: number; path: string; offset: number } {
    return { rowGroup: g, path: this.ctx.schema.columns[col]!.pathString, offset };
  }

  /**
   * The dictionary the runs of a column fetched page by page decode with: the dictionary stage's, or its dictionary
   * page fetched ahead of the pages.
   * @param g - row group ordinal.
   * @param f - the fetched column.
   * @returns the dictionary (undefined when the chunk has none), or null when its dictionary page holds data.
   * @throws ParquetError for a dictionary page that does not decode.
   */
  async runDictionary(g: number, f: FetchedColumn): Promise<ColumnValues | undefined | null> {
    if (f.dictBytes === undefined) return f.dict?.values;
    const col = this.ctx.schema.columns[f.col]!;
    const d = await decodeColumnChunk(f.dictBytes, col, f.md, this.where(g, f.col, f.range.start), { ...this.ctx.decodeOptions, decrypt: this.ctx.decrypt(g, f.col) });
    return d.numLevels === 0 ? d.dictionary : null;
  }

  /**
   * A decoder of one fetched run of pages.
   * @param g - row group ordinal.
   * @param f - the fetched column.
   * @param run - one of its runs.
   * @param dictionary - for a run of kept pages, the chunk's dictionary ({@link Scan.runDictionary}).
   * @returns the decoder (nothing decoded yet).
   */
  openRun(g: number, f: FetchedColumn, run: PageRun, dictionary: ColumnValues | undefined): ChunkDecoder {
    const col = this.ctx.schema.columns[f.col]!;
    const whole = run.lastPage < 0;
    return new ChunkDecoder(run.bytes, col, f.md, this.where(g, f.col, run.at), {
      ...this.ctx.decodeOptions,
      decrypt: this.ctx.decrypt(g, f.col),
      dictionary: whole ? f.dict?.values : dictionary,
      firstDataPage: whole ? undefined : run.firstPage,
    });
  }

  /**
   * Counts what a read decoded of one column chunk.
   * @param col - leaf column ordinal.
   * @param d - pages skipped and decoded, levels decoded.
   */
  countChunk(col: number, d: ChunkDecoded): void {
    const scan = columnScan(this.stats, this.ctx.schema.columns[col]!.pathString);
    scan.chunks++;
    scan.pagesSkipped += d.pagesSkipped;
    this.stats.pages.skipped += d.pagesSkipped;
    scan.pagesRead += d.pages;
    this.stats.pages.read += d.pages;
    this.stats.valuesDecoded += d.levels;
  }

  /**
   * Counts the rows a read decoded in one row group.
   * @param rows - the most rows any one column decoded.
   */
  rowsDecoded(rows: number): void {
    this.stats.rowsDecoded += rows;
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
  private async decodeColumns(g: number, idx: readonly number[], mask: Uint8Array | undefined, indexes: Map<number, ChunkPageIndex> | undefined, rows?: Map<number, number>): Promise<Map<number, DecodedChunk>> {
    const cols = this.ctx.schema.columns;
    const numRows = this.group(g).num_rows;
    const fetched = await this.fetchColumns(g, idx, mask, indexes);
    const out = new Map<number, DecodedChunk>();
    await Promise.all(
      fetched.map(async (p) => {
        const col = cols[p.col]!;
        let chunk: DecodedChunk | undefined;
        let chunkMask = mask;
        let decodedRows = numRows;
        let pagesSkipped = 0;
        if (p.pages !== undefined) {
          try {
            chunk = await this.decodePages(g, p);
          } catch (e) {
            // the whole chunk is decoded instead: a real defect fails there too, with its own error
            if (!isParquetError(e)) throw e;
            chunk = undefined;
          }
          if (chunk !== undefined) {
            chunkMask = maskOfPages(p.index!.firstRows, numRows, p.pages, mask!);
            decodedRows = chunkMask.length;
            pagesSkipped = p.index!.pages.length - p.pages.length;
          } else await this.fetchWhole(p);
        }
        // whole chunk (or a page index that did not match the pages: read everything, as without one)
        chunk ??= await this.openRun(g, p, p.runs[0]!, undefined).take(Infinity);
        this.countChunk(p.col, { pagesSkipped, pages: chunk.pages, levels: chunk.numLevels });
        rows?.set(p.col, decodedRows);
        out.set(p.col, chunkMask ? keepRows(chunk, col, chunkMask) : chunk);
      }),
    );
    return out;
  }

  /** Decodes the kept pages of a column (its dictionary first); undefined when they do not decode to the rows the offset index promises. */
  private async decodePages(g: number, p: FetchedColumn): Promise<DecodedChunk | undefined> {
    const dictionary = await this.runDictionary(g, p);
    if (dictionary === null) return undefined;
    const { firstRows } = p.index!;
    const numRows = this.group(g).num_rows;
    const parts: DecodedChunk[] = [];
    for (const run of p.runs) {
      const part = await this.openRun(g, p, run, dictionary).take(Infinity);
      const want = (run.lastPage + 1 < firstRows.length ? firstRows[run.lastPage + 1]! : numRows) - firstRows[run.firstPage]!;
      if (part.pages !== run.lastPage - run.firstPage + 1 || chunkRows(part) !== want) return undefined;
      parts.push(part);
    }
    return concatChunks(parts, this.ctx.schema.columns[p.col]!);
  }

  /**
   * Finishes the read: records the rows returned.
   * @param rows - rows returned.
   */
  returned(rows: number): void {
    this.stats.rowsReturned += rows;
  }
}
