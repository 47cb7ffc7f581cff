/**
 * The ZSTD decoder without WebAssembly: our own decoder (`zstd-decode.ts`) as a function and as a decode-only codec,
 * apart from `zstd.ts` so that a bundle reading ZSTD (or loading it lazily, `@parquetry/codec-zstd/lazy`) holds no
 * WebAssembly loader.
 * Spec: https://github.com/apache/parquet-format/blob/master/Compression.md (ZSTD), https://www.rfc-editor.org/rfc/rfc8878
 * @module
 */
import { type Codec, CodecErrorCode, CompressionCodec, ParquetError } from '@parquetry/parquet-codecs/read';
import { type ZstdDecompressOptions, decodeZstd } from './zstd-decode.js';
import type { createZstdCodec } from './zstd.js'; // for {@link createZstdCodec}

/**
 * Decompresses a Zstandard stream (one or more frames; skippable frames are skipped) into `out` with our own decoder:
 * `out` is both the bound and the window, so nothing else is allocated per call, and no input makes it loop longer
 * than its input and output sizes allow. Content checksums (XXH64) are verified unless `options.checksum` is false.
 * @param src - the stream.
 * @param out - destination; its length bounds the output.
 * @param options - whether to verify content checksums (default: yes).
 * @returns bytes written.
 * @throws ParquetError `CODEC_CORRUPT` (malformed frame or block, dictionary frame, window over 128 MiB, a literal
 *   or match length past its block, an offset before its frame's first byte, a bitstream read past its start or not
 *   used up, an FSE table or Huffman tree that is not well formed, a frame that decodes to other than its declared
 *   size, a wrong content checksum — each naming the frame and block by byte offset), `CODEC_OVERRUN` (the stream
 *   produces more than `out.length` bytes).
 */
export function zstdDecompress(src: Uint8Array, out: Uint8Array, options?: ZstdDecompressOptions): number {
  return decodeZstd(src, out, options);
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
