/**
 * The Codec interface, the codec set a reader or writer is given, and the page-level helpers that enforce
 * the bounds parquet.thrift's `PageHeader.uncompressed_page_size` sets.
 * Spec: https://github.com/apache/parquet-format/blob/master/Compression.md
 */
import { CompressionCodec, codecPackage, compressionCodecName } from './compression-codec.js';
import { CodecErrorCode, ParquetError, isParquetError } from './errors.js';


/**
 * One compression codec. Implementations must be bounded: `decompress` never writes past `out` and throws
 * `CODEC_OVERRUN` when the stream holds more than `out.length` bytes.
 */
export interface Codec {
  /** The parquet.thrift `CompressionCodec` number this codec implements. */
  readonly codec: CompressionCodec;
  /**
   * Decompresses one whole page.
   * @param src - the compressed bytes (exactly the page's compressed bytes).
   * @param out - the destination; its length is the uncompressed size the page header declares.
   * @returns the number of bytes written into `out` (the page helper treats anything but `out.length` as an error).
   * @throws ParquetError `CODEC_CORRUPT` for a malformed stream, `CODEC_OVERRUN` when it expands past `out`.
   */
  decompress(src: Uint8Array, out: Uint8Array): number;
  /**
   * Compresses one whole page.
   * @param src - the uncompressed bytes.
   * @returns a new array holding the compressed bytes.
   */
  compress(src: Uint8Array): Uint8Array;
  /**
   * Present on a codec loaded on first use ({@link lazyCodec}): loads it — once; a failed load is tried again on the
   * next call — and resolves to the loaded codec. Readers await it (through {@link prepareCodec}) before the first
   * page of this codec; `decompress` and `compress` throw `CODEC_UNAVAILABLE` until it has resolved.
   * @returns the loaded codec.
   * @throws ParquetError `CODEC_UNAVAILABLE` naming the codec and where it loads from (as a rejected promise).
   */
  load?(): Promise<Codec>;
}

/** The codecs a reader or writer may use, keyed by codec number; passed in options (there is no global registry). */
export type CodecMap = Partial<Record<CompressionCodec, Codec>>;

/** The largest uncompressed page size accepted: `uncompressed_page_size` is a thrift i32. */
export const MAX_PAGE_SIZE = 0x7fffffff;

function describe(codec: number): string {
  return compressionCodecName(codec);
}

function lookup(codecs: CodecMap | undefined, codec: number, verb: string): Codec {
  const pkg = codecPackage(codec);
  if (pkg === undefined) {
    throw new ParquetError(CodecErrorCode.UNKNOWN, `parquet-codecs: cannot ${verb} a page with compression codec ${codec}, which parquet.thrift does not define (known: 0..7)`);
  }
  const impl = codecs?.[codec as CompressionCodec];
  if (impl === undefined) {
    throw new ParquetError(
      CodecErrorCode.MISSING,
      `parquet-codecs: cannot ${verb} a ${describe(codec)} page: no ${describe(codec)} codec was given; install ${pkg} and pass its codec in the \`codecs\` option (the \`parquetry\` package presets every codec)`,
    );
  }
  return impl;
}

/**
 * Decompresses one page, enforcing the size its header declares: output past it or short of it is an error,
 * an empty page with an empty body never reaches a codec, and a codec that is not in `codecs` is an error that
 * names the npm package to install.
 * @param codecs - the codecs available (UNCOMPRESSED needs none).
 * @param codec - the column chunk's `CompressionCodec` number (untrusted).
 * @param src - the page's compressed bytes.
 * @param uncompressedSize - `uncompressed_page_size` from the page header (untrusted).
 * @param offset - file offset of `src[0]`, added to error offsets (default 0).
 * @param scratch - a buffer to decompress into instead of a new one, when it holds `uncompressedSize` bytes (a reader
 *   reusing one buffer for pages whose bytes it copies out); the result is then a view of it.
 * @returns the uncompressed bytes; for UNCOMPRESSED, `src` itself (no copy).
 * @throws ParquetError `CODEC_MISSING`, `CODEC_UNKNOWN`, `CODEC_SIZE`, `CODEC_CORRUPT`, `CODEC_OVERRUN`, `CODEC_SHORT`.
 */
export function decompressPage(codecs: CodecMap | undefined, codec: number, src: Uint8Array, uncompressedSize: number, offset = 0, scratch?: Uint8Array): Uint8Array {
  if (!Number.isInteger(uncompressedSize) || uncompressedSize < 0 || uncompressedSize > MAX_PAGE_SIZE) {
    throw new ParquetError(CodecErrorCode.SIZE, `parquet-codecs: page at byte ${offset} declares uncompressed size ${uncompressedSize}, expected an integer in 0..${MAX_PAGE_SIZE}`, offset);
  }
  if (codec === CompressionCodec.UNCOMPRESSED) {
    if (src.length !== uncompressedSize) {
      throw new ParquetError(
        src.length > uncompressedSize ? CodecErrorCode.OVERRUN : CodecErrorCode.SHORT,
        `parquet-codecs: UNCOMPRESSED page at byte ${offset} holds ${src.length} bytes, its header declares ${uncompressedSize}`,
        offset,
      );
    }
    return src;
  }
  const impl = lookup(codecs, codec, 'decompress');
  if (uncompressedSize === 0 && src.length === 0) return new Uint8Array(0);
  if (src.length === 0) {
    throw new ParquetError(CodecErrorCode.SHORT, `parquet-codecs: ${describe(codec)} page at byte ${offset} is empty, its header declares ${uncompressedSize} uncompressed bytes`, offset);
  }
  // the declared size is untrusted: checked against what the compressed bytes can hold before it is allocated
  const most = maxDecompressedSize(codec, src, offset);
  if (most !== undefined && uncompressedSize !== most.exact && (most.exact !== undefined || uncompressedSize > most.bound)) {
    throw new ParquetError(
      CodecErrorCode.SIZE,
      `parquet-codecs: ${describe(codec)} page at byte ${offset} declares ${uncompressedSize} uncompressed bytes, but ${most.exact !== undefined ? `its snappy length preamble says ${most.exact}` : `${src.length} compressed bytes of ${describe(codec)} hold at most ${most.bound}`}`,
      offset,
    );
  }
  let out: Uint8Array;
  try {
    out = scratch !== undefined && scratch.length >= uncompressedSize ? scratch.subarray(0, uncompressedSize) : new Uint8Array(uncompressedSize);
  } catch (e) {
    throw new ParquetError(CodecErrorCode.SIZE, `parquet-codecs: cannot allocate ${uncompressedSize} bytes for the ${describe(codec)} page at byte ${offset}`, offset, { cause: e });
  }
  let n: number;
  try {
    n = impl.decompress(src, out);
  } catch (e) {
    if (isParquetError(e)) {
      const at = e.offset === undefined ? offset : offset + e.offset;
      throw new ParquetError(e.code, `${e.message} (${describe(codec)} page at byte ${offset})`, at, { cause: e });
    }
    throw new ParquetError(CodecErrorCode.CORRUPT, `parquet-codecs: ${describe(codec)} page at byte ${offset} does not decompress: ${String((e as Error)?.message ?? e)}`, offset, { cause: e });
  }
  if (n !== uncompressedSize) {
    throw new ParquetError(
      n > uncompressedSize ? CodecErrorCode.OVERRUN : CodecErrorCode.SHORT,
      `parquet-codecs: ${describe(codec)} page at byte ${offset} decompresses to ${n} bytes, its header declares ${uncompressedSize}`,
      offset,
    );
  }
  return out;
}

/**
 * The most bytes `src` can decompress to, where the codec's format bounds its expansion — read before an output
 * buffer is sized from a page header's untrusted `uncompressed_page_size`:
 * - SNAPPY: exactly its length preamble (and that preamble at most 64/3 bytes per compressed byte after it: a 3-byte
 *   copy element writes at most 64 bytes, a literal no more than it holds);
 * - GZIP: 1032 bytes per compressed byte (DEFLATE's largest expansion: a 258-byte match per code of at least 2 bits);
 * - LZ4, LZ4_RAW: 256 bytes per compressed byte, plus 16 (each length extension byte adds at most 255);
 * - ZSTD: 2^15 bytes per compressed byte (a block of at most 128 KiB needs at least 4 bytes: an RLE block);
 * - LZO: 255 bytes per compressed byte (every LZO1X instruction writes at most 255 bytes per byte it takes: a
 *   match of 3 or 4 bytes writes at most 288 + 255·z bytes for its z length-extension zero bytes, literals no more
 *   than they hold; Hadoop's block headers only add input);
 * - BROTLI and UNCOMPRESSED: no bound (BROTLI's expansion has no useful one: its decoders stop at the page's
 *   declared size, and a reader's budget caps that).
 * @param codec - the `CompressionCodec` number.
 * @param src - the compressed page bytes.
 * @param offset - file offset of `src[0]`, for messages.
 * @returns the bound (`exact` when the stream states its size), or undefined when the codec has none.
 * @throws ParquetError `CODEC_CORRUPT` for a SNAPPY stream whose length preamble is malformed.
 */
export function maxDecompressedSize(codec: number, src: Uint8Array, offset = 0): { bound: number; exact?: number | undefined } | undefined {
  const n = src.length;
  switch (codec) {
    case CompressionCodec.SNAPPY: {
      let len = 0;
      let pos = 0;
      for (let shift = 0; ; shift += 7) {
        if (pos >= n || shift > 28) throw new ParquetError(CodecErrorCode.CORRUPT, `parquet-codecs: SNAPPY page at byte ${offset}: malformed length preamble`, offset);
        const b = src[pos++]!;
        len += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) break;
      }
      const bound = Math.floor(((n - pos) * 64) / 3);
      if (len > bound) {
        throw new ParquetError(CodecErrorCode.CORRUPT, `parquet-codecs: SNAPPY page at byte ${offset}: its length preamble says ${len} bytes, ${n - pos} bytes of SNAPPY elements hold at most ${bound}`, offset);
      }
      return { bound, exact: len };
    }
    case CompressionCodec.GZIP:
      return { bound: n * 1032 };
    case CompressionCodec.LZ4:
    case CompressionCodec.LZ4_RAW:
      return { bound: n * 256 + 16 };
    case CompressionCodec.ZSTD:
      return { bound: n * 32768 };
    case CompressionCodec.LZO:
      return { bound: n * 255 };
    default:
      return undefined;
  }
}

/**
 * Compresses one page with the codec the column chunk uses.
 * @param codecs - the codecs available (UNCOMPRESSED needs none).
 * @param codec - the `CompressionCodec` number to write.
 * @param src - the uncompressed page bytes.
 * @returns the compressed bytes; for UNCOMPRESSED, `src` itself.
 * @throws ParquetError `CODEC_MISSING` when `codecs` lacks the codec, `CODEC_UNKNOWN` for a number parquet.thrift does not define.
 */
export function compressPage(codecs: CodecMap | undefined, codec: number, src: Uint8Array): Uint8Array {
  if (codec === CompressionCodec.UNCOMPRESSED) return src;
  return lookup(codecs, codec, 'compress').compress(src);
}

/** The codecs made by {@link lazyCodec} that have loaded: {@link prepareCodec} has nothing to wait for. */
const LOADED = new WeakSet<Codec>();

/**
 * A codec that loads on first use — WebAssembly fetched and instantiated, or a lazy chunk imported — so that
 * holding it in a codec map costs nothing until a page needs it. Readers call {@link prepareCodec} before each page
 * (it awaits the load once); a writer's caller awaits `load()` before writing pages of it (the `parquetry` presets
 * do). A load that fails fails only the pages of this codec, with `CODEC_UNAVAILABLE`; it is tried again next time.
 *
 * ```ts
 * const zstd = lazyCodec(CompressionCodec.ZSTD, 'the ZSTD WebAssembly (zstd.wasm)', async () => (await import('./my-zstd.js')).codec);
 * ```
 * @param codec - the codec number it implements.
 * @param what - what is loaded and from where, for messages (e.g. `'ZSTD WebAssembly from https://…/zstd.wasm'`).
 * @param load - loads the real codec (called once until it succeeds).
 * @returns a codec whose `load()` must resolve before `decompress`/`compress` are called.
 */
export function lazyCodec(codec: CompressionCodec, what: string, load: () => Promise<Codec>): Codec {
  let impl: Codec | undefined;
  let pending: Promise<Codec> | undefined;
  const name = compressionCodecName(codec);
  const notLoaded = (): never => {
    throw new ParquetError(CodecErrorCode.UNAVAILABLE, `parquet-codecs: the ${name} codec (${what}) is not loaded yet: await its load() (readers do, through prepareCodec) before using it`);
  };
  const self: Codec = {
    codec,
    decompress: (src, out) => (impl ?? notLoaded()).decompress(src, out),
    compress: (src) => (impl ?? notLoaded()).compress(src),
    load: () =>
      impl !== undefined
        ? Promise.resolve(impl)
        : (pending ??= (async () => {
            let loaded: Codec;
            try {
              loaded = await load();
            } catch (e) {
              pending = undefined;
              const detail = isParquetError(e) ? e.message : String((e as Error)?.message ?? e);
              throw new ParquetError(CodecErrorCode.UNAVAILABLE, `parquet-codecs: cannot load the ${name} codec (${what}): ${detail}`, undefined, { cause: e });
            }
            if (loaded === null || typeof loaded !== 'object' || typeof loaded.decompress !== 'function' || loaded.codec !== codec) {
              pending = undefined;
              throw new ParquetError(CodecErrorCode.UNAVAILABLE, `parquet-codecs: loading the ${name} codec (${what}) gave no ${name} codec`);
            }
            impl = loaded;
            LOADED.add(self);
            return loaded;
          })()),
  };
  return self;
}

/**
 * What a reader awaits before a page of a codec: the codec's load, for one loaded on first use ({@link lazyCodec},
 * or any codec with a `load` method) that has not loaded yet; for the SNAPPY codecs, the import of their WebAssembly
 * decompression kernel while it is under way, before a page of 64 KiB or more (a smaller page, or no size given as
 * for a writer's codecs, starts the import without waiting for it).
 * @param codecs - the codecs available.
 * @param codec - the page's codec number (untrusted).
 * @param size - the page's decompressed size in bytes (omitted: 0).
 * @returns a promise to await, or undefined when there is nothing to wait for (no such codec: `decompressPage`
 *   reports it; a codec without `load`; one already loaded).
 * @throws ParquetError `CODEC_UNAVAILABLE` when the load fails (as a rejected promise).
 */
export function prepareCodec(codecs: CodecMap | undefined, codec: number, size = 0): Promise<unknown> | undefined {
  const impl = codecs?.[codec as CompressionCodec];
  if (impl === undefined) return undefined;
  const ready = (impl as { ready?: (size: number) => Promise<unknown> | undefined }).ready;
  if (ready !== undefined) return ready(size);
  if (impl.load === undefined || LOADED.has(impl)) return undefined;
  return impl.load();
}

/**
 * Loads the codecs of a map that load on first use, for the given codec numbers (a writer's compressions):
 * afterwards their `compress` works.
 * @param codecs - the codecs.
 * @param which - codec numbers to load (those not in the map, or not lazy, are skipped).
 * @returns when every one has loaded.
 * @throws ParquetError `CODEC_UNAVAILABLE` for one that cannot load (as a rejected promise).
 */
export async function loadCodecs(codecs: CodecMap, which: Iterable<number>): Promise<void> {
  const waits: Promise<unknown>[] = [];
  for (const c of new Set(which)) {
    const p = prepareCodec(codecs, c);
    if (p !== undefined) waits.push(p);
  }
  await Promise.all(waits);
}
