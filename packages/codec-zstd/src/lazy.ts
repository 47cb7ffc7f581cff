/**
 * `@parquetry/codec-zstd/lazy` — the ZSTD decoder (pure TypeScript, no WebAssembly) loaded on the first ZSTD page a
 * reader meets: in a browser bundle, our decoder is a lazy chunk (`import()`) fetched only when a file is ZSTD.
 *
 * ```ts
 * import { lazyBuiltinCodecs } from '@parquetry/parquet-codecs/lazy';
 * import { lazyZstdDecoder } from '@parquetry/codec-zstd/lazy';
 * const file = await openParquet(await fetchSource(url), { codecs: lazyBuiltinCodecs(lazyZstdDecoder()) });
 * ```
 *
 * Import from this subpath, not from the package's main entry (which holds the decoder and the WebAssembly loader).
 * @module
 */
import { type Codec, CompressionCodec, lazyCodec } from '@parquetry/parquet-codecs/read';

/**
 * The decode-only ZSTD codec (`zstdDecoder` of `@parquetry/codec-zstd`) loaded on first use: readers await its load
 * before the first ZSTD page (through `prepareCodec` of `@parquetry/parquet-codecs`); a load that fails is
 * `CODEC_UNAVAILABLE` for the ZSTD pages only, tried again on the next read. Its `compress` throws `CODEC_MISSING`
 * once loaded (`CODEC_UNAVAILABLE` before): write ZSTD with `createZstdCodec()`.
 * @returns a new lazy codec for the `codecs` option of a reader, under `CompressionCodec.ZSTD`.
 */
export function lazyZstdDecoder(): Codec {
  return lazyCodec(CompressionCodec.ZSTD, 'the ZSTD decoder, a lazy chunk', async () => (await import('./zstd-decoder.js')).zstdDecoder);
}
