/**
 * What the layout needs beyond the footer, read from the file: each chunk's pages (from the OffsetIndex when the
 * chunk has one, else by walking its page headers), the ColumnIndex and OffsetIndex structs (for page statistics on
 * hover), and the length of bloom filters written without `bloom_filter_length` (from their `BloomFilterHeader`).
 *
 * Spec: parquet.thrift `PageHeader`, `OffsetIndex`, `ColumnIndex`, `BloomFilterHeader`; PageIndex.md.
 * @module
 */
import type { ByteSource } from '@parquetry/parquet-reader';
import {
  PageType,
  ParquetError,
  decodeThrift,
  isParquetError,
  readBloomFilterHeader,
  readColumnChunk,
  readColumnMetaData,
  readColumnIndex,
  readOffsetIndex,
  readPageHeader,
  type ColumnChunk,
  type ColumnIndex,
  type ColumnMetaData,
  type FileMetaData,
  type OffsetIndex,
  type PageHeader,
} from '@parquetry/thrift-compact';
import { chunkRange, type ChunkPages, type LayoutInput, type PageEntry } from './layout.js';

/** Bytes fetched at once when walking page headers (most pages' headers, for small pages many of them). */
const WINDOW = 64 * 1024;
/** Bytes fetched at first for a lone header. */
const HEADER_GUESS = 256;
/** The largest page header accepted (headers carry statistics, which may hold long values). */
const MAX_HEADER = 16 * 1024 * 1024;
/** Index regions up to this size are fetched in one request. */
const INDEX_SPAN = 16 * 1024 * 1024;
/** A bound on the pages listed for one chunk (a corrupt header cannot make the walk run away). */
const MAX_PAGES = 1_000_000;

/** Everything read about a file for its layout. */
export interface FileDetails extends LayoutInput {
  /** Column indexes by row group and column. */
  columnIndexes: (ColumnIndex | undefined)[][];
  /** Offset indexes by row group and column. */
  offsetIndexes: (OffsetIndex | undefined)[][];
  /** Errors met while reading the details (the layout is drawn without what failed), as sentences. */
  errors: string[];
}

/**
 * Reads the footer length from the file's last 8 bytes.
 * @param source - the file.
 * @returns the FileMetaData length.
 * @throws ParquetError `NOT_PARQUET` for a file under 12 bytes or without the `PAR1`/`PARE` magic.
 */
export async function readFooterLength(source: ByteSource): Promise<number> {
  const size = source.byteLength;
  if (size < 12) throw new ParquetError('NOT_PARQUET', `viewer: a ${size}-byte file is too short for Parquet (at least 12 bytes)`);
  const tail = await source.read(size - 8, size);
  const magic = String.fromCharCode(tail[4]!, tail[5]!, tail[6]!, tail[7]!);
  if (magic !== 'PAR1' && magic !== 'PARE') throw new ParquetError('NOT_PARQUET', `viewer: trailing magic at byte ${size - 4} is ${JSON.stringify(magic)}, expected "PAR1"`, size - 4);
  return (tail[0]! | (tail[1]! << 8) | (tail[2]! << 16) | (tail[3]! << 24)) >>> 0;
}

/** A read-ahead window over a source, for decoding a sequence of structs of unknown length. */
class Window {
  private start = 0;
  private bytes: Uint8Array = new Uint8Array(0);
  /**
   * @param source - the file.
   * @param limit - the end of the region the structs lie in.
   * @param initial - bytes fetched at first.
   */
  constructor(
    private readonly source: ByteSource,
    private readonly limit: number,
    private readonly initial: number,
  ) {}

  private async fill(offset: number, want: number): Promise<void> {
    const end = Math.min(this.limit, offset + want);
    if (end <= offset) throw new ParquetError('CORRUPT_PAGE', `viewer: no bytes left for a header at byte ${offset} (the region ends at ${this.limit})`, offset);
    this.bytes = await this.source.read(offset, end);
    this.start = offset;
  }

  /** Decodes one struct at `offset`, fetching more bytes while it runs past the window (bounded by `limit`). */
  async decode<T>(read: Parameters<typeof decodeThrift<T>>[0], offset: number): Promise<{ value: T; end: number }> {
    let want = this.initial;
    if (offset < this.start || offset >= this.start + this.bytes.length) await this.fill(offset, want);
    for (;;) {
      try {
        const r = decodeThrift(read, this.bytes, offset - this.start, this.bytes.length, this.start);
        return { value: r.value, end: this.start + r.end };
      } catch (e) {
        // out of bytes: widen the window unless it already reaches the limit
        const short = isParquetError(e) && e.code === 'EOF';
        const have = this.start + this.bytes.length;
        if (!short || have >= this.limit || want >= MAX_HEADER) throw e;
        want = Math.max(want, have - offset) * 4;
        await this.fill(offset, want);
      }
    }
  }
}

function pageEntry(h: PageHeader, offset: number, headerSize: number): PageEntry {
  const e: PageEntry = { offset, size: headerSize + h.compressed_page_size, type: h.type, headerSize, uncompressedSize: h.uncompressed_page_size, crc: h.crc !== undefined };
  const d1 = h.data_page_header;
  const d2 = h.data_page_header_v2;
  const dict = h.dictionary_page_header;
  if (d1) {
    e.encoding = d1.encoding;
    e.numValues = d1.num_values;
    if (d1.statistics) e.statistics = d1.statistics;
  } else if (d2) {
    e.encoding = d2.encoding;
    e.numValues = d2.num_values;
    e.numNulls = d2.num_nulls;
    e.numRows = d2.num_rows;
    if (d2.statistics) e.statistics = d2.statistics;
  } else if (dict) {
    e.encoding = dict.encoding;
    e.numValues = dict.num_values;
  }
  return e;
}

/** What {@link walkPageHeaders} found. */
export interface WalkedPages {
  /** The pages read, in file order (up to the first that could not be read). */
  pages: PageEntry[];
  /** Why the walk stopped early (a header that cannot be decoded, a page past the chunk's end), or undefined. */
  error: ParquetError | undefined;
}

/**
 * Lists a chunk's pages by walking its page headers from the chunk's first byte: each header is decoded and the
 * walk jumps over its body, to the chunk's end. A page reaching past the chunk's end (but not past the file's) is
 * listed, and the walk stops there with an error.
 * @param source - the file.
 * @param meta - the chunk's metadata.
 * @param where - the chunk's location, for messages.
 * @returns the pages read and, when the walk stopped early, a ParquetError `CORRUPT_PAGE` naming the row group,
 *   column and byte.
 */
export async function walkPageHeaders(source: ByteSource, meta: ColumnMetaData, where: string): Promise<WalkedPages> {
  const { start, end } = chunkRange(meta);
  const limit = Math.min(end, source.byteLength);
  const win = new Window(source, limit, WINDOW);
  const pages: PageEntry[] = [];
  let pos = start;
  while (pos < limit && pages.length < MAX_PAGES) {
    let r: { value: PageHeader; end: number };
    try {
      r = await win.decode(readPageHeader, pos);
    } catch (e) {
      return { pages, error: new ParquetError('CORRUPT_PAGE', `viewer: ${where}: cannot read the page header at byte ${pos}: ${(e as Error).message}`, pos, { cause: e }) };
    }
    const entry = pageEntry(r.value, pos, r.end - pos);
    if (!(r.value.compressed_page_size >= 0) || pos + entry.size > source.byteLength) {
      return { pages, error: new ParquetError('CORRUPT_PAGE', `viewer: ${where}: page at byte ${pos} declares ${r.value.compressed_page_size} bytes, past the end of the file (${source.byteLength})`, pos) };
    }
    pages.push(entry);
    if (pos + entry.size > limit) {
      return { pages, error: new ParquetError('CORRUPT_PAGE', `viewer: ${where}: page at byte ${pos} ends at byte ${pos + entry.size}, past the chunk's end ${limit}`, pos) };
    }
    pos += entry.size;
  }
  return { pages, error: undefined };
}

/** Fetches the byte ranges of index structs, in one request when they lie close together. */
async function indexBytes(source: ByteSource, ranges: { start: number; end: number }[]): Promise<(start: number, end: number) => Promise<Uint8Array>> {
  const valid = ranges.filter((r) => r.start >= 0 && r.end > r.start && r.end <= source.byteLength);
  if (valid.length === 0) return (s, e) => source.read(s, e);
  let lo = Infinity;
  let hi = 0;
  for (const r of valid) {
    if (r.start < lo) lo = r.start;
    if (r.end > hi) hi = r.end;
  }
  if (hi - lo > INDEX_SPAN) return (s, e) => source.read(s, e);
  const all = await source.read(lo, hi);
  return (s, e) => (s >= lo && e <= hi ? Promise.resolve(all.subarray(s - lo, e - lo)) : source.read(s, e));
}

/**
 * Reads what the layout and the hover details need beyond the footer: each chunk's pages (from its OffsetIndex, the
 * dictionary page from its header; else by walking the headers), the ColumnIndex and OffsetIndex structs, and the
 * length of bloom filters whose `bloom_filter_length` is absent. Failures are collected per chunk in `errors`, so
 * one bad chunk leaves the rest of the picture.
 * @param source - the file.
 * @param metadata - its footer.
 * @param footerLength - the footer length (see {@link readFooterLength}).
 * @param chunkMeta - the chunks' metadata when it differs from `meta_data` (decrypted), by row group and column.
 * @returns the details, with the {@link LayoutInput} fields filled.
 */
export async function readFileDetails(source: ByteSource, metadata: FileMetaData, footerLength: number, chunkMeta?: (ColumnMetaData | undefined)[][]): Promise<FileDetails> {
  const errors: string[] = [];
  const groups = metadata.row_groups;
  const ranges: { start: number; end: number }[] = [];
  for (const rg of groups) {
    for (const cc of rg.columns) {
      if (cc.column_index_offset !== undefined && cc.column_index_length !== undefined) ranges.push({ start: cc.column_index_offset, end: cc.column_index_offset + cc.column_index_length });
      if (cc.offset_index_offset !== undefined && cc.offset_index_length !== undefined) ranges.push({ start: cc.offset_index_offset, end: cc.offset_index_offset + cc.offset_index_length });
    }
  }
  const read = await indexBytes(source, ranges);
  const columnIndexes: (ColumnIndex | undefined)[][] = [];
  const offsetIndexes: (OffsetIndex | undefined)[][] = [];
  const pages: (ChunkPages | undefined)[][] = [];
  const bloomLengths: (number | undefined)[][] = [];
  const chunkMetaCopies: ({ offset: number; length: number } | undefined)[][] = [];
  for (let g = 0; g < groups.length; g++) {
    const rg = groups[g]!;
    const ci: (ColumnIndex | undefined)[] = [];
    const oi: (OffsetIndex | undefined)[] = [];
    const pg: (ChunkPages | undefined)[] = [];
    const bl: (number | undefined)[] = [];
    const ml: ({ offset: number; length: number } | undefined)[] = [];
    for (let c = 0; c < rg.columns.length; c++) {
      const cc: ColumnChunk = rg.columns[c]!;
      const meta = chunkMeta?.[g]?.[c] ?? cc.meta_data;
      const where = `row group ${g}, column '${meta?.path_in_schema.join('.') ?? c}'`;
      ci.push(await readIndex(read, readColumnIndex, cc.column_index_offset, cc.column_index_length, `${where}: column index`, errors));
      const offsets = await readIndex(read, readOffsetIndex, cc.offset_index_offset, cc.offset_index_length, `${where}: offset index`, errors);
      oi.push(offsets);
      bl.push(meta ? await bloomLength(source, meta, where, errors) : undefined);
      ml.push(meta ? await chunkMetaCopy(source, cc, meta, footerLength) : undefined);
      if (!meta || cc.crypto_metadata) {
        // encrypted chunks: the headers are ciphertext; the offset index (when readable) still lists the pages
        pg.push(offsets && meta ? { pages: await offsetIndexPages(source, meta, offsets, where, errors, false), from: 'offset-index' } : undefined);
        continue;
      }
      try {
        if (offsets && offsets.page_locations.length > 0) pg.push({ pages: await offsetIndexPages(source, meta, offsets, where, errors, true), from: 'offset-index' });
        else {
          const walked = await walkPageHeaders(source, meta, where);
          if (walked.error) errors.push(walked.error.message);
          pg.push({ pages: walked.pages, from: 'page-headers' });
        }
      } catch (e) {
        errors.push((e as Error).message);
        pg.push(undefined);
      }
    }
    columnIndexes.push(ci);
    offsetIndexes.push(oi);
    pages.push(pg);
    bloomLengths.push(bl);
    chunkMetaCopies.push(ml);
  }
  return { fileSize: source.byteLength, footerLength, metadata, chunkMeta, pages, bloomLengths, chunkMetaCopies, columnIndexes, offsetIndexes, errors };
}

async function readIndex<T>(
  read: (s: number, e: number) => Promise<Uint8Array>,
  decode: Parameters<typeof decodeThrift<T>>[0],
  offset: number | undefined,
  length: number | undefined,
  what: string,
  errors: string[],
): Promise<T | undefined> {
  if (offset === undefined || length === undefined) return undefined;
  try {
    const bytes = await read(offset, offset + length);
    return decodeThrift(decode, bytes, 0, bytes.length, offset).value;
  } catch (e) {
    errors.push(`viewer: ${what} at byte ${offset} (${length} bytes): ${(e as Error).message}`);
    return undefined;
  }
}

/** The pages of an OffsetIndex, with the dictionary page before the first data page read from its header. */
async function offsetIndexPages(source: ByteSource, meta: ColumnMetaData, oi: OffsetIndex, where: string, errors: string[], headers: boolean): Promise<PageEntry[]> {
  const out: PageEntry[] = [];
  const { start } = chunkRange(meta);
  const first = oi.page_locations[0]?.offset;
  if (first !== undefined && first > start) {
    if (headers) {
      try {
        const win = new Window(source, first, HEADER_GUESS);
        const r = await win.decode(readPageHeader, start);
        out.push(pageEntry(r.value, start, r.end - start));
      } catch (e) {
        errors.push(`viewer: ${where}: cannot read the dictionary page header at byte ${start}: ${(e as Error).message}`);
        out.push({ offset: start, size: first - start, type: PageType.DICTIONARY_PAGE });
      }
    } else {
      out.push({ offset: start, size: first - start, type: PageType.DICTIONARY_PAGE });
    }
  }
  for (const loc of oi.page_locations) {
    out.push({ offset: loc.offset, size: loc.compressed_page_size, type: PageType.DATA_PAGE, encoding: dataEncoding(meta), firstRowIndex: loc.first_row_index });
  }
  return out;
}

/** The data pages' encoding when the chunk's encoding_stats name only one (the OffsetIndex does not say). */
function dataEncoding(meta: ColumnMetaData): number | undefined {
  const seen = new Set<number>();
  for (const s of meta.encoding_stats ?? []) if (s.page_type === PageType.DATA_PAGE || s.page_type === PageType.DATA_PAGE_V2) seen.add(s.encoding);
  return seen.size === 1 ? [...seen][0] : undefined;
}

/**
 * The length of the chunk's metadata copy after its pages (parquet-java, Impala and Arrow C++ write a ColumnChunk
 * there, arrow-rs and others a ColumnMetaData): at `file_offset` when it points past the chunk's pages, else right
 * after the chunk; accepted when a ColumnChunk or ColumnMetaData of the same column decodes there. Else undefined.
 */
async function chunkMetaCopy(source: ByteSource, cc: ColumnChunk, meta: ColumnMetaData, footerLength: number): Promise<{ offset: number; length: number } | undefined> {
  const end = chunkRange(meta).end;
  const at = cc.file_offset >= end ? cc.file_offset : end;
  const footerStart = source.byteLength - 8 - footerLength;
  if (!(at >= 4 && at < footerStart)) return undefined;
  const path = meta.path_in_schema.join('.');
  const win = new Window(source, footerStart, HEADER_GUESS);
  try {
    const r = await win.decode(readColumnChunk, at);
    if (r.value.meta_data?.path_in_schema.join('.') === path) return { offset: at, length: r.end - at };
  } catch {
    // not a ColumnChunk
  }
  try {
    const r = await win.decode(readColumnMetaData, at);
    if (r.value.path_in_schema.join('.') === path) return { offset: at, length: r.end - at };
  } catch {
    // not a ColumnMetaData either: the bytes stay a gap
  }
  return undefined;
}

async function bloomLength(source: ByteSource, meta: ColumnMetaData, where: string, errors: string[]): Promise<number | undefined> {
  const at = meta.bloom_filter_offset;
  if (at === undefined || meta.bloom_filter_length !== undefined) return meta.bloom_filter_length;
  try {
    const win = new Window(source, source.byteLength, HEADER_GUESS);
    const r = await win.decode(readBloomFilterHeader, at);
    return r.end - at + r.value.numBytes;
  } catch (e) {
    errors.push(`viewer: ${where}: cannot read the bloom filter header at byte ${at}: ${(e as Error).message}`);
    return undefined;
  }
}
