// The lazy GZIP codec (@parquetry/codec-gzip/lazy): the level checked at once, CODEC_UNAVAILABLE until a reader
// prepares it (or a writer loads it), then fflate's codec, checked against Node's zlib both ways.
import zlib from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { CodecErrorCode, CompressionCodec, compressPage, decompressPage, loadCodecs, prepareCodec } from '@parquetry/parquet-codecs';
import { lazyGzipCodec } from '@parquetry/codec-gzip/lazy';
import { codeOf, textBytes } from '../../parquet-codecs/test/inputs.js';

describe('lazyGzipCodec', () => {
  test('a bad level is CODEC_SIZE at once', () => {
    for (const level of [-1, 10, 1.5, Number.NaN]) expect(codeOf(() => lazyGzipCodec({ level }))).toBe(CodecErrorCode.SIZE);
  });

  test('CODEC_UNAVAILABLE before its load; afterwards zlib streams decode and its output is a zlib stream', async () => {
    const lazy = lazyGzipCodec({ level: 9 });
    expect(lazy.codec).toBe(CompressionCodec.GZIP);
    const codecs = { [CompressionCodec.GZIP]: lazy };
    const input = textBytes(50_000, 7);
    const theirs = new Uint8Array(zlib.gzipSync(input));
    expect(codeOf(() => decompressPage(codecs, CompressionCodec.GZIP, theirs, input.length))).toBe(CodecErrorCode.UNAVAILABLE);
    expect(codeOf(() => compressPage(codecs, CompressionCodec.GZIP, input))).toBe(CodecErrorCode.UNAVAILABLE);
    await prepareCodec(codecs, CompressionCodec.GZIP);
    expect(decompressPage(codecs, CompressionCodec.GZIP, theirs, input.length)).toEqual(input);
    await loadCodecs(codecs, [CompressionCodec.GZIP]);
    const ours = compressPage(codecs, CompressionCodec.GZIP, input);
    expect(new Uint8Array(zlib.gunzipSync(ours))).toEqual(input);
    // level 9 was passed on: the same bytes as the eager codec at level 9
    const { createGzipCodec } = await import('@parquetry/codec-gzip');
    expect(ours).toEqual(createGzipCodec({ level: 9 }).compress(input));
  });
});
