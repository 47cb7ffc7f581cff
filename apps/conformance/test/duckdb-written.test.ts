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

const ROWS = 5000;
// every 7th row is NULL in nullable columns
const n = (expr: string) => `CASE WHEN i % 7 = 3 THEN NULL ELSE ${expr} END`;
const COLUMNS = [
  `${n('i % 2 = 0')} AS b`,
  `${n('(i % 256 - 128)::TINYINT')} AS i8`,
  `${n('(i * 37 % 65536 - 32768)::SMALLINT')} AS i16`,
  `${n('((hash(i) % 4294967296)::BIGINT - 2147483648)::INTEGER')} AS i32`,
  `${n('(hash(i)::HUGEINT - 9223372036854775808)::BIGINT')} AS i64`,
  `${n('(i % 256)::UTINYINT')} AS u8`,
  `${n('(i * 31 % 65536)::USMALLINT')} AS u16`,
  `${n('(hash(i) % 4294967296)::UINTEGER')} AS u32`,
  `${n('hash(i)::UBIGINT')} AS u64`,
  `${n('(i / 7.0)::FLOAT')} AS f32`,
  `${n("CASE WHEN i % 11 = 0 THEN 'NaN'::DOUBLE WHEN i % 13 = 0 THEN '-Infinity'::DOUBLE ELSE i / 3.0 - 100 END")} AS f64`,
  `${n('(i / 100.0 - 20)::DECIMAL(4,2)')} AS d4`,
  `${n('(i * 1.001 - 2500)::DECIMAL(9,3)')} AS d9`,
  `${n('(hash(i) % 100000000000 / 1000000.0)::DECIMAL(18,6)')} AS d18`,
  `${n("('-' || (hash(i) % 1000000000000000000)::VARCHAR || '.0123456789')::DECIMAL(38,10)")} AS d38`,
  `${n("'s' || (i % 97)")} AS low_card`,
  `${n("md5(i::VARCHAR) || CASE WHEN i % 5 = 0 THEN 'é✓😀' ELSE '' END")} AS high_card`,
  `${n("encode(md5(i::VARCHAR))")} AS bin`,
  `${n("DATE '1900-01-01' + (i * 13)::INTEGER")} AS dt`,
  `${n("TIME '00:00:00' + to_microseconds(i * 17000123)")} AS tm`,
  `${n("TIMESTAMP '1969-12-31 23:00:00' + to_microseconds(i * 1000000007)")} AS ts_us`,
  `${n("(TIMESTAMP '2000-01-01' + to_milliseconds(i * 1234567))::TIMESTAMP_MS")} AS ts_ms`,
  `${n("(TIMESTAMP '2000-01-01' + to_microseconds(i * 1234567))::TIMESTAMP_NS")} AS ts_ns`,
  `${n("(TIMESTAMP '2000-01-01' + to_microseconds(i * 7654321))::TIMESTAMPTZ")} AS ts_tz`,
  `${n("md5(i::VARCHAR)::UUID")} AS id_uuid`,
  `${n("to_months(i % 13) + to_days(i % 31) + to_microseconds(i * 1000)")} AS iv`,
  `${n("[i, i + 1, NULL][1:(i % 4)]")} AS list_i`,
  `${n("['a' || i, NULL, 'c'][1:(i % 4)]")} AS list_s`,
  `${n("[[i], [], [i, NULL]][1:(i % 3)]")} AS nested_list`,
  `${n("{'x': i, 'y': " + n("'y' || i") + ", 'z': {'w': i % 3 = 0}}")} AS st`,
  `${n("MAP {('k' || (i % 5)): i, 'other': " + n('i * 2') + "}")} AS m`,
  `${n("[{'a': i, 'b': [i::VARCHAR]}]")} AS list_struct`,
];

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
