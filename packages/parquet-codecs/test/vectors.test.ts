// Hand-built streams from the format descriptions, and the typed errors for malformed, truncated and oversized input.
import { describe, expect, test } from 'vitest';
import {
  CodecErrorCode,
  CompressionCodec,
  builtinCodecs,
  compressPage,
  decompressPage,
  isParquetError,
  lz4HadoopDecompress,
  lz4RawCodec,
  lz4RawDecompress,
  lzo1xDecompress,
  lzoCodec,
  lzoDecompress,
  lz4HadoopCodec,
  snappyCodec,
  snappyDecompress,
  snappyUncompressedLength,
} from '@parquetry/parquet-codecs';
import { textBytes, codeOf } from './inputs.js';

const bytes = (...parts: (number | string)[]): Uint8Array =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : [p])));
const text = (b: Uint8Array): string => new TextDecoder().decode(b);


describe('hand-built SNAPPY streams (format_description.txt)', () => {
  test('literal', () => {
    // uvarint 5, literal tag (5-1)<<2
    const out = new Uint8Array(5);
    expect(snappyDecompress(bytes(5, 0x10, 'hello'), out)).toBe(5);
    expect(text(out)).toBe('hello');
  });
  test('1-byte-offset copy, overlapping', () => {
    // 12 bytes: literal 'abcd', then copy len 8 offset 4: tag ((4>>8)<<5)|((8-4)<<2)|1 = 0x11, offset byte 4
    const out = new Uint8Array(12);
    snappyDecompress(bytes(12, 0x0c, 'abcd', 0x11, 4), out);
    expect(text(out)).toBe('abcdabcdabcd');
  });
  test('2- and 4-byte-offset copies, 60-tag literal length', () => {
    // literal of 61 bytes: tag 60<<2, length-1 = 60 in one byte; then copy2 len 3 offset 61; copy4 len 2 offset 1
    const lit = 'x'.repeat(60) + 'y';
    const out = new Uint8Array(66);
    snappyDecompress(bytes(66, 60 << 2, 60, lit, (2 << 2) | 2, 61, 0, (1 << 2) | 3, 1, 0, 0, 0), out);
    expect(text(out)).toBe(lit + 'xxx' + 'xx');
  });
  test('preamble', () => {
    expect(snappyUncompressedLength(bytes(0xfe, 0xff, 0x7f))).toBe(2097150);
    expect(codeOf(() => snappyUncompressedLength(bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0x01)))).toBe(CodecErrorCode.CORRUPT);
  });
  test('errors', () => {
    expect(codeOf(() => snappyDecompress(bytes(5, 0x10, 'hell'), new Uint8Array(5)))).toBe(CodecErrorCode.CORRUPT); // truncated literal
    expect(codeOf(() => snappyDecompress(bytes(6, 0x10, 'hello'), new Uint8Array(5)))).toBe(CodecErrorCode.OVERRUN); // declares more than the page
    expect(codeOf(() => snappyDecompress(bytes(6, 0x10, 'hello'), new Uint8Array(6)))).toBe(CodecErrorCode.CORRUPT); // stops short of its own length
    expect(codeOf(() => snappyDecompress(bytes(9, 0x00, 'a', 0x11, 2), new Uint8Array(9)))).toBe(CodecErrorCode.CORRUPT); // offset before start
    expect(codeOf(() => snappyDecompress(bytes(9, 0x00, 'a', 0x11, 0), new Uint8Array(9)))).toBe(CodecErrorCode.CORRUPT); // offset 0
    expect(codeOf(() => snappyDecompress(bytes(5, 0x00, 'a', 0x11, 1), new Uint8Array(5)))).toBe(CodecErrorCode.OVERRUN); // copy past declared
  });
});

describe('hand-built LZ4 blocks (lz4_Block_format.md)', () => {
  test('literal + overlapping match + last literals', () => {
    // token 0x14: 1 literal 'a', match 4+4 = 8 at offset 1; token 0x50: 5 literals
    const out = new Uint8Array(14);
    expect(lz4RawDecompress(bytes(0x14, 'a', 1, 0, 0x50, 'aaaab'), out)).toBe(14);
    expect(text(out)).toBe('aaaaaaaaaaaaab');
  });
  test('extended lengths', () => {
    // 15+3 = 18 literals, then match 15+4+1 = 20 at offset 18, then token 0x00 (no literals, end)
    const lit = 'abcdefghijklmnopqr';
    const out = new Uint8Array(38);
    expect(lz4RawDecompress(bytes(0xff, 3, lit, 18, 0, 1, 0x00), out)).toBe(38);
    expect(text(out)).toBe(lit + lit + 'ab');
  });
  test('errors', () => {
    expect(codeOf(() => lz4RawDecompress(bytes(0x14, 'a', 2, 0, 0x00), new Uint8Array(20)))).toBe(CodecErrorCode.CORRUPT); // offset too far
    expect(codeOf(() => lz4RawDecompress(bytes(0x14, 'a', 0, 0, 0x00), new Uint8Array(20)))).toBe(CodecErrorCode.CORRUPT); // offset 0
    expect(codeOf(() => lz4RawDecompress(bytes(0x14, 'a', 1), new Uint8Array(20)))).toBe(CodecErrorCode.CORRUPT); // truncated offset
    expect(codeOf(() => lz4RawDecompress(bytes(0x14, 'a', 1, 0, 0x00), new Uint8Array(5)))).toBe(CodecErrorCode.OVERRUN);
    expect(codeOf(() => lz4RawDecompress(bytes(), new Uint8Array(0)))).toBe(CodecErrorCode.CORRUPT); // empty block
    expect(codeOf(() => lz4RawDecompress(bytes(0xf0, 255, 255), new Uint8Array(1000)))).toBe(CodecErrorCode.CORRUPT); // length runs off
  });
  test('Hadoop framing: two blocks, and the raw fallback', () => {
    // block 1: 4 bytes 'abcd'; block 2: 14 bytes as above
    const framed = bytes(0, 0, 0, 4, 0, 0, 0, 5, 0x40, 'abcd', 0, 0, 0, 14, 0, 0, 0, 10, 0x14, 'a', 1, 0, 0x50, 'aaaab');
    const out = new Uint8Array(18);
    expect(lz4HadoopDecompress(framed, out)).toBe(18);
    expect(text(out)).toBe('abcdaaaaaaaaaaaaab');
    const raw = bytes(0x14, 'a', 1, 0, 0x50, 'aaaab');
    const out2 = new Uint8Array(14);
    expect(lz4HadoopDecompress(raw, out2)).toBe(14);
    expect(text(out2)).toBe('aaaaaaaaaaaaab');
    expect(codeOf(() => lz4HadoopDecompress(bytes(0, 0, 0, 4, 0, 0, 0, 5, 0x40, 'abc'), new Uint8Array(4)))).toBe(CodecErrorCode.CORRUPT);
    // one Hadoop block of 18 bytes made of two compressed chunks (BlockCompressorStream may split a block)
    const twoChunks = bytes(0, 0, 0, 18, 0, 0, 0, 5, 0x40, 'abcd', 0, 0, 0, 10, 0x14, 'a', 1, 0, 0x50, 'aaaab');
    const out3 = new Uint8Array(18);
    expect(lz4HadoopDecompress(twoChunks, out3)).toBe(18);
    expect(text(out3)).toBe('abcdaaaaaaaaaaaaab');
  });
});

describe('hand-built LZO1X streams (lzo.rst)', () => {
  test('first-byte literal run and end marker', () => {
    const out = new Uint8Array(4);
    expect(lzo1xDecompress(bytes(17 + 4, 'abcd', 0x11, 0, 0), 0, 8, out, 0, 4)).toBe(4);
    expect(text(out)).toBe('abcd');
  });
  test('M2 match (5..8 bytes within 2 KiB)', () => {
    // 'abc' (first byte 20), then 1 L L D D D S S: len 6 -> L=1, dist 3 -> D=2, H=0: 0x80|0x20|0x08 = 0xa8
    const out = new Uint8Array(9);
    expect(lzo1xDecompress(bytes(20, 'abc', 0xa8, 0, 0x11, 0, 0), 0, 9, out, 0, 9)).toBe(9);
    expect(text(out)).toBe('abcabcabc');
  });
  test('M3 match with trailing literals in S, then a long literal run', () => {
    // 'ab' (first byte 19); M3: 001LLLLL len 2+5 = 7 -> 0x25, LE16 (D=1 -> dist 2, S=1): 0x05 0x00, literal 'z'
    // then state 1: instructions < 16 would be 2-byte matches, so use M2 len 3 dist 1 with S=0 (0x40, 0x00),
    // then a literal run 0000LLLL of 3+1 = 4 bytes: 0x01 'wxyz'
    const src = bytes(19, 'ab', 0x25, 0x05, 0x00, 'z', 0x40, 0x00, 0x01, 'wxyz', 0x11, 0, 0);
    const out = new Uint8Array(17);
    expect(lzo1xDecompress(src, 0, src.length, out, 0, 17)).toBe(17);
    expect(text(out)).toBe('ab' + 'abababa' + 'z' + 'zzz' + 'wxyz');
  });
  test('errors', () => {
    expect(codeOf(() => lzo1xDecompress(bytes(21, 'abcd'), 0, 5, new Uint8Array(4), 0, 4))).toBe(CodecErrorCode.CORRUPT); // no end marker
    expect(codeOf(() => lzo1xDecompress(bytes(21, 'abcd', 0x11, 0, 0, 9), 0, 10, new Uint8Array(4), 0, 4))).toBe(CodecErrorCode.CORRUPT); // trailing
    expect(codeOf(() => lzo1xDecompress(bytes(20, 'abc', 0xa8, 1, 0x11, 0, 0), 0, 9, new Uint8Array(9), 0, 9))).toBe(CodecErrorCode.CORRUPT); // distance 11 > 3
    expect(codeOf(() => lzo1xDecompress(bytes(20, 'abc', 0xa8, 0, 0x11, 0, 0), 0, 9, new Uint8Array(8), 0, 8))).toBe(CodecErrorCode.OVERRUN);
    expect(codeOf(() => lzoDecompress(bytes(0, 0, 0, 4, 0, 0, 0, 9, 21, 'abcd', 0x11, 0, 0), new Uint8Array(4)))).toBe(CodecErrorCode.CORRUPT); // chunk longer than the page, and not a bare stream either
  });
  test('Hadoop framing', () => {
    const out = new Uint8Array(4);
    expect(lzoDecompress(bytes(0, 0, 0, 4, 0, 0, 0, 8, 21, 'abcd', 0x11, 0, 0), out)).toBe(4);
    expect(text(out)).toBe('abcd');
  });
});

describe('decompressPage bounds', () => {
  const codecs = builtinCodecs();
  test('missing codec names the package to install', () => {
    for (const [codec, pkg] of [
      [CompressionCodec.GZIP, '@parquetry/codec-gzip'],
      [CompressionCodec.ZSTD, '@parquetry/codec-zstd'],
      [CompressionCodec.BROTLI, '@parquetry/codec-brotli'],
    ] as const) {
      try {
        decompressPage(codecs, codec, new Uint8Array([1]), 1);
        expect.unreachable();
      } catch (e) {
        expect(isParquetError(e) && e.code).toBe(CodecErrorCode.MISSING);
        expect((e as Error).message).toContain(pkg);
      }
    }
    expect(codeOf(() => decompressPage({}, CompressionCodec.SNAPPY, new Uint8Array([1]), 1))).toBe(CodecErrorCode.MISSING);
    expect((() => { try { decompressPage(undefined, CompressionCodec.LZ4_RAW, new Uint8Array([0]), 0); } catch (e) { return (e as Error).message; } return ''; })()).toContain('@parquetry/parquet-codecs');
    expect(codeOf(() => compressPage({}, CompressionCodec.ZSTD, new Uint8Array(1)))).toBe(CodecErrorCode.MISSING);
  });
  test('unknown codec number and impossible sizes', () => {
    expect(codeOf(() => decompressPage(codecs, 8, new Uint8Array([1]), 1))).toBe(CodecErrorCode.UNKNOWN);
    expect(codeOf(() => decompressPage(codecs, -1, new Uint8Array([1]), 1))).toBe(CodecErrorCode.UNKNOWN);
    expect(codeOf(() => decompressPage(codecs, 1, new Uint8Array([1]), -1))).toBe(CodecErrorCode.SIZE);
    expect(codeOf(() => decompressPage(codecs, 1, new Uint8Array([1]), 2 ** 31))).toBe(CodecErrorCode.SIZE);
    expect(codeOf(() => decompressPage(codecs, 1, new Uint8Array([1]), 1.5))).toBe(CodecErrorCode.SIZE);
  });
  test('empty page with empty body never reaches the codec; empty body with a size is short', () => {
    const never = { codec: CompressionCodec.SNAPPY, decompress: () => { throw new Error('called'); }, compress: () => new Uint8Array(0) } as const;
    expect(decompressPage({ [1]: never }, CompressionCodec.SNAPPY, new Uint8Array(0), 0).length).toBe(0);
    expect(codeOf(() => decompressPage(codecs, CompressionCodec.SNAPPY, new Uint8Array(0), 3))).toBe(CodecErrorCode.SHORT);
  });
  test('UNCOMPRESSED is zero-copy and size-checked', () => {
    const b = new Uint8Array([1, 2, 3]);
    expect(decompressPage(undefined, 0, b, 3)).toBe(b);
    expect(codeOf(() => decompressPage(undefined, 0, b, 2))).toBe(CodecErrorCode.OVERRUN);
    expect(codeOf(() => decompressPage(undefined, 0, b, 4))).toBe(CodecErrorCode.SHORT);
  });
  test.each([
    ['SNAPPY', snappyCodec],
    ['LZ4_RAW', lz4RawCodec],
    ['LZ4', lz4HadoopCodec],
    ['LZO', lzoCodec],
  ] as const)('%s: declared size too small is OVERRUN, too large is SHORT or CORRUPT (SNAPPY: SIZE against its preamble), offsets are file offsets', (_n, codec) => {
    const input = textBytes(5000);
    const packed = codec.compress(input);
    // a SNAPPY stream states its size: a page header disagreeing with it fails before anything is allocated
    const snappy = codec === snappyCodec;
    expect(codeOf(() => decompressPage(codecs, codec.codec, packed, input.length - 1))).toBe(snappy ? CodecErrorCode.SIZE : CodecErrorCode.OVERRUN);
    expect(snappy ? [CodecErrorCode.SIZE] : [CodecErrorCode.SHORT, CodecErrorCode.CORRUPT]).toContain(codeOf(() => decompressPage(codecs, codec.codec, packed, input.length + 1)));
    try {
      decompressPage(codecs, codec.codec, packed, input.length - 1, 1000);
    } catch (e) {
      expect(isParquetError(e) && e.offset! >= 1000).toBe(true);
      expect((e as Error).message).toContain('page at byte 1000');
    }
  });
  test.each([
    ['SNAPPY', snappyCodec],
    ['LZ4_RAW', lz4RawCodec],
    ['LZ4', lz4HadoopCodec],
    ['LZO', lzoCodec],
  ] as const)('%s: every truncation of a stream is a typed error', (_n, codec) => {
    const input = textBytes(3000, 5);
    const packed = codec.compress(input);
    for (let cut = 0; cut < packed.length; cut++) {
      const code = codeOf(() => decompressPage(codecs, codec.codec, packed.subarray(0, cut), input.length));
      // SIZE: the declared size is more than the bytes left can hold (checked before the output is allocated)
      expect([CodecErrorCode.CORRUPT, CodecErrorCode.SHORT, CodecErrorCode.OVERRUN, CodecErrorCode.SIZE]).toContain(code);
    }
  });
});

describe('crc32', () => {
  test('the check value, empty input, sub-ranges and agreement with node:zlib', async () => {
    const { crc32 } = await import('@parquetry/parquet-codecs');
    const zlib = await import('node:zlib');
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    for (let n = 0; n < 70; n++) {
      const b = Uint8Array.from({ length: n + 5 }, (_, i) => (i * 131 + n) & 0xff);
      expect(crc32(b, 2, 2 + n)).toBe(zlib.crc32(b.subarray(2, 2 + n)));
    }
  });
  test('property: any bytes, any range, any byte offset of the view (16-byte blocks, 0–15 byte tails) agree with node:zlib', async () => {
    const { crc32 } = await import('@parquetry/parquet-codecs');
    const zlib = await import('node:zlib');
    const fc = (await import('fast-check')).default;
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.nat(7), fc.nat(), fc.nat(), (bytes, shift, x, y) => {
        const buf = new Uint8Array(bytes.length + shift);
        buf.set(bytes, shift);
        const view = buf.subarray(shift);
        const from = bytes.length === 0 ? 0 : x % (bytes.length + 1);
        const to = from + (y % (bytes.length - from + 1));
        expect(crc32(view, from, to)).toBe(zlib.crc32(bytes.subarray(from, to)));
        expect(crc32(view)).toBe(zlib.crc32(bytes));
      }),
      { numRuns: 300 },
    );
  });
});
