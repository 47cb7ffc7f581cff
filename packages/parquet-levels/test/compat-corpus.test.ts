// The LIST/MAP backward-compatibility rules on schemas that old writers actually produced
// (the upstream parquet-testing corpus), compared with DuckDB's reading of the same files and
// with hyparquet's max-level computation.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import type { DuckDBConnection } from '@duckdb/node-api';
import { getMaxDefinitionLevel, getMaxRepetitionLevel, getSchemaPath } from 'hyparquet/src/schema.js';
import { parquetMetadata } from 'hyparquet';
import { buildSchemaTree } from '../src/index.js';
import type { Field, ListField, MapField, SchemaTree } from '../src/index.js';
import { Type } from '@parquetry/thrift-compact';
import { HAVE_CORPUS, footer, testing } from './corpus.js';

/** Our interpretation rendered in DuckDB's type syntax. */
function duckType(f: Field): string {
  switch (f.kind) {
    case 'list': return `${duckType(f.element)}[]`;
    case 'map': return `MAP(${duckType(f.key)}, ${f.value ? duckType(f.value) : '?'})`;
    case 'struct': return `STRUCT(${f.fields.map((c) => `${c.name} ${duckType(c)}`).join(', ')})`;
    case 'leaf': {
      const el = f.node.element;
      const lt = f.node.logicalType;
      switch (el.type) {
        case Type.BOOLEAN: return 'BOOLEAN';
        case Type.INT32: return 'INTEGER';
        case Type.INT64: return 'BIGINT';
        case Type.FLOAT: return 'FLOAT';
        case Type.DOUBLE: return 'DOUBLE';
        case Type.BYTE_ARRAY: return lt?.STRING ? 'VARCHAR' : 'BLOB';
        default: return `?${String(el.type)}`;
      }
    }
  }
}

const files = [
  'old_list_structure', 'repeated_no_annotation', 'repeated_primitive_no_list', 'incorrect_map_schema',
  'nested_lists.snappy', 'nested_maps.snappy', 'nullable.impala',
];

const trees = new Map<string, SchemaTree>();
function tree(f: string): SchemaTree {
  let t = trees.get(f);
  if (!t) {
    t = buildSchemaTree(footer(`data/${f}.parquet`).meta.schema);
    trees.set(f, t);
  }
  return t;
}
function top(f: string, name: string): Field {
  const x = tree(f).field.fields.find((c) => c.name === name);
  if (!x) throw new Error(`no field ${name}`);
  return x;
}

describe.skipIf(!HAVE_CORPUS)('compatibility rules on corpus schemas', () => {
  let con: DuckDBConnection;
  beforeAll(async () => {
    con = await (await DuckDBInstance.create(':memory:')).connect();
  });
  afterAll(() => con?.closeSync());

  test.each(files)('%s: field types agree with DuckDB', async (f) => {
    const file = path.join(testing, 'data', `${f}.parquet`);
    const r = await con.runAndReadAll(`DESCRIBE SELECT * FROM '${file.replaceAll("'", "''")}'`);
    const duck = r.getRowObjects().map((row) => [String(row.column_name), String(row.column_type)]);
    const ours = tree(f).field.fields.map((c) => [c.name, duckType(c)]);
    expect(ours).toEqual(duck);
  });

  test.each(files.concat('map_no_value'))('%s: max levels agree with hyparquet', (f) => {
    const buf = footer(`data/${f}.parquet`).bytes;
    const md = parquetMetadata(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer);
    for (const c of tree(f).columns) {
      const sp = getSchemaPath(md.schema, [...c.path]);
      expect([c.pathString, c.maxDef, c.maxRep]).toEqual([c.pathString, getMaxDefinitionLevel(sp), getMaxRepetitionLevel(sp)]);
    }
  });

  test('old_list_structure: LIST whose repeated group `array` holds a repeated field (rule 3), inner rule 1', () => {
    const a = top('old_list_structure', 'a') as ListField;
    expect(a.kind).toBe('list');
    expect(a.rule).toBe('repeated-group-repeated-child');
    expect(a.nullable).toBe(false);
    const inner = a.element as ListField;
    expect([inner.kind, inner.rule, inner.nullable]).toEqual(['list', 'repeated-primitive', false]);
    expect(inner.element.kind).toBe('leaf');
    expect(tree('old_list_structure').columns.map((c) => [c.pathString, c.maxDef, c.maxRep])).toEqual([['a.array.array', 2, 2]]);
  });

  test('repeated_no_annotation: unannotated repeated group inside an optional group is a required list', () => {
    const pn = top('repeated_no_annotation', 'phoneNumbers');
    expect(pn.kind === 'struct' && pn.nullable).toBe(true);
    const phone = (pn as unknown as { fields: Field[] }).fields[0] as ListField;
    expect([phone.kind, phone.rule, phone.nullable, phone.elementDef, phone.elementRep]).toEqual(['list', 'unannotated-repeated', false, 2, 1]);
    expect(phone.element.kind).toBe('struct');
    expect(phone.element.nullable).toBe(false);
  });

  test('repeated_primitive_no_list: unannotated repeated primitives at top level and in a group', () => {
    for (const name of ['Int32_list', 'String_list']) {
      const l = top('repeated_primitive_no_list', name) as ListField;
      expect([l.kind, l.rule, l.element.kind, l.def, l.elementDef]).toEqual(['list', 'unannotated-repeated', 'leaf', 0, 1]);
    }
  });

  test('incorrect_map_schema: MAP with MAP_KEY_VALUE middle group and an optional key', () => {
    const m = top('incorrect_map_schema', 'my_map') as MapField;
    expect([m.kind, m.rule, m.key.nullable, m.value?.nullable]).toEqual(['map', 'map', true, true]);
  });

  test('map_no_value: a MAP whose key_value group has only a key, next to a normal map and list', () => {
    // DuckDB refuses this file ("MAP_KEY_VALUE requires two children"); expected shape written from the spec.
    const t = tree('map_no_value');
    expect(t.field.fields.map(duckType)).toEqual(['MAP(INTEGER, INTEGER)', 'MAP(INTEGER, ?)', 'INTEGER[]']);
    const noV = top('map_no_value', 'my_map_no_v') as MapField;
    expect(noV.value).toBeUndefined();
    expect(noV.key.nullable).toBe(false);
  });

  test('nullable.impala: MAP_KEY_VALUE-annotated key/value groups named `map`, lists of maps, structs in maps', () => {
    const m = top('nullable.impala', 'int_map') as MapField;
    expect([m.kind, m.repeated.name, m.repeated.element.converted_type]).toEqual(['map', 'map', 2]);
    const lm = top('nullable.impala', 'int_Map_Array') as ListField;
    expect([lm.rule, lm.element.kind, lm.element.nullable]).toEqual(['three-level', 'map', true]);
  });

  test('nested_lists / nested_maps: standard 3-level nesting with nullable elements', () => {
    const a = top('nested_lists.snappy', 'a') as ListField;
    expect([a.rule, a.nullable, a.element.nullable]).toEqual(['three-level', true, true]);
    expect(tree('nested_lists.snappy').columns[0]!.repeatedDefs).toEqual([2, 4, 6]);
    const mm = top('nested_maps.snappy', 'a') as MapField;
    expect([mm.kind, mm.value?.kind, mm.value?.nullable]).toEqual(['map', 'map', true]);
  });
});
