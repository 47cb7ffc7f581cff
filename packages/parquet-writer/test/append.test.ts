// Appending row groups: the old row groups stay byte for byte where they were, the new footer lists all of them,
// and DuckDB reads the appended file with every row. The Node sink replaces the file only on close.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { isParquetError } from '@parquetry/thrift-compact';
import { afterAll, expect, test } from 'vitest';
import { appendParquet, appendTarget, createWriter, field, writeParquet } from '../src/index.js';
import { appendFileSink } from '../src/node.js';

const codecs = builtinCodecs();
const schema = { id: field.int64({ required: true }), s: field.string() };
const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: BigInt(from + i), s: i % 5 === 0 ? null : `s${from + i}` }));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-append-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function duckRows(file: string): Promise<{ n: number; sum: string }> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const r = await c.runAndReadAll(`SELECT count(*)::BIGINT AS n, sum(id)::VARCHAR AS s FROM read_parquet('${file}')`);
  const [n, sum] = r.getRows()[0]!;
  return { n: Number(n), sum: String(sum) };
}

test('appendParquet keeps the old row groups and adds new ones under a new footer', async () => {
  const first = await writeParquet(rows(0, 1000), { schema, keyValueMetadata: { a: '1', b: '2' } });
  const t = appendTarget(first);
  const both = await appendParquet(first, rows(1000, 500), { keyValueMetadata: { b: '3' } });
  // the old data region is unchanged
  expect(Buffer.compare(both.subarray(0, t.dataEnd), first.subarray(0, t.dataEnd))).toBe(0);
  const f = await openParquet(both, { codecs });
  expect(f.metadata.row_groups.map((g) => g.num_rows)).toEqual([1000, 500]);
  expect(f.metadata.row_groups.map((g) => g.ordinal)).toEqual([0, 1]);
  expect(f.metadata.num_rows).toBe(1500);
  expect(f.metadata.key_value_metadata).toEqual([{ key: 'a', value: '1' }, { key: 'b', value: '3' }]);
  expect(await f.readRows()).toEqual(rows(0, 1500));
  const file = path.join(tmp, 'mem.parquet');
  fs.writeFileSync(file, both);
  expect(await duckRows(file)).toEqual({ n: 1500, sum: String((1499 * 1500) / 2) });
});

test('appending with another schema, to an encrypted or a non-Parquet file is refused', async () => {
  const first = await writeParquet(rows(0, 10), { schema });
  const codeOf = async (f: () => Promise<unknown> | unknown) => {
    try {
      await f();
    } catch (e) {
      return isParquetError(e) ? e.code : String(e);
    }
    return 'no error';
  };
  expect(await codeOf(() => appendParquet(first, [{ x: 1 }], { schema: { x: field.int32() } }))).toBe('SCHEMA_MISMATCH');
  expect(await codeOf(() => appendTarget(new TextEncoder().encode('not a parquet file at all')))).toBe('NOT_PARQUET');
  const pare = first.slice();
  pare.set([0x50, 0x41, 0x52, 0x45], pare.length - 4);
  expect(await codeOf(() => appendTarget(pare))).toBe('ENCRYPTED_FOOTER');
  const cut = first.slice();
  cut.set([0xff, 0xff, 0xff, 0x7f], cut.length - 8);
  expect(await codeOf(() => appendTarget(cut))).toBe('CORRUPT_FOOTER');
});

test('the Node append sink copies, appends and replaces the file on close; an aborted append leaves the file as it was', async () => {
  const file = path.join(tmp, 'a.parquet');
  fs.writeFileSync(file, await writeParquet(rows(0, 100), { schema }));
  const before = fs.readFileSync(file);
  const sink = await appendFileSink(file);
  const w = createWriter(sink, { append: sink.append });
  await w.write(rows(100, 50));
  await w.close();
  const f = await openParquet(new Uint8Array(fs.readFileSync(file)), { codecs });
  expect(f.metadata.row_groups.map((g) => g.num_rows)).toEqual([100, 50]);
  expect(await f.readRows()).toEqual(rows(0, 150));
  expect(await duckRows(file)).toEqual({ n: 150, sum: String((149 * 150) / 2) });

  const now = fs.readFileSync(file);
  const sink2 = await appendFileSink(file);
  const w2 = createWriter(sink2, { append: sink2.append });
  await w2.write(rows(150, 10));
  await w2.abort();
  expect(Buffer.compare(fs.readFileSync(file), now)).toBe(0);
  expect(fs.existsSync(sink2.tempPath)).toBe(false);
  expect(before.length).toBeLessThan(now.length);
});
