/**
 * schemaElements: hand-written SchemaElement lists (from LogicalTypes.md and VariantShredding.md) for every field
 * spec, the logical tree `buildSchemaTree` reads from them, the shredded Variant shape `@parquetry/parquet-variant`
 * reads, every validation error, and a property test over random nested specs.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ConvertedType as C, EdgeInterpolationAlgorithm, FieldRepetitionType as R, ParquetError, Type as T, type SchemaElement } from '@parquetry/thrift-compact';
import { buildSchemaTree, type Field, type SchemaNode } from '@parquetry/parquet-levels';
import { shreddedShapeFromSchema, variantColumnLayout, type VariantSchemaNode } from '@parquetry/parquet-variant';
import { field, schemaElements, type FieldSpec, type SchemaSpec } from '../src/schema.js';

const OPT = R.OPTIONAL;
const REQ = R.REQUIRED;
const REP = R.REPEATED;
const root = (n: number): SchemaElement => ({ name: 'schema', num_children: n });
/** The elements of a one-field schema, without the root. */
const one = (spec: FieldSpec, name = 'f'): SchemaElement[] => {
  const els = schemaElements({ [name]: spec });
  expect(els[0]).toStrictEqual(root(1));
  return els.slice(1);
};

function invalid(f: () => unknown): ParquetError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ParquetError);
    return e as ParquetError;
  }
  throw new Error('expected a ParquetError');
}

describe('primitive types', () => {
  // expected elements written from LogicalTypes.md: physical type, length, LogicalType and its ConvertedType
  const cases: [string, FieldSpec, SchemaElement][] = [
    ['boolean', field.boolean(), { type: T.BOOLEAN, repetition_type: OPT, name: 'f' }],
    ['int32', field.int32(), { type: T.INT32, repetition_type: OPT, name: 'f' }],
    ['int64', field.int64(), { type: T.INT64, repetition_type: OPT, name: 'f' }],
    ['float', field.float(), { type: T.FLOAT, repetition_type: OPT, name: 'f' }],
    ['double', field.double(), { type: T.DOUBLE, repetition_type: OPT, name: 'f' }],
    ['int96', field.int96(), { type: T.INT96, repetition_type: OPT, name: 'f' }],
    ['string', field.string(), { type: T.BYTE_ARRAY, repetition_type: OPT, name: 'f', converted_type: C.UTF8, logicalType: { STRING: {} } }],
    ['binary', field.binary(), { type: T.BYTE_ARRAY, repetition_type: OPT, name: 'f' }],
    ['json', field.json(), { type: T.BYTE_ARRAY, repetition_type: OPT, name: 'f', converted_type: C.JSON, logicalType: { JSON: {} } }],
    ['bson', field.bson(), { type: T.BYTE_ARRAY, repetition_type: OPT, name: 'f', converted_type: C.BSON, logicalType: { BSON: {} } }],
    ['enum', field.enum(), { type: T.BYTE_ARRAY, repetition_type: OPT, name: 'f', converted_type: C.ENUM, logicalType: { ENUM: {} } }],
    ['uuid', field.uuid(), { type: T.FIXED_LEN_BYTE_ARRAY, type_length: 16, repetition_type: OPT, name: 'f', logicalType: { UUID: {} } }],
    ['float16', field.float16(), { type: T.FIXED_LEN_BYTE_ARRAY, type_length: 2, repetition_type: OPT, name: 'f', logicalType: { FLOAT16: {} } }],
    ['date', field.date(), { type: T.INT32, repetition_type: OPT, name: 'f', converted_type: C.DATE, logicalType: { DATE: {} } }],
    ['interval', field.interval(), { type: T.FIXED_LEN_BYTE_ARRAY, type_length: 12, repetition_type: OPT, name: 'f', converted_type: C.INTERVAL }],
    ['fixed(7)', field.fixed(7), { type: T.FIXED_LEN_BYTE_ARRAY, type_length: 7, repetition_type: OPT, name: 'f' }],
    ['geometry', field.geometry(), { type: T.BYTE_ARRAY, repetition_type: OPT, name: 'f', logicalType: { GEOMETRY: {} } }],
    ['geometry crs', field.geometry({ crs: 'EPSG:4326' }), { type: T.BYTE_ARRAY, repetition_type: OPT, name: 'f', logicalType: { GEOMETRY: { crs: 'EPSG:4326' } } }],
    ['geography', field.geography(), { type: T.BYTE_ARRAY, repetition_type: OPT, name: 'f', logicalType: { GEOGRAPHY: {} } }],
    ['geography crs+algorithm', field.geography({ crs: 'OGC:CRS84', algorithm: 'karney' }),
      { type: T.BYTE_ARRAY, repetition_type: OPT, name: 'f', logicalType: { GEOGRAPHY: { crs: 'OGC:CRS84', algorithm: EdgeInterpolationAlgorithm.KARNEY } } }],
  ];
  test.each(cases)('%s', (_n, spec, expected) => {
    expect(one(spec)).toStrictEqual([expected]);
  });

  test('returned elements share no objects with later calls', () => {
    const first = schemaElements({ a: field.string(), t: field.timestamp('millis') });
    (first[1]!.logicalType as Record<string, unknown>).JSON = {};
    first[2]!.logicalType!.TIMESTAMP!.isAdjustedToUTC = false;
    expect(schemaElements({ a: field.string(), t: field.timestamp('millis') })).toStrictEqual([
      root(2),
      { type: T.BYTE_ARRAY, repetition_type: OPT, name: 'a', converted_type: C.UTF8, logicalType: { STRING: {} } },
      { type: T.INT64, repetition_type: OPT, name: 't', converted_type: C.TIMESTAMP_MILLIS, logicalType: { TIMESTAMP: { isAdjustedToUTC: true, unit: { MILLIS: {} } } } },
    ]);
  });

  test('required and fieldId', () => {
    expect(one(field.string({ required: true, fieldId: 42 }))).toStrictEqual([
      { type: T.BYTE_ARRAY, repetition_type: REQ, name: 'f', converted_type: C.UTF8, field_id: 42, logicalType: { STRING: {} } },
    ]);
    expect(one(field.int64({ required: false, fieldId: -3 }))).toStrictEqual([{ type: T.INT64, repetition_type: OPT, name: 'f', field_id: -3 }]);
  });

  test('every geography algorithm maps to its parquet.thrift value', () => {
    const names = { spherical: 0, vincenty: 1, thomas: 2, andoyer: 3, karney: 4 } as const; // parquet.thrift EdgeInterpolationAlgorithm
    for (const [name, v] of Object.entries(names)) {
      expect(one(field.geography({ algorithm: name as keyof typeof names }))[0]!.logicalType).toStrictEqual({ GEOGRAPHY: { algorithm: v } });
    }
  });

  test.each([
    [8, true, T.INT32, C.INT_8], [16, true, T.INT32, C.INT_16], [32, true, T.INT32, C.INT_32], [64, true, T.INT64, C.INT_64],
    [8, false, T.INT32, C.UINT_8], [16, false, T.INT32, C.UINT_16], [32, false, T.INT32, C.UINT_32], [64, false, T.INT64, C.UINT_64],
  ] as const)('int(%i, %s)', (bitWidth, signed, type, converted) => {
    expect(one(field.int(bitWidth, signed))).toStrictEqual([
      { type, repetition_type: OPT, name: 'f', converted_type: converted, logicalType: { INTEGER: { bitWidth, isSigned: signed } } },
    ]);
  });

  test.each([
    // LogicalTypes.md: both instant and local timestamps get the legacy annotation; NANOS has none
    ['millis', true, C.TIMESTAMP_MILLIS, { MILLIS: {} }], ['micros', true, C.TIMESTAMP_MICROS, { MICROS: {} }], ['nanos', true, undefined, { NANOS: {} }],
    ['millis', false, C.TIMESTAMP_MILLIS, { MILLIS: {} }], ['micros', false, C.TIMESTAMP_MICROS, { MICROS: {} }], ['nanos', false, undefined, { NANOS: {} }],
  ] as const)('timestamp(%s, utc %s)', (unit, utc, converted, u) => {
    const e: SchemaElement = { type: T.INT64, repetition_type: OPT, name: 'f', logicalType: { TIMESTAMP: { isAdjustedToUTC: utc, unit: u } } };
    if (converted !== undefined) e.converted_type = converted;
    expect(one(field.timestamp(unit, { utc }))).toStrictEqual([e]);
  });

  test.each([
    ['millis', true, T.INT32, C.TIME_MILLIS, { MILLIS: {} }], ['micros', true, T.INT64, C.TIME_MICROS, { MICROS: {} }], ['nanos', true, T.INT64, undefined, { NANOS: {} }],
    ['millis', false, T.INT32, C.TIME_MILLIS, { MILLIS: {} }], ['micros', false, T.INT64, C.TIME_MICROS, { MICROS: {} }], ['nanos', false, T.INT64, undefined, { NANOS: {} }],
  ] as const)('time(%s, utc %s)', (unit, utc, type, converted, u) => {
    const e: SchemaElement = { type, repetition_type: OPT, name: 'f', logicalType: { TIME: { isAdjustedToUTC: utc, unit: u } } };
    if (converted !== undefined) e.converted_type = converted;
    expect(one(field.time(unit, { utc }))).toStrictEqual([e]);
  });

  test('builder defaults: timestamps are instants, times are local', () => {
    expect(field.timestamp('micros')).toStrictEqual({ type: 'timestamp', unit: 'micros', utc: true });
    expect(field.time('micros')).toStrictEqual({ type: 'time', unit: 'micros', utc: false });
  });
});

describe('decimal', () => {
  const dec = (type: number, precision: number, scale: number, length?: number): SchemaElement => {
    const e: SchemaElement = { type: type as SchemaElement['type'] & number, repetition_type: OPT, name: 'f', converted_type: C.DECIMAL, scale, precision, logicalType: { DECIMAL: { scale, precision } } };
    return length === undefined ? e : { type: e.type!, type_length: length, repetition_type: OPT, name: 'f', converted_type: C.DECIMAL, scale, precision, logicalType: e.logicalType! };
  };
  test.each([
    // default physical type at the size boundaries: INT32 <= 9, INT64 <= 18, else the fewest FIXED bytes
    [1, 0, dec(T.INT32, 1, 0)], [9, 2, dec(T.INT32, 9, 2)], [10, 2, dec(T.INT64, 10, 2)], [18, 18, dec(T.INT64, 18, 18)],
    [19, 4, dec(T.FIXED_LEN_BYTE_ARRAY, 19, 4, 9)], [38, 10, dec(T.FIXED_LEN_BYTE_ARRAY, 38, 10, 16)], [39, 0, dec(T.FIXED_LEN_BYTE_ARRAY, 39, 0, 17)],
    [76, 5, dec(T.FIXED_LEN_BYTE_ARRAY, 76, 5, 32)],
  ] as const)('decimal(%i, %i) by default', (p, s, expected) => {
    expect(one(field.decimal(p, s))).toStrictEqual([expected]);
  });

  test('FIXED width per precision: the table parquet-java and Arrow use (floor(log10(2^(8n-1)-1)) digits in n bytes)', () => {
    // bytes -> most digits, written out by hand
    const most = [0, 2, 4, 6, 9, 11, 14, 16, 18, 21, 23, 26, 28, 31, 33, 35, 38];
    for (let p = 1; p <= 38; p++) {
      const n = most.findIndex((d) => d >= p);
      expect(one(field.decimal(p, 0, { physical: 'fixed' }))[0]!.type_length, `precision ${p}`).toBe(n);
    }
  });

  test('property: the FIXED width is the fewest bytes whose signed range holds 10^p - 1', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1000 }), (p) => {
      const n = one(field.decimal(p, 0, { physical: 'fixed' }))[0]!.type_length!;
      const max = 10n ** BigInt(p) - 1n;
      expect(max <= (1n << BigInt(8 * n - 1)) - 1n).toBe(true);
      expect(n === 1 || max > (1n << BigInt(8 * (n - 1) - 1)) - 1n).toBe(true);
    }), { numRuns: 300 });
  });

  test('explicit physical types and byte lengths', () => {
    expect(one(field.decimal(5, 2, { physical: 'int64' }))).toStrictEqual([dec(T.INT64, 5, 2)]);
    expect(one(field.decimal(5, 2, { physical: 'binary' }))).toStrictEqual([dec(T.BYTE_ARRAY, 5, 2)]);
    expect(one(field.decimal(50, 20, { physical: 'binary' }))).toStrictEqual([dec(T.BYTE_ARRAY, 50, 20)]);
    expect(one(field.decimal(9, 0, { physical: 'fixed', byteLength: 16 }))).toStrictEqual([dec(T.FIXED_LEN_BYTE_ARRAY, 9, 0, 16)]);
    expect(one(field.decimal(20, 0, { byteLength: 12 }))).toStrictEqual([dec(T.FIXED_LEN_BYTE_ARRAY, 20, 0, 12)]);
    expect(one(field.decimal(4))).toStrictEqual([dec(T.INT32, 4, 0)]);
  });
});

describe('nested types', () => {
  test('list: the 3-level form, element optional unless required', () => {
    expect(one(field.list(field.int32()))).toStrictEqual([
      { repetition_type: OPT, name: 'f', num_children: 1, converted_type: C.LIST, logicalType: { LIST: {} } },
      { repetition_type: REP, name: 'list', num_children: 1 },
      { type: T.INT32, repetition_type: OPT, name: 'element' },
    ]);
    expect(one(field.list(field.string({ required: true }), { required: true, fieldId: 1 }))).toStrictEqual([
      { repetition_type: REQ, name: 'f', num_children: 1, converted_type: C.LIST, field_id: 1, logicalType: { LIST: {} } },
      { repetition_type: REP, name: 'list', num_children: 1 },
      { type: T.BYTE_ARRAY, repetition_type: REQ, name: 'element', converted_type: C.UTF8, logicalType: { STRING: {} } },
    ]);
  });

  test('map: key always required, value optional unless required, key-only map', () => {
    expect(one(field.map(field.string(), field.int64({ required: true })))).toStrictEqual([
      { repetition_type: OPT, name: 'f', num_children: 1, converted_type: C.MAP, logicalType: { MAP: {} } },
      { repetition_type: REP, name: 'key_value', num_children: 2 },
      { type: T.BYTE_ARRAY, repetition_type: REQ, name: 'key', converted_type: C.UTF8, logicalType: { STRING: {} } },
      { type: T.INT64, repetition_type: REQ, name: 'value' },
    ]);
    expect(one(field.map(field.int32({ required: true })))).toStrictEqual([
      { repetition_type: OPT, name: 'f', num_children: 1, converted_type: C.MAP, logicalType: { MAP: {} } },
      { repetition_type: REP, name: 'key_value', num_children: 1 },
      { type: T.INT32, repetition_type: REQ, name: 'key' },
    ]);
  });

  test('list<struct<map<string, list<decimal>>, uuid>> with field ids, and more than one top-level field', () => {
    const spec: SchemaSpec = {
      id: field.int64({ required: true, fieldId: 1 }),
      items: field.list(field.struct({
        attrs: field.map(field.string({ fieldId: 4 }), field.list(field.decimal(10, 3), { fieldId: 6 }), { fieldId: 3 }),
        ref: field.uuid({ required: true, fieldId: 7 }),
      }, { required: true, fieldId: 8 }), { fieldId: 2 }),
    };
    expect(schemaElements(spec)).toStrictEqual([
      root(2),
      { type: T.INT64, repetition_type: REQ, name: 'id', field_id: 1 },
      { repetition_type: OPT, name: 'items', num_children: 1, converted_type: C.LIST, field_id: 2, logicalType: { LIST: {} } },
      { repetition_type: REP, name: 'list', num_children: 1 },
      { repetition_type: REQ, name: 'element', num_children: 2, field_id: 8 },
      { repetition_type: OPT, name: 'attrs', num_children: 1, converted_type: C.MAP, field_id: 3, logicalType: { MAP: {} } },
      { repetition_type: REP, name: 'key_value', num_children: 2 },
      { type: T.BYTE_ARRAY, repetition_type: REQ, name: 'key', converted_type: C.UTF8, field_id: 4, logicalType: { STRING: {} } },
      { repetition_type: OPT, name: 'value', num_children: 1, converted_type: C.LIST, field_id: 6, logicalType: { LIST: {} } },
      { repetition_type: REP, name: 'list', num_children: 1 },
      { type: T.INT64, repetition_type: OPT, name: 'element', converted_type: C.DECIMAL, scale: 3, precision: 10, logicalType: { DECIMAL: { scale: 3, precision: 10 } } },
      { type: T.FIXED_LEN_BYTE_ARRAY, type_length: 16, repetition_type: REQ, name: 'ref', field_id: 7, logicalType: { UUID: {} } },
    ]);
    // buildSchemaTree reads it back as the logical fields we meant
    const tree = buildSchemaTree(schemaElements(spec));
    expect(tree.columns.map((c) => [c.pathString, c.maxDef, c.maxRep])).toStrictEqual([
      ['id', 0, 0],
      ['items.list.element.attrs.key_value.key', 4, 2], // items(opt) list(rep) attrs(opt) key_value(rep)
      ['items.list.element.attrs.key_value.value.list.element', 7, 3], // + value(opt) list(rep) element(opt)
      ['items.list.element.ref', 2, 1],
    ]);
    const items = tree.field.fields[1]!;
    expect(items.kind).toBe('list');
    if (items.kind !== 'list') return;
    expect([items.rule, items.nullable, items.element.kind, items.element.nullable]).toStrictEqual(['three-level', true, 'struct', false]);
    const el = items.element;
    if (el.kind !== 'struct') return;
    const attrs = el.fields[0]!;
    expect(attrs.kind).toBe('map');
    if (attrs.kind !== 'map') return;
    expect([attrs.rule, attrs.nullable, attrs.key.kind, attrs.key.nullable, attrs.value?.kind, attrs.value?.nullable]).toStrictEqual(['map', true, 'leaf', false, 'list', true]);
    expect(attrs.value?.kind === 'list' && [attrs.value.rule, attrs.value.element.nullable]).toStrictEqual(['three-level', true]);
  });

  test('struct fields keep key order', () => {
    expect(one(field.struct({ z: field.boolean(), a: field.double({ required: true }) }))).toStrictEqual([
      { repetition_type: OPT, name: 'f', num_children: 2 },
      { type: T.BOOLEAN, repetition_type: OPT, name: 'z' },
      { type: T.DOUBLE, repetition_type: REQ, name: 'a' },
    ]);
  });
});

/** The reader's view of a schema node for parquet-variant (as parquet-reader's variant.ts builds it). */
function variantNode(n: SchemaNode): VariantSchemaNode {
  return {
    name: n.name, physicalType: n.element.type, typeLength: n.element.type_length, repetition: n.repetition, logicalType: n.logicalType,
    children: n.element.type === undefined ? n.children.map(variantNode) : undefined,
  };
}

describe('variant', () => {
  const VARIANT = { VARIANT: { specification_version: 1 } };
  const bin = (name: string, rep: number): SchemaElement => ({ type: T.BYTE_ARRAY, repetition_type: rep as R, name });

  test('unshredded: required metadata and value (LogicalTypes.md, VARIANT)', () => {
    expect(one(field.variant({ required: true }))).toStrictEqual([
      { repetition_type: REQ, name: 'f', num_children: 2, logicalType: VARIANT }, bin('metadata', REQ), bin('value', REQ),
    ]);
    const layout = variantColumnLayout(variantNode(buildSchemaTree(schemaElements({ f: field.variant() })).root.children[0]!));
    expect(layout).toStrictEqual({ hasValue: true, typed: null });
  });

  test('shredded as int64: optional value and typed_value', () => {
    expect(one(field.variant({ shredding: field.int64() }))).toStrictEqual([
      { repetition_type: OPT, name: 'f', num_children: 3, logicalType: VARIANT }, bin('metadata', REQ), bin('value', OPT),
      { type: T.INT64, repetition_type: OPT, name: 'typed_value' },
    ]);
  });

  test('shredded object and array, as in VariantShredding.md', () => {
    const spec = field.variant({ shredding: field.struct({ event_type: field.string(), tags: field.list(field.string()), ts: field.timestamp('micros') }) });
    expect(one(spec, 'event')).toStrictEqual([
      { repetition_type: OPT, name: 'event', num_children: 3, logicalType: VARIANT }, bin('metadata', REQ), bin('value', OPT),
      { repetition_type: OPT, name: 'typed_value', num_children: 3 },
      { repetition_type: REQ, name: 'event_type', num_children: 2 }, bin('value', OPT),
      { type: T.BYTE_ARRAY, repetition_type: OPT, name: 'typed_value', converted_type: C.UTF8, logicalType: { STRING: {} } },
      { repetition_type: REQ, name: 'tags', num_children: 2 }, bin('value', OPT),
      { repetition_type: OPT, name: 'typed_value', num_children: 1, converted_type: C.LIST, logicalType: { LIST: {} } },
      { repetition_type: REP, name: 'list', num_children: 1 },
      { repetition_type: REQ, name: 'element', num_children: 2 }, bin('value', OPT),
      { type: T.BYTE_ARRAY, repetition_type: OPT, name: 'typed_value', converted_type: C.UTF8, logicalType: { STRING: {} } },
      { repetition_type: REQ, name: 'ts', num_children: 2 }, bin('value', OPT),
      { type: T.INT64, repetition_type: OPT, name: 'typed_value', converted_type: C.TIMESTAMP_MICROS, logicalType: { TIMESTAMP: { isAdjustedToUTC: true, unit: { MICROS: {} } } } },
    ]);
    // the reader's shredding layer reads the shape we meant
    const node = buildSchemaTree(schemaElements({ event: spec })).root.children[0]!;
    expect(variantColumnLayout(variantNode(node))).toStrictEqual({
      hasValue: true,
      typed: {
        kind: 'object',
        fields: [
          { name: 'event_type', hasValue: true, typed: { kind: 'string' } },
          { name: 'tags', hasValue: true, typed: { kind: 'array', element: { hasValue: true, typed: { kind: 'string' } } } },
          { name: 'ts', hasValue: true, typed: { kind: 'timestamp', unit: 'us', utc: true } },
        ],
      },
    });
  });

  test('every shreddable primitive gives the shape parquet-variant expects', () => {
    const cases: [FieldSpec, unknown][] = [
      [field.boolean(), { kind: 'boolean' }], [field.int(8, true), { kind: 'int8' }], [field.int(16, true), { kind: 'int16' }],
      [field.int32(), { kind: 'int32' }], [field.int(32, true), { kind: 'int32' }], [field.int64(), { kind: 'int64' }], [field.int(64, true), { kind: 'int64' }],
      [field.float(), { kind: 'float' }], [field.double(), { kind: 'double' }],
      [field.decimal(9, 2), { kind: 'decimal', precision: 9, scale: 2 }], [field.decimal(18, 2), { kind: 'decimal', precision: 18, scale: 2 }],
      [field.decimal(38, 2), { kind: 'decimal', precision: 38, scale: 2 }], [field.decimal(20, 2, { physical: 'binary' }), { kind: 'decimal', precision: 20, scale: 2 }],
      [field.date(), { kind: 'date' }], [field.time('micros'), { kind: 'time' }],
      [field.timestamp('micros'), { kind: 'timestamp', unit: 'us', utc: true }], [field.timestamp('nanos', { utc: false }), { kind: 'timestamp', unit: 'ns', utc: false }],
      [field.binary(), { kind: 'binary' }], [field.string(), { kind: 'string' }], [field.uuid(), { kind: 'uuid' }],
    ];
    for (const [shredding, shape] of cases) {
      const node = buildSchemaTree(schemaElements({ v: field.variant({ shredding }) })).root.children[0]!;
      const typed = node.children.find((c) => c.name === 'typed_value')!;
      expect(shreddedShapeFromSchema(variantNode(typed)), JSON.stringify(shredding)).toStrictEqual(shape);
    }
  });

  test('shredded as a list of strings: the layout of parquet-testing shredded_variant (case-001), field ids aside', () => {
    // written out from VariantShredding.md "Arrays" (the tags example)
    expect(one(field.variant({ shredding: field.list(field.string()) }), 'var')).toStrictEqual([
      { repetition_type: OPT, name: 'var', num_children: 3, logicalType: VARIANT }, bin('metadata', REQ), bin('value', OPT),
      { repetition_type: OPT, name: 'typed_value', num_children: 1, converted_type: C.LIST, logicalType: { LIST: {} } },
      { repetition_type: REP, name: 'list', num_children: 1 },
      { repetition_type: REQ, name: 'element', num_children: 2 }, bin('value', OPT),
      { type: T.BYTE_ARRAY, repetition_type: OPT, name: 'typed_value', converted_type: C.UTF8, logicalType: { STRING: {} } },
    ]);
  });
});

describe('validation', () => {
  const cases: [string, () => unknown, RegExp][] = [
    ['empty schema', () => schemaElements({}), /schema: no fields/],
    ['schema not an object', () => schemaElements(null as unknown as SchemaSpec), /expected an object of field specs, got null/],
    ['spec not an object', () => schemaElements({ a: 'string' as unknown as FieldSpec }), /field 'a': expected a field spec object, got 'string'/],
    ['unknown type', () => schemaElements({ a: { type: 'varchar' } as unknown as FieldSpec }), /field 'a': unknown type 'varchar'/],
    ['prototype names are not types', () => schemaElements({ a: { type: 'toString' } as unknown as FieldSpec }), /field 'a': unknown type 'toString'/],
    ['type missing', () => schemaElements({ a: {} as unknown as FieldSpec }), /field 'a': expected a string 'type', got undefined/],
    ['unknown property (a typo)', () => schemaElements({ a: { type: 'string', requried: true } as unknown as FieldSpec }), /field 'a': unknown property 'requried' for type 'string'/],
    ['property of another type', () => schemaElements({ a: { type: 'int32', precision: 3 } as unknown as FieldSpec }), /unknown property 'precision'/],
    ['empty name', () => schemaElements({ '': field.int32() }), /field '': empty field name/],
    ['empty nested name', () => schemaElements({ s: field.struct({ '': field.int32() }) }), /field 's\.': empty field name/],
    ['required not boolean', () => schemaElements({ a: { type: 'int32', required: 1 } as unknown as FieldSpec }), /'required' must be a boolean, got 1 \(number\)/],
    ['fieldId not an integer', () => schemaElements({ a: field.int32({ fieldId: 1.5 }) }), /'fieldId' must be an int32, got 1.5/],
    ['fieldId out of int32', () => schemaElements({ a: field.int32({ fieldId: 2 ** 31 }) }), /'fieldId' must be an int32/],
    ['precision 0', () => schemaElements({ d: field.decimal(0, 0) }), /field 'd': decimal precision must be an integer in 1\.\.1000, got 0/],
    ['precision 1001', () => schemaElements({ d: field.decimal(1001, 0) }), /precision must be an integer in 1\.\.1000/],
    ['precision not integer', () => schemaElements({ d: field.decimal(5.5, 0) }), /precision must be an integer/],
    ['scale above precision', () => schemaElements({ d: field.decimal(5, 6) }), /scale must be an integer in 0\.\.precision \(5\), got 6/],
    ['negative scale', () => schemaElements({ d: field.decimal(5, -1) }), /scale must be an integer in 0\.\.precision/],
    ['INT32 precision 10', () => schemaElements({ d: field.decimal(10, 0, { physical: 'int32' }) }), /precision 10 does not fit INT32 \(at most 9 digits\)/],
    ['INT64 precision 19', () => schemaElements({ d: field.decimal(19, 0, { physical: 'int64' }) }), /precision 19 does not fit INT64 \(at most 18 digits\)/],
    ['FIXED too short', () => schemaElements({ d: field.decimal(10, 0, { physical: 'fixed', byteLength: 4 }) }), /precision 10 needs at least 5 bytes, got byteLength 4 \(holds 9 digits\)/],
    ['byteLength with INT64', () => schemaElements({ d: field.decimal(10, 0, { physical: 'int64', byteLength: 8 }) }), /'byteLength' applies to physical 'fixed' only/],
    ['byteLength 0', () => schemaElements({ d: field.decimal(30, 0, { byteLength: 0 }) }), /'byteLength' must be a positive int32, got 0/],
    ['unknown decimal physical', () => schemaElements({ d: field.decimal(3, 0, { physical: 'float' as 'int32' }) }), /decimal 'physical' must be/],
    ['fixed length 0', () => schemaElements({ x: field.fixed(0) }), /field 'x': fixed 'length' must be a positive int32, got 0/],
    ['fixed length not integer', () => schemaElements({ x: field.fixed(2.5) }), /fixed 'length' must be a positive int32/],
    ['int width 12', () => schemaElements({ i: field.int(12 as 8, true) }), /int 'bitWidth' must be 8, 16, 32 or 64, got 12/],
    ['int signed missing', () => schemaElements({ i: { type: 'int', bitWidth: 8 } as unknown as FieldSpec }), /int 'signed' must be a boolean/],
    ['timestamp unit', () => schemaElements({ t: field.timestamp('seconds' as 'millis') }), /'unit' must be 'millis', 'micros' or 'nanos', got 'seconds'/],
    ['timestamp utc missing', () => schemaElements({ t: { type: 'timestamp', unit: 'millis' } as unknown as FieldSpec }), /'utc' must be a boolean, got undefined/],
    ['time unit', () => schemaElements({ t: field.time('hours' as 'millis') }), /'unit' must be/],
    ['crs not a string', () => schemaElements({ g: { type: 'geometry', crs: 4326 } as unknown as FieldSpec }), /'crs' must be a string, got 4326/],
    ['geography algorithm', () => schemaElements({ g: field.geography({ algorithm: 'flat' as 'karney' }) }), /'algorithm' must be one of spherical, vincenty, thomas, andoyer, karney, got 'flat'/],
    ['map key required: false', () => schemaElements({ m: field.map(field.string({ required: false }), field.int32()) }), /field 'm\.key_value\.key': a map key is always required/],
    ['bad list element path', () => schemaElements({ l: field.list(field.decimal(3, 4)) }), /field 'l\.list\.element': decimal scale/],
    ['bad map value path', () => schemaElements({ m: field.map(field.string(), field.fixed(-1)) }), /field 'm\.key_value\.value': fixed 'length'/],
    ['struct without fields', () => schemaElements({ s: field.struct({}) }), /field 's': a struct needs at least one field/],
    ['struct fields not an object', () => schemaElements({ s: { type: 'struct', fields: [] } as unknown as FieldSpec }), /struct 'fields' must be an object/],
    ['list element missing', () => schemaElements({ l: { type: 'list' } as unknown as FieldSpec }), /field 'l\.list\.element': expected a field spec object, got undefined/],
    ['variant shredded as map', () => schemaElements({ v: field.variant({ shredding: field.map(field.string(), field.int32()) }) }), /field 'v\.typed_value': cannot shred a Variant as 'map'; shreddable types are/],
    ['variant shredded as unsigned', () => schemaElements({ v: field.variant({ shredding: field.int(32, false) }) }), /cannot shred a Variant as an unsigned int/],
    ['variant shredded as millis timestamp', () => schemaElements({ v: field.variant({ shredding: field.timestamp('millis') }) }), /cannot shred a Variant as timestamp\(millis\)/],
    ['variant shredded as utc time', () => schemaElements({ v: field.variant({ shredding: field.time('micros', { utc: true }) }) }), /cannot shred a Variant as time\(micros, utc: true\)/],
    ['variant shredded as float16', () => schemaElements({ v: field.variant({ shredding: field.float16() }) }), /cannot shred a Variant as 'float16'/],
    ['variant shredded decimal over 38', () => schemaElements({ v: field.variant({ shredding: field.decimal(39, 0) }) }), /field 'v\.typed_value': decimal precision must be an integer in 1\.\.38/],
    ['variant shredding with required', () => schemaElements({ v: field.variant({ shredding: field.int64({ required: true }) }) }), /takes no 'required' or 'fieldId'/],
    ['variant nested shredding path', () => schemaElements({ v: field.variant({ shredding: field.struct({ a: field.list(field.json()) }) }) }), /field 'v\.typed_value\.a\.typed_value\.list\.element\.typed_value': cannot shred a Variant as 'json'/],
    ['variant empty shredded object', () => schemaElements({ v: field.variant({ shredding: field.struct({}) }) }), /a shredded object needs at least one field/],
  ];
  test.each(cases)('%s', (_n, f, message) => {
    const e = invalid(f);
    expect(e.code).toBe('INVALID_SCHEMA');
    expect(e.message).toMatch(/^parquet-writer: /);
    expect(e.message).toMatch(message);
  });

  test('a cyclic spec is INVALID_SCHEMA, not a stack overflow', () => {
    const s: { type: 'struct'; fields: Record<string, FieldSpec> } = { type: 'struct', fields: {} };
    s.fields.self = s;
    const e = invalid(() => schemaElements({ s }));
    expect(e.code).toBe('INVALID_SCHEMA');
    expect(e.message).toMatch(/nesting deeper than 256/);
    const l: { type: 'list'; element: FieldSpec } = { type: 'list', element: field.int32() };
    l.element = l;
    expect(invalid(() => schemaElements({ l })).message).toMatch(/nesting deeper than 256/);
    // the message shows the path's two ends, not its 256 levels (failed before: a path of about 3 KB)
    const m = invalid(() => schemaElements({ s })).message;
    expect(m).toMatch(/^parquet-writer: field 's\.self\.self.*….*\.self\.self': nesting deeper than 256 schema levels \(a list or map takes two/);
    expect(m.length).toBeLessThan(300);
  });
});

// ---- property test: random specs build valid trees whose levels and paths follow from the spec alone ----

const leafSpec: fc.Arbitrary<FieldSpec> = fc.oneof(
  fc.constantFrom<FieldSpec>(field.boolean(), field.int32(), field.int64(), field.double(), field.string(), field.binary(), field.uuid(), field.date(), field.interval()),
  fc.record({ p: fc.integer({ min: 1, max: 60 }), s: fc.nat(60) }).map(({ p, s }) => field.decimal(p, Math.min(s, p))),
  fc.constantFrom<'millis' | 'micros' | 'nanos'>('millis', 'micros', 'nanos').map((u) => field.timestamp(u)),
  fc.integer({ min: 1, max: 64 }).map((n) => field.fixed(n)),
);
const withRequired = (a: fc.Arbitrary<FieldSpec>): fc.Arbitrary<FieldSpec> =>
  fc.tuple(a, fc.boolean(), fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }))
    .map(([s, required, fieldId]) => ({ ...s, required, ...(fieldId === undefined ? {} : { fieldId }) }) as FieldSpec);
const names = fc.uniqueArray(fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.constantFrom('__proto__', 'constructor', 'a.b')), { minLength: 1, maxLength: 4 });
const { spec: specArb } = fc.letrec<{ spec: FieldSpec; struct: FieldSpec }>((tie) => ({
  spec: fc.oneof({ depthSize: 'small', withCrossShrink: true }, withRequired(leafSpec), tie('struct'),
    withRequired(tie('spec').map((e) => field.list(e))),
    withRequired(fc.tuple(leafSpec, fc.option(tie('spec'), { nil: undefined })).map(([k, v]) => field.map(k, v)))),
  struct: withRequired(fc.tuple(names, fc.array(tie('spec'), { minLength: 4, maxLength: 4 }))
    .map(([ns, specs]) => field.struct(Object.fromEntries(ns.map((n, i) => [n, specs[i]!]))))),
}));
const schemaArb = fc.tuple(names, fc.array(specArb, { minLength: 4, maxLength: 4 }))
  .map(([ns, specs]) => Object.fromEntries(ns.map((n, i) => [n, specs[i]!])) as SchemaSpec);

/** Leaf columns of a spec, derived from the spec alone: [path, maxDef, maxRep]. */
function expectedColumns(spec: SchemaSpec): [string, number, number][] {
  const out: [string, number, number][] = [];
  const walk = (s: FieldSpec, path: string, def: number, rep: number, forceRequired: boolean): void => {
    const d = def + (forceRequired || s.required === true ? 0 : 1);
    switch (s.type) {
      case 'struct': for (const [n, c] of Object.entries(s.fields)) walk(c, `${path}.${n}`, d, rep, false); break;
      case 'list': walk(s.element, `${path}.list.element`, d + 1, rep + 1, false); break;
      case 'map':
        walk(s.key, `${path}.key_value.key`, d + 1, rep + 1, true);
        if (s.value) walk(s.value, `${path}.key_value.value`, d + 1, rep + 1, false);
        break;
      default: out.push([path, d, rep]);
    }
  };
  for (const [n, s] of Object.entries(spec)) walk(s, n, 0, 0, false);
  return out;
}

function fieldKinds(f: Field): unknown {
  switch (f.kind) {
    case 'leaf': return 'leaf';
    case 'struct': return f.fields.map(fieldKinds);
    case 'list': return { list: f.rule, element: fieldKinds(f.element) };
    case 'map': return { map: f.rule, key: fieldKinds(f.key), value: f.value === undefined ? null : fieldKinds(f.value) };
  }
}
function specKinds(s: FieldSpec): unknown {
  switch (s.type) {
    case 'struct': return Object.values(s.fields).map(specKinds);
    case 'list': return { list: 'three-level', element: specKinds(s.element) };
    case 'map': return { map: 'map', key: specKinds(s.key), value: s.value === undefined ? null : specKinds(s.value) };
    default: return 'leaf';
  }
}

test('property: random nested specs give trees whose columns, levels and logical kinds follow from the spec; JSON round trip is identical', () => {
  fc.assert(fc.property(schemaArb, (spec) => {
    const els = schemaElements(spec);
    const tree = buildSchemaTree(els);
    expect(tree.columns.map((c) => [c.pathString, c.maxDef, c.maxRep])).toStrictEqual(expectedColumns(spec));
    expect(tree.field.fields.map(fieldKinds)).toStrictEqual(Object.values(spec).map(specKinds));
    expect(schemaElements(JSON.parse(JSON.stringify(spec)) as SchemaSpec)).toStrictEqual(els);
  }), { numRuns: 400 });
});
