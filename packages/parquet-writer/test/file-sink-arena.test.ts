// Page bodies of a file sink's row groups are copied into one arena per row group, released once the row group is
// written, so the next row group's pages reuse the memory (sink.ts Arena, recyclesChunks). These tests check the
// files are still exactly right: many row groups of different data through the file sink (every row group's pages
// in memory another one used before), and a sink of the user's that keeps the chunks it is given (its memory must
// never be reused: the ByteSink contract).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { createWriter, field, type ByteSink } from '../src/index.js';
import { fileSink } from '../src/node.js';

// The reader is only a devDependency (see variant.test.ts).
const READER = '@parquetry/parquet-reader';
type Reader = { openParquet(b: Uint8Array, o: { codecs: unknown }): Promise<{ metadata: { row_groups: unknown[] }; readRows(): Promise<Record<string, unknown>[]> }> };
const reader = (): Promise<Reader> => import(/* @vite-ignore */ READER);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-arena-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const schema = { id: field.int64({ required: true }), s: field.string(), d: field.double({ required: true }), big: field.binary() };
/** Rows that differ in every row group (so a page body overwritten by a later row group's shows). */
function rows(n: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const g = Math.floor(i / 3000);
    out.push({
      id: BigInt(i) * 7919n - 5n,
      s: i % 11 === 0 ? null : `g${g}-${'x'.repeat((i * 31) % 97)}-${i}`,
      d: i / 3 - g,
      // a few values large enough that their pages are arrays of their own (over half an arena block)
      big: i % 2999 === 0 ? new Uint8Array(3 << 20).fill(i & 255) : Uint8Array.of(g, i & 255),
    });
  }
  return out;
}

describe('page memory reused across row groups', () => {
  for (const compression of ['UNCOMPRESSED', 'SNAPPY'] as const) {
    test(`file sink, ${compression}: 10 row groups read back exactly`, async () => {
      const input = rows(30_000);
      const file = path.join(tmp, `${compression}.parquet`);
      const w = createWriter(await fileSink(file, { sync: false }), { schema, compression, rowGroupRows: 3000, pageRows: 500, dictionary: compression === 'SNAPPY' });
      for (let i = 0; i < input.length; i += 4000) await w.write(input.slice(i, i + 4000));
      await w.close();
      const { openParquet } = await reader();
      const f = await openParquet(new Uint8Array(fs.readFileSync(file)), { codecs: builtinCodecs() });
      expect(f.metadata.row_groups.length).toBe(10);
      const back = await f.readRows();
      expect(back.length).toBe(input.length);
      for (let i = 0; i < input.length; i++) if (JSON.stringify(back[i], big) !== JSON.stringify(input[i], big)) expect(back[i]).toEqual(input[i]);
    });
  }

  test("a sink that keeps the chunks it is given (its own array, no copy): they are never reused", async () => {
    const kept: Uint8Array[] = [];
    const sink: ByteSink = { write: (c) => void kept.push(c) };
    const input = rows(12_000);
    const w = createWriter(sink, { schema, compression: 'UNCOMPRESSED', rowGroupRows: 3000, pageRows: 500 });
    for (let i = 0; i < input.length; i += 4000) await w.write(input.slice(i, i + 4000));
    await w.close();
    const bytes = new Uint8Array(kept.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of kept) (bytes.set(c, at), (at += c.length));
    const { openParquet } = await reader();
    const back = await (await openParquet(bytes, { codecs: builtinCodecs() })).readRows();
    expect(back.length).toBe(input.length);
    for (let i = 0; i < input.length; i++) if (JSON.stringify(back[i], big) !== JSON.stringify(input[i], big)) expect(back[i]).toEqual(input[i]);
  });
});

/** JSON.stringify replacer: bigints and byte arrays as text. */
function big(_k: string, v: unknown): unknown {
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Uint8Array) return `${v.length}:${v[0]}:${v[v.length - 1]}:${v.reduce((a, b) => (a * 31 + b) % 1000003, 0)}`;
  return v;
}
