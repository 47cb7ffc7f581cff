/**
 * The page writer, inverse of the {@link PageReader}: an encoded page body → a page (header + compressed body, with
 * its CRC32), and a page → the bytes stored in the file, encrypted as its module type when the column is encrypted.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md ("Data Pages": V1 pages are
 * `[repetition levels][definition levels][values]` compressed together, V2 pages keep the levels uncompressed in
 * front of the compressed values; "Checksumming": the CRC32 covers the page body as stored, after compression),
 * parquet.thrift `PageHeader`, `DataPageHeader`, `DataPageHeaderV2`, `DictionaryPageHeader`, and Encryption.md
 * (a page header is its own module, encrypted after the body it describes).
 *
 * @module
 */
import { compressPage, compressPageOwned, crc32, CompressionCodec, type CodecMap } from '@parquetry/parquet-codecs';
import { CompactWriter, Encoding, PageType, ParquetError, writePageHeader, type PageHeader, type Statistics } from '@parquetry/thrift-compact';
import { PageModule } from './page-reader.js';

/** How pages are written: the chunk's codec, the codecs available, and whether pages carry a CRC32. */
export interface PageWriterOptions {
  /** The chunk's `CompressionCodec` number. */
  codec: number;
  /** Codecs by CompressionCodec number (UNCOMPRESSED needs none). */
  codecs?: CodecMap | undefined;
  /** Write a CRC32 of each page body into its header (default true). */
  checksum?: boolean | undefined;
  /**
   * Where page bodies copied out of a codec's own memory (or out of the caller's buffer, for UNCOMPRESSED) go: a
   * function giving an array of exactly the length asked for that the page may keep (a writer's arena); default: a
   * new array per page.
   */
  alloc?: ((length: number) => Uint8Array) | undefined;
}

/** A page ready to be stored: its header and its body as stored (compressed; not yet encrypted). */
export interface WrittenPage {
  /** The page header. */
  header: PageHeader;
  /** The page body as stored: compressed (V2: uncompressed levels + compressed values). */
  body: Uint8Array;
}

/** A data page V1 to write. */
export interface DataPageV1Input {
  /** Number of level entries (values including nulls). */
  numValues: number;
  /** Encoding of the values. */
  encoding: Encoding;
  /** The uncompressed page body: `[4-byte length + RLE repetition levels][4-byte length + RLE definition levels][values]`. */
  body: Uint8Array;
  /** Page statistics for the header, when written there. */
  statistics?: Statistics | undefined;
}

/** A data page V2 to write. */
export interface DataPageV2Input {
  /** Number of level entries (values including nulls). */
  numValues: number;
  /** Number of null values (level entries below the max definition level). */
  numNulls: number;
  /** Number of rows (level entries with repetition level 0). */
  numRows: number;
  /** Encoding of the values. */
  encoding: Encoding;
  /** The repetition levels then the definition levels, RLE hybrid without length prefixes. */
  levels: Uint8Array;
  /** Byte length of the repetition levels at the start of `levels`. */
  repetitionLength: number;
  /** The encoded values, uncompressed. */
  values: Uint8Array;
  /** Page statistics for the header, when written there. */
  statistics?: Statistics | undefined;
}

function checkSize(n: number, what: string): void {
  if (n > 0x7fffffff) throw new ParquetError('PAGE_TOO_LARGE', `parquet-column: a ${what} of ${n} bytes exceeds the 2^31 - 1 bytes a page header can declare`);
}

/**
 * The page with its header's CRC when pages carry one.
 * @param crc - the CRC-32 of `body` when already known (the codec computed it), else computed here.
 */
function withCrc(header: PageHeader, body: Uint8Array, options: PageWriterOptions, crc?: number): WrittenPage {
  if (options.checksum ?? true) header.crc = (crc ?? crc32(body)) | 0;
  return { header, body };
}

/**
 * Compresses `src` into an array owned by the page (the caller may reuse `src`; bytes copied out of the codec's
 * memory go to `options.alloc`), with the CRC-32 of the result when pages carry checksums.
 * @param src - uncompressed bytes.
 * @param options - codec, codecs, checksum and alloc.
 * @returns the compressed bytes (a copy of `src` for UNCOMPRESSED) and their CRC.
 */
function compressOwned(src: Uint8Array, options: PageWriterOptions): { body: Uint8Array; crc: number | undefined } {
  const c = compressPageOwned(options.codecs, options.codec, src, options.checksum ?? true, options.alloc);
  return { body: c.bytes, crc: c.crc };
}

/**
 * Builds a data page V1.
 * @param page - the page's count, encoding, uncompressed body and statistics.
 * @param options - codec, codecs, checksum.
 * @returns the page (header + compressed body).
 * @throws ParquetError `PAGE_TOO_LARGE`, and the codec codes (`CODEC_MISSING`, …).
 */
export function dataPageV1(page: DataPageV1Input, options: PageWriterOptions): WrittenPage {
  checkSize(page.body.length, 'data page');
  const { body, crc } = compressOwned(page.body, options);
  checkSize(body.length, 'compressed data page');
  const header: PageHeader = {
    type: PageType.DATA_PAGE,
    uncompressed_page_size: page.body.length,
    compressed_page_size: body.length,
    data_page_header: {
      num_values: page.numValues,
      encoding: page.encoding,
      definition_level_encoding: Encoding.RLE,
      repetition_level_encoding: Encoding.RLE,
      ...(page.statistics ? { statistics: page.statistics } : {}),
    },
  };
  return withCrc(header, body, options, crc);
}

/**
 * Builds a data page V2: levels stay uncompressed; the values are compressed with the chunk's codec, and
 * `is_compressed` says so (false for UNCOMPRESSED chunks).
 * @param page - counts, encoding, levels, values and statistics.
 * @param options - codec, codecs, checksum.
 * @returns the page (header + body: levels then compressed values).
 * @throws ParquetError `PAGE_TOO_LARGE`, and the codec codes.
 */
export function dataPageV2(page: DataPageV2Input, options: PageWriterOptions): WrittenPage {
  const levelsLength = page.levels.length;
  checkSize(levelsLength + page.values.length, 'data page');
  const compressed = options.codec !== CompressionCodec.UNCOMPRESSED;
  const values = compressed ? compressPage(options.codecs, options.codec, page.values) : page.values;
  const body = options.alloc ? options.alloc(levelsLength + values.length) : new Uint8Array(levelsLength + values.length);
  body.set(page.levels, 0);
  body.set(values, levelsLength);
  checkSize(body.length, 'compressed data page');
  const header: PageHeader = {
    type: PageType.DATA_PAGE_V2,
    uncompressed_page_size: levelsLength + page.values.length,
    compressed_page_size: body.length,
    data_page_header_v2: {
      num_values: page.numValues,
      num_nulls: page.numNulls,
      num_rows: page.numRows,
      encoding: page.encoding,
      definition_levels_byte_length: levelsLength - page.repetitionLength,
      repetition_levels_byte_length: page.repetitionLength,
      is_compressed: compressed,
      ...(page.statistics ? { statistics: page.statistics } : {}),
    },
  };
  return withCrc(header, body, options);
}

/**
 * Builds a dictionary page (PLAIN-encoded values, as the spec requires for every dictionary page).
 * @param numValues - number of dictionary entries.
 * @param values - the PLAIN-encoded entries, uncompressed.
 * @param options - codec, codecs, checksum.
 * @returns the page.
 * @throws ParquetError `PAGE_TOO_LARGE`, and the codec codes.
 */
export function dictionaryPage(numValues: number, values: Uint8Array, options: PageWriterOptions): WrittenPage {
  checkSize(values.length, 'dictionary page');
  const { body, crc } = compressOwned(values, options);
  const header: PageHeader = {
    type: PageType.DICTIONARY_PAGE,
    uncompressed_page_size: values.length,
    compressed_page_size: body.length,
    dictionary_page_header: { num_values: numValues, encoding: Encoding.PLAIN },
  };
  return withCrc(header, body, options, crc);
}

/**
 * Serialises a page header.
 * @param header - the header.
 * @returns its Thrift compact bytes.
 */
export function pageHeaderBytes(header: PageHeader): Uint8Array {
  const w = new CompactWriter();
  writePageHeader(w, header);
  return w.out.finish();
}

/**
 * Encrypts one module of a column chunk (the Encryption.md module type and the data page ordinal go into the AAD).
 * `ColumnEncryptor.encrypt` of `@parquetry/parquet-crypto` has this shape.
 */
export type PageEncrypt = (module: PageModule, page: number, plaintext: Uint8Array) => Promise<Uint8Array>;

/**
 * The stored bytes of an encrypted page: the encrypted header module, then the encrypted body module.
 * `compressed_page_size` counts the encrypted body, as readers locate the next page by it. A page written with a CRC
 * gets the CRC of its stored (encrypted) body in its (encrypted) header, as parquet-java and Arrow C++ write it: a
 * checksum of the plaintext would leak, and under AES_GCM_CTR_V1 the body has no tag of its own, so this CRC inside
 * the authenticated header is what catches a changed, swapped or substituted body.
 * @param page - the page (its `crc`, if any, replaced by the encrypted body's).
 * @param ordinal - the data page ordinal within the chunk (0 for the dictionary page).
 * @param encrypt - the column's module encryptor.
 * @returns `[header module, body module]`.
 * @throws ParquetError the encryptor's codes.
 */
export async function encryptedPageParts(page: WrittenPage, ordinal: number, encrypt: PageEncrypt): Promise<[Uint8Array, Uint8Array]> {
  const dict = page.header.type === PageType.DICTIONARY_PAGE;
  const body = await encrypt(dict ? PageModule.DICTIONARY_PAGE : PageModule.DATA_PAGE, ordinal, page.body);
  const header: PageHeader = { ...page.header, compressed_page_size: body.length };
  if (header.crc !== undefined) header.crc = crc32(body) | 0;
  const head = await encrypt(dict ? PageModule.DICTIONARY_PAGE_HEADER : PageModule.DATA_PAGE_HEADER, ordinal, pageHeaderBytes(header));
  return [head, body];
}
