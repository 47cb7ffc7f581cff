/**
 * The ZSTD codec of parquet.thrift (`CompressionCodec.ZSTD`): Zstandard frames (RFC 8878). Decompression without
 * WebAssembly is our own decoder (`zstd-decode.ts`: pure TypeScript, synchronous, bounded on any input:
 * {@link zstdDecoder}); {@link createZstdCodec} loads the reference C library compiled to WebAssembly
 * (`@bokuweb/zstd-wasm`, instantiated once, hence async), which compresses and also decompresses single-frame pages.
 * Spec: https://github.com/apache/parquet-format/blob/master/Compression.md (ZSTD), https://www.rfc-editor.org/rfc/rfc8878
 */
import { compress, decompress as wasmDecompress, init } from '@bokuweb/zstd-wasm';
import { type Codec, CodecErrorCode, CompressionCodec, ParquetError } from '@parquetry/parquet-codecs';
import { zstdFrames } from './zstd-frames.js';
import { zstdDecompress } from './zstd-decoder.js';

export { zstdDecompress, zstdDecoder } from './zstd-decoder.js';

/** Options of {@link createZstdCodec}. */
export interface ZstdCodecOptions {
  /** Compression level 1..22 (default 3, the reference library's default). */
  level?: number;
  /**
   * Where the zstd WebAssembly module is, for browsers: its URL (fetched with `fetch`; with a bundler write
   * `new URL('./zstd.wasm', import.meta.url)` and serve the file `@bokuweb/zstd-wasm` ships), or its bytes. It is
   * checked before it is used: a missing file, an HTTP error or bytes that do not compile are a `CODEC_UNAVAILABLE`
   * error naming the URL — never a hung promise or an aborted runtime. Default: the package's own (in Node its file
   * beside it; in a browser `zstd.wasm` beside the bundled module, unchecked). Node always instantiates the
   * package's own file, after checking what is given here. The module is loaded once: the first successful
   * call's `wasm` wins.
   */
  wasm?: string | URL | ArrayBuffer | Uint8Array;
}

let ready: Promise<void> | undefined;

function unavailable(message: string, cause?: unknown): ParquetError {
  return new ParquetError(CodecErrorCode.UNAVAILABLE, `codec-zstd: ${message}`, undefined, cause === undefined ? undefined : { cause });
}

const messageOf = (e: unknown): string => String((e as Error)?.message ?? e);

/**
 * Fetches (for a URL) and checks the zstd WebAssembly module, then instantiates it.
 * @param wasm - a URL or the module's bytes.
 */
async function loadWasm(wasm: string | URL | ArrayBuffer | Uint8Array): Promise<void> {
  let bytes: Uint8Array;
  let where: string;
  if (typeof wasm === 'string' || wasm instanceof URL) {
    where = String(wasm);
    let res: Response;
    try {
      res = await fetch(wasm);
    } catch (e) {
      throw unavailable(`cannot fetch the ZSTD WebAssembly from ${where}: ${messageOf(e)}`, e);
    }
    if (!res.ok) throw unavailable(`cannot fetch the ZSTD WebAssembly from ${where}: HTTP ${res.status} ${res.statusText}`.trimEnd());
    try {
      bytes = new Uint8Array(await res.arrayBuffer());
    } catch (e) {
      throw unavailable(`cannot read the ZSTD WebAssembly from ${where}: ${messageOf(e)}`, e);
    }
  } else {
    bytes = wasm instanceof Uint8Array ? wasm : new Uint8Array(wasm);
    where = `the ${bytes.length} bytes given`;
  }
  let mod: WebAssembly.Module;
  try {
    mod = await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
  } catch (e) {
    throw unavailable(`the ZSTD WebAssembly from ${where} (${bytes.length} bytes) does not compile: ${messageOf(e)}`, e);
  }
  // the zstd-wasm runtime never settles its promise when instantiation fails: check the module is its own first
  // (its exports: the memory 'f' and the functions it calls by their minified names)
  const exports = new Set(WebAssembly.Module.exports(mod).map((x) => `${x.kind}:${x.name}`));
  if (!exports.has('memory:f') || !exports.has('function:m') || !exports.has('function:p')) {
    throw unavailable(`the WebAssembly from ${where} is not the zstd module of @bokuweb/zstd-wasm 0.0.27 (its exports differ)`);
  }
  // the browser build instantiates the bytes it is given; the Node build reads its own file
  await (init as (path?: Uint8Array) => Promise<void>)(bytes);
}

/**
 * Decompresses with the reference decoder (WASM) when the stream is one frame: `ZSTD_decompress` writes into a
 * buffer of fixed capacity — the declared content size, already checked against the page, or the page size + 1
 * when none is declared — and itself checks the declared size and the content checksum. Anything else (several
 * frames, skippable frames) and any stream the reference decoder rejects goes to {@link zstdDecompress}, which is
 * bounded on any input and names what is wrong.
 */
function decompressFast(src: Uint8Array, out: Uint8Array): number {
  const frames = zstdFrames(src);
  const f = frames[0];
  if (frames.length === 1 && f !== undefined && !f.skippable) {
    if (f.contentSize !== undefined && f.contentSize > out.length) {
      throw new ParquetError(CodecErrorCode.OVERRUN, `codec-zstd: ZSTD frame declares ${f.contentSize} bytes, the page allows ${out.length}`, 0);
    }
    let res: Uint8Array | undefined;
    try {
      res = wasmDecompress(src, { defaultHeapSize: out.length + 1 });
    } catch {
      res = undefined; // our decoder says why
    }
    if (res !== undefined) {
      if (res.length > out.length) {
        throw new ParquetError(CodecErrorCode.OVERRUN, `codec-zstd: ZSTD frame expands past the ${out.length} bytes allowed`, 0);
      }
      out.set(res);
      return res.length;
    }
  }
  return zstdDecompress(src, out);
}

/**
 * Creates the ZSTD codec with the reference library (WebAssembly) loaded: it compresses, and it decompresses
 * single-frame pages with the reference decoder (other pages, and pages it rejects, go through {@link zstdDecompress}). The first call
 * instantiates the WebAssembly module.
 * @param options - compression level.
 * @returns the codec.
 * @throws ParquetError `CODEC_SIZE` for a level outside 1..22, `CODEC_UNAVAILABLE` when the WebAssembly given in
 *   `wasm` cannot be fetched or does not compile (as a rejected promise).
 */
export async function createZstdCodec(options: ZstdCodecOptions = {}): Promise<Codec> {
  const level = options.level ?? 3;
  if (!Number.isInteger(level) || level < 1 || level > 22) {
    throw new ParquetError(CodecErrorCode.SIZE, `codec-zstd: compression level ${level}, expected an integer 1..22`);
  }
  const wasm = options.wasm;
  ready ??= (wasm === undefined ? init() : loadWasm(wasm)).catch((e: unknown) => {
    ready = undefined; // tried again on the next call
    throw e;
  });
  await ready;
  return {
    codec: CompressionCodec.ZSTD,
    decompress: decompressFast,
    compress: (src) => compress(src, level),
  };
}
