/**
 * Bloom filter data on disk: a Thrift `BloomFilterHeader` followed by the bitset
 * (BloomFilter.md, "File Format",
 * https://github.com/apache/parquet-format/blob/master/BloomFilter.md#file-format).
 *
 * ```
 * struct BloomFilterHeader {
 *   1: required i32 numBytes;                         // bitset size in bytes
 *   2: required BloomFilterAlgorithm algorithm;       // union { 1: SplitBlockAlgorithm BLOCK }
 *   3: required BloomFilterHash hash;                 // union { 1: XxHash XXHASH }
 *   4: required BloomFilterCompression compression;   // union { 1: Uncompressed UNCOMPRESSED }
 * }
 * ColumnMetaData 14: optional i64 bloom_filter_offset;  // file offset of the header
 * ColumnMetaData 15: optional i32 bloom_filter_length;  // header + bitset; absent in files before 2.10
 * ```
 *
 * Encrypted bloom filters (module types 8 and 9 of Encryption.md) are not handled here.
 *
 * @module
 */
import {
  ParquetError,
  decodeThrift,
  encodeThrift,
  isParquetError,
  readBloomFilterHeader,
  writeBloomFilterHeader,
  type BloomFilterHeader,
  type ColumnMetaData,
} from '@parquetry/thrift-compact';
import { BLOOM_DEFAULT_MAX_BYTES, BLOOM_MIN_BYTES, SplitBlockBloomFilter } from './sbbf.js';

/** Options for reading bloom filter data. */
export interface ReadBloomFilterOptions {
  /** Largest bitset accepted, in bytes (default 128 MiB); a larger `numBytes` throws `BLOOM_BAD_SIZE`. */
  maxBytes?: number;
  /** File offset of `bytes[0]`, so that error offsets refer to the file (default 0). */
  baseOffset?: number;
}

/** The result of {@link readBloomFilterData}. */
export interface BloomFilterData {
  /** The decoded header. */
  header: BloomFilterHeader;
  /** The filter, holding a copy of the bitset. */
  filter: SplitBlockBloomFilter;
  /** Position just after the bitset. */
  end: number;
}

/**
 * The header our writer emits: split-block algorithm, XXH64, uncompressed.
 * @param numBytes - bitset size in bytes.
 * @returns the header struct.
 */
export function bloomFilterHeaderFor(numBytes: number): BloomFilterHeader {
  return { numBytes, algorithm: { BLOCK: {} }, hash: { XXHASH: {} }, compression: { UNCOMPRESSED: {} } };
}

/**
 * Serializes a filter as Parquet bloom filter data: the Thrift compact `BloomFilterHeader`
 * followed by the bitset. Write these bytes at `bloom_filter_offset` and their length as
 * `bloom_filter_length`.
 *
 * @param filter - the filter.
 * @returns header + bitset, a new array.
 */
export function serializeBloomFilter(filter: SplitBlockBloomFilter): Uint8Array {
  const header = encodeThrift(writeBloomFilterHeader, bloomFilterHeaderFor(filter.numBytes));
  const out = new Uint8Array(header.length + filter.numBytes);
  out.set(header, 0);
  out.set(filter.bitset(), header.length);
  return out;
}

/**
 * Checks a decoded header: split-block, XXH64, uncompressed, and a power-of-two size within bounds.
 * @param h - the header.
 * @param maxBytes - largest accepted bitset.
 * @param offset - file offset of the header, for messages.
 * @throws ParquetError `BLOOM_UNSUPPORTED` (unknown algorithm, hash or compression) or `BLOOM_BAD_SIZE`.
 */
function checkHeader(h: BloomFilterHeader, maxBytes: number, offset: number): void {
  if (h.algorithm.BLOCK === undefined) {
    throw new ParquetError('BLOOM_UNSUPPORTED', `parquet-bloom: bloom filter at byte ${offset} uses an unknown algorithm, expected BLOCK`, offset);
  }
  if (h.hash.XXHASH === undefined) {
    throw new ParquetError('BLOOM_UNSUPPORTED', `parquet-bloom: bloom filter at byte ${offset} uses an unknown hash, expected XXHASH`, offset);
  }
  if (h.compression.UNCOMPRESSED === undefined) {
    throw new ParquetError(
      'BLOOM_UNSUPPORTED',
      `parquet-bloom: bloom filter at byte ${offset} uses an unknown compression, expected UNCOMPRESSED`,
      offset,
    );
  }
  const n = h.numBytes;
  if (!(n >= BLOOM_MIN_BYTES && n <= maxBytes && (n & (n - 1)) === 0)) {
    throw new ParquetError(
      'BLOOM_BAD_SIZE',
      `parquet-bloom: bloom filter at byte ${offset} declares numBytes ${n}, expected a power of two in [${BLOOM_MIN_BYTES}, ${maxBytes}]`,
      offset,
    );
  }
}

function resolveMax(opts: ReadBloomFilterOptions | undefined): number {
  const m = opts?.maxBytes ?? BLOOM_DEFAULT_MAX_BYTES;
  if (!(Number.isInteger(m) && m >= BLOOM_MIN_BYTES)) {
    throw new ParquetError('BLOOM_INVALID_ARGUMENT', `parquet-bloom: maxBytes must be an integer >= ${BLOOM_MIN_BYTES}, got ${m}`);
  }
  return m;
}

/**
 * Reads bloom filter data (header, then `numBytes` of bitset) from `bytes[pos, end)`.
 *
 * @param bytes - buffer holding the data.
 * @param pos - where the header starts (default 0).
 * @param end - exclusive end of the readable region (default `bytes.length`).
 * @param opts - size cap and base offset.
 * @returns the header, the filter and the position after the bitset.
 * @throws ParquetError `BLOOM_UNSUPPORTED` (unknown algorithm/hash/compression), `BLOOM_BAD_SIZE`
 *   (numBytes not a power of two in [32, maxBytes]), `EOF` (truncated header or bitset), or a
 *   thrift-compact code (`THRIFT_*`, `VARINT_TOO_LONG`) for a malformed header.
 */
export function readBloomFilterData(bytes: Uint8Array, pos = 0, end: number = bytes.length, opts?: ReadBloomFilterOptions): BloomFilterData {
  const maxBytes = resolveMax(opts);
  const base = opts?.baseOffset ?? 0;
  const { value: header, end: headerEnd } = decodeThrift(readBloomFilterHeader, bytes, pos, end, base);
  checkHeader(header, maxBytes, base + pos);
  const n = header.numBytes;
  if (end - headerEnd < n) {
    throw new ParquetError(
      'EOF',
      `parquet-bloom: bloom filter bitset at byte ${base + headerEnd} truncated: header declares ${n} bytes, ${end - headerEnd} available`,
      base + headerEnd,
    );
  }
  const filter = SplitBlockBloomFilter.fromBitset(bytes.subarray(headerEnd, headerEnd + n));
  return { header, filter, end: headerEnd + n };
}

/** A random-access byte source (the shape of @parquetry/parquet-reader's `ByteSource`). */
export interface BloomByteSource {
  /** Total size in bytes. */
  readonly byteLength: number;
  /**
   * Reads bytes `[start, end)`.
   * @param start - first byte.
   * @param end - exclusive end.
   */
  read(start: number, end: number): Promise<Uint8Array>;
}

/** First guess at a header's size when `bloom_filter_length` is absent; our own headers are 16–20 bytes. */
const HEADER_GUESS = 64;
/** Give up on a header that does not decode within this many bytes. */
const HEADER_LIMIT = 4096;

function bloomLocation(meta: ColumnMetaData, fileLength: number): { offset: number; length: number | undefined } | undefined {
  const offset = meta.bloom_filter_offset;
  if (offset === undefined) return undefined;
  const length = meta.bloom_filter_length;
  const col = meta.path_in_schema.join('.');
  if (!(Number.isInteger(offset) && offset >= 0 && offset < fileLength)) {
    throw new ParquetError('BLOOM_BAD_OFFSET', `parquet-bloom: column ${col}: bloom_filter_offset ${offset} is outside the file of ${fileLength} bytes`, offset);
  }
  if (length !== undefined && !(length > 0 && offset + length <= fileLength)) {
    throw new ParquetError(
      'BLOOM_BAD_OFFSET',
      `parquet-bloom: column ${col}: bloom filter [${offset}, ${offset + length}) is outside the file of ${fileLength} bytes`,
      offset,
    );
  }
  return { offset, length };
}

/**
 * Reads the bloom filter of one column chunk from a whole file in memory.
 *
 * @param file - the whole Parquet file.
 * @param meta - the column chunk's `ColumnMetaData` (from the footer).
 * @param opts - size cap (`baseOffset` is ignored: offsets are file offsets).
 * @returns the filter, or `undefined` when the column chunk has no `bloom_filter_offset`.
 * @throws ParquetError `BLOOM_BAD_OFFSET`, plus everything {@link readBloomFilterData} throws.
 */
export function readColumnBloomFilterSync(file: Uint8Array, meta: ColumnMetaData, opts?: ReadBloomFilterOptions): SplitBlockBloomFilter | undefined {
  const loc = bloomLocation(meta, file.length);
  if (loc === undefined) return undefined;
  const end = loc.length === undefined ? file.length : loc.offset + loc.length;
  return readBloomFilterData(file, loc.offset, end, { ...opts, baseOffset: 0 }).filter;
}

/**
 * Reads the bloom filter of one column chunk from a random-access source.
 *
 * With `bloom_filter_length` this is one read. Without it (files before format 2.10) the
 * header is read first, from a small prefix that grows if the header does not fit, and
 * then the `numBytes` bitset it declares.
 *
 * @param src - the file.
 * @param meta - the column chunk's `ColumnMetaData` (from the footer).
 * @param opts - size cap.
 * @returns the filter, or `undefined` when the column chunk has no `bloom_filter_offset`.
 * @throws ParquetError `BLOOM_BAD_OFFSET`, plus everything {@link readBloomFilterData} throws.
 */
export async function readColumnBloomFilter(
  src: BloomByteSource,
  meta: ColumnMetaData,
  opts?: ReadBloomFilterOptions,
): Promise<SplitBlockBloomFilter | undefined> {
  const size = src.byteLength;
  const loc = bloomLocation(meta, size);
  if (loc === undefined) return undefined;
  const { offset } = loc;
  if (loc.length !== undefined) {
    const bytes = await src.read(offset, offset + loc.length);
    return readBloomFilterData(bytes, 0, bytes.length, { ...opts, baseOffset: offset }).filter;
  }
  const maxBytes = resolveMax(opts);
  let want = HEADER_GUESS;
  for (;;) {
    const prefixEnd = Math.min(size, offset + want);
    const prefix = await src.read(offset, prefixEnd);
    let decoded: { value: BloomFilterHeader; end: number };
    try {
      decoded = decodeThrift(readBloomFilterHeader, prefix, 0, prefix.length, offset);
    } catch (e) {
      // A header cut by our prefix (not by the file) is retried with a longer prefix: the cut
      // shows as EOF, or as a length running past the end of what we read.
      if (isParquetError(e) && (e.code === 'EOF' || e.code === 'THRIFT_BAD_LENGTH') && prefixEnd < size && want < HEADER_LIMIT) {
        want *= 4;
        continue;
      }
      throw e;
    }
    checkHeader(decoded.value, maxBytes, offset);
    const bitsetStart = offset + decoded.end;
    const n = decoded.value.numBytes;
    if (size - bitsetStart < n) {
      throw new ParquetError(
        'EOF',
        `parquet-bloom: bloom filter bitset at byte ${bitsetStart} truncated: header declares ${n} bytes, file has ${size - bitsetStart} left`,
        bitsetStart,
      );
    }
    // The prefix may already hold (part of) the bitset; a second read keeps the code simple.
    const bitset = await src.read(bitsetStart, bitsetStart + n);
    if (bitset.length !== n) {
      throw new ParquetError('EOF', `parquet-bloom: short read of bloom filter bitset at byte ${bitsetStart}: wanted ${n}, got ${bitset.length}`, bitsetStart);
    }
    return SplitBlockBloomFilter.fromBitset(bitset);
  }
}
