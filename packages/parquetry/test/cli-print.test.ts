/**
 * How the command line prints values as text, on files DuckDB writes: a FLOAT or DOUBLE negative zero keeps its sign
 * in every format (DuckDB prints `-0.0`; we print `-0`, JSON included: RFC 8259's grammar has `-0` and
 * `JSON.parse('-0')` is -0).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { duckRows, duckdb, lit, parseCsv, run } from './cli-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-print-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const zeros = path.join(dir, 'zeros.parquet');

beforeAll(async () => {
  const db = await duckdb();
  await db.run(`COPY (
    SELECT i, CASE WHEN i = 0 THEN '-0'::DOUBLE ELSE i::DOUBLE END AS d, '-0'::FLOAT AS f, ['-0'::DOUBLE, 1.5] AS l
    FROM range(2) t(i)
  ) TO ${lit(zeros)} (FORMAT parquet)`);
});

/** Whether a printed number is negative zero. */
const negativeZero = (v: unknown): boolean => Object.is(typeof v === 'string' ? Number(v) : v, -0);

describe('a negative zero keeps its sign (QA helper-85 F3: it printed as 0)', () => {
  test('DuckDB reads the file as -0.0', async () => {
    const { rows } = await duckRows(`SELECT d::VARCHAR AS d, f::VARCHAR AS f, l::VARCHAR AS l FROM read_parquet(${lit(zeros)}) ORDER BY i`);
    expect(rows[0]).toEqual({ d: '-0.0', f: '-0.0', l: '[-0.0, 1.5]' });
  });

  for (const raw of [[], ['--raw']]) {
    test(`ndjson and json${raw.length ? ' with --raw' : ''}: -0, read back as -0`, async () => {
      const nd = await run('cat', zeros, '-f', 'ndjson', ...raw);
      expect(nd.code).toBe(0);
      expect(nd.out[0]).toBe('{"i":0,"d":-0,"f":-0,"l":[-0,1.5]}');
      const row = JSON.parse(nd.out[0]!) as { d: number; f: number; l: number[] };
      expect([negativeZero(row.d), negativeZero(row.f), negativeZero(row.l[0])]).toEqual([true, true, true]);
      const js = await run('cat', zeros, '-f', 'json', ...raw);
      const rows = JSON.parse(js.out.join('\n')) as { d: number; f: number }[];
      expect(negativeZero(rows[0]!.d) && negativeZero(rows[1]!.f)).toBe(true);
      expect(negativeZero(rows[1]!.d)).toBe(false);
    });
  }

  test('csv and table cells: -0', async () => {
    const csv = parseCsv((await run('cat', zeros, '-f', 'csv')).out.join('\n'));
    expect(csv[1]).toEqual(['0', '-0', '-0', '[-0,1.5]']);
    const table = await run('cat', zeros, '-f', 'table');
    expect(table.out[3]!.trim().split(/\s+/)).toEqual(['0', '-0', '-0', '[-0,1.5]']);
  });

  test('stats and meta print a -0 bound as -0, meta --json too', async () => {
    const stats = await run('stats', zeros, 'f', '-f', 'csv');
    const cells = parseCsv(stats.out.join('\n'));
    const min = cells[0]!.indexOf('min');
    expect([cells[1]![min], cells[2]![min]]).toEqual(['-0', '-0']);
    const meta = await run('meta', zeros);
    expect(meta.out.filter((l) => /statistics: .*min -0/.test(l)).length).toBe(3);
    const json = JSON.parse((await run('meta', zeros, '--json')).out.join('\n')) as { row_groups: { columns: { statistics: { min: number } }[] }[] };
    expect(json.row_groups[0]!.columns.slice(1).map((c) => negativeZero(c.statistics.min))).toEqual([true, true, true]);
  });
});
