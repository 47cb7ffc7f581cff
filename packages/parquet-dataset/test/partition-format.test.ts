// Partition directories name the values their columns stand for, whatever form the input gives them in: a BOOLEAN
// from columnar input or an Arrow table comes as 1/0 and a TIMESTAMP or TIME as a count of its unit, and they were
// written as `b=1`, `ts=1700000000000000`, `t=86399000` (QA helper-80 F2, F3: the type, unit and zone lost). DuckDB
// reads what we write back as the same instants and flags. Also: partition columns whose directories listings hide
// (`_k`, `.k`) and values too long for a directory name are refused before anything is written.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { field, writeParquet } from '@parquetry/parquet-writer';
import { isParquetError } from '@parquetry/thrift-compact';
import { writeDataset } from '../src/node.js';
import { formatPartitionValue } from '../src/index.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-partition-format-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const con = await (await DuckDBInstance.create(':memory:')).connect();
const codecs = builtinCodecs();

/** The partition directories of a written dataset (first level). */
const dirs = (root: string) => fs.readdirSync(root).filter((d) => d.includes('=')).sort();

describe('partition directory values', () => {
  const schema = {
    id: field.int32({ required: true }),
    b: field.boolean(),
    ts: field.timestamp('micros', { utc: true }),
    t: field.time('millis'),
  };
  const rows = [
    { id: 1, b: true, ts: 1_700_000_000_000_000n, t: 86_399_000 },
    { id: 2, b: false, ts: 1_700_000_000_123_456n, t: 0 },
  ];

  test('from columnar input (BOOLEAN as 1/0, TIMESTAMP and TIME as counts): the values, as DuckDB reads them', async () => {
    const columns = await (await openParquet(await writeParquet(rows, { schema }), { codecs })).readRowGroupColumns(0);
    for (const key of ['b', 'ts', 't'] as const) {
      const root = path.join(tmp, `columnar-${key}`);
      await writeDataset(columns, root, { partitionBy: [key] });
      const got = dirs(root);
      if (key === 'b') expect(got).toEqual(['b=false', 'b=true']);
      if (key === 'ts') expect(got.map(decodeURIComponent)).toEqual(['ts=2023-11-14T22:13:20.000000Z', 'ts=2023-11-14T22:13:20.123456Z']);
      if (key === 't') expect(got.map(decodeURIComponent)).toEqual(['t=00:00:00.000', 't=23:59:59.000']);
      // DuckDB's hive partitioning reads the directory text back as the value it names
      const sql = {
        b: `SELECT id, b::BOOLEAN AS v FROM read_parquet('${root}/**/*.parquet', hive_partitioning = true) ORDER BY id`,
        ts: `SELECT id, epoch_us(ts::TIMESTAMPTZ) AS v FROM read_parquet('${root}/**/*.parquet', hive_partitioning = true) ORDER BY id`,
        t: `SELECT id, (epoch(t::TIME) * 1000)::BIGINT AS v FROM read_parquet('${root}/**/*.parquet', hive_partitioning = true) ORDER BY id`,
      }[key];
      const back = (await con.runAndReadAll(sql)).getRows().map((r) => (typeof r[1] === 'bigint' ? Number(r[1]) : r[1]));
      const want = { b: [true, false], ts: [1_700_000_000_000_000, 1_700_000_000_123_456], t: [86_399_000, 0] }[key];
      expect(back).toEqual(want);
    }
  });

  test('row input gives the same directories', async () => {
    for (const key of ['b', 'ts', 't'] as const) {
      const root = path.join(tmp, `rows-${key}`);
      await writeDataset(rows, root, { schema, partitionBy: [key] });
      expect(dirs(root)).toEqual(dirs(path.join(tmp, `columnar-${key}`)));
    }
  });

  test("partition columns named '_…' or '.…' are refused: listings hide their directories", async () => {
    for (const name of ['_k', '.k']) {
      const e = await writeDataset([{ id: 1, [name]: 'a' }], path.join(tmp, `hidden${name}`), { schema: { id: field.int32(), [name]: field.string() }, partitionBy: [name] }).then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(isParquetError(e) && e.code).toBe('INVALID_OPTION');
      expect((e as Error).message).toMatch(/hidden from dataset listings/);
    }
  });

  test('a value too long for a directory name is INVALID_PARTITION', () => {
    expect(() => formatPartitionValue('é'.repeat(60), false, 'row 0')).toThrow(expect.objectContaining({ code: 'INVALID_PARTITION', message: expect.stringMatching(/360 bytes URL-encoded, more than the 255/) }));
    expect(formatPartitionValue('é'.repeat(40), false, 'row 0')).toHaveLength(240);
  });
});
