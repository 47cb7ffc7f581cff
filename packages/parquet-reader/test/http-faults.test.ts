/**
 * The byte sources' error contract (issue 16): every way a source can fail — a local 127.0.0.1 server that drops
 * connections mid-body, refuses them (a closed port), stalls (headers then nothing; nothing at all), sends short
 * bodies or a wrong Content-Range, answers 5xx (then succeeds, or forever), or an HTML page — and a Blob, a local file
 * and a hand-written ByteSource that throw, each end in a ParquetError with its own code (HTTP_ERROR, NETWORK_ERROR,
 * TIMEOUT, ABORTED, SOURCE_ERROR, SOURCE_CHANGED, NOT_PARQUET), the original failure as `cause`, within a deadline
 * computed from the options, both when opening the file (openParquet) and in a later read (readRows).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { blobSource, fetchSource, openParquet, readRanges, type ByteSource, type FetchSourceOptions } from '@parquetry/parquet-reader';
import { fileSource } from '@parquetry/parquet-reader/node';
import { int64File, rangeServer, type RangeServer } from './range-server.js';

const N = 60_000;
let file: Uint8Array;
let srv: RangeServer;
let closedUrl = '';
let dir = '';

beforeAll(async () => {
  file = await int64File(N, 7919, 20_000);
  srv = await rangeServer(file);
  // a port that was listening a moment ago and no longer is: connections to it are refused
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  closedUrl = `http://127.0.0.1:${(s.address() as AddressInfo).port}/file.parquet`;
  await new Promise<void>((r) => s.close(() => r()));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-faults-'));
});
afterAll(async () => {
  await srv.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** What a failed call threw: its code, message and cause (fails the test when it is not a ParquetError). */
async function failure(f: () => Promise<unknown>): Promise<{ code: string; message: string; cause: unknown; ms: number }> {
  const t0 = performance.now();
  try {
    await f();
  } catch (e) {
    const err = e as { name?: unknown; code?: unknown; message: string; cause?: unknown };
    if (err?.name !== 'ParquetError' || typeof err.code !== 'string') throw new Error(`expected a ParquetError, got ${String((e as Error)?.stack ?? e)}`);
    return { code: err.code, message: err.message, cause: err.cause, ms: performance.now() - t0 };
  }
  throw new Error('expected a ParquetError, nothing was thrown');
}

/** The `[start, end]` (inclusive) a request's Range header asks for, in a file of `size` bytes. */
function asked(req: http.IncomingMessage, size: number): [number, number] {
  const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '')!;
  if (m[1] === '') return [Math.max(0, size - Number(m[2])), size - 1];
  return [Number(m[1]), Math.min(size - 1, Number(m[2]))];
}

/** A server behaviour taking over every request, or only the first `times` ones after it is installed. */
type Fault = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const faults: Record<string, Fault> = {
  'drops the connection mid-body': (req, res) => {
    const [a, b] = asked(req, file.length);
    res.writeHead(206, { 'content-length': b - a + 1, 'content-range': `bytes ${a}-${b}/${file.length}` });
    res.write(Buffer.from(file.subarray(a, a + Math.ceil((b - a + 1) / 2))), () => req.socket.destroy());
  },
  'drops the connection before answering': (req) => req.socket.destroy(),
  'sends headers, then nothing': (req, res) => {
    const [a, b] = asked(req, file.length);
    res.writeHead(206, { 'content-length': b - a + 1, 'content-range': `bytes ${a}-${b}/${file.length}` });
    res.flushHeaders();
  },
  'sends nothing at all': () => undefined,
  'sends a short body (its Content-Length says so)': (req, res) => {
    const [a, b] = asked(req, file.length);
    const half = Math.ceil((b - a + 1) / 2);
    res.writeHead(206, { 'content-length': half, 'content-range': `bytes ${a}-${b}/${file.length}` });
    res.end(Buffer.from(file.subarray(a, a + half)));
  },
  'answers with another range than the one asked for': (req, res) => {
    const [a, b] = asked(req, file.length);
    const [c, d] = a >= 100 ? [a - 100, b - 100] : [a + 1, b];
    res.writeHead(206, { 'content-length': d - c + 1, 'content-range': `bytes ${c}-${d}/${file.length}` });
    res.end(Buffer.from(file.subarray(c, d + 1)));
  },
  'answers with an unreadable Content-Range': (req, res) => {
    const [a, b] = asked(req, file.length);
    res.writeHead(206, { 'content-length': b - a + 1, 'content-range': `bytes ${b}-${a}/${file.length}` });
    res.end(Buffer.from(file.subarray(a, b + 1)));
  },
  'answers 503': (_req, res) => void res.writeHead(503).end(),
  'answers 502 with a body': (_req, res) => void res.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>'),
};

/** Each fault's typed error when it never stops, and whether it is retried. */
const expected: Record<string, { code: string; retried: boolean; message: RegExp; cause?: RegExp }> = {
  'drops the connection mid-body': { code: 'NETWORK_ERROR', retried: true, message: /TypeError: terminated/, cause: /terminated/ },
  'drops the connection before answering': { code: 'NETWORK_ERROR', retried: true, message: /fetch failed/, cause: /fetch failed/ },
  'sends headers, then nothing': { code: 'TIMEOUT', retried: true, message: /no complete answer within 1000 ms/, cause: /abort/i },
  'sends nothing at all': { code: 'TIMEOUT', retried: true, message: /no complete answer within 1000 ms/, cause: /abort/i },
  'sends a short body (its Content-Length says so)': { code: 'HTTP_ERROR', retried: true, message: /the answer ended after \d+ of \d+ bytes/ },
  'answers with another range than the one asked for': { code: 'HTTP_ERROR', retried: false, message: /answered with Content-Range bytes \d+-\d+\/\d+, not/ },
  'answers with an unreadable Content-Range': { code: 'HTTP_ERROR', retried: false, message: /Content-Range/ },
  'answers 503': { code: 'HTTP_ERROR', retried: true, message: /answered with HTTP 503 Service Unavailable/ },
  'answers 502 with a body': { code: 'HTTP_ERROR', retried: true, message: /answered with HTTP 502 Bad Gateway/ },
};

const RETRIES = 2;
const TIMEOUT = 1000; // generous: a retry after a stall must fetch the file within it on a loaded machine
const opts: FetchSourceOptions = { retries: RETRIES, retryDelay: 5, maxRetryDelay: 20, timeout: TIMEOUT };
/** The most a failing call may take: every attempt timing out, the backoff waits, and a loaded machine's slack. */
const DEADLINE = (RETRIES + 1) * TIMEOUT + RETRIES * 20 + 2500;

/** Installs `fault` for every request from now on, or for the next `times` requests only. */
function install(fault: Fault, times = Infinity): void {
  const from = srv.log.length;
  srv.hook = (req, res, n) => {
    if (n - from >= times) return false;
    fault(req, res);
    return true;
  };
}

describe.each(Object.keys(faults))('a server that %s', (name) => {
  const fault = faults[name]!;
  const want = expected[name]!;
  const attempts = want.retried ? RETRIES + 1 : 1;

  const check = (e: Awaited<ReturnType<typeof failure>>, range: RegExp) => {
    expect(e.code).toBe(want.code);
    expect(e.message).toMatch(new RegExp(`^parquet-reader: GET ${srv.url.replace(/[.]/g, '\\.')} \\(${range.source}\\): `));
    expect(e.message).toMatch(want.message);
    if (want.retried) expect(e.message).toContain(`(after ${attempts} attempts)`);
    if (want.cause) expect(String((e.cause as Error)?.message ?? e.cause)).toMatch(want.cause);
    expect(e.ms).toBeLessThan(DEADLINE);
  };

  test('when opening: openParquet fails with its typed error, after the retries, within the deadline', async () => {
    srv.reset(file);
    install(fault);
    const e = await failure(async () => openParquet(await fetchSource(srv.url, opts)));
    check(e, /bytes=-65536/);
    expect(srv.log.length).toBe(attempts);
  });

  test('in a read: readRows fails with its typed error, after the retries, within the deadline', async () => {
    srv.reset(file);
    const pq = await openParquet(await fetchSource(srv.url, opts));
    expect(srv.log.length).toBe(1);
    install(fault);
    const e = await failure(() => pq.readRows());
    check(e, /bytes=\d+-\d+/);
    // every request after the opening one failed: at most `attempts` per range (the reader may fetch ranges in parallel)
    expect(srv.log.length - 1).toBeGreaterThanOrEqual(attempts);
  });

  if (want.retried) {
    test('once, then well: the read is retried and returns every row', async () => {
      srv.reset(file);
      install(fault, 1);
      const pq = await openParquet(await fetchSource(srv.url, opts));
      install(fault, 1);
      const rows = await pq.readRows();
      expect(rows.length).toBe(N);
      expect(rows[N - 1]).toEqual({ id: BigInt((N - 1) * 7919) });
      expect(srv.log.filter((r) => r.status === -1).length).toBe(2);
    });
  }
});

describe('refused connections', () => {
  test('a closed port: NETWORK_ERROR (ECONNREFUSED in the message and the cause), after the retries, when opening and in a read', async () => {
    const open = await failure(async () => openParquet(await fetchSource(closedUrl, opts)));
    expect(open.code).toBe('NETWORK_ERROR');
    expect(open.message).toContain(`GET ${closedUrl} (bytes=-65536): TypeError: fetch failed (`);
    expect(open.message).toContain('ECONNREFUSED');
    expect(open.message).toContain(`(after ${RETRIES + 1} attempts)`);
    expect(((open.cause as Error).cause as { code?: string }).code).toBe('ECONNREFUSED');
    expect(open.ms).toBeLessThan(DEADLINE);
    // the size given: nothing is sent until the footer read, which openParquet makes
    const src = await fetchSource(closedUrl, { ...opts, byteLength: file.length });
    const read = await failure(() => openParquet(src));
    expect(read.code).toBe('NETWORK_ERROR');
    expect(read.message).toContain(`(bytes=${file.length - 65536}-${file.length - 1})`);
    expect(src.requestsSent).toBe(RETRIES + 1);
  });
});

describe('answers that are not the file', () => {
  test('an HTML page answered with 200 in the file\'s place: NOT_PARQUET naming its Content-Type, no retries', async () => {
    srv.reset(file);
    srv.hook = (_req, res) => (res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!DOCTYPE html><p>Please log in</p>'), true);
    const e = await failure(async () => openParquet(await fetchSource(srv.url, opts)));
    expect(e.code).toBe('NOT_PARQUET');
    expect(e.message).toBe(`parquet-reader: GET ${srv.url} (bytes=-65536): the file starts with 3c 21 44 4f, not "PAR1" or "PARE": not a Parquet file (Content-Type text/html; charset=utf-8)`);
    expect(srv.log.length).toBe(1);
  });

  test('a small file whose tail holds its start: the leading magic is checked on the opening answer', async () => {
    const bad = new Uint8Array(40);
    bad.set([0x50, 0x41, 0x52, 0x31], 36); // trailing "PAR1", leading zeros
    srv.reset(bad);
    const e = await failure(() => fetchSource(srv.url, opts));
    expect(e.code).toBe('NOT_PARQUET');
    expect(e.message).toContain('the file starts with 00 00 00 00');
    // checkMagic: false leaves it to the reader (which only looks at the footer)
    const src = await fetchSource(srv.url, { ...opts, checkMagic: false });
    expect(src.byteLength).toBe(40);
  });

  test('a read from byte 0 checks the magic too; an encrypted file\'s "PARE" is accepted', async () => {
    const pare = file.slice();
    pare.set([0x50, 0x41, 0x52, 0x45], 0);
    srv.reset(pare);
    const src = await fetchSource(srv.url, opts);
    expect(Array.from(await src.read(0, 8))).toEqual(Array.from(pare.subarray(0, 8)));
    const junk = file.slice();
    junk[0] = 0x51;
    srv.file = junk;
    srv.etag = undefined;
    const other = await fetchSource(srv.url, { ...opts, byteLength: junk.length });
    expect((await failure(() => other.read(0, 100))).code).toBe('NOT_PARQUET');
    expect(Array.from(await other.read(1, 100))).toEqual(Array.from(junk.subarray(1, 100)));
  });
});

describe('sources that are not HTTP', () => {
  /** A ByteSource over the file whose reads starting before byte `below` do `act` instead. */
  const failing = (below: number, act: (start: number, end: number) => Promise<Uint8Array>): ByteSource => ({
    byteLength: file.length,
    read: (start, end) => (start < below ? act(start, end) : Promise.resolve(file.subarray(start, end))),
  });
  const foot = () => file.length - 8 - new DataView(file.buffer, file.byteOffset).getUint32(file.length - 8, true);

  test.each([
    ['a TypeError', () => new TypeError('terminated'), 'SOURCE_ERROR', 'TypeError: terminated'],
    ['a DOMException AbortError', () => new DOMException('The operation was aborted.', 'AbortError'), 'ABORTED', 'AbortError: The operation was aborted.'],
    ['a DOMException TimeoutError', () => new DOMException('The operation timed out.', 'TimeoutError'), 'TIMEOUT', 'TimeoutError: The operation timed out.'],
    ['a string', () => 'nope', 'SOURCE_ERROR', 'nope'],
  ])('a hand-written source throwing %s: its typed error, the original as cause, from openParquet and from readRows', async (_what, make, code, text) => {
    const thrown = make();
    const open = await failure(() => openParquet(failing(Infinity, () => Promise.reject(thrown))));
    expect([open.code, open.cause]).toEqual([code, thrown]);
    expect(open.message).toBe(`parquet-reader: the byte source failed reading bytes [${file.length - 65536}, ${file.length}): ${text}`);
    const pq = await openParquet(failing(foot(), () => Promise.reject(thrown)), { tailGuess: 16 });
    const read = await failure(() => pq.readRows());
    expect([read.code, read.cause]).toEqual([code, thrown]);
    expect(read.message).toMatch(/^parquet-reader: the byte source failed reading bytes \[\d+, \d+\): /);
  });

  test('a hand-written source answering the wrong number of bytes, or no bytes: SOURCE_ERROR, also through readRanges', async () => {
    const short = await failure(() => openParquet(failing(Infinity, (s, e) => Promise.resolve(file.subarray(s, e - 1)))));
    expect(short.code).toBe('SOURCE_ERROR');
    expect(short.message).toBe(`parquet-reader: the byte source returned ${65535} bytes for bytes [${file.length - 65536}, ${file.length}), expected a Uint8Array of 65536 bytes`);
    const none = await failure(() => readRanges(failing(Infinity, () => Promise.resolve(undefined as unknown as Uint8Array)), [{ start: 0, end: 4 }]));
    expect(none.message).toBe('parquet-reader: the byte source returned a undefined for bytes [0, 4), expected a Uint8Array of 4 bytes');
  });

  test('blobSource reads a Blob\'s bytes; a File changed on disk since it was opened is SOURCE_ERROR with the NotReadableError as cause', async () => {
    const rows = await (await openParquet(blobSource(new Blob([file.slice()])))).readRows();
    expect(rows.length).toBe(N);
    expect(rows[12_345]).toEqual({ id: BigInt(12_345 * 7919) });
    const p = path.join(dir, 'changing.parquet');
    fs.writeFileSync(p, file);
    const blob = await fs.openAsBlob(p);
    const pq = await openParquet(blobSource(blob));
    fs.writeFileSync(p, file.subarray(0, file.length - 1000));
    const e = await failure(() => pq.readRows());
    expect(e.code).toBe('SOURCE_ERROR');
    expect(e.message).toMatch(/^parquet-reader: reading bytes \[\d+, \d+\) of the \d+-byte blob failed: NotReadableError: /);
    expect((e.cause as Error).name).toBe('NotReadableError');
    const named = blobSource(new File([file.slice()], 'x.parquet'));
    expect((await failure(() => named.read(0, file.length + 1))).code).toBe('OUT_OF_BOUNDS');
  });

  test('fileSource: a missing file, a directory, a file cut short after opening, a read after close — each a typed error', async () => {
    const missing = await failure(() => fileSource(path.join(dir, 'missing.parquet')));
    expect(missing.code).toBe('SOURCE_ERROR');
    expect(missing.message).toMatch(/^parquet-reader: cannot open .*missing\.parquet: ENOENT: no such file or directory/);
    expect((missing.cause as { code: string }).code).toBe('ENOENT');
    const isDir = await failure(() => fileSource(dir));
    expect(isDir.code).toBe('SOURCE_ERROR');
    expect(isDir.message).toMatch(/^parquet-reader: cannot open .*: (ENOTFILE: not a regular file|EISDIR)/);
    const p = path.join(dir, 'cut.parquet');
    fs.writeFileSync(p, file);
    const src = await fileSource(p);
    const pq = await openParquet(src);
    fs.truncateSync(p, 1000);
    const cut = await failure(() => pq.readRows());
    expect(cut.code).toBe('SOURCE_CHANGED');
    expect(cut.message).toMatch(new RegExp(`cut\\.parquet ended at byte 1000, it was ${file.length} bytes when opened`));
    await src.close();
    await src.close();
    const closed = await failure(() => src.read(0, 4));
    expect(closed.code).toBe('SOURCE_ERROR');
    expect(closed.message).toContain('after close()');
  });
});
