/**
 * The `CompressionCodec` enum of parquet.thrift, as this package's own constant (it sits below
 * `@parquetry/thrift-compact`, whose generated `CompressionCodec` has the same numbers).
 * Spec: https://github.com/apache/parquet-format/blob/master/Compression.md
 */

/** Compression codec numbers, exactly as parquet.thrift's `CompressionCodec`. */
export const CompressionCodec = {
  UNCOMPRESSED: 0,
  SNAPPY: 1,
  GZIP: 2,
  LZO: 3,
  BROTLI: 4,
  /** Deprecated by the spec: LZ4 with Hadoop's block framing (or, from some writers, a raw LZ4 block). */
  LZ4: 5,
  ZSTD: 6,
  LZ4_RAW: 7,
} as const;
/** One of {@link CompressionCodec}'s numbers. */
export type CompressionCodec = (typeof CompressionCodec)[keyof typeof CompressionCodec];

const NAMES = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'LZO', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW'] as const;

/**
 * The parquet.thrift name of a codec number (`'ZSTD'` for 6), or `'codec <n>'` for a number it does not define.
 * @param codec - a codec number, possibly from an untrusted file.
 * @returns the name, for messages.
 */
export function compressionCodecName(codec: number): string {
  return NAMES[codec] ?? `codec ${codec}`;
}

/**
 * The npm package that provides a codec, for "install it" messages.
 * @param codec - a codec number.
 * @returns the package name, or undefined for numbers parquet.thrift does not define.
 */
export function codecPackage(codec: number): string | undefined {
  switch (codec) {
    case CompressionCodec.GZIP:
      return '@parquetry/codec-gzip';
    case CompressionCodec.ZSTD:
      return '@parquetry/codec-zstd';
    case CompressionCodec.BROTLI:
      return '@parquetry/codec-brotli';
    case CompressionCodec.UNCOMPRESSED:
    case CompressionCodec.SNAPPY:
    case CompressionCodec.LZO:
    case CompressionCodec.LZ4:
    case CompressionCodec.LZ4_RAW:
      return '@parquetry/parquet-codecs';
    default:
      return undefined;
  }
}
