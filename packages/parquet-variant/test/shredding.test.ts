// Shredding: the shape builder on the schemas of VariantShredding.md, and mergeShredded on the rows of
// its tables (measurement, tags, event), including the rows the spec marks INVALID.
import { FieldRepetitionType as R, Type, isParquetError } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import {
  encodeVariant,
  mergeShredded,
  shreddedShapeFromSchema,
  variantColumnLayout,
  type ShreddedShape,
  type VariantSchemaNode,
  type VariantValue,
} from '../src/index.js';

const bin = (name: string, extra: Partial<VariantSchemaNode> = {}): VariantSchemaNode => ({
  name,
  physicalType: Type.BYTE_ARRAY,
  repetition: R.OPTIONAL,
  ...extra,
});
const slot = (name: string, typed: VariantSchemaNode): VariantSchemaNode => ({
  name,
  repetition: R.REQUIRED,
  children: [bin('value'), { ...typed, name: 'typed_value' }],
});
const US_UTC = { TIMESTAMP: { isAdjustedToUTC: true, unit: { MICROS: {} } } };

// optional group event (VARIANT(1)) from the spec's "Nesting" section.
const EVENT: VariantSchemaNode = {
  name: 'event',
  repetition: R.OPTIONAL,
  logicalType: { VARIANT: { specification_version: 1 } } as VariantSchemaNode['logicalType'],
  children: [
    bin('metadata', { repetition: R.REQUIRED }),
    bin('value'),
    {
      name: 'typed_value',
      repetition: R.OPTIONAL,
      children: [
        slot('event_type', bin('t', { logicalType: { STRING: {} } })),
        slot('event_ts', { name: 't', physicalType: Type.INT64, logicalType: US_UTC }),
        slot('location', {
          name: 't',
          children: [slot('latitude', { name: 't', physicalType: Type.DOUBLE }), slot('longitude', { name: 't', physicalType: Type.DOUBLE })],
        }),
        slot('tags', {
          name: 't',
          logicalType: { LIST: {} },
          children: [{ name: 'list', repetition: R.REPEATED, children: [slot('element', bin('t', { logicalType: { STRING: {} } }))] }],
        }),
      ],
    },
  ],
};

describe('shape builder', () => {
  test('the spec event schema', () => {
    const layout = variantColumnLayout(EVENT);
    expect(layout.hasValue).toBe(true);
    expect(layout.typed).toEqual({
      kind: 'object',
      fields: [
        { name: 'event_type', hasValue: true, typed: { kind: 'string' } },
        { name: 'event_ts', hasValue: true, typed: { kind: 'timestamp', unit: 'us', utc: true } },
        {
          name: 'location',
          hasValue: true,
          typed: {
            kind: 'object',
            fields: [
              { name: 'latitude', hasValue: true, typed: { kind: 'double' } },
              { name: 'longitude', hasValue: true, typed: { kind: 'double' } },
            ],
          },
        },
        { name: 'tags', hasValue: true, typed: { kind: 'array', element: { hasValue: true, typed: { kind: 'string' } } } },
      ],
    });
  });

  test('every type of the "Shredded Value Types" table', () => {
    const p = (physicalType: Type, logicalType?: VariantSchemaNode['logicalType'], typeLength?: number): ShreddedShape =>
      shreddedShapeFromSchema({ name: 'typed_value', physicalType, logicalType, typeLength });
    expect(p(Type.BOOLEAN)).toEqual({ kind: 'boolean' });
    expect(p(Type.INT32, { INTEGER: { bitWidth: 8, isSigned: true } })).toEqual({ kind: 'int8' });
    expect(p(Type.INT32, { INTEGER: { bitWidth: 16, isSigned: true } })).toEqual({ kind: 'int16' });
    expect(p(Type.INT32)).toEqual({ kind: 'int32' });
    expect(p(Type.INT64)).toEqual({ kind: 'int64' });
    expect(p(Type.FLOAT)).toEqual({ kind: 'float' });
    expect(p(Type.DOUBLE)).toEqual({ kind: 'double' });
    expect(p(Type.INT32, { DECIMAL: { precision: 9, scale: 2 } })).toEqual({ kind: 'decimal', precision: 9, scale: 2 });
    expect(p(Type.INT64, { DECIMAL: { precision: 18, scale: 0 } })).toEqual({ kind: 'decimal', precision: 18, scale: 0 });
    expect(p(Type.BYTE_ARRAY, { DECIMAL: { precision: 38, scale: 10 } })).toEqual({ kind: 'decimal', precision: 38, scale: 10 });
    expect(p(Type.FIXED_LEN_BYTE_ARRAY, { DECIMAL: { precision: 20, scale: 1 } }, 9)).toEqual({ kind: 'decimal', precision: 20, scale: 1 });
    expect(p(Type.INT32, { DATE: {} })).toEqual({ kind: 'date' });
    expect(p(Type.INT64, { TIME: { isAdjustedToUTC: false, unit: { MICROS: {} } } })).toEqual({ kind: 'time' });
    expect(p(Type.INT64, { TIMESTAMP: { isAdjustedToUTC: false, unit: { NANOS: {} } } })).toEqual({ kind: 'timestamp', unit: 'ns', utc: false });
    expect(p(Type.BYTE_ARRAY)).toEqual({ kind: 'binary' });
    expect(p(Type.BYTE_ARRAY, { STRING: {} })).toEqual({ kind: 'string' });
    expect(p(Type.FIXED_LEN_BYTE_ARRAY, { UUID: {} }, 16)).toEqual({ kind: 'uuid' });
    // physical types by name
    expect(shreddedShapeFromSchema({ name: 'typed_value', physicalType: 'INT64', logicalType: US_UTC })).toEqual({ kind: 'timestamp', unit: 'us', utc: true });
    expect(() => shreddedShapeFromSchema({ name: 'typed_value', physicalType: 'NOPE' as 'INT64' })).toThrow(/unsupported/);
  });

  test('types outside the table are rejected', () => {
    const bad: VariantSchemaNode[] = [
      { name: 't', physicalType: Type.INT32, logicalType: { INTEGER: { bitWidth: 32, isSigned: false } } },
      { name: 't', physicalType: Type.INT64, logicalType: { INTEGER: { bitWidth: 64, isSigned: false } } },
      { name: 't', physicalType: Type.INT64, logicalType: { TIMESTAMP: { isAdjustedToUTC: true, unit: { MILLIS: {} } } } },
      { name: 't', physicalType: Type.INT64, logicalType: { TIME: { isAdjustedToUTC: true, unit: { MICROS: {} } } } },
      { name: 't', physicalType: Type.INT32, logicalType: { TIME: { isAdjustedToUTC: false, unit: { MILLIS: {} } } } },
      { name: 't', physicalType: Type.INT96 },
      { name: 't', physicalType: Type.FIXED_LEN_BYTE_ARRAY, typeLength: 4 },
      { name: 't', physicalType: Type.BYTE_ARRAY, logicalType: { JSON: {} } },
      { name: 't', physicalType: Type.INT32, logicalType: { DECIMAL: { precision: 39, scale: 0 } } },
      { name: 't', logicalType: { MAP: {} }, children: [] },
      { name: 't', logicalType: { LIST: {} }, children: [bin('element')] }, // 2-level list
      { name: 't', children: [bin('not_a_group')] }, // object field that is not a group
      { name: 't', children: [{ name: 'f', children: [bin('other')] }] }, // field group without value/typed_value
    ];
    for (const b of bad) {
      try {
        shreddedShapeFromSchema(b);
        throw new Error(`accepted ${JSON.stringify(b)}`);
      } catch (e) {
        expect(isParquetError(e) && e.code === 'VARIANT_SHREDDING_UNSUPPORTED', String(e)).toBe(true);
      }
    }
    expect(() => variantColumnLayout({ name: 'v', children: [bin('value')] })).toThrow(/metadata/);
  });
});

const EMPTY_MD = Uint8Array.of(1, 0, 0);
const enc = (v: VariantValue): Uint8Array => encodeVariant(v).value;

function invalid(fn: () => unknown, re: RegExp): void {
  try {
    fn();
  } catch (e) {
    expect(isParquetError(e) && e.code === 'VARIANT_SHREDDING_INVALID', String(e)).toBe(true);
    expect((e as Error).message).toMatch(re);
    return;
  }
  throw new Error('expected VARIANT_SHREDDING_INVALID');
}

describe('mergeShredded on the spec tables', () => {
  test('measurement (int64): 34, null, "n/a", 100, missing', () => {
    const s: ShreddedShape = { kind: 'int64' };
    expect(mergeShredded(EMPTY_MD, null, 34n, s)).toBe(34);
    expect(mergeShredded(EMPTY_MD, Uint8Array.of(0), null, s)).toBe(null);
    // The spec's table shows `13 6E 2F 61`, but 0x13 is basic type 3 (array); a 3-byte short string is 0x0D.
    expect(mergeShredded(EMPTY_MD, Uint8Array.of(0x0d, 0x6e, 0x2f, 0x61), null, s)).toBe('n/a');
    expect(mergeShredded(EMPTY_MD, null, 100n, s)).toBe(100);
    expect(mergeShredded(EMPTY_MD, null, 2n ** 60n, s)).toBe(2n ** 60n);
    expect(mergeShredded(EMPTY_MD, null, null, s)).toBe(null); // missing where required: Variant null
    invalid(() => mergeShredded(EMPTY_MD, Uint8Array.of(0), 34n, s), /conflicting/);
  });

  test('tags (list of strings)', () => {
    const s: ShreddedShape = { kind: 'array', element: { hasValue: true, typed: { kind: 'string' } } };
    const el = (value: Uint8Array | null, typed_value: string | null) => ({ value, typed_value });
    expect(mergeShredded(EMPTY_MD, null, [el(null, 'comedy'), el(null, 'drama')], s)).toEqual(['comedy', 'drama']);
    expect(mergeShredded(EMPTY_MD, null, [el(null, 'horror'), el(Uint8Array.of(0), null)], s)).toEqual(['horror', null]);
    expect(mergeShredded(EMPTY_MD, Uint8Array.of(0), null, s)).toBe(null);
    expect(mergeShredded(EMPTY_MD, null, [el(enc(7), null)], s)).toEqual([7]);
    invalid(() => mergeShredded(EMPTY_MD, enc([]), [], s), /conflicting/);
    invalid(() => mergeShredded(EMPTY_MD, null, [el(enc('x'), 'y')], s), /conflicting/);
  });

  test('event (partially shredded object)', () => {
    const s = variantColumnLayout(EVENT).typed!;
    // The dictionary holds every field name (spec: "All field names ... must be present in the metadata").
    const { metadata } = encodeVariant({ email: 0, error_msg: 0, click: 0, event_type: 0, event_ts: 0 });
    const md = metadata;
    const field = (value: Uint8Array | null, typed_value: unknown) => ({ value, typed_value });
    const none = field(null, null);
    const typed = (type: unknown, ts: unknown) => ({ event_type: type, event_ts: ts, location: none, tags: none });
    const ts = (v: bigint) => ({ type: 'timestamp', unit: 'us', utc: true, value: v });

    expect(mergeShredded(md, null, typed(field(null, 'noop'), field(null, 1729794114937n)), s)).toEqual({ event_type: 'noop', event_ts: ts(1729794114937n) });
    // {"email": ...} left in value: the value must be an object holding only unshredded keys.
    const withEmail = encodeVariantSubset(md, { email: 'user@example.com' });
    expect(mergeShredded(md, withEmail, typed(field(null, 'login'), field(null, 1729794146402n)), s)).toEqual({
      email: 'user@example.com',
      event_ts: ts(1729794146402n),
      event_type: 'login',
    });
    const errorOnly = encodeVariantSubset(md, { error_msg: 'malformed: ...' });
    expect(mergeShredded(md, errorOnly, typed(none, none), s)).toEqual({ error_msg: 'malformed: ...' });
    expect(mergeShredded(md, enc('malformed: not an object'), null, s)).toBe('malformed: not an object');
    expect(mergeShredded(md, null, typed(field(Uint8Array.of(0), null), field(null, 1n)), s)).toEqual({ event_type: null, event_ts: ts(1n) });
    expect(mergeShredded(md, null, typed(field(null, 'noop'), field(enc('2024-10-24'), null)), s)).toEqual({ event_type: 'noop', event_ts: '2024-10-24' });
    expect(mergeShredded(md, null, typed(none, none), s)).toEqual({});
    expect(mergeShredded(md, Uint8Array.of(0), null, s)).toBe(null);
    expect(mergeShredded(md, null, null, s)).toBe(null);
    // merged keys come out in UTF-8 order
    expect(Object.keys(mergeShredded(md, withEmail, typed(field(null, 'a'), none), s) as object)).toEqual(['email', 'event_type']);

    // INVALID rows of the table
    const dup = encodeVariantSubset(md, { event_type: 'login' });
    invalid(() => mergeShredded(md, dup, typed(field(null, 'login'), field(null, 1n)), s), /both shredded and in `value`/);
    invalid(() => mergeShredded(md, dup, null, s), /null `typed_value`/);
    invalid(() => mergeShredded(md, enc('a'), typed(none, none), s), /non-object `value`/);
    invalid(() => mergeShredded(md, Uint8Array.of(2, 0, 0), null, s), /null `typed_value`/);
    // both value and typed_value for a field
    invalid(() => mergeShredded(md, null, typed(field(enc('x'), 'y'), none), s), /conflicting/);
  });

  test('typed values must match their shape; mapping of each primitive', () => {
    const m = (t: unknown, s: ShreddedShape): VariantValue => mergeShredded(EMPTY_MD, null, t, s);
    expect(m(-12, { kind: 'int8' })).toBe(-12);
    expect(m('-12.3', { kind: 'decimal', precision: 9, scale: 3 })).toEqual({ type: 'decimal', value: '-12.300' });
    expect(m('5', { kind: 'decimal', precision: 9, scale: 0 })).toEqual({ type: 'decimal', value: '5' });
    expect(m(19000, { kind: 'date' })).toEqual({ type: 'date', days: 19000 });
    expect(m(5n, { kind: 'time' })).toEqual({ type: 'time', unit: 'us', value: 5n });
    expect(m('F24F9B64-81FA-49D1-B74E-8C09A6E31C56', { kind: 'uuid' })).toEqual({ type: 'uuid', value: 'f24f9b64-81fa-49d1-b74e-8c09a6e31c56' });
    expect(m(Uint8Array.of(1), { kind: 'binary' })).toEqual(Uint8Array.of(1));
    expect(m(1.5, { kind: 'float' })).toBe(1.5);
    invalid(() => m(200, { kind: 'int8' }), /does not match/);
    invalid(() => m(1.5, { kind: 'int32' }), /does not match/);
    invalid(() => m('1.25', { kind: 'decimal', precision: 9, scale: 1 }), /does not match/);
    invalid(() => m('x', { kind: 'boolean' }), /does not match/);
    invalid(() => m(1, { kind: 'string' }), /does not match/);
    invalid(() => m('nope', { kind: 'uuid' }), /does not match/);
    invalid(() => m([1], { kind: 'object', fields: [] }), /not an object/);
    invalid(() => mergeShredded(EMPTY_MD, null, 1, null), /without a shredded type/);
  });
});

/** Encodes an object whose keys are a subset of `md`'s dictionary, against that dictionary. */
function encodeVariantSubset(md: Uint8Array, obj: Record<string, string>): Uint8Array {
  // Build the object bytes by hand: ids from md, 1-byte sizes.
  const n = md[1]!;
  const keys: string[] = [];
  for (let i = 0; i < n; i++) keys.push(new TextDecoder().decode(md.subarray(3 + n + md[2 + i]!, 3 + n + md[3 + i]!)));
  const names = Object.keys(obj).sort();
  const values = names.map((k) => enc(obj[k]!));
  const offsets: number[] = [0];
  for (const v of values) offsets.push(offsets[offsets.length - 1]! + v.length);
  return Uint8Array.from([0x02, names.length, ...names.map((k) => keys.indexOf(k)), ...offsets, ...values.flatMap((v) => [...v])]);
}
