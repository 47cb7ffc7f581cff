// Typed values (date, timestamp, time, uuid, decimal) are branded: a plain object is always a Variant object, whatever
// its keys, so JSON data such as {"type":"decimal","value":"12.5"} is written as an object of two keys; values made by
// the factories or by the decoder are written as their Variant types, and decoded values encode back to the same bytes.
import { inspect } from 'node:util';
import { isParquetError } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import {
  VARIANT_TYPED,
  asTagged,
  decodeVariant,
  encodeVariant,
  isVariantTyped,
  mergeShredded,
  variantDate,
  variantDecimal,
  variantTime,
  variantTimestamp,
  variantUuid,
  type ShreddedShape,
  type VariantValue,
} from '../src/index.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const UUID = 'f24f9b64-81fa-49d1-b74e-8c09a6e31c56';
/** Basic type of a value's first byte: 0 primitive, 1 short string, 2 object, 3 array. */
const basicType = (v: VariantValue): number => encodeVariant(v).value[0]! & 3;
const roundTrip = (v: VariantValue): VariantValue => {
  const e = encodeVariant(v);
  return decodeVariant(e.metadata, e.value);
};
const code = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return isParquetError(e) ? e.code : `not a ParquetError: ${String(e)}`;
  }
  return undefined;
};

const typed: [string, VariantValue, string][] = [
  ['date', variantDate(-1), '2c' + 'ffffffff'],
  ['timestamp us utc', variantTimestamp(1n), '30' + '0100000000000000'],
  ['timestamp us ntz', variantTimestamp(1, 'us', false), '34' + '0100000000000000'],
  ['timestamp ns utc', variantTimestamp(-1n, 'ns', true), '48' + 'ffffffffffffffff'],
  ['timestamp ns ntz', variantTimestamp(1n, 'ns', false), '4c' + '0100000000000000'],
  ['time', variantTime(2n), '44' + '0200000000000000'],
  ['uuid', variantUuid(UUID.toUpperCase()), '50' + 'f24f9b6481fa49d1b74e8c09a6e31c56'],
  ['decimal', variantDecimal('-12.340'), '20' + '03' + 'cccfffff'],
];

describe('plain objects are Variant objects, whatever their keys', () => {
  test.each([
    ['{"type":"decimal","value":"12.5"}'],
    [`{"type":"uuid","value":"${UUID}"}`],
    ['{"type":"date","days":3}'],
    ['{"type":"time","unit":"us","value":5}'],
  ])('JSON %s encodes as an object and decodes as a plain object', (json) => {
    const v = JSON.parse(json) as VariantValue;
    expect(basicType(v)).toBe(2);
    const back = roundTrip(v);
    expect(back).toEqual(v);
    expect(isVariantTyped(back)).toBe(false);
    expect(asTagged(back)).toBeUndefined();
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
  });

  test('object literals of a typed shape (bigints included) and null-prototype objects are objects', () => {
    expect(basicType({ type: 'timestamp', unit: 'us', utc: true, value: 1n })).toBe(2);
    const bare = Object.assign(Object.create(null) as Record<string, VariantValue>, { type: 'decimal', value: '1' });
    expect(basicType(bare)).toBe(2);
    expect(asTagged({ type: 'date', days: 1 })).toBeUndefined();
  });
});

describe('branded values are typed', () => {
  test.each(typed)('%s: factory → exact bytes → decoded typed value → the same bytes', (_name, v, bytes) => {
    expect(isVariantTyped(v)).toBe(true);
    expect(asTagged(v)).toBe(v);
    expect(hex(encodeVariant(v).value)).toBe(bytes);
    const back = roundTrip(v);
    expect(isVariantTyped(back)).toBe(true);
    expect(back).toEqual(v);
    expect(hex(encodeVariant(back).value)).toBe(bytes);
  });

  test('nested typed values next to look-alike objects keep their kinds through decode → encode', () => {
    const v: VariantValue = {
      at: variantTimestamp(1_700_000_000_000_000n),
      price: variantDecimal('12.50'),
      json: { type: 'decimal', value: '12.5' },
      list: [variantDate(1), { type: 'date', days: 1 }, variantUuid(UUID), { type: 'uuid', value: UUID }],
    };
    const a = encodeVariant(v);
    const back = decodeVariant(a.metadata, a.value) as Record<string, VariantValue>;
    expect(isVariantTyped(back['at'])).toBe(true);
    expect(isVariantTyped(back['price'])).toBe(true);
    expect(isVariantTyped(back['json'])).toBe(false);
    expect((back['list'] as VariantValue[]).map(isVariantTyped)).toEqual([true, false, true, false]);
    const again = encodeVariant(back);
    expect(hex(again.metadata)).toBe(hex(a.metadata));
    expect(hex(again.value)).toBe(hex(a.value));
  });

  test('the brand is invisible to JSON.stringify, console output and own keys', () => {
    const d = variantDate(20194);
    expect(JSON.stringify(d)).toBe('{"type":"date","days":20194}');
    expect(inspect(d)).toBe("{ type: 'date', days: 20194 }");
    expect(Object.keys(d)).toEqual(['type', 'days']);
    expect(Object.getOwnPropertySymbols(d)).toEqual([]);
    expect(d[VARIANT_TYPED]).toBe(true);
    expect(VARIANT_TYPED).toBe(Symbol.for('@parquetry/parquet-variant.typed'));
    expect(inspect(variantTimestamp(5n, 'ns', false))).toBe("{ type: 'timestamp', unit: 'ns', utc: false, value: 5n }");
  });

  test('copies that keep only own properties lose the brand and are written as objects', () => {
    const d = variantDecimal('12.5');
    for (const copy of [structuredClone(d), { ...d }, JSON.parse(JSON.stringify(d)) as VariantValue]) {
      expect(isVariantTyped(copy)).toBe(false);
      expect(basicType(copy)).toBe(2);
    }
  });

  test('a branded value whose fields no longer fit its type is VARIANT_UNREPRESENTABLE, not an object', () => {
    const d = variantDate(1) as unknown as { days: unknown };
    d.days = 'soon';
    expect(code(() => encodeVariant(d as VariantValue))).toBe('VARIANT_UNREPRESENTABLE');
    expect(() => encodeVariant(d as VariantValue)).toThrow(/typed Variant value \(date\) whose fields do not fit/);
  });

  test('factories check their arguments (INVALID_ARGUMENT)', () => {
    expect(code(() => variantDate(1.5))).toBe('INVALID_ARGUMENT');
    expect(code(() => variantDate(2 ** 31))).toBe('INVALID_ARGUMENT');
    expect(code(() => variantTimestamp(2n ** 63n))).toBe('INVALID_ARGUMENT');
    expect(code(() => variantTimestamp(0.5))).toBe('INVALID_ARGUMENT');
    expect(code(() => variantTimestamp(1n, 'ms' as 'us'))).toBe('INVALID_ARGUMENT');
    expect(code(() => variantTime(2 ** 53))).toBe('INVALID_ARGUMENT');
    expect(code(() => variantUuid('not-a-uuid'))).toBe('INVALID_ARGUMENT');
    expect(code(() => variantDecimal('1e5'))).toBe('INVALID_ARGUMENT');
    expect(code(() => variantDecimal('.5'))).toBe('INVALID_ARGUMENT');
    expect(variantTimestamp(7).value).toBe(7n);
    expect(variantTime(7).value).toBe(7n);
    expect(variantUuid(UUID.toUpperCase()).value).toBe(UUID);
  });
});

describe('shredding', () => {
  const EMPTY_MD = Uint8Array.of(0x11, 0, 0);
  const cases: [unknown, ShreddedShape, VariantValue][] = [
    ['12.5', { kind: 'decimal', precision: 9, scale: 2 }, variantDecimal('12.50')],
    [19000, { kind: 'date' }, variantDate(19000)],
    [5n, { kind: 'time' }, variantTime(5n)],
    [-3n, { kind: 'timestamp', unit: 'ns', utc: false }, variantTimestamp(-3n, 'ns', false)],
    [UUID.toUpperCase(), { kind: 'uuid' }, variantUuid(UUID)],
  ];
  test.each(cases)('typed_value %o of %o merges to a typed value that encodes as the Variant type', (t, shape, expected) => {
    const v = mergeShredded(EMPTY_MD, null, t, shape);
    expect(isVariantTyped(v)).toBe(true);
    expect(v).toEqual(expected);
    expect(hex(encodeVariant(v).value)).toBe(hex(encodeVariant(expected).value));
  });

  test('an object `value` shaped like a typed value stays an object after the merge', () => {
    const { metadata, value } = encodeVariant({ type: 'decimal', value: '12.5' });
    const shape: ShreddedShape = { kind: 'object', fields: [{ name: 'other', hasValue: true, typed: null }] };
    const v = mergeShredded(metadata, value, { other: { value: null } }, shape);
    expect(v).toEqual({ type: 'decimal', value: '12.5' });
    expect(isVariantTyped(v)).toBe(false);
  });
});
