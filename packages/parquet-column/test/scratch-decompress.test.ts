// decompressPage into a reused scratch buffer (the chunk decoder's pool): every codec must write every byte of the
// declared size, never relying on a zeroed output. Each page is decompressed into a buffer full of stale bytes (a
// pattern, or the previous page's output) and must equal the data compressed — with runs of zeros, which a decoder
// assuming a fresh buffer would skip. The data is the independent expectation; a new buffer is checked too.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CompressionCodec, builtinCodecs, compressPage, decompressPage, type Codec, type CodecMap } from '@parquetry/parquet-codecs';
import { createGzipCodec } from '../../codec-gzip/src/index.js';
import { createZstdCodec, zstdDecoder } from '../../codec-zstd/src/index.js';
import { brotliDecoder, createBrotliCodec } from '../../codec-brotli/src/index.js';

/** Page-like bytes: runs of zeros, of one byte, repeated phrases and noise. */
const pageArb = fc
  .array(
    fc.oneof(
      fc.integer({ min: 1, max: 3000 }).map((n) => new Uint8Array(n)),
      fc.tuple(fc.integer({ min: 1, max: 255 }), fc.integer({ min: 1, max: 500 })).map(([b, n]) => new Uint8Array(n).fill(b)),
      fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 60 })).map(([p, k]) => {
        const out = new Uint8Array(p.length * k);
        for (let i = 0; i < k; i++) out.set(p, i * p.length);
        return out;
      }),
      fc.uint8Array({ minLength: 1, maxLength: 300 }),
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((parts) => {
    const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  });

describe('decompressPage into a reused scratch buffer', async () => {
  const zstd = await createZstdCodec();
  const brotli = await createBrotliCodec();
  const builtin = builtinCodecs();
  // [name, compressor, decompressor]: the decoders a reader is given (own ZSTD and BROTLI decoders, and the wasm ones)
  const cases: [string, Codec, Codec][] = [
    ['SNAPPY', builtin[CompressionCodec.SNAPPY]!, builtin[CompressionCodec.SNAPPY]!],
    ['LZ4', builtin[CompressionCodec.LZ4]!, builtin[CompressionCodec.LZ4]!],
    ['LZ4_RAW', builtin[CompressionCodec.LZ4_RAW]!, builtin[CompressionCodec.LZ4_RAW]!],
    ['LZO', builtin[CompressionCodec.LZO]!, builtin[CompressionCodec.LZO]!],
    ['GZIP', createGzipCodec(), createGzipCodec()],
    ['ZSTD (zstdDecoder)', zstd, zstdDecoder],
    ['ZSTD (wasm)', zstd, zstd],
    ['BROTLI (brotliDecoder)', brotli, brotliDecoder],
    ['BROTLI (wasm)', brotli, brotli],
  ];
  for (const [name, enc, dec] of cases) {
    test(`${name}: every byte written over stale bytes`, () => {
      const cEnc: CodecMap = { [enc.codec]: enc };
      const cDec: CodecMap = { [dec.codec]: dec };
      let compressible = true;
      try {
        compressPage(cEnc, enc.codec, new Uint8Array(4));
      } catch {
        compressible = false;
      }
      if (!compressible) {
        // LZO: a decoder only; nothing to compress pages with here
        expect(name).toBe('LZO');
        return;
      }
      // one scratch buffer across every page of the run, as the pool lends it
      const scratch = new Uint8Array(64 * 1024).fill(0xa5);
      fc.assert(
        fc.property(pageArb, fc.integer({ min: 0, max: 255 }), (page, stale) => {
          const compressed = compressPage(cEnc, enc.codec, page);
          if (page.length > scratch.length) return;
          // stale bytes where the page goes: a fill, except every 3rd run keeps what the previous page left
          if (stale % 3 !== 0) scratch.fill(stale);
          const got = decompressPage(cDec, dec.codec, compressed, page.length, 0, scratch);
          expect(got.buffer).toBe(scratch.buffer);
          expect(got.length).toBe(page.length);
          expect(Buffer.from(got).equals(Buffer.from(page))).toBe(true);
          // and into a new buffer
          expect(Buffer.from(decompressPage(cDec, dec.codec, compressed, page.length)).equals(Buffer.from(page))).toBe(true);
        }),
        { numRuns: 150 },
      );
    });
  }

  test('a scratch buffer shorter than the page is not used; UNCOMPRESSED returns the bytes given', () => {
    const page = new Uint8Array(5000).fill(7);
    const snappy: CodecMap = builtinCodecs();
    const small = new Uint8Array(100);
    const got = decompressPage(snappy, CompressionCodec.SNAPPY, compressPage(snappy, CompressionCodec.SNAPPY, page), page.length, 0, small);
    expect(got.buffer).not.toBe(small.buffer);
    expect(Array.from(small)).toEqual(new Array(100).fill(0));
    expect(Buffer.from(got).equals(Buffer.from(page))).toBe(true);
    const big = new Uint8Array(8000);
    expect(decompressPage(undefined, CompressionCodec.UNCOMPRESSED, page, page.length, 0, big)).toBe(page);
  });
});
