/**
 * Review of the BYTE_ARRAY min/max shortcut (a value whose first 4 bytes, big-endian, lie strictly between the
 * bounds' first 4 bytes skips the byte comparisons): the page bounds must equal a naive unsigned byte-wise min/max for
 * any values — empty, shorter than 4 bytes, equal 4-byte prefixes, bytes ≥ 0x80 — in any batch split; DECIMAL on
 * BYTE_ARRAY keeps its signed numeric order; and offsets that run past the data are a ParquetError, not a RangeError.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { buildSchemaTree, type ColumnDescriptor } from '@parquetry/parquet-levels';
import { FieldRepetitionType, Type, type SchemaElement } from '@parquetry/thrift-compact';
import { StatisticsBuilder } from '../src/statistics-builder.js';
import { typedError } from './helpers.js';

function leaf(type: Type, extra: Partial<SchemaElement> = {}): ColumnDescriptor {
  return buildSchemaTree([{ name: 'root', num_children: 1 }, { name: 'v', type, repetition_type: FieldRepetitionType.OPTIONAL, ...extra }]).columns[0]!;
}

/** Unsigned lexicographic order, written out. */
function bytesCmp(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length - b.length;
}

/** Big-endian two's complement → BigInt (empty: 0). */
function beSigned(b: Uint8Array): bigint {
  let x = 0n;
  for (const v of b) x = (x << 8n) | BigInt(v);
  if (b.length > 0 && b[0]! & 0x80) x -= 1n << BigInt(8 * b.length);
  return x;
}

/** The values back to back, the data at byte 3 of a larger buffer (the word reads must honour its offset). */
function pack(values: Uint8Array[]): { offsets: Int32Array; data: Uint8Array } {
  const offsets = new Int32Array(values.length + 1);
  for (let i = 0; i < values.length; i++) offsets[i + 1] = offsets[i]! + values[i]!.length;
  const host = new Uint8Array(offsets[values.length]! + 8).fill(0xff);
  const data = host.subarray(3, 3 + offsets[values.length]!);
  values.forEach((v, i) => data.set(v, offsets[i]!));
  return { offsets, data };
}

// bytes clustered at the edges of the unsigned/signed boundaries so equal prefixes and ties are common
const byteArb = fc.constantFrom(0x00, 0x01, 0x7f, 0x80, 0x81, 0xfe, 0xff);
const valueArb = fc.oneof(
  fc.uint8Array({ minLength: 0, maxLength: 9 }),
  fc.array(byteArb, { minLength: 0, maxLength: 9 }).map((a) => Uint8Array.from(a)),
);

function boundsOf(b: StatisticsBuilder): [Uint8Array | undefined, Uint8Array | undefined] {
  return [b.minBytes(), b.maxBytes()];
}

describe('BYTE_ARRAY bounds with the 4-byte prefix shortcut', () => {
  test('property: min/max equal the naive unsigned byte-wise extremes, for any batch split', () => {
    fc.assert(
      fc.property(fc.array(valueArb, { minLength: 1, maxLength: 60, size: 'max' }), fc.array(fc.nat({ max: 60 }), { maxLength: 4 }), (values, cuts) => {
        const b = new StatisticsBuilder(leaf(Type.BYTE_ARRAY), { truncateLength: 1 << 20 });
        const v = pack(values);
        const points = [...new Set([0, ...cuts.map((c) => c % (values.length + 1)), values.length])].sort((x, y) => x - y);
        for (let k = 1; k < points.length; k++) b.update(v, points[k - 1]!, points[k]!);
        const sorted = [...values].sort(bytesCmp);
        const [mn, mx] = boundsOf(b);
        expect(Array.from(mn!)).toEqual(Array.from(sorted[0]!));
        expect(Array.from(mx!)).toEqual(Array.from(sorted[sorted.length - 1]!));
      }),
      { numRuns: 2000 },
    );
  });

  test('hand-picked: bounds shorter than 4 bytes, empty values, equal prefixes, bytes ≥ 0x80', () => {
    const cases: number[][][] = [
      // a 4-byte value whose prefix equals the zero-padded short min: it is larger than [1]
      [[1], [9, 9, 9, 9], [1, 0, 0, 0]],
      // a value equal to the zero-padded short max key but longer: larger than the max [5]
      [[0, 0, 0, 0], [5], [5, 0, 0, 0, 1]],
      // empty is the smallest; a long value sharing the max's prefix and longer is the new max
      [[0x80, 0, 0, 0], [], [0xff, 0xff, 0xff, 0xff], [0x90, 1, 2, 3], [0xff, 0xff, 0xff, 0xff, 0]],
      // unsigned: 0x80.. is above 0x7f..
      [[0x7f, 0xff, 0xff, 0xff, 0xff], [0x01, 0, 0, 0], [0x80, 0, 0, 0], [0x7f, 0xff, 0xff, 0xfe]],
      // a value strictly between the bounds' prefixes, then values tying the bounds' prefixes but outside
      [[0x10, 0, 0, 0, 5], [0x20, 0, 0, 0, 5], [0x18, 1, 2, 3], [0x10, 0, 0, 0], [0x20, 0, 0, 0, 6]],
    ];
    for (const c of cases) {
      const values = c.map((x) => Uint8Array.from(x));
      const b = new StatisticsBuilder(leaf(Type.BYTE_ARRAY), { truncateLength: 1 << 20 });
      b.update(pack(values), 0, values.length);
      const sorted = [...values].sort(bytesCmp);
      expect(Array.from(b.minBytes()!)).toEqual(Array.from(sorted[0]!));
      expect(Array.from(b.maxBytes()!)).toEqual(Array.from(sorted[sorted.length - 1]!));
    }
  });

  test('property: DECIMAL on BYTE_ARRAY keeps the signed numeric order (no unsigned prefix shortcut)', () => {
    const col = leaf(Type.BYTE_ARRAY, { logicalType: { DECIMAL: { scale: 0, precision: 38 } }, scale: 0, precision: 38 });
    fc.assert(
      fc.property(fc.array(fc.array(byteArb, { minLength: 1, maxLength: 8 }).map((a) => Uint8Array.from(a)), { minLength: 1, maxLength: 40, size: 'max' }), (values) => {
        const b = new StatisticsBuilder(col, { truncateLength: 1 << 20 });
        b.update(pack(values), 0, values.length);
        const nums = values.map(beSigned);
        const lo = nums.reduce((a, x) => (x < a ? x : a));
        const hi = nums.reduce((a, x) => (x > a ? x : a));
        expect(beSigned(b.minBytes()!)).toBe(lo);
        expect(beSigned(b.maxBytes()!)).toBe(hi);
      }),
      { numRuns: 500 },
    );
  });

  test('offsets past the data in the middle of a batch are a ParquetError (the word read must not throw a RangeError)', async () => {
    // offsets [0, 3, 10, 5]: value 1 spans [3, 10) of 5 bytes; value 2 runs backwards
    const v = { offsets: Int32Array.of(0, 3, 10, 5), data: new Uint8Array(5) };
    const b = new StatisticsBuilder(leaf(Type.BYTE_ARRAY), { truncateLength: 64 });
    const err = await typedError(() => b.update(v, 0, 3));
    expect(err.code).toBe('INVALID_ARGUMENT');
  });
});
