/**
 * A BROTLI decoder without WebAssembly, for readers: RFC 7932 streams decoded by `brotli` (a JavaScript port of
 * the reference decoder, MIT; its static dictionary ships compressed and is unpacked on first use in browsers).
 * Synchronous and decode-only — about 60 KB gzip in a browser bundle against ~300 KB for the WebAssembly codec —
 * so a reader that only reads can load it on the first BROTLI page; {@link createBrotliCodec} compresses.
 * Spec: https://www.rfc-editor.org/rfc/rfc7932, https://github.com/apache/parquet-format/blob/master/Compression.md
 *
 * The output is NOT bounded by the page's declared size: it is asked for one byte more than the page allows, but
 * `brotli` 2.0.0 grows its output buffer to every meta-block's declared length (up to 16 MiB each) before decoding
 * it, so a stream that expands past the page is only stopped once it has been decoded — a few hundred bytes that
 * expand to 1 GiB, declared as 1 KiB, take ~40 s and ~3 GB before `CODEC_OVERRUN` (measured on this machine). Its
 * public API offers no output cap (its `BrotliDecompress(input, output)` is not exported). For untrusted files
 * use {@link createBrotliCodec}, whose streaming decoder stops one byte past the declared size, and a reader's
 * budget, which refuses a declared size over the read's `maxBytes` before anything is decoded.
 * Unlike the WebAssembly codec it cannot tell bytes after the end of the stream (the page's decoded size is still
 * checked exactly by the page helper).
 * @module
 */
import { decompress } from 'brotli/decompress';
import { type Codec, CodecErrorCode, CompressionCodec, ParquetError, isParquetError } from '@parquetry/parquet-codecs';
import type { createBrotliCodec } from './brotli.js'; // for {@link createBrotliCodec}

/**
 * Decompresses one BROTLI stream into `out`.
 * @param src - the stream.
 * @param out - the destination; its length bounds the output.
 * @returns the number of bytes written.
 * @throws ParquetError `CODEC_OVERRUN` when the stream expands past `out`, `CODEC_CORRUPT` for a malformed or
 *   truncated stream.
 */
export function brotliDecompress(src: Uint8Array, out: Uint8Array): number {
  let res: Uint8Array;
  try {
    res = decompress(src, out.length + 1);
  } catch (e) {
    if (isParquetError(e)) throw e;
    const msg = String((e as Error)?.message ?? e);
    if (/not large enough/.test(msg)) {
      throw new ParquetError(CodecErrorCode.OVERRUN, `codec-brotli: BROTLI stream expands past the ${out.length} bytes allowed`, 0, { cause: e });
    }
    throw new ParquetError(CodecErrorCode.CORRUPT, `codec-brotli: corrupt BROTLI stream (${src.length} bytes): ${msg}`, 0, { cause: e });
  }
  if (res.length > out.length) {
    throw new ParquetError(CodecErrorCode.OVERRUN, `codec-brotli: BROTLI stream expands past the ${out.length} bytes allowed`, 0);
  }
  out.set(res);
  return res.length;
}

/**
 * A BROTLI codec that only decompresses, in plain JavaScript (no WebAssembly to load): for readers, and for a
 * browser bundle that should stay small. Its `compress` throws `CODEC_MISSING`: use {@link createBrotliCodec} to
 * write BROTLI.
 */
export const brotliDecoder: Codec = {
  codec: CompressionCodec.BROTLI,
  decompress: brotliDecompress,
  compress: () => {
    throw new ParquetError(CodecErrorCode.MISSING, 'codec-brotli: brotliDecoder only decompresses; use `await createBrotliCodec()` to compress BROTLI');
  },
};
