/**
 * The writer refuses bytes that are not UTF-8 for STRING, ENUM and JSON columns by default (QA helper-77 F2b):
 * `INVALID_VALUE` naming the column and the row, as for any other value that does not fit its column. Before, a
 * `Uint8Array` value was copied unchecked unless `strictUtf8` was set, and DuckDB refused the file ("Invalid string
 * encoding found in Parquet file … is not valid UTF8!"), as polars and pyarrow's validate do (LogicalTypes.md: STRING
 * is UTF-8). DuckDB (an independent reader) reads back what is accepted, edge code points included; BSON and plain
 * BYTE_ARRAY still take any bytes; JavaScript strings still write lone surrogates as U+FFFD unless `strictUtf8`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { field, writeParquet } from '../src/index.js';

const enc = new TextEncoder();
let dir: string;
let con: DuckDBConnection;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-utf8-default-'));
  con = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => {
  con?.closeSync();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function duck(bytes: Uint8Array, select: string): Promise<unknown[][]> {
  const f = path.join(dir, `t${Math.random().toString(36).slice(2)}.parquet`);
  fs.writeFileSync(f, bytes);
  return (await con.runAndReadAll(`SELECT ${select} FROM '${f}'`)).getRowsJS() as unknown[][];
}

const schema = { s: field.string(), j: field.json(), e: field.enum() };

describe('bytes that are not UTF-8 in a text column', () => {
  test.each([
    ['s', 'STRING', Uint8Array.of(0x61, 0xff, 0xfe)],
    ['j', 'JSON', Uint8Array.of(0xc3)],
    ['e', 'ENUM', Uint8Array.of(0xed, 0xa0, 0x80)], // an encoded surrogate
  ])("column '%s' (%s): INVALID_VALUE naming the column and the row", async (col, _t, bad) => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ s: `r${i}`, j: '{}', e: 'A' }));
    (rows[12_345] as Record<string, unknown>)[col] = bad;
    await expect(writeParquet(rows, { schema })).rejects.toMatchObject({
      code: 'INVALID_VALUE',
      message: expect.stringMatching(new RegExp(`column '${col}': row 12345: .*invalid UTF-8 at byte`)),
    });
    await expect(writeParquet(rows, { schema, strictUtf8: true })).rejects.toMatchObject({ code: 'INVALID_VALUE' });
  });

  test('a character split across two values is refused (each value is checked on its own)', async () => {
    const euro = enc.encode('€');
    await expect(writeParquet([{ s: euro.subarray(0, 2) }, { s: euro.subarray(2) }], { schema })).rejects.toMatchObject({ code: 'INVALID_VALUE', message: expect.stringMatching(/column 's': row 0:/) });
    await expect(writeParquet([{ s: 'x' }, { s: euro.subarray(2) }], { schema })).rejects.toMatchObject({ message: expect.stringMatching(/column 's': row 1:/) });
  });

  test('inside lists and maps the row is named', async () => {
    const s2 = { l: field.list(field.string()), m: field.map(field.string(), field.string()) };
    await expect(writeParquet([{ l: ['a'], m: new Map() }, { l: ['b', Uint8Array.of(0x80)], m: new Map() }], { schema: s2 })).rejects.toMatchObject({ message: expect.stringMatching(/column 'l\.list\.element': row 1:/) });
    await expect(writeParquet([{ l: [], m: new Map([[Uint8Array.of(0xf8), 'v']]) }], { schema: s2 })).rejects.toMatchObject({ message: expect.stringMatching(/column 'm\.key_value\.key': row 0:/) });
  });

  test('BSON and unannotated BYTE_ARRAY take any bytes', async () => {
    const b = Uint8Array.of(0xff, 0xc3);
    const x = Uint8Array.of(0xed, 0xa0, 0x80);
    const bytes = await writeParquet([{ b, x }], { schema: { b: field.bson(), x: field.binary() } });
    // DuckDB 1.5 opens no file with a BSON column ("Unsupported converted type (20)"): our reader checks that one
    expect(await duck(await writeParquet([{ x }], { schema: { x: field.binary() } }), 'octet_length(x)')).toEqual([[3n]]);
    expect(await (await openParquet(bytes, { codecs: builtinCodecs() })).readRows()).toEqual([{ b, x }]);
  });

  test('DuckDB reads back what is accepted: UTF-8 bytes at the edges of Unicode, and JS strings with lone surrogates as U+FFFD', async () => {
    const edges = ['\u0000', '\u007f', '\u0080', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\uffff', '\u{10000}', '\u{10ffff}', 'aé€😀', ''];
    const rows = [
      ...edges.map((t) => ({ s: enc.encode(t), j: enc.encode(JSON.stringify(t)), e: enc.encode(t) })),
      { s: 'lone \ud800 high', j: '"\udfff"', e: 'x' },
    ];
    const got = await duck(await writeParquet(rows, { schema }), 's, j::VARCHAR, e');
    expect(got).toEqual([
      ...edges.map((t) => [t, JSON.stringify(t), t]),
      ['lone \ufffd high', '"\ufffd"', 'x'],
    ]);
  });

  const vector = (utf8: boolean) => {
    const parts = [enc.encode('ok'), Uint8Array.of(0x61, 0xff), enc.encode('é')];
    const offsets = new Int32Array(parts.length + 1);
    parts.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.length));
    const data = new Uint8Array(offsets[parts.length]!);
    parts.forEach((p, i) => data.set(p, offsets[i]!));
    return { s: { kind: 'binary', length: 3, offsets, data, utf8 } };
  };

  // the writer hands binary vectors of BYTE_ARRAY columns to fromJsValues, which checks text columns' { offsets, data }
  test('columnar input: a binary vector for a STRING column is checked the same way', async () => {
    await expect(writeParquet(vector(true) as never, { schema: { s: field.string() } })).rejects.toMatchObject({ code: 'INVALID_VALUE', message: expect.stringMatching(/column 's': row 1:/) });
  });

  test('columnar input: the same bytes into a plain BYTE_ARRAY column are written', async () => {
    const bin = await writeParquet(vector(false) as never, { schema: { s: field.binary() } });
    expect(await duck(bin, 'octet_length(s)')).toEqual([[2n], [2n], [2n]]);
  });
});
