/**
 * `stats COLUMN` against DuckDB: per row group, the rows, values, null and distinct counts, min and max, sizes and
 * encodings equal DuckDB's parquet_metadata() of the same file; the whole-file line equals DuckDB's count(*),
 * count(col), min(col) and max(col) (the writers here record exact bounds). Bounds are compared after `canon`
 * (cli-helpers.ts) with the column's DuckDB type: DuckDB prints them as SQL text (`2024-01-01 00:00:00`, `-50.00`),
 * we print JSON values (`2024-01-01T00:00:00.000000`, `"-50.00"`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { canon, duckRows, duckdb, lit, run, sample } from './cli-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-stats-'));
const file = path.join(dir, 's.parquet');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const db = await duckdb();
  await db.run(`COPY (
    SELECT i::BIGINT AS id,
      CASE WHEN i % 11 = 0 THEN NULL ELSE 'n' || (i * 7919 % 1000) END AS name,
      TIMESTAMP '2024-01-01' + to_seconds(i * 3601) + to_microseconds(i) AS ts,
      DATE '2023-12-25' + (i // 10)::INTEGER AS d,
      CASE WHEN i % 7 = 0 THEN NULL ELSE ((i * 37 - 5000) / 100)::DECIMAL(10, 2) END AS price,
      (((i * 31) % 17) * 0.5 - 3)::DOUBLE AS f,
      CASE WHEN i % 9 = 0 THEN NULL ELSE {'a': (i % 23)::INTEGER, 'b': CASE WHEN i % 4 = 0 THEN NULL ELSE 'b' || (i % 6) END} END AS s
    FROM range(5000) t(i)
  ) TO ${lit(file)} (FORMAT parquet, ROW_GROUP_SIZE 2048)`);
});

interface StatsRow {
  row_group: number | 'all';
  rows: number;
  values: number | null;
  nulls: number | null;
  distinct: number | null;
  min: unknown;
  max: unknown;
  exact: boolean | null;
  compressed: number | null;
  uncompressed: number | null;
  encodings: string;
}

async function statsOf(f: string, column: string): Promise<StatsRow[]> {
  const r = await run('stats', f, column, '--format', 'json');
  expect(r.err).toEqual([]);
  expect(r.code).toBe(0);
  return JSON.parse(r.out.join('\n')) as StatsRow[];
}

async function sameAsDuck(f: string, column: string, sqlColumn: string): Promise<number> {
  const F = lit(f);
  const ours = await statsOf(f, column);
  const { types } = await duckRows(`SELECT ${sqlColumn} AS c FROM ${F} LIMIT 0`);
  const t = types[0]!;
  const meta = (await duckRows(
    `SELECT row_group_id, row_group_num_rows, num_values, stats_null_count, stats_distinct_count, stats_min_value, stats_max_value, total_compressed_size, total_uncompressed_size, encodings
     FROM parquet_metadata(${F}) WHERE replace(path_in_schema, ', ', '.') = ${lit(column)} ORDER BY row_group_id`,
  )).rows;
  expect(ours.length).toBe(meta.length + 1);
  meta.forEach((m, g) => {
    const o = ours[g]!;
    expect(o.row_group).toBe(g);
    expect(o.rows).toBe(Number(m['row_group_num_rows']));
    expect(o.values).toBe(Number(m['num_values']));
    expect(o.nulls).toBe(Number(m['stats_null_count']));
    expect(o.distinct).toBe(m['stats_distinct_count'] === null ? null : Number(m['stats_distinct_count']));
    expect(canon(o.min, t, 'ours'), `row group ${g} min`).toBe(canon(m['stats_min_value'], t, 'duck'));
    expect(canon(o.max, t, 'ours'), `row group ${g} max`).toBe(canon(m['stats_max_value'], t, 'duck'));
    expect(o.compressed).toBe(Number(m['total_compressed_size']));
    expect(o.uncompressed).toBe(Number(m['total_uncompressed_size']));
    expect(o.encodings).toBe(String(m['encodings']).replaceAll(', ', ','));
  });
  const all = ours.at(-1)!;
  const [w] = (await duckRows(`SELECT count(*)::BIGINT AS n, (count(*) - count(${sqlColumn}))::BIGINT AS nulls, min(${sqlColumn}) AS lo, max(${sqlColumn}) AS hi FROM ${F}`)).rows as [Record<string, unknown>];
  expect(all.row_group).toBe('all');
  expect(all.rows).toBe(Number(w['n']));
  expect(all.nulls).toBe(Number(w['nulls']));
  expect(canon(all.min, t, 'ours')).toBe(canon(w['lo'], t, 'duck'));
  expect(canon(all.max, t, 'ours')).toBe(canon(w['hi'], t, 'duck'));
  expect(all.exact).toBe(true);
  expect(all.compressed).toBe(meta.reduce((a, m) => a + Number(m['total_compressed_size']), 0));
  expect(all.values).toBe(meta.reduce((a, m) => a + Number(m['num_values']), 0));
  expect(all.min).not.toBeNull();
  expect(all.max).not.toBeNull();
  return meta.length;
}

describe('stats COLUMN equals DuckDB parquet_metadata and aggregates', () => {
  for (const [column, sql] of [
    ['id', 'id'],
    ['name', 'name'],
    ['ts', 'ts'],
    ['d', 'd'],
    ['price', 'price'],
    ['f', 'f'],
    ['s.a', 's.a'],
    ['s.b', 's.b'],
  ] as const) {
    test(`${column} (3 row groups)`, async () => {
      expect(await sameAsDuck(file, column, sql)).toBe(3);
    });
  }

  test('the sample file, every column with statistics', async () => {
    for (const c of ['id', 'name', 'score', 'maybe', 'even', 'ts', 'rec.a', 'rec.b']) await sameAsDuck(sample, c, c);
  });

  test('a group holding one leaf names it; the other formats carry the same values', async () => {
    const viaGroup = await run('stats', sample, 'pair', '--format', 'ndjson');
    expect(viaGroup.code).toBe(0);
    const leaf = await run('stats', sample, 'pair.list.element', '--format', 'ndjson');
    expect(viaGroup.out).toEqual(leaf.out);
    const json = await statsOf(file, 'price');
    const nd = await run('stats', file, 'price', '--format', 'ndjson');
    expect(nd.out.map((l) => JSON.parse(l) as unknown)).toEqual(json);
    const table = await run('stats', file, 'price');
    expect(table.out[0]).toBe("column 'price'");
    expect(table.out[1]!.trim().split(/ +/)).toEqual(['row_group', 'rows', 'values', 'nulls', 'distinct', 'min', 'max', 'exact', 'compressed', 'uncompressed', 'encodings']);
    expect(table.out.length).toBe(3 + json.length);
    const csv = await run('stats', file, 'price', '--format', 'csv');
    expect(csv.out[0]).toBe('row_group,rows,values,nulls,distinct,min,max,exact,compressed,uncompressed,encodings');
    expect(csv.out.length).toBe(1 + json.length);
  });
});
