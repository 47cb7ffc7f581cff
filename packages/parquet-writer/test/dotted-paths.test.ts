// Writer options that name columns by dotted path, in a schema where a field name has a dot: a top-level field `a.b`
// beside the field `b` of a struct `a`. A dotted path naming both is AMBIGUOUS_COLUMN (before, a `columns` key
// applied to both leaves and a sort column silently took the first), a path given as field names names one exactly,
// and a group path covers only the fields under that group (before, `a` also covered the top-level `a.b`).
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { Encoding } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { rejection } from './rejection.js';
import { field, writeParquet, type WriterOptions } from '../src/index.js';

const schema = { 'a.b': field.int32(), a: field.struct({ b: field.string() }) };
const rows = [
  { 'a.b': 1, a: { b: 'x' } },
  { 'a.b': 2, a: { b: 'y' } },
];
const write = (o: Partial<WriterOptions>) => writeParquet(rows, { schema, ...o } as WriterOptions);

const errorOf = (f: () => Promise<unknown>) => rejection(f());

/** Each leaf's encodings and the file's sorting columns, with the values read back. */
async function layout(bytes: Uint8Array) {
  const f = await openParquet(bytes, { codecs: builtinCodecs() });
  const rg = f.metadata.row_groups[0]!;
  expect(await f.readRows()).toEqual(rows);
  return { encodings: rg.columns.map((c) => c.meta_data!.encodings), sorting: rg.sorting_columns };
}

describe('dotted paths in writer options when a field name has a dot', () => {
  test('a columns key naming two fields is AMBIGUOUS_COLUMN; field names as JSON name one', async () => {
    const e = await errorOf(() => write({ columns: { 'a.b': { dictionary: false } } }));
    expect(e.code).toBe('AMBIGUOUS_COLUMN');
    expect(e.message).toBe(`parquet-writer: columns option 'a.b' names 2 fields (["a.b"], ["a","b"]: a field name has a dot in it); give the path as a JSON array of names, '["a.b"]' or '["a","b"]'`);
    const int = await layout(await write({ columns: { '["a.b"]': { encoding: 'DELTA_BINARY_PACKED', dictionary: false } } }));
    expect(int.encodings[0]).toContain(Encoding.DELTA_BINARY_PACKED);
    expect(int.encodings[1]).not.toContain(Encoding.DELTA_BINARY_PACKED);
    const str = await layout(await write({ columns: { '["a","b"]': { encoding: 'DELTA_BYTE_ARRAY', dictionary: false } } }));
    expect(str.encodings[0]).not.toContain(Encoding.DELTA_BYTE_ARRAY);
    expect(str.encodings[1]).toContain(Encoding.DELTA_BYTE_ARRAY);
  });

  test('a group path covers the fields under the group only', async () => {
    // DELTA_BYTE_ARRAY cannot write the INT32 top-level `a.b`: before, `a` reached it and the write failed
    const l = await layout(await write({ columns: { a: { encoding: 'DELTA_BYTE_ARRAY', dictionary: false } } }));
    expect(l.encodings[1]).toContain(Encoding.DELTA_BYTE_ARRAY);
    expect(l.encodings[0]).not.toContain(Encoding.DELTA_BYTE_ARRAY);
  });

  test('a sort column naming two leaves is AMBIGUOUS_COLUMN; an array of names picks one', async () => {
    const e = await errorOf(() => write({ sortingColumns: [{ column: 'a.b' }] }));
    expect(e.code).toBe('AMBIGUOUS_COLUMN');
    expect(e.message).toMatch(/^parquet-writer: sorting column 'a\.b' names 2 fields/);
    expect((await layout(await write({ sortingColumns: [{ column: ['a.b'] }] }))).sorting).toEqual([{ column_idx: 0, descending: false, nulls_first: false }]);
    expect((await layout(await write({ sortingColumns: [{ column: ['a', 'b'], descending: true }] }))).sorting).toEqual([{ column_idx: 1, descending: true, nulls_first: false }]);
    expect((await layout(await write({ sortingColumns: [{ column: '["a","b"]' }], checkSorting: true }))).sorting).toEqual([{ column_idx: 1, descending: false, nulls_first: false }]);
    expect((await errorOf(() => write({ sortingColumns: [{ column: ['a'] }] }))).code).toBe('UNKNOWN_COLUMN');
    expect((await errorOf(() => write({ sortingColumns: [{ column: 5 as never }] }))).message).toMatch(/column' must be a dotted path or an array of field names/);
  });

  test('schemas without dotted names: dotted paths work as before', async () => {
    const plain = { s: field.struct({ x: field.int32(), y: field.string() }) };
    const bytes = await writeParquet([{ s: { x: 1, y: 'a' } }], { schema: plain, columns: { 's.x': { encoding: 'DELTA_BINARY_PACKED', dictionary: false } }, sortingColumns: [{ column: 's.y' }] });
    const rg = (await openParquet(bytes, { codecs: builtinCodecs() })).metadata.row_groups[0]!;
    expect(rg.columns[0]!.meta_data!.encodings).toContain(Encoding.DELTA_BINARY_PACKED);
    expect(rg.sorting_columns).toEqual([{ column_idx: 1, descending: false, nulls_first: false }]);
    const e = await errorOf(() => writeParquet([{ s: { x: 1, y: 'a' } }], { schema: plain, columns: { 's.z': {} } }));
    expect(e.code).toBe('UNKNOWN_COLUMN');
  });
});
