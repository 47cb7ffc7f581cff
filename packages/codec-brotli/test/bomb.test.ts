// Issue 16: a BROTLI page decompresses to at most its declared size. RFC 7932 has no useful expansion bound (a
// meta-block of up to 16 MiB can be one copy command), so the WebAssembly codec's streaming decoder is asked for at
// most the bytes left (+1) per call and stops one byte over. The bomb is 1 GiB + 16 MiB of zeros through node:zlib's
// brotli encoder (a peer), a few hundred bytes, declared as 1 KiB.
import zlib from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { CodecErrorCode, CompressionCodec, decompressPage, isParquetError } from '@parquetry/parquet-codecs';
import { createBrotliCodec } from '@parquetry/codec-brotli';

/** 65 × 16 MiB of zeros as one BROTLI stream, through node:zlib's streaming encoder. */
async function bomb(): Promise<Uint8Array> {
  const enc = zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_LGWIN]: 24 } });
  const parts: Buffer[] = [];
  enc.on('data', (d: Buffer) => parts.push(d));
  const done = new Promise<void>((resolve, reject) => {
    enc.on('end', resolve);
    enc.on('error', reject);
  });
  const zeros = new Uint8Array(1 << 24);
  for (let i = 0; i < 65; i++) {
    if (!enc.write(zeros)) await new Promise((r) => enc.once('drain', r));
  }
  enc.end();
  await done;
  return new Uint8Array(Buffer.concat(parts));
}

describe('BROTLI bombs', () => {
  test('the WebAssembly codec: a stream of 1 GiB + 16 MiB declared as 1 KiB is CODEC_OVERRUN, with little memory', async () => {
    const src = await bomb();
    expect(src.length).toBeLessThan(1024);
    // the stream is what it says: node:zlib decodes it to 65 × 16 MiB (counted, not kept)
    let total = 0;
    await new Promise<void>((resolve, reject) => {
      const dec = zlib.createBrotliDecompress();
      dec.on('data', (d: Buffer) => (total += d.length));
      dec.on('end', resolve);
      dec.on('error', reject);
      dec.end(src);
    });
    expect(total).toBe(65 * (1 << 24));
    const brotli = await createBrotliCodec();
    const rss = process.memoryUsage().rss;
    let code: string | undefined;
    try {
      decompressPage({ [CompressionCodec.BROTLI]: brotli }, CompressionCodec.BROTLI, src, 1024);
    } catch (e) {
      if (!isParquetError(e)) throw e;
      code = e.code;
    }
    expect(code).toBe(CodecErrorCode.OVERRUN);
    // the decoder's window (16 MiB) and its WebAssembly heap, never the 1 GiB the stream holds
    expect(process.memoryUsage().rss - rss).toBeLessThan(128 << 20);
  }, 60_000);
});
