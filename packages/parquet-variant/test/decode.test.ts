// Decoding hand-assembled bytes, each laid out from VariantEncoding.md's diagrams and type table.
import { isParquetError } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { VariantMetadata, decodeVariant, splitVariantBinary } from '../src/index.js';

const EMPTY_MD = Uint8Array.of(0x01, 0x00, 0x00); // version 1, dictionary_size 0, offset 0
const u8 = (...b: number[]): Uint8Array => Uint8Array.from(b);
const prim = (id: number, ...data: number[]): Uint8Array => u8(id << 2, ...data);

function corrupt(fn: () => unknown, offset?: number): string {
  try {
    fn();
  } catch (e) {
    expect(isParquetError(e), String(e)).toBe(true);
    const pe = e as { code: string; offset: number | undefined; message: string };
    expect(pe.code).toBe('VARIANT_CORRUPT');
    expect(pe.message.startsWith('parquet-variant: ')).toBe(true);
    if (offset !== undefined) expect(pe.offset).toBe(offset);
    return pe.message;
  }
  throw new Error('expected a VARIANT_CORRUPT error');
}

describe('primitives (type table)', () => {
  test.each([
    ['null', prim(0), null],
    ['true', prim(1), true],
    ['false', prim(2), false],
    ['int8', prim(3, 0xd6), -42],
    ['int16', prim(4, 0x2e, 0xfb), -1234],
    ['int32', prim(5, 0x40, 0xe2, 0x01, 0x00), 123456],
    ['int64 2^53-1', prim(6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x1f, 0x00), 2 ** 53 - 1],
    ['int64 unsafe', prim(6, 0x15, 0x81, 0xe9, 0x7d, 0xf4, 0x10, 0x22, 0x00), 9_588_791_478_681_877n],
    ['int64 -2^53+1', prim(6, 0x01, 0, 0, 0, 0, 0, 0xe0, 0xff), -(2 ** 53) + 1],
    ['int64 2^53 (unsafe)', prim(6, 0, 0, 0, 0, 0, 0, 0x20, 0x00), 2n ** 53n],
    ['int64 -2^53 (unsafe)', prim(6, 0, 0, 0, 0, 0, 0, 0xe0, 0xff), -(2n ** 53n)],
    ['int64 min', prim(6, 0, 0, 0, 0, 0, 0, 0, 0x80), -(2n ** 63n)],
    ['double 1.5', prim(7, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f), 1.5],
    ['float 1.5', prim(14, 0, 0, 0xc0, 0x3f), 1.5],
    ['decimal4 -12.340', prim(8, 3, 0xcc, 0xcf, 0xff, 0xff), { type: 'decimal', value: '-12.340' }],
    ['decimal4 0.005', prim(8, 3, 5, 0, 0, 0), { type: 'decimal', value: '0.005' }],
    ['decimal4 scale 0', prim(8, 0, 7, 0, 0, 0), { type: 'decimal', value: '7' }],
    ['decimal8 -1.00', prim(9, 2, 0x9c, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), { type: 'decimal', value: '-1.00' }],
    // 2^64 (unscaled) with scale 1: low word 0, high word 1.
    ['decimal16 2^64/10', prim(10, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0), { type: 'decimal', value: '1844674407370955161.6' }],
    ['decimal16 -1 scale 38', prim(10, 38, ...new Array<number>(16).fill(0xff)), { type: 'decimal', value: '-0.' + '0'.repeat(37) + '1' }],
    ['date', prim(11, 0xff, 0xff, 0xff, 0xff), { type: 'date', days: -1 }],
    ['timestamp us utc', prim(12, 1, 0, 0, 0, 0, 0, 0, 0), { type: 'timestamp', unit: 'us', utc: true, value: 1n }],
    ['timestamp us ntz', prim(13, 2, 0, 0, 0, 0, 0, 0, 0), { type: 'timestamp', unit: 'us', utc: false, value: 2n }],
    ['timestamp ns utc', prim(18, 0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), { type: 'timestamp', unit: 'ns', utc: true, value: -3n }],
    ['timestamp ns ntz', prim(19, 4, 0, 0, 0, 0, 0, 0, 0), { type: 'timestamp', unit: 'ns', utc: false, value: 4n }],
    ['time', prim(17, 0x00, 0x10, 0x5e, 0x5f, 0x14, 0, 0, 0), { type: 'time', unit: 'us', value: 87_499_345_920n }],
    ['binary', prim(15, 3, 0, 0, 0, 1, 2, 0xff), u8(1, 2, 0xff)],
    ['string', prim(16, 2, 0, 0, 0, 0xc3, 0xa9), 'é'],
    ['short string', u8(1 | (3 << 2), 0x61, 0x62, 0x63), 'abc'],
    ['empty short string', u8(1), ''],
    [
      'uuid',
      prim(20, 0xf2, 0x4f, 0x9b, 0x64, 0x81, 0xfa, 0x49, 0xd1, 0xb7, 0x4e, 0x8c, 0x09, 0xa6, 0xe3, 0x1c, 0x56),
      { type: 'uuid', value: 'f24f9b64-81fa-49d1-b74e-8c09a6e31c56' },
    ],
  ])('%s', (_name, bytes, expected) => {
    expect(decodeVariant(EMPTY_MD, bytes)).toEqual(expected);
  });

  test('int64 in the safe range is a number, not a bigint', () => {
    expect(typeof decodeVariant(EMPTY_MD, prim(6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x1f, 0x00))).toBe('number');
  });
});

describe('objects and arrays', () => {
  // dictionary ["a", "b"] (sorted), 1-byte offsets
  const MD = u8(0x11, 2, 0, 1, 2, 0x61, 0x62);

  test('object: ids in key order, values out of order', () => {
    // header: basic 2, id size 1, offset size 1, not large; 2 fields: ids [0 (a), 1 (b)],
    // offsets [1, 0, 3]: b's value (true) stored first, a's value (int8 7) second.
    const v = u8(0x02, 2, 0, 1, 1, 0, 3, 0x04, 0x0c, 7);
    expect(decodeVariant(MD, v)).toEqual({ a: 7, b: true });
    expect(Object.keys(decodeVariant(MD, v) as object)).toEqual(['a', 'b']);
  });

  test('object with 2-byte ids, 3-byte offsets and is_large', () => {
    // object_header = is_large<<4 | (id size 2 - 1)<<2 | (offset size 3 - 1) = 0x16
    const v = u8(2 | (0x16 << 2), 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0x04);
    expect(decodeVariant(MD, v)).toEqual({ b: true });
  });

  test('array with is_large and 4-byte offsets', () => {
    // array_header = is_large<<2 | 3 = 7
    const v = u8(3 | (7 << 2), 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0x04, 0x00);
    expect(decodeVariant(MD, v)).toEqual([true, null]);
  });

  test('nested array in object; empty object and array', () => {
    const inner = u8(0x03, 1, 0, 1, 0x00); // [null]
    const v = u8(0x02, 1, 0, 0, inner.length, ...inner);
    expect(decodeVariant(MD, v)).toEqual({ a: [null] });
    expect(decodeVariant(EMPTY_MD, u8(0x02, 0, 0))).toEqual({});
    expect(decodeVariant(EMPTY_MD, u8(0x03, 0, 0))).toEqual([]);
  });

  test('a "__proto__" key is an own property, not the prototype', () => {
    const md = u8(0x11, 1, 0, 9, ...new TextEncoder().encode('__proto__'));
    const o = decodeVariant(md, u8(0x02, 1, 0, 0, 1, 0x00)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(Object.keys(o)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(o, '__proto__')?.value).toBe(null);
  });

  test('metadata with 2-byte offsets and unsorted strings', () => {
    const md = u8(0x41, 2, 0, 0, 0, 1, 0, 2, 0, 0x62, 0x61); // offset_size 2, ["b", "a"], not sorted
    const m = new VariantMetadata(md);
    expect([m.size, m.offsetSize, m.sorted, m.get(0), m.get(1), m.byteLength]).toEqual([2, 2, false, 'b', 'a', md.length]);
    expect(decodeVariant(md, u8(0x02, 1, 1, 0, 1, 0x04))).toEqual({ a: true });
  });

  test('a reused metadata buffer changed in place is re-parsed', () => {
    const md = u8(0x11, 1, 0, 1, 0x61); // ["a"]
    const obj = u8(0x02, 1, 0, 0, 1, 0x04);
    expect(decodeVariant(md, obj)).toEqual({ a: true });
    md[4] = 0x62; // ["b"], same buffer
    expect(decodeVariant(md, obj)).toEqual({ b: true });
  });

  test('splitVariantBinary finds the end of the metadata', () => {
    const { metadata, value } = splitVariantBinary(u8(0x01, 0x00, 0x00, 0x0c, 0x2a));
    expect([...metadata]).toEqual([1, 0, 0]);
    expect(decodeVariant(metadata, value)).toBe(42);
  });
});

describe('malformed input → VARIANT_CORRUPT with the byte position', () => {
  test('metadata', () => {
    corrupt(() => new VariantMetadata(u8()), 0);
    expect(corrupt(() => new VariantMetadata(u8(0x02, 0, 0)), 0)).toContain('version 2');
    corrupt(() => new VariantMetadata(u8(0x01)), 1);
    corrupt(() => new VariantMetadata(u8(0x01, 5, 0)), 1); // 5 strings need 6 offsets
    corrupt(() => new VariantMetadata(u8(0x01, 1, 1, 0)), 2); // first offset must be 0
    corrupt(() => new VariantMetadata(u8(0x01, 2, 0, 2, 1, 0x61, 0x62)), 4); // decreasing offsets
    corrupt(() => new VariantMetadata(u8(0x01, 1, 0, 3, 0x61)), 4); // bytes past the end
    corrupt(() => decodeVariant(u8(0x11, 1, 0, 1, 0xff), u8(0x02, 1, 0, 0, 1, 0)), 4); // invalid UTF-8 key
  });

  test('value', () => {
    corrupt(() => decodeVariant(EMPTY_MD, u8()), 0);
    expect(corrupt(() => decodeVariant(EMPTY_MD, prim(21)), 0)).toContain('unknown primitive type id 21');
    corrupt(() => decodeVariant(EMPTY_MD, prim(5, 1, 2)), 1);
    corrupt(() => decodeVariant(EMPTY_MD, prim(8, 39, 0, 0, 0, 0)), 1); // scale > 38
    corrupt(() => decodeVariant(EMPTY_MD, prim(16, 0xff, 0xff, 0xff, 0xff)), 5); // huge string size
    corrupt(() => decodeVariant(EMPTY_MD, u8(1 | (5 << 2), 0x61)), 1); // short string past the end
    corrupt(() => decodeVariant(EMPTY_MD, u8(1 | (1 << 2), 0xff)), 1); // invalid UTF-8
    corrupt(() => decodeVariant(EMPTY_MD, u8(0x02, 1, 0, 0, 1, 0)), 2); // field id 0 of an empty dictionary
    corrupt(() => decodeVariant(EMPTY_MD, u8(0x03 | (4 << 2), 0xff, 0xff, 0xff, 0xff)), 5); // is_large count
    corrupt(() => decodeVariant(EMPTY_MD, u8(0x03, 1, 0, 9, 0)), 3); // fields end past the value
    corrupt(() => decodeVariant(EMPTY_MD, u8(0x03, 1, 1, 1, 0)), 2); // element offset at the end
  });

  test('duplicate keys', () => {
    const md = u8(0x01, 2, 0, 1, 2, 0x61, 0x61); // unsorted dictionary with "a" twice
    expect(corrupt(() => decodeVariant(md, u8(0x02, 2, 0, 1, 0, 1, 2, 0, 0)), 3)).toContain('duplicate');
    // The same dictionary falsely claiming sorted_strings: the claim is checked, not trusted.
    const lying = u8(0x11, 2, 0, 1, 2, 0x61, 0x61);
    expect(new VariantMetadata(lying).isStrictlySorted()).toBe(false);
    expect(corrupt(() => decodeVariant(lying, u8(0x02, 2, 0, 1, 0, 1, 2, 0, 0)), 3)).toContain('duplicate');
  });

  test('isStrictlySorted checks byte order and uniqueness', () => {
    const md = (flag: number, ...keys: string[]): VariantMetadata => {
      const bytes = keys.map((k) => new TextEncoder().encode(k));
      const offs = [0];
      for (const k of bytes) offs.push(offs[offs.length - 1]! + k.length);
      return new VariantMetadata(u8(0x01 | flag, keys.length, ...offs, ...bytes.flatMap((k) => [...k])));
    };
    expect(md(0x10, 'a', 'ab', 'b').isStrictlySorted()).toBe(true);
    expect(md(0x10, '', 'a').isStrictlySorted()).toBe(true);
    expect(md(0x10, 'ab', 'a').isStrictlySorted()).toBe(false);
    expect(md(0x10, 'b', 'a').isStrictlySorted()).toBe(false);
    expect(md(0x10, 'a', 'a').isStrictlySorted()).toBe(false);
    expect(md(0x00, 'a', 'b').isStrictlySorted()).toBe(false); // not claimed
  });

  test('overlapping values cannot blow up the output', () => {
    // 30 nested arrays of two elements that both point at the same child: 2^30 leaves from ~120 bytes.
    let v = u8(0x00);
    for (let i = 0; i < 30; i++) v = u8(0x03 | (1 << 2), 2, 0, 0, 0, 0, v.length, 0, ...v);
    expect(corrupt(() => decodeVariant(EMPTY_MD, v))).toContain('overlapping');
  });

  test('nesting deeper than the limit', () => {
    let v = u8(0x00);
    for (let i = 0; i < 20; i++) v = u8(0x03 | (1 << 2), 1, 0, 0, v.length, 0, ...v);
    expect(decodeVariant(EMPTY_MD, v, { maxDepth: 20 })).toBeDefined();
    expect(corrupt(() => decodeVariant(EMPTY_MD, v, { maxDepth: 19 }))).toContain('nesting deeper than 19');
  });
});
