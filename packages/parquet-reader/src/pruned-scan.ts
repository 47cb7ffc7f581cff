/**
 * Stages 1 to 4 of the pruning pipeline (see pipeline.ts): row-group statistics, dictionaries, bloom filters and the
 * page index, then the exact evaluation of the filter and the row masks that trim every column to the kept rows.
 * Loaded with `import()` (see optional.ts) only by a filtered or row-ranged read (batches included).
 * @module
 */
// bundle layout only (no value used): see optional.ts, `Chunk grouping`
import './file.js';
import type { BloomValue } from '@parquetry/parquet-bloom';
import { ChunkDecoder, columnStatistics, type ColumnStatistics, type DecodedChunk } from '@parquetry/parquet-column/read';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { Type, isParquetError, type ColumnMetaData } from '@parquetry/thrift-compact';
import { BatchScan } from './batch-scan.js';
import type { BloomProbe } from './bloom-stage.js';
import { columnKey, leafKey, statisticsPruner, type Filter, type RowGroupPruner, type StatisticsLookup } from './filter.js';
import { filterRowRanges, readPageIndexes, type ChunkPageIndex, type FilterColumnIndex, type IndexRequest } from './page-index.js';
import { chunkRows, concatChunks } from './concat.js';
import { emptyChunk, type PruneOptions, type CachedDictionary, type FetchSlots, type FetchedColumn, type KeptChunk, type KeptRows } from './pipeline.js';
import { allPagesDictionaryEncoded, dictionaryMayContain, dictionaryValues, equalityLeaves, mayMatchWith, type LeafFilter } from './prune.js';
import { allRows } from './row-ranges.js';
import { countRows, intersectRanges, maskOfPages, pagesHolding, rangesMask } from './row-range-ops.js';
import type { KindRange, RowGroupSkips } from './scan.js';
import type { ByteRange } from './source.js';
import { keepRows, selectRows } from './select.js';

/** Row-group pruners tried in order by the statistics stage (the other stages need I/O and run after it). */
export const PRUNERS: readonly RowGroupPruner[] = [statisticsPruner];

const isFloating = (c: ColumnDescriptor) => c.type === Type.FLOAT || c.type === Type.DOUBLE || (c.type === Type.FIXED_LEN_BYTE_ARRAY && c.node.logicalType?.FLOAT16 !== undefined);

/** A read with the pruning stages: a filter or a row range (batches included; plain batches are a {@link BatchScan}). */
export class PrunedScan extends BatchScan {
  /** The read's pruning stages (its `prune` option resolved). */
  private readonly stages = pruneOptions(this.plan.prune);

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
    const { outSel, filter, filterIdx, options, decimals } = this.plan;
    const prune = this.stages;
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
            if (index?.columnIndex) withCi.set(leafKey(cols[i]!.path), { column: cols[i]!, md: await this.chunkMeta(g, i), index: index as FilterColumnIndex['index'] });
          }
          if (withCi.size > 0) ranges = intersectRanges(ranges, filterRowRanges(filter, withCi, this.ctx.metadata, numRows, options, decimals));
          if (ranges.length === 0) return this.skip('pageIndex');
        }
      }
    }
    this.stats.rowGroups.read++;
    const mask = ranges.length === 2 && ranges[0] === 0 && ranges[1] === numRows ? undefined : rangesMask(ranges, numRows);
    const count = countRows(ranges);
    this.chargeRows(g, count);
    return { numRows, ranges, mask, count, indexes };
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
      const sel = selectRows(filter, new Map(filterIdx.map((i) => [leafKey(cols[i]!.path), { column: cols[i]!, chunk: pchunks.get(i)! }])), options, decimals, 0, n0);
      if (sel.count === 0) {
        this.stats.rowsDecoded += rowsDecoded;
        return none();
      }
      keep = sel.keep;
      if (sel.count < n0 && n0 === numRows) b1 = keep;
      else if (sel.count < n0) {
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

  /**
   * Stages 1–3 on one row group.
   * @param g - row group ordinal.
   * @param filter - the read's filter.
   * @returns the reason the row group is skipped, or undefined when it must be read.
   */
  private async pruneRowGroup(g: number, filter: Filter): Promise<keyof RowGroupSkips | undefined> {
    const { decimals, options } = this.plan;
    const prune = this.stages;
    const cols = this.ctx.schema.columns;
    // the filter's columns by key: a path's names joined with dots, or its JSON when a name has a dot (filter.ts)
    const colOf = new Map(this.plan.filterIdx.map((i) => [leafKey(cols[i]!.path), cols[i]!]));
    let known: (l: LeafFilter) => boolean = () => true;
    if (prune.statistics) {
      // from the chunk metadata, decrypted when the column's is encrypted
      const byPath = new Map<string, ColumnStatistics | undefined>();
      for (const i of this.plan.filterIdx) {
        const col = cols[i]!;
        const s = columnStatistics(this.ctx.metadata, col, await this.chunkMeta(g, i), options);
        // a column that cannot hold NaN has none (`!=` may then use its bounds)
        if (s && !isFloating(col) && s.nanCount === undefined) s.nanCount = 0;
        byPath.set(leafKey(col.path), s);
      }
      const lookup: StatisticsLookup = (c) => byPath.get(columnKey(c));
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
        const col = colOf.get(columnKey(l.column))!;
        const md = await this.chunkMeta(g, col.index);
        const dictAt = md.dictionary_page_offset;
        if (dictAt === undefined || !(dictAt >= 4 && dictAt < md.data_page_offset) || !allPagesDictionaryEncoded(md)) continue;
        if (this.ctx.chunkRange(g, col.index, md).start !== dictAt) continue;
        // a bloom filter smaller than the dictionary page answers for less: the bloom stage decides this one
        const bloomBytes = md.bloom_filter_offset === undefined ? undefined : md.bloom_filter_length;
        if (prune.bloom && bloomBytes !== undefined && bloomBytes < md.data_page_offset - dictAt && (await this.ctx.loadBloomStage()).bloomProbeValues(l, col, options, decimals) !== undefined) continue;
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
          // decodeColumnChunk's body, not the function (see batch-scan.ts)
          const chunk = await new ChunkDecoder(bytes[k]!, cols[i]!, md, { rowGroup: g, path: cols[i]!.pathString, offset: ranges[k]!.start }, { ...this.ctx.decodeOptions, decrypt: dec, budget: this.plan.budget }).take(Infinity);
          if (chunk.numLevels === 0 && chunk.dictionary !== undefined) this.dicts.set(g * this.ncols + i, { values: chunk.dictionary, dataStart: md.data_page_offset });
        }
        const converted = new Map<string, ArrayLike<unknown>>();
        for (const i of dictCols.keys()) {
          const d = this.dicts.get(g * this.ncols + i);
          if (d === undefined) continue;
          converted.set(leafKey(cols[i]!.path), dictionaryValues(d.values, cols[i]!, options));
          checked.add(i);
        }
        known = (l) => before(l) && (l.op !== '=' && l.op !== 'in' ? true : !converted.has(columnKey(l.column)) || dictionaryMayContain(l, converted.get(columnKey(l.column))!, decimals));
        if (!mayMatchWith(filter, known)) return 'dictionary';
      }
    }
    if (prune.bloom) {
      const probes = new Map<LeafFilter, BloomValue[]>();
      const bloomCols = new Map<number, ColumnMetaData>();
      for (const l of leaves) {
        const col = colOf.get(columnKey(l.column))!;
        if (checked.has(col.index)) continue;
        const md = await this.chunkMeta(g, col.index);
        if (md.bloom_filter_offset === undefined) continue;
        const values = (await this.ctx.loadBloomStage()).bloomProbeValues(l, col, options, decimals);
        if (values === undefined) continue;
        probes.set(l, values);
        bloomCols.set(col.index, md);
      }
      const before = known;
      if (probes.size > 0 && !mayMatchWith(filter, (l) => !probes.has(l) && before(l))) {
        const ids = [...bloomCols.keys()];
        const valuesOf = new Map<number, BloomValue[]>();
        for (const [l, values] of probes) {
          const i = colOf.get(columnKey(l.column))!.index;
          valuesOf.set(i, [...(valuesOf.get(i) ?? []), ...values!]);
        }
        const filters = await (await this.ctx.loadBloomStage()).readBloomFilters(
          this.ctx.io,
          this.stats,
          ids.map((i) => {
            const dec = this.ctx.decrypt(g, i);
            return { md: bloomCols.get(i)!, column: cols[i]!, values: valuesOf.get(i)!, decrypt: dec && ((m: 8 | 9, b: Uint8Array) => dec(m, 0, b)) };
          }),
          this.ctx.footerOffset,
        );
        const byPath = new Map<string, BloomProbe>();
        ids.forEach((i, k) => filters[k] && byPath.set(leafKey(cols[i]!.path), filters[k]));
        known = (l) => {
          if (!before(l)) return false;
          const values = probes.get(l);
          const bf = byPath.get(columnKey(l.column));
          return values === undefined || bf === undefined || bf.mayContain(values);
        };
        if (!mayMatchWith(filter, known)) return 'bloom';
      }
    }
    return undefined;
  }

  /**
   * The pages of a column holding masked rows, by its page index, unless they are all of them: their runs of
   * consecutive pages (and the dictionary page ahead of them, unless decoded already) are added to the fetch.
   * @param numRows - rows in the row group.
   * @param range - the chunk's byte range.
   * @param mask - one byte per row of the row group.
   * @param index - the chunk's page index.
   * @param cached - its dictionary, when the dictionary stage decoded it.
   * @param ranges - the fetch's ranges.
   * @param slot - where the column's ranges are in it.
   * @returns the kept pages' ordinals; undefined: every page (the whole chunk is fetched).
   */
  protected override keptPages(numRows: number, range: ByteRange, mask: Uint8Array, index: ChunkPageIndex, cached: CachedDictionary | undefined, ranges: KindRange[], slot: FetchSlots): number[] | undefined {
    const pages = pagesHolding(index.firstRows, numRows, mask);
    if (pages.length === index.pages.length) return undefined;
    const locs = index.pages;
    if (!cached && range.start < locs[0]!.start) slot.dict = ranges.push({ start: range.start, end: locs[0]!.start, kind: 'dictionary' }) - 1;
    for (let j = 0; j < pages.length; ) {
      let e = j;
      while (e + 1 < pages.length && pages[e + 1] === pages[e]! + 1) e++;
      slot.runs.push({ slot: ranges.push({ start: locs[pages[j]!]!.start, end: locs[pages[e]!]!.end, kind: 'data' }) - 1, firstPage: pages[j]!, lastPage: pages[e]! });
      j = e + 1;
    }
    return pages;
  }

  /**
   * Decodes the kept pages of a column fetched page by page; when they do not decode to the rows the offset index
   * promises (or fail to decode), the whole chunk is fetched instead (a real defect fails there too, with its own
   * error).
   * @param g - row group ordinal.
   * @param p - the fetched column, made whole when its pages do not match.
   * @param mask - one byte per row of the row group.
   * @returns the kept pages' chunk, the mask of its rows and the pages skipped; undefined for a chunk made whole.
   */
  protected override async decodeKept(g: number, p: FetchedColumn, mask: Uint8Array): Promise<KeptChunk | undefined> {
    let chunk: DecodedChunk | undefined;
    try {
      chunk = await this.decodePages(g, p);
    } catch (e) {
      if (!isParquetError(e)) throw e;
    }
    if (chunk === undefined) {
      await this.fetchWhole(p);
      return undefined;
    }
    const { firstRows, pages } = p.index!;
    return { chunk, mask: maskOfPages(firstRows, this.group(g).num_rows, p.pages!, mask), skipped: pages.length - p.pages!.length };
  }

  /**
   * Decodes the kept pages of a column (its dictionary first).
   * @param g - row group ordinal.
   * @param p - the fetched column.
   * @returns the chunk; undefined when they do not decode to the rows the offset index promises.
   */
  private async decodePages(g: number, p: FetchedColumn): Promise<DecodedChunk | undefined> {
    const dictionary = await this.runDictionary(g, p);
    if (dictionary === null) return undefined;
    const { firstRows } = p.index!;
    const numRows = this.group(g).num_rows;
    const parts: DecodedChunk[] = [];
    for (const run of p.runs) {
      const part = await this.openRun(g, p, run, dictionary, true).take(Infinity);
      const want = (run.lastPage + 1 < firstRows.length ? firstRows[run.lastPage + 1]! : numRows) - firstRows[run.firstPage]!;
      if (part.pages !== run.lastPage - run.firstPage + 1 || chunkRows(part) !== want) return undefined;
      parts.push(part);
    }
    return concatChunks(parts, this.ctx.schema.columns[p.col]!);
  }

  /**
   * Keeps the masked rows of a chunk.
   * @param chunk - the chunk.
   * @param col - its column.
   * @param mask - one byte per row of the chunk.
   * @returns the chunk holding only the masked rows.
   */
  protected override keepRows(chunk: DecodedChunk, col: ColumnDescriptor, mask: Uint8Array): DecodedChunk {
    return keepRows(chunk, col, mask);
  }
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
