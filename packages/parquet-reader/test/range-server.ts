/**
 * A local HTTP range server (node:http) for the HTTP source's tests: serves one file with byte ranges (RFC 9110 §14),
 * suffix ranges, ETag / Last-Modified and the conditional headers If-Match / If-Unmodified-Since, and logs every
 * request with the bytes it sent. Its behaviour is switched by fields (a server without suffix ranges, one that
 * ignores Range, one hiding Content-Range) and a `hook` that can take any request over (errors, drops, stalls).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
// the writer by path, as in http-source.test.ts (a devDependency on it would make a cycle in turbo's build graph)
import { field, writeParquet } from '../../parquet-writer/src/index.js';

/** One request as the server saw it. */
export interface Served {
  method: string;
  range: string | undefined;
  status: number;
  /** Body bytes the server sent (or meant to send). */
  bytes: number;
  ifMatch: string | undefined;
  ifUnmodifiedSince: string | undefined;
  /** When the request arrived (performance.now()). */
  at: number;
}

/** The server; every field may be changed between requests. */
export interface RangeServer {
  readonly url: string;
  readonly log: Served[];
  /** The file served (assign to replace it). */
  file: Uint8Array;
  /** Sent as ETag when defined. */
  etag: string | undefined;
  /** Sent as Last-Modified when defined. */
  lastModified: string | undefined;
  /** Answers `bytes=-N` (else 416 without Content-Range). */
  suffix: boolean;
  /** Answers ranges (else 200 with the whole file). */
  ranges: boolean;
  /** Answers suffix ranges with the whole file (200) even when `ranges` is true. */
  suffixWhole: boolean;
  /** Leaves Content-Range out (a cross-origin answer that does not expose it). */
  hideContentRange: boolean;
  /** Honours If-Match / If-Unmodified-Since (412 when they fail). */
  conditional: boolean;
  /** Takes a request over when it returns true (`n`: the request's ordinal since the log was last cleared). */
  hook: ((req: http.IncomingMessage, res: http.ServerResponse, n: number) => boolean) | undefined;
  /** Clears the log and resets every behaviour. */
  reset(file?: Uint8Array): void;
  close(): Promise<void>;
}

/**
 * Starts a range server on 127.0.0.1 (a random port).
 * @param file - the file to serve.
 * @returns the server.
 */
export async function rangeServer(file: Uint8Array): Promise<RangeServer> {
  const s: RangeServer = {
    url: '',
    log: [],
    file,
    etag: undefined,
    lastModified: undefined,
    suffix: true,
    ranges: true,
    suffixWhole: false,
    hideContentRange: false,
    conditional: true,
    hook: undefined,
    reset(f?: Uint8Array) {
      s.log.length = 0;
      if (f) s.file = f;
      Object.assign(s, { etag: undefined, lastModified: undefined, suffix: true, ranges: true, suffixWhole: false, hideContentRange: false, conditional: true, hook: undefined });
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
  const server = http.createServer((req, res) => {
    const entry: Served = {
      method: req.method ?? '',
      range: req.headers.range,
      status: 0,
      bytes: 0,
      ifMatch: req.headers['if-match'],
      ifUnmodifiedSince: req.headers['if-unmodified-since'],
      at: performance.now(),
    };
    s.log.push(entry);
    if (s.hook?.(req, res, s.log.length - 1)) {
      entry.status = -1;
      return;
    }
    const f = s.file;
    const validators: Record<string, string> = {};
    if (s.etag !== undefined) validators.etag = s.etag;
    if (s.lastModified !== undefined) validators['last-modified'] = s.lastModified;
    const send = (status: number, headers: Record<string, string | number>, body?: Uint8Array): void => {
      entry.status = status;
      entry.bytes = body?.length ?? 0;
      res.writeHead(status, { ...validators, ...headers });
      res.end(body && req.method !== 'HEAD' ? Buffer.from(body.buffer, body.byteOffset, body.length) : undefined);
    };
    if (s.conditional) {
      const im = req.headers['if-match'];
      const ius = req.headers['if-unmodified-since'];
      if ((im !== undefined && im !== '*' && im !== s.etag) || (ius !== undefined && s.lastModified !== undefined && Date.parse(s.lastModified) > Date.parse(ius))) {
        return send(412, { 'content-length': 0 });
      }
    }
    if (req.method === 'HEAD') return send(200, { 'content-length': f.length, 'accept-ranges': 'bytes' });
    const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    const whole = (): void => send(200, { 'content-length': f.length }, f);
    if (!m || !s.ranges) return whole();
    let start: number;
    let end: number; // inclusive
    if (m[1] === '') {
      if (!s.suffix) return send(416, { 'content-length': 0 });
      if (s.suffixWhole) return whole();
      const n = Number(m[2]);
      if (f.length === 0) return send(416, { 'content-range': 'bytes */0', 'content-length': 0 });
      start = Math.max(0, f.length - n);
      end = f.length - 1;
    } else {
      start = Number(m[1]);
      end = m[2] === '' ? f.length - 1 : Math.min(Number(m[2]), f.length - 1);
      if (start >= f.length) return send(416, { 'content-range': `bytes */${f.length}`, 'content-length': 0 });
    }
    const headers: Record<string, string | number> = { 'content-length': end - start + 1 };
    if (!s.hideContentRange) headers['content-range'] = `bytes ${start}-${end}/${f.length}`;
    send(206, headers, f.subarray(start, end + 1));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  (s as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/file.parquet`;
  return s;
}

/** `bytes=a-b` of a logged request as `[a, b + 1)`; undefined for suffix ranges and no range. */
export function loggedRange(r: Served): [number, number] | undefined {
  const m = /^bytes=(\d+)-(\d+)$/.exec(r.range ?? '');
  return m ? [Number(m[1]), Number(m[2]) + 1] : undefined;
}

/**
 * A file of one required INT64 column `id` whose row i holds i × `step`, UNCOMPRESSED, to serve.
 * @param n - the rows.
 * @param step - the multiplier.
 * @param rowGroupRows - the rows of a row group.
 * @returns the file.
 */
export function int64File(n: number, step: number, rowGroupRows: number): Promise<Uint8Array> {
  const id = new BigInt64Array(n);
  for (let i = 0; i < n; i++) id[i] = BigInt(i * step);
  return writeParquet({ id: { kind: 'leaf', length: n, validity: null, values: id } } as never, {
    schema: { id: field.int64({ required: true }) },
    compression: 'UNCOMPRESSED',
    rowGroupRows,
  });
}
