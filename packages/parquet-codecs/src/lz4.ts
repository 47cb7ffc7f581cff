/**
 * The two LZ4 codecs of parquet.thrift: `LZ4_RAW` (one LZ4 block per page) and the deprecated `LZ4` (Hadoop's
 * block framing around LZ4 blocks; on read, a page whose framing does not parse is read as one raw LZ4 block,
 * because some writers — older Arrow C++ among them — wrote that, and arrow-rs and Arrow C++ read it the same way).
 * Spec: https://github.com/apache/parquet-format/blob/master/Compression.md (LZ4, LZ4_RAW)
 */
import { CompressionCodec } from './compression-codec.js';
import type { Codec } from './codec.js';
import { decodeHadoopFramedOrBare, encodeHadoopFramed } from './hadoop-framing.js';
import { lz4CompressBlock, lz4CompressBound, lz4DecompressBlock } from './lz4-block.js';

/** Uncompressed bytes per Hadoop block when writing (Hadoop's decompressor buffer defaults to 256 KiB). */
export const HADOOP_BLOCK_SIZE = 128 * 1024;

/**
 * Decompresses one raw LZ4 block (the whole of `src`) into `out`.
 * @param src - one LZ4 block.
 * @param out - destination; its length bounds the output.
 * @returns bytes written.
 * @throws ParquetError `CODEC_CORRUPT`, `CODEC_OVERRUN`.
 */
export function lz4RawDecompress(src: Uint8Array, out: Uint8Array): number {
  return lz4DecompressBlock(src, 0, src.length, out, 0, out.length);
}

/**
 * Compresses `src` into one raw LZ4 block.
 * @param src - bytes to compress.
 * @returns the block.
 */
export function lz4RawCompress(src: Uint8Array): Uint8Array {
  const out = new Uint8Array(lz4CompressBound(src.length));
  return out.slice(0, lz4CompressBlock(src, 0, src.length, out, 0));
}

/**
 * Decompresses a Hadoop-framed LZ4 page, falling back to reading it as one raw LZ4 block when the framing does
 * not parse or does not fill `out` exactly.
 * @param src - the page bytes.
 * @param out - destination; its length bounds the output.
 * @returns bytes written.
 * @throws ParquetError `CODEC_CORRUPT` when the page is neither, `CODEC_OVERRUN`.
 */
export function lz4HadoopDecompress(src: Uint8Array, out: Uint8Array): number {
  return decodeHadoopFramedOrBare('LZ4', 'one raw LZ4 block', src, out, lz4DecompressBlock);
}

/**
 * Compresses `src` as Hadoop-framed LZ4 (blocks of {@link HADOOP_BLOCK_SIZE} bytes, one LZ4 block each), the form
 * parquet-mr, Arrow C++ and arrow-rs read for the deprecated `LZ4` codec.
 * @param src - bytes to compress.
 * @returns the framed stream.
 */
export function lz4HadoopCompress(src: Uint8Array): Uint8Array {
  return encodeHadoopFramed(src, HADOOP_BLOCK_SIZE, lz4CompressBound, lz4CompressBlock);
}

/** The LZ4_RAW codec (pure TypeScript, both directions). */
export const lz4RawCodec: Codec = {
  codec: CompressionCodec.LZ4_RAW,
  decompress: lz4RawDecompress,
  compress: lz4RawCompress,
};

/** The deprecated LZ4 codec: Hadoop framing, with a raw-block fallback on read (pure TypeScript, both directions). */
export const lz4HadoopCodec: Codec = {
  codec: CompressionCodec.LZ4,
  decompress: lz4HadoopDecompress,
  compress: lz4HadoopCompress,
};
