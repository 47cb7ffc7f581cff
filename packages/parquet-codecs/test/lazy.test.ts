// Codecs loaded on first use (lazyCodec / prepareCodec / loadCodecs): one load for many calls, a failed load retried
// and reported as CODEC_UNAVAILABLE naming the codec and what was loaded, calls before the load a typed error.
import { describe, expect, test } from 'vitest';
import { CodecErrorCode, CompressionCodec, decompressPage, compressPage, isParquetError, lazyCodec, loadCodecs, prepareCodec, snappyCodec, type Codec } from '@parquetry/parquet-codecs';
import { codeOf } from './inputs.js';

describe('lazyCodec', () => {
  test('loads once, then delegates; prepareCodec has nothing to wait for afterwards', async () => {
    let loads = 0;
    const lazy = lazyCodec(CompressionCodec.SNAPPY, 'a test chunk', async () => {
      loads++;
      return snappyCodec;
    });
    const codecs = { [CompressionCodec.SNAPPY]: lazy };
    const input = new TextEncoder().encode('abcabcabcabcabcabc the lazy codec');
    expect(codeOf(() => compressPage(codecs, CompressionCodec.SNAPPY, input))).toBe(CodecErrorCode.UNAVAILABLE);
    const packed = snappyCodec.compress(input);
    expect(codeOf(() => decompressPage(codecs, CompressionCodec.SNAPPY, packed, input.length))).toBe(CodecErrorCode.UNAVAILABLE);
    const waits = [prepareCodec(codecs, CompressionCodec.SNAPPY), prepareCodec(codecs, CompressionCodec.SNAPPY)];
    expect(waits.every((w) => w instanceof Promise)).toBe(true);
    await Promise.all(waits);
    expect(loads).toBe(1);
    expect(prepareCodec(codecs, CompressionCodec.SNAPPY)).toBeUndefined();
    expect(decompressPage(codecs, CompressionCodec.SNAPPY, packed, input.length)).toEqual(input);
    expect(compressPage(codecs, CompressionCodec.SNAPPY, input)).toEqual(packed);
    expect(await lazy.load!()).toBe(snappyCodec);
    expect(loads).toBe(1);
  });

  test('nothing to wait for: no codec, UNCOMPRESSED, a plain codec', () => {
    const codecs = { [CompressionCodec.SNAPPY]: snappyCodec };
    expect(prepareCodec(undefined, CompressionCodec.ZSTD)).toBeUndefined();
    expect(prepareCodec(codecs, CompressionCodec.UNCOMPRESSED)).toBeUndefined();
    expect(prepareCodec(codecs, CompressionCodec.SNAPPY)).toBeUndefined();
    expect(prepareCodec(codecs, 99)).toBeUndefined();
  });

  test('a failed load is CODEC_UNAVAILABLE naming the codec and what was loaded, and is tried again', async () => {
    let attempts = 0;
    const lazy = lazyCodec(CompressionCodec.ZSTD, 'ZSTD WebAssembly from https://example.test/zstd.wasm', async () => {
      attempts++;
      if (attempts === 1) throw new TypeError('Failed to fetch');
      return { codec: CompressionCodec.ZSTD, decompress: (_s, out) => out.length, compress: (s) => s } satisfies Codec;
    });
    const codecs = { [CompressionCodec.ZSTD]: lazy };
    const e = await prepareCodec(codecs, CompressionCodec.ZSTD)!.catch((x: unknown) => x);
    expect(isParquetError(e)).toBe(true);
    expect((e as { code: string }).code).toBe(CodecErrorCode.UNAVAILABLE);
    expect((e as Error).message).toMatch(/ZSTD codec \(ZSTD WebAssembly from https:\/\/example\.test\/zstd\.wasm\): Failed to fetch/);
    await loadCodecs(codecs, [CompressionCodec.ZSTD, CompressionCodec.ZSTD, CompressionCodec.SNAPPY]);
    expect(attempts).toBe(2);
    expect(decompressPage(codecs, CompressionCodec.ZSTD, new Uint8Array([1]), 4)).toHaveLength(4);
  });

  test('a load that gives something else than the codec is CODEC_UNAVAILABLE', async () => {
    const wrong = lazyCodec(CompressionCodec.BROTLI, 'a chunk', async () => snappyCodec);
    await expect(wrong.load!()).rejects.toMatchObject({ code: CodecErrorCode.UNAVAILABLE, message: expect.stringMatching(/gave no BROTLI codec/) });
    const junk = lazyCodec(CompressionCodec.BROTLI, 'a chunk', async () => null as unknown as Codec);
    await expect(junk.load!()).rejects.toMatchObject({ code: CodecErrorCode.UNAVAILABLE });
  });
});
