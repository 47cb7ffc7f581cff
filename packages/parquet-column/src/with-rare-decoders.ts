/**
 * The main entry's {@link decodeColumnChunk} and {@link ChunkDecoder}: those of column-chunk.ts and chunk-decoder.ts
 * with `loadRareDecoders` defaulting to an `import()` of `@parquetry/parquet-encodings/rare-decoders` that bundlers
 * follow, so that an app decoding chunks with this package's main entry in a bundle reads DELTA_*, BYTE_STREAM_SPLIT
 * and ALP pages without the option. The `/read` entry keeps the plain ones (their default loader is invisible to
 * bundlers): the reader imports `/read` and passes a loader of its own, and an `import()` reachable from its bundle
 * would split the chunks of its initial load again (see parquet-encodings' `/read-prepared`).
 * @module
 */
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { loadRareDecoders } from '@parquetry/parquet-encodings/read-registry';
import type { ColumnMetaData } from '@parquetry/thrift-compact';
import { ChunkDecoder as PlainChunkDecoder } from './chunk-decoder.js';
import { decodeColumnChunk as decodeChunk, type ChunkDecodeOptions, type DecodedChunk } from './column-chunk.js';
import type { ChunkLocation } from './page-reader.js';

/** `options` with parquet-encodings' `loadRareDecoders` (its `/read-registry`'s `import()`) as the loader unless it has one. */
function withLoader(options: ChunkDecodeOptions): ChunkDecodeOptions {
  return options.loadRareDecoders === undefined ? { ...options, loadRareDecoders } : options;
}

/**
 * Decodes every page of one column chunk (one `ChunkDecoder.take` of all its records).
 * @param bytes - the chunk's bytes (from its first page header to the end of its last page).
 * @param column - the leaf column (max levels, physical type).
 * @param meta - the chunk's ColumnMetaData.
 * @param where - location for messages.
 * @param options - codecs, checksum verification, limits, decryption; `loadRareDecoders` defaults to an `import()`
 *   of `@parquetry/parquet-encodings/rare-decoders` (a chunk of the app's bundle).
 * @returns levels and values of the whole chunk.
 * @throws ParquetError naming the row group, column path, page and file offset for any corrupt page;
 *   `CORRUPT_PAGE` / `ROW_COUNT_MISMATCH` when the pages disagree with the chunk's `num_values` or (with
 *   `options.numRows`) the row group's `num_rows`; `LIMIT_EXCEEDED` when `options.budget` runs out or the column's
 *   max definition or repetition level is over 255; `ENCODING_UNAVAILABLE` when the rare encodings' decoders cannot
 *   be loaded.
 */
export function decodeColumnChunk(bytes: Uint8Array, column: ColumnDescriptor, meta: ColumnMetaData, where: ChunkLocation, options: ChunkDecodeOptions = {}): Promise<DecodedChunk> {
  return decodeChunk(bytes, column, meta, where, withLoader(options));
}

/**
 * Decodes a column chunk page by page and hands out its records a batch at a time (see the `/read` entry's
 * `ChunkDecoder`, which this is with `loadRareDecoders` defaulting to an `import()` of
 * `@parquetry/parquet-encodings/rare-decoders`).
 *
 * ```ts
 * const chunk = new ChunkDecoder(bytes, column, meta, where, { codecs });
 * while (!(await chunk.atEnd())) use(await chunk.take(10_000));
 * ```
 */
export class ChunkDecoder extends PlainChunkDecoder {
  /**
   * @param bytes - the chunk's bytes (from its first page header to the end of its last page).
   * @param column - the leaf column (max levels, physical type).
   * @param meta - the chunk's ColumnMetaData (codec, value count, dictionary page offset).
   * @param where - the chunk's location, for messages.
   * @param options - codecs, checksum verification, limits, decryption, the rare decoders' loader.
   */
  constructor(bytes: Uint8Array, column: ColumnDescriptor, meta: ColumnMetaData, where: ChunkLocation, options: ChunkDecodeOptions = {}) {
    super(bytes, column, meta, where, withLoader(options));
  }
}
