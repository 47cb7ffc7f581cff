/**
 * The umbrella's datasets: every codec preset without a `codecs` option (ZSTD and GZIP files written and read back
 * through a local directory), the stores re-exported.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { field, memoryStore, openDataset as openAny, writeDataset as writeAny } from '../src/index.js';
import { openDataset, writeDataset } from '../src/node.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-umbrella-ds-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const rows = Array.from({ length: 500 }, (_, i) => ({ id: i, day: 19000 + (i % 3), s: `v${i % 7}` }));
const schema = { id: field.int32({ required: true }), day: field.date(), s: field.string() };

test('a ZSTD dataset in a directory, written and read without passing codecs', async () => {
  const res = await writeDataset(rows, path.join(dir, 'z'), { schema, partitionBy: ['day'], compression: 'ZSTD', maxRowsPerFile: 100 });
  expect(res.files.length).toBe(6);
  const ds = await openDataset(path.join(dir, 'z'));
  const got = await ds.readRows({ filter: { column: 'day', op: '=', value: 19001 } });
  expect(got.map((r) => r.id)).toEqual(rows.filter((r) => r.day === 19001).map((r) => r.id));
  expect(got[0]).toEqual({ id: 1, s: 'v1', day: 19001 });
});

test('a GZIP dataset in memory through the main entry', async () => {
  const store = memoryStore();
  await writeAny(rows, store, { schema, compression: 'GZIP', summary: true });
  const ds = await openAny(store);
  expect(ds.summary).toBe('metadata');
  expect((await ds.readRows()).length).toBe(500);
});
