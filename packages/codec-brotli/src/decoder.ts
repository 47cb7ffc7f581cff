/**
 * A BROTLI decoder without WebAssembly, for readers: RFC 7932 streams decoded by `brotli` (a JavaScript port of
 * the reference decoder, MIT; its static dictionary ships compressed and is unpacked on first use in browsers).
 * Synchronous and decode-only — about 60 KB gzip in a browser bundle against ~300 KB for the WebAssembly codec —
 * so a reader that only reads can load it on the first BROTLI page; {@link createBrotliCodec} compresses.
 * Spec: https://www.rfc-editor.org/rfc/rfc7932, https://github.com/apache/parquet-format/blob/master/Compression.md
 *
 * The output is bounded: the decoder writes into a buffer one byte longer than the page allows, so a stream that
 * expands past the page is seen (one byte over, or the decoder's own "not large enough") and stopped; nothing larger
 * is allocated than the page size the caller passes plus the stream's window (at most 16 MiB, RFC 7932 §9.1).
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
