// rleHybridCapacity / checkLevelCapacity against RLE hybrid streams written here by hand from Encodings.md ("Run
// Length Encoding / Bit-Packing Hybrid": a ULEB128 header, count << 1 for an RLE run followed by the value in
// ceil(width / 8) bytes, groups << 1 | 1 for a bit-packed run followed by groups * width bytes of 8 values each): the
// levels a stream holds are the sum of its runs, and a truncated last bit-packed run holds what its bytes hold.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Encoding } from '@parquetry/thrift-compact';
import { checkLevelCapacity, decodeLevelsV2, rleHybridCapacity } from '../src/index.js';

type Run = { rle: true; count: number; value: number } | { rle: false; groups: number };

const uleb = (x: number): number[] => {
  const out: number[] = [];
  for (; x >= 0x80; x = Math.floor(x / 128)) out.push((x & 0x7f) | 0x80);
  out.push(x);
  return out;
};
/** The stream of the runs, and how many levels each run holds. */
function stream(runs: readonly Run[], width: number): Uint8Array {
  const bytes: number[] = [];
  for (const r of runs) {
    if (r.rle) {
      bytes.push(...uleb(r.count * 2));
      for (let k = 0; k < (width + 7) >> 3; k++) bytes.push((r.value >>> (8 * k)) & 0xff);
    } else {
      bytes.push(...uleb(r.groups * 2 + 1));
      for (let k = 0; k < r.groups * width; k++) bytes.push(0);
    }
  }
  return new Uint8Array(bytes);
}
const held = (r: Run) => (r.rle ? r.count : r.groups * 8);

const runArb = (width: number) =>
  fc.oneof(
    fc.record({ rle: fc.constant(true as const), count: fc.integer({ min: 1, max: 100_000 }), value: fc.integer({ min: 0, max: (1 << width) - 1 }) }),
    fc.record({ rle: fc.constant(false as const), groups: fc.integer({ min: 1, max: 40 }) }),
  );

describe('the levels an RLE hybrid stream holds, from its run headers', () => {
  test('property: the sum of its runs, capped at the count asked for', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }).chain((w) => fc.tuple(fc.constant(w), fc.array(runArb(w), { minLength: 0, maxLength: 12 }))),
        fc.integer({ min: 0, max: 2_000_000 }),
        ([width, runs], want) => {
          const s = stream(runs, width);
          const total = runs.reduce((n, r) => n + held(r), 0);
          expect(rleHybridCapacity(s, 0, s.length, width, want)).toBe(Math.min(total, want));
          // checkLevelCapacity throws exactly when the stream holds fewer than the page claims
          const claims = () => checkLevelCapacity(s, 0, s.length, (1 << width) - 1, want, 'v2', 'definition');
          if (total >= want) expect(claims).not.toThrow();
          else expect(claims).toThrow(/ENCODING_TRUNCATED|hold/);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('a truncated stream: a cut RLE run holds nothing, a cut bit-packed run what its whole bytes hold', () => {
    // width 3: RLE run of 10 (header 20, value 1 byte), then 2 bit-packed groups (header 5, 6 bytes)
    const s = stream([{ rle: true, count: 10, value: 5 }, { rle: false, groups: 2 }], 3);
    expect(s.length).toBe(2 + 1 + 6);
    expect(rleHybridCapacity(s, 0, s.length, 3, 1e9)).toBe(26);
    expect(rleHybridCapacity(s, 0, 1, 3, 1e9)).toBe(0); // the RLE value byte is cut
    expect(rleHybridCapacity(s, 0, 3, 3, 1e9)).toBe(10); // the bit-packed header alone
    expect(rleHybridCapacity(s, 0, 3 + 3, 3, 1e9)).toBe(10 + 8); // 3 bytes of width 3: 8 levels
    expect(rleHybridCapacity(s, 0, 3 + 5, 3, 1e9)).toBe(10 + 13); // 5 bytes: 40 bits, 13 levels
  });

  test('one RLE run may honestly hold 2^26 levels in 5 bytes; the decoder agrees with the count', () => {
    const s = stream([{ rle: true, count: 1 << 26, value: 1 }], 1);
    expect(s.length).toBe(5);
    expect(rleHybridCapacity(s, 0, s.length, 1, 1 << 26)).toBe(1 << 26);
    const small = stream([{ rle: true, count: 1000, value: 1 }], 1);
    const out = new Int32Array(1000);
    decodeLevelsV2(small, 0, small.length, 1, out, 0, 1000);
    expect(rleHybridCapacity(small, 0, small.length, 1, 1000)).toBe(out.filter((v) => v === 1).length);
  });

  test('data page V1 forms: the 4-byte length prefix (RLE) and deprecated BIT_PACKED (count * width bits)', () => {
    const runs = stream([{ rle: true, count: 7, value: 1 }], 1);
    const v1 = new Uint8Array([runs.length, 0, 0, 0, ...runs]);
    expect(() => checkLevelCapacity(v1, 0, v1.length, 1, 7, Encoding.RLE, 'repetition')).not.toThrow();
    expect(() => checkLevelCapacity(v1, 0, v1.length, 1, 8, Encoding.RLE, 'repetition')).toThrow('the page claims 8 repetition levels, its 2 bytes of repetition levels hold 7');
    const packed = new Uint8Array(3); // 24 bits: 12 levels of width 2
    expect(() => checkLevelCapacity(packed, 0, 3, 3, 12, Encoding.BIT_PACKED)).not.toThrow();
    expect(() => checkLevelCapacity(packed, 0, 3, 3, 13, Encoding.BIT_PACKED)).toThrow('hold 12');
    // max level 0: nothing is stored, nothing to check
    expect(() => checkLevelCapacity(new Uint8Array(0), 0, 0, 0, 1 << 30, Encoding.RLE)).not.toThrow();
  });
});
