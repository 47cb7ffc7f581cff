// STRING values order by code point — the unsigned byte order of their UTF-8, which the writer's statistics, page
// index and sort order use (LogicalTypes.md) — not by UTF-16 code unit as JavaScript's `<` does. The two differ when
// a character in U+E000–U+FFFF ('ｚ' U+FF5A, U+FFFD) meets one above U+FFFF ('😀' U+1F600). Before, the filter
// dropped 'ｚ' for `s = 'ｚ'` under statistics and page-index pruning, `s > 'ｚ'` missed '😀', and the writer's
// checkSorting refused a sorted column and accepted an unsorted one. Every filter here is compared with DuckDB's
// WHERE on the same file, with each pruning stage alone and none.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compareStrings, compareValues } from '@parquetry/parquet-column';
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { openParquet, type Filter } from '../src/index.js';

const Z = 'ｚ'; // U+FF5A: EF BD 9A
const E = '😀'; // U+1F600: F0 9F 98 80
const R = '\uFFFD'; // EF BF BD
const PUA = '\uE000'; // EE 80 80
const HAN = '𠀀'; // U+20000: F0 A0 80 80

describe('compareStrings', () => {
  test('code point order equals the byte order of the UTF-8', () => {
    const words = ['', 'a', 'ab', 'b', 'é', Z, E, R, PUA, HAN, `a${E}`, `a${Z}`, '\uD7FF', '\u0800', '\u07FF', `${E}a`, `${Z}${Z}`, 'ｚa', E + E];
    const enc = new TextEncoder();
    const bytes = (s: string) => enc.encode(s);
    const byBytes = (a: string, b: string) => {
      const x = bytes(a);
      const y = bytes(b);
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
      return x.length - y.length;
    };
    for (const a of words) for (const b of words) expect([a, b, Math.sign(compareStrings(a, b))]).toEqual([a, b, Math.sign(byBytes(a, b))]);
    expect(compareValues(Z, E)).toBe(-1);
    expect(compareValues(E, Z)).toBe(1);
    // JavaScript's own order is the other way round
    expect(Z < E).toBe(false);
  });
});

describe('filters on strings around U+FFFF agree with DuckDB', () => {
  let dir = '';
  let db: DuckDBInstance;
  let con: DuckDBConnection;
  let file = '';
  let bytes: Uint8Array;
  const values = [Z, E, 'a', 'b', R, PUA, HAN, null, `${Z}x`, 'zz'];
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-string-order-'));
    // two rows per page, two pages per row group: statistics and the page index both have bounds around U+FFFF
    bytes = await writeParquet(
      values.map((s) => ({ s })),
      { schema: { s: field.string() }, pageRows: 2, rowGroupRows: 4, compression: 'UNCOMPRESSED' },
    );
    file = path.join(dir, 's.parquet');
    fs.writeFileSync(file, bytes);
    db = await DuckDBInstance.create(':memory:');
    con = await db.connect();
  });
  afterAll(() => {
    con?.closeSync();
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  const sql = (v: string) => `'${v.replace(/'/g, "''")}'`;
  const cases: [string, Filter, string][] = [];
  for (const v of [Z, E, R, PUA, HAN, 'b', `${Z}x`]) {
    for (const op of ['=', '!=', '<', '<=', '>', '>='] as const) cases.push([`s ${op} ${JSON.stringify(v)}`, { column: 's', op, value: v }, `s ${op === '=' ? '=' : op === '!=' ? '<>' : op} ${sql(v)}`]);
  }
  cases.push([`s in [ｚ, 😀]`, { column: 's', op: 'in', values: [Z, E] }, `s IN (${sql(Z)}, ${sql(E)})`]);

  test.each(cases)('%s: the rows DuckDB returns, with every pruning stage and none', async (_name, filter, where) => {
    const duck = (await con.runAndReadAll(`SELECT s FROM read_parquet('${file}') WHERE ${where}`)).getRows().map((r) => r[0] as string);
    const f = await openParquet(bytes);
    const stages = [undefined, false, { statistics: true, dictionary: false, bloom: false, pageIndex: false }, { statistics: false, dictionary: false, bloom: false, pageIndex: true }, { statistics: false, dictionary: true, bloom: false, pageIndex: false }];
    for (const prune of stages) {
      const got = (await f.readRows({ filter, ...(prune === undefined ? {} : { prune }) })).map((r) => r.s as string);
      expect([prune, got.sort(compareStrings)]).toEqual([prune, [...duck].sort(compareStrings)]);
    }
  });

  test('checkSorting: a column sorted by code point is accepted, one sorted by UTF-16 is NOT_SORTED', async () => {
    const schema = { s: field.string({ required: true }) };
    const sorted = await writeParquet([{ s: 'a' }, { s: Z }, { s: E }], { schema, sortingColumns: [{ column: 's' }], checkSorting: true });
    expect((await openParquet(sorted)).metadata.row_groups[0]!.sorting_columns).toEqual([{ column_idx: 0, descending: false, nulls_first: false }]);
    await expect(writeParquet([{ s: 'a' }, { s: E }, { s: Z }], { schema, sortingColumns: [{ column: 's' }], checkSorting: true })).rejects.toMatchObject({ code: 'NOT_SORTED' });
  });
});
