/**
 * `@parquetry/parquet-codecs` — the Parquet compression Codec interface, the page-level bounds checks, and
 * dependency-free TypeScript codecs: SNAPPY, LZ4_RAW, LZ4 (Hadoop framing, raw fallback) and LZO (LZO1X).
 *
 * - {@link Codec} / {@link CodecMap}: what a reader or writer is given in its options (no global registry).
 * - {@link decompressPage} / {@link compressPage}: decompress exactly the size a page header declares.
 * - {@link lazyCodec}, {@link prepareCodec}, {@link loadCodecs}: codecs loaded on first use (WebAssembly, lazy chunks).
 * - {@link snappyCodec}, {@link lz4RawCodec}, {@link lz4HadoopCodec}, {@link lzoCodec}, {@link builtinCodecs}; {@link snappyDecoder}
 *   for readers (decompression only: no compressor in their bundle).
 * - {@link crc32}: the CRC-32 of gzip trailers and Parquet page checksums; {@link compressPageOwned}: a page compressed
 *   (and checksummed) for a writer, copied once out of the codec's memory into the writer's (the SNAPPY kernel
 *   checksums its output in its own memory).
 * - GZIP, ZSTD and BROTLI live in `@parquetry/codec-gzip`, `@parquetry/codec-zstd`, `@parquetry/codec-brotli`.
 *
 * @packageDocumentation
 */
import type { CodecMap } from './codec.js';
import { lz4HadoopCodec, lz4RawCodec } from './lz4.js';
import { lzoCodec } from './lzo.js';
import { snappyCodec } from './snappy.js';

export { ParquetError, isParquetError, CodecErrorCode } from './errors.js';
export { CompressionCodec, compressionCodecName, codecPackage } from './compression-codec.js';
export { type Codec, type CodecMap, MAX_PAGE_SIZE, decompressPage, compressPage, maxDecompressedSize, lazyCodec, prepareCodec, loadCodecs } from './codec.js';
export { snappyCodec, snappyDecoder, snappyCompress, snappyDecompress, snappyUncompressedLength } from './snappy.js';
export { lz4DecompressBlock, lz4CompressBlock, lz4CompressBound } from './lz4-block.js';
export { lz4RawCodec, lz4HadoopCodec, lz4RawCompress, lz4RawDecompress, lz4HadoopCompress, lz4HadoopDecompress, HADOOP_BLOCK_SIZE } from './lz4.js';
export { lzoCodec, lzoCompress, lzoDecompress, lzo1xCompress, lzo1xDecompress, lzo1xCompressBound } from './lzo.js';
export { crc32 } from './crc32.js';
export { compressPageOwned, type CodecWithScratch, type CompressedPage } from './compress-page.js';
export { decodeHadoopFramed, encodeHadoopFramed, type ChunkDecoder, type ChunkEncoder } from './hadoop-framing.js';

/**
 * The codecs this package implements itself: SNAPPY, LZ4, LZ4_RAW and LZO.
 * @returns a new map (add GZIP, ZSTD and BROTLI from their packages, or use `parquetry`'s preset).
 */
export function builtinCodecs(): CodecMap {
  return { [snappyCodec.codec]: snappyCodec, [lz4HadoopCodec.codec]: lz4HadoopCodec, [lz4RawCodec.codec]: lz4RawCodec, [lzoCodec.codec]: lzoCodec };
}
