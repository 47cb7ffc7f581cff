/**
 * The page index on the read side: fetching a row group's ColumnIndex and OffsetIndex structures (only those a
 * read needs, in one coalesced fetch, decrypted with module types 6 and 7 when the column is encrypted), checking
 * them, and turning a filter into the row ranges its pages may hold.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/PageIndex.md, parquet.thrift `ColumnIndex`,
 * `OffsetIndex`, `PageLocation`, and https://github.com/apache/parquet-format/blob/master/Encryption.md (§4.4 module
 * types). Page bounds follow the column order and are bounds, not values (byte arrays may be truncated); a null page
 * has no bounds; NaN is never a bound.
 * @module
 */
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { columnStatistics, type ColumnStatistics, type ValueOptions } from '@parquetry/parquet-column/read';
import { Type, decodeThrift, type CompactReader, isParquetError, readColumnIndex, readOffsetIndex, type ColumnChunk, type ColumnIndex, type ColumnMetaData, type FileMetaData, type OffsetIndex } from '@parquetry/thrift-compact';
import { columnKey, statisticsPruner, type Filter } from './filter.js';
import { allRows, type RowRanges } from './row-ranges.js';
import { intersectRanges, unionRanges } from './row-range-ops.js';
import type { CountingSource, KindRange, ScanStats } from './scan.js';
import type { ByteRange } from './source.js';

/** The checked page index of one column chunk. */
export interface ChunkPageIndex {
  /** The pages' first rows (top-level rows of the row group), ascending from 0. */
  firstRows: number[];
  /** The pages' byte ranges in the file. */
  pages: ByteRange[];
  /** The ColumnIndex, when the chunk has one that agrees with the OffsetIndex. */
  columnIndex: ColumnIndex | undefined;
}

/** A column chunk whose page index a read wants. */
export interface IndexRequest {
  /** Leaf column ordinal. */
  column: number;
  /** The column chunk (its index offsets). */
  chunk: ColumnChunk;
  /** The chunk's byte range (page locations must fall inside it). */
  range: ByteRange;
  /** Also read the ColumnIndex (filter columns); the OffsetIndex is always read. */
  withColumnIndex: boolean;
  /** Whether the column has one value per row (no repetition): a null page then holds as many nulls as rows. */
  flat: boolean;
  /** Decrypts a module of an encrypted column (6 ColumnIndex, 7 OffsetIndex). */
  decrypt: ((module: 6 | 7, bytes: Uint8Array) => Promise<Uint8Array>) | undefined;
}

/**
 * Fetches the page indexes of some column chunks of one row group in one coalesced fetch (a row group's indexes
 * are usually adjacent) and checks them. A missing, undecodable or inconsistent OffsetIndex leaves the chunk
 * without a page index (it is then read whole); a ColumnIndex that disagrees with it is dropped.
 * @param io - the counting source.
 * @param stats - the read's statistics.
 * @param requests - the chunks.
 * @param numRows - rows in the row group.
 * @param footerOffset - where the footer starts (indexes lie before it).
 * @returns the page index of each requested column that has a usable one, by column ordinal.
 * @throws ParquetError from the source, and decryption errors (a tampered index fails authentication).
 */
export async function readPageIndexes(io: CountingSource, stats: ScanStats, requests: readonly IndexRequest[], numRows: number, footerOffset: number): Promise<Map<number, ChunkPageIndex>> {
  const ranges: KindRange[] = [];
  const slots: { req: IndexRequest; ci: number; oi: number }[] = [];
  const inFile = (off: number | undefined, len: number | undefined): boolean => off !== undefined && len !== undefined && Number.isSafeInteger(off) && Number.isSafeInteger(len) && off >= 4 && len > 0 && off + len <= footerOffset;
  for (const req of requests) {
    const cc = req.chunk;
    if (!inFile(cc.offset_index_offset, cc.offset_index_length)) continue;
    const oi = ranges.push({ start: cc.offset_index_offset!, end: cc.offset_index_offset! + cc.offset_index_length!, kind: 'index' }) - 1;
    let ci = -1;
    if (req.withColumnIndex && inFile(cc.column_index_offset, cc.column_index_length)) {
      ci = ranges.push({ start: cc.column_index_offset!, end: cc.column_index_offset! + cc.column_index_length!, kind: 'index' }) - 1;
    }
    slots.push({ req, ci, oi });
  }
  const out = new Map<number, ChunkPageIndex>();
  if (ranges.length === 0) return out;
  const bytes = await io.fetch(ranges, stats);
  for (const { req, ci, oi } of slots) {
    const offsets = await decodeIndex(readOffsetIndex, bytes[oi]!, req, 7);
    const checked = offsets && checkOffsets(offsets, req.range, numRows);
    if (!checked) continue;
    let columnIndex = ci >= 0 ? await decodeIndex(readColumnIndex, bytes[ci]!, req, 6) : undefined;
    if (columnIndex && !checkColumnIndex(columnIndex, checked.firstRows, numRows, req.flat)) columnIndex = undefined;
    out.set(req.column, { ...checked, columnIndex });
  }
  return out;
}

/** Decodes one index structure (decrypting it first when the column is encrypted); undefined when malformed. */
async function decodeIndex<T>(read: (r: CompactReader) => T, bytes: Uint8Array, req: IndexRequest, module: 6 | 7): Promise<T | undefined> {
  // decryption errors (a wrong key, a tampered index) are errors: only a malformed plaintext is ignored
  const plain = req.decrypt ? await req.decrypt(module, bytes) : bytes;
  try {
    return decodeThrift(read, plain, 0, plain.length, 0).value;
  } catch (e) {
    if (isParquetError(e)) return undefined;
    throw e;
  }
}

/** Page locations inside the chunk, ascending and disjoint, first rows from 0 strictly ascending below numRows. */
function checkOffsets(oi: OffsetIndex, range: ByteRange, numRows: number): { firstRows: number[]; pages: ByteRange[] } | undefined {
  const locs = oi.page_locations;
  if (!Array.isArray(locs) || locs.length === 0) return undefined;
  const firstRows: number[] = [];
  const pages: ByteRange[] = [];
  let prevEnd = range.start;
  let prevRow = -1;
  for (let i = 0; i < locs.length; i++) {
    const { offset, compressed_page_size: size, first_row_index: row } = locs[i]!;
    if (!(Number.isSafeInteger(offset) && Number.isSafeInteger(size) && Number.isSafeInteger(row))) return undefined;
    if (offset < prevEnd || size <= 0 || offset + size > range.end) return undefined;
    if (i === 0 ? row !== 0 : row <= prevRow) return undefined;
    if (row >= numRows) return undefined;
    firstRows.push(row);
    pages.push({ start: offset, end: offset + size });
    prevEnd = offset + size;
    prevRow = row;
  }
  return { firstRows, pages };
}

/**
 * A ColumnIndex that agrees with the OffsetIndex and with itself: one entry per page; null counts (when present)
 * non-negative, positive on a null page, and for a column with one value per row equal to the page's rows on a null
 * page (parquet-mr with statistics off writes every page as a null page with null count -1: such an index is
 * dropped, not trusted).
 */
function checkColumnIndex(ci: ColumnIndex, firstRows: readonly number[], numRows: number, flat: boolean): boolean {
  const n = firstRows.length;
  const same = (a: readonly unknown[] | undefined) => a === undefined || (Array.isArray(a) && a.length === n);
  if (!(Array.isArray(ci.null_pages) && ci.null_pages.length === n && ci.min_values?.length === n && ci.max_values?.length === n && same(ci.null_counts) && same(ci.nan_counts))) return false;
  const counts = ci.null_counts;
  if (counts === undefined) return true;
  for (let p = 0; p < n; p++) {
    const c = counts[p]!;
    if (!(Number.isSafeInteger(c) && c >= 0)) return false;
    if (ci.null_pages[p]) {
      const rows = (p + 1 < n ? firstRows[p + 1]! : numRows) - firstRows[p]!;
      if (c === 0 || (flat && c !== rows)) return false;
    }
  }
  return true;
}

const isFloating = (c: ColumnDescriptor) => c.type === Type.FLOAT || c.type === Type.DOUBLE || (c.type === Type.FIXED_LEN_BYTE_ARRAY && c.node.logicalType?.FLOAT16 !== undefined);

/**
 * Statistics of one page from the ColumnIndex, decoded like chunk statistics (same trust rules, the column order
 * of the footer, NaN never a bound). Bounds are never exact (they may be truncated). `nanCount` is 0 for columns
 * that cannot hold NaN.
 * @param meta - the file metadata (column orders).
 * @param column - the leaf column.
 * @param md - the chunk's metadata (a template for the page's).
 * @param ci - the ColumnIndex.
 * @param page - the page ordinal.
 * @param options - value mapping (bounds use the values' JavaScript types).
 * @returns the page's statistics.
 */
export function pageStatistics(meta: FileMetaData, column: ColumnDescriptor, md: ColumnMetaData, ci: ColumnIndex, page: number, options: ValueOptions): ColumnStatistics {
  const nullCount = ci.null_counts?.[page];
  const nanCount = isFloating(column) ? ci.nan_counts?.[page] : 0;
  if (ci.null_pages[page]) {
    // only nulls: no bounds; as many nulls as values
    return { min: undefined, max: undefined, minExact: false, maxExact: false, nullCount: 1, distinctCount: undefined, nanCount: 0, numValues: 1 };
  }
  const s = columnStatistics(meta, column, { ...md, statistics: { min_value: ci.min_values[page]!, max_value: ci.max_values[page]!, ...(nullCount === undefined ? {} : { null_count: nullCount }) } }, options);
  return {
    min: s?.min,
    max: s?.max,
    minExact: false,
    maxExact: false,
    nullCount,
    distinctCount: undefined,
    nanCount,
    // unknown: a non-null page holds at least one value, so "all null" is never inferred from it
    numValues: Number.MAX_SAFE_INTEGER,
  };
}

/** A filter column's page index, for {@link filterRowRanges}. */
export interface FilterColumnIndex {
  /** The leaf column. */
  column: ColumnDescriptor;
  /** Its chunk metadata. */
  md: ColumnMetaData;
  /** Its page index (with a ColumnIndex). */
  index: ChunkPageIndex & { columnIndex: ColumnIndex };
}

/**
 * The rows of a row group a filter may match according to the page index: for each comparison, the rows of the
 * pages whose bounds and null counts allow a match (all rows for a column without a ColumnIndex); AND intersects,
 * OR unites, NOT keeps every row (bounds cannot refute a negation).
 * @param filter - the filter.
 * @param columns - the filter columns that have a ColumnIndex, by key (filter.ts `leafKey`).
 * @param meta - the file metadata.
 * @param numRows - rows in the row group.
 * @param options - value mapping.
 * @param decimals - DECIMAL columns' keys (compared as decimals).
 * @returns the row ranges.
 */
export function filterRowRanges(filter: Filter, columns: ReadonlyMap<string, FilterColumnIndex>, meta: FileMetaData, numRows: number, options: ValueOptions, decimals: ReadonlySet<string>): RowRanges {
  const pageStats = new Map<string, ColumnStatistics[]>();
  const statsOf = (path: string, c: FilterColumnIndex): ColumnStatistics[] => {
    let s = pageStats.get(path);
    if (s === undefined) {
      s = c.index.firstRows.map((_, p) => pageStatistics(meta, c.column, c.md, c.index.columnIndex, p, options));
      pageStats.set(path, s);
    }
    return s;
  };
  const all = allRows(numRows);
  const walk = (f: Filter): RowRanges => {
    if ('and' in f) {
      let r = all;
      for (const g of f.and) {
        r = intersectRanges(r, walk(g));
        if (r.length === 0) break;
      }
      return r;
    }
    if ('or' in f) {
      let r: RowRanges = [];
      for (const g of f.or) r = unionRanges(r, walk(g));
      return r;
    }
    if ('not' in f) return all;
    const key = columnKey(f.column);
    const c = columns.get(key);
    if (c === undefined) return all;
    const stats = statsOf(key, c);
    const rows = c.index.firstRows;
    const out: number[] = [];
    for (let p = 0; p < rows.length; p++) {
      const s = stats[p]!;
      if (!statisticsPruner(f, () => s, decimals)) continue;
      const start = rows[p]!;
      const end = p + 1 < rows.length ? rows[p + 1]! : numRows;
      const n = out.length;
      if (n > 0 && out[n - 1] === start) out[n - 1] = end;
      else out.push(start, end);
    }
    return out;
  };
  return walk(filter);
}
