/**
 * `@parquetry/codec-gzip/lazy` — the GZIP codec (fflate) loaded on the first GZIP page a reader meets: in a browser
 * bundle, fflate and the codec are a lazy chunk (`import()`) fetched only when a file is GZIP.
 *
 * ```ts
 * import { lazyBuiltinCodecs } from '@parquetry/parquet-codecs/lazy';
 * import { lazyGzipCodec } from '@parquetry/codec-gzip/lazy';
 * const file = await openParquet(await fetchSource(url), { codecs: lazyBuiltinCodecs(lazyGzipCodec()) });
 * ```
 *
 * Import from this subpath, not from the package's main entry (which holds the codec itself).
 * @module
 */
import { type Codec, CodecErrorCode, CompressionCodec, ParquetError, lazyCodec } from '@parquetry/parquet-codecs/read';
import type { GzipCodecOptions } from './gzip.js';

/**
 * The GZIP codec (`createGzipCodec(options)` of `@parquetry/codec-gzip`) loaded on first use: readers await its load
 * before the first GZIP page (through `prepareCodec` of `@parquetry/parquet-codecs`); a load that fails is
 * `CODEC_UNAVAILABLE` for the GZIP pages only, tried again on the next read. A writer must await its `load()` before
 * compressing (`loadCodecs` of `@parquetry/parquet-codecs`): until then `compress` throws `CODEC_UNAVAILABLE`.
 * @param options - the compression level (0..9, default 6; checked now).
 * @returns a new lazy codec, under `CompressionCodec.GZIP`.
 * @throws ParquetError `CODEC_SIZE` when the level is not an integer 0..9.
 */
export function lazyGzipCodec(options: GzipCodecOptions = {}): Codec {
  const level = options.level;
  if (level !== undefined && !(Number.isInteger(level) && level >= 0 && level <= 9)) {
    throw new ParquetError(CodecErrorCode.SIZE, `codec-gzip: compression level ${level}, expected an integer 0..9`);
  }
  return lazyCodec(CompressionCodec.GZIP, 'the GZIP codec (fflate), a lazy chunk', async () => (await import('./gzip.js')).createGzipCodec(options));
}
