/**
 * Every compression codec of parquet.thrift, preset: the pure-TypeScript ones of `@parquetry/parquet-codecs`
 * (SNAPPY, LZ4, LZ4_RAW, LZO) plus GZIP, ZSTD and BROTLI from their packages.
 * Spec: https://github.com/apache/parquet-format/blob/master/Compression.md
 */
import { createBrotliCodec } from '@parquetry/codec-brotli';
import { createGzipCodec } from '@parquetry/codec-gzip';
import { createZstdCodec, zstdDecoder } from '@parquetry/codec-zstd';
import { type CodecMap, CompressionCodec, builtinCodecs } from '@parquetry/parquet-codecs';
import { checkOptions } from '@parquetry/thrift-compact/check-options';
import { ALL_CODECS_RULES } from './options.js';

/** Options of {@link allCodecs}: the compression levels writers use (reading ignores them). */
export interface AllCodecsOptions {
  /** GZIP level 0..9 (default 6). */
  gzipLevel?: number;
  /** ZSTD level 1..22 (default 3). */
  zstdLevel?: number;
  /** BROTLI quality 0..11 (default 5). */
  brotliQuality?: number;
}

/**
 * Every codec, both directions: SNAPPY, GZIP, LZO, BROTLI, LZ4, ZSTD and LZ4_RAW. Async because the ZSTD
 * compressor and the BROTLI codec are WebAssembly modules, instantiated on the first call.
 * @param options - compression levels.
 * @returns a new codec map for the `codecs` option of readers and writers.
 * @throws ParquetError `INVALID_OPTION` for an option it does not take (naming the nearest one and its list) or a
 *   value of the wrong kind, `CODEC_SIZE` for an out-of-range level (as a rejected promise).
 */
export async function allCodecs(options: AllCodecsOptions = {}): Promise<CodecMap> {
  checkOptions(options, ALL_CODECS_RULES, 'parquetry: allCodecs', 'INVALID_OPTION');
  const [zstd, brotli] = await Promise.all([
    createZstdCodec(options.zstdLevel === undefined ? {} : { level: options.zstdLevel }),
    createBrotliCodec(options.brotliQuality === undefined ? {} : { quality: options.brotliQuality }),
  ]);
  return {
    ...builtinCodecs(),
    [CompressionCodec.GZIP]: createGzipCodec(options.gzipLevel === undefined ? {} : { level: options.gzipLevel }),
    [CompressionCodec.ZSTD]: zstd,
    [CompressionCodec.BROTLI]: brotli,
  };
}

/**
 * Every codec that needs no WebAssembly, synchronously: all but BROTLI, with ZSTD for decompression only.
 * Use {@link allCodecs} to write ZSTD or to read or write BROTLI.
 * @returns a new codec map.
 */
export function syncCodecs(): CodecMap {
  return { ...builtinCodecs(), [CompressionCodec.GZIP]: createGzipCodec(), [CompressionCodec.ZSTD]: zstdDecoder };
}
