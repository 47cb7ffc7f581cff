// Bloom filters the writer writes: every written value probes positive, absent values at about the asked fpp, the
// size follows the spec's formula for the chunk's distinct values (or the NDV given), bloom_filter_offset/length
// locate header + bitset, and DuckDB's parquet_bloom_probe agrees with our filters on our file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { optimalNumBytes, readColumnBloomFilterSync } from '@parquetry/parquet-bloom';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { afterAll, describe, expect, test } from 'vitest';
import { field, writeParquet } from '../src/index.js';

const codecs = builtinCodecs();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-bloom-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const schema = { id: field.int64({ required: true }), name: field.string(), x: field.double(), n: field.int32(), u: field.uuid(), flag: field.boolean() };
const uuidOf = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
const rows = Array.from({ length: 20_000 }, (_, i) => ({ id: BigInt(i) * 7919n, name: i % 10 === 0 ? null : `name-${i % 3000}`, x: i / 4, n: i % 100, u: uuidOf(i), flag: i % 2 === 0 }));

describe('bloom filters', () => {
  test('written per chunk when asked: every value probes positive, absent ones at about the fpp; sized for the distinct values', async () => {
    const bytes = await writeParquet(rows, { schema, rowGroupRows: 10_000, bloomFilter: true, columns: { n: { bloomFilter: { ndv: 5000, fpp: 0.05 } } } });
    const f = await openParquet(bytes, { codecs });
    for (const rg of f.metadata.row_groups) {
      const md = rg.columns.map((c) => c.meta_data!);
      expect(md[5]!.bloom_filter_offset).toBeUndefined(); // BOOLEAN: none
      const bf = md.slice(0, 5).map((m) => readColumnBloomFilterSync(bytes, m)!);
      // distinct values per row group: id 10,000, name 3,000 (of those present), x 10,000, n: NDV given, u 10,000
      expect(bf[0]!.numBytes).toBe(optimalNumBytes(10_000, 0.01, 1 << 20));
      expect(bf[1]!.numBytes).toBe(optimalNumBytes(3000, 0.01, 1 << 20));
      expect(bf[3]!.numBytes).toBe(optimalNumBytes(5000, 0.05, 1 << 20));
      for (const m of md.slice(0, 5)) expect(m.bloom_filter_length).toBeGreaterThan(bf[0]!.numBytes > 0 ? 32 : 0);
    }
    // every written value is in its row group's filter
    for (const [g, rg] of f.metadata.row_groups.entries()) {
      const bf = rg.columns.map((c) => readColumnBloomFilterSync(bytes, c.meta_data!));
      const part = rows.slice(g * 10_000, (g + 1) * 10_000);
      for (const r of part) {
        expect(bf[0]!.mightContainBigInt64(r.id)).toBe(true);
        if (r.name !== null) expect(bf[1]!.mightContainBytes(new TextEncoder().encode(r.name), 0, r.name.length)).toBe(true);
        expect(bf[2]!.mightContainDouble(r.x)).toBe(true);
        expect(bf[3]!.mightContainInt32(r.n)).toBe(true);
      }
      // absent ids: false positives near the fpp (0.01)
      let fp = 0;
      for (let k = 0; k < 20_000; k++) if (bf[0]!.mightContainBigInt64(BigInt(k) * 7919n + 1n)) fp++;
      expect(fp / 20_000).toBeLessThan(0.03);
    }
  });

  test("DuckDB's parquet_bloom_probe agrees with our filters", async () => {
    const file = path.join(tmp, 'b.parquet');
    fs.writeFileSync(file, await writeParquet(rows, { schema, rowGroupRows: 10_000, bloomFilter: true }));
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    const probe = async (col: string, v: string) =>
      (await c.runAndReadAll(`SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe('${file}', '${col}', ${v}) ORDER BY row_group_id`)).getRows().map((r) => r[1]);
    // present in the first row group only
    expect(await probe('id', `${7919 * 5}::BIGINT`)).toEqual([false, true]);
    expect(await probe('id', `${7919 * 15000}::BIGINT`)).toEqual([true, false]);
    expect(await probe('name', `'name-42'`)).toEqual([false, false]);
    expect(await probe('name', `'no such name'`)).toEqual([true, true]);
    expect(await probe('n', `7::INTEGER`)).toEqual([false, false]);
    expect(await probe('x', `0.25::DOUBLE`)).toEqual([false, true]);
    // and DuckDB reads the file
    const n = (await c.runAndReadAll(`SELECT count(*)::INT FROM read_parquet('${file}') WHERE id = ${7919 * 15000}`)).getRows()[0]![0];
    expect(n).toBe(1);
  });
});
