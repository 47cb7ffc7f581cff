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
import { columnStatistics, decodeColumnChunk, type ChunkDecodeOptions, type ColumnStatistics, type DecodedChunk, type ValueOptions, type ValueSegment } from '@parquetry/parquet-column';
import type { ColumnValues } from '@parquetry/parquet-encodings';
import type { ColumnDescriptor, SchemaTree } from '@parquetry/parquet-levels';
import { ParquetError, Type, isParquetError, type ColumnMetaData, type FileMetaData, type RowGroup } from '@parquetry/thrift-compact';
import { statisticsPruner, type Filter, type RowGroupPruner, type StatisticsLookup } from './filter.js';
import { filterRowRanges, readPageIndexes, type ChunkPageIndex, type FilterColumnIndex, type IndexRequest } from './page-index.js';
import { allPagesDictionaryEncoded, bloomProbeValues, dictionaryMayContain, dictionaryValues, equalityLeaves, mayMatchWith, readBloomFilters, type BloomProbe, type LeafFilter } from './prune.js';
import { allRows, countRows, intersectRanges, maskOfPages, pagesHolding, rangesMask } from './row-ranges.js';
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

/** Concatenates chunks decoded from consecutive runs of pages of one column (sharing one dictionary). */
function concatChunks(parts: DecodedChunk[], column: ColumnDescriptor): DecodedChunk {
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
interface CachedDictionary {
  values: ColumnValues;
  /** Where the data pages start. */
  dataStart: number;
}

/** How one column of a row group is fetched. */
interface ColumnFetch {
  col: number;
  md: ColumnMetaData;
  range: ByteRange;
  /** Page ordinals to read (undefined: the whole chunk). */
  pages: number[] | undefined;
  index: ChunkPageIndex | undefined;
  dict: CachedDictionary | undefined;
  /** Indices into the fetched ranges: the dictionary page (or -1), then one per run / the whole chunk. */
  dictSlot: number;
  slots: { slot: number; firstPage: number; lastPage: number }[];
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

  private meta(g: number, col: number): Promise<ColumnMetaData> {
    const key = g * this.ncols + col;
    let m = this.metas.get(key);
    if (m === undefined) {
      m = this.ctx.chunkMeta(g, col);
      this.metas.set(key, m);
    }
    return m;
  }

  private skip(reason: keyof RowGroupSkips): undefined {
    this.stats.rowGroups.skipped[reason]++;
    return undefined;
  }

  /**
   * Counts a row group skipped because of the row range.
   */
  skipRowRange(): void {
    this.stats.rowGroups.total++;
    this.skip('rowRange');
  }

  /**
   * Decodes whole column chunks of one row group (reads with neither filter nor row range).
   * @param g - row group ordinal.
   * @param sel - the columns to decode.
   * @returns the decoded chunks (undefined for columns not selected).
   */
  async wholeChunks(g: number, sel: readonly boolean[]): Promise<(DecodedChunk | undefined)[]> {
    const cols = this.ctx.schema.columns;
    const idx = cols.map((_, i) => i).filter((i) => sel[i]);
    const group = this.group(g);
    this.stats.rowGroups.total++;
    this.stats.rowGroups.read++;
    // an empty row group (pyarrow writes one into a zero-row file, its chunks at offset 0 with no bytes): no pages
    if (group.num_rows === 0) return cols.map((c, i) => (sel[i] ? emptyChunk(c) : undefined));
    const decoded = await this.decodeColumns(g, idx, undefined, undefined);
    this.stats.rowsDecoded += group.num_rows;
    return cols.map((_, i) => decoded.get(i));
  }

  private group(g: number): RowGroup {
    return this.ctx.metadata.row_groups[g]!;
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
    const { outSel, filter, filterIdx, decimals, options, prune } = this.plan;
    const cols = this.ctx.schema.columns;
    const group = this.group(g);
    const numRows = group.num_rows;
    this.stats.rowGroups.total++;
    const none = (): (DecodedChunk | undefined)[] | undefined => (skipIfNone ? undefined : cols.map((c, i) => (outSel[i] ? emptyChunk(c) : undefined)));
    if (numRows === 0) {
      this.stats.rowGroups.read++;
      return none();
    }
    last = Math.min(last, numRows);
    if (first >= last) {
      this.skip('rowRange');
      return none();
    }
    if (filter) {
      const skipped = await this.pruneRowGroup(g, filter);
      if (skipped) {
        this.skip(skipped);
        return none();
      }
    }
    // the page index: rows the filter may match, within the row range
    let ranges = first === 0 && last === numRows ? allRows(numRows) : [first, last];
    let indexes: Map<number, ChunkPageIndex> | undefined;
    const probe = filter ? filterIdx : cols.map((_, i) => i).filter((i) => outSel[i]);
    if (prune.pageIndex && (filter !== undefined || ranges[0] !== 0 || ranges[1] !== numRows)) {
      const requests: IndexRequest[] = [];
      for (let i = 0; i < cols.length; i++) {
        if (!outSel[i] && !probe.includes(i)) continue;
        const cc = group.columns[i]!;
        if (cc.offset_index_offset === undefined) continue;
        const md = await this.meta(g, i);
        const dec = this.ctx.decrypt(g, i);
        requests.push({ column: i, chunk: cc, range: this.ctx.chunkRange(g, i, md), withColumnIndex: filter !== undefined && filterIdx.includes(i), flat: cols[i]!.maxRep === 0, decrypt: dec && ((m, b) => dec(m, 0, b)) });
      }
      if (requests.length > 0) {
        indexes = await readPageIndexes(this.ctx.io, this.stats, requests, numRows, this.ctx.footerOffset);
        if (filter) {
          const withCi = new Map<string, FilterColumnIndex>();
          for (const i of filterIdx) {
            const index = indexes.get(i);
            if (index?.columnIndex) withCi.set(cols[i]!.pathString, { column: cols[i]!, md: await this.meta(g, i), index: index as FilterColumnIndex['index'] });
          }
          if (withCi.size > 0) ranges = intersectRanges(ranges, filterRowRanges(filter, withCi, this.ctx.metadata, numRows, options, decimals));
          if (ranges.length === 0) {
            this.skip('pageIndex');
            return none();
          }
        }
      }
    }
    this.stats.rowGroups.read++;
    const b0 = ranges.length === 2 && ranges[0] === 0 && ranges[1] === numRows ? undefined : rangesMask(ranges, numRows);
    const n0 = countRows(ranges);
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
        const s = columnStatistics(this.ctx.metadata, col, await this.meta(g, i), options);
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
        const md = await this.meta(g, col.index);
        const dictAt = md.dictionary_page_offset;
        if (dictAt === undefined || !(dictAt >= 4 && dictAt < md.data_page_offset) || !allPagesDictionaryEncoded(md)) continue;
        if (this.ctx.chunkRange(g, col.index, md).start !== dictAt) continue;
        // a bloom filter smaller than the dictionary page answers for less: the bloom stage decides this one
        const bloomBytes = md.bloom_filter_offset === undefined ? undefined : md.bloom_filter_length;
        if (prune.bloom && bloomBytes !== undefined && bloomBytes < md.data_page_offset - dictAt && bloomProbeValues(l, col, options, decimals) !== undefined) continue;
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
      const probes = new Map<LeafFilter, ReturnType<typeof bloomProbeValues>>();
      const bloomCols = new Map<number, ColumnMetaData>();
      for (const l of leaves) {
        const col = colOf.get(l.column)!;
        if (checked.has(col.index)) continue;
        const md = await this.meta(g, col.index);
        if (md.bloom_filter_offset === undefined) continue;
        const values = bloomProbeValues(l, col, options, decimals);
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
        const filters = await readBloomFilters(
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
    const group = this.group(g);
    const numRows = group.num_rows;
    if (group.columns.length !== cols.length) {
      throw new ParquetError('CORRUPT_METADATA', `parquet-reader: row group ${g} has ${group.columns.length} column chunks, the schema has ${cols.length} leaf columns`);
    }
    const metas = await Promise.all(idx.map((i) => this.meta(g, i)));
    const ranges: KindRange[] = [];
    const plans: ColumnFetch[] = [];
    for (let k = 0; k < idx.length; k++) {
      const col = idx[k]!;
      const md = metas[k]!;
      const range = this.ctx.chunkRange(g, col, md);
      const index = mask ? indexes?.get(col) : undefined;
      const dict = this.dicts.get(g * this.ncols + col);
      let pages = index ? pagesHolding(index.firstRows, numRows, mask!) : undefined;
      if (pages && pages.length === index!.pages.length) pages = undefined;
      const plan: ColumnFetch = { col, md, range, pages, index, dict, dictSlot: -1, slots: [] };
      if (pages === undefined) {
        const start = dict && dict.dataStart > range.start && dict.dataStart <= range.end ? dict.dataStart : range.start;
        if (start !== range.start) plan.dict = dict;
        else plan.dict = undefined;
        plan.slots.push({ slot: ranges.push({ start, end: range.end, kind: 'data' }) - 1, firstPage: 0, lastPage: -1 });
      } else {
        const locs = index!.pages;
        if (!dict && range.start < locs[0]!.start) plan.dictSlot = ranges.push({ start: range.start, end: locs[0]!.start, kind: 'dictionary' }) - 1;
        for (let j = 0; j < pages.length; ) {
          let e = j;
          while (e + 1 < pages.length && pages[e + 1] === pages[e]! + 1) e++;
          plan.slots.push({ slot: ranges.push({ start: locs[pages[j]!]!.start, end: locs[pages[e]!]!.end, kind: 'data' }) - 1, firstPage: pages[j]!, lastPage: pages[e]! });
          j = e + 1;
        }
      }
      plans.push(plan);
    }
    // whole chunks merge across gaps up to 64 KiB; page reads only across small holes (8 KiB, Arrow's hole limit),
    // so that skipped pages are not fetched anyway
    const paged = plans.some((p) => p.pages !== undefined);
    const bytes = await this.ctx.io.fetch(ranges, this.stats, paged ? PAGE_GAP : CHUNK_GAP);
    const out = new Map<number, DecodedChunk>();
    await Promise.all(
      plans.map(async (p) => {
        const col = cols[p.col]!;
        const opts: ChunkDecodeOptions = { ...this.ctx.decodeOptions, decrypt: this.ctx.decrypt(g, p.col) };
        const where = (offset: number) => ({ rowGroup: g, path: col.pathString, offset });
        const scan = columnScan(this.stats, col.pathString);
        scan.chunks++;
        let chunk: DecodedChunk | undefined;
        let chunkMask = mask;
        let decodedRows = numRows;
        if (p.pages !== undefined) {
          try {
            chunk = await this.decodePages(p, bytes, col, opts, where);
          } catch (e) {
            // the whole chunk is decoded instead: a real defect fails there too, with its own error
            if (!isParquetError(e)) throw e;
            chunk = undefined;
          }
          if (chunk !== undefined) {
            chunkMask = maskOfPages(p.index!.firstRows, numRows, p.pages, mask!);
            decodedRows = chunkMask.length;
            const skipped = p.index!.pages.length - p.pages.length;
            scan.pagesSkipped += skipped;
            this.stats.pages.skipped += skipped;
          }
        }
        if (chunk === undefined) {
          // whole chunk (or a page index that did not match the pages: read everything, as without one)
          let b: Uint8Array;
          let dictionary = p.dict?.values;
          let at = p.pages === undefined ? ranges[p.slots[0]!.slot]!.start : p.range.start;
          if (p.pages === undefined) b = bytes[p.slots[0]!.slot]!;
          else {
            [b] = (await this.ctx.io.fetch([{ start: p.range.start, end: p.range.end, kind: 'data' }], this.stats)) as [Uint8Array];
            dictionary = undefined;
            at = p.range.start;
          }
          chunk = await decodeColumnChunk(b, col, p.md, where(at), { ...opts, dictionary });
        }
        scan.pagesRead += chunk.pages;
        this.stats.pages.read += chunk.pages;
        this.stats.valuesDecoded += chunk.numLevels;
        rows?.set(p.col, decodedRows);
        out.set(p.col, chunkMask ? keepRows(chunk, col, chunkMask) : chunk);
      }),
    );
    return out;
  }

  /** Decodes the kept pages of a column (its dictionary first); undefined when they do not decode to the rows the offset index promises. */
  private async decodePages(p: ColumnFetch, bytes: Uint8Array[], col: ColumnDescriptor, opts: ChunkDecodeOptions, where: (offset: number) => { rowGroup: number; path: string; offset: number }): Promise<DecodedChunk | undefined> {
    let dictionary = p.dict?.values;
    if (p.dictSlot >= 0) {
      const d = await decodeColumnChunk(bytes[p.dictSlot]!, col, p.md, where(p.range.start), opts);
      if (d.numLevels !== 0) return undefined;
      dictionary = d.dictionary;
    }
    const { firstRows, pages } = p.index!;
    const numRows = this.group(where(0).rowGroup).num_rows;
    const parts: DecodedChunk[] = [];
    for (const s of p.slots) {
      const part = await decodeColumnChunk(bytes[s.slot]!, col, p.md, where(pages[s.firstPage]!.start), { ...opts, dictionary, firstDataPage: s.firstPage });
      const want = (s.lastPage + 1 < firstRows.length ? firstRows[s.lastPage + 1]! : numRows) - firstRows[s.firstPage]!;
      if (part.pages !== s.lastPage - s.firstPage + 1 || chunkRows(part) !== want) return undefined;
      parts.push(part);
    }
    return concatChunks(parts, col);
  }

  /**
   * Finishes the read: records the rows returned.
   * @param rows - rows returned.
   */
  returned(rows: number): void {
    this.stats.rowsReturned += rows;
  }
}
