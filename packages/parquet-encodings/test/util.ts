// Shared test helpers: hex, error assertions, fast-check arbitraries for every physical type,
// and bit-exact comparison of columnar values.
import { isParquetError } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { ByteArrays, ColumnValues, FixedLenByteArrays } from '../src/index.js';

export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
export const bytes = (h: string): Uint8Array => new Uint8Array(Buffer.from(h.replace(/\s+/g, ''), 'hex'));

/** Asserts that `f` throws a ParquetError with `code` (and a numeric offset when `needOffset`). */
export function expectCode(f: () => unknown, code: string, needOffset = true): void {
  try {
    f();
  } catch (e) {
    expect(isParquetError(e), String(e)).toBe(true);
    expect((e as { code: string }).code, String(e)).toBe(code);
    if (needOffset) expect(typeof (e as { offset?: number }).offset, String(e)).toBe('number');
    return;
  }
  throw new Error(`expected ParquetError ${code}`);
}

/** Calls `f` and asserts that anything thrown is a ParquetError. */
export function onlyParquetErrors(f: () => unknown): void {
  try {
    f();
  } catch (e) {
    expect(isParquetError(e), String(e)).toBe(true);
  }
}

export function byteArrays(items: Uint8Array[]): ByteArrays {
  const offsets = new Int32Array(items.length + 1);
  let t = 0;
  items.forEach((it, i) => {
    t += it.length;
    offsets[i + 1] = t;
  });
  const data = new Uint8Array(t);
  items.forEach((it, i) => data.set(it, offsets[i]!));
  return { offsets, data };
}

export function fixed(items: Uint8Array[], width: number): FixedLenByteArrays {
  const data = new Uint8Array(items.length * width);
  items.forEach((it, i) => data.set(it, i * width));
  return { width, data };
}

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

export const I32_EDGES = [-2147483648, 2147483647, 0, -1, 1];
export const I64_EDGES = [-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n, 1n];

export const int32s = (maxLength = 200): fc.Arbitrary<Int32Array> =>
  fc.array(fc.oneof(fc.constantFrom(...I32_EDGES), fc.integer({ min: -2147483648, max: 2147483647 }), fc.integer({ min: -100, max: 100 })), { maxLength }).map((a) => Int32Array.from(a));

export const int64s = (maxLength = 200): fc.Arbitrary<BigInt64Array> =>
  fc.array(fc.oneof(fc.constantFrom(...I64_EDGES), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.bigInt({ min: -1000n, max: 1000n })), { maxLength }).map((a) => BigInt64Array.from(a));

/** Float bit patterns: every NaN payload, ±0, ±Inf, subnormals. */
const F32_EDGE_BITS = [0x7fc00000, 0x7f800001, 0xffc00001, 0x7fbfffff, 0x80000000, 0, 0x7f800000, 0xff800000, 1, 0x807fffff, 0x3f800000];
export const float32s = (maxLength = 200): fc.Arbitrary<Float32Array> =>
  fc
    .array(fc.oneof(fc.constantFrom(...F32_EDGE_BITS.map((b) => b | 0)), fc.integer({ min: -2147483648, max: 2147483647 }), fc.integer({ min: -1000, max: 1000 }).map((x) => new Int32Array(Float32Array.of(x / 8).buffer)[0]!)), { maxLength })
    .map((a) => new Float32Array(Int32Array.from(a).buffer));

const F64_EDGE_WORDS: [number, number][] = [
  [0, 0x7ff80000], [1, 0x7ff00000], [0xdeadbeef | 0, 0xfff7ffff | 0], [0, 0x80000000 | 0], [0, 0], [0, 0x7ff00000], [0, 0xfff00000 | 0], [1, 0], [-1, 0x800fffff | 0], [0, 0x3ff00000],
];
export const float64s = (maxLength = 200): fc.Arbitrary<Float64Array> =>
  fc
    .array(
      fc.oneof(
        fc.constantFrom(...F64_EDGE_WORDS),
        fc.tuple(fc.integer({ min: -2147483648, max: 2147483647 }), fc.integer({ min: -2147483648, max: 2147483647 })),
        fc.double({ noNaN: true, min: -1e6, max: 1e6 }).map((d): [number, number] => { const w = new Int32Array(Float64Array.of(d).buffer); return [w[0]!, w[1]!]; }),
        fc.integer({ min: -100000, max: 100000 }).map((d): [number, number] => { const w = new Int32Array(Float64Array.of(d / 100).buffer); return [w[0]!, w[1]!]; }),
      ),
      { maxLength },
    )
    .map((a) => new Float64Array(Int32Array.from(a.flat()).buffer));

export const byteArrayValues = (maxLength = 100): fc.Arbitrary<ByteArrays> =>
  fc.array(fc.oneof({ weight: 10, arbitrary: fc.uint8Array({ maxLength: 24 }) }, { weight: 10, arbitrary: fc.constantFrom('axis', 'axle', 'babble', 'babyhood', '').map(utf8) }, { weight: 1, arbitrary: fc.integer({ min: 1000, max: 70000 }).map((n) => new Uint8Array(n).map((_, i) => i * 7)) }), { maxLength }).map(byteArrays);

export const fixedValues = (width: number, maxLength = 100): fc.Arbitrary<FixedLenByteArrays> =>
  fc.array(fc.oneof(fc.uint8Array({ minLength: width, maxLength: width }), fc.constant(new Uint8Array(width))), { maxLength }).map((a) => fixed(a, width));

export const booleans = (maxLength = 300): fc.Arbitrary<Uint8Array> =>
  fc.oneof(fc.array(fc.boolean(), { maxLength }), fc.array(fc.constant(true), { maxLength })).map((a) => Uint8Array.from(a, (b) => (b ? 1 : 0)));

/** Bit-exact equality of two columnar value sets. */
export function expectSameValues(actual: ColumnValues, expected: ColumnValues): void {
  if ('offsets' in expected) {
    expect('offsets' in actual).toBe(true);
    const a = actual as ByteArrays;
    expect(Array.from(a.offsets.subarray(1), (o) => o - a.offsets[0]!)).toEqual(Array.from(expected.offsets.subarray(1), (o) => o - expected.offsets[0]!));
    expect(hex(a.data.subarray(a.offsets[0]!, a.offsets[a.offsets.length - 1]!))).toBe(hex(expected.data.subarray(expected.offsets[0]!, expected.offsets[expected.offsets.length - 1]!)));
  } else if ('width' in expected) {
    const a = actual as FixedLenByteArrays;
    expect(a.width).toBe(expected.width);
    expect(hex(a.data)).toBe(hex(expected.data));
  } else {
    expect(actual.constructor).toBe(expected.constructor);
    const e = expected as Exclude<ColumnValues, ByteArrays | FixedLenByteArrays>;
    const x = actual as typeof e;
    expect(x.length).toBe(e.length);
    expect(hex(new Uint8Array(x.buffer, x.byteOffset, x.byteLength))).toBe(hex(new Uint8Array(e.buffer, e.byteOffset, e.byteLength)));
  }
}
