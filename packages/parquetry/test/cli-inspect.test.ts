/**
 * `parquetry pages` and `parquetry bloom` on files written with page indexes and bloom filters: the page lines
 * agree with the file's offset index and with the values each page holds, and the bloom answers agree with
 * DuckDB's parquet_bloom_probe.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { field, writeParquet } from '../src/index.js';
import { main } from '../src/node.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-inspect-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const file = path.join(tmp, 'a.parquet');

async function run(...argv: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await main(argv, (l) => lines.push(l));
  return { code, lines };
}

beforeAll(async () => {
  const rows = Array.from({ length: 10_000 }, (_, i) => ({ id: BigInt(i), name: i % 4 === 0 ? null : `name-${i % 500}`, day: new Date(Date.UTC(2024, 0, 1 + Math.floor(i / 1000))) }));
  fs.writeFileSync(file, await writeParquet(rows, { schema: { id: field.int64({ required: true }), name: field.string(), day: field.date() }, pageRows: 2500, rowGroupRows: 5000, bloomFilter: true }));
});

describe('parquetry pages / bloom', () => {
  test('pages: one line per page with its rows, nulls and bounds', async () => {
    const { code, lines } = await run('pages', file, 'id');
    expect(code).toBe(0);
    expect(lines).toEqual([
      expect.stringMatching(/^row group 0, column 'id': 2 pages, bounds ASCENDING$/),
      expect.stringMatching(/^ {2}page 0: rows 0–2499 \(2500\), \d+ bytes at \d+, nulls 0, min 0, max 2499$/),
      expect.stringMatching(/^ {2}page 1: rows 2500–4999 \(2500\), \d+ bytes at \d+, nulls 0, min 2500, max 4999$/),
      expect.stringMatching(/^row group 1, column 'id': 2 pages, bounds ASCENDING$/),
      expect.stringMatching(/^ {2}page 0: rows 0–2499 \(2500\), .*min 5000, max 7499$/),
      expect.stringMatching(/^ {2}page 1: rows 2500–4999 \(2500\), .*min 7500, max 9999$/),
    ]);
    const names = await run('pages', file, 'name');
    expect(names.lines[1]).toMatch(/nulls 625, min "name-1", max "name-99"$/);
    const all = await run('pages', file);
    expect(all.lines.filter((l) => l.startsWith('row group')).length).toBe(6);
  });

  test('bloom: per row group, agreeing with DuckDB', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    for (const [col, value, sql] of [['id', '7000', '7000::BIGINT'], ['id', '123456', '123456::BIGINT'], ['name', 'name-7', `'name-7'`], ['name', 'nobody', `'nobody'`]] as const) {
      const { code, lines } = await run('bloom', file, col, value);
      expect(code).toBe(0);
      const duck = (await c.runAndReadAll(`SELECT bloom_filter_excludes FROM parquet_bloom_probe('${file}', '${col}', ${sql}) ORDER BY row_group_id`)).getRows().map((r) => r[0]);
      expect(lines.map((l) => l.includes('definitely absent'))).toEqual(duck);
    }
  });

  test('bloom of a float zero: +0 and -0 are one value (as --where compares them), probed both ways', async () => {
    // row group 0 holds -0.0 as its only zero, row group 1 +0.0, row group 2 no zero
    const zeros = path.join(tmp, 'zeros.parquet');
    const groups = [[-0, 1.5, 2.5], [0, 3.5, 4.5], [5.5, 6.5, 7.5]];
    const rows = groups.flat().map((v, i) => ({ i, d: v, f: v }));
    fs.writeFileSync(zeros, await writeParquet(rows, { schema: { i: field.int32(), d: field.double(), f: field.float() }, rowGroupRows: 3, columns: { d: { bloomFilter: true }, f: { bloomFilter: true } } }));
    for (const col of ['d', 'f']) {
      const where = await run('cat', zeros, '-f', 'ndjson', '--where', `${col} = 0`);
      expect(where.lines.map((l) => (JSON.parse(l) as { i: number }).i)).toEqual([0, 3]);
      for (const value of ['0', '-0', '0.0', '-0.0']) {
        const { code, lines } = await run('bloom', zeros, col, value);
        expect(code).toBe(0);
        // before: row group 0 (-0.0 only) was 'definitely absent' for 0, row group 1 for -0
        expect({ col, value, lines: lines.map((l) => l.replace(/ \(\d+-byte filter\)$/, '')) }).toEqual({
          col,
          value,
          lines: ['row group 0: may contain', 'row group 1: may contain', 'row group 2: definitely absent'],
        });
      }
      // other values are probed as they are
      expect((await run('bloom', zeros, col, '1.5')).lines.map((l) => l.includes('may contain'))).toEqual([true, false, false]);
    }
  });

  test('--stats prints the scan statistics on the error stream', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['head', file, '-n', '3', '--stats'], (l) => out.push(l), { error: (l) => err.push(l) });
    expect(code).toBe(0);
    expect(out.length).toBe(3);
    expect(err[0]).toMatch(/^scan: \d+ bytes in \d+ requests \(bytes: footer \d+(, (index|bloom|dictionary|data) \d+)+; requests: footer 1(, (index|bloom|dictionary|data) \d+)+\)$/);
    expect(err[1]).toMatch(/^scan: row groups 1 read of \d+/);
    expect(err[2]).toMatch(/^scan: rows \d+ decoded, \d+ returned$/);
  });

  test('usage errors', async () => {
    expect((await run('bloom', file, 'id')).code).toBe(2);
    // an unknown column is a usage error, as in stats and --columns (QA helper-85 F7: it was exit 1)
    expect((await run('pages', file, 'nope')).code).toBe(2);
    expect((await run('bloom', file, 'id', 'abc')).code).toBe(2);
  });
});
