// Level streams: bytes computed by hand from Encodings.md (RLE/bit-packing hybrid: LSB-first bit-packed
// groups of 8 with header (groups << 1) | 1, RLE runs with header count << 1 and the value in
// ceil(width / 8) bytes; deprecated BIT_PACKED: MSB-first, no header).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ByteWriter, Encoding, isParquetError } from '@parquetry/thrift-compact';
import {
  decodeLevelsBitPacked, decodeLevelsV1, decodeLevelsV2, encodeLevelsV1, encodeLevelsV2, levelBitWidth,
} from '../src/index.js';

const u8 = (...b: number[]): Uint8Array => new Uint8Array(b);
function code(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (isParquetError(e)) return e.code;
    throw e;
  }
  return 'no error';
}

describe('level streams', () => {
  test('bit width from the max level', () => {
    expect([0, 1, 2, 3, 4, 7, 8, 255, 256].map(levelBitWidth)).toEqual([0, 1, 2, 2, 3, 3, 4, 8, 9]);
  });

  test('V1: 4-byte length + RLE run of eight 1s', () => {
    const src = u8(2, 0, 0, 0, 0x10, 0x01, 0xee);
    const out = new Int32Array(8);
    expect(decodeLevelsV1(src, 0, src.length, 1, out, 0, 8)).toBe(6);
    expect(Array.from(out)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    const w = new ByteWriter();
    encodeLevelsV1(out, 0, 8, 1, w);
    expect(w.finish()).toEqual(src.subarray(0, 6));
  });

  test('V1: bit-packed group, width 2, LSB first', () => {
    const levels = [0, 1, 2, 0, 1, 2, 0, 1];
    const src = u8(3, 0, 0, 0, 0x03, 0x24, 0x49);
    const out = new Int32Array(10).fill(-1);
    expect(decodeLevelsV1(src, 0, src.length, 2, out, 1, 8)).toBe(7);
    expect(Array.from(out)).toEqual([-1, ...levels, -1]);
  });

  test('V2: raw hybrid, byte length from the header', () => {
    const src = u8(0xaa, 0x03, 0xda, 0xbb);
    const out = new Int32Array(8);
    expect(decodeLevelsV2(src, 1, 2, 1, out, 0, 8)).toBe(3);
    expect(Array.from(out)).toEqual([0, 1, 0, 1, 1, 0, 1, 1]);
    const w = new ByteWriter();
    expect(encodeLevelsV2(out, 0, 8, 1, w)).toBe(2);
    expect(w.finish()).toEqual(u8(0x03, 0xda));
  });

  test('deprecated BIT_PACKED: MSB first, no length', () => {
    const src = u8(0x5b, 0xff);
    const out = new Int32Array(8);
    expect(decodeLevelsBitPacked(src, 0, src.length, 1, out, 0, 8)).toBe(1);
    expect(Array.from(out)).toEqual([0, 1, 0, 1, 1, 0, 1, 1]);
    // width 2 over 3 values: 01 10 11 -> 0b01101100
    const out2 = new Int32Array(3);
    expect(decodeLevelsV1(u8(0x6c), 0, 1, 3, out2, 0, 3, Encoding.BIT_PACKED)).toBe(1);
    expect(Array.from(out2)).toEqual([1, 2, 3]);
    const w = new ByteWriter();
    encodeLevelsV1(out2, 0, 3, 3, w, Encoding.BIT_PACKED);
    expect(w.finish()).toEqual(u8(0x6c));
  });

  test('max level 0: no bytes, all zeros', () => {
    const out = new Int32Array(4).fill(7);
    expect(decodeLevelsV1(u8(), 0, 0, 0, out, 0, 4)).toBe(0);
    expect(decodeLevelsV2(u8(), 0, 0, 0, out, 0, 4)).toBe(0);
    expect(Array.from(out)).toEqual([0, 0, 0, 0]);
    const w = new ByteWriter();
    encodeLevelsV1(out, 0, 4, 0, w);
    expect(encodeLevelsV2(out, 0, 4, 0, w)).toBe(0);
    expect(w.pos).toBe(0);
  });

  test('untrusted streams fail with typed errors', () => {
    const out = new Int32Array(8);
    // RLE run of one 3 at width 2 where the max level is 2
    expect(code(() => decodeLevelsV1(u8(2, 0, 0, 0, 0x02, 0x03), 0, 6, 2, out, 0, 1))).toBe('INVALID_LEVELS');
    expect(code(() => decodeLevelsV2(u8(0x02, 0x03), 0, 2, 2, out, 0, 1))).toBe('INVALID_LEVELS');
    // length prefix larger than the page
    expect(code(() => decodeLevelsV1(u8(9, 0, 0, 0, 0x10, 0x01), 0, 6, 1, out, 0, 8))).toBe('ENCODING_TRUNCATED');
    expect(code(() => decodeLevelsV1(u8(1, 0), 0, 2, 1, out, 0, 8))).toBe('ENCODING_TRUNCATED');
    // runs end before count levels
    expect(code(() => decodeLevelsV2(u8(0x04, 0x01), 0, 2, 1, out, 0, 8))).toBe('ENCODING_TRUNCATED');
    expect(code(() => decodeLevelsV2(u8(0x04, 0x01), 0, 5, 1, out, 0, 2))).toBe('ENCODING_TRUNCATED');
    expect(code(() => decodeLevelsV1(u8(0, 0, 0, 0), 0, 4, 1, out, 0, 8, Encoding.PLAIN))).toBe('UNSUPPORTED_ENCODING');
    expect(code(() => decodeLevelsV1(u8(), 0, 0, 1, out, 0, 9))).toBe('INVALID_ARGUMENT');
    expect(code(() => encodeLevelsV1(Int32Array.of(0, 2), 0, 2, 1, new ByteWriter()))).toBe('INVALID_LEVELS');
  });

  test('no decoded level is ever above the max: hand-built RLE hybrid runs of any values, for maxima 2^w - 1 and others', () => {
    // Encodings.md: a run header varint (count << 1 for an RLE run, groups << 1 | 1 for bit-packed groups of 8), an
    // RLE run's value in ceil(w / 8) little-endian bytes, a bit-packed group's w bytes; values here may be wider than w
    const run = fc.oneof(
      fc.record({ rle: fc.constant(true), n: fc.integer({ min: 1, max: 40 }), v: fc.integer({ min: 0, max: 300 }) }),
      fc.record({ rle: fc.constant(false), n: fc.integer({ min: 1, max: 3 }), v: fc.integer({ min: 0, max: 255 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(run, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), (maxLevel, runs, seed) => {
        const w = 32 - Math.clz32(maxLevel);
        const bytes: number[] = [];
        let count = 0;
        let x = seed;
        for (const r of runs) {
          if (r.rle) {
            bytes.push(r.n << 1);
            for (let b = 0; b < (w + 7) >> 3; b++) bytes.push((r.v >>> (8 * b)) & 0xff);
            count += r.n;
          } else {
            bytes.push((r.n << 1) | 1);
            for (let b = 0; b < r.n * w; b++) {
              x = (Math.imul(x, 1103515245) + 12345) >>> 0;
              bytes.push(b === 0 ? r.v : x >>> 24);
            }
            count += 8 * r.n;
          }
        }
        const v2 = Uint8Array.from(bytes);
        const v1 = Uint8Array.from([bytes.length & 0xff, (bytes.length >> 8) & 0xff, 0, 0, ...bytes]);
        for (const decode of [
          (out: Int32Array) => decodeLevelsV2(v2, 0, v2.length, maxLevel, out, 0, count),
          (out: Int32Array) => decodeLevelsV1(v1, 0, v1.length, maxLevel, out, 0, count),
        ]) {
          const out = new Int32Array(count);
          try {
            decode(out);
          } catch (e) {
            expect(isParquetError(e) && ['INVALID_LEVELS', 'ENCODING_CORRUPT'].includes(e.code)).toBe(true);
            continue;
          }
          for (const l of out) expect(l >= 0 && l <= maxLevel).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  test('round trip of long mixed streams through V1, V2 and BIT_PACKED', () => {
    for (const max of [1, 2, 3, 7, 12]) {
      const n = 1000;
      const lv = new Int32Array(n);
      let s = max * 7919;
      for (let i = 0; i < n; i++) {
        s = (s * 1103515245 + 12345) >>> 0;
        lv[i] = i % 100 < 40 ? max : (s >>> 8) % (max + 1);
      }
      for (const enc of [Encoding.RLE, Encoding.BIT_PACKED]) {
        const w = new ByteWriter();
        encodeLevelsV1(lv, 0, n, max, w, enc);
        const b = w.finish();
        const out = new Int32Array(n);
        expect(decodeLevelsV1(b, 0, b.length, max, out, 0, n, enc)).toBe(b.length);
        expect(out).toEqual(lv);
      }
      const w = new ByteWriter();
      const len = encodeLevelsV2(lv, 0, n, max, w);
      const out = new Int32Array(n);
      expect(decodeLevelsV2(w.finish(), 0, len, max, out, 0, n)).toBe(len);
      expect(out).toEqual(lv);
    }
  });
});
