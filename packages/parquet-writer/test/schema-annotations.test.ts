/**
 * A `SchemaElement[]` schema (`schema: file.metadata.schema`, `schemaFromElements`) is checked against
 * LogicalTypes.md before anything is written (QA helper-77 F1b): an annotation on a physical type the spec does not
 * allow for it, a LIST/MAP group without the spec's structure, a DECIMAL whose precision/scale break the spec, a group
 * with no children and a primitive without `type` are `INVALID_SCHEMA` naming the field path and element. Before, the
 * elements were copied unchecked and the writer made files pyarrow refuses ("String cannot be applied to primitive
 * type INT32", "Map keys must be annotated as required", "Invalid DECIMAL scale 5 cannot be greater than precision
 * 3"), DuckDB refuses ("Out of buffer", "Not implemented: STRUCT()") or our own reader refuses.
 *
 * What stays accepted: every annotation on each physical type the spec allows (read back by pyarrow, an independent
 * reader, when PARQUETRY_PYTHON is set), the spec's backward-compatible LIST/MAP layouts, unknown LogicalType
 * members, what `schemaElements` writes, and the corpus files' schemas (rows read from a sample of
 * ../shared/parquet-testing files written back with `schema: file.metadata.schema` and read equal).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { createGzipCodec } from '@parquetry/codec-gzip';
import { openParquet } from '@parquetry/parquet-reader';
import { CompressionCodec, ConvertedType as C, FieldRepetitionType as R, ParquetError, Type as T, type LogicalType, type SchemaElement } from '@parquetry/thrift-compact';
import { field, schemaElements, schemaFromElements, writeParquet } from '../src/index.js';

const codecs = { ...builtinCodecs(), [CompressionCodec.GZIP]: createGzipCodec() };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-schema-annotations-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const ROOT = (n: number): SchemaElement => ({ name: 'schema', num_children: n });
const leaf = (name: string, type: T, extra: Partial<SchemaElement> = {}): SchemaElement => ({ name, type, repetition_type: R.OPTIONAL, ...extra });
const one = (e: SchemaElement): SchemaElement[] => [ROOT(1), e];
const LT = (lt: LogicalType): Partial<SchemaElement> => ({ logicalType: lt });
const MILLIS = { MILLIS: {} };
const MICROS = { MICROS: {} };
const NANOS = { NANOS: {} };

function refusal(elements: SchemaElement[]): ParquetError {
  try {
    schemaFromElements(elements);
  } catch (e) {
    expect(e).toBeInstanceOf(ParquetError);
    return e as ParquetError;
  }
  throw new Error('accepted');
}

// LogicalTypes.md, each annotation's "must annotate" / "may only be used to annotate" sentence
const refused: [string, SchemaElement[], RegExp][] = [
  ['STRING on INT32', one(leaf('a', T.INT32, LT({ STRING: {} }))), /field 'a' \(schema element 1\): STRING on INT32: it annotates BYTE_ARRAY only/],
  ['STRING on FIXED_LEN_BYTE_ARRAY', one(leaf('a', T.FIXED_LEN_BYTE_ARRAY, { type_length: 4, ...LT({ STRING: {} }) })), /STRING on FIXED_LEN_BYTE_ARRAY\(4\): it annotates BYTE_ARRAY only/],
  ['converted_type UTF8 on INT64', one(leaf('a', T.INT64, { converted_type: C.UTF8 })), /converted_type STRING on INT64: it annotates BYTE_ARRAY only/],
  ['ENUM on INT32', one(leaf('a', T.INT32, LT({ ENUM: {} }))), /ENUM on INT32/],
  ['JSON on FIXED_LEN_BYTE_ARRAY', one(leaf('a', T.FIXED_LEN_BYTE_ARRAY, { type_length: 2, ...LT({ JSON: {} }) })), /JSON on FIXED_LEN_BYTE_ARRAY\(2\)/],
  ['BSON on INT64', one(leaf('a', T.INT64, LT({ BSON: {} }))), /BSON on INT64/],
  ['UUID on FIXED_LEN_BYTE_ARRAY(8)', one(leaf('a', T.FIXED_LEN_BYTE_ARRAY, { type_length: 8, ...LT({ UUID: {} }) })), /UUID on FIXED_LEN_BYTE_ARRAY\(8\): it annotates FIXED_LEN_BYTE_ARRAY\(16\) only/],
  ['UUID on BYTE_ARRAY', one(leaf('a', T.BYTE_ARRAY, LT({ UUID: {} }))), /UUID on BYTE_ARRAY/],
  ['FLOAT16 on FIXED_LEN_BYTE_ARRAY(4)', one(leaf('a', T.FIXED_LEN_BYTE_ARRAY, { type_length: 4, ...LT({ FLOAT16: {} }) })), /FLOAT16 on FIXED_LEN_BYTE_ARRAY\(4\): it annotates FIXED_LEN_BYTE_ARRAY\(2\) only/],
  ['DATE on INT64', one(leaf('a', T.INT64, LT({ DATE: {} }))), /DATE on INT64: it annotates INT32 only/],
  ['converted_type DATE on INT96', one(leaf('a', T.INT96, { converted_type: C.DATE })), /converted_type DATE on INT96/],
  ['TIME(MILLIS) on INT64', one(leaf('a', T.INT64, LT({ TIME: { isAdjustedToUTC: false, unit: MILLIS } }))), /TIME\(MILLIS\) on INT64: TIME\(MILLIS\) annotates INT32 only/],
  ['TIME(MICROS) on INT32', one(leaf('a', T.INT32, LT({ TIME: { isAdjustedToUTC: false, unit: MICROS } }))), /TIME\(MICROS\) on INT32: TIME\(MICROS\) annotates INT64 only/],
  ['TIME(NANOS) on INT32', one(leaf('a', T.INT32, LT({ TIME: { isAdjustedToUTC: true, unit: NANOS } }))), /TIME\(NANOS\) on INT32/],
  ['converted_type TIME_MICROS on INT32', one(leaf('a', T.INT32, { converted_type: C.TIME_MICROS })), /converted_type TIME\(MICROS\) on INT32/],
  ['TIMESTAMP on INT32', one(leaf('a', T.INT32, LT({ TIMESTAMP: { isAdjustedToUTC: true, unit: MILLIS } }))), /TIMESTAMP\(MILLIS\) on INT32: it annotates INT64 only/],
  ['TIMESTAMP on INT96', one(leaf('a', T.INT96, LT({ TIMESTAMP: { isAdjustedToUTC: true, unit: NANOS } }))), /TIMESTAMP\(NANOS\) on INT96/],
  ['converted_type TIMESTAMP_MILLIS on INT32', one(leaf('a', T.INT32, { converted_type: C.TIMESTAMP_MILLIS })), /converted_type TIMESTAMP\(MILLIS\) on INT32/],
  ['TIMESTAMP without a unit', one(leaf('a', T.INT64, LT({ TIMESTAMP: { isAdjustedToUTC: true, unit: {} } }))), /TIMESTAMP\(no unit\) on INT64: its unit is none of MILLIS, MICROS, NANOS/],
  ['INTEGER(8) on INT64', one(leaf('a', T.INT64, LT({ INTEGER: { bitWidth: 8, isSigned: true } }))), /INTEGER\(8, signed\) on INT64: bit width 8 annotates INT32 only/],
  ['INTEGER(64) on INT32', one(leaf('a', T.INT32, LT({ INTEGER: { bitWidth: 64, isSigned: false } }))), /INTEGER\(64, unsigned\) on INT32: bit width 64 annotates INT64 only/],
  ['INTEGER(12)', one(leaf('a', T.INT32, LT({ INTEGER: { bitWidth: 12, isSigned: true } }))), /bit width 12 is none of 8, 16, 32, 64/],
  ['converted_type UINT_16 on INT64', one(leaf('a', T.INT64, { converted_type: C.UINT_16 })), /converted_type INTEGER\(16, unsigned\) on INT64/],
  ['INTEGER on FLOAT', one(leaf('a', T.FLOAT, LT({ INTEGER: { bitWidth: 32, isSigned: true } }))), /INTEGER\(32, signed\) on FLOAT/],
  ['GEOMETRY on FIXED_LEN_BYTE_ARRAY', one(leaf('a', T.FIXED_LEN_BYTE_ARRAY, { type_length: 21, ...LT({ GEOMETRY: {} }) })), /GEOMETRY on FIXED_LEN_BYTE_ARRAY\(21\): it annotates BYTE_ARRAY only/],
  ['GEOGRAPHY on INT64', one(leaf('a', T.INT64, LT({ GEOGRAPHY: {} }))), /GEOGRAPHY on INT64/],
  ['INTERVAL on FIXED_LEN_BYTE_ARRAY(16)', one(leaf('a', T.FIXED_LEN_BYTE_ARRAY, { type_length: 16, converted_type: C.INTERVAL })), /converted_type INTERVAL on FIXED_LEN_BYTE_ARRAY\(16\): it annotates FIXED_LEN_BYTE_ARRAY\(12\) only/],
  ['INTERVAL on BYTE_ARRAY', one(leaf('a', T.BYTE_ARRAY, { converted_type: C.INTERVAL })), /converted_type INTERVAL on BYTE_ARRAY/],
  // DECIMAL: through parquet-levels' checkDecimals (LogicalTypes.md, DECIMAL)
  ['DECIMAL scale > precision (converted_type)', one(leaf('a', T.INT32, { converted_type: C.DECIMAL, scale: 5, precision: 3 })), /field 'a' \(schema element 1\): converted_type DECIMAL\(3, 5\) on INT32: scale 5 is outside 0..precision/],
  ['DECIMAL(10) on INT32', one(leaf('a', T.INT32, LT({ DECIMAL: { precision: 10, scale: 0 } }))), /DECIMAL\(10, 0\) on INT32: precision 10 is outside 1..9/],
  ['DECIMAL(19) on INT64', one(leaf('a', T.INT64, LT({ DECIMAL: { precision: 19, scale: 2 } }))), /DECIMAL\(19, 2\) on INT64: precision 19 is outside 1..18/],
  ['DECIMAL(10) on FIXED_LEN_BYTE_ARRAY(4)', one(leaf('a', T.FIXED_LEN_BYTE_ARRAY, { type_length: 4, ...LT({ DECIMAL: { precision: 10, scale: 0 } }) })), /precision 10 is outside 1..9/],
  ['DECIMAL on DOUBLE', one(leaf('a', T.DOUBLE, LT({ DECIMAL: { precision: 5, scale: 0 } }))), /DECIMAL annotates INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY/],
  ['converted_type DECIMAL without precision', one(leaf('a', T.INT32, { converted_type: C.DECIMAL })), /precision undefined is outside 1..9/],
  // nested types (LogicalTypes.md, "Lists" and "Maps"; README "Nested encoding": a group has children)
  ['LIST on a primitive', one(leaf('a', T.INT32, { converted_type: C.LIST })), /field 'a' \(schema element 1\): converted_type LIST on INT32: it annotates a group, not a primitive/],
  ['MAP on a primitive', one(leaf('a', T.BYTE_ARRAY, LT({ MAP: {} }))), /MAP on BYTE_ARRAY: it annotates a group/],
  ['MAP_KEY_VALUE on a primitive', one(leaf('a', T.BYTE_ARRAY, { converted_type: C.MAP_KEY_VALUE })), /converted_type MAP_KEY_VALUE on BYTE_ARRAY: it annotates a group/],
  ['VARIANT on a primitive', one(leaf('a', T.BYTE_ARRAY, LT({ VARIANT: { specification_version: 1 } }))), /VARIANT on BYTE_ARRAY: it annotates a group/],
  ['STRING on a group', [ROOT(1), { name: 'g', repetition_type: R.OPTIONAL, num_children: 1, ...LT({ STRING: {} }) }, leaf('x', T.BYTE_ARRAY)], /field 'g' \(schema element 1\): STRING on a group: it annotates a primitive, not a group/],
  ['LIST of two fields', [ROOT(1), { name: 'l', repetition_type: R.OPTIONAL, num_children: 2, ...LT({ LIST: {} }) }, leaf('x', T.INT32, { repetition_type: R.REPEATED }), leaf('y', T.INT32)],
    /LIST on a group: a LIST group holds exactly one REPEATED field \(the list level\), got 2 fields/],
  ['LIST whose only field is not repeated', [ROOT(1), { name: 'l', repetition_type: R.OPTIONAL, num_children: 1, ...LT({ LIST: {} }) }, leaf('x', T.INT32)], /got a OPTIONAL one/],
  ['REPEATED LIST outside a LIST', [ROOT(1), { name: 'l', repetition_type: R.REPEATED, num_children: 1, ...LT({ LIST: {} }) }, leaf('x', T.INT32, { repetition_type: R.REPEATED })], /a LIST group is OPTIONAL or REQUIRED/],
  ['MAP key OPTIONAL', [ROOT(1), { name: 'm', repetition_type: R.OPTIONAL, num_children: 1, converted_type: C.MAP }, { name: 'key_value', repetition_type: R.REPEATED, num_children: 2 }, leaf('key', T.BYTE_ARRAY), leaf('value', T.INT32)],
    /field 'm' \(schema element 1\): converted_type MAP on a group: the map key 'm.key_value.key' is OPTIONAL, a map key is always REQUIRED/],
  ['MAP with three fields in key_value', [ROOT(1), { name: 'm', repetition_type: R.OPTIONAL, num_children: 1, ...LT({ MAP: {} }) }, { name: 'key_value', repetition_type: R.REPEATED, num_children: 3 }, leaf('key', T.BYTE_ARRAY, { repetition_type: R.REQUIRED }), leaf('value', T.INT32), leaf('z', T.INT32)],
    /its key_value group holds a key and an optional value, got 3 fields/],
  ['MAP whose key_value is a primitive', [ROOT(1), { name: 'm', repetition_type: R.OPTIONAL, num_children: 1, ...LT({ MAP: {} }) }, leaf('key_value', T.INT32, { repetition_type: R.REPEATED })], /its key_value level is a primitive/],
  ['MAP of two fields', [ROOT(1), { name: 'm', repetition_type: R.OPTIONAL, num_children: 2, ...LT({ MAP: {} }) }, leaf('k', T.INT32, { repetition_type: R.REPEATED }), leaf('v', T.INT32)], /a MAP group holds exactly one REPEATED group \(key_value\), got 2 fields/],
  ['REPEATED MAP', [ROOT(1), { name: 'm', repetition_type: R.REPEATED, num_children: 1, ...LT({ MAP: {} }) }, { name: 'key_value', repetition_type: R.REPEATED, num_children: 1 }, leaf('key', T.INT32, { repetition_type: R.REQUIRED })], /a MAP group is OPTIONAL or REQUIRED/],
  ['VARIANT without metadata', [ROOT(1), { name: 'v', repetition_type: R.OPTIONAL, num_children: 1, ...LT({ VARIANT: { specification_version: 1 } }) }, leaf('value', T.BYTE_ARRAY, { repetition_type: R.REQUIRED })], /a VARIANT group holds a REQUIRED BYTE_ARRAY field named metadata/],
  ['VARIANT value not binary', [ROOT(1), { name: 'v', repetition_type: R.OPTIONAL, num_children: 2, ...LT({ VARIANT: { specification_version: 1 } }) }, leaf('metadata', T.BYTE_ARRAY, { repetition_type: R.REQUIRED }), leaf('value', T.INT32, { repetition_type: R.REQUIRED })], /a VARIANT group holds a BYTE_ARRAY field named value/],
  ['a group with zero children', [ROOT(1), { name: 'g', repetition_type: R.OPTIONAL, num_children: 0 }], /field 'g' \(schema element 1\): a group with no children \(Parquet has no empty groups\)/],
  ['a primitive without type', [ROOT(1), { name: 'a', repetition_type: R.OPTIONAL }], /field 'a' \(schema element 1\): no physical type and no num_children: a primitive needs a type/],
  ['a nested field names its path', [ROOT(1), { name: 's', repetition_type: R.OPTIONAL, num_children: 2 }, leaf('x', T.INT32), leaf('a', T.INT32, LT({ STRING: {} }))], /field 's\.a' \(schema element 3\): STRING on INT32/],
];

describe('SchemaElement[] annotations against physical types (LogicalTypes.md)', () => {
  test.each(refused)('%s is INVALID_SCHEMA naming the field', (_name, elements, message) => {
    const e = refusal(elements);
    expect(e.code).toBe('INVALID_SCHEMA');
    expect(e.message).toMatch(message);
  });

  test('writeParquet and createWriter refuse such a schema before writing anything', async () => {
    const schema = one(leaf('a', T.INT32, LT({ STRING: {} })));
    await expect(writeParquet([{ a: 1 }], { schema })).rejects.toMatchObject({ code: 'INVALID_SCHEMA', message: expect.stringMatching(/field 'a' \(schema element 1\): STRING on INT32/) });
    // a reader's SchemaTree-shaped input is checked the same way
    await expect(writeParquet([{ g: {} }], { schema: [ROOT(1), { name: 'g', repetition_type: R.OPTIONAL, num_children: 0 }] })).rejects.toMatchObject({ code: 'INVALID_SCHEMA' });
  });

  // every annotation on every physical type LogicalTypes.md allows for it, plus the backward-compatible layouts
  const accepted: [string, SchemaElement[]][] = [
    ['text and embedded types on BYTE_ARRAY', [ROOT(6), leaf('s', T.BYTE_ARRAY, { converted_type: C.UTF8, ...LT({ STRING: {} }) }), leaf('e', T.BYTE_ARRAY, { converted_type: C.ENUM, ...LT({ ENUM: {} }) }),
      leaf('j', T.BYTE_ARRAY, { converted_type: C.JSON, ...LT({ JSON: {} }) }), leaf('b', T.BYTE_ARRAY, { converted_type: C.BSON, ...LT({ BSON: {} }) }),
      leaf('g', T.BYTE_ARRAY, LT({ GEOMETRY: {} })), leaf('h', T.BYTE_ARRAY, LT({ GEOGRAPHY: {} }))]],
    ['UUID, FLOAT16, INTERVAL', [ROOT(3), leaf('u', T.FIXED_LEN_BYTE_ARRAY, { type_length: 16, ...LT({ UUID: {} }) }), leaf('f', T.FIXED_LEN_BYTE_ARRAY, { type_length: 2, ...LT({ FLOAT16: {} }) }),
      leaf('i', T.FIXED_LEN_BYTE_ARRAY, { type_length: 12, converted_type: C.INTERVAL })]],
    ['temporal types', [ROOT(7), leaf('d', T.INT32, { converted_type: C.DATE, ...LT({ DATE: {} }) }), leaf('t1', T.INT32, { converted_type: C.TIME_MILLIS, ...LT({ TIME: { isAdjustedToUTC: true, unit: MILLIS } }) }),
      leaf('t2', T.INT64, { converted_type: C.TIME_MICROS, ...LT({ TIME: { isAdjustedToUTC: false, unit: MICROS } }) }), leaf('t3', T.INT64, LT({ TIME: { isAdjustedToUTC: true, unit: NANOS } })),
      leaf('ts1', T.INT64, { converted_type: C.TIMESTAMP_MILLIS, ...LT({ TIMESTAMP: { isAdjustedToUTC: true, unit: MILLIS } }) }), leaf('ts2', T.INT64, { converted_type: C.TIMESTAMP_MICROS }),
      leaf('ts3', T.INT64, LT({ TIMESTAMP: { isAdjustedToUTC: false, unit: NANOS } }))]],
    ['integers', [ROOT(8), ...([[8, true, C.INT_8], [16, true, C.INT_16], [32, true, C.INT_32], [8, false, C.UINT_8], [16, false, C.UINT_16], [32, false, C.UINT_32]] as const).map(([w, s, c]) =>
      leaf(`i${w}${s ? 's' : 'u'}`, T.INT32, { converted_type: c, ...LT({ INTEGER: { bitWidth: w, isSigned: s } }) })),
      leaf('i64s', T.INT64, { converted_type: C.INT_64, ...LT({ INTEGER: { bitWidth: 64, isSigned: true } }) }), leaf('i64u', T.INT64, { converted_type: C.UINT_64 })]],
    ['decimals on each physical type', [ROOT(4), leaf('a', T.INT32, { converted_type: C.DECIMAL, precision: 9, scale: 9 }), leaf('b', T.INT64, LT({ DECIMAL: { precision: 18, scale: 0 } })),
      leaf('c', T.FIXED_LEN_BYTE_ARRAY, { type_length: 5, converted_type: C.DECIMAL, precision: 11, scale: 2, ...LT({ DECIMAL: { precision: 11, scale: 2 } }) }), leaf('d', T.BYTE_ARRAY, LT({ DECIMAL: { precision: 40, scale: 3 } }))]],
    ['UNKNOWN and an unknown LogicalType member on any primitive', [ROOT(2), leaf('n', T.INT32, LT({ UNKNOWN: {} })), leaf('z', T.DOUBLE, LT({ FUTURE_TYPE: {} } as unknown as LogicalType))]],
    ['3-level LIST and MAP, key-only MAP', [ROOT(3), { name: 'l', repetition_type: R.OPTIONAL, num_children: 1, converted_type: C.LIST, ...LT({ LIST: {} }) }, { name: 'list', repetition_type: R.REPEATED, num_children: 1 }, leaf('element', T.INT32),
      { name: 'm', repetition_type: R.REQUIRED, num_children: 1, converted_type: C.MAP, ...LT({ MAP: {} }) }, { name: 'key_value', repetition_type: R.REPEATED, num_children: 2 }, leaf('key', T.BYTE_ARRAY, { repetition_type: R.REQUIRED, ...LT({ STRING: {} }) }), leaf('value', T.INT32),
      { name: 'k', repetition_type: R.OPTIONAL, num_children: 1, ...LT({ MAP: {} }) }, { name: 'key_value', repetition_type: R.REPEATED, num_children: 1 }, leaf('key', T.INT64, { repetition_type: R.REQUIRED })]],
    ['legacy lists (rules 1-4) and a repeated 2-level LIST inside a LIST', [ROOT(3),
      { name: 'r1', repetition_type: R.OPTIONAL, num_children: 1, converted_type: C.LIST }, leaf('element', T.INT32, { repetition_type: R.REPEATED }),
      { name: 'r2', repetition_type: R.OPTIONAL, num_children: 1, converted_type: C.LIST }, { name: 'element', repetition_type: R.REPEATED, num_children: 2 }, leaf('str', T.BYTE_ARRAY, { repetition_type: R.REQUIRED }), leaf('num', T.INT32, { repetition_type: R.REQUIRED }),
      { name: 'r3', repetition_type: R.OPTIONAL, num_children: 1, converted_type: C.LIST }, { name: 'array', repetition_type: R.REPEATED, num_children: 1, converted_type: C.LIST }, leaf('array', T.INT32, { repetition_type: R.REPEATED })]],
    ['legacy MAP with MAP_KEY_VALUE on key_value, and MAP_KEY_VALUE in place of MAP', [ROOT(2),
      { name: 'm', repetition_type: R.OPTIONAL, num_children: 1, converted_type: C.MAP }, { name: 'map', repetition_type: R.REPEATED, num_children: 2, converted_type: C.MAP_KEY_VALUE }, leaf('key', T.BYTE_ARRAY, { repetition_type: R.REQUIRED }), leaf('value', T.INT32),
      { name: 'kv', repetition_type: R.OPTIONAL, num_children: 1, converted_type: C.MAP_KEY_VALUE }, { name: 'map', repetition_type: R.REPEATED, num_children: 2 }, leaf('key', T.BYTE_ARRAY, { repetition_type: R.REQUIRED }), leaf('value', T.INT32)]],
    ['unshredded and shredded VARIANT', [ROOT(2),
      { name: 'v', repetition_type: R.OPTIONAL, num_children: 2, ...LT({ VARIANT: { specification_version: 1 } }) }, leaf('metadata', T.BYTE_ARRAY, { repetition_type: R.REQUIRED }), leaf('value', T.BYTE_ARRAY, { repetition_type: R.REQUIRED }),
      { name: 'w', repetition_type: R.OPTIONAL, num_children: 3, ...LT({ VARIANT: { specification_version: 1 } }) }, leaf('metadata', T.BYTE_ARRAY, { repetition_type: R.REQUIRED }), leaf('value', T.BYTE_ARRAY), leaf('typed_value', T.INT64)]],
  ];

  test.each(accepted)('accepted: %s', (_name, elements) => {
    expect(schemaFromElements(elements)).toStrictEqual(elements);
  });

  test("accepted: Hive's MAP_KEY_VALUE key_value with an OPTIONAL key (the corpus's incorrect_map_schema layout, kept so such files can be rewritten)", () => {
    const hive = [ROOT(1), { name: 'my_map', repetition_type: R.OPTIONAL, num_children: 1, converted_type: C.MAP }, { name: 'key_value', repetition_type: R.REPEATED, num_children: 2, converted_type: C.MAP_KEY_VALUE },
      leaf('key', T.BYTE_ARRAY, { converted_type: C.UTF8 }), leaf('value', T.BYTE_ARRAY, { converted_type: C.UTF8 })];
    expect(schemaFromElements(hive)).toStrictEqual(hive);
  });

  test('accepted: what schemaElements writes for every field type', () => {
    const spec = {
      b: field.boolean(), i32: field.int32(), i64: field.int64(), f: field.float(), d: field.double(), s: field.string(), bin: field.binary(), j: field.json(), bs: field.bson(),
      e: field.enum(), u: field.uuid(), h: field.float16(), dt: field.date(), iv: field.interval(), i96: field.int96(),
      i8: field.int(8, true), u16: field.int(16, false), u32: field.int(32, false), u64: field.int(64, false),
      d32: field.decimal(9, 2), d64: field.decimal(18, 4), dfx: field.decimal(30, 4), dbin: field.decimal(50, 10, { physical: 'binary' }), dfx9: field.decimal(5, 1, { physical: 'fixed', byteLength: 9 }),
      ts: field.timestamp('millis'), tsu: field.timestamp('micros', { utc: false }), tsn: field.timestamp('nanos'), t1: field.time('millis'), t2: field.time('micros'), t3: field.time('nanos', { utc: true }),
      fx: field.fixed(7), g: field.geometry({ crs: 'OGC:CRS84' }), gg: field.geography({ algorithm: 'karney' }),
      v: field.variant(), vs: field.variant({ shredding: field.struct({ a: field.list(field.decimal(20, 2)), t: field.timestamp('nanos'), x: field.uuid() }) }),
      l: field.list(field.list(field.string({ required: true }))), m: field.map(field.int(16, true), field.map(field.string(), field.json())), k: field.map(field.date()),
      st: field.struct({ a: field.struct({ b: field.time('millis') }) }),
    };
    const els = schemaElements(spec);
    expect(schemaFromElements(els)).toStrictEqual(els);
  });

  const PYTHON = process.env.PARQUETRY_PYTHON;
  test.skipIf(PYTHON === undefined)('pyarrow reads every accepted annotation written through a SchemaElement[] schema (skipped without PARQUETRY_PYTHON)', async () => {
    const files: string[] = [];
    for (const [name, elements] of accepted) {
      const top = elements.filter((_e, i) => i > 0 && isTop(elements, i)).map((e) => e.name);
      // one all-null row: every top-level field here is OPTIONAL or a REQUIRED map (an empty one)
      const row = Object.fromEntries(top.map((n) => [n, elements.find((e) => e.name === n)!.repetition_type === R.REQUIRED ? new Map() : null]));
      const f = path.join(tmp, `${files.length}.parquet`);
      fs.writeFileSync(f, await writeParquet([row], { schema: elements }));
      files.push(f);
      expect(name).toBeTruthy();
    }
    const out = execFileSync(PYTHON!, ['-c', `
import pyarrow.parquet as pq, json, sys
res = []
for f in sys.argv[1:]:
    try:
        t = pq.read_table(f)
        res.append([t.num_rows, t.num_columns])
    except Exception as e:
        res.append(str(e))
print(json.dumps(res))
`, ...files]).toString();
    const got = JSON.parse(out) as unknown[];
    expect(got.map((g, i) => [accepted[i]![0], typeof g === 'string' ? g : 'ok'])).toEqual(accepted.map(([n]) => [n, 'ok']));
  });
});

/** Whether element `i` is a child of the root (its predecessors' num_children account for it). */
function isTop(elements: readonly SchemaElement[], i: number): boolean {
  let at = 1;
  while (at < elements.length) {
    if (at === i) return true;
    at = skip(elements, at);
  }
  return false;
}
function skip(elements: readonly SchemaElement[], at: number): number {
  const n = elements[at]!.num_children ?? 0;
  let next = at + 1;
  for (let c = 0; c < n; c++) next = skip(elements, next);
  return next;
}

const CORPUS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/parquet-testing/data');
const HAVE_CORPUS = fs.existsSync(CORPUS);
if (!HAVE_CORPUS) console.warn(`parquet-writer schema-annotations: ${CORPUS} not found; the corpus rewrite is skipped`);

// a sample covering every physical type, legacy LIST/MAP layouts, DECIMAL on each physical type, INT96, FLOAT16,
// an unknown logical type, and Hive's optional map key
const SAMPLE = [
  'alltypes_plain.parquet', 'nested_maps.snappy.parquet', 'nested_lists.snappy.parquet', 'old_list_structure.parquet', 'repeated_no_annotation.parquet',
  'repeated_primitive_no_list.parquet', 'map_no_value.parquet', 'incorrect_map_schema.parquet', 'int96_from_spark.parquet', 'fixed_length_decimal_legacy.parquet',
  'byte_array_decimal.parquet', 'int32_decimal.parquet', 'int64_decimal.parquet', 'float16_nonzeros_and_nans.parquet', 'list_columns.parquet', 'nullable.impala.parquet',
  'nonnullable.impala.parquet', 'null_list.parquet', 'unknown-logical-type.parquet', 'fixed_length_byte_array.parquet',
];

describe.skipIf(!HAVE_CORPUS)('corpus files rewritten with schema: file.metadata.schema', () => {
  test.each(SAMPLE)('%s', async (name) => {
    const file = await openParquet(new Uint8Array(fs.readFileSync(path.join(CORPUS, name))), { codecs });
    const rows = await file.readRows();
    const again = await openParquet(await writeParquet(rows, { schema: file.metadata.schema }), { codecs });
    expect(again.metadata.schema).toStrictEqual(file.metadata.schema);
    expect(await again.readRows()).toEqual(rows);
  });
});
