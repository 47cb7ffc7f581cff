// compressPageOwned and the SNAPPY codec's compressToScratch: the bytes are those compress gives, owned by the caller
// (copied into its alloc, sharing no memory with the input or the codec), and the CRC that of node's zlib.crc32 (an
// independent implementation) over them, for the SNAPPY kernel (which checksums its output in its own memory), the
// TypeScript fallback, codecs without compressToScratch and UNCOMPRESSED.
import zlib from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import {
  CodecErrorCode,
  CompressionCodec,
  builtinCodecs,
  compressPage,
  compressPageOwned,
  lz4RawCodec,
  snappyCodec,
  snappyCompress,
  snappyDecompress,
  type Codec,
  type CodecWithScratch,
} from '@parquetry/parquet-codecs';
import { setSnappyEncoder, snappyCompressWasmAvailable, snappyCompressToScratch, type SnappyEncoderMode } from '../src/snappy-compress.js';
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

/** An allocator handing out consecutive views of one buffer (as a writer's arena does), recording what it gave. */
function arena(size: number): { alloc: (n: number) => Uint8Array; given: Uint8Array[]; buffer: ArrayBuffer } {
  const buffer = new ArrayBuffer(size);
  const given: Uint8Array[] = [];
  let at = 0;
  return {
    buffer,
    given,
    alloc(n) {
      const v = new Uint8Array(buffer, at, n);
      at += n + 3;
      given.push(v);
      return v;
    },
  };
}

test('the kernel is available under Node (the kernel cases below are not vacuous)', () => {
  expect(snappyCompressWasmAvailable()).toBe(true);
});

describe.each([
  ['WebAssembly kernel', 'auto'],
  ['TypeScript loop', 'ts'],
] as [string, SnappyEncoderMode][])('SNAPPY compressToScratch, %s', (_name, mode) => {
  test('bytes equal snappyCompress, CRC equals zlib.crc32 of them (undefined unless asked), the stream decodes', () => {
    setSnappyEncoder(mode);
    try {
      for (const [label, src] of inputs()) {
        const want = snappyCompress(src);
        const { bytes, crc } = snappyCompressToScratch(src, true);
        expect(same(bytes, want), label).toBe(true);
        expect(crc, label).toBe(zlib.crc32(want));
        const back = new Uint8Array(src.length);
        expect(snappyDecompress(bytes, back), label).toBe(src.length);
        expect(same(back, src), label).toBe(true);
        const viaCodec = snappyCodec.compressToScratch(src, false);
        expect(same(viaCodec.bytes, want), label).toBe(true);
        expect(viaCodec.crc, label).toBeUndefined();
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
          const want = snappyCompress(src);
          const { bytes, crc } = snappyCompressToScratch(src, true);
          expect(crc).toBe(zlib.crc32(want));
          expect(same(bytes, want)).toBe(true);
        }),
        { numRuns: 200, seed: 20261201 },
      );
    } finally {
      setSnappyEncoder('auto');
    }
  });
});

describe('compressPageOwned', () => {
  const codecs = builtinCodecs();
  const CODECS = [CompressionCodec.SNAPPY, CompressionCodec.LZ4_RAW, CompressionCodec.UNCOMPRESSED];

  test('SNAPPY (from its scratch), LZ4_RAW (a codec without it) and UNCOMPRESSED: compressPage bytes, zlib CRC', () => {
    expect(typeof (codecs[CompressionCodec.LZ4_RAW] as Partial<CodecWithScratch>).compressToScratch).toBe('undefined');
    for (const codec of CODECS) {
      for (const [label, src] of inputs()) {
        const want = compressPage(codecs, codec, src);
        const { bytes, crc } = compressPageOwned(codecs, codec, src, true);
        expect(same(bytes, want), `${codec} ${label}`).toBe(true);
        expect(crc, `${codec} ${label}`).toBe(zlib.crc32(want));
        expect(bytes.buffer, `${codec} ${label}`).not.toBe(src.buffer);
        expect(compressPageOwned(codecs, codec, src, false).crc).toBeUndefined();
      }
    }
  });

  test('results own their bytes: later compressions and changes to the input leave them as they were', () => {
    for (const codec of CODECS) {
      const a = arena(4 << 20);
      const kept: [Uint8Array, Uint8Array][] = [];
      for (const [, src] of inputs()) {
        const input = src.slice();
        const r = compressPageOwned(codecs, codec, input, true, a.alloc);
        kept.push([r.bytes, r.bytes.slice()]);
        input.fill(0x5a);
      }
      for (const [bytes, copy] of kept) expect(same(bytes, copy), `${codec}`).toBe(true);
    }
  });

  test('bytes copied out of the codec (SNAPPY) or out of the input (UNCOMPRESSED) go to alloc; a codec\'s own new array is kept', () => {
    for (const codec of [CompressionCodec.SNAPPY, CompressionCodec.UNCOMPRESSED]) {
      const a = arena(1 << 20);
      const src = textBytes(5000, 7);
      const r = compressPageOwned(codecs, codec, src, true, a.alloc);
      expect(a.given.length).toBe(1);
      expect(r.bytes).toBe(a.given[0]);
      expect(r.bytes.buffer).toBe(a.buffer);
      expect(same(r.bytes, compressPage(codecs, codec, src))).toBe(true);
    }
    const a = arena(1 << 20);
    const r = compressPageOwned(codecs, CompressionCodec.LZ4_RAW, textBytes(5000, 7), true, a.alloc);
    expect(a.given.length).toBe(0);
    expect(r.bytes.buffer).not.toBe(a.buffer);
  });

  test('a codec of its own with compressToScratch is asked (its scratch copied out); one without is called as compress', () => {
    const calls: string[] = [];
    const scratch = new Uint8Array(1 << 16);
    const own: Codec & CodecWithScratch = {
      codec: CompressionCodec.LZ4_RAW,
      decompress: lz4RawCodec.decompress,
      compress: (s) => (calls.push('compress'), lz4RawCodec.compress(s)),
      compressToScratch: (s, crc) => {
        calls.push(`scratch ${crc}`);
        const c = lz4RawCodec.compress(s);
        scratch.set(c);
        return { bytes: scratch.subarray(0, c.length), crc: crc ? 1234 : undefined };
      },
    };
    const src = textBytes(5000, 2);
    const r = compressPageOwned({ [CompressionCodec.LZ4_RAW]: own }, CompressionCodec.LZ4_RAW, src, true);
    expect(r.crc).toBe(1234);
    expect(r.bytes.buffer).not.toBe(scratch.buffer);
    expect(same(r.bytes, lz4RawCodec.compress(src))).toBe(true);
    expect(calls).toEqual(['scratch true']);
    const plain: Codec = { codec: CompressionCodec.LZ4_RAW, decompress: own.decompress, compress: own.compress };
    const p = compressPageOwned({ [CompressionCodec.LZ4_RAW]: plain }, CompressionCodec.LZ4_RAW, src, true);
    expect(calls).toEqual(['scratch true', 'compress']);
    expect(p.crc).toBe(zlib.crc32(p.bytes));
  });

  test('a codec missing from the map is CODEC_MISSING, as compressPage', () => {
    expect(codeOf(() => compressPageOwned({}, CompressionCodec.SNAPPY, new Uint8Array(10), true))).toBe(CodecErrorCode.MISSING);
    expect(codeOf(() => compressPageOwned(undefined, CompressionCodec.ZSTD, new Uint8Array(10), false))).toBe(CodecErrorCode.MISSING);
  });
});
