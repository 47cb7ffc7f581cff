/**
 * `@parquetry/parquet-codecs/lazy` — this package's codecs for a browser reader, each but SNAPPY loaded on the first
 * page that needs it: the LZ4, LZ4_RAW and LZO code is a lazy chunk (`import()`) of the reader's bundle, so an app
 * that accepts files of any codec pays for those codecs only when a file uses them. SNAPPY, the codec of most files,
 * is in the initial load (decompression only).
 *
 * ```ts
 * import { lazyBuiltinCodecs } from '@parquetry/parquet-codecs/lazy';
 * import { lazyGzipCodec } from '@parquetry/codec-gzip/lazy';
 * import { lazyZstdDecoder } from '@parquetry/codec-zstd/lazy';
 * // SNAPPY now; LZ4, LZ4_RAW, LZO, GZIP and ZSTD on the first page of each
 * const codecs = lazyBuiltinCodecs(lazyGzipCodec(), lazyZstdDecoder());
 * const file = await openParquet(await fetchSource(url), { codecs });
 * ```
 *
 * Readers await each codec's load before its first page (see {@link "@parquetry/parquet-codecs"!lazyCodec | lazyCodec}); a load
 * that fails (a chunk that cannot be fetched) is `CODEC_UNAVAILABLE` for the pages of that codec only, and is tried
 * again on the next read. Import from this subpath, not from the package's main entry: a bundle that also imports
 * `lz4RawCodec` or `lzoCodec` statically holds them in its initial load whatever this module does.
 * @module
 */
import { lazyCodec, type Codec, type CodecMap } from './codec.js';
import { CompressionCodec } from './compression-codec.js';
import { snappyDecoder } from './snappy.js';

/**
 * LZ4 (Hadoop framing, raw fallback), LZ4_RAW and LZO, each loaded on first use from a lazy chunk.
 * @returns a new codec map of the three lazy codecs.
 */
function lazyLz4AndLzo(): CodecMap {
  const lz4 = () => import('./lz4.js');
  return {
    [CompressionCodec.LZ4]: lazyCodec(CompressionCodec.LZ4, 'the LZ4 codec, a lazy chunk', async () => (await lz4()).lz4HadoopCodec),
    [CompressionCodec.LZ4_RAW]: lazyCodec(CompressionCodec.LZ4_RAW, 'the LZ4_RAW codec, a lazy chunk', async () => (await lz4()).lz4RawCodec),
    [CompressionCodec.LZO]: lazyCodec(CompressionCodec.LZO, 'the LZO codec, a lazy chunk', async () => (await import('./lzo.js')).lzoCodec),
  };
}

/**
 * The codecs of `@parquetry/parquet-codecs` for reading — SNAPPY's decoder (`snappyDecoder`: decompression only, in
 * the initial load), LZ4, LZ4_RAW and LZO loaded on the first page that needs them — plus the codecs given, keyed by
 * their `codec` number (a later one replaces an earlier one of the same number, and any of this package's).
 * Once loaded the lazy codecs compress too, but a writer would have to await their `load()` first: writers use
 * `builtinCodecs()`.
 * @param more - other codecs to add, e.g. `lazyGzipCodec()` of `@parquetry/codec-gzip/lazy` and `lazyZstdDecoder()`
 *   of `@parquetry/codec-zstd/lazy`.
 * @returns a new codec map for the `codecs` option of a reader.
 */
export function lazyBuiltinCodecs(...more: Codec[]): CodecMap {
  const map: CodecMap = { [CompressionCodec.SNAPPY]: snappyDecoder, ...lazyLz4AndLzo() };
  for (const c of more) map[c.codec] = c;
  return map;
}
