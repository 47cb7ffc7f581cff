// Test helper: writes a small encrypted Parquet file the way a writer would use this package
// (every module serialized, handed to ColumnEncryptor.encrypt, offsets recorded, footer by
// writeEncryptedFileTail). Page bodies are random bytes: this package never looks inside them.
import {
  type ColumnChunk,
  type ColumnMetaData,
  type FileMetaData,
  type PageHeader,
  type RowGroup,
  BoundaryOrder,
  CompressionCodec,
  Encoding,
  FieldRepetitionType,
  PageType,
  Type,
  encodeThrift,
  writeBloomFilterHeader,
  writeColumnIndex,
  writeColumnMetaData,
  writeOffsetIndex,
  writePageHeader,
} from '@parquetry/thrift-compact';
import { type FileEncryptionProperties, ModuleType, createFileEncryptor } from '../src/index.js';

export const PATHS = [['a'], ['b', 'c'], ['d']];

export interface SyntheticColumn {
  dictionary: Uint8Array;
  pages: Uint8Array[];
  bitset: Uint8Array;
}

export interface Synthetic {
  file: Uint8Array;
  /** [rowGroup][column] plaintext bodies. */
  columns: SyntheticColumn[][];
  fileMetaData: FileMetaData;
}

function rand(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/**
 * Writes `rowGroups` row groups of the three columns in PATHS, each with a dictionary page, `pagesPerChunk`
 * data pages, a column index, an offset index and a bloom filter.
 * @param sameContentPerRowGroup - identical plaintext in every row group (so modules have equal sizes).
 */
export async function writeSyntheticFile(props: FileEncryptionProperties, rowGroups = 2, pagesPerChunk = 3, sameContentPerRowGroup = false): Promise<Synthetic> {
  const fe = createFileEncryptor(props);
  const parts: Uint8Array[] = [fe.magic];
  let pos = 4;
  const push = (b: Uint8Array) => {
    const at = pos;
    parts.push(b);
    pos += b.length;
    return at;
  };
  const all: SyntheticColumn[][] = [];
  const groups: RowGroup[] = [];
  const indexWork: (() => Promise<void>)[] = [];
  for (let r = 0; r < rowGroups; r++) {
    const chunks: ColumnChunk[] = [];
    const cols: SyntheticColumn[] = [];
    for (let c = 0; c < PATHS.length; c++) {
      const path = PATHS[c]!;
      const ce = fe.columnEncryptor(r, c, path);
      const seed = (sameContentPerRowGroup ? 0 : r) * 100 + c * 10;
      const col: SyntheticColumn = { dictionary: rand(40 + c, seed), pages: [], bitset: rand(64, seed + 9) };
      const enc = async (type: ModuleType, ord: number, b: Uint8Array) => (ce === undefined ? b : ce.encrypt(type, ord, b));
      // dictionary page
      const dictBody = await enc(ModuleType.DICTIONARY_PAGE, 0, col.dictionary);
      const dictHeader: PageHeader = {
        type: PageType.DICTIONARY_PAGE,
        uncompressed_page_size: col.dictionary.length,
        compressed_page_size: dictBody.length,
        dictionary_page_header: { num_values: 5, encoding: Encoding.PLAIN },
      };
      const dictOffset = push(await enc(ModuleType.DICTIONARY_PAGE_HEADER, 0, encodeThrift(writePageHeader, dictHeader)));
      push(dictBody);
      const dataOffset = pos;
      const locations: { offset: number; compressed_page_size: number; first_row_index: number }[] = [];
      for (let p = 0; p < pagesPerChunk; p++) {
        const body = rand(100 + 37 * p, seed + p + 1);
        col.pages.push(body);
        const encBody = await enc(ModuleType.DATA_PAGE, p, body);
        const header: PageHeader = {
          type: PageType.DATA_PAGE,
          uncompressed_page_size: body.length,
          compressed_page_size: encBody.length,
          data_page_header: { num_values: 10, encoding: Encoding.RLE_DICTIONARY, definition_level_encoding: Encoding.RLE, repetition_level_encoding: Encoding.RLE },
        };
        const at = push(await enc(ModuleType.DATA_PAGE_HEADER, p, encodeThrift(writePageHeader, header)));
        push(encBody);
        locations.push({ offset: at, compressed_page_size: pos - at, first_row_index: p * 10 });
      }
      const bloomOffset = push(await enc(ModuleType.BLOOM_FILTER_HEADER, 0, encodeThrift(writeBloomFilterHeader, { numBytes: col.bitset.length, algorithm: { BLOCK: {} }, hash: { XXHASH: {} }, compression: { UNCOMPRESSED: {} } })));
      push(await enc(ModuleType.BLOOM_FILTER_BITSET, 0, col.bitset));
      const meta: ColumnMetaData = {
        type: Type.INT32,
        encodings: [Encoding.PLAIN, Encoding.RLE, Encoding.RLE_DICTIONARY],
        path_in_schema: path,
        codec: CompressionCodec.UNCOMPRESSED,
        num_values: 10 * pagesPerChunk,
        total_uncompressed_size: 0,
        total_compressed_size: bloomOffset - dictOffset,
        data_page_offset: dataOffset,
        dictionary_page_offset: dictOffset,
        bloom_filter_offset: bloomOffset,
        bloom_filter_length: pos - bloomOffset,
        statistics: { null_count: 0, min_value: new Uint8Array([0, 0, 0, 0]), max_value: new Uint8Array([9, 0, 0, 0]) },
      };
      const chunk: ColumnChunk = { file_offset: dictOffset };
      if (ce === undefined) chunk.meta_data = meta;
      else {
        chunk.crypto_metadata = ce.cryptoMetaData;
        if (ce.encryptsColumnMetaData) {
          chunk.encrypted_column_metadata = await ce.encrypt(ModuleType.COLUMN_META_DATA, 0, encodeThrift(writeColumnMetaData, meta));
          if (fe.plaintextFooter) {
            const { statistics: _s, ...stripped } = meta;
            chunk.meta_data = stripped;
          }
        } else chunk.meta_data = meta;
      }
      // Page indexes are written after all row groups, as writers do.
      indexWork.push(async () => {
        chunk.column_index_offset = push(
          await enc(
            ModuleType.COLUMN_INDEX,
            0,
            encodeThrift(writeColumnIndex, { null_pages: locations.map(() => false), min_values: locations.map(() => new Uint8Array(4)), max_values: locations.map(() => new Uint8Array(4)), boundary_order: BoundaryOrder.UNORDERED }),
          ),
        );
        chunk.column_index_length = pos - chunk.column_index_offset;
        chunk.offset_index_offset = push(await enc(ModuleType.OFFSET_INDEX, 0, encodeThrift(writeOffsetIndex, { page_locations: locations })));
        chunk.offset_index_length = pos - chunk.offset_index_offset;
      });
      chunks.push(chunk);
      cols.push(col);
    }
    groups.push({ columns: chunks, total_byte_size: 0, num_rows: 10 * pagesPerChunk, ordinal: r });
    all.push(cols);
  }
  for (const w of indexWork) await w();
  const fileMetaData: FileMetaData = {
    version: 2,
    schema: [
      { name: 'schema', num_children: 3 },
      { name: 'a', type: Type.INT32, repetition_type: FieldRepetitionType.REQUIRED },
      { name: 'b', num_children: 1, repetition_type: FieldRepetitionType.REQUIRED },
      { name: 'c', type: Type.INT32, repetition_type: FieldRepetitionType.REQUIRED },
      { name: 'd', type: Type.INT32, repetition_type: FieldRepetitionType.REQUIRED },
    ],
    num_rows: rowGroups * 10 * pagesPerChunk,
    row_groups: groups,
  };
  parts.push(await fe.fileTail(fileMetaData));
  const file = new Uint8Array(parts.reduce((n, b) => n + b.length, 0));
  let o = 0;
  for (const b of parts) {
    file.set(b, o);
    o += b.length;
  }
  return { file, columns: all, fileMetaData };
}
