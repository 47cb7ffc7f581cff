/**
 * Untrusted input: files written by DuckDB (flat, nested, dictionary and plain, V1 and V2 pages) with bytes
 * overwritten, truncated or with random runs inserted, read every way the reader reads (rows, filtered rows,
 * columns, statistics): the only error allowed is a ParquetError, and a read never hangs. Checksums are turned
 * off for half the cases so that corrupted pages reach the decoders instead of stopping at the CRC.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet, type Filter } from '@parquetry/parquet-reader';

let dir = '';
const files: Uint8Array[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-fuzz-'));
  const con = await (await DuckDBInstance.create(':memory:')).connect();
  const sql = `SELECT i::BIGINT AS id, CASE WHEN i % 4 = 0 THEN NULL ELSE 'v' || (i % 9) END AS s, md5(i::VARCHAR) AS h,
      [i, NULL, i + 1][1:(i % 4)] AS xs, {'a': i % 5, 'b': CASE WHEN i % 3 = 0 THEN NULL ELSE i * 0.5 END} AS st,
      MAP {'k' || (i % 2): i::INTEGER} AS m
    FROM range(300) t(i)`;
  const variants = [
    `(FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 100)`,
    `(FORMAT parquet, COMPRESSION uncompressed, ROW_GROUP_SIZE 150, PARQUET_VERSION v2)`,
  ];
  for (const [k, v] of variants.entries()) {
    const f = path.join(dir, `f${k}.parquet`);
    await con.run(`COPY (${sql}) TO '${f}' ${v}`);
    files.push(new Uint8Array(fs.readFileSync(f)));
  }
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const filters: Filter[] = [
  { column: 'id', op: '<', value: 150n },
  { or: [{ column: 's', op: 'is null' }, { column: 'st.a', op: '=', value: 2 }] },
];

/** Every way of reading; returns normally or throws whatever the reader throws. */
async function readAll(bytes: Uint8Array, verifyChecksums: boolean): Promise<void> {
  const file = await openParquet(bytes, { codecs: builtinCodecs(), verifyChecksums, maxPageValues: 1 << 16 });
  const groups = file.metadata.row_groups.length;
  for (let g = 0; g < Math.min(groups, 4); g++) {
    for (let c = 0; c < file.schema.columns.length; c++) await file.statistics(g, c);
    await file.readRowGroupColumns(g);
  }
  await file.readRows();
  for (const filter of filters) await file.readRows({ filter, columns: ['xs', 'm', 'h'] });
}

async function onlyParquetErrors(bytes: Uint8Array, verifyChecksums: boolean): Promise<void> {
  try {
    await readAll(bytes, verifyChecksums);
  } catch (e) {
    const err = e as { name?: string; code?: unknown };
    if (err?.name !== 'ParquetError' || typeof err.code !== 'string') throw new Error(`not a ParquetError: ${String((e as Error)?.stack ?? e)}`);
  }
}

describe('mutated files give a ParquetError or read', () => {
  test('the unmutated files read', async () => {
    for (const b of files) await readAll(b, true);
  });

  test('overwritten bytes anywhere (biased to the data pages and the footer)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(1), fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }), fc.boolean(), async (which, edits, verify) => {
        const b = files[which]!.slice();
        for (const [at, v] of edits) b[Math.min(b.length - 1, Math.floor(at * b.length))] = v;
        await onlyParquetErrors(b, verify);
      }),
      { numRuns: 300 },
    );
  }, 240_000);

  test('truncations and inserted runs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(1), fc.double({ min: 0, max: 1, noNaN: true }), fc.uint8Array({ maxLength: 40 }), fc.boolean(), async (which, at, run, verify) => {
        const src = files[which]!;
        const cut = Math.floor(at * src.length);
        // keep the footer: insert a run into the data region (shifts every offset after it)
        const grown = new Uint8Array(src.length + run.length);
        grown.set(src.subarray(0, cut));
        grown.set(run, cut);
        grown.set(src.subarray(cut), cut + run.length);
        await onlyParquetErrors(grown, verify);
        await onlyParquetErrors(src.subarray(0, cut), verify);
      }),
      { numRuns: 150 },
    );
  }, 240_000);
});
