/**
 * `--columns` sets the output order of `cat`, `head` and `tail` in every `--format`, as DuckDB's `SELECT b, a` does
 * (QA helper-80 F7 on the library's reads): the CSV header and cells, the JSON / NDJSON keys and the table's columns
 * follow the list; a nested path (`s.b`) places its top-level field; a partition column of a directory goes where it
 * is named; a `--where` column left out of `--columns` is not printed. Compared with DuckDB's column names and values
 * for the same projection, on a file and a hive-partitioned directory DuckDB wrote.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DuckDBTypeId } from '@duckdb/node-api';
import { canon, duckRows, duckdb, lit, parseCsv, run } from './cli-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-order-'));
const file = path.join(dir, 'f.parquet');
const root = path.join(dir, 'ds');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const db = await duckdb();
  const select = `SELECT i::BIGINT AS id, 'n' || i AS name, (i * 1.5)::DOUBLE AS score, {'a': i::INTEGER, 'b': 'b' || i} AS s, (i % 2)::INTEGER AS p FROM range(0, 12) t(i)`;
  await db.run(`COPY (${select}) TO ${lit(file)} (FORMAT parquet, ROW_GROUP_SIZE 4)`);
  await db.run(`COPY (${select}) TO ${lit(root)} (FORMAT parquet, PARTITION_BY (p))`);
});

const fileSql = () => `read_parquet(${lit(file)})`;
const dsSql = () => `read_parquet(${lit(`${root}/**/*.parquet`)}, hive_partitioning = true)`;

/** A case: `--columns`, the SQL select list giving the same columns, the printed names. */
interface Case {
  columns: string;
  select: string;
  names: string[];
}

const FILE_CASES: Case[] = [
  { columns: 'score,name,id', select: 'score, name, id', names: ['score', 'name', 'id'] },
  { columns: 's,id', select: 's, id', names: ['s', 'id'] },
  { columns: 's.b,id', select: "struct_pack(b := s.b) AS s, id", names: ['s', 'id'] },
  { columns: 'p,id,score', select: 'p, id, score', names: ['p', 'id', 'score'] },
];
const DATASET_CASES: Case[] = [
  { columns: 'p,score,id', select: 'p, score, id', names: ['p', 'score', 'id'] },
  { columns: 'name,p', select: 'name, p', names: ['name', 'p'] },
  { columns: 'id,s,p', select: 'id, s, p', names: ['id', 's', 'p'] },
];

/** Checks every command and format against DuckDB's `SELECT` of the case (with a `--where` on a column not printed). */
async function check(target: string, from: string, c: Case): Promise<void> {
  const where = 'score > 3';
  const { names, types, rows } = await duckRows(`SELECT ${c.select} FROM ${from} WHERE ${where} ORDER BY id`);
  expect(names).toEqual(c.names);
  const expected = rows.map((r) => JSON.stringify(names.map((n, k) => (types[k]!.typeId === DuckDBTypeId.STRUCT ? JSON.stringify(r[n]) : canon(r[n], types[k]!, 'duck')))));
  for (const cmd of ['cat', 'head', 'tail']) {
    const args = [cmd, target, '--columns', c.columns, '--where', where, ...(cmd === 'cat' ? [] : ['-n', '100'])];
    const label = `${cmd} --columns ${c.columns}`;
    // NDJSON and JSON: the keys in order, and the values DuckDB gives
    const nd = await run(...args, '--format', 'ndjson');
    expect(nd.code, nd.err.join('\n')).toBe(0);
    const objs = nd.out.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const o of objs) expect(Object.keys(o), label).toEqual(c.names);
    const ours = objs.map((o) => JSON.stringify(names.map((n, k) => (types[k]!.typeId === DuckDBTypeId.STRUCT ? JSON.stringify(o[n]) : canon(o[n], types[k]!, 'ours')))));
    expect(ours.sort(), label).toEqual([...expected].sort());
    const js = await run(...args, '--format', 'json');
    for (const o of JSON.parse(js.out.join('\n')) as Record<string, unknown>[]) expect(Object.keys(o), `${label} json`).toEqual(c.names);
    // CSV: the header, and each row's cells in that order
    const csv = await run(...args, '--format', 'csv');
    const table = parseCsv(csv.out.join('\n') + '\n');
    expect(table[0], `${label} csv`).toEqual(c.names);
    expect(table.length - 1).toBe(rows.length);
    const idAt = c.names.indexOf('id');
    if (idAt >= 0) {
      for (const cells of table.slice(1)) {
        const o = objs.find((x) => String(x.id) === cells[idAt])!;
        expect(cells.map((v, k) => (v === null ? null : typeof o[c.names[k]!] === 'object' ? JSON.parse(v) : v)), `${label} csv row`).toEqual(c.names.map((n) => (typeof o[n] === 'object' ? o[n] : String(o[n]))));
      }
    }
    // table: the header line
    const t = await run(...args, '--format', 'table');
    expect(t.out[0]!.trim().split(/\s+/), `${label} table`).toEqual(c.names);
  }
}

describe('--columns sets the output order, as DuckDB SELECT', () => {
  for (const c of FILE_CASES) {
    test(`a file: --columns ${c.columns}`, async () => {
      await check(file, fileSql(), c);
    });
  }
  for (const c of DATASET_CASES) {
    test(`a directory: --columns ${c.columns}`, async () => {
      await check(root, dsSql(), c);
    });
  }
});
