/**
 * Names that are `Object.prototype`'s own: a column, a struct field and a key-value metadata key named `__proto__`
 * (DuckDB writes the file). On `{}`, `o['__proto__'] = v` sets the prototype instead of a key, so such a column
 * vanished from `cat`'s JSON and NDJSON rows (`--columns __proto__` printed `{}`) and `rewrite` dropped the key.
 * Compared with DuckDB's `to_json` of the same rows (its JS `getRowsJson` drops a struct field named `__proto__`
 * itself, so the text form is the reference) and `parquet_kv_metadata`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { duckRows, duckdb, lit, parseCsv, run } from './cli-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-proto-'));
const file = path.join(dir, 'proto.parquet');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  await (await duckdb()).run(`COPY (SELECT i::INTEGER AS "__proto__", 'r' || i AS x, {'__proto__': i::INTEGER, 'y': 1} AS s FROM range(3) t(i))
    TO ${lit(file)} (FORMAT parquet, KV_METADATA {'__proto__': 'kept', other: 'o'})`);
});

/** DuckDB's rows as parsed JSON objects (JSON.parse keeps a `__proto__` key as a key). */
async function duckJson(columns = '*'): Promise<unknown[]> {
  const { rows } = await duckRows(`SELECT to_json(t)::VARCHAR AS j FROM (SELECT ${columns} FROM read_parquet(${lit(file)})) t`);
  return rows.map((r) => JSON.parse(String(r['j'])) as unknown);
}
/** Each object's entries, nested, so that a `__proto__` key is compared as a key. */
function entries(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(entries);
  if (v !== null && typeof v === 'object') return Object.entries(v).map(([k, x]) => [k, entries(x)]);
  return v;
}

describe('a column named __proto__', () => {
  test('cat -f ndjson and -f json print it, as DuckDB reads it', async () => {
    const expected = entries(await duckJson());
    expect(JSON.stringify(expected)).toContain('"__proto__",0');
    const nd = await run('cat', file, '-f', 'ndjson');
    expect(nd.code).toBe(0);
    expect(entries(nd.out.map((l) => JSON.parse(l) as unknown))).toEqual(expected);
    const js = await run('cat', file, '-f', 'json');
    expect(entries(JSON.parse(js.out.join('\n')) as unknown)).toEqual(expected);
    const raw = await run('cat', file, '-f', 'ndjson', '--raw');
    expect(entries(raw.out.map((l) => JSON.parse(l) as unknown))).toEqual(expected);
  });

  test('--columns __proto__ prints the column alone (before: {})', async () => {
    const r = await run('cat', file, '-f', 'ndjson', '--columns', '__proto__');
    expect(r.out).toEqual(['{"__proto__":0}', '{"__proto__":1}', '{"__proto__":2}']);
    expect(entries(r.out.map((l) => JSON.parse(l) as unknown))).toEqual(entries(await duckJson('"__proto__"')));
  });

  test('csv and table name it in the header', async () => {
    const csv = await run('cat', file, '-f', 'csv');
    const table = parseCsv(csv.out.join('\n'));
    expect(table[0]).toEqual(['__proto__', 'x', 's']);
    expect(table.slice(1).map((r) => r[0])).toEqual(['0', '1', '2']);
    const t = await run('cat', file, '-f', 'table');
    expect(t.out[0]).toMatch(/^\s*__proto__\b/);
  });

  test('rewrite keeps a key-value metadata key named __proto__ (before: dropped)', async () => {
    const out = path.join(dir, 'rewritten.parquet');
    expect((await run('rewrite', file, out)).code).toBe(0);
    const { rows } = await duckRows(`SELECT key::VARCHAR AS k, value::VARCHAR AS v FROM parquet_kv_metadata(${lit(out)}) ORDER BY k`);
    expect(rows.map((r) => [r['k'], r['v']])).toEqual([
      ['__proto__', 'kept'],
      ['other', 'o'],
    ]);
    const meta = await run('meta', out, '--json');
    expect((JSON.parse(meta.out.join('\n')) as { key_value_metadata: unknown }).key_value_metadata).toEqual([
      { key: '__proto__', value: 'kept' },
      { key: 'other', value: 'o' },
    ]);
  });
});
