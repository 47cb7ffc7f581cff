/**
 * The page reader: the bytes of one column chunk → its pages, one at a time — page header (decrypted when the
 * column is encrypted), bounds, CRC32 check, body decryption and decompression. It knows nothing of levels or
 * values: {@link decodeColumnChunk} decodes those. The inverse is the page writer (`page-writer.ts`).
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md ("Data Pages", "Checksumming"),
 * parquet.thrift `PageHeader`, and Encryption.md (module types 2–5 and the page ordinal in the AAD).
 * Every size and count in a page header is untrusted and checked before it is used.
 *
 * @module
 */
import { crc32, decompressPage, prepareCodec, type CodecMap } from '@parquetry/parquet-codecs/read';
import { PageType, ParquetError, decodeThrift, isParquetError, readPageHeader, type PageHeader } from '@parquetry/thrift-compact';
import type { ReadBudget } from './budget.js';

/** Where a chunk is, for error messages. */
export interface ChunkLocation {
  /** Row group ordinal. */
  rowGroup: number;
  /** Dotted column path. */
  path: string;
  /** File offset of the chunk's first byte. */
  offset: number;
}

/** Module types of Encryption.md that a column chunk's pages use. */
export const PageModule = {
  /** A data page body. */
  DATA_PAGE: 2,
  /** A dictionary page body. */
  DICTIONARY_PAGE: 3,
  /** A data page header. */
  DATA_PAGE_HEADER: 4,
  /** A dictionary page header. */
  DICTIONARY_PAGE_HEADER: 5,
} as const;

/** One of {@link PageModule}. */
export type PageModule = (typeof PageModule)[keyof typeof PageModule];

/**
 * Decrypts one module of an encrypted chunk: `module` is the Encryption.md module type, `page` the data page
 * ordinal within the chunk (0 for the dictionary page).
 */
export type PageDecrypt = (module: PageModule, page: number, bytes: Uint8Array) => Promise<Uint8Array>;

/** Options of a {@link PageReader}. */
export interface PageReaderOptions {
  /** The chunk's `CompressionCodec` number. */
  codec: number;
  /** Codecs by CompressionCodec number. */
  codecs?: CodecMap | undefined;
  /** Verify page CRC32 checksums when present (default true). */
  verifyChecksums?: boolean | undefined;
  /** Largest number of values one page may claim (default 2^26). */
  maxPageValues?: number | undefined;
  /** Whether the chunk starts with a dictionary page (its header then has its own module type when encrypted). */
  hasDictionaryPage?: boolean | undefined;
  /** Decrypts the modules of an encrypted column chunk. */
  decrypt?: PageDecrypt | undefined;
  /** The read's budget, charged with each page's decompressed size before it is decompressed. */
  budget?: ReadBudget | undefined;
  /**
   * A buffer to decompress a page of `size` bytes into instead of a new one (its bytes are then a view of the buffer,
   * valid until the caller reuses it), or undefined for a new buffer. Asked before each compressed page.
   */
  scratch?: ((header: PageHeader, size: number) => Uint8Array | undefined) | undefined;
}

/** A page as read: its header and its bytes, decrypted and decompressed. */
export interface ReadPage {
  /** The page header. */
  header: PageHeader;
  /** Position of the header within the chunk bytes (for messages). */
  at: number;
  /**
   * Dictionary and V1 data pages: the whole decompressed page body. V2 data pages: the decompressed values section
   * only (the levels are in {@link ReadPage.levels}). Other page types: the raw body.
   */
  data: Uint8Array;
  /** V2 data pages: the level bytes (repetition then definition levels, never compressed); otherwise undefined. */
  levels: Uint8Array | undefined;
  /** The page's value count from its header (0 for other page types). */
  numValues: number;
}

let pageV2: Promise<typeof import('./page-v2.js')> | undefined;

/**
 * The data page V2 module (page-v2.ts), loaded on the first V2 page (a failed load is tried again next time).
 * @returns the module.
 * @throws ParquetError `ENCODING_UNAVAILABLE` when it cannot be loaded (as a rejected promise).
 * @internal
 */
export function loadPageV2(): Promise<typeof import('./page-v2.js')> {
  return (pageV2 ??= import('./page-v2.js').catch((e: unknown) => {
    pageV2 = undefined;
    throw new ParquetError('ENCODING_UNAVAILABLE', `parquet-column: cannot load the data page V2 decoder: ${String((e as Error)?.message ?? e)}`, undefined, { cause: e });
  }));
}

/** The default bound on the values one page may claim: a bound on allocations sized by untrusted headers. */
export const DEFAULT_MAX_PAGE_VALUES = 1 << 26;

/**
 * Reads the pages of one column chunk in order. Errors name the row group, column path, data page ordinal and file
 * offset.
 */
export class PageReader {
  /** Position of the next page header within the chunk bytes. */
  pos = 0;
  /** Data pages read so far (the ordinal of the next data page). */
  dataPages = 0;
  private readonly verify: boolean;
  private readonly maxPageValues: number;
  private first = true;

  /**
   * @param bytes - the chunk's bytes (from its first page header to the end of its last page).
   * @param where - the chunk's location, for messages.
   * @param options - codec, checksum verification, limits, decryption.
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly where: ChunkLocation,
    readonly options: PageReaderOptions,
  ) {
    this.verify = options.verifyChecksums ?? true;
    this.maxPageValues = options.maxPageValues ?? DEFAULT_MAX_PAGE_VALUES;
  }

  /** Whether bytes remain after the pages read so far. */
  get more(): boolean {
    return this.pos < this.bytes.length;
  }

  /**
   * Throws a ParquetError located at a position of the chunk.
   * @param code - the error code.
   * @param msg - what is wrong.
   * @param at - position within the chunk bytes.
   * @param cause - the underlying error.
   * @param page - the data page ordinal to name (default: the page being read, {@link PageReader.dataPages}).
   */
  fail(code: string, msg: string, at: number, cause?: unknown, page: number = this.dataPages): never {
    const { rowGroup, path, offset } = this.where;
    throw new ParquetError(
      code,
      `parquet-column: row group ${rowGroup}, column '${path}', page ${page} at byte ${offset + at}: ${msg}`,
      offset + at,
      cause === undefined ? undefined : { cause },
    );
  }

  /** Whether an error was already located by {@link PageReader.fail}. */
  static located(e: unknown): boolean {
    return isParquetError(e) && e.message.startsWith('parquet-column: row group');
  }

  /**
   * Reads the next page.
   * @param valuesLeft - the most values the page may hold (what its chunk's `num_values` leaves): a data page
   *   claiming more is `CORRUPT_PAGE` before anything of it is decompressed.
   * @returns the page, or undefined when the chunk bytes are exhausted.
   * @throws ParquetError `CORRUPT_PAGE` (also for a page type parquet.thrift does not define), `CHECKSUM_MISMATCH`,
   *   `LIMIT_EXCEEDED` (the decompressed size over the read's budget), the codec codes and the decryption codes,
   *   located.
   */
  async next(valuesLeft: number = Infinity): Promise<ReadPage | undefined> {
    const bytes = this.bytes;
    if (this.pos >= bytes.length) return undefined;
    const headerAt = this.pos;
    const decrypt = this.options.decrypt;
    let header: PageHeader;
    let bodyStart: number;
    const dictionaryFirst = this.first && this.options.hasDictionaryPage === true;
    this.first = false;
    try {
      if (decrypt) {
        // encrypted header module: 4-byte length + ciphertext
        const p = headerAt;
        const len = bytes.length - p >= 4 ? (bytes[p]! | (bytes[p + 1]! << 8) | (bytes[p + 2]! << 16) | (bytes[p + 3]! << 24)) >>> 0 : -1;
        if (len < 0 || len > bytes.length - p - 4) this.fail('CORRUPT_PAGE', `encrypted page header length ${len} exceeds the chunk`, p);
        const plain = await decrypt(dictionaryFirst ? PageModule.DICTIONARY_PAGE_HEADER : PageModule.DATA_PAGE_HEADER, this.dataPages, bytes.subarray(p, p + 4 + len));
        header = decodeThrift(readPageHeader, plain, 0, plain.length, 0).value;
        bodyStart = p + 4 + len;
      } else {
        const r = decodeThrift(readPageHeader, bytes, headerAt, bytes.length, this.where.offset);
        header = r.value;
        bodyStart = r.end;
      }
    } catch (e) {
      if (PageReader.located(e)) throw e;
      // decryption errors keep their code (DECRYPTION_FAILED, KEY_MISSING, …); a malformed header is CORRUPT_PAGE
      const code = isParquetError(e) && !/^(THRIFT_|EOF|VARINT_|INT64_)/.test(e.code) ? e.code : 'CORRUPT_PAGE';
      return this.fail(code, `cannot read the page header: ${(e as Error).message}`, headerAt, e);
    }
    const csize = header.compressed_page_size;
    if (!(csize >= 0) || csize > bytes.length - bodyStart) {
      this.fail('CORRUPT_PAGE', `compressed_page_size ${csize} exceeds the ${bytes.length - bodyStart} bytes left in the chunk`, headerAt);
    }
    let body = bytes.subarray(bodyStart, bodyStart + csize);
    this.pos = bodyStart + csize;
    const type = header.type;
    if (!(type >= PageType.DATA_PAGE && type <= PageType.DATA_PAGE_V2)) {
      // a page type outside the enum is a damaged header, never a page to skip: its values would silently go missing
      this.fail('CORRUPT_PAGE', `page type ${type} is not one parquet.thrift defines (0 DATA_PAGE, 1 INDEX_PAGE, 2 DICTIONARY_PAGE, 3 DATA_PAGE_V2)`, headerAt);
    }
    const isData = type === PageType.DATA_PAGE || type === PageType.DATA_PAGE_V2;
    if (this.verify && header.crc !== undefined && (isData || type === PageType.DICTIONARY_PAGE)) {
      const actual = crc32(body) | 0;
      if (actual !== header.crc) {
        this.fail('CHECKSUM_MISMATCH', `page CRC32 is ${(actual >>> 0).toString(16)}, the header says ${(header.crc >>> 0).toString(16)}`, headerAt);
      }
    }
    if (decrypt && type !== PageType.INDEX_PAGE) {
      try {
        body = await decrypt(type === PageType.DICTIONARY_PAGE ? PageModule.DICTIONARY_PAGE : PageModule.DATA_PAGE, this.dataPages, body);
      } catch (e) {
        this.fail(isParquetError(e) ? e.code : 'DECRYPTION_FAILED', `cannot decrypt the page: ${(e as Error).message}`, headerAt, e);
      }
    }
    const usize = header.uncompressed_page_size;
    const codec = this.options.codec;
    const bodyOffset = this.where.offset + bodyStart;
    try {
      switch (type) {
        case PageType.DICTIONARY_PAGE: {
          const dh = header.dictionary_page_header;
          if (!dh) this.fail('CORRUPT_PAGE', 'dictionary page without dictionary_page_header', headerAt);
          this.checkCount(dh!.num_values, 'dictionary page', headerAt, Infinity);
          return { header, at: headerAt, data: await this.inflate(header, body, usize, bodyOffset, codec !== 0), levels: undefined, numValues: dh!.num_values };
        }
        case PageType.DATA_PAGE: {
          const dh = header.data_page_header;
          if (!dh) this.fail('CORRUPT_PAGE', 'data page without data_page_header', headerAt);
          this.checkCount(dh!.num_values, 'data page', headerAt, valuesLeft);
          const data = await this.inflate(header, body, usize, bodyOffset, codec !== 0);
          this.dataPages++;
          return { header, at: headerAt, data, levels: undefined, numValues: dh!.num_values };
        }
        case PageType.DATA_PAGE_V2: {
          // (its own module, loaded on the first V2 page: few writers produce them)
          const page = await (await loadPageV2()).readPageV2(header, body, {
            fail: (msg) => this.fail('CORRUPT_PAGE', msg, headerAt),
            count: (n) => this.checkCount(n, 'data page V2', headerAt, valuesLeft),
            inflate: (values, size, at) => this.inflate(header, values, size, bodyOffset + at, true),
          });
          this.dataPages++;
          return { header, at: headerAt, ...page };
        }
        default:
          // INDEX_PAGE carries nothing a reader needs
          return { header, at: headerAt, data: body, levels: undefined, numValues: 0 };
      }
    } catch (e) {
      if (PageReader.located(e)) throw e;
      if (isParquetError(e)) this.fail(e.code, e.message, headerAt, e);
      return this.fail('CORRUPT_PAGE', String((e as Error)?.message ?? e), headerAt, e);
    }
  }

  /**
   * Decompresses a page body (or a V2 page's values) of `size` bytes once decompressed, the budget charged with them
   * first when `charge` is set, and the codec loaded first when it is loaded on first use.
   */
  private async inflate(header: PageHeader, body: Uint8Array, size: number, offset: number, charge: boolean): Promise<Uint8Array> {
    const { codec, codecs, budget } = this.options;
    if (charge && budget) budget.charge(0, size, this.place());
    const ready = prepareCodec(codecs, codec, size); // a codec loaded on first use: loaded before its first page
    if (ready !== undefined) await ready;
    return decompressPage(codecs, codec, body, size, offset, this.scratchFor(header, size));
  }

  /** The caller's buffer for a compressed page (none for UNCOMPRESSED, whose bytes are a view of the chunk's). */
  private scratchFor(header: PageHeader, size: number): Uint8Array | undefined {
    return this.options.codec === 0 ? undefined : this.options.scratch?.(header, size);
  }

  private checkCount(n: number, what: string, at: number, left: number): void {
    if (!(n >= 0 && n <= this.maxPageValues)) this.fail('CORRUPT_PAGE', `${what} claims ${n} values, more than the limit ${this.maxPageValues}`, at);
    if (n > left) this.fail('CORRUPT_PAGE', `${what} claims ${n} values, but only ${left} of the chunk's num_values are left`, at);
  }

  /** The page being read, for budget messages. */
  private place(): string {
    return `row group ${this.where.rowGroup}, column '${this.where.path}', page ${this.dataPages}`;
  }
}
