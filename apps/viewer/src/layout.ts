/**
 * The layout computation: a file's metadata (footer, page lists, index and bloom filter regions) → byte segments
 * that tile the file from byte 0 to its end, each named by what it holds. A pure function: the viewer draws its
 * result and the tests check it against offsets read independently.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md ("File Format": `4-byte magic "PAR1"`,
 * `<Column 1 Chunk 1> … <Column N Chunk M>`, `File Metadata`, `4-byte length in bytes of file metadata (little
 * endian)`, `4-byte magic "PAR1"`), PageIndex.md (ColumnIndex / OffsetIndex after the row groups;
 * `PageLocation.compressed_page_size` includes the page header) and BloomFilter.md (a `BloomFilterHeader` followed by
 * its bitset).
 * @module
 */
import type { FileMetaData, ColumnMetaData, Statistics } from '@parquetry/thrift-compact';

/** What a segment of the file holds. */
export const SegmentKind = {
  /** The leading `PAR1` magic. */
  MAGIC: 'magic',
  /** A dictionary page (header and body). */
  DICTIONARY_PAGE: 'dictionary-page',
  /** A data page (header and body). */
  DATA_PAGE: 'data-page',
  /** A data page V2 (header and body). */
  DATA_PAGE_V2: 'data-page-v2',
  /** An index page or a page of an unknown type (header and body). */
  OTHER_PAGE: 'other-page',
  /** Bytes of a column chunk not covered by any page listed for it (or a chunk whose pages are unknown). */
  CHUNK_REST: 'chunk-rest',
  /** A copy of a chunk's ColumnChunk or ColumnMetaData written after its pages (usually where `file_offset` points). */
  CHUNK_METADATA: 'chunk-metadata',
  /** A ColumnIndex struct. */
  COLUMN_INDEX: 'column-index',
  /** An OffsetIndex struct. */
  OFFSET_INDEX: 'offset-index',
  /** A bloom filter (header and bitset). */
  BLOOM_FILTER: 'bloom-filter',
  /** The FileMetaData (the footer). */
  FOOTER: 'footer',
  /** The 4-byte footer length and the trailing magic. */
  TAIL: 'tail',
  /** Bytes nothing in the metadata points at. */
  GAP: 'gap',
} as const;

/** One of {@link SegmentKind}. */
export type SegmentKind = (typeof SegmentKind)[keyof typeof SegmentKind];

/** The thrift `PageType` numbers (parquet.thrift). */
const DATA_PAGE = 0;
const DICTIONARY_PAGE = 2;
const DATA_PAGE_V2 = 3;

/** One page of a column chunk, as listed by the offset index or by walking the page headers. */
export interface PageEntry {
  /** File offset of the page header. */
  offset: number;
  /** Bytes of the page: header plus compressed body. */
  size: number;
  /** The thrift `PageType`. */
  type: number;
  /** Bytes of the page header, when the header was read. */
  headerSize?: number | undefined;
  /** Uncompressed body bytes, when the header was read. */
  uncompressedSize?: number | undefined;
  /** The page's value encoding, when the header was read. */
  encoding?: number | undefined;
  /** Values in the page (nulls included), when known. */
  numValues?: number | undefined;
  /** Nulls in the page (data page V2 headers, or the column index). */
  numNulls?: number | undefined;
  /** Rows in the page (data page V2 headers). */
  numRows?: number | undefined;
  /** Index of the page's first row within the row group (offset index). */
  firstRowIndex?: number | undefined;
  /** Statistics from the page header. */
  statistics?: Statistics | undefined;
  /** Whether the page header carries a CRC32. */
  crc?: boolean | undefined;
}

/** The pages of one column chunk and where the list came from. */
export interface ChunkPages {
  /** The pages in file order (the dictionary page first when there is one). */
  pages: PageEntry[];
  /** `'offset-index'`: data pages from the OffsetIndex (the dictionary page from its header); `'page-headers'`: walked. */
  from: 'offset-index' | 'page-headers';
}

/** What {@link computeLayout} needs. */
export interface LayoutInput {
  /** Size of the file in bytes. */
  fileSize: number;
  /** The footer length from the file's last 8 bytes. */
  footerLength: number;
  /** The decoded footer. */
  metadata: FileMetaData;
  /**
   * The column chunks' metadata by row group and column (`ColumnChunk.meta_data`, or decrypted); undefined entries
   * fall back to `meta_data`.
   */
  chunkMeta?: readonly (readonly (ColumnMetaData | undefined)[])[] | undefined;
  /** Page lists by row group and column (undefined: the pages are unknown and the chunk is one segment). */
  pages?: readonly (readonly (ChunkPages | undefined)[])[] | undefined;
  /** Bloom filter lengths by row group and column, for filters whose `bloom_filter_length` is absent (read from the header). */
  bloomLengths?: readonly (readonly (number | undefined)[])[] | undefined;
  /**
   * Where each chunk's metadata copy lies (a ColumnChunk or ColumnMetaData that parquet-java, Impala, Arrow C++ and
   * arrow-rs write after each chunk's pages), by row group and column: undefined where there is none.
   */
  chunkMetaCopies?: readonly (readonly ({ offset: number; length: number } | undefined)[])[] | undefined;
}

/** A byte range of the file and what it holds. */
export interface Segment {
  /** What the bytes hold. */
  kind: SegmentKind;
  /** First byte. */
  start: number;
  /** Byte after the last. */
  end: number;
  /** Row group ordinal (chunk, page, index and bloom segments). */
  rowGroup?: number;
  /** Leaf column index (chunk, page, index and bloom segments). */
  column?: number;
  /** Position of the page in its chunk's page list (page segments). */
  page?: number;
}

/** One column chunk of the layout. */
export interface ChunkLayout {
  /** Row group ordinal. */
  rowGroup: number;
  /** Leaf column index. */
  column: number;
  /** Dotted column path. */
  path: string;
  /** First byte of the chunk (its dictionary page, else its first data page). */
  start: number;
  /** Byte after the chunk (`start + total_compressed_size`). */
  end: number;
  /** The chunk's metadata. */
  meta: ColumnMetaData;
  /** Its pages, when listed. */
  pages: ChunkPages | undefined;
  /** Indexes into {@link Layout.segments} of the chunk's page segments, in page order. */
  pageSegments: number[];
}

/** One row group of the layout. */
export interface RowGroupLayout {
  /** Row group ordinal. */
  index: number;
  /** First byte of its first chunk. */
  start: number;
  /** Byte after its last chunk. */
  end: number;
  /** Rows in the row group. */
  numRows: number;
  /** Its column chunks, in column order. */
  chunks: ChunkLayout[];
}

/** The file's layout. */
export interface Layout {
  /** Size of the file. */
  fileSize: number;
  /** Segments in file order, tiling `[0, fileSize)`: each starts where the previous ended. */
  segments: Segment[];
  /** The row groups. */
  rowGroups: RowGroupLayout[];
  /** Inconsistencies found (overlapping regions, pages past their chunk, regions outside the file), as sentences. */
  problems: string[];
}

/**
 * The byte range of a column chunk, as the reader takes it: the dictionary page offset when it is a real offset
 * before the first data page (some writers store 0 for "none"), else the data page offset; `total_compressed_size`
 * bytes long.
 * @param meta - the chunk's metadata.
 * @returns `[start, end)`.
 */
export function chunkRange(meta: ColumnMetaData): { start: number; end: number } {
  let start = meta.data_page_offset;
  const dict = meta.dictionary_page_offset;
  if (dict !== undefined && dict >= 4 && (dict < start || start < 4)) start = dict;
  return { start, end: start + meta.total_compressed_size };
}

/**
 * The segment kind of a page.
 * @param type - the thrift `PageType`.
 * @returns the kind.
 */
export function pageKind(type: number): SegmentKind {
  if (type === DATA_PAGE) return SegmentKind.DATA_PAGE;
  if (type === DATA_PAGE_V2) return SegmentKind.DATA_PAGE_V2;
  if (type === DICTIONARY_PAGE) return SegmentKind.DICTIONARY_PAGE;
  return SegmentKind.OTHER_PAGE;
}

interface Region extends Segment {
  /** Which region to keep when two claim the same bytes: lower wins. */
  rank: number;
  /** Position in the claim list, for a stable order. */
  seq: number;
  what: string;
}

/**
 * Computes the layout: every byte of the file assigned to one segment. Regions come from the metadata — the magic,
 * each chunk's pages (or the whole chunk when its pages are unknown) and any chunk bytes the pages leave over, the
 * column and offset indexes, the bloom filters, the footer and the tail — and bytes no region claims become
 * {@link SegmentKind.GAP} segments. Where two regions claim the same bytes the first in file order keeps them and
 * the overlap is reported in {@link Layout.problems}; a region reaching outside the file is cut at its edge and
 * reported. The segments therefore always tile `[0, fileSize)`.
 * @param input - the file size, footer length, footer and page lists.
 * @returns the layout.
 */
export function computeLayout(input: LayoutInput): Layout {
  const { fileSize, footerLength, metadata } = input;
  const problems: string[] = [];
  const regions: Region[] = [];
  let seq = 0;
  const claim = (r: Omit<Region, 'seq'>): void => {
    regions.push({ ...r, seq: seq++ });
  };
  const footerStart = fileSize - 8 - footerLength;
  if (fileSize >= 4) claim({ kind: SegmentKind.MAGIC, start: 0, end: 4, rank: 0, what: 'the leading magic' });
  if (fileSize >= 8) claim({ kind: SegmentKind.TAIL, start: fileSize - 8, end: fileSize, rank: 0, what: 'the footer length and magic' });
  if (footerLength > 0 && footerStart >= 0) claim({ kind: SegmentKind.FOOTER, start: footerStart, end: fileSize - 8, rank: 0, what: 'the footer' });

  const rowGroups: RowGroupLayout[] = [];
  metadata.row_groups.forEach((rg, g) => {
    const chunks: ChunkLayout[] = [];
    rg.columns.forEach((cc, c) => {
      const meta = input.chunkMeta?.[g]?.[c] ?? cc.meta_data;
      if (!meta) {
        problems.push(`row group ${g}, column ${c}: no ColumnMetaData, its bytes are not placed`);
        return;
      }
      const path = meta.path_in_schema.join('.');
      const where = `row group ${g}, column '${path}'`;
      const { start, end } = chunkRange(meta);
      const pages = input.pages?.[g]?.[c];
      chunks.push({ rowGroup: g, column: c, path, start, end, meta, pages, pageSegments: [] });
      let covered = start;
      if (pages) {
        pages.pages.forEach((p, i) => {
          if (p.offset < covered) problems.push(`${where}: page ${i} at byte ${p.offset} starts before byte ${covered}, where the previous page (or the chunk) ended`);
          if (p.offset > covered) claim({ kind: SegmentKind.CHUNK_REST, start: covered, end: p.offset, rowGroup: g, column: c, rank: 2, what: `${where}: bytes before page ${i}` });
          if (p.offset + p.size > end) problems.push(`${where}: page ${i} ends at byte ${p.offset + p.size}, past the chunk's end ${end}`);
          claim({ kind: pageKind(p.type), start: p.offset, end: p.offset + p.size, rowGroup: g, column: c, page: i, rank: 1, what: `${where}, page ${i}` });
          covered = Math.max(covered, p.offset + p.size);
        });
      }
      if (covered < end) claim({ kind: SegmentKind.CHUNK_REST, start: covered, end, rowGroup: g, column: c, rank: 2, what: `${where}: bytes after its pages` });
      if (cc.column_index_offset !== undefined && cc.column_index_length !== undefined) {
        claim({ kind: SegmentKind.COLUMN_INDEX, start: cc.column_index_offset, end: cc.column_index_offset + cc.column_index_length, rowGroup: g, column: c, rank: 1, what: `${where}: column index` });
      }
      if (cc.offset_index_offset !== undefined && cc.offset_index_length !== undefined) {
        claim({ kind: SegmentKind.OFFSET_INDEX, start: cc.offset_index_offset, end: cc.offset_index_offset + cc.offset_index_length, rowGroup: g, column: c, rank: 1, what: `${where}: offset index` });
      }
      const copy = input.chunkMetaCopies?.[g]?.[c];
      if (copy !== undefined) {
        claim({ kind: SegmentKind.CHUNK_METADATA, start: copy.offset, end: copy.offset + copy.length, rowGroup: g, column: c, rank: 1, what: `${where}: its metadata copy` });
      }
      const bloomLength = meta.bloom_filter_length ?? input.bloomLengths?.[g]?.[c];
      if (meta.bloom_filter_offset !== undefined) {
        if (bloomLength === undefined) problems.push(`${where}: bloom filter at byte ${meta.bloom_filter_offset} of unknown length`);
        else claim({ kind: SegmentKind.BLOOM_FILTER, start: meta.bloom_filter_offset, end: meta.bloom_filter_offset + bloomLength, rowGroup: g, column: c, rank: 1, what: `${where}: bloom filter` });
      }
    });
    // loops, not Math.min(...spread): a footer may list more chunks than a call takes arguments
    let start = chunks.length === 0 ? 0 : Infinity;
    let end = 0;
    for (const ch of chunks) {
      if (ch.start < start) start = ch.start;
      if (ch.end > end) end = ch.end;
    }
    rowGroups.push({ index: g, start, end, numRows: rg.num_rows, chunks });
  });

  // file order; at one start, the outer-ranked region (magic, footer) first, then claim order
  regions.sort((a, b) => a.start - b.start || a.rank - b.rank || a.seq - b.seq);
  const segments: Segment[] = [];
  const pageSegment = new Map<Region, number>();
  let pos = 0;
  for (const r of regions) {
    let start = r.start;
    let end = r.end;
    if (!(Number.isFinite(start) && Number.isFinite(end)) || end < start) {
      problems.push(`${r.what}: invalid byte range [${start}, ${end})`);
      continue;
    }
    if (start < 0 || end > fileSize) {
      problems.push(`${r.what}: bytes [${start}, ${end}) reach outside the ${fileSize}-byte file`);
      start = Math.max(0, start);
      end = Math.min(fileSize, end);
    }
    if (start < pos) {
      // a page reported as starting early is already a problem above; other overlaps are reported here
      if (end > start) problems.push(`${r.what}: bytes [${start}, ${Math.min(end, pos)}) overlap the region before`);
      start = pos;
    }
    if (end <= start) continue;
    if (start > pos) segments.push({ kind: SegmentKind.GAP, start: pos, end: start });
    const seg: Segment = { kind: r.kind, start, end };
    if (r.rowGroup !== undefined) seg.rowGroup = r.rowGroup;
    if (r.column !== undefined) seg.column = r.column;
    if (r.page !== undefined) seg.page = r.page;
    if (r.page !== undefined) pageSegment.set(r, segments.length);
    segments.push(seg);
    pos = end;
  }
  if (pos < fileSize) segments.push({ kind: SegmentKind.GAP, start: pos, end: fileSize });
  for (const [r, i] of pageSegment) {
    const ch = rowGroups[r.rowGroup!]?.chunks.find((x) => x.column === r.column);
    ch?.pageSegments.push(i);
  }
  for (const rg of rowGroups) for (const ch of rg.chunks) ch.pageSegments.sort((a, b) => a - b);
  return { fileSize, segments, rowGroups, problems };
}
