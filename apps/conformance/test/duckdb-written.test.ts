/**
 * Files written by DuckDB across its types, codecs, page versions and encodings, read by Parquetry and compared
 * value by value (canonical form, tools/peers/canon.mjs) with what DuckDB reads back from the same file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openParquet } from '@parquetry/parquet-reader';
// @ts-expect-error: plain ESM with JSDoc types
import { duckdbRows, hintTreeFromDuckDBSchema } from '../../../tools/peers/canon.mjs';
import { canonParquetryRows, canonRows } from '../src/canon-parquetry.js';
import { allCodecs } from '../src/codecs.js';
import { COLUMNS } from '../src/duckdb-columns.js';

const ROWS = 5000;

const VARIANTS: { name: string; options: string }[] = [
  { name: 'uncompressed v1', options: 'COMPRESSION uncompressed' },
  { name: 'snappy v1', options: 'COMPRESSION snappy' },
  { name: 'gzip v1', options: 'COMPRESSION gzip' },
  { name: 'zstd v1', options: 'COMPRESSION zstd' },
  { name: 'brotli v1', options: 'COMPRESSION brotli' },
  { name: 'lz4 (LZ4_RAW) v1', options: 'COMPRESSION lz4' },
  { name: 'snappy v2 (data page V2, DELTA_*, BYTE_STREAM_SPLIT)', options: 'COMPRESSION snappy, PARQUET_VERSION v2' },
  { name: 'zstd v2', options: 'COMPRESSION zstd, PARQUET_VERSION v2' },
  { name: 'uncompressed v2, no dictionary', options: "COMPRESSION uncompressed, PARQUET_VERSION v2, DICTIONARY_SIZE_LIMIT 1" },
];

let dir = '';
let con: DuckDBConnection;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-duck-'));
  con = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('DuckDB-written files read equal to DuckDB', async () => {
  const codecs = await allCodecs();
  test.each(VARIANTS.map((v, i) => [v.name, v, i] as const))('%s', async (_name, v, i) => {
    const file = path.join(dir, `f${i}.parquet`);
    await con.run(`COPY (SELECT ${COLUMNS.join(',\n')} FROM range(${ROWS}) t(i)) TO '${file}' (FORMAT parquet, ${v.options}, ROW_GROUP_SIZE 2048)`);
    const schema = hintTreeFromDuckDBSchema((await con.runAndReadAll('SELECT * FROM parquet_schema(?)', [file])).getRowObjectsJson());
    const expected = duckdbRows(await con.runAndReadAll('SELECT * FROM read_parquet(?)', [file]), schema) as Record<string, unknown>[];
    const pf = await openParquet(new Uint8Array(fs.readFileSync(file)), { codecs });
    const ours = canonParquetryRows(pf.schema, await pf.readRows());
    expect(ours.length).toBe(ROWS);
    // compare column by column so a failure names the column and first differing row
    for (const col of Object.keys(expected[0]!)) {
      const a = ours.map((r) => r[col]);
      const b = expected.map((r) => r[col]);
      if (canonRows(a) !== canonRows(b)) {
        const k = a.findIndex((x, j) => canonRows([x]) !== canonRows([b[j]]));
        expect({ column: col, row: k, value: a[k] }).toEqual({ column: col, row: k, value: b[k] });
      }
    }
  });
});
