/**
 * Column names with dots in them: a dotted path string means a field path, and a field whose own name has a dot is
 * found by it too; a path that names two columns (a field named 'a.b' beside field 'b' of a struct 'a') is
 * `AMBIGUOUS_COLUMN` wherever a string path is taken (`columns`, filters, `statistics`), never one of the two chosen
 * silently (the QA pass found `columns` took the struct's child while filters and statistics took the other).
 */
import { describe, expect, test } from 'vitest';
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { typedError } from './helpers.js';

describe('dotted names', () => {
  test('a field named a.b beside a struct a with field b: string paths are refused, array paths and indexes pick one', async () => {
    const bytes = await writeParquet([{ 'a.b': 1, a: { b: 100 } }, { 'a.b': 2, a: { b: 200 } }], { schema: { 'a.b': field.int32(), a: field.struct({ b: field.int32() }) } });
    const f = await openParquet(bytes, { codecs: builtinCodecs() });
    expect(f.schema.columns.map((c) => c.path)).toEqual([['a.b'], ['a', 'b']]);
    const e = await typedError(() => f.readRows({ columns: ['a.b'] }));
    expect(e.code).toBe('AMBIGUOUS_COLUMN');
    expect(e.message).toContain('["a.b"]');
    expect(e.message).toContain('["a","b"]');
    expect((await typedError(() => f.readRows({ filter: { column: 'a.b', op: '=', value: 1 } }))).code).toBe('AMBIGUOUS_COLUMN');
    expect((await typedError(() => f.statistics(0, 'a.b'))).code).toBe('AMBIGUOUS_COLUMN');
    expect(await f.readRows({ columns: [['a.b']] })).toEqual([{ 'a.b': 1 }, { 'a.b': 2 }]);
    expect(await f.readRows({ columns: [['a', 'b']] })).toEqual([{ a: { b: 100 } }, { a: { b: 200 } }]);
    // the group path is not ambiguous
    expect(await f.readRows({ columns: ['a'] })).toEqual([{ a: { b: 100 } }, { a: { b: 200 } }]);
    expect((await f.statistics(0, 0))?.max).toBe(2);
    expect((await f.statistics(0, 1))?.max).toBe(200);
  });

  test('a field named a.b alone: found by its name in columns, filters and statistics', async () => {
    const bytes = await writeParquet([{ 'a.b': 1, c: 'x' }, { 'a.b': 2, c: 'y' }], { schema: { 'a.b': field.int32(), c: field.string() } });
    const f = await openParquet(bytes, { codecs: builtinCodecs() });
    expect(await f.readRows({ columns: ['a.b'] })).toEqual([{ 'a.b': 1 }, { 'a.b': 2 }]);
    expect(await f.readRows({ filter: { column: 'a.b', op: '=', value: 2 } })).toEqual([{ 'a.b': 2, c: 'y' }]);
    expect((await f.statistics(0, 'a.b'))?.min).toBe(1);
  });

  test('a struct a with a field named b.c: the dotted path a.b.c finds it', async () => {
    const bytes = await writeParquet([{ a: { 'b.c': 5 } }], { schema: { a: field.struct({ 'b.c': field.int32() }) } });
    const f = await openParquet(bytes, { codecs: builtinCodecs() });
    expect(await f.readRows({ columns: ['a.b.c'] })).toEqual([{ a: { 'b.c': 5 } }]);
    expect((await typedError(() => f.readRows({ columns: ['a.b'] }))).code).toBe('UNKNOWN_COLUMN');
  });
});
