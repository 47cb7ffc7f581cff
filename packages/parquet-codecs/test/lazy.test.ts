// Codecs loaded on first use (lazyCodec / prepareCodec / loadCodecs): one load for many calls, a failed load retried
// and reported as CODEC_UNAVAILABLE naming the codec and what was loaded, calls before the load a typed error; the
// lazy preset of /lazy (SNAPPY at once, LZ4, LZ4_RAW and LZO on first use) on streams written by hand.
import { describe, expect, test } from 'vitest';
import { CodecErrorCode, CompressionCodec, decompressPage, compressPage, isParquetError, lazyCodec, loadCodecs, lz4HadoopCodec, lz4RawCodec, lzoCodec, prepareCodec, snappyCodec, snappyDecoder, type Codec } from '@parquetry/parquet-codecs';
import { lazyBuiltinCodecs } from '@parquetry/parquet-codecs/lazy';
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

describe('lazyBuiltinCodecs (@parquetry/parquet-codecs/lazy)', () => {
  test('SNAPPY decodes at once; LZ4, LZ4_RAW and LZO load on first use, then decode hand-made streams', async () => {
    const codecs = lazyBuiltinCodecs();
    expect(Object.keys(codecs).map(Number).sort()).toEqual([CompressionCodec.SNAPPY, CompressionCodec.LZO, CompressionCodec.LZ4, CompressionCodec.LZ4_RAW].sort());
    // SNAPPY: preamble 5, literal element of 5 bytes (tag (5-1)<<2)
    const hello = new TextEncoder().encode('hello');
    expect(prepareCodec(codecs, CompressionCodec.SNAPPY)).toBeUndefined();
    expect(decompressPage(codecs, CompressionCodec.SNAPPY, new Uint8Array([5, 4 << 2, ...hello]), 5)).toEqual(hello);
    expect(codeOf(() => compressPage(codecs, CompressionCodec.SNAPPY, hello))).toBe(CodecErrorCode.UNAVAILABLE);
    // LZ4 block: token 0x50 (5 literals, no match), the literals — bare for LZ4_RAW; Hadoop framing adds a
    // big-endian uncompressed size (5) and compressed size (6) before the block
    const block = [0x50, ...hello];
    const hadoop = new Uint8Array([0, 0, 0, 5, 0, 0, 0, 6, ...block]);
    // LZO1X: first byte 17 + 5 (5 literals), the literals, then the end marker 0x11 0x00 0x00
    const lzo = new Uint8Array([17 + 5, ...hello, 0x11, 0, 0]);
    const pages: [number, Uint8Array][] = [[CompressionCodec.LZ4_RAW, new Uint8Array(block)], [CompressionCodec.LZ4, hadoop], [CompressionCodec.LZO, lzo]];
    for (const [codec, page] of pages) {
      expect(codeOf(() => decompressPage(codecs, codec, page, 5)), `codec ${codec} before its load`).toBe(CodecErrorCode.UNAVAILABLE);
      await prepareCodec(codecs, codec);
      expect(prepareCodec(codecs, codec)).toBeUndefined();
      expect(decompressPage(codecs, codec, page, 5), `codec ${codec}`).toEqual(hello);
    }
    // loaded, they are this package's codecs (both directions)
    expect(await codecs[CompressionCodec.LZ4_RAW]!.load!()).toBe(lz4RawCodec);
    expect(await codecs[CompressionCodec.LZ4]!.load!()).toBe(lz4HadoopCodec);
    expect(await codecs[CompressionCodec.LZO]!.load!()).toBe(lzoCodec);
  });

  test('the codecs given are added under their own numbers, replacing any of this package', () => {
    const gzip: Codec = { codec: CompressionCodec.GZIP, decompress: () => 0, compress: (s) => s };
    const lz4: Codec = { codec: CompressionCodec.LZ4_RAW, decompress: () => 0, compress: (s) => s };
    const codecs = lazyBuiltinCodecs(gzip, lz4);
    expect(codecs[CompressionCodec.GZIP]).toBe(gzip);
    expect(codecs[CompressionCodec.LZ4_RAW]).toBe(lz4);
    expect(codecs[CompressionCodec.SNAPPY]).toBe(snappyDecoder);
    // a new map each call: lazy codecs are not shared between maps
    expect(lazyBuiltinCodecs()[CompressionCodec.LZO]).not.toBe(lazyBuiltinCodecs()[CompressionCodec.LZO]);
  });
});
