// Issue 16: LZO pages decompress to at most their declared size. LZO1X can expand (a match length grows by 255 per
// zero byte, Linux Documentation/staging/lzo.rst), so a page's untrusted uncompressed_page_size is checked against
// 255 bytes per compressed byte before its buffer is allocated, and a stream that expands past the declared size
// stops with CODEC_OVERRUN at the instruction that would cross it. Streams here are written by hand from the
// instruction set: a first-byte literal run, one M3 match (001 00000, zero bytes, a length byte, LE16 distance),
// and the end marker (0x11 0x00 0x00).
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { CodecErrorCode, CompressionCodec, decompressPage, isParquetError, lzoCodec, maxDecompressedSize } from '../src/index.js';

const codecs = { [CompressionCodec.LZO]: lzoCodec };

/** One literal 0x00, then an M3 match at distance 1 of `31 + 255·zeros + last + 2` bytes, then the end marker. */
function lzoRun(zeros: number, last: number): { src: Uint8Array; size: number } {
  const src = new Uint8Array(2 + 1 + zeros + 1 + 2 + 3);
  let p = 0;
  src[p++] = 17 + 1; // first byte > 17: one literal follows
  src[p++] = 0;
  src[p++] = 32; // M3 with length 0: the length continues in the next bytes
  p += zeros; // zero bytes: +255 each
  src[p++] = last;
  src[p++] = 0; // distance (0 >> 2) + 1 = 1, no trailing literals
  src[p++] = 0;
  src[p++] = 0x11; // M4 at distance 16384: end of stream
  return { src, size: 1 + 31 + 255 * zeros + last + 2 };
}

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    if (isParquetError(e)) return e.code;
    throw e;
  }
  return undefined;
};

describe('LZO decompression is bounded by the declared size', () => {
  test('the hand-made stream decodes to the bytes its instructions say (so the bomb below is one)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 1, max: 255 }), (zeros, last) => {
        const { src, size } = lzoRun(zeros, last);
        const out = decompressPage(codecs, CompressionCodec.LZO, src, size);
        expect(out.length).toBe(size);
        expect(out.every((b) => b === 0)).toBe(true);
        // one byte short or over: the declared size is enforced both ways
        expect(codeOf(() => decompressPage(codecs, CompressionCodec.LZO, src, size - 1))).toBe(CodecErrorCode.OVERRUN);
        expect(codeOf(() => decompressPage(codecs, CompressionCodec.LZO, src, size + 1))).toBe(CodecErrorCode.SHORT);
      }),
      { numRuns: 50 },
    );
  });

  test('a 4 MiB stream expanding to more than 1 GiB, declared as 1 KiB: CODEC_OVERRUN without allocating more', () => {
    const { src, size } = lzoRun(Math.ceil(2 ** 30 / 255) + 1, 255);
    expect(size).toBeGreaterThan(2 ** 30);
    expect(src.length).toBeLessThan(5 << 20);
    expect(size).toBeLessThanOrEqual(maxDecompressedSize(CompressionCodec.LZO, src)!.bound); // the bound admits it
    const before = process.memoryUsage().arrayBuffers;
    expect(codeOf(() => decompressPage(codecs, CompressionCodec.LZO, src, 1024))).toBe(CodecErrorCode.OVERRUN);
    expect(codeOf(() => lzoCodec.decompress(src, new Uint8Array(1024)))).toBe(CodecErrorCode.OVERRUN);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1 << 20);
  });

  test('a few hundred bytes declaring 1 GiB: CODEC_SIZE from the 255:1 bound before anything is allocated', () => {
    const { src, size } = lzoRun(300, 255);
    expect(src.length).toBeLessThan(400);
    expect(codeOf(() => decompressPage(codecs, CompressionCodec.LZO, src, 2 ** 30))).toBe(CodecErrorCode.SIZE);
    // the same stream declared at its true size decodes: the bound does not refuse what the stream can hold
    expect(decompressPage(codecs, CompressionCodec.LZO, src, size).length).toBe(size);
    expect(size).toBeLessThanOrEqual(maxDecompressedSize(CompressionCodec.LZO, src)!.bound);
  });

  test('property: the longest LZO1X match per byte stays under the bound (z zero bytes: 288 + 255z bytes from z + 4)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), (zeros) => {
        const { src, size } = lzoRun(zeros, 255);
        // the whole stream minus its 5 bytes of literal and end marker
        expect(size - 1).toBeLessThanOrEqual(255 * (src.length - 5));
        expect(size).toBeLessThanOrEqual(maxDecompressedSize(CompressionCodec.LZO, src)!.bound);
      }),
    );
  });
});
