/**
 * The codec presets the umbrella's readers and writers use: every codec of parquet.thrift, the WebAssembly and large
 * ones loaded on first use ({@link lazyCodec} of `@parquetry/parquet-codecs`), so that opening a file, reading a
 * SNAPPY file or writing one loads nothing more, and a ZSTD or BROTLI codec that cannot load fails only the pages
 * that need it (`CODEC_UNAVAILABLE`, naming the codec and the URL).
 *
 * | codec | reading | writing | how it loads |
 * | --- | --- | --- | --- |
 * | SNAPPY, LZ4, LZ4_RAW, LZO, GZIP | TypeScript / fflate | same | in the initial bundle |
 * | ZSTD | reference zstd in WebAssembly | same | a lazy chunk, then `zstd.wasm` fetched from `new URL('./zstd.wasm', import.meta.url)` beside it (browsers; Node reads the library's file) |
 * | BROTLI | the reference brotli in WebAssembly (output bounded by the page's declared size) | same | a lazy chunk (WebAssembly inlined), nothing else to serve |
 *
 * BROTLI is read with the WebAssembly codec in browsers too: the plain-JavaScript `brotliDecoder` of
 * `@parquetry/codec-brotli/decoder` is smaller but sizes its output from the stream's own meta-block lengths, so a few
 * hundred hostile bytes can make it allocate gigabytes whatever the page declares — not a default for untrusted files.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/Compression.md
 * @module
 */
import { createGzipCodec } from '@parquetry/codec-gzip';
import { type CodecMap, CodecErrorCode, CompressionCodec, ParquetError, builtinCodecs, lazyCodec, loadCodecs, snappyDecoder } from '@parquetry/parquet-codecs';
import type { CompressionName } from '@parquetry/parquet-writer';
import { checkOptions } from '@parquetry/thrift-compact/check-options';
import type { AllCodecsOptions } from './codecs.js';
import { PRESET_RULES } from './options.js';

/** Where a WebAssembly module is: a URL (fetched) or its bytes. */
export type WasmSource = string | URL | ArrayBuffer | Uint8Array;

/** Options of {@link readCodecs} and {@link writeCodecs}: compression levels and where the ZSTD WebAssembly is. */
export interface PresetOptions extends AllCodecsOptions {
  /**
   * Where the ZSTD WebAssembly is, in a browser: a URL or the bytes. Default: `zstd.wasm` beside `parquetry`'s lazy
   * ZSTD module (`new URL('./zstd.wasm', import.meta.url)`, which Vite and webpack resolve; with esbuild, copy
   * `@bokuweb/zstd-wasm`'s `zstd.wasm` beside the bundle's chunks). Node reads the library's own file.
   */
  zstdWasm?: WasmSource;
}

/** Whether this runs in Node (where WebAssembly comes from files and size does not matter). */
const IN_NODE = typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';

function checkLevels(o: AllCodecsOptions): void {
  const bad = (what: string, v: number, lo: number, hi: number) => {
    throw new ParquetError(CodecErrorCode.SIZE, `parquetry: ${what} ${v}, expected an integer ${lo}..${hi}`);
  };
  if (o.zstdLevel !== undefined && !(Number.isInteger(o.zstdLevel) && o.zstdLevel >= 1 && o.zstdLevel <= 22)) bad('ZSTD level', o.zstdLevel, 1, 22);
  if (o.brotliQuality !== undefined && !(Number.isInteger(o.brotliQuality) && o.brotliQuality >= 0 && o.brotliQuality <= 11)) bad('BROTLI quality', o.brotliQuality, 0, 11);
}

function lazyZstd(o: PresetOptions) {
  const where = o.zstdWasm instanceof URL || typeof o.zstdWasm === 'string' ? `WebAssembly from ${String(o.zstdWasm)}` : o.zstdWasm !== undefined ? 'WebAssembly given as bytes' : IN_NODE ? 'WebAssembly of @bokuweb/zstd-wasm' : "WebAssembly 'zstd.wasm' beside the lazy ZSTD chunk";
  return lazyCodec(CompressionCodec.ZSTD, where, async () => {
    const m = await import('./lazy/zstd.js');
    return m.loadZstd(o.zstdLevel, o.zstdWasm ?? (IN_NODE ? undefined : m.zstdWasmUrl()));
  });
}

function lazyBrotliWasm(o: AllCodecsOptions) {
  return lazyCodec(CompressionCodec.BROTLI, 'the WebAssembly BROTLI codec, a lazy chunk', async () =>
    (await import('./lazy/brotli.js')).createBrotliCodec(o.brotliQuality === undefined ? {} : { quality: o.brotliQuality }),
  );
}

/**
 * Every codec for reading, nothing loaded yet: SNAPPY, LZ4, LZ4_RAW, LZO and GZIP at once; ZSTD and BROTLI
 * (WebAssembly) on the first page that needs them.
 * Readers await the load before that page; a load that fails is `CODEC_UNAVAILABLE` for those pages only.
 * @param options - where the ZSTD WebAssembly is (levels are ignored when reading).
 * @returns a new codec map for the `codecs` option of readers.
 * @throws ParquetError `INVALID_ARGUMENT` for an option it does not take (naming the nearest one and its list) or a
 *   value of the wrong kind.
 */
export function readCodecs(options: PresetOptions = {}): CodecMap {
  checkOptions(options, PRESET_RULES, 'parquetry: readCodecs');
  return {
    ...builtinCodecs(),
    // decompression only: a bundle that reads and never writes holds no SNAPPY compressor
    [CompressionCodec.SNAPPY]: snappyDecoder,
    [CompressionCodec.GZIP]: createGzipCodec(),
    [CompressionCodec.ZSTD]: lazyZstd(options),
    // WebAssembly everywhere: its output stops at the page's declared size (the plain-JavaScript decoder's does not)
    [CompressionCodec.BROTLI]: lazyBrotliWasm(options),
  };
}

/**
 * Every codec for writing (and reading), nothing loaded yet: ZSTD and BROTLI (both WebAssembly) load when first
 * needed. A writer compresses synchronously, so load the codecs it will use before writing: the umbrella's
 * `writeParquet`, `createWriter`, `appendParquet` and `writeDataset` do (see {@link loadCodecs} of
 * `@parquetry/parquet-codecs`); a codec used before it is loaded is `CODEC_UNAVAILABLE`.
 * @param options - compression levels; where the ZSTD WebAssembly is.
 * @returns a new codec map.
 * @throws ParquetError `INVALID_OPTION` for an option it does not take (naming the nearest one and its list) or a
 *   value of the wrong kind; `CODEC_SIZE` for an out-of-range level.
 */
export function writeCodecs(options: PresetOptions = {}): CodecMap {
  checkOptions(options, PRESET_RULES, 'parquetry: writeCodecs', 'INVALID_OPTION');
  checkLevels(options);
  return {
    ...builtinCodecs(),
    [CompressionCodec.GZIP]: createGzipCodec(options.gzipLevel === undefined ? {} : { level: options.gzipLevel }),
    [CompressionCodec.ZSTD]: lazyZstd(options),
    [CompressionCodec.BROTLI]: lazyBrotliWasm(options),
  };
}

/** The compression options a writer reads: the file's and each column's. */
interface NamesCompression {
  compression?: CompressionName | undefined;
  columns?: Readonly<Record<string, { compression?: CompressionName | undefined }>> | undefined;
}

/**
 * The codec map a writer gets — every codec ({@link writeCodecs}) with the caller's on top — with the codecs its
 * options name (the file's `compression` and each column's) loaded.
 * @param given - the caller's `codecs` option.
 * @param options - the writer's options.
 * @returns the map, ready for those compressions.
 * @throws ParquetError `CODEC_UNAVAILABLE` when a named codec cannot load (as a rejected promise).
 */
export async function writerCodecs(given: CodecMap | undefined, options: NamesCompression): Promise<CodecMap> {
  const map: CodecMap = { ...writeCodecs(), ...given };
  const names: string[] = [];
  if (options.compression !== undefined) names.push(options.compression);
  for (const c of Object.values(options.columns ?? {})) if (c.compression !== undefined) names.push(c.compression);
  const numbers: number[] = [];
  for (const n of names) {
    // an unknown name is the writer's INVALID_OPTION
    if (Object.hasOwn(CompressionCodec, n)) numbers.push((CompressionCodec as Record<string, number>)[n]!);
  }
  await loadCodecs(map, numbers);
  return map;
}
