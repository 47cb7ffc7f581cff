/**
 * The dataset benchmark (issue 15): a 100-file hive-partitioned dataset (1,000,000 rows, 20 tenants × 5 files)
 * read with a filter on the partition column (2 of 20 tenants), over a local HTTP server — planned from its
 * `_metadata` (urlStore) and from a list of URLs (footers fetched for the kept files only) — with the requests and
 * bytes the server counted, against DuckDB. DuckDB's httpfs extension cannot be installed offline, so DuckDB reads the
 * same files from the local directory (`read_parquet('dir/**\/*.parquet', hive_partitioning = true)`): its bytes are
 * what this process read from disk during the query (/proc/self/io `rchar`), its requests not observable.
 * Run: `npx vitest bench --run packages/parquet-dataset/bench/dataset-http.bench.ts`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, bench, describe } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { field } from '@parquetry/parquet-writer';
import type { Filter } from '@parquetry/parquet-reader';
import { openDataset, urlStore } from '../src/index.js';
import { openDataset as openLocal, writeDataset } from '../src/node.js';
import { serveDirectory } from '../test/http-server.js';

const codecs = builtinCodecs();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-dataset-bench-'));
const N = 1_000_000;
const rows = Array.from({ length: N }, (_, i) => ({ id: BigInt(i), tenant: `t${String(i % 20).padStart(2, '0')}`, amount: (i * 7919) % 100003, note: `note ${i % 1000}` }));
await writeDataset(rows, dir, {
  schema: { id: field.int64({ required: true }), tenant: field.string(), amount: field.int32(), note: field.string() },
  partitionBy: ['tenant'],
  maxRowsPerFile: N / 100,
  summary: true,
});
const server = await serveDirectory(dir);
const filter: Filter = { column: 'tenant', op: 'in', values: ['t03', 't17'] };
const urls = (await openLocal(dir, { codecs, schema: 'first', summary: false })).files.map((f) => `${server.url}${f.path}`);
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();

function rchar(): number {
  return Number(/rchar: (\d+)/.exec(fs.readFileSync('/proc/self/io', 'utf8'))![1]);
}

const seen: Record<string, { rows: number; requests: number | string; bytes: number }> = {};

async function overHttp(name: string, open: () => Promise<{ readRows(o: { filter: Filter }): Promise<unknown[]> }>): Promise<void> {
  server.reset();
  const ds = await open();
  const got = await ds.readRows({ filter });
  seen[name] = { rows: got.length, requests: server.counts.requests, bytes: server.counts.bytes };
}

describe('100-file partitioned dataset, filter on the partition column (2 of 20 tenants)', () => {
  bench('parquetry over HTTP, _metadata', () => overHttp('parquetry HTTP _metadata', () => openDataset(urlStore(server.url), { codecs })), { iterations: 5, time: 0 });
  bench('parquetry over HTTP, URL list (schema of the first file)', () => overHttp('parquetry HTTP URL list', () => openDataset(urls, { codecs, schema: 'first' })), { iterations: 5, time: 0 });
  bench('parquetry over HTTP, URL list (every footer unified)', () => overHttp('parquetry HTTP URL list, union', () => openDataset(urls, { codecs })), { iterations: 3, time: 0 });
  bench(
    'DuckDB, local files (httpfs not installable offline)',
    async () => {
      const before = rchar();
      const r = await con.runAndReadAll(`SELECT * FROM read_parquet('${dir}/**/*.parquet', hive_partitioning = true) WHERE tenant IN ('t03', 't17')`);
      seen['DuckDB local'] = { rows: r.currentRowCount, requests: 'n/a', bytes: rchar() - before };
    },
    { iterations: 5, time: 0 },
  );
});

afterAll(async () => {
  console.log(`\n${'read'.padEnd(34)} ${'rows'.padStart(8)} ${'requests'.padStart(9)} ${'bytes'.padStart(11)}`);
  for (const [k, v] of Object.entries(seen)) console.log(`${k.padEnd(34)} ${String(v.rows).padStart(8)} ${String(v.requests).padStart(9)} ${String(v.bytes).padStart(11)}`);
  const total = fs.readdirSync(dir, { recursive: true }).reduce<number>((a, f) => a + (fs.statSync(path.join(dir, String(f))).isFile() ? fs.statSync(path.join(dir, String(f))).size : 0), 0);
  console.log(`dataset: 100 files, ${total} bytes`);
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
