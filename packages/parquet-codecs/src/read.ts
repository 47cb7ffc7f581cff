/**
 * `@parquetry/parquet-codecs/read` — what a reader's page decoding needs from this package, without the codecs: the
 * {@link Codec} interface, the page helpers ({@link decompressPage}, {@link prepareCodec}), lazy codecs
 * ({@link lazyCodec}), the page checksum ({@link crc32}) and the errors. No codec is reachable from this entry, so a
 * bundler that also loads a codec lazily (`@parquetry/parquet-codecs/lazy`, `@parquetry/codec-gzip/lazy`, …) keeps it
 * out of the initial load (esbuild places every module its entry can reach in the initial load once any chunk uses
 * it, and the main entry re-exports every codec). The codec packages import their shared parts from here too.
 *
 * @packageDocumentation
 */
export { ParquetError, isParquetError, CodecErrorCode } from './errors.js';
export { CompressionCodec, compressionCodecName, codecPackage } from './compression-codec.js';
export { type Codec, type CodecMap, MAX_PAGE_SIZE, decompressPage, compressPage, maxDecompressedSize, lazyCodec, prepareCodec, loadCodecs } from './codec.js';
export { crc32 } from './crc32.js';
