/**
 * A schema inferred from the first rows of a write must not drop keys that first appear later: such a key (a
 * top-level key, or a struct member at any depth — in lists and map values too) is `UNKNOWN_COLUMN` naming the key's
 * path and row, the rows the schema came from and the fix (a schema, or a larger `infer.sampleSize`), as the CLI's
 * `convert` reports it. Map keys are data, not fields. With an explicit schema (or under an override) extra keys are
 * still ignored, as pyarrow does. Before, `b` and `nested.y` vanished without a word.
 */
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { isParquetError } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { createWriter, field, inferRowSchema, memorySink, writeParquet, type InferOptions, type Row } from '../src/index.js';

/** The error of `f`, or undefined. */
function errorOf(f: () => void): unknown {
  try {
    f();
    return undefined;
  } catch (e) {
    return e;
  }
}

/** Infers from the first write's rows and checks every write as the writer does (file row numbers run on). */
function check(writes: readonly (readonly Row[])[], options?: InferOptions): unknown {
  const { checkKeys } = inferRowSchema(writes[0]!, options);
  let firstRow = 0;
  return errorOf(() => {
    for (const rows of writes) {
      checkKeys(rows, 0, rows.length, firstRow);
      firstRow += rows.length;
    }
  });
}

const unknown = (path: string, row: number, sampled: number) =>
  new RegExp(`^parquet-writer: row ${row}: key '${path.replace(/\./g, '\\.')}' is not a column of the schema inferred from the first ${sampled} rows? \\(no schema option was given\\).*give the schema option.*or a larger infer\\.sampleSize`);

describe('inferRowSchema: the check of later rows', () => {
  test('a top-level key and a struct member first seen after the sample are UNKNOWN_COLUMN with the path and row', () => {
    const e = check([[{ a: 1, nested: { x: 1 } }], [{ a: 2, b: 'kept?', nested: { x: 2, y: 'kept?' } }]]);
    expect(isParquetError(e) && e.code).toBe('UNKNOWN_COLUMN');
    expect((e as Error).message).toMatch(unknown('b', 1, 1));
    const nested = check([[{ a: 1, nested: { x: 1 } }], [{ a: 2 }, { nested: { y: 'lost', x: 2 } }]]);
    expect((nested as Error).message).toMatch(unknown('nested.y', 2, 1));
  });

  test('sampleSize: rows of the first write past the sample are checked, the sampled rows are not', () => {
    const rows = [{ a: 1 }, { a: 2 }, { a: 3, nested: { x: 1 } }];
    expect((check([rows], { sampleSize: 2 }) as Error).message).toMatch(unknown('nested', 2, 2));
    expect(check([rows], { sampleSize: 3 })).toBeUndefined();
    // a slice that starts inside the sample
    const { checkKeys } = inferRowSchema([{ a: 1 }, { a: 2, b: 1 }, { a: 3, c: 1 }], { sampleSize: 2 });
    expect(errorOf(() => checkKeys([{ a: 2, b: 1 }, { a: 3, c: 1 }], 0, 2, 1))).toMatchObject({ code: 'UNKNOWN_COLUMN', message: expect.stringMatching(/row 2: key 'c'/) });
    expect(errorOf(() => checkKeys([{ a: 2, b: 1 }, { a: 3, c: 1 }], 0, 1, 1))).toBeUndefined();
  });

  test('struct members in list elements and map values at any depth; map keys are data', () => {
    const list = check([[{ items: [{ p: 1 }] }], [{ items: [{ p: 2 }, null, { p: 3, q: 4 }] }]]);
    expect((list as Error).message).toMatch(unknown('items.list.element.q', 1, 1));
    const deep = check([[{ l: [[{ s: { t: 1 } }]] }], [{ l: [[{ s: { t: 1, u: 2 } }]] }]]);
    expect((deep as Error).message).toMatch(unknown('l.list.element.list.element.s.u', 1, 1));
    const mapValue = check([[{ m: new Map([['k1', { v: 1 }]]) }], [{ m: new Map([['k2', { v: 2, w: 3 }]]) }]]);
    expect((mapValue as Error).message).toMatch(unknown('m.key_value.value.w', 1, 1));
    // new map keys, in a Map or a plain object of entries: data
    expect(check([[{ m: new Map([['k1', 1]]) }], [{ m: new Map([['k2', 2], ['k3', 3]]) }, { m: { k4: 4 } }]])).toBeUndefined();
  });

  test('no error: keys in another order, missing keys, undefined values, values of another shape (left to the shredder)', () => {
    const first = [{ a: 1, b: 's', nested: { x: 1, y: 2 } }];
    expect(check([first, [{ nested: { y: 2, x: 1 }, b: 't', a: 2 }, {}, { a: 3, c: undefined, nested: { z: undefined } }, { nested: 'not an object' }, { nested: [1] }]])).toBeUndefined();
    // a null value of a new key is still a key the schema lacks
    expect((check([first, [{ a: 1, c: null }]]) as Error).message).toMatch(unknown('c', 1, 1));
    // inherited keys are not the row's
    const proto = Object.create({ inherited: 1 }) as Record<string, unknown>;
    proto['a'] = 1;
    expect(check([first, [proto]])).toBeUndefined();
  });

  test('keys under an override are the caller\'s schema: not checked', () => {
    const overrides = { nested: field.struct({ x: field.int32() }) };
    expect(check([[{ a: 1, nested: { x: 1 } }], [{ a: 2, nested: { x: 2, y: 3 } }]], { overrides })).toBeUndefined();
    // an override must name a column of the inspected rows: one first seen in a later write is UNKNOWN_COLUMN at once
    const e = errorOf(() => inferRowSchema([{ a: 1 }], { overrides: { extra: field.string() } }));
    expect(isParquetError(e) && e.code).toBe('UNKNOWN_COLUMN');
    expect((e as Error).message).toMatch(/override 'extra' names no column: the row inspected has no key 'extra' \(columns: a\)$/);
  });

  test('inferSchema gives the same spec', async () => {
    const { inferSchema } = await import('../src/index.js');
    const rows = [{ a: 1, s: { t: 'x' }, l: [1.5] }];
    expect(inferRowSchema(rows).spec).toEqual(inferSchema(rows));
    expect(inferRowSchema(rows).sampled).toBe(1);
    expect(inferRowSchema(rows.values(), { sampleSize: 1 }).sampled).toBe(1);
  });
});

const codecs = builtinCodecs();

// the writer runs the check through inferRowSchema's checkKeys (writer.ts ensureEngine/writeRowSlice)
describe('the writer without a schema option', () => {
  test('createWriter: a key first seen in a later write is UNKNOWN_COLUMN, and nothing is written', async () => {
    const sink = memorySink();
    const w = createWriter(sink);
    await w.write([{ a: 1, nested: { x: 1 } }]);
    const err = await w.write([{ a: 2, b: 'lost', nested: { x: 2, y: 'lost' } }]).then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ code: 'UNKNOWN_COLUMN' });
    expect((err as Error).message).toMatch(unknown('b', 1, 1));
    await expect(w.close()).rejects.toMatchObject({ code: 'WRITER_FAILED' });
  });

  test('writeParquet with infer.sampleSize: a struct member first seen after the sample is UNKNOWN_COLUMN', async () => {
    const rows = [{ a: 1, nested: { x: 1 } }, { a: 2, nested: { x: 2, y: 'lost' } }];
    await expect(writeParquet(rows, { infer: { sampleSize: 1 } })).rejects.toMatchObject({ code: 'UNKNOWN_COLUMN', message: expect.stringMatching(unknown('nested.y', 1, 1)) });
  });

  test('unchanged: every row sampled, new map keys, and an explicit schema that ignores extra keys', async () => {
    const rows = [{ a: 1, m: new Map([['k1', 1]]) }, { a: 2, b: 'x', m: new Map([['k2', 2]]) }];
    const f = await openParquet(await writeParquet(rows), { codecs });
    expect(await f.readRows()).toEqual([{ a: 1, m: new Map([['k1', 1]]), b: null }, { a: 2, b: 'x', m: new Map([['k2', 2]]) }]);
    const g = await openParquet(await writeParquet([{ a: 1, extra: 'ignored' }], { schema: { a: field.int32() } }), { codecs });
    expect(await g.readRows()).toEqual([{ a: 1 }]);
  });
});
