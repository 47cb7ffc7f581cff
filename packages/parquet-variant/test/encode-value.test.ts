// variantKeys + encodeVariantValue: several values encoded against one shared metadata dictionary (the pieces of
// a shredded Variant), checked with bytes laid out by hand from VariantEncoding.md and by decoding.
import fc from 'fast-check';
import { isParquetError } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { decodeVariant, encodeMetadata, encodeVariant, encodeVariantValue, variantDate, variantKeys, variantUuid, type VariantValue } from '../src/index.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function code(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return isParquetError(e) ? e.code : `not a ParquetError: ${String(e)}`;
  }
  return undefined;
}

describe('variantKeys', () => {
  test('every key of every nested plain object, once, sorted by UTF-8 bytes', () => {
    expect(variantKeys({ b: [{ z: 1, a: 2 }, { a: null }], a: { b: 1, '\u{10000}': 2, '\uffff': 3 } })).toEqual(['a', 'b', 'z', '\uffff', '\u{10000}']);
  });
  test('tagged values, binaries and primitives have no keys', () => {
    expect(variantKeys([variantDate(1), Uint8Array.of(1), 'x', 1, null])).toEqual([]);
    expect(variantKeys([{ type: 'date', days: 1 }])).toEqual(['days', 'type']); // a plain object, whatever its keys
  });
  test('a cycle is VARIANT_UNREPRESENTABLE', () => {
    const a: unknown[] = [];
    a.push(a);
    expect(code(() => variantKeys(a as VariantValue))).toBe('VARIANT_UNREPRESENTABLE');
    expect(code(() => variantKeys([[[1]]], { maxDepth: 2 }))).toBe('VARIANT_UNREPRESENTABLE');
    expect(variantKeys([[[1]]], { maxDepth: 3 })).toEqual([]);
  });
});

describe('encodeVariantValue', () => {
  test('field ids come from the given dictionary, which may hold more keys', () => {
    const ids = new Map([['a', 0], ['b', 1], ['c', 2]]);
    // object header 0x02, 1 field, id 2 ('c'), offsets 0 2, int8 7
    expect(hex(encodeVariantValue({ c: 7 }, ids))).toBe('02' + '01' + '02' + '0002' + '0c07');
    const md = encodeMetadata(['a', 'b', 'c']);
    expect(decodeVariant(md, encodeVariantValue({ c: 7, a: [1] }, ids))).toEqual({ a: [1], c: 7 });
  });
  test('with the dictionary encodeVariant builds, it gives encodeVariant bytes', () => {
    const v: VariantValue = { k: [1, 'two', { j: null }], a: variantUuid('00112233-4455-6677-8899-aabbccddeeff'), b: { type: 'uuid', value: 'x' } };
    const keys = variantKeys(v);
    const e = encodeVariant(v);
    expect(hex(encodeMetadata(keys))).toBe(hex(e.metadata));
    expect(hex(encodeVariantValue(v, new Map(keys.map((k, i) => [k, i]))))).toBe(hex(e.value));
  });
  test('a key missing from the dictionary, bad values and cycles are VARIANT_UNREPRESENTABLE (no RangeError)', () => {
    expect(code(() => encodeVariantValue({ x: 1 }, new Map()))).toBe('VARIANT_UNREPRESENTABLE');
    expect(code(() => encodeVariantValue([undefined] as unknown as VariantValue, new Map()))).toBe('VARIANT_UNREPRESENTABLE');
    const o: Record<string, unknown> = {};
    o['o'] = o;
    expect(code(() => encodeVariantValue(o as VariantValue, new Map([['o', 0]])))).toBe('VARIANT_UNREPRESENTABLE');
    expect(code(() => encodeVariantValue([[1]], new Map(), { maxDepth: 1 }))).toBe('VARIANT_UNREPRESENTABLE');
    expect(hex(encodeVariantValue([[1]], new Map(), { maxDepth: 2 }))).toBe('03' + '01' + '0006' + '03010002' + '0c01');
  });
  test('pieces of one value share its metadata (fast-check)', () => {
    const key = fc.string({ unit: 'binary', maxLength: 4 }).filter((k) => k !== 'type' && k !== '__proto__');
    const value: fc.Arbitrary<VariantValue> = fc.letrec<{ v: VariantValue }>((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.integer(),
        fc.string({ maxLength: 70 }),
        fc.array(tie('v'), { maxLength: 4 }),
        fc.dictionary(key, tie('v'), { maxKeys: 4 }),
      ),
    })).v;
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 5 }), (obj) => {
        const keys = variantKeys(obj);
        const md = encodeMetadata(keys);
        const ids = new Map(keys.map((k, i) => [k, i]));
        for (const k of Object.keys(obj)) expect(decodeVariant(md, encodeVariantValue(obj[k]!, ids))).toEqual(obj[k]);
      }),
      { numRuns: 200 },
    );
  });
});
