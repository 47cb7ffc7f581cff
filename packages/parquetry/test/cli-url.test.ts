/**
 * The `parquetry` command line on an http:// URL, served by a local range server: every reading command prints what
 * it prints for the same file on disk (whose output the other CLI tests check against DuckDB), a projection moves a
 * fraction of the file's bytes (counted by the server, and by `--stats`), the sample file costs one request, and
 * what can go wrong (404, refused connection, a server ignoring Range, bad `--header`) is one clear line.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { field, writeParquet } from '@parquetry/parquet-writer';
// the reader's test range server, by path (as the reader's own HTTP tests use it)
import { rangeServer, type RangeServer } from '../../parquet-reader/test/range-server.js';
import { run, runWith, sample } from './cli-helpers.js';

let server: RangeServer;
let bigUrl: string;
let bigPath: string;
let big: Uint8Array;
let sampleBytes: Uint8Array;
let dir: string;

/** A file of 200,000 rows in 4 row groups, 3 columns: a projection of one column reads about a third of it. */
async function bigFile(): Promise<Uint8Array> {
  const n = 200_000;
  const rows = Array.from({ length: n }, (_, i) => ({ id: BigInt(i), x: (i * 7919) % 100_003, s: `row ${i} ${(i * 31) % 977}` }));
  return writeParquet(rows, { schema: { id: field.int64({ required: true }), x: field.int32(), s: field.string() }, rowGroupRows: 50_000, compression: 'UNCOMPRESSED' });
}

beforeAll(async () => {
  sampleBytes = new Uint8Array(fs.readFileSync(sample));
  big = await bigFile();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-cli-url-'));
  bigPath = path.join(dir, 'big.parquet');
  fs.writeFileSync(bigPath, big);
  server = await rangeServer(sampleBytes);
  bigUrl = server.url.replace(/file\.parquet$/, 'big.parquet');
});

afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Serves `file` for the next requests (the log cleared). */
function serve(file: Uint8Array): void {
  server.reset(file);
}

describe('parquetry on an http:// URL', () => {
  test.each([
    ['schema'],
    ['schema', '--json'],
    ['meta'],
    ['head', '-n', '3'],
    ['tail', '-n', '2', '--format', 'ndjson'],
    ['cat', '--format', 'csv'],
    ['cat', '--columns', 'id,name', '--where', 'id >= 5'],
    ['count'],
    ['count', '--where', 'score > 0.5'],
    ['stats', 'score'],
    ['pages'],
    ['bloom', 'id', '3'],
  ])('%s %s prints what it prints for the file on disk', async (cmd, ...rest) => {
    serve(sampleBytes);
    const local = await run(cmd, sample, ...rest);
    const remote = await run(cmd, server.url, ...rest);
    expect(local.code).toBe(0);
    expect(remote.err).toEqual([]);
    expect(remote.code).toBe(0);
    // meta names the file it read
    expect(remote.out.map((l) => l.replaceAll(server.url, '<file>'))).toEqual(local.out.map((l) => l.replaceAll(sample, '<file>')));
    expect(remote.out.length).toBeGreaterThan(0);
  });

  test('the sample file (31,939 bytes, under the 64 KiB tail) costs one request, a suffix range', async () => {
    serve(sampleBytes);
    const r = await run('cat', server.url, '--format', 'ndjson');
    expect(r.code).toBe(0);
    expect(server.log.map((e) => [e.method, e.range, e.status])).toEqual([['GET', 'bytes=-65536', 206]]);
    expect(server.log[0]!.bytes).toBe(sampleBytes.length);
  });

  test('a one-column projection of a larger file moves a fraction of it; --stats reports what the server sent', async () => {
    serve(big);
    const r = await run('cat', bigUrl, '--columns', 'x', '-n', '200000', '--format', 'ndjson', '--stats');
    expect(r.code).toBe(0);
    expect(r.out.length).toBe(200_000);
    expect(JSON.parse(r.out[123_457]!)).toEqual({ x: (123_457 * 7919) % 100_003 });
    const sent = server.log.reduce((s, e) => s + e.bytes, 0);
    expect(sent).toBeLessThan(big.length / 2);
    const scan = r.err.find((l) => l.startsWith('scan: ') && l.includes(' bytes in '));
    expect(scan).toBeDefined();
    const [, bytes, requests] = /^scan: (\d+) bytes in (\d+) requests/.exec(scan!)!;
    expect(Number(bytes)).toBe(sent);
    expect(Number(requests)).toBe(server.log.length);
  });

  test('head -n 3 of the larger file reads its footer and the first pages only', async () => {
    serve(big);
    const local = await run('head', bigPath, '-n', '3', '--format', 'ndjson');
    const remote = await run('head', bigUrl, '-n', '3', '--format', 'ndjson');
    expect(remote.out).toEqual(local.out);
    expect(remote.out.map((l) => JSON.parse(l) as unknown)).toEqual([0, 1, 2].map((i) => ({ id: i, x: (i * 7919) % 100_003, s: `row ${i} ${(i * 31) % 977}` })));
    expect(server.log.reduce((s, e) => s + e.bytes, 0)).toBeLessThan(big.length / 3);
  });

  test('--header sends request headers', async () => {
    serve(sampleBytes);
    const seen: (string | undefined)[] = [];
    server.hook = (req) => {
      seen.push(req.headers['authorization']);
      return false;
    };
    const r = await run('count', server.url, '--header', 'Authorization: Bearer abc', '--header', 'X-Trace:1');
    expect(r.code).toBe(0);
    expect(r.out).toEqual(['1000']);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((h) => h === 'Bearer abc')).toBe(true);
  });

  test('a server that ignores Range: the small file is read whole, once', async () => {
    serve(sampleBytes);
    server.ranges = false;
    const local = await run('cat', sample, '--format', 'ndjson');
    const remote = await run('cat', server.url, '--format', 'ndjson');
    expect(remote.code).toBe(0);
    expect(remote.out).toEqual(local.out);
    expect(server.log.map((e) => e.status)).toEqual([200]);
  });
});

describe('several URLs read as one dataset', () => {
  test('fetched exactly as given (signed queries, %-encoded names), with --header; partitions from the decoded paths', async () => {
    serve(sampleBytes);
    const seen: { url: string | undefined; auth: string | undefined }[] = [];
    server.hook = (req) => {
      seen.push({ url: req.url, auth: req.headers['authorization'] as string | undefined });
      return false;
    };
    const base = server.url.replace(/\/file\.parquet$/, '');
    // object keys as pyarrow writes them: city=S%C3%A3o%20Paulo (hive-encoded), then %-encoded again in the URL
    const a = `${base}/pa/city=S%25C3%25A3o%2520Paulo/a%20b.parquet?sig=a%2Fb&exp=1`;
    const b = `${base}/pa/city=Oslo/b.parquet?sig=c#frag`;
    // a literal % in a value: hive-encoded 100%25, then %-encoded in the URL (decoded exactly twice, not three times)
    const c = `${base}/pa/city=100%2525/c.parquet`;
    const r = await run('cat', a, b, c, '--columns', 'id,city', '--format', 'ndjson', '--header', 'Authorization: Bearer t');
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.out.length).toBe(3000);
    expect(JSON.parse(r.out[0]!)).toEqual({ id: 0, city: 'São Paulo' });
    expect(JSON.parse(r.out[1000]!)).toEqual({ id: 0, city: 'Oslo' });
    expect(JSON.parse(r.out[2000]!)).toEqual({ id: 0, city: '100%' });
    // every request for the exact path and query given (the fragment is not sent), with the header
    expect(new Set(seen.map((x) => x.url))).toEqual(new Set(['/pa/city=S%25C3%25A3o%2520Paulo/a%20b.parquet?sig=a%2Fb&exp=1', '/pa/city=Oslo/b.parquet?sig=c', '/pa/city=100%2525/c.parquet']));
    expect(seen.every((x) => x.auth === 'Bearer t')).toBe(true);
  });

  test('head and tail of several URLs read only the files and pages holding their rows', async () => {
    serve(big);
    const base = server.url.replace(/\/file\.parquet$/, '');
    const urls = [`${base}/a.parquet`, `${base}/b.parquet`, `${base}/c.parquet`];
    const sent = (): number => server.log.reduce((n, e) => n + e.bytes, 0);
    const tail = await run('tail', ...urls, '-n', '2', '--columns', 'id', '--format', 'ndjson', '--stats');
    expect(tail.code).toBe(0);
    expect(tail.out).toEqual(['{"id":199998}', '{"id":199999}']);
    expect(tail.err[0]).toMatch(/^scan: files 1 read of 3, skipped 0 by partition, 0 by statistics, 2 by row range;/);
    // the three footers (each file's opening request) and the last file's last pages: far below one file's bytes
    expect(sent()).toBeLessThan(big.length / 4);
    serve(big);
    const head = await run('head', ...urls, '-n', '2', '--offset', '200000', '--columns', 'id', '--format', 'ndjson', '--stats');
    expect(head.out).toEqual(['{"id":0}', '{"id":1}']);
    expect(head.err[0]).toMatch(/^scan: files 1 read of 3, .*2 by row range;/);
    expect(sent()).toBeLessThan(big.length / 4);
  });

  test('a URL of the list that fails is one line naming it', async () => {
    serve(sampleBytes);
    server.hook = (req, res) => {
      if (!req.url?.includes('missing')) return false;
      res.writeHead(404, { 'content-length': 0 });
      res.end();
      return true;
    };
    const base = server.url.replace(/\/file\.parquet$/, '');
    const r = await run('count', `${base}/ok.parquet`, `${base}/missing.parquet`);
    expect(r.code).toBe(1);
    expect(r.err).toEqual([expect.stringMatching(new RegExp(`^parquetry: cannot open '${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/missing\\.parquet': .*404`))]);
  });
});

describe('rewrite and convert from a URL', () => {
  test('rewrite URL out: the file re-encoded, rows equal to the file on disk; --header sent', async () => {
    serve(sampleBytes);
    const seen: (string | undefined)[] = [];
    server.hook = (req) => {
      seen.push(req.headers['x-token'] as string | undefined);
      return false;
    };
    const out = path.join(dir, 'rewritten.parquet');
    const r = await run('rewrite', server.url, out, '-c', 'gzip', '--page-version', '2', '--header', 'X-Token: t1');
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((h) => h === 't1')).toBe(true);
    const meta = await run('meta', out);
    expect(meta.out.join('\n')).toMatch(/GZIP/);
    const a = await run('cat', sample, '--format', 'ndjson');
    const b = await run('cat', out, '--format', 'ndjson');
    expect(b.out).toEqual(a.out);
    expect(b.out.length).toBe(1000);
  });

  test('convert of a URL with a query string takes the format from its path', async () => {
    serve(sampleBytes);
    const out = path.join(dir, 'from-query.parquet');
    const r = await run('convert', `${server.url}?sig=abc&x=1.csv`, out, '-c', 'zstd');
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect((await run('count', out)).out).toEqual(['1000']);
  });

  test('convert of a URL that is not Parquet is a usage error', async () => {
    const r = await run('convert', server.url.replace(/file\.parquet$/, 'data.csv'), path.join(dir, 'x.parquet'));
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(/convert reads CSV from a local file; an http:\/\/ or https:\/\/ input must be Parquet/);
  });
});

describe('parquetry on a URL: what can go wrong', () => {
  test('404: one line naming the URL and the status, exit code 1', async () => {
    serve(sampleBytes);
    server.hook = (_req, res) => {
      res.writeHead(404, { 'content-length': 0 });
      res.end();
      return true;
    };
    const url = server.url.replace(/file\.parquet$/, 'missing.parquet');
    const r = await run('schema', url);
    expect(r.code).toBe(1);
    expect(r.out).toEqual([]);
    expect(r.err.length).toBe(1);
    expect(r.err[0]).toMatch(/^parquetry: cannot open 'http:\/\/127\.0\.0\.1:\d+\/missing\.parquet': /);
    expect(r.err[0]).toContain('404');
  });

  test('a refused connection: one line naming the URL, exit code 1', async () => {
    // a port nothing listens on: the server's, closed
    const s = await rangeServer(sampleBytes);
    const url = s.url;
    await s.close();
    const r = await runWith(['count', url]);
    expect(r.code).toBe(1);
    expect(r.err.length).toBe(1);
    expect(r.err[0]).toContain(`cannot open '${url}'`);
  }, 30_000);

  test('an interrupt while a request hangs aborts it: exit code 130', async () => {
    serve(sampleBytes);
    let stalled = 0;
    server.hook = () => {
      stalled++;
      return true; // never answered
    };
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const t0 = performance.now();
    const r = await runWith(['count', server.url], { signal: ac.signal });
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(stalled).toBe(1);
    expect(r.code).toBe(130);
    expect(r.err).toEqual(['parquetry: INTERRUPTED: interrupted']);
  });

  test('a server that ignores Range for a file over 32 MiB: one line that says what to do on the command line', async () => {
    const big = await writeParquet(
      Array.from({ length: 34 }, (_, i) => ({ i, b: new Uint8Array(1 << 20).fill(i) })),
      { schema: { i: field.int32({ required: true }), b: field.binary({ required: true }) }, compression: 'UNCOMPRESSED', dictionary: false },
    );
    serve(big);
    server.ranges = false;
    const r = await run('count', server.url);
    expect(r.code).toBe(1);
    expect(r.err.length).toBe(1);
    expect(r.err[0]).toMatch(/RANGE_NOT_SUPPORTED|ignore/);
    expect(r.err[0]).not.toMatch(/maxWholeBody/);
    expect(r.err[0]).toMatch(/download it and read the local file$/);
  }, 30_000);

  test('a URL that serves something else than Parquet: NOT_PARQUET', async () => {
    serve(new TextEncoder().encode('<html>not here</html>'));
    const r = await run('schema', server.url);
    expect(r.code).toBe(1);
    expect(r.err).toEqual([expect.stringMatching(/^parquetry: NOT_PARQUET: .*not a Parquet file/)]);
  });

  test('--header on a local file, or without a name, is a usage error (exit 2)', async () => {
    const local = await run('count', sample, '--header', 'A: b');
    expect(local.code).toBe(2);
    expect(local.err[0]).toMatch(/--header is for a file read over HTTP/);
    serve(sampleBytes);
    for (const bad of ['no colon', ': empty name', 'Bad Name: x']) {
      const r = await run('count', server.url, '--header', bad);
      expect(r.code, bad).toBe(2);
      expect(r.err[0], bad).toMatch(/--header '.*': expected 'Name: value'/);
    }
    expect(server.log).toEqual([]);
  });

});
