/**
 * The pruning benchmark (issue 13): a ~1% selective read of a sorted 10,000,000-row numeric file with a page index,
 * and a point lookup in the same table with unsorted ids and bloom filters — parquetry (in memory and over HTTP from
 * a local range server) against hyparquet and DuckDB in the same run, with the bytes and requests each parquetry
 * read made (its scan statistics, equal to what the server counts).
 *
 * The files are the DuckDB numeric table of make-bench-files.mjs rewritten by our writer (page index on; the
 * unsorted copy with a bloom filter on `id`), into fixtures/generated/ on first use (about a minute).
 * Run: `npx vitest bench --run tools/reader-bench/bench/prune.bench.ts`.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { afterAll, bench, describe } from 'vitest';
import { allCodecs } from 'parquetry';
import { fetchSource, openParquet, type Filter, type ScanStats, type StructVector } from '@parquetry/parquet-reader';
// the writer by path (the benchmark package does not depend on it)
import { writeParquet } from '../../../packages/parquet-writer/src/index.js';
// @ts-expect-error: plain .mjs tool without types
import { GENERATED, NUMERIC, makeBenchFiles } from '../../fixtures/make-bench-files.mjs';

const SORTED = path.join(GENERATED as string, 'numeric-10m.pageindex.parquet');
const UNSORTED = path.join(GENERATED as string, 'numeric-10m.unsorted-bloom.parquet');
const codecs = await allCodecs();

if (!fs.existsSync(SORTED) || !fs.existsSync(UNSORTED)) {
  await makeBenchFiles();
  const src = await openParquet(new Uint8Array(fs.readFileSync(NUMERIC as string)), { codecs });
  const groups: StructVector[] = [];
  for (let g = 0; g < src.metadata.row_groups.length; g++) groups.push(await src.readRowGroupColumns(g));
  const n = src.numRows;
  type Typed = { length: number; set(a: Typed, at: number): void };
  const col = (name: string): Typed => {
    const parts = groups.map((v) => (v.children.find((c) => c.field.name === name) as unknown as { values: Typed }).values);
    const out = new (parts[0]!.constructor as new (n: number) => Typed)(n);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  const leaf = (values: unknown) => ({ kind: 'leaf', length: n, validity: null, values });
  const columns = { id: col('id'), a: col('a'), b: col('b'), c: col('c'), d: col('d') };
  const schema = src.schema.elements;
  const input = () => Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, leaf(v)]));
  fs.writeFileSync(SORTED, await writeParquet(input() as never, { schema, rowGroupRows: 1_000_000, compression: 'SNAPPY' }));
  // the unsorted copy: ids permuted (a deterministic shuffle), a bloom filter on id
  const id = columns.id as unknown as BigInt64Array;
  let x = 987654321;
  for (let i = n - 1; i > 0; i--) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const j = Math.floor((x / 4294967296) * (i + 1));
    const t = id[i]!;
    id[i] = id[j]!;
    id[j] = t;
  }
  fs.writeFileSync(UNSORTED, await writeParquet(input() as never, { schema, rowGroupRows: 1_000_000, compression: 'SNAPPY', columns: { id: { bloomFilter: true } } }));
}

const sorted = new Uint8Array(fs.readFileSync(SORTED));
const unsorted = new Uint8Array(fs.readFileSync(UNSORTED));
const sortedAb = sorted.buffer.slice(sorted.byteOffset, sorted.byteOffset + sorted.byteLength);
const duck = await (await DuckDBInstance.create(':memory:')).connect();
const opts = { iterations: 5, time: 0, warmupIterations: 1, warmupTime: 0 };

// a local range server over both files, counting requests and bytes
const served = { requests: 0, bytes: 0 };
const server = http.createServer((req, res) => {
  const bytes = req.url?.includes('unsorted') ? unsorted : sorted;
  if (req.method === 'HEAD') {
    res.writeHead(200, { 'content-length': bytes.length }).end();
    return;
  }
  // `bytes=a-b`, or the suffix range `bytes=-n` fetchSource opens with (the tail and the file's size in one answer)
  const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (m === null || (m[1] === '' && m[2] === '')) {
    res.writeHead(416).end();
    return;
  }
  const start = m[1] === '' ? Math.max(0, bytes.length - Number(m[2])) : Number(m[1]);
  const end = m[1] === '' || m[2] === '' ? bytes.length : Math.min(Number(m[2]) + 1, bytes.length);
  served.requests++;
  served.bytes += end - start;
  res.writeHead(206, { 'content-length': end - start, 'content-range': `bytes ${start}-${end - 1}/${bytes.length}` }).end(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => void server.close());

const FROM = 5_000_000;
const range: Filter = { and: [{ column: 'id', op: '>=', value: BigInt(FROM) }, { column: 'id', op: '<', value: BigInt(FROM + 100_000) }] };
const LOOKUP = 7_654_321n;
const point: Filter = { column: 'id', op: '=', value: LOOKUP };

// one measured run of each parquetry read, with its scan statistics
async function measure(label: string, run: (onScan: (s: ScanStats) => void) => Promise<unknown[]>, fileBytes: number): Promise<void> {
  let stats: ScanStats | undefined;
  served.requests = 0;
  served.bytes = 0;
  const t = performance.now();
  const rows = await run((s) => (stats = s));
  const ms = performance.now() - t;
  console.log(
    `${label}: ${rows.length} rows in ${ms.toFixed(1)} ms; read ${stats!.bytes.total} bytes (${((100 * stats!.bytes.total) / fileBytes).toFixed(2)}% of ${fileBytes}) ` +
      `in ${stats!.requests.total} requests ${JSON.stringify(stats!.requests)}; row groups ${JSON.stringify(stats!.rowGroups)}; pages ${JSON.stringify(stats!.pages)}` +
      (served.requests > 0 ? `; server: ${served.requests} requests, ${served.bytes} bytes (footer read at open included)` : ''),
  );
}
await measure('sorted 10M, ~1% range, in memory', async (onScan) => (await openParquet(sorted, { codecs })).readRows({ filter: range, onScan }), sorted.length);
await measure('sorted 10M, ~1% range, over HTTP', async (onScan) => (await openParquet(await fetchSource(`${base}/sorted`), { codecs })).readRows({ filter: range, onScan }), sorted.length);
await measure('sorted 10M, ~1% range, page index off', async (onScan) => (await openParquet(sorted, { codecs })).readRows({ filter: range, prune: { pageIndex: false }, onScan }), sorted.length);
await measure('unsorted 10M + bloom, point lookup, in memory', async (onScan) => (await openParquet(unsorted, { codecs })).readRows({ filter: point, onScan }), unsorted.length);
await measure('unsorted 10M + bloom, point lookup, over HTTP', async (onScan) => (await openParquet(await fetchSource(`${base}/unsorted`), { codecs })).readRows({ filter: point, onScan }), unsorted.length);
await measure('unsorted 10M, point lookup, bloom off', async (onScan) => (await openParquet(unsorted, { codecs })).readRows({ filter: point, prune: { bloom: false }, onScan }), unsorted.length);

// DuckDB's bytes for the same queries: what it read from the file, from /proc/self/io (Linux; DuckDB preads the file)
const rchar = (): number | undefined => {
  try {
    return Number(/rchar: (\d+)/.exec(fs.readFileSync('/proc/self/io', 'utf8'))![1]);
  } catch {
    return undefined;
  }
};
for (const [label, sql] of [
  ['sorted 10M, ~1% range', `SELECT * FROM read_parquet('${SORTED}') WHERE id >= ${FROM} AND id < ${FROM + 100_000}`],
  ['unsorted 10M + bloom, point lookup', `SELECT * FROM read_parquet('${UNSORTED}') WHERE id = ${LOOKUP}`],
]) {
  const before = rchar();
  const t = performance.now();
  const rows = (await duck.runAndReadAll(sql!)).getRows().length;
  const ms = performance.now() - t;
  const after = rchar();
  console.log(`DuckDB ${label}: ${rows} rows in ${ms.toFixed(1)} ms; read ${before === undefined ? 'unknown' : after! - before} bytes (first query of the file: footer included)`);
}

describe('sorted 10M numeric with a page index: ~1% selective read (100,000 rows)', () => {
  bench('parquetry rows, in memory', async () => {
    await (await openParquet(sorted, { codecs })).readRows({ filter: range });
  }, opts);
  bench('parquetry rows, over HTTP (local range server)', async () => {
    await (await openParquet(await fetchSource(`${base}/sorted`), { codecs })).readRows({ filter: range });
  }, opts);
  bench('hyparquet rows, filter', async () => {
    await parquetReadObjects({ file: sortedAb, compressors, filter: { id: { $gte: BigInt(FROM), $lt: BigInt(FROM + 100_000) } } } as Parameters<typeof parquetReadObjects>[0]);
  }, { ...opts, iterations: 2 });
  bench('DuckDB into JS values', async () => {
    (await duck.runAndReadAll(`SELECT * FROM read_parquet('${SORTED}') WHERE id >= ${FROM} AND id < ${FROM + 100_000}`)).getRows();
  }, opts);
});

describe('unsorted 10M numeric with bloom filters: point lookup', () => {
  bench('parquetry rows, in memory', async () => {
    await (await openParquet(unsorted, { codecs })).readRows({ filter: point });
  }, opts);
  bench('DuckDB into JS values', async () => {
    (await duck.runAndReadAll(`SELECT * FROM read_parquet('${UNSORTED}') WHERE id = ${LOOKUP}`)).getRows();
  }, opts);
});
