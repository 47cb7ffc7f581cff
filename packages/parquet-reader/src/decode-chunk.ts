/**
 * The reader's `decodeColumnChunk`: parquet-column's, with the reader's own loader of the rare encodings' decoders
 * (rare-part.ts) unless the caller gives one. parquet-column's default loader imports parquet-encodings' module by a
 * specifier bundlers do not follow (so that a bundle of the reader gets one initial-load file fewer, see optional.ts):
 * through this function, a bundled app decoding chunks itself reads DELTA_*, BYTE_STREAM_SPLIT and ALP pages as the
 * reader's own reads do.
 * @module
 */
import { decodeColumnChunk as decodeChunk, type ChunkDecodeOptions, type ChunkLocation, type DecodedChunk } from '@parquetry/parquet-column/decode';
import type { ColumnDescriptor } from '@parquetry/parquet-levels/read';
import type { ColumnMetaData } from '@parquetry/thrift-compact';
import { loadRareDecoders } from './optional.js';

/**
 * Decodes every page of one column chunk (one `ChunkDecoder.take` of all its records).
 * @param bytes - the chunk's bytes (from its first page header to the end of its last page).
 * @param column - the leaf column (max levels, physical type).
 * @param meta - the chunk's ColumnMetaData.
 * @param where - location for messages.
 * @param options - codecs, checksum verification, limits, decryption; `loadRareDecoders` defaults to the reader's
 *   lazy part (a chunk of the app's bundle).
 * @returns levels and values of the whole chunk.
 * @throws ParquetError naming the row group, column path, page and file offset for any corrupt page;
 *   `CORRUPT_PAGE` / `ROW_COUNT_MISMATCH` when the pages disagree with the chunk's `num_values` or (with
 *   `options.numRows`) the row group's `num_rows`; `LIMIT_EXCEEDED` when `options.budget` runs out or the column's
 *   max definition or repetition level is over 255; `ENCODING_UNAVAILABLE` when the rare encodings' decoders cannot
 *   be loaded.
 */
export function decodeColumnChunk(bytes: Uint8Array, column: ColumnDescriptor, meta: ColumnMetaData, where: ChunkLocation, options: ChunkDecodeOptions = {}): Promise<DecodedChunk> {
  return decodeChunk(bytes, column, meta, where, options.loadRareDecoders === undefined ? { ...options, loadRareDecoders } : options);
}
