/**
 * Filters against DuckDB's WHERE on the same file, and row-group pruning by statistics.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { bufferSource, openParquet, type Filter, type ParquetFile } from '@parquetry/parquet-reader';
import { rowOf } from './prune-arbitraries.js';

let dir = '';
let con: DuckDBConnection;
let file: ParquetFile;
let bytes: Uint8Array;
let reads: [number, number][] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-filter-'));
  const db = await DuckDBInstance.create(':memory:');
  con = await db.connect();
  const f = path.join(dir, 'f.parquet');
  // ids ascending, so each row group has a narrow id range; 'cat' has nulls
  await con.run(`COPY (SELECT i::BIGINT AS id, (i % 10)::INTEGER AS k, CASE WHEN i % 7 = 0 THEN NULL ELSE 'c' || (i % 5) END AS cat, i * 0.5 AS x
    FROM range(10240) t(i)) TO '${f}' (FORMAT parquet, ROW_GROUP_SIZE 2048, COMPRESSION snappy)`);
  bytes = new Uint8Array(fs.readFileSync(f));
  const base = bufferSource(bytes);
  file = await openParquet({ byteLength: base.byteLength, read: (s, e) => (reads.push([s, e]), base.read(s, e)) }, { codecs: builtinCodecs() });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function duck(where: string): Promise<number[]> {
  const r = await con.runAndReadAll(`SELECT id FROM '${path.join(dir, 'f.parquet')}' WHERE ${where} ORDER BY id`);
  return r.getRows().map((row) => Number(row[0]));
}

const cases: [string, Filter, string][] = [
  ['id = 5000', { column: 'id', op: '=', value: 5000n }, 'id = 5000'],
  ['id < 100', { column: 'id', op: '<', value: 100 }, 'id < 100'],
  ['id >= 10000', { column: 'id', op: '>=', value: 10000n }, 'id >= 10000'],
  ['k in (1, 3) and id > 9000', { and: [{ column: 'k', op: 'in', values: [1, 3] }, { column: 'id', op: '>', value: 9000n }] }, 'k IN (1, 3) AND id > 9000'],
  ['cat is null or x <= 2', { or: [{ column: 'cat', op: 'is null' }, { column: 'x', op: '<=', value: 2 }] }, 'cat IS NULL OR x <= 2'],
  // SQL: not of a comparison with null is unknown, so a null cat does not match (failed before: the null rows matched)
  ['not (cat = c1)', { not: { column: 'cat', op: '=', value: 'c1' } }, "NOT (cat = 'c1')"],
  ['not (cat = c1 and x <= 2)', { not: { and: [{ column: 'cat', op: '=', value: 'c1' }, { column: 'x', op: '<=', value: 2 }] } }, "NOT (cat = 'c1' AND x <= 2)"],
  ['not (cat = c1 or id < 100)', { not: { or: [{ column: 'cat', op: '=', value: 'c1' }, { column: 'id', op: '<', value: 100 }] } }, "NOT (cat = 'c1' OR id < 100)"],
  ['not not (cat in (c1, c2))', { not: { not: { column: 'cat', op: 'in', values: ['c1', 'c2'] } } }, "NOT NOT (cat IN ('c1', 'c2'))"],
  ['not (x > 1) or cat is null', { or: [{ not: { column: 'x', op: '>', value: 1 } }, { column: 'cat', op: 'is null' }] }, 'NOT (x > 1) OR cat IS NULL'],
  ['cat != c2', { column: 'cat', op: '!=', value: 'c2' }, "cat != 'c2'"],
];

describe('filters', () => {
  test('the file has several row groups with statistics', async () => {
    expect(file.metadata.row_groups.length).toBe(5);
    const s = await file.statistics(1, 'id');
    expect(s).toMatchObject({ min: 2048n, max: 4095n, nullCount: 0, minExact: true, maxExact: true });
    expect((await file.statistics(0, 'cat'))?.nullCount).toBe(293);
    // asynchronous (the decoding is a lazy part): errors are rejections, never thrown by the call
    const bad = file.statistics(99, 'id');
    expect(bad).toBeInstanceOf(Promise);
    await expect(bad).rejects.toMatchObject({ code: 'OUT_OF_RANGE' });
    await expect(file.statistics(0, 'nope')).rejects.toMatchObject({ code: 'UNKNOWN_COLUMN' });
    // values: 'json' maps the bounds (INT64 as numbers)
    expect(await file.statistics(1, 'id', { values: 'json' })).toMatchObject({ min: 2048, max: 4095 });
  });

  test.each(cases)('%s matches DuckDB', async (_name, filter, where) => {
    const rows = await file.readRows({ columns: ['id'], filter });
    expect(rows.map((r) => Number(r.id))).toEqual(await duck(where));
    // columns used only by the filter are not returned
    if (rows[0]) expect(Object.keys(rows[0])).toEqual(['id']);
  });

  test('a selective filter reads only the row group that can match', async () => {
    reads = [];
    const rows = await file.readRows({ filter: { column: 'id', op: '=', value: 5000n } });
    // x is DECIMAL(21,1) in DuckDB: an exact decimal string
    expect(rows).toEqual([{ id: 5000n, k: 0, cat: 'c0', x: '2500.0' }]);
    // one row group is read: first its filter column, then (a row matched) the other columns in one request
    expect(reads.length).toBe(2);
    const rg2 = file.metadata.row_groups[2]!.columns.map((c) => c.meta_data!);
    const startOf = (m: (typeof rg2)[number]) => m.dictionary_page_offset ?? m.data_page_offset;
    expect(reads[0]).toEqual([startOf(rg2[0]!), startOf(rg2[0]!) + rg2[0]!.total_compressed_size]);
    expect(reads[1]![0]).toBe(startOf(rg2[1]!));
  });

  test('a filter no row group can satisfy reads nothing', async () => {
    reads = [];
    expect(await file.readRows({ filter: { column: 'id', op: '>', value: 20000n } })).toEqual([]);
    expect(reads.length).toBe(0);
  });

  test('an unknown filter column is a typed error', async () => {
    await expect(file.readRows({ filter: { column: 'nope', op: 'is null' } })).rejects.toMatchObject({ name: 'ParquetError', code: 'FILTER_INVALID' });
  });
});

describe('exact decimal comparison', () => {
  test('scales, signs, zeros and exponent-form numbers', async () => {
    const { compareDecimals } = await import('@parquetry/parquet-reader/filters');
    expect(compareDecimals('2.0', 2)).toBe(0);
    expect(compareDecimals('-0.00', '0')).toBe(0);
    expect(compareDecimals('10.5', '9.99')).toBe(1);
    expect(compareDecimals('-10.5', '-9.99')).toBe(-1);
    expect(compareDecimals('0.0000001', 1e-7)).toBe(0);
    expect(compareDecimals('123456789012345678901234567890.1', 123456789012345678901234567890n)).toBe(1);
    expect(compareDecimals('abc', 1)).toBeNaN();
  });
});

describe('strings as bytes', () => {
  test("strings: 'bytes' returns the UTF-8 bytes", async () => {
    const rows = await file.readRows({ columns: ['cat'], rowEnd: 2, strings: 'bytes' });
    expect(rows).toEqual([{ cat: null }, { cat: new TextEncoder().encode('c1') }]);
  });
});

describe('filtered reads of flat columns agree with the row-assembly path', () => {
  test('same rows with and without the flat fast path, incl. row ranges and nulls', async () => {
    const filter: Filter = { or: [{ column: 'cat', op: 'is null' }, { column: 'k', op: 'in', values: [2, 9] }] };
    const fast = await file.readRows({ filter, rowStart: 100, rowEnd: 9000 });
    // the reference: read every row the slow way (no filter) and filter in the test
    const all = await file.readRows({ rowStart: 100, rowEnd: 9000 });
    const want = all.filter((r) => r.cat === null || r.k === 2 || r.k === 9);
    expect(fast).toEqual(want);
    expect(fast.length).toBeGreaterThan(1000);
  });
});

describe('filter first, then only the matching rows of every column (nested outputs)', () => {
  let nested: ParquetFile;
  let nreads: [number, number][] = [];
  beforeAll(async () => {
    const f = path.join(dir, 'nested.parquet');
    await con.run(`COPY (SELECT i::BIGINT AS id,
        CASE WHEN i % 9 = 0 THEN NULL ELSE {'a': (i % 13)::INTEGER, 'b': 's' || i} END AS st,
        CASE WHEN i % 11 = 0 THEN NULL ELSE [i, i + 1, NULL][1:(i % 4)] END AS xs,
        MAP {'k' || (i % 3): i} AS m,
        CASE WHEN i % 5 = 0 THEN NULL ELSE 'v' || i END AS s
      FROM range(6000) t(i)) TO '${f}' (FORMAT parquet, ROW_GROUP_SIZE 1000, COMPRESSION snappy)`);
    const base = bufferSource(new Uint8Array(fs.readFileSync(f)));
    nested = await openParquet({ byteLength: base.byteLength, read: (s, e) => (nreads.push([s, e]), base.read(s, e)) }, { codecs: builtinCodecs() });
  });

  const filters: [string, Filter, (r: Record<string, unknown>) => boolean][] = [
    ['id range', { and: [{ column: 'id', op: '>=', value: 2500n }, { column: 'id', op: '<', value: 2600n }] }, (r) => (r.id as bigint) >= 2500n && (r.id as bigint) < 2600n],
    ['struct leaf', { column: 'st.a', op: '=', value: 4 }, (r) => (r.st as { a: number } | null)?.a === 4],
    ['struct leaf is null (null struct)', { column: 'st.a', op: 'is null' }, (r) => r.st === null],
    ['string or', { or: [{ column: 's', op: 'is null' }, { column: 's', op: 'in', values: ['v7', 'v4000'] }] }, (r) => r.s === null || r.s === 'v7' || r.s === 'v4000'],
    ['no match anywhere', { column: 'id', op: '=', value: -1n }, () => false],
  ];

  test.each(filters)('%s: equals reading everything and filtering in the test', async (_n, filter, pred) => {
    for (const range of [{}, { rowStart: 1500, rowEnd: 4321 }]) {
      const all = await nested.readRows(range);
      const want = all.filter(pred);
      expect(await nested.readRows({ ...range, filter })).toEqual(want);
      const proj = await nested.readRows({ ...range, filter, columns: ['xs', 'm'] });
      expect(proj).toEqual(want.map((r) => ({ xs: r.xs, m: r.m })));
    }
  });

  test.each(filters)('%s: columnar reads filter the same rows', async (_n, filter) => {
    for (const range of [{}, { rowStart: 1500, rowEnd: 4321 }]) {
      const want = await nested.readRows({ ...range, filter, columns: ['id', 'xs', 'm', 's'] });
      const got: unknown[] = [];
      for (let g = 0; g < nested.metadata.row_groups.length; g++) {
        const v = await nested.readRowGroupColumns(g, { ...range, filter, columns: ['id', 'xs', 'm', 's'], binary: 'values' });
        for (let i = 0; i < v.length; i++) got.push(rowOf(v, i));
      }
      expect(got).toEqual(want);
    }
  });

  test('columnar row ranges without a filter; a filter inside a list is FILTER_UNSUPPORTED', async () => {
    const all = await nested.readRows({ rowStart: 2040, rowEnd: 2060 });
    const got: unknown[] = [];
    for (let g = 0; g < nested.metadata.row_groups.length; g++) {
      const v = await nested.readRowGroupColumns(g, { rowStart: 2040, rowEnd: 2060, binary: 'values' });
      for (let i = 0; i < v.length; i++) got.push(rowOf(v, i));
    }
    expect(got).toEqual(all);
    await expect(nested.readRowGroupColumns(0, { filter: { column: 'xs.list.element', op: '=', value: 1n } })).rejects.toMatchObject({ code: 'FILTER_UNSUPPORTED' });
  });

  test('a row group whose statistics allow a match but whose rows do not match fetches only the filter column', async () => {
    // 'v3' lies inside row group 1's string bounds (rows 2048-4095: 'v2048' to 'v4095'), but only row 3 has it
    const stats = (await nested.statistics(1, 's'))!;
    expect([stats.min! < 'v3', stats.max! > 'v3']).toEqual([true, true]);
    nreads = [];
    const rows = await nested.readRows({ rowGroups: [1], filter: { column: 's', op: '=', value: 'v3' } });
    expect(rows).toEqual([]);
    const md = nested.metadata.row_groups[1]!.columns;
    const sIdx = nested.schema.columns.findIndex((c) => c.pathString === 's');
    const sChunk = md[sIdx]!.meta_data!;
    const sStart = sChunk.dictionary_page_offset ?? sChunk.data_page_offset;
    expect(nreads).toEqual([[sStart, sStart + sChunk.total_compressed_size]]);
  });
});
