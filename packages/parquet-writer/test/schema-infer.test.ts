/**
 * inferSchema: one test per rule of the module header, every error, overrides by path, sampling, a property test
 * over random typed columns, and the rows `@parquetry/parquet-reader` returns for corpus files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ParquetError } from '@parquetry/thrift-compact';
import { buildSchemaTree } from '@parquetry/parquet-levels';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { field, schemaElements, type FieldSpec, type SchemaSpec } from '../src/schema.js';
import { inferSchema } from '../src/schema-infer.js';

function error(f: () => unknown): ParquetError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ParquetError);
    return e as ParquetError;
  }
  throw new Error('expected a ParquetError');
}
const unknownColumn = (f: () => unknown, message: RegExp): void => {
  const e = error(f);
  expect(e.code).toBe('UNKNOWN_COLUMN');
  expect(e.message).toMatch(message);
};
const inferenceError = (f: () => unknown, message: RegExp): void => {
  const e = error(f);
  expect(e.code).toBe('SCHEMA_INFERENCE');
  expect(e.message).toMatch(/^parquet-writer: /);
  expect(e.message).toMatch(message);
};

describe('rules', () => {
  test('boolean, string, Uint8Array and Buffer', () => {
    expect(inferSchema([{ b: true, s: 'x', u: new Uint8Array([1]), n: Buffer.from('ab') }, { b: false, s: '', u: new Uint8Array(0), n: Buffer.alloc(0) }]))
      .toStrictEqual({ b: field.boolean(), s: field.string(), u: field.binary(), n: field.binary() });
  });

  test('numbers: all int32 → INT32; anything else (fraction, beyond int32, -0, NaN, ±Infinity) → DOUBLE', () => {
    expect(inferSchema([{ a: 0 }, { a: -(2 ** 31) }, { a: 2 ** 31 - 1 }])).toStrictEqual({ a: field.int32() });
    for (const odd of [0.5, 2 ** 31, -(2 ** 31) - 1, -0, NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER]) {
      expect(inferSchema([{ a: 1 }, { a: odd }, { a: 2 }]), String(odd)).toStrictEqual({ a: field.double() });
    }
  });

  test('bigint → INT64; above 2^63-1 (none negative) → unsigned INTEGER(64)', () => {
    expect(inferSchema([{ a: 0n }, { a: -(2n ** 63n) }, { a: 2n ** 63n - 1n }])).toStrictEqual({ a: field.int64() });
    expect(inferSchema([{ a: 1n }, { a: 2n ** 64n - 1n }])).toStrictEqual({ a: field.int(64, false) });
  });

  test('Date → TIMESTAMP(MILLIS, UTC); timestampUnit micros', () => {
    const rows = [{ t: new Date(0) }, { t: new Date('2024-02-29T12:00:00.123Z') }];
    expect(inferSchema(rows)).toStrictEqual({ t: field.timestamp('millis', { utc: true }) });
    expect(inferSchema(rows, { timestampUnit: 'micros' })).toStrictEqual({ t: field.timestamp('micros', { utc: true }) });
  });

  test('arrays → LIST of the elements type, nested arrays → nested lists, null elements allowed', () => {
    expect(inferSchema([{ l: [1, null, 3] }, { l: [] }, { l: null }, { l: [[1.5], []] as unknown as number[] }].slice(0, 3)))
      .toStrictEqual({ l: field.list(field.int32()) });
    expect(inferSchema([{ l: [[1.5], [], null] }, { l: [[2]] }])).toStrictEqual({ l: field.list(field.list(field.double())) });
  });

  test('only empty arrays, empty maps or nulls → STRING (nothing to go by)', () => {
    expect(inferSchema([{ l: [] }, { l: [null] }])).toStrictEqual({ l: field.list(field.string()) });
    expect(inferSchema([{ m: new Map() }])).toStrictEqual({ m: field.map(field.string(), field.string()) });
    expect(inferSchema([{ n: null }, { n: undefined }, {}])).toStrictEqual({ n: field.string() });
  });

  test('Map → MAP of the key and value types; null values allowed', () => {
    expect(inferSchema([{ m: new Map([['a', 1], ['b', null]]) }, { m: new Map([['c', 2.5]]) }]))
      .toStrictEqual({ m: field.map(field.string(), field.double()) });
    expect(inferSchema([{ m: new Map([[1n, [true]]]) }])).toStrictEqual({ m: field.map(field.int64(), field.list(field.boolean())) });
  });

  test('plain objects → STRUCT of the union of keys in first-seen order; top-level keys likewise', () => {
    const rows = [{ b: { y: 1 } }, { a: 'x', b: { x: true, y: 2 } }, { b: null }, { b: { z: [1n] } }, { c: Object.assign(Object.create(null), { k: 1 }) }];
    expect(inferSchema(rows)).toStrictEqual({
      b: field.struct({ y: field.int32(), x: field.boolean(), z: field.list(field.int64()) }),
      a: field.string(),
      c: field.struct({ k: field.int32() }),
    });
  });

  test('the inferred spec is a valid schema (every field OPTIONAL, map keys REQUIRED)', () => {
    const spec = inferSchema([{ a: 1, l: [{ x: 'q' }], m: new Map([['k', new Date(1)]]) }]);
    const tree = buildSchemaTree(schemaElements(spec));
    expect(tree.columns.map((c) => [c.pathString, c.maxDef, c.maxRep])).toStrictEqual([
      ['a', 1, 0], ['l.list.element.x', 4, 1], ['m.key_value.key', 2, 1], ['m.key_value.value', 3, 1],
    ]);
  });

  test('a __proto__ key (as JSON.parse makes) is an ordinary field', () => {
    const spec = inferSchema([JSON.parse('{"__proto__": {"x": 1}, "a": 1}') as Record<string, unknown>]);
    expect(Object.keys(spec)).toStrictEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(spec)).toBe(Object.prototype);
    expect(schemaElements(spec).map((e) => e.name)).toStrictEqual(['schema', '__proto__', 'x', 'a']);
  });

  test('no rows → no fields', () => {
    expect(inferSchema([])).toStrictEqual({});
  });
});

describe('errors', () => {
  test('mixed types name the column, both types with their rows, and suggest an override', () => {
    inferenceError(() => inferSchema([{ a: 1 }, { a: null }, { a: 'x' }]),
      /column 'a' has mixed types: number \(row 0\) and string \(row 2\); give it one type with overrides: \{ 'a': field\.double\(\) \}/);
    inferenceError(() => inferSchema([{ a: 1 }, { a: 1n }]), /column 'a' has mixed types: number \(row 0\) and bigint \(row 1\)/);
    inferenceError(() => inferSchema([{ a: new Date() }, { a: '2020-01-01' }]), /column 'a' has mixed types: Date \(row 0\) and string \(row 1\)/);
    inferenceError(() => inferSchema([{ a: [1] }, { a: { x: 1 } }]), /column 'a' has mixed types: array \(row 0\) and object \(row 1\)/);
    inferenceError(() => inferSchema([{ a: new Uint8Array(1) }, { a: [1] }]), /column 'a' has mixed types: Uint8Array \(row 0\) and array \(row 1\)/);
    inferenceError(() => inferSchema([{ s: { l: [1, 'x'] } }]), /column 's\.l\.list\.element' has mixed types: number \(row 0\) and string \(row 0\)/);
    inferenceError(() => inferSchema([{ m: new Map([['a', true]]) }, { m: new Map([['b', 0]]) }]), /column 'm\.key_value\.value' has mixed types: boolean \(row 0\) and number \(row 1\)/);
    inferenceError(() => inferSchema([{ m: new Map([['a', 1]]) }, { m: new Map([[2, 1]]) }]), /column 'm\.key_value\.key' has mixed types: string \(row 0\) and number \(row 1\)/);
  });

  test('rows that are not plain objects', () => {
    inferenceError(() => inferSchema([{ a: 1 }, null as unknown as Record<string, unknown>]), /row 1 is null, expected a plain object/);
    inferenceError(() => inferSchema([[1] as unknown as Record<string, unknown>]), /row 0 is an array, expected a plain object/);
    inferenceError(() => inferSchema([5 as unknown as Record<string, unknown>]), /row 0 is a number, expected a plain object/);
    inferenceError(() => inferSchema([new Map() as unknown as Record<string, unknown>]), /row 0 is a Map, expected a plain object/);
    class Row { a = 1; }
    inferenceError(() => inferSchema([new Row() as unknown as Record<string, unknown>]), /row 0 is a Row, expected a plain object/);
  });

  test('values without an inferable type', () => {
    class Point { x = 1; }
    const cases: [unknown, RegExp][] = [
      [new Set([1]), /cannot infer a type for a Set/], [new Int32Array(2), /cannot infer a type for a Int32Array/],
      [new Point(), /cannot infer a type for a Point/], [() => 1, /cannot infer a type for a function/], [Symbol('s'), /cannot infer a type for a symbol/],
      [new ArrayBuffer(2), /cannot infer a type for a ArrayBuffer/],
    ];
    for (const [v, message] of cases) inferenceError(() => inferSchema([{ s: { v } }]), new RegExp(`column 's\\.v' \\(row 0\\): ${message.source}.*overrides: \\{ 's\\.v'`));
  });

  test('bigints outside INT64 and unsigned INT64', () => {
    inferenceError(() => inferSchema([{ a: 2n ** 64n }]), /column 'a' \(row 0\): bigint values do not fit INT64 or unsigned INT64 \(18446744073709551616 seen\)/);
    inferenceError(() => inferSchema([{ a: -(2n ** 63n) - 1n }]), /bigint values do not fit INT64/);
    inferenceError(() => inferSchema([{ a: -1n }, { a: 2n ** 63n }]), /column 'a' \(row 1\): bigint values do not fit .* with negatives and values above 2\^63-1/);
    inferenceError(() => inferSchema([{ a: 2n ** 63n }, { a: -1n }]), /column 'a' \(row 1\)/);
  });

  test('null map keys, empty property names, only-empty objects, cyclic values', () => {
    inferenceError(() => inferSchema([{ m: new Map([[null, 1]]) }]), /column 'm\.key_value\.key' \(row 0\): a map key is null; map keys are required/);
    inferenceError(() => inferSchema([{ s: { '': 1 } }]), /column 's' \(row 0\): an empty property name/);
    inferenceError(() => inferSchema([{ '': 1 }]), /column '\(row\)' \(row 0\): an empty property name/);
    inferenceError(() => inferSchema([{ s: {} }, { s: {} }]), /column 's' \(row 0\): only empty objects seen.*overrides: \{ 's': field\.struct/);
    const cyclic: Record<string, unknown> = { x: 1 };
    cyclic.self = cyclic;
    inferenceError(() => inferSchema([{ c: cyclic }]), /values nested deeper than 256/);
    const a: unknown[] = [];
    a.push(a);
    inferenceError(() => inferSchema([{ a }]), /values nested deeper than 256/);
  });

  test('bad options and rows are INVALID_ARGUMENT; bad override specs INVALID_SCHEMA', () => {
    for (const sampleSize of [0, -1, 1.5, NaN]) expect(error(() => inferSchema([], { sampleSize })).code).toBe('INVALID_ARGUMENT');
    expect(error(() => inferSchema([], { timestampUnit: 'nanos' as 'micros' })).message).toMatch(/timestampUnit must be 'millis' or 'micros', got nanos/);
    expect(error(() => inferSchema(5 as unknown as Record<string, unknown>[])).message).toMatch(/rows must be an array or an iterable of objects, got number/);
    expect(error(() => inferSchema(null as unknown as Record<string, unknown>[])).code).toBe('INVALID_ARGUMENT');
    expect(error(() => inferSchema([], { overrides: 3 as unknown as Record<string, FieldSpec> })).code).toBe('INVALID_ARGUMENT');
    const e = error(() => inferSchema([{ a: 1 }], { overrides: { a: field.decimal(3, 5) } }));
    expect(e.code).toBe('INVALID_SCHEMA');
    expect(e.message).toMatch(/field 'a': decimal scale .* \(in inferSchema overrides\)/);
  });

  test('overrides that cannot apply', () => {
    unknownColumn(() => inferSchema([{ a: 1 }], { overrides: { 'a.b': field.int32() } }), /override 'a\.b' names no column: 'a' holds number values, not structs$/);
    inferenceError(() => inferSchema([{ a: { b: 1 } }], { overrides: { a: field.struct({ b: field.int64() }), 'a.b': field.int32() } }),
      /override 'a\.b' lies under override 'a', which replaces everything below it/);
    unknownColumn(() => inferSchema([{ l: [1] }], { overrides: { 'l.element': field.int64() } }), /override 'l\.element' names no column: 'l' is a list; its element is 'l\.list\.element'$/);
  });
});

describe('overrides', () => {
  test('replace the inferred spec by top-level name and by column path', () => {
    const rows = [{ id: 1, s: { t: 5, u: 'x' }, l: [{ x: 1 }], m: new Map([['k', 1]]) }];
    expect(inferSchema(rows, {
      overrides: {
        id: field.int64({ required: true }), 's.t': field.time('millis'), 'l.list.element.x': field.int(16, true),
        'm.key_value.key': field.enum(), 'm.key_value.value': field.float(),
      },
    })).toStrictEqual({
      id: field.int64({ required: true }),
      s: field.struct({ t: field.time('millis'), u: field.string() }),
      l: field.list(field.struct({ x: field.int(16, true) })),
      m: field.map(field.enum(), field.float()),
    });
  });

  test('settle a mixed column without inspecting it', () => {
    expect(inferSchema([{ v: 1 }, { v: 'x' }, { v: { a: [new Set()] } }], { overrides: { v: field.variant() } })).toStrictEqual({ v: field.variant() });
    expect(inferSchema([{ l: [1, 'a'] }], { overrides: { 'l.list.element': field.json() } })).toStrictEqual({ l: field.list(field.json()) });
  });

  test('an override naming no column of the rows is UNKNOWN_COLUMN with the nearest path, not an all-null column', () => {
    const rows = [{ id: 1, type: 'x', s: { x: true, when: 1 } }, { id: 2, type: null, l: [{ k: 1 }], m: new Map([['a', 1]]), n: null }];
    unknownColumn(() => inferSchema(rows, { overrides: { typo: field.int32() } }),
      /^parquet-writer: schema inference: override 'typo' names no column: none of the 2 rows inspected has the key 'typo' \(columns: id, type, s, l, m, n\); did you mean 'type'\?$/);
    unknownColumn(() => inferSchema([{ a: 1 }], { overrides: { b: field.int32() } }), /the row inspected has no key 'b' \(columns: a\); did you mean 'a'\?$/);
    // nested: the struct exists, the field does not
    unknownColumn(() => inferSchema(rows, { overrides: { 's.wen': field.date() } }),
      /override 's\.wen' names no column: struct 's' has no field 'wen' in the 2 rows inspected \(its fields: x, when; to add fields, override 's' as a whole\); did you mean 's\.when'\?$/);
    unknownColumn(() => inferSchema(rows, { overrides: { 'l.list.element.y': field.date() } }), /struct 'l\.list\.element' has no field 'y'/);
    unknownColumn(() => inferSchema(rows, { overrides: { 'm.key': field.date() } }), /'m' is a map; its key and value are 'm\.key_value\.key' and 'm\.key_value\.value'/);
    unknownColumn(() => inferSchema(rows, { overrides: { 'n.x': field.date() } }), /'n' holds only nulls in the 2 rows inspected, no struct/);
    unknownColumn(() => inferSchema(rows, { overrides: { 'q.x': field.date() } }), /no column 'q' in the 2 rows inspected/);
    // an only-empty struct: override it as a whole (its error says so too)
    unknownColumn(() => inferSchema([{ s: {} }], { overrides: { 's.k': field.string() } }), /struct 's' has no field 'k' in the row inspected \(its fields: none; to add fields, override 's' as a whole\)/);
    expect(inferSchema([{ s: {} }], { overrides: { s: field.struct({ k: field.string() }) } })).toStrictEqual({ s: field.struct({ k: field.string() }) });
    // a key only seen after the sample is not a column of the inspected rows
    unknownColumn(() => inferSchema([{ a: 1 }, { a: 2, late: 'x' }], { sampleSize: 1, overrides: { late: field.string() } }), /override 'late' names no column/);
    // a key whose values are all null is a column
    expect(inferSchema([{ a: null }], { overrides: { a: field.int64() } })).toStrictEqual({ a: field.int64() });
  });

  test('with no rows to inspect, top-level overrides are the schema', () => {
    expect(inferSchema([], { overrides: { a: field.int32(), b: field.string() } })).toStrictEqual({ a: field.int32(), b: field.string() });
    unknownColumn(() => inferSchema([], { overrides: { 'a.b': field.int32() } }), /override 'a\.b' names no column: there are no rows to inspect/);
  });

  test("the reader's INTERVAL object is a struct unless overridden", () => {
    const rows = [{ iv: { months: 1, days: 2, millis: 3 } }];
    expect(inferSchema(rows)).toStrictEqual({ iv: field.struct({ months: field.int32(), days: field.int32(), millis: field.int32() }) });
    expect(inferSchema(rows, { overrides: { iv: field.interval() } })).toStrictEqual({ iv: field.interval() });
  });
});

describe('sampling', () => {
  test('only the first sampleSize rows are inspected', () => {
    const rows = [{ a: 1 }, { a: 2 }, { a: 'late', b: true }];
    expect(inferSchema(rows, { sampleSize: 2 })).toStrictEqual({ a: field.int32() });
    expect(inferSchema(rows, { sampleSize: Infinity, overrides: { a: field.string() } })).toStrictEqual({ a: field.string(), b: field.boolean() });
  });

  test('an iterator is read only as far as the sample (and closed)', () => {
    let pulled = 0;
    let closed = false;
    function* gen(): Generator<Record<string, unknown>> {
      try {
        for (let i = 0; i < 100; i++) {
          pulled++;
          yield { i };
        }
      } finally {
        closed = true;
      }
    }
    expect(inferSchema(gen(), { sampleSize: 3 })).toStrictEqual({ i: field.int32() });
    expect(pulled).toBe(3);
    expect(closed).toBe(true);
    expect(inferSchema(new Set([{ x: 'a' }]))).toStrictEqual({ x: field.string() });
  });
});

// ---- property: random typed columns infer to the type their values call for (stated independently) ----

type ColumnKind = 'number' | 'bigint' | 'string' | 'boolean' | 'date' | 'bytes' | 'list' | 'struct';
const valueOf: Record<ColumnKind, fc.Arbitrary<unknown>> = {
  number: fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.double(), fc.constantFrom(-0, 2 ** 31, 0.5)),
  bigint: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }),
  string: fc.string(),
  boolean: fc.boolean(),
  date: fc.date(),
  bytes: fc.uint8Array({ maxLength: 4 }),
  list: fc.array(fc.option(fc.integer({ min: -5, max: 5 }), { nil: null }), { maxLength: 3 }),
  struct: fc.record({ p: fc.option(fc.string(), { nil: null }), q: fc.option(fc.boolean(), { nil: undefined }) }, { requiredKeys: [] }),
};

/** The spec a column's values call for, or null when they call for a SCHEMA_INFERENCE error. */
function expectedSpec(kind: ColumnKind, values: unknown[]): FieldSpec | null {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length === 0) return field.string();
  switch (kind) {
    case 'number': {
      const int32 = present.every((v) => Number.isInteger(v) && (v as number) >= -(2 ** 31) && (v as number) <= 2 ** 31 - 1 && !Object.is(v, -0));
      return int32 ? field.int32() : field.double();
    }
    case 'bigint': {
      const unsigned = present.some((v) => (v as bigint) >= 2n ** 63n);
      if (unsigned && present.some((v) => (v as bigint) < 0n)) return null; // fits neither INT64 nor UINT64
      return unsigned ? field.int(64, false) : field.int64();
    }
    case 'string': return field.string();
    case 'boolean': return field.boolean();
    case 'date': return field.timestamp('millis');
    case 'bytes': return field.binary();
    case 'list': {
      const elements = (present as (number | null)[][]).flat().filter((v) => v !== null);
      return field.list(elements.length === 0 ? field.string() : field.int32());
    }
    case 'struct': {
      const keys: string[] = [];
      for (const o of present as Record<string, unknown>[]) for (const k of Object.keys(o)) if (!keys.includes(k)) keys.push(k);
      if (keys.length === 0) return null; // only empty objects: no group can hold them
      const fields: Record<string, FieldSpec> = {};
      for (const k of keys) {
        const vs = (present as Record<string, unknown>[]).map((o) => o[k]).filter((v) => v !== null && v !== undefined);
        fields[k] = vs.length === 0 ? field.string() : k === 'p' ? field.string() : field.boolean();
      }
      return field.struct(fields);
    }
  }
}

test('property: every column infers to the type its values call for, and the result is a valid schema', () => {
  const kinds: ColumnKind[] = ['number', 'bigint', 'string', 'boolean', 'date', 'bytes', 'list', 'struct'];
  const columnArb = fc.constantFrom(...kinds).chain((kind) => fc.tuple(fc.constant(kind), fc.array(fc.option(valueOf[kind], { nil: null }), { minLength: 1, maxLength: 12 })));
  fc.assert(fc.property(fc.array(columnArb, { minLength: 1, maxLength: 5 }), (columns) => {
    const n = columns[0]![1].length;
    const rows = Array.from({ length: n }, (_, r) => Object.fromEntries(columns.map(([, vs], c) => [`c${c}`, vs[r % vs.length]])));
    const expected: Record<string, FieldSpec> = {};
    let failure = false;
    columns.forEach(([kind], c) => {
      const spec = expectedSpec(kind, rows.map((row) => row[`c${c}`]));
      if (spec === null) failure = true;
      else expected[`c${c}`] = spec;
    });
    if (failure) {
      expect(error(() => inferSchema(rows)).code).toBe('SCHEMA_INFERENCE');
      return;
    }
    const spec = inferSchema(rows);
    expect(spec).toStrictEqual(expected);
    buildSchemaTree(schemaElements(spec));
  }), { numRuns: 400 });
});

// ---- the reader's rows: values read from corpus files infer as the module header says ----

// The reader is not a dependency of this package: a non-literal specifier keeps the typecheck independent of it,
// and vitest resolves it to the reader's source through the workspace aliases.
const READER = '@parquetry/parquet-reader';
interface ReaderModule {
  openParquet(bytes: Uint8Array, options: { codecs: unknown }): Promise<{ readRows(): Promise<Record<string, unknown>[]> }>;
}

const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/parquet-testing/data');
const HAVE_DATA = fs.existsSync(DATA);
if (!HAVE_DATA) console.warn(`parquet-writer schema-infer: ${DATA} not found; corpus inference tests are skipped`);

describe.skipIf(!HAVE_DATA)("rows the reader returns (parquet-testing)", () => {
  const rowsOf = async (f: string): Promise<Record<string, unknown>[]> => {
    const { openParquet } = (await import(/* @vite-ignore */ READER)) as ReaderModule;
    return (await openParquet(new Uint8Array(fs.readFileSync(path.join(DATA, f))), { codecs: builtinCodecs() })).readRows();
  };

  test('alltypes_plain: INT32 → number → INT32, INT64/INT96 → bigint → INT64, FLOAT → number → DOUBLE, unannotated binary → BYTE_ARRAY', async () => {
    const spec = inferSchema(await rowsOf('alltypes_plain.parquet'));
    expect(spec).toStrictEqual({
      id: field.int32(), bool_col: field.boolean(), tinyint_col: field.int32(), smallint_col: field.int32(), int_col: field.int32(),
      bigint_col: field.int64(), float_col: field.double(), double_col: field.double(), date_string_col: field.binary(),
      string_col: field.binary(), timestamp_col: field.int64(),
    });
  });

  test('nested_maps: Map of Map of boolean; a DOUBLE column of integral values infers INT32 (the same numbers read back)', async () => {
    const rows = await rowsOf('nested_maps.snappy.parquet');
    expect(rows.map((r) => r.c)).toStrictEqual([1, 1, 1, 1, 1, 1]);
    expect(inferSchema(rows)).toStrictEqual({
      a: field.map(field.string(), field.map(field.int32(), field.boolean())),
      b: field.int32(),
      c: field.int32(),
    });
  });

  test('list_columns: lists of int64 and of strings', async () => {
    expect(inferSchema(await rowsOf('list_columns.parquet'))).toStrictEqual({
      int64_list: field.list(field.int64()), utf8_list: field.list(field.string()),
    });
  });
});
