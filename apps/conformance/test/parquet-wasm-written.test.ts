/**
 * Files written by arrow-rs (parquet-wasm): DuckDB's typed dataset is read by parquet-wasm and written back with
 * each codec, writer version V1/V2, with and without dictionaries, and with DELTA_* / BYTE_STREAM_SPLIT forced on
 * the columns that allow them. Parquetry's read of each file must equal DuckDB's read of the same file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import * as pw from 'parquet-wasm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openParquet } from '@parquetry/parquet-reader';
// @ts-expect-error: plain ESM with JSDoc types
import { arrowRows, duckdbRows, hintTreeFromDuckDBSchema } from '../../../tools/peers/canon.mjs';
import { canonParquetryRows, canonRows } from '../src/canon-parquetry.js';
import { allCodecs } from '../src/codecs.js';
import { COLUMNS } from '../src/duckdb-columns.js';

const ROWS = 3000;
type Props = (b: pw.WriterPropertiesBuilder) => pw.WriterPropertiesBuilder;
const VARIANTS: [string, Props][] = [
  ['uncompressed V1', (b) => b.setCompression(pw.Compression.UNCOMPRESSED).setWriterVersion(pw.WriterVersion.V1)],
  ['snappy V1', (b) => b.setCompression(pw.Compression.SNAPPY).setWriterVersion(pw.WriterVersion.V1)],
  ['gzip V2', (b) => b.setCompression(pw.Compression.GZIP).setWriterVersion(pw.WriterVersion.V2)],
  ['brotli V2', (b) => b.setCompression(pw.Compression.BROTLI).setWriterVersion(pw.WriterVersion.V2)],
  ['zstd V2', (b) => b.setCompression(pw.Compression.ZSTD).setWriterVersion(pw.WriterVersion.V2)],
  ['lz4 (Hadoop) V1', (b) => b.setCompression(pw.Compression.LZ4).setWriterVersion(pw.WriterVersion.V1)],
  ['lz4_raw V2', (b) => b.setCompression(pw.Compression.LZ4_RAW).setWriterVersion(pw.WriterVersion.V2)],
  ['no dictionary, small pages V2', (b) => b.setCompression(pw.Compression.SNAPPY).setWriterVersion(pw.WriterVersion.V2).setDictionaryEnabled(false).setDataPageSizeLimit(1024)],
  [
    'DELTA_BINARY_PACKED, DELTA_BYTE_ARRAY, DELTA_LENGTH_BYTE_ARRAY, BYTE_STREAM_SPLIT',
    (b) =>
      b
        .setCompression(pw.Compression.SNAPPY)
        .setWriterVersion(pw.WriterVersion.V2)
        .setDictionaryEnabled(false)
        .setColumnEncoding('i32', pw.Encoding.DELTA_BINARY_PACKED)
        .setColumnEncoding('i64', pw.Encoding.DELTA_BINARY_PACKED)
        .setColumnEncoding('high_card', pw.Encoding.DELTA_BYTE_ARRAY)
        .setColumnEncoding('low_card', pw.Encoding.DELTA_LENGTH_BYTE_ARRAY)
        .setColumnEncoding('f64', pw.Encoding.BYTE_STREAM_SPLIT)
        .setColumnEncoding('f32', pw.Encoding.BYTE_STREAM_SPLIT),
  ],
];

let dir = '';
let con: DuckDBConnection;
let source: Uint8Array;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-wasm-'));
  con = await (await DuckDBInstance.create(':memory:')).connect();
  const f = path.join(dir, 'source.parquet');
  await con.run(`COPY (SELECT ${COLUMNS.join(',\n')} FROM range(${ROWS}) t(i)) TO '${f}' (FORMAT parquet)`);
  source = new Uint8Array(fs.readFileSync(f));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('parquet-wasm (arrow-rs) written files read equal to DuckDB', async () => {
  const codecs = await allCodecs();
  test.each(VARIANTS.map(([name, props], i) => [name, props, i] as const))('%s', async (_name, props, i) => {
    const file = path.join(dir, `w${i}.parquet`);
    const table = pw.readParquet(source);
    fs.writeFileSync(file, pw.writeParquet(table, props(new pw.WriterPropertiesBuilder()).setMaxRowGroupSize(1000).build()));
    const schema = hintTreeFromDuckDBSchema((await con.runAndReadAll('SELECT * FROM parquet_schema(?)', [file])).getRowObjectsJson());
    let expected: Record<string, unknown>[];
    try {
      expected = duckdbRows(await con.runAndReadAll('SELECT * FROM read_parquet(?)', [file]), schema) as Record<string, unknown>[];
    } catch (e) {
      // DuckDB has no Hadoop-LZ4 codec: compare with parquet-wasm's own read of the file it wrote instead
      expect(String(e)).toMatch(/LZ4|codec|compression/i);
      expected = arrowRows(tableFromIPC(pw.readParquet(new Uint8Array(fs.readFileSync(file))).intoIPCStream()), schema) as Record<string, unknown>[];
    }
    const pf = await openParquet(new Uint8Array(fs.readFileSync(file)), { codecs });
    const ours = canonParquetryRows(pf.schema, await pf.readRows());
    expect(ours.length).toBe(ROWS);
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
