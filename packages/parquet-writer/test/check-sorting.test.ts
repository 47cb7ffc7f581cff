// checkSorting compares values as they are written, in the column's Parquet sort order (the spec's SortingColumn
// names "the sort order of the column"), not the JavaScript values given: a file whose footer declares
// sorting_columns must hold rows in that order, checked here against DuckDB's ORDER BY on the same file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { isParquetError } from '@parquetry/thrift-compact';
import { afterAll, describe, expect, test } from 'vitest';
import { createWriter, field, memorySink, writeParquet, type SchemaSpec } from '../src/index.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-sorting-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const db = await (await DuckDBInstance.create(':memory:')).connect();

async function errorOf(f: () => Promise<unknown>): Promise<{ code: string; message: string } | undefined> {
  try {
    await f();
  } catch (e) {
    if (!isParquetError(e)) throw e;
    return { code: e.code, message: e.message };
  }
  return undefined;
}

let n = 0;
/**
 * Writes `rows` with `sortingColumns: [{ column: 'v', ...order }]` and `checkSorting`; returns the error, or checks
 * that the file declares the order and that DuckDB finds its rows already in that order.
 */
async function sorted(spec: SchemaSpec[string], values: unknown[], order: { descending?: boolean; nullsFirst?: boolean } = {}, columnar = false): Promise<{ code: string; message: string } | undefined> {
  const schema = { i: field.int32({ required: true }), v: spec };
  const options = { schema, sortingColumns: [{ column: 'v', ...order }], checkSorting: true };
  let bytes: Uint8Array | undefined;
  const e = await errorOf(async () => {
    bytes = columnar
      ? await writeParquet({ i: { kind: 'leaf', length: values.length, values: Int32Array.from(values, (_, k) => k) }, v: { kind: 'leaf', length: values.length, values: values as number[] } } as never, options)
      : await writeParquet(values.map((v, i) => ({ i, v })), options);
  });
  if (e) return e;
  const md = (await openParquet(bytes!, { codecs: builtinCodecs() })).metadata;
  expect(md.row_groups[0]!.sorting_columns).toEqual([{ column_idx: 1, descending: order.descending ?? false, nulls_first: order.nullsFirst ?? false }]);
  const file = path.join(tmp, `s${n++}.parquet`);
  fs.writeFileSync(file, bytes!);
  const dir = order.descending ? 'DESC' : 'ASC';
  const nulls = order.nullsFirst ? 'NULLS FIRST' : 'NULLS LAST';
  // i is the row number: ordered by v (ties by i, the written order), the rows must come back as written
  const r = await db.runAndReadAll(`SELECT list(i ORDER BY v ${dir} ${nulls}, i) = list(i ORDER BY i) AS ok FROM read_parquet('${file}')`);
  expect(r.getRows()[0]![0], `DuckDB finds the rows out of the declared order: ${JSON.stringify(values, (_, x) => (typeof x === 'bigint' ? String(x) : x))}`).toBe(true);
  return undefined;
}

const U1 = 'aaaaaaaa-0000-4000-8000-000000000000';
const U2 = 'FFFFFFFF-0000-4000-8000-000000000000';

describe('checkSorting compares written values in the column sort order', () => {
  test('DECIMAL given as strings orders by value, not as text', async () => {
    const d = field.decimal(9, 2);
    expect(await sorted(d, ['9.00', '10.00', '100.50'])).toBeUndefined();
    expect(await sorted(d, ['-2.00', '-1.00', '0.00'])).toBeUndefined();
    expect((await sorted(d, ['10.00', '9.00']))?.code).toBe('NOT_SORTED');
    expect((await sorted(d, ['-1.00', '-2.00']))?.code).toBe('NOT_SORTED');
    // on BYTE_ARRAY too (decimal-bytes order: signed big-endian of any length)
    const b = field.decimal(40, 2, { physical: 'binary' });
    expect(await sorted(b, ['-100000000000000000000.00', '-9.00', '9.00', '10.00', '100000000000000000000.00'])).toBeUndefined();
    expect((await sorted(b, ['9.00', '-10.00']))?.code).toBe('NOT_SORTED');
    // a number, a bigint-scaled string and a string in one column compare as the same decimal
    expect(await sorted(d, [1.5, '2.00', 2.25])).toBeUndefined();
  });

  test('UUID orders by its bytes whatever the case of its hex digits', async () => {
    expect(await sorted(field.uuid(), [U1, U2])).toBeUndefined();
    expect(await sorted(field.uuid(), [U1.toUpperCase(), U2.toLowerCase()])).toBeUndefined();
    const e = await sorted(field.uuid(), [U2, U1]);
    expect(e?.code).toBe('NOT_SORTED');
    expect(e?.message).toMatch(/sorting column 'v': row 1 \(0xaaaaaaaa/);
  });

  test('TIMESTAMP and DATE given in different JavaScript forms compare as one kind', async () => {
    const ts = field.timestamp('millis', { utc: true });
    expect(await sorted(ts, [new Date(1000), 2000n, new Date(3000), 4000])).toBeUndefined();
    expect((await sorted(ts, [new Date(5000), 4000n]))?.code).toBe('NOT_SORTED');
    expect(await sorted(field.date(), [new Date(Date.UTC(2024, 0, 1)), 19724, 19725n])).toBeUndefined();
    expect((await sorted(field.date(), [19725, new Date(Date.UTC(2024, 0, 1))]))?.code).toBe('NOT_SORTED');
  });

  test('unsigned integers order as unsigned', async () => {
    expect(await sorted(field.int(32, false), [5, 2_147_483_648, 4_294_967_295])).toBeUndefined();
    expect((await sorted(field.int(32, false), [3_000_000_000, 5]))?.code).toBe('NOT_SORTED');
    expect(await sorted(field.int(64, false), [1n, 9_223_372_036_854_775_808n, 18_446_744_073_709_551_615n])).toBeUndefined();
    expect((await sorted(field.int(64, false), [18_446_744_073_709_551_615n, 1n]))?.code).toBe('NOT_SORTED');
  });

  test('strings order by code point; floats with -0 equal to +0, NaN unordered', async () => {
    expect(await sorted(field.string(), ['a', 'ｚ', '😀'])).toBeUndefined();
    expect((await sorted(field.string(), ['😀', 'ｚ']))?.code).toBe('NOT_SORTED');
    expect(await sorted(field.double(), [-1, -0, 0, -0, 2])).toBeUndefined();
    const e = await sorted(field.double(), [1, NaN]);
    expect(e?.code).toBe('NOT_SORTED');
    expect(e?.message).toMatch(/row 1: cannot order NaN after 1/);
    expect(await sorted(field.float16(), [-2, -0, 0, 0.5, 65504])).toBeUndefined();
    expect((await sorted(field.float16(), [1, 0.5]))?.code).toBe('NOT_SORTED');
  });

  test('descending and nulls first or last', async () => {
    expect(await sorted(field.int32(), [null, 3, 2, 2, 1], { descending: true, nullsFirst: true })).toBeUndefined();
    expect(await sorted(field.int32(), [1, 2, null, null], {})).toBeUndefined();
    const e = await sorted(field.int32(), [1, null, 2], {});
    expect(e?.message).toMatch(/row 2 \(2\) is out of the declared ascending order \(nulls last\) after null/);
    expect((await sorted(field.int32(), [1, 2], { descending: true }))?.code).toBe('NOT_SORTED');
  });

  test('columnar input is checked as rows are', async () => {
    expect(await sorted(field.int32({ required: true }), [1, 2, 3], {}, true)).toBeUndefined();
    const e = await sorted(field.int32({ required: true }), [3, 1, 2], {}, true);
    expect(e?.code).toBe('NOT_SORTED');
    expect(e?.message).toMatch(/row 1 \(1\)/);
  });

  test('across slices and calls: the order carries over, and restarts at each row group', async () => {
    const schema = { v: field.int64({ required: true }) };
    const opts = { schema, sortingColumns: [{ column: 'v' }], checkSorting: true };
    const w = createWriter(memorySink(), opts);
    await w.write(Array.from({ length: 10_000 }, (_, i) => ({ v: BigInt(i) })));
    const e = await errorOf(() => w.write([{ v: 9_998n }]));
    expect(e?.code).toBe('NOT_SORTED');
    expect(e?.message).toMatch(/row 10000 \(9998\) is out of the declared ascending order after 9999/);
    // a new row group may start low again
    const ok = await writeParquet(Array.from({ length: 30 }, (_, i) => ({ v: BigInt(i % 10) })), { ...opts, rowGroupRows: 10 });
    expect((await openParquet(ok, { codecs: builtinCodecs() })).metadata.row_groups).toHaveLength(3);
  });

  test('nested non-repeated leaves are checked; list leaves and unordered types are INVALID_OPTION', async () => {
    const schema = { s: field.struct({ a: field.int32() }), l: field.list(field.int32()), t: field.int96() };
    const rows = [{ s: null, l: [], t: 0n }, { s: { a: null }, l: [], t: 0n }, { s: { a: 1 }, l: [], t: 0n }, { s: { a: 0 }, l: [], t: 0n }];
    const e = await errorOf(() => writeParquet(rows, { schema, sortingColumns: [{ column: 's.a', nullsFirst: true }], checkSorting: true }));
    expect(e?.message).toMatch(/sorting column 's\.a': row 3 \(0\) is out of the declared ascending order after 1/);
    expect((await errorOf(() => writeParquet(rows, { schema, sortingColumns: [{ column: 'l.list.element' }], checkSorting: true })))?.message).toMatch(/INVALID_OPTION|inside a list or map/);
    const t = await errorOf(() => writeParquet(rows, { schema, sortingColumns: [{ column: 't' }], checkSorting: true }));
    expect(t?.code).toBe('INVALID_OPTION');
    expect(t?.message).toMatch(/'t' \(INT96\) has no sort order/);
  });
});
