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
    expect(code(() => decodeLevelsV1(u8(0, 0, 0, 0), 0, 4, 1, out, 0, 8, Encoding.PLAIN))).toBe('ENCODING_UNSUPPORTED');
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

describe('level streams into bytes (Uint8Array)', () => {
  // the hybrid of Encodings.md written by hand: RLE runs (header count << 1, the value in ceil(w / 8) bytes) and
  // bit-packed runs (header groups << 1 | 1, then groups × w bytes, values LSB first)
  function hybrid(runs: { rle: boolean; values: number[] }[], w: number): { bytes: Uint8Array; levels: number[] } {
    const bytes: number[] = [];
    const levels: number[] = [];
    const varint = (x: number) => {
      for (; x >= 0x80; x = Math.floor(x / 128)) bytes.push((x & 0x7f) | 0x80);
      bytes.push(x);
    };
    for (const r of runs) {
      if (r.rle) {
        varint(r.values.length << 1);
        for (let b = 0; b < (w + 7) >> 3; b++) bytes.push((r.values[0]! >>> (8 * b)) & 0xff);
        for (let i = 0; i < r.values.length; i++) levels.push(r.values[0]!);
      } else {
        const groups = Math.ceil(r.values.length / 8);
        varint((groups << 1) | 1);
        const packed = new Uint8Array(groups * w);
        for (let i = 0; i < groups * 8; i++) {
          const v = r.values[i] ?? 0;
          for (let b = 0; b < w; b++) if ((v >>> b) & 1) packed[(i * w + b) >> 3]! |= 1 << ((i * w + b) & 7);
          levels.push(v);
        }
        bytes.push(...packed);
      }
    }
    return { bytes: Uint8Array.from(bytes), levels };
  }

  test('the same levels, positions and errors as an Int32Array, for any max level up to 255 (V1 and V2)', () => {
    const arb = fc.integer({ min: 1, max: 255 }).chain((max) =>
      fc.tuple(
        fc.constant(max),
        fc.array(fc.record({ rle: fc.boolean(), values: fc.array(fc.integer({ min: 0, max: 2 ** (32 - Math.clz32(max)) - 1 }), { minLength: 1, maxLength: 70 }) }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 5 }),
      ),
    );
    fc.assert(
      fc.property(arb, ([max, runs, outPos]) => {
        const w = 32 - Math.clz32(max);
        const { bytes, levels } = hybrid(runs, w);
        const count = levels.length;
        const v1 = Uint8Array.from([bytes.length & 0xff, (bytes.length >> 8) & 0xff, 0, 0, ...bytes]);
        const decoders = [
          (out: Int32Array | Uint8Array) => decodeLevelsV1(v1, 0, v1.length, max, out, outPos, count),
          (out: Int32Array | Uint8Array) => decodeLevelsV2(bytes, 0, bytes.length, max, out, outPos, count),
        ];
        for (const decode of decoders) {
          const wide = new Int32Array(count + outPos).fill(-1);
          const narrow = new Uint8Array(count + outPos).fill(0xee);
          let r: unknown;
          let e: unknown;
          try {
            r = decode(wide);
          } catch (x) {
            e = x;
          }
          if (e !== undefined) {
            // levels above a max other than 2^w - 1: the same error, naming the same level
            expect(() => decode(narrow)).toThrow((e as Error).message);
            expect(levels.some((l) => l > max)).toBe(true);
            continue;
          }
          expect(decode(narrow)).toBe(r);
          expect(Array.from(narrow.subarray(outPos))).toEqual(levels);
          expect(Array.from(narrow.subarray(0, outPos))).toEqual(new Array(outPos).fill(0xee));
          expect(Array.from(wide.subarray(outPos))).toEqual(levels);
        }
      }),
      { numRuns: 400 },
    );
  });

  test('a Uint8Array for a max level over 255 is INVALID_ARGUMENT; an Int32Array takes it', () => {
    const { bytes, levels } = hybrid([{ rle: true, values: [256, 256, 256] }], 9);
    expect(code(() => decodeLevelsV2(bytes, 0, bytes.length, 256, new Uint8Array(3), 0, 3))).toBe('INVALID_ARGUMENT');
    const out = new Int32Array(3);
    decodeLevelsV2(bytes, 0, bytes.length, 256, out, 0, 3);
    expect(Array.from(out)).toEqual(levels);
  });

  test('pages larger than the kept scratch (2^20 levels) and smaller ones after them', () => {
    const n = (1 << 20) + 13;
    const big = hybrid([{ rle: true, values: new Array(n - 16).fill(2) }, { rle: false, values: [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0] }], 2);
    const out = new Uint8Array(n);
    decodeLevelsV2(big.bytes, 0, big.bytes.length, 2, out, 0, n);
    expect(out[0]).toBe(2);
    expect(Array.from(out.subarray(n - 16))).toEqual(big.levels.slice(n - 16, n));
    const small = hybrid([{ rle: false, values: [1, 0, 1, 1, 0, 0, 0, 1] }], 1);
    const o2 = new Uint8Array(8);
    decodeLevelsV2(small.bytes, 0, small.bytes.length, 1, o2, 0, 8);
    expect(Array.from(o2)).toEqual([1, 0, 1, 1, 0, 0, 0, 1]);
  });

  test('deprecated BIT_PACKED levels into bytes (MSB first: 0b01_10_11_00 is 1, 2, 3, 0)', () => {
    const out = new Uint8Array(4);
    expect(decodeLevelsBitPacked(u8(0x6c), 0, 1, 3, out, 0, 4)).toBe(1);
    expect(Array.from(out)).toEqual([1, 2, 3, 0]);
  });
});
