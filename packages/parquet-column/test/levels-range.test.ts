// The level decoders skip their range pass when the max level is 2^w - 1 (w its bit width). Sound only if a w-bit
// stream can never yield a value above 2^w - 1: checked here against a reference decoder written from Encodings.md
// (RLE / bit-packing hybrid: varint run headers, RLE values in ceil(w / 8) little-endian bytes, bit-packed groups of
// 8 values LSB first; deprecated BIT_PACKED: MSB first, no header), over random bytes for every width 1..16 — each
// level decoded equals the reference's w-bit value, or the stream is refused (an RLE value wider than w). And every
// other maximum still refuses a level above it (INVALID_LEVELS), wherever it sits: RLE run, bit-packed group, V1,
// V2 or BIT_PACKED.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Encoding, isParquetError } from '@parquetry/thrift-compact';
import { decodeLevelsV1, decodeLevelsV2 } from '@parquetry/parquet-levels';

/** A run: RLE of `n` copies of `value` (any value, possibly wider than w), or `groups` bit-packed groups of random bytes. */
type Run = { rle: true; n: number; value: number } | { rle: false; groups: number; bytes: number[] };

function varint(out: number[], v: number): void {
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
}

/** The hybrid stream of `runs` for width `w`, and the levels a reference decoder reads from it (undefined: refused). */
function hybrid(runs: Run[], w: number): { bytes: Uint8Array; levels: number[] | undefined } {
  const bytes: number[] = [];
  let levels: number[] | undefined = [];
  const vbytes = (w + 7) >> 3;
  for (const r of runs) {
    if (r.rle) {
      varint(bytes, r.n << 1);
      for (let b = 0; b < vbytes; b++) bytes.push(Math.floor(r.value / 2 ** (8 * b)) & 0xff);
      const stored = r.value % 2 ** (8 * vbytes);
      if (stored >= 2 ** w) levels = undefined; // wider than w: the spec gives it no meaning
      else levels?.push(...new Array<number>(r.n).fill(stored));
    } else {
      varint(bytes, (r.groups << 1) | 1);
      const body = r.bytes.slice(0, r.groups * w);
      while (body.length < r.groups * w) body.push(0);
      bytes.push(...body);
      // LSB first: value i is bits [i*w, (i+1)*w) of the body
      for (let i = 0; i < 8 * r.groups; i++) {
        let v = 0;
        for (let k = 0; k < w; k++) {
          const bit = i * w + k;
          if ((body[bit >> 3]! >> (bit & 7)) & 1) v += 2 ** k;
        }
        levels?.push(v);
      }
    }
  }
  return { bytes: Uint8Array.from(bytes), levels };
}

/** Deprecated BIT_PACKED levels: values of w bits, most significant bit first. */
function msbFirst(bytes: number[], w: number, count: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    let v = 0;
    for (let k = 0; k < w; k++) {
      const bit = i * w + k;
      v = v * 2 + ((bytes[bit >> 3]! >> (7 - (bit & 7))) & 1);
    }
    out.push(v);
  }
  return out;
}

const runArb = (w: number): fc.Arbitrary<Run> =>
  fc.oneof(
    fc.record({ rle: fc.constant(true as const), n: fc.integer({ min: 1, max: 300 }), value: fc.oneof(fc.integer({ min: 0, max: 2 ** w - 1 }), fc.integer({ min: 0, max: 2 ** (8 * ((w + 7) >> 3)) - 1 })) }),
    fc.record({ rle: fc.constant(false as const), groups: fc.integer({ min: 1, max: 6 }), bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 6 * w, maxLength: 6 * w }) }),
  );

/** Decodes `count` levels every way; the result per form, or the error code. */
function decodeAll(bytes: Uint8Array, maxLevel: number, count: number): { v2: Int32Array | string; v1: Int32Array | string } {
  const run = (f: (out: Int32Array) => void): Int32Array | string => {
    const out = new Int32Array(count);
    try {
      f(out);
      return out;
    } catch (e) {
      if (isParquetError(e)) return e.code;
      throw e;
    }
  };
  const v1 = new Uint8Array(bytes.length + 4);
  new DataView(v1.buffer).setUint32(0, bytes.length, true);
  v1.set(bytes, 4);
  return {
    v2: run((out) => decodeLevelsV2(bytes, 0, bytes.length, maxLevel, out, 0, count)),
    v1: run((out) => decodeLevelsV1(v1, 0, v1.length, maxLevel, out, 0, count, Encoding.RLE)),
  };
}

describe('level range: the skipped pass for maxima 2^w - 1, the kept one for the others', () => {
  test('property: a w-bit stream decodes to the reference\'s w-bit values (never above 2^w - 1) or is refused, w = 1..16', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 16 }).chain((w) => fc.tuple(fc.constant(w), fc.array(runArb(w), { minLength: 1, maxLength: 6 }))),
        ([w, runs]) => {
          const maxLevel = 2 ** w - 1;
          const { bytes, levels } = hybrid(runs, w);
          const count = runs.reduce((s, r) => s + (r.rle ? r.n : 8 * r.groups), 0);
          const got = decodeAll(bytes, maxLevel, count);
          for (const [form, out] of Object.entries(got)) {
            if (levels === undefined) {
              expect(out, form).toBe('ENCODING_CORRUPT');
              continue;
            }
            expect(typeof out, `${form}: ${String(out)}`).not.toBe('string');
            expect(Array.from(out as Int32Array), form).toEqual(levels);
          }
        },
      ),
      { numRuns: 600 },
    );
  });

  test('property: deprecated BIT_PACKED levels of width w are the reference\'s MSB-first values, w = 1..16', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), (w, count, seed) => {
        let x = seed;
        const bytes = Array.from({ length: Math.ceil((count * w) / 8) }, () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0), x >>> 24));
        const out = new Int32Array(count);
        decodeLevelsV1(Uint8Array.from(bytes), 0, bytes.length, 2 ** w - 1, out, 0, count, Encoding.BIT_PACKED);
        expect(Array.from(out)).toEqual(msbFirst(bytes, w, count));
        for (const l of out) expect(l <= 2 ** w - 1).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  test('property: any other maximum refuses a level above it, in an RLE run, a bit-packed group, V1, V2 or BIT_PACKED', () => {
    const otherMax = fc.integer({ min: 2, max: 2 ** 12 - 1 }).filter((m) => (m & (m + 1)) !== 0);
    fc.assert(
      fc.property(otherMax, fc.integer({ min: 1, max: 100 }), fc.nat(), fc.boolean(), (maxLevel, count, where, rle) => {
        const w = 32 - Math.clz32(maxLevel);
        // a level above the max that still fits in w bits (so only the range pass can catch it)
        const bad = maxLevel + 1 + (where % (2 ** w - 1 - maxLevel));
        expect(bad).toBeLessThanOrEqual(2 ** w - 1);
        const at = where % count;
        const levels = Array.from({ length: count }, (_, i) => (i === at ? bad : (i * 7) % (maxLevel + 1)));
        // as RLE runs of one value each, or as bit-packed groups (count rounded up to a multiple of 8, padding 0)
        let stream: Run[];
        if (rle) stream = levels.map((value) => ({ rle: true as const, n: 1, value }));
        else {
          const groups = Math.ceil(count / 8);
          const body: number[] = new Array<number>(groups * w).fill(0);
          levels.forEach((v, i) => {
            for (let k = 0; k < w; k++) if ((v >> k) & 1) body[(i * w + k) >> 3]! |= 1 << ((i * w + k) & 7);
          });
          stream = [{ rle: false, groups, bytes: body }];
        }
        const { bytes, levels: ref } = hybrid(stream, w);
        expect(ref!.slice(0, count)).toEqual(levels);
        const got = decodeAll(bytes, maxLevel, count);
        expect(got.v1).toBe('INVALID_LEVELS');
        expect(got.v2).toBe('INVALID_LEVELS');
        // BIT_PACKED: MSB first
        const packed = new Array<number>(Math.ceil((count * w) / 8)).fill(0);
        levels.forEach((v, i) => {
          for (let k = 0; k < w; k++) if ((v >> (w - 1 - k)) & 1) packed[(i * w + k) >> 3]! |= 0x80 >> ((i * w + k) & 7);
        });
        expect(msbFirst(packed, w, count)).toEqual(levels);
        let code: string | undefined;
        try {
          decodeLevelsV1(Uint8Array.from(packed), 0, packed.length, maxLevel, new Int32Array(count), 0, count, Encoding.BIT_PACKED);
        } catch (e) {
          code = isParquetError(e) ? e.code : String(e);
        }
        expect(code).toBe('INVALID_LEVELS');
        // and the same levels without the bad one decode
        const good = levels.map((v, i) => (i === at ? maxLevel : v));
        const ok = decodeAll(hybrid(good.map((value) => ({ rle: true as const, n: 1, value })), w).bytes, maxLevel, count);
        expect(Array.from(ok.v2 as Int32Array)).toEqual(good);
        expect(Array.from(ok.v1 as Int32Array)).toEqual(good);
      }),
      { numRuns: 400 },
    );
  });
});
