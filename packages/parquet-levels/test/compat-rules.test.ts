// Every LIST/MAP backward-compatibility rule of LogicalTypes.md, on the spec's own example schemas,
// plus the ConvertedType <-> LogicalType tables in both directions.
import { describe, expect, test } from 'vitest';
import { isParquetError } from '@parquetry/thrift-compact';
import type { LogicalType } from '@parquetry/thrift-compact';
import {
  assembleRecords, buildSchemaTree, convertedFromLogicalType, logicalTypeFromConverted, resolveLogicalType, shredRecords,
} from '../src/index.js';
import type { Field, ListField, MapField } from '../src/index.js';
import { ConvertedType, Type, flatten, g, p } from './helpers.js';
import type { Node } from './helpers.js';

function only(n: Node): Field {
  return buildSchemaTree(flatten('m', [n])).field.fields[0]!;
}
function shape(f: Field): string {
  switch (f.kind) {
    case 'leaf': return `${f.name}${f.nullable ? '?' : ''}`;
    case 'struct': return `{${f.fields.map(shape).join(',')}}${f.nullable ? '?' : ''}`;
    case 'list': return `list<${shape(f.element)}>${f.nullable ? '?' : ''}`;
    case 'map': return `map<${shape(f.key)},${f.value ? shape(f.value) : '-'}>${f.nullable ? '?' : ''}`;
  }
}
const STR = [Type.BYTE_ARRAY, ConvertedType.UTF8] as const;

describe('LIST rules', () => {
  test('standard 3-level list, both nullabilities', () => {
    const a = only(g('my_list', 'required', [g('list', 'repeated', [p('element', 'optional', ...STR)])], ConvertedType.LIST)) as ListField;
    expect([shape(a), a.rule]).toEqual(['list<element?>', 'three-level']);
    const b = only(g('my_list', 'optional', [g('list', 'repeated', [p('element', 'required', ...STR)])], ConvertedType.LIST)) as ListField;
    expect([shape(b), b.def, b.elementDef, b.element.def]).toEqual(['list<element>?', 1, 2, 2]);
  });

  test('LIST via LogicalType only (no ConvertedType)', () => {
    const n = g('my_list', 'optional', [g('list', 'repeated', [p('element', 'required', Type.INT32)])]);
    n.el.logicalType = { LIST: {} };
    expect(shape(only(n))).toBe('list<element>?');
  });

  test('misnamed 3-level: repeated group `element` with one optional field (names not enforced)', () => {
    const a = only(g('my_list', 'optional', [g('element', 'repeated', [p('str', 'required', ...STR)])], ConvertedType.LIST)) as ListField;
    expect([shape(a), a.rule]).toEqual(['list<str>?', 'three-level']);
  });

  test('rule 1: repeated primitive is the element, required', () => {
    const a = only(g('my_list', 'optional', [p('element', 'repeated', Type.INT32)], ConvertedType.LIST)) as ListField;
    expect([shape(a), a.rule, a.elementDef, a.element.def]).toEqual(['list<element>?', 'repeated-primitive', 2, 2]);
  });

  test('rule 2: repeated group with several fields is the element', () => {
    const a = only(g('my_list', 'optional', [g('element', 'repeated', [p('str', 'required', ...STR), p('num', 'required', Type.INT32)])], ConvertedType.LIST)) as ListField;
    expect([shape(a), a.rule]).toEqual(['list<{str,num}>?', 'repeated-group-multiple-fields']);
  });

  test('rule 3: repeated group whose single field is repeated (list of lists)', () => {
    const a = only(g('my_list', 'optional', [g('array', 'repeated', [p('array', 'repeated', Type.INT32)], ConvertedType.LIST)], ConvertedType.LIST)) as ListField;
    expect([shape(a), a.rule, (a.element as ListField).rule]).toEqual(['list<list<array>>?', 'repeated-group-repeated-child', 'repeated-primitive']);
  });

  test('rule 4: repeated group named `array` or `<name>_tuple` is the element (one-tuple)', () => {
    const a = only(g('my_list', 'optional', [g('array', 'repeated', [p('str', 'required', ...STR)])], ConvertedType.LIST)) as ListField;
    expect([shape(a), a.rule]).toEqual(['list<{str}>?', 'array-name']);
    const b = only(g('my_list', 'optional', [g('my_list_tuple', 'repeated', [p('str', 'required', ...STR)])], ConvertedType.LIST)) as ListField;
    expect([shape(b), b.rule]).toEqual(['list<{str}>?', 'tuple-name']);
  });

  test('rule 5: otherwise the single field is the element with its own repetition', () => {
    const a = only(g('my_list', 'optional', [g('element', 'repeated', [p('str', 'optional', ...STR)])], ConvertedType.LIST)) as ListField;
    expect([shape(a), a.rule]).toEqual(['list<str?>?', 'three-level']);
  });

  test('unannotated repeated fields are required lists of required elements', () => {
    expect(shape(only(p('num', 'repeated', Type.INT32)))).toBe('list<num>');
    const t = only(g('my_list', 'repeated', [p('num', 'required', Type.INT32), p('str', 'optional', ...STR)])) as ListField;
    expect([shape(t), t.rule, t.def, t.elementDef]).toEqual(['list<{num,str?}>', 'unannotated-repeated', 0, 1]);
  });

  test('rule 4 round trip: records of a two-level `array` list', () => {
    const schema = buildSchemaTree(flatten('m', [g('my_list', 'optional', [g('array', 'repeated', [p('str', 'required', ...STR)])], ConvertedType.LIST)]));
    const recs = [{ my_list: [{ str: 'a' }, { str: 'b' }] }, { my_list: null }, { my_list: [] }];
    const cols = shredRecords(schema, recs);
    expect([Array.from(cols[0]!.def.subarray(0, 4)), Array.from(cols[0]!.rep.subarray(0, 4))]).toEqual([[2, 2, 0, 1], [0, 1, 0, 0]]);
    expect(assembleRecords(schema, cols)).toEqual(recs);
  });

  test('a LIST annotation on a group that is not list-shaped falls back to a struct', () => {
    expect(shape(only(g('x', 'optional', [p('a', 'optional', Type.INT32)], ConvertedType.LIST)))).toBe('{a?}?');
  });
});

describe('MAP rules', () => {
  test('standard MAP; key/value found by position when misnamed', () => {
    const m = only(g('my_map', 'required', [g('key_value', 'repeated', [p('key', 'required', ...STR), p('value', 'optional', Type.INT32)])], ConvertedType.MAP)) as MapField;
    expect([shape(m), m.rule, m.elementDef]).toEqual(['map<key,value?>', 'map', 1]);
    const n = only(g('my_map', 'optional', [g('map', 'repeated', [p('str', 'required', ...STR), p('num', 'required', Type.INT32)])], ConvertedType.MAP)) as MapField;
    expect(shape(n)).toBe('map<str,num>?');
  });

  test('MAP_KEY_VALUE used in place of MAP', () => {
    const m = only(g('my_map', 'optional', [g('map', 'repeated', [p('key', 'required', ...STR), p('value', 'optional', Type.INT32)])], ConvertedType.MAP_KEY_VALUE)) as MapField;
    expect([shape(m), m.rule]).toEqual(['map<key,value?>?', 'map-key-value']);
  });

  test('key not marked required, and a key-only map', () => {
    expect(shape(only(g('m', 'optional', [g('key_value', 'repeated', [p('key', 'optional', ...STR), p('value', 'optional', ...STR)])], ConvertedType.MAP)))).toBe('map<key?,value?>?');
    expect(shape(only(g('m', 'required', [g('key_value', 'repeated', [p('key', 'required', Type.INT32)])], ConvertedType.MAP)))).toBe('map<key,->');
  });

  test('map records round trip as Map or as plain objects', () => {
    const schema = buildSchemaTree(flatten('m', [g('m', 'optional', [g('key_value', 'repeated', [p('key', 'required', ...STR), p('value', 'optional', Type.INT32)])], ConvertedType.MAP)]));
    const recs = [{ m: { a: 1, b: null } }, { m: null }, { m: {} }];
    const cols = shredRecords(schema, recs);
    expect(assembleRecords(schema, cols, { maps: 'object' })).toEqual(recs);
    expect(assembleRecords(schema, cols)).toEqual([{ m: new Map<unknown, unknown>([['a', 1], ['b', null]]) }, { m: null }, { m: new Map() }]);
  });
});

describe('schema errors', () => {
  /** `code: message` of what `f` throws ('no error', or the non-ParquetError). */
  const outcome = (f: () => unknown): string => {
    try {
      f();
      return 'no error';
    } catch (e) {
      return isParquetError(e) ? `${e.code}: ${e.message}` : `non-ParquetError ${String(e)}`;
    }
  };
  const codeOf = (f: () => unknown): string => outcome(f).split(':')[0]!;
  test('bad num_children and leftovers are INVALID_SCHEMA', () => {
    expect(codeOf(() => buildSchemaTree([]))).toBe('INVALID_SCHEMA');
    expect(codeOf(() => buildSchemaTree([{ name: 'r', num_children: 2 }, { name: 'a', type: Type.INT32 }]))).toBe('INVALID_SCHEMA');
    expect(codeOf(() => buildSchemaTree([{ name: 'r', num_children: 1 }, { name: 'a', type: Type.INT32 }, { name: 'b', type: Type.INT32 }]))).toBe('INVALID_SCHEMA');
    expect(codeOf(() => buildSchemaTree([{ name: 'r', num_children: 1 }, { name: 'a', type: Type.INT32, num_children: 1 }, { name: 'b', type: Type.INT32 }]))).toBe('INVALID_SCHEMA');
    expect(codeOf(() => buildSchemaTree([{ name: 'r', num_children: -1 }]))).toBe('INVALID_SCHEMA');
    const deep = [{ name: 'r', num_children: 1 }, ...Array.from({ length: 300 }, (_, i) => ({ name: `g${i}`, num_children: 1 })), { name: 'x', type: Type.INT32 }];
    expect(codeOf(() => buildSchemaTree(deep))).toBe('INVALID_SCHEMA');
  });

  test('two fields of one name in a group are INVALID_SCHEMA, naming the group, the name and both elements; the same name in different groups is fine', () => {
    expect(outcome(() => buildSchemaTree([{ name: 'r', num_children: 3 }, { name: 'c0', type: Type.INT64 }, { name: 'x', type: Type.INT32 }, { name: 'c0', type: Type.BYTE_ARRAY }]))).toBe(
      `INVALID_SCHEMA: parquet-levels: two fields named 'c0' in the root (schema elements 1 and 3)`,
    );
    expect(outcome(() => buildSchemaTree([{ name: 'r', num_children: 1 }, { name: 's', num_children: 2 }, { name: 'a', type: Type.INT32 }, { name: 'a', type: Type.INT32 }]))).toBe(`INVALID_SCHEMA: parquet-levels: two fields named 'a' in group 's' (schema elements 2 and 3)`);
    const ok = buildSchemaTree([{ name: 'r', num_children: 2 }, { name: 'a', num_children: 1 }, { name: 'x', type: Type.INT32 }, { name: 'b', num_children: 1 }, { name: 'x', type: Type.INT32 }]);
    expect(ok.columns.map((c) => c.pathString)).toEqual(['a.x', 'b.x']);
  });
});

describe('ConvertedType <-> LogicalType', () => {
  const MILLIS = { MILLIS: {} };
  const MICROS = { MICROS: {} };
  const table: [number, LogicalType][] = [
    [ConvertedType.UTF8, { STRING: {} }], [ConvertedType.MAP, { MAP: {} }], [ConvertedType.LIST, { LIST: {} }], [ConvertedType.ENUM, { ENUM: {} }],
    [ConvertedType.DATE, { DATE: {} }],
    [ConvertedType.TIME_MILLIS, { TIME: { isAdjustedToUTC: true, unit: MILLIS } }], [ConvertedType.TIME_MICROS, { TIME: { isAdjustedToUTC: true, unit: MICROS } }],
    [ConvertedType.TIMESTAMP_MILLIS, { TIMESTAMP: { isAdjustedToUTC: true, unit: MILLIS } }], [ConvertedType.TIMESTAMP_MICROS, { TIMESTAMP: { isAdjustedToUTC: true, unit: MICROS } }],
    [ConvertedType.INT_8, { INTEGER: { bitWidth: 8, isSigned: true } }], [ConvertedType.INT_16, { INTEGER: { bitWidth: 16, isSigned: true } }],
    [ConvertedType.INT_32, { INTEGER: { bitWidth: 32, isSigned: true } }], [ConvertedType.INT_64, { INTEGER: { bitWidth: 64, isSigned: true } }],
    [ConvertedType.UINT_8, { INTEGER: { bitWidth: 8, isSigned: false } }], [ConvertedType.UINT_16, { INTEGER: { bitWidth: 16, isSigned: false } }],
    [ConvertedType.UINT_32, { INTEGER: { bitWidth: 32, isSigned: false } }], [ConvertedType.UINT_64, { INTEGER: { bitWidth: 64, isSigned: false } }],
    [ConvertedType.JSON, { JSON: {} }], [ConvertedType.BSON, { BSON: {} }],
  ];
  test.each(table)('converted %i <-> logical', (ct, lt) => {
    expect(logicalTypeFromConverted(ct)).toEqual(lt);
    expect(convertedFromLogicalType(lt)).toEqual({ converted_type: ct });
  });
  test('DECIMAL carries scale and precision both ways', () => {
    expect(logicalTypeFromConverted(ConvertedType.DECIMAL, 2, 9)).toEqual({ DECIMAL: { scale: 2, precision: 9 } });
    expect(logicalTypeFromConverted(ConvertedType.DECIMAL, undefined, 5)).toEqual({ DECIMAL: { scale: 0, precision: 5 } });
    expect(logicalTypeFromConverted(ConvertedType.DECIMAL)).toBeUndefined();
    expect(convertedFromLogicalType({ DECIMAL: { scale: 3, precision: 20 } })).toEqual({ converted_type: ConvertedType.DECIMAL, scale: 3, precision: 20 });
  });
  test('no counterpart: MAP_KEY_VALUE, INTERVAL; NANOS, UUID, FLOAT16, UNKNOWN, VARIANT, GEOMETRY, odd widths', () => {
    expect(logicalTypeFromConverted(ConvertedType.MAP_KEY_VALUE)).toBeUndefined();
    expect(logicalTypeFromConverted(ConvertedType.INTERVAL)).toBeUndefined();
    for (const lt of [
      { TIME: { isAdjustedToUTC: true, unit: { NANOS: {} } } }, { TIMESTAMP: { isAdjustedToUTC: false, unit: { NANOS: {} } } }, { UUID: {} }, { FLOAT16: {} },
      { UNKNOWN: {} }, { VARIANT: {} }, { GEOMETRY: {} }, { INTEGER: { bitWidth: 12, isSigned: true } },
    ] as LogicalType[]) {
      expect(convertedFromLogicalType(lt)).toBeUndefined();
    }
  });
  test('local (not UTC-adjusted) TIME/TIMESTAMP still map to the legacy annotation', () => {
    expect(convertedFromLogicalType({ TIME: { isAdjustedToUTC: false, unit: MILLIS } })).toEqual({ converted_type: ConvertedType.TIME_MILLIS });
    expect(convertedFromLogicalType({ TIMESTAMP: { isAdjustedToUTC: false, unit: MICROS } })).toEqual({ converted_type: ConvertedType.TIMESTAMP_MICROS });
  });
  test('resolveLogicalType prefers logicalType, else converted_type', () => {
    expect(resolveLogicalType({ name: 'a', type: Type.INT32, converted_type: ConvertedType.INT_8 })).toEqual({ INTEGER: { bitWidth: 8, isSigned: true } });
    expect(resolveLogicalType({ name: 'a', type: Type.INT32, converted_type: ConvertedType.INT_8, logicalType: { INTEGER: { bitWidth: 16, isSigned: true } } })).toEqual({ INTEGER: { bitWidth: 16, isSigned: true } });
    expect(resolveLogicalType({ name: 'a', type: Type.INT32 })).toBeUndefined();
  });
});
