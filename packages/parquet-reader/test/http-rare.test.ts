/**
 * The HTTP source's rare paths (retries, answers other than 206) are a module of their own, `src/http-rare.ts`,
 * loaded with `import()` the first time a source needs it (see source.ts). Here that module cannot be loaded (its
 * import rejects, as a browser's would for a chunk it cannot fetch): a server answering range requests with 206 is
 * read as usual, which shows that the common paths never load it; a first attempt that fails is that attempt's error,
 * naming why it was not retried; with `retries: 0` the error is the one the source always gave. The paths themselves
 * are tested through the public API in http-source.test.ts and http-faults.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { fetchSource, openParquet } from '@parquetry/parquet-reader';
import { int64File, rangeServer, type RangeServer } from './range-server.js';

vi.mock('../src/http-rare.js', () => {
  throw new Error('failed to fetch the http-rare chunk');
});

const N = 30_000;
let file: Uint8Array;
let srv: RangeServer;

beforeAll(async () => {
  // larger than the tail guess, so that a read fetches bytes the opening request did not
  file = await int64File(N, 31, 10_000);
  expect(file.length).toBeGreaterThan(65536 * 2);
  srv = await rangeServer(file);
});
afterAll(() => srv.close());

/** The ParquetError a call rejects with. */
async function rejection(f: () => Promise<unknown>): Promise<{ code: string; message: string; cause: unknown }> {
  try {
    await f();
  } catch (e) {
    const err = e as { name?: unknown; code?: unknown; message: string; cause?: unknown };
    if (err?.name !== 'ParquetError' || typeof err.code !== 'string') throw new Error(`expected a ParquetError, got ${String((e as Error)?.stack ?? e)}`);
    return { code: err.code, message: err.message, cause: err.cause };
  }
  throw new Error('expected a ParquetError, nothing was thrown');
}

describe('fetchSource without its rare paths (their module does not load)', () => {
  test('a server answering 206: the file opens and reads whole (suffix request, then range requests with If-Match)', async () => {
    srv.reset();
    srv.etag = '"v1"';
    const src = await fetchSource(srv.url);
    const rows = await (await openParquet(src)).readRows();
    expect(rows.length).toBe(N);
    expect(rows[N - 1]).toEqual({ id: BigInt((N - 1) * 31) });
    expect(srv.log.length).toBeGreaterThan(1);
    expect(srv.log.every((r) => r.status === 206)).toBe(true);
    expect(srv.log.slice(1).every((r) => r.ifMatch === '"v1"')).toBe(true);
    expect(src.requestsSent).toBe(srv.log.length);
  });

  test('a size given up front, bytes held and joined to the tail: no request but 206 ones', async () => {
    srv.reset();
    const src = await fetchSource(srv.url, { byteLength: file.length });
    const tail = await src.read(file.length - 100, file.length);
    expect(tail).toEqual(file.subarray(file.length - 100));
    expect(src.heldFrom).toBe(file.length - 100);
    const across = await src.read(file.length - 300, file.length - 50);
    expect(across).toEqual(file.subarray(file.length - 300, file.length - 50));
    expect(srv.log.map((r) => r.status)).toEqual([206, 206]);
  });

  test('a 503 to the first attempt: that attempt\'s HTTP_ERROR, naming why it was not retried; one request', async () => {
    srv.reset();
    srv.hook = (_req, res) => (res.writeHead(503, { 'content-length': 0 }).end(), true);
    const e = await rejection(() => fetchSource(srv.url));
    expect(e.code).toBe('HTTP_ERROR');
    // vitest wraps the mock's error in its own (the message then quotes ours)
    expect(e.message.startsWith(`parquet-reader: GET ${srv.url} (bytes=-65536): answered with HTTP 503 Service Unavailable (not retried: Error: `)).toBe(true);
    expect(e.message).toMatch(/failed to fetch the http-rare chunk\)*$/);
    expect(srv.log.length).toBe(1);
  });

  test('retries: 0: the error the source always gave, without loading anything', async () => {
    srv.reset();
    srv.hook = (_req, res) => (res.writeHead(503, { 'content-length': 0 }).end(), true);
    const e = await rejection(() => fetchSource(srv.url, { retries: 0 }));
    expect(e.code).toBe('HTTP_ERROR');
    expect(e.message).toBe(`parquet-reader: GET ${srv.url} (bytes=-65536): answered with HTTP 503 Service Unavailable`);
    expect(srv.log.length).toBe(1);
  });

  test('answers the source refuses (a changed ETag, another file size, not Parquet): their code, the message saying its explanation did not load; no retry', async () => {
    // a changed ETag on a 206 answer
    srv.reset();
    srv.etag = '"v1"';
    const src = await fetchSource(srv.url);
    srv.conditional = false;
    srv.etag = '"v2"';
    let e = await rejection(() => src.read(0, 100));
    expect(e.code).toBe('SOURCE_CHANGED');
    expect(e.message).toMatch(new RegExp(`^parquet-reader: GET ${srv.url} \\(bytes=0-99\\): the answer cannot be used \\(etag; its explanation could not be loaded: `));
    expect(srv.log.length).toBe(2);
    // a Content-Range naming another file size
    srv.reset();
    const sized = await fetchSource(srv.url);
    srv.hook = (_req, res) => (res.writeHead(206, { 'content-range': `bytes 0-99/${file.length + 1}`, 'content-length': 100 }).end(Buffer.from(file.subarray(0, 100))), true);
    e = await rejection(() => sized.read(0, 100));
    expect(e.code).toBe('SOURCE_CHANGED');
    expect(e.message).toContain('(size; its explanation could not be loaded: ');
    // a small file that is not Parquet, its first bytes in the opening answer
    srv.reset(new TextEncoder().encode('<html><body>no such file</body></html>'));
    e = await rejection(() => fetchSource(srv.url));
    expect(e.code).toBe('NOT_PARQUET');
    expect(e.message).toContain('(magic; its explanation could not be loaded: ');
    expect(srv.log.length).toBe(1);
    srv.reset(file);
  });

  test('a server ignoring Range: the 200 answer cannot be handled without the module, and fails as a network error would', async () => {
    srv.reset();
    srv.ranges = false;
    const e = await rejection(() => fetchSource(srv.url, { retries: 2 }));
    expect(e.code).toBe('NETWORK_ERROR');
    expect(e.message).toContain('not retried');
    expect(srv.log.length).toBe(1);
  });
});
