/**
 * Decoding one column chunk: its pages (dictionary, data page V1 and V2), checksums, decompression, level
 * streams and values, into one set of definition/repetition levels and non-null physical values. The page decoding
 * itself is the `ChunkDecoder`'s (`chunk-decoder.ts`), which can also hand the chunk out a batch at a time.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (pages, nested encoding) and
 * Encodings.md. Every size and count in a page header is untrusted and checked before use.
 *
 * @module
 */
import type { CodecMap } from '@parquetry/parquet-codecs';
import { applyDictionary, type ColumnValues } from '@parquetry/parquet-encodings/read';
import type { RareDecodersLoader } from '@parquetry/parquet-encodings/read-prepared';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import type { ColumnMetaData } from '@parquetry/thrift-compact';
import type { ChunkLocation, PageDecrypt } from './page-reader.js';
import type { ReadBudget } from './budget.js';
import { ChunkDecoder, emptyValues } from './chunk-decoder.js';
import { concatValues } from './values.js';

/** Options of {@link decodeColumnChunk}. */
export interface ChunkDecodeOptions {
  /** Codecs by CompressionCodec number. */
  codecs?: CodecMap | undefined;
  /** Verify page CRC32 checksums when present (default true). */
  verifyChecksums?: boolean | undefined;
  /** Largest number of values one page may claim (default 2^26). */
  maxPageValues?: number | undefined;
  /**
   * Decrypts one module of an encrypted chunk: `module` is the Encryption.md module type (2 data page,
   * 3 dictionary page, 4 data page header, 5 dictionary page header), `page` the data page ordinal.
   */
  decrypt?: PageDecrypt | undefined;
  /**
   * The chunk's dictionary, decoded earlier (by a reader that fetched the dictionary page on its own): `bytes` then
   * hold data pages only, and dictionary-encoded pages use these values.
   */
  dictionary?: ColumnValues | undefined;
  /**
   * Ordinal, within the chunk, of the first data page in `bytes` (default 0): a reader that decodes a subset of the
   * pages (those the page index keeps) passes each run's first ordinal, which encrypted pages need in their AAD.
   */
  firstDataPage?: number | undefined;
  /**
   * The row group's `num_rows`, given when `bytes` hold the whole chunk: the decoder then checks the chunk against
   * its metadata — a flat column's `num_values` must equal it, the pages must hold exactly the chunk's `num_values`
   * levels (`CORRUPT_PAGE` naming both counts), and its records must number `num_rows` (`ROW_COUNT_MISMATCH`) once
   * every record has been taken. Without it (a run of some of the chunk's pages, a dictionary page alone) only the
   * page bound holds: no page may claim more values than the chunk's `num_values` leaves.
   */
  numRows?: number | undefined;
  /** The read's budget, charged before each page's decompressed bytes, levels and values are allocated. */
  budget?: ReadBudget | undefined;
  /**
   * Keep the dictionary indices of dictionary-encoded pages of numeric columns (INT32, INT64, FLOAT, DOUBLE) as
   * indices, as other columns' are (by default their values are looked up while decoding): for a reader that keeps
   * few of the chunk's rows and looks up only theirs.
   */
  keepIndices?: boolean | undefined;
  /**
   * Imports the decoders of DELTA_*, BYTE_STREAM_SPLIT and ALP pages on the first such page
   * (`() => import('@parquetry/parquet-encodings/rare-decoders')`, or a module re-exporting it). Without it,
   * parquet-encodings' own module is imported by a specifier bundlers do not follow: unbundled (Node, an ESM CDN) the
   * same, in a bundle a failed load (`ENCODING_UNAVAILABLE`) unless given — so the package's main entry, whose
   * `decodeColumnChunk` and `ChunkDecoder` default it to that `import()`, is the one for apps; the `/read` entry's are
   * for readers that pass a loader. parquet-reader passes a module of its own, so that its bundle's chunks group
   * better (see parquet-encodings' `/read-prepared`).
   */
  loadRareDecoders?: RareDecodersLoader | undefined;
}

/** A decoded column chunk. */
export interface DecodedChunk {
  /**
   * Definition levels, one byte each (a column's max levels are at most 255: the decoder refuses deeper columns);
   * undefined when the max definition level is 0 or every level is at the max.
   */
  def: Uint8Array | undefined;
  /** Repetition levels, one byte each; undefined when the max repetition level is 0. */
  rep: Uint8Array | undefined;
  /** Number of level entries (values including nulls). */
  numLevels: number;
  /** The chunk's dictionary page values, when it has one. */
  dictionary: ColumnValues | undefined;
  /**
   * Non-null values, page after page: dictionary-encoded pages keep their indices (so each dictionary entry is
   * converted once), other pages their physical values. {@link chunkValues} materialises them.
   */
  segments: ValueSegment[];
  /** Number of non-null values. */
  numValues: number;
  /** Data pages decoded (dictionary pages not counted). */
  pages: number;
}

/** A run of non-null values: dictionary indices or physical values. */
export type ValueSegment = { indices: Int32Array; values?: undefined } | { values: ColumnValues; indices?: undefined };

/**
 * The chunk's non-null physical values as one array (dictionary indices resolved).
 * @param chunk - a decoded chunk.
 * @param column - its column.
 * @returns the values.
 */
export function chunkValues(chunk: DecodedChunk, column: ColumnDescriptor): ColumnValues {
  const parts = chunk.segments.map((s) => (s.indices ? applyDictionary(chunk.dictionary!, s.indices) : s.values!));
  return concatValues(parts, emptyValues(column.type, column.typeLength));
}


/**
 * Decodes every page of one column chunk (one `ChunkDecoder.take` of all its records).
 * @param bytes - the chunk's bytes (from its first page header to the end of its last page).
 * @param column - the leaf column (max levels, physical type).
 * @param meta - the chunk's ColumnMetaData.
 * @param where - location for messages.
 * @param options - codecs, checksum verification, limits, decryption.
 * @returns levels and values of the whole chunk.
 * @throws ParquetError naming the row group, column path, page and file offset for any corrupt page;
 *   `CORRUPT_PAGE` / `ROW_COUNT_MISMATCH` when the pages disagree with the chunk's `num_values` or (with
 *   `options.numRows`) the row group's `num_rows`; `LIMIT_EXCEEDED` when `options.budget` runs out or the column's
 *   max definition or repetition level is over 255.
 */
export async function decodeColumnChunk(bytes: Uint8Array, column: ColumnDescriptor, meta: ColumnMetaData, where: ChunkLocation, options: ChunkDecodeOptions = {}): Promise<DecodedChunk> {
  return new ChunkDecoder(bytes, column, meta, where, options).take(Infinity);
}
