// Declared sizes against what compressed bytes can hold: a page header's uncompressed_page_size is untrusted, and a
// 126-byte page claiming 2^31-1 bytes must fail before a 2 GiB buffer is allocated. The bounds come from the formats
// (https://github.com/google/snappy/blob/main/format_description.txt: the varint length preamble, copy elements of at
// most 64 bytes from 3 bytes; RFC 1951: at most 258 bytes per length/distance pair of at least 2 bits, hence 1032:1;
// LZ4 block format: each length byte adds at most 255; RFC 8878: a block of at most 128 KiB takes at least 4 bytes).
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { CodecErrorCode, CompressionCodec, builtinCodecs, decompressPage, maxDecompressedSize, isParquetError, type Codec } from '../src/index.js';

/** GZIP through node:zlib (a peer implementation), bounded to the output as the Codec contract asks. */
const zlibGzip: Codec = {
  codec: CompressionCodec.GZIP,
  decompress: (src, out) => {
    const r = gunzipSync(src);
    out.set(r.subarray(0, out.length));
    return r.length;
  },
  compress: (src) => gzipSync(src),
};
const codecs = { ...builtinCodecs(), [CompressionCodec.GZIP]: zlibGzip };
const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    if (isParquetError(e)) return e.code;
    throw e;
  }
  return undefined;
};
/** Snappy by hand: the varint preamble, then one literal element (tag (len-1)<<2, the bytes). */
const snappyLiteral = (preamble: number[], bytes: number[]) => new Uint8Array([...preamble, (bytes.length - 1) << 2, ...bytes]);

describe('a declared size larger than the stream can hold fails before allocation', () => {
  test('126-byte SNAPPY and GZIP pages claiming 2^31-1 bytes: CODEC_SIZE, at once', () => {
    const huge = 2 ** 31 - 1;
    const snappy = snappyLiteral([0x7a], new Array(122).fill(0x61)); // preamble 122, a 122-byte literal: 124 bytes
    const page126 = new Uint8Array(126);
    page126.set(snappy);
    const gz = new Uint8Array(126);
    gz.set(gzipSync(new Uint8Array(100).fill(7)).subarray(0, 126));
    for (const [codec, src] of [[CompressionCodec.SNAPPY, page126], [CompressionCodec.GZIP, gz]] as const) {
      const before = process.memoryUsage().arrayBuffers;
      const t = performance.now();
      expect(codeOf(() => decompressPage(codecs, codec, src, huge, 4))).toBe(CodecErrorCode.SIZE);
      expect(performance.now() - t).toBeLessThan(200);
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 << 20);
    }
  });

  test('SNAPPY: the preamble is the size; a header disagreeing with it is CODEC_SIZE naming both', () => {
    const src = snappyLiteral([5], [1, 2, 3, 4, 5]);
    expect(Array.from(decompressPage(codecs, CompressionCodec.SNAPPY, src, 5))).toEqual([1, 2, 3, 4, 5]);
    try {
      decompressPage(codecs, CompressionCodec.SNAPPY, src, 6, 100);
      expect.unreachable();
    } catch (e) {
      expect(isParquetError(e) && e.code).toBe(CodecErrorCode.SIZE);
      expect((e as Error).message).toContain('page at byte 100 declares 6 uncompressed bytes, but its snappy length preamble says 5');
    }
    // a preamble claiming more than 64/3 bytes per element byte is corrupt whatever the header says
    const claims = snappyLiteral([0xff, 0xff, 0xff, 0xff, 0x07], [1]);
    expect(codeOf(() => decompressPage(codecs, CompressionCodec.SNAPPY, claims, 2 ** 31 - 1))).toBe(CodecErrorCode.CORRUPT);
  });

  test('the bounds of each codec, by hand', () => {
    const src = new Uint8Array(300);
    expect(maxDecompressedSize(CompressionCodec.GZIP, src)).toEqual({ bound: 300 * 1032 });
    expect(maxDecompressedSize(CompressionCodec.LZ4_RAW, src)).toEqual({ bound: 300 * 256 + 16 });
    expect(maxDecompressedSize(CompressionCodec.LZ4, src)).toEqual({ bound: 300 * 256 + 16 });
    expect(maxDecompressedSize(CompressionCodec.ZSTD, src)).toEqual({ bound: 300 * 32768 });
    expect(maxDecompressedSize(CompressionCodec.LZO, src)).toEqual({ bound: 300 * 255 });
    expect(maxDecompressedSize(CompressionCodec.BROTLI, src)).toBeUndefined();
    expect(maxDecompressedSize(CompressionCodec.UNCOMPRESSED, src)).toBeUndefined();
    // snappy: preamble 100 (1 byte), 9 element bytes hold at most 9 * 64 / 3 = 192
    expect(maxDecompressedSize(CompressionCodec.SNAPPY, snappyLiteral([100], new Array(8).fill(0)))).toEqual({ bound: 192, exact: 100 });
  });

  test('property: highly compressible data of every bounded codec still decompresses (the bounds are not too tight)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 1 << 20 }), (byte, n) => {
        const input = new Uint8Array(n).fill(byte);
        for (const codec of [CompressionCodec.SNAPPY, CompressionCodec.GZIP, CompressionCodec.LZ4_RAW, CompressionCodec.LZ4] as const) {
          const packed = codecs[codec]!.compress(input);
          expect(Buffer.from(decompressPage(codecs, codec, packed, n)).equals(input)).toBe(true);
        }
        // the maximal gzip ratio: zlib at level 9 on zeros stays under 1032:1
        const gz = gzipSync(input, { level: 9 });
        expect(decompressPage(codecs, CompressionCodec.GZIP, gz, n).length).toBe(n);
      }),
      { numRuns: 12 },
    );
  });
});
