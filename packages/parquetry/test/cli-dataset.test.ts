/**
 * The reading commands on a directory: DuckDB writes a hive-partitioned dataset in two COPYs whose schemas differ
 * (a column added, INTEGER widened to BIGINT, a null partition, a date partition), and `cat`, `head`, `tail`, `count`
 * and `schema` read it as one dataset, with the same rows as DuckDB's
 * `read_parquet('dir/**\/*.parquet', hive_partitioning = true, union_by_name = true)` (filters on partition and data
 * columns included); `--stats` shows the partition pruning; the commands that read one file refuse a directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { canon, duckRows, duckdb, lit, parseCsv, run } from './cli-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-dataset-'));
const root = path.join(dir, 'sales');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const db = await duckdb();
  await db.run(`COPY (SELECT i::INTEGER AS id, (i * 1.25)::DOUBLE AS amount, CASE WHEN i % 9 = 0 THEN NULL ELSE 'r' || (i % 3) END AS region,
      DATE '2024-01-01' + (i % 2)::INTEGER AS day FROM range(0, 90) t(i)) TO ${lit(root)} (FORMAT parquet, PARTITION_BY (region, day), ROW_GROUP_SIZE 16)`);
  await db.run(`COPY (SELECT (1000 + i)::BIGINT AS id, i / 3 AS amount, 'note ' || i AS note, 'r1' AS region, DATE '2024-01-02' AS day
      FROM range(0, 20) t(i)) TO ${lit(root)} (FORMAT parquet, PARTITION_BY (region, day), FILENAME_PATTERN 'v2_{i}', OVERWRITE_OR_IGNORE true)`);
});

const all = `read_parquet(${lit(`${root}/**/*.parquet`)}, hive_partitioning = true, union_by_name = true)`;
const COLS = ['id', 'amount', 'note', 'region', 'day'];

/** DuckDB's rows of a query, each as canonical text per column, sorted. */
async function theirs(where: string): Promise<string[]> {
  const { types, names, rows } = await duckRows(`SELECT ${COLS.join(', ')} FROM ${all} WHERE ${where}`);
  return rows.map((r) => JSON.stringify(COLS.map((c) => canon(r[c], types[names.indexOf(c)]!, 'duck')))).sort();
}

/** Our NDJSON lines as the same canonical text (typed by DuckDB's column types). */
async function ours(lines: readonly string[]): Promise<string[]> {
  const { types, names } = await duckRows(`SELECT ${COLS.join(', ')} FROM ${all} LIMIT 0`);
  return lines.map((l) => {
    const o = JSON.parse(l) as Record<string, unknown>;
    return JSON.stringify(COLS.map((c) => canon(o[c] ?? null, types[names.indexOf(c)]!, 'ours')));
  }).sort();
}

describe('a directory read as one dataset', () => {
  test('schema: the unified schema (BIGINT id, the added note), the partition columns last', async () => {
    const r = await run('schema', root);
    expect(r.code).toBe(0);
    expect(r.out.slice(1).map((l) => l.trim().split(' ').slice(0, 3).join(' '))).toEqual([
      'optional INT64 id',
      'optional DOUBLE amount',
      'optional BYTE_ARRAY note',
      'optional BYTE_ARRAY region',
      'optional INT32 day',
    ]);
  });

  const filters: [string, string][] = [
    ['', 'true'],
    [`region = 'r1'`, `region = 'r1'`],
    [`region is null`, `region IS NULL`],
    [`day >= '2024-01-02' and id < 50`, `day >= DATE '2024-01-02' AND id < 50`],
    [`note is not null`, `note IS NOT NULL`],
  ];
  for (const [where, sql] of filters) {
    test(`cat --format ndjson${where ? ` --where "${where}"` : ''}: DuckDB's rows; count agrees`, async () => {
      const r = await run('cat', root, '--format', 'ndjson', ...(where ? ['--where', where] : []));
      expect(r.err).toEqual([]);
      const expected = await theirs(sql);
      expect(r.out.length).toBe(expected.length);
      expect(await ours(r.out)).toEqual(expected);
      const c = await run('count', root, ...(where ? ['--where', where] : []));
      expect(c.out).toEqual([String(expected.length)]);
    });
  }

  test('head, tail and --offset take rows in file order; csv prints dates as YYYY-MM-DD', async () => {
    const full = (await run('cat', root, '--format', 'ndjson')).out;
    expect(full.length).toBe(110);
    expect((await run('head', root, '-n', '4', '--format', 'ndjson')).out).toEqual(full.slice(0, 4));
    expect((await run('tail', root, '-n', '3', '--format', 'ndjson')).out).toEqual(full.slice(-3));
    expect((await run('tail', root, '-n', '3', '--offset', '5', '--format', 'ndjson')).out).toEqual(full.slice(-8, -5));
    expect((await run('cat', root, '--offset', '100', '-n', '4', '--format', 'ndjson')).out).toEqual(full.slice(100, 104));
    const csv = parseCsv((await run('head', root, '-n', '2', '--format', 'csv', '--columns', 'id,day')).out.join('\n'));
    expect(csv[0]).toEqual(['id', 'day']);
    expect(csv.slice(1).every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[1] ?? ''))).toBe(true);
  });

  test('--stats: the files a partition filter rules out are never read', async () => {
    const r = await run('count', root, '--where', `region = 'r2'`, '--stats');
    const files = fs.readdirSync(root, { recursive: true }).filter((f) => String(f).endsWith('.parquet')).length;
    const r2 = fs.readdirSync(path.join(root, 'region=r2'), { recursive: true }).filter((f) => String(f).endsWith('.parquet')).length;
    expect(r.err[0]).toBe(`scan: files ${r2} read of ${files}, skipped ${files - r2} by partition, 0 by statistics; 0 footers fetched`);
  });

  test('the commands that read one file refuse a directory, naming the ones that read it (exit 2)', async () => {
    for (const cmd of [['meta'], ['stats', 'id'], ['pages'], ['bloom', 'id', '1']]) {
      const r = await run(cmd[0]!, root, ...cmd.slice(1));
      expect(r.code).toBe(2);
      expect(r.err).toEqual([`parquetry: '${root}' is a directory: ${cmd[0]} reads one file (cat, head, tail, count and schema read a directory as a dataset)`]);
    }
  });
});
