/**
 * `@parquetry/parquet-encodings` — every Parquet value encoding (PLAIN, RLE hybrid, dictionary,
 * DELTA_*, BYTE_STREAM_SPLIT, ALP), decode and encode, on columnar typed arrays.
 *
 * @packageDocumentation
 */
export { decodeRleHybrid, decodeRleHybridPrefixed, encodeRleHybrid, encodeRleHybridPrefixed, bitWidthOf } from './rle-hybrid.js';
export { decodeBitPacked, encodeBitPacked } from './bit-packed.js';
