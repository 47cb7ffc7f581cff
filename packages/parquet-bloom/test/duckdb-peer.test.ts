/**
 * Peer check against DuckDB 1.5 (@duckdb/node-api), which writes split-block bloom filters
 * for dictionary-encoded columns and exposes `parquet_bloom_probe(file, column, value)`
 * returning (file_name, row_group_id, bloom_filter_excludes).
 *
 * 1. DuckDB writes a file; for every column we rebuild the filter from the column's values
 *    (read back through DuckDB) at DuckDB's size and require the identical bitset.
 * 2. DuckDB's probe and ours agree on present and absent values.
 * 3. We splice filters *we* build (from other values) into that file in place of DuckDB's,
 *    and DuckDB's probe reads ours: our values are not excluded, and its answers match ours.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { decodeThrift, readFileMetaData, type ColumnMetaData } from '@parquetry/thrift-compact';
import { bloomInsert, bloomMightContain, readBloomFilterData, serializeBloomFilter, SplitBlockBloomFilter, type BloomValue } from '../src/index.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parquet-bloom-duckdb-'));
const duckFile = path.join(dir, 'duck.parquet');
const splicedFile = path.join(dir, 'spliced.parquet');
let conn: DuckDBConnection;

// column -> SQL type for casts in probes
const COLS = { i32: 'INTEGER', i64: 'BIGINT', d: 'DOUBLE', f: 'FLOAT', s: 'VARCHAR' } as const;
type Col = keyof typeof COLS;

beforeAll(async () => {
  const db = await DuckDBInstance.create(':memory:');
  conn = await db.connect();
  // 3000 rows, 300 distinct values per column: DuckDB dictionary-encodes and writes bloom filters.
  await conn.run(`copy (select
      ((i % 300) * 7 - 1000)::INTEGER as i32,
      ((i % 300) * 1000000007 - 500000000000)::BIGINT as i64,
      ((i % 300) / 7.0)::DOUBLE as d,
      ((i % 300) / 3.0)::FLOAT as f,
      'v-' || (i % 300)::VARCHAR || '-é' as s
    from range(3000) t(i)) to '${duckFile}' (format parquet)`);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function columns(file: Uint8Array): Map<string, ColumnMetaData> {
  const len = new DataView(file.buffer, file.byteOffset).getInt32(file.length - 8, true);
  const meta = decodeThrift(readFileMetaData, file, file.length - 8 - len, file.length - 8).value;
  expect(meta.row_groups.length).toBe(1);
  return new Map(meta.row_groups[0]!.columns.map((c) => [c.meta_data!.path_in_schema.join('.'), c.meta_data!]));
}

async function distinct(col: Col): Promise<BloomValue[]> {
  const r = await conn.runAndReadAll(`select distinct ${col} from '${duckFile}'`);
  return r.getRows().map((row) => row[0] as BloomValue);
}

const literal = (col: Col, v: BloomValue): string =>
  col === 's' ? `'${String(v).replaceAll("'", "''")}'` : `CAST('${String(v)}' AS ${COLS[col]})`;

async function duckExcludes(file: string, col: Col, v: BloomValue): Promise<boolean> {
  const r = await conn.runAndReadAll(`select bloom_filter_excludes from parquet_bloom_probe('${file}', '${col}', ${literal(col, v)})`);
  const rows = r.getRows();
  expect(rows.length).toBe(1);
  return rows[0]![0] as boolean;
}

/** Values of the column's type that DuckDB did not write. */
function others(col: Col, n: number): BloomValue[] {
  const out: BloomValue[] = [];
  for (let i = 0; i < n; i++) {
    if (col === 'i32') out.push(5000 + i * 13);
    else if (col === 'i64') out.push(BigInt(i) * 31337n + 7n);
    else if (col === 'd') out.push(1000.5 + i / 9);
    else if (col === 'f') out.push(Math.fround(2000.25 + i));
    else out.push(`other-${i}`);
  }
  return out;
}

describe('DuckDB peer', () => {
  test('parquet_bloom_probe exists in this DuckDB', async () => {
    const r = await conn.runAndReadAll(`select count(*) from duckdb_functions() where function_name = 'parquet_bloom_probe'`);
    expect(Number(r.getRows()[0]![0])).toBeGreaterThan(0);
  });

  test('our filter, rebuilt from the column values at DuckDB\'s size, has the identical bitset', async () => {
    const file = new Uint8Array(fs.readFileSync(duckFile));
    const cols = columns(file);
    for (const col of Object.keys(COLS) as Col[]) {
      const cm = cols.get(col)!;
      expect(cm.bloom_filter_offset, col).toBeDefined();
      const end = cm.bloom_filter_length === undefined ? file.length : cm.bloom_filter_offset! + cm.bloom_filter_length;
      const theirs = readBloomFilterData(file, cm.bloom_filter_offset!, end);
      const values = await distinct(col);
      expect(values.length).toBe(300);
      const ours = new SplitBlockBloomFilter(theirs.header.numBytes);
      for (const v of values) bloomInsert(ours, cm.type, v);
      expect(Buffer.from(ours.bitset()).equals(Buffer.from(theirs.filter.bitset())), `${col}: bitset differs`).toBe(true);
      // and our serialization of it is byte-identical to what DuckDB wrote (header included)
      if (cm.bloom_filter_length !== undefined) {
        expect(Buffer.from(serializeBloomFilter(ours)).equals(Buffer.from(file.subarray(cm.bloom_filter_offset!, end))), `${col}: header+bitset`).toBe(true);
      }
    }
  });

  test('DuckDB\'s probe agrees with ours on present and absent values (DuckDB-written file)', async () => {
    const file = new Uint8Array(fs.readFileSync(duckFile));
    const cols = columns(file);
    for (const col of Object.keys(COLS) as Col[]) {
      const cm = cols.get(col)!;
      const f = readBloomFilterData(file, cm.bloom_filter_offset!).filter;
      const present = (await distinct(col)).slice(0, 20);
      for (const v of present) {
        expect(bloomMightContain(f, cm.type, v)).toBe(true);
        expect(await duckExcludes(duckFile, col, v), `${col} ${String(v)}`).toBe(false);
      }
      let excluded = 0;
      for (const v of others(col, 40)) {
        const ex = await duckExcludes(duckFile, col, v);
        expect(ex, `${col} ${String(v)}`).toBe(!bloomMightContain(f, cm.type, v));
        if (ex) excluded++;
      }
      expect(excluded).toBeGreaterThan(30);
    }
  });

  test('DuckDB reads filters we serialize (spliced in place of its own)', async () => {
    const file = new Uint8Array(fs.readFileSync(duckFile));
    const cols = columns(file);
    const ours = new Map<Col, SplitBlockBloomFilter>();
    for (const col of Object.keys(COLS) as Col[]) {
      const cm = cols.get(col)!;
      const numBytes = readBloomFilterData(file, cm.bloom_filter_offset!).header.numBytes;
      const f = new SplitBlockBloomFilter(numBytes);
      for (const v of others(col, 100)) bloomInsert(f, cm.type, v);
      const bytes = serializeBloomFilter(f);
      expect(bytes.length).toBe(cm.bloom_filter_length); // same size, so it fits in place
      file.set(bytes, cm.bloom_filter_offset!);
      ours.set(col, f);
    }
    fs.writeFileSync(splicedFile, file);
    for (const col of Object.keys(COLS) as Col[]) {
      const f = ours.get(col)!;
      const type = cols.get(col)!.type;
      for (const v of others(col, 100).slice(0, 25)) expect(await duckExcludes(splicedFile, col, v), `${col} ${String(v)} (ours)`).toBe(false);
      // DuckDB's own values are not in our spliced filters: DuckDB now excludes exactly what we exclude
      let excluded = 0;
      for (const v of (await distinct(col)).slice(0, 40)) {
        const ex = await duckExcludes(splicedFile, col, v);
        expect(ex, `${col} ${String(v)}`).toBe(!bloomMightContain(f, type, v));
        if (ex) excluded++;
      }
      expect(excluded).toBeGreaterThan(30);
    }
  });
});

