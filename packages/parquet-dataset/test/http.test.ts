/**
 * Datasets over HTTP, counted at a local server: a 100-file partitioned dataset read with a filter on the partition
 * column through `urlStore` with its `_metadata` (one request plans it), through a list of URLs with the schema of
 * the first file, and with every footer unified at open; the requests and bytes our scan statistics report equal
 * what the server saw; concurrency stays within the bound.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { field } from '@parquetry/parquet-writer';
import type { Filter } from '@parquetry/parquet-reader';
import { openDataset, urlStore, type DatasetScanStats } from '../src/index.js';
import { openDataset as openLocal, writeDataset } from '../src/node.js';
import { serveDirectory, type FileServer } from './http-server.js';

const codecs = builtinCodecs();
let dir = '';
let server: FileServer;
const rows = Array.from({ length: 20000 }, (_, i) => ({ id: i, tenant: `t${String(i % 20).padStart(2, '0')}`, v: (i * 7919) % 10007, s: `row ${i}` }));
const schema = { id: field.int32({ required: true }), tenant: field.string(), v: field.int32(), s: field.string() };
const filter: Filter = { column: 'tenant', op: 'in', values: ['t03', 't17'] };
const expected = rows.filter((r) => r.tenant === 't03' || r.tenant === 't17');
const sortById = (rs: Record<string, unknown>[]) => [...rs].sort((a, b) => (a.id as number) - (b.id as number));

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-dataset-http-'));
  // 20 tenants × 5 files of 200 rows = 100 files
  const res = await writeDataset(rows, dir, { schema, partitionBy: ['tenant'], maxRowsPerFile: 200, summary: true });
  expect(res.files.length).toBe(100);
  server = await serveDirectory(dir, 2);
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('100 files over HTTP, filtered on the partition column', () => {
  test('with _metadata: one request plans the dataset; only the 10 kept files are fetched, their data only', async () => {
    server.reset();
    const ds = await openDataset(urlStore(server.url), { codecs });
    expect(ds.summary).toBe('metadata');
    expect(server.counts.requests).toBe(1);
    let s: DatasetScanStats | undefined;
    const got = await ds.readRows({ filter, onScan: (x) => (s = x) });
    expect(sortById(got)).toEqual(expected);
    expect(s!.files).toEqual({ total: 100, opened: 0, read: 10, skipped: { partition: 90, statistics: 0 } });
    const paths = new Set(server.counts.paths.slice(1));
    expect([...paths].every((p) => p.startsWith('/tenant=t03/') || p.startsWith('/tenant=t17/'))).toBe(true);
    expect(paths.size).toBe(10);
    const total = ds.scanStats();
    expect(total.requests).toBe(server.counts.requests);
    expect(total.bytes).toBe(server.counts.bytes);
  });

  test('a list of URLs, schema of the first file: one footer request per kept file (a suffix range), then its data', async () => {
    server.reset();
    const urls = (await openLocal(dir, { codecs, summary: false, schema: 'first' })).files.map((f) => `${server.url}${f.path}`);
    server.reset();
    const ds = await openDataset(urls, { codecs, schema: 'first' });
    expect(server.counts.requests).toBe(1); // the first file's footer
    let s: DatasetScanStats | undefined;
    const got = await ds.readRows({ filter, onScan: (x) => (s = x) });
    expect(sortById(got)).toEqual(expected);
    expect(s!.files).toEqual({ total: 100, opened: 10, read: 10, skipped: { partition: 90, statistics: 0 } });
    expect(s!.footers.requests).toBe(10);
    const total = ds.scanStats();
    expect(total.requests).toBe(server.counts.requests);
    expect(total.bytes).toBe(server.counts.bytes);
    expect(total.files.opened).toBe(11);
  });

  test('unified at open: every footer fetched, at most `concurrency` requests in flight', async () => {
    server.reset();
    const ds = await openDataset(urlStore(server.url), { codecs, summary: false, concurrency: 4, schema: 'union' }).catch((e: unknown) => e);
    // a URL store cannot list: without the summary there is nothing to unify
    expect(ds).toMatchObject({ code: 'NO_FILES' });
    const urls = (await openLocal(dir, { codecs, summary: false, schema: 'first' })).files.map((f) => `${server.url}${f.path}`);
    server.reset();
    const all = await openDataset(urls, { codecs, concurrency: 4 });
    expect(server.counts.requests).toBe(100);
    expect(server.counts.maxInFlight).toBeLessThanOrEqual(4);
    expect(server.counts.maxInFlight).toBeGreaterThan(1);
    server.reset();
    const got = await all.readRows({ filter });
    expect(sortById(got)).toEqual(expected);
    expect(server.counts.maxInFlight).toBeLessThanOrEqual(4 * 2); // a file's reads may overlap (filter column, then the rest)
  });
});

describe('a row range over URLs', () => {
  test('the last row of 100 URLs: only the last file is read, by its page index; bytes far below a whole read', async () => {
    const urls = (await openLocal(dir, { codecs, summary: false, schema: 'first' })).files.map((f) => `${server.url}${f.path}`);
    const ds = await openDataset(urls, { codecs });
    const whole = await ds.readRows();
    server.reset();
    let s: DatasetScanStats | undefined;
    const got = await ds.readRows({ rowStart: whole.length - 1, onScan: (x) => (s = x) });
    expect(got).toEqual(whole.slice(-1));
    expect(s!.files.read).toBe(1);
    expect(s!.files.skipped.range).toBe(99);
    expect(new Set(server.counts.paths)).toEqual(new Set([new URL(urls[99]!).pathname]));
    expect(server.counts.bytes).toBe(s!.bytes);
    server.reset();
    await ds.readRows({ rowStart: 0, rowEnd: 1 });
    expect(new Set(server.counts.paths)).toEqual(new Set([new URL(urls[0]!).pathname]));
  });
});

describe('URLs given one by one', () => {
  let root = '';
  let srv: FileServer;
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-dataset-urls-'));
    srv = await serveDirectory(root);
  });
  afterAll(async () => {
    await srv.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('each URL is requested exactly as given: query and percent-encoding kept, the fragment dropped', async () => {
    const { writeParquet } = await import('@parquetry/parquet-writer');
    fs.mkdirSync(path.join(root, 'sig'));
    const small = { id: field.int32({ required: true }) };
    fs.writeFileSync(path.join(root, 'sig', 'a.parquet'), await writeParquet([{ id: 1 }, { id: 2 }], { schema: small }));
    fs.writeFileSync(path.join(root, 'sig', 'b c%.parquet'), await writeParquet([{ id: 3 }], { schema: small }));
    const urls = [`${srv.url}sig/a.parquet?sig=a%2Fb&exp=1#part`, `${srv.url}sig/b%20c%25.parquet?sig=c`];
    srv.reset();
    const ds = await openDataset(urls, { codecs });
    expect(ds.files.map((f) => f.path)).toEqual(urls);
    expect(await ds.readRows()).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(new Set(srv.counts.targets)).toEqual(new Set(['/sig/a.parquet?sig=a%2Fb&exp=1', '/sig/b%20c%25.parquet?sig=c']));
  });

  test('hive values in a URL: the URL encoding is undone, then the hive encoding (as read locally, as DuckDB and pyarrow)', async () => {
    const out = path.join(root, 'pa');
    const data = [
      { id: 1, city: 'São Paulo', yr: 2020 },
      { id: 2, city: 'a/b=c d', yr: 2021 },
      { id: 3, city: '100%', yr: 2021 },
    ];
    const res = await writeDataset(data, out, { schema: { id: field.int32({ required: true }), city: field.string(), yr: field.int32() }, partitionBy: ['city', 'yr'], summary: true });
    // the object key holds the hive encoding itself, e.g. city=S%C3%A3o%20Paulo (as pq.write_to_dataset writes it)
    expect(res.files.map((f) => f.path)).toContain('city=S%C3%A3o%20Paulo/yr=2020/part-0.parquet');
    const local = await openLocal(out, { codecs });
    const want = await local.readRows();
    expect(want.map((r) => r.city).sort()).toEqual(['100%', 'São Paulo', 'a/b=c d']);
    // a list of URLs, each key percent-encoded once more for the URL (city=S%25C3%25A3o%2520Paulo)
    const urls = res.files.map((f) => `${srv.url}pa/${f.path.split('/').map((s) => encodeURIComponent(s).replace(/%3D/g, '=')).join('/')}`);
    expect(urls[0]).toContain('/pa/city=');
    expect(urls.some((u) => u.includes('city=S%25C3%25A3o%2520Paulo/yr=2020/'))).toBe(true);
    const listed = await openDataset(urls, { codecs });
    expect(listed.files.map((f) => f.partition)).toEqual(local.files.map((f) => f.partition));
    expect(await listed.readRows()).toEqual(want);
    expect(await listed.readRows({ filter: { column: 'city', op: '=', value: 'São Paulo' } })).toEqual(want.filter((r) => r.city === 'São Paulo'));
    // a base URL dataset planned from its _metadata: the summary's file paths are keys
    const based = await openDataset(urlStore(`${srv.url}pa/`), { codecs });
    expect(based.summary).toBe('metadata');
    expect(await based.readRows()).toEqual(want);
  });
});
