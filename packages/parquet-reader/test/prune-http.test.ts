/**
 * The HTTP must-show of issue 13: a local range server (node:http) serves a sorted 2,000,000-row file written by
 * our writer with its page index; a ~1% selective read fetches within 1.5× the bytes of the pages holding matches
 * (their dictionary pages included), plus the footer and the indexes. Requests and bytes are counted by the server,
 * independently of the reader's own scan statistics (which must agree). `tools/reader-bench/prune-http.mjs` runs
 * the same measurement on 10,000,000 rows.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readOffsetIndex as hypOffsetIndex } from 'hyparquet';
import { builtinCodecs } from '@parquetry/parquet-codecs';
// the writer by path: a devDependency on it would make a cycle in turbo's build graph (the writer's tests read)
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { fetchSource, openParquet, type Filter, type ScanStats } from '@parquetry/parquet-reader';

const N = 2_000_000;
let bytes: Uint8Array;
let server: http.Server;
let url = '';
const log: { method: string; bytes: number }[] = [];

beforeAll(async () => {
  const id = new BigInt64Array(N);
  const value = new Float64Array(N);
  const category = new Int32Array(N);
  const ts = new BigInt64Array(N);
  for (let i = 0; i < N; i++) {
    id[i] = BigInt(i);
    value[i] = (i * 7919) % 1000003;
    category[i] = i % 17;
    ts[i] = 1_700_000_000_000n + BigInt(i) * 1000n;
  }
  const leaf = (values: unknown) => ({ kind: 'leaf', length: N, validity: null, values });
  bytes = await writeParquet({ id: leaf(id), value: leaf(value), category: leaf(category), ts: leaf(ts) } as never, {
    schema: { id: field.int64({ required: true }), value: field.double({ required: true }), category: field.int32({ required: true }), ts: field.timestamp('micros', { required: true }) },
    compression: 'SNAPPY',
  });
  server = http.createServer((req, res) => {
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (req.method === 'HEAD') {
      log.push({ method: 'HEAD', bytes: 0 });
      res.writeHead(200, { 'content-length': bytes.length, 'accept-ranges': 'bytes' }).end();
      return;
    }
    if (!m) {
      res.writeHead(416).end();
      return;
    }
    const start = Number(m[1]);
    const end = Math.min(Number(m[2]) + 1, bytes.length);
    log.push({ method: 'GET', bytes: end - start });
    res.writeHead(206, { 'content-length': end - start, 'content-range': `bytes ${start}-${end - 1}/${bytes.length}` }).end(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sorted.parquet`;
}, 120_000);

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('over HTTP: a ~1% selective read of a sorted 2M-row file', () => {
  test('fetches within 1.5x the bytes of the pages holding matches, plus footer and indexes', async () => {
    log.length = 0;
    const t0 = performance.now();
    const file = await openParquet(await fetchSource(url), { codecs: builtinCodecs() });
    const from = 1_234_567;
    const filter: Filter = { and: [{ column: 'id', op: '>=', value: BigInt(from) }, { column: 'id', op: '<', value: BigInt(from + N / 100) }] };
    let stats: ScanStats | undefined;
    const rows = await file.readRows({ filter, onScan: (s) => (stats = s) });
    const ms = performance.now() - t0;
    // the rows, checked against how the file was built
    expect(rows.length).toBe(N / 100);
    expect(rows[0]).toEqual({ id: BigInt(from), value: (from * 7919) % 1000003, category: from % 17, ts: 1_700_000_000_000n + BigInt(from) * 1000n });
    expect(rows.every((r, k) => r.id === BigInt(from + k))).toBe(true);

    // the bytes a perfect reader needs: per column, the pages holding a matching row and the dictionary page before
    // them (page locations decoded by hyparquet), plus the footer and the row group's indexes
    const md = file.metadata;
    let needed = 0;
    let indexBytes = 0;
    let g0 = 0;
    for (const rg of md.row_groups) {
      const lo = Math.max(from - g0, 0);
      const hi = Math.min(from + N / 100 - g0, rg.num_rows);
      g0 += rg.num_rows;
      if (lo >= hi) continue;
      for (const cc of rg.columns) {
        indexBytes += cc.offset_index_length! + (cc.column_index_length ?? 0);
        const view = new DataView(bytes.buffer, bytes.byteOffset + cc.offset_index_offset!, cc.offset_index_length!);
        const locs = hypOffsetIndex({ view, offset: 0 }).page_locations;
        const chunkStart = Number(cc.meta_data!.dictionary_page_offset ?? cc.meta_data!.data_page_offset);
        needed += Number(locs[0]!.offset) - chunkStart;
        locs.forEach((l, p) => {
          const end = p + 1 < locs.length ? Number(locs[p + 1]!.first_row_index) : rg.num_rows;
          if (Number(l.first_row_index) < hi && end > lo) needed += l.compressed_page_size;
        });
      }
    }
    const footerBytes = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true) + 8;
    const served = log.reduce((n, r) => n + r.bytes, 0);
    const total = file.scanStats();
    console.log(
      `HTTP ~1% read of ${N} rows (${bytes.length} bytes): ${log.length} requests (${log.filter((r) => r.method === 'HEAD').length} HEAD), ` +
        `${served} bytes served; pages holding matches ${needed} bytes, footer ${footerBytes}, indexes ${indexBytes}; ` +
        `reader: ${JSON.stringify(total.requests)} requests, ${JSON.stringify(total.bytes)} bytes; ${ms.toFixed(0)} ms`,
    );
    // the reader's counts are the server's
    expect(total.bytes.total).toBe(served);
    expect(total.requests.total).toBe(log.filter((r) => r.method === 'GET').length);
    expect(stats!.rowsReturned).toBe(N / 100);
    // the must-show: within 1.5x the pages holding matches, plus footer and indexes (the tail read holds the footer
    // and, here, the indexes)
    expect(served - total.bytes.footer - total.bytes.index).toBeLessThanOrEqual(1.5 * needed);
    expect(served).toBeLessThanOrEqual(1.5 * needed + Math.max(total.bytes.footer, footerBytes) + indexBytes);
    expect(served).toBeLessThan(bytes.length / 20);
    // the indexes lie just before the footer: they came with the 64 KiB tail read, no request of their own
    expect(total.requests.index).toBe(0);
    expect(total.requests.total).toBeLessThanOrEqual(6);
  });
});
