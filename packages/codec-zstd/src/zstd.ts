/**
 * The ZSTD codec of parquet.thrift (`CompressionCodec.ZSTD`): Zstandard frames (RFC 8878). Decompression without
 * WebAssembly is fzstd (pure JavaScript, synchronous: {@link zstdDecoder}); {@link createZstdCodec} loads the
 * reference C library compiled to WebAssembly (`@bokuweb/zstd-wasm`, instantiated once, hence async), which
 * compresses and also decompresses single-frame pages.
 * Spec: https://github.com/apache/parquet-format/blob/master/Compression.md (ZSTD), https://www.rfc-editor.org/rfc/rfc8878
 *
 * Every frame is walked and checked before decoding (see `zstd-frames.ts`): a declared content size past the
 * page is an error before anything is allocated, and decoding streams block by block with a bounds check per block.
 */
import { Decompress } from 'fzstd';
import { compress, decompress as wasmDecompress, init } from '@bokuweb/zstd-wasm';
import { type Codec, CodecErrorCode, CompressionCodec, ParquetError, isParquetError } from '@parquetry/parquet-codecs';
import { type ZstdFrame, zstdFrames } from './zstd-frames.js';
import { zstdPrescan } from './zstd-prescan.js';

function overrun(op: number, limit: number, pos: number): ParquetError {
  return new ParquetError(CodecErrorCode.OVERRUN, `codec-zstd: ZSTD frame at byte ${pos} expands past the ${limit} bytes allowed (at output byte ${op})`, pos);
}

function corrupt(what: string, pos: number, cause: unknown): ParquetError {
  return new ParquetError(CodecErrorCode.CORRUPT, `codec-zstd: corrupt ZSTD frame at byte ${pos}: ${what}`, pos, { cause });
}

/**
 * A copy of a frame re-headed as a single-segment frame declaring `size` bytes. Two reasons:
 * fzstd decodes a frame of known size straight into one buffer instead of sliding a window (for small pages the
 * slide costs more than the decode), and it silently stops at the declared size — so the caller declares one byte
 * more than it expects, and a frame that really produces more shows up as one byte too many instead of vanishing.
 */
function withContentSize(src: Uint8Array, f: ZstdFrame, size: number): Uint8Array {
  const head = 9;
  const copy = new Uint8Array(head + f.end - f.blocks);
  copy[0] = 0x28;
  copy[1] = 0xb5;
  copy[2] = 0x2f;
  copy[3] = 0xfd;
  copy[4] = (2 << 6) | (1 << 5) | (f.checksum ? 4 : 0); // 4-byte content size, single segment, no dictionary
  copy[5] = size & 0xff;
  copy[6] = (size >>> 8) & 0xff;
  copy[7] = (size >>> 16) & 0xff;
  copy[8] = size >>> 24;
  copy.set(src.subarray(f.blocks, f.end), head);
  return copy;
}

/**
 * Decompresses a Zstandard stream (one or more frames; skippable frames are skipped) into `out`.
 * @param src - the stream.
 * @param out - destination; its length bounds the output.
 * @returns bytes written.
 * @throws ParquetError `CODEC_CORRUPT` (malformed frame, dictionary frame, window over 128 MiB, a Huffman tree
 * description decoding more than 255 weights (see {@link zstdPrescan}), a frame that decodes
 * to other than its declared size), `CODEC_OVERRUN`.
 */
export function zstdDecompress(src: Uint8Array, out: Uint8Array): number {
  const frames = zstdFrames(src);
  // fzstd never stops on a Huffman weight description that decodes more than 255 weights: reject those first
  zstdPrescan(src, frames);
  let dataFrames = 0;
  for (const f of frames) if (!f.skippable) dataFrames++;
  let op = 0;
  for (const f of frames) {
    if (f.skippable) continue;
    const remaining = out.length - op;
    if (f.contentSize !== undefined && f.contentSize > remaining) throw overrun(op + f.contentSize, out.length, f.start);
    // expected output: the declared size, or for the only frame of a page, the rest of the page
    const expected = f.contentSize ?? (dataFrames === 1 ? remaining : undefined);
    const input = expected === undefined ? src.subarray(f.start, f.end) : withContentSize(src, f, expected + 1);
    const before = op;
    // fzstd's streaming decoder hands over each block as it is decoded, so the true output length is known
    // (its one-shot decoder returns a buffer of the declared size whatever the blocks produce) and a frame that
    // expands past the page stops at the first block that does.
    const stream = new Decompress((chunk) => {
      if (chunk.length > out.length - op) throw overrun(op + chunk.length, out.length, f.start);
      out.set(chunk, op);
      op += chunk.length;
    });
    try {
      stream.push(input, true);
    } catch (e) {
      if (isParquetError(e)) throw e;
      throw corrupt(String((e as Error)?.message ?? e), f.start, e);
    }
    if (f.contentSize !== undefined && op - before !== f.contentSize) {
      throw new ParquetError(CodecErrorCode.CORRUPT, `codec-zstd: ZSTD frame at byte ${f.start} declares ${f.contentSize} bytes but decodes to ${op - before}`, f.start);
    }
  }
  return op;
}

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
 * frames, skippable frames, any error) goes to {@link zstdDecompress}, which also classifies errors.
 */
function decompressFast(src: Uint8Array, out: Uint8Array): number {
  const frames = zstdFrames(src);
  const f = frames[0];
  if (frames.length === 1 && f !== undefined && !f.skippable) {
    if (f.contentSize !== undefined && f.contentSize > out.length) {
      throw new ParquetError(CodecErrorCode.OVERRUN, `codec-zstd: ZSTD frame declares ${f.contentSize} bytes, the page allows ${out.length}`, 0);
    }
    let res: Uint8Array | undefined;
    let failure: unknown;
    try {
      res = wasmDecompress(src, { defaultHeapSize: out.length + 1 });
    } catch (e) {
      res = undefined;
      failure = e;
    }
    if (res !== undefined) {
      if (res.length > out.length) {
        throw new ParquetError(CodecErrorCode.OVERRUN, `codec-zstd: ZSTD frame expands past the ${out.length} bytes allowed`, 0);
      }
      out.set(res);
      return res.length;
    }
    // the reference decoder found the frame corrupt (corruption_detected, checksum_wrong, literals_headerWrong): it
    // is, and it does not go to fzstd, whose Huffman weight reader loops forever on some corrupt streams (found by
    // tools/fuzz, fixtures/fuzz-regressions/codec-ZSTD)
    const zstdError = /code -(20|22|24)\b/.exec(messageOf(failure))?.[1];
    if (zstdError !== undefined) {
      throw new ParquetError(CodecErrorCode.CORRUPT, `codec-zstd: ZSTD frame at byte 0 is corrupt (the reference decoder's error -${zstdError})`, 0, { cause: failure });
    }
  }
  return zstdDecompress(src, out);
}

/**
 * Creates the ZSTD codec with the reference library (WebAssembly) loaded: it compresses, and it decompresses
 * single-frame pages about 3× faster than fzstd (other pages go through {@link zstdDecompress}). The first call
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

/**
 * A ZSTD codec that only decompresses (no WebAssembly to load), for readers.
 * Its `compress` throws `CODEC_MISSING`: use {@link createZstdCodec} to write ZSTD.
 */
export const zstdDecoder: Codec = {
  codec: CompressionCodec.ZSTD,
  decompress: zstdDecompress,
  compress: () => {
    throw new ParquetError(CodecErrorCode.MISSING, 'codec-zstd: zstdDecoder only decompresses; use `await createZstdCodec()` to compress ZSTD');
  },
};
