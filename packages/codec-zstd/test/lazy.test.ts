// The lazy ZSTD decoder (@parquetry/codec-zstd/lazy): not loaded until a reader prepares it, then our decoder on a
// frame written by hand (RFC 8878: one raw block, one RLE block).
import { describe, expect, test } from 'vitest';
import { CodecErrorCode, CompressionCodec, compressPage, decompressPage, prepareCodec } from '@parquetry/parquet-codecs';
import { zstdDecoder } from '@parquetry/codec-zstd';
import { lazyZstdDecoder } from '@parquetry/codec-zstd/lazy';
import { codeOf } from '../../parquet-codecs/test/inputs.js';
import { ascii, block, frame } from './frame-builder.js';

describe('lazyZstdDecoder', () => {
  test('CODEC_UNAVAILABLE before its load; afterwards the decode-only decoder', async () => {
    const lazy = lazyZstdDecoder();
    expect(lazy.codec).toBe(CompressionCodec.ZSTD);
    const codecs = { [CompressionCodec.ZSTD]: lazy };
    // "hello" as a raw block, then four '!' as an RLE block (the last)
    const page = frame(block(0, ascii('hello'), false), block(1, [0x21], true, 4));
    const want = new Uint8Array([...ascii('hello'), 0x21, 0x21, 0x21, 0x21]);
    expect(codeOf(() => decompressPage(codecs, CompressionCodec.ZSTD, page, want.length))).toBe(CodecErrorCode.UNAVAILABLE);
    await prepareCodec(codecs, CompressionCodec.ZSTD);
    expect(prepareCodec(codecs, CompressionCodec.ZSTD)).toBeUndefined();
    expect(decompressPage(codecs, CompressionCodec.ZSTD, page, want.length)).toEqual(want);
    expect(await lazy.load!()).toBe(zstdDecoder);
    expect(codeOf(() => compressPage(codecs, CompressionCodec.ZSTD, want))).toBe(CodecErrorCode.MISSING);
  });
});
