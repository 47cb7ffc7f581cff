// Encoding: exact bytes laid out by hand from VariantEncoding.md, round trips (fast-check), and
// hyparquet's independent Variant decoder reading what we write.
import fc from 'fast-check';
import { decodeVariantColumn } from 'hyparquet/src/variant.js';
import { isParquetError } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { decodeVariant, encodeMetadata, encodeVariant, isVariantTyped, variantDate, variantDecimal, variantTime, variantTimestamp, variantUuid, type VariantValue } from '../src/index.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('exact bytes', () => {
  test.each([
    [null, '00'],
    [true, '04'],
    [false, '08'],
    [-1, '0cff'],
    [128, '10' + '8000'], // int16
    [-32769, '14' + 'ff7fffff'], // int32
    [2 ** 31, '18' + '0000008000000000'], // int64
    [1.5, '1c' + '000000000000f83f'], // double
    [-0, '1c' + '0000000000000080'],
    [2 ** 53, '1c' + '0000000000004043'], // unsafe integer → double
    [5n, '18' + '0500000000000000'], // bigint → int64
    ['abc', '0d616263'],
    ['x'.repeat(64), '40' + '40000000' + '78'.repeat(64)], // 64 bytes → long string
    [Uint8Array.of(1, 2), '3c' + '02000000' + '0102'],
    [variantDate(-1), '2c' + 'ffffffff'],
    [variantTimestamp(1n, 'us', true), '30' + '0100000000000000'],
    [variantTimestamp(1n, 'us', false), '34' + '0100000000000000'],
    [variantTimestamp(-1n, 'ns', true), '48' + 'ffffffffffffffff'],
    [variantTimestamp(1n, 'ns', false), '4c' + '0100000000000000'],
    [variantTime(2n), '44' + '0200000000000000'],
    [variantUuid('f24f9b64-81fa-49d1-b74e-8c09a6e31c56'), '50' + 'f24f9b6481fa49d1b74e8c09a6e31c56'],
    [variantDecimal('-12.340'), '20' + '03' + 'cccfffff'], // decimal4, precision 5
    [variantDecimal('1234567890.0'), '24' + '01' + '341cdcdf02000000'], // decimal8, precision 11 (12345678900 = 0x2DFDC1C34)
    [variantDecimal('0.0000000000000000001'), '20' + '13' + '01000000'], // precision 1, scale 19 → decimal4
    [variantDecimal('-12345678901234567890'), '28' + '00' + '2ef5e0147356ab54ffffffffffffffff'], // decimal16
    [[], '0300'.padEnd(6, '0')],
    [[true, null], '03' + '02' + '000102' + '0400'],
  ] as [VariantValue, string][])('%o', (value, expected) => {
    expect(hex(encodeVariant(value).value)).toBe(expected);
  });

  test('decimal widths follow precision', () => {
    expect(encodeVariant(variantDecimal('999999999')).value[0]).toBe(8 << 2);
    expect(encodeVariant(variantDecimal('-9999999999')).value[0]).toBe(9 << 2);
    expect(encodeVariant(variantDecimal('9999999999999999999')).value[0]).toBe(10 << 2);
    const big = '-' + '9'.repeat(38);
    expect(decodeVariant(encodeVariant(variantDecimal(big)).metadata, encodeVariant(variantDecimal(big)).value)).toEqual({
      type: 'decimal',
      value: big,
    });
  });

  test('object: sorted dictionary, ids and values in key order', () => {
    const { metadata, value } = encodeVariant({ c: 3, b: 2, a: 1 });
    // header 0x11 (v1, sorted, 1-byte offsets), 3 strings, offsets 0..3, "abc"
    expect(hex(metadata)).toBe('11' + '03' + '00010203' + '616263');
    // object header 0x02, 3 fields, ids 0 1 2, offsets 0 2 4 6, values int8 1, 2, 3
    expect(hex(value)).toBe('02' + '03' + '000102' + '00020406' + '0c01' + '0c02' + '0c03');
  });

  test('keys sort by UTF-8 bytes, not UTF-16 units', () => {
    const { metadata } = encodeVariant({ '\u{1F600}': 1, '\uFF21': 2 });
    const ef = new TextEncoder().encode('\uFF21');
    expect(metadata.subarray(5, 5 + ef.length)).toEqual(ef); // U+FF21 (EF BC A1) before U+1F600 (F0 ...)
  });

  test('wide containers use larger sizes', () => {
    const arr = Array.from({ length: 300 }, (_, i) => 'v'.repeat(i % 60));
    const { metadata, value } = encodeVariant(arr);
    expect(value[0]).toBe(3 | ((4 | 1) << 2)); // is_large, 2-byte offsets
    expect(decodeVariant(metadata, value)).toEqual(arr);
    const obj: Record<string, number> = {};
    for (let i = 0; i < 300; i++) obj[`k${i}`] = i;
    const e = encodeVariant(obj);
    expect(e.value[0]).toBe(2 | ((0x10 | (1 << 2) | 1) << 2)); // is_large, 2-byte ids, 2-byte offsets
    expect(e.metadata[0]).toBe(0x51); // 2-byte dictionary offsets
    expect(decodeVariant(e.metadata, e.value)).toEqual(obj);
  });

  test('encodeMetadata of an empty dictionary', () => {
    expect(hex(encodeMetadata([]))).toBe('110000');
  });

  test('unrepresentable values throw VARIANT_UNREPRESENTABLE', () => {
    const bad: unknown[] = [undefined, () => 1, Symbol('s'), 2n ** 63n, variantDecimal('1' + '0'.repeat(38)), { a: undefined }, new Map()];
    for (const b of bad) {
      try {
        encodeVariant(b as VariantValue);
        throw new Error(`encoded ${String(b)}`);
      } catch (e) {
        expect(isParquetError(e) && e.code === 'VARIANT_UNREPRESENTABLE', String(e)).toBe(true);
      }
    }
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => encodeVariant(cyclic as VariantValue)).toThrow(/nesting deeper than 128/);
  });
});

// The JS mapping's image: values decode(encode(x)) must reproduce exactly.
const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const key = fc.string({ unit: 'binary', maxLength: 8 });
const leaf: fc.Arbitrary<VariantValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.maxSafeInteger(),
  int64.filter((b) => !Number.isSafeInteger(Number(b)) || b > BigInt(Number.MAX_SAFE_INTEGER) || b < -BigInt(Number.MAX_SAFE_INTEGER)),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.uint8Array({ maxLength: 20 }),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((days) => variantDate(days)),
  fc.tuple(int64, fc.constantFrom('us' as const, 'ns' as const), fc.boolean()).map(([value, unit, utc]) => variantTimestamp(value, unit, utc)),
  int64.map((value) => variantTime(value)),
  fc.uuid().map((u) => variantUuid(u)),
  fc
    .tuple(fc.bigInt({ min: -(10n ** 38n) + 1n, max: 10n ** 38n - 1n }), fc.integer({ min: 0, max: 38 }))
    .map(([u, s]) => {
      const neg = u < 0n;
      let d = (neg ? -u : u).toString();
      if (s > 0 && d.length <= s) d = '0'.repeat(s - d.length + 1) + d;
      const text = s === 0 ? d : `${d.slice(0, d.length - s)}.${d.slice(d.length - s)}`;
      return variantDecimal((neg ? '-' : '') + text);
    }),
);
const variant: fc.Arbitrary<VariantValue> = fc.letrec<{ v: VariantValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('v'), { maxLength: 6 }),
    // `type` keys included: a plain object is an object whatever its keys (objects shaped like typed values below)
    fc.dictionary(fc.oneof(key, fc.constantFrom('type', 'value', 'days', 'unit', 'utc')).filter((k) => k !== '__proto__'), tie('v'), { maxKeys: 6 }),
    fc.constantFrom<VariantValue>(
      { type: 'decimal', value: '12.5' },
      { type: 'uuid', value: 'f24f9b64-81fa-49d1-b74e-8c09a6e31c56' },
      { type: 'date', days: 3 },
      { type: 'time', unit: 'us', value: 5 },
      { type: 'timestamp', unit: 'ns', utc: false, value: 2n ** 60n }, // an unsafe int64 reads back as a bigint
    ),
  ),
})).v;

/** `v` with every typed value marked by an enumerable key, so `toEqual` tells a typed value from a plain object. */
const marked = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(marked);
  if (v === null || typeof v !== 'object' || v instanceof Uint8Array) return v;
  const o = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, marked(x)]));
  return isVariantTyped(v) ? { typed: o } : { object: o };
};

describe('round trips', () => {
  test('decode(encode(x)) deep-equals x, typed values typed and plain objects objects', () => {
    fc.assert(
      fc.property(variant, (x) => {
        const { metadata, value } = encodeVariant(x);
        expect(marked(decodeVariant(metadata, value))).toEqual(marked(x));
      }),
      { numRuns: 400 },
    );
  });

  test('encode(decode(b)) reproduces our own encoding', () => {
    fc.assert(
      fc.property(variant, (x) => {
        const a = encodeVariant(x);
        const b = encodeVariant(decodeVariant(a.metadata, a.value));
        expect(hex(b.metadata)).toBe(hex(a.metadata));
        expect(hex(b.value)).toBe(hex(a.value));
      }),
      { numRuns: 200 },
    );
  });

  // hyparquet's decoder maps int64 to bigint and decimals to numbers; compare on JSON-like values.
  const jsonish: fc.Arbitrary<VariantValue> = fc.letrec<{ v: VariantValue }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.double({ noNaN: true }),
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.array(tie('v'), { maxLength: 6 }),
      fc.dictionary(key.filter((k) => k !== '__proto__'), tie('v'), { maxKeys: 6 }),
    ),
  })).v;

  test('hyparquet decodes what we encode', () => {
    fc.assert(
      fc.property(jsonish, (x) => {
        const { metadata, value } = encodeVariant(x);
        // an integral double outside int32 is encoded as int64, which hyparquet returns as a bigint
        const asNumbers = (v: unknown): unknown =>
          typeof v === 'bigint' ? Number(v) : Array.isArray(v) ? v.map(asNumbers) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, y]) => [k, asNumbers(y)])) : v;
        expect(asNumbers(decodeVariantColumn({ metadata, value }))).toEqual(x);
      }),
      { numRuns: 300 },
    );
  });
});
