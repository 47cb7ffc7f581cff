// Our ZSTD decoder (zstd-decode.ts) against the reference library: the WASM compressor at levels -5..22 and the
// zstd CLI (--ultra -22, --long, multi-frame, --no-check / checksums) on varied data must decode to the input;
// the content checksum (XXH64) against parquet-bloom's independent xxhash64; fast-check round trips.
import fc from 'fast-check';
import { compress as wasmCompress, decompress as wasmDecompress, init as wasmInit } from '@bokuweb/zstd-wasm';
import { describe, expect, test } from 'vitest';
import { CodecErrorCode, isParquetError } from '@parquetry/parquet-codecs';
import xxhashWasm from 'xxhash-wasm';
import { xxhash64 } from '../../parquet-bloom/src/xxhash64.js';
import { decodeZstd } from '../src/zstd-decode.js';
import { xxh64, xxh64Low32 } from '../src/xxh64.js';
import { concat, numericBytes, randomBytes, repetitiveBytes, textBytes, same } from '../../parquet-codecs/test/inputs.js';
import { haveTool, runTool } from '../../parquet-codecs/test/peers.js';

await wasmInit();
const { h64Raw } = await xxhashWasm();
const HAVE_ZSTD = haveTool('zstd');
const KiB = 1024;
const MiB = 1 << 20;

/** Inputs of the sizes that matter to block and frame limits. */
function inputs(): [string, Uint8Array][] {
  return [
    ['empty', new Uint8Array(0)],
    ['1 byte', new Uint8Array([42])],
    ['random 1000', randomBytes(1000, 3)],
    ['text 127 KiB', textBytes(127 * KiB, 4)],
    ['numeric 128 KiB', numericBytes(128 * KiB, 5)],
    ['text 128 KiB + 1', textBytes(128 * KiB + 1, 6)],
    ['random 200k', randomBytes(200_000, 7)],
    ['repetitive 300k', repetitiveBytes(300_000)],
    ['zeros 70000', new Uint8Array(70_000)],
    ['mixed 1 MiB + 3', concat(textBytes(MiB / 2, 8), numericBytes(MiB / 4, 9), randomBytes(MiB / 8, 10), repetitiveBytes(MiB / 8 + 3))],
  ];
}

function decodeTo(packed: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size);
  expect(decodeZstd(packed, out)).toBe(size);
  return out;
}

describe('decodeZstd vs the WASM compressor (reference library)', () => {
  test.each(inputs())('%s at levels -5, -1, 1, 3, 9, 19, 22', (_l, input) => {
    for (const level of [-5, -1, 1, 3, 9, 19, 22]) {
      if (input.length > 300_000 && level >= 19) continue; // the slow levels on the small inputs only
      const packed = wasmCompress(input, level);
      expect(same(decodeTo(packed, input.length), input), `level ${level}`).toBe(true);
    }
  });
  test('1 MiB+ at level 19', () => {
    const input = concat(textBytes(MiB / 2, 18), numericBytes(MiB / 2 + 17, 19));
    expect(same(decodeTo(wasmCompress(input, 19), input.length), input)).toBe(true);
  });
  test('property: random data (alphabets and runs) through the WASM compressor decodes to itself', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40_000 }),
        fc.integer({ min: 1, max: 256 }),
        fc.integer({ min: 0, max: 64 }),
        fc.integer({ min: -3, max: 12 }),
        fc.integer(),
        (n, alphabet, runs, level, seed) => {
          const input = new Uint8Array(n);
          let x = seed | 1;
          for (let i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >>> 17;
            x ^= x << 5;
            input[i] = (x >>> 0) % alphabet;
          }
          for (let r = 0; r < runs && n > 0; r++) {
            x ^= x << 13;
            x ^= x >>> 17;
            x ^= x << 5;
            const at = (x >>> 0) % n;
            const len = Math.min(n - at, (x >>> 8) % 3000);
            input.copyWithin(at, (x >>> 3) % n, ((x >>> 3) % n) + len);
          }
          const packed = wasmCompress(input, level === 0 ? 1 : level);
          const out = new Uint8Array(n);
          expect(decodeZstd(packed, out)).toBe(n);
          expect(same(out, input)).toBe(true);
        },
      ),
      { numRuns: 300, seed: 8878 },
    );
  });
});

describe.skipIf(!HAVE_ZSTD)('decodeZstd vs the zstd CLI', () => {
  test.each(inputs())('%s: -1, -3 --no-check, -9 --no-content-size, -19, --ultra -22, --fast=3', (_l, input) => {
    for (const args of [['-1'], ['-3', '--no-check'], ['-9', '--no-content-size'], ['-19'], ['--ultra', '-22'], ['--fast=3']]) {
      if (input.length > 300_000 && (args.includes('-19') || args.includes('-22'))) continue;
      const packed = runTool('zstd', [...args, '-q', '-c'], input);
      expect(same(decodeTo(packed, input.length), input), args.join(' ')).toBe(true);
    }
  });
  test('--long=25 and -19 --long on a repeated 1 MiB+ input, checksummed', () => {
    const half = concat(textBytes(700_000, 21), randomBytes(100_000, 22));
    const input = concat(half, half);
    for (const args of [['--long=25'], ['-19', '--long=25']]) {
      const packed = runTool('zstd', [...args, '-q', '-c', '--check'], input);
      expect(same(decodeTo(packed, input.length), input), args.join(' ')).toBe(true);
    }
  });
  test('several frames (with and without checksums and content sizes) concatenated, and a skippable frame', () => {
    const a = textBytes(100_000, 1);
    const b = randomBytes(5000, 2);
    const c = repetitiveBytes(150_000);
    const skip = new Uint8Array([0x5e, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 9, 9, 9]);
    const stream = concat(
      runTool('zstd', ['-q', '-c', '--check'], a),
      skip,
      runTool('zstd', ['-q', '-c', '--no-content-size', '--no-check'], b),
      runTool('zstd', ['-q', '-c', '-19'], c),
    );
    expect(same(decodeTo(stream, a.length + b.length + c.length), concat(a, b, c))).toBe(true);
  });
  test('a wrong content checksum is CODEC_CORRUPT; with checksum: false the frame decodes', () => {
    const input = textBytes(50_000, 3);
    const packed = runTool('zstd', ['-q', '-c', '--check'], input);
    const bad = packed.slice();
    bad[bad.length - 1]! ^= 0x40;
    const out = new Uint8Array(input.length);
    let code = '';
    try {
      decodeZstd(bad, out);
    } catch (e) {
      code = isParquetError(e) ? `${e.code} ${e.message}` : String(e);
    }
    expect(code).toMatch(/^CODEC_CORRUPT .*content checksum/);
    expect(decodeZstd(bad, out, { checksum: false })).toBe(input.length);
    expect(same(out, input)).toBe(true);
  });
});

describe('xxh64 (content checksum)', () => {
  test('equals parquet-bloom xxhash64 on every length 0..200 and larger buffers, and the WASM decoder accepts our checksums', () => {
    const buf = randomBytes(5000, 44);
    const ref = new Uint32Array(2);
    for (const [start, end] of [...Array.from({ length: 201 }, (_, n) => [7, 7 + n] as const), [0, 5000], [3, 4999], [0, 1024]]) {
      xxhash64(buf, start, end - start, ref);
      expect(xxh64(buf, start, end)).toEqual([ref[1], ref[0]]);
      expect(xxh64Low32(buf, start, end)).toBe(ref[0]);
    }
    // known answer: XXH64 of the empty input, seed 0
    expect(xxh64(new Uint8Array(0), 0, 0).map((h) => h.toString(16).padStart(8, '0')).join('')).toBe('ef46db3751d8e999');
  });
  test('property: equals parquet-bloom xxhash64 and xxhash-wasm h64', () => {
    const ref = new Uint32Array(2);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        xxhash64(b, 0, b.length, ref);
        const [hi, lo] = xxh64(b, 0, b.length);
        expect([hi, lo]).toEqual([ref[1], ref[0]]);
        expect((BigInt(hi!) << 32n) | BigInt(lo!)).toBe(h64Raw(b, 0n));
      }),
      { numRuns: 300 },
    );
  });
});

test('input and output may be views at odd offsets into larger buffers (word copies go through DataViews)', () => {
  const input = concat(textBytes(70_000, 12), randomBytes(3000, 13));
  for (const level of [-1, 3, 19]) {
    const packed = wasmCompress(input, level);
    const src = new Uint8Array(packed.length + 10);
    src.fill(0xa5);
    src.set(packed, 7);
    const big = new Uint8Array(input.length + 20).fill(0x5a);
    const out = big.subarray(3, 3 + input.length);
    expect(decodeZstd(src.subarray(7, 7 + packed.length), out)).toBe(input.length);
    expect(same(out, input)).toBe(true);
    // nothing written outside the view
    expect(big.subarray(0, 3).every((b) => b === 0x5a) && big.subarray(3 + input.length).every((b) => b === 0x5a)).toBe(true);
  }
});

test('the decoder equals the WASM decoder on its own output (sanity of the differential harness)', () => {
  const input = textBytes(10_000, 5);
  const packed = wasmCompress(input, 3);
  expect(same(wasmDecompress(packed), decodeTo(packed, input.length))).toBe(true);
  expect(CodecErrorCode.CORRUPT).toBe('CODEC_CORRUPT');
});
