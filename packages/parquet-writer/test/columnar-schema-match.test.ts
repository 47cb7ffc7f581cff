// Columnar input that carries its fields (a reader's columnar read) must match the schema it is written under: struct
// member names and order at every depth, kinds, and leaf types. Columnar shredding pairs children with fields by
// position, so before this check a vector of { a, b } written under { b, a } swapped the columns' values silently, and
// a TIMESTAMP(MILLIS) vector written into a MICROS column kept its raw counts (1 s became 1 ms). pyarrow refuses
// both ("Table schema does not match schema used to create file").
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { describe, expect, test } from 'vitest';
import { rejection } from './rejection.js';
import { field, writeParquet, type SchemaSpec } from '../src/index.js';

const codecs = builtinCodecs();

async function columnsOf(schema: SchemaSpec, rows: Record<string, unknown>[]) {
  const file = await openParquet(await writeParquet(rows, { schema }), { codecs });
  return file.readRowGroupColumns(0);
}

const errorOf = (f: () => Promise<unknown>) => rejection(f());

describe('columnar input is checked against the schema it is written under', () => {
  const ab = { a: field.int32(), b: field.int32() };
  const rows = [{ a: 1, b: 2 }];

  test('the same schema, or none: written as read', async () => {
    const v = await columnsOf(ab, rows);
    for (const options of [{}, { schema: ab }]) {
      const back = await openParquet(await writeParquet(v, options), { codecs });
      expect(await back.readRows()).toEqual(rows);
    }
  });

  test('top-level fields in another order or with other names: INVALID_VECTOR', async () => {
    const v = await columnsOf(ab, rows);
    const swapped = await errorOf(() => writeParquet(v, { schema: { b: field.int32(), a: field.int32() } }));
    expect(swapped.code).toBe('INVALID_VECTOR');
    expect(swapped.message).toBe("parquet-writer: writeColumns: the root: the vector's fields (a, b) are not the schema's (b, a): columnar input is matched to the schema by position, so the names and their order must agree");
    expect((await errorOf(() => writeParquet(v, { schema: { x: field.int32(), y: field.int32() } }))).code).toBe('INVALID_VECTOR');
  });

  test('nested struct members are checked when the top level is given by name', async () => {
    const schema = { s: field.struct({ a: field.int32(), b: field.int32() }) };
    const v = await columnsOf(schema, [{ s: { a: 1, b: 2 } }]);
    const byName = { s: v.children[0]! };
    const e = await errorOf(() => writeParquet(byName as never, { schema: { s: field.struct({ b: field.int32(), a: field.int32() }) } }));
    expect(e.message).toMatch(/^parquet-writer: writeColumns: field 's': the vector's fields \(a, b\) are not the schema's \(b, a\)/);
    // and the same names pass
    expect(await (await openParquet(await writeParquet(byName as never, { schema }), { codecs })).readRows()).toEqual([{ s: { a: 1, b: 2 } }]);
  });

  test('a leaf of another type or unit: INVALID_VECTOR, not a silent reinterpretation', async () => {
    const ms = await columnsOf({ t: field.timestamp('millis', { utc: true }) }, [{ t: 1000n }]);
    const e = await errorOf(() => writeParquet(ms, { schema: { t: field.timestamp('micros', { utc: true }) } }));
    expect(e.code).toBe('INVALID_VECTOR');
    expect(e.message).toMatch(/^parquet-writer: writeColumns: field 't': the vector holds INT64 TIMESTAMP\{isAdjustedToUTC:true,unit:\{MILLIS:\{\}\}\}, the schema's column is INT64 TIMESTAMP\{isAdjustedToUTC:true,unit:\{MICROS:\{\}\}\}/);
    expect((await errorOf(() => writeParquet(ms, { schema: { t: field.timestamp('millis', { utc: false }) } }))).code).toBe('INVALID_VECTOR');
    const days = await columnsOf({ d: field.int32() }, [{ d: 19000 }]);
    expect((await errorOf(() => writeParquet(days, { schema: { d: field.date() } }))).code).toBe('INVALID_VECTOR');
    // list elements and map values too
    const l = await columnsOf({ l: field.list(field.int32()) }, [{ l: [1] }]);
    expect((await errorOf(() => writeParquet(l, { schema: { l: field.list(field.int64()) } }))).message).toMatch(/field 'l\.element': the vector holds INT32, the schema's column is INT64/);
    const m = await columnsOf({ m: field.map(field.string(), field.int32()) }, [{ m: new Map([['k', 1]]) }]);
    expect((await errorOf(() => writeParquet(m, { schema: { m: field.map(field.string(), field.double()) } }))).message).toMatch(/field 'm\.value'/);
  });

  test('a plain INT32 and an INTEGER(32, signed) annotation are the same column', async () => {
    const v = await columnsOf({ i: field.int(32, true) }, [{ i: 5 }]);
    const back = await openParquet(await writeParquet(v, { schema: { i: field.int32() } }), { codecs });
    expect(await back.readRows()).toEqual([{ i: 5 }]);
  });
});
