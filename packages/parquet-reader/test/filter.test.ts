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
  ['not (cat = c1)', { not: { column: 'cat', op: '=', value: 'c1' } }, "NOT (cat = 'c1') OR cat IS NULL"],
  ['cat != c2', { column: 'cat', op: '!=', value: 'c2' }, "cat != 'c2'"],
];

describe('filters', () => {
  test('the file has several row groups with statistics', () => {
    expect(file.metadata.row_groups.length).toBe(5);
    const s = file.statistics(1, 'id');
    expect(s).toMatchObject({ min: 2048n, max: 4095n, nullCount: 0, minExact: true, maxExact: true });
    expect(file.statistics(0, 'cat')?.nullCount).toBe(293);
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
    expect(reads.length).toBe(1);
    const rg2 = file.metadata.row_groups[2]!.columns[0]!.meta_data!;
    expect(reads[0]![0]).toBe(rg2.dictionary_page_offset ?? rg2.data_page_offset);
  });

  test('a filter no row group can satisfy reads nothing', async () => {
    reads = [];
    expect(await file.readRows({ filter: { column: 'id', op: '>', value: 20000n } })).toEqual([]);
    expect(reads.length).toBe(0);
  });

  test('an unknown filter column is a typed error', async () => {
    await expect(file.readRows({ filter: { column: 'nope', op: 'is null' } })).rejects.toMatchObject({ name: 'ParquetError', code: 'UNKNOWN_COLUMN' });
  });
});

describe('exact decimal comparison', () => {
  test('scales, signs, zeros and exponent-form numbers', async () => {
    const { compareDecimals } = await import('@parquetry/parquet-reader');
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
