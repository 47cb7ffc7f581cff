/**
 * The umbrella's writer: every codec usable by name without passing codecs (read back by our reader and by DuckDB),
 * the caller's codecs winning over the preset, the writer package's builder re-exported, and `parquetry/node`'s
 * file writers (rows, async rows, columns; nothing left at the path when a write fails).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { CompressionCodec, builtinCodecs, type Codec } from '@parquetry/parquet-codecs';
import { afterAll, describe, expect, test } from 'vitest';
import { appendParquet, createWriter, field, inferSchema, memorySink, openParquet, writeParquet, type CompressionName } from '../src/index.js';
import { createFileWriter, openFile, writeFile } from '../src/node.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-write-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const rows = Array.from({ length: 500 }, (_, i) => ({ id: BigInt(i) * 7919n, name: i % 9 === 0 ? null : `name ${i % 37}`, score: i / 8 }));
const schema = { id: field.int64({ required: true }), name: field.string(), score: field.double() };

describe('writer with every codec preset', () => {
  const CODECS: CompressionName[] = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'LZO', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW'];
  for (const compression of CODECS) {
    test(`writeParquet with ${compression} and no codecs option: the footer names it, the rows read back`, async () => {
      const bytes = await writeParquet(rows, { schema, compression });
      const f = await openParquet(bytes);
      expect(f.metadata.row_groups[0]!.columns.map((c) => c.meta_data!.codec)).toEqual([0, 1, 2].map(() => CompressionCodec[compression]));
      expect(await f.readRows()).toEqual(rows);
    });
  }

  test('DuckDB reads a ZSTD and a BROTLI file written by writeFile', async () => {
    const con = await (await DuckDBInstance.create(':memory:')).connect();
    for (const compression of ['ZSTD', 'BROTLI'] as const) {
      const file = path.join(dir, `duck-${compression}.parquet`);
      const md = await writeFile(file, rows, { schema, compression });
      expect(Number(md.num_rows)).toBe(500);
      const got = (await con.runAndReadAll('SELECT id::VARCHAR AS id, name, score FROM read_parquet(?)', [file])).getRowObjectsJson();
      expect(got).toEqual(rows.map((r) => ({ id: String(r.id), name: r.name, score: r.score })));
    }
  });

  test("the caller's codecs win over the preset", async () => {
    let calls = 0;
    const snappy = builtinCodecs()[CompressionCodec.SNAPPY]!;
    const counting: Codec = { ...snappy, compress: (b: Uint8Array) => (calls++, snappy.compress!(b)) } as Codec;
    const bytes = await writeParquet(rows, { schema, codecs: { [CompressionCodec.SNAPPY]: counting } });
    expect(calls).toBeGreaterThan(0);
    expect(await (await openParquet(bytes)).readRows()).toEqual(rows);
  });

  test('appendParquet with BROTLI (a WebAssembly codec) and no codecs option', async () => {
    const first = await writeParquet(rows, { schema, compression: 'BROTLI' });
    const both = await appendParquet(first, rows, { compression: 'BROTLI' });
    const f = await openParquet(both);
    expect(f.metadata.row_groups.length).toBe(2);
    expect(f.metadata.row_groups[1]!.columns[0]!.meta_data!.codec).toBe(CompressionCodec.BROTLI);
    expect(await f.readRows()).toEqual([...rows, ...rows]);
  });

  test('createWriter (async, every codec) over a memory sink; inferSchema and field are re-exported', async () => {
    const sink = memorySink();
    const w = await createWriter(sink, { schema: inferSchema(rows), compression: 'BROTLI', rowGroupRows: 200 });
    await w.write(rows);
    const md = await w.close();
    expect(md.row_groups.map((g) => Number(g.num_rows))).toEqual([200, 200, 100]);
    expect(await (await openParquet(sink.bytes())).readRows()).toEqual(rows);
  });
});

describe('parquetry/node file writers', () => {
  test('writeFile takes rows, async iterables and the reader columns', async () => {
    const a = path.join(dir, 'rows.parquet');
    await writeFile(a, rows, { schema });
    async function* gen() {
      for (const r of rows) yield r;
    }
    const b = path.join(dir, 'async.parquet');
    await writeFile(b, gen(), { schema, compression: 'GZIP' });
    const fa = await openFile(a);
    const cols = await fa.readRowGroupColumns(0);
    const c = path.join(dir, 'columns.parquet');
    await writeFile(c, cols, { schema: fa.metadata.schema, compression: 'ZSTD' });
    await fa.close();
    for (const file of [a, b, c]) {
      const f = await openFile(file);
      expect(await f.readRows()).toEqual(rows);
      await f.close();
    }
  });

  test('a failed write leaves nothing at the path, nor a temporary file', async () => {
    const sub = fs.mkdtempSync(path.join(dir, 'fail-'));
    const target = path.join(sub, 'bad.parquet');
    await expect(writeFile(target, [...rows, { id: 'not a bigint', name: 'x', score: 1 }], { schema, rowGroupRows: 100 })).rejects.toMatchObject({
      code: 'INVALID_VALUE',
      message: expect.stringMatching(/column 'id': row 500/),
    });
    expect(fs.readdirSync(sub)).toEqual([]);
    const w = await createFileWriter(target, { schema });
    await w.write(rows);
    expect(fs.readdirSync(sub).length).toBe(1); // the temporary file
    await w.abort();
    expect(fs.readdirSync(sub)).toEqual([]);
    // a missing directory: CANNOT_CREATE naming the file asked for (not the temporary path), the ENOENT as its cause
    const missing = path.join(sub, 'missing', 'x.parquet');
    await expect(createFileWriter(missing)).rejects.toMatchObject({
      code: 'CANNOT_CREATE',
      message: `parquet-writer: cannot create '${missing}': ENOENT: no such file or directory (creating the temporary file beside it)`,
      cause: expect.objectContaining({ code: 'ENOENT' }),
    });
    expect(fs.readdirSync(sub)).toEqual([]);
  });
});
