// The umbrella preset (packages/parquetry/src/codecs.ts, imported by path: parquetry has its own test folder,
// owned elsewhere): every codec number is covered, both directions, and what the sync preset lacks fails clearly.
import { expect, test } from 'vitest';
import { CodecErrorCode, CompressionCodec, compressPage, decompressPage, isParquetError } from '@parquetry/parquet-codecs';
import { allCodecs, syncCodecs } from '../../parquetry/src/codecs.js';
import { textBytes } from './inputs.js';

test('allCodecs() round-trips every codec of parquet.thrift', async () => {
  const codecs = await allCodecs({ zstdLevel: 1, brotliQuality: 1, gzipLevel: 1 });
  const input = textBytes(50_000, 77);
  for (const codec of Object.values(CompressionCodec)) {
    const packed = compressPage(codecs, codec, input);
    if (codec !== CompressionCodec.UNCOMPRESSED) expect(packed.length).toBeLessThan(input.length / 2);
    expect(Buffer.from(decompressPage(codecs, codec, packed, input.length)).equals(Buffer.from(input))).toBe(true);
  }
  expect(Object.keys(codecs).map(Number).sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
});

test('syncCodecs() reads all but BROTLI, and says which package to use', async () => {
  const sync = syncCodecs();
  const all = await allCodecs();
  const input = textBytes(10_000, 78);
  for (const codec of [CompressionCodec.SNAPPY, CompressionCodec.GZIP, CompressionCodec.LZO, CompressionCodec.LZ4, CompressionCodec.ZSTD, CompressionCodec.LZ4_RAW]) {
    const packed = compressPage(all, codec, input);
    expect(decompressPage(sync, codec, packed, input.length).length).toBe(input.length);
  }
  try {
    decompressPage(sync, CompressionCodec.BROTLI, compressPage(all, CompressionCodec.BROTLI, input), input.length);
    expect.unreachable();
  } catch (e) {
    expect(isParquetError(e) && e.code).toBe(CodecErrorCode.MISSING);
    expect((e as Error).message).toContain('@parquetry/codec-brotli');
  }
  expect(() => compressPage(sync, CompressionCodec.ZSTD, input)).toThrow(/createZstdCodec/);
});
