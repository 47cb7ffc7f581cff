// compressPageWithCrc and the codecs' compressWithCrc: the bytes are those compress gives, the CRC that of node's
// zlib.crc32 (an independent implementation) over them, for the SNAPPY kernel (which checksums its output in its own
// memory), the TypeScript fallback, codecs without compressWithCrc and UNCOMPRESSED.
import zlib from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import {
  CodecErrorCode,
  CompressionCodec,
  builtinCodecs,
  compressPage,
  compressPageWithCrc,
  lz4RawCodec,
  snappyCodec,
  snappyCompress,
  snappyDecompress,
  type Codec,
} from '@parquetry/parquet-codecs';
import { setSnappyEncoder, snappyCompressWasmAvailable, snappyCompressWithCrc, type SnappyEncoderMode } from '../src/snappy-compress.js';
import { codeOf, randomBytes, same, textBytes } from './inputs.js';

afterAll(() => setSnappyEncoder('auto'));

const SIZES = [0, 1, 3, 4, 15, 16, 17, 31, 33, 100, 4095, 65536, 65537, 200_003];

function hexStrings(count: number): Uint8Array {
  const out = new Uint8Array(count * 36);
  const r = randomBytes(count * 32, count);
  for (let v = 0, p = 0; v < count; v++, p += 36) {
    out[p] = 32;
    for (let i = 0; i < 32; i++) out[p + 4 + i] = '0123456789abcdef'.charCodeAt(r[v * 32 + i]! & 15);
  }
  return out;
}

const inputs = (): [string, Uint8Array][] => [
  ...SIZES.flatMap((n): [string, Uint8Array][] => [
    [`random ${n}`, randomBytes(n, n + 3)],
    [`text ${n}`, textBytes(n, n + 4)],
    [`zeros ${n}`, new Uint8Array(n)],
  ]),
  ['hex strings 30000', hexStrings(30_000)],
];

test('the kernel is available under Node (the kernel cases below are not vacuous)', () => {
  expect(snappyCompressWasmAvailable()).toBe(true);
});

describe.each([
  ['WebAssembly kernel', 'auto'],
  ['TypeScript loop', 'ts'],
] as [string, SnappyEncoderMode][])('SNAPPY compressWithCrc, %s', (_name, mode) => {
  test('bytes equal snappyCompress, CRC equals zlib.crc32 of them, the stream decodes', () => {
    setSnappyEncoder(mode);
    try {
      for (const [label, src] of inputs()) {
        const { bytes, crc } = snappyCompressWithCrc(src);
        expect(same(bytes, snappyCompress(src)), label).toBe(true);
        expect(crc, label).toBe(zlib.crc32(bytes));
        const back = new Uint8Array(src.length);
        expect(snappyDecompress(bytes, back), label).toBe(src.length);
        expect(same(back, src), label).toBe(true);
        const viaCodec = snappyCodec.compressWithCrc(src);
        expect(same(viaCodec.bytes, bytes) && viaCodec.crc === crc, label).toBe(true);
      }
    } finally {
      setSnappyEncoder('auto');
    }
  });

  test('property: arbitrary bytes at arbitrary offsets of a larger buffer', () => {
    setSnappyEncoder(mode);
    try {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 3000, size: 'max' }), fc.nat(13), (data, at) => {
          const backing = new Uint8Array(data.length + at + 5).fill(0xa5);
          backing.set(data, at);
          const src = backing.subarray(at, at + data.length);
          const { bytes, crc } = snappyCompressWithCrc(src);
          expect(crc).toBe(zlib.crc32(bytes));
          expect(same(bytes, snappyCompress(src))).toBe(true);
        }),
        { numRuns: 200, seed: 20261201 },
      );
    } finally {
      setSnappyEncoder('auto');
    }
  });
});

describe('compressPageWithCrc', () => {
  const codecs = builtinCodecs();
  test('SNAPPY (through compressWithCrc), LZ4_RAW (a codec without it) and UNCOMPRESSED: compressPage bytes, zlib CRC', () => {
    expect(typeof (codecs[CompressionCodec.LZ4_RAW] as Partial<typeof snappyCodec>).compressWithCrc).toBe('undefined');
    for (const codec of [CompressionCodec.SNAPPY, CompressionCodec.LZ4_RAW, CompressionCodec.UNCOMPRESSED]) {
      for (const [label, src] of inputs()) {
        const { bytes, crc } = compressPageWithCrc(codecs, codec, src);
        expect(same(bytes, compressPage(codecs, codec, src)), `${codec} ${label}`).toBe(true);
        expect(crc, `${codec} ${label}`).toBe(zlib.crc32(bytes));
      }
    }
    const src = textBytes(1000, 1);
    expect(compressPageWithCrc(codecs, CompressionCodec.UNCOMPRESSED, src).bytes).toBe(src);
  });

  test('a codec of its own with compressWithCrc is asked for both; one without gets its bytes checksummed', () => {
    const calls: string[] = [];
    const own: Codec & { compressWithCrc(src: Uint8Array): { bytes: Uint8Array; crc: number } } = {
      codec: CompressionCodec.LZ4_RAW,
      decompress: lz4RawCodec.decompress,
      compress: (s) => (calls.push('compress'), lz4RawCodec.compress(s)),
      compressWithCrc: (s) => (calls.push('withCrc'), { bytes: lz4RawCodec.compress(s), crc: 1234 }),
    };
    const src = textBytes(5000, 2);
    expect(compressPageWithCrc({ [CompressionCodec.LZ4_RAW]: own }, CompressionCodec.LZ4_RAW, src).crc).toBe(1234);
    expect(calls).toEqual(['withCrc']);
    const plain: Codec = { codec: CompressionCodec.LZ4_RAW, decompress: own.decompress, compress: own.compress };
    const r = compressPageWithCrc({ [CompressionCodec.LZ4_RAW]: plain }, CompressionCodec.LZ4_RAW, src);
    expect(calls).toEqual(['withCrc', 'compress']);
    expect(r.crc).toBe(zlib.crc32(r.bytes));
  });

  test('a codec missing from the map is CODEC_MISSING, as compressPage', () => {
    expect(codeOf(() => compressPageWithCrc({}, CompressionCodec.SNAPPY, new Uint8Array(10)))).toBe(CodecErrorCode.MISSING);
    expect(codeOf(() => compressPageWithCrc(undefined, CompressionCodec.ZSTD, new Uint8Array(10)))).toBe(CodecErrorCode.MISSING);
  });
});
