/**
 * The HTTP byte source (`fetchSource`) against a local node:http range server (`range-server.ts`): what it costs
 * (requests and bytes, counted by the server), what it returns (the file's bytes, the rows an in-memory read returns),
 * and how it fails (typed errors naming the URL and range) for servers without suffix ranges, servers ignoring Range,
 * flaky, dropping and slow servers, aborted reads, and a file replaced between requests.
 */
import { getEventListeners } from 'node:events';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { fetchSource, openParquet, type Filter, type ScanStats } from '@parquetry/parquet-reader';
// the writer by path: a devDependency on it would make a cycle in turbo's build graph (the writer's tests read)
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { readBytes, repo, typedError } from './helpers.js';
import { loggedRange, rangeServer, type RangeServer, type Served } from './range-server.js';

const codecs = builtinCodecs();
const small = readBytes(path.join(repo, 'fixtures/sample/sample.parquet')); // 31,939 bytes
const TAIL = 65536;
let large: Uint8Array;
let srv: RangeServer;

const N = 300_000;
beforeAll(async () => {
  const id = new BigInt64Array(N);
  const value = new Float64Array(N);
  const category = new Int32Array(N);
  for (let i = 0; i < N; i++) {
    id[i] = BigInt(i);
    value[i] = (i * 7919) % 1000003;
    category[i] = i % 17;
  }
  const leaf = (values: unknown) => ({ kind: 'leaf', length: N, validity: null, values });
  large = await writeParquet({ id: leaf(id), value: leaf(value), category: leaf(category) } as never, {
    schema: { id: field.int64({ required: true }), value: field.double({ required: true }), category: field.int32({ required: true }) },
    compression: 'SNAPPY',
    rowGroupRows: 100_000,
  });
  srv = await rangeServer(small);
});
afterAll(() => srv.close());

const gets = (log: Served[]) => log.filter((r) => r.method === 'GET');
const served = (log: Served[]) => log.reduce((n, r) => n + r.bytes, 0);
const fileBytesRequests = (log: Served[]) => log.filter((r) => r.method === 'GET' && (r.status === 200 || r.status === 206));
/** The footer's length from the file's last 8 bytes (spec: `<footer> <4-byte LE length> "PAR1"`). */
const footerStart = (f: Uint8Array) => f.length - 8 - new DataView(f.buffer, f.byteOffset).getUint32(f.length - 8, true);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('requests and bytes', () => {
  test('a file smaller than the tail guess: one request in all for opening it and reading every row', async () => {
    srv.reset(small);
    const src = await fetchSource(srv.url);
    expect(srv.log.map((r) => [r.method, r.range, r.status, r.bytes])).toEqual([['GET', `bytes=-${TAIL}`, 206, small.length]]);
    expect(src.byteLength).toBe(small.length);
    expect(src.heldFrom).toBe(0);
    const file = await openParquet(src, { codecs });
    const rows = await file.readRows();
    expect(rows).toEqual(await (await openParquet(small, { codecs })).readRows());
    expect(srv.log.length).toBe(1);
    // the statistics are the server's: one footer request of the whole file, nothing else
    const s = file.scanStats();
    expect(s.requests).toEqual({ footer: 1, index: 0, bloom: 0, dictionary: 0, data: 0, total: 1 });
    expect(s.bytes).toEqual({ footer: small.length, index: 0, bloom: 0, dictionary: 0, data: 0, total: small.length });
    console.log(`small file (${small.length} bytes), open + readRows over HTTP: ${srv.log.length} request, ${served(srv.log)} bytes (before: 3 requests incl. HEAD, 62,742 bytes)`);
  });

  test('a large file: the suffix request gives the size and the footer (no HEAD); the tail is never fetched again; the statistics equal the server\'s counts', async () => {
    srv.reset(large);
    const src = await fetchSource(srv.url);
    const file = await openParquet(src, { codecs });
    expect(srv.log.map((r) => [r.method, r.range, r.status, r.bytes])).toEqual([['GET', `bytes=-${TAIL}`, 206, TAIL]]);
    expect(src.heldFrom).toBe(large.length - TAIL);
    let stats: ScanStats | undefined;
    const rows = await file.readRows({ columns: ['id', 'category'], onScan: (s) => (stats = s) });
    expect(rows.length).toBe(N);
    expect(rows[123_457]).toEqual({ id: 123_457n, category: 123_457 % 17 });
    expect(srv.log.every((r) => r.method === 'GET' && r.status === 206)).toBe(true);
    // no range request reaches into the tail already held
    for (const r of srv.log.slice(1)) expect(loggedRange(r)![1]).toBeLessThanOrEqual(large.length - TAIL);
    const total = file.scanStats();
    expect(total.bytes.total).toBe(served(srv.log));
    expect(total.requests.total).toBe(srv.log.length);
    expect(total.bytes.footer).toBe(TAIL);
    expect(total.requests.footer).toBe(1);
    expect(stats!.bytes.total).toBe(served(srv.log.slice(1)));
    expect(stats!.requests.total).toBe(srv.log.length - 1);
    // every byte at most once: a full read moves no more than the file
    srv.log.length = 0;
    const all = await (await openParquet(await fetchSource(srv.url), { codecs })).readRows();
    expect(all.length).toBe(N);
    expect(served(srv.log)).toBeLessThanOrEqual(large.length);
    console.log(`large file (${large.length} bytes), open + readRows over HTTP: ${srv.log.length} requests, ${served(srv.log)} bytes`);
  });

  test('a filtered read through the page index: footer, index and data bytes counted as the server sent them', async () => {
    srv.reset(large);
    const file = await openParquet(await fetchSource(srv.url), { codecs });
    const filter: Filter = { and: [{ column: 'id', op: '>=', value: 150_000n }, { column: 'id', op: '<', value: 151_000n }] };
    let stats: ScanStats | undefined;
    const rows = await file.readRows({ filter, onScan: (s) => (stats = s) });
    expect(rows.length).toBe(1000);
    expect(rows[0]).toEqual({ id: 150_000n, value: (150_000 * 7919) % 1000003, category: 150_000 % 17 });
    const total = file.scanStats();
    expect(total.bytes.total).toBe(served(srv.log));
    expect(total.requests.total).toBe(srv.log.length);
    expect(stats!.bytes.total).toBe(served(srv.log.slice(1)));
    expect(stats!.bytes.data + stats!.bytes.dictionary + stats!.bytes.index + stats!.bytes.bloom).toBe(stats!.bytes.total);
    expect(stats!.rowGroups.skipped.statistics).toBe(2);
  });

  test('a footer longer than the tail guess costs one more request, for exactly the bytes before the tail', async () => {
    srv.reset(large);
    const guess = 100;
    const file = await openParquet(await fetchSource(srv.url, { tailGuess: guess }), { codecs, tailGuess: guess });
    const off = footerStart(large);
    expect(srv.log.map((r) => r.range)).toEqual([`bytes=-${guess}`, `bytes=${off}-${large.length - guess - 1}`]);
    expect(file.numRows).toBe(N);
    expect(file.scanStats().bytes.footer).toBe(large.length - off);
    expect(file.scanStats().requests.footer).toBe(2);
  });

  test('with byteLength given: no request up front; the footer read is kept as the tail', async () => {
    srv.reset(small);
    const src = await fetchSource(srv.url, { byteLength: small.length });
    expect(srv.log.length).toBe(0);
    const file = await openParquet(src, { codecs });
    expect(srv.log.map((r) => r.range)).toEqual([`bytes=0-${small.length - 1}`]);
    expect((await file.readRows()).length).toBe(1000);
    expect(srv.log.length).toBe(1);
    expect(file.scanStats().bytes.total).toBe(small.length);
  });

  test('property: every read returns exactly the file\'s bytes, whatever the server, tail guess and reads; bytes held cost no request', async () => {
    const modes = ['ranges', 'no-suffix', 'ignores-range', 'hides-content-range', 'suffix-whole'] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 0, maxLength: 3000 }),
        fc.integer({ min: 1, max: 4000 }),
        fc.constantFrom(...modes),
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 8 }),
        async (file, tailGuess, mode, giveSize, picks) => {
          srv.reset(file);
          srv.suffix = mode !== 'no-suffix';
          srv.ranges = mode !== 'ignores-range';
          srv.hideContentRange = mode === 'hides-content-range';
          srv.suffixWhole = mode === 'suffix-whole';
          const src = await fetchSource(srv.url, { tailGuess, checkMagic: false, ...(giveSize ? { byteLength: file.length } : {}) });
          expect(src.byteLength).toBe(file.length);
          for (const [a, b] of picks) {
            const start = file.length === 0 ? 0 : a % (file.length + 1);
            const end = start + (file.length === 0 ? 0 : b % (file.length - start + 1));
            const heldBefore = src.heldFrom;
            const before = srv.log.length;
            const got = await src.read(start, end);
            expect(Array.from(got)).toEqual(Array.from(file.subarray(start, end)));
            if (start >= heldBefore || start === end) expect(srv.log.length).toBe(before);
            else expect(srv.log.length).toBe(before + 1);
            // a request reaching into the held bytes asks only for those before them
            if (srv.log.length > before && srv.ranges) expect(loggedRange(srv.log[before]!)).toEqual([start, Math.min(end, heldBefore)]);
          }
          // a server answering with the whole file is asked for it once
          if (mode === 'ignores-range' || (mode === 'suffix-whole' && !giveSize)) expect(fileBytesRequests(srv.log).length).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('servers that do not answer ranges as asked', () => {
  test('a server ignoring Range: the suffix request\'s 200 is the whole file, read from memory (one request)', async () => {
    srv.reset(small);
    srv.ranges = false;
    const file = await openParquet(await fetchSource(srv.url), { codecs });
    expect((await file.readRows()).length).toBe(1000);
    expect(srv.log.map((r) => [r.range, r.status, r.bytes])).toEqual([[`bytes=-${TAIL}`, 200, small.length]]);
    expect(file.scanStats().bytes.footer).toBe(small.length);
  });

  test('a server honouring suffix ranges only: a later range answered with the whole file (200) is kept and used', async () => {
    srv.reset(large);
    const src = await fetchSource(srv.url);
    srv.ranges = false;
    const file = await openParquet(src, { codecs });
    const rows = await file.readRows({ columns: ['value'], rowStart: 5, rowEnd: 7 });
    expect(rows).toEqual([{ value: (5 * 7919) % 1000003 }, { value: (6 * 7919) % 1000003 }]);
    expect(srv.log.map((r) => r.status)).toEqual([206, 200]);
    expect(src.heldFrom).toBe(0);
    expect((await file.readRows({ columns: ['id'] })).length).toBe(N);
    expect(srv.log.length).toBe(2);
  });

  test('a file larger than maxWholeBody from a server ignoring Range: RANGE_NOT_SUPPORTED, never wrong bytes', async () => {
    srv.reset(large);
    srv.ranges = false;
    const src = await fetchSource(srv.url, { maxWholeBody: 1000 });
    // the suffix answer was too large to keep: the size came from a HEAD request
    expect(srv.log.map((r) => [r.method, r.status])).toEqual([['GET', 200], ['HEAD', 200]]);
    expect(src.byteLength).toBe(large.length);
    const e = await typedError(() => openParquet(src, { codecs }));
    expect(e.code).toBe('RANGE_NOT_SUPPORTED');
    expect(e.message).toContain(srv.url);
    expect(e.message).toContain(`bytes=${large.length - TAIL}-${large.length - 1}`);
    expect(e.message).toContain('maxWholeBody');
    expect(e.offset).toBe(large.length - TAIL);
  });

  test('a server ignoring Range with no Content-Length: its body is read up to maxWholeBody once, then RANGE_NOT_SUPPORTED (QA helper-83 F3)', async () => {
    srv.reset(large);
    // chunks written to each GET until the client lets go of the answer
    const written: number[] = [];
    srv.hook = (req, res, n) => {
      if (req.method === 'HEAD') {
        res.writeHead(200, { 'transfer-encoding': 'chunked' });
        res.end();
        return true;
      }
      res.writeHead(200, { 'transfer-encoding': 'chunked' });
      written[n] = 0;
      const timer = setInterval(() => {
        if (res.destroyed || written[n]! >= 200) {
          clearInterval(timer);
          res.end();
          return;
        }
        res.write(large.subarray(written[n]! * 100, written[n]! * 100 + 100));
        written[n]!++;
      }, 2);
      res.on('close', () => clearInterval(timer));
      return true;
    };
    const e = await typedError(async () => openParquet(await fetchSource(srv.url, { maxWholeBody: 1000 }), { codecs }));
    expect(e.code).toBe('RANGE_NOT_SUPPORTED');
    expect(srv.log.map((r) => [r.method, r.range])).toEqual([['GET', `bytes=-${TAIL}`], ['HEAD', undefined], ['GET', 'bytes=0-0']]);
    // the suffix answer was read past maxWholeBody; the one-byte range's answer is let go at once (it was read up
    // to maxWholeBody again before)
    expect(written[0]).toBeGreaterThan(10);
    expect(written[2]).toBeLessThan(5);
  });

  test('416 to the suffix range: falls back to HEAD, then ranges (the refused request and the HEAD carry no file bytes)', async () => {
    srv.reset(large);
    srv.suffix = false;
    const file = await openParquet(await fetchSource(srv.url), { codecs });
    expect(srv.log.map((r) => [r.method, r.range, r.status])).toEqual([
      ['GET', `bytes=-${TAIL}`, 416],
      ['HEAD', undefined, 200],
      ['GET', `bytes=${large.length - TAIL}-${large.length - 1}`, 206],
    ]);
    expect((await file.readRows({ columns: ['category'] })).length).toBe(N);
    for (const r of srv.log.slice(3)) expect(loggedRange(r)![1]).toBeLessThanOrEqual(large.length - TAIL);
    expect(file.scanStats().bytes.total).toBe(served(srv.log));
    expect(file.scanStats().requests.total).toBe(fileBytesRequests(srv.log).length);
  });

  test('Content-Range hidden (a cross-origin answer not exposing it): the size from HEAD, the tail still kept', async () => {
    srv.reset(small);
    srv.hideContentRange = true;
    const file = await openParquet(await fetchSource(srv.url), { codecs });
    expect((await file.readRows()).length).toBe(1000);
    expect(srv.log.map((r) => [r.method, r.status])).toEqual([['GET', 206], ['HEAD', 200]]);
  });

  test('an empty file: 416 with "bytes */0" gives its size; opening it is NOT_PARQUET', async () => {
    srv.reset(new Uint8Array(0));
    const src = await fetchSource(srv.url);
    expect(src.byteLength).toBe(0);
    expect((await typedError(() => openParquet(src))).code).toBe('NOT_PARQUET');
    expect(srv.log.length).toBe(1);
  });

  test('404 is HTTP_ERROR naming the URL, without retries', async () => {
    srv.reset(small);
    srv.hook = (_req, res) => (res.writeHead(404).end(), true);
    const e = await typedError(() => fetchSource(srv.url, { retryDelay: 1 }));
    expect(e.code).toBe('HTTP_ERROR');
    expect(e.message).toBe(`parquet-reader: GET ${srv.url} (bytes=-${TAIL}): answered with HTTP 404 Not Found`);
    expect(srv.log.length).toBe(1);
  });
});

describe('transient failures: retries with backoff', () => {
  test('500 then 206: the read succeeds after one retry', async () => {
    srv.reset(large);
    const src = await fetchSource(srv.url, { retryDelay: 1 });
    srv.hook = (_req, res, n) => (n === 1 || n === 2 ? (res.writeHead(n === 1 ? 500 : 502).end(), true) : false);
    const bytes = await src.read(1000, 2000);
    expect(Array.from(bytes)).toEqual(Array.from(large.subarray(1000, 2000)));
    expect(srv.log.map((r) => r.status)).toEqual([206, -1, -1, 206]);
    expect(src.requestsSent).toBe(4);
  });

  test('retries exhausted: HTTP_ERROR after retries + 1 attempts, with exponential backoff between them', async () => {
    srv.reset(small);
    srv.hook = (_req, res) => (res.writeHead(503).end(), true);
    const e = await typedError(() => fetchSource(srv.url, { retries: 3, retryDelay: 40 }));
    expect(e.code).toBe('HTTP_ERROR');
    expect(e.message).toBe(`parquet-reader: GET ${srv.url} (bytes=-${TAIL}): answered with HTTP 503 Service Unavailable (after 4 attempts)`);
    expect(srv.log.length).toBe(4);
    // retry k waits between half and all of 40 ms × 2^k
    const gaps = srv.log.slice(1).map((r, k) => r.at - srv.log[k]!.at);
    gaps.forEach((g, k) => expect(g).toBeGreaterThanOrEqual(20 * 2 ** k - 2));
  });

  test('429 with Retry-After waits as asked; a Retry-After longer than maxRetryDelay fails at once', async () => {
    srv.reset(small);
    srv.hook = (_req, res, n) => (n === 0 ? (res.writeHead(429, { 'retry-after': '1' }).end(), true) : false);
    await fetchSource(srv.url, { retryDelay: 1 });
    expect(srv.log.map((r) => r.status)).toEqual([-1, 206]);
    expect(srv.log[1]!.at - srv.log[0]!.at).toBeGreaterThanOrEqual(990);
    srv.reset(small);
    srv.hook = (_req, res) => (res.writeHead(429, { 'retry-after': '120' }).end(), true);
    const e = await typedError(() => fetchSource(srv.url));
    expect(e.code).toBe('HTTP_ERROR');
    expect(e.message).toContain('HTTP 429');
    expect(e.message).toContain('retry after 120 s');
    expect(srv.log.length).toBe(1);
  });

  test('4xx other than 408/429 are never retried', async () => {
    for (const status of [400, 401, 403, 410]) {
      srv.reset(large);
      const src = await fetchSource(srv.url, { retryDelay: 1 });
      srv.hook = (_req, res) => (res.writeHead(status).end(), true);
      const e = await typedError(() => src.read(0, 10));
      expect(e.code).toBe('HTTP_ERROR');
      expect(e.message).toContain(`(bytes=0-9): answered with HTTP ${status}`);
      expect(srv.log.length).toBe(2);
    }
  });

  test('a connection dropped before the answer, and one dropped mid-body: retried, the bytes correct', async () => {
    srv.reset(large);
    const src = await fetchSource(srv.url, { retryDelay: 1 });
    srv.hook = (req, res, n) => {
      if (n === 1) return req.socket.destroy(), true;
      if (n === 2) {
        res.writeHead(206, { 'content-length': 100_000, 'content-range': `bytes 0-99999/${large.length}` });
        res.write(Buffer.from(large.subarray(0, 50_000)), () => req.socket.destroy());
        return true;
      }
      return false;
    };
    const bytes = await src.read(0, 100_000);
    expect(bytes.length).toBe(100_000);
    expect(Buffer.compare(bytes, large.subarray(0, 100_000))).toBe(0);
    expect(srv.log.length).toBe(4);
    // without retries the drop is NETWORK_ERROR naming the URL and range
    const once = await fetchSource(srv.url, { retries: 0, byteLength: large.length });
    srv.log.length = 0;
    srv.hook = (req) => (req.socket.destroy(), true);
    const e = await typedError(() => once.read(10, 20));
    expect(e.code).toBe('NETWORK_ERROR');
    expect(e.message).toContain(`GET ${srv.url} (bytes=10-19)`);
    expect(e.offset).toBe(10);
  });
});

describe('timeouts and aborts', () => {
  test('a server slower than the timeout: TIMEOUT naming the URL and range, after the retries', async () => {
    srv.reset(large);
    // the size given: no request up front, which a loaded machine could slow past the timeout
    const src = await fetchSource(srv.url, { timeout: 100, retries: 1, retryDelay: 1, byteLength: large.length });
    srv.hook = () => true; // never answers
    const t0 = performance.now();
    const e = await typedError(() => src.read(500, 600));
    expect(e.code).toBe('TIMEOUT');
    expect(e.message).toBe(`parquet-reader: GET ${srv.url} (bytes=500-599): no complete answer within 100 ms (after 2 attempts)`);
    expect(srv.log.length).toBe(2);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  test('a body that stalls halfway: TIMEOUT', async () => {
    srv.reset(large);
    const src = await fetchSource(srv.url, { timeout: 150, retries: 0, byteLength: large.length });
    srv.hook = (_req, res) => {
      res.writeHead(206, { 'content-length': 1000, 'content-range': `bytes 0-999/${large.length}` });
      res.write(Buffer.from(large.subarray(0, 10)));
      return true;
    };
    expect((await typedError(() => src.read(0, 1000))).code).toBe('TIMEOUT');
  });

  test('an aborted signal: ABORTED at once, before any request, and for every later read', async () => {
    srv.reset(small);
    const ctl = new AbortController();
    ctl.abort(new Error('user gave up'));
    const e = await typedError(() => fetchSource(srv.url, { signal: ctl.signal }));
    expect(e.code).toBe('ABORTED');
    expect(e.message).toBe(`parquet-reader: GET ${srv.url} (bytes=-${TAIL}): aborted by the signal`);
    expect(srv.log.length).toBe(0);
  });

  test('abort mid-read: the running read fails with ABORTED (its cause the abort reason), later reads too, no more requests', async () => {
    srv.reset(large);
    const ctl = new AbortController();
    const file = await openParquet(await fetchSource(srv.url, { signal: ctl.signal }), { codecs });
    srv.hook = () => true; // hold every request
    const reading = file.readRows({ columns: ['id'] });
    while (srv.log.length < 2) await sleep(5);
    const t0 = performance.now();
    ctl.abort(new Error('stop'));
    let caught: unknown;
    try {
      await reading;
    } catch (err) {
      caught = err;
    }
    expect(performance.now() - t0).toBeLessThan(500);
    const err = caught as { code: string; message: string; cause: unknown };
    expect(err.code).toBe('ABORTED');
    expect(err.message).toMatch(new RegExp(`^parquet-reader: GET ${srv.url} \\(bytes=\\d+-\\d+\\): aborted by the signal$`));
    expect((err.cause as Error).message).toBe('stop');
    const seen = srv.log.length;
    expect((await typedError(() => file.readRows({ columns: ['value'] }))).code).toBe('ABORTED');
    expect(srv.log.length).toBe(seen);
  });

  test('many reads in flight on one signal: one abort listener (no MaxListenersExceededWarning), and the abort stops them all', async () => {
    srv.reset(large);
    const ctl = new AbortController();
    const src = await fetchSource(srv.url, { signal: ctl.signal });
    srv.hook = () => true; // hold every request
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on('warning', onWarning);
    try {
      const before = srv.log.length;
      const reads = Array.from({ length: 24 }, (_, i) => typedError(() => src.read(i * 100, i * 100 + 50)));
      while (srv.log.length < before + 24) await sleep(5);
      expect(getEventListeners(ctl.signal, 'abort').length).toBe(1);
      ctl.abort();
      const errors = await Promise.all(reads);
      expect(errors.map((e) => e.code)).toEqual(Array(24).fill('ABORTED'));
      expect(getEventListeners(ctl.signal, 'abort').length).toBe(0);
      await sleep(10); // warnings are emitted on the next tick
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  test('abort during the backoff wait: ABORTED without waiting it out', async () => {
    srv.reset(large);
    const ctl = new AbortController();
    const src = await fetchSource(srv.url, { signal: ctl.signal, retryDelay: 10_000 });
    srv.hook = (_req, res) => (res.writeHead(500).end(), true);
    const reading = typedError(() => src.read(0, 10));
    while (srv.log.length < 2) await sleep(5);
    const t0 = performance.now();
    ctl.abort();
    expect((await reading).code).toBe('ABORTED');
    expect(performance.now() - t0).toBeLessThan(500);
    expect(srv.log.length).toBe(2);
  });
});

describe('a file changed between requests', () => {
  const replaced = () => {
    const f = large.slice();
    f[1000] = f[1000]! ^ 0xff;
    return f;
  };

  test('strong ETag: later requests carry If-Match; the server\'s 412 is SOURCE_CHANGED, not corrupt data', async () => {
    srv.reset(large);
    srv.etag = '"v1"';
    const src = await fetchSource(srv.url);
    expect(src.etag).toBe('"v1"');
    const file = await openParquet(src, { codecs });
    await file.readRows({ columns: ['id'], rowEnd: 10 });
    expect(srv.log.slice(1).every((r) => r.ifMatch === '"v1"')).toBe(true);
    srv.file = replaced();
    srv.etag = '"v2"';
    const e = await typedError(() => file.readRows({ columns: ['value'] }));
    expect(e.code).toBe('SOURCE_CHANGED');
    expect(e.message).toContain(srv.url);
    expect(e.message).toContain('HTTP 412 to If-Match "v1"');
    expect(srv.log.at(-1)!.status).toBe(412);
  });

  test('a server ignoring If-Match: the new ETag in its answer is SOURCE_CHANGED', async () => {
    srv.reset(large);
    srv.etag = '"v1"';
    srv.conditional = false;
    const src = await fetchSource(srv.url);
    srv.file = replaced();
    srv.etag = '"v2"';
    const e = await typedError(() => src.read(0, 2000));
    expect(e.code).toBe('SOURCE_CHANGED');
    expect(e.message).toBe(`parquet-reader: GET ${srv.url} (bytes=0-1999): the file changed since it was first read (ETag "v1", now "v2")`);
  });

  test('a weak ETag is compared but not sent in If-Match (which needs a strong one)', async () => {
    srv.reset(large);
    srv.etag = 'W/"a"';
    const src = await fetchSource(srv.url);
    await src.read(0, 10);
    expect(srv.log[1]!.ifMatch).toBeUndefined();
    srv.etag = 'W/"b"';
    expect((await typedError(() => src.read(10, 20))).code).toBe('SOURCE_CHANGED');
  });

  test('Last-Modified only: If-Unmodified-Since, and the 412 is SOURCE_CHANGED', async () => {
    srv.reset(large);
    srv.lastModified = 'Mon, 01 Jan 2024 00:00:00 GMT';
    const src = await fetchSource(srv.url);
    await src.read(0, 10);
    expect(srv.log[1]!.ifUnmodifiedSince).toBe('Mon, 01 Jan 2024 00:00:00 GMT');
    srv.file = replaced();
    srv.lastModified = 'Tue, 02 Jan 2024 00:00:00 GMT';
    const e = await typedError(() => src.read(10, 20));
    expect(e.code).toBe('SOURCE_CHANGED');
    expect(e.message).toContain('If-Unmodified-Since Mon, 01 Jan 2024 00:00:00 GMT');
  });

  test('no validators: a file whose size changed is SOURCE_CHANGED (Content-Range), also from a server ignoring Range', async () => {
    srv.reset(large);
    const src = await fetchSource(srv.url);
    srv.file = large.subarray(0, large.length - 1);
    const e = await typedError(() => src.read(0, 10));
    expect(e.code).toBe('SOURCE_CHANGED');
    expect(e.message).toContain(`the file is now ${large.length - 1} bytes, it was ${large.length}`);
    srv.reset(small);
    const src2 = await fetchSource(srv.url, { byteLength: small.length });
    srv.ranges = false;
    srv.file = small.subarray(1);
    expect((await typedError(() => src2.read(0, 10))).code).toBe('SOURCE_CHANGED');
  });

  test('detectChanges: false sends no conditional headers and ignores validators', async () => {
    srv.reset(large);
    srv.etag = '"v1"';
    const src = await fetchSource(srv.url, { detectChanges: false });
    srv.etag = '"v2"';
    await src.read(0, 10);
    expect(srv.log[1]!.ifMatch).toBeUndefined();
  });
});

test('options are checked: INVALID_OPTION', async () => {
  for (const o of [{ tailGuess: 0 }, { retries: -1 }, { timeout: 1.5 }, { byteLength: -1 }, { maxWholeBody: Number.NaN }]) {
    const e = await typedError(() => fetchSource(srv.url, o));
    expect(e.code).toBe('INVALID_OPTION');
  }
});
