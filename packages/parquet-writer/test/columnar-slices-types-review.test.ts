// Review companion of columnar-slices-review.test.ts for the fixed-width and signed-order kinds: 140,000 rows of
// FLOAT16, UUID, INT96, DECIMAL (FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY: signed order), FIXED_LEN_BYTE_ARRAY, DATE and
// TIMESTAMP columns with nulls, written by rows and then again through writeColumns in 65,536-row slices and row
// groups of 100,000 rows: our reader reads the columnar file as the input, DuckDB reads both files as the same rows,
// and each chunk's min/max equal the extremes of the input under each type's sort order (test/arbitraries.ts orders),
// null counts exact.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { openParquet } from '@parquetry/parquet-reader';
import { afterAll, expect, test } from 'vitest';
import { createWriter, field, memorySink, writeParquet, type SchemaSpec } from '../src/index.js';
import { decimalString, halfToNumber, orderOf, prng, uuidString } from './arbitraries.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-slices-types-review-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const N = 140_000;
const schema: SchemaSpec = {
  h: field.float16(),
  u: field.uuid(),
  t96: field.int96(),
  dfx: field.decimal(30, 4),
  dbin: field.decimal(20, 2, { physical: 'binary' }),
  fx: field.fixed(5),
  dt: field.date(),
  ts: field.timestamp('micros'),
};


function makeRows(): Record<string, unknown>[] {
  const r = prng(7);
  const big = (digits: number) => {
    let x = 0n;
    for (let k = 0; k < digits; k++) x = x * 10n + BigInt(Math.floor(r() * 10));
    return r() < 0.5 ? -x : x;
  };
  return Array.from({ length: N }, (_, i) => {
    const ub = new Uint8Array(16);
    for (let k = 0; k < 16; k++) ub[k] = r() < 0.2 ? 0xff : Math.floor(r() * 256);
    const fb = new Uint8Array(5);
    for (let k = 0; k < 5; k++) fb[k] = r() < 0.3 ? 0x80 : Math.floor(r() * 256);
    // FLOAT16 bit patterns without NaN (NaN bounds are not comparable)
    let hb = Math.floor(r() * 0x10000);
    if ((hb & 0x7c00) === 0x7c00) hb &= 0xfbff;
    return {
      h: i % 7 === 0 ? null : halfToNumber(hb),
      u: i % 11 === 0 ? null : uuidString(ub),
      t96: i % 5 === 0 ? null : BigInt(Math.floor(r() * 2e9) - 1e9) * 1_000_003n,
      dfx: i % 13 === 0 ? null : decimalString(big(1 + (i % 30)), 4),
      dbin: i % 3 === 0 ? null : decimalString(big(1 + (i % 20)), 2),
      fx: i % 17 === 0 ? null : fb,
      dt: i % 19 === 0 ? null : Math.floor(r() * 40000) - 20000,
      ts: i % 23 === 0 ? null : BigInt(Math.floor(r() * 2e15) - 1e15),
    };
  });
}

test('fixed-width and signed-order columns over several slices: values, DuckDB, chunk bounds', async () => {
  const rows = makeRows();
  const a = await writeParquet(rows, { schema, compression: 'UNCOMPRESSED' });
  const fa = await openParquet(a);
  const sink = memorySink();
  const w = createWriter(sink, { schema, compression: 'UNCOMPRESSED', rowGroupRows: 100_000, pageSize: 8192 });
  await w.writeColumns(await fa.readRowGroupColumns(0));
  await w.close();
  const b = sink.bytes();
  const f = await openParquet(b);
  const back = await f.readRows();
  const front = await fa.readRows();
  expect(back.length).toBe(N);
  expect(front).toEqual(rows);
  expect(back).toEqual(rows);

  const pa = path.join(tmp, 'a.parquet');
  const pb = path.join(tmp, 'b.parquet');
  fs.writeFileSync(pa, a);
  fs.writeFileSync(pb, b);
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const q = async (sql: string) => Number((await c.runAndReadAll(sql)).getRows()[0]![0]);
  expect(await q(`SELECT count(*) FROM read_parquet('${pb}')`)).toBe(N);
  expect(await q(`SELECT count(*) FROM (SELECT * FROM read_parquet('${pa}') EXCEPT ALL SELECT * FROM read_parquet('${pb}'))`)).toBe(0);
  expect(await q(`SELECT count(*) FROM (SELECT * FROM read_parquet('${pb}') EXCEPT ALL SELECT * FROM read_parquet('${pa}'))`)).toBe(0);

  const names = Object.keys(schema);
  let base = 0;
  for (let g = 0; g < f.metadata.row_groups.length; g++) {
    const n = f.metadata.row_groups[g]!.num_rows;
    const group = rows.slice(base, base + n);
    const stats = await Promise.all(names.map((_, ci) => f.statistics(g, ci)));
    names.forEach((name, ci) => {
      const st = stats[ci]!;
      const where = `row group ${g}, column ${name}`;
      const vals = group.map((row) => row[name]).filter((v) => v !== null);
      expect(st.nullCount, where).toBe(n - vals.length);
      const cmp = orderOf(schema[name]!);
      if (cmp === undefined) return; // INT96: no order, no bounds to check
      const sorted = [...vals].sort(cmp);
      expect(cmp(st.min, sorted[0]), `${where}: min ${String(st.min)} vs ${String(sorted[0])}`).toBe(0);
      expect(cmp(st.max, sorted[sorted.length - 1]), `${where}: max ${String(st.max)} vs ${String(sorted[sorted.length - 1])}`).toBe(0);
    });
    base += n;
  }
  expect(base).toBe(N);
  expect(f.metadata.row_groups.length).toBe(2);
}, 120_000);
