/**
 * Compression and the page checksum in one call: a Parquet writer that stores page CRCs (`PageHeader.crc`, the
 * CRC-32 of the page body as stored) asks the codec for both, so a codec that compresses into memory of its own
 * (the SNAPPY WebAssembly kernel) checksums the bytes there, before they are copied out.
 * @module
 */
import { compressPage, type Codec, type CodecMap } from './codec.js';
import { CompressionCodec } from './compression-codec.js';
import { crc32 } from './crc32.js';

/** Compressed bytes and the CRC-32 of those bytes. */
export interface CompressedWithCrc {
  /** The compressed bytes. */
  bytes: Uint8Array;
  /** The CRC-32 of `bytes`, unsigned (as {@link crc32} gives it; `| 0` gives parquet.thrift's signed `i32 crc`). */
  crc: number;
}

/** A {@link Codec} that can also give the CRC-32 of what it compressed ({@link snappyCodec} does). */
export interface CodecWithCrc extends Codec {
  /**
   * Compresses one whole page, as `compress`, and gives the CRC-32 of the result with it.
   * @param src - the uncompressed bytes.
   * @returns a new array holding the compressed bytes (the bytes `compress` gives), and their CRC-32.
   */
  compressWithCrc(src: Uint8Array): CompressedWithCrc;
}

/**
 * Compresses one page as {@link compressPage} does and gives the CRC-32 of the result: from the codec when it has
 * `compressWithCrc` ({@link CodecWithCrc}), else computed with {@link crc32} over the compressed bytes.
 * @param codecs - the codecs available (UNCOMPRESSED needs none).
 * @param codec - the `CompressionCodec` number.
 * @param src - the uncompressed bytes.
 * @returns the compressed bytes (for UNCOMPRESSED, `src` itself) and their CRC-32.
 * @throws ParquetError `CODEC_MISSING` / `CODEC_UNKNOWN` as {@link compressPage}, and the codec's own errors.
 */
export function compressPageWithCrc(codecs: CodecMap | undefined, codec: number, src: Uint8Array): CompressedWithCrc {
  if (codec !== CompressionCodec.UNCOMPRESSED) {
    const impl = codecs?.[codec as CompressionCodec] as Partial<CodecWithCrc> | undefined;
    if (impl !== undefined && typeof impl.compressWithCrc === 'function') return impl.compressWithCrc(src);
  }
  const bytes = compressPage(codecs, codec, src);
  return { bytes, crc: crc32(bytes) };
}
