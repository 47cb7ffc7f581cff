// snappyDecoder: the readers' SNAPPY codec, decompression only.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CompressionCodec, decompressPage, isParquetError, snappyCodec, snappyDecoder } from '../src/index.js';

describe('snappyDecoder', () => {
  test('decompresses a stream written by hand from the format description', () => {
    // preamble 11 (varint), literal of 5 "abcde" (tag (5-1)<<2), copy-1 of length 6 at offset 5 (tag 0b001 | (6-4)<<2)
    const src = new Uint8Array([11, 4 << 2, 0x61, 0x62, 0x63, 0x64, 0x65, 0x01 | (2 << 2), 5]);
    const out = new Uint8Array(11);
    expect(snappyDecoder.decompress(src, out)).toBe(11);
    expect(Buffer.from(out).toString()).toBe('abcdeabcdea');
    expect(snappyDecoder.codec).toBe(CompressionCodec.SNAPPY);
  });

  test('compress is refused with CODEC_UNAVAILABLE', () => {
    let err: unknown;
    try {
      snappyDecoder.compress(new Uint8Array(3));
    } catch (e) {
      err = e;
    }
    expect(isParquetError(err) && err.code).toBe('CODEC_UNAVAILABLE');
  });

  test('reads back what snappyCodec writes, through decompressPage (fast-check)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 3000 }), fc.array(fc.constantFrom(0, 1, 2, 97), { maxLength: 5000 }).map((a) => Uint8Array.from(a))), (data) => {
        const page = snappyCodec.compress(data);
        const got = decompressPage({ [CompressionCodec.SNAPPY]: snappyDecoder }, CompressionCodec.SNAPPY, page, data.length);
        expect(Buffer.from(got).equals(Buffer.from(data))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
