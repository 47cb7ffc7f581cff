/**
 * File layout: closed column chunks → the bytes of a row group and its `RowGroup` metadata (offsets, sizes,
 * encodings, statistics), and the file tail (footer, its length, the magic).
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md ("File format": `4-byte magic "PAR1"`,
 * column chunks, `File Metadata`, `4-byte length in bytes of file metadata (little endian)`, `4-byte magic "PAR1"`).
 *
 * @module
 */
import { bloomFilterHeaderFor, serializeBloomFilter } from '@parquetry/parquet-bloom';
import { pageHeaderBytes, type PageEncrypt, encryptedPageParts } from '@parquetry/parquet-column/write';
import { CompactWriter, PageType, Type, encodeThrift, writeBloomFilterHeader, writeFileMetaData, type ColumnChunk, type ColumnIndex, type ColumnMetaData, type FileMetaData, type OffsetIndex, type PageLocation, type RowGroup, type SortingColumn } from '@parquetry/thrift-compact';
import type { ClosedChunk } from './column-writer.js';

/** The 4-byte magic at both ends of a Parquet file with a plaintext footer. */
export const MAGIC: Uint8Array = /*#__PURE__*/ new Uint8Array([0x50, 0x41, 0x52, 0x31]);

/** Encrypts one module of a column chunk: Encryption.md module type, data page ordinal (0 otherwise), plaintext. */
export type ModuleEncrypt = (module: number, page: number, plaintext: Uint8Array) => Promise<Uint8Array>;

/** A laid-out row group. */
export interface LaidOutRowGroup {
  /** The bytes to append, in order. */
  parts: Uint8Array[];
  /** Their total length. */
  length: number;
  /** The row group's metadata. */
  rowGroup: RowGroup;
  /** Each chunk's OffsetIndex (where its data pages are), in column order. */
  offsetIndexes: OffsetIndex[];
  /** Each chunk's ColumnIndex, when it has one. */
  columnIndexes: (ColumnIndex | undefined)[];
}

/** What the layout needs besides the chunks. */
export interface LayoutContext {
  /** File offset of the row group's first byte. */
  offset: number;
  /** Row group ordinal. */
  ordinal: number;
  /** Declared sort order of the row group. */
  sortingColumns?: SortingColumn[] | undefined;
  /**
   * The module encryptor of a column chunk, when the column is encrypted (Encryption.md module types: pages and
   * their headers, bloom filter header and bitset).
   */
  encryptor?: ((column: number) => ModuleEncrypt | undefined) | undefined;
}

/**
 * Lays out the closed chunks of one row group from `ctx.offset`: every chunk's pages in order (the dictionary page
 * first), with `data_page_offset`, `dictionary_page_offset` (only when a dictionary page exists), the total sizes
 * (page headers included) and the statistics.
 * @param chunks - the row group's closed chunks, in column order.
 * @param numRows - rows in the row group.
 * @param ctx - offset, ordinal, codec, sorting columns, encryption.
 * @returns the bytes and the metadata.
 */
export async function layOutRowGroup(chunks: readonly ClosedChunk[], numRows: number, ctx: LayoutContext): Promise<LaidOutRowGroup> {
  const parts: Uint8Array[] = [];
  let pos = ctx.offset;
  const columns: ColumnChunk[] = [];
  const offsetIndexes: OffsetIndex[] = [];
  let totalUncompressed = 0;
  let totalCompressed = 0;
  for (let c = 0; c < chunks.length; c++) {
    const chunk = chunks[c]!;
    const start = pos;
    let dataPageOffset = -1;
    let uncompressed = 0;
    let ordinal = 0;
    const encrypt = ctx.encryptor?.(c);
    const locations: PageLocation[] = [];
    for (const page of chunk.pages) {
      const isDict = page.header.type === PageType.DICTIONARY_PAGE;
      if (!isDict && dataPageOffset < 0) dataPageOffset = pos;
      const pageStart = pos;
      let head: Uint8Array;
      let body: Uint8Array;
      if (encrypt) {
        [head, body] = await encryptedPageParts(page, isDict ? 0 : ordinal, encrypt as PageEncrypt);
      } else {
        head = pageHeaderBytes(page.header);
        body = page.body;
      }
      parts.push(head, body);
      pos += head.length + body.length;
      if (!isDict) {
        locations.push({ offset: pageStart, compressed_page_size: pos - pageStart, first_row_index: chunk.pageInfo[ordinal]!.firstRow });
        ordinal++;
      }
      uncompressed += head.length + page.header.uncompressed_page_size;
    }
    const compressed = pos - start;
    const meta: ColumnMetaData = {
      type: chunk.column.type,
      encodings: chunk.encodings,
      path_in_schema: [...chunk.column.path],
      codec: chunk.codec as ColumnMetaData['codec'],
      num_values: chunk.numValues,
      total_uncompressed_size: uncompressed,
      total_compressed_size: compressed,
      ...(chunk.keyValueMetadata ? { key_value_metadata: chunk.keyValueMetadata } : {}),
      data_page_offset: dataPageOffset < 0 ? start : dataPageOffset,
      ...(chunk.hasDictionary ? { dictionary_page_offset: start } : {}),
      ...(chunk.statistics ? { statistics: chunk.statistics } : {}),
      encoding_stats: chunk.encodingStats,
      ...(chunk.sizeStatistics ? { size_statistics: chunk.sizeStatistics } : {}),
      ...(chunk.geospatialStatistics ? { geospatial_statistics: chunk.geospatialStatistics } : {}),
    };
    columns.push({ file_offset: start, meta_data: meta });
    offsetIndexes.push({
      page_locations: locations,
      ...(chunk.column.type === Type.BYTE_ARRAY ? { unencoded_byte_array_data_bytes: chunk.pageInfo.map((p) => p.byteArrayBytes ?? 0) } : {}),
    });
    totalUncompressed += uncompressed;
    totalCompressed += compressed;
  }
  // bloom filters right after the row group's chunks (memory stays bounded by one row group's filters)
  for (let c = 0; c < chunks.length; c++) {
    const f = chunks[c]!.bloomFilter;
    if (!f) continue;
    const md = columns[c]!.meta_data!;
    md.bloom_filter_offset = pos;
    const encrypt = ctx.encryptor?.(c);
    if (encrypt) {
      // header and bitset are two modules (Encryption.md: BloomFilter Header 8, BloomFilter Bitset 9)
      const head = await encrypt(8, 0, encodeThrift(writeBloomFilterHeader, bloomFilterHeaderFor(f.numBytes)));
      const bits = await encrypt(9, 0, f.bitset());
      parts.push(head, bits);
      pos += head.length + bits.length;
    } else {
      const bytes = serializeBloomFilter(f);
      parts.push(bytes);
      pos += bytes.length;
    }
    md.bloom_filter_length = pos - md.bloom_filter_offset;
  }
  const rowGroup: RowGroup = {
    columns,
    total_byte_size: totalUncompressed,
    num_rows: numRows,
    file_offset: ctx.offset,
    total_compressed_size: totalCompressed,
    ordinal: ctx.ordinal,
    ...(ctx.sortingColumns ? { sorting_columns: ctx.sortingColumns } : {}),
  };
  return { parts, length: pos - ctx.offset, rowGroup, offsetIndexes, columnIndexes: chunks.map((c) => c.columnIndex) };
}

/**
 * The tail of a file with a plaintext footer: the serialized FileMetaData, its 4-byte little-endian length and the
 * magic.
 * @param meta - the footer.
 * @returns the bytes.
 * @throws ParquetError `THRIFT_REQUIRED_FIELD` when a required field is missing.
 */
export function plainFileTail(meta: FileMetaData): Uint8Array {
  const w = new CompactWriter();
  writeFileMetaData(w, meta);
  const footer = w.out.finish();
  const out = new Uint8Array(footer.length + 8);
  out.set(footer, 0);
  const n = footer.length;
  out[n] = n & 0xff;
  out[n + 1] = (n >>> 8) & 0xff;
  out[n + 2] = (n >>> 16) & 0xff;
  out[n + 3] = (n >>> 24) & 0xff;
  out.set(MAGIC, n + 4);
  return out;
}

/**
 * Serialises one Thrift struct (a ColumnIndex, an OffsetIndex).
 * @param write - the generated writer.
 * @param value - the struct.
 * @returns its bytes.
 */
export function thriftBytes<T>(write: (w: CompactWriter, v: T) => void, value: T): Uint8Array {
  const w = new CompactWriter();
  write(w, value);
  return w.out.finish().slice();
}
