/**
 * `cat` and `tail` in every `--format` (ndjson, json, csv, table) on nested and logical-type files — a DuckDB-written
 * file of timestamps (us, ms, ns, UTC), dates, times, decimals (18 and 38 digits), 64-bit integers past 2^53, UUIDs,
 * blobs, lists, maps and structs, and corpus files of nested lists and maps, decimals in every physical type and
 * INT96 timestamps — against DuckDB's rows of the same file.
 *
 * Each printed value is parsed back from its format (a JSON value; a CSV field, nested values being JSON text in it
 * and null an unquoted empty field; a table cell cut at the column widths of the rule line, NULL for null) and
 * compared with DuckDB's after both are normalised by `canon` (cli-helpers.ts), typed by DuckDB's column type:
 * integers and decimals as exact digits (DuckDB prints DECIMAL with its scale's trailing zeros, we print the
 * column's digits), timestamps as nanoseconds since the epoch (DuckDB prints `2024-01-01 00:00:00+00` where we print
 * ISO-8601 `2024-01-01T00:00:00.000000Z`; a TIMESTAMP is microseconds in DuckDB, so an INT96 value is compared at
 * microseconds), times as nanoseconds since midnight, binary as bytes (DuckDB's `\xHH` escapes, our base64), maps as
 * their entries sorted by key (DuckDB gives a list of {key, value}, we give an object when the keys are text, whose
 * integer-like keys JavaScript orders by value), and floats as JavaScript numbers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { canon, corpus, duckRows, duckdb, lit, parseCsv, run } from './cli-helpers.js';
import { DuckDBTypeId } from '@duckdb/node-api';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-formats-'));
const logical = path.join(dir, 'logical.parquet');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const db = await duckdb();
  await db.run("SET TimeZone = 'UTC'");
  await db.run(`COPY (
    SELECT i AS id,
      TIMESTAMP '2024-02-29 12:34:56.789012' + to_seconds(i * 86399) AS ts,
      (TIMESTAMP '1969-12-31 23:59:59.999' + to_milliseconds(i * 1001))::TIMESTAMP_MS AS ts_ms,
      CASE WHEN i % 5 = 0 THEN NULL ELSE make_timestamp_ns(1704067200123456789 + i * 3001) END AS ts_ns,
      TIMESTAMPTZ '2000-01-01 00:00:00+00' + to_seconds(i * 7777) AS tstz,
      DATE '1999-12-31' + i::INTEGER AS d,
      TIME '00:00:01.5' + to_seconds(i * 37) AS t,
      CASE WHEN i % 7 = 0 THEN NULL ELSE ((i * 12345 - 99999)::DECIMAL(18, 3) / 7)::DECIMAL(18, 3) END AS dec,
      ('12345678901234567890.0123456789'::DECIMAL(38, 10) * (i - 3))::DECIMAL(38, 10) AS dec38,
      (9007199254740993 * (i % 3 - 1) + i)::BIGINT AS big,
      ('00000000-0000-4000-8000-' || lpad(i::VARCHAR, 12, '0'))::UUID AS u,
      CASE WHEN i % 4 = 0 THEN NULL ELSE ('\\x00\\xFFab' || i::VARCHAR)::BLOB END AS b,
      CASE WHEN i % 3 = 0 THEN NULL ELSE range(i % 4)::INTEGER[] END AS l,
      MAP {'k' || (i % 3): i, 'z': -i} AS m,
      CASE WHEN i % 9 = 0 THEN NULL ELSE MAP {(i % 5)::INTEGER: 'v' || i, 10 - (i % 5): NULL} END AS mi,
      {'x': i / 4, 'y': CASE WHEN i % 2 = 0 THEN ['a', NULL, 'it''s'] ELSE [] END} AS st,
      [{'p': i, 'q': [1.5, NULL]}, NULL] AS ls,
      CASE WHEN i % 8 = 0 THEN NULL WHEN i % 8 = 1 THEN '' ELSE 'text, "quoted"' || i END AS s
    FROM range(40) t(i)
  ) TO ${lit(logical)} (FORMAT parquet, ROW_GROUP_SIZE 16)`);
});

type Format = 'ndjson' | 'json' | 'csv' | 'table';
const FORMATS: readonly Format[] = ['ndjson', 'json', 'csv', 'table'];

/** Rows as printed in a format, parsed back: objects of JSON values (CSV and table cells as text, nested as JSON). */
function parseOutput(format: Format, lines: readonly string[], names: readonly string[], nested: ReadonlySet<string>): Record<string, unknown>[] {
  switch (format) {
    case 'ndjson':
      return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    case 'json':
      return JSON.parse(lines.join('\n')) as Record<string, unknown>[];
    case 'csv': {
      const [header, ...rows] = parseCsv(lines.length ? `${lines.join('\n')}\n` : '');
      expect(header).toEqual(names);
      return rows.map((r) => Object.fromEntries(names.map((n, k) => [n, r[k] === null ? null : nested.has(n) ? JSON.parse(r[k]!) : r[k]])));
    }
    case 'table': {
      expect(lines.at(-1)).toMatch(/^\(\d+ rows?\)$/);
      // the rule line gives the column widths
      const widths = lines[2]!.split('  ').map((w) => w.length);
      expect(widths.length).toBe(names.length);
      const cells = (line: string): string[] => {
        const out: string[] = [];
        let at = 0;
        for (const w of widths) {
          out.push(line.slice(at, at + w).trim());
          at += w + 2;
        }
        return out;
      };
      expect(cells(lines[0]!)).toEqual(names);
      return lines.slice(3, -1).map((l) => {
        const c = cells(l);
        return Object.fromEntries(names.map((n, k) => [n, c[k] === 'NULL' ? null : nested.has(n) ? JSON.parse(c[k]!) : c[k]]));
      });
    }
  }
}

const NESTED: ReadonlySet<DuckDBTypeId> = new Set([DuckDBTypeId.LIST, DuckDBTypeId.STRUCT, DuckDBTypeId.MAP, DuckDBTypeId.ARRAY]);

async function sameAsDuck(format: Format, file: string, args: readonly string[], sql: string): Promise<number> {
  const d = await duckRows(sql);
  const nested = new Set(d.names.filter((_, k) => NESTED.has(d.types[k]!.typeId)));
  const r = await run(...args, file, '--format', format);
  expect(r.err).toEqual([]);
  expect(r.code).toBe(0);
  const ours = parseOutput(format, r.out, d.names, nested);
  expect(ours.length).toBe(d.rows.length);
  ours.forEach((row, i) => {
    expect(Object.keys(row)).toEqual(d.names);
    d.names.forEach((n, k) => {
      const t = d.types[k]!;
      expect(canon(row[n], t, 'ours'), `${format} row ${i} ${n}`).toBe(canon(d.rows[i]![n], t, 'duck'));
    });
  });
  return ours.length;
}

/** The files: ours written by DuckDB, and corpus files DuckDB reads. */
const FILES: [name: string, file: () => string][] = [
  ['DuckDB logical types', () => logical],
  ['nested_maps.snappy', () => path.join(corpus, 'nested_maps.snappy.parquet')],
  ['nested_lists.snappy', () => path.join(corpus, 'nested_lists.snappy.parquet')],
  ['list_columns', () => path.join(corpus, 'list_columns.parquet')],
  ['nullable.impala', () => path.join(corpus, 'nullable.impala.parquet')],
  ['fixed_length_decimal', () => path.join(corpus, 'fixed_length_decimal.parquet')],
  ['int32_decimal', () => path.join(corpus, 'int32_decimal.parquet')],
  ['int64_decimal', () => path.join(corpus, 'int64_decimal.parquet')],
  ['byte_array_decimal', () => path.join(corpus, 'byte_array_decimal.parquet')],
  ['alltypes_plain (INT96)', () => path.join(corpus, 'alltypes_plain.parquet')],
  ['datapage_v2.snappy', () => path.join(corpus, 'datapage_v2.snappy.parquet')],
];

describe('cat and tail in every format equal DuckDB', () => {
  for (const [name, file] of FILES) {
    for (const format of FORMATS) {
      test(`${name}: cat --format ${format}`, async () => {
        const n = await sameAsDuck(format, file(), ['cat'], `SELECT * FROM ${lit(file())}`);
        expect(n).toBeGreaterThan(0);
      });
      test(`${name}: tail -n 5 --format ${format}`, async () => {
        const [{ n }] = (await duckRows(`SELECT count(*)::INTEGER AS n FROM ${lit(file())}`)).rows as [{ n: number }];
        expect(await sameAsDuck(format, file(), ['tail', '-n', '5'], `SELECT * FROM ${lit(file())} OFFSET ${Math.max(0, n - 5)}`)).toBe(Math.min(5, n));
      });
    }
  }

  test('--raw with -f csv and -f table: a binary cell holds its text, not JSON quotes (QA helper-84 F15), as without --raw', async () => {
    const sql = `SELECT hex(b) AS b FROM ${lit(logical)} LIMIT 8`;
    const d = await duckRows(sql);
    const want = d.rows.map((r) => (r['b'] === null ? '' : String(r['b']).toLowerCase()));
    for (const flags of [[], ['--raw']]) {
      const r = await run('cat', logical, '--columns', 'b', '-n', '8', '--binary', 'hex', '-f', 'csv', ...flags);
      expect(r.code).toBe(0);
      expect(r.out[0]).toBe('b');
      expect(r.out.slice(1), flags.join(' ')).toEqual(want);
      const t = await run('cat', logical, '--columns', 'b', '-n', '8', '--binary', 'hex', '-f', 'table', ...flags);
      expect(t.out.join('\n'), flags.join(' ')).not.toMatch(/"/);
    }
  });

  test('--columns with dotted paths and --binary hex: the struct part and the bytes DuckDB reads', async () => {
    const sql = `SELECT {'y': st.y} AS st, b, id FROM ${lit(logical)} LIMIT 12 OFFSET 20`;
    const d = await duckRows(sql);
    const r = await run('cat', logical, '--columns', 'st.y,b,id', '--offset', '20', '-n', '12', '--binary', 'hex');
    expect(r.code).toBe(0);
    const rows = r.out.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.length).toBe(12);
    rows.forEach((row, i) => d.names.forEach((n, k) => expect(canon(row[n], d.types[k]!, 'ours', 'hex'), `${i} ${n}`).toBe(canon(d.rows[i]![n], d.types[k]!, 'duck'))));
  });
});
