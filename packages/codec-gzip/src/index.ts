/**
 * `@parquetry/codec-gzip` — the GZIP compression codec for Parquetry, on fflate (pure JavaScript, Node and
 * browsers). Decodes multi-member streams, checks the CRC32, and never writes past the page's declared size.
 *
 * ```ts
 * import { gzipCodec } from '@parquetry/codec-gzip';
 * const codecs = { ...builtinCodecs(), [gzipCodec.codec]: gzipCodec };
 * ```
 *
 * @packageDocumentation
 */
export { gzipCodec, createGzipCodec, gzipDecompress, type GzipCodecOptions } from './gzip.js';
/** The CRC-32 gzip trailers carry (re-exported from `@parquetry/parquet-codecs`). */
export { crc32 } from '@parquetry/parquet-codecs';
