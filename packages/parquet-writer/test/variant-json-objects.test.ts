// VARIANT columns written from JSON data: a plain object is a Variant object whatever its keys, so
// {"type":"decimal","value":"12.5"} and {"type":"uuid","value":"…"} are written as objects of two keys, read back as such
// by our reader and by DuckDB, unshredded and shredded (before the fix they were written as a decimal and a UUID).
// Only the writer's public API is used, so these tests run against the code before the fix too.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { field, writeParquet, type FieldSpec } from '../src/index.js';

const codecs = builtinCodecs();
const UUID = 'f24f9b64-81fa-49d1-b74e-8c09a6e31c56';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parquet-writer-variant-json-'));
let conn: DuckDBConnection;
beforeAll(async () => {
  conn = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let n = 0;
async function write(rows: Record<string, unknown>[], schema: Record<string, FieldSpec>): Promise<{ bytes: Uint8Array; file: string }> {
  const bytes = await writeParquet(rows, { schema, codecs });
  const file = path.join(dir, `${n++}.parquet`);
  fs.writeFileSync(file, bytes);
  return { bytes, file };
}

/** DuckDB's type and JSON text of column `v`, row by row. */
async function duck(file: string): Promise<{ t: string; j: string }[]> {
  const r = await conn.runAndReadAll(`select variant_typeof(v) as t, v::JSON as j from read_parquet('${file}')`);
  return r.getRowObjectsJson() as { t: string; j: string }[];
}

describe('JSON objects shaped like typed values are written as objects', () => {
  const json = [`{"type":"decimal","value":"12.5"}`, `{"type":"uuid","value":"${UUID}"}`];
  const schemas: [string, FieldSpec][] = [
    ['unshredded', field.variant()],
    ['shredded as a decimal', field.variant({ shredding: field.decimal(9, 1) })],
    ['shredded as a uuid', field.variant({ shredding: field.uuid() })],
    ['shredded as an object of type and value', field.variant({ shredding: field.struct({ type: field.string(), value: field.string() }) })],
  ];
  test.each(schemas)('%s: our reader and DuckDB read objects of two keys', async (_name, spec) => {
    const values = json.map((j) => JSON.parse(j) as Record<string, unknown>);
    const { bytes, file } = await write(values.map((v) => ({ v })), { v: spec });
    const back = (await (await openParquet(bytes, { codecs })).readRows()).map((r) => r['v']);
    expect(back).toEqual(values);
    expect(back.map((v) => Object.getPrototypeOf(v) === Object.prototype)).toEqual([true, true]); // not typed values
    const d = await duck(file);
    expect(d.map((r) => r.t)).toEqual(['OBJECT(type, value)', 'OBJECT(type, value)']);
    expect(d.map((r) => JSON.parse(r.j) as unknown)).toEqual(values);
  });
});
