/**
 * Dataset filters naming a column by its path array (QA finding F5): files with both a top-level field `a.b` and a
 * struct `a{b}`, partitioned by `k` and by `p.q` (a partition key with a dot). `['a.b']` and `['a', 'b']` name the two
 * file columns, a one-element array names a partition column; each filter is checked against DuckDB's WHERE over the
 * same directory (`"a.b" = …`, `a.b = …`, `"p.q" = …`), with the partition and footer-statistics pruning visible in
 * the dataset's scan statistics, in readRows and in batches (rows and columns).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { field, writeParquet } from '@parquetry/parquet-writer';
import type { Filter } from '@parquetry/parquet-reader';
import { openDataset } from '../src/node.js';
import type { Dataset, DatasetScanStats } from '../src/index.js';

const codecs = builtinCodecs();
let dir = '';
let con: DuckDBConnection;
let ds: Dataset;
const PARTS = [
  ['1', 'x'],
  ['1', 'y'],
  ['2', 'x'],
  ['2', 'y'],
] as const;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-dataset-path-'));
  // 10 rows a file: "a.b" 0..39 in file order (null every 9th), a.b 1039..1000 (a null every 11th)
  for (let f = 0; f < PARTS.length; f++) {
    const [k, pq] = PARTS[f]!;
    const rows = Array.from({ length: 10 }, (_, j) => {
      const i = f * 10 + j;
      return { id: i, 'a.b': i % 9 === 4 ? null : BigInt(i), a: i % 11 === 6 ? null : { b: BigInt(1039 - i) } };
    });
    const sub = path.join(dir, `k=${k}`, `p.q=${pq}`);
    fs.mkdirSync(sub, { recursive: true });
    fs.writeFileSync(path.join(sub, 'part-0.parquet'), await writeParquet(rows, { schema: { id: field.int32({ required: true }), 'a.b': field.int64(), a: field.struct({ b: field.int64() }) } }));
  }
  con = await (await DuckDBInstance.create(':memory:')).connect();
  ds = await openDataset(dir, { codecs });
});
afterAll(() => {
  con?.closeSync();
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

async function duckIds(where: string): Promise<number[]> {
  const r = await con.runAndReadAll(`SELECT id FROM read_parquet('${dir}/**/*.parquet', hive_partitioning = true) WHERE ${where} ORDER BY id`);
  return r.getRows().map((row) => Number(row[0]));
}

/** [name, filter, DuckDB WHERE, files skipped by partition, files skipped by footer statistics] */
const cases: [string, Filter, string, number, number][] = [
  ['["a.b"] = 6', { column: ['a.b'], op: '=', value: 6n }, `"a.b" = 6`, 0, 3],
  ['["a","b"] = 1006', { column: ['a', 'b'], op: '=', value: 1006n }, `a.b = 1006`, 0, 3],
  ['["a.b"] = 1006 (the other column\'s value)', { column: ['a.b'], op: '=', value: 1006n }, `"a.b" = 1006`, 0, 4],
  ['["k"] = 2', { column: ['k'], op: '=', value: 2 }, `k = 2`, 2, 0],
  ['["p.q"] = "y"', { column: ['p.q'], op: '=', value: 'y' }, `"p.q" = 'y'`, 2, 0],
  ['"p.q" = "x" (a dotted string naming the partition key with a dot)', { column: 'p.q', op: '=', value: 'x' }, `"p.q" = 'x'`, 2, 0],
  ['["p.q"] = "x" and ["a","b"] >= 1030', { and: [{ column: ['p.q'], op: '=', value: 'x' }, { column: ['a', 'b'], op: '>=', value: 1030n }] }, `"p.q" = 'x' AND a.b >= 1030`, 2, 1],
  ['["k"] = 1 and ["a.b"] < 3 or ["a","b"] < 1004', { or: [{ and: [{ column: ['k'], op: '=', value: 1 }, { column: ['a.b'], op: '<', value: 3n }] }, { column: ['a', 'b'], op: '<', value: 1004n }] }, `(k = 1 AND "a.b" < 3) OR a.b < 1004`, 0, 2],
  ['not ["a.b"] < 30', { not: { column: ['a.b'], op: '<', value: 30n } }, `NOT ("a.b" < 30)`, 0, 0],
  ['["a.b"] is null and ["a","b"] is not null', { and: [{ column: ['a.b'], op: 'is null' }, { column: ['a', 'b'], op: 'is not null' }] }, `"a.b" IS NULL AND a.b IS NOT NULL`, 0, 0],
];

describe('dataset filters with path-array columns, against DuckDB', () => {
  test('the dataset: partition k and p.q, file columns a.b and a{b}', () => {
    expect(ds.schema.columns.map((c) => c.path)).toEqual([['id'], ['a.b'], ['a', 'b'], ['k'], ['p.q']]);
  });

  test.each(cases)('%s', async (_name, filter, where, byPartition, byStatistics) => {
    const want = await duckIds(where);
    let stats: DatasetScanStats | undefined;
    const rows = await ds.readRows({ filter, onScan: (s) => (stats = s) });
    expect(rows.map((r) => r.id)).toEqual(want);
    expect(stats!.files.skipped).toEqual({ partition: byPartition, statistics: byStatistics });
    // only partition columns out: the filter's file columns are still read (as path arrays: 'a.b' names two of them)
    expect((await ds.readRows({ filter, columns: ['k'] })).length).toBe(want.length);
    const projected = await ds.readRows({ filter, columns: ['id', ['a.b'], ['p.q']] });
    expect(projected.map((r) => Object.keys(r))).toEqual(want.map(() => ['id', 'a.b', 'p.q']));
    const batched: number[] = [];
    for await (const b of ds.iterateBatches({ filter, batchSize: 4 })) for (const r of b.rows) batched.push(r.id as number);
    expect(batched).toEqual(want);
    const columnar: number[] = [];
    for await (const b of ds.iterateBatches({ filter, batchSize: 4, form: 'columns', columns: ['id'] })) {
      const v = b.columns.children[0]!;
      for (let i = 0; i < v.length; i++) columnar.push((v as { values: ArrayLike<number> }).values[i]!);
    }
    expect(columnar).toEqual(want);
  });

  test('the dotted string a.b is ambiguous in the dataset too; an unknown path array is FILTER_INVALID naming it', async () => {
    await expect(ds.readRows({ filter: { column: 'a.b', op: '=', value: 1n } })).rejects.toMatchObject({ code: 'AMBIGUOUS_COLUMN', message: expect.stringContaining('give the filter\'s column as a path array') });
    await expect(ds.readRows({ filter: { column: ['k', 'x'], op: '=', value: 1 } })).rejects.toMatchObject({ code: 'FILTER_INVALID', message: expect.stringContaining(`no leaf column '["k","x"]'`) });
    await expect(ds.readRows({ filter: { column: ['p', 'q'], op: '=', value: 'x' } })).rejects.toMatchObject({ code: 'FILTER_INVALID', message: expect.stringContaining(`no leaf column '["p","q"]'`) });
  });
});
