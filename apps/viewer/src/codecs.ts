/**
 * The viewer's codecs: the ones that need no WebAssembly statically (SNAPPY, LZ4, LZ4_RAW, LZO from
 * `@parquetry/parquet-codecs`, GZIP through fflate, ZSTD decompression through codec-zstd's own decoder), and BROTLI (WebAssembly)
 * loaded with `import()` only when a file has BROTLI chunks, so it stays out of the page's initial script.
 * @module
 */
import { gzipCodec } from '@parquetry/codec-gzip';
import { zstdDecoder } from '@parquetry/codec-zstd';
import { builtinCodecs, CompressionCodec, type CodecMap } from '@parquetry/parquet-codecs';
import type { FileMetaData } from '@parquetry/thrift-compact';

/**
 * The codecs available without WebAssembly.
 * @returns a new codec map (BROTLI added by {@link addLazyCodecs} when a file needs it).
 */
export function staticCodecs(): CodecMap {
  return { ...builtinCodecs(), [gzipCodec.codec]: gzipCodec, [zstdDecoder.codec]: zstdDecoder };
}

/**
 * Adds the WebAssembly codecs a file's chunks use to `codecs` (today BROTLI), loading each module once.
 * @param codecs - the map given to `openParquet` (changed in place, so the opened file reads with it).
 * @param metadata - the file's footer.
 * @returns the codecs that could not be loaded, as sentences (empty when all loaded or none was needed).
 */
export async function addLazyCodecs(codecs: CodecMap, metadata: FileMetaData): Promise<string[]> {
  const used = new Set<number>();
  for (const rg of metadata.row_groups) for (const cc of rg.columns) if (cc.meta_data) used.add(cc.meta_data.codec);
  const failures: string[] = [];
  if (used.has(CompressionCodec.BROTLI) && !codecs[CompressionCodec.BROTLI]) {
    try {
      const { createBrotliCodec } = await import('@parquetry/codec-brotli');
      codecs[CompressionCodec.BROTLI] = await createBrotliCodec();
    } catch (e) {
      failures.push(`viewer: the BROTLI codec (WebAssembly) could not be loaded: ${(e as Error).message}`);
    }
  }
  return failures;
}
